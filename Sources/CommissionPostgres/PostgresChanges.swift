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
        var listener: Task<Void, Never>?
        var isStarting = false
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
            defer { state.listener = nil; state.broadcasters = [:] }
            return (state.listener, Array(state.broadcasters.values))
        }
        listener?.cancel()
        for broadcaster in broadcasters { broadcaster.finish() }
    }

    /// The changes committed to `book` by any instance from now on (once ``start()`` has returned).
    func stream(book: Int64) -> StoreChanges {
        state.withLock { state in
            let broadcaster = state.broadcasters[book] ?? ChangeBroadcaster()
            state.broadcasters[book] = broadcaster
            return broadcaster.stream()
        }
    }

    /// Starts the listening connection, unless it runs already; returns once it listens.
    func start() async throws {
        let isFirst = state.withLock { state in
            defer { state.isStarting = true }
            return !state.isStarting
        }
        guard isFirst else { return }
        do {
            try await startListening()
        } catch {
            state.withLock { $0.isStarting = false }
            throw error
        }
    }

    /// Announces a change of `book` when the transaction `connection` is in commits.
    /// Also takes `lock`, in the same statement.
    static func notify(_ connection: PostgresConnection, book: Int64, tables: Set<StoreTable>, taking lock: PostgresBookDatabase.AdvisoryLock? = nil,
                       logger: Logger) async throws {
        let payload = ([String(book)] + tables.map(\.rawValue).sorted()).joined(separator: " ")
        switch (lock, tables.isEmpty) {
        case (nil, true): return
        case (nil, false): try await connection.query("SELECT pg_notify(\(channel), \(payload))", logger: logger)
        case (let lock?, true): try await connection.query("SELECT \(unescaped: lock.sql)", logger: logger)
        case (let lock?, false): try await connection.query("SELECT \(unescaped: lock.sql), pg_notify(\(channel), \(payload))", logger: logger)
        }
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
                            if announced {
                                if let since = lostSince {
                                    logger.notice("Listening for changes again after \(PostgresBookDatabase.seconds(.now - since)).")
                                    lostSince = nil
                                }
                                self?.sendToAll(Set(StoreTable.allCases))
                            } else {
                                announced = true
                                ready.continuation.yield(nil)
                            }
                            for try await notification in notifications {
                                guard let (book, tables) = Self.parse(notification.payload) else { continue }
                                self?.send(tables, to: book)
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
                        logger.warning("Listening for changes was lost; trying again every second.", metadata: ["error": "\(String(reflecting: error))"])
                        self?.finishAll()
                    }
                    try? await Task.sleep(for: .seconds(1))
                }
            }
        }
        state.withLock { $0.listener = task }
        var iterator = ready.stream.makeAsyncIterator()
        if let failure = await iterator.next() ?? nil {
            state.withLock { $0.listener = nil }
            throw failure
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
