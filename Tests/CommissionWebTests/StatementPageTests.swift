import CommissionCore
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// A busy clinic's statement stays a page her phone loads: beyond a few hundred lines it shows
/// its totals and its lines grouped — by day, or by product — the lines of the group she opens a
/// page at a time; its CSV keeps every line.
@Suite struct StatementPageTests {
    /// Glow's October: 250 sales of Serum, ten a day on the 1st to the 25th, and one of Mask.
    func busyOctober() async throws -> (TestApp, Product) {
        let test = try await TestApp()
        let mask = try await test.store.createProduct(
            ProductDraft(name: "Mask", unitPrice: Money(minorUnits: 3000), unitCost: Money(minorUnits: 1000))
        )
        for index in 0..<250 {
            _ = try await test.store.createSale(
                SaleDraft(
                    clinicID: test.glow.id,
                    productID: test.serum.id,
                    date: try Day(parsing: "2026-10-01").adding(days: index / 10)
                ),
                idempotencyKey: nil
            )
        }
        _ = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: mask.id, date: try Day(parsing: "2026-10-03")),
            idempotencyKey: nil
        )
        return (test, mask)
    }

    func rows(_ html: String, of table: String) -> Int {
        guard let start = html.range(of: "id=\"\(table)\""), let end = html[start.upperBound...].range(of: "</tbody>")
        else { return -1 }
        return html[start.upperBound..<end.lowerBound].components(separatedBy: "<tr").count - 2
    }

    @Test func aStatementOfManyLinesShowsItsDaysAndTheLinesOfTheDaySheOpens() async throws {
        let (test, _) = try await busyOctober()
        try await test.app.test(.router) { client in
            let (session, _) = try await signUp(client)
            let headers: HTTPFields = [.cookie: "commission_session=\(session)"]
            let base = "/statements?clinic=\(test.glow.id)&date=2026-10-01"
            let page = try await client.execute(uri: base, method: .get, headers: headers).text
            // Its totals whole, its 25 days (each its sales and commission), no line.
            #expect(page.contains("id=\"statement-totals\"") && page.contains("<dd>251</dd>"))
            #expect(page.contains("251 sales, by day") && rows(page, of: "statement-group-table") == 25)
            #expect(!page.contains("id=\"statement-lines\""))
            #expect(page.contains(">Oct 3</a></td><td class=\"num\">11</td>"), "ten serums and a mask on the 3rd")
            // The 3rd opened: its eleven lines, the day marked among the others.
            let day = try await client.execute(
                uri: base + "&lines=day&day=2026-10-03",
                method: .get,
                headers: headers
            ).text
            #expect(day.contains("<span>Oct 3: 11 sales</span>") && rows(day, of: "statement-lines") == 11)
            #expect(day.contains("aria-current=\"true\">Oct 3</a>") && !day.contains("Next lines"))
        }
    }

    @Test func byProductTheLinesOfABusyProductComeAPageAtATime() async throws {
        let (test, mask) = try await busyOctober()
        try await test.app.test(.router) { client in
            let (session, _) = try await signUp(client)
            let headers: HTTPFields = [.cookie: "commission_session=\(session)"]
            let base = "/statements?clinic=\(test.glow.id)&date=2026-10-01"
            let products = try await client.execute(uri: base + "&lines=product", method: .get, headers: headers).text
            #expect(products.contains("251 sales, by product") && rows(products, of: "statement-group-table") == 2)
            #expect(products.contains("&amp;lines=product&amp;product=\(mask.id)#statement-opened\">Mask</a>"))
            let serum = base + "&lines=product&product=\(test.serum.id)"
            let first = try await client.execute(uri: serum, method: .get, headers: headers).text
            #expect(first.contains("Serum 30ml: 250 sales") && first.contains("Lines 1–200 of 250"))
            #expect(rows(first, of: "statement-lines") == 200 && first.contains("Next lines ›"))
            let second = try await client.execute(uri: serum + "&page=2", method: .get, headers: headers).text
            #expect(second.contains("Lines 201–250 of 250") && rows(second, of: "statement-lines") == 50)
            #expect(second.contains("‹ Previous lines") && !second.contains("Next lines"))
            // A page past the last shows the last; the CSV has every line.
            let past = try await client.execute(uri: serum + "&page=9", method: .get, headers: headers).text
            #expect(past.contains("Lines 201–250 of 250"))
            let csv = try await client.execute(
                uri: "/statements.csv?clinic=\(test.glow.id)&date=2026-10-01",
                method: .get,
                headers: headers
            ).text
            #expect(csv.split(whereSeparator: \.isNewline).filter { $0.contains(",2026-10-") }.count == 251)
        }
    }
}
