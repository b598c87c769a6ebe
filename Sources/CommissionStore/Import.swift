import CommissionCore
import Foundation

/// Terms as an import file names them: by clinic and product name rather than by id.
public struct NamedTermsDraft: Sendable, Hashable {
    public var clinic: String
    /// Nil or empty for clinic-wide terms.
    public var product: String?
    public var basis: CommissionBasis
    public var share: Share
    public var effectiveFrom: Day
    /// Accelerators (`Tier`), none by default.
    public var tiers: [Tier]

    public init(
        clinic: String,
        product: String?,
        basis: CommissionBasis,
        share: Share,
        effectiveFrom: Day,
        tiers: [Tier] = []
    ) {
        self.clinic = clinic
        self.product = product
        self.basis = basis
        self.share = share
        self.effectiveFrom = effectiveFrom
        self.tiers = tiers
    }
}

/// A clinic's price for a product from a day, as an import file names it (product by name or SKU).
public struct NamedPriceDraft: Sendable, Hashable {
    public var clinic: String
    public var product: String
    public var unitPrice: Money
    /// Nil: the product's own cost.
    public var unitCost: Money?
    public var effectiveFrom: Day

    public init(clinic: String, product: String, unitPrice: Money, unitCost: Money? = nil, effectiveFrom: Day) {
        self.clinic = clinic
        self.product = product
        self.unitPrice = unitPrice
        self.unitCost = unitCost
        self.effectiveFrom = effectiveFrom
    }
}

/// A clinic's change of pay schedule from a day, as an import file names it.
public struct NamedScheduleChange: Sendable, Hashable {
    public var clinic: String
    public var schedule: PaySchedule
    public var effectiveFrom: Day

    public init(clinic: String, schedule: PaySchedule, effectiveFrom: Day) {
        self.clinic = clinic
        self.schedule = schedule
        self.effectiveFrom = effectiveFrom
    }
}

/// A deduction, as an import file names its clinic.
public struct NamedDeductionDraft: Sendable, Hashable {
    public var clinic: String
    public var name: String
    public var amount: DeductionAmount
    public var effectiveFrom: Day
    public var lastDay: Day?

    public init(clinic: String, name: String, amount: DeductionAmount, effectiveFrom: Day, lastDay: Day? = nil) {
        self.clinic = clinic
        self.name = name
        self.amount = amount
        self.effectiveFrom = effectiveFrom
        self.lastDay = lastDay
    }
}

/// A sale as an import file names it: by clinic and product name (or product SKU).
public struct NamedSaleDraft: Sendable, Hashable {
    public var clinic: String
    public var product: String
    public var date: Day
    public var quantity: Int64
    public var unitPrice: Money?
    public var unitCost: Money?
    public var discount: Money
    public var noCommission: Bool
    public var note: String?

    public init(
        clinic: String,
        product: String,
        date: Day,
        quantity: Int64,
        unitPrice: Money? = nil,
        unitCost: Money? = nil,
        discount: Money = .zero,
        noCommission: Bool = false,
        note: String? = nil
    ) {
        self.clinic = clinic
        self.product = product
        self.date = date
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.unitCost = unitCost
        self.discount = discount
        self.noCommission = noCommission
        self.note = note
    }
}

/// One record of an import, already parsed.
public enum ImportRecord: Sendable, Hashable {
    case clinic(ClinicDraft)
    case product(ProductDraft)
    case terms(NamedTermsDraft)
    case sale(NamedSaleDraft)
    case price(NamedPriceDraft)
    case scheduleChange(NamedScheduleChange)
    case deduction(NamedDeductionDraft)
}

/// One of several files imported together (``ImportSources``): its place among them and its name.
public struct ImportFile: Sendable, Hashable {
    public var index: Int
    public var name: String

    public init(index: Int, name: String) {
        self.index = index
        self.name = name
    }
}

/// A parsed record and the line of the file it came from.
public struct ImportRow: Sendable, Hashable {
    public var line: Int
    public var record: ImportRecord
    /// The file, when several are imported together.
    public var file: ImportFile?

    public init(line: Int, record: ImportRecord, file: ImportFile? = nil) {
        self.line = line
        self.record = record
        self.file = file
    }
}

/// Something wrong with one row of an import: where, and why.
public struct ImportProblem: Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line of the file where the row starts (the header is line 1).
    public var line: Int
    /// The column's header as the file spells it, or nil when the whole row is at fault.
    public var column: String?
    /// Why, as the command line says it (``reason(on:)`` says it where she is).
    public var reason: String
    /// The file, when several are imported together.
    public var file: ImportFile?
    /// The store's refusal of the row, when it is one (an unknown clinic, no terms in force): each
    /// surface says what to do about it in its own words (``reason(on:)``).
    public var cause: StoreError?

    public init(line: Int, column: String?, reason: String, file: ImportFile? = nil, cause: StoreError? = nil) {
        self.line = line
        self.column = column
        self.reason = reason
        self.file = file
        self.cause = cause
    }

    /// The problem with a row, pointing at its file's column for the field the error is about.
    public init(_ row: ImportRow, _ error: any Error, source: any ImportSource) {
        let column = StoreInput.importField(for: error).flatMap { source.column(for: $0, file: row.file) ?? $0 }
        self.init(
            line: row.line,
            column: column,
            reason: String(describing: error),
            file: row.file,
            cause: error as? StoreError
        )
    }

    /// Why, as `surface` says it: a refusal of the store says what to do there (a page never
    /// names a command); any other reason (a malformed amount) is the same everywhere.
    public func reason(on surface: Surface) -> String {
        cause?.message(on: surface) ?? reason
    }

    public var description: String {
        let place = (file.map { "\($0.name), " } ?? "") + "line \(line)"
        if let column { return "\(place), column \"\(column)\": \(reason)" }
        return "\(place): \(reason)"
    }

    /// File by file in the order given, line by line within each: how problems are listed.
    public static func inFileOrder(_ a: ImportProblem, _ b: ImportProblem) -> Bool {
        (a.file?.index ?? 0, a.line) < (b.file?.index ?? 0, b.line)
    }

    /// The problems as `surface` says them, one problem repeated over many rows said once with
    /// its lines (a file that names an unknown clinic on 24 rows has one sentence for it, not 24),
    /// in the order of each problem's first line.
    public static func grouped(_ problems: [ImportProblem], on surface: Surface) -> [ImportProblemGroup] {
        var groups: [ImportProblemGroup] = []
        var index: [ImportProblemGroup.Key: Int] = [:]
        for problem in problems.sorted(by: inFileOrder) {
            let key = ImportProblemGroup.Key(
                file: problem.file,
                column: problem.column,
                reason: problem.reason(on: surface)
            )
            if let at = index[key] {
                groups[at].lines.append(problem.line)
            } else {
                index[key] = groups.count
                groups.append(
                    ImportProblemGroup(file: key.file, column: key.column, reason: key.reason, lines: [problem.line])
                )
            }
        }
        return groups
    }
}

/// One problem of an import and every line it is on (``ImportProblem/grouped(_:on:)``).
public struct ImportProblemGroup: Sendable, Hashable, CustomStringConvertible {
    struct Key: Hashable {
        var file: ImportFile?
        var column: String?
        var reason: String
    }

    public var file: ImportFile?
    public var column: String?
    public var reason: String
    /// The lines it is on, in order.
    public var lines: [Int]

    /// "line 7", "lines 3–14, 19": runs of consecutive lines as ranges.
    public var linesSaid: String {
        var runs: [String] = []
        var start = lines.first ?? 0
        var end = start
        func close() {
            runs.append(start == end ? "\(start)" : end == start + 1 ? "\(start), \(end)" : "\(start)–\(end)")
        }
        for line in lines.dropFirst() {
            if line == end + 1 || line == end {
                end = line
            } else {
                close()
                (start, end) = (line, line)
            }
        }
        close()
        return (lines.count == 1 ? "line " : "lines ") + runs.joined(separator: ", ")
    }

    /// Where: "Sales.csv, lines 3–14, 19, column \"Clinic\"".
    public var place: String {
        (file.map { "\($0.name), " } ?? "") + linesSaid + (column.map { ", column \"\($0)\"" } ?? "")
    }

    public var description: String { "\(place): \(reason)" }
}

/// Where the rows of an import come from: a streaming reader that hands over rows one by one, so
/// that a store can apply a file of any length inside one transaction without holding it whole.
public protocol ImportSource: Sendable {
    /// The name of the column holding a field (`"clinic"`, `"date"`…) as the file spells it, so that a
    /// store's problems (an unknown clinic) point at the right column.
    func column(for field: String) -> String?

    /// Reads every row, calling `body` for each good one. Returns the problems found while reading
    /// (malformed amounts, missing fields): rows with problems are not handed to `body`.
    func read(_ body: (ImportRow) throws -> Void) throws -> [ImportProblem]

    /// True when every row is a sale (a CSV file of sales): a store may then resolve names and compute
    /// the sales beside the writer, against the book as it was when the import began.
    var holdsOnlySales: Bool { get }

    /// The column holding a field in one of several files (``ImportSources``); a single source has one.
    func column(for field: String, file: ImportFile?) -> String?
}

extension ImportSource {
    public var holdsOnlySales: Bool { false }

    public func column(for field: String, file: ImportFile?) -> String? { column(for: field) }
}

/// Records given as they are rather than read from a file: what a surface makes before a file's
/// rows in the same import (the clinics and products a file of sales names, ``ImportSources``).
public struct ImportRecords: ImportSource {
    public var rows: [ImportRow]

    /// The records, numbered from 1 in the order given.
    public init(_ records: [ImportRecord]) {
        rows = records.enumerated().map { ImportRow(line: $0.offset + 1, record: $0.element) }
    }

    public var isEmpty: Bool { rows.isEmpty }

    public func column(for field: String) -> String? { nil }

    public func read(_ body: (ImportRow) throws -> Void) throws -> [ImportProblem] {
        for row in rows { try body(row) }
        return []
    }
}

/// Several sources imported together, in order, as one import: one transaction, so that they land
/// whole or not at all (clinics, products, terms and sales files given to one `commission import`).
/// Rows and problems say which file they come from — a source named "" leaves its rows as they
/// are (its own files, when it is several sheets, or none), and so does a source among sources.
public struct ImportSources: ImportSource {
    public let sources: [(file: ImportFile, source: any ImportSource)]

    public init(_ sources: [(name: String, source: any ImportSource)]) {
        self.sources = sources.enumerated().map {
            (ImportFile(index: $0.offset, name: $0.element.name), $0.element.source)
        }
    }

    /// One source as it is (a file of sales may then take a store's fast path), several as one import.
    public static func combining(_ sources: [(name: String, source: any ImportSource)]) -> any ImportSource {
        sources.count == 1 ? sources[0].source : ImportSources(sources)
    }

    public var holdsOnlySales: Bool { sources.allSatisfy(\.source.holdsOnlySales) }

    public func column(for field: String) -> String? {
        sources.lazy.compactMap { $0.source.column(for: field) }.first
    }

    public func column(for field: String, file: ImportFile?) -> String? {
        guard let file else { return column(for: field) }
        if let named = sources.first(where: { $0.file == file }) { return named.source.column(for: field) }
        // A file of a source among these (a workbook's sheet).
        return sources.lazy.compactMap { $0.source.column(for: field, file: file) }.first
    }

    public func read(_ body: (ImportRow) throws -> Void) throws -> [ImportProblem] {
        var problems: [ImportProblem] = []
        for (file, source) in sources {
            let named = file.name.isEmpty ? nil : file
            problems += try source.read { row in
                var row = row
                row.file = row.file ?? named
                try body(row)
            }.map { problem in
                var problem = problem
                problem.file = problem.file ?? named
                return problem
            }
        }
        return problems
    }
}

/// A file's SHA-256, by which an import that already landed is recognised.
public struct ImportDigest: Sendable, Hashable {
    /// The file as the user named it, for the sentence that refuses it.
    public var name: String
    /// The SHA-256 of its bytes, in lowercase hex.
    public var sha256: String

    public init(name: String, sha256: String) {
        self.name = name
        self.sha256 = sha256
    }
}

/// How to run an import.
public struct ImportOptions: Sendable {
    /// Check everything, then roll back: nothing is written.
    public var dryRun: Bool
    /// At most this many problems are reported in full (all are counted).
    public var problemLimit: Int
    /// Called now and then with the number of rows read so far.
    public var progress: (@Sendable (Int) -> Void)?
    /// The imported files' digests: recorded with the import, and an import of a file whose digest
    /// an earlier import recorded is refused (``StoreError/alreadyImported(file:on:)``) unless `again`.
    public var digests: [ImportDigest]
    public var again: Bool

    public init(
        dryRun: Bool = false,
        problemLimit: Int = 200,
        progress: (@Sendable (Int) -> Void)? = nil,
        digests: [ImportDigest] = [],
        again: Bool = false
    ) {
        self.dryRun = dryRun
        self.problemLimit = problemLimit
        self.progress = progress
        self.digests = digests
        self.again = again
    }

    /// Refuses the import when one of its files was imported before, from the earlier imports'
    /// audit entries (when, and what they recorded): the same bytes, a second time, would record
    /// every sale twice. Nothing to check with `again`, or without digests.
    public func checkNotImportedBefore(_ earlier: [(at: Int64, after: String?)]) throws {
        guard !again, !digests.isEmpty else { return }
        struct Recorded: Decodable { var digests: [String]? }
        for entry in earlier {
            guard let data = entry.after?.data(using: .utf8),
                // try?: an entry without readable digests (an import from before them) has nothing to match
                let recorded = try? JSONDecoder().decode(Recorded.self, from: data).digests, !recorded.isEmpty
            else { continue }
            if let file = digests.first(where: { recorded.contains($0.sha256) }) {
                throw StoreError.alreadyImported(
                    file: file.name,
                    on: Day(Date(timeIntervalSince1970: TimeInterval(entry.at)), in: TimeZone(identifier: "UTC")!)
                )
            }
        }
    }
}

/// What an import did (or, on a dry run, would do).
public struct ImportSummary: Sendable, Hashable {
    public var clinics = 0
    public var products = 0
    public var terms = 0
    public var sales = 0
    public var prices = 0
    public var scheduleChanges = 0
    public var deductions = 0
    public var dryRun = false
    /// The day of the latest sale it brought in (or, dry, would have); nil when none, and from a
    /// remote store (the API's answer does not say it: the server asks its own question).
    public var lastSaleDate: Day?

    public init(
        clinics: Int = 0,
        products: Int = 0,
        terms: Int = 0,
        sales: Int = 0,
        prices: Int = 0,
        scheduleChanges: Int = 0,
        deductions: Int = 0,
        dryRun: Bool = false
    ) {
        self.clinics = clinics
        self.products = products
        self.terms = terms
        self.sales = sales
        self.prices = prices
        self.scheduleChanges = scheduleChanges
        self.deductions = deductions
        self.dryRun = dryRun
    }

    public var rows: Int { clinics + products + terms + sales + prices + scheduleChanges + deductions }
}
