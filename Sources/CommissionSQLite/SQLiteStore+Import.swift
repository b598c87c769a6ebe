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
                    try options.checkNotImportedBefore(try Row.fetchAll(db, sql: "SELECT at, after FROM auditEntry WHERE subject = 'sale' AND action = 'import'")
                        .map { (at: $0[0], after: $0[1]) })
                    var session = try ImportSession(db: db, pool: self.writer as? DatabasePool, source: source, options: options)
                    try session.run()
                    if !session.problems.isEmpty {
                        throw ImportStop.rejected(Array(session.problems.sorted(by: ImportProblem.inFileOrder).prefix(options.problemLimit)),
                                                  total: session.problems.count)
                    }
                    if options.dryRun { throw ImportStop.dryRun(session.summary) }
                    // One entry for the whole import: who, when, how much, and the ids of the sales it made.
                    let lastSale = session.summary.sales > 0 ? try Int64.fetchOne(db, sql: "SELECT max(id) FROM sale") : nil
                    try SQLiteStore.record(db, Audit.Change(.sale, lastSale == nil ? nil : firstSale, lastSubjectID: lastSale, "import",
                                                                   before: nil, after: Audit.json(session.summary, digests: options.digests)))
                    try SQLiteStore.settlePeriodFigures(db)
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
    var summary = ImportSummary()
    /// Names, terms and closed periods as the writer sees them, for the sales it computes itself.
    var resolver: SaleResolver
    /// The earliest effective date of imported terms, per clinic: existing sales from then on are recomputed.
    var recomputeFrom: [Clinic.ID: Day] = [:]
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
        let reading: ImportRowStream.Reading = if source.holdsOnlySales, let pool { .computingSales(pool, resolver.rules) } else { .parsing }
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
                        summary.sales += 1
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
            for (clinicID, from) in recomputeFrom {
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
        switch row.record {
        case .clinic(let draft):
            let name = try StoreInput.name(draft.name, field: "name")
            let clinic = try SQLiteStore.insertClinic(db, ClinicDraft(name: name, schedule: try Ledger.schedule(draft.schedule, rules: resolver.rules)))
            resolver.clinics[name.nocaseKey] = clinic
            summary.clinics += 1
        case .product(let draft):
            let product = try SQLiteStore.insertProduct(db, try StoreInput.product(draft, currency: resolver.rules.currency))
            resolver.products[product.name.nocaseKey] = product
            summary.products += 1
        case .terms(let draft):
            let clinic = try resolver.clinic(named: draft.clinic)
            var productID: Product.ID?
            if let name = draft.product, !name.isEmpty { productID = try resolver.product(named: name).id }
            _ = try Ledger.terms(TermsDraft(clinicID: clinic.id, productID: productID, basis: draft.basis, share: draft.share, tiers: draft.tiers,
                                            effectiveFrom: draft.effectiveFrom), rules: resolver.rules)
            try db.execute(
                sql: "INSERT INTO terms (clinicId, productId, basis, shareBasisPoints, effectiveFrom, tiers) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [clinic.id.rawValue, productID?.rawValue, draft.basis.rawValue, draft.share.basisPoints, draft.effectiveFrom.description,
                            Tier.stored(draft.tiers)])
            let terms = Terms(id: Terms.ID(db.lastInsertedRowID), clinicID: clinic.id, productID: productID, basis: draft.basis,
                              share: draft.share, tiers: draft.tiers, effectiveFrom: draft.effectiveFrom)
            resolver.candidates[clinic.id] = try resolver.terms(of: clinic.id) + [terms]
            recomputeFrom[clinic.id] = min(recomputeFrom[clinic.id] ?? draft.effectiveFrom, draft.effectiveFrom)
            summary.terms += 1
        case .price(let draft):
            let clinic = try resolver.clinic(named: draft.clinic)
            _ = try SQLiteStore.setPrice(db, PriceDraft(clinicID: clinic.id, productID: try resolver.product(named: draft.product).id,
                                                        unitPrice: draft.unitPrice, unitCost: draft.unitCost, effectiveFrom: draft.effectiveFrom))
            resolver.prices[clinic.id] = nil  // the sales that follow take it
            summary.prices += 1
        case .scheduleChange(let change):
            var clinic = try resolver.clinic(named: change.clinic)
            clinic.scheduleChanges.append(ScheduleChange(effectiveFrom: change.effectiveFrom, schedule: change.schedule))
            resolver.replace(try SQLiteStore.updateClinic(db, clinic))
            summary.scheduleChanges += 1
        case .deduction(let draft):
            let clinic = try resolver.clinic(named: draft.clinic)
            _ = try SQLiteStore.createDeduction(db, Deduction(id: Deduction.ID(0), clinicID: clinic.id, name: draft.name, amount: draft.amount,
                                                              effectiveFrom: draft.effectiveFrom, lastDay: draft.lastDay))
            summary.deductions += 1
        case .sale:
            preconditionFailure("sales go through the sale feed")
        }
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


/// Turns an import's named sales into sales, against one connection: resolves clinic and product
/// names and reads each clinic's terms and closed periods (all cached), and leaves the rest to the
/// ledger. It only reads the database.
struct SaleResolver {
    let db: Database
    /// The book's rounding and the dates it takes, read once for the whole import.
    let rules: EntryRules
    /// Clinics and products by name folded as the book compares names (`nocaseKey`),
    /// and by name as the file spells it.
    var clinics: [String: Clinic] = [:]
    var products: [String: Product] = [:]
    var candidates: [Clinic.ID: [Terms]] = [:]
    var closed: [Clinic.ID: ClosedPeriods] = [:]
    /// Each clinic's price list, read once.
    var prices: [Clinic.ID: [PriceListEntry]] = [:]

    init(db: Database, rules: EntryRules) {
        self.db = db
        self.rules = rules
    }

    mutating func clinic(named name: String) throws -> Clinic {
        if let clinic = clinics[name] { return clinic }
        let key = name.nocaseKey
        let clinic = try clinics[key] ?? StoreInput.lookUp(name) { try SQLiteStore.clinic(db, named: $0) }
        clinics[key] = clinic
        clinics[name] = clinic  // as spelled, which the next rows most likely repeat
        return clinic
    }

    /// Takes a clinic changed by the import (its schedule) in place of the one it read.
    mutating func replace(_ clinic: Clinic) {
        for (key, cached) in clinics where cached.id == clinic.id { clinics[key] = clinic }
    }

    mutating func product(named name: String) throws -> Product {
        if let product = products[name] { return product }
        let key = name.nocaseKey
        let product = try products[key] ?? StoreInput.lookUp(name) { try SQLiteStore.product(db, named: $0) }
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

    /// A sale row as a sale (added to `deltas`), or as the problem with it. A database error is
    /// thrown: it ends the import.
    mutating func stage(_ row: ImportRow, _ named: NamedSaleDraft, into deltas: inout SummaryDeltas,
                        source: any ImportSource) throws -> StagedRow {
        do {
            let sale = try sale(named)
            try deltas.add(sale)
            return .sale(sale)
        } catch let error as DatabaseError {
            throw error
        } catch {
            return .problem(ImportProblem(row, error, source: source))
        }
    }

    mutating func prices(of clinic: Clinic.ID) throws -> [PriceListEntry] {
        if let entries = prices[clinic] { return entries }
        let entries = try Row.fetchAll(db, sql: "SELECT \(Rows.priceColumns) FROM priceListEntry WHERE clinicId = ?", arguments: [clinic.rawValue])
            .map { try Rows.price($0) }
        prices[clinic] = entries
        return entries
    }

    mutating func closedPeriods(of clinic: Clinic.ID) throws -> ClosedPeriods {
        if let periods = closed[clinic] { return periods }
        let periods = try SQLiteStore.closedPeriods(db, clinic: clinic)
        closed[clinic] = periods
        return periods
    }

    /// The sale a row of the file makes, not yet inserted.
    mutating func sale(_ named: NamedSaleDraft) throws -> Sale {
        let clinic = try clinic(named: named.clinic)
        let product = try product(named: named.product)
        let draft = SaleDraft(clinicID: clinic.id, productID: product.id, date: named.date, quantity: named.quantity, unitPrice: named.unitPrice,
                              unitCost: named.unitCost, discount: named.discount, noCommission: named.noCommission, note: named.note)
        return try Ledger.sale(draft, in: SaleContext(clinic: clinic, product: product, candidates: try terms(of: clinic.id), rules: rules,
                                                      closed: try closedPeriods(of: clinic.id), prices: try prices(of: clinic.id)))
    }
}
