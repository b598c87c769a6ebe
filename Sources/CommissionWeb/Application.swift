import CommissionStore
import Foundation
import Hummingbird
import Logging

/// Builds the web app and API on the store of one book (an SQLite file): the composition root that
/// `commission serve` and the tests share. A server of several books uses `buildApplication(configuration:books:)`.
public func buildApplication(
    configuration: WebConfiguration, store: any WebStore, logger: Logger = Logger(label: "commission")
) -> some ApplicationProtocol {
    let router = buildRouter(configuration: configuration, store: store)
    return Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Commission"),
        logger: logger)
}

/// The router alone, for tests that need no socket. `routes` receives every route registered.
public func buildRouter(configuration: WebConfiguration, store: any WebStore, routes: RouteLog = RouteLog()) -> Router<AppRequestContext> {
    buildRouter(configuration: configuration, store: store, routes: routes, throttle: LoginThrottle(), setupIsOpen: { try await store.awaitsSetup() })
}

/// `setupIsOpen` says whether `/setup` may create the book's owner now: for a book alone in its
/// file, while it awaits set-up; on a server of several books, what the directory says.
func buildRouter(configuration: WebConfiguration, store: any WebStore, routes: RouteLog, throttle: LoginThrottle,
                 setupIsOpen: @escaping @Sendable () async throws -> Bool) -> Router<AppRequestContext> {
    let pages = Pages.shared
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: ErrorMiddleware(pages: pages))
    router.add(middleware: MethodNotAllowedMiddleware(routes: routes))
    router.add(middleware: AuthenticationMiddleware(store: store, configuration: configuration))

    let hub = DashboardHub(store: store)
    let web = WebRoutes(store: store, pages: pages, configuration: configuration, throttle: throttle, hub: hub, setupIsOpen: setupIsOpen)
    web.registerPublic(on: Registrar(group: router, prefix: "", isPublic: true, log: routes))
    let protected = router.group().add(middleware: RequireAccountMiddleware(setupIsOpen: setupIsOpen))
    web.registerProtected(on: Registrar(group: protected, prefix: "", isPublic: false, log: routes))
    APIRoutes(store: store, hub: hub, secureLinks: configuration.secureCookies).register(on: Registrar(group: protected.group("/api/v1"), prefix: "/api/v1", isPublic: false, log: routes))
    return router
}
