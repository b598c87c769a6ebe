import CommissionCore
import CommissionStore
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Every book of a server on PostgreSQL: finds the book of each caller, makes new books, and —
/// when the server's books are spread over several databases — says which database holds each
/// and moves a book from one to another.
///
/// The first database (``database``, named ``mainName``) is the directory: it keeps a row for
/// every book of the server (`book.place` names the database holding its records when it is not
/// this one), and every account, session, API token, invitation and membership, so that a name
/// is unique on the server and signing in finds the book wherever it is. The others (``others``,
/// by the names the operator gave them) hold books' records only. A book's store reads and writes
/// its records on its database and its accounts on the directory's; nothing else learns that
/// there are several.
public struct PostgresBooks: BookDirectory {
    /// The directory's database: accounts, and the books placed on no other.
    public let database: PostgresBookDatabase
    /// The other databases books may be placed on, by name.
    public let others: [String: PostgresBookDatabase]
    /// Settings for the first book when the database has none.
    let defaultSettings: BookSettings
    /// The other databases given their numbering block by this process.
    private let numbered = Numbered()

    private final class Numbered: Sendable {
        private let names = Mutex(Set<String>())
        func contains(_ name: String) -> Bool { names.withLock { $0.contains(name) } }
        func insert(_ name: String) { names.withLock { _ = $0.insert(name) } }
    }

    /// The name of the directory's own database (`books list`, `books add --on main`).
    public static let mainName = "main"

    public init(
        database: PostgresBookDatabase,
        defaultSettings: BookSettings,
        others: [String: PostgresBookDatabase] = [:]
    ) {
        self.database = database
        self.defaultSettings = defaultSettings
        self.others = others
    }

    /// Of several hosts of the URL, which answers as the primary now (`host 2 of 2`).
    public var primaryDatabase: String? { database.primaryPosition }

    /// The other databases that do not answer now (their watchers found them away).
    public var databasesAway: [String] { others.filter { $0.value.isAway }.keys.sorted() }

    /// The names of the databases, the directory's first.
    public var names: [String] { [Self.mainName] + others.keys.sorted() }

    /// The database called `name`.
    /// - Throws: ``StoreError/invalid(field:reason:)`` naming those there are.
    public func database(named name: String) throws -> PostgresBookDatabase {
        if name == Self.mainName { return database }
        guard let database = others[name] else {
            throw StoreError.invalid(
                field: "database",
                reason: """
                    there is no database "\(name)" here (\(names.map { "\"\($0)\"" }.joined(separator: ", ")))
                    """
            )
        }
        return database
    }

    /// Readies the other databases: each must hold only books the directory places there (a
    /// database that served as a server's own before cannot join: its books' ids may be
    /// another's), and numbers its records in a block of its own (``numberingBlock``), so that a
    /// book moves between databases with its records' ids as they are.
    /// - Throws: ``StoreError/invalid(field:reason:)`` naming the books found astray.
    public func prepare() async throws {
        guard !others.isEmpty else { return }
        try await checkDistinct()
        try await checkPlaces()
        for name in others.keys.sorted() { try await number(name) }
    }

    /// How many ids each database draws from: the directory's from 1, each other's from its own
    /// multiple of 2⁴⁰ (ids stay below 2⁵³, exact in a browser's numbers).
    static let numberingBlock: Int64 = 1 << 40

    /// Gives the database `name` its block (kept in the directory, `databaseBlock`: one per name,
    /// never two names the same), and moves each of its sequences there unless it draws from it
    /// (or beyond) already. Once per database and process.
    private func number(_ name: String) async throws {
        guard let other = others[name], !numbered.contains(name) else { return }
        let block: Int64 = try await directory("give the database \"\(name)\" its numbering block") { connection in
            try await connection.query(
                "SELECT pg_advisory_xact_lock(\(PostgresStore.LockSpace.numbering.rawValue), 0)",
                logger: database.logger
            )
            if let block = try await connection.query(
                "SELECT block FROM databaseBlock WHERE name = \(name)",
                logger: database.logger
            )
            .decode(Int64.self).all().first {
                return block
            }
            let highest: Int64? =
                try await connection.query("SELECT max(block) FROM databaseBlock", logger: database.logger).decode(
                    Int64?.self
                ).all().first ?? nil
            let next = (highest ?? 0) + 1
            try await connection.query(
                "INSERT INTO databaseBlock (name, block) VALUES (\(name), \(next))",
                logger: database.logger
            )
            return next
        }
        let start = block * Self.numberingBlock
        try await other.run("number the database's records from its own block") { connection in
            let sequences = try await connection.query(
                """
                SELECT format('%I.%I', schemaname, sequencename) FROM pg_sequences WHERE schemaname = current_schema()
                """,
                logger: other.logger
            ).decode(String.self).all()
            for sequence in sequences {
                // Read from the sequence itself: a sequence set but not drawn from yet tells its next value too.
                let state: (Int64, Bool)? = try await connection.query(
                    "SELECT last_value, is_called FROM \(unescaped: sequence)",
                    logger: other.logger
                )
                .decode((Int64, Bool).self).all().first
                let (last, called) = state ?? (0, false)
                if (called ? last + 1 : last) < start {
                    try await connection.query(
                        "SELECT setval(\(sequence)::regclass, \(start), false)",
                        logger: other.logger
                    )
                }
            }
        }
        numbered.insert(name)
    }

    /// Whether the databases are as many as their names: one given twice (under two names, or as
    /// the first and a further one) would hold its books' records twice over.
    func checkDistinct() async throws {
        var seen: [String: String] = [:]
        for name in names {
            let other = try database(named: name)
            let identity = try await other.run("read the database's identity") { connection in
                try await connection.query("SELECT id FROM databaseIdentity", logger: other.logger).decode(String.self)
                    .all().first ?? ""
            }
            if let first = seen[identity] {
                throw StoreError.invalid(
                    field: "database",
                    reason: """
                        "\(first)" and "\(name)" are the same database: give each further database one of its own.
                        """
                )
            }
            seen[identity] = name
        }
    }

    /// Whether each other database holds only books the directory places there, is moving there,
    /// or that are leaving it (a move's source, or its old copy awaiting removal).
    func checkPlaces() async throws {
        let placed: [String: Set<Int64>] = try await directory("read the books' places") { connection in
            var placed: [String: Set<Int64>] = [:]
            for (id, place, movingTo) in try await connection.query(
                """
                SELECT id, place, movingTo FROM book WHERE place IS NOT NULL OR movingTo IS NOT NULL
                """,
                logger: database.logger
            ).decode((Int64, String?, String?).self).all() {
                if let place { placed[place, default: []].insert(id) }
                if let movingTo { placed[movingTo, default: []].insert(id) }
            }
            return placed
        }
        for (name, other) in others.sorted(by: { $0.key < $1.key }) {
            let held = try await other.run("read the books of \"\(name)\"") { connection in
                try await connection.query("SELECT id FROM book WHERE leaving IS NULL", logger: other.logger).decode(
                    Int64.self
                ).all()
            }
            let astray = held.filter { !(placed[name] ?? []).contains($0) }.sorted()
            guard astray.isEmpty else {
                throw StoreError.invalid(
                    field: "database",
                    reason: """
                        the database "\(name)" holds \(astray.count == 1 ? "book" : "books") \(astray.map(String.init).joined(separator: ", ")) \
                        that the directory does not place there: it was another server's. Move its books into this server's \
                        first database with `commission migrate`, then give "\(name)" as an empty database.
                        """
                )
            }
        }
    }

    public func defaultBook() async throws -> Int64 {
        if let id = try await first("SELECT id FROM book ORDER BY id LIMIT 1") { return id }
        return try await PostgresStore.firstBook(in: database, creatingWith: defaultSettings).book
    }

    public func setupIsOpen(book: Int64) async throws -> Bool {
        try await first(
            """
            SELECT count(*) FROM book WHERE id = \(book) AND id = (SELECT min(id) FROM book)
              AND NOT EXISTS (SELECT 1 FROM account)
              AND NOT EXISTS (SELECT 1 FROM invitation WHERE bookId = \(book) AND role = 'owner' AND invitedBy IS NULL)
            """
        ) ?? 0 > 0
    }

    public func book(sessionDigest: String, now: Date) async throws -> Int64? {
        try await first(
            """
            SELECT member.bookId FROM session JOIN member ON member.accountId = session.accountId
            WHERE session.tokenDigest = \(sessionDigest) AND session.expiresAt > \(Int64(now.timeIntervalSince1970))
            """
        )
    }

    public func book(tokenDigest: String) async throws -> Int64? {
        try await first(
            """
            SELECT member.bookId FROM apiToken JOIN member ON member.accountId = apiToken.accountId
            WHERE apiToken.tokenDigest = \(tokenDigest) AND apiToken.revokedAt IS NULL
            """
        )
    }

    public func book(username: String) async throws -> Int64? {
        let (key, asTyped) = StoreInput.usernameLookups(username)
        return try await first(
            """
            SELECT member.bookId FROM account JOIN member ON member.accountId = account.id
            WHERE lower(account.username) IN (lower(\(key)), lower(\(asTyped))) ORDER BY lower(account.username) = lower(\(key)) DESC LIMIT 1
            """
        )
    }

    public func book(invitationDigest: String, now: Date) async throws -> Int64? {
        try await first(
            """
            SELECT bookId FROM invitation
            WHERE tokenDigest = \(invitationDigest) AND usedAt IS NULL AND expiresAt > \(Int64(now.timeIntervalSince1970))
            """
        )
    }

    public func book(calendarDigest: String) async throws -> Int64? {
        try await first("SELECT bookId FROM reminderSetting WHERE calendarDigest = \(calendarDigest)")
    }

    public func store(book: Int64) async throws -> any ServerBookStore {
        try await postgresStore(book: book)
    }

    /// The store of `book`, on the database the directory places it on.
    public func postgresStore(book: Int64) async throws -> PostgresStore {
        try await store(of: book, placedOn: try await place(of: book))
    }

    /// The store of `book`, on the database called `place`.
    private func store(of book: Int64, placedOn place: String) async throws -> PostgresStore {
        if place == Self.mainName { return try await PostgresStore(database: database, book: book) }
        guard let other = others[place] else {
            throw StoreError.unavailable(
                "book \(book) is on the database \"\(place)\", which this server was not given"
            )
        }
        return try await PostgresStore(database: other, book: book, accounts: database)
    }

    /// The name of the database that holds `book`'s records.
    /// - Throws: ``StoreError/notFound(_:id:)`` for a book the server does not have.
    public func place(of book: Int64) async throws -> String {
        let found: [String?] = try await lookup("find the book's database") { connection in
            try await connection.query("SELECT place FROM book WHERE id = \(book)", logger: database.logger).decode(
                String?.self
            ).all()
        }
        guard let place = found.first else { throw StoreError.notFound(.book, id: book) }
        return place ?? Self.mainName
    }

    /// Books whose records moved to another database, as any instance moves them: a server drops
    /// what it built on their old store.
    public func moves() async throws -> AsyncStream<Int64?>? {
        try await database.moves()
    }

    /// A book of the server, and where it is.
    public struct Listed: Sendable, Equatable {
        public var id: Int64
        public var name: String
        /// How many accounts are its members.
        public var accounts: Int
        /// The name of the database that holds its records (``PostgresBooks/mainName`` for the directory's).
        public var database: String
    }

    /// Every book with its name, how many accounts it has and where it is, oldest first.
    public func books() async throws -> [Listed] {
        try await directory("list the books") { connection in
            try await connection.query(
                """
                SELECT book.id, book.name, count(member.accountId), book.place FROM book LEFT JOIN member ON member.bookId = book.id
                GROUP BY book.id ORDER BY book.id
                """,
                logger: database.logger
            ).decode((Int64, String, Int64, String?).self).all().map {
                Listed(id: $0.0, name: $0.1, accounts: Int($0.2), database: $0.3 ?? Self.mainName)
            }
        }
    }

    /// Makes a new book on the database called `place` (the directory's by default): its row in
    /// the directory (with the owner's one-time link, as ``PostgresStore/createBook(in:name:settings:ownersLink:)``),
    /// then its own row on `place`. A failure on `place` takes the directory's row back.
    public func addBook(
        name: String,
        settings: BookSettings,
        ownersLink: (tokenDigest: String, expiresAt: Date)? = nil,
        on place: String = mainName
    ) async throws -> PostgresStore {
        let target = try database(named: place)
        if place == Self.mainName {
            return try await PostgresStore.createBook(
                in: database,
                name: name,
                settings: settings,
                ownersLink: ownersLink
            )
        }
        try await number(place)
        let listed = try await PostgresStore.createBook(
            in: database,
            name: name,
            settings: settings,
            ownersLink: ownersLink,
            placedOn: place
        )
        do {
            try await target.run("create the book on \"\(place)\"") { connection in
                try await PostgresStore.insertBookRow(
                    connection,
                    id: listed,
                    name: name,
                    settings: settings,
                    logger: target.logger
                )
            }
            return try await PostgresStore(database: target, book: listed, accounts: database)
        } catch {
            do {
                try await directory("take the new book back") { connection in
                    try await connection.query(
                        "DELETE FROM invitation WHERE bookId = \(listed)",
                        logger: database.logger
                    )
                    try await connection.query("DELETE FROM book WHERE id = \(listed)", logger: database.logger)
                }
            } catch let failure {
                // The directory then lists a book its database does not hold: said, for whoever runs the server.
                database.logger.error(
                    "book \(listed): made in part and not taken back from the directory (\(String(reflecting: failure))): the directory lists a book its database does not hold"
                )
            }
            throw error
        }
    }

    /// What a move did.
    public struct Moved: Sendable {
        public var from: String, to: String
        public var counts: ArchiveCounts
        /// How long the book's writes were refused (from its mark to the switch).
        public var readOnlyFor: Duration
        /// Why the old copy is still there, when it could not be removed (the book moved all the
        /// same; the next move of the book removes it).
        public var oldCopyLeft: String?
    }

    /// Moves `book`'s records to the database called `place`, with nothing lost:
    ///
    /// 1. The directory notes the move (`movingTo`); then, on the book's database, the book is
    ///    marked as leaving under its exclusive lock (the writes under way end first), and from
    ///    then on every write of it is refused there, with a 503 that asks to send it again (no
    ///    sale is lost, none is taken twice: its key comes along).
    /// 2. Its archive is streamed into a copy on `place` under the same id and the same record
    ///    ids, in one transaction, with its import mappings, product aliases and the answers kept
    ///    for its requests' idempotency keys; `prove` compares the two.
    /// 3. The directory is switched to `place` in one commit, and every instance is told (its
    ///    stores of the book made again, its live streams ended so that they are opened again).
    /// 4. After `settle` (reads that found the old place before the switch end, and answers to
    ///    the last writes there are kept, then copied), the old copy's records are removed.
    ///
    /// One move of a book runs at a time (a lock of the directory's, held for the move). A
    /// failure before the switch removes the copy and takes the book's writes again where it
    /// was; a move cut short (its process gone) is finished by running it again, which first
    /// removes what the other left (its copy, or an old copy it did not remove).
    public func move(
        book: Int64,
        to place: String,
        settle: Duration = .seconds(5),
        prove: @escaping @Sendable (_ source: PostgresStore, _ target: PostgresStore) async throws -> Void
    ) async throws -> Moved {
        let targetDatabase = try database(named: place)
        let lock = "\(PostgresStore.LockSpace.move.rawValue), \(Int32(truncatingIfNeeded: book))"
        return try await database.withConnection { [self] held in
            guard
                try await held.query("SELECT pg_try_advisory_lock(\(unescaped: lock))", logger: database.logger).decode(
                    Bool.self
                ).all().first == true
            else {
                throw StoreError.invalid(
                    field: "book",
                    reason: "book \(book) is being moved by another command; wait for it to end."
                )
            }
            do {
                let moved = try await moveHoldingTheLock(
                    book: book,
                    to: place,
                    targetDatabase,
                    settle: settle,
                    prove: prove
                )
                // try?: unlock fails only with the connection gone, whose session's end releases the lock
                _ = try? await held.query("SELECT pg_advisory_unlock(\(unescaped: lock))", logger: database.logger)
                return moved
            } catch {
                // try?: unlock fails only with the connection gone, whose session's end releases the lock
                _ = try? await held.query("SELECT pg_advisory_unlock(\(unescaped: lock))", logger: database.logger)
                throw error
            }
        }
    }

    private func moveHoldingTheLock(
        book: Int64,
        to place: String,
        _ targetDatabase: PostgresBookDatabase,
        settle: Duration,
        prove: @escaping @Sendable (_ source: PostgresStore, _ target: PostgresStore) async throws -> Void
    ) async throws -> Moved {
        let from = try await self.place(of: book)
        try await removeLeftovers(of: book, placedOn: from)
        guard from != place else {
            throw StoreError.invalid(field: "database", reason: "book \(book) is on \"\(place)\" already.")
        }
        if place != Self.mainName { try await number(place) }
        let source = try await store(of: book, placedOn: from)
        try await directory("note the move") { connection in
            try await connection.query(
                "UPDATE book SET movingTo = \(place) WHERE id = \(book)",
                logger: database.logger
            )
        }
        let started = ContinuousClock.now
        try await source.markLeaving(to: place)
        var counts = ArchiveCounts()
        do {
            let name = try await source.bookName()
            let keys = try await source.keptAnswers()
            let extras = try await source.importAids()
            counts = try await PostgresStore.copyBook(
                book,
                named: name,
                into: targetDatabase,
                rowExists: place == Self.mainName,
                keptAnswers: keys,
                importAids: extras
            ) { sink in
                _ = try await source.archive(into: sink)
            }
            let target = try await PostgresStore(
                database: targetDatabase,
                book: book,
                accounts: place == Self.mainName ? nil : database
            )
            guard try await target.importAids() == extras else {
                throw StoreError.storage("the copy's import mappings or product aliases differ from the book's")
            }
            try await prove(source, target)
            try await directory("switch the book to \"\(place)\"") { connection in
                try await connection.query(
                    """
                    UPDATE book SET place = \(place == Self.mainName ? nil : place), movingTo = NULL WHERE id = \(book)
                    """,
                    logger: database.logger
                )
                try await PostgresChanges.announceMove(connection, book: book, logger: database.logger)
            }
        } catch {
            // A switch whose commit was made though its answer was lost: the directory says. When
            // it cannot say, nothing is undone (the book may be at its new home already): moving
            // it again finishes the move, or takes it back.
            let now: String
            do {
                now = try await self.place(of: book)
            } catch let unread {
                database.logger.error(
                    "book \(book): its move to \"\(place)\" failed (\(String(reflecting: error))) and where it is now could not be read (\(String(reflecting: unread))): nothing was undone"
                )
                throw StoreError.storage(
                    "the move failed, and where the book is now could not be read: move it again, which finishes or takes back the move"
                )
            }
            if now != place {
                // Each step of the taking back is tried, and one that fails is said: what it leaves
                // (a copy, the book's writes refused, the directory's mark) a new move clears.
                var left: [String] = []
                do {
                    try await PostgresStore.removeRecords(
                        of: book,
                        on: targetDatabase,
                        keepingRow: place == Self.mainName
                    )
                } catch let failure {
                    left.append("its copy on \"\(place)\" (\(String(reflecting: failure)))")
                }
                do { try await source.markLeaving(to: nil) } catch let failure {
                    left.append("its writes refused (\(String(reflecting: failure)))")
                }
                do {
                    _ = try await directory("take the move back") { connection in
                        try await connection.query(
                            "UPDATE book SET movingTo = NULL WHERE id = \(book)",
                            logger: database.logger
                        )
                    }
                } catch let failure {
                    left.append("the directory's mark of the move (\(String(reflecting: failure)))")
                }
                if !left.isEmpty {
                    database.logger.error(
                        "book \(book): its failed move to \"\(place)\" could not be taken back whole; left: \(left.joined(separator: "; ")). Moving it again clears them."
                    )
                }
                throw error
            }
        }
        let readOnlyFor = ContinuousClock.now - started
        var oldCopyLeft: String?
        do {
            // The old place's live streams end (their browsers open them again, on the new place).
            let sourceDatabase = source.database
            if sourceDatabase !== database {
                try await sourceDatabase.run("tell the move") { connection in
                    try await PostgresChanges.announceMove(connection, book: book, logger: sourceDatabase.logger)
                }
            }
            try await Task.sleep(for: settle)
            // An answer kept there after the copy (its write committed just before the mark) comes along.
            try await PostgresStore.catchUp(try await source.keptAnswers(), book: book, on: targetDatabase)
            try await PostgresStore.removeRecords(of: book, on: sourceDatabase, keepingRow: from == Self.mainName)
        } catch {
            oldCopyLeft = "\(error)"
        }
        return Moved(from: from, to: place, counts: counts, readOnlyFor: readOnlyFor, oldCopyLeft: oldCopyLeft)
    }

    /// What a move of `book` cut short left, its records now on `placedOn`: the copy it was
    /// making (on the database the directory still notes as `movingTo`), and old copies marked
    /// as leaving on the other databases.
    private func removeLeftovers(of book: Int64, placedOn: String) async throws {
        let movingTo: String? = try await lookup("read the book's move") { connection in
            try await connection.query("SELECT movingTo FROM book WHERE id = \(book)", logger: database.logger).decode(
                String?.self
            ).all().first ?? nil
        }
        for name in names where name != placedOn {
            let other = try database(named: name)
            let leaving: [String?] = try await other.run("read the book's old copy") { connection in
                try await connection.query("SELECT leaving FROM book WHERE id = \(book)", logger: other.logger).decode(
                    String?.self
                ).all()
            }
            guard let row = leaving.first, row != nil || name == movingTo else { continue }
            try await PostgresStore.removeRecords(of: book, on: other, keepingRow: name == Self.mainName)
        }
        // Where the book is, writes are taken again (a move starting now marks it anew).
        let here = try database(named: placedOn)
        try await here.run("take the book's writes again") { connection in
            try await connection.query(
                "UPDATE book SET leaving = NULL WHERE id = \(book) AND leaving IS NOT NULL",
                logger: here.logger
            )
        }
        if movingTo != nil {
            try await directory("take the cut-short move back") { connection in
                try await connection.query(
                    "UPDATE book SET movingTo = NULL WHERE id = \(book)",
                    logger: database.logger
                )
            }
        }
    }

    // MARK: Running

    private func first(_ query: PostgresQuery) async throws -> Int64? {
        try await lookup("find the caller's book") { connection in
            try await connection.query(query, logger: database.logger).decode(Int64.self).all().first
        }
    }

    /// One statement on the directory's database, outside a transaction (one round trip).
    func lookup<T: Sendable>(
        _ doing: String,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        do {
            return try await database.withConnection(body)
        } catch {
            throw PostgresBookDatabase.storeError(error, doing: doing)
        }
    }

    /// A transaction on the directory's database.
    @discardableResult
    private func directory<T: Sendable>(
        _ doing: String,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await database.run(doing, body)
    }

}

extension PostgresBooks {
    /// Opens the server's databases: the directory's at `url`, and the others, each given as
    /// `NAME=postgres://…` (a name of the operator's: letters, digits, `-` and `_`). Checks that
    /// the others hold only books the directory places there (``checkPlaces()``).
    public static func open(
        url: String,
        more: [String],
        defaultSettings: BookSettings,
        logger: Logger
    ) async throws -> PostgresBooks {
        var named: [(String, String)] = []
        for text in more {
            let (name, url) = try Self.named(text)
            guard name != mainName else {
                throw StoreError.invalid(
                    field: "database",
                    reason: "\"\(mainName)\" is the first database's own name (--database): give this one another."
                )
            }
            guard !named.contains(where: { $0.0 == name }) else {
                throw StoreError.invalid(
                    field: "database",
                    reason: "the name \"\(name)\" is given to two databases: give each its own."
                )
            }
            named.append((name, url))
        }
        let main = try await PostgresBookDatabase(url: url, logger: logger)
        var others: [String: PostgresBookDatabase] = [:]
        do {
            for (name, url) in named {
                // Its log lines (not answering, answering again, a failover) say which database.
                var tagged = logger
                tagged[metadataKey: "database"] = "\(name)"
                others[name] = try await PostgresBookDatabase(url: url, logger: tagged)
            }
            let books = PostgresBooks(database: main, defaultSettings: defaultSettings, others: others)
            try await books.prepare()
            return books
        } catch {
            main.shutdown()
            for other in others.values { other.shutdown() }
            throw error
        }
    }

    /// `east=postgres://…` → ("east", "postgres://…").
    public static func named(_ text: String) throws -> (name: String, url: String) {
        guard let equals = text.firstIndex(of: "=") else {
            throw StoreError.invalid(
                field: "database",
                reason:
                    "\"\(PostgresBookDatabase.redacted(text))\" is not NAME=postgres://…: give each further database a name."
            )
        }
        let name = String(text[..<equals]), url = String(text[text.index(after: equals)...])
        guard !name.contains(":"), !name.contains("/") else {
            throw StoreError.invalid(
                field: "database",
                reason:
                    "\"\(PostgresBookDatabase.redacted(text))\" is not NAME=postgres://…: give each further database a name."
            )
        }
        guard !name.isEmpty, name.count <= 40,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else {
            throw StoreError.invalid(
                field: "database",
                reason: "\"\(name)\" is not a database's name: letters, digits, - and _, up to 40."
            )
        }
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            throw StoreError.invalid(
                field: "database",
                reason: "the database \"\(name)\" is not given as a postgres://… URL."
            )
        }
        return (name, url)
    }

    /// Closes every database's connections.
    public func shutdown() {
        database.shutdown()
        for other in others.values { other.shutdown() }
    }
}
