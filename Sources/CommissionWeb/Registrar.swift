import HTTPTypes
import Hummingbird
import Synchronization

/// A route of the app: its method, path (with `:parameters`), and whether it is open to anyone.
public struct RouteInfo: Sendable, Hashable, CustomStringConvertible {
    public let method: HTTPRequest.Method
    public let path: String
    public let isPublic: Bool
    public var description: String { "\(method) \(path)" }
}

/// Every route registered, in order: the list the unauthenticated sweep walks, so it cannot drift
/// from what the router serves.
public final class RouteLog: Sendable {
    private let entries = Mutex<[RouteInfo]>([])
    public init() {}
    public var routes: [RouteInfo] { entries.withLock { $0 } }
    func add(_ route: RouteInfo) { entries.withLock { $0.append(route) } }

    /// The methods of the routes the router would answer this path with: of the route paths it
    /// matches (`:parameters` standing for any segment), the most specific one, as the router picks
    /// it — a named segment beats a parameter where they first differ (`/sales/days` beats
    /// `/sales/:id` for `/sales/days`, whose methods are then GET only).
    func methods(serving path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        func specificity(_ template: [Substring]) -> [Bool] { template.map { !$0.hasPrefix(":") } }
        var best: (template: String, specificity: [Bool])?
        for route in routes {
            let template = route.path.split(separator: "/", omittingEmptySubsequences: false)
            guard template.count == segments.count,
                zip(template, segments).allSatisfy({ $0.hasPrefix(":") ? !$1.isEmpty : $0 == $1 })
            else { continue }
            let rank = specificity(template)
            if best == nil || rank.lexicographicallyPrecedes(best!.specificity, by: { $0 && !$1 }) {
                best = (route.path, rank)
            }
        }
        guard let best else { return [] }
        var methods: [HTTPRequest.Method] = []
        for route in routes where route.path == best.template && !methods.contains(route.method) {
            methods.append(route.method)
        }
        return methods
    }
}

/// Registers handlers on a router group and records them in a ``RouteLog``.
struct Registrar<Group: RouterMethods<AppRequestContext>> {
    typealias Handler = @Sendable (Request, AppRequestContext) async throws -> Response
    let group: Group
    let prefix: String
    let isPublic: Bool
    let log: RouteLog

    func get(_ path: String, use handler: @escaping Handler) { add(.get, path, handler) }
    func post(_ path: String, use handler: @escaping Handler) { add(.post, path, handler) }
    func patch(_ path: String, use handler: @escaping Handler) { add(.patch, path, handler) }
    func delete(_ path: String, use handler: @escaping Handler) { add(.delete, path, handler) }

    private func add(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler) {
        group.on(RouterPath(path), method: method, use: handler)
        let full = prefix + (path == "/" && !prefix.isEmpty ? "" : path)
        log.add(RouteInfo(method: method, path: full, isPublic: isPublic))
    }
}
