import CommissionStore
import Logging
import PostgresNIO
import Synchronization

/// The work running on the pool's connections, so that none outlives its connection.
///
/// postgres-nio hands a query to its connection's channel without learning whether the channel
/// took it: a query sent in the instant the server drops the connection (PostgreSQL stopping, a
/// backend terminated) is lost, and whoever awaits its answer awaits it for good — a request that
/// never ends, and a server whose graceful shutdown waits for that request (seen in
/// `DatabaseOutageTests`: a connection lent as open and closed a moment later, its first query
/// never answered). So each piece of work runs in a task of its own, and when its connection closes,
/// work still running ``grace`` later is abandoned: its caller gets ``StoreError/storage(_:)`` (a
/// 503), and only the lost query's task is left waiting.
///
/// While the database is away (``refuse()``), work is refused and the connections known are
/// closed: a query on a connection to a server that vanished without a word may otherwise wait
/// for TCP's own time-out.
final class LentConnections: Sendable {
    private struct State {
        var connections: [ObjectIdentifier: Lent] = [:]
        var nextWork = 0
        var refusing = false
    }

    /// A connection and the work running on it now.
    private struct Lent {
        let connection: PostgresConnection
        var running: [Int: any Abandonable] = [:]
    }

    private let state = Mutex(State())
    /// How long work may go on after its connection closed: what the connection had received
    /// fails within it (postgres-nio fails every query it knew of when its channel closes).
    let grace = Duration.seconds(1)
    let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// Work counted as running on a connection (``admit(_:_:)``).
    private struct Admission {
        let key: ObjectIdentifier, number: Int
    }

    /// Runs `body` on `connection` (lent by the pool), unless the database is away; returns what it
    /// returns, or throws ``StoreError/storage(_:)`` when the connection closes under it and it does
    /// not end by itself.
    func run<T: Sendable>(
        on connection: PostgresConnection,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let outcome = Outcome<T>()
        let admission = try admit(connection, outcome)
        defer { finished(admission) }
        let running = outcome.given { try await body(connection) }
        return try await withTaskCancellationHandler {
            try await outcome.value()
        } onCancel: {
            running.cancel()
        }
    }

    /// Counts `work` as running on `connection`, unless the database is away.
    private func admit(_ connection: PostgresConnection, _ work: any Abandonable) throws -> Admission {
        let key = ObjectIdentifier(connection)
        let admitted: (number: Int, firstSeen: Bool)? = state.withLock { state in
            guard !state.refusing else { return nil }
            state.nextWork += 1
            let firstSeen = state.connections[key] == nil
            state.connections[key, default: Lent(connection: connection)].running[state.nextWork] = work
            return (state.nextWork, firstSeen)
        }
        guard let admitted else {
            // try?: closing a connection refused while the database is away; the refusal is thrown
            Task { try? await connection.close() }
            throw StoreError.unavailable("the database is away")
        }
        // Once per connection (its entry goes when it closes); a closed connection's future calls at once.
        if admitted.firstSeen { connection.closeFuture.whenComplete { [self] _ in closed(key) } }
        return Admission(key: key, number: admitted.number)
    }

    private func finished(_ admission: Admission) {
        state.withLock { _ = $0.connections[admission.key]?.running.removeValue(forKey: admission.number) }
    }

    /// Runs `body`, which uses `connection`, in the caller's own task (it cannot be abandoned; its
    /// queries, as steps, can: ``ConnectionSteps``): the connection is known while it runs, so that
    /// ``refuse()`` closes it.
    func holding<T>(_ connection: PostgresConnection, _ body: () async throws -> T) async throws -> T {
        let admission = try admit(connection, Held())
        defer { finished(admission) }
        return try await body()
    }

    /// The database does not answer: work is refused until ``accept()``, and every connection known
    /// is closed (what runs on one then ends, or is abandoned).
    func refuse() {
        let connections = state.withLock { state in
            state.refusing = true
            return state.connections.values.map(\.connection)
        }
        // Closed aside: a connection to a server that went away may not answer even that.
        // try?: closing aside: a connection to a server that went away may not answer even that
        for connection in connections { Task { try? await connection.close() } }
    }

    /// The database answers again: work is taken.
    func accept() {
        state.withLock { $0.refusing = false }
    }

    /// `key`'s connection closed: what still runs on it ``grace`` later is abandoned.
    private func closed(_ key: ObjectIdentifier) {
        guard let running = state.withLock({ $0.connections.removeValue(forKey: key)?.running.values }),
            !running.isEmpty
        else { return }
        Task { [grace, logger] in
            // try?: Task.sleep throws only when cancelled, and this task never is
            try? await Task.sleep(for: grace)
            let abandoned = running.filter {
                $0.abandon(StoreError.unavailable("the database closed the connection"))
            }.count
            if abandoned > 0 {
                logger.warning(
                    "A query on a connection the database closed was never answered: its request was answered 503 without it.",
                    metadata: ["abandoned": "\(abandoned)"]
                )
            }
        }
    }
}

/// A connection held by work in its caller's own task
/// (``PostgresBookDatabase/transactionInPlace(readOnly:_:)``), whose queries run as steps: each in
/// a task of its own, abandoned when the connection closes under it (``LentConnections/run(on:_:)``).
package struct ConnectionSteps: Sendable {
    let connection: PostgresConnection
    let lent: LentConnections

    /// Runs `body`, one step of the work, on the connection.
    package func callAsFunction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await lent.run(on: connection, body)
    }
}

/// Work in the caller's own task, which cannot be ended from outside.
private struct Held: Abandonable {
    func abandon(_ error: any Error) -> Bool { false }
}

/// Work that can be ended from outside, with an error, if it has not ended.
protocol Abandonable: Sendable {
    /// Ends the work with `error`; whether it was still running.
    func abandon(_ error: any Error) -> Bool
}

/// The first of the results given, told to whoever awaits ``value()`` (before or after it is given).
package final class Outcome<T: Sendable>: Abandonable, Sendable {
    private enum State {
        case pending(CheckedContinuation<T, any Error>?)
        case given(Result<T, any Error>)
    }

    private let state = Mutex(State.pending(nil))

    package init() {}

    /// Gives `result`, unless a result was given before; whether it was the first.
    @discardableResult
    package func finish(_ result: Result<T, any Error>) -> Bool {
        let (first, waiting): (Bool, CheckedContinuation<T, any Error>?) = state.withLock { state in
            guard case .pending(let waiting) = state else { return (false, nil) }
            state = .given(result)
            return (true, waiting)
        }
        waiting?.resume(with: result)
        return first
    }

    package func abandon(_ error: any Error) -> Bool {
        finish(.failure(error))
    }

    /// Runs `body` in a task of its own, whose end gives its result (unless one was given first).
    func given(by body: @escaping @Sendable () async throws -> T) -> Task<Void, Never> {
        Task {
            do { finish(.success(try await body())) } catch { finish(.failure(error)) }
        }
    }

    /// The first result given (awaited once).
    package func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let given: Result<T, any Error>? = state.withLock { state in
                switch state {
                case .given(let result): return result
                case .pending:
                    state = .pending(continuation)
                    return nil
                }
            }
            if let given { continuation.resume(with: given) }
        }
    }
}
