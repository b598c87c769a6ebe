import CommissionCore
import CommissionStore
import Foundation
import Logging
import NIOCore
import PostgresNIO

extension PostgresStore: BookArchiving {
    /// Streams the book from one REPEATABLE READ transaction (a snapshot: the team's writes go on
    /// meanwhile and are not seen), a page of sales or audit entries at a time. Its accounts are
    /// the book's members.
    public func archive(into sink: ArchiveSink) async throws -> ArchiveCounts {
        // In place: the sink is the caller's; each query is a step of its own
        // (``PostgresBookDatabase/transactionInPlace(readOnly:_:)``).
        try await readInPlace { step in
            var counts = ArchiveCounts()
            func send(_ record: ArchiveRecord) async throws {
                counts.add(record)
                try await sink(record)
            }
            let name: String? = try await step { connection in
                try await connection.query("SELECT name FROM book WHERE id = \(book)", logger: logger).decode(
                    String.self
                ).all().first
            }
            let small = try await step { connection in
                try await self.smallRecords(connection, name: name ?? "Commission", ChangesPlan.everything)
            }
            for record in small { try await send(record) }
            var last = Int64.min
            while true {
                let after = last
                let page: [ArchivedSale] = try await step { connection in
                    try await connection.query(
                        """
                        SELECT \(unescaped: Columns.sale), sale.idempotencyKey FROM sale WHERE bookId = \(book) AND id > \(after) ORDER BY id LIMIT \(ArchiveFile.pageSize)
                        """,
                        logger: logger
                    ).all().map { row in
                        let stored = try Self.saleRow(row, keyed: true)
                        return ArchivedSale(sale: try stored.sale(), idempotencyKey: stored.idempotencyKey)
                    }
                }
                guard let end = page.last else { break }
                last = end.sale.id.rawValue
                try await send(.sales(page))
            }
            let payouts: [Payout] = try await step { connection in
                try await self.payouts(
                    connection,
                    "SELECT \(unescaped: Columns.payout) FROM payout WHERE bookId = \(book) ORDER BY id"
                )
            }
            for payout in payouts { try await send(.payout(payout)) }
            let closed: [(Int64, String, String)] = try await step { connection in
                try await connection.query(
                    """
                    SELECT clinicId, periodStart::text, periodEnd::text FROM closedPeriod WHERE bookId = \(book) ORDER BY clinicId, periodStart
                    """,
                    logger: logger
                ).decode((Int64, String, String).self).all()
            }
            for (clinic, start, end) in closed {
                try await send(
                    .closedPeriod(
                        clinic: Clinic.ID(clinic),
                        period: PayPeriod(
                            start: try Day.stored(start, row: "A closed period"),
                            end: try Day.stored(end, row: "A closed period")
                        )
                    )
                )
            }
            last = Int64.min
            while true {
                let after = last
                let page: [AuditEntry] = try await step { connection in
                    try await auditEntries(
                        connection,
                        """
                        SELECT \(unescaped: Columns.audit) FROM auditEntry WHERE bookId = \(book) AND id > \(after) ORDER BY id LIMIT \(ArchiveFile.pageSize)
                        """
                    )
                }
                guard let end = page.last else { break }
                last = end.id.rawValue
                try await send(.audit(page))
            }
            // On a server whose books are on several databases, the accounts are the directory's.
            let accountsAside = accounts !== database
            let accounts: [(Int64, String, String, Int64, String)] =
                accountsAside
                ? try await readAccounts { try await self.accountList($0) }
                : try await step { try await self.accountList($0) }
            let tokens: [(Int64, String, String, Int64, Int64?, Int64?)] =
                accountsAside
                ? try await readAccounts { try await self.tokenList($0) }
                : try await step { try await self.tokenList($0) }
            for (id, username, hash, createdAt, role) in accounts {
                try await send(
                    .account(
                        ArchivedAccount(
                            id: Account.ID(id),
                            username: username,
                            passwordHash: hash,
                            createdAt: createdAt,
                            role: MemberRole(rawValue: role) ?? .member
                        )
                    )
                )
            }
            for (account, name, digest, createdAt, lastUsedAt, revokedAt) in tokens {
                try await send(
                    .token(
                        ArchivedToken(
                            accountID: Account.ID(account),
                            name: name,
                            tokenDigest: digest,
                            createdAt: createdAt,
                            lastUsedAt: lastUsedAt,
                            revokedAt: revokedAt
                        )
                    )
                )
            }
            return counts
        }
    }

    /// The book's members' accounts, for its archive.
    func accountList(_ connection: PostgresConnection) async throws -> [(Int64, String, String, Int64, String)] {
        try await connection.query(
            """
            SELECT account.id, account.username, account.passwordHash, account.createdAt, member.role
            FROM account JOIN member ON member.accountId = account.id WHERE member.bookId = \(book) ORDER BY account.id
            """,
            logger: logger
        ).decode((Int64, String, String, Int64, String).self).all()
    }

    /// Its members' API tokens, for its archive.
    func tokenList(_ connection: PostgresConnection) async throws -> [(Int64, String, String, Int64, Int64?, Int64?)] {
        try await connection.query(
            """
            SELECT apiToken.accountId, apiToken.name, apiToken.tokenDigest, apiToken.createdAt, apiToken.lastUsedAt, apiToken.revokedAt
            FROM apiToken JOIN member ON member.accountId = apiToken.accountId WHERE member.bookId = \(book) ORDER BY apiToken.id
            """,
            logger: logger
        ).decode((Int64, String, String, Int64, Int64?, Int64?).self).all()
    }

    /// The book's settings, and its clinics, products, terms, price-list entries and deductions
    /// that `plan` selects, in the archive's order.
    func smallRecords(
        _ connection: PostgresConnection,
        name: String,
        _ plan: ChangesPlan
    ) async throws -> [ArchiveRecord] {
        var records: [ArchiveRecord] = [.book(ArchivedBook(name: name, settings: try await settings(connection)))]
        records += try await clinics(
            connection,
            """
            SELECT \(unescaped: Columns.clinic) FROM clinic WHERE bookId = \(book) AND \(unescaped: plan.clinics.condition("id")) ORDER BY id
            """
        ).map { .clinic($0) }
        records += try await products(
            connection,
            """
            SELECT \(unescaped: Columns.product) FROM product WHERE bookId = \(book) AND \(unescaped: plan.products.condition("id")) ORDER BY id
            """
        ).map { .product($0) }
        records += try await termsList(
            connection,
            """
            SELECT \(unescaped: Columns.terms) FROM terms WHERE bookId = \(book) AND \(unescaped: plan.terms.condition("id")) ORDER BY id
            """
        ).map { .terms($0) }
        records += try await priceList(
            connection,
            """
            SELECT \(unescaped: Columns.price) FROM priceListEntry WHERE bookId = \(book) AND \(unescaped: plan.prices.condition("id")) ORDER BY id
            """
        ).map { .price($0) }
        records += try await deductions(connection, clinic: nil, condition: plan.deductions.condition("id")).sorted {
            $0.id < $1.id
        }.map { .deduction($0) }
        return records
    }

    /// Makes a new book of `database` from the archive `produce` streams, in one transaction: an
    /// archive that stops short or breaks a rule leaves nothing behind. Records are numbered
    /// afresh (the database's ids are shared by its books); the audit log keeps what it recorded,
    /// its entries pointing at the new ids.
    ///
    /// - Parameters:
    ///   - name: the new book's name; the archive's by default.
    ///   - ownersLink: when the archive brings no owner account, the one-time link with which the
    ///     owner claims the book (as `commission books add` makes), recorded in the same transaction.
    /// - Throws: ``StoreError/invalid(field:reason:)`` for an archive this database cannot take (an
    ///   account whose name is taken on this server, a broken archive).
    public static func restoreBook(
        into database: PostgresBookDatabase,
        name: String? = nil,
        ownersLink: (tokenDigest: String, expiresAt: Date)? = nil,
        from produce: @escaping @Sendable (ArchiveSink) async throws -> Void
    ) async throws -> RestoredBook {
        let logger = database.logger
        let restored: (book: Int64, counts: ArchiveCounts, owners: Int)
        do {
            restored = try await database.transaction { connection in
                var restore = Restore(logger: logger)
                try await restore.take(produce, name: name, connection)
                if let ownersLink, restore.owners == 0 {
                    try await connection.query(
                        """
                        INSERT INTO invitation (tokenDigest, bookId, invitedBy, role, expiresAt)
                        VALUES (\(ownersLink.tokenDigest), \(restore.book), NULL, 'owner', \(Int64(ownersLink.expiresAt.timeIntervalSince1970)))
                        """,
                        logger: logger
                    )
                }
                return (restore.book, restore.checker.counts, restore.owners)
            }
        } catch {
            throw PostgresBookDatabase.storeError(error, doing: "restore the archive (nothing was written)")
        }
        return RestoredBook(
            store: try await PostgresStore(database: database, book: restored.book),
            counts: restored.counts,
            awaitsOwner: ownersLink != nil && restored.owners == 0
        )
    }

    /// Replaces the whole of this book with the archive `produce` streams, in one write
    /// transaction: its clinics, products, terms, price lists, deductions, sales, payouts and
    /// closed periods are deleted and the archive's written in their place (numbered afresh), and
    /// its settings become the archive's. An archive that stops short or breaks a rule changes
    /// nothing.
    ///
    /// What stays: the book's name and id, its members, their sessions, tokens and invitations
    /// (accounts belong to the server; the archive's are passed over), and its audit log, which is
    /// append-only: the archive's entries are appended to it (pointing at the new ids), then one
    /// `restore` entry that says what the archive held.
    public func replaceBook(
        from produce: @escaping @Sendable (ArchiveSink) async throws -> Void
    ) async throws -> ArchiveCounts {
        try await write(Set(StoreTable.allCases)) { connection in
            var restore = Restore(logger: logger, replacing: book)
            // Children before parents; the summaries' triggers see one statement of deleted sales.
            for table in ["sale", "payout", "closedPeriod", "priceListEntry", "deduction", "terms", "idempotencyKey"]
                + PostgresSchema.summaries.map(\.table) + [
                    "clinicPeriodTotal", "clinicPeriodKept", "clinic", "product",
                ]
            {
                try await connection.query("DELETE FROM \(unescaped: table) WHERE bookId = \(book)", logger: logger)
            }
            try await restore.take(produce, name: nil, connection)
            try await self.record(
                connection,
                Audit.Change(
                    .settings,
                    nil,
                    "restore",
                    before: nil,
                    after: Audit.json(restored: restore.checker.counts)
                )
            )
            // A new history: a device's sync takes the whole book rather than changes from the old one.
            try await connection.query(
                "UPDATE book SET epoch = md5(random()::text || clock_timestamp()::text) WHERE id = \(book)",
                logger: logger
            )
            return restore.checker.counts
        }
    }

    /// Copies a book into `database` under its own id `book` (a move between a server's
    /// databases), in one transaction: its row (unless `rowExists`: the directory's, whose
    /// accounts stay), the records the archive `produce` streams under their own ids (a phone's
    /// outbox, a bookmarked page still name them; its accounts and tokens passed over: they are
    /// the directory's), its import mappings and product aliases, and the answers kept for its
    /// requests' idempotency keys. Its audit
    /// entries are numbered by `database`, so the copy has a new epoch: a device's next sync
    /// takes the whole book once.
    static func copyBook(
        _ book: Int64,
        named name: String,
        into database: PostgresBookDatabase,
        rowExists: Bool,
        keptAnswers: [KeptAnswer],
        importAids: ImportAids,
        from produce: @escaping @Sendable (ArchiveSink) async throws -> Void
    ) async throws -> ArchiveCounts {
        let logger = database.logger
        return try await database.run("copy the book (nothing was written)") { connection in
            if rowExists {
                try await connection.query(
                    """
                    UPDATE book SET leaving = NULL, epoch = md5(random()::text || clock_timestamp()::text) WHERE id = \(book)
                    """,
                    logger: logger
                )
            } else {
                // Settings for now: the archive's first record sets the book's own.
                try await insertBookRow(
                    connection,
                    id: book,
                    name: name,
                    settings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"),
                    logger: logger
                )
            }
            var restore = Restore(logger: logger, replacing: book, keepingIDs: true)
            try await restore.take(produce, name: nil, connection)
            try await insert(keptAnswers, book: book, connection, logger: logger)
            try await insert(importAids, book: book, connection, logger: logger)
            try await markEveryClinic(of: book, connection, logger: logger)
            return restore.checker.counts
        }
    }

    /// A book made from an archive.
    public struct RestoredBook: Sendable {
        public var store: PostgresStore
        public var counts: ArchiveCounts
        /// True when the archive brought no owner and the owner's link was recorded.
        public var awaitsOwner: Bool
    }

    /// A restore under way: the new book's id, and the archive's ids mapped to the new ones.
    private struct Restore {
        let logger: Logger
        var checker = ArchiveChecker()
        var book: Int64 = 0
        var clinics: [Int64: Int64] = [:], products: [Int64: Int64] = [:], terms: [Int64: Int64] = [:],
            payouts: [Int64: Int64] = [:]
        var prices: [Int64: Int64] = [:], deductions: [Int64: Int64] = [:]
        var accounts: [Int64: Int64] = [:]
        var sales = IDMap()
        var lastSale: Int64 = 0
        var owners = 0
        /// True when the archive replaces the records of the existing book `book` (its settings
        /// too, not its name): the book's members stay, and the archive's accounts and tokens are
        /// passed over.
        let replacing: Bool

        init(logger: Logger) {
            self.logger = logger
            replacing = false
        }

        init(logger: Logger, replacing book: Int64, keepingIDs: Bool = false) {
            self.logger = logger
            self.book = book
            replacing = true
            self.keepingIDs = keepingIDs
        }

        /// True when records keep the archive's ids (a move between a server's databases, whose
        /// ids never meet: ``PostgresBooks``' numbering blocks), rather than being numbered afresh.
        var keepingIDs = false

        /// Gives the record just written as `new` the archive's id `old` back; returns its id.
        func keep(_ new: Int64?, _ table: String, _ old: Int64, _ connection: PostgresConnection) async throws -> Int64?
        {
            guard keepingIDs, let new, new != old else { return new }
            try await connection.query("UPDATE \(unescaped: table) SET id = \(old) WHERE id = \(new)", logger: logger)
            return old
        }

        /// Writes what `produce` streams, checked record by record, the sales copied in bulk
        /// (``PostgresSchema/startBulkCopy(_:logger:)``); a COPY under way when the archive fails is abandoned.
        mutating func take(
            _ produce: (ArchiveSink) async throws -> Void,
            name: String?,
            _ connection: PostgresConnection
        ) async throws {
            let setAside = try await PostgresSchema.startBulkCopy(connection, logger: logger)
            do {
                try await produce { record in
                    try checker.check(record)
                    try await insert(record, name: name, connection)
                }
                try await finishSales(connection)
            } catch {
                await abandonSales()
                throw error
            }
            _ = try checker.finish()
            try await PostgresSchema.endBulkCopy(
                connection,
                book: book,
                totals: totals,
                setAside: setAside,
                logger: logger
            )
        }

        /// The new id of a record the checker has seen (so the lookup cannot fail).
        func mapped(_ map: [Int64: Int64], _ id: Int64) -> Int64 { map[id] ?? 0 }

        func insert(_ query: PostgresQuery, _ connection: PostgresConnection) async throws -> Int64 {
            guard let id = try await connection.query(query, logger: logger).decode(Int64.self).all().first else {
                throw StoreError.storage("an insert returned no id")
            }
            return id
        }

        mutating func insert(_ record: ArchiveRecord, name: String?, _ connection: PostgresConnection) async throws {
            if case .sales = record {} else { try await finishSales(connection) }
            switch record {
            case .book(let archived) where replacing:
                let s = archived.settings
                try await connection.query(
                    """
                    UPDATE book SET currencyCode = \(s.currency.code), currencyMinorDigits = \(s.currency.minorDigits), timeZone = \(s.timeZoneIdentifier),
                                    roundingRule = \(s.rounding.rule.rawValue), roundingScope = \(s.rounding.scope.rawValue), locale = \(s.localeIdentifier)
                    WHERE id = \(book)
                    """,
                    logger: logger
                )
            case .book(let archived):
                let s = archived.settings
                book = try await insert(
                    """
                    INSERT INTO book (name, currencyCode, currencyMinorDigits, timeZone, roundingRule, roundingScope, locale)
                    VALUES (\(name ?? archived.name), \(s.currency.code), \(s.currency.minorDigits), \(s.timeZoneIdentifier),
                            \(s.rounding.rule.rawValue), \(s.rounding.scope.rawValue), \(s.localeIdentifier))
                    RETURNING id
                    """,
                    connection
                )
            case .clinic(let c):
                clinics[c.id.rawValue] = try await insert(
                    """
                    INSERT INTO clinic (bookId, name, scheduleKind, scheduleAnchor, isArchived, scheduleChanges)
                    VALUES (\(book), \(c.name), \(c.schedule.kind), \(c.schedule.anchor), \(c.isArchived), \(ScheduleChange.stored(c.scheduleChanges)))
                    RETURNING id
                    """,
                    connection
                )
            case .product(let p):
                products[p.id.rawValue] = try await insert(
                    """
                    INSERT INTO product (bookId, name, sku, unitPriceMinor, unitCostMinor, isArchived)
                    VALUES (\(book), \(p.name), \(p.sku), \(p.unitPrice.minorUnits), \(p.unitCost.minorUnits), \(p.isArchived)) RETURNING id
                    """,
                    connection
                )
            case .terms(let t):
                terms[t.id.rawValue] = try await insert(
                    """
                    INSERT INTO terms (bookId, clinicId, productId, basis, shareBasisPoints, effectiveFrom, isArchived, tiers)
                    VALUES (\(book), \(mapped(clinics, t.clinicID.rawValue)), \(t.productID.map { mapped(products, $0.rawValue) }), \(t.basis.rawValue),
                            \(t.share.basisPoints), \(t.effectiveFrom.description)::date, \(t.isArchived), \(Tier.stored(t.tiers)))
                    RETURNING id
                    """,
                    connection
                )
            case .price(let e):
                prices[e.id.rawValue] = try await insert(
                    """
                    INSERT INTO priceListEntry (bookId, clinicId, productId, unitPriceMinor, unitCostMinor, effectiveFrom)
                    VALUES (\(book), \(mapped(clinics, e.clinicID.rawValue)), \(mapped(products, e.productID.rawValue)), \(e.unitPrice.minorUnits),
                            \(e.unitCost?.minorUnits), \(e.effectiveFrom.description)::date)
                    RETURNING id
                    """,
                    connection
                )
            case .deduction(let d):
                let stored = d.amount.stored
                deductions[d.id.rawValue] = try await insert(
                    """
                    INSERT INTO deduction (bookId, clinicId, name, kind, amountMinor, shareBasisPoints, effectiveFrom, lastDay)
                    VALUES (\(book), \(mapped(clinics, d.clinicID.rawValue)), \(d.name), \(stored.kind), \(stored.amountMinor), \(stored.shareBasisPoints),
                            \(d.effectiveFrom.description)::date, \(d.lastDay?.description)::date)
                    RETURNING id
                    """,
                    connection
                )
            case .sales(let page):
                try await copySales(page, connection)
            case .payout(let p):
                payouts[p.id.rawValue] = try await insert(
                    """
                    INSERT INTO payout (bookId, clinicId, periodStart, periodEnd, amountMinor, receivedOn, reference)
                    VALUES (\(book), \(mapped(clinics, p.clinicID.rawValue)), \(p.period.start.description)::date, \(p.period.end.description)::date,
                            \(p.amount.minorUnits), \(p.receivedOn.description)::date, \(p.reference))
                    RETURNING id
                    """,
                    connection
                )
            case .closedPeriod(let clinic, let period):
                try await connection.query(
                    """
                    INSERT INTO closedPeriod (bookId, clinicId, periodStart, periodEnd)
                    VALUES (\(book), \(mapped(clinics, clinic.rawValue)), \(period.start.description)::date, \(period.end.description)::date)
                    """,
                    logger: logger
                )
            case .audit(let page):
                try await copyAudit(page, connection)
            case .account where replacing, .token where replacing:
                break
            case .account(let a):
                if try await connection.query(
                    "SELECT id FROM account WHERE lower(username) = lower(\(a.username))",
                    logger: logger
                )
                .decode(Int64.self).all().first != nil {
                    throw StoreError.invalid(
                        field: "archive",
                        reason: """
                            its account "\(a.username)" has a namesake on this server already: rename one of them first (account names are shared by all the server's books).
                            """
                    )
                }
                let id = try await insert(
                    """
                    INSERT INTO account (username, passwordHash, createdAt) VALUES (\(a.username), \(a.passwordHash), \(a.createdAt)) RETURNING id
                    """,
                    connection
                )
                accounts[a.id.rawValue] = id
                if a.role == .owner { owners += 1 }
                try await connection.query(
                    "INSERT INTO member (bookId, accountId, role) VALUES (\(book), \(id), \(a.role.rawValue))",
                    logger: logger
                )
            case .token(let t):
                try await connection.query(
                    """
                    INSERT INTO apiToken (accountId, name, tokenDigest, createdAt, lastUsedAt, revokedAt)
                    VALUES (\(mapped(accounts, t.accountID.rawValue)), \(t.name), \(t.tokenDigest), \(t.createdAt), \(t.lastUsedAt), \(t.revokedAt))
                    """,
                    logger: logger
                )
            }
            switch record {
            case .clinic(let c):
                clinics[c.id.rawValue] = try await keep(clinics[c.id.rawValue], "clinic", c.id.rawValue, connection)
            case .product(let p):
                products[p.id.rawValue] = try await keep(products[p.id.rawValue], "product", p.id.rawValue, connection)
            case .terms(let t):
                terms[t.id.rawValue] = try await keep(terms[t.id.rawValue], "terms", t.id.rawValue, connection)
            case .price(let e):
                prices[e.id.rawValue] = try await keep(
                    prices[e.id.rawValue],
                    "priceListEntry",
                    e.id.rawValue,
                    connection
                )
            case .deduction(let d):
                deductions[d.id.rawValue] = try await keep(
                    deductions[d.id.rawValue],
                    "deduction",
                    d.id.rawValue,
                    connection
                )
            case .payout(let p):
                payouts[p.id.rawValue] = try await keep(payouts[p.id.rawValue], "payout", p.id.rawValue, connection)
            default: break
            }
        }

        /// The sales under way: one COPY for all of them, fed page by page while the archive is
        /// read (so that reading the archive and the database's writing overlap), a page ahead at
        /// most.
        var salesCopy: SalesCopy?
        /// The archive's ids of the sales the COPY under way was given, in order: mapped to the new
        /// ones once it ends.
        var copiedIDs: [Int64] = []
        /// The summaries of the sales copied, added up as they pass (``PostgresSchema/endBulkCopy(_:book:totals:setAside:logger:)``).
        var totals = SummaryTotals()

        final class SalesCopy: Sendable {
            enum Item { case page(ByteBuffer), abandon }
            struct Abandoned: Error {}
            let pages: AsyncStream<Item>.Continuation
            let taken: AsyncStream<Void>
            let task: Task<Void, any Error>

            init(_ connection: PostgresConnection, keepingIDs: Bool, logger: Logger) {
                let (pageStream, pages) = AsyncStream.makeStream(of: Item.self)
                let (taken, tookOne) = AsyncStream.makeStream(of: Void.self)
                tookOne.yield()  // the first page goes at once
                self.pages = pages
                self.taken = taken
                let columns =
                    (keepingIDs ? ["id"] : []) + ["bookId"] + SaleRow.columns + ["isVoided", "idempotencyKey"]
                task = Task {
                    defer { tookOne.finish() }
                    try await connection.copy(into: "sale", columns: columns, logger: logger) { writer in
                        for await item in pageStream {
                            guard case .page(let buffer) = item else { throw Abandoned() }
                            try await writer.write(buffer)
                            tookOne.yield()
                        }
                    }
                }
            }

            /// Hands a page over, once the page before it was taken.
            func send(_ buffer: ByteBuffer) async throws {
                var iterator = taken.makeAsyncIterator()
                if await iterator.next() == nil { try await task.value }
                pages.yield(.page(buffer))
            }

            /// Ends the COPY; with `abandon`, so that it writes nothing.
            func finish(abandon: Bool = false) async throws {
                if abandon { pages.yield(.abandon) }
                pages.finish()
                try await task.value
            }
        }

        /// A page of sales, into the COPY under way (started by the first page).
        mutating func copySales(_ page: [ArchivedSale], _ connection: PostgresConnection) async throws {
            // Field by field into the buffer: a line joined as a string first was a tenth of a
            // million-sale migration's time in the client.
            var buffer = ByteBuffer()
            buffer.reserveCapacity(page.count * 128)
            func field(_ text: String) {
                buffer.writeString(text)
                buffer.writeInteger(UInt8(ascii: "\t"))
            }
            func field(_ number: Int64?) { field(number.map { String($0) } ?? "\\N") }
            for item in page {
                let row = SaleRow(item.sale)
                if keepingIDs { field(item.sale.id.rawValue) }
                field(book)
                field(mapped(clinics, row.clinicID))
                field(mapped(products, row.productID))
                field(row.date)
                field(row.quantity)
                field(row.unitPriceMinor)
                field(row.unitCostMinor)
                field(row.discountMinor)
                field(row.termsID.map { mapped(terms, $0) })
                field(row.shareBasisPoints.map(Int64.init))
                field(row.basis ?? "\\N")
                field(row.revenueMinor)
                field(row.costMinor)
                field(row.profitMinor)
                field(row.commissionExact)
                field(row.commissionMinor)
                field(row.note.map(Self.copyText) ?? "\\N")
                field(row.isVoided ? "t" : "f")
                buffer.writeString(item.idempotencyKey.map(Self.copyText) ?? "\\N")
                buffer.writeInteger(UInt8(ascii: "\n"))
                if !row.isVoided {
                    var sale = item.sale
                    sale.clinicID = Clinic.ID(mapped(clinics, row.clinicID))
                    sale.productID = Product.ID(mapped(products, row.productID))
                    try totals.add(sale)
                }
            }
            let copy = salesCopy ?? SalesCopy(connection, keepingIDs: keepingIDs, logger: logger)
            salesCopy = copy
            copiedIDs += page.map(\.sale.id.rawValue)
            try await copy.send(buffer)
        }

        /// Ends the sales' COPY, if one is under way, and maps the archive's ids to the new ones
        /// (COPY numbers rows in the order it reads them, and no other transaction can add to this
        /// uncommitted book).
        mutating func finishSales(_ connection: PostgresConnection) async throws {
            guard let copy = salesCopy else { return }
            salesCopy = nil
            try await copy.finish()
            let archived = copiedIDs
            copiedIDs = []
            sales.reserve(sales.count + archived.count)
            if keepingIDs {
                for old in archived { sales.add(old, old) }
                return
            }
            // Numbered without a gap (no other session drew sale ids meanwhile), the n-th sale
            // copied is the first id plus n: three figures instead of a million ids read back.
            var count: Int64 = 0, first: Int64?, last: Int64?
            for try await row in try await connection.query(
                """
                SELECT count(*), min(id), max(id) FROM sale WHERE bookId = \(book) AND id > \(lastSale)
                """,
                logger: logger
            ).decode((Int64, Int64?, Int64?).self) {
                (count, first, last) = row
            }
            guard count == archived.count else {
                throw StoreError.storage("\(archived.count) sales came back as \(count)")
            }
            if let first, let last, last - first + 1 == count {
                for (offset, old) in archived.enumerated() { sales.add(old, first + Int64(offset)) }
                lastSale = last
                return
            }
            let ids = try await connection.query(
                """
                SELECT id FROM sale WHERE bookId = \(book) AND id > \(lastSale) ORDER BY id
                """,
                logger: logger
            ).decode(Int64.self).all()
            for (old, id) in zip(archived, ids) { sales.add(old, id) }
            lastSale = ids.last ?? lastSale
        }

        /// Ends a COPY under way without writing it, when the archive failed.
        mutating func abandonSales() async {
            guard let copy = salesCopy else { return }
            salesCopy = nil
            // try?: abandoning the COPY on the way out with the archive's error, which is thrown
            try? await copy.finish(abandon: true)
        }

        /// A page of the audit log through COPY, each entry pointing at its record's new id (a
        /// deleted payout has none: its entries keep the archive's).
        func copyAudit(_ page: [AuditEntry], _ connection: PostgresConnection) async throws {
            var buffer = ByteBuffer()
            for entry in page {
                func map(_ id: Int64?) -> String {
                    guard let id else { return "\\N" }
                    let new: Int64? =
                        switch entry.subject {
                        case .sale: sales[id]
                        case .terms: terms[id]
                        case .payout: payouts[id]
                        case .price: prices[id]
                        case .clinic: clinics[id]
                        case .deduction: deductions[id]
                        case .product: products[id]
                        case .period: clinics[id]
                        case .settings: nil
                        }
                    return String(new ?? id)
                }
                let fields = [
                    String(book), String(Int64(entry.at.timeIntervalSince1970)), Self.copyText(entry.actor),
                    entry.subject.rawValue,
                    map(entry.subjectID), map(entry.lastSubjectID), Self.copyText(entry.action),
                    entry.before.map(Self.copyText) ?? "\\N", entry.after.map(Self.copyText) ?? "\\N",
                ]
                buffer.writeString(fields.joined(separator: "\t") + "\n")
            }
            try await connection.copy(into: "auditEntry", columns: Columns.auditWritten, logger: logger) { writer in
                try await writer.write(buffer)
            }
        }

        /// A text value in COPY's text format: backslash, tab, newline and carriage return escaped.
        static func copyText(_ text: String) -> String {
            var escaped = ""
            for character in text.unicodeScalars {
                switch character {
                case "\\": escaped += "\\\\"
                case "\t": escaped += "\\t"
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                default: escaped.unicodeScalars.append(character)
                }
            }
            return escaped
        }
    }
}

extension PostgresStore: BookRestoring {
    /// Accounts belong to the server, not to one book: a restore keeps the book's members.
    public var restoreReplacesAccounts: Bool { false }

    /// What the book archive at `path` holds, checked whole. A team server's book is restored
    /// from an archive only: an SQLite backup file is refused with the way to make one.
    public func inspectBackup(at path: String) async throws -> ArchiveCounts {
        try Self.requireArchive(path)
        return try await ArchiveFile.inspect(path)
    }

    /// Replaces the whole book with the archive at `path` (``replaceBook(from:)``).
    public func restoreBackup(at path: String) async throws -> ArchiveCounts {
        try Self.requireArchive(path)
        return try await replaceBook { sink in try await ArchiveFile.read(path, into: sink) }
    }

    static func requireArchive(_ path: String) throws {
        guard ArchiveFile.isArchive(atPath: path) else {
            throw StoreError.invalid(
                field: "backup file",
                reason: """
                    a book on a team server is restored from a book archive (a .jsonl file: "Download an archive" on this page, or \
                    commission backup --archive FILE for a book file), and this file is not one.
                    """
            )
        }
    }
}
