/// A typed row identifier: a `Clinic.ID` cannot be passed where a `Sale.ID` is expected.
public struct EntityID<Entity>: Sendable, Hashable, Comparable, Codable, CustomStringConvertible, RawRepresentable {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int64.self)
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// The settings that make figures exact and comparable: the currency, the time zone that decides
/// which day a sale is on, and the rounding policy.
public struct BookSettings: Sendable, Hashable {
    public var currency: Currency
    /// An IANA time zone identifier (`Europe/London`). Dates are calendar dates in this zone.
    public var timeZoneIdentifier: String
    public var rounding: RoundingPolicy
    /// How her pages write amounts and dates (`en_US`, `de_DE`): see ``LocaleStyle``. Stored and
    /// exchanged figures keep their one form (`1234.50`, `2026-11-23`) whatever it is.
    public var localeIdentifier: String

    public init(
        currency: Currency,
        timeZoneIdentifier: String,
        rounding: RoundingPolicy = .default,
        localeIdentifier: String = "en_US"
    ) {
        self.currency = currency
        self.timeZoneIdentifier = timeZoneIdentifier
        self.rounding = rounding
        self.localeIdentifier = localeIdentifier
    }

    /// How the book's pages write and read amounts and dates.
    public var style: LocaleStyle { LocaleStyle(identifier: localeIdentifier, currency: currency) }
}

/// A business where the practitioner sells, and which pays her a split on its own schedule.
public struct Clinic: Sendable, Hashable, Identifiable {
    public typealias ID = EntityID<Clinic>
    public var id: ID
    public var name: String
    /// The schedule in force from the start of the book (until its first change).
    public var schedule: PaySchedule
    /// Later schedules, each from its day on: see ``PayCalendar``.
    public var scheduleChanges: [ScheduleChange]
    public var isArchived: Bool

    public init(
        id: ID,
        name: String,
        schedule: PaySchedule,
        scheduleChanges: [ScheduleChange] = [],
        isArchived: Bool = false
    ) {
        self.id = id
        self.name = name
        self.schedule = schedule
        self.scheduleChanges = scheduleChanges
        self.isArchived = isArchived
    }

    /// The clinic's pay periods: its first schedule and every change.
    public var calendar: PayCalendar { PayCalendar(schedule, changes: scheduleChanges) }
}

/// Something she sells, with the price and cost a sale starts from.
public struct Product: Sendable, Hashable, Identifiable {
    public typealias ID = EntityID<Product>
    public var id: ID
    public var name: String
    public var sku: String?
    /// The default sale price of one unit.
    public var unitPrice: Money
    /// The default cost of one unit.
    public var unitCost: Money
    public var isArchived: Bool

    public init(id: ID, name: String, sku: String? = nil, unitPrice: Money, unitCost: Money, isArchived: Bool = false) {
        self.id = id
        self.name = name
        self.sku = sku
        self.unitPrice = unitPrice
        self.unitCost = unitCost
        self.isArchived = isArchived
    }
}

/// What a commission is a share of.
public enum CommissionBasis: String, Sendable, Hashable, CaseIterable, Codable {
    /// Revenue minus cost. The default.
    case profit
    /// Revenue alone.
    case revenue
}

/// Commission terms: a clinic's split, for all its products or one, from a date on.
public struct Terms: Sendable, Hashable, Identifiable {
    public typealias ID = EntityID<Terms>
    public var id: ID
    public var clinicID: Clinic.ID
    /// The one product these terms cover, or nil for every product of the clinic.
    public var productID: Product.ID?
    public var basis: CommissionBasis
    /// The base share: what every sale line is computed at.
    public var share: Share
    /// Accelerators over the period's basis total, thresholds strictly increasing (see ``Tier``);
    /// empty for plain terms.
    public var tiers: [Tier]
    /// The first day these terms apply.
    public var effectiveFrom: Day
    public var isArchived: Bool

    public init(
        id: ID,
        clinicID: Clinic.ID,
        productID: Product.ID? = nil,
        basis: CommissionBasis = .profit,
        share: Share,
        tiers: [Tier] = [],
        effectiveFrom: Day,
        isArchived: Bool = false
    ) {
        self.id = id
        self.clinicID = clinicID
        self.productID = productID
        self.basis = basis
        self.share = share
        self.tiers = tiers
        self.effectiveFrom = effectiveFrom
        self.isArchived = isArchived
    }

    /// The terms in force for a sale of `product` at `clinic` on `day`, among `candidates`.
    ///
    /// Terms in force are those with the latest effective date on or before the day;
    /// terms narrowed to the product beat the clinic-wide ones. Archived terms never apply.
    /// Returns nil when nothing is in force.
    public static func inForce<C: Collection>(
        among candidates: C,
        clinic: Clinic.ID,
        product: Product.ID,
        on day: Day
    ) -> Terms? where C.Element == Terms {
        var bestSpecific: Terms?
        var bestGeneral: Terms?
        for terms in candidates where terms.clinicID == clinic && !terms.isArchived && terms.effectiveFrom <= day {
            if terms.productID == product {
                if bestSpecific.map({ Self.isLater(terms, than: $0) }) ?? true { bestSpecific = terms }
            } else if terms.productID == nil {
                if bestGeneral.map({ Self.isLater(terms, than: $0) }) ?? true { bestGeneral = terms }
            }
        }
        return bestSpecific ?? bestGeneral
    }

    /// Later effective date wins; on the same date, the terms entered last.
    private static func isLater(_ a: Terms, than b: Terms) -> Bool {
        (a.effectiveFrom, a.id.rawValue) > (b.effectiveFrom, b.id.rawValue)
    }
}

/// A payment received from a clinic for one of its pay periods.
public struct Payout: Sendable, Hashable, Identifiable {
    public typealias ID = EntityID<Payout>
    public var id: ID
    public var clinicID: Clinic.ID
    public var period: PayPeriod
    public var amount: Money
    public var receivedOn: Day
    public var reference: String?

    public init(
        id: ID,
        clinicID: Clinic.ID,
        period: PayPeriod,
        amount: Money,
        receivedOn: Day,
        reference: String? = nil
    ) {
        self.id = id
        self.clinicID = clinicID
        self.period = period
        self.amount = amount
        self.receivedOn = receivedOn
        self.reference = reference
    }
}
