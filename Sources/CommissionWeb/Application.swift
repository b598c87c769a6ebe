import CommissionStore
import Foundation
import Hummingbird
import Logging

/// Builds the web app and API on the store of one book (an SQLite file): the composition root that
/// `commission serve` and the tests share. A server of several books uses `buildApplication(configuration:books:)`.
public func buildApplication(
    configuration: WebConfiguration,
    store: any WebStore,
    logger: Logger = Logger(label: "commission")
) -> some ApplicationProtocol {
    let router = buildRouter(configuration: configuration, store: store)
    return Application(
        router: router,
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: "Commission"
        ),
        logger: logger
    )
}

/// The router alone, for tests that need no socket. `routes` receives every route registered.
public func buildRouter(
    configuration: WebConfiguration,
    store: any WebStore,
    routes: RouteLog = RouteLog()
) -> Router<AppRequestContext> {
    buildRouter(
        configuration: configuration,
        store: store,
        routes: routes,
        setupIsOpen: { try await store.awaitsSetup() },
        sample: configuration.sampleStore.map { SampleBook(configuration: configuration, makeStore: $0) }
    )
}

/// `setupIsOpen` says whether `/setup` may create the book's owner now: for a book alone in its
/// file, while it awaits set-up; on a server of several books, what the directory says. `sample`
/// is the sample book set-up offers ("Try it first"), on a server of one book.
func buildRouter(
    configuration: WebConfiguration,
    store: any WebStore,
    routes: RouteLog,
    setupIsOpen: @escaping @Sendable () async throws -> Bool,
    sample: SampleBook?
) -> Router<AppRequestContext> {
    let pages = Pages.shared
    let router = Router(context: AppRequestContext.self)
    // A browser in the sample book is answered by the sample's own router, middleware and all.
    if let sample {
        router.add(middleware: SampleMiddleware(sample: sample, configuration: configuration, setupIsOpen: setupIsOpen))
    }
    router.add(middleware: RequestLogMiddleware())
    if let metrics = configuration.metrics { router.add(middleware: RequestMetricsMiddleware(metrics: metrics)) }
    router.add(middleware: SecurityHeadersMiddleware(overTLS: configuration.secureCookies))
    router.add(middleware: ErrorMiddleware(pages: pages))
    router.add(middleware: MethodNotAllowedMiddleware(routes: routes))
    router.add(middleware: AuthenticationMiddleware(store: store, configuration: configuration))

    let hub = LiveHub(store: store, request: HeadlineRequest()) { LiveEvent.headline($0) }
    let pageHub = LiveHub(store: store, request: DashboardPageRequest(), heartbeat: DashboardJob.pagePing) {
        LiveEvent.body(DashboardJob.body($0, pages: pages))
    }
    let app = WebApp(
        store: store,
        pages: pages,
        configuration: configuration,
        hub: hub,
        pageHub: pageHub,
        throttle: LoginThrottle(store: store, clock: configuration.clock),
        staging: RestoreStaging(clock: configuration.clock),
        importStaging: RestoreStaging(clock: configuration.clock),
        setupIsOpen: setupIsOpen,
        sample: sample
    )
    let open = Registrar(group: router, prefix: "", isPublic: true, log: routes)
    // Liveness: the process answers. Readiness: it can read the book, else 503 with Retry-After.
    for path in ["/health", "/health/live"] { open.get(path) { _, _ in Health.live } }
    // A read of the database itself: the settings may come from the server's cache.
    open.get("/health/ready") { _, context in
        await Health.ready(context: context) { _ = try await store.clinics(ClinicQuery()) }
    }
    open.get("/metrics") { request, _ in try ServerMetrics.answer(configuration.metrics, request) }
    open.get("/static/:file") { request, context in
        guard let response = StaticFiles.shared.response(try context.parameters.require("file"), request: request)
        else {
            throw Problem(.notFound, "There is no such file.")
        }
        return response
    }
    // What a browser looks for at the root: the installable app's manifest, its service worker
    // (whose scope is the folder it is served from, so it is served here) and the favicon.
    for (path, file, cacheControl) in [
        ("/manifest.webmanifest", "manifest.webmanifest", "public, max-age=3600"),
        ("/sw.js", "sw.js", "no-cache"), ("/favicon.ico", "favicon.ico", "public, max-age=86400"),
    ] {
        open.get(path) { request, _ in
            guard let response = StaticFiles.shared.response(file, request: request, cacheControl: cacheControl) else {
                throw Problem(.notFound, "There is no such file.")
            }
            return response
        }
    }
    let protected = router.group().add(middleware: RequireAccountMiddleware(setupIsOpen: setupIsOpen))
    let pagesRegistrar = Registrar(group: protected, prefix: "", isPublic: false, log: routes)
    let api = Registrar(
        group: protected.group("/api/v1").add(
            middleware: IdempotencyMiddleware(store: store, clock: configuration.clock)
        ),
        prefix: "/api/v1",
        isPublic: false,
        log: routes
    )
    api.get("/openapi.json") { _, _ in
        Response(
            status: .ok,
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: try OpenAPI.document()))
        )
    }
    for job in WebApp.jobs.map({ $0.init(app) }) {
        job.registerPublic(on: open)
        job.registerPages(on: pagesRegistrar)
        job.registerAPI(on: api)
    }
    return router
}

/// The OpenAPI 3.1 document of the API, kept in the repository at
/// `Sources/CommissionWeb/Resources/openapi.json` and served at `/api/v1/openapi.json`.
public enum OpenAPI {
    public static func document() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json") else {
            throw Problem(.internalServerError, "The OpenAPI document is missing from this build.")
        }
        return try Data(contentsOf: url)
    }
}

/// What an operator's probes ask: is the process alive (`/health`, `/health/live`), and can it
/// serve, its database answering (`/health/ready`)?
enum Health {
    static var live: Response { text("ok\n", status: .ok) }

    /// 200 when `check` reads the database, else 503 with `Retry-After` (the failure is logged).
    /// `primary`: the database host that answers as the primary, said when ready. `away`: the
    /// other databases of books that do not answer, said — and still 200: their books are refused
    /// (503) while every other book is served, and a balancer that took the server out for them
    /// would refuse every book.
    static func ready(
        context: AppRequestContext,
        primary: String? = nil,
        away: [String] = [],
        _ check: () async throws -> Void
    ) async -> Response {
        do {
            try await check()
            var body = "ready\nrelease: \(CommissionRelease.version)\n" + (primary.map { "primary: \($0)\n" } ?? "")
            for name in away { body += "away: database \(name) (its books are refused until it answers)\n" }
            return text(body, status: .ok)
        } catch {
            // While the database is away its watcher has said so; a probe every few seconds adds nothing.
            context.logger.log(
                level: (error as? StoreError)?.isUnavailable == true ? .debug : .warning,
                "not ready: \(String(reflecting: error))"
            )
            var response = text("not ready: the database does not answer\n", status: .serviceUnavailable)
            response.headers[.retryAfter] = Problem.retryAfter
            return response
        }
    }

    static func text(_ body: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/plain", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: body))
        )
    }
}
