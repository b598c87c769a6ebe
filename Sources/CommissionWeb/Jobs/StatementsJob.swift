import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Hummingbird

/// What a clinic owes her for one pay period: the printable statement and its CSV; the API's
/// statement. And her year per clinic, for her accountant: a page, its CSV, the API's JSON.
struct StatementsJob: Job {

    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {
        pages.get("/statements") { request, context in try await statementPage(request, context: context) }
        pages.get("/statements.csv") { request, context in try await statementCSV(request, context: context) }
        pages.get("/year") { request, context in try await yearPage(request, context: context) }
        pages.get("/year.csv") { request, _ in
            let (summary, settings) = try await year(request.uri.queryParameters["year"].map(String.init))
            return Self.csv(
                Renderer(currency: settings.currency).render(summary, as: .csv),
                name: "commission-\(summary.year).csv"
            )
        }
    }

    /// The year a request names (default this year), summed: 1900 to next year, as a book's dates go.
    func year(_ text: String?) async throws -> (YearSummary, BookSettings) {
        let settings = try await app.store.settings()
        let today = settings.today()
        guard let year = text.map({ Int($0) }) ?? today.year else {
            throw Problem(.badRequest, "The year is a number, as 2026.")
        }
        guard (AcceptedDays.earliest.year...today.year + 1).contains(year) else {
            throw Problem(
                .unprocessableContent,
                "\(year) is outside the years this book holds (\(AcceptedDays.earliest.year) to \(today.year + 1))."
            )
        }
        return (try await app.store.yearSummary(year, today: today), settings)
    }

    /// A CSV download named `name`.
    static func csv(_ text: String, name: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"\(name)\"",
            ],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }

    func yearPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (summary, settings) = try await year(request.uri.queryParameters["year"].map(String.init))
        let style = settings.style
        func figures(_ f: ClinicYear.Figures) -> YearPageView.Figures {
            .init(
                sales: style.formatCount(f.sales.saleCount),
                salesText: SaleWords.count(f.sales.saleCount, style: style),
                revenue: style.format(f.sales.revenue),
                earned: style.format(f.sales.commission),
                periods: f.periods,
                commission: style.format(f.commission),
                accelerators: style.format(f.accelerators),
                deductions: style.format(f.deductions),
                netPayable: style.format(f.netPayable),
                received: style.format(f.received),
                balance: style.format(f.balance.magnitudeOrSelf),
                credit: f.balance.isNegative,
                signedBalance: style.format(f.balance),
                adjusted: !f.accelerators.isZero || !f.deductions.isZero
            )
        }
        // In the year running, a clinic past its usual day of payment says so, as on the dashboard.
        let today = settings.today()
        var overdue: Set<Clinic.ID> = []
        if summary.year == today.year {
            let dashboard = try await app.store.dashboard(today: today)
            // Her history's unpaid periods, not yet confirmed, are no alarm.
            let history = try await UnconfirmedHistory.asked(of: app.store, dashboard: dashboard)
            overdue = Set(dashboard.clinics.filter { !$0.overdue(history).isZero }.map(\.clinic.id))
        }
        let view = YearPageView(
            year: summary.year,
            previous: summary.year > AcceptedDays.earliest.year ? summary.year - 1 : nil,
            next: summary.year < settings.today().year ? summary.year + 1 : nil,
            clinics: summary.clinics.map { clinic in
                .init(
                    name: clinic.clinic.name,
                    chip: clinic.figures.balance.isNegative
                        ? .credit
                        : overdue.contains(clinic.clinic.id) && clinic.figures.balance.isPositive ? .overdue : nil,
                    year: figures(clinic.figures),
                    months: clinic.months.enumerated().filter { $0.element.saleCount > 0 }.map { index, month in
                        .init(
                            month: Renderer.monthNames[index],
                            sales: style.formatCount(month.saleCount),
                            revenue: style.format(month.revenue),
                            earned: style.format(month.commission)
                        )
                    }
                )
            },
            total: summary.clinics.isEmpty ? nil : figures(summary.total)
        )
        return try await app.page("year", view: view, title: "Year \(summary.year)", nav: "year", context: context)
    }

    func registerAPI<G>(on api: Registrar<G>) {
        api.get("/clinics/:id/statement") { request, context in
            let clinic = try await app.clinic(context)
            let statement = try await app.store.statement(
                clinic: clinic.id,
                period: try await app.period(request, clinic: clinic)
            )
            return try app.json(try await app.presenter().statement(statement))
        }
        // Her year per clinic: JSON, or CSV with ?format=csv.
        api.get("/year/:year") { request, context in
            let (summary, settings) = try await year(try context.parameters.require("year"))
            switch request.uri.queryParameters["format"] {
            case nil, "json": return try app.json(Presenter(currency: settings.currency).year(summary))
            case "csv":
                return Self.csv(
                    Renderer(currency: settings.currency).render(summary, as: .csv),
                    name: "commission-\(summary.year).csv"
                )
            case let other?: throw Problem(.badRequest, "The format is json or csv, not \"\(other)\".")
            }
        }
        // Every statement of a range (StatementsRequest; by default this month to today): JSON, or CSV with ?format=csv.
        api.get("/statements") { request, _ in
            let settings = try await app.store.settings()
            let through = try app.queryDay(request, "to", settings: settings) ?? settings.today()
            let from = try app.queryDay(request, "from", settings: settings) ?? through.firstOfMonth
            let statements = try await StatementsRequest(from: from, through: through).fetch(from: app.store)
            let renderer = Renderer(currency: settings.currency)
            switch request.uri.queryParameters["format"] {
            case nil, "json":
                return try app.json(statements.map(Presenter(currency: settings.currency).statement))
            case "csv":
                return Self.csv(renderer.render(statements, as: .csv), name: "statements-\(from)-\(through).csv")
            case let other?:
                throw Problem(.badRequest, "The format is json or csv, not \"\(other)\".")
            }
        }
    }

    /// The clinic and period a statement request names: `clinic=ID&date=YYYY-MM-DD` (default: the first clinic, today).
    func statementTarget(_ request: Request) async throws -> (Clinic, PayPeriod, Day, [Clinic])? {
        let settings = try await app.store.settings()
        let clinics = try await app.store.clinics(ClinicQuery(includeArchived: true))
        let query = request.uri.queryParameters
        let date = try query["date"].map { try Day(parsing: String($0)) } ?? settings.today()
        try AcceptedDays(today: settings.today()).check(date, field: "date")
        guard
            let clinic = query["clinic"].flatMap({ Int64(String($0)) }).flatMap({ id in
                clinics.first { $0.id.rawValue == id }
            }) ?? clinics.first
        else {
            return nil
        }
        return (clinic, clinic.calendar.period(containing: date), date, clinics)
    }

    func statementPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let settings = try await app.store.settings()
        let style = settings.style
        guard let (clinic, period, date, clinics) = try await statementTarget(request) else {
            return try await app.page(
                "statement",
                view: StatementPageView(date: "", earliest: "", latest: "", clinics: [], statement: nil),
                title: "Statement",
                nav: "statements",
                context: context,
                message: "Add a clinic first."
            )
        }
        let statement = try await app.store.statement(clinic: clinic.id, period: period)
        let link = { (day: Day) in "/statements?clinic=\(clinic.id)&date=\(day)" }
        let (lines, grouping, opened) = try Self.linesShown(
            statement.lines,
            query: { request.uri.queryParameters[Substring($0)].map(String.init) },
            base: "/statements?clinic=\(clinic.id)&date=\(period.start)",
            style: style
        )
        let view = StatementPageView(
            date: date.description,
            earliest: AcceptedDays.earliest.description,
            latest: AcceptedDays(today: settings.today()).latest.description,
            clinics: clinics.map { .init(id: $0.id.rawValue, name: $0.name, selected: $0.id == clinic.id) },
            statement: .init(
                clinic: clinic.name,
                period: style.formatShort(period),
                closed: statement.isClosed,
                previousLink: link(period.start.adding(days: -1)),
                nextLink: link(period.end.adding(days: 1)),
                previousName: style.formatShort(clinic.calendar.period(containing: period.start.adding(days: -1))),
                // No next period while this one runs: it has not begun.
                nextName: period.end < settings.today()
                    ? style.formatShort(clinic.calendar.period(containing: period.end.adding(days: 1))) : nil,
                csvLink: "/statements.csv?clinic=\(clinic.id)&date=\(period.start)",
                compareLink: "/compare?clinic=\(clinic.id)&date=\(period.start)",
                lines: lines.map { line in
                    let sale = line.sale
                    return .init(
                        date: style.formatShort(sale.date),
                        product: line.productName,
                        quantity: sale.quantity,
                        price: style.format(sale.line.unitPrice),
                        discount: style.format(sale.line.discount),
                        revenue: style.format(sale.figures.revenue),
                        profit: style.format(sale.figures.profit),
                        share: sale.line.rate.map { "\($0.share.shortPercentText)%" } ?? "none",
                        commission: style.format(sale.figures.commission)
                    )
                },
                grouping: grouping,
                opened: opened,
                sales: SaleWords.count(statement.totals.saleCount, style: style),
                saleCount: style.formatCount(statement.totals.saleCount),
                revenue: style.format(statement.totals.revenue),
                profit: style.format(statement.totals.profit),
                // An accelerator that added nothing (its tiers not reached) is not a line of its own.
                adjusted: statement.accelerators.contains { !$0.amount.isZero } || !statement.deductions.isEmpty,
                lineCommission: style.format(statement.totals.commission),
                accelerators: statement.accelerators.filter { !$0.amount.isZero }.map { line in
                    .init(
                        tiers: SplitText.tiers(line.terms.tiers, amount: style.format),
                        basisTotal: style.format(line.basisTotal),
                        amount: style.format(line.amount)
                    )
                },
                deductions: statement.deductions.map {
                    .init(name: $0.deduction.name, amount: style.format($0.amount))
                },
                commission: style.format(statement.netPayable),
                received: style.format(statement.received),
                balance: style.format(statement.balance),
                standing: .of(
                    clinic: clinic.name,
                    netPayable: statement.netPayable,
                    received: statement.received,
                    balance: statement.balance,
                    style: style
                )
            )
        )
        return try await app.page(
            "statement",
            view: view,
            title: "Statement \(clinic.name)",
            nav: "statements",
            context: context
        )
    }

    /// A period's lines shown whole up to this many; beyond, grouped (by day, or by product), the
    /// lines of the group she opens a page of this many at a time — so that a busy clinic's
    /// statement stays a page her phone loads (its CSV has every line).
    static let linesShownWhole = 200

    /// The lines of a statement the page shows, and, for a statement of many, its groups and the
    /// group opened (`lines=day|product`, `day=2026-11-03` or `product=4`, `page=2`).
    static func linesShown(
        _ lines: [StatementLine],
        query: (String) -> String?,
        base: String,
        style: LocaleStyle
    ) throws -> ([StatementLine], StatementPageView.Grouping?, StatementPageView.Opened?) {
        guard lines.count > linesShownWhole else { return (lines, nil, nil) }
        let byProduct = query("lines") == "product"
        let kind = byProduct ? "product" : "day"
        // A group of lines: its key in the link, its label, its lines (in the statement's order).
        var groups: [(key: String, label: String, lines: [StatementLine])] = []
        if byProduct {
            groups = Dictionary(grouping: lines, by: \.sale.productID).map { id, lines in
                (key: "\(id)", label: lines[0].productName, lines: lines)
            }.sorted { ($0.label, $0.key) < ($1.label, $1.key) }
        } else {
            groups = Dictionary(grouping: lines, by: \.sale.date).sorted { $0.key < $1.key }.map { day, lines in
                (key: day.description, label: style.formatShort(day), lines: lines)
            }
        }
        let openKey = query(byProduct ? "product" : "day")
        let groupLink = { (key: String) in "\(base)&lines=\(kind)&\(kind)=\(key)" }
        let grouping = StatementPageView.Grouping(
            byDay: !byProduct,
            dayLink: "\(base)&lines=day#statement-groups",
            productLink: "\(base)&lines=product#statement-groups",
            groups: try groups.map { group in
                .init(
                    label: group.label,
                    href: groupLink(group.key) + "#statement-opened",
                    sales: style.formatCount(group.lines.count),
                    revenue: style.format(
                        try group.lines.reduce(Money.zero) { try $0.adding($1.sale.figures.revenue) }
                    ),
                    commission: style.format(
                        try group.lines.reduce(Money.zero) { try $0.adding($1.sale.figures.commission) }
                    ),
                    open: group.key == openKey
                )
            }
        )
        guard let open = groups.first(where: { $0.key == openKey }) else { return ([], grouping, nil) }
        let page = ListPage(open.lines, size: linesShownWhole, asked: query("page"))
        let pageLink = { (page: Int) in groupLink(open.key) + "&page=\(page)#statement-opened" }
        let opened = StatementPageView.Opened(
            title: "\(open.label): \(SaleWords.count(open.lines.count, style: style))",
            range: page.isOnly
                ? nil
                : "Lines \(style.formatCount(page.first))–\(style.formatCount(page.last)) of \(style.formatCount(open.lines.count))",
            previousPage: page.previous.map(pageLink),
            nextPage: page.next.map(pageLink),
            allLink: "\(base)&lines=\(kind)#statement-groups"
        )
        return (page.rows, grouping, opened)
    }

    func statementCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let currency = try await app.store.settings().currency
        guard let (clinic, period, _, _) = try await statementTarget(request) else {
            throw Problem(.notFound, "There is no clinic yet.")
        }
        let statement = try await app.store.statement(clinic: clinic.id, period: period)
        let csv = Renderer(currency: currency).render(statement, as: .csv)
        let filename = "statement-\(clinic.name.filter { $0.isLetter || $0.isNumber })-\(period.start).csv"
        return Self.csv(csv, name: filename)
    }
}

/// A clinic's statement for one pay period: what it is worth first (the totals and the balance),
/// then each sale on one line — its date, what, and its commission; the other figures on a wide
/// screen.
package struct StatementPageView: PageView {
    package typealias Option = PageOption

    package struct Line: Sendable, TemplateValues {
        let date: String, product: String, quantity: Int64, price: String, discount: String, revenue: String,
            profit: String, share: String
        let commission: String
        /// "2 × Serum 30ml", "Return: 1 × Serum 30ml".
        let what: String

        package init(
            date: String,
            product: String,
            quantity: Int64,
            price: String,
            discount: String,
            revenue: String,
            profit: String,
            share: String,
            commission: String
        ) {
            (self.date, self.product, self.quantity, self.price, self.discount) = (
                date, product, quantity, price, discount
            )
            what = SaleWords.what(quantity, product)
            (self.revenue, self.profit, self.share, self.commission) = (revenue, profit, share, commission)
        }
    }

    package struct Accelerator: Sendable, TemplateValues {
        let tiers: String, basisTotal: String, amount: String

        package init(tiers: String, basisTotal: String, amount: String) {
            (self.tiers, self.basisTotal, self.amount) = (tiers, basisTotal, amount)
        }
    }

    package struct Deduction: Sendable, TemplateValues {
        let name: String, amount: String

        package init(name: String, amount: String) {
            (self.name, self.amount) = (name, amount)
        }
    }

    /// A statement of many lines, grouped: by day or by product, each group with its figures and
    /// the link that opens its lines.
    package struct Grouping: Sendable, TemplateValues {
        package struct Group: Sendable, TemplateValues {
            let label: String, href: String, sales: String, revenue: String, commission: String
            /// Its lines are shown under the groups.
            let open: Bool
            package init(label: String, href: String, sales: String, revenue: String, commission: String, open: Bool) {
                (self.label, self.href, self.sales, self.revenue, self.commission, self.open) = (
                    label, href, sales, revenue, commission, open
                )
            }
        }

        let byDay: Bool
        let dayLink: String, productLink: String
        let groups: [Group]

        package init(byDay: Bool, dayLink: String, productLink: String, groups: [Group]) {
            (self.byDay, self.dayLink, self.productLink, self.groups) = (byDay, dayLink, productLink, groups)
        }
    }

    /// The group whose lines are shown: "Nov 3: 1,234 sales", a page of them at a time.
    package struct Opened: Sendable, TemplateValues {
        let title: String
        /// "Lines 201–400 of 1,234", when its lines take more than a page.
        let range: String?
        let previousPage: String?, nextPage: String?
        /// Back to the groups alone.
        let allLink: String

        package init(title: String, range: String?, previousPage: String?, nextPage: String?, allLink: String) {
            (self.title, self.range, self.previousPage, self.nextPage, self.allLink) = (
                title, range, previousPage, nextPage, allLink
            )
        }
    }

    package struct Statement: Sendable, TemplateValues {
        let clinic: String, period: String, closed: Bool
        let previousLink: String, nextLink: String, csvLink: String, compareLink: String
        /// The periods either side, as the stepper names them ("Oct 2026"); none after the running one.
        let previousName: String, nextName: String?
        let lines: [Line]
        /// Some sales, every one shown: the table's totals row shows.
        let hasLines: Bool
        /// Many sales: grouped, the lines of one group shown (`opened`), or none.
        let grouping: Grouping?
        let opened: Opened?
        /// The lines' table shows: every line, or an opened group's.
        let showsLines: Bool
        /// "12 sales", and the count alone ("12") beside its label.
        let sales: String, saleCount: String, revenue: String, profit: String
        /// Whether accelerators or deductions change the lines' commission.
        let adjusted: Bool
        let lineCommission: String
        let accelerators: [Accelerator]
        let deductions: [Deduction]
        /// What the clinic is to pay: the lines' commission, with accelerators and less deductions.
        let commission: String
        let received: String, balance: String
        /// The balance in words, first and largest: who owes whom how much.
        let standing: Standing

        package init(
            clinic: String,
            period: String,
            closed: Bool,
            previousLink: String,
            nextLink: String,
            previousName: String = "",
            nextName: String? = nil,
            csvLink: String,
            compareLink: String,
            lines: [Line],
            grouping: Grouping? = nil,
            opened: Opened? = nil,
            sales: String,
            saleCount: String,
            revenue: String,
            profit: String,
            adjusted: Bool,
            lineCommission: String,
            accelerators: [Accelerator],
            deductions: [Deduction],
            commission: String,
            received: String,
            balance: String,
            standing: Standing
        ) {
            (self.clinic, self.period, self.closed, self.previousLink, self.nextLink) = (
                clinic, period, closed, previousLink, nextLink
            )
            (self.previousName, self.nextName) = (previousName, nextName)
            (self.csvLink, self.compareLink, self.lines, self.sales, self.revenue, self.profit) = (
                csvLink, compareLink, lines, sales, revenue, profit
            )
            hasLines = !lines.isEmpty && grouping == nil
            (self.grouping, self.opened, showsLines) = (grouping, opened, grouping == nil || opened != nil)
            self.saleCount = saleCount
            (self.adjusted, self.lineCommission, self.accelerators, self.deductions) = (
                adjusted, lineCommission, accelerators, deductions
            )
            (self.commission, self.received, self.balance, self.standing) = (commission, received, balance, standing)
        }
    }

    /// A period's balance as a sentence, and the colour of its meaning (`owed`, `paid`, `credit`, `overdue`).
    package struct Standing: Sendable, TemplateValues {
        package let sentence: String
        package let meaning: String
        package init(sentence: String, meaning: String) { (self.sentence, self.meaning) = (sentence, meaning) }

        /// Who owes whom for a period, in a sentence: the clinic her balance (owed), nothing (paid in
        /// full), or — its deductions beyond her commission — she the clinic (what it paid her
        /// besides counted in); a clinic that paid more than the period's figure has paid beyond it
        /// (credit).
        package static func of(
            clinic: String,
            netPayable: Money,
            received: Money,
            balance: Money,
            style: LocaleStyle
        ) -> Standing {
            if balance.isZero {
                return .init(
                    sentence: netPayable.isZero
                        ? "Nothing is owed for this period." : "\(clinic) has paid this period in full.",
                    meaning: "paid"
                )
            }
            if !balance.isNegative {
                return .init(sentence: "\(clinic) owes you \(style.format(balance)) for this period.", meaning: "owed")
            }
            let over = style.format(balance.magnitudeOrSelf)
            if netPayable.isNegative {
                return .init(
                    sentence: "You owe \(clinic) \(over) for this period: its deductions are more than your commission"
                        + (received.isZero ? "." : ", and it paid you \(style.format(received)) besides."),
                    meaning: "overdue"
                )
            }
            return .init(sentence: "\(clinic) paid you \(over) beyond this period.", meaning: "credit")
        }
    }

    let date: String, earliest: String, latest: String
    let clinics: [Option]
    let statement: Statement?

    package init(date: String, earliest: String, latest: String, clinics: [Option], statement: Statement?) {
        (self.date, self.earliest, self.latest, self.clinics, self.statement) = (
            date, earliest, latest, clinics, statement
        )
    }
}

/// Your year, for your accountant: the year's total over every clinic first, then each clinic's
/// year — what its pay periods ending in the year were to pay, what it paid, what it still owes —
/// with its months one tap away.
package struct YearPageView: PageView {
    package struct Figures: Sendable, TemplateValues {
        /// "1,039", and "1 sale", "1,039 sales".
        let sales: String, salesText: String
        let revenue: String, earned: String, periods: Int, commission: String, accelerators: String, deductions: String
        /// What is still owed; with `credit`, what the clinic paid beyond what it owes (never a negative amount).
        let netPayable: String, received: String, balance: String, credit: Bool
        /// The same with its sign, in a column that adds up (a credit `−$10.00`).
        let signedBalance: String
        /// Whether accelerators or deductions made the periods' figures differ from their sales'.
        let adjusted: Bool

        package init(
            sales: String,
            salesText: String,
            revenue: String,
            earned: String,
            periods: Int,
            commission: String,
            accelerators: String,
            deductions: String,
            netPayable: String,
            received: String,
            balance: String,
            credit: Bool = false,
            signedBalance: String? = nil,
            adjusted: Bool
        ) {
            (self.sales, self.salesText, self.revenue, self.earned, self.periods, self.commission) = (
                sales, salesText, revenue, earned, periods, commission
            )
            (self.accelerators, self.deductions, self.netPayable, self.received) = (
                accelerators, deductions, netPayable, received
            )
            (self.balance, self.credit, self.adjusted) = (balance, credit, adjusted)
            self.signedBalance = signedBalance ?? balance
        }
    }

    package struct Month: Sendable, TemplateValues {
        let month: String, sales: String, revenue: String, earned: String

        package init(month: String, sales: String, revenue: String, earned: String) {
            (self.month, self.sales, self.revenue, self.earned) = (month, sales, revenue, earned)
        }
    }

    package struct Clinic: Sendable, TemplateValues {
        let name: String
        /// How it stands (``Chip``): overdue now, in the year running; paid beyond.
        let chip: Chip?
        let year: Figures
        let months: [Month]

        package init(name: String, chip: Chip? = nil, year: Figures, months: [Month]) {
            (self.name, self.chip, self.year, self.months) = (name, chip, year, months)
        }
    }

    let year: Int
    let previous: Int?
    let next: Int?
    let clinics: [Clinic]
    /// Every clinic's year together; none when nothing was sold and no period ended in the year.
    let total: Figures?

    package init(year: Int, previous: Int?, next: Int?, clinics: [Clinic], total: Figures?) {
        (self.year, self.previous, self.next, self.clinics, self.total) = (year, previous, next, clinics, total)
    }
}
