import CommissionCore
import CommissionStore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Synchronization

/// One log line per request: method, path, status, duration.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        // In tenths of a millisecond, rounded; formatted by hand (String(format:) costs a request some microseconds).
        let tenths =
            (elapsed.components.seconds * 10_000) + (elapsed.components.attoseconds + 50_000_000_000_000)
            / 100_000_000_000_000
        context.logger.info(
            "\(request.method) \(Self.loggable(request.uri.path)) \(response.status.code) \(tenths / 10).\(tenths % 10)ms"
        )
        return response
    }

    /// A path as the log may keep it: the secret of a link that is its own key (an invitation, her
    /// calendar feed) left out.
    static func loggable(_ path: String) -> String {
        for prefix in ["/invite/", "/calendar/"] where path.hasPrefix(prefix) {
            return prefix + "…" + (path.hasSuffix(".ics") ? ".ics" : "")
        }
        return path
    }
}

/// Headers that keep the pages safe in a browser: no inline scripts, no framing, no sniffing, no
/// powerful features, and behind TLS (`--secure-cookies`) HTTPS only.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// The app is served over TLS: browsers are told to use nothing else (HSTS).
    let overTLS: Bool

    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        Self.secure(&response, overTLS: overTLS)
        return response
    }

    static let permissionsPolicy = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()"

    static func secure(_ response: inout Response, overTLS: Bool) {
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.referrerPolicy] = "same-origin"
        response.headers[.permissionsPolicy] = permissionsPolicy
        response.headers[.commissionRelease] = ServedRelease.stamp
        if overTLS { response.headers[.strictTransportSecurity] = "max-age=31536000; includeSubDomains" }
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
    }
}

/// Turns every error into a response: a problem detail under `/api/`, a page elsewhere. A client
/// error is a 4xx with a sentence; anything unexpected is logged in full and shown as a short 500.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let pages: Pages

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let surface = Surface.of(request)
            let problem = Problem.from(error, on: surface)
            problem.log(error, request, context: context)
            if surface == .api { return problem.response }
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

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = routes.methods(serving: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            var problem = Problem(
                .methodNotAllowed,
                "\(request.uri.path) does not take \(request.method); it takes \(allowed.map(\.rawValue).joined(separator: ", "))."
            )
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

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.bodyLimit = configuration.maxBodySize
        // The operator's token is not a book's: /metrics checks it itself.
        if request.uri.path == "/metrics" { return try await next(request, context) }
        if let secret = Self.bearerSecret(request) {
            guard
                let account = try await store.account(tokenDigest: Secret.digest(secret), now: configuration.clock.now)
            else {
                throw Problem(
                    .unauthorized,
                    "The bearer token is unknown or revoked: an owner creates a new one on the Settings page of the web app."
                )
            }
            context.caller = .token(account)
        } else if let cookie = request.cookies[Self.cookieName]?.value, !cookie.isEmpty {
            let digest = Secret.digest(cookie)
            if let session = try await store.session(tokenDigest: digest, now: configuration.clock.now) {
                context.caller = .session(session, tokenDigest: digest)
            }
        }
        return try await next(request, context)
    }

    /// The secret of an `Authorization: Bearer` header.
    static func bearerSecret(_ request: Request) -> String? {
        guard let authorization = request.headers[.authorization] else { return nil }
        // The scheme's name in any case (RFC 9110), compared on its bytes: lowercasing the whole
        // header would copy the secret on every request.
        let scheme = authorization.utf8.prefix(7)
        guard scheme.count == 7,
            zip(scheme, "bearer ".utf8).allSatisfy({ (0x41...0x5A).contains($0) ? $0 | 0x20 == $1 : $0 == $1 })
        else { return nil }
        return authorization.dropFirst(7).trimmingWhitespace()
    }
}

/// Lets only signed-in callers through, and demands the CSRF token on every state-changing request
/// made with a session cookie (a hidden `csrf` form field, or the `X-CSRF-Token` header).
struct RequireAccountMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// Whether a caller without an account is sent to `/setup` rather than to sign in.
    let setupIsOpen: @Sendable () async throws -> Bool
    /// The routes that take a streamed upload and check its CSRF part themselves.
    static let streamedUploads: Set<String> = ["/transfer/restore", "/import/workbook", "/compare/file"]

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let isAPI = request.uri.path.hasPrefix("/api/")
        switch context.caller {
        case .anonymous:
            if isAPI {
                throw Problem(
                    .unauthorized,
                    "Sign in first: send a session cookie, or an `Authorization: Bearer` token."
                )
            }
            let target = try await setupIsOpen() ? "/setup" : "/login"
            return .redirect(to: target, type: .normal)
        case .session(let session, _):
            if ![.get, .head, .options].contains(request.method) {
                var request = request
                let token: String?
                if let header = request.headers[.csrfToken] {
                    token = header
                } else if request.headers[.contentType]?.hasPrefix("multipart/form-data") == true,
                    Self.streamedUploads.contains(request.uri.path)
                {
                    // The body is a file too big to hold: the route reads the form's csrf part
                    // first and refuses the file unless it matches (TransferJob.stageRestore).
                    var context = context
                    context.uploadCSRF = session.csrfToken
                    return try await Audit.$actor.withValue(session.account.username) {
                        try await next(request, context)
                    }
                } else if request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true {
                    token = Form(String(buffer: try await request.collectBody(upTo: context.maxUploadSize)))["csrf"]
                } else {
                    token = nil
                }
                guard let token, Secret.matches(token, session.csrfToken) else {
                    throw Problem(
                        .forbidden,
                        "This form has expired or did not come from Commission (its CSRF token is missing or wrong). Reload the page and try again."
                    )
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
    package static let idempotencyKey = Self("Idempotency-Key")!
    static let permissionsPolicy = Self("Permissions-Policy")!
    static let strictTransportSecurity = Self("Strict-Transport-Security")!
    static let xForwardedFor = Self("X-Forwarded-For")!
    /// The server's release on every answer (``ServedRelease``).
    package static let commissionRelease = Self("Commission-Release")!
}

/// Slows down guessing passwords, without letting a stranger lock her out.
///
/// Failures are counted per name *and address* (five free, then 2, 4, 8 … at most 300 seconds
/// between tries), per address over all names (twenty: name spraying), and per name over all
/// addresses (twenty: a guess spread over many machines). The name-only lock lets through a device
/// she signed in from before (a signed cookie of that sign-in, ``KnownDevice``), so someone failing
/// on purpose from elsewhere does not keep her out; her own address and device are slowed only by
/// their own failures. The counts are kept in the database (``SignInThrottleStore``), so every
/// server process on it slows the same guesses down; counts whose last failure is an hour old are
/// forgotten. An attempt is counted *before* its password is compared, so that thirty sent at
/// once are five checked and twenty-five refused, not thirty checked. The same slowdown guards
/// the current password asked by a change of password.
final class LoginThrottle: Sendable {
    let store: any SignInThrottleStore
    let clock: any WallClock
    /// The device key, once read (it never changes): a sign-in asks for it twice.
    private let readKey = Mutex<KnownDevice.Key?>(nil)

    init(store: any SignInThrottleStore, clock: any WallClock = SystemClock()) {
        self.store = store
        self.clock = clock
    }
    static let pairAllowance = 5, wideAllowance = 20
    static let forgetAfter: TimeInterval = 3600

    static func keys(name: String, address: String) -> (pair: String, address: String, name: String) {
        let name = StoreInput.usernameKey(name)
        return ("pair:\(name)|\(address)", "address:\(address)", "name:\(name)")
    }

    /// What became of an attempt.
    enum Attempt<Who> {
        /// Refused before its password was compared: try again in this many seconds.
        case wait(seconds: Int)
        /// The password matched: who she is (her counts for this name and address are cleared).
        case matched(Who)
        /// The password was wrong (counted).
        case wrong
    }

    /// One attempt of `name` from `address`: refused while it must wait, else counted and let
    /// through to `check`, which compares the password and says who matched (nil: nobody).
    func attempt<Who>(
        name: String,
        address: String,
        knownDevice: Bool,
        _ check: () async throws -> Who?
    ) async throws -> Attempt<Who> {
        let keys = Self.keys(name: name, address: address)
        let all = [keys.pair, keys.address, keys.name]
        let now = clock.now
        // Most attempts made while waiting are refused here, without counting them.
        if let seconds = Self.wait(try await store.signInFailures(all), keys: keys, knownDevice: knownDevice, now: now)
        {
            return .wait(seconds: seconds)
        }
        // Counted first: one sent at the same moment is counted after this one, and waits if this one used the last free try.
        let before = try await store.countSignInAttempt(
            all,
            now: now,
            forgetBefore: now.addingTimeInterval(-Self.forgetAfter)
        )
        if let seconds = Self.wait(before, keys: keys, knownDevice: knownDevice, now: now) {
            try await store.withdrawSignInAttempt(all)
            return .wait(seconds: seconds)
        }
        let matched: Who?
        do {
            matched = try await check()
        } catch {
            // try?: the attempt taken back, with the check's error thrown; one left counted only slows her next tries
            try? await store.withdrawSignInAttempt(all)
            throw error
        }
        guard let matched else { return .wrong }
        // Her success is no failure, and clears the count of her own name and address only: a guess
        // spread over other addresses stays counted (and locked) for every device but the ones she
        // signed in from.
        try await store.withdrawSignInAttempt([keys.address, keys.name])
        try await store.forgetSignInFailures(keys.pair)
        return .matched(matched)
    }

    /// Seconds to wait before this name may try again from this address, given these counts, or nil.
    static func wait(
        _ counts: [String: SignInFailures],
        keys: (pair: String, address: String, name: String),
        knownDevice: Bool,
        now: Date
    ) -> Int? {
        [
            delay(counts[keys.pair], allowance: pairAllowance, now: now),
            delay(counts[keys.address], allowance: wideAllowance, now: now),
            knownDevice ? nil : delay(counts[keys.name], allowance: wideAllowance, now: now),
        ].compactMap { $0 }.max()
    }

    private static func delay(_ count: SignInFailures?, allowance: Int, now: Date) -> Int? {
        guard let count, count.failures >= allowance else { return nil }
        let delay = TimeInterval(min(300, 1 << min(count.failures - allowance + 1, 9)))
        let remaining = count.last.addingTimeInterval(delay).timeIntervalSince(now)
        return remaining > 0 ? Int(remaining.rounded(.up)) : nil
    }

    /// The key that signs the known-device cookies: the server's, kept in the database, so that a
    /// device one process knows is known to every other.
    func deviceKey() async throws -> KnownDevice.Key {
        if let key = readKey.withLock({ $0 }) { return key }
        var generator = SystemRandomNumberGenerator()
        let candidate = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let key = KnownDevice.Key(
            bytes: try await store.serverSecret(named: "known-device-cookie", candidate: candidate)
        )
        readKey.withLock { $0 = key }
        return key
    }
}

/// The signed cookie a browser keeps after a sign-in: it makes the device known to the sign-in
/// slowdown for that name. Signed with the server's key (``LoginThrottle/deviceKey()``).
enum KnownDevice {
    static let cookieName = "commission_device"
    static let lifetime: TimeInterval = 180 * 24 * 3600

    struct Key: Sendable, TemplateValues {
        let bytes: [UInt8]
    }

    static func cookie(for name: String, key: Key, now: Date) -> String {
        let payload =
            "\(Int64(now.addingTimeInterval(lifetime).timeIntervalSince1970)).\(Data(StoreInput.usernameKey(name).utf8).base64EncodedString())"
        return payload + "." + signature(payload, key: key)
    }

    static func isKnown(_ cookie: String?, for name: String, key: Key, now: Date) -> Bool {
        guard let cookie else { return false }
        let parts = cookie.split(separator: ".")
        guard parts.count == 3, let expiry = Int64(parts[0]), expiry > Int64(now.timeIntervalSince1970),
            Secret.matches(String(parts[2]), signature("\(parts[0]).\(parts[1])", key: key)),
            let signedName = Data(base64Encoded: String(parts[1])).map({ String(decoding: $0, as: UTF8.self) })
        else { return false }
        return signedName == StoreInput.usernameKey(name)
    }

    private static func signature(_ payload: String, key: Key) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(payload.utf8), using: SymmetricKey(data: key.bytes))).hexadecimal
    }
}
