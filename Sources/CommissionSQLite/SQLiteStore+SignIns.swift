import CommissionStore
import Foundation
import GRDB

extension SQLiteStore: SignInThrottleStore {
    public func signInFailures(_ keys: [String]) async throws -> [String: SignInFailures] {
        try await read { db in
            var counts: [String: SignInFailures] = [:]
            for key in keys {
                if let row = try Row.fetchOne(db, sql: "SELECT failures, lastAtMs FROM signInFailure WHERE key = ?", arguments: [key]) {
                    counts[key] = SignInFailures(failures: row[0], last: Date(milliseconds: row[1]))
                }
            }
            return counts
        }
    }

    public func recordSignInFailure(_ keys: [String], now: Date, forgetBefore: Date) async throws {
        // No figure changed: other processes' caches need not hear of it (they read the counts anew).
        try await write([], bump: false) { db in
            try db.execute(sql: "DELETE FROM signInFailure WHERE lastAtMs < ?", arguments: [forgetBefore.milliseconds])
            for key in keys {
                try db.execute(sql: """
                    INSERT INTO signInFailure (key, failures, lastAtMs) VALUES (?, 1, ?)
                    ON CONFLICT (key) DO UPDATE SET failures = failures + 1, lastAtMs = excluded.lastAtMs
                    """, arguments: [key, now.milliseconds])
            }
        }
    }

    public func forgetSignInFailures(_ key: String) async throws {
        try await write([], bump: false) { db in try db.execute(sql: "DELETE FROM signInFailure WHERE key = ?", arguments: [key]) }
    }

    public func serverSecret(named name: String) async throws -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let made = Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        return try await write([], bump: false) { db in
            try db.execute(sql: "INSERT INTO serverSecret (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", arguments: [name, made])
            return [UInt8](try Data.fetchOne(db, sql: "SELECT value FROM serverSecret WHERE name = ?", arguments: [name]) ?? made)
        }
    }
}
