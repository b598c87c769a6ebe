import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Hummingbird

/// Her sales: the list (filter, page), a sale's page (edit, history), voiding; the API's sales.
struct SalesJob: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    /// When a change was made, in UTC, to the minute.
    static let auditTime: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter
    }()

    func registerPages<G>(on pages: Registrar<G>) {
        pages.get("/sales") { request, context in try await salesPage(request, context: context) }
        pages.get("/sales/:id/edit") { _, context in try await editSalePage(context: context) }
        pages.post("/sales/:id") { request, context in try await editSale(request, context: context) }
        pages.post("/sales/:id/void") { request, context in
            let form = try await Form.read(request, context: context)
            let sale = try await app.store.voidSale(Sale.ID(try context.parameters.require("id", as: Int64.self)))
            // Undo on the entry page goes back there; the sales list's Void stays on the list.
            return .redirect(to: form["back"] == "entry" ? "/?voided=\(sale.id)" : "/sales?voided=\(sale.id)")
        }
    }

    func registerAPI<G>(on api: Registrar<G>) {
        api.get("/sales") { request, _ in try await listSales(request) }
        api.post("/sales") { request, context in try await createSale(request, context: context) }
        api.get("/sales/:id") { _, context in try await saleJSON(try await app.store.sale(try id(context))) }
        // PATCH changes a sale in part, DELETE voids it (it stays on record); the POST forms of
        // both stay for clients written before them.
        api.patch("/sales/:id") { request, context in try await updateSale(request, context: context) }
        api.delete("/sales/:id") { _, context in try await saleJSON(try await app.store.voidSale(try id(context))) }
        api.post("/sales/:id") { request, context in try await updateSale(request, context: context) }
        api.post("/sales/:id/void") { _, context in try await saleJSON(try await app.store.voidSale(try id(context))) }
        api.get("/sales/:id/history") { _, context in try await saleHistory(context: context) }
    }

    func id(_ context: AppRequestContext) throws -> Sale.ID {
        Sale.ID(try context.parameters.require("id", as: Int64.self))
    }

    // MARK: Pages

    func salesPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let store = app.store
        let style = try await store.settings().style
        let query = request.uri.queryParameters
        let clinicID = query["clinic"].flatMap { Int64(String($0)) }.map { Clinic.ID($0) }
        let productID = query["product"].flatMap { Int64(String($0)) }.map { Product.ID($0) }
        let offset = max(0, query["offset"].flatMap { Int(String($0)) } ?? 0)
        let pageSize = 50
        let saleQuery = SaleQuery(
            clinicID: clinicID,
            productID: productID,
            // try?: an empty or unreadable day filters nothing (its date box then shows empty too)
            from: query["from"].flatMap { try? Day(parsing: String($0)) },
            // try?: as above, for the last day
            through: query["to"].flatMap { try? Day(parsing: String($0)) },
            text: query["q"].map(String.init),
            page: Page(limit: pageSize, offset: offset)
        )
        let sales = try await store.sales(saleQuery)
        let total = try await store.countSales(saleQuery)
        let names = try await Presenter.Names(store: store)
        func link(_ offset: Int) -> String {
            var parts = ["offset=\(offset)"]
            for key in ["clinic", "product", "from", "to", "q"] {
                if let value = query[Substring(key)], !value.isEmpty {
                    parts.append(
                        "\(key)=\(String(value).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
                    )
                }
            }
            return "/sales?" + parts.joined(separator: "&")
        }
        let view = SalesPageView(
            clinics: try await store.clinics(ClinicQuery(includeArchived: true)).map {
                .init(id: $0.id.rawValue, name: $0.name, selected: $0.id == clinicID)
            },
            products: try await store.products(ProductQuery(includeArchived: true)).map {
                .init(id: $0.id.rawValue, name: $0.name, selected: $0.id == productID)
            },
            from: query["from"].map(String.init) ?? "",
            to: query["to"].map(String.init) ?? "",
            q: query["q"].map(String.init) ?? "",
            filtered: ["clinic", "product", "from", "to", "q"].contains {
                query[Substring($0)].map { !$0.isEmpty } ?? false
            },
            sales: sales.map { sale in
                SalesPageView.Row(
                    id: sale.id.rawValue,
                    quantity: sale.quantity,
                    product: names.products[sale.productID] ?? "",
                    clinic: names.clinics[sale.clinicID] ?? "",
                    date: style.format(sale.date),
                    note: sale.note.flatMap { $0.isEmpty ? nil : $0 },
                    commission: style.format(sale.figures.commission)
                )
            },
            count: SaleWords.count(total, style: style),
            previous: offset > 0 ? link(max(0, offset - pageSize)) : nil,
            next: offset + pageSize < total ? link(offset + pageSize) : nil
        )
        // A sale voided from its page: said here, where she lands.
        var message: String?
        if let voided = query["voided"].flatMap({ Int64(String($0)) }),
            // try?: the sale just voided, read back for its sentence; one not found (an id typed) says nothing
            let sale = try? await store.sale(Sale.ID(voided)), sale.isVoided
        {
            message =
                "Voided the sale of \(SaleWords.what(sale.quantity, names.products[sale.productID] ?? "a product")) at \(names.clinics[sale.clinicID] ?? "a clinic") "
                + "on \(style.format(sale.date)): it stays on record and counts nowhere."
        }
        return try await app.page("sales", view: view, title: "Sales", nav: "sales", context: context, message: message)
    }

    /// Who made a change, in words: "you", "you, through the API", "Maya", "from the command line".
    static func who(_ actor: String, me: String?) -> String {
        if actor.hasPrefix("cli:") { return "from the command line" }
        if actor.hasPrefix("sync:") { return "from a synced device" }
        if actor == "system" { return "Commission itself" }
        let api = actor.hasSuffix(" (API)")
        let name = api ? String(actor.dropLast(" (API)".count)) : actor
        let person = name == me ? "you" : name
        return api ? "\(person), through the API" : person
    }

    /// A sale's page. `typed`: the form she sent, drawn again as she typed it when it was
    /// refused (`refusal`, whose field is marked), its fold open.
    func editSalePage(
        context: AppRequestContext,
        error: String? = nil,
        errorLink: PageLink? = nil,
        status: HTTPResponse.Status = .ok,
        typed: Form? = nil,
        refusal: Problem? = nil
    ) async throws -> Response {
        let store = app.store
        let settings = try await store.settings()
        let currency = settings.currency
        let style = settings.style
        let sale = try await store.sale(try id(context))
        let names = try await Presenter.Names(store: store)
        let product = names.products[sale.productID] ?? "a product", clinic = names.clinics[sale.clinicID] ?? "a clinic"
        let figures = sale.figures, line = sale.line
        // How the commission was reached, a step a line: price and discount, cost, her share.
        let working = [
            "\(sale.quantity) × \(style.format(line.unitPrice))"
                + (line.discount.isZero ? "" : " − \(style.format(line.discount)) discount")
                + " = \(style.format(figures.revenue)) revenue",
            "− \(style.format(figures.cost)) cost = \(style.format(figures.profit)) profit",
            line.rate.map {
                "\($0.share.shortPercentText)% of \($0.basis.rawValue) = \(style.format(figures.commission))"
            } ?? "No commission on this sale",
        ]
        // The form's fields: what she typed, when it comes back to her, else the sale's.
        func field(_ name: String, _ stored: String) -> String { typed.map { $0.values[name] ?? "" } ?? stored }
        let clinicID = typed.map { $0["clinic"].flatMap(Int64.init) } ?? sale.clinicID.rawValue
        let productID = typed.map { $0["product"].flatMap(Int64.init) } ?? sale.productID.rawValue
        let view = SalePageView(
            id: sale.id.rawValue,
            heading: SaleWords.what(sale.quantity, product),
            place: "\(clinic) · \(sale.date.weekday.shortName) \(style.format(sale.date))",
            commission: style.format(figures.commission),
            working: working,
            voided: sale.isVoided,
            editOpen: error != nil || typed != nil,
            date: field("date", sale.date.description),
            quantity: field("quantity", String(sale.quantity)),
            price: field("price", style.formatInput(line.unitPrice)),
            cost: field("cost", style.formatInput(line.unitCost)),
            discount: field("discount", style.formatInput(line.discount)),
            note: field("note", sale.note ?? ""),
            noCommission: typed.map { $0["noCommission"] != nil } ?? sale.isNoCommission,
            earliest: AcceptedDays.earliest.description,
            latest: AcceptedDays(today: settings.today()).latest.description,
            clinics: try await store.clinics(ClinicQuery()).map {
                PageOption(id: $0.id.rawValue, name: $0.name, selected: $0.id.rawValue == clinicID)
            },
            products: try await store.products(ProductQuery()).map {
                PageOption(id: $0.id.rawValue, name: $0.name, selected: $0.id.rawValue == productID)
            },
            history: try await store.auditLog(AuditQuery(subject: .sale, subjectID: sale.id.rawValue)).map { entry in
                .init(
                    at: Self.auditTime.string(from: entry.at),
                    actor: Self.who(entry.actor, me: context.caller.account?.username),
                    action: entry.action,
                    changes: entry.changes(currency: currency, names: names)
                )
            },
            invalid: FieldMarks(refusal?.field),
            confirm: refusal?.confirm == true,
            csrf: context.csrfToken ?? ""
        )
        return try await app.page(
            "edit-sale",
            view: view,
            title: "Sale of \(view.heading)",
            nav: "sales",
            context: context,
            status: status,
            error: error,
            errorLink: errorLink
        )
    }

    func editSale(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try id(context)
        let form = try await Form.read(request, context: context)
        let settings = try await app.store.settings()
        let style = settings.style
        return try await app.form {
            guard let quantity = form["quantity"].flatMap(Int64.init) else {
                var problem = Problem(
                    .unprocessableContent,
                    "The quantity is a whole number of units (negative for a return)."
                )
                problem.field = "quantity"
                throw problem
            }
            guard let clinic = form["clinic"].flatMap(Int64.init), let product = form["product"].flatMap(Int64.init)
            else {
                var problem = Problem(.unprocessableContent, "Choose a clinic and a product.")
                problem.field = form["clinic"].flatMap(Int64.init) == nil ? "clinic" : "product"
                throw problem
            }
            func amount(_ name: String, _ text: String?) throws -> Money {
                try Problem.about(name) { try style.parse(text ?? "") }
            }
            let draft = SaleDraft(
                clinicID: Clinic.ID(clinic),
                productID: Product.ID(product),
                date: try Problem.about("date") { try Day(parsing: form["date"] ?? "") },
                quantity: quantity,
                unitPrice: try amount("price", form["price"]),
                unitCost: try amount("cost", form["cost"]),
                discount: try form["discount"].map { try amount("discount", $0) } ?? .zero,
                noCommission: form["noCommission"] != nil,
                note: form["note"]
            )
            // What she changed to a figure far from what the book knows is asked about once, as on
            // the Sale page; what she left as it was is not.
            if form["confirmed"] == nil {
                let asking = AskedFigures.changed(from: try await app.store.sale(id), to: draft)
                let usual =
                    asking.contains(.price)
                    ? try await app.listPrice(of: draft.productID, at: draft.clinicID, on: draft.date) : nil
                if let question = try await app.unusual(
                    draft,
                    usualPrice: usual,
                    settings: settings,
                    asking: asking
                ) {
                    throw question
                }
            }
            _ = try await app.store.updateSale(id, with: draft)
            return .redirect(to: "/sales")
        } refused: { refusal in
            // A sale that is gone is the error page's; any other refusal redraws the form as she typed it.
            guard refusal.status != 404 else { throw refusal }
            return try await editSalePage(
                context: context,
                error: refusal.detail,
                errorLink: refusal.link,
                status: .init(code: refusal.status),
                typed: form,
                refusal: refusal
            )
        }
    }

    // MARK: API

    /// The sale as the API answers it; `currency`, when the handler already read the book's
    /// settings, saves reading them again (on PostgreSQL a round trip).
    func saleJSON(_ sale: Sale, status: HTTPResponse.Status = .ok, currency: Currency? = nil) async throws -> Response {
        var headers: HTTPFields = [:]
        if status == .created { headers[.location] = "/api/v1/sales/\(sale.id)" }
        let presenter = if let currency { Presenter(currency: currency) } else { try await app.presenter() }
        return app.json(bytes: Presenter.json(presenter.sale(sale)), status: status, headers: headers)
    }

    func listSales(_ request: Request) async throws -> Response {
        let settings = try await app.store.settings()
        let saleQuery = SaleQuery(
            clinicID: try QueryParameter.integer(request, "clinicId").map { Clinic.ID($0) },
            productID: try QueryParameter.integer(request, "productId").map { Product.ID($0) },
            from: try app.queryDay(request, "from", settings: settings),
            through: try app.queryDay(request, "to", settings: settings),
            text: request.uri.queryParameters["q"].map(String.init),
            includeVoided: try QueryParameter.flag(request, "voided"),
            order: try QueryParameter.choice(request, "order") ?? .newestFirst,
            page: try QueryParameter.page(request, defaultLimit: 50)
        )
        let presenter = Presenter(currency: settings.currency)
        return try app.json(
            API.SaleList(
                total: try await app.store.countSales(saleQuery),
                sales: try await app.store.sales(saleQuery).map(presenter.sale)
            )
        )
    }

    func createSale(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await app.body(API.SaleInput.self, request, context: context)
        let settings = try await app.store.settings()
        let draft = try await saleDraft(input, settings: settings)
        let sale = try await app.store.createSale(draft, idempotencyKey: request.headers[.idempotencyKey])
        app.configuration.metrics?.salesRecorded.increment()
        return try await saleJSON(sale, status: .created, currency: settings.currency)
    }

    /// A new sale as the API's body asks for it: for a single write and for a batch alike.
    func saleDraft(_ input: API.SaleInput, settings: BookSettings) async throws -> SaleDraft {
        let currency = settings.currency
        return SaleDraft(
            clinicID: try await app.clinicID(input.clinicId, name: input.clinic),
            productID: try await app.productID(input.productId, name: input.product),
            date: try app.day(input.date, field: "date", default: settings.today()),
            quantity: input.quantity ?? 1,
            unitPrice: try app.money(input.unitPrice, field: "unitPrice", currency: currency),
            unitCost: try app.money(input.unitCost, field: "unitCost", currency: currency),
            discount: try app.money(input.discount, field: "discount", currency: currency) ?? .zero,
            noCommission: input.noCommission ?? false,
            note: input.note
        )
    }

    func updateSale(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try id(context)
        let input = try await app.body(API.SaleInput.self, request, context: context)
        let currency = try await app.store.settings().currency
        let old = try await app.store.sale(id)
        // Fields left out keep the sale's values.
        let draft = SaleDraft(
            clinicID: input.clinicId != nil || input.clinic != nil
                ? try await app.clinicID(input.clinicId, name: input.clinic) : old.clinicID,
            productID: input.productId != nil || input.product != nil
                ? try await app.productID(input.productId, name: input.product) : old.productID,
            date: try app.day(input.date, field: "date", default: old.date),
            quantity: input.quantity ?? old.quantity,
            unitPrice: try app.money(input.unitPrice, field: "unitPrice", currency: currency) ?? old.line.unitPrice,
            unitCost: try app.money(input.unitCost, field: "unitCost", currency: currency) ?? old.line.unitCost,
            discount: try app.money(input.discount, field: "discount", currency: currency) ?? old.line.discount,
            noCommission: input.noCommission ?? old.isNoCommission,
            note: input.note ?? old.note
        )
        return try await saleJSON(try await app.store.updateSale(id, with: draft), currency: currency)
    }

    /// Every change on record of one sale, newest first (an import that created it included).
    func saleHistory(context: AppRequestContext) async throws -> Response {
        let sale = try await app.store.sale(try id(context))
        let presenter = Presenter(
            currency: try await app.store.settings().currency,
            names: try await Presenter.Names(store: app.store)
        )
        return try app.json(
            try await app.store.auditLog(AuditQuery(subject: .sale, subjectID: sale.id.rawValue)).map(presenter.audit)
        )
    }
}

/// The Sales page: one row a sale, newest first — what and what it earned, then when and where;
/// a tap opens the sale (its form, its history, Void). The filter folds away until it is used.
package struct SalesPageView: PageView {
    package typealias Option = PageOption

    package struct Row: Sendable, TemplateValues {
        let id: Int64
        let quantity: Int64
        let product: String
        let clinic: String
        let date: String
        let note: String?
        let commission: String
        /// "2 × Serum 30ml", "Return: 1 × Serum 30ml".
        let what: String

        package init(
            id: Int64,
            quantity: Int64,
            product: String,
            clinic: String,
            date: String,
            note: String?,
            commission: String
        ) {
            (self.id, self.quantity, self.product, self.clinic, self.date, self.note, self.commission) = (
                id, quantity, product, clinic, date, note, commission
            )
            what = SaleWords.what(quantity, product)
        }
    }

    let clinics: [Option]
    let products: [Option]
    let from: String
    let to: String
    let q: String
    let filtered: Bool
    let sales: [Row]
    /// Whether there is a row to head with the columns' names.
    let hasSales: Bool
    /// "50 sales".
    let count: String
    let previous: String?
    let next: String?

    package init(
        clinics: [Option],
        products: [Option],
        from: String,
        to: String,
        q: String,
        filtered: Bool,
        sales: [Row],
        count: String,
        previous: String?,
        next: String?
    ) {
        (self.clinics, self.products, self.from, self.to, self.q, self.filtered) = (
            clinics, products, from, to, q, filtered
        )
        (self.sales, self.hasSales, self.count, self.previous, self.next) = (
            sales, !sales.isEmpty, count, previous, next
        )
    }
}

/// A sale's page (`edit-sale.mustache`): what it earned her and how, its form folded, Void a step
/// aside, its history.
package struct SalePageView: PageView {
    package struct Change: Sendable, TemplateValues {
        let at: String
        let actor: String
        let action: String
        let changes: String
        package init(at: String, actor: String, action: String, changes: String) {
            (self.at, self.actor, self.action, self.changes) = (at, actor, action, changes)
        }
    }

    let id: Int64
    /// "2 × Serum 30ml".
    let heading: String
    /// "Glow Aesthetics · Thu 11/26/2026".
    let place: String
    let commission: String
    /// How the commission was reached, a step a line.
    let working: [String]
    let voided: Bool
    /// The form shows open: a refusal came from it.
    let editOpen: Bool
    /// The fields as drawn: the sale's, or what she typed when the form comes back to her.
    let date: String
    let quantity: String
    let price: String
    let cost: String
    let discount: String
    let note: String
    let noCommission: Bool
    let earliest: String
    let latest: String
    let clinics: [PageOption]
    let products: [PageOption]
    let history: [Change]
    let hasHistory: Bool
    /// The field a refusal is about.
    let invalid: FieldMarks
    /// The refusal asks ("Save anyway?"): the form's button sends it `confirmed`.
    let confirm: Bool
    let csrf: String

    package init(
        id: Int64,
        heading: String,
        place: String,
        commission: String,
        working: [String],
        voided: Bool,
        editOpen: Bool,
        date: String,
        quantity: String,
        price: String,
        cost: String,
        discount: String,
        note: String,
        noCommission: Bool,
        earliest: String,
        latest: String,
        clinics: [PageOption],
        products: [PageOption],
        history: [Change],
        invalid: FieldMarks = FieldMarks(),
        confirm: Bool = false,
        csrf: String
    ) {
        (self.invalid, self.confirm) = (invalid, confirm)
        (self.id, self.heading, self.place, self.commission, self.working, self.voided, self.editOpen) = (
            id, heading, place, commission, working, voided, editOpen
        )
        (self.date, self.quantity, self.price, self.cost, self.discount, self.note, self.noCommission) = (
            date, quantity, price, cost, discount, note, noCommission
        )
        (self.earliest, self.latest, self.clinics, self.products, self.history, self.hasHistory, self.csrf) =
            (earliest, latest, clinics, products, history, !history.isEmpty, csrf)
    }
}
