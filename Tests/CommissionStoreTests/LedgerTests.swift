import CommissionCore
import CommissionStore
import Foundation
import Testing

/// The ledger's rules, with worked examples computed by hand (no store: the ledger does no I/O).
///
/// Glow is paid monthly, 40% of profit from 2026-01-01 and, for the serum alone, 45% from
/// 2026-03-01. The serum sells at 50.00 and costs 20.00.
@Suite struct LedgerTests {
    static let glow = Clinic(id: Clinic.ID(1), name: "Glow", schedule: .monthly)
    static let serum = Product(
        id: Product.ID(1),
        name: "Serum",
        sku: "SER",
        unitPrice: cents(5000),
        unitCost: cents(2000)
    )
    static let cream = Product(id: Product.ID(2), name: "Cream", unitPrice: cents(3000), unitCost: cents(1200))
    static let clinicWide = Terms(
        id: Terms.ID(1),
        clinicID: glow.id,
        productID: nil,
        basis: .profit,
        share: share("40"),
        effectiveFrom: day("2026-01-01")
    )
    static let serumOnly = Terms(
        id: Terms.ID(2),
        clinicID: glow.id,
        productID: serum.id,
        basis: .profit,
        share: share("45"),
        effectiveFrom: day("2026-03-01")
    )
    static let rules = EntryRules(rounding: .halfAwayFromZero, days: AcceptedDays(today: day("2026-11-23")))

    static func context(
        _ product: Product = serum,
        closed: [PayPeriod] = [],
        terms: [Terms] = [clinicWide, serumOnly],
        clinic: Clinic = glow
    ) -> SaleContext {
        SaleContext(clinic: clinic, product: product, candidates: terms, rules: rules, closed: ClosedPeriods(closed))
    }

    static func draft(
        _ date: String,
        quantity: Int64 = 1,
        price: Int64? = nil,
        discount: Int64 = 0,
        product: Product = serum,
        noCommission: Bool = false
    ) -> SaleDraft {
        SaleDraft(
            clinicID: glow.id,
            productID: product.id,
            date: day(date),
            quantity: quantity,
            unitPrice: price.map(cents),
            discount: cents(discount),
            noCommission: noCommission
        )
    }

    @Test func aSaleTakesTheProductsPriceAndTheTermsInForce() throws {
        // February: clinic-wide 40%. 2 × (50.00 − 20.00) = 60.00 profit; 40% = 24.00.
        let february = try Ledger.sale(Self.draft("2026-02-10", quantity: 2), in: Self.context())
        #expect(february.line.unitPrice == cents(5000) && february.line.unitCost == cents(2000))
        #expect(february.termsID == Self.clinicWide.id && february.figures.commission == cents(2400))
        // March: the serum's own 45% beats the clinic's. 60.00 × 45% = 27.00.
        let march = try Ledger.sale(Self.draft("2026-03-10", quantity: 2), in: Self.context())
        #expect(march.termsID == Self.serumOnly.id && march.figures.commission == cents(2700))
        // A cream in March: no terms of its own, the clinic's 40%. 30.00 − 12.00 = 18.00; 40% = 7.20.
        #expect(
            try Ledger.sale(Self.draft("2026-03-10", product: Self.cream), in: Self.context(Self.cream)).figures
                .commission == cents(720)
        )
        // A typed price beats the product's: 45.00 − 20.00 = 25.00; 45% = 11.25.
        #expect(
            try Ledger.sale(Self.draft("2026-03-10", price: 4500), in: Self.context()).figures.commission == cents(1125)
        )
        // A return with its discount given back: −(2 × 50.00) + 10.00 = −90.00 revenue; profit −90.00 + 40.00 = −50.00; 45% = −22.50.
        let back = try Ledger.sale(Self.draft("2026-03-10", quantity: -2, discount: 1000), in: Self.context())
        #expect(back.figures.revenue == cents(-9000) && back.figures.commission == cents(-2250))
    }

    @Test func whatASaleIsRefusedFor() throws {
        // No terms before 2026-01-01; no commission needs none.
        #expect(throws: StoreError.noTermsInForce(clinic: "Glow", product: "Serum", on: day("2025-12-31"))) {
            try Ledger.sale(Self.draft("2025-12-31"), in: Self.context())
        }
        #expect(
            try Ledger.sale(Self.draft("2025-12-31", noCommission: true), in: Self.context()).figures.commission
                == .zero
        )
        // A date the book does not take, an archived clinic or product, a discount over the line.
        #expect(throws: DateOutOfRange.self) { try Ledger.sale(Self.draft("2062-03-02"), in: Self.context()) }
        var archived = Self.glow
        archived.isArchived = true
        #expect(throws: StoreError.archived(.clinics, "Glow")) {
            try Ledger.sale(Self.draft("2026-03-02"), in: Self.context(clinic: archived))
        }
        let overDiscount = #expect(throws: SaleLineError.self) {
            try Ledger.sale(Self.draft("2026-03-02", discount: 5001), in: Self.context())
        }
        #expect(overDiscount?.description.hasPrefix("The discount 50.01 is more than the line's total 50.00") == true)
        // A closed period.
        let march = PaySchedule.monthly.period(containing: day("2026-03-01"))
        #expect(throws: StoreError.periodClosed(clinic: "Glow", period: march)) {
            try Ledger.sale(Self.draft("2026-03-15"), in: Self.context(closed: [march]))
        }
    }

    @Test("An edit keeps the price it was computed with and respects closed periods")
    func editKeepsPriceAndClosedPeriods() throws {
        let old = try Ledger.sale(Self.draft("2026-03-10", price: 4500), in: Self.context())
        // The quantity changes; the price left out stays 45.00: 3 × 25.00 = 75.00 profit; 45% = 33.75.
        let edited = try Ledger.edit(
            old,
            oldContext: ClosedPeriods(),
            oldClinic: Self.glow,
            to: Self.draft("2026-03-10", quantity: 3),
            in: Self.context()
        )
        #expect(edited.line.unitPrice == cents(4500) && edited.figures.commission == cents(3375))
        // Out of a closed period, or into one: refused.
        let march = PaySchedule.monthly.period(containing: day("2026-03-01"))
        #expect(throws: StoreError.self) {
            try Ledger.edit(
                old,
                oldContext: ClosedPeriods([march]),
                oldClinic: Self.glow,
                to: Self.draft("2026-04-10"),
                in: Self.context()
            )
        }
        let april = PaySchedule.monthly.period(containing: day("2026-04-01"))
        #expect(throws: StoreError.self) {
            try Ledger.edit(
                old,
                oldContext: ClosedPeriods(),
                oldClinic: Self.glow,
                to: Self.draft("2026-04-10"),
                in: Self.context(closed: [april])
            )
        }
        // Voiding: once, and not in a closed period.
        let voided = try #require(try Ledger.void(old, clinic: Self.glow, closed: ClosedPeriods()))
        #expect(voided.isVoided)
        #expect(try Ledger.void(voided, clinic: Self.glow, closed: ClosedPeriods()) == nil)
        #expect(throws: StoreError.self) { try Ledger.void(old, clinic: Self.glow, closed: ClosedPeriods([march])) }
        #expect(throws: StoreError.self) {
            try Ledger.edit(
                voided,
                oldContext: ClosedPeriods(),
                oldClinic: Self.glow,
                to: Self.draft("2026-03-10"),
                in: Self.context()
            )
        }
    }

    /// Backdated terms: the open period's sales are recomputed, the closed period's counted, the
    /// unchanged ones and those without commission left alone.
    @Test func aChangeOfTermsPlansWhichSalesAreRecomputed() throws {
        let onlyClinicWide = [Self.clinicWide]
        var sales: [Sale] = []
        for (index, date) in ["2026-02-10", "2026-03-10", "2026-04-10"].enumerated() {
            // 24.00 each
            var sale = try Ledger.sale(Self.draft(date, quantity: 2), in: Self.context(terms: onlyClinicWide))
            sale.id = Sale.ID(Int64(index + 1))
            sales.append(sale)
        }
        var sample = try Ledger.sale(
            Self.draft("2026-03-11", noCommission: true),
            in: Self.context(terms: onlyClinicWide)
        )
        sample.id = Sale.ID(9)
        let march = PaySchedule.monthly.period(containing: day("2026-03-01"))
        // The serum's 45% from 2026-03-01 arrives; March is closed.
        let plan = try Ledger.recompute(
            sales + [sample],
            clinic: Self.glow,
            candidates: [Self.clinicWide, Self.serumOnly],
            rules: Self.rules,
            closed: ClosedPeriods([march]),
            productName: { _ in "Serum" }
        )
        #expect(plan.changes.map(\.after.id) == [Sale.ID(3)])  // April: February keeps 40%, March is closed
        #expect(
            plan.changes.first?.after.figures.commission == cents(2700)
                && plan.changes.first?.before.figures.commission == cents(2400)
        )
        #expect(plan.inClosedPeriods == 1)
        // Terms that would leave a sale without any refuse the change.
        #expect(throws: StoreError.self) {
            try Ledger.recompute(
                sales,
                clinic: Self.glow,
                candidates: [],
                rules: Self.rules,
                closed: ClosedPeriods(),
                productName: { _ in "Serum" }
            )
        }
    }

    @Test func aNewRoundingRuleChangesOnlyWhatItRoundsDifferently() {
        // An exact commission of 10.125 (1012.5 cents: 10,125,000 ten-thousandths of a cent): 10.13 away from zero, 10.12 to even.
        let exact = ExactCommission(tenThousandths: 10_125_000)
        #expect(
            Ledger.rerounded(
                exactCommission: exact,
                commission: cents(1013),
                date: day("2026-03-02"),
                rule: .halfToEven,
                closed: ClosedPeriods()
            )
                == cents(1012)
        )
        #expect(
            Ledger.rerounded(
                exactCommission: exact,
                commission: cents(1013),
                date: day("2026-03-02"),
                rule: .halfAwayFromZero,
                closed: ClosedPeriods()
            ) == nil
        )
        let march = PaySchedule.monthly.period(containing: day("2026-03-01"))
        #expect(
            Ledger.rerounded(
                exactCommission: exact,
                commission: cents(1013),
                date: day("2026-03-02"),
                rule: .halfToEven,
                closed: ClosedPeriods([march])
            ) == nil
        )
    }

    @Test func aSaleTakesTheClinicsPriceOnItsDate() throws {
        // From 15 March Glow sells the serum at 45.00 supplied at 18.00; from 1 April at 48.00 with no cost (the product's 20.00).
        let prices = [
            PriceListEntry(
                id: PriceListEntry.ID(1),
                clinicID: Self.glow.id,
                productID: Self.serum.id,
                unitPrice: cents(4500),
                unitCost: cents(1800),
                effectiveFrom: day("2026-03-15")
            ),
            PriceListEntry(
                id: PriceListEntry.ID(2),
                clinicID: Self.glow.id,
                productID: Self.serum.id,
                unitPrice: cents(4800),
                effectiveFrom: day("2026-04-01")
            ),
        ]
        var context = Self.context()
        context.prices = prices
        // 14 March: the product's 50.00 − 20.00 = 30.00 at 45% = 13.50.
        #expect(try Ledger.sale(Self.draft("2026-03-14"), in: context).figures.commission == cents(1350))
        // 15 March: 2 × (45.00 − 18.00) = 54.00 at 45% = 24.30.
        let mid = try Ledger.sale(Self.draft("2026-03-15", quantity: 2), in: context)
        #expect(
            (mid.line.unitPrice, mid.line.unitCost, mid.figures.commission) == (cents(4500), cents(1800), cents(2430))
        )
        // 2 April: 48.00 − 20.00 = 28.00 at 45% = 12.60.
        let april = try Ledger.sale(Self.draft("2026-04-02"), in: context)
        #expect(
            (april.line.unitPrice, april.line.unitCost, april.figures.commission) == (
                cents(4800), cents(2000), cents(1260)
            )
        )
        // A typed price beats the list; the list's cost stays: 52.00 − 18.00 = 34.00 at 45% = 15.30.
        #expect(try Ledger.sale(Self.draft("2026-03-20", price: 5200), in: context).figures.commission == cents(1530))
        // An entry with a negative price or from a day the book does not take is refused.
        var bad = prices[0]
        bad.unitPrice = cents(-1)
        #expect(throws: SaleLineError.negativeAmount(field: "unit price")) {
            try Ledger.priceEntry(bad, rules: Self.rules)
        }
        bad = prices[0]
        bad.effectiveFrom = day("1800-01-01")
        #expect(throws: DateOutOfRange.self) { try Ledger.priceEntry(bad, rules: Self.rules) }
    }

    @Test func aScheduleChangeOverAClosedPeriodIsRefusedNamingIt() throws {
        let november = PaySchedule.monthly.period(containing: day("2026-11-01"))
        let october = PaySchedule.monthly.period(containing: day("2026-10-01"))
        let weekly = ScheduleChange(effectiveFrom: day("2026-11-17"), schedule: .weekly(startingOn: .tuesday))
        let error = #expect(throws: StoreError.self) {
            try Ledger.scheduleChanges(
                of: Self.glow,
                changes: [weekly],
                rules: Self.rules,
                closed: ClosedPeriods([october, november])
            )
        }
        #expect(
            error?.description.contains(
                "Glow's closed period 2026-11-01…2026-11-30 (it would become 2026-11-01…2026-11-16)"
            ) == true
        )
        // From 1 December, or with only October closed, nothing closed moves.
        let changed = try Ledger.scheduleChanges(
            of: Self.glow,
            changes: [weekly],
            rules: Self.rules,
            closed: ClosedPeriods([october])
        )
        #expect(
            changed.calendar.period(containing: day("2026-11-20"))
                == PayPeriod(start: day("2026-11-17"), end: day("2026-11-23"))
        )
        let december = ScheduleChange(effectiveFrom: day("2026-12-01"), schedule: .weekly(startingOn: .tuesday))
        #expect(
            try Ledger.scheduleChanges(
                of: Self.glow,
                changes: [december],
                rules: Self.rules,
                closed: ClosedPeriods([october, november])
            )
            .scheduleChanges == [december]
        )
        // Changing the first schedule is a change too: monthly to twice a month would split closed October.
        #expect(throws: StoreError.self) {
            try Ledger.scheduleChanges(
                of: Self.glow,
                first: .semimonthly,
                changes: [],
                rules: Self.rules,
                closed: ClosedPeriods([october])
            )
        }
        // A period of the new calendar is what payouts and closing take from then on.
        #expect(throws: StoreError.self) { try Ledger.checkPeriod(november, of: changed) }
        try Ledger.checkPeriod(PayPeriod(start: day("2026-11-01"), end: day("2026-11-16")), of: changed)
    }

    @Test func tiersAndDeductionsAreChecked() throws {
        var draft = TermsDraft(
            clinicID: Self.glow.id,
            share: share("40"),
            tiers: [
                Tier(threshold: cents(500_000), share: share("50")),
                Tier(threshold: cents(400_000), share: share("60")),
            ],
            effectiveFrom: day("2026-01-01")
        )
        let error = #expect(throws: StoreError.self) { try Ledger.terms(draft, rules: Self.rules) }
        #expect(error?.description.contains("Tier thresholds must increase: 4000.00 follows 5000.00.") == true)
        draft.tiers.removeLast()
        #expect(try Ledger.terms(draft, rules: Self.rules).tiers.count == 1)
        let rent = Deduction(
            id: Deduction.ID(0),
            clinicID: Self.glow.id,
            name: "  Room rent ",
            amount: .fixed(cents(10_000)),
            effectiveFrom: day("2026-03-01"),
            lastDay: day("2026-02-28")
        )
        #expect(throws: StoreError.self) { try Ledger.deduction(rent, rules: Self.rules) }
        var fine = rent
        fine.lastDay = nil
        #expect(try Ledger.deduction(fine, rules: Self.rules).name == "Room rent")
        fine.amount = .fixed(cents(-1))
        #expect(throws: StoreError.self) { try Ledger.deduction(fine, rules: Self.rules) }
    }

    @Test func payoutsPeriodsAndSchedules() throws {
        let march = PaySchedule.monthly.period(containing: day("2026-03-01"))
        let payout = PayoutDraft(
            clinicID: Self.glow.id,
            period: march,
            amount: cents(2400),
            receivedOn: day("2026-04-10"),
            reference: "  BACS 7781  "
        )
        #expect(
            try Ledger.payout(payout, clinic: Self.glow, rules: Self.rules, closed: ClosedPeriods()).reference
                == "BACS 7781"
        )
        var notAPeriod = payout
        notAPeriod.period = PayPeriod(start: day("2026-03-02"), end: day("2026-03-31"))
        #expect(throws: StoreError.self) {
            try Ledger.payout(notAPeriod, clinic: Self.glow, rules: Self.rules, closed: ClosedPeriods())
        }
        #expect(throws: StoreError.self) {
            try Ledger.payout(payout, clinic: Self.glow, rules: Self.rules, closed: ClosedPeriods([march]))
        }
        // Closing takes a period the book takes; reopening any of the clinic's.
        let edge = PaySchedule.biweekly(anchor: day("2026-01-02")).period(containing: day("0001-01-01"))
        let fortnightly = Clinic(id: Clinic.ID(2), name: "Harbor", schedule: .biweekly(anchor: day("2026-01-02")))
        #expect(throws: DateOutOfRange.self) { try Ledger.closing(edge, of: fortnightly, rules: Self.rules) }
        try Ledger.reopening(edge, of: fortnightly)
        #expect(throws: DateOutOfRange.self) {
            try Ledger.schedule(.biweekly(anchor: day("1800-01-01")), rules: Self.rules)
        }
    }

    @Test func aKeysRetryIsItsSaleAndAnotherSaleIsRefused() throws {
        var sale = try Ledger.sale(Self.draft("2026-03-10", quantity: 2), in: Self.context())
        sale.id = Sale.ID(7)
        #expect(try Ledger.replay(Self.draft("2026-03-10", quantity: 2), of: sale, key: "k") == sale)
        #expect(
            throws: StoreError.invalid(
                field: "idempotency key",
                reason:
                    "\"k\" already recorded sale 7, a different sale (quantity 3 instead of 2). Send a new key for a new sale."
            )
        ) {
            try Ledger.replay(Self.draft("2026-03-10", quantity: 3), of: sale, key: "k")
        }
    }

    @Test func aSaleRowHoldsASaleExactly() throws {
        var sale = try Ledger.sale(Self.draft("2026-03-10", quantity: 2, discount: 150), in: Self.context())
        sale.id = Sale.ID(12)
        #expect(try SaleRow(sale).sale() == sale)
        var broken = SaleRow(sale)
        broken.basis = "gross"
        #expect(throws: StoreError.unreadable("Sale 12's split (4500 basis points of gross)")) { try broken.sale() }
    }
}
