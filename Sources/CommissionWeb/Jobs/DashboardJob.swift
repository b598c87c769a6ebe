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

    /// The dashboard page's values: a card per clinic leading with what it owes her (every unpaid or
    /// short period, not only the current one) and whether a payment is overdue; the headline
    /// tiles; the charts, a colour per clinic; the products.
    func dashboardValues(_ dashboard: Dashboard, settings: BookSettings) async throws -> [String: Any] {
        let style = settings.style
        let series = try await MonthSeriesRequest(through: dashboard.today).fetch(from: app.store)
        let allClinics = try await app.store.clinics(ClinicQuery(includeArchived: true))
        let colors = Charts.colorClasses(allClinics)
        let names = Dictionary(uniqueKeysWithValues: allClinics.map { ($0.id, $0.name) })
        return [
            "todayISO": dashboard.today.description, "todayLabel": "\(dashboard.today.weekday.shortName) \(style.format(dashboard.today))",
            "currency": dashboard.currency.code,
            "todayCommission": style.format(dashboard.todayTotals.commission), "todaySales": dashboard.todayTotals.saleCount,
            "todayRevenue": style.format(dashboard.todayTotals.revenue),
            "monthCommission": style.format(dashboard.monthTotals.commission), "monthSales": dashboard.monthTotals.saleCount,
            "monthRevenue": style.format(dashboard.monthTotals.revenue),
            "yearCommission": style.format(dashboard.yearTotals.commission), "yearSales": dashboard.yearTotals.saleCount,
            "yearRevenue": style.format(dashboard.yearTotals.revenue),
            "clinics": dashboard.clinics.map { standing in
                let arrears = standing.arrears
                return ["id": standing.clinic.id.rawValue, "name": standing.clinic.name, "color": colors[standing.clinic.id] ?? "c0",
                        "owed": style.format(arrears.owed),
                        "owedLabel": arrears.owed.isNegative ? "paid beyond what it owes" : "owed to you", "isOwedBack": arrears.owed.isNegative,
                        "isOverdue": !arrears.overdue.isZero, "overdue": style.format(arrears.overdue), "dueAfter": arrears.dueAfterDays,
                        "period": style.format(standing.period), "expected": style.format(standing.periodTotals.commission),
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

    func dashboardPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let settings = try await app.store.settings()
        let dashboard = try await app.store.dashboard(today: settings.today())
        let values = try await dashboardValues(dashboard, settings: settings)
        if request.uri.queryParameters["fragment"] != nil { return app.pages.fragment("dashboard-body", values: values) }
        let body = app.pages.library.render(Pages.prepared(values), withTemplate: "dashboard-body") ?? ""
        return try await app.page("dashboard", title: "Dashboard", nav: "dashboard", context: context, values: ["dashboardBody": body])
    }
}
