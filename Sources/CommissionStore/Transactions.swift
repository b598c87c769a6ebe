import CommissionCore

/// One write of a transaction (``CommissionStore/transaction(_:)``): what the store's method of
/// the same name does, made together with the others.
public enum StoreWrite: Sendable, Hashable {
    case createClinic(ClinicDraft)
    case createProduct(ProductDraft)
    case createTerms(TermsDraft)
    case createSale(SaleDraft, idempotencyKey: String?)
    case voidSale(Sale.ID)
    case createPayout(PayoutDraft)
    case setPrice(PriceDraft)
    case createDeduction(Deduction)

    /// The write with its input checked and trimmed as its own method does it (what needs no
    /// database, checked before the transaction starts).
    public func cleaned() throws -> StoreWrite {
        switch self {
        case .createClinic(var draft):
            draft.name = try StoreInput.name(draft.name, field: "clinic name")
            return .createClinic(draft)
        case .createProduct(let draft): return .createProduct(try StoreInput.product(draft))
        case .createSale(let draft, let key):
            return .createSale(draft, idempotencyKey: try StoreInput.idempotencyKey(key))
        default: return self
        }
    }

    /// The tables the write may change, for the change it announces.
    var tables: Set<StoreTable> {
        switch self {
        case .createClinic: [.clinics]
        case .createProduct: [.products]
        case .createTerms: [.terms, .sales]
        case .createSale, .voidSale: [.sales]
        case .createPayout: [.payouts]
        case .setPrice: [.prices]
        case .createDeduction: [.deductions]
        }
    }
}

/// What one write of a transaction made, in the order of the writes.
public enum StoreWritten: Sendable, Hashable {
    case clinic(Clinic)
    case product(Product)
    case terms(TermsChange)
    /// A sale recorded (or returned again for its idempotency key), or voided.
    case sale(Sale)
    case payout(Payout)
    case price(PriceListEntry)
    case deduction(Deduction)
}

/// The writes a transaction asks for, gathered by its body before any is made: the body decides
/// (it returns to commit, throws to roll back), then the store makes them all in one database
/// transaction — all of them, or, when the store refuses one, none. A write names the records it
/// needs by id: they exist before the transaction (a clinic made in a transaction is the
/// transaction's result, for the next one).
public struct StoreTransaction: Sendable {
    public private(set) var writes: [StoreWrite] = []

    public init() {}

    public mutating func createClinic(_ draft: ClinicDraft) { writes.append(.createClinic(draft)) }
    public mutating func createProduct(_ draft: ProductDraft) { writes.append(.createProduct(draft)) }
    public mutating func createTerms(_ draft: TermsDraft) { writes.append(.createTerms(draft)) }
    public mutating func createSale(_ draft: SaleDraft, idempotencyKey: String?) {
        writes.append(.createSale(draft, idempotencyKey: idempotencyKey))
    }
    public mutating func voidSale(_ id: Sale.ID) { writes.append(.voidSale(id)) }
    public mutating func createPayout(_ draft: PayoutDraft) { writes.append(.createPayout(draft)) }
    public mutating func setPrice(_ draft: PriceDraft) { writes.append(.setPrice(draft)) }
    public mutating func createDeduction(_ deduction: Deduction) { writes.append(.createDeduction(deduction)) }
}

extension CommissionStore {
    /// Runs `body`, then makes the writes it asked for together: every one, or none (when `body`
    /// throws, nothing is written; when the store refuses a write, it throws that write's error
    /// and nothing of the others is left). Returns what each write made, in order.
    ///
    /// ```swift
    /// let made = try await store.transaction { tx in
    ///     tx.createSale(SaleDraft(clinicID: glow.id, productID: serum.id, date: today), idempotencyKey: "phone-81")
    ///     tx.createPayout(PayoutDraft(clinicID: glow.id, period: march, amount: paid, receivedOn: today))
    /// }
    /// ```
    public func transaction(_ body: (inout StoreTransaction) throws -> Void) async throws -> [StoreWritten] {
        var transaction = StoreTransaction()
        try body(&transaction)
        guard !transaction.writes.isEmpty else { return [] }
        return try await apply(transaction.writes)
    }
}

extension Array where Element == StoreWrite {
    /// The tables the writes may change together.
    public var tables: Set<StoreTable> { reduce(into: []) { $0.formUnion($1.tables) } }
}
