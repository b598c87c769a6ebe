import CommissionCore
import CommissionKit
import CommissionStore
import Hummingbird

/// `/api/v1/deductions`, the fees a clinic takes from what it pays: listed (of a clinic), added,
/// changed in part (ending one is giving it a `lastDay`; "" takes it away), removed.
struct DeductionsController: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {}

    func registerAPI<G>(on api: Registrar<G>) {
        api.get("/deductions", use: list)
        api.post("/deductions", use: create)
        api.patch("/deductions/:id", use: change)
        api.delete("/deductions/:id", use: remove)
    }

    func deduction(_ context: AppRequestContext) async throws -> Deduction {
        try await app.store.deduction(Deduction.ID(try context.parameters.require("id", as: Int64.self)))
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let presenter = try await app.presenter()
        let clinic = try QueryParameter.integer(request, "clinicId").map { Clinic.ID($0) }
        return try app.json(try await app.store.deductions(clinic: clinic).map(presenter.deduction))
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await app.body(API.DeductionInput.self, request, context: context)
        let deduction = try await app.store.createDeduction(
            try await BookJob(app).deductionDraft(input, settings: try await app.store.settings())
        )
        return try app.json(try await app.presenter().deduction(deduction), status: .created)
    }

    @Sendable func change(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await app.body(API.DeductionPatch.self, request, context: context)
        let settings = try await app.store.settings()
        var deduction = try await deduction(context)
        if let name = input.name { deduction.name = name }
        if input.amount != nil || input.share != nil {
            deduction.amount = try BookJob.deductionAmount(
                amount: input.amount,
                share: input.share,
                currency: settings.currency
            )
        }
        if let from = input.effectiveFrom {
            deduction.effectiveFrom = try app.day(from, field: "effectiveFrom", default: deduction.effectiveFrom)
        }
        if let last = input.lastDay {
            deduction.lastDay = last.isEmpty ? nil : try app.day(last, field: "lastDay", default: settings.today())
        }
        return try app.json(try await app.presenter().deduction(try await app.store.updateDeduction(deduction)))
    }

    @Sendable func remove(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await app.store.deleteDeduction(try await deduction(context).id)
        return Response(status: .noContent)
    }
}
