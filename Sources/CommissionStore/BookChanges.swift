import CommissionCore
import Foundation

// What changed in a book after a revision: how a device's copy follows a server's book without
// downloading it whole (`BookSync`).
//
// A book's revision is the id of its newest audit entry; every change is on the log, in commit
// order. The server reads the entries after the device's revision, and from them which records
// they touched (`ChangesPlan`); it answers with those records as they are now, in the archive's
// record shapes, the records no longer there, and the entries themselves. A restore or a
// replacement of the server's book starts a new history (its *epoch*): changes are only told
// within one, and a device from another takes the whole book again.

/// Which history of a book and how far into it: what a server answers when it cannot tell the
/// changes a device asks for (another epoch, or a revision it never reached).
public struct BookPosition: Sendable, Hashable, Codable {
    /// Changed by every restore or replacement of the book; never "", which a device that knows
    /// no history of the book asks with.
    public var epoch: String
    public var revision: Int64

    public init(epoch: String, revision: Int64) {
        self.epoch = epoch
        self.revision = revision
    }
}

/// A record a book no longer holds (a payout removed, terms deleted…).
public struct RemovedRecord: Sendable, Hashable, Codable {
    public var kind: AuditSubject
    public var id: Int64

    public init(_ kind: AuditSubject, _ id: Int64) {
        self.kind = kind
        self.id = id
    }

    enum CodingKeys: String, CodingKey { case kind, id }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .kind)
        guard let kind = AuditSubject(rawValue: name) else {
            throw DecodingError.dataCorruptedError(
                forKey: .kind,
                in: container,
                debugDescription: "not a kind of record: \(name)"
            )
        }
        self.kind = kind
        id = try container.decode(Int64.self, forKey: .id)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind.rawValue, forKey: .kind)
        try container.encode(id, forKey: .id)
    }
}

/// The changes of a book after a revision, within one epoch.
public struct BookChanges: Sendable, Hashable {
    public var epoch: String
    /// The revision they follow, and the one they bring the book to.
    public var since, revision: Int64
    /// The book's settings first, then every record touched since, as it is now, in the archive's
    /// order; last the audit entries after `since`.
    public var records: [ArchiveRecord]
    /// The records touched since that are no longer there.
    public var removed: [RemovedRecord]
    /// The clinics whose closed periods changed: `records` holds all of theirs (none, when every
    /// one was reopened).
    public var periodClinics: [Int64]

    public init(
        epoch: String,
        since: Int64,
        revision: Int64,
        records: [ArchiveRecord],
        removed: [RemovedRecord],
        periodClinics: [Int64]
    ) {
        self.epoch = epoch
        self.since = since
        self.revision = revision
        self.records = records
        self.removed = removed
        self.periodClinics = periodClinics
    }

    /// The audit entries after `since`, oldest first.
    public var entries: [AuditEntry] {
        records.flatMap { record -> [AuditEntry] in if case .audit(let page) = record { page } else { [] } }
    }
}

/// What a server answers a device asking for the changes after its revision.
public enum ChangesAnswer: Sendable, Hashable {
    case changes(BookChanges)
    /// It cannot tell them from there (the book was restored or replaced, or the revision is
    /// beyond its newest): the device takes the whole book, which stands here.
    case gone(BookPosition)
}

/// A store that tells what changed in its book after a revision (a server's book).
public protocol BookChangesReading: Sendable {
    /// The changes after `revision` in the history `epoch`, read from one consistent snapshot;
    /// `.gone` when the book is of another epoch or never reached `revision`.
    func changes(since revision: Int64, epoch: String) async throws -> ChangesAnswer
}

/// A store that takes a server's changes into its copy of the book (a device's book).
public protocol BookChangesApplying: Sendable {
    /// The history of this book: changed by every restore of it (a whole pull's too), so that a
    /// sync notices a copy restored from a backup since its last pull.
    func bookEpoch() async throws -> String

    /// In one transaction: removes the records the device made itself since its last pull
    /// (`own`: the server's answer brings back, under its ids, those it took) and its audit
    /// entries after `auditAfter`, then takes every record of `changes` (added or replaced by id),
    /// removes what it removed, and appends its audit entries. Changes nothing and returns false
    /// when the book's newest audit entry is no longer `newest` (it was written meanwhile).
    func apply(
        _ changes: BookChanges,
        removingOwn own: [RemovedRecord],
        auditAfter: Int64,
        expectingNewest newest: Int64
    ) async throws -> Bool
}

/// Which records a run of audit entries touched: what a server reads to answer for them, and what
/// a device checks its own changes against. No I/O: each store turns it into its queries.
public struct ChangesPlan: Sendable, Hashable {
    /// The records of one kind to read: some ids, or all of them.
    public enum Selection: Sendable, Hashable {
        case ids(Set<Int64>)
        case all

        public func contains(_ id: Int64) -> Bool {
            switch self {
            case .all: true
            case .ids(let ids): ids.contains(id)
            }
        }

        mutating func insert(_ id: Int64) {
            if case .ids(var ids) = self {
                ids.insert(id)
                self = .ids(ids)
            }
        }

        /// An SQL condition on `column` selecting them (integers only: nothing to escape).
        public func condition(_ column: String) -> String {
            switch self {
            case .all: "TRUE"
            case .ids(let ids) where ids.isEmpty: "FALSE"
            case .ids(let ids): "\(column) IN (\(ids.sorted().map(String.init).joined(separator: ", ")))"
            }
        }
    }

    public var clinics = Selection.ids([]), products = Selection.ids([]), terms = Selection.ids([])
    public var prices = Selection.ids([]), deductions = Selection.ids([])
    /// The sales touched, as ranges of ids (an import's are one range).
    public private(set) var sales: [ClosedRange<Int64>] = []
    public var payouts = Set<Int64>()
    /// The clinics whose closed periods changed.
    public var periodClinics = Set<Int64>()
    /// Whether the book's settings changed.
    public var settings = false
    /// The records with a `delete` entry, by kind: removed on the device even when a record of the
    /// same id is there again (SQLite may give a new record the id of the last one deleted, whose
    /// children the deletion took) or when every record of the kind is read again.
    public private(set) var deleted: [AuditSubject: Set<Int64>] = [:]

    /// Every clinic, product, terms, price-list entry and deduction (what a whole archive holds of them).
    public static let everything: ChangesPlan = {
        var plan = ChangesPlan([])
        (plan.clinics, plan.products, plan.terms, plan.prices, plan.deductions) = (.all, .all, .all, .all, .all)
        return plan
    }()

    public init(_ entries: [AuditEntry]) {
        var saleRanges: [ClosedRange<Int64>] = []
        for entry in entries {
            // An import makes clinics, products, terms, prices and deductions without an entry of
            // each: all of them are read again (they are few).
            if entry.action == "import" {
                (clinics, products, terms, prices, deductions) = (.all, .all, .all, .all, .all)
            }
            guard let id = entry.subjectID else {
                if entry.subject == .settings { settings = true }
                continue
            }
            if entry.action == "delete" { deleted[entry.subject, default: []].insert(id) }
            switch entry.subject {
            case .sale:
                saleRanges.append(id...max(id, entry.lastSubjectID ?? id))
            case .terms: terms.insert(id)
            case .payout: payouts.insert(id)
            case .period: periodClinics.insert(id)
            case .settings: settings = true
            case .price: prices.insert(id)
            case .clinic: clinics.insert(id)
            case .deduction: deductions.insert(id)
            case .product: products.insert(id)
            }
        }
        sales = Self.merged(saleRanges)
    }

    /// Ranges sorted and joined where they meet or overlap.
    static func merged(_ ranges: [ClosedRange<Int64>]) -> [ClosedRange<Int64>] {
        var merged: [ClosedRange<Int64>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// SQL conditions on `column` that select the sales touched, each small enough for one query:
    /// a range of ids, or up to 500 single ids.
    public func saleConditions(_ column: String) -> [String] {
        var conditions: [String] = []
        var singles: [Int64] = []
        for range in sales {
            if range.count == 1 {
                singles.append(range.lowerBound)
            } else {
                conditions.append("\(column) BETWEEN \(range.lowerBound) AND \(range.upperBound)")
            }
        }
        for start in stride(from: 0, to: singles.count, by: 500) {
            conditions.append(
                "\(column) IN (\(singles[start..<min(start + 500, singles.count)].map(String.init).joined(separator: ", ")))"
            )
        }
        return conditions
    }

    /// Whether the entries touched this record (a period's id is its clinic's).
    public func covers(_ kind: AuditSubject, _ id: Int64?) -> Bool {
        guard let id else { return kind == .settings && settings }
        switch kind {
        case .sale: return sales.contains { $0.contains(id) }
        case .terms: return terms.contains(id)
        case .payout: return payouts.contains(id)
        case .period: return periodClinics.contains(id)
        case .settings: return settings
        case .price: return prices.contains(id)
        case .clinic: return clinics.contains(id)
        case .deduction: return deductions.contains(id)
        case .product: return products.contains(id)
        }
    }

    /// The changes, from the records read for this plan (the book's settings first, the entries
    /// last): what was touched and is not among them was removed, and so was what was deleted
    /// (a record of its id among them is a new one, taken after the removal).
    public func changes(epoch: String, since: Int64, revision: Int64, records: [ArchiveRecord]) -> BookChanges {
        var found = Set<RemovedRecord>()
        for record in records {
            switch record {
            case .clinic(let clinic): found.insert(RemovedRecord(.clinic, clinic.id.rawValue))
            case .product(let product): found.insert(RemovedRecord(.product, product.id.rawValue))
            case .terms(let terms): found.insert(RemovedRecord(.terms, terms.id.rawValue))
            case .price(let entry): found.insert(RemovedRecord(.price, entry.id.rawValue))
            case .deduction(let deduction): found.insert(RemovedRecord(.deduction, deduction.id.rawValue))
            case .payout(let payout): found.insert(RemovedRecord(.payout, payout.id.rawValue))
            default: break
            }
        }
        var removed: [RemovedRecord] = []
        for (kind, selection) in [
            (AuditSubject.clinic, clinics), (.product, products), (.terms, terms), (.price, prices),
            (.deduction, deductions),
            (.payout, .ids(payouts)),
        ] {
            let gone = deleted[kind] ?? []
            let touched: Set<Int64> = if case .ids(let ids) = selection { ids } else { [] }
            removed += touched.union(gone).sorted().map { RemovedRecord(kind, $0) }.filter {
                gone.contains($0.id) || !found.contains($0)
            }
        }
        return BookChanges(
            epoch: epoch,
            since: since,
            revision: revision,
            records: records,
            removed: removed,
            periodClinics: periodClinics.sorted()
        )
    }
}

extension ArchiveFile {
    /// A book's changes as lines of the archive format: a header that says what they follow, the
    /// records, and the end line.
    public static func data(of changes: BookChanges, now: Date = Date()) throws -> Data {
        var writer = LineWriter()
        try writer.append(
            Header(
                commissionArchive: version,
                createdAt: Int64(now.timeIntervalSince1970),
                changes: ChangesLine(
                    epoch: changes.epoch,
                    since: changes.since,
                    revision: changes.revision,
                    removed: changes.removed,
                    periodClinics: changes.periodClinics
                )
            )
        )
        var lines = 0, sales = 0
        for record in changes.records {
            for line in Line.lines(of: record) {
                try writer.append(line)
                lines += 1
            }
            if case .sales(let page) = record { sales += page.count }
        }
        try writer.append(Line(end: End(records: lines, sales: sales)))
        return writer.take(atLeast: 0) ?? Data()
    }

    /// The changes in `data`, as ``data(of:now:)`` wrote them; what is not whole or not changes is
    /// a ``StoreError/invalid(field:reason:)``.
    public static func changes(from data: Data) throws -> BookChanges {
        var reader = LineReader(data: data)
        let decoder = JSONDecoder()
        func refuse(_ line: Int, _ reason: String) -> StoreError {
            .invalid(field: "changes", reason: "line \(line): \(reason)")
        }
        // try?: a first line that is not a header is thrown just after, as not a book's changes
        guard let first = try reader.next(), let header = try? decoder.decode(Header.self, from: first),
            let format = header.commissionArchive,
            let head = header.changes
        else {
            throw refuse(
                1,
                "this is not a book's changes (it does not start with {\"changes\":…,\"commissionArchive\":…})."
            )
        }
        guard format <= version else {
            throw refuse(1, "the changes are of format \(format), newer than this Commission reads (\(version)).")
        }
        var records: [ArchiveRecord] = []
        // Sales and entries gathered into one page each, as a store reads them.
        var salePage: [ArchivedSale] = [], auditPage: [AuditEntry] = []
        func flush() {
            if !salePage.isEmpty { records.append(.sales(salePage)) }
            if !auditPage.isEmpty { records.append(.audit(auditPage)) }
            (salePage, auditPage) = ([], [])
        }
        var number = 1, lines = 0, sales = 0
        while let data = try reader.next() {
            number += 1
            // try?: a line it cannot decode is thrown just after, naming its number
            guard let line = try? decoder.decode(Line.self, from: data) else {
                throw refuse(number, "not a record this Commission reads.")
            }
            if let end = line.end {
                guard end.records == lines, end.sales == sales, try reader.next() == nil else {
                    throw refuse(number, "the end line does not match what came before it.")
                }
                flush()
                return BookChanges(
                    epoch: head.epoch,
                    since: head.since,
                    revision: head.revision,
                    records: records,
                    removed: head.removed,
                    periodClinics: head.periodClinics
                )
            }
            let record: ArchiveRecord
            do { record = try line.record() } catch let error as StoreError { throw refuse(number, error.description) }
            lines += 1
            switch record {
            case .sales(let page):
                if !auditPage.isEmpty { flush() }
                salePage += page
                sales += page.count
            case .audit(let page):
                if !salePage.isEmpty { flush() }
                auditPage += page
            default:
                flush()
                records.append(record)
            }
        }
        throw refuse(number, "the changes stop before their end line (cut off?).")
    }
}
