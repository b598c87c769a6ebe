import CommissionCore
import CommissionStore
import Foundation
import GRDB

extension SQLiteStore: BookArchiving {
    /// The book's name in an archive: its file's, without the extension.
    var bookName: String {
        switch location {
        case .file(let path): URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        case .inMemory: "Commission"
        }
    }

    /// Streams the book from one snapshot of the file (SQLite's WAL lets writers go on meanwhile;
    /// they are not seen), a page of sales or audit entries at a time.
    public func archive(into sink: ArchiveSink) async throws -> ArchiveCounts {
        let reader: any DatabaseReader
        do {
            reader = try (writer as? DatabasePool)?.makeSnapshot() ?? writer
        } catch let error as DatabaseError {
            throw Self.storeError(error)
        }
        var counts = ArchiveCounts()
        func send(_ record: ArchiveRecord) async throws {
            counts.add(record)
            try await sink(record)
        }
        let name = bookName
        let small = try await mapErrors {
            try await reader.read { db in try Self.smallRecords(db, name: name, ChangesPlan.everything) }
        }
        for record in small { try await send(record) }

        var last = Int64.min
        while true {
            let after = last
            let page = try await mapErrors {
                try await reader.read { db in
                    try FastStatement.rows(
                        try db.cachedStatement(
                            sql:
                                "SELECT \(Rows.saleColumns), sale.idempotencyKey FROM sale WHERE id > ? ORDER BY id LIMIT ?"
                        )
                    ) {
                        $0.bind(after)
                        $0.bind(ArchiveFile.pageSize)
                    } read: {
                        ArchivedSale(sale: try Rows.sale($0), idempotencyKey: $0.optionalText(18))
                    }
                }
            }
            guard let end = page.last else { break }
            last = end.sale.id.rawValue
            try await send(.sales(page))
        }

        let rest = try await mapErrors {
            try await reader.read { db in
                (
                    payouts: try Row.fetchAll(db, sql: "SELECT \(Rows.payoutColumns) FROM payout ORDER BY id").map(
                        Rows.payout
                    ),
                    closed: try Row.fetchAll(
                        db,
                        sql: "SELECT clinicId, periodStart, periodEnd FROM closedPeriod ORDER BY clinicId, periodStart"
                    ).map {
                        (
                            Clinic.ID($0[0] as Int64),
                            PayPeriod(
                                start: try Day.stored($0[1], row: "A closed period"),
                                end: try Day.stored($0[2], row: "A closed period")
                            )
                        )
                    }
                )
            }
        }
        for payout in rest.payouts { try await send(.payout(payout)) }
        for (clinic, period) in rest.closed { try await send(.closedPeriod(clinic: clinic, period: period)) }

        last = Int64.min
        while true {
            let after = last
            let page = try await mapErrors {
                try await reader.read { db in
                    try Row.fetchAll(
                        db,
                        sql: "SELECT \(Rows.auditColumns) FROM auditEntry WHERE id > ? ORDER BY id LIMIT ?",
                        arguments: [after, ArchiveFile.pageSize]
                    ).map(Rows.audit)
                }
            }
            guard let end = page.last else { break }
            last = end.id.rawValue
            try await send(.audit(page))
        }

        let people = try await mapErrors {
            try await reader.read { db in
                (
                    accounts: try Row.fetchAll(
                        db,
                        sql: "SELECT id, username, passwordHash, createdAt, role FROM account ORDER BY id"
                    ).map {
                        ArchivedAccount(
                            id: Account.ID($0[0] as Int64),
                            username: $0[1],
                            passwordHash: $0[2],
                            createdAt: $0[3],
                            role: MemberRole(rawValue: $0[4]) ?? .member
                        )
                    },
                    tokens: try Row.fetchAll(
                        db,
                        sql:
                            "SELECT accountId, name, tokenDigest, createdAt, lastUsedAt, revokedAt FROM apiToken ORDER BY id"
                    ).map {
                        ArchivedToken(
                            accountID: Account.ID($0[0] as Int64),
                            name: $0[1],
                            tokenDigest: $0[2],
                            createdAt: $0[3],
                            lastUsedAt: $0[4],
                            revokedAt: $0[5]
                        )
                    }
                )
            }
        }
        for account in people.accounts { try await send(.account(account)) }
        for token in people.tokens { try await send(.token(token)) }
        return counts
    }

    /// The book's settings, and its clinics, products, terms, price-list entries and deductions
    /// that `plan` selects, in the archive's order.
    static func smallRecords(_ db: Database, name: String, _ plan: ChangesPlan) throws -> [ArchiveRecord] {
        var records: [ArchiveRecord] = [.book(ArchivedBook(name: name, settings: try Self.settings(db)))]
        records += try Row.fetchAll(
            db,
            sql: "SELECT \(Rows.clinicColumns) FROM clinic WHERE \(plan.clinics.condition("id")) ORDER BY id"
        )
        .map { .clinic(try Rows.clinic($0)) }
        records += try Row.fetchAll(
            db,
            sql: "SELECT \(Rows.productColumns) FROM product WHERE \(plan.products.condition("id")) ORDER BY id"
        )
        .map { .product(Rows.product($0)) }
        records += try Row.fetchAll(
            db,
            sql: "SELECT \(Rows.termsColumns) FROM terms WHERE \(plan.terms.condition("id")) ORDER BY id"
        )
        .map { .terms(try Rows.terms($0)) }
        records += try Row.fetchAll(
            db,
            sql: "SELECT \(Rows.priceColumns) FROM priceListEntry WHERE \(plan.prices.condition("id")) ORDER BY id"
        )
        .map { .price(try Rows.price($0)) }
        records += try Row.fetchAll(
            db,
            sql: "SELECT \(Rows.deductionColumns) FROM deduction WHERE \(plan.deductions.condition("id")) ORDER BY id"
        )
        .map { .deduction(try Rows.deduction($0)) }
        return records
    }

    /// Replaces the whole book (settings, records, audit log, accounts and tokens) with the archive
    /// `produce` streams; browsers sign in again.
    ///
    /// The archive is written into a scratch database beside the book, checked as it comes
    /// (`ArchiveChecker`) and by SQLite's constraints, its summaries built once at the end; only
    /// then does it replace the book, in one step (SQLite's online backup). An archive that stops
    /// short or breaks a rule throws, and the book is as it was. Records keep the archive's ids.
    public func restoreArchive(_ produce: (ArchiveSink) async throws -> Void) async throws -> ArchiveCounts {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            // A scratch file, thrown away on any failure: no journal, no waiting for the disk.
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY")
        }
        let scratchPath: String?
        let scratch: DatabaseQueue
        do {
            switch location {
            case .file(let path):
                let temporary = path + ".restoring-\(ProcessInfo.processInfo.processIdentifier)"
                // try?: a scratch an earlier process of this pid may have left; usually there is none
                try? FileManager.default.removeItem(atPath: temporary)
                scratchPath = temporary
                scratch = try DatabaseQueue(path: temporary, configuration: configuration)
            case .inMemory:
                scratchPath = nil
                scratch = try DatabaseQueue(configuration: configuration)
            }
        } catch let error as DatabaseError {
            throw Self.storeError(error)
        }
        defer {
            // try?: closing the scratch database, which is removed just below
            try? scratch.close()
            // try?: the scratch, swapped into the book (or failed) by now; a leftover is named .restoring-PID
            if let scratchPath { try? FileManager.default.removeItem(atPath: scratchPath) }
        }
        var checker = ArchiveChecker()
        do {
            try Schema.migrator.migrate(scratch)
            try await scratch.write { db in try Schema.dropSummaryTriggers(db) }
            try await produce { record in
                try checker.check(record)
                try Task.checkCancellation()
                try await scratch.write { db in try Self.insert(record, db) }
            }
            _ = try checker.finish()
            let liveRevision = try await writer.read { db in
                try Int64.fetchOne(db, sql: "SELECT revision FROM book") ?? 0
            }
            try await scratch.write { db in
                try Self.buildSummaries(db)
                try Schema.restoreSummaryTriggers(db)
                try Self.rebuildPeriodFigures(db)
                // Other processes on this file learn of the change by a revision above the one they know.
                // A new history: a device's sync takes the whole book rather than changes from the old one.
                try db.execute(
                    sql: "UPDATE book SET revision = ?, epoch = ?",
                    arguments: [liveRevision + 1, Self.newEpoch()]
                )
                if try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") != nil {
                    throw StoreError.invalid(
                        field: "archive",
                        reason: "some of its records name records it does not hold."
                    )
                }
            }
            try await saleContexts.replacing { try scratch.backup(to: writer) }
        } catch let error as DatabaseError {
            throw Self.archiveError(error)
        }
        caches.withLock { $0.clear() }
        broadcaster.send(Set(StoreTable.allCases))
        return checker.counts
    }

    /// A constraint an archive's record broke, said as what is wrong with the archive.
    static func archiveError(_ error: DatabaseError) -> StoreError {
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY:
            .invalid(
                field: "archive",
                reason: "it holds two records a book cannot hold together (\(error.message ?? "a duplicate"))."
            )
        case .SQLITE_CONSTRAINT_CHECK, .SQLITE_CONSTRAINT_NOTNULL, .SQLITE_CONSTRAINT_FOREIGNKEY,
            .SQLITE_CONSTRAINT_TRIGGER:
            .invalid(
                field: "archive",
                reason: "it holds a record a book cannot hold (\(error.message ?? "a broken rule"))."
            )
        default:
            storeError(error)
        }
    }

    /// Writes one record of an archive into a fresh book, with the archive's ids — or, `replacing`,
    /// into a book that may hold it already (a device's sync taking a server's changes): a record
    /// of the same id takes its values, and the summaries' triggers follow.
    static func insert(_ record: ArchiveRecord, _ db: Database, replacing: Bool = false) throws {
        /// `INSERT INTO table (columns) VALUES (?…)`, and when replacing, its `ON CONFLICT` update.
        func sql(_ table: String, _ columns: [String]) -> String {
            let insert =
                "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(repeatElement("?", count: columns.count).joined(separator: ", ")))"
            guard replacing else { return insert }
            return insert + " ON CONFLICT(id) DO UPDATE SET "
                + columns.filter { $0 != "id" }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        }
        switch record {
        case .book(let book):
            let s = book.settings
            guard !replacing else {
                // Only when they differ: a change of rounding marks every clinic's periods to be summed again.
                if try Self.settings(db) != s {
                    try db.execute(
                        sql: """
                            UPDATE book SET currencyCode = ?, currencyMinorDigits = ?, timeZone = ?, roundingRule = ?, roundingScope = ?, locale = ?
                            """,
                        arguments: [
                            s.currency.code, s.currency.minorDigits, s.timeZoneIdentifier, s.rounding.rule.rawValue,
                            s.rounding.scope.rawValue,
                            s.localeIdentifier,
                        ]
                    )
                }
                return
            }
            try db.execute(
                sql: """
                    INSERT INTO book (id, currencyCode, currencyMinorDigits, timeZone, roundingRule, roundingScope, locale) VALUES (1, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    s.currency.code, s.currency.minorDigits, s.timeZoneIdentifier, s.rounding.rule.rawValue,
                    s.rounding.scope.rawValue,
                    s.localeIdentifier,
                ]
            )
        case .clinic(let c):
            try db.execute(
                sql: sql("clinic", ["id", "name", "scheduleKind", "scheduleAnchor", "isArchived", "scheduleChanges"]),
                arguments: [
                    c.id.rawValue, c.name, c.schedule.kind, c.schedule.anchor, c.isArchived,
                    ScheduleChange.stored(c.scheduleChanges),
                ]
            )
        case .product(let p):
            try db.execute(
                sql: sql("product", ["id", "name", "sku", "unitPriceMinor", "unitCostMinor", "isArchived"]),
                arguments: [p.id.rawValue, p.name, p.sku, p.unitPrice.minorUnits, p.unitCost.minorUnits, p.isArchived]
            )
        case .terms(let t):
            try db.execute(
                sql: sql(
                    "terms",
                    [
                        "id", "clinicId", "productId", "basis", "shareBasisPoints", "effectiveFrom", "isArchived",
                        "tiers",
                    ]
                ),
                arguments: [
                    t.id.rawValue, t.clinicID.rawValue, t.productID?.rawValue, t.basis.rawValue, t.share.basisPoints,
                    t.effectiveFrom.description, t.isArchived, Tier.stored(t.tiers),
                ]
            )
        case .deduction(let d):
            let stored = d.amount.stored
            try db.execute(
                sql: sql(
                    "deduction",
                    ["id", "clinicId", "name", "kind", "amountMinor", "shareBasisPoints", "effectiveFrom", "lastDay"]
                ),
                arguments: [
                    d.id.rawValue, d.clinicID.rawValue, d.name, stored.kind, stored.amountMinor,
                    stored.shareBasisPoints,
                    d.effectiveFrom.description, d.lastDay?.description,
                ]
            )
        case .price(let e):
            try db.execute(
                sql: sql(
                    "priceListEntry",
                    ["id", "clinicId", "productId", "unitPriceMinor", "unitCostMinor", "effectiveFrom"]
                ),
                arguments: [
                    e.id.rawValue, e.clinicID.rawValue, e.productID.rawValue, e.unitPrice.minorUnits,
                    e.unitCost?.minorUnits,
                    e.effectiveFrom.description,
                ]
            )
        case .sales(let page):
            let statement = try db.cachedStatement(
                sql: sql("sale", SaleRow.columns + ["idempotencyKey", "isVoided", "id"])
            )
            for item in page {
                try FastStatement.execute(statement) { row in
                    bind(item.sale, idempotencyKey: item.idempotencyKey, to: &row)
                    row.bind(item.sale.isVoided ? 1 : 0)
                    row.bind(item.sale.id.rawValue)
                }
            }
        case .payout(let p):
            try db.execute(
                sql: sql(
                    "payout",
                    ["id", "clinicId", "periodStart", "periodEnd", "amountMinor", "receivedOn", "reference"]
                ),
                arguments: [
                    p.id.rawValue, p.clinicID.rawValue, p.period.start.description, p.period.end.description,
                    p.amount.minorUnits,
                    p.receivedOn.description, p.reference,
                ]
            )
        case .closedPeriod(let clinic, let period):
            try db.execute(
                sql: "INSERT INTO closedPeriod (clinicId, periodStart, periodEnd) VALUES (?, ?, ?)",
                arguments: [clinic.rawValue, period.start.description, period.end.description]
            )
        case .audit(let page):
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO auditEntry (id, at, actor, subject, subjectId, lastSubjectId, action, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            )
            for e in page {
                try statement.execute(arguments: [
                    e.id.rawValue, Int64(e.at.timeIntervalSince1970), e.actor, e.subject.rawValue, e.subjectID,
                    e.lastSubjectID, e.action, e.before, e.after,
                ])
            }
        case .account(let a):
            try db.execute(
                sql: "INSERT INTO account (id, username, passwordHash, createdAt, role) VALUES (?, ?, ?, ?, ?)",
                arguments: [a.id.rawValue, a.username, a.passwordHash, a.createdAt, a.role.rawValue]
            )
        case .token(let t):
            try db.execute(
                sql: """
                    INSERT INTO apiToken (accountId, name, tokenDigest, createdAt, lastUsedAt, revokedAt) VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [t.accountID.rawValue, t.name, t.tokenDigest, t.createdAt, t.lastUsedAt, t.revokedAt]
            )
        }
    }

    /// Fills every summary from the sales, once, after a load with the triggers off.
    static func buildSummaries(_ db: Database) throws {
        for summary in Schema.Summary.all {
            let keys = summary.keys.map(\.expression).joined(separator: ", ")
            try db.execute(sql: "DELETE FROM \(summary.table)")
            try db.execute(
                sql: """
                    INSERT INTO \(summary.table) (\(summary.keyColumns), saleCount, \(Schema.figureColumns.joined(separator: ", ")))
                    SELECT \(keys), count(*), \(Schema.figureColumns.map { "sum(\($0))" }.joined(separator: ", "))
                    FROM sale WHERE isVoided = 0 GROUP BY \(keys)
                    """
            )
        }
    }
}
