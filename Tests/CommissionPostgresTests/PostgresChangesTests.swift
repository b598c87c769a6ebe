import CommissionPostgres
import CommissionStore
import Foundation
import Logging
import PostgresNIO
import Testing

extension Trait where Self == TimeLimitTrait {
    /// The limit of a test that waits for something to happen: far beyond the whole suite's run on
    /// a busy machine, so that it fails a hang and never a slow moment.
    static var hangLimit: Self { .timeLimit(.minutes(10)) }
}

@Suite(.serialized) struct PostgresChangesTests {
    /// Two instances on one database stand for two servers behind a proxy.
    @Test("A commit on one instance reaches the other, and only for its book", .hangLimit)
    func commitReachesOtherInstance() async throws {
        let scratch = try await ScratchDatabase.create()
        defer { Task { await scratch.drop() } }
        let one = try await PostgresBookDatabase(url: scratch.url)
        let two = try await PostgresBookDatabase(url: scratch.url)
        defer {
            one.shutdown()
            two.shutdown()
        }
        for id in [1, 2] {
            try await one.client.query(
                """
                INSERT INTO book (id, name, currencyCode, currencyMinorDigits, timeZone, roundingRule, roundingScope)
                VALUES (\(id), \("Book \(id)"), 'USD', 2, 'UTC', 'half-away-from-zero', 'per-line')
                """
            )
        }
        let changes = try await two.changes(book: 1)

        // A rolled-back write announces nothing; a write to another book reaches only that book.
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            _ = try await one.write(book: 1, tables: [.payouts]) { _ -> Int in throw Refused() }
        }
        _ = try await one.write(book: 2, tables: [.products]) { _ in 0 }
        // The committed write to book 1 arrives as the only change (waited for as long as it takes:
        // how soon is the benchmark's to measure, not a test's on a busy machine).
        _ = try await one.write(book: 1, tables: [.sales, .clinics]) { connection in
            try await connection.query(
                "INSERT INTO clinic (bookId, name, scheduleKind) VALUES (1, 'Glow', 'monthly')",
                logger: Logger(label: "test")
            )
            return 0
        }
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == [.sales, .clinics])
        // The write committed; the refused one left nothing.
        #expect(try await one.client.texts("SELECT bookId::text || ' ' || name FROM clinic") == ["1 Glow"])
    }

    /// Stores opened at once on a server's database (its first requests) each start listening: none
    /// may return while another's start is still connecting, or a change committed right after it
    /// opened would be missed by its live queries (a conformance test saw a live value stay at 0).
    @Test("Every caller of a start that is under way returns once the database listens", .hangLimit)
    func concurrentStartsAllWaitForListening() async throws {
        let scratch = try await ScratchDatabase.create()
        defer { Task { await scratch.drop() } }
        let database = try await PostgresBookDatabase(url: scratch.url)
        defer { database.shutdown() }
        #expect(!database.changeFeed.isListening)
        let listeningOnReturn = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await database.startListening()
                    return database.changeFeed.isListening
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(listeningOnReturn == Array(repeating: true, count: 8))
    }

    /// A database closed is not listened to again: a start after it is refused, saying why, and
    /// leaves nothing listening.
    @Test("A start after the database was closed is refused", .hangLimit) func aStartAfterShutdownIsRefused()
        async throws
    {
        let scratch = try await ScratchDatabase.create()
        defer { Task { await scratch.drop() } }
        let database = try await PostgresBookDatabase(url: scratch.url)
        database.shutdown()
        await #expect(throws: StoreError.self) { try await database.startListening() }
        #expect(!database.changeFeed.isListening)
    }

    @Test func payloadsParseBackToTheirBookAndTables() {
        #expect(PostgresChanges.parse("3 sales terms")! == (3, [.sales, .terms]))
        #expect(PostgresChanges.parse("nonsense") == nil)
    }
}
