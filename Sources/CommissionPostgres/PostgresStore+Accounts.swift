import CommissionCore
import CommissionStore
import Foundation
import PostgresNIO

/// Accounts on a shared database: an account signs in to this store's book only while it is a
/// member of it (`member`), so sessions and tokens of other books' accounts count for nothing here.
extension PostgresBookDatabase {
    /// A read of accounts, sessions, tokens, invitations and reminders, on this database (the
    /// directory's, which keeps them).
    func readAccounts<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T
    {
        do {
            return try await StoreTiming.measure(.read) { try await transaction(readOnly: true, body) }
        } catch {
            throw PostgresBookDatabase.storeError(error, doing: "read the accounts")
        }
    }
}

extension PostgresStore: AccountStore {
    /// A transaction for accounts, sessions and tokens (and the server's other records: sign-in
    /// counts, server secrets), on the database that keeps them (``accounts``): no book figure
    /// changes, nothing is announced.
    @discardableResult
    func accountWrite<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T
    {
        try await accounts.run("write", body)
    }

    /// A read of accounts, sessions, tokens and invitations, on the database that keeps them (``accounts``).
    func readAccounts<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T
    {
        try await accounts.readAccounts(body)
    }

    public func accountCount() async throws -> Int {
        Int(
            try await readAccounts { connection in
                try await int(connection, "SELECT count(*) FROM member WHERE bookId = \(book)")
            }
        )
    }

    public func awaitsSetup() async throws -> Bool {
        try await readAccounts { connection in
            try await int(
                connection,
                """
                SELECT count(*) FROM book WHERE id = \(book)
                  AND NOT EXISTS (SELECT 1 FROM member WHERE bookId = \(book))
                  AND NOT EXISTS (SELECT 1 FROM invitation WHERE bookId = \(book) AND role = 'owner' AND invitedBy IS NULL)
                """
            ) > 0
        }
    }

    public func createOwner(username: String, passwordHash: String) async throws -> Account {
        let name = try StoreInput.username(username)
        return try await accountWrite { connection in
            try await connection.query("SELECT 1 FROM book WHERE id = \(book) FOR UPDATE", logger: logger)
            if try await int(connection, "SELECT count(*) FROM member WHERE bookId = \(book)") > 0 {
                throw StoreError.invalid(field: "account", reason: "this book already has its owner; sign in instead.")
            }
            if try await int(
                connection,
                "SELECT count(*) FROM invitation WHERE bookId = \(book) AND role = 'owner' AND invitedBy IS NULL"
            ) > 0 {
                throw StoreError.invalid(
                    field: "account",
                    reason: "this book is claimed through its owner's one-time link, not set up here."
                )
            }
            if try await int(connection, "SELECT count(*) FROM account WHERE lower(username) = lower(\(name))") > 0 {
                throw StoreError.invalid(
                    field: "user name",
                    reason: "\"\(name)\" is taken on this server; choose another."
                )
            }
            let id = try await int(
                connection,
                """
                INSERT INTO account (username, passwordHash, createdAt) VALUES (\(name), \(passwordHash), \(Int64(Date().timeIntervalSince1970)))
                RETURNING id
                """
            )
            try await connection.query(
                "INSERT INTO member (bookId, accountId, role) VALUES (\(book), \(id), 'owner')",
                logger: logger
            )
            return Account(id: Account.ID(id), username: name)
        }
    }

    /// The book's owner, if it has one.
    public func ownerAccount() async throws -> Account? {
        try await readAccounts { connection in
            try await connection.query(
                """
                SELECT account.id, account.username FROM account JOIN member ON member.accountId = account.id
                WHERE member.bookId = \(book) AND member.role = 'owner' ORDER BY account.id LIMIT 1
                """,
                logger: logger
            ).decode((Int64, String).self).all().first.map { Account(id: Account.ID($0.0), username: $0.1) }
        }
    }

    public func credentials(username: String) async throws -> (account: Account, passwordHash: String)? {
        let (key, asTyped) = StoreInput.usernameLookups(username)
        return try await readAccounts { connection in
            try await connection.query(
                """
                SELECT account.id, account.username, account.passwordHash FROM account JOIN member ON member.accountId = account.id
                WHERE member.bookId = \(book) AND lower(account.username) IN (lower(\(key)), lower(\(asTyped)))
                ORDER BY lower(account.username) = lower(\(key)) DESC LIMIT 1
                """,
                logger: logger
            ).decode((Int64, String, String).self).all().first
                .map { (Account(id: Account.ID($0.0), username: $0.1), $0.2) }
        }
    }

    public func updatePasswordHash(account: Account.ID, passwordHash: String, keepingSessions: Bool) async throws {
        try await accountWrite { connection in
            let updated = try await int(
                connection,
                """
                WITH changed AS (UPDATE account SET passwordHash = \(passwordHash)
                                 WHERE id = \(account.rawValue) AND id IN (SELECT accountId FROM member WHERE bookId = \(book)) RETURNING 1)
                SELECT count(*) FROM changed
                """
            )
            if updated == 0 { throw StoreError.notFound(.book, id: account.rawValue) }
            if !keepingSessions {
                try await connection.query("DELETE FROM session WHERE accountId = \(account.rawValue)", logger: logger)
            }
        }
    }

    public func createSession(account: Account.ID, tokenDigest: String, csrfToken: String, expiresAt: Date) async throws
    {
        try await accountWrite { connection in
            try await connection.query(
                "DELETE FROM session WHERE expiresAt < \(Int64(Date().timeIntervalSince1970))",
                logger: logger
            )
            try await connection.query(
                """
                INSERT INTO session (tokenDigest, accountId, csrfToken, expiresAt)
                VALUES (\(tokenDigest), \(account.rawValue), \(csrfToken), \(Int64(expiresAt.timeIntervalSince1970)))
                """,
                logger: logger
            )
        }
    }

    public func session(tokenDigest: String, now: Date) async throws -> SessionRecord? {
        try await readAccounts { connection in
            try await connection.query(
                """
                SELECT account.id, account.username, session.csrfToken, session.expiresAt
                FROM session JOIN account ON account.id = session.accountId JOIN member ON member.accountId = account.id
                WHERE member.bookId = \(book) AND session.tokenDigest = \(tokenDigest) AND session.expiresAt > \(Int64(now.timeIntervalSince1970))
                """,
                logger: logger
            ).decode((Int64, String, String, Int64).self).all().first.map {
                SessionRecord(
                    account: Account(id: Account.ID($0.0), username: $0.1),
                    csrfToken: $0.2,
                    expiresAt: Date(timeIntervalSince1970: TimeInterval($0.3))
                )
            }
        }
    }

    public func deleteSession(tokenDigest: String) async throws {
        try await accountWrite { connection in
            try await connection.query("DELETE FROM session WHERE tokenDigest = \(tokenDigest)", logger: logger)
        }
    }

    public func createToken(account: Account.ID, name: String, tokenDigest: String, now: Date) async throws -> APIToken
    {
        let cleaned = try StoreInput.name(name, field: "token name")
        return try await accountWrite { connection in
            let id = try await int(
                connection,
                """
                INSERT INTO apiToken (accountId, name, tokenDigest, createdAt)
                VALUES (\(account.rawValue), \(cleaned), \(tokenDigest), \(Int64(now.timeIntervalSince1970)))
                RETURNING id
                """
            )
            return APIToken(id: APIToken.ID(id), name: cleaned, createdAt: now, lastUsedAt: nil)
        }
    }

    public func tokens(account: Account.ID) async throws -> [APIToken] {
        try await readAccounts { connection in
            try await connection.query(
                """
                SELECT id, name, createdAt, lastUsedAt FROM apiToken WHERE accountId = \(account.rawValue) AND revokedAt IS NULL ORDER BY id
                """,
                logger: logger
            ).decode((Int64, String, Int64, Int64?).self).all().map {
                APIToken(
                    id: APIToken.ID($0.0),
                    name: $0.1,
                    createdAt: Date(timeIntervalSince1970: TimeInterval($0.2)),
                    lastUsedAt: $0.3.map { Date(timeIntervalSince1970: TimeInterval($0)) }
                )
            }
        }
    }

    public func revokeToken(_ id: APIToken.ID, account: Account.ID) async throws {
        try await accountWrite { connection in
            let revoked = try await int(
                connection,
                """
                WITH changed AS (UPDATE apiToken SET revokedAt = \(Int64(Date().timeIntervalSince1970))
                                 WHERE id = \(id.rawValue) AND accountId = \(account.rawValue) AND revokedAt IS NULL RETURNING 1)
                SELECT count(*) FROM changed
                """
            )
            if revoked == 0 { throw StoreError.notFound(.book, id: id.rawValue) }
        }
    }

    public func account(tokenDigest: String, now: Date) async throws -> Account? {
        let found = try await readAccounts { connection in
            try await connection.query(
                """
                SELECT account.id, account.username, apiToken.id, apiToken.lastUsedAt
                FROM apiToken JOIN account ON account.id = apiToken.accountId JOIN member ON member.accountId = account.id
                WHERE member.bookId = \(book) AND apiToken.tokenDigest = \(tokenDigest) AND apiToken.revokedAt IS NULL
                """,
                logger: logger
            ).decode((Int64, String, Int64, Int64?).self).all().first
        }
        guard let (accountID, username, tokenID, lastUsed) = found else { return nil }
        let seconds = Int64(now.timeIntervalSince1970)
        if (lastUsed ?? 0) < seconds - 60 {  // note the use at most once a minute: reads stay reads
            try await accountWrite { connection in
                try await connection.query(
                    "UPDATE apiToken SET lastUsedAt = \(seconds) WHERE id = \(tokenID)",
                    logger: logger
                )
            }
        }
        return Account(id: Account.ID(accountID), username: username)
    }
}
