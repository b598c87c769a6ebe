import CommissionStore
import Foundation
import PostgresNIO

extension PostgresStore: IdempotencyStore {
    /// Inserts a request's idempotency key in the write's transaction; a key another transaction
    /// inserted first is refused (``IdempotencyKeyInUse``), rolling this write back.
    func insert(_ claim: IdempotencyClaim, _ connection: PostgresConnection) async throws {
        let inserted = try await connection.query(
            """
            INSERT INTO idempotencyKey (bookId, key, fingerprint, createdAt)
            VALUES (\(book), \(claim.key), \(claim.fingerprint), \(Int64(claim.madeAt.timeIntervalSince1970)))
            ON CONFLICT (bookId, key) DO NOTHING RETURNING 1
            """,
            logger: logger
        ).decode(Int.self).all()
        guard !inserted.isEmpty else { throw IdempotencyKeyInUse(key: claim.key) }
    }

    public func idempotentAnswer(for key: String) async throws -> IdempotentAnswer? {
        try await read { connection in
            let rows = try await connection.query(
                """
                SELECT fingerprint, status, contentType, body FROM idempotencyKey WHERE bookId = \(book) AND key = \(key)
                """,
                logger: logger
            ).decode((String, Int?, String?, ByteBuffer).self).all()
            return rows.first.map {
                IdempotentAnswer(
                    fingerprint: $0.0,
                    status: $0.1,
                    contentType: $0.2,
                    body: Array($0.3.readableBytesView)
                )
            }
        }
    }

    public func keepIdempotentAnswer(_ answer: IdempotentAnswer, for key: String, now: Date) async throws {
        let forget = Int64(Self.forgetBefore(now).timeIntervalSince1970)
        // No figure changed: the book's revision stays, and nobody is told. Beside the book's
        // records (its key was spent by the write, in the same transaction).
        try await plainWrite { connection in
            try await connection.query(
                """
                UPDATE idempotencyKey SET status = \(answer.status), contentType = \(answer.contentType), body = \(ByteBuffer(bytes: answer.body))
                WHERE bookId = \(book) AND key = \(key) AND fingerprint = \(answer.fingerprint)
                """,
                logger: logger
            )
            try await connection.query(
                "DELETE FROM idempotencyKey WHERE bookId = \(book) AND createdAt < \(forget)",
                logger: logger
            )
        }
    }
}
