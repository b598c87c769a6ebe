import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Hummingbird
import ServiceLifecycle

/// Where she stands: the dashboard page and its live updates; the API's dashboard and event stream.
struct DashboardJob: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {
        pages.get("/dashboard") { request, context in try await dashboardPage(request, context: context) }
        pages.get("/events") { _, _ in Self.events(app.hub) }
    }

    func registerAPI<G>(on api: Registrar<G>) {
        api.get("/dashboard") { request, _ in
            let settings = try await app.store.settings()
            let today = try app.queryDay(request, "date", settings: settings) ?? settings.today()
            return try app.json(Presenter(currency: settings.currency).dashboard(try await app.store.dashboard(today: today)))
        }
        api.get("/events") { _, _ in Self.events(app.hub) }
    }

    /// Server-Sent Events: the dashboard's headline, pushed after every committed change that touches
    /// it — driven by the store's live query (shared by all streams through a ``DashboardHub``), not by polling.
    static func events(_ hub: DashboardHub) -> Response {
        let events = hub.subscribe()
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store", .init("X-Accel-Buffering")!: "no"],
            body: ResponseBody { writer in
                for await event in events.cancelOnGracefulShutdown() {
                    try await writer.write(ByteBuffer(string: event))
                }
                try await writer.finish(nil)
            })
    }

    func dashboardValues(_ dashboard: Dashboard) async throws -> [String: Any] {
        let c = dashboard.currency
        // Twelve months of commission per clinic, from the maintained monthly summaries.
        var months: [Day] = []
        var month = dashboard.today.firstOfMonth
        for _ in 0..<12 {
            months.insert(month, at: 0)
            month = month.adding(days: -1).firstOfMonth
        }
        var series: [Clinic.ID: (name: String, values: [Int64])] = [:]
        let names = try await Presenter.Names(store: app.store)
        for entry in try await app.store.clinicMonths(from: months[0], through: dashboard.today) {
            guard let index = months.firstIndex(of: entry.month) else { continue }
            series[entry.clinicID, default: (names.clinics[entry.clinicID] ?? "", Array(repeating: 0, count: 12))].values[index] = entry.totals.commission.minorUnits
        }
        let ordered = series.sorted { $0.key < $1.key }.map { $0.value }
        return [
            "today": dashboard.today.description, "currency": c.code,
            "todayCommission": c.format(dashboard.todayTotals.commission), "todaySales": dashboard.todayTotals.saleCount,
            "todayRevenue": c.format(dashboard.todayTotals.revenue),
            "monthCommission": c.format(dashboard.monthTotals.commission), "monthSales": dashboard.monthTotals.saleCount,
            "monthRevenue": c.format(dashboard.monthTotals.revenue),
            "yearCommission": c.format(dashboard.yearTotals.commission), "yearSales": dashboard.yearTotals.saleCount,
            "yearRevenue": c.format(dashboard.yearTotals.revenue),
            "clinics": dashboard.clinics.map { standing in
                ["name": standing.clinic.name, "period": "\(standing.period.start) – \(standing.period.end)",
                 "sales": standing.periodTotals.saleCount, "expected": c.format(standing.periodTotals.commission),
                 "received": c.format(standing.periodReceived), "balance": c.format(standing.periodBalance),
                 "year": c.format(standing.yearTotals.commission)] as [String: Any]
            },
            "products": dashboard.products.map { standing in
                ["name": standing.product.name, "units": standing.yearTotals.quantity, "revenue": c.format(standing.yearTotals.revenue),
                 "commission": c.format(standing.yearTotals.commission)] as [String: Any]
            },
            "monthlyChart": Charts.monthly(months: months.map { String($0.description.prefix(7)) }, series: ordered, currency: c),
            "shareChart": Charts.share(dashboard.clinics.map { ($0.clinic.name, $0.yearTotals.commission.minorUnits) }, currency: c),
        ]
    }

    func dashboardPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let settings = try await app.store.settings()
        let dashboard = try await app.store.dashboard(today: settings.today())
        let values = try await dashboardValues(dashboard)
        if request.uri.queryParameters["fragment"] != nil { return app.pages.fragment("dashboard-body", values: values) }
        let body = app.pages.library.render(values, withTemplate: "dashboard-body") ?? ""
        return app.pages.page("dashboard", title: "Dashboard", nav: "dashboard", context: context, values: ["dashboardBody": body])
    }
}
