import CommissionCore
import CommissionStore

/// What `export` can write. CSV exports of clinics, products, terms and sales import again.
public enum ExportKind: String, Sendable, CaseIterable {
    case clinics, products, terms, sales, payouts
}

extension Renderer {
    /// Every record of a kind as a table (archived ones included; voided sales only when asked).
    public func export(_ kind: ExportKind, from store: any CommissionStore, includeVoided: Bool = false) async throws -> TextTable {
        let clinics = Dictionary(uniqueKeysWithValues: try await store.clinics(ClinicQuery(includeArchived: true)).map { ($0.id, $0.name) })
        let products = Dictionary(uniqueKeysWithValues: try await store.products(ProductQuery(includeArchived: true)).map { ($0.id, $0.name) })
        switch kind {
        case .clinics: return self.clinics(try await store.clinics(ClinicQuery(includeArchived: true)))
        case .products: return self.products(try await store.products(ProductQuery(includeArchived: true)))
        case .terms: return terms(try await store.terms(TermsQuery(includeArchived: true)), clinics: clinics, products: products)
        case .sales:
            return sales(try await store.sales(SaleQuery(includeVoided: includeVoided, order: .oldestFirst)), clinics: clinics, products: products)
        case .payouts: return payouts(try await store.payouts(PayoutQuery()), clinics: clinics)
        }
    }
}
