import CommissionStore
import Foundation
import GRDB

extension SQLiteStore: SignInThrottleStore {
    public func signInFailures(_ keys: [String]) async throws -> [String: SignInFailures] {
        try await read { db in try Self.signInFailures(db, keys) }
    }

    static func signInFailures(_ db: Database, _ keys: [String]) throws -> [String: SignInFailures] {
        let rows = try Row.fetchAll(
            db,
            sql:
                "SELECT key, failures, lastAtMs FROM signInFailure WHERE key IN (\(databaseQuestionMarks(count: keys.count)))",
            arguments: StatementArguments(keys)
        )
        return Dictionary(
            uniqueKeysWithValues: rows.map { ($0[0], SignInFailures(failures: $0[1], last: Date(milliseconds: $0[2]))) }
        )
    }

    public func countSignInAttempt(
        _ keys: [String],
        now: Date,
        forgetBefore: Date
    ) async throws -> [String: SignInFailures] {
        try await writeAside { db in
            try db.execute(sql: "DELETE FROM signInFailure WHERE lastAtMs < ?", arguments: [forgetBefore.milliseconds])
            let before = try Self.signInFailures(db, keys)
            for key in keys {
                try db.execute(
                    sql: """
                        INSERT INTO signInFailure (key, failures, lastAtMs) VALUES (?, 1, ?)
                        ON CONFLICT (key) DO UPDATE SET failures = failures + 1, lastAtMs = excluded.lastAtMs
                        """,
                    arguments: [key, now.milliseconds]
                )
            }
            return before
        }
    }

    public func withdrawSignInAttempt(_ keys: [String]) async throws {
        try await writeAside { db in
            for key in keys {
                try db.execute(sql: "UPDATE signInFailure SET failures = failures - 1 WHERE key = ?", arguments: [key])
            }
            try db.execute(sql: "DELETE FROM signInFailure WHERE failures <= 0")
        }
    }

    public func forgetSignInFailures(_ key: String) async throws {
        try await writeAside { db in try db.execute(sql: "DELETE FROM signInFailure WHERE key = ?", arguments: [key]) }
    }

    public func serverSecret(named name: String, candidate: [UInt8]) async throws -> [UInt8] {
        try await writeAside { db in
            try db.execute(
                sql: "INSERT INTO serverSecret (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                arguments: [name, Data(candidate)]
            )
            return try Data.fetchOne(db, sql: "SELECT value FROM serverSecret WHERE name = ?", arguments: [name]).map {
                [UInt8]($0)
            } ?? candidate
        }
    }
}
