import CommissionKit
import CommissionStore
import Foundation
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
    let configuration: WebConfiguration
    let makeStore: @Sendable () async throws -> any WebStore
    private var built: (responder: RouterResponder<AppRequestContext>, store: any WebStore, account: Account)?

    /// The cookie that sends a browser's requests to the sample.
    static let cookieName = "commission_sample"

    init(configuration: WebConfiguration, makeStore: @escaping @Sendable () async throws -> any WebStore) {
        self.configuration = configuration
        self.makeStore = makeStore
    }

    /// The sample's app, built on its first use (the demo book up to today).
    func app() async throws -> (responder: RouterResponder<AppRequestContext>, store: any WebStore, account: Account) {
        if let built { return built }
        let store = try await makeStore()
        _ = try await DemoBook(today: try await store.settings().today()).build(in: store)
        // No password opens it: a session made by ``openSession()`` is the only way in.
        let account = try await store.createOwner(username: "sample", passwordHash: "!")
        let router = buildRouter(configuration: configuration, store: store, routes: RouteLog(), setupIsOpen: { false }, sample: nil)
        let made = (router.buildResponder(), store, account)
        built = made
        return made
    }

    /// A new session in the sample: its cookie's secret.
    func openSession() async throws -> String {
        let (_, store, account) = try await app()
        let secret = Secret.make()
        try await store.createSession(account: account.id, tokenDigest: Secret.digest(secret), csrfToken: Secret.make(),
                                      expiresAt: configuration.clock.now.addingTimeInterval(configuration.sessionLifetime))
        return secret
    }

    /// Lets the sample go (her book is set up: nobody is sent to it any more).
    func release() { built = nil }

    /// A response that ends the sample in this browser: both cookies cleared, and on to `location`.
    static func leave(to location: String, configuration: WebConfiguration) -> Response {
        var response = Response.redirect(to: location)
        for name in [cookieName, AuthenticationMiddleware.cookieName] {
            response.setCookie(Cookie(name: name, value: "", maxAge: 0, path: "/", secure: configuration.secureCookies, httpOnly: true, sameSite: .lax))
        }
        return response
    }
}

/// Sends a browser that opened the sample book to it — every page, the API and the files — until
/// it leaves (`/sample/leave`, or Sign out), or her own book is set up.
struct SampleMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let sample: SampleBook
    let configuration: WebConfiguration
    let setupIsOpen: @Sendable () async throws -> Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.cookies[SampleBook.cookieName]?.value == "1" else { return try await next(request, context) }
        guard try await setupIsOpen() else {
            // Her book was set up meanwhile: the sample is over, and her book answers from now on.
            await sample.release()
            return SampleBook.leave(to: "/login", configuration: configuration)
        }
        if request.uri.path == "/sample/leave" || (request.method == .post && request.uri.path == "/logout") {
            return SampleBook.leave(to: "/setup", configuration: configuration)
        }
        var context = context
        context.isSample = true
        return try await sample.app().responder.respond(to: request, context: context)
    }
}
