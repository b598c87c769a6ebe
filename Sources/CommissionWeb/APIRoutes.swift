import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle

/// Server-Sent Events: the dashboard, pushed after every committed change that touches it —
/// driven by the store's live query (shared by all streams through a ``DashboardHub``), not by polling.
enum Events {
    static func stream(hub: DashboardHub) -> Response {
        let events = hub.subscribe()
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store", .init("X-Accel-Buffering")!: "no"],
            body: ResponseBody { writer in
                for await event in events.cancelOnGracefulShutdown() {
                    try await writer.write(ByteBuffer(string: event))
                }
                try await writer.finish(nil)
            })
    }
}

/// An export named like a file (`sales.csv`, `clinics.json`), as a download. Shared by the page and the API.
func exportResponse(file: String, store: any WebStore) async throws -> Response {
    let parts = file.split(separator: ".")
    guard parts.count == 2, let kind = ExportKind(rawValue: String(parts[0])), let format = OutputFormat(rawValue: String(parts[1])),
          format != .table else {
        throw Problem(.notFound, "There is no export named \(file): try sales.csv or clinics.json.")
    }
    let renderer = Renderer(currency: try await store.settings().currency)
    return Response(status: .ok, headers: [.contentType: format == .csv ? "text/csv; charset=utf-8" : "application/json",
                                           .contentDisposition: "attachment; filename=\"\(file)\""],
                    body: .init(byteBuffer: ByteBuffer(string: renderer.render(try await renderer.export(kind, from: store), as: format))))
}

/// The OpenAPI 3.1 document of the API, kept in the repository at
/// `Sources/CommissionWeb/Resources/openapi.json` and served at `/api/v1/openapi.json`.
public enum OpenAPI {
    public static func document() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json") else {
            throw Problem(.internalServerError, "The OpenAPI document is missing from this build.")
        }
        return try Data(contentsOf: url)
    }
}

/// The JSON API under `/api/v1`. Amounts are decimal strings; errors are RFC 9457 problem details.
struct APIRoutes: Sendable {
    let store: any WebStore
    let hub: DashboardHub
    /// Links the API hands out (invitations) are https: the server is behind TLS.
    let secureLinks: Bool

    func register<G>(on api: Registrar<G>) {
        api.get("/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: try OpenAPI.document())))
        }
        api.get("/dashboard") { request, _ in try await dashboard(request) }
        api.get("/events") { _, _ in Events.stream(hub: hub) }
        api.get("/clinics") { _, _ in try json(try await store.clinics(ClinicQuery()).map(ClinicJSON.init)) }
        api.post("/clinics") { request, context in try await createClinic(request, context: context) }
        api.get("/products") { _, _ in try await productsJSON() }
        api.post("/products") { request, context in try await createProduct(request, context: context) }
        api.get("/terms") { _, _ in try json(try await store.terms(TermsQuery()).map(TermsJSON.init)) }
        api.post("/terms") { request, context in try await createTerms(request, context: context) }
        api.get("/sales") { request, _ in try await listSales(request) }
        api.post("/sales") { request, context in try await createSale(request, context: context) }
        api.get("/sales/:id") { _, context in try await saleJSON(try await store.sale(Sale.ID(try context.parameters.require("id", as: Int64.self)))) }
        api.get("/sales/:id/history") { _, context in try await saleHistory(context: context) }
        api.post("/sales/:id/void") { _, context in try await saleJSON(try await store.voidSale(Sale.ID(try context.parameters.require("id", as: Int64.self)))) }
        api.get("/clinics/:id/statement") { request, context in try await statement(request, context: context) }
        api.get("/clinics/:id/reconciliation") { request, context in try await reconciliation(request, context: context) }
        api.post("/sales/:id") { request, context in try await updateSale(request, context: context) }
        api.post("/clinics/:id/close") { request, context in try await closePeriod(request, context: context, close: true) }
        api.post("/clinics/:id/reopen") { request, context in try await closePeriod(request, context: context, close: false) }
        api.post("/import") { request, context in try await importCSV(request, context: context) }
        api.get("/export/:file") { _, context in try await export(context: context) }
        api.get("/settings") { _, _ in try json(SettingsJSON(try await store.settings())) }
        api.post("/settings") { request, context in try await updateSettings(request, context: context) }
        api.get("/tokens") { _, context in try await listTokens(context: context) }
        api.post("/tokens") { request, context in try await createToken(request, context: context) }
        api.post("/tokens/:id/revoke") { _, context in try await revokeToken(context: context) }
        api.get("/payouts") { _, _ in try await payoutsJSON() }
        api.post("/payouts") { request, context in try await createPayout(request, context: context) }
        api.get("/members") { _, _ in try json(try await store.members().map { MemberJSON(id: $0.account.id.rawValue, username: $0.account.username, role: $0.role.rawValue) }) }
        api.post("/invitations") { request, context in try await invite(request, context: context) }
    }

    // MARK: Shapes

    struct ClinicJSON: Codable {
        var id: Int64
        var name: String
        var schedule: String
        var archived: Bool
        init(_ clinic: Clinic) {
            id = clinic.id.rawValue
            name = clinic.name
            schedule = clinic.schedule.description
            archived = clinic.isArchived
        }
    }

    struct ProductJSON: Codable {
        var id: Int64
        var name: String
        var sku: String?
        var unitPrice: String
        var unitCost: String
        var archived: Bool
    }

    struct TermsJSON: Codable {
        var id: Int64
        var clinicId: Int64
        var productId: Int64?
        var basis: String
        var share: String
        var effectiveFrom: String
        init(_ terms: Terms) {
            id = terms.id.rawValue
            clinicId = terms.clinicID.rawValue
            productId = terms.productID?.rawValue
            basis = terms.basis.rawValue
            share = terms.share.percentText
            effectiveFrom = terms.effectiveFrom.description
        }
    }

    struct SaleJSON: Codable {
        var id: Int64
        var clinicId: Int64
        var productId: Int64
        var date: String
        var quantity: Int64
        var unitPrice: String
        var unitCost: String
        var discount: String
        var noCommission: Bool
        var share: String?
        var basis: String?
        var revenue: String
        var cost: String
        var profit: String
        var commission: String
        var note: String?
        var voided: Bool
    }

    struct PayoutJSON: Codable {
        var id: Int64
        var clinicId: Int64
        var periodStart: String
        var periodEnd: String
        var amount: String
        var receivedOn: String
        var reference: String?
    }

    // MARK: Helpers

    func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }

    func rawJSON(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    func body<T: Decodable>(_ type: T.Type, _ request: Request, context: AppRequestContext) async throws -> T {
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        guard buffer.readableBytes > 0 else { throw Problem(.badRequest, "The request has no body: send a JSON object.") }
        return try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
    }

    func encode(_ sale: Sale, currency: Currency) -> SaleJSON {
        SaleJSON(id: sale.id.rawValue, clinicId: sale.clinicID.rawValue, productId: sale.productID.rawValue, date: sale.date.description,
                 quantity: sale.quantity, unitPrice: currency.format(sale.line.unitPrice), unitCost: currency.format(sale.line.unitCost),
                 discount: currency.format(sale.line.discount), noCommission: sale.isNoCommission, share: sale.line.rate?.share.percentText,
                 basis: sale.line.rate?.basis.rawValue, revenue: currency.format(sale.figures.revenue), cost: currency.format(sale.figures.cost),
                 profit: currency.format(sale.figures.profit), commission: currency.format(sale.figures.commission), note: sale.note,
                 voided: sale.isVoided)
    }

    func saleJSON(_ sale: Sale, status: HTTPResponse.Status = .ok) async throws -> Response {
        let currency = try await store.settings().currency
        var headers: HTTPFields = [:]
        if status == .created { headers[.location] = "/api/v1/sales/\(sale.id)" }
        return try json(encode(sale, currency: currency), status: status, headers: headers)
    }

    func day(_ text: String?, field: String, default fallback: Day) throws -> Day {
        guard let text else { return fallback }
        do { return try Day(parsing: text) } catch { throw Problem(.unprocessableContent, "The \(field): \(error)") }
    }

    /// The date a query parameter gives (`?date=2026-11-02`), when it is one the book takes
    /// (``AcceptedDays``; a 422 otherwise), or nil when the parameter is absent.
    func queryDay(_ request: Request, _ name: String, settings: BookSettings) throws -> Day? {
        guard let text = request.uri.queryParameters[Substring(name)].map(String.init) else { return nil }
        let day = try day(text, field: name, default: .init(ordinal: 0))
        try AcceptedDays(today: settings.today()).check(day, field: name)
        return day
    }

    func money(_ text: String?, field: String, currency: Currency) throws -> Money? {
        guard let text else { return nil }
        do { return try currency.parse(text) } catch { throw Problem(.unprocessableContent, "The \(field): \(error)") }
    }

    func clinicID(_ id: Int64?, name: String?) async throws -> Clinic.ID {
        if let id { return Clinic.ID(id) }
        if let name { return try await store.clinic(named: name).id }
        throw Problem(.unprocessableContent, "Name the clinic: \"clinicId\" or \"clinic\".")
    }

    func productID(_ id: Int64?, name: String?) async throws -> Product.ID {
        if let id { return Product.ID(id) }
        if let name { return try await store.product(named: name).id }
        throw Problem(.unprocessableContent, "Name the product: \"productId\" or \"product\" (a name or SKU).")
    }

    // MARK: Handlers

    func dashboard(_ request: Request) async throws -> Response {
        let settings = try await store.settings()
        let today = try queryDay(request, "date", settings: settings) ?? settings.today()
        return rawJSON(Renderer(currency: settings.currency).render(try await store.dashboard(today: today), as: .json))
    }

    struct ClinicBody: Decodable { var name: String; var schedule: String? }

    func createClinic(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await body(ClinicBody.self, request, context: context)
        let clinic = try await store.createClinic(ClinicDraft(name: input.name, schedule: try PaySchedule(parsing: input.schedule ?? "monthly")))
        return try json(ClinicJSON(clinic), status: .created)
    }

    func productJSON(_ product: Product, _ currency: Currency) -> ProductJSON {
        ProductJSON(id: product.id.rawValue, name: product.name, sku: product.sku, unitPrice: currency.format(product.unitPrice),
                    unitCost: currency.format(product.unitCost), archived: product.isArchived)
    }

    func productsJSON() async throws -> Response {
        let currency = try await store.settings().currency
        return try json(try await store.products(ProductQuery()).map { productJSON($0, currency) })
    }

    struct ProductBody: Decodable { var name: String; var sku: String?; var unitPrice: String; var unitCost: String? }

    func createProduct(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await body(ProductBody.self, request, context: context)
        let currency = try await store.settings().currency
        let product = try await store.createProduct(ProductDraft(
            name: input.name, sku: input.sku, unitPrice: try money(input.unitPrice, field: "unitPrice", currency: currency) ?? .zero,
            unitCost: try money(input.unitCost, field: "unitCost", currency: currency) ?? .zero))
        return try json(productJSON(product, currency), status: .created)
    }

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
        let input = try await body(TermsBody.self, request, context: context)
        guard let basis = CommissionBasis(rawValue: input.basis ?? "profit") else {
            throw Problem(.unprocessableContent, "The basis is \"profit\" or \"revenue\".")
        }
        let product: Product.ID? = input.productId != nil || input.product != nil ? try await productID(input.productId, name: input.product) : nil
        let change = try await store.createTerms(TermsDraft(
            clinicID: try await clinicID(input.clinicId, name: input.clinic), productID: product, basis: basis,
            share: try Share(parsing: input.share), effectiveFrom: try day(input.effectiveFrom, field: "effectiveFrom", default: .init(ordinal: 0))))
        return try json(TermsChangeJSON(terms: TermsJSON(change.terms), recomputedSales: change.recomputedSales,
                                        salesInClosedPeriods: change.salesInClosedPeriods), status: .created)
    }

    func listSales(_ request: Request) async throws -> Response {
        let settings = try await store.settings()
        let currency = settings.currency
        let query = request.uri.queryParameters
        func int(_ key: String) throws -> Int64? {
            guard let text = query[Substring(key)] else { return nil }
            guard let value = Int64(String(text)) else { throw Problem(.badRequest, "The query parameter \(key) is a whole number.") }
            return value
        }
        let limit = Int(try int("limit") ?? 50)
        guard (1...1000).contains(limit) else { throw Problem(.badRequest, "The limit is between 1 and 1000.") }
        let offset = try int("offset") ?? 0
        guard (0...1_000_000_000).contains(offset) else { throw Problem(.badRequest, "The offset is between 0 and 1000000000.") }
        let voided = query["voided"]
        guard voided == nil || voided == "true" || voided == "false" else { throw Problem(.badRequest, "The query parameter voided is true or false.") }
        let saleQuery = SaleQuery(
            clinicID: try int("clinicId").map { Clinic.ID($0) }, productID: try int("productId").map { Product.ID($0) },
            from: try queryDay(request, "from", settings: settings), through: try queryDay(request, "to", settings: settings),
            text: query["q"].map(String.init), includeVoided: voided == "true",
            page: Page(limit: limit, offset: Int(offset)))
        struct Listing: Encodable { var total: Int; var sales: [SaleJSON] }
        return try json(Listing(total: try await store.countSales(saleQuery),
                                sales: try await store.sales(saleQuery).map { encode($0, currency: currency) }))
    }

    struct SaleBody: Decodable {
        var clinicId: Int64?
        var clinic: String?
        var productId: Int64?
        var product: String?
        var date: String?
        var quantity: Int64?
        var unitPrice: String?
        var unitCost: String?
        var discount: String?
        var noCommission: Bool?
        var note: String?
    }

    func createSale(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await body(SaleBody.self, request, context: context)
        let settings = try await store.settings()
        let currency = settings.currency
        let draft = SaleDraft(
            clinicID: try await clinicID(input.clinicId, name: input.clinic),
            productID: try await productID(input.productId, name: input.product),
            date: try day(input.date, field: "date", default: settings.today()), quantity: input.quantity ?? 1,
            unitPrice: try money(input.unitPrice, field: "unitPrice", currency: currency),
            unitCost: try money(input.unitCost, field: "unitCost", currency: currency),
            discount: try money(input.discount, field: "discount", currency: currency) ?? .zero,
            noCommission: input.noCommission ?? false, note: input.note)
        let sale = try await store.createSale(draft, idempotencyKey: request.headers[.idempotencyKey])
        return try await saleJSON(sale, status: .created)
    }

    /// The period of `clinic` that holds `?date=` (today by default). `anyDate` lets through a date
    /// the book would not take now, for reopening a period stored before dates were bounded.
    func period(_ request: Request, clinic: Clinic, anyDate: Bool = false) async throws -> PayPeriod {
        let settings = try await store.settings()
        let date = anyDate ? try day(request.uri.queryParameters["date"].map(String.init), field: "date", default: settings.today())
            : try queryDay(request, "date", settings: settings) ?? settings.today()
        return clinic.schedule.period(containing: date)
    }

    func statement(_ request: Request, context: AppRequestContext) async throws -> Response {
        let clinic = try await store.clinic(Clinic.ID(try context.parameters.require("id", as: Int64.self)))
        let statement = try await store.statement(clinic: clinic.id, period: try await period(request, clinic: clinic))
        return rawJSON(Renderer(currency: try await store.settings().currency).render(statement, as: .json))
    }

    func reconciliation(_ request: Request, context: AppRequestContext) async throws -> Response {
        let settings = try await store.settings()
        let clinic = try await store.clinic(Clinic.ID(try context.parameters.require("id", as: Int64.self)))
        let today = try queryDay(request, "date", settings: settings) ?? settings.today()
        let reconciliation = try await store.reconciliation(clinic: clinic.id, today: today)
        return rawJSON(Renderer(currency: settings.currency).json(reconciliation))
    }

    func updateSale(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = Sale.ID(try context.parameters.require("id", as: Int64.self))
        let input = try await body(SaleBody.self, request, context: context)
        let currency = try await store.settings().currency
        let old = try await store.sale(id)
        // Fields left out keep the sale's values.
        let draft = SaleDraft(
            clinicID: input.clinicId != nil || input.clinic != nil ? try await clinicID(input.clinicId, name: input.clinic) : old.clinicID,
            productID: input.productId != nil || input.product != nil ? try await productID(input.productId, name: input.product) : old.productID,
            date: try day(input.date, field: "date", default: old.date), quantity: input.quantity ?? old.quantity,
            unitPrice: try money(input.unitPrice, field: "unitPrice", currency: currency) ?? old.line.unitPrice,
            unitCost: try money(input.unitCost, field: "unitCost", currency: currency) ?? old.line.unitCost,
            discount: try money(input.discount, field: "discount", currency: currency) ?? old.line.discount,
            noCommission: input.noCommission ?? old.isNoCommission, note: input.note ?? old.note)
        return try await saleJSON(try await store.updateSale(id, with: draft))
    }

    struct PeriodJSON: Encodable { var clinicId: Int64; var periodStart: String; var periodEnd: String; var closed: Bool }

    func closePeriod(_ request: Request, context: AppRequestContext, close: Bool) async throws -> Response {
        let clinic = try await store.clinic(Clinic.ID(try context.parameters.require("id", as: Int64.self)))
        let period = try await period(request, clinic: clinic, anyDate: !close)
        if close {
            try await store.closePeriod(clinic: clinic.id, period: period)
        } else {
            try await store.reopenPeriod(clinic: clinic.id, period: period)
        }
        return try json(PeriodJSON(clinicId: clinic.id.rawValue, periodStart: period.start.description, periodEnd: period.end.description, closed: close))
    }

    struct ImportJSON: Encodable { var kind: String; var dryRun: Bool; var clinics: Int; var products: Int; var terms: Int; var sales: Int }

    /// `POST /api/v1/import?kind=sales&dryRun=true&decimalComma=true` with the CSV as the body.
    func importCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        let query = request.uri.queryParameters
        var kind: ImportKind?
        if let text = query["kind"] {
            guard let parsed = ImportKind(rawValue: String(text)) else { throw Problem(.badRequest, "The kind is clinics, products, terms or sales.") }
            kind = parsed
        }
        let source: CSVImportSource
        do {
            source = try CSVImportSource(origin: .data(Data(buffer: buffer), name: "The request body"), kind: kind,
                                         format: CSVFormat(decimalComma: query["decimalComma"] == "true"),
                                         currency: try await store.settings().currency)
        } catch let error as CSVFileError {
            throw Problem(.unprocessableContent, error.description)
        }
        let summary = try await store.importRows(from: source, options: ImportOptions(dryRun: query["dryRun"] == "true"))
        return try json(ImportJSON(kind: source.kind.rawValue, dryRun: summary.dryRun, clinics: summary.clinics, products: summary.products,
                                   terms: summary.terms, sales: summary.sales), status: summary.dryRun ? .ok : .created)
    }

    /// `GET /api/v1/export/sales.csv`, `…/clinics.json` and so on.
    func export(context: AppRequestContext) async throws -> Response {
        try await exportResponse(file: try context.parameters.require("file"), store: store)
    }

    struct SettingsJSON: Codable {
        var currency: String
        var timeZone: String
        var rounding: String
        var roundingScope: String
        init(_ settings: BookSettings) {
            currency = settings.currency.code
            timeZone = settings.timeZoneIdentifier
            rounding = settings.rounding.rule.rawValue
            roundingScope = settings.rounding.scope.rawValue
        }
    }

    struct SettingsBody: Decodable { var currency: String?; var timeZone: String?; var rounding: String?; var roundingScope: String? }

    func updateSettings(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await requireOwner(context, store: store, to: "change the book's settings")
        let input = try await body(SettingsBody.self, request, context: context)
        var settings = try await store.settings()
        if let code = input.currency { settings.currency = try Currency(code: code) }
        if let zone = input.timeZone { settings.timeZoneIdentifier = zone }
        if let rule = input.rounding {
            guard let parsed = RoundingRule(rawValue: rule) else { throw Problem(.unprocessableContent, "The rounding is half-away-from-zero or half-to-even.") }
            settings.rounding.rule = parsed
        }
        if let scope = input.roundingScope {
            guard let parsed = RoundingScope(rawValue: scope) else { throw Problem(.unprocessableContent, "The rounding scope is per-line or per-statement.") }
            settings.rounding.scope = parsed
        }
        try await store.updateSettings(settings)
        return try json(SettingsJSON(settings))
    }

    struct TokenJSON: Encodable { var id: Int64; var name: String; var createdAt: Date; var lastUsedAt: Date?; var token: String? }

    func account(_ context: AppRequestContext) throws -> Account {
        guard let account = context.caller.account else { throw Problem(.unauthorized, "Sign in first.") }
        return account
    }

    func listTokens(context: AppRequestContext) async throws -> Response {
        let tokens = try await store.tokens(account: try account(context).id)
        return try json(tokens.map { TokenJSON(id: $0.id.rawValue, name: $0.name, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt, token: nil) })
    }

    struct TokenBody: Decodable { var name: String }

    func createToken(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await body(TokenBody.self, request, context: context)
        let secret = "cm_" + Secret.make()
        let token = try await store.createToken(account: try account(context).id, name: input.name, tokenDigest: Secret.digest(secret), now: Date())
        return try json(TokenJSON(id: token.id.rawValue, name: token.name, createdAt: token.createdAt, lastUsedAt: nil, token: secret), status: .created)
    }

    func revokeToken(context: AppRequestContext) async throws -> Response {
        try await store.revokeToken(APIToken.ID(try context.parameters.require("id", as: Int64.self)), account: try account(context).id)
        return Response(status: .noContent)
    }

    struct AuditJSON: Encodable {
        var id: Int64
        var at: Date
        var actor: String
        var subject: String
        var subjectId: Int64?
        var lastSubjectId: Int64?
        var action: String
        var before: String?
        var after: String?
        var changes: String
    }

    /// Every change on record of one sale, newest first (an import that created it included).
    func saleHistory(context: AppRequestContext) async throws -> Response {
        let sale = try await store.sale(Sale.ID(try context.parameters.require("id", as: Int64.self)))
        let currency = try await store.settings().currency
        return try json(try await store.auditLog(AuditQuery(subject: .sale, subjectID: sale.id.rawValue)).map {
            AuditJSON(id: $0.id.rawValue, at: $0.at, actor: $0.actor, subject: $0.subject.rawValue, subjectId: $0.subjectID,
                      lastSubjectId: $0.lastSubjectID, action: $0.action, before: $0.before, after: $0.after, changes: $0.changes(currency: currency))
        })
    }

    struct MemberJSON: Encodable {
        var id: Int64
        var username: String
        var role: String
    }

    struct InvitationBody: Decodable { var role: String? }

    struct InvitationJSON: Encodable {
        var url: String
        var path: String
        var role: String
        var expiresAt: Date
    }

    func invite(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await body(InvitationBody.self, request, context: context)
        guard let role = MemberRole(rawValue: input.role ?? MemberRole.member.rawValue) else {
            throw Problem(.unprocessableContent, "The role is member or owner.")
        }
        let link = try await createInvitation(request, context: context, role: role, store: store, secure: secureLinks)
        return try json(InvitationJSON(url: link.url, path: link.path, role: role.rawValue, expiresAt: link.expiresAt), status: .created)
    }

    func encode(_ payout: Payout, currency: Currency) -> PayoutJSON {
        PayoutJSON(id: payout.id.rawValue, clinicId: payout.clinicID.rawValue, periodStart: payout.period.start.description,
                   periodEnd: payout.period.end.description, amount: currency.format(payout.amount),
                   receivedOn: payout.receivedOn.description, reference: payout.reference)
    }

    func payoutsJSON() async throws -> Response {
        let currency = try await store.settings().currency
        return try json(try await store.payouts(PayoutQuery()).map { encode($0, currency: currency) })
    }

    struct PayoutBody: Decodable {
        var clinicId: Int64?
        var clinic: String?
        /// Any day of the period paid for.
        var period: String
        var amount: String
        var receivedOn: String?
        var reference: String?
    }

    func createPayout(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await body(PayoutBody.self, request, context: context)
        let settings = try await store.settings()
        let clinic = try await store.clinic(try await clinicID(input.clinicId, name: input.clinic))
        let payout = try await store.createPayout(PayoutDraft(
            clinicID: clinic.id, period: clinic.schedule.period(containing: try day(input.period, field: "period", default: settings.today())),
            amount: try money(input.amount, field: "amount", currency: settings.currency) ?? .zero,
            receivedOn: try day(input.receivedOn, field: "receivedOn", default: settings.today()), reference: input.reference))
        return try json(encode(payout, currency: settings.currency), status: .created)
    }
}
