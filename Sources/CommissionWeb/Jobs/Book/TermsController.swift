import CommissionCore
import CommissionKit
import CommissionStore
import Hummingbird

/// `/api/v1/terms`: listed (of a clinic, a product; `?includeArchived=true`), created, read,
/// changed in part (PATCH; `tiers` replaces every tier), archived (DELETE) and restored. Each
/// change answers with the terms and what it did to the sales.
struct TermsController: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {}

    func registerAPI<G>(on api: Registrar<G>) {
        api.get("/terms", use: list)
        api.post("/terms", use: create)
        api.get("/terms/:id", use: read)
        api.patch("/terms/:id", use: change)
        api.delete("/terms/:id", use: archive)
    }

    func terms(_ context: AppRequestContext) async throws -> Terms {
        try await app.store.terms(Terms.ID(try context.parameters.require("id", as: Int64.self)))
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let presenter = try await app.presenter()
        return try app.json(
            try await app.store.terms(
                TermsQuery(
                    clinicID: try QueryParameter.integer(request, "clinicId").map { Clinic.ID($0) },
                    productID: try QueryParameter.integer(request, "productId").map { Product.ID($0) },
                    includeArchived: try QueryParameter.flag(request, "includeArchived")
                )
            ).map(presenter.terms)
        )
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await BookJob(app).createTerms(request, context: context)
    }

    @Sendable func read(_ request: Request, context: AppRequestContext) async throws -> Response {
        try app.json(try await app.presenter().terms(try await terms(context)))
    }

    @Sendable func change(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await app.body(API.TermsPatch.self, request, context: context)
        var terms = try await terms(context)
        if let share = input.share { terms.share = try Share(parsing: share) }
        if let basis: CommissionBasis = try app.choice(input.basis, field: "basis") { terms.basis = basis }
        if let from = input.effectiveFrom {
            terms.effectiveFrom = try app.day(from, field: "effectiveFrom", default: terms.effectiveFrom)
        }
        if let tiers = input.tiers {
            terms.tiers = try BookJob.tiers(tiers, currency: try await app.store.settings().currency)
        }
        if let archived = input.archived { terms.isArchived = archived }
        return try await BookJob(app).termsChange(try await app.store.updateTerms(terms))
    }

    @Sendable func archive(_ request: Request, context: AppRequestContext) async throws -> Response {
        var terms = try await terms(context)
        terms.isArchived = true
        return try await BookJob(app).termsChange(try await app.store.updateTerms(terms))
    }
}
