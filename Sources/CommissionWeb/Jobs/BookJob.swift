import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Hummingbird

/// What her book is made of: clinics (with their pay schedules), products, and commission terms.
struct BookJob: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {
        pages.get("/book") { request, context in
            let query = request.uri.queryParameters
            var message: String?
            if let recomputed = query["recomputed"].flatMap({ Int(String($0)) }) {
                let closed = query["closed"].flatMap { Int(String($0)) } ?? 0
                message =
                    "\(recomputed) sale\(recomputed == 1 ? "" : "s") recomputed"
                    + (closed > 0 ? ", \(closed) in closed periods left as they were." : ".")
            }
            // The terms form for a clinic from a day (`?clinic=Glow&from=2026-11-24`, id or name):
            // where a sale refused for want of terms sends her.
            var terms = TermsPrefill()
            if let clinic = query["clinic"].map(String.init) {
                if let id = Int64(clinic) {
                    terms.clinic = Clinic.ID(id)
                } else {
                    // try?: a name that is no clinic's leaves the terms form's clinic for her to choose
                    terms.clinic = try? await app.store.clinic(named: clinic).id
                }
            }
            // try?: a day that is not one leaves the terms form's first day for her to type
            terms.from = query["from"].flatMap { try? Day(parsing: String($0)) }
            // What was just added, said in its own section (where her eye is), from the book.
            var added: (section: String, text: String)?
            if let id = query["added"].flatMap({ Int64(String($0)) }) {
                // try?: what was added, read back for its sentence; a record gone since says nothing: the list shows it
                added = try? await addedSentence(query["kind"].map(String.init) ?? "", id: id)
            } else if let id = query["changed"].flatMap({ Int64(String($0)) }) {
                // try?: as above, what was changed on a record's page
                added = try? await changedSentence(
                    query["kind"].map(String.init) ?? "",
                    id: id,
                    how: query["how"].map(String.init) ?? "save"
                )
            }
            if added?.section == "terms", let message { added?.text += " " + message }
            if added != nil { message = nil }
            return try await bookPage(
                context: context,
                message: message,
                terms: terms,
                added: added,
                addedIsNew: query["added"] != nil
            )
        }
        // A clinic, product or terms: its page (change it, archive it, restore it).
        pages.get("/book/:kind/:id") { request, context in
            let item = try await item(context)
            // What a form of the clinic's page just did (`?done=…`), said in its section.
            var said: (section: String, text: String)?
            if case .clinic(let clinic) = item, let done = request.uri.queryParameters["done"].map(String.init) {
                // try?: what a form just did, read back for its sentence; a record gone since says nothing
                said = try? await clinicSaid(clinic, done: done, query: request.uri.queryParameters)
            }
            return try await itemPage(item, context: context, said: said)
        }
        pages.post("/book/:kind/:id") { request, context in try await itemForm(request, context: context) }
        // A clinic's schedule change taken away.
        // (Under `:kind`, as the item's page is: a literal `clinics` would hide that page's routes.)
        pages.post("/book/:kind/:id/schedule/:day/remove") { request, context in
            let clinic = try await pageClinic(context)
            _ = try await Form.read(request, context: context)
            return try await app.form {
                var changed = clinic
                let day = try Day(parsing: context.parameters.get("day") ?? "")
                guard changed.scheduleChanges.contains(where: { $0.effectiveFrom == day }) else {
                    throw Problem(.notFound, "\(clinic.name) has no schedule change on \(day).")
                }
                changed.scheduleChanges.removeAll { $0.effectiveFrom == day }
                let saved = try await app.store.updateClinic(changed)
                return .redirect(to: "/book?kind=clinic&changed=\(saved.id)&how=save#clinics")
            } otherwise: { error, status in
                try await itemPage(.clinic(clinic), context: context, error: error, status: status)
            }
        }
        // A clinic's deductions: add one, end one, remove one.
        pages.post("/book/:kind/:id/deductions") { request, context in
            try await deductionForm(request, context: context, action: nil)
        }
        pages.post("/book/:kind/:id/deductions/:deduction/:action") { request, context in
            try await deductionForm(
                request,
                context: context,
                action: (
                    Deduction.ID(try context.parameters.require("deduction", as: Int64.self)),
                    context.parameters.get("action") ?? ""
                )
            )
        }
        // A clinic's price list: set an entry, remove one.
        pages.post("/book/:kind/:id/prices") { request, context in
            try await priceForm(request, context: context, remove: nil)
        }
        pages.post("/book/:kind/:id/prices/:entry/remove") { request, context in
            try await priceForm(
                request,
                context: context,
                remove: PriceListEntry.ID(try context.parameters.require("entry", as: Int64.self))
            )
        }
        pages.post("/clinics") { request, context in
            try await bookForm(request, context: context, section: "clinics") { form, _ in
                let clinic = try await app.store.createClinic(
                    ClinicDraft(name: form["name"] ?? "", schedule: try Self.pickedSchedule(form))
                )
                return "/book?kind=clinic&added=\(clinic.id)#clinics"
            }
        }
        pages.post("/products") { request, context in
            try await bookForm(request, context: context, section: "products") { form, settings in
                let product = try await app.store.createProduct(
                    ProductDraft(
                        name: form["name"] ?? "",
                        unitPrice: try Problem.about("price") { try settings.style.parse(form["price"] ?? "") },
                        unitCost: try Problem.about("cost") { try settings.style.parse(form["cost"] ?? "0") }
                    )
                )
                return "/book?kind=product&added=\(product.id)#products"
            }
        }
        pages.post("/terms") { request, context in
            try await bookForm(request, context: context, section: "terms") { form, settings in
                guard let clinic = form["clinic"].flatMap(Int64.init) else {
                    var problem = Problem(.unprocessableContent, "Choose a clinic.")
                    problem.field = "clinic"
                    throw problem
                }
                let change = try await app.store.createTerms(
                    TermsDraft(
                        clinicID: Clinic.ID(clinic),
                        productID: form["product"].flatMap(Int64.init).map { Product.ID($0) },
                        basis: CommissionBasis(rawValue: form["basis"] ?? "profit") ?? .profit,
                        share: try Problem.about("share") { try Share(parsing: form["share"] ?? "") },
                        tiers: try Self.tiers(form, style: settings.style),
                        effectiveFrom: try Problem.about("from") { try Day(parsing: form["from"] ?? "") }
                    )
                )
                return
                    "/book?kind=terms&added=\(change.terms.id)&recomputed=\(change.recomputedSales)&closed=\(change.salesInClosedPeriods)#terms"
            }
        }
    }

    /// The book's resources in the API have controllers of their own: ``ClinicsController``,
    /// ``ProductsController``, ``TermsController``, ``PricesController``, ``DeductionsController``.
    func registerAPI<G>(on api: Registrar<G>) {}

    /// A fixed amount (`amount`) or a share of revenue (`share`): exactly one.
    static func deductionAmount(amount: String?, share: String?, currency: Currency) throws -> DeductionAmount {
        switch (amount, share) {
        case (let amount?, nil):
            do { return .fixed(try currency.parse(amount)) } catch {
                throw Problem(.unprocessableContent, "The amount: \(error)")
            }
        case (nil, let share?):
            do { return .shareOfRevenue(try Share(parsing: share)) } catch {
                throw Problem(.unprocessableContent, "The share: \(error)")
            }
        default:
            throw Problem(
                .unprocessableContent,
                "Give either \"amount\" (a fixed amount per period) or \"share\" (a share of the period's revenue)."
            )
        }
    }

    static func basis(_ text: String) throws -> CommissionBasis {
        guard let basis = CommissionBasis(rawValue: text) else {
            throw Problem(.unprocessableContent, "The basis is \"profit\" or \"revenue\".")
        }
        return basis
    }

    // MARK: Pages

    /// The pay schedule picker's kinds, as she reads them.
    static let scheduleKinds: [(value: String, label: String)] = [
        ("monthly", "monthly"), ("semimonthly", "twice a month (1–15, 16–end)"),
        ("weekly", "weekly"), ("biweekly", "every two weeks"),
    ]

    /// A clinic's pay schedule from the picker (`scheduleKind`, with `weekday` or `anchor`), or
    /// typed as the command line takes it (`schedule=weekly:monday`).
    static func schedule(_ form: Form) throws -> PaySchedule {
        if let typed = form["schedule"] { return try PaySchedule(parsing: typed) }
        let kind = form["scheduleKind"] ?? "monthly"
        let anchor: String? =
            switch kind {
            case "weekly": form["weekday"] ?? "monday"
            case "biweekly": form["anchor"]
            default: nil
            }
        return try PaySchedule(kind: kind, anchor: anchor)
    }

    /// A clinic's pay schedule from a page's picker (``schedule(_:)``), a refusal naming the
    /// picker's field it is about: the weekday of a weekly one, the first day of a biweekly one,
    /// else the kind.
    static func pickedSchedule(_ form: Form) throws -> PaySchedule {
        let field: String =
            switch form["schedule"] == nil ? form["scheduleKind"] ?? "monthly" : "" {
            case "weekly": "weekday"
            case "biweekly": "anchor"
            default: "scheduleKind"
            }
        return try Problem.about(field) { try schedule(form) }
    }

    /// The sentence that says what was just added, and the section it belongs to: "Added Glow
    /// Aesthetics, paid monthly. Next: its split, under Terms."
    func addedSentence(_ kind: String, id: Int64) async throws -> (section: String, text: String)? {
        let settings = try await app.store.settings()
        let style = settings.style
        switch kind {
        case "clinic":
            let clinic = try await app.store.clinic(Clinic.ID(id))
            let hasTerms = try await !app.store.terms(TermsQuery(clinicID: clinic.id)).isEmpty
            return (
                "clinics",
                "Added \(clinic.name), paid \(Self.describe(clinic.calendar.schedule(on: settings.today()), style: style))."
                    + (hasTerms ? "" : " Next: your split there, under Terms below.")
            )
        case "product":
            let product = try await app.store.product(Product.ID(id))
            return (
                "products",
                "Added \(product.name) at \(style.format(product.unitPrice)), your cost \(style.format(product.unitCost))."
            )
        case "terms":
            return ("terms", "Added " + (try await termsSentence(Terms.ID(id), style: style)) + ".")
        default:
            return nil
        }
    }

    /// A set of terms in words, for what was done to it: "Glow's terms for Serum: 40% of profit from 06/01/2026".
    func termsSentence(_ id: Terms.ID, style: LocaleStyle) async throws -> String {
        let terms = try await app.store.terms(id)
        let names = try await Presenter.Names(store: app.store)
        return "\(names.clinics[terms.clinicID] ?? "")'s terms"
            + (terms.productID.flatMap { names.products[$0] }.map { " for \($0)" } ?? "")
            + ": \(terms.share.shortPercentText)% of \(terms.basis.rawValue) " + Self.from(terms, style: style)
    }

    /// What a change made on a record's page did, in words, for its section of the book page:
    /// `how` is `save`, `archive` or `restore`.
    func changedSentence(_ kind: String, id: Int64, how: String) async throws -> (section: String, text: String)? {
        let settings = try await app.store.settings()
        let style = settings.style
        let done = how == "archive" ? "Archived" : how == "restore" ? "Restored" : "Saved"
        let kept = how == "archive" ? " It keeps its sales and figures; restore it under Archived, below." : ""
        switch kind {
        case "clinic":
            let clinic = try await app.store.clinic(Clinic.ID(id))
            return (
                "clinics",
                "\(done) \(clinic.name): paid \(Self.describe(clinic.calendar.schedule(on: settings.today()), style: style)).\(kept)"
            )
        case "product":
            let product = try await app.store.product(Product.ID(id))
            return (
                "products",
                "\(done) \(product.name): \(style.format(product.unitPrice)), your cost \(style.format(product.unitCost)).\(kept)"
            )
        case "terms":
            return ("terms", "\(done) " + (try await termsSentence(Terms.ID(id), style: style)) + ".\(kept)")
        default:
            return nil
        }
    }

    /// What the terms form starts with: a clinic, a first day.
    struct TermsPrefill {
        var clinic: Clinic.ID?
        var from: Day?
    }

    /// The book page: each list a row per record that opens its page, what each clinic is paid and
    /// how (schedule, split, prices, deductions); each Add form folded under its list, open when
    /// the list is empty, after an add there (to add another) or when the form is asked for.
    /// `added` is what was just added (`addedIsNew`) or changed on a record's page, said in its section.
    /// `failed` is the section whose form was refused (`refusal`): it shows open, drawn again as
    /// she typed it (`typed`), the refusal's field marked.
    func bookPage(
        context: AppRequestContext,
        message: String? = nil,
        error: String? = nil,
        errorLink: PageLink? = nil,
        status: HTTPResponse.Status = .ok,
        terms prefill: TermsPrefill = TermsPrefill(),
        added: (section: String, text: String)? = nil,
        addedIsNew: Bool = true,
        failed: String? = nil,
        typed: Form? = nil,
        refusal: Problem? = nil
    ) async throws -> Response {
        let settings = try await app.store.settings()
        let style = settings.style
        let today = settings.today()
        let allClinics = try await app.store.clinics(ClinicQuery(includeArchived: true))
        let allProducts = try await app.store.products(ProductQuery(includeArchived: true))
        let allTerms = try await app.store.terms(TermsQuery(includeArchived: true))
        let clinics = allClinics.filter { !$0.isArchived }, products = allProducts.filter { !$0.isArchived }
        let terms = allTerms.filter { !$0.isArchived }
        let names = try await Presenter.Names(store: app.store)
        let prices = Dictionary(grouping: try await app.store.prices(PriceQuery()), by: \.clinicID)
        let deductions = Dictionary(grouping: try await app.store.deductions(clinic: nil), by: \.clinicID)
        // Shares as she says them ("40%", "57.5%"), as every page does.
        func describe(_ terms: Terms) -> String {
            "\(names.clinics[terms.clinicID] ?? "")\(terms.productID.flatMap { names.products[$0] }.map { ", \($0) only" } ?? ""): "
                + Self.split(terms, style: style) + " " + Self.from(terms, style: style)
        }
        func count(_ number: Int, _ word: String) -> String? {
            number == 0 ? nil : "\(number) \(word)\(number == 1 ? "" : "s")"
        }
        let archived =
            allClinics.filter(\.isArchived).map {
                BookPageView.Archived(kind: "Clinic", name: $0.name, action: "/book/clinics/\($0.id)")
            }
            + allProducts.filter(\.isArchived).map {
                BookPageView.Archived(kind: "Product", name: $0.name, action: "/book/products/\($0.id)")
            }
            + allTerms.filter(\.isArchived).map {
                BookPageView.Archived(kind: "Terms", name: describe($0), action: "/book/terms/\($0.id)")
            }
        // The refused form's fields as she typed them; the others as they start.
        func kept(_ section: String) -> Form? { failed == section ? typed : nil }
        let invalid = FieldMarks(refusal?.field)
        // A clinic just added without terms: its terms form is next, open on it.
        var prefill = prefill
        if let terms = kept("terms") {
            prefill.clinic = terms["clinic"].flatMap(Int64.init).map { Clinic.ID($0) }
        }
        let termsProduct = kept("terms")?["product"].flatMap(Int64.init)
        var justAdded = addedIsNew ? added?.section : nil
        if justAdded == "clinics",
            let clinic = clinics.last(where: { clinic in !terms.contains { $0.clinicID == clinic.id } }),
            prefill.clinic == nil
        {
            prefill.clinic = clinic.id
        }
        if prefill.clinic != nil { justAdded = justAdded ?? "terms" }
        func isOpen(_ section: String, empty: Bool) -> Bool {
            empty || failed == section || justAdded == section || (section == "terms" && prefill.clinic != nil)
        }
        let view = BookPageView(
            clinics: clinics.map { clinic in
                // Her split there today, for all its products (a product's own terms are on the clinic's page).
                let split = terms.filter {
                    $0.clinicID == clinic.id && $0.productID == nil && $0.effectiveFrom <= today
                }.max { $0.effectiveFrom < $1.effectiveFrom }
                let meta = [
                    "paid \(Self.describe(clinic.calendar.schedule(on: today), style: style))",
                    split.map {
                        "\($0.share.shortPercentText)% of \($0.basis.rawValue)" + ($0.tiers.isEmpty ? "" : ", tiered")
                    },
                    count(prices[clinic.id]?.count ?? 0, "price"),
                    count(deductions[clinic.id]?.count ?? 0, "deduction"),
                ].compactMap { $0 }
                return .init(
                    id: clinic.id.rawValue,
                    name: clinic.name,
                    meta: meta.joined(separator: " · "),
                    noSplit: split == nil
                )
            },
            products: products.map {
                .init(
                    id: $0.id.rawValue,
                    name: $0.name,
                    meta: "\(style.format($0.unitPrice)) · cost \(style.format($0.unitCost))"
                )
            },
            // Each clinic's sets of terms, the one in force first in each scope, then one to come, then those replaced.
            terms: terms.map { (terms: $0, standing: Chip.of($0, among: terms, today: today)) }.sorted(
                by: Self.termsOrder(names)
            ).map { terms, standing in
                .init(
                    id: terms.id.rawValue,
                    chip: standing.chip,
                    name: (names.clinics[terms.clinicID] ?? "")
                        + (terms.productID.flatMap { names.products[$0] }.map { ", \($0) only" } ?? ""),
                    meta: Self.split(terms, style: style) + " · " + Self.from(terms, style: style)
                )
            },
            clinicOptions: clinics.map {
                PageOption(id: $0.id.rawValue, name: $0.name, selected: $0.id == prefill.clinic)
            },
            productOptions: products.map {
                PageOption(id: $0.id.rawValue, name: $0.name, selected: $0.id.rawValue == termsProduct)
            },
            weekdays: PageChoice.weekdays(selected: kept("clinics")?["weekday"].flatMap(PageChoice.weekday(named:))),
            tierRows: kept("terms").map { TierRow.rows(typed: $0, field: refusal?.field, style: style) }
                ?? TierRow.rows([], style: style),
            added: .init(
                clinics: added?.section == "clinics" ? added?.text : nil,
                products: added?.section == "products" ? added?.text : nil,
                terms: added?.section == "terms" ? added?.text : nil
            ),
            open: .init(
                clinic: isOpen("clinics", empty: clinics.isEmpty),
                product: isOpen("products", empty: products.isEmpty),
                terms: isOpen("terms", empty: terms.isEmpty)
            ),
            archived: archived,
            archivedCount: archived.count,
            today: today.description,
            earliest: AcceptedDays.earliest.description,
            latest: AcceptedDays(today: today).latest.description,
            termsFrom: kept("terms").map { $0.values["from"] ?? "" }
                ?? (prefill.from.flatMap { AcceptedDays(today: today).contains($0) ? $0 : nil } ?? today).description,
            zero: style.formatInput(.zero),
            clinicForm: kept("clinics").map {
                .init(
                    name: $0.values["name"] ?? "",
                    kind: $0["scheduleKind"] ?? "monthly",
                    anchor: $0.values["anchor"] ?? "",
                    invalid: invalid
                )
            } ?? .init(anchor: today.description),
            productForm: kept("products").map {
                .init(
                    name: $0.values["name"] ?? "",
                    price: $0.values["price"] ?? "",
                    cost: $0.values["cost"] ?? "",
                    invalid: invalid
                )
            } ?? .init(),
            termsForm: kept("terms").map {
                .init(share: $0.values["share"] ?? "", revenue: $0["basis"] == "revenue", invalid: invalid)
            } ?? .init(),
            csrf: context.csrfToken ?? ""
        )
        return try await app.page(
            "book",
            view: view,
            title: "Clinics & products",
            nav: "book",
            context: context,
            status: status,
            message: message,
            error: error,
            errorLink: errorLink
        )
    }

    /// Runs a form of the book page (`section`: `clinics`, `products` or `terms`, whose form stays
    /// open on a refusal, as she typed it); `body` returns where to go next (default: the book page).
    func bookForm(
        _ request: Request,
        context: AppRequestContext,
        section: String,
        _ body: (Form, BookSettings) async throws -> String?
    ) async throws -> Response {
        let form = try await Form.read(request, context: context)
        let settings = try await app.store.settings()
        return try await app.form {
            .redirect(to: try await body(form, settings) ?? "/book")
        } refused: { refusal in
            try await bookPage(
                context: context,
                error: refusal.detail,
                errorLink: refusal.link,
                status: .init(code: refusal.status),
                failed: section,
                typed: form,
                refusal: refusal
            )
        }
    }

    // MARK: One clinic, product or terms

    enum Item {
        case clinic(Clinic)
        case product(Product)
        case terms(Terms)

        var isArchived: Bool {
            switch self {
            case .clinic(let c): c.isArchived
            case .product(let p): p.isArchived
            case .terms(let t): t.isArchived
            }
        }
    }

    /// The clinic, product or terms `/book/:kind/:id` names; a 404 for another kind.
    func item(_ context: AppRequestContext) async throws -> Item {
        let id = try context.parameters.require("id", as: Int64.self)
        switch context.parameters.get("kind") {
        case "clinics": return .clinic(try await app.store.clinic(Clinic.ID(id)))
        case "products": return .product(try await app.store.product(Product.ID(id)))
        case "terms": return .terms(try await app.store.terms(Terms.ID(id)))
        default: throw Problem(.notFound, "There is no such page: the book has clinics, products and terms.")
        }
    }

    /// Saves, archives or restores the page's record (`action=save|archive|restore`).
    func itemForm(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        let item = try await item(context)
        let style = try await app.store.settings().style
        let action = form["action"] ?? "save"
        guard ["save", "archive", "restore"].contains(action) else {
            throw Problem(.badRequest, "The action is save, archive or restore.")
        }
        return try await app.form {
            switch item {
            case .clinic(var clinic):
                if action == "save" {
                    clinic.name = form["name"] ?? ""
                    let picked = try Self.pickedSchedule(form)
                    let from = (form["scheduleFrom"] ?? "").trimmingWhitespace()
                    let today = try await app.store.settings().today()
                    if !from.isEmpty {
                        clinic.scheduleChanges.append(
                            ScheduleChange(
                                effectiveFrom: try Problem.about("scheduleFrom") { try Day(parsing: from) },
                                schedule: picked
                            )
                        )
                    } else if clinic.scheduleChanges.isEmpty {
                        clinic.schedule = picked  // a correction of the schedule it has had from the start
                    } else if picked != clinic.calendar.schedule(on: today) {
                        var problem = Problem(
                            .unprocessableContent,
                            "Give the day the new schedule starts: \(clinic.name)'s schedule has changed before."
                        )
                        problem.field = "scheduleFrom"
                        throw problem
                    }
                } else {
                    clinic.isArchived = action == "archive"
                }
                let saved = try await app.store.updateClinic(clinic)
                return .redirect(to: "/book?kind=clinic&changed=\(saved.id)&how=\(action)#clinics")
            case .product(var product):
                if action == "save" {
                    product.name = form["name"] ?? ""
                    let sku = (form["sku"] ?? "").trimmingWhitespace()
                    product.sku = sku.isEmpty ? nil : sku
                    product.unitPrice = try Problem.about("price") { try style.parse(form["price"] ?? "") }
                    product.unitCost = try Problem.about("cost") { try style.parse(form["cost"] ?? "0") }
                } else {
                    product.isArchived = action == "archive"
                }
                let saved = try await app.store.updateProduct(product)
                return .redirect(to: "/book?kind=product&changed=\(saved.id)&how=\(action)#products")
            case .terms(var terms):
                if action == "save" {
                    terms.share = try Problem.about("share") { try Share(parsing: form["share"] ?? "") }
                    terms.basis = try Problem.about("basis") { try Self.basis(form["basis"] ?? "profit") }
                    terms.effectiveFrom = try Problem.about("from") { try Day(parsing: form["from"] ?? "") }
                    terms.tiers = try Self.tiers(form, style: style)
                } else {
                    terms.isArchived = action == "archive"
                }
                let change = try await app.store.updateTerms(terms)
                return .redirect(
                    to:
                        "/book?kind=terms&changed=\(change.terms.id)&how=\(action)&recomputed=\(change.recomputedSales)&closed=\(change.salesInClosedPeriods)#terms"
                )
            }
        } refused: { refusal in
            try await itemPage(
                item,
                context: context,
                error: refusal.detail,
                errorLink: refusal.link,
                status: .init(code: refusal.status),
                typed: action == "save" ? form : nil,
                refusal: refusal
            )
        }
    }

    /// Adds a deduction from the clinic's page, or ends (`end`, today, or the form's day) or removes (`remove`) one.
    func deductionForm(
        _ request: Request,
        context: AppRequestContext,
        action: (Deduction.ID, String)?
    ) async throws -> Response {
        let form = try await Form.read(request, context: context)
        let clinic = try await pageClinic(context)
        let settings = try await app.store.settings()
        return try await app.form {
            if let (id, verb) = action {
                guard var deduction = try await app.store.deductions(clinic: clinic.id).first(where: { $0.id == id })
                else {
                    throw StoreError.notFound(.deductions, id: id.rawValue)
                }
                switch verb {
                case "end":
                    deduction.lastDay =
                        try (form["on"]).flatMap { $0.isEmpty ? nil : $0 }.map { try Day(parsing: $0) }
                        ?? settings.today()
                    _ = try await app.store.updateDeduction(deduction)
                    return .redirect(to: "/book/clinics/\(clinic.id)?done=deduction-ended&deduction=\(id)#deductions")
                case "remove":
                    try await app.store.deleteDeduction(id)
                    return .redirect(to: "/book/clinics/\(clinic.id)?done=deduction-removed#deductions")
                default:
                    throw Problem(.notFound, "A deduction is ended or removed.")
                }
            } else {
                let value = (form["value"] ?? "").trimmingWhitespace()
                let amount: DeductionAmount = try Problem.about("value") {
                    form["kind"] == "revenue-share"
                        ? .shareOfRevenue(try Share(parsing: value)) : .fixed(try settings.style.parse(value))
                }
                let until = (form["until"] ?? "").trimmingWhitespace()
                let made = try await app.store.createDeduction(
                    Deduction(
                        id: Deduction.ID(0),
                        clinicID: clinic.id,
                        name: form["name"] ?? "",
                        amount: amount,
                        effectiveFrom: try Problem.about("from") { try Day(parsing: form["from"] ?? "") },
                        lastDay: until.isEmpty ? nil : try Problem.about("until") { try Day(parsing: until) }
                    )
                )
                return .redirect(to: "/book/clinics/\(clinic.id)?done=deduction-added&deduction=\(made.id)#deductions")
            }
        } refused: { refusal in
            try await itemPage(
                .clinic(clinic),
                context: context,
                error: refusal.detail,
                errorLink: refusal.link,
                status: .init(code: refusal.status),
                open: "deductions",
                typed: action == nil ? form : nil,
                refusal: refusal
            )
        }
    }

    /// What a deduction or price form of the clinic's page did (`done`), in words, for its section.
    func clinicSaid(
        _ clinic: Clinic,
        done: String,
        query: Hummingbird.Parameters
    ) async throws -> (section: String, text: String)? {
        let style = try await app.store.settings().style
        switch done {
        case "deduction-added", "deduction-ended":
            guard let id = query["deduction"].flatMap({ Int64(String($0)) }),
                let deduction = try await app.store.deductions(clinic: clinic.id).first(where: { $0.id.rawValue == id })
            else { return nil }
            if done == "deduction-ended", let last = deduction.lastDay {
                return ("deductions", "Ended \(deduction.name): its last day is \(style.format(last)).")
            }
            return (
                "deductions",
                "Added \(deduction.name): \(deduction.amount.text { style.format($0) }) from \(style.format(deduction.effectiveFrom)). Statements take it off what \(clinic.name) pays."
            )
        case "deduction-removed":
            return ("deductions", "Removed the deduction: statements no longer take it off.")
        case "price-set":
            guard let id = query["entry"].flatMap({ Int64(String($0)) }),
                let entry = try await app.store.prices(PriceQuery(clinicID: clinic.id)).first(where: {
                    $0.id.rawValue == id
                })
            else { return nil }
            let product = try await app.store.product(entry.productID)
            return (
                "prices",
                "Set \(product.name) at \(style.format(entry.unitPrice)) here from \(style.format(entry.effectiveFrom)): your sales here start from it."
            )
        case "price-removed":
            return (
                "prices",
                "Removed the price: sales here start from the product's own again (recorded sales keep theirs)."
            )
        default:
            return nil
        }
    }

    /// The clinic of a `/book/clinics/:id/…` form; a 404 for another kind.
    func pageClinic(_ context: AppRequestContext) async throws -> Clinic {
        guard case .clinic(let clinic) = try await item(context) else {
            throw Problem(.notFound, "There is no such page: prices and schedules belong to clinics.")
        }
        return clinic
    }

    /// Sets an entry of a clinic's price list from its page's form, or removes one.
    func priceForm(_ request: Request, context: AppRequestContext, remove: PriceListEntry.ID?) async throws -> Response
    {
        let form = try await Form.read(request, context: context)
        let clinic = try await pageClinic(context)
        let style = try await app.store.settings().style
        return try await app.form {
            if let remove {
                guard try await app.store.prices(PriceQuery(clinicID: clinic.id)).contains(where: { $0.id == remove })
                else {
                    throw StoreError.notFound(.prices, id: remove.rawValue)
                }
                try await app.store.removePrice(remove)
                return .redirect(to: "/book/clinics/\(clinic.id)?done=price-removed#prices")
            } else {
                guard let product = form["product"].flatMap(Int64.init) else {
                    var problem = Problem(.unprocessableContent, "Choose a product.")
                    problem.field = "product"
                    throw problem
                }
                let cost = (form["cost"] ?? "").trimmingWhitespace()
                let entry = try await app.store.setPrice(
                    PriceDraft(
                        clinicID: clinic.id,
                        productID: Product.ID(product),
                        unitPrice: try Problem.about("price") { try style.parse(form["price"] ?? "") },
                        unitCost: cost.isEmpty ? nil : try Problem.about("cost") { try style.parse(cost) },
                        effectiveFrom: try Problem.about("from") { try Day(parsing: form["from"] ?? "") }
                    )
                )
                return .redirect(to: "/book/clinics/\(clinic.id)?done=price-set&entry=\(entry.id)#prices")
            }
        } refused: { refusal in
            try await itemPage(
                .clinic(clinic),
                context: context,
                error: refusal.detail,
                errorLink: refusal.link,
                status: .init(code: refusal.status),
                open: "prices",
                typed: remove == nil ? form : nil,
                refusal: refusal
            )
        }
    }

    /// A schedule in words: `monthly`, `twice a month`, `weekly, from Monday`, `every two weeks from 01/02/2026`.
    static func describe(_ schedule: PaySchedule, style: LocaleStyle) -> String {
        switch schedule {
        case .monthly: "monthly"
        case .semimonthly: "twice a month"
        case .weekly(let weekday): "weekly, from \(weekday.description.capitalized)"
        case .biweekly(let anchor): "every two weeks from \(style.format(anchor))"
        }
    }

    // MARK: API

    /// Tiers as the API takes them: `"5000.00:50%"` each.
    static func tiers(_ texts: [String], currency: Currency) throws -> [Tier] {
        try texts.map { text in
            do { return try Tier(parsing: text, currency: currency) } catch {
                throw Problem(.unprocessableContent, "The tiers: \(error)")
            }
        }
    }

    /// Tiers as a terms form gives them: a row each (`tierThreshold0` and `tierShare0`, …), an
    /// empty row skipped; or, from a form of the first versions, the text `5000.00:50%; 10000.00:60%`.
    static func tiers(_ form: Form, style: LocaleStyle) throws -> [Tier] {
        var tiers = try tiers(field: form["tiers"], style: style)
        for index in 0..<TierRow.most {
            let threshold = form["tierThreshold\(index)"]?.trimmingWhitespace() ?? ""
            let share = form["tierShare\(index)"]?.trimmingWhitespace() ?? ""
            if threshold.isEmpty && share.isEmpty { continue }
            guard !threshold.isEmpty, !share.isEmpty else {
                var problem = Problem(
                    .unprocessableContent,
                    "Tier \(index + 1): give both the period's total it starts beyond and its share, or leave both empty."
                )
                problem.field = threshold.isEmpty ? "tierThreshold\(index)" : "tierShare\(index)"
                throw problem
            }
            // A refusal names the row's field it is about, for the page to mark it.
            func read<T>(_ field: String, _ body: () throws -> T) throws -> T {
                do { return try body() } catch {
                    var problem = Problem(.unprocessableContent, "Tier \(index + 1): \(error)")
                    problem.field = "\(field)\(index)"
                    throw problem
                }
            }
            tiers.append(
                Tier(
                    threshold: try read("tierThreshold") { try style.parse(threshold) },
                    share: try read("tierShare") { try Share(parsing: share) }
                )
            )
        }
        return tiers
    }

    /// Tiers as a page's field gave them, in her locale: `5000.00:50%; 10000.00:60%`.
    static func tiers(field text: String?, style: LocaleStyle) throws -> [Tier] {
        try (text ?? "").split(separator: ";").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }.map { item in
            let parts = item.split(separator: ":", maxSplits: 1).map { $0.trimmingWhitespace() }
            guard parts.count == 2 else {
                throw Problem(
                    .unprocessableContent,
                    "\"\(item)\" is not a tier: write the threshold and the share, like 5000.00:50%; separate tiers with ;."
                )
            }
            do { return Tier(threshold: try style.parse(parts[0]), share: try Share(parsing: parts[1])) } catch {
                throw Problem(.unprocessableContent, "The tier \"\(item)\": \(error)")
            }
        }
    }

    func createTerms(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await app.body(API.TermsInput.self, request, context: context)
        let change = try await app.store.createTerms(
            try await termsDraft(input, currency: try await app.store.settings().currency)
        )
        return try await termsChange(change, status: .created)
    }

    // What the API's bodies ask for, as the store's drafts: for a single write and for a batch alike.

    static func clinicDraft(_ input: API.ClinicInput) throws -> ClinicDraft {
        ClinicDraft(name: input.name, schedule: try PaySchedule(parsing: input.schedule ?? "monthly"))
    }

    func productDraft(_ input: API.ProductInput, currency: Currency) throws -> ProductDraft {
        ProductDraft(
            name: input.name,
            sku: input.sku,
            unitPrice: try app.money(input.unitPrice, field: "unitPrice", currency: currency) ?? .zero,
            unitCost: try app.money(input.unitCost, field: "unitCost", currency: currency) ?? .zero
        )
    }

    func termsDraft(_ input: API.TermsInput, currency: Currency) async throws -> TermsDraft {
        let product: Product.ID? =
            input.productId != nil || input.product != nil
            ? try await app.productID(input.productId, name: input.product) : nil
        return TermsDraft(
            clinicID: try await app.clinicID(input.clinicId, name: input.clinic),
            productID: product,
            basis: try app.choice(input.basis, field: "basis") ?? .profit,
            share: try Share(parsing: input.share),
            tiers: try Self.tiers(input.tiers ?? [], currency: currency),
            effectiveFrom: try app.day(input.effectiveFrom, field: "effectiveFrom", default: .init(ordinal: 0))
        )
    }

    func priceDraft(_ input: API.PriceInput, settings: BookSettings) async throws -> PriceDraft {
        PriceDraft(
            clinicID: try await app.clinicID(input.clinicId, name: input.clinic),
            productID: try await app.productID(input.productId, name: input.product),
            unitPrice: try app.money(input.unitPrice, field: "unitPrice", currency: settings.currency) ?? .zero,
            unitCost: try app.money(input.unitCost, field: "unitCost", currency: settings.currency),
            effectiveFrom: try app.day(input.effectiveFrom, field: "effectiveFrom", default: settings.today())
        )
    }

    func deductionDraft(_ input: API.DeductionInput, settings: BookSettings) async throws -> Deduction {
        Deduction(
            id: Deduction.ID(0),
            clinicID: try await app.clinicID(input.clinicId, name: input.clinic),
            name: input.name,
            amount: try Self.deductionAmount(amount: input.amount, share: input.share, currency: settings.currency),
            effectiveFrom: try app.day(input.effectiveFrom, field: "effectiveFrom", default: settings.today()),
            lastDay: try input.lastDay.map { try app.day($0, field: "lastDay", default: settings.today()) }
        )
    }

    /// A change of terms and what it did to the sales.
    func termsChange(_ change: TermsChange, status: HTTPResponse.Status = .ok) async throws -> Response {
        try app.json(
            API.TermsChange(
                terms: try await app.presenter().terms(change.terms),
                recomputedSales: change.recomputedSales,
                salesInClosedPeriods: change.salesInClosedPeriods
            ),
            status: status
        )
    }
}

/// One row of a terms form's tiers: beyond a period's total, a share.
package struct TierRow: Sendable, TemplateValues {
    /// At most this many rows are read from a form.
    static let most = 20

    let index: Int
    let number: Int
    /// Named apart from the terms' own `share`: an empty one must not show the terms' share instead.
    let tierThreshold: String
    let tierShare: String
    /// The currency's symbol beside the threshold, where her locale writes it (`$` before, `€` after).
    let before: String?, after: String?
    /// A refusal is about the row's threshold, or its share.
    let thresholdInvalid: Bool, shareInvalid: Bool

    package init(
        index: Int,
        number: Int,
        threshold: String,
        share: String,
        before: String? = nil,
        after: String? = nil,
        thresholdInvalid: Bool = false,
        shareInvalid: Bool = false
    ) {
        (self.index, self.number, self.tierThreshold, self.tierShare, self.before, self.after) = (
            index, number, threshold, share, before, after
        )
        (self.thresholdInvalid, self.shareInvalid) = (thresholdInvalid, shareInvalid)
    }

    /// The rows of a terms form as she typed them (`tierThreshold0`, `tierShare0`…, up to the
    /// last she filled), and an empty one to add another; `field` (a refusal's, `tierShare1`)
    /// marks the field it is about.
    static func rows(typed form: Form, field: String?, style: LocaleStyle) -> [TierRow] {
        let (before, after) = style.symbolFirst ? (style.currencySymbol, nil) : (nil, style.currencySymbol)
        func typed(_ index: Int) -> (threshold: String, share: String) {
            (form.values["tierThreshold\(index)"] ?? "", form.values["tierShare\(index)"] ?? "")
        }
        let filled = (0..<Self.most).filter { index in
            let row = typed(index)
            return !row.threshold.trimmingWhitespace().isEmpty || !row.share.trimmingWhitespace().isEmpty
        }
        let count = filled.last.map { $0 + 1 } ?? 0
        let last: Int = Swift.min(count, Self.most - 1)
        return (0...last).map { index in
            let row: (threshold: String, share: String) = index < count ? typed(index) : ("", "")
            return TierRow(
                index: index,
                number: index + 1,
                threshold: row.threshold,
                share: row.share,
                before: before,
                after: after,
                thresholdInvalid: field == "tierThreshold\(index)",
                shareInvalid: field == "tierShare\(index)"
            )
        }
    }

    /// The rows of `tiers`, and an empty one to add another.
    static func rows(_ tiers: [Tier], style: LocaleStyle) -> [TierRow] {
        let (before, after) = style.symbolFirst ? (style.currencySymbol, nil) : (nil, style.currencySymbol)
        return tiers.enumerated().map {
            TierRow(
                index: $0.offset,
                number: $0.offset + 1,
                threshold: style.formatInput($0.element.threshold),
                share: $0.element.share.shortPercentText,
                before: before,
                after: after
            )
        }
            + [
                TierRow(
                    index: tiers.count,
                    number: tiers.count + 1,
                    threshold: "",
                    share: "",
                    before: before,
                    after: after
                )
            ]
    }
}

/// What the book page shows (`book.mustache`).
package struct BookPageView: PageView {
    /// A clinic's row: its name, and how it pays her ("paid monthly · 40% of profit · 2 prices").
    package struct ClinicRow: Sendable, TemplateValues {
        let id: Int64
        let name: String
        let meta: String
        /// No split in force: it is said, since her sales there are refused.
        let noSplit: Bool
        package init(id: Int64, name: String, meta: String, noSplit: Bool) {
            (self.id, self.name, self.meta, self.noSplit) = (id, name, meta, noSplit)
        }
    }

    package struct ProductRow: Sendable, TemplateValues {
        let id: Int64
        let name: String
        /// "$35.00 · cost $13.00".
        let meta: String
        package init(id: Int64, name: String, meta: String) { (self.id, self.name, self.meta) = (id, name, meta) }
    }

    package struct TermsRow: Sendable, TemplateValues {
        let id: Int64
        /// In force, upcoming, or ended.
        let chip: Chip
        /// Its clinic (and product), and its split and first day: the row's two lines (and its
        /// link's name, chip included, to a screen reader).
        let name: String, meta: String
        package init(id: Int64, chip: Chip, name: String, meta: String) {
            (self.id, self.chip, self.name, self.meta) = (id, chip, name, meta)
        }
    }

    /// What was just added, said in its own section.
    package struct Added: Sendable, TemplateValues {
        let clinics: String?
        let products: String?
        let terms: String?
        package init(clinics: String?, products: String?, terms: String?) {
            (self.clinics, self.products, self.terms) = (clinics, products, terms)
        }
    }

    /// Which Add forms show open.
    package struct Open: Sendable, TemplateValues {
        let clinic: Bool
        let product: Bool
        let terms: Bool
        package init(clinic: Bool, product: Bool, terms: Bool) {
            (self.clinic, self.product, self.terms) = (clinic, product, terms)
        }
    }

    package struct Archived: Sendable, TemplateValues {
        let kind: String
        let name: String
        let action: String
        package init(kind: String, name: String, action: String) {
            (self.kind, self.name, self.action) = (kind, name, action)
        }
    }

    /// The Add a clinic form's fields: as she typed them when it comes back to her refused (the
    /// refusal's field marked), else as it starts.
    package struct ClinicFields: Sendable, TemplateValues {
        let name: String
        let monthly: Bool, semimonthly: Bool, weekly: Bool, biweekly: Bool
        /// A biweekly schedule's first day.
        let anchor: String
        let invalid: FieldMarks
        package init(name: String = "", kind: String = "monthly", anchor: String, invalid: FieldMarks = FieldMarks()) {
            (self.name, self.anchor, self.invalid) = (name, anchor, invalid)
            (monthly, semimonthly, weekly, biweekly) = (
                kind == "monthly", kind == "semimonthly", kind == "weekly", kind == "biweekly"
            )
        }
    }

    /// The Add a product form's fields, as ``ClinicFields``.
    package struct ProductFields: Sendable, TemplateValues {
        let name: String, price: String, cost: String
        let invalid: FieldMarks
        package init(name: String = "", price: String = "", cost: String = "", invalid: FieldMarks = FieldMarks()) {
            (self.name, self.price, self.cost, self.invalid) = (name, price, cost, invalid)
        }
    }

    /// The Add terms form's share and basis, as ``ClinicFields`` (its clinic, product, tiers and
    /// first day are `clinicOptions`, `productOptions`, `tierRows` and `termsFrom`).
    package struct TermsFields: Sendable, TemplateValues {
        let share: String
        let revenue: Bool
        let invalid: FieldMarks
        package init(share: String = "", revenue: Bool = false, invalid: FieldMarks = FieldMarks()) {
            (self.share, self.revenue, self.invalid) = (share, revenue, invalid)
        }
    }

    let clinics: [ClinicRow]
    let products: [ProductRow]
    /// The sets of terms in force and to come; `pastTerms`, those later sets replaced, folded apart.
    let terms: [TermsRow]
    let pastTerms: [TermsRow]
    let hasPastTerms: Bool, pastCount: Int
    let clinicOptions: [PageOption]
    let productOptions: [PageOption]
    let weekdays: [PageChoice]
    let tierRows: [TierRow]
    let added: Added
    let open: Open
    let archived: [Archived]
    let archivedCount: Int
    let hasArchived: Bool
    let today: String
    let earliest: String
    let latest: String
    let termsFrom: String
    let zero: String
    let clinicForm: ClinicFields
    let productForm: ProductFields
    let termsForm: TermsFields
    let csrf: String

    package init(
        clinics: [ClinicRow],
        products: [ProductRow],
        terms: [TermsRow],
        clinicOptions: [PageOption],
        productOptions: [PageOption],
        weekdays: [PageChoice],
        tierRows: [TierRow],
        added: Added,
        open: Open,
        archived: [Archived],
        archivedCount: Int,
        today: String,
        earliest: String,
        latest: String,
        termsFrom: String,
        zero: String,
        clinicForm: ClinicFields,
        productForm: ProductFields = ProductFields(),
        termsForm: TermsFields = TermsFields(),
        csrf: String
    ) {
        (self.clinicForm, self.productForm, self.termsForm) = (clinicForm, productForm, termsForm)
        (self.clinics, self.products, self.clinicOptions, self.productOptions, self.weekdays, self.tierRows) = (
            clinics, products, clinicOptions, productOptions, weekdays, tierRows
        )
        self.terms = terms.filter { $0.chip != .ended }
        pastTerms = terms.filter { $0.chip == .ended }
        (hasPastTerms, pastCount) = (!pastTerms.isEmpty, pastTerms.count)
        (self.added, self.open, self.archived, self.archivedCount, self.hasArchived) = (
            added, open, archived, archivedCount, !archived.isEmpty
        )
        (self.today, self.earliest, self.latest, self.termsFrom, self.zero, self.csrf) = (
            today, earliest, latest, termsFrom, zero, csrf
        )
    }
}

extension BookJob {
    /// The book page's order of terms: by clinic, the clinic's own before a product's, then in
    /// force, upcoming, ended, the latest first.
    static func termsOrder(
        _ names: Presenter.Names
    ) -> ((terms: Terms, standing: (rank: Int, chip: Chip)), (terms: Terms, standing: (rank: Int, chip: Chip))) -> Bool
    {
        { a, b in
            let left = (names.clinics[a.terms.clinicID] ?? "", a.terms.productID == nil ? 0 : 1, a.standing.rank)
            let right = (names.clinics[b.terms.clinicID] ?? "", b.terms.productID == nil ? 0 : 1, b.standing.rank)
            return left != right ? left < right : a.terms.effectiveFrom > b.terms.effectiveFrom
        }
    }
}
