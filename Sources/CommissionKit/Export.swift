import CommissionCore
import CommissionStore
import Foundation

/// What `export` can write. CSV exports of clinics, products, terms (with their tiers), sales,
/// prices, schedules and deductions import again; the audit log is every change on record, oldest first.
public enum ExportKind: String, Sendable, CaseIterable {
    case clinics, products, terms, sales, payouts, audit, prices, schedules, deductions
}

extension Renderer {
    /// Every record of a kind (archived ones included; voided sales only when asked), with the
    /// book's names: a renderer made without names learns them here.
    public func export(
        _ kind: ExportKind,
        from store: any CommissionStore,
        includeVoided: Bool = false
    ) async throws -> Listing {
        let renderer = Renderer(currency: currency, names: try await Presenter.Names(store: store))
        switch kind {
        case .clinics: return renderer.clinics(try await store.clinics(ClinicQuery(includeArchived: true)))
        case .products: return renderer.products(try await store.products(ProductQuery(includeArchived: true)))
        case .terms: return renderer.terms(try await store.terms(TermsQuery(includeArchived: true)))
        case .sales:
            return renderer.sales(try await store.sales(SaleQuery(includeVoided: includeVoided, order: .oldestFirst)))
        case .payouts: return renderer.payouts(try await store.payouts(PayoutQuery()))
        case .audit: return audit(try await store.auditLog(AuditQuery()).reversed())
        case .prices: return renderer.prices(try await store.prices(PriceQuery()), forExport: true)
        case .schedules: return renderer.scheduleChanges(try await store.clinics(ClinicQuery(includeArchived: true)))
        case .deductions: return renderer.deductions(try await store.deductions(clinic: nil))
        }
    }

    /// Audit entries as a table: when (UTC), who, what, which record, and the record before and after as JSON.
    public func audit(_ entries: some Sequence<AuditEntry>) -> Listing {
        let time = ISO8601DateFormatter()
        let entries = Array(entries)
        return Listing(
            TextTable(
                [
                    .init("id", .right), .init("at"), .init("actor"), .init("subject"), .init("record", .right),
                    .init("action"),
                    .init("before"), .init("after"),
                ],
                rows: entries.map { entry in
                    let record =
                        entry.subjectID.map { first in entry.lastSubjectID.map { "\(first)-\($0)" } ?? "\(first)" }
                        ?? ""
                    return [
                        "\(entry.id.rawValue)", time.string(from: entry.at), entry.actor, entry.subject.rawValue,
                        record,
                        entry.action, entry.before ?? "", entry.after ?? "",
                    ]
                }
            ),
            json: entries.map(presenter.audit)
        )
    }
}

extension AuditEntry {
    /// What changed, for a person: `quantity 1 → 2, unit price 50.00 → 45.00, clinic Glow → Harbor`;
    /// for a creation or a deletion the record's main fields. Amounts (`…Minor`) in the book's
    /// currency; clinics and products by name when `names` has them (their ids otherwise); the
    /// terms a sale was computed under show as its share and basis, not as an id.
    public func changes(currency: Currency, names: Presenter.Names = Presenter.Names()) -> String {
        func object(_ json: String?) -> [String: Any] {
            guard let data = json?.data(using: .utf8),
                // try?: the entry's JSON is the store's own; text that is not an object shows no fields
                let value = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { return [:] }
            return value
        }
        func text(_ key: String, _ value: Any?) -> String {
            switch value {
            case nil, is NSNull: return "none"
            case let number as NSNumber where key.hasSuffix("Minor"):
                return currency.format(Money(minorUnits: number.int64Value))
            case let number as NSNumber where key == "clinicId":
                return names.clinics[Clinic.ID(number.int64Value)] ?? number.stringValue
            case let number as NSNumber where key == "productId":
                return names.products[Product.ID(number.int64Value)] ?? number.stringValue
            case let number as NSNumber where key == "shareBasisPoints":
                // try?: a share out of range shows as its raw number
                return ((try? Share(basisPoints: number.intValue)).map { $0.description }) ?? "\(number)"
            case let value? where ["voided", "closed", "archived"].contains(key):
                return (value as? Bool ?? (value as? NSNumber)?.boolValue ?? false) ? "yes" : "no"
            case let number as NSNumber: return number.stringValue
            case let string as String: return string
            default: return "\(value!)"
            }
        }
        func label(_ key: String) -> String {
            var name =
                key.hasSuffix("Minor")
                ? String(key.dropLast(5))
                : key == "shareBasisPoints"
                    ? "share"
                    : key == "clinicId" ? "clinic" : key == "productId" ? "product" : key
            name = name.replacing(/([a-z])([A-Z])/) { "\($0.1) \($0.2.lowercased())" }
            return name
        }
        // The terms' id says nothing to a person; the share and basis beside it say what changed.
        var old = object(before), new = object(after)
        if subject == .sale {
            old["termsId"] = nil
            new["termsId"] = nil
        }
        if subject == .sale && action == "import" {
            let more = [("prices", "prices"), ("scheduleChanges", "schedule changes"), ("deductions", "deductions")]
                .compactMap { key, label in new[key].map { ", \(text(key, $0)) \(label)" } }.joined()
            return
                "imported \(text("sales", new["sales"])) sales, \(text("clinics", new["clinics"])) clinics, \(text("products", new["products"])) products, \(text("terms", new["terms"])) terms"
                + more
        }
        if old.isEmpty || new.isEmpty {
            let record = old.isEmpty ? new : old
            return record.keys.sorted().filter { !(record[$0] is NSNull) }.map {
                "\(label($0)) \(text($0, record[$0]))"
            }.joined(separator: ", ")
        }
        let changed = Set(old.keys).union(new.keys).sorted().filter { text($0, old[$0]) != text($0, new[$0]) }
        return changed.map { "\(label($0)) \(text($0, old[$0])) → \(text($0, new[$0]))" }.joined(separator: ", ")
    }
}
