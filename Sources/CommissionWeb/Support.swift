import CommissionCore
import CommissionKit
import CommissionStore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Synchronization

/// How `commission serve` runs.
public struct WebConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Mark cookies `Secure` (set when the app is served over TLS, directly or behind a proxy).
    public var secureCookies: Bool
    /// How long a sign-in lasts.
    public var sessionLifetime: TimeInterval
    /// The largest request body accepted, in bytes (an import upload is the biggest).
    public var maxBodySize: Int
    /// bcrypt's cost for new passwords (lower only in tests).
    public var bcryptCost: UInt8
    /// Take the client's address from `X-Forwarded-For` (set only behind a reverse proxy that
    /// writes it), for the sign-in slowdown; else the connection's peer is the client.
    public var trustForwardedFor: Bool
    /// The largest backup the transfer page takes to restore, in bytes (streamed to disk, not held).
    public var maxBackupSize: Int
    /// What the server counts, exposed at `/metrics` to the operator's token; nil keeps none.
    public var metrics: ServerMetrics?
    /// On a server of several books: how long the app of a book nobody used is kept before it is
    /// released (built again, in milliseconds, by its next request).
    public var releaseBooksIdleFor: Duration = .seconds(600)
    /// On a server of several books: how many books' apps are kept at most; beyond, the least
    /// recently used is released first.
    public var booksKept: Int = 100
    /// The address people reach the server at, for the links it makes (invitations); without one,
    /// the server's own `http://host:port`.
    public var publicAddress: PublicAddress?
    /// Uploaded workbooks are unpacked one at a time across the server (every book's app shares
    /// this configuration's gate): however many arrive at once, the memory and CPU an upload may
    /// cost (``workbookLimits``) is not multiplied.
    public let workbookReads = WorkGate(permits: 1)
    /// What an uploaded workbook may unpack to, in proportion to ``maxBodySize``.
    public var workbookLimits: WorkbookLimits { .upload(maxBodySize: maxBodySize) }
    /// What every time window is measured by (sessions, links, tokens, the sign-in slowdown,
    /// idempotency keys, idle books, staged uploads): the system's clock, or a test's.
    public var clock: any WallClock = SystemClock()
    /// Where a sample book is kept — a new, empty store (in memory) — when the server of one book
    /// offers "Try it first" on its set-up page (``SampleBook``); nil offers none.
    public var sampleStore: (@Sendable () async throws -> any WebStore)?
    /// How her reminders go out (Web Push): the push services' transport (`serve`'s HTTP client;
    /// nil sends none, and Settings → Notifications says so), who runs the server for the push
    /// services to reach (the VAPID `sub`: a `mailto:` or `https:` URL; the public address by
    /// default), and whether an endpoint inside the server's network may be called (tests only).
    public var pushTransport: (any PushTransport)?
    public var pushContact: String?
    public var unsafePushEndpoints = false

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        secureCookies: Bool = false,
        sessionLifetime: TimeInterval = 30 * 24 * 3600,
        maxBodySize: Int = 8 * 1024 * 1024,
        bcryptCost: UInt8 = 12,
        trustForwardedFor: Bool = false,
        maxBackupSize: Int = 1 << 30
    ) {
        self.maxBackupSize = maxBackupSize
        self.host = host
        self.port = port
        self.secureCookies = secureCookies
        self.sessionLifetime = sessionLifetime
        self.maxBodySize = maxBodySize
        self.bcryptCost = bcryptCost
        self.trustForwardedFor = trustForwardedFor
    }
}

extension WebConfiguration {
    /// Where the links the server makes lead: its public address, else its own.
    public var linkBase: String {
        if let publicAddress { return publicAddress.text }
        let shown = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        return "\(secureCookies ? "https" : "http")://\(shown.contains(":") ? "[\(shown)]" : shown):\(port)"
    }
}

/// The store the web app needs: the book, its accounts and its members.
public typealias WebStore = ServerBookStore

/// Who is asking, once the authenticator has looked at the request.
public enum Caller: Sendable {
    case anonymous
    /// A browser with a session cookie; its state-changing requests must carry the CSRF token.
    case session(SessionRecord, tokenDigest: String)
    /// An API client with a bearer token: no cookies, so no CSRF to fear.
    case token(Account)

    public var account: Account? {
        switch self {
        case .anonymous: nil
        case .session(let session, _): session.account
        case .token(let account): account
        }
    }
}

/// The request context of every route: Hummingbird's core storage plus the caller.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var caller: Caller = .anonymous
    var bodyLimit: Int = 8 * 1024 * 1024
    /// For an upload (`multipart/form-data`) to a route that streams its body: the session's CSRF
    /// token, which the route checks against the form's `csrf` part before it keeps any file part.
    var uploadCSRF: String?
    /// The peer's address (`127.0.0.1`), when the connection has one.
    public let peerAddress: String?
    /// Answered by the sample book (``SampleBook``): every page says so.
    var isSample = false

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
    }

    public var maxUploadSize: Int { bodyLimit }
}

/// The digest the store keeps of a session or token secret, for tools outside the web app.
public enum WebSecrets {
    public static func digest(_ secret: String) -> String { Secret.digest(secret) }
    /// A new random secret, as the web app makes them.
    public static func make() -> String { Secret.make() }
    /// The path of an invitation link, before its secret.
    public static let invitationPath = AccountJob.invitationPath
}

/// Random secrets and their digests.
enum Secret {
    /// 32 random bytes, hex: for session cookies, API tokens and CSRF tokens.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }.hexadecimal
    }

    /// What the store keeps instead of the secret.
    static func digest(_ secret: String) -> String {
        var secret = secret
        return secret.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }.hexadecimal
    }

    /// Compares two secrets in time that does not depend on where they differ.
    static func matches(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count, !x.isEmpty else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}

/// An `application/x-www-form-urlencoded` body or query, as a dictionary (the last value of a repeated key wins).
struct Form: Sendable, TemplateValues {
    var values: [String: String]

    init(values: [String: String]) { self.values = values }

    init(_ text: String) {
        values = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String {
                String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s)
            }
            values[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
    }

    static func read(_ request: Request, context: AppRequestContext) async throws -> Form {
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        return Form(String(buffer: buffer))
    }

    subscript(_ key: String) -> String? {
        guard let value = values[key]?.trimmingWhitespaceAndNewlines(), !value.isEmpty else { return nil }
        return value
    }
}

/// An RFC 9457 problem detail: every API error, with a sentence in `detail`.
package struct Problem: Error, Encodable, Sendable {
    var type: String = "about:blank"
    var title: String
    package var status: Int
    package var detail: String
    /// For an import: each bad row.
    var errors: [RowError]?
    /// For a 405: the methods the path takes, sent as `Allow`.
    var allow: [HTTPRequest.Method]?
    /// For a refusal of the store: the ``StoreError`` as data, which a remote store
    /// (`CommissionClient`) turns back into the same error.
    var error: StoreErrorWire?
    /// On a page: the form that does what the sentence asks (not sent by the API).
    package var link: PageLink?
    /// For an import whose sales need what the book lacks: what, to make with `createMissing`.
    var missing: API.MissingRecords?
    /// On a page: the form's field the sentence is about (`quantity`, `price`…), for the page to
    /// put it beside it (not sent by the API).
    package var field: String?
    /// On a page: the sentence asks rather than refuses ("Save anyway?"): the same form sent with
    /// `confirmed` is taken (not sent by the API).
    package var confirm: Bool?

    private enum CodingKeys: String, CodingKey {
        case type, title, status, detail, errors, error, missing, field, confirm
    }

    struct RowError: Encodable, Sendable {
        var line: Int
        var column: String?
        var reason: String
    }

    init(_ status: HTTPResponse.Status, _ detail: String, errors: [RowError]? = nil) {
        self.title = status.reasonPhrase
        self.status = status.code
        self.detail = detail
        self.errors = errors
    }

    /// The problem an error stands for. Raw database errors never reach here: the store turns them
    /// into ``StoreError/storage(_:)``, whose text is generic.
    /// A refusal of the store or the core carries itself as data too (`error`).
    /// `surface` is where the sentence is told: a page (and its script) or the API; a refusal
    /// says what to do there (``StoreError/message(on:)``).
    /// `style`: how the page writes amounts (a refusal's amounts in her way), when known.
    package static func from(_ error: any Error, on surface: Surface = .api, style: LocaleStyle? = nil) -> Problem {
        var problem = problem(for: error, on: surface)
        if surface == .page, let style, let error = error as? SaleLineError {
            problem.detail = error.message(style: style)
        }
        if problem.error == nil { problem.error = StoreErrorWire(error) }
        if surface == .page, let error = error as? StoreError { problem.link = PageLink.doing(error) }
        if surface == .page, problem.field == nil { problem.field = formField(for: error) }
        return problem
    }

    private static func problem(for error: any Error, on surface: Surface) -> Problem {
        switch error {
        case let problem as Problem:
            return problem
        case let error as StoreError:
            let detail = error.message(on: surface)
            switch error {
            case .notFound: return Problem(.notFound, detail)
            case .duplicateName, .duplicateSKU, .hasHistory, .periodClosed, .unreadable, .alreadyImported:
                return Problem(.conflict, detail)
            case .storage, .unavailable: return Problem(.serviceUnavailable, detail)
            case .importRejected(let problems, _):
                return Problem(
                    .unprocessableContent,
                    detail,
                    errors: problems.map { RowError(line: $0.line, column: $0.column, reason: $0.reason(on: surface)) }
                )
            default: return Problem(.unprocessableContent, detail)
            }
        case let error as HTTPError:
            return Problem(error.status, error.body ?? error.status.reasonPhrase)
        case let error as any HTTPResponseError where error.status == .contentTooLarge:
            return Problem(.contentTooLarge, "The request body is larger than this server accepts.")
        case let error as any HTTPResponseError:
            return Problem(error.status, error.status.reasonPhrase)
        case is DecodingError:
            return Problem(
                .badRequest,
                "The request body is not the JSON this endpoint expects: \(describe(error as! DecodingError))"
            )
        case let described as any CustomStringConvertible
        where error is MoneyError || error is SaleLineError || error is DayError
            || error is ShareError || error is PayScheduleError || error is CurrencyError || error is DateOutOfRange:
            return Problem(.unprocessableContent, described.description)
        default:
            return Problem(
                .internalServerError,
                "Something went wrong on the server; nothing was changed. The log has the details."
            )
        }
    }

    /// The field of a page's form an error is about, by the name the forms give it: a sale's
    /// (`quantity`, `price`…), and the book's, the payouts' and the settings' forms, which name
    /// theirs alike (`name`, `sku`, `cost`, `from` for an effective date, `until` for a last day,
    /// `received`, `amount`…). A form whose field has another name renames it
    /// (``field(renaming:)``); a page marks the field when its form has one of that name.
    static func formField(for error: any Error) -> String? {
        if let error = error as? StoreError, case .currencyLocked = error { return "currency" }
        guard let field = StoreInput.importField(for: error) else { return nil }
        if let error = error as? StoreError, case .noTermsInForce = error { return "clinic" }
        switch field {
        case "unit price", "unitPrice", "price": return "price"
        case "unit cost", "unitCost", "cost": return "cost"
        case "effective from", "effectiveFrom": return "from"
        case "last day", "lastDay": return "until"
        case "received on", "receivedOn": return "received"
        case "clinic name", "product name", "token name", "name": return "name"
        // A change of a clinic's schedule that would alter a period: the day it starts is the answer.
        case "schedule": return "scheduleFrom"
        case "time zone": return "timeZone"
        // A column mapping's: its name, and the columns it maps (the table of a file's columns).
        case "mapping name": return "mappingName"
        case "mapping": return "columns"
        case "quantity", "discount", "date", "clinic", "product", "note", "sku", "amount", "period", "anchor", "tiers",
            "locale":
            return field
        default: return nil
        }
    }

    /// What is wrong with a body the decoder refused: Foundation's decoder says "not valid JSON"
    /// of a number it cannot take (a fraction, or beyond 64 bits, where a whole number is
    /// expected), so a body that is JSON is searched for such a number, named with its field.
    static func describe(_ error: DecodingError, in body: Data) -> String {
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
            // try?: a body that is not JSON has no number to name: the decoder's own words are said below
            let json = try? JSONDecoder().decode(JSONNode.self, from: body),
            let (path, number) = json.wholeNumberOutOfRange()
        {
            return
                "the field \"\(path)\" is \(number): a whole number from \(Int64.min) to \(Int64.max) is expected there."
        }
        return describe(error)
    }

    /// A JSON body, read only to find a number that no 64-bit whole number holds.
    private enum JSONNode: Decodable {
        case wholeNumber, otherNumber(String), array([JSONNode]), object([String: JSONNode]), other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            // try?: each probes a kind of JSON value: one that throws is not that kind, and the next is tried
            func probe<T: Decodable>(_ type: T.Type) -> T? { try? container.decode(type) }
            if container.decodeNil() || probe(Bool.self) != nil || probe(String.self) != nil {
                self = .other
            } else if probe(Int64.self) != nil {
                self = .wholeNumber
            } else if let number = probe(Decimal.self) {
                self = .otherNumber("\(number)")  // a fraction, an exponent, or beyond 64 bits
            } else if let number = probe(Double.self) {
                self = .otherNumber("\(number)")  // beyond what a Decimal holds (1e200)
            } else if let array = probe([JSONNode].self) {
                self = .array(array)
            } else {
                self = .object(try container.decode([String: JSONNode].self))
            }
        }

        /// The first such number, with its path (`lines.2.quantity`).
        func wholeNumberOutOfRange(path: String = "") -> (String, String)? {
            switch self {
            case .otherNumber(let number): return (path, number)
            case .array(let items):
                for (index, item) in items.enumerated() {
                    if let found = item.wholeNumberOutOfRange(path: "\(path).\(index)") { return found }
                }
            case .object(let members):
                for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                    if let found = member.wholeNumberOutOfRange(path: path.isEmpty ? key : "\(path).\(key)") {
                        return found
                    }
                }
            case .wholeNumber, .other: break
            }
            return nil
        }
    }

    /// The values a field of a choice takes, by its name, for the sentence that refuses another.
    static let choices: [String: [String]] = [
        "basis": CommissionBasis.allCases.map(\.rawValue), "rounding": RoundingRule.allCases.map(\.rawValue),
        "roundingScope": RoundingScope.allCases.map(\.rawValue), "role": MemberRole.allCases.map(\.rawValue),
    ]

    /// A field's path as the refusal names it: `writes.2.terms.basis` (an array's element by its
    /// index from 0, as the out-of-range number's path is named).
    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context): return "the field \"\(path(context.codingPath + [key]))\" is missing."
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "the field \"\(path(context.codingPath))\" has the wrong type."
        case .dataCorrupted(let context):
            let path = path(context.codingPath)
            if let field = context.codingPath.last?.stringValue, let values = choices[field] {
                return "the field \"\(path)\" is " + values.map { "\"\($0)\"" }.joined(separator: " or ") + "."
            }
            return path.isEmpty ? "it is not valid JSON." : "the field \"\(path)\": \(context.debugDescription)"
        @unknown default: return "it cannot be read."
        }
    }

    /// Logs the error behind a server's failure (5xx) in full: at error level, but a refusal while
    /// the database is away at debug level — the database's watcher says the outage once when it
    /// starts and once when it ends, rather than a line for each of the requests it refuses.
    func log(_ error: any Error, _ request: Request, context: AppRequestContext, doing what: String = "failed") {
        guard status >= 500 else { return }
        let level: Logger.Level = (error as? StoreError)?.isUnavailable == true ? .debug : .error
        context.logger.log(
            level: level,
            "\(request.method) \(RequestLogMiddleware.loggable(request.uri.path)) \(what): \(String(reflecting: error))"
        )
    }

    /// How long a client waits before trying again when the database is away (a 503).
    static let retryAfter = "5"

    var response: Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // try?: strings, whole numbers and Bools only: encoding them cannot throw
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        var headers: HTTPFields = [.contentType: "application/problem+json"]
        if status == 503 { headers[.retryAfter] = Self.retryAfter }
        if let allow { headers[.allow] = allow.map(\.rawValue).joined(separator: ", ") }
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension HTTPResponse.Status {
    static let unprocessableContent = HTTPResponse.Status(code: 422, reasonPhrase: "Unprocessable Content")
}

extension DateOrder {
    /// The order as a page's choice reads it: "month/day/year (2/25/2026)".
    var described: String {
        switch self {
        case .mdy: "month/day/year (2/25/2026)"
        case .dmy: "day/month/year (25.02.2026)"
        case .ymd: "year/month/day"
        }
    }
}

/// At most `permits` bodies run at once; the others wait their turn, in order.
public final class WorkGate: Sendable {
    private struct State {
        var available: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>

    public init(permits: Int) {
        state = Mutex(State(available: max(1, permits)))
    }

    public func run<T>(_ body: () async throws -> T) async throws -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                guard state.available > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.available -= 1
                return true
            }
            if now { continuation.resume() }
        }
        defer {
            let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
                if state.waiting.isEmpty {
                    state.available += 1
                    return nil
                }
                return state.waiting.removeFirst()
            }
            next?.resume()
        }
        return try await body()
    }
}

/// A link to the form that does what a page's sentence asks: "Add Glow's terms".
package struct PageLink: Sendable, Equatable, TemplateValues {
    package let label: String
    package let href: String

    package init(label: String, href: String) { (self.label, self.href) = (label, href) }

    /// After an import: her figures, where she sees what came in.
    static let afterImport = PageLink(label: "See what each clinic owes you ›", href: "/dashboard")

    /// The form that settles `error`, when a page has one: terms missing on a day → the terms
    /// form, for that clinic from that day; a name not found → the list it is added to.
    static func doing(_ error: StoreError) -> PageLink? {
        switch error {
        case .noTermsInForce(let clinic, _, let day):
            let name = clinic.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            return PageLink(label: "Add \(clinic)'s terms", href: "/book?clinic=\(name)&from=\(day)#terms")
        case .unknownClinic, .unknownProduct:
            return PageLink(label: "Clinics & products", href: "/book")
        case .periodClosed:
            return PageLink(label: "Payouts", href: "/payouts")
        default:
            return nil
        }
    }
}

extension Surface {
    /// Where a request's refusal is told: the API under `/api/`, a page (or its script) elsewhere.
    static func of(_ request: Request) -> Surface {
        request.uri.path.hasPrefix("/api/") ? .api : .page
    }
}
