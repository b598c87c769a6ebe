import CommissionCore

/// What a new clinic needs. The store assigns the identifier.
public struct ClinicDraft: Sendable, Hashable {
    public var name: String
    public var schedule: PaySchedule

    public init(name: String, schedule: PaySchedule) {
        self.name = name
        self.schedule = schedule
    }
}

/// What a new product needs. The store assigns the identifier.
public struct ProductDraft: Sendable, Hashable {
    public var name: String
    public var sku: String?
    public var unitPrice: Money
    public var unitCost: Money

    public init(name: String, sku: String? = nil, unitPrice: Money, unitCost: Money) {
        self.name = name
        self.sku = sku
        self.unitPrice = unitPrice
        self.unitCost = unitCost
    }
}

/// New commission terms for a clinic, or for one of its products.
public struct TermsDraft: Sendable, Hashable {
    public var clinicID: Clinic.ID
    public var productID: Product.ID?
    public var basis: CommissionBasis
    public var share: Share
    /// Accelerators over a period's basis total (see `Tier`); empty for plain terms.
    public var tiers: [Tier]
    public var effectiveFrom: Day

    public init(
        clinicID: Clinic.ID,
        productID: Product.ID? = nil,
        basis: CommissionBasis = .profit,
        share: Share,
        tiers: [Tier] = [],
        effectiveFrom: Day
    ) {
        self.clinicID = clinicID
        self.productID = productID
        self.basis = basis
        self.share = share
        self.tiers = tiers
        self.effectiveFrom = effectiveFrom
    }
}

/// A sale to record (or the new content of an edited sale).
///
/// Unit price and cost default to the product's when nil on a new sale, and to the sale's own
/// snapshot when nil on an edit. The store resolves the terms in force and computes the figures.
public struct SaleDraft: Sendable, Hashable {
    public var clinicID: Clinic.ID
    public var productID: Product.ID
    public var date: Day
    /// Units sold; negative for a return; never zero.
    public var quantity: Int64
    public var unitPrice: Money?
    public var unitCost: Money?
    /// A non-negative discount on the whole line.
    public var discount: Money
    /// A sample or personal use: no commission, no terms needed; revenue and profit still count.
    public var noCommission: Bool
    public var note: String?

    public init(
        clinicID: Clinic.ID,
        productID: Product.ID,
        date: Day,
        quantity: Int64 = 1,
        unitPrice: Money? = nil,
        unitCost: Money? = nil,
        discount: Money = .zero,
        noCommission: Bool = false,
        note: String? = nil
    ) {
        self.clinicID = clinicID
        self.productID = productID
        self.date = date
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.unitCost = unitCost
        self.discount = discount
        self.noCommission = noCommission
        self.note = note
    }
}

/// A payment received from a clinic.
public struct PayoutDraft: Sendable, Hashable {
    public var clinicID: Clinic.ID
    /// The pay period the payment is for: a period of the clinic's schedule.
    public var period: PayPeriod
    public var amount: Money
    public var receivedOn: Day
    public var reference: String?

    public init(clinicID: Clinic.ID, period: PayPeriod, amount: Money, receivedOn: Day, reference: String? = nil) {
        self.clinicID = clinicID
        self.period = period
        self.amount = amount
        self.receivedOn = receivedOn
        self.reference = reference
    }
}

/// What adding, editing or archiving terms did to recorded sales.
public struct TermsChange: Sendable, Hashable {
    public var terms: Terms
    /// Sales in open periods whose commission was recomputed and changed.
    public var recomputedSales: Int
    /// Sales that the change would affect but that lie in closed periods, left as they were.
    public var salesInClosedPeriods: Int

    public init(terms: Terms, recomputedSales: Int, salesInClosedPeriods: Int) {
        self.terms = terms
        self.recomputedSales = recomputedSales
        self.salesInClosedPeriods = salesInClosedPeriods
    }
}
