import CommissionCore

/// Every rule a change to the book passes through, written once.
///
/// A store reads a snapshot of what a change needs — the clinic, the product, the clinic's terms,
/// the book's rules (``EntryRules``: rounding and the dates it takes), the clinic's closed
/// periods — hands it to the ledger, and writes the rows the ledger returns. The ledger validates,
/// fills defaults (a sale's price and cost), picks the terms in force, computes the figures,
/// refuses what a closed period protects, and for a change of terms or of the rounding rule plans
/// which sales are recomputed and how, and says how many. It does no I/O: the same rules run in
/// every store, and on an import's reading thread.
public enum Ledger {
    // MARK: Sales

    /// The sale a draft makes: refused when the clinic or product is archived, the date is one the
    /// book does not take, the line is not a sale (zero quantity, negative amounts, a discount over
    /// the line), no terms are in force (unless no commission), or its period is closed. Price and
    /// cost default to the clinic's price list on the sale's date, else the product's
    /// (`SalePrice`). The sale's id is 0 until a store inserts it.
    public static func sale(_ draft: SaleDraft, in context: SaleContext) throws -> Sale {
        if context.clinic.isArchived { throw StoreError.archived(.clinics, context.clinic.name) }
        if context.product.isArchived { throw StoreError.archived(.products, context.product.name) }
        let price = SalePrice(context.product, at: context.clinic.id, on: draft.date, entries: context.prices)
        return try computed(
            draft,
            unitPrice: draft.unitPrice ?? price.unitPrice,
            unitCost: draft.unitCost ?? price.unitCost,
            in: context
        )
    }

    /// A sale changed: refused while the sale's period (where it was, or where it would go) is
    /// closed, and for a voided sale. Price and cost left out keep the sale's own.
    public static func edit(
        _ old: Sale,
        oldContext: ClosedPeriods,
        oldClinic: Clinic,
        to draft: SaleDraft,
        in context: SaleContext
    ) throws -> Sale {
        if oldContext.contains(old.date) {
            throw StoreError.periodClosed(
                clinic: oldClinic.name,
                period: oldClinic.calendar.period(containing: old.date)
            )
        }
        if old.isVoided {
            throw StoreError.invalid(field: "sale", reason: "sale \(old.id) is voided and cannot be edited.")
        }
        var sale = try computed(
            draft,
            unitPrice: draft.unitPrice ?? old.line.unitPrice,
            unitCost: draft.unitCost ?? old.line.unitCost,
            in: context
        )
        sale.id = old.id
        return sale
    }

    /// A sale voided: it stays on record and counts nowhere. Refused while its period is closed;
    /// voiding a voided sale changes nothing (nil).
    public static func void(_ sale: Sale, clinic: Clinic, closed: ClosedPeriods) throws -> Sale? {
        guard !sale.isVoided else { return nil }
        if closed.contains(sale.date) {
            throw StoreError.periodClosed(clinic: clinic.name, period: clinic.calendar.period(containing: sale.date))
        }
        var voided = sale
        voided.isVoided = true
        return voided
    }

    private static func computed(
        _ draft: SaleDraft,
        unitPrice: Money,
        unitCost: Money,
        in context: SaleContext
    ) throws -> Sale {
        try context.rules.days.check(draft.date, field: "date")
        var terms: Terms?
        if !draft.noCommission {
            terms = Terms.inForce(
                among: context.candidates,
                clinic: context.clinic.id,
                product: context.product.id,
                on: draft.date
            )
            if terms == nil {
                throw StoreError.noTermsInForce(
                    clinic: context.clinic.name,
                    product: context.product.name,
                    on: draft.date
                )
            }
        }
        let line = SaleLine(
            quantity: draft.quantity,
            unitPrice: unitPrice,
            unitCost: unitCost,
            discount: draft.discount,
            rate: terms.map { CommissionRate(share: $0.share, basis: $0.basis) }
        )
        let figures = try line.figures(rounding: context.rules.rounding, currency: context.rules.currency)
        if context.closed.contains(draft.date) {
            throw StoreError.periodClosed(
                clinic: context.clinic.name,
                period: context.clinic.calendar.period(containing: draft.date)
            )
        }
        return Sale(
            id: Sale.ID(0),
            clinicID: context.clinic.id,
            productID: context.product.id,
            date: draft.date,
            line: line,
            termsID: terms?.id,
            figures: figures,
            note: try StoreInput.note(draft.note)
        )
    }

    /// The sale an idempotency key already recorded, when `draft` asks for that same sale again (a
    /// retry). A key reused for another sale is refused, naming what differs: a retry never records
    /// a second sale, and a different sale is never answered with the first one. A price or cost
    /// left to its default is not compared (the default may have moved since).
    public static func replay(_ draft: SaleDraft, of sale: Sale, key: String) throws -> Sale {
        var differences: [String] = []
        func compare<T: Equatable & CustomStringConvertible>(_ field: String, _ asked: T, _ recorded: T) {
            if asked != recorded { differences.append("\(field) \(asked) instead of \(recorded)") }
        }
        compare("clinic", draft.clinicID.rawValue, sale.clinicID.rawValue)
        compare("product", draft.productID.rawValue, sale.productID.rawValue)
        compare("date", draft.date, sale.date)
        compare("quantity", draft.quantity, sale.quantity)
        if let price = draft.unitPrice {
            compare("unit price (minor units)", price.minorUnits, sale.line.unitPrice.minorUnits)
        }
        if let cost = draft.unitCost {
            compare("unit cost (minor units)", cost.minorUnits, sale.line.unitCost.minorUnits)
        }
        compare("discount (minor units)", draft.discount.minorUnits, sale.line.discount.minorUnits)
        compare("no commission", draft.noCommission, sale.isNoCommission)
        // A note the store would refuse is refused here too, not compared as none.
        compare("note", try StoreInput.note(draft.note) ?? "", sale.note ?? "")
        guard differences.isEmpty else {
            throw StoreError.invalid(
                field: "idempotency key",
                reason:
                    "\"\(key)\" already recorded sale \(sale.id), a different sale (\(differences.joined(separator: ", "))). Send a new key for a new sale."
            )
        }
        return sale
    }

    // MARK: Changes that recompute sales

    /// What a change of a clinic's terms does to its sales: each sale (commission-bearing, not
    /// voided) whose terms in force or split change gets its new terms and commission — unless its
    /// period is closed, where it is only counted. A sale left without terms refuses the change.
    /// - Parameters:
    ///   - sales: the clinic's sales from the earliest date the change touches.
    ///   - clinic: their clinic.
    ///   - productName: names a product for the refusal of a sale left without terms.
    ///   - candidates: the clinic's terms as they will be after the change.
    ///   - rules: the book's rules (rounding, accepted days).
    ///   - closed: the clinic's closed periods, whose sales are counted but not changed.
    public static func recompute(
        _ sales: [Sale],
        clinic: Clinic,
        candidates: [Terms],
        rules: EntryRules,
        closed: ClosedPeriods,
        productName: (Product.ID) throws -> String
    ) throws -> RecomputePlan {
        var plan = RecomputePlan()
        for sale in sales where !sale.isVoided && sale.termsID != nil {
            guard
                let terms = Terms.inForce(among: candidates, clinic: clinic.id, product: sale.productID, on: sale.date)
            else {
                throw StoreError.noTermsInForce(
                    clinic: clinic.name,
                    product: try productName(sale.productID),
                    on: sale.date
                )
            }
            var line = sale.line
            line.rate = CommissionRate(share: terms.share, basis: terms.basis)
            guard line != sale.line || terms.id != sale.termsID else { continue }
            if closed.contains(sale.date) {
                plan.inClosedPeriods += 1
                continue
            }
            var after = sale
            (after.line, after.termsID, after.figures) = (line, terms.id, try line.figures(rounding: rules.rounding))
            plan.changes.append((before: sale, after: after))
        }
        return plan
    }

    /// A sale's rounded commission under a new rounding rule, when it changes and its period is
    /// open: what a change of the book's rounding rule writes.
    public static func rerounded(
        exactCommission: ExactCommission,
        commission: Money,
        date: Day,
        rule: RoundingRule,
        closed: ClosedPeriods
    ) -> Money? {
        let rounded = exactCommission.rounded(rule)
        return rounded == commission || closed.contains(date) ? nil : rounded
    }

    // MARK: Terms, payouts, periods, schedules

    /// New terms: their effective date must be one the book takes, their tiers' thresholds positive
    /// and increasing.
    public static func terms(_ draft: TermsDraft, rules: EntryRules) throws -> TermsDraft {
        try rules.days.check(draft.effectiveFrom, field: "effective from")
        try checkTiers(draft.tiers, rules: rules)
        return draft
    }

    static func checkTiers(_ tiers: [Tier], rules: EntryRules) throws {
        do { try Tier.validate(tiers, currency: rules.currency) } catch {
            throw StoreError.invalid(field: "tiers", reason: error.description)
        }
    }

    /// Terms changed: they stay at their clinic, and a new effective date must be one the book takes.
    /// Sales from the earlier of the two dates are recomputed (``recompute(_:clinic:candidates:rules:closed:productName:)``).
    public static func termsChange(
        from old: Terms,
        to new: Terms,
        rules: EntryRules
    ) throws -> (terms: Terms, recomputeFrom: Day) {
        guard old.clinicID == new.clinicID else {
            throw StoreError.invalid(
                field: "clinic",
                reason: "terms cannot move to another clinic; archive them and add new terms there."
            )
        }
        if new.effectiveFrom != old.effectiveFrom { try rules.days.check(new.effectiveFrom, field: "effective from") }
        if new.tiers != old.tiers { try checkTiers(new.tiers, rules: rules) }
        return (new, min(old.effectiveFrom, new.effectiveFrom))
    }

    /// A payout: for one of the clinic's periods, with dates the book takes, into an open period.
    public static func payout(
        _ draft: PayoutDraft,
        clinic: Clinic,
        rules: EntryRules,
        closed: ClosedPeriods
    ) throws -> PayoutDraft {
        try checkPeriod(draft.period, of: clinic)
        try rules.days.check(draft.period, field: "period")
        try rules.days.check(draft.receivedOn, field: "received on")
        if closed.overlaps(draft.period) { throw StoreError.periodClosed(clinic: clinic.name, period: draft.period) }
        try checkRecorded(draft.amount, field: "amount", rules: rules)
        var clean = draft
        clean.reference = try StoreInput.note(draft.reference)
        return clean
    }

    /// The largest payout or fixed deduction, either way: 100,000,000,000 minor units
    /// (1,000,000,000.00 in a currency of two digits), so that a clinic's balance over every
    /// period stays exact (see `SaleLine.largestUnitAmount`).
    public static let largestRecordedAmount = Money(minorUnits: 100_000_000_000)

    static func checkRecorded(_ amount: Money, field: String, rules: EntryRules) throws(SaleLineError) {
        guard amount.magnitudeOrSelf <= largestRecordedAmount, amount.minorUnits != .min else {
            throw .amountTooLarge(field: field, amount: amount, limit: largestRecordedAmount, currency: rules.currency)
        }
    }

    /// A payout removed: not from a closed period.
    public static func payoutRemoval(_ payout: Payout, clinic: Clinic, closed: ClosedPeriods) throws {
        if closed.overlaps(payout.period) { throw StoreError.periodClosed(clinic: clinic.name, period: payout.period) }
    }

    /// A period to close: one of the clinic's, with a day the book takes. Reopening takes any of the
    /// clinic's periods, so that one stored before dates were bounded can be reopened.
    public static func closing(_ period: PayPeriod, of clinic: Clinic, rules: EntryRules) throws {
        try checkPeriod(period, of: clinic)
        try rules.days.check(period, field: "period")
    }

    public static func reopening(_ period: PayPeriod, of clinic: Clinic) throws {
        try checkPeriod(period, of: clinic)
    }

    /// The period must be one of the clinic's (`PayCalendar`).
    public static func checkPeriod(_ period: PayPeriod, of clinic: Clinic) throws {
        guard clinic.calendar.isPeriod(period) else {
            throw StoreError.notAPeriod(
                clinic: clinic.name,
                period: period,
                schedule: clinic.calendar.schedule(on: period.start)
            )
        }
    }

    /// A clinic's schedule, whose anchor (a biweekly one's first day) must be a date the book takes.
    public static func schedule(_ schedule: PaySchedule, rules: EntryRules) throws -> PaySchedule {
        if case .biweekly(let anchor) = schedule { try rules.days.check(anchor, field: "anchor") }
        return schedule
    }

    /// A clinic whose schedules change: a new first schedule (the one from the start of the book)
    /// and/or a new list of changes. Refused when it would alter a closed period — any closed
    /// period that is not exactly a period of the new calendar — naming the first such period.
    /// Nothing else moves: a change never moves a past day into another period.
    /// - Parameters:
    ///   - first: the schedule from the start of the book (the clinic's own when nil).
    ///   - changes: every change the clinic will have (the whole list, not only the new one).
    ///   - payouts: the periods the clinic's payouts are for: a change that would alter one is refused
    ///     too (the payout would be for a period that no longer exists).
    ///   - clinic: the clinic whose schedule changes.
    ///   - rules: the book's rules (the days it takes).
    ///   - closed: the clinic's closed periods, which a change may not alter.
    public static func scheduleChanges(
        of clinic: Clinic,
        first: PaySchedule? = nil,
        changes: [ScheduleChange],
        rules: EntryRules,
        closed: ClosedPeriods,
        payouts: [PayPeriod] = []
    ) throws -> Clinic {
        var changed = clinic
        if let first { changed.schedule = try schedule(first, rules: rules) }
        for change in changes where !clinic.scheduleChanges.contains(change) {
            try rules.days.check(change.effectiveFrom, field: "effective from")
            _ = try schedule(change.schedule, rules: rules)
        }
        changed.scheduleChanges = PayCalendar(changed.schedule, changes: changes).changes
        let calendar = changed.calendar
        if let altered = closed.periods.sorted().first(where: { !calendar.isPeriod($0) }) {
            throw StoreError.invalid(
                field: "schedule",
                reason: "the change would alter \(clinic.name)'s closed period \(altered) "
                    + "(it would become \(calendar.period(containing: altered.start))): reopen that period first, or change the schedule from a later day."
            )
        }
        if let altered = payouts.sorted().first(where: { !calendar.isPeriod($0) }) {
            throw StoreError.invalid(
                field: "schedule",
                reason: "the change would alter \(clinic.name)'s period \(altered), which has a payout "
                    + "(it would become \(calendar.period(containing: altered.start))): change the schedule from a later day, or move that payout first."
            )
        }
        return changed
    }

    // MARK: Price lists and deductions

    /// A price-list entry: a price and cost that are not negative, from a day the book takes.
    public static func priceEntry(_ entry: PriceListEntry, rules: EntryRules) throws -> PriceListEntry {
        if entry.unitPrice.isNegative { throw SaleLineError.negativeAmount(field: "unit price") }
        if entry.unitCost?.isNegative == true { throw SaleLineError.negativeAmount(field: "unit cost") }
        try SaleLine.checkUnitAmount(entry.unitPrice, field: "unit price", currency: rules.currency)
        if let cost = entry.unitCost {
            try SaleLine.checkUnitAmount(cost, field: "unit cost", currency: rules.currency)
        }
        try rules.days.check(entry.effectiveFrom, field: "effective from")
        return entry
    }

    /// A deduction added, changed or removed (`old`, `new`: nil for none): refused when it would
    /// change what a closed period's statement takes off — the deduction starting or ceasing to
    /// cover the period's first day, or its amount changing while it does. Ending a deduction after
    /// a closed period is fine.
    public static func deductionChange(
        from old: Deduction?,
        to new: Deduction?,
        clinic: Clinic,
        closed: ClosedPeriods,
        rules: EntryRules
    ) throws -> Deduction? {
        let checked = try new.map { try deduction($0, rules: rules) }
        func covers(_ item: Deduction?, _ period: PayPeriod) -> Bool {
            guard let item else { return false }
            return item.effectiveFrom <= period.start && item.lastDay.map { period.start <= $0 } ?? true
        }
        for period in closed.periods.sorted() {
            let before = covers(old, period), after = covers(checked, period)
            if before != after || (before && old?.amount != checked?.amount) {
                throw StoreError.periodClosed(clinic: clinic.name, period: period)
            }
        }
        return checked
    }

    /// Terms whose tiers change: refused while a closed period has sales under them (its
    /// accelerator would change). `closedWithSales`: the clinic's closed periods with such sales.
    public static func tiersChange(of terms: Terms, clinic: Clinic, closedWithSales: [PayPeriod]) throws {
        if let period = closedWithSales.sorted().first {
            throw StoreError.invalid(
                field: "tiers",
                reason: "terms \(terms.id)'s tiers decide the accelerator of \(clinic.name)'s closed period \(period): "
                    + "reopen it first, or add new terms with their own tiers from a later day."
            )
        }
    }

    /// A deduction: a name, an amount that is not negative (a share 0–100%), dates the book takes,
    /// the last day not before the first.
    public static func deduction(_ deduction: Deduction, rules: EntryRules) throws -> Deduction {
        var clean = deduction
        clean.name = try StoreInput.name(deduction.name, field: "name")
        if case .fixed(let money) = deduction.amount {
            if money.isNegative {
                throw StoreError.invalid(
                    field: "amount",
                    reason: "a deduction is a positive amount, not \(rules.currency.format(money))."
                )
            }
            try checkRecorded(money, field: "amount", rules: rules)
        }
        try rules.days.check(deduction.effectiveFrom, field: "effective from")
        if let last = deduction.lastDay {
            try rules.days.check(last, field: "last day")
            guard last >= deduction.effectiveFrom else {
                throw StoreError.invalid(
                    field: "last day",
                    reason: "\(last) is before the first day, \(deduction.effectiveFrom)."
                )
            }
        }
        return clean
    }
}

/// What a change to a sale needs to know, read by a store in the change's transaction.
public struct SaleContext: Sendable {
    public var clinic: Clinic
    public var product: Product
    /// The clinic's terms (archived ones are never in force).
    public var candidates: [Terms]
    public var rules: EntryRules
    /// The clinic's closed periods.
    public var closed: ClosedPeriods
    /// The clinic's price-list entries for the product (others are ignored).
    public var prices: [PriceListEntry]

    public init(
        clinic: Clinic,
        product: Product,
        candidates: [Terms],
        rules: EntryRules,
        closed: ClosedPeriods,
        prices: [PriceListEntry] = []
    ) {
        self.clinic = clinic
        self.product = product
        self.candidates = candidates
        self.rules = rules
        self.closed = closed
        self.prices = prices
    }
}

/// One clinic's closed periods, as a store read them.
public struct ClosedPeriods: Sendable, Hashable {
    public var periods: [PayPeriod]

    public init(_ periods: [PayPeriod] = []) { self.periods = periods }

    /// Whether the day is in a closed period.
    public func contains(_ day: Day) -> Bool { periods.contains { $0.start <= day && day <= $0.end } }

    /// Whether any day of `period` is in a closed period.
    public func overlaps(_ period: PayPeriod) -> Bool {
        periods.contains { $0.start <= period.end && period.start <= $0.end }
    }
}

/// What a change of terms does to a clinic's sales (see ``Ledger/recompute(_:clinic:candidates:rules:closed:productName:)``).
public struct RecomputePlan: Sendable {
    /// Each sale that changes, before and after.
    public var changes: [(before: Sale, after: Sale)] = []
    /// Sales that would change but lie in closed periods: left as they are.
    public var inClosedPeriods = 0

    public init() {}
}

/// A sale as a store keeps it: one row of columns, in the order of ``columns``. The stores bind
/// and read these values; what they mean is the ledger's.
public struct SaleRow: Sendable, Hashable, Codable {
    /// Its form in a book archive: the columns' names.
    enum CodingKeys: String, CodingKey {
        case id, clinicID = "clinicId", productID = "productId", date, quantity, unitPriceMinor, unitCostMinor,
            discountMinor, termsID = "termsId",
            shareBasisPoints, basis, revenueMinor, costMinor, profitMinor, commissionExact, commissionMinor, note,
            isVoided, idempotencyKey
    }

    /// The columns a store writes for a sale (its id, voided flag and idempotency key apart).
    public static let columns = [
        "clinicId", "productId", "date", "quantity", "unitPriceMinor", "unitCostMinor", "discountMinor", "termsId",
        "shareBasisPoints", "basis", "revenueMinor", "costMinor", "profitMinor", "commissionExact", "commissionMinor",
        "note",
    ]

    public var id: Int64
    public var clinicID: Int64
    public var productID: Int64
    public var date: String
    public var quantity: Int64
    public var unitPriceMinor: Int64
    public var unitCostMinor: Int64
    public var discountMinor: Int64
    public var termsID: Int64?
    public var shareBasisPoints: Int?
    public var basis: String?
    public var revenueMinor: Int64
    public var costMinor: Int64
    public var profitMinor: Int64
    public var commissionExact: Int64
    public var commissionMinor: Int64
    public var note: String?
    public var isVoided: Bool
    /// The key of the request that recorded it (see ``CommissionStore/createSale(_:idempotencyKey:)``).
    public var idempotencyKey: String?

    public init(
        id: Int64,
        clinicID: Int64,
        productID: Int64,
        date: String,
        quantity: Int64,
        unitPriceMinor: Int64,
        unitCostMinor: Int64,
        discountMinor: Int64,
        termsID: Int64?,
        shareBasisPoints: Int?,
        basis: String?,
        revenueMinor: Int64,
        costMinor: Int64,
        profitMinor: Int64,
        commissionExact: Int64,
        commissionMinor: Int64,
        note: String?,
        isVoided: Bool,
        idempotencyKey: String? = nil
    ) {
        self.id = id
        self.clinicID = clinicID
        self.productID = productID
        self.date = date
        self.quantity = quantity
        self.unitPriceMinor = unitPriceMinor
        self.unitCostMinor = unitCostMinor
        self.discountMinor = discountMinor
        self.termsID = termsID
        self.shareBasisPoints = shareBasisPoints
        self.basis = basis
        self.revenueMinor = revenueMinor
        self.costMinor = costMinor
        self.profitMinor = profitMinor
        self.commissionExact = commissionExact
        self.commissionMinor = commissionMinor
        self.note = note
        self.isVoided = isVoided
        self.idempotencyKey = idempotencyKey
    }

    public init(_ sale: Sale, idempotencyKey: String? = nil) {
        self.init(
            id: sale.id.rawValue,
            clinicID: sale.clinicID.rawValue,
            productID: sale.productID.rawValue,
            date: sale.date.description,
            quantity: sale.line.quantity,
            unitPriceMinor: sale.line.unitPrice.minorUnits,
            unitCostMinor: sale.line.unitCost.minorUnits,
            discountMinor: sale.line.discount.minorUnits,
            termsID: sale.termsID?.rawValue,
            shareBasisPoints: sale.line.rate?.share.basisPoints,
            basis: sale.line.rate?.basis.rawValue,
            revenueMinor: sale.figures.revenue.minorUnits,
            costMinor: sale.figures.cost.minorUnits,
            profitMinor: sale.figures.profit.minorUnits,
            commissionExact: sale.figures.exactCommission.tenThousandths,
            commissionMinor: sale.figures.commission.minorUnits,
            note: sale.note,
            isVoided: sale.isVoided,
            idempotencyKey: idempotencyKey
        )
    }

    /// The sale the row holds; a value it cannot hold is an error naming the row.
    public func sale() throws -> Sale {
        var rate: CommissionRate?
        if let shareBasisPoints, let basis {
            // try?: a share out of range is thrown just after, naming the sale
            guard let share = try? Share(basisPoints: shareBasisPoints), let basis = CommissionBasis(rawValue: basis)
            else {
                throw StoreError.unreadable("Sale \(id)'s split (\(shareBasisPoints) basis points of \(basis))")
            }
            rate = CommissionRate(share: share, basis: basis)
        }
        let line = SaleLine(
            quantity: quantity,
            unitPrice: Money(minorUnits: unitPriceMinor),
            unitCost: Money(minorUnits: unitCostMinor),
            discount: Money(minorUnits: discountMinor),
            rate: rate
        )
        let figures = SaleFigures(
            revenue: Money(minorUnits: revenueMinor),
            cost: Money(minorUnits: costMinor),
            profit: Money(minorUnits: profitMinor),
            exactCommission: ExactCommission(tenThousandths: commissionExact),
            commission: Money(minorUnits: commissionMinor)
        )
        return Sale(
            id: Sale.ID(id),
            clinicID: Clinic.ID(clinicID),
            productID: Product.ID(productID),
            date: try Day.stored(date, row: "Sale \(id)'s date"),
            line: line,
            termsID: termsID.map { Terms.ID($0) },
            figures: figures,
            note: note,
            isVoided: isVoided
        )
    }
}

/// What a store reads to tell each clinic's arrears (`Arrears`) from its summaries, when
/// commissions are rounded per line: for each clinic, the commission of every line through the
/// current period's end and of the periods not yet due, and its payouts (for every period up to the
/// current one, and for those not yet due). The store runs the reads; what they mean is here, once.
public struct ArrearsPlan: Sendable {
    public struct Point: Sendable {
        public let clinicID: Int64
        /// The clinic's period that holds today.
        public let current: PayPeriod
        /// The first day of the first period whose payment is not due yet.
        public let notDue: Day
        public let dueAfterDays: Int
    }

    /// What a store read of one clinic.
    public struct Sums: Sendable {
        /// The commission of every line through the current period's end, and of those from ``Point/notDue`` through it.
        public var expected: Int64, expectedNotDue: Int64
        /// The payouts for every period up to the current one, and for those from ``Point/notDue`` on.
        public var received: Int64, receivedNotDue: Int64

        public init(expected: Int64, expectedNotDue: Int64, received: Int64, receivedNotDue: Int64) {
            self.expected = expected
            self.expectedNotDue = expectedNotDue
            self.received = received
            self.receivedNotDue = receivedNotDue
        }
    }

    public let points: [Point]

    /// - Parameters:
    ///   - clinics: the clinics whose arrears are planned.
    ///   - today: the day the dashboard is for.
    ///   - lags: each clinic's latest payment lags in days (`Arrears/lagSample` at most).
    public init(clinics: [Clinic], today: Day, lags: [Int64: [Int]]) {
        points = clinics.map { clinic in
            let due = Arrears.usualLag(lags[clinic.id.rawValue] ?? [])
            return Point(
                clinicID: clinic.id.rawValue,
                current: clinic.calendar.period(containing: today),
                notDue: Arrears.notDueFrom(clinic.calendar, today: today, dueAfterDays: due),
                dueAfterDays: due
            )
        }
    }

    /// Each clinic's arrears from what the store read (a clinic it read nothing of owes nothing).
    public func arrears(_ sums: [Int64: Sums]) throws -> [Int64: Arrears] {
        var result: [Int64: Arrears] = [:]
        for point in points {
            let read = sums[point.clinicID] ?? Sums(expected: 0, expectedNotDue: 0, received: 0, receivedNotDue: 0)
            result[point.clinicID] = try Arrears(
                expected: Money(minorUnits: read.expected),
                received: Money(minorUnits: read.received),
                expectedNotDue: Money(minorUnits: read.expectedNotDue),
                receivedNotDue: Money(minorUnits: read.receivedNotDue),
                dueAfterDays: point.dueAfterDays
            )
        }
        return result
    }
}
