import CommissionKit
import CommissionStore
import Foundation
import HTTPTypes
import Hummingbird

/// "Try it first": the sample book an empty book's first screen offers — the demo book (a year of
/// sales at four clinics), in memory, with an account of its own, answered instead of her book to
/// a browser that opened it, under a banner that says so on every page.
///
/// It never touches her book: it is another store, whatever is done in it stays in it, and it
/// ends in one tap (**Set up your own book**), when she signs out of it, or once her book is set
/// up. Offered by a server of one book while that book awaits set-up, when its configuration says
/// where a sample is kept (``WebConfiguration/sampleStore``); a server of several books does not
/// offer it.
actor SampleBook {
    typealias Built = (responder: RouterResponder<AppRequestContext>, store: any WebStore, account: Account)
    let configuration: WebConfiguration
    let makeStore: @Sendable () async throws -> any WebStore
    /// The sample being built or built: every caller awaits the one build (two browsers opening it
    /// at once share it, and neither's session is lost to a second build).
    private var building: Task<Built, any Error>?

    /// The cookie that sends a browser's requests to the sample.
    static let cookieName = "commission_sample"

    init(configuration: WebConfiguration, makeStore: @escaping @Sendable () async throws -> any WebStore) {
        self.configuration = configuration
        self.makeStore = makeStore
    }

    /// The sample's app, built on its first use (the demo book up to today).
    func app() async throws -> Built {
        if let building { return try await building.value }
        let (configuration, makeStore) = (configuration, makeStore)
        let task = Task { () throws -> Built in
            let store = try await makeStore()
            _ = try await DemoBook(today: try await store.settings().today()).build(in: store)
            // No password opens it: a session made by ``openSession()`` is the only way in.
            let account = try await store.createOwner(username: "sample", passwordHash: "!")
            let router = buildRouter(
                configuration: configuration,
                store: store,
                routes: RouteLog(),
                setupIsOpen: { false },
                sample: nil
            )
            return (router.buildResponder(), store, account)
        }
        building = task
        do { return try await task.value } catch {
            building = nil  // a failed build is tried again by the next visitor
            throw error
        }
    }

    /// A new session in the sample: its cookie's secret.
    func openSession() async throws -> String {
        let built = try await app()
        let (store, account) = (built.store, built.account)
        let secret = Secret.make()
        try await store.createSession(
            account: account.id,
            tokenDigest: Secret.digest(secret),
            csrfToken: Secret.make(),
            expiresAt: configuration.clock.now.addingTimeInterval(configuration.sessionLifetime)
        )
        return secret
    }

    /// Whether a browser's session in the sample is still one (the sample is in memory: a server
    /// started again has a new one, where the old cookie opens nothing).
    func hasSession(secret: String) async -> Bool {
        // try?: a sample that cannot be built has no session: the browser is sent out of it, to set-up
        guard let built = try? await app() else { return false }
        // try?: a session that cannot be read is none: the browser leaves the sample, which holds nothing of hers
        return (try? await built.store.session(tokenDigest: Secret.digest(secret), now: configuration.clock.now)) != nil
    }

    /// Ends a browser's session in the sample (it left).
    func endSession(secret: String) async {
        // try?: a sample that failed to build holds no session to end
        guard let building, let built = try? await building.value else { return }
        // try?: the in-memory sample's session; the browser's cookie is cleared as it leaves, so it opens nothing
        try? await built.store.deleteSession(tokenDigest: Secret.digest(secret))
    }

    /// Lets the sample go (her book is set up: nobody is sent to it any more).
    func release() { building = nil }

    /// What a browser keeps of the site — the offline copies of its pages, the sales waiting to
    /// send — cleared when it enters or leaves the sample, so that nothing of one reaches the other.
    static let clearSiteData = HTTPField.Name("Clear-Site-Data")!

    /// A response that ends the sample in this browser: both cookies and what it keeps of the site
    /// cleared, and on to `location`.
    static func leave(to location: String, configuration: WebConfiguration) -> Response {
        var response = forget(
            [cookieName, AuthenticationMiddleware.cookieName],
            to: location,
            configuration: configuration
        )
        response.headers[clearSiteData] = #""cache", "storage""#
        return response
    }

    /// A redirect to `location` that clears the cookies `names`.
    static func forget(_ names: [String], to location: String, configuration: WebConfiguration) -> Response {
        var response = Response.redirect(to: location)
        for name in names {
            response.setCookie(
                Cookie(
                    name: name,
                    value: "",
                    maxAge: 0,
                    path: "/",
                    secure: configuration.secureCookies,
                    httpOnly: true,
                    sameSite: .lax
                )
            )
        }
        return response
    }

    /// Whether the sample takes this request: its pages and their forms, not what reaches beyond a
    /// look around — the API, imports and restores (uploads held in the server's memory), settings,
    /// tokens and invitations.
    static func takes(_ request: Request) -> Bool {
        let path = request.uri.path
        if path.hasPrefix("/api/") { return false }
        guard request.method != .get && request.method != .head else { return true }
        return !["/import", "/transfer", "/settings"].contains { path == $0 || path.hasPrefix($0 + "/") }
    }
}

/// Sends a browser that opened the sample book to it — every page, the API and the files — until
/// it leaves (`/sample/leave`, or Sign out), or her own book is set up.
struct SampleMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let sample: SampleBook
    let configuration: WebConfiguration
    let setupIsOpen: @Sendable () async throws -> Bool

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.cookies[SampleBook.cookieName]?.value == "1" else { return try await next(request, context) }
        guard try await setupIsOpen() else {
            // Her book was set up meanwhile: the sample is over, and her book answers from now on.
            if let secret = request.cookies[AuthenticationMiddleware.cookieName]?.value {
                await sample.endSession(secret: secret)
            }
            await sample.release()
            return SampleBook.leave(to: "/login", configuration: configuration)
        }
        if request.uri.path == "/sample/leave" || (request.method == .post && request.uri.path == "/logout") {
            if let secret = request.cookies[AuthenticationMiddleware.cookieName]?.value {
                await sample.endSession(secret: secret)
            }
            return SampleBook.leave(to: "/setup", configuration: configuration)
        }
        // A cookie the sample no longer knows (the server started again, the session over): out of the sample, back to set-up.
        guard let secret = request.cookies[AuthenticationMiddleware.cookieName]?.value,
            await sample.hasSession(secret: secret)
        else {
            return SampleBook.leave(to: "/setup", configuration: configuration)
        }
        var context = context
        context.isSample = true
        guard SampleBook.takes(request) else {
            var refusal = Problem(
                .forbidden,
                "The sample book is for looking around: it does not import, restore, change settings or answer the API. Set up your own book for that."
            )
            refusal.link = PageLink(label: "Set up your own book", href: "/sample/leave")
            return Pages.shared.errorPage(refusal, context: context)
        }
        return try await sample.app().responder.respond(to: request, context: context)
    }
}
