import CommissionCore
import Testing

/// the product brief's "More of her real terms", rule by rule, with figures worked by hand.
@Suite struct RealTermsTests {
    static let glow = Clinic.ID(1)
    static let serum = Product(id: Product.ID(1), name: "Serum", unitPrice: cents(5000), unitCost: cents(2000))

    // MARK: Price lists

    @Test func aClinicsPriceListDecidesTheDefaultsFromItsDateOn() {
        let entries = [
            // From 15 March Glow sells the serum at 45.00, supplied at 18.00.
            PriceListEntry(
                id: PriceListEntry.ID(1),
                clinicID: Self.glow,
                productID: Self.serum.id,
                unitPrice: cents(4500),
                unitCost: cents(1800),
                effectiveFrom: day("2026-03-15")
            ),
            // From 1 April at 48.00 with no cost of its own: the entry replaces the earlier one whole,
            // so the cost is the product's 20.00 again, not 18.00.
            PriceListEntry(
                id: PriceListEntry.ID(2),
                clinicID: Self.glow,
                productID: Self.serum.id,
                unitPrice: cents(4800),
                effectiveFrom: day("2026-04-01")
            ),
            // Another clinic's entry never applies at Glow.
            PriceListEntry(
                id: PriceListEntry.ID(3),
                clinicID: Clinic.ID(2),
                productID: Self.serum.id,
                unitPrice: cents(100),
                effectiveFrom: day("2026-01-01")
            ),
        ]
        func price(_ date: String, at clinic: Clinic.ID = Self.glow) -> (Int64, Int64) {
            let p = SalePrice(Self.serum, at: clinic, on: day(date), entries: entries)
            return (p.unitPrice.minorUnits, p.unitCost.minorUnits)
        }
        #expect(price("2026-03-14") == (5000, 2000))  // before the first entry: the product's own
        #expect(price("2026-03-15") == (4500, 1800))  // mid-month, from its day on
        #expect(price("2026-03-31") == (4500, 1800))
        #expect(price("2026-04-02") == (4800, 2000))  // no cost on the entry: the product's
        #expect(price("2026-03-20", at: Clinic.ID(2)) == (100, 2000))
        #expect(price("2026-03-20", at: Clinic.ID(3)) == (5000, 2000))
        // Two entries on one day: the one made last.
        let later =
            entries + [
                PriceListEntry(
                    id: PriceListEntry.ID(4),
                    clinicID: Self.glow,
                    productID: Self.serum.id,
                    unitPrice: cents(4600),
                    effectiveFrom: day("2026-03-15")
                )
            ]
        #expect(SalePrice(Self.serum, at: Self.glow, on: day("2026-03-20"), entries: later).unitPrice == cents(4600))
    }

    // MARK: Schedule changes

    @Test func aChangeWithinAPeriodCutsBothSchedulesAtItsDay() {
        // Monthly, then weekly on Tuesdays from Tuesday 17 November 2026.
        let onATuesday = PayCalendar(
            .monthly,
            changes: [ScheduleChange(effectiveFrom: day("2026-11-17"), schedule: .weekly(startingOn: .tuesday))]
        )
        #expect(onATuesday.period(containing: day("2026-10-31")) == period("2026-10-01", "2026-10-31"))  // untouched
        #expect(onATuesday.period(containing: day("2026-11-01")) == period("2026-11-01", "2026-11-16"))  // cut short
        #expect(onATuesday.period(containing: day("2026-11-16")) == period("2026-11-01", "2026-11-16"))
        #expect(onATuesday.period(containing: day("2026-11-17")) == period("2026-11-17", "2026-11-23"))  // a whole week
        #expect(onATuesday.period(containing: day("2026-11-24")) == period("2026-11-24", "2026-11-30"))
        #expect(
            onATuesday.periods(from: day("2026-10-20"), through: day("2026-12-01")) == [
                period("2026-10-01", "2026-10-31"), period("2026-11-01", "2026-11-16"),
                period("2026-11-17", "2026-11-23"),
                period("2026-11-24", "2026-11-30"), period("2026-12-01", "2026-12-07"),
            ]
        )

        // The same change on Thursday 12 November: the first week is cut too (its Tuesday, the 10th,
        // was still monthly); then back to monthly from Thursday 3 December.
        let midWeek = PayCalendar(
            .monthly,
            changes: [
                ScheduleChange(effectiveFrom: day("2026-12-03"), schedule: .monthly),
                ScheduleChange(effectiveFrom: day("2026-11-12"), schedule: .weekly(startingOn: .tuesday)),
            ]
        )
        #expect(
            midWeek.periods(from: day("2026-11-01"), through: day("2027-01-01")) == [
                period("2026-11-01", "2026-11-11"), period("2026-11-12", "2026-11-16"),
                period("2026-11-17", "2026-11-23"),
                period("2026-11-24", "2026-11-30"), period("2026-12-01", "2026-12-02"),
                period("2026-12-03", "2026-12-31"),
                period("2027-01-01", "2027-01-31"),
            ]
        )
        #expect(midWeek.schedule(on: day("2026-11-11")) == .monthly)
        #expect(midWeek.schedule(on: day("2026-11-12")) == .weekly(startingOn: .tuesday))
        #expect(midWeek.period(before: period("2026-11-12", "2026-11-16")) == period("2026-11-01", "2026-11-11"))
        #expect(midWeek.isPeriod(period("2026-11-01", "2026-11-11")))
        #expect(!midWeek.isPeriod(period("2026-11-01", "2026-11-30")))
        // No change: exactly the schedule.
        #expect(
            PayCalendar(.semimonthly).period(containing: day("2026-11-20"))
                == PaySchedule.semimonthly.period(containing: day("2026-11-20"))
        )
    }

    @Test func periodsStillTileTheCalendarWhateverTheChanges() {
        var random = SplitMix64(seed: 15)
        let schedules: [PaySchedule] = [
            .monthly, .semimonthly, .weekly(startingOn: .tuesday), .weekly(startingOn: .sunday),
            .biweekly(anchor: day("2026-01-05")),
        ]
        for _ in 0..<200 {
            let start = day("2026-01-01")
            let changes = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                ScheduleChange(
                    effectiveFrom: start.adding(days: Int.random(in: 0...365, using: &random)),
                    schedule: schedules.randomElement(using: &random)!
                )
            }
            let calendar = PayCalendar(schedules.randomElement(using: &random)!, changes: changes)
            var previous = calendar.period(containing: start.adding(days: -1))
            for offset in 0...400 {
                let d = start.adding(days: offset)
                let p = calendar.period(containing: d)
                #expect(p.contains(d))
                // Each day is in the period of the day before, or in the next one, which starts that day.
                #expect(p == previous || (p.start == d && previous.end == d.adding(days: -1)))
                // A change always starts a period.
                if calendar.changes.contains(where: { $0.effectiveFrom == d }) { #expect(p.start == d) }
                previous = p
            }
        }
    }

    // MARK: Tiers

    static let tiers = [
        Tier(threshold: cents(500_000), share: share("50%")), Tier(threshold: cents(1_000_000), share: share("60%")),
    ]

    @Test func theAcceleratorIsMarginalLikeTaxBrackets() throws {
        func accelerator(_ total: Int64) throws -> ExactCommission {
            try Tier.accelerator(total: cents(total), base: share("40%"), tiers: Self.tiers)
        }
        // Exactly on the first threshold: nothing beyond it.
        #expect(try accelerator(500_000) == .zero)
        // One cent beyond: 0.01 × (50% − 40%) = 0.001 → 10 ten-thousandths of a cent.
        #expect(try accelerator(500_001) == ExactCommission(tenThousandths: 1000))
        // 12,000.00: 5,000.00 at +10% = 500.00, and 2,000.00 at +20% = 400.00 → 900.00.
        // (40% × 5,000 + 50% × 5,000 + 60% × 2,000 = 5,700.00 against 4,800.00 at the base share.)
        #expect(try accelerator(1_200_000).rounded(.halfAwayFromZero) == cents(90_000))
        // Exactly on the second threshold: 5,000.00 at +10% = 500.00.
        #expect(try accelerator(1_000_000).rounded(.halfAwayFromZero) == cents(50_000))
        // A period of returns: zero.
        #expect(try accelerator(-30_000) == .zero)
        #expect(try accelerator(0) == .zero)
    }

    @Test("The accelerator is zero up to the first threshold and never falls as the total grows")
    func acceleratorNeverFalls() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<300 {
            let base = Int.random(in: 0...5000, using: &random)
            var threshold: Int64 = 0, shareBP = base
            let tiers = (0..<Int.random(in: 1...4, using: &random)).map { _ in
                threshold += Int64.random(in: 1...1_000_000, using: &random)
                shareBP = Int.random(in: shareBP...10_000, using: &random)
                return Tier(threshold: cents(threshold), share: try! Share(basisPoints: shareBP))
            }
            let baseShare = try Share(basisPoints: base)
            let first = tiers[0].threshold.minorUnits
            #expect(
                try Tier.accelerator(
                    total: cents(Int64.random(in: -1_000_000...first, using: &random)),
                    base: baseShare,
                    tiers: tiers
                ) == .zero
            )
            var previous = ExactCommission.zero
            var total: Int64 = -1000
            for _ in 0..<40 {
                total += Int64.random(in: 0...200_000, using: &random)
                let accelerator = try Tier.accelerator(total: cents(total), base: baseShare, tiers: tiers)
                #expect(accelerator >= previous)
                previous = accelerator
            }
        }
    }

    @Test func tiersAreCheckedAndRead() throws {
        #expect(
            try Tier(parsing: "5000.00:50%", currency: .usd) == Tier(threshold: cents(500_000), share: share("50%"))
        )
        #expect(throws: TierError.malformed("5000")) { try Tier(parsing: "5000", currency: .usd) }
        #expect(throws: TierError.thresholdNotPositive("0.00")) {
            try Tier.validate([Tier(threshold: .zero, share: share("50%"))], currency: .usd)
        }
        #expect(throws: TierError.notIncreasing("5000.00", "5000.00")) {
            try Tier.validate(
                [
                    Tier(threshold: cents(500_000), share: share("50%")),
                    Tier(threshold: cents(500_000), share: share("60%")),
                ],
                currency: .usd
            )
        }
    }

    // MARK: Statements with accelerators and deductions

    let march = period("2026-03-01", "2026-03-31")
    let clinic = Clinic(id: Clinic.ID(1), name: "Glow", schedule: .monthly)

    func line(
        _ id: Int64,
        on date: String = "2026-03-05",
        quantity: Int64 = 1,
        price: Int64,
        terms: Terms,
        rule: RoundingRule = .halfAwayFromZero
    ) throws -> StatementLine {
        let l = SaleLine(
            quantity: quantity,
            unitPrice: cents(price),
            unitCost: .zero,
            rate: CommissionRate(share: terms.share, basis: terms.basis)
        )
        let sale = Sale(
            id: Sale.ID(id),
            clinicID: clinic.id,
            productID: Product.ID(1),
            date: day(date),
            line: l,
            termsID: terms.id,
            figures: try l.figures(rounding: rule)
        )
        return StatementLine(sale: sale, productName: "Serum")
    }

    @Test("Terms changing within a period make two groups, each with its tiers") func termsChangingWithinAPeriod()
        throws
    {
        let a = Terms(
            id: Terms.ID(1),
            clinicID: clinic.id,
            share: share("40%"),
            tiers: [Tier(threshold: cents(100_000), share: share("50%"))],
            effectiveFrom: day("2026-03-01")
        )
        let b = Terms(
            id: Terms.ID(2),
            clinicID: clinic.id,
            share: share("45%"),
            tiers: [
                Tier(threshold: cents(50_000), share: share("55%")),
                Tier(threshold: cents(150_000), share: share("65%")),
            ],
            effectiveFrom: day("2026-03-16")
        )
        let statement = try Statement(
            clinic: clinic,
            period: march,
            lines: [
                try line(1, on: "2026-03-05", price: 120_000, terms: a),  // profit 1,200.00 at 40% = 480.00
                try line(2, on: "2026-03-20", price: 200_000, terms: b),  // profit 2,000.00 at 45% = 900.00
            ],
            payouts: [],
            rounding: .default,
            isClosed: false,
            terms: [a, b]
        )
        #expect(statement.totals.commission == cents(138_000))
        // A: 200.00 beyond 1,000.00 at +10% = 20.00.
        // B: 1,000.00 between 500.00 and 1,500.00 at +10% = 100.00, and 500.00 beyond 1,500.00 at +20% = 100.00.
        #expect(statement.accelerators.map(\.terms.id) == [a.id, b.id])
        #expect(statement.accelerators.map(\.basisTotal) == [cents(120_000), cents(200_000)])
        #expect(statement.accelerators.map(\.amount) == [cents(2_000), cents(20_000)])
        #expect(statement.commission == cents(160_000))
        #expect(statement.netPayable == cents(160_000))
    }

    @Test func perStatementRoundingAddsTheAcceleratorsExactValue() throws {
        let terms = Terms(
            id: Terms.ID(1),
            clinicID: clinic.id,
            share: share("40%"),
            tiers: [Tier(threshold: cents(10_000), share: share("45%"))],
            effectiveFrom: day("2026-01-01")
        )
        // Two lines of profit 100.01 at 40%: 40.004 each. T = 200.02: 100.02 beyond 100.00 at +5% = 5.001.
        func statement(_ scope: RoundingScope) throws -> Statement {
            try Statement(
                clinic: clinic,
                period: march,
                lines: [try line(1, price: 10_001, terms: terms), try line(2, price: 10_001, terms: terms)],
                payouts: [],
                rounding: RoundingPolicy(rule: .halfAwayFromZero, scope: scope),
                isClosed: false,
                terms: [terms]
            )
        }
        let perLine = try statement(.perLine)
        #expect(perLine.accelerators.first?.amount == cents(500))
        #expect(perLine.commission == cents(8_500))  // 40.00 + 40.00 + 5.00
        let once = try statement(.perStatement)
        #expect(once.accelerators.first?.amount == cents(500))  // shown rounded…
        #expect(once.totals.commission == cents(8_001))  // the lines alone: 80.008 → 80.01
        #expect(once.commission == cents(8_501))  // …but 40.004 + 40.004 + 5.001 = 85.009 → 85.01
    }

    @Test func deductionsComeOffTheCommission() throws {
        let terms = Terms(id: Terms.ID(1), clinicID: clinic.id, share: share("40%"), effectiveFrom: day("2026-01-01"))
        let rent = Deduction(
            id: Deduction.ID(1),
            clinicID: clinic.id,
            name: "Room rent",
            amount: .fixed(cents(10_000)),
            effectiveFrom: day("2026-01-01"),
            lastDay: day("2026-03-15")
        )
        let cardFee = Deduction(
            id: Deduction.ID(2),
            clinicID: clinic.id,
            name: "Card fees",
            amount: .shareOfRevenue(share("2.5%")),
            effectiveFrom: day("2026-03-01")
        )
        let lateStart = Deduction(
            id: Deduction.ID(3),
            clinicID: clinic.id,
            name: "Starts mid-period",
            amount: .fixed(cents(500)),
            effectiveFrom: day("2026-03-02")
        )
        let elsewhere = Deduction(
            id: Deduction.ID(4),
            clinicID: Clinic.ID(2),
            name: "Another clinic's",
            amount: .fixed(cents(500)),
            effectiveFrom: day("2026-01-01")
        )
        let all = [cardFee, rent, lateStart, elsewhere]
        func statement(
            _ period: PayPeriod,
            _ lines: [StatementLine],
            rule: RoundingRule = .halfToEven,
            received: Int64 = 0
        ) throws -> Statement {
            let payouts =
                received == 0
                ? []
                : [
                    Payout(
                        id: Payout.ID(1),
                        clinicID: clinic.id,
                        period: period,
                        amount: cents(received),
                        receivedOn: period.end
                    )
                ]
            return try Statement(
                clinic: clinic,
                period: period,
                lines: lines,
                payouts: payouts,
                rounding: RoundingPolicy(rule: rule, scope: .perLine),
                isClosed: false,
                deductions: all
            )
        }
        // March: revenue 1,233.00, commission 493.20. Rent 100.00 (March starts on or before its last
        // day); card fees 2.5% of 1,233.00 = 30.825 → 30.82 to even. Not the one starting 2 March.
        let sold = try statement(
            march,
            [try line(1, price: 123_300, terms: terms, rule: .halfToEven)],
            received: 30_000
        )
        #expect(sold.commission == cents(49_320))
        #expect(sold.deductions.map(\.deduction.name) == ["Room rent", "Card fees"])
        #expect(sold.deductions.map(\.amount) == [cents(10_000), cents(3_082)])
        #expect(sold.netPayable == cents(36_238))  // 493.20 − 100.00 − 30.82
        #expect(sold.balance == cents(6_238))  // against 300.00 received
        // Half away from zero: 30.83.
        #expect(
            try statement(march, [try line(1, price: 123_300, terms: terms)], rule: .halfAwayFromZero).deductions.map(
                \.amount
            )
                == [cents(10_000), cents(3_083)]
        )
        // The second half of March under a twice-monthly schedule starts after the rent's last day:
        // only the card fee and the one from 2 March apply.
        let secondHalf = period("2026-03-16", "2026-03-31")
        #expect(
            try statement(secondHalf, [try line(1, on: "2026-03-20", price: 10_000, terms: terms)]).deductions.map(
                \.deduction.name
            )
                == ["Card fees", "Starts mid-period"]
        )
        // A period of returns: the card fee is zero; the fixed rent still applies (she sold, in a way).
        let returns = try statement(march, [try line(1, quantity: -1, price: 10_000, terms: terms)])
        #expect(returns.deductions.map(\.amount) == [cents(10_000), .zero])
        #expect(returns.netPayable == cents(-14_000))  // −40.00 − 100.00
        // A period without sales: no deduction at all.
        let quiet = try statement(period("2026-02-01", "2026-02-28"), [])
        #expect(quiet.deductions.isEmpty)
        #expect(quiet.netPayable == .zero)
    }

    @Test func aFixedDeductionIsWholeEvenInAPeriodCutShort() throws {
        let calendar = PayCalendar(
            .monthly,
            changes: [ScheduleChange(effectiveFrom: day("2026-03-10"), schedule: .weekly(startingOn: .tuesday))]
        )
        let cut = calendar.period(containing: day("2026-03-02"))
        #expect(cut == period("2026-03-01", "2026-03-09"))
        let rent = Deduction(
            id: Deduction.ID(1),
            clinicID: clinic.id,
            name: "Room rent",
            amount: .fixed(cents(10_000)),
            effectiveFrom: day("2026-01-01")
        )
        let terms = Terms(id: Terms.ID(1), clinicID: clinic.id, share: share("40%"), effectiveFrom: day("2026-01-01"))
        let statement = try Statement(
            clinic: clinic,
            period: cut,
            lines: [try line(1, on: "2026-03-02", price: 10_000, terms: terms)],
            payouts: [],
            rounding: .default,
            isClosed: false,
            deductions: [rent]
        )
        #expect(statement.deductions.map(\.amount) == [cents(10_000)])
    }
}

func period(_ start: String, _ end: String) -> PayPeriod { PayPeriod(start: day(start), end: day(end)) }
