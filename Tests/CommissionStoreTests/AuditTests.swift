import CommissionCore
import CommissionStore
import Foundation
import Testing

/// A sale's audit entry, written member by member on every sale entered, is the bytes its record
/// encoded would be: for returns, discounts, no-commission sales, voided ones, and notes that need
/// escaping or that only `JSONEncoder` writes (a control character).
@Suite struct AuditTests {
    @Test func aSalesEntryIsItsRecordEncoded() throws {
        let notes: [String?] = [
            nil, "", "first visit", "Glow \"VIP\" / Paris\\Lyon", "line\nbreak\ttab\r\u{08}\u{0C}",
            "é 🧴 e\u{301} \u{2028}",
            "a bell \u{07}", "\u{7F}", "</script>",
        ]
        let context = LedgerTests.context()
        var generator = SplitMix64(seed: 2026_1127)
        var checked = 0
        for _ in 0..<400 {
            let month = Int.random(in: 3...10, using: &generator)
            let draft = LedgerTests.draft(
                "2026-\(month < 10 ? "0" : "")\(month)-10",
                quantity: Int64.random(in: -3...5, using: &generator).nonZero,
                price: Bool.random(using: &generator) ? Int64.random(in: 0...900_000, using: &generator) : nil,
                discount: Int64.random(in: 0...500, using: &generator),
                noCommission: Int.random(in: 0..<5, using: &generator) == 0
            )
            guard var sale = try? Ledger.sale(draft, in: context) else { continue }
            sale.id = Sale.ID(Int64.random(in: 1...Int64.max, using: &generator))
            sale.note = notes.randomElement(using: &generator)!
            sale.isVoided = Bool.random(using: &generator)
            #expect(Audit.json(sale) == Audit.jsonThroughEncoder(sale), "\(sale)")
            checked += 1
        }
        #expect(checked > 300)
        // One spelled out, keys in their order, a nil field left out.
        var sale = try Ledger.sale(LedgerTests.draft("2026-03-10", quantity: 2), in: context)
        sale.note = nil
        #expect(
            Audit.json(sale)
                == #"{"basis":"profit","clinicId":1,"commissionMinor":2700,"date":"2026-03-10","discountMinor":0,"productId":1,"#
                + #""profitMinor":6000,"quantity":2,"revenueMinor":10000,"shareBasisPoints":4500,"termsId":2,"unitCostMinor":2000,"#
                + #""unitPriceMinor":5000,"voided":false}"#
        )
    }
}

extension Int64 {
    fileprivate var nonZero: Int64 { self == 0 ? 1 : self }
}
