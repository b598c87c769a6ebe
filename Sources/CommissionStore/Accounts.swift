import CommissionCore
import Foundation

/// Someone who may sign in to a book's web app or API.
public struct Account: Sendable, Hashable, Identifiable {
    public typealias ID = EntityID<Account>
    public var id: ID
    public var username: String

    public init(id: ID, username: String) {
        self.id = id
        self.username = username
    }
}

/// A signed-in browser: the account, the CSRF token its forms must carry, and when it ends.
public struct SessionRecord: Sendable, Hashable {
    public var account: Account
    public var csrfToken: String
    public var expiresAt: Date

    public init(account: Account, csrfToken: String, expiresAt: Date) {
        self.account = account
        self.csrfToken = csrfToken
        self.expiresAt = expiresAt
    }
}

/// A bearer token for the API, created and revoked by its owner. Only a hash of the secret is kept.
public struct APIToken: Sendable, Hashable, Identifiable {
    public typealias ID = EntityID<APIToken>
    public var id: ID
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?

    public init(id: ID, name: String, createdAt: Date, lastUsedAt: Date?) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// Accounts, sessions and API tokens of a book. Secrets never reach the store: it keeps password
/// hashes (bcrypt) and SHA-256 digests of session and token secrets.
public protocol AccountStore: Sendable {
    func accountCount() async throws -> Int
    /// Creates the book's owner: refused with ``StoreError/invalid(field:reason:)`` once any account exists.
    func createOwner(username: String, passwordHash: String) async throws -> Account
    /// The account with this user name (compared without regard to case) and its password hash.
    func credentials(username: String) async throws -> (account: Account, passwordHash: String)?
    /// Sets a new password hash and ends every session of the account.
    func updatePasswordHash(account: Account.ID, passwordHash: String) async throws

    func createSession(account: Account.ID, tokenDigest: String, csrfToken: String, expiresAt: Date) async throws
    /// The session with this digest, if it has not expired at `now`.
    func session(tokenDigest: String, now: Date) async throws -> SessionRecord?
    func deleteSession(tokenDigest: String) async throws

    func createToken(account: Account.ID, name: String, tokenDigest: String, now: Date) async throws -> APIToken
    func tokens(account: Account.ID) async throws -> [APIToken]
    /// Revokes a token of the account; ``StoreError/notFound(_:id:)`` when it has no such token.
    func revokeToken(_ id: APIToken.ID, account: Account.ID) async throws
    /// The account a live (not revoked) token belongs to, noting its use.
    func account(tokenDigest: String, now: Date) async throws -> Account?
}

/// A store that can copy the whole book to a file (SQLite's online backup).
public protocol BookBackup: Sendable {
    /// Writes a consistent copy of the book to `path`; refuses to replace an existing file unless told.
    func backup(to path: String, replacing: Bool) async throws
}
