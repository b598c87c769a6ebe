import CommissionCore
import CommissionKit
import CommissionStore
import Hummingbird

/// `/api/v1/prices`, clinics' price lists: listed (of a clinic or a product), set (an entry of the
/// same clinic, product and day is replaced), removed.
struct PricesController: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {}

    func registerAPI<G>(on api: Registrar<G>) {
        api.get("/prices", use: list)
        api.post("/prices", use: set)
        api.delete("/prices/:id", use: remove)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let presenter = try await app.presenter()
        let entries = try await app.store.prices(
            PriceQuery(
                clinicID: try QueryParameter.integer(request, "clinicId").map { Clinic.ID($0) },
                productID: try QueryParameter.integer(request, "productId").map { Product.ID($0) }
            )
        )
        return try app.json(entries.map(presenter.price))
    }

    @Sendable func set(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await app.body(API.PriceInput.self, request, context: context)
        let entry = try await app.store.setPrice(
            try await BookJob(app).priceDraft(input, settings: try await app.store.settings())
        )
        return try app.json(try await app.presenter().price(entry), status: .created)
    }

    @Sendable func remove(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await app.store.removePrice(PriceListEntry.ID(try context.parameters.require("id", as: Int64.self)))
        return Response(status: .noContent)
    }
}
