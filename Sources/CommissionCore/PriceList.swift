/// A clinic's own price (and, optionally, cost) of a product, from a day on.
///
/// A sale's default unit price is that of the clinic's entry for the product with the latest
/// effective date on or before the sale's date, else the product's own; its default unit cost
/// comes from that same entry, or from the product when the entry has none — an entry replaces the
/// earlier one whole. What is typed on the sale beats both, and a recorded sale keeps what it was
/// computed with.
public struct PriceListEntry: Sendable, Hashable, Identifiable {
    public typealias ID = EntityID<PriceListEntry>
    public var id: ID
    public var clinicID: Clinic.ID
    public var productID: Product.ID
    public var unitPrice: Money
    /// The clinic's cost of one unit; nil to take the product's.
    public var unitCost: Money?
    /// The first day this entry applies.
    public var effectiveFrom: Day

    public init(
        id: ID,
        clinicID: Clinic.ID,
        productID: Product.ID,
        unitPrice: Money,
        unitCost: Money? = nil,
        effectiveFrom: Day
    ) {
        self.id = id
        self.clinicID = clinicID
        self.productID = productID
        self.unitPrice = unitPrice
        self.unitCost = unitCost
        self.effectiveFrom = effectiveFrom
    }

    /// The entry in force for `product` at `clinic` on `day` among `entries`: the latest effective
    /// date on or before the day (on the same day, the entry made last); nil when none.
    public static func inForce<C: Collection>(
        among entries: C,
        clinic: Clinic.ID,
        product: Product.ID,
        on day: Day
    ) -> PriceListEntry?
    where C.Element == PriceListEntry {
        var best: PriceListEntry?
        for entry in entries where entry.clinicID == clinic && entry.productID == product && entry.effectiveFrom <= day
        {
            if best.map({ (entry.effectiveFrom, entry.id.rawValue) > ($0.effectiveFrom, $0.id.rawValue) }) ?? true {
                best = entry
            }
        }
        return best
    }
}

/// The price and cost a sale of a product starts from at a clinic on a day.
public struct SalePrice: Sendable, Hashable {
    public var unitPrice: Money
    public var unitCost: Money
    /// The clinic's entry they come from; nil when they are the product's own.
    public var entryID: PriceListEntry.ID?

    public init(unitPrice: Money, unitCost: Money, entryID: PriceListEntry.ID? = nil) {
        self.unitPrice = unitPrice
        self.unitCost = unitCost
        self.entryID = entryID
    }

    /// `product`'s price and cost at `clinic` on `day`, given the clinic's `entries`.
    public init<C: Collection>(_ product: Product, at clinic: Clinic.ID, on day: Day, entries: C)
    where C.Element == PriceListEntry {
        if let entry = PriceListEntry.inForce(among: entries, clinic: clinic, product: product.id, on: day) {
            self.init(unitPrice: entry.unitPrice, unitCost: entry.unitCost ?? product.unitCost, entryID: entry.id)
        } else {
            self.init(unitPrice: product.unitPrice, unitCost: product.unitCost)
        }
    }
}
