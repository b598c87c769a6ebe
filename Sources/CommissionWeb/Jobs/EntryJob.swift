import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Hummingbird

/// Entering a sale in seconds: the quick entry page (the home page), its form, Repeat and Undo.
///
/// The form starts from the entry assistant (``EntryRequest``). Every form that records a sale
/// carries an idempotency key made when the page was drawn, so a second tap (or a retry after a
/// lost answer) records nothing more; each saved sale is shown with an Undo that voids it.
struct EntryJob: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {
        pages.get("/") { request, context in try await entryPage(request, context: context) }
        pages.post("/sales") { request, context in try await recordSale(request, context: context) }
        pages.post("/sales/:id/repeat") { request, context in try await repeatSale(request, context: context) }
        // "Not today": the days she missed are not pointed out again until tomorrow, on this device.
        pages.post("/missed/dismiss") { _, _ in
            let today = try await app.store.settings().today()
            var response = Response.redirect(to: "/")
            response.setCookie(
                Cookie(
                    name: Self.missedDismissed,
                    value: today.description,
                    maxAge: 36 * 3600,
                    path: "/",
                    secure: app.configuration.secureCookies,
                    httpOnly: true,
                    sameSite: .lax
                )
            )
            return response
        }
        pages.get("/more") { _, context in
            try await app.page(
                "more",
                view: MorePageView(csrf: context.csrfToken ?? ""),
                title: "More",
                nav: "more",
                context: context
            )
        }
    }

    /// The cookie that holds the day she said "Not today" to the days she missed.
    static let missedDismissed = "commission_missed"

    /// The entry page. A prefilled link (`/?clinic=2&product=SER-30&quantity=2&date=2026-11-17`,
    /// ids or names) opens a ready form; `?saved=ID` shows the sale just saved with its Undo.
    /// `typed`: the form she sent, drawn again as she typed it when it was refused (or asked
    /// about: `refusal.confirm`), with the refusal's field marked.
    func entryPage(
        _ request: Request,
        context: AppRequestContext,
        error: String? = nil,
        errorLink: PageLink? = nil,
        message: String? = nil,
        status: HTTPResponse.Status = .ok,
        typed: Form? = nil,
        refusal: Problem? = nil
    ) async throws -> Response {
        let store = app.store
        let settings = try await store.settings()
        let style = settings.style
        let query = request.uri.queryParameters
        func parameter(_ name: String) -> String? {
            query[Substring(name)].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        }
        var askedClinic: Clinic.ID?
        if let typed, let id = typed["clinic"].flatMap(Int64.init) {
            askedClinic = Clinic.ID(id)
        } else if let text = parameter("clinic") {
            // try?: a name that is no clinic's leaves the form's own choice of clinic
            askedClinic = if let id = Int64(text) { Clinic.ID(id) } else { try? await store.clinic(named: text).id }
        }
        let form = try await EntryRequest(today: settings.today(), clinic: askedClinic).fetch(from: store)
        let days = AcceptedDays(today: form.today)
        // The date she typed is kept as typed, even one the form would not take (it says why).
        let date =
            // try?: a date that is not a day starts the form at today
            (typed?["date"] ?? parameter("date")).flatMap { try? Day(parsing: $0) }
            .flatMap { typed != nil || days.contains($0) ? $0 : nil } ?? form.today
        var askedProduct: Product.ID?
        if let typed, let id = typed["product"].flatMap(Int64.init) {
            askedProduct = Product.ID(id)
        } else if let text = parameter("product") {
            // try?: a name that is no product's leaves the form's first product chosen
            askedProduct = if let id = Int64(text) { Product.ID(id) } else { try? await store.product(named: text).id }
        }
        let selected = form.products.first { $0.product.id == askedProduct } ?? form.products.first
        let quantity = parameter("quantity").flatMap { Int64($0) }.flatMap { $0 == 0 ? nil : $0 } ?? 1
        // What she typed, when the form comes back to her: every field as it was.
        let kept = typed.map { typed in
            EntryPageView.Typed(
                quantity: typed.values["quantity"] ?? "1",
                price: typed.values["price"] ?? "",
                priceDefault: typed.values["priceDefault"] ?? "",
                discount: typed.values["discount"] ?? "",
                note: typed.values["note"] ?? "",
                noCommission: typed["noCommission"] != nil,
                isReturn: typed["return"] != nil,
                key: typed["key"] ?? Secret.make(),
                field: refusal?.field ?? "",
                confirm: refusal?.confirm == true
            )
        }

        var view = EntryPageView(
            key: kept?.key ?? Secret.make(),
            today: form.today.description,
            quantity: quantity,
            date: date.description,
            earliest: AcceptedDays.earliest.description,
            latest: days.latest.description,
            backdated: date != form.today,
            dateLabel: "\(date.weekday.shortName) \(style.format(date))",
            yesterday: form.today.adding(days: -1).description,
            currency: settings.currency.code,
            zero: style.formatInput(.zero),
            selectedPrice: selected.map { style.formatInput($0.unitPrice) } ?? "",
            firstSteps: try await WelcomeJob.firstSteps(store, onSalePage: true),
            clinics: form.clinics.map { .init(id: $0.id.rawValue, name: $0.name, selected: $0.id == form.clinic?.id) },
            products: form.products.map { entry in
                .init(
                    id: entry.product.id.rawValue,
                    name: entry.product.name,
                    price: style.formatInput(entry.unitPrice),
                    priceShown: style.format(entry.unitPrice),
                    selected: entry.product.id == selected?.product.id,
                    prices: Self.clinicPrices(entry, style: style)
                )
            },
            recent: form.recent.map { sale in
                .init(
                    id: sale.id.rawValue,
                    date: style.format(sale.date),
                    clinic: form.clinicNames[sale.clinicID] ?? "",
                    what: SaleWords.what(sale.quantity, form.productNames[sale.productID] ?? ""),
                    commission: style.format(sale.figures.commission),
                    key: Secret.make()
                )
            },
            // Not pointed out again today once she said "Not today".
            missedDays: request.cookies[Self.missedDismissed]?.value == form.today.description
                ? []
                : form.missedDays.enumerated().map { index, day in
                    .init(
                        iso: day.description,
                        label: "\(day.weekday.shortName) \(style.format(day))",
                        last: index == form.missedDays.count - 1
                    )
                },
            saved: nil,
            typed: kept,
            csrf: context.csrfToken ?? ""
        )
        var message = message
        // try?: the sale just saved, read back for its sentence; one gone since (an id typed) says nothing
        if let saved = parameter("saved").flatMap({ Int64($0) }), let sale = try? await store.sale(Sale.ID(saved)),
            !sale.isVoided
        {
            let names = try await Presenter.Names(store: store)
            view.saved = .init(
                id: sale.id.rawValue,
                what: SaleWords.what(sale.quantity, names.products[sale.productID] ?? ""),
                clinic: names.clinics[sale.clinicID] ?? "",
                backdated: sale.date != form.today,
                // "yesterday (11/25/2026)": said so beside "Today, …" above the form, the two do not seem to disagree.
                date: sale.date == form.today.adding(days: -1)
                    ? "yesterday (\(style.format(sale.date)))" : "on \(style.format(sale.date))",
                commission: style.format(sale.figures.commission)
            )
        }
        if message == nil, let voided = parameter("voided").flatMap({ Int64($0) }) {
            message = "Undone: sale \(voided) is voided and counts nowhere."
        }
        if message == nil, let added = parameter("added").flatMap({ Int64($0) }),
            // try?: the clinic just added, read back for its welcome; one gone since (an id typed) says nothing
            let clinic = try? await store.clinic(Clinic.ID(added))
        {
            message = WelcomeJob.added(
                clinic,
                terms: try await store.terms(TermsQuery(clinicID: clinic.id)),
                settings: settings
            )
        }
        return try await app.page(
            "entry",
            view: view,
            title: "New sale",
            nav: "entry",
            context: context,
            status: status,
            message: message,
            error: error,
            errorLink: errorLink
        )
    }

    /// A product's price at each clinic, for the page's script to follow a change of clinic: JSON
    /// of strings (`{"own": ["45.00", "$45.00"], "2": ["40.00", "$40.00"]}`), the form's text and the
    /// shown text of each — amounts stay decimal strings on the page.
    static func clinicPrices(_ entry: EntryProduct, style: LocaleStyle) -> String {
        var prices: [String: [String]] = [
            "own": [style.formatInput(entry.product.unitPrice), style.format(entry.product.unitPrice)]
        ]
        for (clinic, price) in entry.clinicPrices {
            prices[String(clinic.rawValue)] = [style.formatInput(price.unitPrice), style.format(price.unitPrice)]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // try?: a dictionary of strings: encoding it cannot throw
        return (try? encoder.encode(prices)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// What the page's script gets for a sale it sent (``WebApp/wantsJSON(_:)``): the sale's id,
    /// a sentence to show, and where its Undo posts.
    struct SavedJSON: Encodable {
        var id: Int64
        var saved: String
        var commission: String
        var undo: String
    }

    func saved(_ sale: Sale, request: Request, settings: BookSettings) async throws -> Response {
        guard WebApp.wantsJSON(request) else { return .redirect(to: "/?saved=\(sale.id)") }
        let style = settings.style
        let product = try await app.store.product(sale.productID).name,
            clinic = try await app.store.clinic(sale.clinicID).name
        let when = sale.date == settings.today() ? "" : " on \(style.format(sale.date))"
        return try app.json(
            SavedJSON(
                id: sale.id.rawValue,
                saved: "\(sale.quantity) × \(product) at \(clinic)\(when)",
                commission: style.format(sale.figures.commission),
                undo: "/sales/\(sale.id)/void"
            ),
            status: .created
        )
    }

    /// Runs a form that records a sale: a refusal redraws the page with its sentence, or answers a
    /// problem detail when the page's script sent it.
    /// `typed`: the form sent, drawn again as she typed it on a refusal.
    func recording(
        _ request: Request,
        context: AppRequestContext,
        typed: Form? = nil,
        _ body: () async throws -> Response
    ) async throws -> Response {
        guard WebApp.wantsJSON(request) else {
            return try await app.form(
                body,
                refused: { refusal in
                    try await entryPage(
                        request,
                        context: context,
                        error: refusal.detail,
                        errorLink: refusal.link,
                        status: .init(code: refusal.status),
                        typed: typed,
                        refusal: refusal
                    )
                }
            )
        }
        do {
            return try await body()
        } catch {
            // try?: without the book's settings, a refusal's amounts are written as its currency writes them
            let style = try? await app.store.settings().style
            let problem = Problem.from(error, on: .page, style: style)
            problem.log(error, request, context: context)
            return problem.response
        }
    }

    func recordSale(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        let settings = try await app.store.settings()
        let style = settings.style
        return try await recording(request, context: context, typed: form) {
            guard let clinic = form["clinic"].flatMap(Int64.init), let product = form["product"].flatMap(Int64.init)
            else {
                var problem = Problem(.unprocessableContent, "Choose a clinic and a product.")
                problem.field = form["clinic"] == nil ? "clinic" : "product"
                throw problem
            }
            guard var quantity = Int64(form["quantity"] ?? "1") else {
                var problem = Problem(
                    .unprocessableContent,
                    "The quantity is a whole number of units (negative for a return)."
                )
                problem.field = "quantity"
                throw problem
            }
            // A return: the goods come back, the figures count against (a negative quantity).
            if form["return"] != nil, quantity > 0 { quantity = -quantity }
            let draft = SaleDraft(
                clinicID: Clinic.ID(clinic),
                productID: Product.ID(product),
                date: try form["date"].map { try Day(parsing: $0) } ?? settings.today(),
                quantity: quantity,
                // The price the page put in (the clinic's today) is left to the ledger, which takes
                // the clinic's price on the sale's date: a backdated sale gets the price of its day.
                unitPrice: try form["price"].flatMap { text in text.isEmpty || text == form["priceDefault"] ? nil : text
                }.map { text in
                    do { return try style.parse(text) } catch {
                        var problem = Problem(.unprocessableContent, "The unit price: \(error)")
                        problem.field = "price"
                        throw problem
                    }
                },
                discount: try form["discount"].map { text in
                    do { return try style.parse(text) } catch {
                        var problem = Problem(.unprocessableContent, "The discount: \(error)")
                        problem.field = "discount"
                        throw problem
                    }
                } ?? .zero,
                noCommission: form["noCommission"] != nil,
                note: form["note"]
            )
            // A figure far from what the book knows is asked about once, never saved silently.
            // try?: a usual price the form did not send, or not an amount, leaves nothing to compare with
            let usualPrice = form["priceDefault"].flatMap { try? style.parse($0) }
            if form["confirmed"] == nil,
                let question = try await app.unusual(draft, usualPrice: usualPrice, settings: settings)
            {
                throw question
            }
            let sale = try await app.store.createSale(draft, idempotencyKey: form["key"])
            app.configuration.metrics?.salesRecorded.increment()
            return try await saved(sale, request: request, settings: settings)
        }
    }

    /// The sale again, today, under the key its Repeat button was drawn with: a second tap finds
    /// the sale the first one made.
    func repeatSale(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id", as: Int64.self)
        let form = try await Form.read(request, context: context)
        let settings = try await app.store.settings()
        return try await recording(request, context: context) {
            let sale = try await app.store.sale(Sale.ID(id))
            // The day it was tapped (the queue sends it with the tap's date), else today.
            let day = try form["date"].map { try Day(parsing: $0) } ?? settings.today()
            let again = try await app.store.createSale(
                SaleDraft(repeating: sale, on: day),
                idempotencyKey: form["key"].map { "repeat-\($0)" }
            )
            app.configuration.metrics?.salesRecorded.increment()
            return try await saved(again, request: request, settings: settings)
        }
    }
}

/// The Sale page (`entry.mustache`): the form, prefilled; the sale just saved with its Undo; the
/// days she missed; her recent sales with Repeat.
package struct EntryPageView: PageView {
    package struct Product: Sendable, TemplateValues {
        let id: Int64, name: String
        /// Its price at the chosen clinic, as typed and as shown; `prices` every clinic's, for the page's script.
        let price: String, priceShown: String
        let selected: Bool
        let prices: String
        package init(id: Int64, name: String, price: String, priceShown: String, selected: Bool, prices: String) {
            (self.id, self.name, self.price, self.priceShown, self.selected, self.prices) = (
                id, name, price, priceShown, selected, prices
            )
        }
    }

    package struct Recent: Sendable, TemplateValues {
        let id: Int64, date: String, clinic: String
        /// "2 × Serum 30ml".
        let what: String
        let commission: String
        /// Repeat's idempotency key (its form's token is the page's).
        let key: String
        package init(id: Int64, date: String, clinic: String, what: String, commission: String, key: String) {
            (self.id, self.date, self.clinic, self.what, self.commission, self.key) = (
                id, date, clinic, what, commission, key
            )
        }
    }

    package struct MissedDay: Sendable, TemplateValues {
        let iso: String, label: String, last: Bool
        package init(iso: String, label: String, last: Bool) { (self.iso, self.label, self.last) = (iso, label, last) }
    }

    /// The sale just saved, with its Undo.
    package struct Saved: Sendable, TemplateValues {
        let id: Int64, what: String, clinic: String, backdated: Bool
        /// "yesterday (11/25/2026)", "on 11/20/2026".
        let date: String
        let commission: String
        package init(id: Int64, what: String, clinic: String, backdated: Bool, date: String, commission: String) {
            (self.id, self.what, self.clinic, self.backdated, self.date, self.commission) = (
                id, what, clinic, backdated, date, commission
            )
        }
    }

    /// A refused (or questioned) form's fields as she typed them, and the field the sentence is about.
    package struct Typed: Sendable, TemplateValues {
        let quantity: String, price: String, priceDefault: String, discount: String, note: String
        let noCommission: Bool
        /// She marked it a return.
        let isReturn: Bool
        /// The key the form was sent with: "Save anyway" is the same sale.
        let key: String
        let field: String
        let confirm: Bool
        package init(
            quantity: String,
            price: String,
            priceDefault: String,
            discount: String,
            note: String,
            noCommission: Bool,
            isReturn: Bool = false,
            key: String,
            field: String,
            confirm: Bool
        ) {
            (self.quantity, self.price, self.priceDefault, self.discount, self.note) = (
                quantity, price, priceDefault, discount, note
            )
            (self.noCommission, self.isReturn, self.key, self.field, self.confirm) = (
                noCommission, isReturn, key, field, confirm
            )
        }
    }

    /// The form's idempotency key: a sale sent twice is recorded once.
    let key: String
    let today: String, quantity: Int64, date: String, earliest: String, latest: String
    /// The form is for another day than today, named in `dateLabel`.
    let backdated: Bool
    let dateLabel: String, yesterday: String, currency: String, zero: String
    let selectedPrice: String
    let firstSteps: FirstSteps?
    let clinics: [PageOption]
    let products: [Product]
    let recent: [Recent]
    let missedDays: [MissedDay]
    let hasMissedDays: Bool, oneMissedDay: Bool
    var saved: Saved?
    /// The form as she sent it, when it comes back to her.
    let typed: Typed?
    // The fields as drawn: what she typed, else the form's start.
    let quantityText: String, priceText: String, priceDefault: String, discount: String, note: String
    let noCommission: Bool
    let isReturn: Bool
    /// The details (date, discount, note) open: something in them is hers, or the sentence is about them.
    let detailsOpen: Bool
    /// The days she missed in a sentence ("No sales on 3 days you usually work, from Mon 11/24"),
    /// the oldest first: its link opens the form on that day.
    let missedSaid: String, missedFirst: String
    /// Which field the sentence is about (`aria-invalid`), and whether it asks rather than refuses.
    let invalid: Invalid
    let confirm: Bool
    let csrf: String

    package struct Invalid: Sendable, TemplateValues {
        let clinic: Bool, product: Bool, quantity: Bool, price: Bool, date: Bool, discount: Bool, note: Bool
        init(_ field: String) {
            (clinic, product, quantity, price) = (
                field == "clinic", field == "product", field == "quantity", field == "price"
            )
            (date, discount, note) = (field == "date", field == "discount", field == "note")
        }
    }

    package init(
        key: String,
        today: String,
        quantity: Int64,
        date: String,
        earliest: String,
        latest: String,
        backdated: Bool,
        dateLabel: String,
        yesterday: String,
        currency: String,
        zero: String,
        selectedPrice: String,
        firstSteps: FirstSteps?,
        clinics: [PageOption],
        products: [Product],
        recent: [Recent],
        missedDays: [MissedDay],
        saved: Saved?,
        typed: Typed? = nil,
        csrf: String
    ) {
        (self.key, self.today, self.quantity, self.date, self.earliest, self.latest) = (
            key, today, quantity, date, earliest, latest
        )
        (self.backdated, self.dateLabel, self.yesterday, self.currency, self.zero) = (
            backdated, dateLabel, yesterday, currency, zero
        )
        (self.selectedPrice, self.firstSteps, self.clinics, self.products, self.recent) = (
            selectedPrice, firstSteps, clinics, products, recent
        )
        (self.missedDays, self.hasMissedDays, self.oneMissedDay, self.saved, self.csrf) = (
            missedDays, !missedDays.isEmpty, missedDays.count == 1, saved, csrf
        )
        self.typed = typed
        quantityText = typed?.quantity ?? String(quantity)
        priceText = typed?.price ?? selectedPrice
        priceDefault = typed?.priceDefault ?? selectedPrice
        (discount, note, noCommission) = (typed?.discount ?? "", typed?.note ?? "", typed?.noCommission ?? false)
        isReturn = typed?.isReturn ?? false
        missedFirst = missedDays.first?.iso ?? ""
        missedSaid =
            missedDays.count == 1
            ? "No sale yet on \(missedDays[0].label), a day you usually work"
            : "No sales on \(missedDays.count) days you usually work, from \(missedDays.first?.label ?? "")"
        invalid = Invalid(typed?.field ?? "")
        confirm = typed?.confirm ?? false
        detailsOpen =
            backdated || !discount.isEmpty || !note.isEmpty || noCommission || isReturn
            || ["date", "discount", "note"].contains(typed?.field ?? "")
    }
}
