import CommissionStore
import Foundation
import Logging
import Metrics
import NIOSSL
import PostgresNIO
import Synchronization

/// A connection pool to one PostgreSQL database, running for as long as this value lives, with the
/// Commission schema migrated.
///
/// ```swift
/// let database = try await PostgresBookDatabase(url: "postgres://commission@127.0.0.1/commission")
/// defer { database.shutdown() }
/// ```
public final class PostgresBookDatabase: Sendable {
    let logger: Logger
    /// What the URL names: its hosts (a primary and its standbys), and what is wanted of them.
    private let target: Target
    private let pool: Mutex<Pool>
    /// How many times another host took over as the primary; also the process's metric
    /// `commission_database_failovers_total`.
    private let failoverCount = Mutex(0)
    /// Labelled with the database (`database="main"`, or a further database's name): one failover
    /// is one takeover of one database, counted once.
    private let failoverCounter: Counter
    package let changeFeed: PostgresChanges
    private let watcher = Mutex<Task<Void, Never>?>(nil)
    /// The work running on the pool's connections (see ``withConnection(_:)``).
    private let lent: LentConnections

    /// The connection pool in use, the host it connects to, and whether the database is away.
    private struct Pool {
        var client: PostgresClient
        var running: Task<Void, Never>
        var host: Host
        var isAway = false
        /// Set by ``shutdown()``: no pool starts after it.
        var isShutDown = false
        /// Whether why no host is the primary was said in this outage.
        var saidWhy = false
        /// Since when it is away, and how many requests were refused meanwhile: said once, at the end.
        /// Counted from the first request refused: one whose connection died under it before the
        /// watcher saw the database go (a primary killed), then each refused at once while away.
        var awaySince: ContinuousClock.Instant?
        var refused = 0
        /// The first request refused since the database last answered the watcher, and how many:
        /// an outage that has begun before the watcher sees it (cleared when the watcher is answered).
        var firstRefusal: ContinuousClock.Instant?
        var refusedBefore = 0
    }

    /// The connection pool in use now (a new one once the database is back after going away).
    public var client: PostgresClient { pool.withLock { $0.client } }

    /// The host the pool connects to (`HOST:PORT`): of several, the one that answered as the primary.
    public var primary: String { pool.withLock { $0.host.description } }

    /// Of several hosts, which the pool connects to, by its place in the URL (`host 2 of 2`), for
    /// a readiness probe that must not tell the database's address; nil with one host.
    public var primaryPosition: String? {
        guard target.hosts.count > 1, let index = target.hosts.firstIndex(of: pool.withLock({ $0.host })) else {
            return nil
        }
        return "host \(index + 1) of \(target.hosts.count)"
    }

    /// How many times another host of the URL took over as the primary (a standby promoted).
    public var failovers: Int { failoverCount.withLock { $0 } }

    /// How often the watcher asks the database whether it answers, and how long an answer may take.
    static let heartbeat = Duration.milliseconds(500), heartbeatTimeout = Duration.seconds(2)

    /// Connects to the database `url` names and applies the migrations it lacks.
    ///
    /// `url` is `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, optionally with
    /// `?sslmode=require` (TLS, the server's certificate verified) or `?sslmode=prefer`. Several
    /// hosts, in libpq's form (`postgres://USER@HOST1:5432,HOST2:5433/DATABASE`), are a primary and
    /// its standbys: the pool connects to the first that answers as the primary (its
    /// `transaction_read_only` off — `target_session_attrs=read-write`, the default with several
    /// hosts; `any` takes the first that answers), and when it goes away, or is no longer the
    /// primary, the watcher tries the list again until one is (a standby promoted: a failover,
    /// counted in ``failovers`` and logged).
    ///
    /// A watcher asks the database every half second whether it answers, on a connection of its
    /// own. When it does not, every request fails at once with ``StoreError/storage(_:)`` (a server
    /// answers 503 with `Retry-After`) instead of waiting for the pool, whose waiting requests fail
    /// too; once it answers again, a new pool takes over within a second — postgres-nio's own pool
    /// would back off for up to a minute, and fail every request for 20–30 s after the database's
    /// return — and the change feed listens again on it (it tries every second).
    /// - Throws: ``StoreError/invalid(field:reason:)`` for a URL it cannot use, ``StoreError/storage(_:)``
    ///   when the server cannot be reached or a migration fails.
    public init(url: String, logger: Logger = Logger(label: "commission.postgres")) async throws {
        target = try Self.target(url)
        let host: Host, timeline: Int64
        if target.hosts.count == 1 && !target.readWrite {
            (host, timeline) = (target.hosts[0], 0)
        } else {
            switch await Self.primary(of: target, logger: logger) {
            case .success(let found):
                (host, timeline) = (found.host, found.timeline)
                // try?: the probe's connection, done with: the pool makes its own
                try? await found.connection.close()
            case .failure(let none):
                throw StoreError.unavailable("no host of \(Self.redacted(url)) answers as the primary (\(none))")
            }
        }
        let client = PostgresClient(configuration: try Self.configuration(target, host: host), backgroundLogger: logger)
        self.logger = logger
        failoverCounter = Counter(
            label: "commission_database_failovers_total",
            dimensions: [("database", logger[metadataKey: "database"].map { "\($0)" } ?? PostgresBooks.mainName)]
        )
        lent = LentConnections(logger: logger)
        pool = Mutex(Pool(client: client, running: Self.run(client), host: host))
        changeFeed = PostgresChanges(logger: logger)
        do {
            try await PostgresSchema.migrate(client, logger: logger)
        } catch {
            pool.withLock { $0.running.cancel() }
            throw Self.storeError(error, doing: "migrate the database at \(Self.redacted(url))")
        }
        changeFeed.clients = { [weak self] in try self?.available() }
        watcher.withLock { $0 = watch(from: host, timeline: timeline) }
    }

    /// A host taken: a connection to it, left open, and its timeline (0 when any host will do).
    typealias Found = (host: Host, connection: PostgresConnection, timeline: Int64)

    /// Why no host was taken, host by host.
    struct NoPrimary: Error, CustomStringConvertible {
        var reasons: [String]
        var description: String { reasons.joined(separator: "; ") }
    }

    /// The host of `target` to take (all are asked but `skipped`): with `any`, the first that
    /// answers; else the one that answers as the primary on the newest timeline — never one of a
    /// timeline older than `timeline` (a former primary started again after a standby took over),
    /// and none when two answer as the primary on the same one (two primaries: the operator's to
    /// settle, not Commission's).
    private static func primary(
        of target: Target,
        skipping skipped: Host? = nil,
        timeline known: Int64 = 0,
        logger: Logger
    ) async -> Result<Found, NoPrimary> {
        var found: [Found] = [], reasons: [String] = []
        for host in target.hosts where host != skipped {
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: try connectionConfiguration(target, host: host),
                    id: 0,
                    logger: logger
                )
                do {
                    found.append((host, connection, try await ask(connection, target: target, logger: logger)))
                } catch {
                    // try?: closing on the way out with the probe's error, which is thrown
                    try? await connection.close()
                    throw error
                }
                if !target.readWrite { break }
            } catch {
                reasons.append("\(host): \(describe(error))")
            }
        }
        func taking(_ chosen: Found?) async -> Found? {
            // try?: closing the other hosts' probe connections, done with
            for other in found where other.host != chosen?.host { try? await other.connection.close() }
            return chosen
        }
        guard let newest = found.map(\.timeline).max() else { return .failure(NoPrimary(reasons: reasons)) }
        let primaries = found.filter { $0.timeline == newest }
        if primaries.count > 1 {
            _ = await taking(nil)
            return .failure(
                NoPrimary(
                    reasons: reasons + [
                        "\(primaries.map(\.host.description).joined(separator: " and ")) all answer as the primary, on timeline \(newest): make one of them a standby"
                    ]
                )
            )
        }
        guard newest >= known else {
            _ = await taking(nil)
            return .failure(
                NoPrimary(
                    reasons: reasons + [
                        "\(primaries[0].host) answers as a primary of timeline \(newest), older than \(known) (a former primary started again?): rebuild it as a standby"
                    ]
                )
            )
        }
        return await taking(primaries[0]).map { .success($0) } ?? .failure(NoPrimary(reasons: reasons))
    }

    /// Asks a connection whether its server answers — and, when the primary is wanted, whether it
    /// is the primary (a standby, or a former primary back as one, is not), and on which timeline
    /// (a promotion starts a new one). 0 when any host will do.
    @discardableResult
    private static func ask(_ connection: PostgresConnection, target: Target, logger: Logger) async throws -> Int64 {
        try await within(heartbeatTimeout) {
            guard target.readWrite else {
                _ = try await connection.query("SELECT 1", logger: logger)
                return 0
            }
            let readOnly = try await connection.query("SHOW transaction_read_only", logger: logger).decode(String.self)
                .all().first
            guard readOnly == "off" else { throw NotThePrimary() }
            let file =
                try await connection.query("SELECT pg_walfile_name(pg_current_wal_lsn())", logger: logger).decode(
                    String.self
                ).all().first ?? ""
            return Int64(file.prefix(8), radix: 16) ?? 0
        }
    }

    /// An error as a host's reason in a message: the server's own sentence when it has one.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            return "\(error.code)"
        }
        return "\(error)"
    }

    /// A host that answers, read-only: a standby.
    struct NotThePrimary: Error, CustomStringConvertible {
        var description: String { "it answers as a standby (read-only), not as the primary" }
    }

    deinit {
        shutdown()
    }

    /// Runs `body` on a connection of the pool, when the database answers (else
    /// ``StoreError/storage(_:)`` at once). `body` never outlives its connection (see
    /// ``LentConnections``): when the database goes away the connection is closed, and when it
    /// closes, a query waiting on it fails (into a 503) instead of waiting for good.
    package func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await counting {
            try await available().withConnection { [lent] connection in
                try await lent.run(on: connection, body)
            }
        }
    }

    /// `body`, a request's work on the database: when it fails because the database went away (its
    /// connection lost, the pool stopped), the refusal counts in the outage the log tells.
    private func counting<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            if Self.isLostConnection(Self.cause(of: error)) { refusedOnALostConnection() }
            throw error
        }
    }

    /// A request failed on a connection the database dropped: while away it is one more refused;
    /// before the watcher sees it go, the outage's first (or one more of its first).
    private func refusedOnALostConnection() {
        pool.withLock { pool in
            if pool.isAway {
                pool.refused += 1
            } else {
                pool.firstRefusal = pool.firstRefusal ?? .now
                pool.refusedBefore += 1
            }
        }
    }

    /// Runs `body` in one transaction (``withConnection(_:)``); a `readOnly` one reads one snapshot
    /// (repeatable read), begun by one statement.
    func transaction<T: Sendable>(
        readOnly: Bool = false,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await withConnection { [logger] connection in
            try await Self.transaction(
                readOnly: readOnly,
                { _ = try await connection.query(PostgresQuery(unsafeSQL: $0), logger: logger) }
            ) {
                try await body(connection)
            }
        }
    }

    /// ``transaction(readOnly:_:)`` whose failure is said as a ``StoreError`` of `doing` (what
    /// it could not do).
    @discardableResult
    func run<T: Sendable>(
        _ doing: String,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        do {
            return try await transaction(body)
        } catch {
            throw Self.storeError(error, doing: doing)
        }
    }

    /// Runs `body` in one transaction on a connection of the pool, in the caller's own task: for
    /// work that cannot be handed to a task of its own — the archive streamed to a sink that is not
    /// `Sendable` (a download, a backup, a migration). Its queries are steps, each in a task of its
    /// own (``ConnectionSteps``), and are abandoned as ``transaction(readOnly:_:)``'s body is when
    /// the connection closes under them; what `body` does between them (sending to its sink) stays
    /// in place.
    package func transactionInPlace<T: Sendable>(
        readOnly: Bool = false,
        _ body: (ConnectionSteps) async throws -> T
    ) async throws -> T {
        try await counting { try await transactionInPlace(readOnly: readOnly, uncounted: body) }
    }

    private func transactionInPlace<T: Sendable>(
        readOnly: Bool,
        uncounted body: (ConnectionSteps) async throws -> T
    ) async throws -> T {
        try await available().withConnection { [lent, logger] connection in
            let step = ConnectionSteps(connection: connection, lent: lent)
            return try await lent.holding(connection) {
                try await Self.transaction(
                    readOnly: readOnly,
                    {
                        sql in try await step { _ = try await $0.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
                    }
                ) { try await body(step) }
            }
        }
    }

    /// `body` between `BEGIN` and `COMMIT` (`ROLLBACK` when it throws), each sent by `send`.
    private static func transaction<T: Sendable>(
        readOnly: Bool,
        _ send: (String) async throws -> Void,
        _ body: () async throws -> T
    ) async throws -> T {
        try await send(readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY" : "BEGIN")
        let result: T
        do {
            result = try await body()
        } catch {
            // try?: ROLLBACK fails only with the connection gone, which ends the transaction; the error is thrown
            try? await send("ROLLBACK")
            throw error
        }
        try await send("COMMIT")
        return result
    }

    /// The pool, when the database answers; else ``StoreError/storage(_:)`` at once.
    func available() throws -> PostgresClient {
        try pool.withLock { pool in
            guard !pool.isAway else {
                pool.refused += 1
                throw StoreError.unavailable("the database is away")
            }
            return pool.client
        }
    }

    /// Whether the watcher last found the database away.
    public var isAway: Bool { pool.withLock { $0.isAway } }

    /// Asks the database whether it answers, every ``heartbeat``, on a connection of its own. A
    /// question left unanswered (a connection to a server that went away may hang rather than
    /// fail) is asked again on a new connection before the database is taken for away, so that a
    /// slow moment of a busy machine is not taken for one. With several hosts, one that does not
    /// answer as the primary sends it to the others: the first that does takes over.
    private func watch(from first: Host, timeline: Int64) -> Task<Void, Never> {
        Task { [weak self, logger, target] in
            var connection: PostgresConnection?
            var host = first
            // The newest timeline taken: a host of an older one is never taken again.
            var timeline = timeline
            var id = 0
            func connect() async throws -> PostgresConnection {
                id += 1
                let made = try await PostgresConnection.connect(
                    configuration: try Self.connectionConfiguration(target, host: host),
                    id: id,
                    logger: logger
                )
                connection = made
                return made
            }
            func drop() {
                // Closed aside: a connection to a server that went away may not answer even that.
                // try?: closing a lost connection aside; the server may not answer even that
                if let lost = connection { Task { try? await lost.close() } }
                connection = nil
            }
            func ask(_ asked: PostgresConnection) async throws {
                timeline = max(timeline, try await Self.ask(asked, target: target, logger: logger))
            }
            while !Task.isCancelled {
                do {
                    do {
                        if let open = connection { try await ask(open) } else { try await ask(try await connect()) }
                    } catch {
                        drop()
                        try await ask(try await connect())
                    }
                    self?.answers(on: host)
                    // try?: Task.sleep throws only when cancelled, which the loop's condition checks
                    try? await Task.sleep(for: Self.heartbeat)
                } catch {
                    drop()
                    if Task.isCancelled { break }
                    // Requests are refused at once, while another host is looked for.
                    self?.wentAway(error)
                    // Another host may be the primary now (a standby promoted).
                    if target.hosts.count > 1 {
                        switch await Self.primary(of: target, skipping: host, timeline: timeline, logger: logger) {
                        case .success(let found) where !Task.isCancelled:
                            (host, connection, timeline) = (found.host, found.connection, found.timeline)
                            self?.answers(on: host)
                            continue
                        case .success(let found):
                            try? await found.connection.close()  // shut down meanwhile
                        case .failure(let none):
                            self?.noPrimary(none)
                        }
                    }
                    // try?: Task.sleep throws only when cancelled, which the loop's condition checks
                    try? await Task.sleep(for: .milliseconds(250))
                }
            }
            drop()
        }
    }

    /// The database does not answer: the pool stops (what waits in it fails at once), and every
    /// request fails at once until it answers again.
    private func wentAway(_ error: any Error) {
        guard stopPool() else { return }
        // Said once: the requests refused meanwhile are counted, not each logged.
        logger.error(
            "The database does not answer: requests are refused (503) until it does.",
            metadata: ["error": "\(String(reflecting: error))"]
        )
    }

    /// No host answers as the primary: why, said once an outage (two primaries, or only a former
    /// one, is for the operator to settle; a host that does not answer is the outage itself).
    private func noPrimary(_ none: NoPrimary) {
        let first = pool.withLock { pool in
            defer { pool.saidWhy = true }
            return !pool.saidWhy
        }
        if first { logger.error("No host of the database answers as the primary: \(none).") }
    }

    /// Takes the database for away and stops its pool; false when it was away already.
    private func stopPool() -> Bool {
        let stopped: Task<Void, Never>? = pool.withLock { pool in
            guard !pool.isAway else { return nil }
            pool.isAway = true
            // From the first request refused, when requests failed before the watcher saw it.
            pool.awaySince = pool.firstRefusal ?? .now
            pool.refused = pool.refusedBefore
            (pool.firstRefusal, pool.refusedBefore) = (nil, 0)
            return pool.running
        }
        guard let stopped else { return false }
        stopped.cancel()
        // What runs on a connection the server dropped may never hear of it: closed, it fails.
        lent.refuse()
        return true
    }

    /// Runs `client`'s pool until the task is cancelled. Started at once (`Task.immediate`), so that
    /// the pool knows it runs before the first lease: postgres-nio would otherwise warn that `run()`
    /// has not been called yet on every start.
    private static func run(_ client: PostgresClient) -> Task<Void, Never> {
        Task.immediate { await client.run() }
    }

    /// The database answers on `host`: after an absence, or when another host took over as the
    /// primary, a new pool takes over.
    private func answers(on host: Host) {
        let (wasAway, previous) = pool.withLock { pool in
            // Answered as before: what failed since was a moment, not an outage.
            if !pool.isAway && pool.host == host { (pool.firstRefusal, pool.refusedBefore) = (nil, 0) }
            return (pool.isAway, pool.host)
        }
        guard wasAway || previous != host else { return }
        // The old pool stops first: what runs on it fails into a 503, as when the database goes away.
        if !wasAway { _ = stopPool() }
        // try?: it throws nothing today, and it made this target's configuration at start
        guard let configuration = try? Self.configuration(target, host: host) else { return }
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let running = Self.run(client)
        lent.accept()
        let taken: (since: ContinuousClock.Instant?, refused: Int)? = pool.withLock { pool in
            guard !pool.isShutDown else { return nil }
            defer { pool = Pool(client: client, running: running, host: host) }
            return (pool.awaySince, pool.refused)
        }
        guard let (since, refused) = taken else {
            running.cancel()  // shut down meanwhile: no pool outlives it
            return
        }
        let away = since.map { ContinuousClock.now - $0 } ?? .zero
        if previous != host {
            failoverCount.withLock { $0 += 1 }
            failoverCounter.increment()
            logger.notice(
                "The database's primary is now \(host) (it was \(previous)), after \(Self.seconds(away)); \(refused) request\(refused == 1 ? " was" : "s were") refused (503) meanwhile.",
                metadata: [
                    "primary": "\(host)", "previous": "\(previous)",
                    "awaySeconds": "\(Self.seconds(away, unit: false))", "refused": "\(refused)",
                ]
            )
            return
        }
        logger.notice(
            "The database answers again after \(Self.seconds(away)) away; \(refused) request\(refused == 1 ? " was" : "s were") refused (503) meanwhile.",
            metadata: ["awaySeconds": "\(Self.seconds(away, unit: false))", "refused": "\(refused)"]
        )
    }

    /// A length of time for the log: "12.3 s" (or "12.3" without its unit).
    static func seconds(_ duration: Duration, unit: Bool = true) -> String {
        let tenths = duration.components.seconds * 10 + duration.components.attoseconds / 100_000_000_000_000_000
        return "\(tenths / 10).\(tenths % 10)" + (unit ? " s" : "")
    }

    /// Runs `body`, or throws when it takes longer than `limit` — then without waiting for it:
    /// a query on a connection whose server went away may never end.
    @discardableResult
    static func within<T: Sendable>(
        _ limit: Duration,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let outcome = Outcome<T>()
        let work = outcome.given(by: body)
        Task {
            // try?: Task.sleep throws only when cancelled, and this timer's task never is
            try? await Task.sleep(for: limit)
            work.cancel()
            outcome.finish(.failure(StoreError.storage("the database did not answer within \(limit)")))
        }
        return try await outcome.value()
    }

    /// An advisory lock a transaction takes until it ends: `space` and `id`, its two keys; `shared`
    /// with other transactions taking it shared, or alone.
    public struct AdvisoryLock: Sendable {
        public var space: Int32, id: Int32, shared: Bool
        public init(space: Int32, id: Int32, shared: Bool = false) {
            self.space = space
            self.id = id
            self.shared = shared
        }

        /// The call that takes it, as SQL (its keys are numbers).
        public var sql: String {
            "\(shared ? "pg_advisory_xact_lock_shared" : "pg_advisory_xact_lock")(\(space), \(id))"
        }
    }

    /// Runs `body` in one transaction that writes to `book`: when the transaction commits every
    /// instance on the database learns which of its tables changed (LISTEN/NOTIFY). Nothing is
    /// announced when `body` throws: the transaction rolls back. The first statement takes `lock`
    /// and queues the announcement (PostgreSQL sends it on commit), so that what follows `body` is
    /// the commit alone.
    public func write<Result: Sendable>(
        book: Int64,
        tables: Set<StoreTable>,
        lock: AdvisoryLock? = nil,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        do {
            return try await transaction { [logger] connection in
                if let leaving = try await PostgresChanges.notify(
                    connection,
                    book: book,
                    tables: tables,
                    taking: lock,
                    logger: logger
                ) {
                    throw StoreError.unavailable(
                        "this book is moving to the database \"\(leaving)\"; its writes are taken again in a moment"
                    )
                }
                return try await body(connection)
            }
        } catch {
            throw Self.storeError(error, doing: "write")
        }
    }

    /// The changes committed to `book` by any instance on the database from now on.
    public func changes(book: Int64) async throws -> StoreChanges {
        try await startListening()
        return changeFeed.stream(book: book)
    }

    /// Opens the connection that listens for every instance's changes (once); returns when it listens.
    public func startListening() async throws {
        do {
            try await changeFeed.start()
        } catch {
            throw Self.storeError(error, doing: "listen for changes")
        }
    }

    /// The changes of `book` from now on, for a caller that has called ``startListening()``.
    func changeStream(book: Int64) -> StoreChanges {
        changeFeed.stream(book: book)
    }

    /// Closes every connection.
    public func shutdown() {
        watcher.withLock { $0?.cancel() }
        changeFeed.stop()
        pool.withLock { pool in
            pool.isShutDown = true
            pool.running.cancel()
        }
    }

    /// Creates a new, empty database named `prefix` and a random suffix on the server `serverURL`
    /// reaches, and returns its URL: a scratch database for a test or a trial.
    public static func createDatabase(prefix: String, onServer serverURL: String) async throws -> String {
        guard var components = URLComponents(string: serverURL) else {
            throw StoreError.invalid(field: "database URL", reason: "\(redacted(serverURL)) is not a URL.")
        }
        let name = "\(prefix)_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased())"
        guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw StoreError.invalid(
                field: "database name",
                reason: "\"\(name)\" is not made of letters, digits and underscores."
            )
        }
        let admin = PostgresClient(configuration: try configuration(serverURL))
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await admin.run() }
                defer { group.cancelAll() }
                try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
            }
        } catch {
            throw storeError(error, doing: "create the database \(name)")
        }
        components.path = "/\(name)"
        return components.string ?? serverURL
    }

    /// Drops the database `url` names (one ``createDatabase(prefix:onServer:)`` made), through the
    /// server `serverURL` reaches, closing its connections first.
    public static func dropDatabase(_ url: String, onServer serverURL: String) async throws {
        guard let name = URLComponents(string: url).map({ String($0.path.drop { $0 == "/" }) }),
            !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else {
            throw StoreError.invalid(
                field: "database URL",
                reason: "\(redacted(url)) names no database that can be dropped."
            )
        }
        let admin = PostgresClient(configuration: try configuration(serverURL))
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await admin.run() }
                defer { group.cancelAll() }
                try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"))
            }
        } catch {
            throw storeError(error, doing: "drop the database \(name)")
        }
    }

    /// What a `postgres://` URL names.
    package struct Target: Sendable {
        /// One host, or a primary and its standbys (libpq's list), tried in this order.
        package var hosts: [Host]
        package var user: String
        package var password: String?
        package var database: String
        package var tls: TLSMode
        /// Whether only the primary will do (`target_session_attrs=read-write`, the default with several hosts).
        package var readWrite: Bool
    }

    /// A host of the URL and its port.
    package struct Host: Hashable, Sendable, CustomStringConvertible {
        package var name: String
        package var port: Int
        package var description: String { name.contains(":") ? "[\(name)]:\(port)" : "\(name):\(port)" }
    }

    /// `sslmode=` of the URL (`verify-full` is `require`: the certificate is always verified).
    package enum TLSMode: String, Sendable { case disable, prefer, require }

    /// The list of hosts of a URL in libpq's form (`HOST1:5432,HOST2:5433`), and the URL with only
    /// the first (which Foundation's URL parser reads); nil for a URL of one host.
    static func hostList(_ url: String) -> (hosts: [String], single: String)? {
        guard let scheme = url.range(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        let authority = rest[..<(rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex)]
        let list = authority[
            (authority.lastIndex(of: "@").map { authority.index(after: $0) } ?? authority.startIndex)...
        ]
        let hosts = list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard hosts.count > 1 else { return nil }
        return (hosts, url.replacingCharacters(in: list.startIndex..<list.endIndex, with: hosts[0]))
    }

    package static func target(_ url: String) throws -> Target {
        func invalid(_ reason: String) -> StoreError {
            .invalid(
                field: "database URL",
                reason:
                    "\(redacted(url)) \(reason) Use postgres://USER[:PASSWORD]@HOST[:PORT][,HOST2[:PORT]…]/DATABASE."
            )
        }
        let list = hostList(url)
        guard let components = URLComponents(string: list?.single ?? url),
            ["postgres", "postgresql"].contains(components.scheme ?? "")
        else {
            throw invalid("is not a postgres:// URL.")
        }
        guard let host = components.host, !host.isEmpty else { throw invalid("names no host.") }
        guard let user = components.user, !user.isEmpty else { throw invalid("names no user.") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty else { throw invalid("names no database.") }
        let mode = components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "disable"
        guard let tls = TLSMode(rawValue: mode == "verify-full" ? "require" : mode) else {
            throw invalid("has sslmode=\(mode), which is not one of disable, prefer, require.")
        }
        /// A host as the pool takes it: an IPv6 address without its brackets, a port of 1–65535.
        func checked(_ name: String, _ port: Int?, _ text: String) throws -> Host {
            let bare = name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
            guard !bare.isEmpty, (1...65535).contains(port ?? 5432) else {
                throw invalid("names the host \"\(text)\", which is not HOST or HOST:PORT.")
            }
            return Host(name: bare, port: port ?? 5432)
        }
        var hosts = [try checked(host, components.port, host)]
        if let list {
            hosts = try list.hosts.map { text in
                guard let parsed = URLComponents(string: "postgres://\(text)"), let name = parsed.host else {
                    throw invalid("names the host \"\(text)\", which is not HOST or HOST:PORT.")
                }
                return try checked(name, parsed.port, text)
            }
        }
        let attributes =
            components.queryItems?.first(where: { $0.name == "target_session_attrs" })?.value
            ?? (hosts.count > 1 ? "read-write" : "any")
        guard ["read-write", "primary", "any"].contains(attributes) else {
            throw invalid("has target_session_attrs=\(attributes), which is not read-write, primary or any.")
        }
        return Target(
            hosts: hosts,
            user: user,
            password: components.password,
            database: database,
            tls: tls,
            readWrite: attributes != "any"
        )
    }

    /// The pool's configuration from a `postgres://` URL (its first host).
    package static func configuration(_ url: String) throws -> PostgresClient.Configuration {
        let target = try target(url)
        return try configuration(target, host: target.hosts[0])
    }

    /// The pool's configuration for one host of `target`.
    static func configuration(_ target: Target, host: Host) throws -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch target.tls {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
        var configuration = PostgresClient.Configuration(
            host: host.name,
            port: host.port,
            username: target.user,
            password: target.password,
            database: target.database,
            tls: tls
        )
        configuration.options.minimumConnections = 0
        configuration.options.maximumConnections = 10
        return configuration
    }

    /// The configuration of one connection to a host of `target` (the watcher's), quick to give up connecting.
    static func connectionConfiguration(_ target: Target, host: Host) throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        do {
            tls =
                switch target.tls {
                case .disable: .disable
                case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
                case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                }
        } catch {
            throw StoreError.invalid(field: "database URL", reason: "TLS cannot be set up: \(error)")
        }
        var configuration = PostgresConnection.Configuration(
            host: host.name,
            port: host.port,
            username: target.user,
            password: target.password,
            database: target.database,
            tls: tls
        )
        configuration.options.connectTimeout = .seconds(2)
        return configuration
    }

    /// The URL without its password, for messages and logs.
    public static func redacted(_ url: String) -> String {
        let list = hostList(url)
        guard var components = URLComponents(string: list?.single ?? url) else {
            // Not a URL Foundation reads (a password with a bare "/" or "@"): whatever stands
            // between the user's ":" and the last "@" is taken for the password.
            guard let scheme = url.range(of: "://"), let at = url.range(of: "@", options: .backwards),
                scheme.upperBound < at.lowerBound,
                let colon = url[scheme.upperBound..<at.lowerBound].firstIndex(of: ":")
            else { return url }
            return url.replacingCharacters(in: url.index(after: colon)..<at.lowerBound, with: "***")
        }
        guard components.password != nil else { return url }
        components.password = "***"
        guard var redacted = components.string else { return url }
        if let list, let first = redacted.range(of: "@" + list.hosts[0]) {
            redacted.replaceSubrange(first, with: "@" + list.hosts.joined(separator: ","))
        }
        return redacted
    }

    /// A database error as the store reports it: a generic sentence, the details in the log.
    /// Errors that are not the database's (a ``StoreError``, a domain error) pass through unchanged;
    /// a failed transaction reports what failed in it (what its body threw, first).
    /// What failed inside a transaction's error (its body, commit, begin or rollback), else `error`.
    static func cause(of error: any Error) -> any Error {
        guard let failed = error as? PostgresTransactionError,
            let inner = failed.closureError ?? failed.commitError ?? failed.beginError ?? failed.rollbackError
        else { return error }
        return cause(of: inner)
    }

    static func storeError(_ error: any Error, doing action: String) -> any Error {
        let error = cause(of: error)
        if !(error is PSQLError || error is PostgresTransactionError || isPoolError(error)) { return error }
        if isLostConnection(error) {
            return StoreError.unavailable("could not \(action): the connection to the database was lost")
        }
        let message = (error as? PSQLError)?.serverInfo?[.message] ?? "\(error)"
        return StoreError.storage("could not \(action): \(message)")
    }

    /// Whether `error` says the database went away rather than refused the work: a connection
    /// lost or refused, a pool stopped, a server shutting down or starting (SQLSTATE classes 08
    /// and 57P).
    static func isLostConnection(_ error: any Error) -> Bool {
        if isPoolError(error) { return true }
        guard let error = error as? PSQLError else { return false }
        if [.clientClosedConnection, .serverClosedConnection, .connectionError, .uncleanShutdown, .poolClosed].contains(
            error.code
        ) {
            return true
        }
        let state = error.serverInfo?[.sqlState] ?? ""
        return state.hasPrefix("08") || state.hasPrefix("57P")
    }
}
