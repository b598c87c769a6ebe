import CommissionCore

/// A clinic's price of a product from a day on (see ``CommissionStore/setPrice(_:)``).
public struct PriceDraft: Sendable, Hashable {
    public var clinicID: Clinic.ID
    public var productID: Product.ID
    public var unitPrice: Money
    /// The clinic's cost of one unit; nil to take the product's.
    public var unitCost: Money?
    public var effectiveFrom: Day

    public init(
        clinicID: Clinic.ID,
        productID: Product.ID,
        unitPrice: Money,
        unitCost: Money? = nil,
        effectiveFrom: Day
    ) {
        self.clinicID = clinicID
        self.productID = productID
        self.unitPrice = unitPrice
        self.unitCost = unitCost
        self.effectiveFrom = effectiveFrom
    }

    /// The entry it makes, once a store gives it an id.
    public func entry(id: PriceListEntry.ID) -> PriceListEntry {
        PriceListEntry(
            id: id,
            clinicID: clinicID,
            productID: productID,
            unitPrice: unitPrice,
            unitCost: unitCost,
            effectiveFrom: effectiveFrom
        )
    }
}

/// Which price-list entries to list: of one clinic and/or product, or all; ordered by clinic,
/// product and day.
public struct PriceQuery: Sendable, Hashable {
    public var clinicID: Clinic.ID?
    public var productID: Product.ID?

    public init(clinicID: Clinic.ID? = nil, productID: Product.ID? = nil) {
        self.clinicID = clinicID
        self.productID = productID
    }
}
