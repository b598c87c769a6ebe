import CommissionCore
import CommissionStore
import Testing

/// Settling a transaction's marks, as both stores do it: what to read and what to write, without a
/// database (the stores' own suites hold the figures they keep to the statements').
@Suite struct PeriodSettlementTests {
    let glow = Clinic(id: Clinic.ID(1), name: "Glow", schedule: .monthly)
    let fee = Deduction(
        id: Deduction.ID(1),
        clinicID: Clinic.ID(1),
        name: "Card fees",
        amount: .fixed(Money(minorUnits: 500)),
        effectiveFrom: Day(ordinal: 0)
    )
    let rounding = RoundingPolicy(rule: .halfAwayFromZero, scope: .perLine)

    func day(_ text: String) throws -> Day { try Day(parsing: text) }

    @Test("Marked days recompute their periods: each read, its figure replaced")
    func markedDaysRecomputeTheirPeriods() throws {
        var marks = PeriodMarks()
        try marks.add(stored: "2026-03-02")
        try marks.add(stored: "2026-03-20")
        try marks.add(stored: "2026-04-01")
        var settlement = PeriodSettlement(clinic: glow, marks: marks, rounding: rounding, tiered: [], deductions: [fee])
        let march = PayPeriod(start: try day("2026-03-01"), end: try day("2026-03-31")),
            april = PayPeriod(start: try day("2026-04-01"), end: try day("2026-04-30"))
        #expect(settlement.reads == [.period(march), .period(april)])
        // March sold 100.00 at 40.00 commission; April nothing (its last sale was voided).
        try settlement.sums.add(
            day: try day("2026-03-02"),
            saleCount: 2,
            quantity: 2,
            revenue: Money(minorUnits: 10_000),
            cost: Money(minorUnits: 4_000),
            profit: Money(minorUnits: 6_000),
            commission: Money(minorUnits: 4_000),
            exactCommission: ExactCommission(tenThousandths: 40_000_000)
        )
        #expect(
            try settlement.writes() == [
                .removePeriod(start: march.start), .removePeriod(start: april.start),
                .insert([.init(period: march, expected: Money(minorUnits: 3_500))]),
            ]
        )
    }

    @Test("A whole clinic is read whole when its figures are kept, and forgotten when they no longer are")
    func aWholeClinicIsKeptOrForgotten() throws {
        var marks = PeriodMarks()
        try marks.add(stored: "")
        let kept = PeriodSettlement(clinic: glow, marks: marks, rounding: rounding, tiered: [], deductions: [fee])
        #expect(kept.reads == [.history])
        #expect(try kept.writes() == [.removeAll, .kept(true), .insert([])])
        let plain = PeriodSettlement(clinic: glow, marks: marks, rounding: rounding, tiered: [], deductions: [])
        #expect(plain.reads.isEmpty)
        #expect(try plain.writes() == [.removeAll, .kept(false)])
        // Rounding once per statement keeps every clinic's figures.
        let perStatement = PeriodSettlement(
            clinic: glow,
            marks: marks,
            rounding: RoundingPolicy(rule: .halfAwayFromZero, scope: .perStatement),
            tiered: [],
            deductions: []
        )
        #expect(perStatement.reads == [.history])
    }

    @Test("More periods marked than settling takes one by one: the whole clinic")
    func manyPeriodsAreTheWholeClinic() throws {
        var marks = PeriodMarks()
        for month in 1...12 { try marks.add(stored: "2025-\(month < 10 ? "0" : "")\(month)-15") }
        try marks.add(stored: "2026-01-15")
        let settlement = PeriodSettlement(clinic: glow, marks: marks, rounding: rounding, tiered: [], deductions: [fee])
        #expect(settlement.reads == [.history])
    }
}
