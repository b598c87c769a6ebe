import CommissionStore
import Foundation
import Logging
import PostgresNIO

extension PostgresStore: SignInThrottleStore {
    public func signInFailures(_ keys: [String]) async throws -> [String: SignInFailures] {
        try await readAccounts { [logger] connection in try await Self.signInFailures(connection, keys, logger: logger)
        }
    }

    /// The counts under `keys`.
    static func signInFailures(
        _ connection: PostgresConnection,
        _ keys: [String],
        logger: Logger
    ) async throws -> [String: SignInFailures] {
        var counts: [String: SignInFailures] = [:]
        let rows = try await connection.query(
            "SELECT key, failures, lastAtMs FROM signInFailure WHERE key = ANY(\(keys))",
            logger: logger
        )
        for try await (key, failures, last) in rows.decode((String, Int, Int64).self) {
            counts[key] = SignInFailures(failures: failures, last: Date(milliseconds: last))
        }
        return counts
    }

    public func countSignInAttempt(
        _ keys: [String],
        now: Date,
        forgetBefore: Date
    ) async throws -> [String: SignInFailures] {
        try await accountWrite { [logger] connection in
            let sorted = try await Self.lockSignInKeys(connection, keys, logger: logger)
            // Counts of other keys, long quiet, go too — those another transaction holds are left
            // for the next attempt rather than waited for.
            try await connection.query(
                """
                DELETE FROM signInFailure WHERE key IN
                  (SELECT key FROM signInFailure WHERE lastAtMs < \(forgetBefore.milliseconds) FOR UPDATE SKIP LOCKED)
                """,
                logger: logger
            )
            let before = try await Self.signInFailures(connection, keys, logger: logger)
            for key in sorted {
                try await connection.query(
                    """
                    INSERT INTO signInFailure (key, failures, lastAtMs) VALUES (\(key), 1, \(now.milliseconds))
                    ON CONFLICT (key) DO UPDATE SET failures = signInFailure.failures + 1, lastAtMs = EXCLUDED.lastAtMs
                    """,
                    logger: logger
                )
            }
            return before
        }
    }

    public func withdrawSignInAttempt(_ keys: [String]) async throws {
        try await accountWrite { [logger] connection in
            _ = try await Self.lockSignInKeys(connection, keys, logger: logger)
            try await connection.query(
                "UPDATE signInFailure SET failures = failures - 1 WHERE key = ANY(\(keys))",
                logger: logger
            )
            try await connection.query(
                "DELETE FROM signInFailure WHERE key = ANY(\(keys)) AND failures <= 0",
                logger: logger
            )
        }
    }

    public func forgetSignInFailures(_ key: String) async throws {
        try await accountWrite { [logger] connection in
            _ = try await Self.lockSignInKeys(connection, [key], logger: logger)
            _ = try await connection.query("DELETE FROM signInFailure WHERE key = \(key)", logger: logger)
        }
    }

    /// Takes each key's lock until the transaction ends, in one order everywhere: a count and a
    /// withdrawal of the same keys never wait for each other in a circle (which PostgreSQL would
    /// end as a deadlock, and her attempt would meet as a 503), and an attempt made at the same
    /// moment waits, then reads the counts this one leaves — a row's lock alone would not do, for
    /// a key with no row yet (read committed: the other's new row is not seen). Returns the keys
    /// in that order, for the rows to be written in it too.
    private static func lockSignInKeys(
        _ connection: PostgresConnection,
        _ keys: [String],
        logger: Logger
    ) async throws -> [String] {
        let sorted = keys.sorted()
        try await connection.query(
            """
            SELECT pg_advisory_xact_lock(\(LockSpace.signIn.rawValue), hashtext(k.key))
            FROM unnest(\(sorted)::text[]) WITH ORDINALITY AS k(key, position) ORDER BY k.position
            """,
            logger: logger
        )
        return sorted
    }

    public func serverSecret(named name: String, candidate: [UInt8]) async throws -> [UInt8] {
        try await accountWrite { connection in
            try await connection.query(
                "INSERT INTO serverSecret (name, value) VALUES (\(name), \(ByteBuffer(bytes: candidate))) ON CONFLICT (name) DO NOTHING",
                logger: logger
            )
            let rows = try await connection.query("SELECT value FROM serverSecret WHERE name = \(name)", logger: logger)
                .decode(ByteBuffer.self).all()
            return rows.first.map { Array($0.readableBytesView) } ?? candidate
        }
    }
}
