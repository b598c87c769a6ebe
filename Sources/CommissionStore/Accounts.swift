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
    /// Whether the book can still be set up through `/setup`: it has no account yet, and it was not
    /// made to be claimed through its owner's one-time link (`commission books add`). A server of
    /// several books asks its ``BookDirectory`` as well (``BookDirectory/setupIsOpen(book:)``).
    func awaitsSetup() async throws -> Bool
    /// Creates the book's first owner (set-up). Refused with ``StoreError/invalid(field:reason:)``
    /// once any account exists, and for a book that waits for its owner's link (see ``awaitsSetup()``),
    /// in the same transaction that would create the account.
    func createOwner(username: String, passwordHash: String) async throws -> Account
    /// The account with this user name (compared without regard to case) and its password hash.
    func credentials(username: String) async throws -> (account: Account, passwordHash: String)?
    /// Sets a new password hash and, unless `keepingSessions` (the same password hashed again),
    /// ends every session of the account.
    func updatePasswordHash(account: Account.ID, passwordHash: String, keepingSessions: Bool) async throws

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

extension AccountStore {
    /// Sets a new password hash and ends every session of the account (a change of password).
    public func updatePasswordHash(account: Account.ID, passwordHash: String) async throws {
        try await updatePasswordHash(account: account, passwordHash: passwordHash, keepingSessions: false)
    }
}

/// A store that can copy the whole book to a file (SQLite's online backup).
public protocol BookBackup: Sendable {
    /// Writes a consistent copy of the book to `path`; refuses to replace an existing file unless told.
    func backup(to path: String, replacing: Bool) async throws
}

/// What an account may do in a book: the owner also invites members and changes the book's settings.
public enum MemberRole: String, Sendable, Hashable, CaseIterable {
    case owner
    case member
}

/// An account of the book with its role.
public struct Member: Sendable, Hashable {
    public var account: Account
    public var role: MemberRole

    public init(account: Account, role: MemberRole) {
        self.account = account
        self.role = role
    }
}

/// A one-time link that lets someone create an account in a book. Only a digest of its secret is kept.
public struct Invitation: Sendable, Hashable {
    public var role: MemberRole
    /// Who created it; nil for the owner's link of a new book, made from the command line.
    public var invitedBy: String?
    public var expiresAt: Date
    /// True for a new book's owner link (``isOwnersLink``) when the book has an account already:
    /// such a link no longer adds anyone.
    public var isSpent: Bool

    public init(role: MemberRole, invitedBy: String?, expiresAt: Date, isSpent: Bool = false) {
        self.role = role
        self.invitedBy = invitedBy
        self.expiresAt = expiresAt
        self.isSpent = isSpent
    }

    /// The link with which a book made by `commission books add` gets its first owner: an owner's
    /// invitation made by the server's operator, not by an account of the book.
    public var isOwnersLink: Bool { role == .owner && invitedBy == nil }

    /// The sentence for a link that is spent.
    public static let spentReason =
        "this link is spent: the book it opens already has its owner. Sign in, or ask the owner for an invitation."
}

/// The people of a book: its members and the one-time links that add more.
public protocol TeamStore: Sendable {
    /// Every account of the book with its role, owners first.
    func members() async throws -> [Member]
    /// The role of an account in this book; nil when it is not one of the book's accounts.
    func role(of account: Account.ID) async throws -> MemberRole?
    /// Records an invitation. `invitedBy` must be an owner of the book (nil: made by the server's operator).
    func createInvitation(tokenDigest: String, role: MemberRole, invitedBy: Account.ID?, expiresAt: Date) async throws
    /// The invitation with this digest while it is unused and not expired at `now`. A new book's owner
    /// link whose book has an account already comes back with ``Invitation/isSpent``.
    func invitation(tokenDigest: String, now: Date) async throws -> Invitation?
    /// Uses an invitation, once: creates the account with the invitation's role and marks it used, in
    /// one transaction. Refused (``StoreError/invalid(field:reason:)``) when it is used, expired,
    /// spent or unknown, or when the user name is taken.
    func acceptInvitation(
        tokenDigest: String,
        username: String,
        passwordHash: String,
        now: Date
    ) async throws -> Account
}

/// The books a server serves, and which one each caller belongs to: what lets one server hold
/// the private books of several people. An account belongs to one book.
public protocol BookDirectory: Sendable {
    /// The book that a caller with no account is shown (where `/setup` may create the first owner).
    func defaultBook() async throws -> Int64
    /// Whether `/setup` may create the owner of `book`: only the server's own first book (not one
    /// made by `commission books add`, which is claimed through its owner's link alone), and only
    /// while no account exists anywhere on the server.
    func setupIsOpen(book: Int64) async throws -> Bool
    /// The book of the account signed in with this session, if the session is live at `now`.
    func book(sessionDigest: String, now: Date) async throws -> Int64?
    /// The book of the account holding this live API token.
    func book(tokenDigest: String) async throws -> Int64?
    /// The book of the account with this user name (compared without regard to case).
    func book(username: String) async throws -> Int64?
    /// The book an unused, unexpired invitation leads to.
    func book(invitationDigest: String, now: Date) async throws -> Int64?
    /// The book whose calendar feed secret has this digest (its pay dates calendar is asked for
    /// without a sign-in).
    func book(calendarDigest: String) async throws -> Int64?
    /// The store of a book.
    func store(book: Int64) async throws -> any ServerBookStore
    /// Of a database's several hosts, which answers as the primary (`host 2 of 2`: by its place,
    /// not its address, which a public probe must not tell), for the readiness probe; nil when
    /// there is nothing to say.
    var primaryDatabase: String? { get }
    /// The databases holding books that do not answer now, by the names the operator gave them
    /// (their books are refused, 503, until they answer), for the readiness probe; empty where
    /// there is one database.
    var databasesAway: [String] { get }
    /// The books that move to another database from now on, as any server moves them: whatever
    /// was built on a book's store is made again on its new one. An element of nil says that any
    /// book may have moved (the notices were not heard for a while). Nil where books never move.
    func moves() async throws -> AsyncStream<Int64?>?
}

extension BookDirectory {
    public var primaryDatabase: String? { nil }
    public var databasesAway: [String] { [] }
    public func moves() async throws -> AsyncStream<Int64?>? { nil }
}

/// What a server needs of a book's store: the book, its accounts and members, the answers kept for
/// idempotency keys, the sign-in slowdown's counts, and what reaches her when she is not looking.
public typealias ServerBookStore = CommissionStore & AccountStore & TeamStore & IdempotencyStore & SignInThrottleStore
    & ReminderStore

/// Failed sign-ins counted under one key (a name and an address, an address, a name).
public struct SignInFailures: Sendable, Equatable {
    public var failures: Int
    /// The last failure.
    public var last: Date

    public init(failures: Int, last: Date) {
        self.failures = failures
        self.last = last
    }
}

/// What slows down password guessing, kept in the database so that every server process on it
/// counts the same failures (one server's counts are the others'), and the secret that signs the
/// "known device" cookies, shared the same way. Keys are the server's (on PostgreSQL: of every
/// book of the database), not a book's: a name is unique on a server.
public protocol SignInThrottleStore: Sendable {
    /// The counts kept under these keys (absent: none).
    func signInFailures(_ keys: [String]) async throws -> [String: SignInFailures]
    /// Counts one more attempt under each key at `now` — before its password is compared, so that
    /// attempts sent at once are counted one after the other, never all let through on the same
    /// count — and returns the counts as they were just before it (absent: none). Forgets counts
    /// whose last attempt is before `forgetBefore` (so that a spray of names cannot grow the table
    /// for good).
    func countSignInAttempt(_ keys: [String], now: Date, forgetBefore: Date) async throws -> [String: SignInFailures]
    /// Takes one counted attempt back under each key (it succeeded, or was refused before its
    /// password was compared): a count of zero is forgotten.
    func withdrawSignInAttempt(_ keys: [String]) async throws
    /// Forgets the count under `key` (her success, for her own name and address).
    func forgetSignInFailures(_ key: String) async throws
    /// The secret kept under `name`: `candidate` (random bytes) for the first process that asks,
    /// the same for every process after it.
    func serverSecret(named name: String, candidate: [UInt8]) async throws -> [UInt8]
}

extension Date {
    /// Whole milliseconds since 1970, as a store keeps a moment (no floating-point column).
    public var milliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }

    public init(milliseconds: Int64) { self.init(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
