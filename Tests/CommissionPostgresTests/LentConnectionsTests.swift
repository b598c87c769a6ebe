import CommissionPostgres
import CommissionStore
import Logging
import PostgresNIO
import Testing

/// Work on a lent connection never outlives the connection: a query the connection lost as the
/// server dropped it (postgres-nio's write of it went nowhere) would otherwise hold its request,
/// and a server's graceful shutdown, for good.
@Suite(.serialized, .timeLimit(.minutes(10))) struct LentConnectionsTests {
    static let logger = Logger(label: "test")

    /// `body` on a new database of its own (dropped after).
    func onScratchDatabase(_ body: (PostgresBookDatabase) async throws -> Void) async throws {
        let scratch = try await ScratchDatabase.create()
        defer { Task { await scratch.drop() } }
        let database = try await PostgresBookDatabase(url: scratch.url)
        defer { database.shutdown() }
        try await body(database)
    }

    /// The server ends `connection`'s backend; returns once the connection has closed.
    static func closedByTheServer(_ connection: PostgresConnection) async throws {
        _ = try? await connection.query("SELECT pg_terminate_backend(pg_backend_pid())", logger: logger)
        try await connection.closeFuture.get()
    }

    /// The server ends the connection, then the work sends a query on it: postgres-nio hands the
    /// query to a channel already closed, and its answer never comes. The caller hears a storage
    /// error (a 503) about a second later instead of waiting for good, and the next work gets a
    /// connection that answers.
    @Test func aQueryLostWithItsConnectionIsAbandoned() async throws {
        try await onScratchDatabase { database in
            let error = await #expect(throws: StoreError.self) {
                try await database.withConnection { connection in
                    try await Self.closedByTheServer(connection)
                    return try await connection.query("SELECT 1", logger: Self.logger).decode(Int.self).all()
                }
            }
            #expect(error.map { "\($0)" }?.contains("closed the connection") == true, "\(String(describing: error))")
            let answer = try await database.withConnection { connection in
                try await connection.query("SELECT 42", logger: Self.logger).decode(Int.self).all()
            }
            #expect(answer == [42])
        }
    }

    /// The archive's stream runs in its caller's task (its sink is not `Sendable`), its queries as
    /// steps: a query lost there is abandoned too, and so is the `ROLLBACK` sent after it.
    @Test func aQueryLostInATransactionInPlaceIsAbandoned() async throws {
        try await onScratchDatabase { database in
            var sent: [Int] = []
            let error = await #expect(throws: StoreError.self) {
                try await database.transactionInPlace(readOnly: true) { step in
                    sent.append(
                        try await step { connection in
                            try await connection.query("SELECT 1", logger: Self.logger).decode(Int.self).all()
                        }.count
                    )
                    try await step { connection in try await Self.closedByTheServer(connection) }
                    return try await step { connection in
                        try await connection.query("SELECT 2", logger: Self.logger).decode(Int.self).all()
                    }
                }
            }
            #expect(sent == [1])
            #expect(error.map { "\($0)" }?.contains("closed the connection") == true, "\(String(describing: error))")
        }
    }

    /// Work that ends by itself once its connection closed ends as it would have: with its own
    /// error, not the abandonment's.
    @Test func workThatEndsByItselfKeepsItsOwnOutcome() async throws {
        try await onScratchDatabase { database in
            struct Own: Error {}
            await #expect(throws: Own.self) {
                try await database.withConnection { connection in
                    try await Self.closedByTheServer(connection)
                    throw Own()
                }
            }
        }
    }

    /// The first result given is the one told, whether it comes before or after the wait.
    @Test func anOutcomeTellsItsFirstResult() async throws {
        let early = Outcome<Int>()
        #expect(early.finish(.success(1)))
        #expect(!early.abandon(StoreError.storage("late")))
        #expect(try await early.value() == 1)

        let late = Outcome<Int>()
        let told = Task { try await late.value() }
        try await Task.sleep(for: .milliseconds(50))
        #expect(late.abandon(StoreError.storage("first")))
        #expect(!late.finish(.success(2)))
        await #expect(throws: StoreError.self) { try await told.value }
    }
}
