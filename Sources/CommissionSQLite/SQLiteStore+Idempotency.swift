import CommissionStore
import Foundation
import GRDB

extension SQLiteStore: IdempotencyStore {
    /// Inserts a request's idempotency key in the write's transaction; a key another transaction
    /// inserted first is refused (``IdempotencyKeyInUse``), rolling this write back.
    static func insert(_ claim: IdempotencyClaim, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO idempotencyKey (key, fingerprint, createdAt) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING
                """,
            arguments: [claim.key, claim.fingerprint, Int64(claim.madeAt.timeIntervalSince1970)]
        )
        guard db.changesCount == 1 else { throw IdempotencyKeyInUse(key: claim.key) }
    }

    public func idempotentAnswer(for key: String) async throws -> IdempotentAnswer? {
        try await read { db in
            try Row.fetchOne(
                db,
                sql: "SELECT fingerprint, status, contentType, body FROM idempotencyKey WHERE key = ?",
                arguments: [key]
            ).map {
                IdempotentAnswer(
                    fingerprint: $0[0],
                    status: $0[1],
                    contentType: $0[2],
                    body: [UInt8]($0[3] as Data? ?? Data())
                )
            }
        }
    }

    public func keepIdempotentAnswer(_ answer: IdempotentAnswer, for key: String, now: Date) async throws {
        let forget = Int64(Self.forgetBefore(now).timeIntervalSince1970)
        try await writeAside { db in
            try db.execute(
                sql:
                    "UPDATE idempotencyKey SET status = ?, contentType = ?, body = ? WHERE key = ? AND fingerprint = ?",
                arguments: [answer.status, answer.contentType, Data(answer.body), key, answer.fingerprint]
            )
            try db.execute(sql: "DELETE FROM idempotencyKey WHERE createdAt < ?", arguments: [forget])
        }
    }
}
