/// A recorded sale (or return) with the snapshot it was computed from.
///
/// The unit price, unit cost, share and basis are copies taken when the sale was recorded (or last
/// recomputed): editing a product's price later never changes a past sale.
public struct Sale: Sendable, Hashable, Identifiable {
    public typealias ID = EntityID<Sale>
    public var id: ID
    public var clinicID: Clinic.ID
    public var productID: Product.ID
    public var date: Day
    public var line: SaleLine
    /// The terms the commission was computed with; nil for a *no commission* sale.
    public var termsID: Terms.ID?
    public var figures: SaleFigures
    public var note: String?
    public var isVoided: Bool

    public init(
        id: ID,
        clinicID: Clinic.ID,
        productID: Product.ID,
        date: Day,
        line: SaleLine,
        termsID: Terms.ID?,
        figures: SaleFigures,
        note: String? = nil,
        isVoided: Bool = false
    ) {
        self.id = id
        self.clinicID = clinicID
        self.productID = productID
        self.date = date
        self.line = line
        self.termsID = termsID
        self.figures = figures
        self.note = note
        self.isVoided = isVoided
    }

    /// True when the sale was marked *no commission* (a sample, personal use).
    public var isNoCommission: Bool { line.rate == nil }
    public var quantity: Int64 { line.quantity }
    public var isReturn: Bool { line.quantity < 0 }
}
