import CommissionCore
import CommissionStore
import Foundation
import GRDB
import GRDBSQLite

extension SQLiteStore {
    public func importRows(from source: any ImportSource, options: ImportOptions) async throws -> ImportSummary {
        let outcome: Result<ImportSummary, ImportStop>
        let actor = Audit.actor  // the load runs on the writer's thread: the caller's audit actor goes along
        do {
            // Outside the transaction, where SQLite takes them: foreign keys off (every id the import
            // writes comes from its own transaction) and a larger page cache, both for the load only.
            let summary = try await writer.writeWithoutTransaction { db -> ImportSummary in
                try db.execute(sql: "PRAGMA foreign_keys = OFF; PRAGMA cache_size = -65536")
                // Back on through SQLite's C API: GRDB refuses every statement of an access whose task
                // was cancelled, and the writer's connection must not stay without its foreign keys.
                // (-2000: SQLite's default cache. Two pragmas on an open connection fail only when
                // SQLite cannot allocate.)
                defer {
                    sqlite3_exec(
                        db.sqliteConnection,
                        "PRAGMA foreign_keys = ON; PRAGMA cache_size = -2000",
                        nil,
                        nil,
                        nil
                    )
                }
                var summary = ImportSummary()
                try Audit.$actor.withValue(actor) {
                    try db.inTransaction(.immediate) {
                        let firstSale = (try Int64.fetchOne(db, sql: "SELECT max(id) FROM sale") ?? 0) + 1
                        try options.checkNotImportedBefore(
                            try Row.fetchAll(
                                db,
                                sql: "SELECT at, after FROM auditEntry WHERE subject = 'sale' AND action = 'import'"
                            )
                            .map { (at: $0[0], after: $0[1]) }
                        )
                        var session = try ImportSession(
                            db: db,
                            pool: self.writer as? DatabasePool,
                            source: source,
                            options: options
                        )
                        try session.run()
                        if !session.problems.isEmpty {
                            throw ImportStop.rejected(
                                Array(
                                    session.problems.sorted(by: ImportProblem.inFileOrder).prefix(options.problemLimit)
                                ),
                                total: session.problems.count
                            )
                        }
                        if options.dryRun { throw ImportStop.dryRun(session.summary) }
                        // One entry for the whole import: who, when, how much, and the ids of the sales it made.
                        let lastSale =
                            session.summary.sales > 0 ? try Int64.fetchOne(db, sql: "SELECT max(id) FROM sale") : nil
                        try SQLiteStore.record(
                            db,
                            Audit.Change(
                                .sale,
                                lastSale == nil ? nil : firstSale,
                                lastSubjectID: lastSale,
                                "import",
                                before: nil,
                                after: Audit.json(session.summary, digests: options.digests)
                            )
                        )
                        try SQLiteStore.settlePeriodFigures(db)
                        try self.bumpRevision(db)
                        summary = session.summary
                        return .commit
                    }
                }
                return summary
            }
            outcome = .success(summary)
        } catch let stop as ImportStop {
            outcome = .failure(stop)
        } catch let error as DatabaseError {
            throw Self.storeError(error)
        }
        switch outcome {
        case .success(let summary):
            broadcaster.send([.clinics, .products, .terms, .sales, .prices, .deductions])
            return summary
        case .failure(.dryRun(var summary)):
            summary.dryRun = true
            return summary
        case .failure(.rejected(let problems, let total)):
            throw StoreError.importRejected(problems, total: total)
        }
    }
}

/// Ends an import's transaction with a rollback.
private enum ImportStop: Error {
    case rejected([ImportProblem], total: Int)
    case dryRun(ImportSummary)
}

/// One import inside its write transaction: resolves names, computes sales, collects problems.
///
/// The rows come from an ``ImportRowStream``, read on a thread of its own. When every row is a
/// sale and the book is a file (a pool of readers beside the writer), that thread also resolves the
/// names and computes the sales, through a reader that sees the book as the import found it: the
/// writer holds the book's write lock, so nothing else changes it meanwhile, and a file of sales
/// changes no clinic, product or terms. The writer is then left with SQLite's own work, which is
/// most of an import's.
private struct ImportSession {
    let db: Database
    let pool: DatabasePool?
    let source: any ImportSource
    let options: ImportOptions
    var problems: [ImportProblem] = []
    /// What the import has read of the book and done to it (``ImportState``), with the reads of this connection.
    var resolver: SaleResolver
    var summary: ImportSummary { resolver.state.summary }
    var rowsRead = 0
    /// From the first sale on, the summary triggers are off and the summaries are added up here.
    var triggersDropped = false
    var deltas = SummaryDeltas()

    init(db: Database, pool: DatabasePool?, source: any ImportSource, options: ImportOptions) throws {
        self.db = db
        self.pool = pool
        self.source = source
        self.options = options
        resolver = SaleResolver(db: db, rules: EntryRules(try SQLiteStore.settings(db)))
    }

    mutating func run() throws {
        let reading: ImportRowStream.Reading =
            if source.holdsOnlySales, let pool { .computingSales(pool, resolver.state.rules) } else { .parsing }
        let rows = ImportRowStream(source, reading)
        func pull() throws -> StagedRow? {
            guard let row = try rows.next() else { return nil }
            rowsRead += 1
            if rowsRead % 10_000 == 0 { options.progress?(rowsRead) }
            return row
        }
        var pending = try pull()
        while let staged = pending {
            pending = nil
            if case .row(let row) = staged, !row.isSale {
                do {
                    try apply(row)
                } catch let error as DatabaseError {
                    throw error
                } catch {
                    problems.append(problem(row, error))
                }
                pending = try pull()
                continue
            }
            // A run of sales, in one statement: the feed takes rows until one that is not a sale.
            if !triggersDropped {
                try Schema.dropSummaryTriggers(db)
                triggersDropped = true
            }
            var first: StagedRow? = staged
            _ = try SaleFeed.insert(db) { () throws -> Sale? in
                while var staged = try first.take() ?? pull() {
                    if case .row(let row) = staged {  // not computed by the reading thread: computed here
                        guard case .sale(let named) = row.record else {
                            pending = staged
                            return nil
                        }
                        staged = try resolver.stage(row, named, into: &deltas, source: source)
                    }
                    switch staged {
                    case .sale(let sale):
                        resolver.state.wrote(.sale(sale.date))
                        return sale
                    case .problem(let problem):
                        problems.append(problem)
                    case .row:
                        break  // staged above
                    }
                }
                return nil
            }
        }
        options.progress?(rowsRead)
        let read = rows.end
        problems += read.problems
        if let computed = read.deltas {
            if deltas.isEmpty {
                deltas = computed  // shared, not copied
            } else {
                do {
                    try deltas.merge(computed)
                } catch {
                    problems.append(ImportProblem(line: 0, column: nil, reason: String(describing: error)))
                }
            }
        }
        if problems.isEmpty, triggersDropped {
            try deltas.write(db)
            try Schema.restoreSummaryTriggers(db)
        }
        if problems.isEmpty {
            for (clinicID, from) in resolver.state.recomputeFrom {
                do {
                    _ = try SQLiteStore.recompute(db, clinic: try SQLiteStore.clinic(db, clinicID), from: from)
                } catch let error as StoreError {
                    problems.append(ImportProblem(line: 0, column: nil, reason: error.description))
                }
            }
        }
    }

    private func problem(_ row: ImportRow, _ error: any Error) -> ImportProblem {
        ImportProblem(row, error, source: source)
    }

    /// Applies a row that is not a sale: a clinic, a product or terms.
    mutating func apply(_ row: ImportRow) throws {
        try resolver.read(for: row.record)
        let written: ImportState.Written
        switch try resolver.state.write(for: row.record) {
        case .clinic(let draft):
            written = .clinic(try SQLiteStore.insertClinic(db, draft))
        case .product(let draft):
            written = .product(try SQLiteStore.insertProduct(db, draft))
        case .terms(let draft):
            try db.execute(
                sql:
                    "INSERT INTO terms (clinicId, productId, basis, shareBasisPoints, effectiveFrom, tiers) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [
                    draft.clinicID.rawValue, draft.productID?.rawValue, draft.basis.rawValue, draft.share.basisPoints,
                    draft.effectiveFrom.description, Tier.stored(draft.tiers),
                ]
            )
            written = .terms(
                Terms(
                    id: Terms.ID(db.lastInsertedRowID),
                    clinicID: draft.clinicID,
                    productID: draft.productID,
                    basis: draft.basis,
                    share: draft.share,
                    tiers: draft.tiers,
                    effectiveFrom: draft.effectiveFrom
                )
            )
        case .price(let draft):
            _ = try SQLiteStore.setPrice(db, draft)
            written = .price(draft.clinicID)
        case .scheduleChange(let clinic):
            written = .scheduleChange(try SQLiteStore.updateClinic(db, clinic))
        case .deduction(let deduction):
            _ = try SQLiteStore.createDeduction(db, deduction)
            written = .deduction
        case .sale:
            preconditionFailure("sales go through the sale feed")
        }
        resolver.state.wrote(written)
    }
}

extension String {
    /// The name as SQLite's NOCASE collation compares it, which the book's names use: ASCII letters
    /// folded to lower case, every other character as it is. Swift's `lowercased()` folds every
    /// script, so "Émile" and "émile", two clinics to the book, would be one to a cache keyed by it.
    var nocaseKey: String {
        guard utf8.contains(where: { (0x41...0x5A).contains($0) }) else { return self }
        return String(decoding: utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}

extension ImportRow {
    var isSale: Bool {
        if case .sale = record { return true }
        return false
    }
}

/// An import's ``ImportState`` with the reads of one connection: resolves clinic and product
/// names and reads each clinic's terms, closed periods and price list (each once), and leaves the
/// rest to the state and the ledger. It only reads the database.
struct SaleResolver {
    let db: Database
    var state: ImportState

    init(db: Database, rules: EntryRules) {
        self.db = db
        state = ImportState(rules: rules, fold: \.nocaseKey)
    }

    /// Reads what `record` needs that the import has not read yet.
    mutating func read(for record: ImportRecord) throws {
        while let lookup = state.missing(for: record) {
            switch lookup {
            case .clinic(let name):
                state.learn(.clinic(name: name, try StoreInput.lookUp(name) { try SQLiteStore.clinic(db, named: $0) }))
            case .product(let name):
                state.learn(
                    .product(name: name, try StoreInput.lookUp(name) { try SQLiteStore.product(db, named: $0) })
                )
            case .terms(let id): state.learn(.terms(id, try SQLiteStore.termsCandidates(db, clinic: id)))
            case .closedPeriods(let id): state.learn(.closedPeriods(id, try SQLiteStore.closedPeriods(db, clinic: id)))
            case .prices(let id):
                state.learn(
                    .prices(
                        id,
                        try Row.fetchAll(
                            db,
                            sql: "SELECT \(Rows.priceColumns) FROM priceListEntry WHERE clinicId = ?",
                            arguments: [id.rawValue]
                        ).map { try Rows.price($0) }
                    )
                )
            }
        }
    }

    /// A sale row as a sale (added to `deltas`), or as the problem with it. A database error is
    /// thrown: it ends the import.
    mutating func stage(
        _ row: ImportRow,
        _ named: NamedSaleDraft,
        into deltas: inout SummaryDeltas,
        source: any ImportSource
    ) throws -> StagedRow {
        do {
            var made = try state.sale(for: named)
            if made == nil {
                try read(for: row.record)
                made = try state.sale(for: named)
            }
            // read(for:) reads all a sale needs
            guard let sale = made else { throw StoreError.unknownClinic(named.clinic) }
            try deltas.add(sale)
            return .sale(sale)
        } catch let error as DatabaseError {
            throw error
        } catch {
            return .problem(ImportProblem(row, error, source: source))
        }
    }
}
