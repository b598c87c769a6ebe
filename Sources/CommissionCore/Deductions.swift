/// A fee a clinic deducts from what it pays her, from a day on and optionally until a last day.
///
/// A deduction applies to a pay period when the period's first day lies within its dates and she
/// recorded at least one sale (not voided) at the clinic in that period. Deductions do not replace
/// each other: every one in force applies.
public struct Deduction: Sendable, Hashable, Identifiable {
    public typealias ID = EntityID<Deduction>
    public var id: ID
    public var clinicID: Clinic.ID
    /// What the statement calls it: "Room rent", "Card fees".
    public var name: String
    public var amount: DeductionAmount
    public var effectiveFrom: Day
    /// The last day whose period it applies to (the period's first day); nil for no end.
    public var lastDay: Day?

    public init(
        id: ID,
        clinicID: Clinic.ID,
        name: String,
        amount: DeductionAmount,
        effectiveFrom: Day,
        lastDay: Day? = nil
    ) {
        self.id = id
        self.clinicID = clinicID
        self.name = name
        self.amount = amount
        self.effectiveFrom = effectiveFrom
        self.lastDay = lastDay
    }

    /// Whether it applies to `period`, in which she recorded `saleCount` sales (not voided).
    public func applies(to period: PayPeriod, saleCount: Int) -> Bool {
        saleCount > 0 && effectiveFrom <= period.start && lastDay.map { period.start <= $0 } ?? true
    }

    /// What it takes from a period whose revenue is `revenue`: a fixed amount whole (even for a
    /// period cut short by a schedule change), or a share of the revenue rounded once with `rule`
    /// (zero when the revenue is zero or negative).
    /// - Throws: ``MoneyError/overflow(_:)`` when the share's product does not fit.
    public func amount(revenue: Money, rule: RoundingRule) throws(MoneyError) -> Money {
        switch amount {
        case .fixed(let money):
            return money
        case .shareOfRevenue(let share):
            guard revenue > .zero else { return .zero }
            return try ExactCommission(basisAmount: revenue, share: share).rounded(rule)
        }
    }
}

/// How much a deduction takes.
public enum DeductionAmount: Sendable, Hashable {
    /// The same amount every period it applies to.
    case fixed(Money)
    /// A share of the period's revenue (a card fee of 2.50%).
    case shareOfRevenue(Share)

    /// `150.00 a period` or `2.50% of revenue`, the amount written by `format`.
    public func text(_ format: (Money) -> String) -> String {
        switch self {
        case .fixed(let money): "\(format(money)) a period"
        case .shareOfRevenue(let share): "\(share) of revenue"
        }
    }

    /// `fixed` or `revenue-share`, as stored.
    public var kind: String {
        switch self {
        case .fixed: "fixed"
        case .shareOfRevenue: "revenue-share"
        }
    }
}
