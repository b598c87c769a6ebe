import CommissionCore
import CommissionKit
import CommissionSQLite
import CommissionStore
import Foundation
import Testing

/// Her numbers against the clinic's, line by line: each kind of difference found and explained,
/// the totals' difference the sum of the explained lines, and nothing in her book changed until
/// she accepts a line.
@Suite struct ComparisonTests {
    /// Glow's March in her book (Serum $12 of commission a unit, Peel kit $24): 3/5 three serums,
    /// 3/9 one, 3/12 a peel kit, 3/20 two serums, 3/25 a peel kit — $120 in all.
    static func book(in directory: URL) throws -> String {
        let path = try BankStatementTests.book(in: directory)
        #expect(
            try commission(["product", "add", "Peel kit", "--price", "70", "--cost", "10", "--db", path]).status == 0
        )
        let sales = directory.appendingPathComponent("march.csv")
        try """
        date,clinic,product,quantity
        2026-03-09,Glow Aesthetics,Serum,1
        2026-03-12,Glow Aesthetics,Peel kit,1
        2026-03-20,Glow Aesthetics,Serum,2
        2026-03-25,Glow Aesthetics,Peel kit,1

        """.write(to: sales, atomically: true, encoding: .utf8)
        #expect(try commission(["import", sales.path, "--db", path]).status == 0)
        return path
    }

    /// Glow's own March statement, under its own headers: 3/5 agrees; 3/9's serum dated 3/10 (a
    /// day's shift); the peel kit under Glow's own name; 3/20 at another price and commission;
    /// 3/25's peel kit missing; a serum on 3/28 she does not have.
    static let theirs = """
        Date,Item,Qty,Price,Your commission
        2026-03-05,Serum,3,50.00,36.00
        2026-03-10,Serum,1,50.00,12.00
        2026-03-12,PEEL KIT (RETAIL),1,70.00,24.00
        2026-03-20,Serum,2,45.00,8.00
        2026-03-28,Serum,1,50.00,12.00

        """

    @Test func eachDifferenceIsFoundAndExplainedAndTheTotalsAddUp() async throws {
        let directory = temporaryDirectory()
        let path = try Self.book(in: directory)
        let file = directory.appendingPathComponent("glow-march.csv")
        try Self.theirs.write(to: file, atomically: true, encoding: .utf8)
        let store = try SQLiteStore(.file(path))
        let glow = try await store.clinic(named: "Glow Aesthetics")
        let march = glow.calendar.period(containing: day("2026-03-01"))

        // The comparison itself: every line explained, and the lines' differences add up to the totals'.
        let statement = try TheirStatement(origin: .file(path: file.path), currency: .usd)
        let first = try await StatementComparison.compare(statement, clinic: glow, period: march, store: store)
        #expect(first.theirTotal == cents(9200) && first.herTotal == cents(12000) && first.difference == cents(-2800))
        #expect(try Money.sum(first.differing.map(\.commissionDifference)) == first.difference)
        #expect(
            first.differing.map(\.differences) == [
                [.shifted(theirs: day("2026-03-10"), hers: day("2026-03-09"))],
                [.missingOnHers, .unknownProduct("PEEL KIT (RETAIL)")],
                [.missingOnTheirs],  // her 3/12 peel kit, until she says what Glow calls it
                [.price(theirs: cents(4500), hers: cents(5000)), .commission(theirs: cents(800), hers: cents(2400))],
                [.missingOnTheirs],
                [.missingOnHers],
            ]
        )

        // On the command line: their name for the peel kit told once, and remembered.
        let told = try commission([
            "compare", "Glow Aesthetics", file.path, "--product", "PEEL KIT (RETAIL)=Peel kit", "--db", path,
        ])
        #expect(told.status == 0, "\(told.stderr)")
        let out = told.stdout
        #expect(out.contains("Glow Aesthetics, 2026-03-01 – 2026-03-31: their statement"), "\(out)")
        #expect(
            out.contains("Their commission 92.00, yours 120.00: they credit you 28.00 less, line by line:"),
            "\(out)"
        )
        #expect(out.contains("dated 2026-03-10 on theirs, 2026-03-09 in your book"), "\(out)")
        #expect(
            out.contains(
                "price 45.00 on theirs, 50.00 in your book; commission 8.00 on theirs, 24.00 in your book      -16.00"
            ),
            "\(out)"
        )
        #expect(
            out.contains("2026-03-25  Peel kit  —                  1 × 70.00 → 24.00  not on their statement"),
            "\(out)"
        )
        #expect(out.contains("2026-03-28  Serum     1 × 50.00 → 12.00  —                  not in your book"), "\(out)")
        #expect(
            out.contains("Total     92.00              120.00             their total minus yours")
                && out.contains("-28.00\n"),
            "\(out)"
        )
        #expect(out.contains("2 lines agree."), "\(out)")
        #expect(!out.contains("PEEL KIT (RETAIL)"), "\(out)")
        #expect(try await store.aliases(clinic: glow.id).map(\.name) == ["PEEL KIT (RETAIL)"])
        let again = try commission(["compare", "Glow Aesthetics", file.path, "--db", path]).stdout
        #expect(again.contains("2 lines agree.") && !again.contains("is not one of yours"), "\(again)")

        // Nothing changed in her book; then she accepts their 3/28 serum (line 4) and disputes the price (line 2).
        #expect(try await store.countSales(SaleQuery(clinicID: glow.id)) == 7)
        let wrong = try commission(["compare", "Glow Aesthetics", file.path, "--accept", "3", "--db", path])
        #expect(
            wrong.status != 0 && wrong.stderr.contains("Line 3 is not a line of theirs missing from your book"),
            "\(wrong.stderr)"
        )
        let dispute = directory.appendingPathComponent("dispute.csv")
        let accepted = try commission([
            "compare", "Glow Aesthetics", file.path, "--accept", "4", "--dispute", "2", "--dispute-csv", dispute.path,
            "--db", path,
        ])
        #expect(
            accepted.status == 0 && accepted.stdout.contains("Recorded 1 sale from their statement.")
                && accepted.stdout.contains("Wrote the 1 disputed line"),
            "\(accepted.stdout)\(accepted.stderr)"
        )
        let added = try #require(
            try await store.sales(SaleQuery(clinicID: glow.id, from: day("2026-03-28"), through: day("2026-03-28")))
                .first
        )
        #expect(
            added.quantity == 1 && added.figures.commission == cents(1200) && added.note?.contains("line 6") == true
        )
        let csv = try String(contentsOf: dispute, encoding: .utf8)
        #expect(
            csv.hasPrefix(
                "clinic,period start,period end,date,product,line of your statement,your quantity,my quantity,your price,my price,your commission,my commission,difference,what differs\r\n"
            )
        )
        #expect(
            csv.contains(
                "Glow Aesthetics,2026-03-01,2026-03-31,2026-03-20,Serum,5,2,2,45.00,50.00,8.00,24.00,-16.00,"
                    + "\"price 45.00 on your statement, 50.00 in my records; commission 8.00 on your statement, 24.00 in my records\""
            ),
            "\(csv)"
        )
        #expect(csv.contains("Total,,,,,,,,-16.00,the disputed lines"), "\(csv)")

        // Accepted, the line agrees: the same statement again has one difference less, and accepting it twice is refused.
        let after = try commission(["compare", "Glow Aesthetics", file.path, "--db", path]).stdout
        #expect(after.contains("3 lines agree.") && after.contains("they credit you 40.00 less"), "\(after)")
    }

    /// Two serums on one day at 40.00 and 50.00 in her book, listed the other way round on theirs:
    /// each line pairs with the sale whose figures agree, and nothing differs.
    @Test func twoSalesOfADayAtSwappedPricesPairByTheirFigures() async throws {
        let directory = temporaryDirectory()
        let path = try Self.book(in: directory)
        let sales = file(
            "two.csv",
            "date,clinic,product,quantity,unit price\n2026-03-27,Glow Aesthetics,Serum,1,40.00\n2026-03-27,Glow Aesthetics,Serum,1,50.00\n",
            in: directory
        )
        #expect(try commission(["import", sales, "--db", path]).status == 0)
        let store = try SQLiteStore(.file(path))
        let glow = try await store.clinic(named: "Glow Aesthetics")
        let mine = try await store.sales(
            SaleQuery(clinicID: glow.id, from: day("2026-03-27"), through: day("2026-03-27"))
        )
        #expect(
            Set(mine.map { [$0.line.unitPrice, $0.figures.commission] }) == [
                [cents(4000), cents(800)], [cents(5000), cents(1200)],
            ]
        )
        let theirs = try TheirStatement(
            origin: .data(
                Data(
                    """
                    Date,Item,Qty,Price,Your commission
                    2026-03-27,Serum,1,50.00,12.00
                    2026-03-27,Serum,1,40.00,8.00

                    """.utf8
                ),
                name: "theirs.csv"
            ),
            currency: .usd
        )
        let compared = try await StatementComparison.compare(
            theirs,
            clinic: glow,
            period: glow.calendar.period(containing: day("2026-03-27")),
            store: store
        )
        let thatDay = compared.lines.filter { $0.date == day("2026-03-27") }
        #expect(thatDay.count == 2 && thatDay.allSatisfy { $0.differences.isEmpty }, "\(thatDay.map(\.differences))")
    }

    @Test func aStatementWithoutACommissionColumnSaysWhatItHas() throws {
        let directory = temporaryDirectory()
        let path = try Self.book(in: directory)
        let file = directory.appendingPathComponent("bare.csv")
        try "Date,Item,Qty\n2026-03-05,Serum,3\n".write(to: file, atomically: true, encoding: .utf8)
        let refused = try commission(["compare", "Glow Aesthetics", file.path, "--db", path])
        #expect(
            refused.status != 0 && refused.stderr.contains("lacks the required column \"commission\""),
            "\(refused.stderr)"
        )
        #expect(refused.stderr.contains("Its columns are \"Date\", \"Item\", \"Qty\""), "\(refused.stderr)")
    }
}
