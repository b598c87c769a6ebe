import CommissionCore
import CommissionStore
import Foundation
import Logging
import PostgresNIO

/// The Commission store on PostgreSQL: one book of a shared database.
///
/// Every statement names the book (`bookId`), so a store sees only its own book's rows. Writes run
/// in one transaction each and are announced to every instance on the database (LISTEN/NOTIFY),
/// which drives live queries across server instances.
public struct PostgresStore: CommissionStore, Sendable {
    /// The database that holds the book's records.
    public let database: PostgresBookDatabase
    /// The database that keeps the server's accounts, with their sessions, tokens and invitations
    /// and the book's members: ``database`` itself, unless the server's books are on several
    /// databases (``PostgresBooks``), where it is the directory's.
    public let accounts: PostgresBookDatabase
    /// The book this store reads and writes.
    public let book: Int64
    let logger: Logger
    /// The inputs of the book's last dashboard (``dashboard(today:)``).
    let dashboardInputs = DashboardInputsCache()

    /// The store of an existing book. Starts listening for other instances' changes.
    ///
    /// - Parameter accounts: where the server's accounts are kept, when not in `database`.
    public init(database: PostgresBookDatabase, book: Int64, accounts: PostgresBookDatabase? = nil) async throws {
        self.database = database
        self.accounts = accounts ?? database
        self.book = book
        self.logger = database.logger
        try await database.startListening()
        database.changeFeed.arrived(book: book)
        _ = try await settings()
        try await settlePendingPeriodFigures()
    }

    /// Creates a new book with these settings and returns its store.
    ///
    /// With `ownersLink` (the digest of a one-time link's secret and when it expires), the book is
    /// made to be claimed through that link alone (`commission books add`): the link is recorded in
    /// the same transaction, so `/setup` never offers the book to anyone, not even for an instant.
    public static func createBook(
        in database: PostgresBookDatabase,
        name: String,
        settings: BookSettings,
        ownersLink: (tokenDigest: String, expiresAt: Date)? = nil
    ) async throws -> PostgresStore {
        let id = try await createBook(
            in: database,
            name: name,
            settings: settings,
            ownersLink: ownersLink,
            placedOn: nil
        )
        return try await PostgresStore(database: database, book: id)
    }

    /// Makes a new book's row (with its owner's link), placed on the database `place` names
    /// (``PostgresBooks``; nil: this one), and returns its id.
    static func createBook(
        in database: PostgresBookDatabase,
        name: String,
        settings: BookSettings,
        ownersLink: (tokenDigest: String, expiresAt: Date)?,
        placedOn place: String?
    ) async throws -> Int64 {
        guard TimeZone(identifier: settings.timeZoneIdentifier) != nil else {
            throw StoreError.invalid(
                field: "time zone",
                reason: "\"\(settings.timeZoneIdentifier)\" is not an IANA time zone such as Europe/London."
            )
        }
        let logger = database.logger
        let id: Int64
        do {
            id = try await database.transaction { connection in
                guard
                    let id = try await connection.query(
                        """
                        INSERT INTO book (name, currencyCode, currencyMinorDigits, timeZone, roundingRule, roundingScope, locale, place)
                        VALUES (\(name), \(settings.currency.code), \(settings.currency.minorDigits), \(settings.timeZoneIdentifier),
                                \(settings.rounding.rule.rawValue), \(settings.rounding.scope.rawValue), \(settings.localeIdentifier), \(place))
                        RETURNING id
                        """,
                        logger: logger
                    ).decode(Int64.self).all().first
                else {
                    throw StoreError.storage("the new book has no id")
                }
                if let ownersLink {
                    try await connection.query(
                        """
                        INSERT INTO invitation (tokenDigest, bookId, invitedBy, role, expiresAt)
                        VALUES (\(ownersLink.tokenDigest), \(id), NULL, 'owner', \(Int64(ownersLink.expiresAt.timeIntervalSince1970)))
                        """,
                        logger: logger
                    )
                }
                return id
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw PostgresBookDatabase.storeError(error, doing: "create the book")
        }
        return id
    }

    /// The database's first book, created with `settings` when it has none: what a server serves
    /// until books are chosen per account.
    public static func firstBook(
        in database: PostgresBookDatabase,
        creatingWith settings: BookSettings
    ) async throws -> PostgresStore {
        guard TimeZone(identifier: settings.timeZoneIdentifier) != nil else {
            throw StoreError.invalid(
                field: "time zone",
                reason: "\"\(settings.timeZoneIdentifier)\" is not an IANA time zone such as Europe/London."
            )
        }
        let logger = database.logger
        let id: Int64
        do {
            // Under the migrations' lock: instances starting together on an empty database make one book.
            id = try await database.transaction { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.lockKey))", logger: logger)
                if let id = try await connection.query("SELECT id FROM book ORDER BY id LIMIT 1", logger: logger)
                    .decode(Int64.self).all().first
                {
                    return id
                }
                return try await connection.query(
                    """
                    INSERT INTO book (name, currencyCode, currencyMinorDigits, timeZone, roundingRule, roundingScope, locale)
                    VALUES ('Commission', \(settings.currency.code), \(settings.currency.minorDigits), \(settings.timeZoneIdentifier),
                            \(settings.rounding.rule.rawValue), \(settings.rounding.scope.rawValue), \(settings.localeIdentifier))
                    RETURNING id
                    """,
                    logger: logger
                ).decode(Int64.self).all().first ?? 0
            }
        } catch {
            throw PostgresBookDatabase.storeError(error, doing: "open the book")
        }
        return try await PostgresStore(database: database, book: id)
    }

    // MARK: Running reads and writes

    /// Runs `body` on a connection of the pool, in one transaction (a consistent snapshot).
    func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await reading { try await database.transaction(readOnly: true, body) }
    }

    /// Runs `body`, one statement, on a connection of the pool with no transaction around it: a
    /// statement reads one snapshot of its own, and saves the two round trips of a transaction's
    /// begin and end.
    func readStatement<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await reading { try await database.withConnection(body) }
    }

    /// A read, timed, its failure said as a ``StoreError``.
    private func reading<T: Sendable>(_ run: () async throws -> T) async throws -> T {
        do {
            return try await StoreTiming.measure(.read) { try await run() }
        } catch {
            throw PostgresBookDatabase.storeError(error, doing: "read the book")
        }
    }

    /// ``read(_:)`` in the caller's own task, for a body that cannot be handed to a task of its own
    /// (``PostgresBookDatabase/transactionInPlace(readOnly:_:)``): the archive, streamed to a sink.
    func readInPlace<T: Sendable>(_ body: (ConnectionSteps) async throws -> T) async throws -> T {
        do {
            return try await database.transactionInPlace(readOnly: true, body)
        } catch {
            throw PostgresBookDatabase.storeError(error, doing: "read the book")
        }
    }

    /// A transaction on the book's database that changes no figure (nothing is announced).
    func plainWrite<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await database.run("write", body)
    }

    /// How a write holds its book.
    enum BookLock {
        /// Alone: no other write of the book runs until it commits, so the checks it makes (names,
        /// closed periods, terms, prices) hold until then. Every write but a single new sale.
        case exclusive
        /// Beside other new sales, and apart from every exclusive write: what a new sale reads
        /// (its clinic, product, terms, prices, closed periods) only an exclusive write changes.
        /// Sales that share a day, clinic or product meet only at their summary rows, which the
        /// database updates one at a time.
        case sharedWithSales
    }

    /// Runs `body` in one write transaction of the book, announced to every instance when it commits.
    ///
    /// The book is locked as `lock` says (an advisory lock of the book, taken by the transaction's
    /// first statement). An exclusive write settles the kept period figures it marked; a new sale,
    /// written beside others, settles its own. Whatever the lock, a transaction's end is taken one
    /// at a time (``lockCommitOrder(_:)``, by its first audit entry and by settling): audit ids
    /// follow commits (a device's sync reads the newest id as the book's revision), and a kept
    /// figure is summed after the commits before it.
    func write<T: Sendable>(
        _ tables: Set<StoreTable>,
        lock: BookLock = .exclusive,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        // A request's idempotency key is spent by its first write of the book, in the same transaction.
        let claim = IdempotencyClaim.pending
        let result = try await StoreTiming.measure(.write) {
            try await database.write(book: book, tables: tables, lock: bookLock(lock)) { connection in
                if let claim { try await insert(claim, connection) }
                let result = try await body(connection)
                if lock == .exclusive { try await settlePeriodFigures(connection) }
                return result
            }
        }
        claim?.markCommitted()
        return result
    }

    /// The advisory locks' first keys (the second is the book's id, or a digest): apart from the
    /// migrations' lock, which has a key of one part.
    enum LockSpace: Int32 {
        case book = 1801, commitOrder = 1802, saleKey = 1803, signIn = 1804, numbering = 1805, move = 1806
    }

    /// The book's id as an advisory lock's second key (ids past 2³¹ share a lock with another
    /// book's: a wait, never a wrong answer).
    var lockID: Int32 { Int32(truncatingIfNeeded: book) }

    /// The advisory lock a write of the book takes, `exclusive` or shared with other new sales.
    func bookLock(_ lock: BookLock) -> PostgresBookDatabase.AdvisoryLock {
        PostgresBookDatabase.AdvisoryLock(space: LockSpace.book.rawValue, id: lockID, shared: lock == .sharedWithSales)
    }

    /// The book's commit order (``write(_:lock:_:)``).
    var commitOrder: PostgresBookDatabase.AdvisoryLock {
        PostgresBookDatabase.AdvisoryLock(space: LockSpace.commitOrder.rawValue, id: lockID)
    }

    /// Takes the book's commit order until the transaction ends (again, in the same transaction, costs nothing).
    func lockCommitOrder(_ connection: PostgresConnection) async throws {
        try await connection.query("SELECT \(unescaped: commitOrder.sql)", logger: logger)
    }

    public func changes() -> StoreChanges { database.changeStream(book: book) }

    // MARK: Helpers

    /// The first column of the first row, as a whole number (0 when there is no row or it is NULL).
    func int(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> Int64 {
        let values = try await connection.query(query, logger: logger).decode(Int64?.self).all()
        return (values.first ?? nil) ?? 0
    }
}

/// The select lists the row decoders read, in their order.
enum Columns {
    /// `column` in the order of SQLite's `COLLATE NOCASE`, the SQLite store's order of names: ASCII
    /// letters folded, then byte by byte (`lower` folds only ASCII under the "C" collation). The
    /// database's own collation would put "École" beside "eagle" here and after "Zeta" there.
    static func byName(_ column: String) -> String { "lower(\(column) COLLATE \"C\") COLLATE \"C\"" }
    static let clinic = "id, name, scheduleKind, scheduleAnchor, isArchived, scheduleChanges"
    static let product =
        "product.id, product.name, product.sku, product.unitPriceMinor, product.unitCostMinor, product.isArchived"
    static let terms = "id, clinicId, productId, basis, shareBasisPoints, effectiveFrom::text, isArchived, tiers"
    static let deduction = "id, clinicId, name, kind, amountMinor, shareBasisPoints, effectiveFrom::text, lastDay::text"
    static let sale = """
        sale.id, sale.clinicId, sale.productId, sale.date::text, sale.quantity, sale.unitPriceMinor, sale.unitCostMinor, \
        sale.discountMinor, sale.termsId, sale.shareBasisPoints, sale.basis, sale.revenueMinor, sale.costMinor, \
        sale.profitMinor, sale.commissionExact, sale.commissionMinor, sale.note, sale.isVoided
        """
    static let price = "id, clinicId, productId, unitPriceMinor, unitCostMinor, effectiveFrom::text"
    static let payout = "id, clinicId, periodStart::text, periodEnd::text, amountMinor, receivedOn::text, reference"
    static let audit = "id, at, actor, subject, subjectId, lastSubjectId, action, before, after"
    /// What an audit entry is written with (its id is drawn).
    static let auditWritten = [
        "bookId", "at", "actor", "subject", "subjectId", "lastSubjectId", "action", "before", "after",
    ]
    /// A summary table's figures, in the order ``PostgresStore/totals(_:rounding:)`` reads.
    static let totals = ["saleCount"] + PostgresSchema.figureColumns
    /// Sums of a summary table, in the order ``PostgresStore/totals(_:rounding:)`` reads.
    static let totalsSums = totals.map { "sum(\($0))::bigint" }.joined(separator: ", ")
}

/// A statement built piece by piece: each `?` in a piece becomes the next `$n`, bound to the next value.
struct SQL {
    private(set) var text: String
    private var binds = PostgresBindings()

    init(_ text: String) { self.text = text }

    init(_ text: String, _ values: any PostgresThrowingDynamicTypeEncodable...) throws {
        self.text = ""
        try add(text, values)
    }

    mutating func add(_ piece: String, _ values: any PostgresThrowingDynamicTypeEncodable...) throws {
        try add(piece, values)
    }

    private mutating func add(_ piece: String, _ values: [any PostgresThrowingDynamicTypeEncodable]) throws {
        var values = values.makeIterator()
        for character in piece {
            guard character == "?", let value = values.next() else {
                text.append(character)
                continue
            }
            try binds.append(value)
            text += "$\(binds.count)"
        }
    }

    mutating func add(page: Page) throws {
        guard page.limit != nil || page.offset > 0 else { return }
        if let limit = page.limit { try add(" LIMIT ?", Int64(max(0, limit))) }
        try add(" OFFSET ?", Int64(max(0, page.offset)))
    }

    var query: PostgresQuery { PostgresQuery(unsafeSQL: text, binds: binds) }
}

extension PostgresConnection {
    /// `COPY table (columns) FROM STDIN`, in the text format, `write` giving its rows: COPY quotes
    /// the names it is given, so ours go as PostgreSQL folded them, in lower case.
    func copy(
        into table: String,
        columns: [String],
        logger: Logger,
        _ write: (PostgresCopyFromWriter) async throws -> Void
    ) async throws {
        try await copyFrom(
            table: table.lowercased(),
            columns: columns.map { $0.lowercased() },
            logger: logger,
            writeData: write
        )
    }
}

extension AsyncSequence {
    /// Every element. Rows are read to the end before the next statement runs on their connection.
    package func all() async throws -> [Element] {
        var result: [Element] = []
        for try await element in self { result.append(element) }
        return result
    }
}
