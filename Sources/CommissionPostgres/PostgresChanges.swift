import CommissionStore
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Committed changes, announced to every instance on the database with LISTEN/NOTIFY.
///
/// A write sends `NOTIFY commission_changes, '<book id> <table> <table>…'` inside its transaction;
/// PostgreSQL delivers it at commit (never for a rolled-back transaction), to every listening
/// connection of every process. Each ``PostgresBookDatabase`` keeps one connection listening while
/// anyone observes a book, and hands each book's changes to that book's observers only.
package final class PostgresChanges: Sendable {
    static let channel = "commission_changes"

    private struct State {
        var broadcasters: [Int64: ChangeBroadcaster] = [:]
        /// Books moved away from this database (a stream of their changes here ends at once), until one comes back.
        var departed: Set<Int64> = []
        /// Those told of every book that moves (``moves()``).
        var movesTold: [UUID: AsyncStream<Int64?>.Continuation] = [:]
        var listener: Task<Void, Never>?
        /// The start of listening, awaited by every caller of ``start()`` until it ends (it is
        /// forgotten when it fails, so that the next caller tries again).
        var starting: Task<Void, any Error>?
        /// ``stop()`` was called: nothing starts listening again.
        var isStopped = false
        /// The listening connection has run `LISTEN` (and is not known to be lost since).
        var isListening = false
        var clients: @Sendable () throws -> PostgresClient? = { nil }
    }

    private let state = Mutex(State())
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// The database's pool in use now (it changes when the database comes back after going away).
    var clients: @Sendable () throws -> PostgresClient? {
        get { state.withLock { $0.clients } }
        set { state.withLock { $0.clients = newValue } }
    }

    deinit { stop() }

    /// Stops listening and ends every stream.
    func stop() {
        let (listener, broadcasters) = state.withLock { state in
            defer {
                state.listener = nil
                state.broadcasters = [:]
                state.isListening = false
                state.isStopped = true
                state.starting = nil
            }
            return (state.listener, Array(state.broadcasters.values))
        }
        listener?.cancel()
        for broadcaster in broadcasters { broadcaster.finish() }
        for continuation in state.withLock({ Array($0.movesTold.values) }) { continuation.finish() }
    }

    /// The changes committed to `book` by any instance from now on (once ``start()`` has returned).
    /// For a book that moved to another database, a stream that ends at once: its consumer opens
    /// another, through the book's new store.
    func stream(book: Int64) -> StoreChanges {
        state.withLock { state in
            let broadcaster = state.broadcasters[book] ?? ChangeBroadcaster()
            state.broadcasters[book] = broadcaster
            let stream = broadcaster.stream()
            if state.departed.contains(book) { broadcaster.finish() }
            return stream
        }
    }

    /// `book` is served from this database again (a store of it was opened here).
    func arrived(book: Int64) {
        state.withLock { _ = $0.departed.remove(book) }
    }

    /// Every book moved from now on (``announceMove(_:book:logger:)``, by any instance), as it is
    /// heard; nil when listening was lost and found again (any book may have moved meanwhile).
    func moves() -> AsyncStream<Int64?> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int64?.self)
        let id = UUID()
        state.withLock { $0.movesTold[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.movesTold.removeValue(forKey: id) }
        }
        return stream
    }

    static let movedWord = "moved"

    /// Tells every instance on the database, when the transaction commits, that `book` moved to
    /// another database: here its streams of changes end, and whoever follows moves drops its store.
    static func announceMove(_ connection: PostgresConnection, book: Int64, logger: Logger) async throws {
        try await connection.query("SELECT pg_notify(\(channel), \("\(book) \(movedWord)"))", logger: logger)
    }

    private func tellMovesAnyBook() {
        for continuation in state.withLock({ Array($0.movesTold.values) }) { continuation.yield(nil) }
    }

    private func moved(_ book: Int64) {
        let (broadcaster, told) = state.withLock { state in
            state.departed.insert(book)
            return (state.broadcasters[book], Array(state.movesTold.values))
        }
        broadcaster?.finish()
        for continuation in told { continuation.yield(book) }
    }

    /// Starts the listening connection, unless it runs already; returns once it listens — for
    /// every caller, those that come while another caller's start is under way too (a store opened
    /// then must not miss the changes committed right after it opened). Once started, it returns
    /// at once, also while a lost connection is being listened on again (every stream then ends,
    /// and every observer is told that anything may have changed when it listens again); after
    /// ``stop()`` it refuses.
    func start() async throws {
        let starting = try state.withLock { state in
            if state.isStopped { throw Self.closed }
            if let starting = state.starting { return starting }
            let starting = Task {
                do {
                    try await self.startListening()
                } catch {
                    // Forgotten at once, so that the next caller tries again.
                    self.state.withLock { $0.starting = nil }
                    throw error
                }
            }
            state.starting = starting
            return starting
        }
        // A caller cancelled meanwhile still waits for the start under way (a connection, or the
        // pool's failure): the start is everyone's, and ends either way.
        try await starting.value
    }

    static let closed = StoreError.unavailable("the database was closed before it could listen for changes")

    /// Whether the listening connection listens now (its `LISTEN` ran, and it is not known lost).
    package var isListening: Bool { state.withLock { $0.isListening } }

    /// Announces a change of `book` when the transaction `connection` is in commits.
    /// Also takes `lock`, in the same statement, and then reads where the book is leaving for
    /// (`book.leaving`: a move under way or done, ``PostgresBooks/move(book:to:settle:prove:)``).
    /// - Returns: the database the book is leaving for, or nil when it stays (or nothing was sent).
    @discardableResult
    static func notify(
        _ connection: PostgresConnection,
        book: Int64,
        tables: Set<StoreTable>,
        taking lock: PostgresBookDatabase.AdvisoryLock? = nil,
        logger: Logger
    ) async throws -> String? {
        let payload = ([String(book)] + tables.map(\.rawValue).sorted()).joined(separator: " ")
        // Read with a snapshot of its own (v15's VOLATILE function), not the statement's, taken
        // before the lock was waited for: a move that marked the book meanwhile is seen.
        let leaving = "commission_book_leaving(\(book))"
        let query: PostgresQuery
        switch (lock, tables.isEmpty) {
        case (nil, true): return nil
        case (nil, false): query = "SELECT pg_notify(\(channel), \(payload)), \(unescaped: leaving)"
        case (let lock?, true): query = "SELECT \(unescaped: lock.sql), \(unescaped: leaving)"
        case (let lock?, false):
            query = "SELECT \(unescaped: lock.sql), pg_notify(\(channel), \(payload)), \(unescaped: leaving)"
        }
        // The lock comes first in the select list, so the book's row is read once it is held: a
        // move that marked the book waited for the writes before it, and every write after it sees
        // the mark.
        let rows = try await connection.query(query, logger: logger)
        for try await row in rows {
            let columns = row.makeRandomAccess()
            return try columns[columns.count - 1].decode(String?.self)
        }
        return nil
    }

    /// `"3 sales terms"` → book 3, those tables; nil for anything else.
    package static func parse(_ payload: String) -> (book: Int64, tables: Set<StoreTable>)? {
        let words = payload.split(separator: " ")
        guard let first = words.first, let book = Int64(first) else { return nil }
        return (book, Set(words.dropFirst().compactMap { StoreTable(rawValue: String($0)) }))
    }

    private func startListening() async throws {
        let ready = AsyncStream.makeStream(of: (any Error)?.self)
        let task = Task { [logger, weak self] in
            // Ended however the task ends, so that a start never waits for a task that stopped
            // before listening (its pool gone, or cancelled at once).
            defer { ready.continuation.finish() }
            var announced = false
            // When listening was lost: said once then, and once when it listens again.
            var lostSince: ContinuousClock.Instant?
            // Listen until cancelled. A lost connection ends every stream of changes at once — a
            // stream is never left open on a feed that is gone: its consumer (a live page, a remote
            // store) opens another and reads afresh — and is listened on again every second (then
            // every observer is told that anything may have changed meanwhile).
            while !Task.isCancelled {
                do {
                    guard let client = try self?.clients() else { return }
                    try await client.withConnection { connection in
                        try await connection.listen(on: Self.channel) { notifications in
                            // Listening while this runs, however it ends (lost, or cancelled by a stop).
                            self?.state.withLock { $0.isListening = true }
                            defer { self?.state.withLock { $0.isListening = false } }
                            if announced {
                                if let since = lostSince {
                                    logger.notice(
                                        "Listening for changes again after \(PostgresBookDatabase.seconds(.now - since))."
                                    )
                                    lostSince = nil
                                }
                                self?.sendToAll(Set(StoreTable.allCases))
                                self?.tellMovesAnyBook()
                            } else {
                                announced = true
                                ready.continuation.yield(nil)
                            }
                            for try await notification in notifications {
                                guard let (book, tables) = Self.parse(notification.payload) else { continue }
                                if notification.payload.hasSuffix(" \(Self.movedWord)") {
                                    self?.moved(book)
                                } else {
                                    self?.send(tables, to: book)
                                }
                            }
                        }
                    }
                } catch {
                    if !announced {
                        ready.continuation.yield(error)
                        return
                    }
                    if lostSince == nil {
                        lostSince = .now
                        logger.warning(
                            "Listening for changes was lost; trying again every second.",
                            metadata: ["error": "\(String(reflecting: error))"]
                        )
                        self?.finishAll()
                    }
                    // try?: Task.sleep throws only when cancelled, which the loop's condition checks
                    try? await Task.sleep(for: .seconds(1))
                }
            }
        }
        // A stop that came first leaves nothing running after it.
        let isStopped = state.withLock { state in
            if !state.isStopped { state.listener = task }
            return state.isStopped
        }
        if isStopped {
            task.cancel()
            throw Self.closed
        }
        var iterator = ready.stream.makeAsyncIterator()
        switch await iterator.next() {
        case .some(nil):
            return
        case .some(let failure?):
            state.withLock { $0.listener = nil }
            throw failure
        case nil:
            // Stopped before it listened: the database was closed meanwhile.
            state.withLock { $0.listener = nil }
            throw Self.closed
        }
    }

    private func send(_ tables: Set<StoreTable>, to book: Int64) {
        state.withLock { $0.broadcasters[book] }?.send(tables)
    }

    /// Ends every stream of changes (their broadcasters stay, for the streams opened next).
    private func finishAll() {
        for broadcaster in state.withLock({ Array($0.broadcasters.values) }) { broadcaster.finish() }
    }

    private func sendToAll(_ tables: Set<StoreTable>) {
        for broadcaster in state.withLock({ Array($0.broadcasters.values) }) { broadcaster.send(tables) }
    }
}
