import CommissionCore
import CommissionStore
import Foundation
import PostgresNIO

extension PostgresStore {
    /// The import, in one transaction. The source is read on a thread of its own a few thousand rows
    /// ahead (a PostgreSQL statement is asynchronous, the source's reading is not), and its rows are
    /// applied in file order as they come: a file of any length takes the memory of a few chunks.
    public func importRows(from source: any ImportSource, options: ImportOptions) async throws -> ImportSummary {
        struct Rejected: Error { let problems: [ImportProblem] }
        struct DryRun: Error { let summary: ImportSummary }
        do {
            let summary = try await write([.clinics, .products, .terms, .sales, .prices, .deductions]) {
                connection -> ImportSummary in
                let before = try await int(connection, "SELECT coalesce(max(id), 0) FROM sale WHERE bookId = \(book)")
                try options.checkNotImportedBefore(
                    try await connection.query(
                        """
                        SELECT at, after FROM auditEntry WHERE bookId = \(book) AND subject = 'sale' AND action = 'import'
                        """,
                        logger: logger
                    ).decode((Int64, String?).self).all().map { (at: $0.0, after: $0.1) }
                )
                var session = ImportSession(
                    store: self,
                    source: source,
                    rules: EntryRules(try await settings(connection))
                )
                var readProblems: [ImportProblem] = []
                var rowsRead = 0
                for try await chunk in source.chunks() {
                    switch chunk {
                    case .rows(let rows):
                        for row in rows {
                            await session.apply(row, connection)
                            rowsRead += 1
                            if rowsRead % 10_000 == 0 { options.progress?(rowsRead) }
                        }
                    case .end(let problems):
                        readProblems = problems
                    }
                }
                options.progress?(rowsRead)
                var problems = readProblems + session.problems
                if problems.isEmpty {
                    for (clinicID, from) in session.state.recomputeFrom {
                        do {
                            _ = try await recompute(
                                connection,
                                clinic: try await clinic(connection, clinicID),
                                from: from
                            )
                        } catch let error as StoreError {
                            problems.append(ImportProblem(line: 0, column: nil, reason: error.description))
                        }
                    }
                }
                if !problems.isEmpty { throw Rejected(problems: problems) }
                if options.dryRun { throw DryRun(summary: session.state.summary) }
                // One entry for the whole import: who, when, how much, and the ids of the sales it made.
                let made = try await connection.query(
                    "SELECT min(id), max(id) FROM sale WHERE bookId = \(book) AND id > \(before)",
                    logger: logger
                )
                .decode((Int64?, Int64?).self).all().first
                try await record(
                    connection,
                    Audit.Change(
                        .sale,
                        made?.0,
                        lastSubjectID: made?.1,
                        "import",
                        before: nil,
                        after: Audit.json(session.state.summary, digests: options.digests)
                    )
                )
                return session.state.summary
            }
            return summary
        } catch let rejected as Rejected {
            let problems = rejected.problems.sorted(by: ImportProblem.inFileOrder)
            throw StoreError.importRejected(Array(problems.prefix(options.problemLimit)), total: problems.count)
        } catch let dryRun as DryRun {
            var summary = dryRun.summary
            summary.dryRun = true
            return summary
        }
    }
}

/// One import inside its transaction: the import's ``ImportState`` with this store's reads and
/// writes, and the problems of its rows.
private struct ImportSession {
    let store: PostgresStore
    let source: any ImportSource
    var problems: [ImportProblem] = []
    var state: ImportState

    init(store: PostgresStore, source: any ImportSource, rules: EntryRules) {
        self.store = store
        self.source = source
        state = ImportState(rules: rules, fold: { $0.lowercased() })
    }

    mutating func apply(_ row: ImportRow, _ connection: PostgresConnection) async {
        do {
            try await apply(row.record, connection)
        } catch {
            problems.append(ImportProblem(row, error, source: source))
        }
    }

    mutating func apply(_ record: ImportRecord, _ connection: PostgresConnection) async throws {
        while let lookup = state.missing(for: record) {
            switch lookup {
            case .clinic(let name):
                state.learn(
                    .clinic(
                        name: name,
                        try await StoreInput.lookUp(name) { try await store.clinic(connection, named: $0) }
                    )
                )
            case .product(let name):
                state.learn(
                    .product(
                        name: name,
                        try await StoreInput.lookUp(name) { try await store.product(connection, named: $0) }
                    )
                )
            case .terms(let id): state.learn(.terms(id, try await store.termsCandidates(connection, clinic: id)))
            case .closedPeriods(let id):
                state.learn(.closedPeriods(id, try await store.closedPeriods(connection, clinic: id)))
            case .prices(let id): state.learn(.prices(id, try await store.priceEntries(connection, clinic: id)))
            }
        }
        let written: ImportState.Written
        switch try state.write(for: record) {
        case .clinic(let draft):
            written = .clinic(try await store.insertClinic(connection, draft))
        case .product(let draft):
            written = .product(try await store.insertProduct(connection, draft))
        case .terms(let draft):
            let id = try await store.int(
                connection,
                """
                INSERT INTO terms (bookId, clinicId, productId, basis, shareBasisPoints, effectiveFrom, tiers)
                VALUES (\(store.book), \(draft.clinicID.rawValue), \(draft.productID?.rawValue), \(draft.basis.rawValue), \(draft.share.basisPoints),
                        \(draft.effectiveFrom.description)::date, \(Tier.stored(draft.tiers)))
                RETURNING id
                """
            )
            written = .terms(
                Terms(
                    id: Terms.ID(id),
                    clinicID: draft.clinicID,
                    productID: draft.productID,
                    basis: draft.basis,
                    share: draft.share,
                    tiers: draft.tiers,
                    effectiveFrom: draft.effectiveFrom
                )
            )
        case .sale(let sale):
            _ = try await store.insert(connection, sale, idempotencyKey: nil)
            written = .sale(sale.date)
        case .price(let draft):
            _ = try await store.setPrice(connection, draft)
            written = .price(draft.clinicID)
        case .scheduleChange(let clinic):
            written = .scheduleChange(try await store.updateClinic(connection, clinic))
        case .deduction(let deduction):
            _ = try await store.createDeduction(connection, deduction)
            written = .deduction
        }
        state.wrote(written)
    }
}
