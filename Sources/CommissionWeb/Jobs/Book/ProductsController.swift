import CommissionCore
import CommissionKit
import CommissionStore
import Hummingbird

/// `/api/v1/products`: listed (`name`, `q`, `order`, `?includeArchived=true`), created, read,
/// changed in part (PATCH; an SKU of "" takes it away), archived (DELETE; `?permanently=true`
/// deletes one without sales) and restored.
struct ProductsController: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {}

    func registerAPI<G>(on api: Registrar<G>) {
        api.get("/products", use: list)
        api.post("/products", use: create)
        api.get("/products/:id", use: read)
        api.patch("/products/:id", use: change)
        api.delete("/products/:id", use: archive)
    }

    func product(_ context: AppRequestContext) async throws -> Product {
        try await app.store.product(Product.ID(try context.parameters.require("id", as: Int64.self)))
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let presenter = try await app.presenter()
        let query = request.uri.queryParameters
        if let name = query["name"] {
            return try app.json([presenter.product(try await app.store.product(named: String(name)))])
        }
        let order: ProductQuery.Order = try QueryParameter.choice(request, "order") ?? .name
        return try app.json(
            try await app.store.products(
                ProductQuery(
                    text: query["q"].map(String.init),
                    includeArchived: try QueryParameter.flag(request, "includeArchived"),
                    order: order,
                    page: try QueryParameter.page(request)
                )
            ).map(presenter.product)
        )
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await app.body(API.ProductInput.self, request, context: context)
        let presenter = try await app.presenter()
        let product = try await app.store.createProduct(
            try BookJob(app).productDraft(input, currency: presenter.currency)
        )
        return try app.json(presenter.product(product), status: .created)
    }

    @Sendable func read(_ request: Request, context: AppRequestContext) async throws -> Response {
        try app.json(try await app.presenter().product(try await product(context)))
    }

    @Sendable func change(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await app.body(API.ProductPatch.self, request, context: context)
        let presenter = try await app.presenter()
        var product = try await product(context)
        if let name = input.name { product.name = name }
        if let sku = input.sku { product.sku = sku.isEmpty ? nil : sku }
        if let price = try app.money(input.unitPrice, field: "unitPrice", currency: presenter.currency) {
            product.unitPrice = price
        }
        if let cost = try app.money(input.unitCost, field: "unitCost", currency: presenter.currency) {
            product.unitCost = cost
        }
        if let archived = input.archived { product.isArchived = archived }
        return try app.json(presenter.product(try await app.store.updateProduct(product)))
    }

    @Sendable func archive(_ request: Request, context: AppRequestContext) async throws -> Response {
        if try QueryParameter.flag(request, "permanently") {
            try await app.store.deleteProduct(try await product(context).id)
            return Response(status: .noContent)
        }
        var product = try await product(context)
        product.isArchived = true
        return try app.json(try await app.presenter().product(try await app.store.updateProduct(product)))
    }
}
