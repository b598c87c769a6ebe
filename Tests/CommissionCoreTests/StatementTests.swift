import CommissionCore
import Testing

@Suite struct StatementTests {
    let clinic = Clinic(id: Clinic.ID(1), name: "Glow", schedule: .monthly)
    let period = PayPeriod(start: day("2026-03-01"), end: day("2026-03-31"))

    func line(
        _ id: Int64,
        quantity: Int64 = 1,
        price: Int64,
        cost: Int64 = 0,
        pct: String,
        rule: RoundingRule
    ) throws -> StatementLine {
        let l = SaleLine(
            quantity: quantity,
            unitPrice: cents(price),
            unitCost: cents(cost),
            rate: CommissionRate(share: share(pct), basis: .profit)
        )
        let sale = Sale(
            id: Sale.ID(id),
            clinicID: clinic.id,
            productID: Product.ID(1),
            date: day("2026-03-02"),
            line: l,
            termsID: Terms.ID(1),
            figures: try l.figures(rounding: rule)
        )
        return StatementLine(sale: sale, productName: "Serum")
    }

    static let roundingCases: [(RoundingPolicy, Int64)] = [
        // Two lines each of profit 10.01 at 50% = 500.5 cents exact.
        // Per line, away from zero: 501 + 501 = 1002.
        (RoundingPolicy(rule: .halfAwayFromZero, scope: .perLine), Int64(1002)),
        // Per line, to even: 500 + 500 = 1000.
        (RoundingPolicy(rule: .halfToEven, scope: .perLine), 1000),
        // Per statement: 500.5 + 500.5 = 1001 exactly, under either rule.
        (RoundingPolicy(rule: .halfAwayFromZero, scope: .perStatement), 1001),
        (RoundingPolicy(rule: .halfToEven, scope: .perStatement), 1001),
    ]

    @Test(arguments: roundingCases)
    func roundingModesGiveTheirTotals(policy: RoundingPolicy, expected: Int64) throws {
        let lines = [
            try line(1, price: 1001, pct: "50%", rule: policy.rule),
            try line(2, price: 1001, pct: "50%", rule: policy.rule),
        ]
        let statement = try Statement(
            clinic: clinic,
            period: period,
            lines: lines,
            payouts: [],
            rounding: policy,
            isClosed: false
        )
        #expect(statement.totals.commission == cents(expected))
        #expect(statement.totals.revenue == cents(2002))
    }

    @Test func perStatementRoundsTheSumOfExactValuesOnce() throws {
        // Three lines of profit 0.01 at 50% = 0.5 cents each. Per line (away): 1+1+1 = 3 cents.
        // Per statement: 1.5 cents → 2 (away) or 2 (even, 2 is even).
        let policy = RoundingPolicy(rule: .halfAwayFromZero, scope: .perStatement)
        let lines = try (1...3).map { try line(Int64($0), price: 1, pct: "50%", rule: policy.rule) }
        let perLine = try Statement(
            clinic: clinic,
            period: period,
            lines: lines,
            payouts: [],
            rounding: .default,
            isClosed: false
        )
        let once = try Statement(
            clinic: clinic,
            period: period,
            lines: lines,
            payouts: [],
            rounding: policy,
            isClosed: false
        )
        #expect(perLine.totals.commission == cents(3))
        #expect(once.totals.commission == cents(2))
    }

    @Test func balanceIsExpectedMinusReceived() throws {
        // 2 × 50.00 at cost 20.00, 40% → 24.00 expected; 20.00 received → 4.00 still owed.
        let lines = [try line(1, quantity: 2, price: 5000, cost: 2000, pct: "40%", rule: .halfAwayFromZero)]
        let payout = Payout(
            id: Payout.ID(1),
            clinicID: clinic.id,
            period: period,
            amount: cents(2000),
            receivedOn: day("2026-04-05")
        )
        let statement = try Statement(
            clinic: clinic,
            period: period,
            lines: lines,
            payouts: [payout],
            rounding: .default,
            isClosed: false
        )
        #expect(statement.totals.commission == cents(2400))
        #expect(statement.received == cents(2000))
        #expect(statement.balance == cents(400))
    }

    @Test func perLineTotalsEqualTheSumOfTheirLines() throws {
        var random = SeededRandom(seed: 42)
        for _ in 0..<300 {
            let lines = try (0..<Int.random(in: 1...40, using: &random)).map { index in
                try line(
                    Int64(index),
                    quantity: Int64.random(in: -3...9, using: &random) | 1,
                    price: Int64.random(in: 0...50_000, using: &random),
                    cost: Int64.random(in: 0...50_000, using: &random),
                    pct: "\(Int.random(in: 0...100, using: &random)).\(Int.random(in: 10...99, using: &random))"
                        .replacingOccurrences(of: "100.", with: "99."),
                    rule: .halfAwayFromZero
                )
            }
            let statement = try Statement(
                clinic: clinic,
                period: period,
                lines: lines,
                payouts: [],
                rounding: .default,
                isClosed: false
            )
            #expect(
                statement.totals.commission.minorUnits == lines.reduce(0) { $0 + $1.sale.figures.commission.minorUnits }
            )
            #expect(statement.totals.revenue.minorUnits == lines.reduce(0) { $0 + $1.sale.figures.revenue.minorUnits })
            #expect(statement.totals.profit.minorUnits == lines.reduce(0) { $0 + $1.sale.figures.profit.minorUnits })
            #expect(statement.totals.saleCount == lines.count)
        }
    }
}

@Suite struct ReconciliationTests {
    let clinic = Clinic(id: Clinic.ID(1), name: "Glow", schedule: .monthly)
    func month(_ m: Int) -> PayPeriod {
        let first = try! Day(year: 2026, month: m, day: 1)
        return PayPeriod(start: first, end: first.lastOfMonth)
    }

    @Test func statusesAndRunningBalance() throws {
        // Jan: 100.00 due, 100.00 paid → settled, balance 0.
        // Feb: 80.00 due, 50.00 paid → underpaid by 30.00, balance 30.00.
        // Mar: 20.00 due, nothing paid → unpaid, balance 50.00.
        // Apr: 10.00 due, 15.00 paid → overpaid by 5.00, balance 45.00.
        // May: nothing due, nothing paid → nothing due, balance 45.00.
        // Jun (contains today): 12.00 so far → open, balance 57.00.
        let entries: [(period: PayPeriod, expected: Money, received: Money, isClosed: Bool)] = [
            (month(1), cents(10000), cents(10000), true),
            (month(2), cents(8000), cents(5000), false),
            (month(3), cents(2000), .zero, false),
            (month(4), cents(1000), cents(1500), false),
            (month(5), .zero, .zero, false),
            (month(6), cents(1200), .zero, false),
        ]
        let reconciliation = try Reconciliation(clinic: clinic, entries: entries.reversed(), today: day("2026-06-10"))
        #expect(reconciliation.periods.map(\.status) == [.settled, .underpaid, .unpaid, .overpaid, .nothingDue, .open])
        #expect(reconciliation.periods.map(\.difference) == [0, 3000, 2000, -500, 0, 1200].map(cents))
        #expect(reconciliation.periods.map(\.balance) == [0, 3000, 5000, 4500, 4500, 5700].map(cents))
        #expect(reconciliation.balance == cents(5700))
        #expect(reconciliation.periods.filter(\.status.needsAttention).map(\.period) == [month(2), month(3), month(4)])
    }
}
