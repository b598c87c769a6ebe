import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Hummingbird

/// Entering a sale in seconds: the quick entry page (the home page), its form, and Repeat.
struct EntryJob: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {
        pages.get("/") { request, context in try await entryPage(request, context: context) }
        pages.post("/sales") { request, context in try await recordSale(request, context: context) }
        pages.post("/sales/:id/repeat") { _, context in try await repeatSale(context: context) }
    }

    func entryPage(_ request: Request, context: AppRequestContext, error: String? = nil, message: String? = nil,
                   status: HTTPResponse.Status = .ok) async throws -> Response {
        let store = app.store
        let settings = try await store.settings()
        let currency = settings.currency
        let today = settings.today()
        let clinics = try await store.clinics(ClinicQuery())
        let products = try await store.products(ProductQuery(order: .mostSold))
        let recentSales = try await store.sales(SaleQuery(page: Page(limit: 5)))
        let names = try await Presenter.Names(store: store)
        let lastClinic = recentSales.first?.clinicID ?? clinics.first?.id
        let date = request.uri.queryParameters["date"].flatMap { try? Day(parsing: String($0)) } ?? today
        let missed = try await missedDays(today: today)
        var message = message
        if message == nil, let saved = request.uri.queryParameters["saved"].flatMap({ Int64(String($0)) }),
           let sale = try? await store.sale(Sale.ID(saved)) {
            message = "Saved: \(sale.quantity) × \(names.products[sale.productID] ?? "") at \(names.clinics[sale.clinicID] ?? "") on \(sale.date), commission \(currency.format(sale.figures.commission))."
        }
        let values: [String: Any] = [
            "key": Secret.make(),
            "date": date.description,
            "noSetup": clinics.isEmpty || products.isEmpty,
            "clinics": clinics.map { ["id": $0.id.rawValue, "name": $0.name, "selected": $0.id == lastClinic] as [String: Any] },
            "products": products.enumerated().map { index, product in
                ["id": product.id.rawValue, "name": product.name, "price": currency.format(product.unitPrice), "selected": index == 0] as [String: Any]
            },
            "selectedPrice": products.first.map { currency.format($0.unitPrice) } ?? "",
            "recent": recentSales.map { sale in
                ["id": sale.id.rawValue, "date": sale.date.description, "clinic": names.clinics[sale.clinicID] ?? "",
                 "product": names.products[sale.productID] ?? "", "quantity": sale.quantity,
                 "commission": currency.format(sale.figures.commission), "csrf": context.csrfToken ?? ""] as [String: Any]
            },
            "hasMissedDays": !missed.isEmpty,
            "missedDays": missed.enumerated().map { index, day in
                ["iso": day.description, "label": "\(day.weekday.shortName) \(day)", "last": index == missed.count - 1] as [String: Any]
            },
        ]
        return app.pages.page("entry", title: "New sale", nav: "entry", context: context, values: values, status: status, message: message, error: error)
    }

    /// Days of the last two weeks, before today, on a weekday she sold on in at least three of the
    /// eight weeks before, with no sale entered.
    func missedDays(today: Day) async throws -> [Day] {
        let since = today.adding(days: -70)
        let sales = try await app.store.sales(SaleQuery(from: since, through: today.adding(days: -1), page: Page(limit: 5000)))
        let soldDays = Set(sales.map(\.date))
        var weeksPerWeekday: [Weekday: Set<Int>] = [:]
        for day in soldDays where day < today.adding(days: -14) {
            weeksPerWeekday[day.weekday, default: []].insert(day.ordinal / 7)
        }
        let usual = Set(weeksPerWeekday.filter { $0.value.count >= 3 }.keys)
        return (1...14).map { today.adding(days: -$0) }.filter { usual.contains($0.weekday) && !soldDays.contains($0) }.reversed()
    }

    func recordSale(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        let settings = try await app.store.settings()
        return try await app.form {
            guard let clinic = form["clinic"].flatMap(Int64.init), let product = form["product"].flatMap(Int64.init) else {
                throw Problem(.unprocessableContent, "Choose a clinic and a product.")
            }
            guard let quantity = Int64(form["quantity"] ?? "1") else {
                throw Problem(.unprocessableContent, "The quantity is a whole number of units (negative for a return).")
            }
            let draft = SaleDraft(
                clinicID: Clinic.ID(clinic), productID: Product.ID(product),
                date: try form["date"].map { try Day(parsing: $0) } ?? settings.today(), quantity: quantity,
                unitPrice: try form["price"].map { try settings.currency.parse($0) },
                discount: try form["discount"].map { try settings.currency.parse($0) } ?? .zero,
                noCommission: form["noCommission"] != nil, note: form["note"])
            let sale = try await app.store.createSale(draft, idempotencyKey: form["key"])
            return .redirect(to: "/?saved=\(sale.id)")
        } otherwise: { error, status in
            try await entryPage(request, context: context, error: error, status: status)
        }
    }

    func repeatSale(context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id", as: Int64.self)
        let settings = try await app.store.settings()
        let sale = try await app.store.sale(Sale.ID(id))
        _ = try await app.store.createSale(SaleDraft(clinicID: sale.clinicID, productID: sale.productID, date: settings.today(),
                                                     quantity: sale.quantity, unitPrice: sale.line.unitPrice, unitCost: sale.line.unitCost,
                                                     discount: sale.line.discount, noCommission: sale.isNoCommission, note: sale.note),
                                           idempotencyKey: nil)
        return .redirect(to: "/")
    }
}
