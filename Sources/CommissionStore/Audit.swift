import CommissionCore
import Foundation

/// What an audit entry is about.
public enum AuditSubject: String, Sendable, Hashable, CaseIterable {
    case sale, terms, payout, period, settings, price, clinic, deduction, product
}

/// One change on record: who made it, when, and the record before and after (as JSON, amounts in
/// minor units). The log is append-only: the stores refuse to change or delete an entry.
public struct AuditEntry: Sendable, Hashable, Identifiable {
    public typealias ID = EntityID<AuditEntry>
    public var id: ID
    public var at: Date
    /// The account's user name, `cli:USER` for the command line, or `system`.
    public var actor: String
    public var subject: AuditSubject
    /// The record's id (for a period, its clinic's); an import covers the sales from `subjectID`
    /// through `lastSubjectID`.
    public var subjectID: Int64?
    public var lastSubjectID: Int64?
    /// `create`, `update`, `void`, `recompute`, `delete`, `close`, `reopen`, `import`, `restore`.
    public var action: String
    public var before: String?
    public var after: String?

    public init(
        id: ID,
        at: Date,
        actor: String,
        subject: AuditSubject,
        subjectID: Int64?,
        lastSubjectID: Int64? = nil,
        action: String,
        before: String?,
        after: String?
    ) {
        self.id = id
        self.at = at
        self.actor = actor
        self.subject = subject
        self.subjectID = subjectID
        self.lastSubjectID = lastSubjectID
        self.action = action
        self.before = before
        self.after = after
    }
}

/// Which audit entries to list, newest first.
public struct AuditQuery: Sendable, Hashable {
    /// Only entries about this subject…
    public var subject: AuditSubject?
    /// …and this record (for sales, an import that created it counts too).
    public var subjectID: Int64?
    public var page: Page

    public init(subject: AuditSubject? = nil, subjectID: Int64? = nil, page: Page = .all) {
        self.subject = subject
        self.subjectID = subjectID
        self.page = page
    }
}

/// Who is making the changes of the current task: the web app sets the signed-in account, the
/// command line `cli:USER`. Stores read it when they record a change.
public enum Audit {
    @TaskLocal public static var actor: String = "system"

    /// A change about to be recorded, its JSON already made.
    public struct Change: Sendable {
        public var subject: AuditSubject
        public var subjectID: Int64?
        public var lastSubjectID: Int64?
        public var action: String
        public var before: String?
        public var after: String?

        public init(
            _ subject: AuditSubject,
            _ subjectID: Int64?,
            lastSubjectID: Int64? = nil,
            _ action: String,
            before: String?,
            after: String?
        ) {
            self.subject = subject
            self.subjectID = subjectID
            self.lastSubjectID = lastSubjectID
            self.action = action
            self.before = before
            self.after = after
        }
    }

    // MARK: Records as JSON
    //
    // Encodable records through JSONEncoder: JSONSerialization took 158 µs an object here, this 7 µs
    // (a sale is written on every POST). Keys sorted; a nil field is left out.

    struct SaleRecord: Encodable {
        var clinicId, productId: Int64
        var date: String
        var quantity, unitPriceMinor, unitCostMinor, discountMinor: Int64
        var termsId, shareBasisPoints: Int64?
        var basis: String?
        var revenueMinor, profitMinor, commissionMinor: Int64
        var note: String?
        var voided: Bool
    }

    public static func json(_ sale: Sale) -> String {
        // Written member by member (the keys in their order): the bytes ``encode(_:)`` writes for
        // ``record(_:)``, without the tree it builds and sorts (`AuditTests` holds them equal).
        var object = SortedJSON.FlatObject(escapingSlashes: false)
        object.add("basis", sale.line.rate?.basis.rawValue)
        object.add("clinicId", sale.clinicID.rawValue)
        object.add("commissionMinor", sale.figures.commission.minorUnits)
        object.add("date", sale.date.description)
        object.add("discountMinor", sale.line.discount.minorUnits)
        object.add("note", sale.note)
        object.add("productId", sale.productID.rawValue)
        object.add("profitMinor", sale.figures.profit.minorUnits)
        object.add("quantity", sale.line.quantity)
        object.add("revenueMinor", sale.figures.revenue.minorUnits)
        object.add("shareBasisPoints", sale.line.rate.map { Int64($0.share.basisPoints) })
        object.add("termsId", sale.termsID?.rawValue)
        object.add("unitCostMinor", sale.line.unitCost.minorUnits)
        object.add("unitPriceMinor", sale.line.unitPrice.minorUnits)
        object.add("voided", sale.isVoided)
        if let bytes = object.json() { return String(decoding: bytes, as: UTF8.self) }
        return jsonThroughEncoder(sale)
    }

    /// A sale's audit record, as ``json(_:)-(Sale)`` writes it; that encoded is the same bytes.
    package static func jsonThroughEncoder(_ sale: Sale) -> String { encode(record(sale)) }

    static func record(_ sale: Sale) -> SaleRecord {
        SaleRecord(
            clinicId: sale.clinicID.rawValue,
            productId: sale.productID.rawValue,
            date: sale.date.description,
            quantity: sale.line.quantity,
            unitPriceMinor: sale.line.unitPrice.minorUnits,
            unitCostMinor: sale.line.unitCost.minorUnits,
            discountMinor: sale.line.discount.minorUnits,
            termsId: sale.termsID?.rawValue,
            shareBasisPoints: sale.line.rate.map { Int64($0.share.basisPoints) },
            basis: sale.line.rate?.basis.rawValue,
            revenueMinor: sale.figures.revenue.minorUnits,
            profitMinor: sale.figures.profit.minorUnits,
            commissionMinor: sale.figures.commission.minorUnits,
            note: sale.note,
            voided: sale.isVoided
        )
    }

    struct TermsRecord: Encodable {
        var clinicId: Int64
        var productId: Int64?
        var basis: String
        var shareBasisPoints: Int64
        var tiers: String?
        var effectiveFrom: String
        var archived: Bool
    }

    public static func json(_ terms: Terms) -> String {
        encode(
            TermsRecord(
                clinicId: terms.clinicID.rawValue,
                productId: terms.productID?.rawValue,
                basis: terms.basis.rawValue,
                shareBasisPoints: Int64(terms.share.basisPoints),
                tiers: Tier.stored(terms.tiers),
                effectiveFrom: terms.effectiveFrom.description,
                archived: terms.isArchived
            )
        )
    }

    struct DeductionRecord: Encodable {
        var clinicId: Int64
        var name, kind: String
        var amountMinor: Int64?
        var shareBasisPoints: Int?
        var effectiveFrom: String
        var lastDay: String?
    }

    public static func json(_ deduction: Deduction) -> String {
        let stored = deduction.amount.stored
        return encode(
            DeductionRecord(
                clinicId: deduction.clinicID.rawValue,
                name: deduction.name,
                kind: stored.kind,
                amountMinor: stored.amountMinor,
                shareBasisPoints: stored.shareBasisPoints,
                effectiveFrom: deduction.effectiveFrom.description,
                lastDay: deduction.lastDay?.description
            )
        )
    }

    struct PriceRecord: Encodable {
        var clinicId, productId, unitPriceMinor: Int64
        var unitCostMinor: Int64?
        var effectiveFrom: String
    }

    public static func json(_ entry: PriceListEntry) -> String {
        encode(
            PriceRecord(
                clinicId: entry.clinicID.rawValue,
                productId: entry.productID.rawValue,
                unitPriceMinor: entry.unitPrice.minorUnits,
                unitCostMinor: entry.unitCost?.minorUnits,
                effectiveFrom: entry.effectiveFrom.description
            )
        )
    }

    struct ClinicRecord: Encodable {
        var name: String
        var archived: Bool
    }

    /// A clinic's name and whether it is archived (its schedules have entries of their own).
    public static func json(_ clinic: Clinic) -> String {
        encode(ClinicRecord(name: clinic.name, archived: clinic.isArchived))
    }

    struct ProductRecord: Encodable {
        var name: String
        var sku: String?
        var unitPriceMinor, unitCostMinor: Int64
        var archived: Bool
    }

    public static func json(_ product: Product) -> String {
        encode(
            ProductRecord(
                name: product.name,
                sku: product.sku,
                unitPriceMinor: product.unitPrice.minorUnits,
                unitCostMinor: product.unitCost.minorUnits,
                archived: product.isArchived
            )
        )
    }

    struct ScheduleRecord: Encodable {
        var schedule: String
        var changes: String?
    }

    /// A clinic's pay schedules: the first, and its changes (`2026-11-17 weekly:tuesday;…`).
    public static func json(schedulesOf clinic: Clinic) -> String {
        encode(
            ScheduleRecord(
                schedule: clinic.schedule.description,
                changes: ScheduleChange.stored(clinic.scheduleChanges)
            )
        )
    }

    struct PayoutRecord: Encodable {
        var clinicId: Int64
        var periodStart, periodEnd: String
        var amountMinor: Int64
        var receivedOn: String
        var reference: String?
    }

    public static func json(_ payout: Payout) -> String {
        encode(
            PayoutRecord(
                clinicId: payout.clinicID.rawValue,
                periodStart: payout.period.start.description,
                periodEnd: payout.period.end.description,
                amountMinor: payout.amount.minorUnits,
                receivedOn: payout.receivedOn.description,
                reference: payout.reference
            )
        )
    }

    struct PeriodRecord: Encodable {
        var clinicId: Int64
        var periodStart, periodEnd: String
        var closed: Bool
    }

    public static func json(clinic: Clinic.ID, period: PayPeriod, closed: Bool) -> String {
        encode(
            PeriodRecord(
                clinicId: clinic.rawValue,
                periodStart: period.start.description,
                periodEnd: period.end.description,
                closed: closed
            )
        )
    }

    struct SettingsRecord: Encodable {
        var currency: String
        var minorDigits: Int
        var timeZone, rounding, roundingScope, locale: String
    }

    public static func json(_ settings: BookSettings) -> String {
        encode(
            SettingsRecord(
                currency: settings.currency.code,
                minorDigits: settings.currency.minorDigits,
                timeZone: settings.timeZoneIdentifier,
                rounding: settings.rounding.rule.rawValue,
                roundingScope: settings.rounding.scope.rawValue,
                locale: settings.localeIdentifier
            )
        )
    }

    struct ImportRecord: Encodable {
        var clinics, products, terms, sales: Int
        /// Left out when none, as before these could be imported.
        var prices, scheduleChanges, deductions: Int?
        /// The SHA-256 of each file imported, by which a second import of one is recognised.
        var digests: [String]?
    }

    public static func json(_ summary: ImportSummary, digests: [ImportDigest] = []) -> String {
        func some(_ count: Int) -> Int? { count == 0 ? nil : count }
        return encode(
            ImportRecord(
                clinics: summary.clinics,
                products: summary.products,
                terms: summary.terms,
                sales: summary.sales,
                prices: some(summary.prices),
                scheduleChanges: some(summary.scheduleChanges),
                deductions: some(summary.deductions),
                digests: digests.isEmpty ? nil : digests.map(\.sha256)
            )
        )
    }

    struct RestoreRecord: Encodable {
        var restored: String
        var clinics, products, terms, prices, deductions, sales, payouts, closedPeriods, auditEntries: Int
    }

    /// What a `restore` entry records: what the backup that replaced the book held.
    public static func json(restored counts: ArchiveCounts) -> String {
        encode(
            RestoreRecord(
                restored: counts.description,
                clinics: counts.clinics,
                products: counts.products,
                terms: counts.terms,
                prices: counts.prices,
                deductions: counts.deductions,
                sales: counts.sales,
                payouts: counts.payouts,
                closedPeriods: counts.closedPeriods,
                auditEntries: counts.auditEntries
            )
        )
    }

    static func encode(_ record: some Encodable) -> String {
        if let bytes = SortedJSON.encode(record, escapingSlashes: false) {
            return String(decoding: bytes, as: UTF8.self)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // try?: audit records are strings, integers and booleans: JSONEncoder cannot fail on them
        guard let data = try? encoder.encode(record) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
