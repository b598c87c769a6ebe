import CommissionStore
import Crypto
import Foundation
import Hummingbird
import Metrics
import Prometheus

/// What the server counts and measures, exposed at `/metrics` in Prometheus' text format to
/// callers holding the operator's token (`serve --metrics-token`, `COMMISSION_METRICS_TOKEN`):
/// requests by route, method and status with a latency histogram, sales recorded and imports
/// through this server, the event streams open now, the books kept in memory. The same registry is the process's
/// swift-metrics backend (``bootstrap()``), so what the libraries measure shows too.
public final class ServerMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    /// The SHA-256 digest of the operator's token: `/metrics` answers only a bearer of it.
    let tokenDigest: [UInt8]

    let salesRecorded: Prometheus.Counter
    let imports: Prometheus.Counter
    let importedRows: Prometheus.Counter
    let openStreams: Prometheus.Gauge
    let lastBackup: Prometheus.Gauge
    /// On a server of several books: the books whose app is kept in memory now.
    let booksKept: Prometheus.Gauge

    /// The latency buckets, in seconds: from a cached read to a large import.
    static let buckets: [Duration] = [
        .milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(10),
    ]

    public init(token: String) {
        tokenDigest = Array(SHA256.hash(data: Data(token.utf8)))
        salesRecorded = registry.makeCounter(
            descriptor: Self.name("sales_recorded", "total", "Sales recorded through this server (entry form and API).")
        )
        imports = registry.makeCounter(
            descriptor: Self.name("imports", "total", "Imports that landed through this server (pages and API).")
        )
        importedRows = registry.makeCounter(
            descriptor: Self.name("imported_rows", "total", "Rows those imports brought.")
        )
        openStreams = registry.makeGauge(
            descriptor: Self.name("event_streams", "", "Live event streams (dashboards, API clients) open now.")
        )
        lastBackup = registry.makeGauge(
            descriptor: Self.name(
                "backup_last_success",
                "timestamp_seconds",
                "When a scheduled backup of every book last succeeded (Unix time; 0: not yet)."
            )
        )
        booksKept = registry.makeGauge(
            descriptor: Self.name(
                "books_in_memory",
                "",
                "Books whose app this server keeps now (idle ones are released)."
            )
        )
    }

    /// Makes the registry the process's swift-metrics backend (once per process, as `serve` starts).
    public func bootstrap() {
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
    }

    /// Whether the request carries the operator's token (compared in constant time).
    func authorizes(_ request: Request) -> Bool {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return false }
        let digest = Array(SHA256.hash(data: Data(header.dropFirst(7).utf8)))
        return zip(digest, tokenDigest).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Says a scheduled backup of every book succeeded at `date`.
    public func backedUp(at date: Date) {
        lastBackup.set(date.timeIntervalSince1970)
    }

    /// Counts an import that landed (a dry run is not one).
    func imported(_ summary: ImportSummary) {
        guard !summary.dryRun else { return }
        imports.increment()
        importedRows.increment(by: Int64(summary.rows))
    }

    /// `/metrics`: the text Prometheus scrapes, or 404 when the server keeps no metrics.
    static func answer(_ metrics: ServerMetrics?, _ request: Request) throws -> Response {
        guard let metrics else {
            throw Problem(.notFound, "This server keeps no metrics: start it with --metrics-token.")
        }
        return metrics.response(to: request)
    }

    /// The text Prometheus scrapes.
    func response(to request: Request) -> Response {
        guard authorizes(request) else {
            var response = Problem(
                .unauthorized,
                "The metrics are for the operator: send the token given to serve --metrics-token as a bearer token."
            ).response
            response.headers[.wwwAuthenticate] = "Bearer realm=\"commission metrics\""
            return response
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer()))
        )
    }

    /// Counts a request and its duration by the route that answered it.
    func record(route: String, method: HTTPRequest.Method, status: HTTPResponse.Status, duration: Duration) {
        let labels = [("route", route), ("method", method.rawValue), ("status", String(status.code))]
        registry.makeCounter(descriptor: Self.requests, labels: labels).increment()
        registry.makeDurationHistogram(descriptor: Self.latency, labels: Array(labels.prefix(2)), buckets: Self.buckets)
            .record(duration)
    }

    /// Counts a request's read or write of the database, and its time.
    func recordDatabase(_ operation: StoreTiming.Operation, duration: Duration) {
        registry.makeDurationHistogram(
            descriptor: Self.database,
            labels: [("operation", operation.rawValue)],
            buckets: Self.buckets
        ).record(duration)
    }

    static var database: MetricNameDescriptor {
        name(
            "database_duration",
            "seconds",
            "How long requests' reads and writes of the database took (waiting for the writer included), by operation."
        )
    }
    static var requests: MetricNameDescriptor {
        name("http_requests", "total", "Requests answered, by route, method and status.")
    }
    static var latency: MetricNameDescriptor {
        name("http_request_duration", "seconds", "How long requests took to answer, by route and method.")
    }

    /// A metric's name in Commission's namespace (`commission_…`).
    static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "commission", metricName: metric, unitName: unit, helpText: help)
    }
}

/// Times every request into ``ServerMetrics`` (when the server keeps metrics; without them the
/// router has no such middleware, and no request binds an observer).
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let metrics: ServerMetrics
    /// Told each request's reads and writes: made once with the router and bound to every
    /// request's task as it is (see ``StoreTiming/Observer`` for why an object, not a closure).
    let observer: StoreTiming.Observer

    init(metrics: ServerMetrics) {
        self.metrics = metrics
        observer = StoreTiming.Observer { [metrics] operation, duration in
            metrics.recordDatabase(operation, duration: duration)
        }
    }

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let metrics = self.metrics
        do {
            let response = try await StoreTiming.$observer.withValue(observer) {
                try await next(request, context)
            }
            metrics.record(
                route: context.endpointPath ?? "unknown",
                method: request.method,
                status: response.status,
                duration: .now - start
            )
            return response
        } catch {
            let status =
                (error as? any HTTPResponseError)?.status ?? HTTPResponse.Status(code: Problem.from(error).status)
            metrics.record(
                route: context.endpointPath ?? "unknown",
                method: request.method,
                status: status,
                duration: .now - start
            )
            throw error
        }
    }
}
