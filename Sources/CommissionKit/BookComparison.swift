import CommissionCore
import CommissionStore
import Foundation

/// Proves that two stores hold the same book: what `commission migrate` checks after a move, and
/// what the round-trip tests assert. Only the stores' public reads are used, so any two stores
/// compare; records are matched by what they are (clinics by name), never by id, since a move
/// numbers them afresh.
public struct BookComparison: Sendable {
    public let source: any CommissionStore
    public let target: any CommissionStore

    public init(source: any CommissionStore, target: any CommissionStore) {
        self.source = source
        self.target = target
    }

    /// What was found equal.
    public struct Checked: Sendable, Hashable {
        /// Statements of every clinic and period with sales or payouts, compared total by total.
        public var statements = 0
        /// Audit entries, compared one by one.
        public var auditEntries = 0
    }

    /// The differences found, up to 20 of them said.
    public struct Differences: Error, CustomStringConvertible {
        public var items: [String]
        public var description: String {
            "The copy differs from the original (\(items.count) difference\(items.count == 1 ? "" : "s")):\n  "
                + items.prefix(20).joined(separator: "\n  ")
        }
    }

    /// Every price-list entry by names, day and amounts, in order: comparable across stores whose ids differ.
    static func priceLists(_ store: any CommissionStore) async throws -> [String] {
        let clinics = Dictionary(
            try await store.clinics(ClinicQuery(includeArchived: true)).map { ($0.id, $0.name) },
            uniquingKeysWith: { a, _ in a }
        )
        let products = Dictionary(
            try await store.products(ProductQuery(includeArchived: true)).map { ($0.id, $0.name) },
            uniquingKeysWith: { a, _ in a }
        )
        return try await store.prices(PriceQuery()).map {
            "\(clinics[$0.clinicID] ?? "?") · \(products[$0.productID] ?? "?") from \($0.effectiveFrom): \($0.unitPrice.minorUnits)"
                + ($0.unitCost.map { " cost \($0.minorUnits)" } ?? "")
        }.sorted()
    }

    /// Compares the settings, the count of every kind of record, every statement's totals
    /// (expected, received, balance, lines) and the audit log entry by entry.
    /// - Parameter restoredInPlace: the copy is a book that was replaced with the original's
    ///   archive in place (a team server's restore): its log has one `restore` entry newer than
    ///   the original's entries, and may keep older entries of its own after them.
    /// - Parameter auditLog: false to leave the audit logs out, for two books that came to the
    ///   same figures by different ways (one import of a workbook, another of its CSV files).
    /// - Throws: ``Differences`` when anything differs.
    @discardableResult
    public func run(
        auditPage: Int = 10_000,
        restoredInPlace: Bool = false,
        auditLog: Bool = true
    ) async throws -> Checked {
        var differences: [String] = []
        func compare<T: Equatable>(_ what: String, _ a: T, _ b: T) {
            if a != b { differences.append("\(what): \(a) in the original, \(b) in the copy") }
        }
        compare("settings", try await source.settings(), try await target.settings())
        compare(
            "sales (voided ones too)",
            try await source.countSales(SaleQuery(includeVoided: true)),
            try await target.countSales(SaleQuery(includeVoided: true))
        )
        let clinics = try await source.clinics(ClinicQuery(includeArchived: true))
        let copiedClinics = Dictionary(
            try await target.clinics(ClinicQuery(includeArchived: true)).map { ($0.name.lowercased(), $0) },
            uniquingKeysWith: { first, _ in first }
        )
        compare("clinics", clinics.count, copiedClinics.count)
        compare(
            "products",
            try await source.products(ProductQuery(includeArchived: true)).map(\.name).sorted(),
            try await target.products(ProductQuery(includeArchived: true)).map(\.name).sorted()
        )
        compare(
            "terms",
            try await source.terms(TermsQuery(includeArchived: true)).count,
            try await target.terms(TermsQuery(includeArchived: true)).count
        )
        compare("payouts", try await source.payouts(PayoutQuery()).count, try await target.payouts(PayoutQuery()).count)
        compare("price lists", try await Self.priceLists(source), try await Self.priceLists(target))

        var checked = Checked()
        let months = try await source.clinicMonths(
            from: try Day(year: 1, month: 1, day: 1),
            through: try Day(year: 9999, month: 12, day: 31)
        )
        for clinic in clinics {
            guard let copy = copiedClinics[clinic.name.lowercased()] else {
                differences.append("the clinic \(clinic.name) is missing from the copy")
                continue
            }
            compare("\(clinic.name)'s schedule", clinic.calendar, copy.calendar)
            // Every period with a sale or a payout: the days that sold, and the payouts' periods.
            var periods = Set(try await source.payouts(PayoutQuery(clinicID: clinic.id)).map(\.period))
            for month in months where month.clinicID == clinic.id {
                var day = month.month
                while day.month == month.month.month {
                    let period = clinic.calendar.period(containing: day)
                    periods.insert(period)
                    day = period.end.adding(days: 1)
                }
            }
            for period in periods.sorted() {
                let a = try await source.statement(clinic: clinic.id, period: period)
                let b = try await target.statement(clinic: copy.id, period: period)
                let name = "\(clinic.name) \(period.start)–\(period.end)"
                compare("\(name) totals", a.totals, b.totals)
                compare("\(name) received", a.received, b.received)
                compare("\(name) balance", a.balance, b.balance)
                compare("\(name) lines", a.lines.count, b.lines.count)
                checked.statements += 1
            }
        }

        // The audit log, newest first, a page at a time: who, when, what, and the record as it was.
        var offset = 0
        let skipped = restoredInPlace ? 1 : 0
        if restoredInPlace, try await target.auditLog(AuditQuery(page: Page(limit: 1))).first?.action != "restore" {
            differences.append("the copy's newest audit entry is not its restore")
        }
        while auditLog, differences.count < 20 {
            let a = try await source.auditLog(AuditQuery(page: Page(limit: auditPage, offset: offset)))
            var b = try await target.auditLog(AuditQuery(page: Page(limit: auditPage, offset: offset + skipped)))
            // The entries the copy kept from before its restore come after the original's last.
            if restoredInPlace, a.count < auditPage { b = Array(b.prefix(a.count)) }
            if a.count != b.count {
                differences.append(
                    "the audit log has \(offset + a.count) entries or more in the original, \(offset + b.count) in the copy"
                )
                break
            }
            for (x, y) in zip(a, b)
            where (x.at, x.actor, x.subject, x.action, x.before, x.after) != (
                y.at, y.actor, y.subject, y.action, y.before, y.after
            ) {
                differences.append(
                    "audit entry \(x.id) (\(x.subject.rawValue) \(x.action) by \(x.actor)) differs in the copy (entry \(y.id))"
                )
            }
            checked.auditEntries += a.count
            if a.count < auditPage { break }
            offset += auditPage
        }
        if !differences.isEmpty { throw Differences(items: differences) }
        return checked
    }
}
