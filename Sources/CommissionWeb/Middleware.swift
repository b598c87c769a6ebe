import CommissionStore
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// One log line per request: method, path, status, duration.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.attoseconds / 1_000_000_000_000) / 1000 + Double(elapsed.components.seconds) * 1000
        context.logger.info("\(request.method) \(request.uri.path) \(response.status.code) \(String(format: "%.1f", ms))ms")
        return response
    }
}

/// Headers that keep the pages safe in a browser: no inline scripts, no framing, no sniffing.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        Self.secure(&response)
        return response
    }

    static func secure(_ response: inout Response) {
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.referrerPolicy] = "same-origin"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
    }
}

/// Turns every error into a response: a problem detail under `/api/`, a page elsewhere. A client
/// error is a 4xx with a sentence; anything unexpected is logged in full and shown as a short 500.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let pages: Pages

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let problem = Problem.from(error)
            if problem.status >= 500 { context.logger.error("\(request.method) \(request.uri.path) failed: \(String(reflecting: error))") }
            if request.uri.path.hasPrefix("/api/") { return problem.response }
            var page = pages.errorPage(problem, context: context)
            if let allow = problem.allow { page.headers[.allow] = allow.map(\.rawValue).joined(separator: ", ") }
            return page
        }
    }
}

/// Answers a method a path does not take with 405 and the methods it does take (`Allow`), rather
/// than the router's 404: the path exists.
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let routes: RouteLog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = routes.methods(serving: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            var problem = Problem(.methodNotAllowed, "\(request.uri.path) does not take \(request.method); it takes \(allowed.map(\.rawValue).joined(separator: ", ")).")
            problem.allow = allowed
            throw problem
        }
    }
}

/// Finds out who is calling: a session cookie, or an `Authorization: Bearer` token.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let cookieName = "commission_session"
    let store: any WebStore
    let configuration: WebConfiguration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.bodyLimit = configuration.maxBodySize
        if let secret = Self.bearerSecret(request) {
            guard let account = try await store.account(tokenDigest: Secret.digest(secret), now: Date()) else {
                throw Problem(.unauthorized, "The bearer token is unknown or revoked. Create one in Settings or with `commission token create`.")
            }
            context.caller = .token(account)
        } else if let cookie = request.cookies[Self.cookieName]?.value, !cookie.isEmpty {
            let digest = Secret.digest(cookie)
            if let session = try await store.session(tokenDigest: digest, now: Date()) {
                context.caller = .session(session, tokenDigest: digest)
            }
        }
        return try await next(request, context)
    }

    /// The secret of an `Authorization: Bearer` header.
    static func bearerSecret(_ request: Request) -> String? {
        guard let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("bearer ") else { return nil }
        return String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }
}

/// Lets only signed-in callers through, and demands the CSRF token on every state-changing request
/// made with a session cookie (a hidden `csrf` form field, or the `X-CSRF-Token` header).
struct RequireAccountMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// Whether a caller without an account is sent to `/setup` rather than to sign in.
    let setupIsOpen: @Sendable () async throws -> Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let isAPI = request.uri.path.hasPrefix("/api/")
        switch context.caller {
        case .anonymous:
            if isAPI {
                throw Problem(.unauthorized, "Sign in first: send a session cookie, or an `Authorization: Bearer` token.")
            }
            let target = try await setupIsOpen() ? "/setup" : "/login"
            return .redirect(to: target, type: .normal)
        case .session(let session, _):
            if ![.get, .head, .options].contains(request.method) {
                var request = request
                let token: String?
                if let header = request.headers[.csrfToken] {
                    token = header
                } else if request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true {
                    token = Form(String(buffer: try await request.collectBody(upTo: context.maxUploadSize)))["csrf"]
                } else {
                    token = nil
                }
                guard let token, Secret.matches(token, session.csrfToken) else {
                    throw Problem(.forbidden, "This form has expired or did not come from Commission (its CSRF token is missing or wrong). Reload the page and try again.")
                }
                return try await Audit.$actor.withValue(session.account.username) { try await next(request, context) }
            }
            return try await next(request, context)
        case .token(let account):
            // Changes made through the API are on record as the token's owner's.
            return try await Audit.$actor.withValue("\(account.username) (API)") { try await next(request, context) }
        }
    }
}

extension HTTPField.Name {
    static let csrfToken = Self("X-CSRF-Token")!
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let idempotencyKey = Self("Idempotency-Key")!
}

/// Slows down guessing: after 5 failed sign-ins for a name, each further attempt must wait
/// 2, 4, 8 … (at most 300) seconds after the last failure.
actor LoginThrottle {
    private var failures: [String: (count: Int, last: ContinuousClock.Instant)] = [:]

    /// Seconds to wait before this name may try again, or nil.
    func wait(for username: String) -> Int? {
        guard let entry = failures[username.lowercased()], entry.count >= 5 else { return nil }
        let delay = Duration.seconds(min(300, 1 << min(entry.count - 4, 9)))
        let remaining = entry.last + delay - ContinuousClock.now
        return remaining > .zero ? Int(remaining.components.seconds) + 1 : nil
    }

    func failed(_ username: String) {
        let key = username.lowercased()
        failures[key] = ((failures[key]?.count ?? 0) + 1, ContinuousClock.now)
    }

    func succeeded(_ username: String) {
        failures[username.lowercased()] = nil
    }
}
