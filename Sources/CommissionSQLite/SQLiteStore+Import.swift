import CommissionCore
import CommissionStore
import Foundation
import GRDB

extension SQLiteStore {
    public func importRows(from source: any ImportSource, options: ImportOptions) async throws -> ImportSummary {
        let outcome: Result<ImportSummary, ImportStop>
        let actor = Audit.actor  // the load runs on the writer's thread: the caller's audit actor goes along
        do {
            // Outside the transaction, where SQLite takes them: foreign keys off (every id the import
            // writes comes from its own transaction) and a larger page cache, both for the load only.
            let summary = try await writer.writeWithoutTransaction { db -> ImportSummary in
                try db.execute(sql: "PRAGMA foreign_keys = OFF; PRAGMA cache_size = -65536")
                defer { try? db.execute(sql: "PRAGMA foreign_keys = ON; PRAGMA cache_size = -2000") }  // -2000: SQLite's default
                var summary = ImportSummary()
                try Audit.$actor.withValue(actor) { try db.inTransaction(.immediate) {
                    let firstSale = (try Int64.fetchOne(db, sql: "SELECT max(id) FROM sale") ?? 0) + 1
                    var session = ImportSession(db: db, source: source, options: options)
                    try session.run()
                    if !session.problems.isEmpty {
                        throw ImportStop.rejected(Array(session.problems.sorted { $0.line < $1.line }.prefix(options.problemLimit)),
                                                  total: session.problems.count)
                    }
                    if options.dryRun { throw ImportStop.dryRun(session.summary) }
                    // One entry for the whole import: who, when, how much, and the ids of the sales it made.
                    let lastSale = session.summary.sales > 0 ? try Int64.fetchOne(db, sql: "SELECT max(id) FROM sale") : nil
                    try SQLiteStore.record(db, Audit.Change(.sale, lastSale == nil ? nil : firstSale, lastSubjectID: lastSale, "import",
                                                                   before: nil, after: Audit.json(session.summary)))
                    try self.bumpRevision(db)
                    summary = session.summary
                    return .commit
                } }
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
            broadcaster.send([.clinics, .products, .terms, .sales])
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
private struct ImportSession {
    let db: Database
    let source: any ImportSource
    let options: ImportOptions
    var problems: [ImportProblem] = []
    var summary = ImportSummary()
    var settings: BookSettings?
    /// Clinics and products by lowercased name, and by name as the file spells it.
    var clinics: [String: Clinic] = [:]
    var products: [String: Product] = [:]
    var candidates: [Clinic.ID: [Terms]] = [:]
    /// The earliest effective date of imported terms, per clinic: existing sales from then on are recomputed.
    var recomputeFrom: [Clinic.ID: Day] = [:]
    var closed = ClosedPeriods()
    var rowsRead = 0
    /// Set at the first sale: the summary triggers are off, and the summaries are added up here.
    var deltas: SummaryDeltas?
    var batch = SaleBatch()

    init(db: Database, source: any ImportSource, options: ImportOptions) {
        self.db = db
        self.source = source
        self.options = options
    }

    mutating func run() throws {
        let rounding = try SQLiteStore.settings(db).rounding.rule
        var session = self
        let readProblems = try source.read { row in
            session.rowsRead += 1
            if session.rowsRead % 10_000 == 0 { session.options.progress?(session.rowsRead) }
            do {
                try session.apply(row, rounding: rounding)
            } catch let error as DatabaseError {
                throw error
            } catch {
                session.problems.append(ImportProblem(line: row.line, column: session.column(for: error), reason: String(describing: error)))
            }
        }
        session.options.progress?(session.rowsRead)
        session.problems += readProblems
        if session.problems.isEmpty, let deltas = session.deltas {
            try session.batch.flush(db)
            try deltas.write(db)
            try Schema.restoreSummaryTriggers(db)
        }
        if session.problems.isEmpty {
            for (clinicID, from) in session.recomputeFrom {
                do {
                    _ = try SQLiteStore.recompute(db, clinic: try SQLiteStore.clinic(db, clinicID), from: from)
                } catch let error as StoreError {
                    session.problems.append(ImportProblem(line: 0, column: nil, reason: error.description))
                }
            }
        }
        self = session
    }

    /// The file's column for the field an error is about.
    func column(for error: any Error) -> String? {
        StoreInput.importField(for: error).flatMap { source.column(for: $0) ?? $0 }
    }

    mutating func clinic(named name: String) throws -> Clinic {
        if let clinic = clinics[name] { return clinic }
        let key = name.lowercased()
        let clinic = try clinics[key] ?? SQLiteStore.clinic(db, named: name)
        clinics[key] = clinic
        clinics[name] = clinic  // as spelled, which the next rows most likely repeat
        return clinic
    }

    mutating func product(named name: String) throws -> Product {
        if let product = products[name] { return product }
        let key = name.lowercased()
        let product = try products[key] ?? SQLiteStore.product(db, named: name)
        products[key] = product
        products[name] = product
        return product
    }

    mutating func terms(of clinic: Clinic.ID) throws -> [Terms] {
        if let terms = candidates[clinic] { return terms }
        let terms = try SQLiteStore.termsCandidates(db, clinic: clinic)
        candidates[clinic] = terms
        return terms
    }

    mutating func apply(_ row: ImportRow, rounding: RoundingRule) throws {
        switch row.record {
        case .clinic(let draft):
            let name = try StoreInput.name(draft.name, field: "name")
            let clinic = try SQLiteStore.insertClinic(db, ClinicDraft(name: name, schedule: draft.schedule))
            clinics[name.lowercased()] = clinic
            summary.clinics += 1
        case .product(let draft):
            let product = try SQLiteStore.insertProduct(db, try StoreInput.product(draft))
            products[product.name.lowercased()] = product
            summary.products += 1
        case .terms(let draft):
            let clinic = try clinic(named: draft.clinic)
            var productID: Product.ID?
            if let name = draft.product, !name.isEmpty { productID = try product(named: name).id }
            try db.execute(
                sql: "INSERT INTO terms (clinicId, productId, basis, shareBasisPoints, effectiveFrom) VALUES (?, ?, ?, ?, ?)",
                arguments: [clinic.id.rawValue, productID?.rawValue, draft.basis.rawValue, draft.share.basisPoints, draft.effectiveFrom.description])
            let terms = Terms(id: Terms.ID(db.lastInsertedRowID), clinicID: clinic.id, productID: productID, basis: draft.basis,
                              share: draft.share, effectiveFrom: draft.effectiveFrom)
            candidates[clinic.id] = try self.terms(of: clinic.id) + [terms]
            recomputeFrom[clinic.id] = min(recomputeFrom[clinic.id] ?? draft.effectiveFrom, draft.effectiveFrom)
            summary.terms += 1
        case .sale(let named):
            let clinic = try clinic(named: named.clinic)
            let product = try product(named: named.product)
            if clinic.isArchived { throw StoreError.archived(.clinics, clinic.name) }
            if product.isArchived { throw StoreError.archived(.products, product.name) }
            let draft = SaleDraft(clinicID: clinic.id, productID: product.id, date: named.date, quantity: named.quantity,
                                  discount: named.discount, noCommission: named.noCommission, note: try StoreInput.note(named.note))
            if deltas == nil {
                try Schema.dropSummaryTriggers(db)
                deltas = SummaryDeltas()
            }
            let sale = try SQLiteStore.prepareSale(db, draft, clinic: clinic, product: product,
                                           unitPrice: named.unitPrice ?? product.unitPrice, unitCost: named.unitCost ?? product.unitCost,
                                           candidates: try terms(of: clinic.id), rounding: rounding, closed: &closed)
            try batch.add(sale, db)
            try deltas?.add(sale)
            summary.sales += 1
        }
    }
}

/// Sales waiting to be inserted a hundred at a time: one multi-row `INSERT` costs SQLite far less
/// than a hundred single ones (statement start and end, cursors opened on the table and each index).
private struct SaleBatch {
    static let size = 100
    private static let fullSQL = SQLiteStore.insertSaleSQL(rows: size)
    private var pending: [Sale] = []

    mutating func add(_ sale: Sale, _ db: Database) throws {
        pending.append(sale)
        if pending.count == Self.size { try flush(db) }
    }

    mutating func flush(_ db: Database) throws {
        guard !pending.isEmpty else { return }
        let statement = pending.count == Self.size
            ? try db.cachedStatement(sql: Self.fullSQL)
            : try db.makeStatement(sql: SQLiteStore.insertSaleSQL(rows: pending.count))
        try FastStatement.execute(statement) { row in
            for sale in pending { SQLiteStore.bind(sale, idempotencyKey: nil, to: &row) }
        }
        pending.removeAll(keepingCapacity: true)
    }
}
