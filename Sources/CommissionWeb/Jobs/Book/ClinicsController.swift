import CommissionCore
import CommissionKit
import CommissionStore
import Hummingbird

/// `/api/v1/clinics`: listed (archived ones with `?includeArchived=true`; `name` asks for the one
/// clinic of that name, 404 when there is none; `q` for names holding the text), created, read,
/// changed in part (PATCH), archived (DELETE; `?permanently=true` deletes one without sales) and
/// restored (PATCH `{"archived": false}`). Archived clinics keep their sales and figures.
struct ClinicsController: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {}

    func registerAPI<G>(on api: Registrar<G>) {
        api.get("/clinics", use: list)
        api.post("/clinics", use: create)
        api.get("/clinics/:id", use: read)
        api.patch("/clinics/:id", use: change)
        api.delete("/clinics/:id", use: archive)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let presenter = try await app.presenter()
        if let name = request.uri.queryParameters["name"] {
            return try app.json([presenter.clinic(try await app.store.clinic(named: String(name)))])
        }
        return try app.json(
            try await app.store.clinics(
                ClinicQuery(
                    text: request.uri.queryParameters["q"].map(String.init),
                    includeArchived: try QueryParameter.flag(request, "includeArchived"),
                    page: try QueryParameter.page(request)
                )
            ).map(presenter.clinic)
        )
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let clinic = try await app.store.createClinic(
            try BookJob.clinicDraft(try await app.body(API.ClinicInput.self, request, context: context))
        )
        return try app.json(try await app.presenter().clinic(clinic), status: .created)
    }

    @Sendable func read(_ request: Request, context: AppRequestContext) async throws -> Response {
        try app.json(try await app.presenter().clinic(try await app.clinic(context)))
    }

    @Sendable func change(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await app.body(API.ClinicPatch.self, request, context: context)
        var clinic = try await app.clinic(context)
        if let name = input.name { clinic.name = name }
        if let schedule = input.schedule { clinic.schedule = try PaySchedule(parsing: schedule) }
        if let changes = input.scheduleChanges {
            clinic.scheduleChanges = try changes.map { change in
                ScheduleChange(
                    effectiveFrom: try app.day(
                        change.effectiveFrom,
                        field: "effectiveFrom",
                        default: .init(ordinal: 0)
                    ),
                    schedule: try PaySchedule(parsing: change.schedule)
                )
            }
        }
        if let archived = input.archived { clinic.isArchived = archived }
        return try app.json(try await app.presenter().clinic(try await app.store.updateClinic(clinic)))
    }

    @Sendable func archive(_ request: Request, context: AppRequestContext) async throws -> Response {
        if try QueryParameter.flag(request, "permanently") {
            try await app.store.deleteClinic(try await app.clinic(context).id)
            return Response(status: .noContent)
        }
        var clinic = try await app.clinic(context)
        clinic.isArchived = true
        return try app.json(try await app.presenter().clinic(try await app.store.updateClinic(clinic)))
    }
}
