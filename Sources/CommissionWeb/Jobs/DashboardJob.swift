import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import AsyncAlgorithms
import Hummingbird
import ServiceLifecycle

/// Where she stands: the dashboard page and its live updates; the API's dashboard and event stream.
package struct DashboardJob: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {
        pages.get("/dashboard") { request, context in try await dashboardPage(request, context: context) }
        pages.get("/events") { _, _ in Self.events(app.pageHub, heartbeat: Self.pagePing, metrics: app.configuration.metrics) }
    }

    func registerAPI<G>(on api: Registrar<G>) {
        api.get("/dashboard") { request, _ in
            let settings = try await app.store.settings()
            let today = try app.queryDay(request, "date", settings: settings) ?? settings.today()
            return try app.json(Presenter(currency: settings.currency).dashboard(try await app.store.dashboard(today: today)))
        }
        api.get("/events") { _, _ in Self.events(app.hub, heartbeat: Self.comment, metrics: app.configuration.metrics) }
    }

    /// Server-Sent Events, pushed after every committed change that touches what they show — driven
    /// by the store's live query, shared by all streams through a ``LiveHub``, not by polling: the
    /// API's streams get the dashboard's headline (`event: dashboard`, JSON), the dashboard page's
    /// its whole new body (`event: body`, HTML), rendered once for every open page.
    static func events<R>(_ hub: LiveHub<R>, heartbeat: String, metrics: ServerMetrics?) -> Response {
        eventStream(hub.subscribe(), heartbeat: heartbeat, metrics: metrics)
    }

    /// What a stream writes next.
    enum Beat: Sendable { case event(String), heartbeat, end }

    /// How often a stream with nothing to tell says it is still there.
    static let heartbeatInterval = Duration.seconds(15)
    /// The page's heartbeat: an event its script sees (a comment would not reach it), so that a
    /// page that hears nothing for a while knows its connection is gone and opens another.
    static let pagePing = "event: ping\ndata: \n\n"
    /// An API stream's heartbeat: a comment, which clients skip, keeping proxies and the client's
    /// own timeouts from taking a quiet stream for a dead one.
    static let comment = ": ping\n\n"

    /// A Server-Sent Events response of `events` (each a whole event), with `heartbeat` written
    /// between them every ``heartbeatInterval``; counted among the open streams while it lasts and
    /// ended by a graceful shutdown, or when `events` ends (its client then reconnects); `opening`
    /// is written first.
    static func eventStream<Events: AsyncSequence & Sendable>(_ events: Events, opening: String? = nil, heartbeat: String = comment,
                                                               metrics: ServerMetrics?) -> Response
    where Events.Element == String, Events.Failure == Never {
        Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store", .init("X-Accel-Buffering")!: "no"],
            body: ResponseBody { writer in
                metrics?.openStreams.increment()
                defer { metrics?.openStreams.decrement() }
                if let opening { try await writer.write(ByteBuffer(string: opening)) }
                // The events end the stream when they end: the heartbeat alone never keeps it open.
                let told = chain(events.map { Beat.event($0) }, [Beat.end].async)
                let beats = AsyncTimerSequence(interval: heartbeatInterval, clock: .continuous).map { _ in Beat.heartbeat }
                streaming: for await beat in merge(told, beats).cancelOnGracefulShutdown() {
                    switch beat {
                    case .event(let event): try await writer.write(ByteBuffer(string: event))
                    case .heartbeat: try await writer.write(ByteBuffer(string: heartbeat))
                    case .end: break streaming
                    }
                }
                try await writer.finish(nil)
            })
    }

    /// The dashboard page's values: a card per clinic leading with what it owes her (every unpaid or
    /// short period, not only the current one) and whether a payment is overdue; the headline
    /// tiles; the charts, a colour per clinic; the products.
    static func values(_ page: DashboardPageRequest.Value) -> [String: Any] {
        let (settings, dashboard, series) = (page.settings, page.dashboard, page.series)
        let style = settings.style
        let colors = Charts.colorClasses(page.clinics)
        let names = Dictionary(uniqueKeysWithValues: page.clinics.map { ($0.id, $0.name) })
        return [
            "todayISO": dashboard.today.description, "todayLabel": "\(dashboard.today.weekday.shortName) \(style.format(dashboard.today))",
            "currency": dashboard.currency.code,
            "todayCommission": style.format(dashboard.todayTotals.commission), "todaySales": dashboard.todayTotals.saleCount,
            "todayRevenue": style.format(dashboard.todayTotals.revenue),
            "monthCommission": style.format(dashboard.monthTotals.commission), "monthSales": dashboard.monthTotals.saleCount,
            "monthRevenue": style.format(dashboard.monthTotals.revenue),
            "yearCommission": style.format(dashboard.yearTotals.commission), "yearSales": dashboard.yearTotals.saleCount,
            "yearRevenue": style.format(dashboard.yearTotals.revenue),
            "todaySalesLabel": Self.sales(dashboard.todayTotals.saleCount), "monthSalesLabel": Self.sales(dashboard.monthTotals.saleCount),
            "yearSalesLabel": Self.sales(dashboard.yearTotals.saleCount),
            "clinics": dashboard.clinics.map { standing in
                let arrears = standing.arrears
                return ["id": standing.clinic.id.rawValue, "name": standing.clinic.name, "color": colors[standing.clinic.id] ?? "c0",
                        "owed": style.format(arrears.owed),
                        "owedLabel": arrears.owed.isNegative ? "paid beyond what it owes" : "owed to you", "isOwedBack": arrears.owed.isNegative,
                        "isOverdue": !arrears.overdue.isZero, "overdue": style.format(arrears.overdue), "dueAfter": arrears.dueAfterDays,
                        "period": style.format(standing.period), "expected": style.format(standing.periodPayable),
                        "hasReceived": !standing.periodReceived.isZero, "received": style.format(standing.periodReceived)] as [String: Any]
            },
            "hasOverdue": dashboard.clinics.contains { !$0.arrears.overdue.isZero },
            "products": dashboard.products.map { standing in
                ["name": standing.product.name, "units": standing.yearTotals.quantity, "revenue": style.format(standing.yearTotals.revenue),
                 "commission": style.format(standing.yearTotals.commission)] as [String: Any]
            },
            "monthlyChart": Charts.monthly(months: series.months, series: series.clinics.map {
                (names[$0.id] ?? "", colors[$0.id] ?? "c0", $0.commission.map(\.minorUnits))
            }, style: style),
            "shareChart": Charts.share(dashboard.clinics.filter { !$0.yearTotals.commission.isZero }.map {
                ($0.clinic.name, colors[$0.clinic.id] ?? "c0", $0.yearTotals.commission.minorUnits)
            }, style: style),
        ]
    }

    /// "1 sale", "2 sales".
    static func sales(_ count: Int) -> String { "\(count) sale\(count == 1 ? "" : "s")" }

    /// The dashboard page's body (what a live update replaces), rendered.
    package static func body(_ page: DashboardPageRequest.Value, pages: Pages) -> String {
        pages.library.render(Pages.prepared(values(page)), withTemplate: "dashboard-body") ?? ""
    }

    func dashboardPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = try await DashboardPageRequest().fetch(from: app.store)
        if request.uri.queryParameters["fragment"] != nil { return app.pages.fragment("dashboard-body", values: Self.values(page)) }
        var values: [String: Any] = ["dashboardBody": Self.body(page, pages: app.pages)]
        values["firstSteps"] = try await WelcomeJob.firstSteps(app.store, onSalePage: false)
        return try await app.page("dashboard", title: "Dashboard", nav: "dashboard", context: context, values: values)
    }
}

/// Everything the dashboard page shows, read once: what its live stream renders after each change.
package struct DashboardPageRequest: StoreRequest {
    package struct Value: Sendable {
        var settings: BookSettings
        var dashboard: Dashboard
        var series: MonthSeries
        /// Archived ones too: a clinic keeps its colour.
        var clinics: [Clinic]
    }

    package init() {}

    package var tables: Set<StoreTable> { Set(StoreTable.allCases) }

    package func fetch(from store: any CommissionStore) async throws -> Value {
        let settings = try await store.settings()
        let dashboard = try await store.dashboard(today: settings.today())
        return Value(settings: settings, dashboard: dashboard, series: try await MonthSeriesRequest(through: dashboard.today).fetch(from: store),
                     clinics: try await store.clinics(ClinicQuery(includeArchived: true)))
    }
}
