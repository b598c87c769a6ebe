import Foundation
import Synchronization

/// A write request's idempotency key, claimed by the transaction that makes the write.
///
/// A server that takes `Idempotency-Key` on every write (`commission serve`) sets a claim for
/// the request's task; the store's first write transaction of the book in that task inserts the key
/// beside the write itself, so the key is spent exactly when the write commits — a write that rolls
/// back spends nothing, and a second request with the key, even one racing the first, cannot write
/// again (the key's row is unique: the store throws ``IdempotencyKeyInUse``). The server then keeps
/// the answer under the key (``IdempotencyStore``) and sends it again to a retry.
public final class IdempotencyClaim: Sendable {
    /// The key, checked (``StoreInput/idempotencyKey(_:)``).
    public let key: String
    /// What the request was (its method, path and body, digested): a key sent again with another
    /// request is refused, not answered with the first one's answer.
    public let fingerprint: String
    /// When the request came (by the server's clock): the key is forgotten ``IdempotencyStore/keptFor`` after.
    public let madeAt: Date
    private let committed = Mutex(false)

    /// The claim of the current task's request, when it has a key.
    @TaskLocal public static var current: IdempotencyClaim?

    public init(key: String, fingerprint: String, madeAt: Date = Date()) {
        self.key = key
        self.fingerprint = fingerprint
        self.madeAt = madeAt
    }

    /// Whether a transaction that inserted the key committed: the request wrote, and its answer
    /// is to be kept.
    public var isCommitted: Bool { committed.withLock { $0 } }

    /// Said by a store once the transaction that inserted the key committed.
    public func markCommitted() { committed.withLock { $0 = true } }

    /// The claim a write transaction of the current task is to insert: the current one, until a
    /// transaction committed it.
    public static var pending: IdempotencyClaim? {
        guard let claim = current, !claim.isCommitted else { return nil }
        return claim
    }
}

/// A write whose idempotency key another request spent meanwhile (the two raced): this one wrote
/// nothing.
public struct IdempotencyKeyInUse: Error, Sendable, Equatable, CustomStringConvertible {
    public let key: String

    public init(key: String) { self.key = key }

    public var description: String {
        "Another request with the Idempotency-Key \"\(key)\" was handled meanwhile; this one changed nothing. Send it again to get that request's answer."
    }
}

/// What a request with an idempotency key was answered, kept under its key.
public struct IdempotentAnswer: Sendable, Equatable {
    /// The request's fingerprint (``IdempotencyClaim/fingerprint``).
    public var fingerprint: String
    /// The answer's status, or `nil` while the request's write committed but its answer is not
    /// kept yet (the request is still being answered, or its server stopped in between).
    public var status: Int?
    public var contentType: String?
    public var body: [UInt8]

    public init(fingerprint: String, status: Int?, contentType: String?, body: [UInt8]) {
        self.fingerprint = fingerprint
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}

/// Where a server keeps the answers of write requests sent with an idempotency key, in the book's
/// own database (a key is the book's: two books may use the same one). Keys are kept
/// ``keptFor`` (30 days), then forgotten; a book restored from a backup or an archive forgets them.
public protocol IdempotencyStore: Sendable {
    /// The answer kept under `key`, or `nil` when no write spent it.
    func idempotentAnswer(for key: String) async throws -> IdempotentAnswer?
    /// Keeps the answer of the request that spent `key` (whose write committed the claim), and
    /// forgets keys made ``keptFor`` or longer before `now`.
    func keepIdempotentAnswer(_ answer: IdempotentAnswer, for key: String, now: Date) async throws
}

extension IdempotencyStore {
    /// How long a key is remembered: a client retries within minutes, a device offline for weeks
    /// sends its sales again with keys the sales themselves keep.
    public static var keptFor: Duration { .seconds(30 * 24 * 3600) }

    /// Keys spent before this moment are forgotten.
    public static func forgetBefore(_ now: Date) -> Date {
        now.addingTimeInterval(-Double(keptFor.components.seconds))
    }

    /// Keeps the answer under `key`, forgetting keys by the system's clock.
    public func keepIdempotentAnswer(_ answer: IdempotentAnswer, for key: String) async throws {
        try await keepIdempotentAnswer(answer, for: key, now: Date())
    }
}
