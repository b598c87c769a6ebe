import CommissionCore
import CommissionStore
import Foundation
import GRDB
import Synchronization

/// The Commission store on SQLite, through GRDB: the embedded default.
///
/// A file database opens as a `DatabasePool` in WAL mode (readers never wait for the writer),
/// with foreign keys on, `synchronous = NORMAL` (a process crash loses nothing committed) and a busy
/// timeout, and temporary storage (statement journals) in memory, so that the command-line tool and a server can share one file. Migrations run when the
/// store opens.
public final class SQLiteStore: CommissionStore, Sendable {
    /// Where the database lives.
    public enum Location: Sendable, Hashable {
        /// A file on disk, created when missing.
        case file(String)
        /// A private in-memory database, gone when the store is.
        case inMemory

        /// Where, as a sentence says it: the file's path.
        var said: String {
            switch self {
            case .file(let path): path
            case .inMemory: "the book in memory"
            }
        }
    }

    public let location: Location
    package let writer: any DatabaseWriter
    /// The book's writes (``write(_:bump:_:)``), several to a transaction when they come at once.
    private let groupCommit: GroupCommit
    /// What new sales read of their clinic and product, kept between writes (``createSale(_:idempotencyKey:)``).
    let saleContexts = SaleContextCache()
    let broadcaster = ChangeBroadcaster()
    /// The book revision this process last wrote or saw; another value in the file means another process wrote.
    private let knownRevision = Mutex<Int64>(0)
    private let watcher = Mutex<Task<Void, Never>?>(nil)
    /// What a server reads on every request, once caching is on (``cacheHotReads()``).
    package let caches = Mutex(Caches())

    package struct Caches {
        var isOn = false
        package var settings: BookSettings?
        /// API token digest → the account, the token's id and when its use was last noted.
        package var tokens: [String: (account: Account, tokenID: Int64, lastUsed: Int64?)] = [:]

        /// Grows at every clear: a value read from the database is cached only if no clear came
        /// between the read's start and its end (else it may predate the change).
        var generation = 0

        mutating func clear() {
            settings = nil
            tokens = [:]
            generation += 1
        }
    }

    /// Opens (creating when needed) the database and runs pending migrations.
    ///
    /// - Parameters:
    ///   - location: the book's file, or a book in memory.
    ///   - defaultSettings: the book's settings when the database is new. Change them later with
    ///     ``updateSettings(_:)``.
    ///   - willUpgrade: called before the migrations of a book written by an earlier version run
    ///     (not for a new book), so that a program can say why the book takes a moment to open: an
    ///     upgrade may rebuild a table of a million sales.
    public init(
        _ location: Location,
        defaultSettings: BookSettings = SQLiteStore.systemDefaultSettings,
        willUpgrade: (() -> Void)? = nil
    ) throws {
        self.location = location
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.label = "commission"
        configuration.prepareDatabase { db in
            if db.configuration.readonly == false {
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                // A sale's insert fires the summary triggers, so SQLite keeps a statement journal for it;
                // in a temporary file that costs a score of writes per sale, in memory next to nothing.
                try db.execute(sql: "PRAGMA temp_store = MEMORY")
            }
        }
        do {
            switch location {
            case .file(let path):
                let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                writer = try DatabasePool(path: path, configuration: configuration)
            case .inMemory:
                writer = try DatabaseQueue(configuration: configuration)
            }
            groupCommit = GroupCommit(writer: writer)
            try Self.refuseNewerRelease(writer, at: location)
            if let willUpgrade,
                try writer.read({ db in
                    try db.tableExists("sale") && !Schema.migrator.hasCompletedMigrations(db)
                })
            {
                willUpgrade()
            }
            try Schema.migrator.migrate(writer)
            let revision = try writer.write { db -> Int64 in
                if try Int64.fetchOne(db, sql: "SELECT revision FROM book") == nil {
                    try Self.insertBook(db, defaultSettings)
                }
                return try Int64.fetchOne(db, sql: "SELECT revision FROM book") ?? 0
            }
            knownRevision.withLock { $0 = revision }
            try Self.markRelease(writer)
            writer.add(transactionObserver: saleContexts, extent: .observerLifetime)
        } catch let error as DatabaseError {
            throw StoreError.storage(
                "could not open the database at \(location): \(error.message ?? "SQLite error \(error.resultCode)")"
            )
        }
    }

    /// The release as the book's header keeps it (`PRAGMA user_version`): "2026.12.03" is 20261203.
    static let releaseNumber = Int(CommissionRelease.version.replacingOccurrences(of: ".", with: "")) ?? 0

    /// A book written by a newer release — a migration this one does not know — is refused before
    /// anything is written to it, naming the release it needs (the newest that wrote it, from its
    /// header), so that a binary rolled back never alters a book of a later schema.
    static func refuseNewerRelease(_ writer: any DatabaseWriter, at location: Location) throws {
        let (superseded, written) = try writer.read { db in
            (try Schema.migrator.hasBeenSuperseded(db), try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0)
        }
        guard superseded else { return }
        let digits = String(written)
        let release =
            written > releaseNumber && digits.count == 8
            ? "Commission \(digits.prefix(4)).\(digits.dropFirst(4).prefix(2)).\(digits.suffix(2))"
            : "a newer Commission"
        throw StoreError.invalid(
            field: "book",
            reason:
                "\(location.said) was written by \(release), newer than this release (\(CommissionRelease.version)): open it with that release or a later one. Nothing was changed."
        )
    }

    /// The newest release that opened the book, in its header (never lowered): what an older
    /// release names when it refuses the book.
    static func markRelease(_ writer: any DatabaseWriter) throws {
        try writer.write { db in
            if try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 < releaseNumber {
                try db.execute(sql: "PRAGMA user_version = \(releaseNumber)")
            }
        }
    }

    deinit {
        watcher.withLock { $0?.cancel() }
        broadcaster.finish()
    }

    /// USD, the system's time zone, and the default rounding.
    public static var systemDefaultSettings: BookSettings {
        BookSettings(currency: .usd, timeZoneIdentifier: TimeZone.current.identifier)
    }

    /// Where the CLI and the server keep the book unless told otherwise:
    /// `$COMMISSION_DB`, else `$XDG_DATA_HOME/commission/commission.sqlite`, else
    /// `~/.local/share/commission/commission.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["COMMISSION_DB"], !path.isEmpty { return path }
        let base: String
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty, xdg.hasPrefix("/") {
            base = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = home + "/.local/share"
        }
        return base + "/commission/commission.sqlite"
    }

    private static func insertBook(_ db: Database, _ settings: BookSettings) throws {
        try db.execute(
            sql: """
                INSERT INTO book (id, currencyCode, currencyMinorDigits, timeZone, roundingRule, roundingScope, locale, epoch)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                settings.currency.code, settings.currency.minorDigits, settings.timeZoneIdentifier,
                settings.rounding.rule.rawValue, settings.rounding.scope.rawValue, settings.localeIdentifier,
                newEpoch(),
            ]
        )
    }

    /// A book's history (`BookChanges`): a new one for a new book and for every restore.
    static func newEpoch() -> String {
        UUID().uuidString.lowercased()
    }

    // MARK: Running reads and writes

    /// Runs `body` in one write transaction, then announces the change. Database errors become
    /// ``StoreError/storage(_:)``; any error rolls back all that `body` wrote.
    /// With `bump: false` (accounts and sessions) other processes are not told: no book figure changed.
    ///
    /// Writes that come while the writer is busy share its next transaction, each in a savepoint
    /// of its own (``GroupCommit``): to each caller it is as if it had had the transaction alone.
    func write<T: Sendable>(
        _ tables: Set<StoreTable>,
        bump: Bool = true,
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        // Settings, accounts and tokens may change: what was cached of them is dropped, before and
        // after, so that no read in between caches the old value for good.
        let touchesCaches = tables.contains(.book) || !bump
        if touchesCaches { caches.withLock { $0.clear() } }
        // The writer runs `body` on a thread of its own: the caller's audit actor goes along.
        let actor = Audit.actor
        // A request's idempotency key is spent by its first write of the book, in the same transaction.
        let claim = bump ? IdempotencyClaim.pending : nil
        let value = try await StoreTiming.measure(.write) {
            try await mapErrors { try await commit(bump: bump, claim: claim, actor: actor, body) }
        }
        claim?.markCommitted()
        if touchesCaches { caches.withLock { $0.clear() } }
        broadcaster.send(tables)
        return value
    }

    /// Runs `body` in the next transaction of ``groupCommit``, with the request's idempotency claim
    /// and its audit actor; a write of the book settles its period figures in its savepoint and
    /// moves the book's revision once for the transaction.
    private func commit<T: Sendable>(
        bump: Bool,
        claim: IdempotencyClaim?,
        actor: String,
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        let value = Slot<T>()
        let run: @Sendable (Database) throws -> Void = { db in
            if let claim { try Self.insert(claim, db) }
            let written = try Audit.$actor.withValue(actor) { try body(db) }
            if bump { try Self.settlePeriodFigures(db) }
            value.set(written)
        }
        var finish: (@Sendable (Database) throws -> Void)?
        if bump { finish = { @Sendable [self] db in try bumpRevision(db) } }
        if let error = await groupCommit.write(run, finish: finish) { throw error }
        guard let written = value.value else { preconditionFailure("a write that stood kept no value") }
        return written
    }

    /// How many of the book's writes wait for the writer (the tests of group commit hold the
    /// writer until they all came).
    package var writesWaiting: Int { groupCommit.waitingCount }

    /// Runs `body` in one write transaction on what is the server's bookkeeping, not the book's
    /// (kept answers of idempotency keys, sign-in counts, the server's secrets): no figure changes,
    /// nobody is told, and no cache holds it, so none is dropped.
    func writeAside<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await StoreTiming.measure(.write) { try await mapErrors { try await writer.write(body) } }
    }

    /// Keeps the book's settings and the API tokens in memory, for a server that reads them on
    /// every request: each read saved is a hop to a database thread and back.
    ///
    /// This process's own changes drop the caches at once; for a file database, a watcher polls
    /// SQLite's `data_version` four times a second and drops them whenever any connection of any
    /// process committed, so a change made by another process (a token revoked with the CLI) is
    /// seen within a quarter of a second.
    public func cacheHotReads() {
        // The watcher first: nothing is cached before it has its starting point — nor at all when
        // another process's writes cannot be watched (a token revoked from the command line would
        // be served from memory until the server restarts).
        guard startWatchingOtherProcesses() else { return }
        caches.withLock { $0.isOn = true }
    }

    /// Marks the transaction as this process's write. The new revision is known here before the
    /// commit makes it visible, so the watcher of other processes never mistakes it for theirs.
    /// (Run through SQLite's C API, ``FastStatement``, once a write transaction: no observer of this
    /// connection watches the revision.)
    func bumpRevision(_ db: Database) throws {
        // Two statements rather than `UPDATE … RETURNING`, whose rows SQLite keeps in a table of
        // their own, made and dropped each time: 3.2 µs against 5.4 a transaction.
        try FastStatement.execute(db.cachedStatement(sql: "UPDATE book SET revision = revision + 1")) { _ in }
        let revision = try FastStatement.int64(db.cachedStatement(sql: "SELECT revision FROM book")) ?? 0
        knownRevision.withLock { $0 = max($0, revision) }
    }

    /// Runs `body` in a read transaction (a snapshot: concurrent writes are not seen half-done).
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await StoreTiming.measure(.read) { try await mapErrors { try await writer.read(body) } }
    }

    func mapErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DatabaseError {
            throw Self.storeError(error)
        }
    }

    static func storeError(_ error: DatabaseError) -> StoreError {
        if error.message?.contains("integer overflow") == true || error.message?.contains("typeof") == true {
            return .invalid(field: "amount", reason: MoneyError.overflow("total").description)
        }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .storage("the database is busy with another writer; try again")
        case .SQLITE_READONLY:
            return .storage("the database file is read-only")
        case .SQLITE_FULL:
            return .storage("the disk is full")
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return .storage("the file is not a healthy Commission database")
        default:
            return .storage("SQLite error \(error.resultCode.rawValue)")
        }
    }

    // MARK: Changes

    public func changes() -> StoreChanges {
        _ = startWatchingOtherProcesses()  // without it, this process's own writes are still told
        return broadcaster.stream()
    }

    /// For a file database, polls SQLite's `data_version` on a connection of its own, four times a
    /// second, while anyone listens: a write by another process (the CLI while a server runs)
    /// reaches this process's live queries too. Says whether other processes' writes are watched
    /// (always, for a database in memory: no other process reaches it).
    @discardableResult
    private func startWatchingOtherProcesses() -> Bool {
        guard case .file(let path) = location else { return true }
        return watcher.withLock { watcher in
            guard watcher == nil else { return true }
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(1)
            // try?: a file the probe cannot open is said by the answer (false): nothing is then cached
            guard let probe = try? DatabaseQueue(path: path, configuration: configuration) else { return false }
            // Its starting point is read now, not when its task first runs: on a busy machine that
            // may be seconds later, and a change another process made meanwhile would never be seen
            // (a revoked token served from memory for good). Unread (the file busy), none matches:
            // its first look drops the caches.
            // try?: unread (the file busy), -1 matches no version: the first look drops the caches
            let first = (try? probe.read { try Int.fetchOne($0, sql: "PRAGMA data_version") ?? -1 }) ?? -1
            watcher = Task.detached(priority: .utility) { [weak self] in
                var lastVersion = first
                while !Task.isCancelled {
                    // try?: Task.sleep throws only when cancelled, which the loop's condition checks
                    try? await Task.sleep(for: .milliseconds(250))
                    guard let self else { return }
                    let isCaching = self.caches.withLock { $0.isOn }
                    guard self.broadcaster.listenerCount > 0 || isCaching else { continue }
                    guard
                        // try?: a busy or failed poll; the next one, a quarter of a second later, tries again
                        let (version, revision) = try? await probe.read({ db in
                            (
                                try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0,
                                try Int64.fetchOne(db, sql: "SELECT revision FROM book") ?? 0
                            )
                        })
                    else { continue }
                    guard version != lastVersion else { continue }
                    lastVersion = version
                    if isCaching { self.caches.withLock { $0.clear() } }
                    let isNew = self.knownRevision.withLock { known in
                        defer { known = max(known, revision) }
                        return revision > known
                    }
                    if isNew { self.broadcaster.send(Set(StoreTable.allCases)) }
                }
            }
            return true
        }
    }
}
