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
                message = "Terms added: \(recomputed) sale\(recomputed == 1 ? "" : "s") recomputed"
                    + (closed > 0 ? ", \(closed) in closed periods left as they were." : ".")
            }
            return try await bookPage(context: context, message: message)
        }
        pages.post("/clinics") { request, context in
            try await bookForm(request, context: context) { form, _ in
                _ = try await app.store.createClinic(ClinicDraft(name: form["name"] ?? "", schedule: try Self.schedule(form)))
                return nil
            }
        }
        pages.post("/products") { request, context in
            try await bookForm(request, context: context) { form, settings in
                _ = try await app.store.createProduct(ProductDraft(name: form["name"] ?? "", unitPrice: try settings.style.parse(form["price"] ?? ""),
                                                                   unitCost: try settings.style.parse(form["cost"] ?? "0")))
                return nil
            }
        }
        pages.post("/terms") { request, context in
            try await bookForm(request, context: context) { form, _ in
                guard let clinic = form["clinic"].flatMap(Int64.init) else { throw Problem(.unprocessableContent, "Choose a clinic.") }
                let change = try await app.store.createTerms(TermsDraft(
                    clinicID: Clinic.ID(clinic), productID: form["product"].flatMap(Int64.init).map { Product.ID($0) },
                    basis: CommissionBasis(rawValue: form["basis"] ?? "profit") ?? .profit, share: try Share(parsing: form["share"] ?? ""),
                    effectiveFrom: try Day(parsing: form["from"] ?? "")))
                return "/book?recomputed=\(change.recomputedSales)&closed=\(change.salesInClosedPeriods)"
            }
        }
    }

    func registerAPI<G>(on api: Registrar<G>) {
        api.get("/clinics") { _, _ in
            let presenter = try await app.presenter()
            return try app.json(try await app.store.clinics(ClinicQuery()).map(presenter.clinic))
        }
        api.post("/clinics") { request, context in
            let input = try await app.body(ClinicBody.self, request, context: context)
            let clinic = try await app.store.createClinic(ClinicDraft(name: input.name, schedule: try PaySchedule(parsing: input.schedule ?? "monthly")))
            return try app.json(try await app.presenter().clinic(clinic), status: .created)
        }
        api.get("/products") { _, _ in
            let presenter = try await app.presenter()
            return try app.json(try await app.store.products(ProductQuery()).map(presenter.product))
        }
        api.post("/products") { request, context in
            let input = try await app.body(ProductBody.self, request, context: context)
            let presenter = try await app.presenter()
            let currency = presenter.currency
            let product = try await app.store.createProduct(ProductDraft(
                name: input.name, sku: input.sku, unitPrice: try app.money(input.unitPrice, field: "unitPrice", currency: currency) ?? .zero,
                unitCost: try app.money(input.unitCost, field: "unitCost", currency: currency) ?? .zero))
            return try app.json(presenter.product(product), status: .created)
        }
        api.get("/terms") { _, _ in
            let presenter = try await app.presenter()
            return try app.json(try await app.store.terms(TermsQuery()).map(presenter.terms))
        }
        api.post("/terms") { request, context in try await createTerms(request, context: context) }
    }

    // MARK: Pages

    /// A clinic's pay schedule from the picker (`scheduleKind`, with `weekday` or `anchor`), or
    /// typed as the command line takes it (`schedule=weekly:monday`).
    static func schedule(_ form: Form) throws -> PaySchedule {
        if let typed = form["schedule"] { return try PaySchedule(parsing: typed) }
        let kind = form["scheduleKind"] ?? "monthly"
        let anchor: String? = switch kind {
        case "weekly": form["weekday"] ?? "monday"
        case "biweekly": form["anchor"]
        default: nil
        }
        return try PaySchedule(kind: kind, anchor: anchor)
    }

    func bookPage(context: AppRequestContext, message: String? = nil, error: String? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let settings = try await app.store.settings()
        let style = settings.style
        let today = settings.today()
        let clinics = try await app.store.clinics(ClinicQuery())
        let products = try await app.store.products(ProductQuery())
        let names = try await Presenter.Names(store: app.store)
        let values: [String: Any] = [
            "today": today.description, "earliest": AcceptedDays.earliest.description, "latest": AcceptedDays(today: today).latest.description,
            "zero": style.formatInput(.zero),
            "weekdays": Weekday.allCases.map { ["value": $0.description, "name": $0.description.capitalized] },
            "clinics": clinics.map { ["id": $0.id.rawValue, "name": $0.name, "schedule": Self.describe($0.schedule, style: style)] as [String: Any] },
            "products": products.map { ["id": $0.id.rawValue, "name": $0.name, "price": style.format($0.unitPrice), "cost": style.format($0.unitCost)] as [String: Any] },
            "terms": try await app.store.terms(TermsQuery()).map { terms in
                ["clinic": names.clinics[terms.clinicID] ?? "", "hasProduct": terms.productID != nil,
                 "product": terms.productID.flatMap { names.products[$0] } ?? "",
                 "share": terms.share.percentText, "basis": terms.basis.rawValue, "from": style.format(terms.effectiveFrom)] as [String: Any]
            },
        ]
        return try await app.page("book", title: "Clinics & products", nav: "book", context: context, values: values, status: status,
                              message: message, error: error)
    }

    /// Runs a form of the book page; `body` returns where to go next (default: the book page).
    func bookForm(_ request: Request, context: AppRequestContext, _ body: (Form, BookSettings) async throws -> String?) async throws -> Response {
        let form = try await Form.read(request, context: context)
        let settings = try await app.store.settings()
        return try await app.form {
            .redirect(to: try await body(form, settings) ?? "/book")
        } otherwise: { error, status in
            try await bookPage(context: context, error: error, status: status)
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

    struct ClinicBody: Decodable { var name: String; var schedule: String? }

    struct ProductBody: Decodable { var name: String; var sku: String?; var unitPrice: String; var unitCost: String? }

    struct TermsBody: Decodable {
        var clinicId: Int64?
        var clinic: String?
        var productId: Int64?
        var product: String?
        var basis: String?
        var share: String
        var effectiveFrom: String
    }

    struct TermsChangeJSON: Encodable {
        var terms: TermsJSON
        var recomputedSales: Int
        var salesInClosedPeriods: Int
    }

    func createTerms(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await app.body(TermsBody.self, request, context: context)
        guard let basis = CommissionBasis(rawValue: input.basis ?? "profit") else {
            throw Problem(.unprocessableContent, "The basis is \"profit\" or \"revenue\".")
        }
        let product: Product.ID? = input.productId != nil || input.product != nil ? try await app.productID(input.productId, name: input.product) : nil
        let change = try await app.store.createTerms(TermsDraft(
            clinicID: try await app.clinicID(input.clinicId, name: input.clinic), productID: product, basis: basis,
            share: try Share(parsing: input.share), effectiveFrom: try app.day(input.effectiveFrom, field: "effectiveFrom", default: .init(ordinal: 0))))
        return try app.json(TermsChangeJSON(terms: try await app.presenter().terms(change.terms), recomputedSales: change.recomputedSales,
                                            salesInClosedPeriods: change.salesInClosedPeriods), status: .created)
    }
}
