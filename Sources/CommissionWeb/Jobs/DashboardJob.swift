import AsyncAlgorithms
import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Hummingbird
import ServiceLifecycle

/// Where she stands: the dashboard page and its live updates; the API's dashboard and event stream.
package struct DashboardJob: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {
        pages.get("/dashboard") { request, context in try await dashboardPage(request, context: context) }
        pages.get("/events") { _, _ in Self.events(app.pageHub, metrics: app.configuration.metrics) }
    }

    func registerAPI<G>(on api: Registrar<G>) {
        api.get("/dashboard") { request, _ in
            let settings = try await app.store.settings()
            let today = try app.queryDay(request, "date", settings: settings) ?? settings.today()
            let dashboard = try await app.store.dashboard(today: today)
            let history = try await UnconfirmedHistory.asked(of: app.store, dashboard: dashboard)
            return try app.json(Presenter(currency: settings.currency).dashboard(dashboard, history: history))
        }
        api.get("/events") { _, _ in Self.events(app.hub, metrics: app.configuration.metrics) }
    }

    /// Server-Sent Events, pushed after every committed change that touches what they show — driven
    /// by the store's live query, shared by all streams through a ``LiveHub``, not by polling: the
    /// API's streams get the dashboard's headline (`event: dashboard`, JSON), the dashboard page's
    /// its whole new body (`event: body`, HTML), rendered once for every open page.
    static func events<R>(_ hub: LiveHub<R>, metrics: ServerMetrics?) -> Response {
        let stream = hub.subscribe()
        // The hub's stream carries the heartbeat too: one sequence, read here (see LiveStream).
        return serverSentEvents(metrics: metrics) { writer in
            try await withGracefulShutdownHandler {
                for await text in stream { try await writer.write(ByteBuffer(string: text)) }
            } onGracefulShutdown: {
                stream.end()
            }
        }
    }

    /// How often a stream with nothing to tell says it is still there.
    package static let heartbeatInterval = Duration.seconds(15)
    /// The page's heartbeat: an event its script sees (a comment would not reach it), so that a
    /// page that hears nothing for a while knows its connection is gone and opens another.
    static let pagePing = "event: ping\ndata: \n\n"
    /// An API stream's heartbeat: a comment, which clients skip, keeping proxies and the client's
    /// own timeouts from taking a quiet stream for a dead one.
    package static let comment = ": ping\n\n"

    /// A Server-Sent Events response that `write` writes, counted among the open streams while it
    /// lasts.
    static func serverSentEvents(
        metrics: ServerMetrics?,
        _ write: @escaping @Sendable (inout any ResponseBodyWriter) async throws -> Void
    ) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store", .init("X-Accel-Buffering")!: "no"],
            body: ResponseBody { writer in
                metrics?.openStreams.increment()
                defer { metrics?.openStreams.decrement() }
                try await write(&writer)
                try await writer.finish(nil)
            }
        )
    }

    /// What ``eventStream(_:opening:heartbeat:metrics:)`` writes next.
    enum StreamBeat: Sendable { case event(String), heartbeat, end }

    /// A Server-Sent Events response of `events` (each a whole event), with `heartbeat` written
    /// between them every ``heartbeatInterval`` (a timer of its own, merged with the events: for a
    /// stream of one reader, such as a device's change feed; a ``LiveHub``'s streams share the
    /// hub's); ended by a graceful shutdown, or when `events` ends (its client then reconnects);
    /// `opening` is written first.
    static func eventStream<Events: AsyncSequence & Sendable>(
        _ events: Events,
        opening: String? = nil,
        heartbeat: String = comment,
        metrics: ServerMetrics?
    ) -> Response
    where Events.Element == String, Events.Failure == Never {
        serverSentEvents(metrics: metrics) { writer in
            if let opening { try await writer.write(ByteBuffer(string: opening)) }
            // The events end the stream when they end: the heartbeat alone never keeps it open.
            let told = chain(events.map { StreamBeat.event($0) }, [StreamBeat.end].async)
            let beats = AsyncTimerSequence(interval: heartbeatInterval, clock: .continuous).map { _ in
                StreamBeat.heartbeat
            }
            streaming: for await beat in merge(told, beats).cancelOnGracefulShutdown() {
                switch beat {
                case .event(let event): try await writer.write(ByteBuffer(string: event))
                case .heartbeat: try await writer.write(ByteBuffer(string: heartbeat))
                case .end: break streaming
                }
            }
        }
    }

    /// The dashboard page's view: a card per clinic leading with what it owes her (every unpaid or
    /// short period, not only the current one) and whether a payment is overdue; the headline
    /// tiles; the charts, a colour per clinic, drawn for a phone and for a wide screen; the products.
    static func view(_ page: DashboardPageRequest.Value) -> DashboardView {
        let (settings, dashboard, series) = (page.settings, page.dashboard, page.series)
        let style = settings.style
        let colors = Charts.colorClasses(page.clinics)
        let names = Dictionary(uniqueKeysWithValues: page.clinics.map { ($0.id, $0.name) })
        let monthly = series.clinics.map {
            (name: names[$0.id] ?? "", color: colors[$0.id] ?? "c0", values: $0.commission.map(\.minorUnits))
        }
        func tile(_ id: String, _ label: String, _ totals: Totals) -> DashboardView.Tile {
            .init(
                id: id,
                label: label,
                commission: style.format(totals.commission),
                sales: SaleWords.count(totals.saleCount, style: style),
                revenue: style.format(totals.revenue)
            )
        }
        return DashboardView(
            todayISO: dashboard.today.description,
            todayLabel: "\(dashboard.today.weekday.shortName) \(style.format(dashboard.today))",
            currency: dashboard.currency.code,
            clinics: dashboard.clinics.map { standing in
                .init(
                    id: standing.clinic.id.rawValue,
                    name: standing.clinic.name,
                    color: colors[standing.clinic.id] ?? "c0",
                    owed: style.format(standing.arrears.owed.magnitudeOrSelf),
                    credit: standing.arrears.owed.isNegative,
                    overdue: !standing.overdue(page.history).isZero,
                    parts: standing.owedParts(style: style, history: page.history)
                )
            },
            hasOverdue: dashboard.clinics.contains { !$0.overdue(page.history).isZero },
            hasUnconfirmed: !(page.history?.isEmpty ?? true),
            tiles: [
                tile("today-commission", "Today", dashboard.todayTotals),
                tile("month-commission", "This month", dashboard.monthTotals),
                tile("year-commission", "This year", dashboard.yearTotals),
            ],
            hasSales: series.clinics.contains { $0.commission.contains { !$0.isZero } }
                || dashboard.yearTotals.saleCount > 0,
            monthlyNarrow: Charts.monthly(months: series.months, series: monthly, style: style, size: .narrow),
            monthlyWide: Charts.monthly(months: series.months, series: monthly, style: style, size: .wide),
            legend: Charts.legend(monthly),
            share: Charts.share(
                dashboard.clinics.filter { !$0.yearTotals.commission.isZero }.map {
                    ($0.clinic.name, colors[$0.clinic.id] ?? "c0", $0.yearTotals.commission.minorUnits)
                },
                style: style
            ),
            products: dashboard.products.map { standing in
                .init(
                    name: standing.product.name,
                    units: standing.yearTotals.quantity,
                    revenue: style.format(standing.yearTotals.revenue),
                    commission: style.format(standing.yearTotals.commission)
                )
            }
        )
    }

    /// "1 sale", "2 sales".

    /// The dashboard page's body (what a live update replaces), rendered.
    package static func body(_ page: DashboardPageRequest.Value, pages: Pages) -> String {
        pages.library.render(view(page), withTemplate: "dashboard-body") ?? ""
    }

    func dashboardPage(
        _ request: Request,
        context: AppRequestContext,
        message: String? = nil
    ) async throws -> Response {
        let page = try await DashboardPageRequest().fetch(from: app.store)
        if request.uri.queryParameters["fragment"] != nil { return app.pages.html(Self.body(page, pages: app.pages)) }
        let view = DashboardPageView(
            firstSteps: try await WelcomeJob.firstSteps(app.store, onSalePage: false),
            question: HistoryQuestionView(
                page.history,
                settings: page.settings,
                back: "dashboard",
                csrf: context.csrfToken ?? ""
            ),
            dashboardBody: Self.body(page, pages: app.pages)
        )
        return try await app.page(
            "dashboard",
            view: view,
            title: "Dashboard",
            nav: "dashboard",
            context: context,
            message: message
        )
    }
}

/// Everything the dashboard page shows, read once: what its live stream renders after each change.
package struct DashboardPageRequest: StoreRequest {
    package struct Value: Sendable, TemplateValues {
        var settings: BookSettings
        var dashboard: Dashboard
        var series: MonthSeries
        /// Archived ones too: a clinic keeps its colour.
        var clinics: [Clinic]
        /// Her history's unpaid periods while she has not said whether they were paid.
        var history: UnconfirmedHistory?
    }

    package init() {}

    package var tables: Set<StoreTable> { Set(StoreTable.allCases) }

    package func fetch(from store: any CommissionStore) async throws -> Value {
        let settings = try await store.settings()
        let dashboard = try await store.dashboard(today: settings.today())
        return Value(
            settings: settings,
            dashboard: dashboard,
            series: try await MonthSeriesRequest(through: dashboard.today).fetch(from: store),
            clinics: try await store.clinics(ClinicQuery(includeArchived: true)),
            history: try await UnconfirmedHistory.asked(of: store, dashboard: dashboard)
        )
    }
}

/// What the dashboard's body shows (`dashboard-body.mustache`), redrawn whole by its live stream.
package struct DashboardView: PageView {
    /// A clinic's card: what it owes her over every period (or, as a credit, what it paid beyond).
    package struct Card: Sendable, TemplateValues {
        let id: Int64
        let name: String
        /// Its colour class (`c0`…), the same in the charts.
        let color: String
        /// What it owes her; with `credit`, what it paid beyond what it owes.
        let owed: String
        let credit: Bool
        /// Something is past its usual day of payment: the card offers to record a payment.
        let overdue: Bool
        /// What it owes, in parts that add up (``ClinicStanding/owedParts(style:)``).
        let parts: [ChipFigure]
        package init(
            id: Int64,
            name: String,
            color: String,
            owed: String,
            credit: Bool,
            overdue: Bool,
            parts: [ChipFigure]
        ) {
            (self.id, self.name, self.color, self.owed, self.credit, self.overdue, self.parts) = (
                id, name, color, owed, credit, overdue, parts
            )
        }
    }

    /// A headline: commission today, this month, this year.
    package struct Tile: Sendable, TemplateValues {
        /// The figure's element id (`today-commission`…), which the tests and the live page read.
        let id: String
        let label: String
        let commission: String
        /// "6 sales".
        let sales: String
        let revenue: String
        package init(id: String, label: String, commission: String, sales: String, revenue: String) {
            (self.id, self.label, self.commission, self.sales, self.revenue) = (id, label, commission, sales, revenue)
        }
    }

    /// A product's year.
    package struct Product: Sendable, TemplateValues {
        let name: String
        let units: Int64
        let revenue: String
        let commission: String
        package init(name: String, units: Int64, revenue: String, commission: String) {
            (self.name, self.units, self.revenue, self.commission) = (name, units, revenue, commission)
        }
    }

    let todayISO: String
    let todayLabel: String
    let currency: String
    let clinics: [Card]
    let hasOverdue: Bool
    /// Some of what a clinic owes is her history's, not yet confirmed: the chip's word says so.
    let hasUnconfirmed: Bool
    let tiles: [Tile]
    /// Whether there is anything to chart: without a sale in the months shown, the page says what will show here instead.
    let hasSales: Bool
    /// The commission per month drawn for a phone (every other month named) and for a wide screen; the page shows one.
    let monthlyNarrow: String
    let monthlyWide: String
    let legend: String
    let share: String
    /// The year's products by commission: the first ``productsShown`` shown, the others rows of the
    /// same table unfolded by a summary under it ("7 more products"), so that the page keeps its
    /// length however many she sells.
    let products: [Product]
    let moreProducts: [Product]
    let hasMoreProducts: Bool
    let moreProductsLabel: String

    /// The products the dashboard shows before the fold.
    package static let productsShown = 5

    package init(
        todayISO: String,
        todayLabel: String,
        currency: String,
        clinics: [Card],
        hasOverdue: Bool,
        hasUnconfirmed: Bool = false,
        tiles: [Tile],
        hasSales: Bool,
        monthlyNarrow: String,
        monthlyWide: String,
        legend: String,
        share: String,
        products: [Product]
    ) {
        (self.todayISO, self.todayLabel, self.currency, self.clinics, self.hasOverdue, self.tiles, self.hasSales) =
            (todayISO, todayLabel, currency, clinics, hasOverdue, tiles, hasSales)
        self.hasUnconfirmed = hasUnconfirmed
        (self.monthlyNarrow, self.monthlyWide, self.legend, self.share) = (monthlyNarrow, monthlyWide, legend, share)
        self.products = Array(products.prefix(Self.productsShown))
        moreProducts = Array(products.dropFirst(Self.productsShown))
        hasMoreProducts = !moreProducts.isEmpty
        moreProductsLabel = moreProducts.count == 1 ? "1 more product" : "\(moreProducts.count) more products"
    }
}

/// The dashboard page (`dashboard.mustache`): the first steps of a new book, and the body its live stream replaces.
package struct DashboardPageView: PageView {
    let firstSteps: FirstSteps?
    /// The question about her history, while it is open and there is something to ask.
    let question: HistoryQuestionView?
    /// `dashboard-body.mustache` rendered (``DashboardJob/body(_:pages:)``).
    let dashboardBody: String
    package init(firstSteps: FirstSteps?, question: HistoryQuestionView? = nil, dashboardBody: String) {
        (self.firstSteps, self.question, self.dashboardBody) = (firstSteps, question, dashboardBody)
    }
}
