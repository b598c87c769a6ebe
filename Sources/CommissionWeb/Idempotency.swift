import CommissionStore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// `Idempotency-Key` on every write of the API: a request sent again with its key (a client that
/// lost the answer to a dropped connection) writes nothing more and gets the first answer again,
/// marked `Idempotent-Replayed: true`.
///
/// The key is spent by the write itself: the store inserts it in the transaction that makes the
/// request's first write to the book (``IdempotencyClaim``), so a request that is refused, or
/// whose transaction rolls back, spends nothing and may be sent again; once the write committed,
/// the answer is kept under the key (``IdempotencyStore``, 30 days). The same key with another
/// request (method, path or body) is refused with 422; a key whose request is still being answered
/// is a 409 with `Retry-After`.
///
/// `POST /api/v1/sales` keeps its key on the sale itself (the store's own rule, also the command
/// line's and the entry form's): it is passed through.
struct IdempotencyMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let store: any IdempotencyStore
    let clock: any WallClock

    static let writeMethods: Set<HTTPRequest.Method> = [.post, .put, .patch, .delete]
    /// Routes whose store call takes the key itself.
    static let keyedByTheirRecord: Set<String> = ["/api/v1/sales"]

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard Self.writeMethods.contains(request.method), let sent = request.headers[.idempotencyKey],
            !(request.method == .post && Self.keyedByTheirRecord.contains(request.uri.path))
        else {
            return try await next(request, context)
        }
        guard let key = try StoreInput.idempotencyKey(sent) else { return try await next(request, context) }
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        let fingerprint = Self.fingerprint(request, body: body)
        if let kept = try await store.idempotentAnswer(for: key) {
            return try Self.replay(kept, key: key, fingerprint: fingerprint)
        }

        let claim = IdempotencyClaim(key: key, fingerprint: fingerprint, madeAt: clock.now)
        var response: Response
        do {
            response = try await IdempotencyClaim.$current.withValue(claim) { try await next(request, context) }
        } catch is IdempotencyKeyInUse {
            // Another request with the key wrote first (the two raced): its answer, once kept, is this one's too.
            let kept =
                try await store.idempotentAnswer(for: key)
                ?? IdempotentAnswer(fingerprint: fingerprint, status: nil, contentType: nil, body: [])
            return try Self.replay(kept, key: key, fingerprint: fingerprint)
        } catch {
            // A write that committed before the request failed is still the key's: its answer is the failure.
            guard claim.isCommitted else { throw error }
            response = Problem.from(error, on: .of(request)).response
        }
        guard claim.isCommitted else { return response }
        let collected = try await Self.collect(&response)
        do {
            try await store.keepIdempotentAnswer(
                IdempotentAnswer(
                    fingerprint: fingerprint,
                    status: response.status.code,
                    contentType: response.headers[.contentType],
                    body: collected
                ),
                for: key,
                now: clock.now
            )
        } catch {
            // The write stands and is answered; only a retry of it finds no answer to replay (a 409).
            context.logger.warning(
                "the answer to the request with Idempotency-Key \(key) was not kept: \(String(reflecting: error))"
            )
        }
        return response
    }

    /// The method, path with its query and the body, digested.
    static func fingerprint(_ request: Request, body: ByteBuffer) -> String {
        var hash = SHA256()
        hash.update(data: Data("\(request.method.rawValue) \(request.uri.path)?\(request.uri.query ?? "")\n".utf8))
        hash.update(data: Data(body.readableBytesView))
        return hash.finalize().hexadecimal
    }

    /// The kept answer, for the same request; a refusal for another, or while it is being answered.
    static func replay(_ kept: IdempotentAnswer, key: String, fingerprint: String) throws -> Response {
        guard kept.fingerprint == fingerprint else {
            throw Problem(
                .unprocessableContent,
                "The Idempotency-Key \"\(key)\" was sent before with another request (its method, path or body differ). Send a new key for a new request."
            )
        }
        guard let status = kept.status else {
            var problem = Problem(
                .conflict,
                "The request with the Idempotency-Key \"\(key)\" made its change and is still being answered. Send it again in a moment for its answer."
            ).response
            problem.headers[.retryAfter] = "1"
            return problem
        }
        var headers: HTTPFields = [.idempotentReplayed: "true"]
        if let type = kept.contentType { headers[.contentType] = type }
        return Response(
            status: .init(code: status),
            headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: kept.body))
        )
    }

    /// The response's body read whole (the API's answers to writes are small JSON), the response
    /// keeping it to send.
    static func collect(_ response: inout Response) async throws -> [UInt8] {
        let collector = Collector()
        try await response.body.write(collector)
        let bytes = collector.bytes.withLock { $0 }
        response.body = .init(byteBuffer: ByteBuffer(bytes: bytes))
        return bytes
    }

    final class Collector: ResponseBodyWriter, Sendable {
        let bytes = Mutex<[UInt8]>([])
        func write(_ buffer: ByteBuffer) async throws {
            bytes.withLock { $0.append(contentsOf: buffer.readableBytesView) }
        }
        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}

extension HTTPField.Name {
    /// Set on an answer sent again for a request's idempotency key.
    static let idempotentReplayed = Self("Idempotent-Replayed")!
}
