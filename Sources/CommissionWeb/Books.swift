import CommissionStore
import Foundation
import Hummingbird
import Logging

/// Builds the server of several books (a shared PostgreSQL database): each request is answered by
/// the app of the caller's own book, found from its session, token, sign-in name or invitation.
public func buildApplication(
    configuration: WebConfiguration,
    books: any BookDirectory,
    routes: RouteLog = RouteLog(),
    logger: Logger = Logger(label: "commission")
) -> some ApplicationProtocol {
    Application(
        responder: BookResponder(books: books, configuration: configuration, routes: routes),
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: "Commission"
        ),
        logger: logger
    )
}

/// Sends each request to the app of one book. Every book has its own router, store and live
/// dashboard hub, so no handler can reach another book's rows; the book's own authentication then
/// checks the caller again (its store knows only its members).
struct BookResponder: HTTPResponder {
    typealias Context = AppRequestContext
    let books: any BookDirectory
    let configuration: WebConfiguration
    let apps: BookApps
    let pages = Pages.shared

    init(books: any BookDirectory, configuration: WebConfiguration, routes: RouteLog) {
        self.books = books
        self.configuration = configuration
        self.apps = BookApps(books: books, configuration: configuration, routes: routes)
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        // The probes are the server's, not a book's: answered before any book is looked up.
        switch request.uri.path {
        case "/health", "/health/live": return Health.live
        case "/health/ready":
            return await Health.ready(context: context, primary: books.primaryDatabase, away: books.databasesAway) {
                _ = try await books.defaultBook()
            }
        case "/metrics":
            do { return try ServerMetrics.answer(configuration.metrics, request) } catch {
                return Problem.from(error).response
            }
        default: break
        }
        var request = request
        let app: RouterResponder<Context>
        do {
            app = try await apps.app(for: try await book(of: &request, context: context))
        } catch {
            let surface = Surface.of(request)
            let problem = Problem.from(error, on: surface)
            problem.log(error, request, context: context, doing: "no book")
            // No book's app answers this one, so its middleware does not either: the headers are set here.
            var response = surface == .api ? problem.response : pages.errorPage(problem, context: context)
            SecurityHeadersMiddleware.secure(&response, overTLS: configuration.secureCookies)
            return response
        }
        return try await app.respond(to: request, context: context)
    }

    /// The book whose app answers: the one an invitation link leads to, the caller's, the one a
    /// sign-in name belongs to, else the default book (whose app asks the caller to sign in).
    func book(of request: inout Request, context: Context) async throws -> Int64 {
        let path = request.uri.path
        // An invitation leads to its book even when the browser is signed in to another one.
        if path.hasPrefix(AccountJob.invitationPath),
            let book = try await books.book(
                invitationDigest: Secret.digest(String(path.dropFirst(AccountJob.invitationPath.count))),
                now: configuration.clock.now
            )
        {
            return book
        }
        // Her pay dates calendar is asked for by her calendar app, signed in nowhere: its secret names the book.
        if path.hasPrefix(NotificationsJob.calendarPath), path.hasSuffix(".ics"),
            let book = try await books.book(
                calendarDigest: Secret.digest(String(path.dropFirst(NotificationsJob.calendarPath.count).dropLast(4)))
            )
        {
            return book
        }
        if let secret = AuthenticationMiddleware.bearerSecret(request) {
            if let book = try await books.book(tokenDigest: Secret.digest(secret)) { return book }
            return try await books.defaultBook()
        }
        if let cookie = request.cookies[AuthenticationMiddleware.cookieName]?.value, !cookie.isEmpty,
            let book = try await books.book(sessionDigest: Secret.digest(cookie), now: configuration.clock.now)
        {
            return book
        }
        if request.method == .post && path == "/login" {
            // Reading the form keeps it in the request for the book's own sign-in handler.
            let form = Form(String(buffer: try await request.collectBody(upTo: configuration.maxBodySize)))
            if let name = form["username"], let book = try await books.book(username: name) { return book }
        }
        return try await books.defaultBook()
    }
}

/// The app of each book, built on its first request and kept while it is used: an app nobody used
/// for ``WebConfiguration/releaseBooksIdleFor`` is released, and beyond
/// ``WebConfiguration/booksKept`` apps the least recently used one is, so that a server of a
/// thousand books holds the apps of those in use, not of every book it ever served. A released
/// book's next request builds its app again (its store, router and live hubs; the compiled
/// templates are shared by every book). An event stream open on a released app holds that app's
/// live view (``LiveHub``) until it closes, and goes on telling the book's changes.
actor BookApps {
    let books: any BookDirectory
    let configuration: WebConfiguration
    let routes: RouteLog
    private var apps: [Int64: Kept] = [:] {
        didSet { configuration.metrics?.booksKept.set(Double(apps.count)) }
    }
    private var routesLogged = false
    private var sweeper: Task<Void, Never>?

    private struct Kept {
        let app: Task<RouterResponder<AppRequestContext>, any Error>
        var lastUsed: Date
    }

    private var following: Task<Void, Never>?

    init(books: any BookDirectory, configuration: WebConfiguration, routes: RouteLog) {
        self.books = books
        self.configuration = configuration
        self.routes = routes
    }

    deinit {
        sweeper?.cancel()
        following?.cancel()
    }

    /// Drops the app of every book that moves to another database (its next request builds it
    /// on the new one); follows the moves again a second later when the directory is away.
    private func followMoves() {
        guard following == nil else { return }
        let books = books
        following = Task { [weak self] in
            while !Task.isCancelled {
                do {
                    guard let moves = try await books.moves() else { return }
                    for await book in moves { await self?.forget(book) }
                    // The stream ended (the directory's listener stopped): any book may move unheard.
                    await self?.forget(nil)
                } catch {}
                // try?: Task.sleep throws only when cancelled, which the loop's condition checks
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Drops the app of `book`; of every book for nil.
    func forget(_ book: Int64?) {
        if let book { apps[book] = nil } else { apps = [:] }
    }

    func app(for book: Int64) async throws -> RouterResponder<AppRequestContext> {
        let now = configuration.clock.now
        if let kept = apps[book] {
            apps[book]?.lastUsed = now
            return try await kept.app.value
        }
        let (books, configuration) = (books, configuration)
        // Only the first book's routes are logged: every book has the same ones.
        let routes = routesLogged ? RouteLog() : routes
        routesLogged = true
        let app = Task {
            buildRouter(
                configuration: configuration,
                store: try await books.store(book: book),
                routes: routes,
                setupIsOpen: { try await books.setupIsOpen(book: book) },
                sample: nil
            ).buildResponder()
        }
        apps[book] = Kept(app: app, lastUsed: now)
        releaseBeyondTheLimit()
        startSweeping()
        followMoves()
        do {
            return try await app.value
        } catch {
            apps[book] = nil  // a failed start (the database away) is tried again by the next request
            throw error
        }
    }

    /// Releases the apps nobody used for ``WebConfiguration/releaseBooksIdleFor`` (by the
    /// configuration's clock).
    func releaseIdle() {
        let now = configuration.clock.now, idle = configuration.releaseBooksIdleFor.timeInterval
        apps = apps.filter { now.timeIntervalSince($0.value.lastUsed) < idle }
    }

    /// Keeps at most ``WebConfiguration/booksKept`` apps, releasing the least recently used.
    private func releaseBeyondTheLimit() {
        let excess = apps.count - max(1, configuration.booksKept)
        guard excess > 0 else { return }
        for (book, _) in apps.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }).prefix(excess) { apps[book] = nil }
    }

    /// Looks for idle apps every tenth of the idle time (at least every second, at most every minute).
    private func startSweeping() {
        guard sweeper == nil else { return }
        let every = min(max(configuration.releaseBooksIdleFor / 10, .seconds(1)), .seconds(60))
        sweeper = Task { [weak self] in
            while !Task.isCancelled {
                // try?: Task.sleep throws only when cancelled, which the loop's condition checks
                try? await Task.sleep(for: every)
                await self?.releaseIdle()
            }
        }
    }
}
