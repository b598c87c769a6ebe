import CommissionCore
import CommissionStore
import Foundation
import GRDB

extension SQLiteStore: AccountStore {
    public func accountCount() async throws -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM account") ?? 0 }
    }

    /// An owner's link made by the operator (``Invitation/isOwnersLink``), used or not.
    static let ownersLinkExists = "EXISTS (SELECT 1 FROM invitation WHERE role = 'owner' AND invitedBy IS NULL)"

    public func awaitsSetup() async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM account) AND NOT \(Self.ownersLinkExists)")
                ?? false
        }
    }

    public func createOwner(username: String, passwordHash: String) async throws -> Account {
        let name = try StoreInput.username(username)
        return try await write([], bump: false) { db in
            if try Int.fetchOne(db, sql: "SELECT count(*) FROM account") ?? 0 > 0 {
                throw StoreError.invalid(field: "account", reason: "this book already has its owner; sign in instead.")
            }
            if try Bool.fetchOne(db, sql: "SELECT \(Self.ownersLinkExists)") ?? false {
                throw StoreError.invalid(
                    field: "account",
                    reason: "this book is claimed through its owner's one-time link, not set up here."
                )
            }
            try db.execute(
                sql: "INSERT INTO account (username, passwordHash, createdAt) VALUES (?, ?, ?)",
                arguments: [name, passwordHash, Int64(Date().timeIntervalSince1970)]
            )
            return Account(id: Account.ID(db.lastInsertedRowID), username: name)
        }
    }

    /// The first account: the book's owner.
    public func ownerAccount() async throws -> Account? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT id, username FROM account ORDER BY id LIMIT 1").map {
                Account(id: Account.ID($0[0] as Int64), username: $0[1])
            }
        }
    }

    public func credentials(username: String) async throws -> (account: Account, passwordHash: String)? {
        let (key, asTyped) = StoreInput.usernameLookups(username)
        return try await read { db in
            try Row.fetchOne(
                db,
                sql:
                    "SELECT id, username, passwordHash FROM account WHERE username IN (?, ?) ORDER BY username = ? DESC LIMIT 1",
                arguments: [key, asTyped, key]
            ).map {
                (Account(id: Account.ID($0[0] as Int64), username: $0[1]), $0[2] as String)
            }
        }
    }

    public func updatePasswordHash(account: Account.ID, passwordHash: String, keepingSessions: Bool) async throws {
        try await write([], bump: false) { db in
            try db.execute(
                sql: "UPDATE account SET passwordHash = ? WHERE id = ?",
                arguments: [passwordHash, account.rawValue]
            )
            if db.changesCount == 0 { throw StoreError.notFound(.book, id: account.rawValue) }
            if !keepingSessions {
                try db.execute(sql: "DELETE FROM session WHERE accountId = ?", arguments: [account.rawValue])
            }
        }
    }

    public func createSession(account: Account.ID, tokenDigest: String, csrfToken: String, expiresAt: Date) async throws
    {
        try await write([], bump: false) { db in
            try db.execute(
                sql: "DELETE FROM session WHERE expiresAt < ?",
                arguments: [Int64(Date().timeIntervalSince1970)]
            )
            try db.execute(
                sql: "INSERT INTO session (tokenDigest, accountId, csrfToken, expiresAt) VALUES (?, ?, ?, ?)",
                arguments: [tokenDigest, account.rawValue, csrfToken, Int64(expiresAt.timeIntervalSince1970)]
            )
        }
    }

    public func session(tokenDigest: String, now: Date) async throws -> SessionRecord? {
        try await read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT account.id, account.username, session.csrfToken, session.expiresAt
                    FROM session JOIN account ON account.id = session.accountId
                    WHERE session.tokenDigest = ? AND session.expiresAt > ?
                    """,
                arguments: [tokenDigest, Int64(now.timeIntervalSince1970)]
            ).map {
                SessionRecord(
                    account: Account(id: Account.ID($0[0] as Int64), username: $0[1]),
                    csrfToken: $0[2],
                    expiresAt: Date(timeIntervalSince1970: TimeInterval($0[3] as Int64))
                )
            }
        }
    }

    public func deleteSession(tokenDigest: String) async throws {
        try await write([], bump: false) { db in
            try db.execute(sql: "DELETE FROM session WHERE tokenDigest = ?", arguments: [tokenDigest])
        }
    }

    public func createToken(account: Account.ID, name: String, tokenDigest: String, now: Date) async throws -> APIToken
    {
        let cleaned = try StoreInput.name(name, field: "token name")
        return try await write([], bump: false) { db in
            try db.execute(
                sql: "INSERT INTO apiToken (accountId, name, tokenDigest, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [account.rawValue, cleaned, tokenDigest, Int64(now.timeIntervalSince1970)]
            )
            return APIToken(id: APIToken.ID(db.lastInsertedRowID), name: cleaned, createdAt: now, lastUsedAt: nil)
        }
    }

    public func tokens(account: Account.ID) async throws -> [APIToken] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT id, name, createdAt, lastUsedAt FROM apiToken WHERE accountId = ? AND revokedAt IS NULL ORDER BY id",
                arguments: [account.rawValue]
            ).map {
                APIToken(
                    id: APIToken.ID($0[0] as Int64),
                    name: $0[1],
                    createdAt: Date(timeIntervalSince1970: TimeInterval($0[2] as Int64)),
                    lastUsedAt: ($0[3] as Int64?).map { Date(timeIntervalSince1970: TimeInterval($0)) }
                )
            }
        }
    }

    public func revokeToken(_ id: APIToken.ID, account: Account.ID) async throws {
        try await write([], bump: false) { db in
            try db.execute(
                sql: "UPDATE apiToken SET revokedAt = ? WHERE id = ? AND accountId = ? AND revokedAt IS NULL",
                arguments: [Int64(Date().timeIntervalSince1970), id.rawValue, account.rawValue]
            )
            if db.changesCount == 0 { throw StoreError.notFound(.book, id: id.rawValue) }
        }
    }

    public func account(tokenDigest: String, now: Date) async throws -> Account? {
        let (isOn, cached, generation) = caches.withLock { ($0.isOn, $0.tokens[tokenDigest], $0.generation) }
        let found: (account: Account, tokenID: Int64, lastUsed: Int64?)
        if let cached {
            found = cached
        } else {
            guard
                let row = try await read({ db in
                    try Row.fetchOne(
                        db,
                        sql: """
                            SELECT account.id, account.username, apiToken.id, apiToken.lastUsedAt FROM apiToken JOIN account ON account.id = apiToken.accountId
                            WHERE apiToken.tokenDigest = ? AND apiToken.revokedAt IS NULL
                            """,
                        arguments: [tokenDigest]
                    ).map {
                        (Account(id: Account.ID($0[0] as Int64), username: $0[1]), $0[2] as Int64, $0[3] as Int64?)
                    }
                })
            else { return nil }
            found = row
        }
        let seconds = Int64(now.timeIntervalSince1970)
        if (found.lastUsed ?? 0) < seconds - 60 {  // note the use at most once a minute: reads stay reads
            try await write([], bump: false) { db in
                try db.execute(
                    sql: "UPDATE apiToken SET lastUsedAt = ? WHERE id = ?",
                    arguments: [seconds, found.tokenID]
                )
            }
            // That write cleared the caches: the next request reads the token again, and caches it.
        } else if isOn && cached == nil {
            caches.withLock { if $0.generation == generation { $0.tokens[tokenDigest] = found } }
        }
        return found.account
    }
}
