import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import HTTPTypes
import Hummingbird
import Logging

// The web app is laid out by the jobs she does (see docs/architecture.md): entry, sales, dashboard,
// statements, compare, payouts, book (clinics, products, terms), transfer, account and settings. Each job
// serves its pages and its `/api/v1` routes from one file, over the shapes of ``Presenter``.

/// A job of the web app: registers its open routes (sign-in and the like), its pages (for a
/// signed-in caller) and its API routes.
protocol Job: Sendable {
    init(_ app: WebApp)
    func registerPublic<G>(on router: Registrar<G>)
    func registerPages<G>(on pages: Registrar<G>)
    func registerAPI<G>(on api: Registrar<G>)
}

extension Job {
    func registerPublic<G>(on router: Registrar<G>) {}
    func registerAPI<G>(on api: Registrar<G>) {}
}

/// What every job works with: the book's store, the compiled pages, the server's configuration
/// and the book's live dashboard hub.
struct WebApp: Sendable, TemplateValues {
    let store: any WebStore
    let pages: Pages
    let configuration: WebConfiguration
    /// The dashboard's headline for the API's event streams.
    let hub: LiveHub<HeadlineRequest>
    /// The dashboard page's body for the pages' event streams, rendered once per change.
    let pageHub: LiveHub<DashboardPageRequest>
    let throttle: LoginThrottle
    /// A backup uploaded to restore, waiting for the owner's confirmation.
    let staging: RestoreStaging
    /// A workbook uploaded and checked, waiting for "Import".
    let importStaging: RestoreStaging
    /// Whether `/setup` may create the book's owner now (see `buildRouter`).
    let setupIsOpen: @Sendable () async throws -> Bool
    /// The sample book set-up offers, on a server of one book.
    var sample: SampleBook?

    /// The jobs, in the order their routes are registered.
    static let jobs: [any Job.Type] = [
        AccountJob.self, EntryJob.self, SalesJob.self, DashboardJob.self, StatementsJob.self, CompareJob.self,
        PayoutsJob.self, BookJob.self, ClinicsController.self, ProductsController.self, TermsController.self,
        PricesController.self, DeductionsController.self, WelcomeJob.self, TransferJob.self, SettingsJob.self,
        NotificationsJob.self, RemoteStoreJob.self,
    ]

    // MARK: Imports

    /// What an import made is counted, and the first sales of a book ask about her history
    /// (``UnconfirmedHistory/askAfterImport(_:into:)``). The import is in by then: a failure to ask
    /// is logged, never said as the import's.
    func imported(_ summary: ImportSummary) async {
        configuration.metrics?.imported(summary)
        do { try await UnconfirmedHistory.askAfterImport(summary, into: store) } catch {
            Logger(label: "commission").warning("The question about an imported history was not opened: \(error)")
        }
    }

    // MARK: Pages

    /// A page of the book drawn from its typed view, in the book's language.
    func page(
        _ template: String,
        view: some PageView,
        title: String,
        nav: String? = nil,
        context: AppRequestContext,
        status: HTTPResponse.Status = .ok,
        message: String? = nil,
        messageLink: PageLink? = nil,
        error: String? = nil,
        errorLink: PageLink? = nil
    ) async throws -> Response {
        let lang = try await store.settings().localeIdentifier.replacingOccurrences(of: "_", with: "-")
        return pages.page(
            template,
            view: view,
            title: title,
            nav: nav,
            context: context,
            status: status,
            message: message,
            messageLink: messageLink,
            error: error,
            errorLink: errorLink,
            lang: lang
        )
    }

    /// Runs a page's form: on a refusal (any 4xx) the page is drawn again with the sentence, and
    /// with the status of the refusal; anything else is the error middleware's.
    func form(
        _ body: () async throws -> Response,
        otherwise redraw: (_ error: String, _ status: HTTPResponse.Status) async throws -> Response
    ) async throws -> Response {
        try await form(body, refused: { refusal in try await redraw(refusal.detail, .init(code: refusal.status)) })
    }

    /// Runs a page's form: on a refusal (any 4xx) the page is drawn again with the refusal (its
    /// sentence in the page's words, the link to the form that settles it, its status); anything
    /// else is the error middleware's.
    func form(
        _ body: () async throws -> Response,
        refused redraw: (_ refusal: Problem) async throws -> Response
    ) async throws -> Response {
        do {
            return try await body()
        } catch {
            // try?: without the book's settings, a refusal's amounts are written as its currency writes them
            let style = try? await store.settings().style
            let problem = Problem.from(error, on: .page, style: style)
            guard problem.status < 500 else { throw error }
            return try await redraw(problem)
        }
    }

    /// Saves the mapping her form made of a file's columns (`map<N>` is the field of column N,
    /// `mappingName` its name; ``ColumnMappingView``) and returns it.
    func saveMapping(_ form: Form, origin: CSVImportSource.Origin, kind: ImportKind?) async throws -> ImportMapping {
        guard let mappings = store as? any ImportMappings else {
            throw Problem(.conflict, "This book's store keeps no column mappings.")
        }
        let headers = try CSVImportSource.firstRows(of: origin).headers
        let pairs = headers.enumerated().compactMap { index, header in
            form.values["map\(index)"].map { (header: header, field: $0) }
        }
        let mapping = try ImportMapping.forImport(
            name: form["mappingName"] ?? "",
            kind: kind,
            headers: headers,
            pairs: pairs
        )
        try await mappings.saveMapping(mapping)
        return mapping
    }

    /// A pasted statement's columns beside the fields its reader takes (`required` said so), her
    /// saved mapping for its headers chosen already: where a page shows them when they were not known.
    func columnTable(
        _ origin: CSVImportSource.Origin,
        fields: [String],
        required: [String],
        form: Form,
        button: String
    ) async throws -> ColumnMappingView {
        try ColumnMappingView(
            origin: origin,
            fields: fields,
            required: required,
            form: form,
            mappings: try await (store as? any ImportMappings)?.mappings() ?? [],
            button: button
        )
    }

    /// A CSV file pasted (or chosen) on a page, read by `make` (a bank statement, a clinic's
    /// statement) with her saved column mappings; a file or rows that cannot be read become a 422
    /// that says why (`what` names the file, `rows` its rows: "line", "row").
    /// `mapping` names the saved column mapping she chose to read it with (none: the one saved for its headers, if any).
    func readPasted<T>(
        _ text: String,
        what: String,
        rows: String,
        dates: DateOrder?,
        decimalComma: Bool,
        mapping: String = "",
        _ make: (CSVImportSource.Origin, CSVFormat) throws -> T
    ) async throws -> T {
        try await readFile(
            Data(text.utf8),
            what: what,
            rows: rows,
            dates: dates,
            decimalComma: decimalComma,
            mapping: mapping,
            on: .page,
            make
        )
    }

    /// A file as it came (pasted text, an API request's body: a CSV, a bank's own format, a PDF),
    /// read by `make` as ``readPasted(_:what:rows:dates:decimalComma:mapping:_:)`` reads text, its
    /// refusals in `surface`'s words.
    func readFile<T>(
        _ data: Data,
        what: String,
        rows: String,
        dates: DateOrder?,
        decimalComma: Bool,
        mapping: String = "",
        on surface: Surface,
        _ make: (CSVImportSource.Origin, CSVFormat) throws -> T
    ) async throws -> T {
        let saved = try await (store as? any ImportMappings)?.mappings() ?? []
        let given = mapping.isEmpty ? nil : saved.first { $0.name.lowercased() == mapping.lowercased() }
        if !mapping.isEmpty, given == nil {
            var problem = Problem(
                .unprocessableContent,
                surface == .api
                    ? "There is no saved column mapping named “\(mapping)”: name one the book keeps, or leave mapping out."
                    : "There is no saved column mapping named “\(mapping)”: choose another."
            )
            problem.field = "mapping"
            throw problem
        }
        do {
            return try make(
                .data(data, name: what),
                CSVFormat(decimalComma: decimalComma, dates: dates, mapping: given, saved: saved)
            )
        } catch let error as CSVFileError {
            switch error {
            case .missingColumns, .unknownKind: throw UnknownColumns(said: error.description)
            default: throw Problem(.unprocessableContent, error.description)
            }
        } catch let error as BankFileError {
            throw Problem(.unprocessableContent, error.description)
        } catch let error as PDFTableError {
            throw Problem(.unprocessableContent, error.said(on: surface))
        } catch StoreError.importRejected(let problems, let total) {
            // One problem of many rows said once, with its lines.
            let groups = ImportProblem.grouped(problems, on: surface)
            throw Problem(
                .unprocessableContent,
                "\(what) has \(total) \(rows)\(total == 1 ? "" : "s") that cannot be read: "
                    + groups.prefix(3).map(\.description).joined(separator: "; ")
                    + (total > problems.count || groups.count > 3 ? "…" : ".")
            )
        }
    }

    /// Whether the page's script asked for a JSON answer (`Accept: application/json`) rather than
    /// the next page: the offline queue sends the same forms that way.
    static func wantsJSON(_ request: Request) -> Bool {
        request.headers[.accept]?.contains("application/json") ?? false
    }

    // MARK: API

    func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response
    {
        json(body: ByteBuffer(string: Presenter.encode(value, pretty: false)), status: status, headers: headers)
    }

    /// A body as compact JSON already written (``Presenter/json(_:)``).
    func json(bytes: [UInt8], status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        json(body: ByteBuffer(bytes: bytes), status: status, headers: headers)
    }

    private func json(body: ByteBuffer, status: HTTPResponse.Status, headers: HTTPFields) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: body))
    }

    func presenter() async throws -> Presenter { Presenter(currency: try await store.settings().currency) }

    /// The request's JSON body as `T`; an empty or malformed body is a 400 with a sentence.
    func body<T: Decodable>(_ type: T.Type, _ request: Request, context: AppRequestContext) async throws -> T {
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        guard buffer.readableBytes > 0 else {
            throw Problem(.badRequest, "The request has no body: send a JSON object.")
        }
        if let flat = T.self as? any FlatDecodable.Type,
            let value = buffer.withUnsafeReadableBytes({ FlatJSON.members($0).flatMap(flat.init(members:)) }) as? T
        {
            return value
        }
        let data = Data(buffer: buffer)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw Problem(
                .badRequest,
                "The request body is not the JSON this endpoint expects: \(Problem.describe(error, in: data))"
            )
        }
    }

    /// A choice a body made (a basis, a rounding rule) as the domain's, or nil when it made none.
    /// The document lets some be `null` (which the generator spells as an empty string): a choice
    /// the domain lacks is refused, naming the ones it has.
    func choice<Domain: RawRepresentable & CaseIterable>(
        _ value: (some RawRepresentable<String>)?,
        field: String
    ) throws -> Domain?
    where Domain.RawValue == String {
        guard let value else { return nil }
        guard let domain = Domain(rawValue: value.rawValue) else {
            throw Problem(
                .badRequest,
                "The request body is not the JSON this endpoint expects: the field \"\(field)\" is "
                    + Domain.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ") + "."
            )
        }
        return domain
    }

    /// The day `text` gives, or `fallback` (only worked out when there is no text: today is the
    /// book's time zone looked up).
    func day(_ text: String?, field: String, default fallback: @autoclosure () -> Day) throws -> Day {
        guard let text else { return fallback() }
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

    /// The period of `clinic` that holds `?date=` (today by default). `anyDate` lets through a date
    /// the book would not take now, for reopening a period stored before dates were bounded.
    func period(_ request: Request, clinic: Clinic, anyDate: Bool = false) async throws -> PayPeriod {
        let settings = try await store.settings()
        let date =
            anyDate
            ? try day(request.uri.queryParameters["date"].map(String.init), field: "date", default: settings.today())
            : try queryDay(request, "date", settings: settings) ?? settings.today()
        return clinic.calendar.period(containing: date)
    }

    /// `first`…`last` as a span of days (a period, a range), refused with `status` when it ends
    /// before it starts.
    func span(_ first: Day, _ last: Day, _ what: String, status: HTTPResponse.Status = .badRequest) throws -> PayPeriod
    {
        guard first <= last else { throw Problem(status, "The \(what) ends (\(last)) before it starts (\(first)).") }
        return PayPeriod(start: first, end: last)
    }

    /// The clinic a route's `:id` names.
    func clinic(_ context: AppRequestContext) async throws -> Clinic {
        try await store.clinic(Clinic.ID(try context.parameters.require("id", as: Int64.self)))
    }

    /// The signed-in account; a 401 when there is none.
    func account(_ context: AppRequestContext) throws -> Account {
        guard let account = context.caller.account else { throw Problem(.unauthorized, "Sign in first.") }
        return account
    }

    /// Refuses a caller who is not an owner of the book.
    func requireOwner(_ context: AppRequestContext, to action: String) async throws {
        guard let account = context.caller.account, try await store.role(of: account.id) == .owner else {
            throw Problem(.forbidden, "Only an owner of the book can \(action).")
        }
    }
}

extension AppRequestContext {
    /// The session's CSRF token, for the forms of a page.
    var csrfToken: String? {
        if case .session(let session, _) = caller { return session.csrfToken }
        return nil
    }
}

extension Weekday {
    var shortName: String { String(description.prefix(3)).capitalized }
}

/// The API's query parameters, each refused with a sentence (a 400) when it is malformed: written
/// once for every route that takes them.
enum QueryParameter {
    /// A whole number, or nil when absent.
    static func integer(_ request: Request, _ name: String) throws -> Int64? {
        guard let text = request.uri.queryParameters[Substring(name)] else { return nil }
        guard let value = Int64(String(text)) else {
            throw Problem(.badRequest, "The query parameter \(name) is a whole number, not \"\(text)\".")
        }
        return value
    }

    /// `true` or `false`; false when absent.
    static func flag(_ request: Request, _ name: String) throws -> Bool {
        switch request.uri.queryParameters[Substring(name)] {
        case nil, "false": false
        case "true": true
        case let other?: throw Problem(.badRequest, "\(name) is true or false, not \"\(other)\".")
        }
    }

    /// One of a set of named choices (an order, a subject), or nil when absent.
    static func choice<Choice: RawRepresentable & CaseIterable>(_ request: Request, _ name: String) throws -> Choice?
    where Choice.RawValue == String {
        guard let text = request.uri.queryParameters[Substring(name)] else { return nil }
        guard let choice = Choice(rawValue: String(text)) else {
            throw Problem(
                .badRequest,
                "The \(name) is one of \(Choice.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(text)\"."
            )
        }
        return choice
    }

    /// `limit` (1…1000; `defaultLimit` when absent, nil: all) and `offset` (0…1000000000).
    static func page(_ request: Request, defaultLimit: Int? = nil) throws -> Page {
        let limit = try integer(request, "limit").map(Int.init) ?? defaultLimit
        if let limit, !(1...1000).contains(limit) { throw Problem(.badRequest, "The limit is between 1 and 1000.") }
        let offset = try integer(request, "offset") ?? 0
        guard (0...1_000_000_000).contains(offset) else {
            throw Problem(.badRequest, "The offset is between 0 and 1000000000.")
        }
        return Page(limit: limit, offset: Int(offset))
    }
}

/// How an API request's body is to be read (`dates`, `decimalComma`, `mapping` in its query), as
/// `commission import` and the pages' "How it is read" choose it.
struct ReadingQuery {
    var dates: DateOrder?
    var decimalComma: Bool
    var mapping: String

    init(_ request: Request) throws {
        let query = request.uri.queryParameters
        if let text = query["dates"] {
            guard let order = DateOrder(rawValue: String(text)) else {
                throw Problem(.badRequest, "The order of dates is mdy, dmy or ymd.")
            }
            dates = order
        }
        decimalComma = query["decimalComma"] == "true"
        mapping = query["mapping"].map(String.init) ?? ""
    }

    /// The body read by `make`; columns it cannot tell said in the API's words.
    func read<T>(
        _ body: Data,
        app: WebApp,
        rows: String,
        _ make: (CSVImportSource.Origin, CSVFormat) throws -> T
    ) async throws -> T {
        do {
            return try await app.readFile(
                body,
                what: "The request body",
                rows: rows,
                dates: dates,
                decimalComma: decimalComma,
                mapping: mapping,
                on: .api,
                make
            )
        } catch let unknown as UnknownColumns {
            throw Problem(
                .unprocessableContent,
                unknown.said
                    + " Name a column mapping the book keeps with mapping= (mappings are saved from the Import & export page)."
            )
        }
    }
}

/// A pasted file whose columns are not the ones its reader needs: the page shows them beside the
/// fields, for her to say which holds what (``ColumnMappingView``).
struct UnknownColumns: Error {
    let said: String
}
