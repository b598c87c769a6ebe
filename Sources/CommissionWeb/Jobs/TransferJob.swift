import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Hummingbird

/// Her book in and out: CSV import (checked first, all or nothing), exports, a backup download.
struct TransferJob: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {
        pages.get("/transfer") { _, context in try await transferPage(context: context) }
        pages.post("/import") { request, context in try await importPage(request, context: context) }
        pages.get("/export/:file") { _, context in
            let file = try context.parameters.require("file")
            return file == "backup.sqlite" ? try await backup() : try await export(file)
        }
    }

    func registerAPI<G>(on api: Registrar<G>) {
        api.post("/import") { request, context in try await importAPI(request, context: context) }
        api.get("/export/:file") { _, context in try await export(try context.parameters.require("file")) }
    }

    // MARK: Pages

    func transferPage(context: AppRequestContext, csv: String = "", problems: [ImportProblem] = [], message: String? = nil,
                      error: String? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let values: [String: Any] = [
            "csv": csv,
            "problems": problems.map { ["line": $0.line, "column": $0.column ?? "", "reason": $0.reason] as [String: Any] },
            "hasProblems": !problems.isEmpty,
            "kinds": ExportKind.allCases.map { ["name": $0.rawValue] },
            "backup": app.store is any BookBackup,
        ]
        return try await app.page("transfer", title: "Import & export", nav: "transfer", context: context, values: values, status: status,
                              message: message, error: error)
    }

    func importPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        let settings = try await app.store.settings()
        let text = form.values["csv"] ?? ""
        let dryRun = form["action"] != "commit"
        do {
            let source = try CSVImportSource(origin: .data(Data(text.utf8), name: "The file"),
                                             kind: form["kind"].flatMap(ImportKind.init(rawValue:)),
                                             format: CSVFormat(decimalComma: form["decimalComma"] != nil), currency: settings.currency)
            let summary = try await app.store.importRows(from: source, options: ImportOptions(dryRun: dryRun))
            let what = "\(summary.rows) \(source.kind.rawValue) row\(summary.rows == 1 ? "" : "s")"
            return try await transferPage(context: context, csv: dryRun ? text : "",
                                          message: dryRun ? "The file is good: \(what) would be imported. Press Import to import them." : "Imported \(what).")
        } catch let error as CSVFileError {
            return try await transferPage(context: context, csv: text, error: error.description, status: .unprocessableContent)
        } catch let StoreError.importRejected(problems, total) {
            return try await transferPage(context: context, csv: text, problems: problems,
                                          error: "Nothing was imported: \(total) row problem\(total == 1 ? "" : "s").", status: .unprocessableContent)
        }
    }

    func backup() async throws -> Response {
        guard let backup = app.store as? any BookBackup else { throw Problem(.notFound, "This store cannot be backed up from the web.") }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("commission-backup-\(UUID().uuidString).sqlite").path
        try await backup.backup(to: path, replacing: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return Response(status: .ok, headers: [.contentType: "application/vnd.sqlite3",
                                               .contentDisposition: "attachment; filename=\"commission-\(try await app.store.settings().today()).sqlite\""],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// An export named like a file (`sales.csv`, `clinics.json`), as a download. Shared by the page and the API.
    func export(_ file: String) async throws -> Response {
        let parts = file.split(separator: ".")
        guard parts.count == 2, let kind = ExportKind(rawValue: String(parts[0])), let format = OutputFormat(rawValue: String(parts[1])),
              format != .table else {
            throw Problem(.notFound, "There is no export named \(file): try sales.csv or clinics.json.")
        }
        let renderer = Renderer(currency: try await app.store.settings().currency)
        return Response(status: .ok, headers: [.contentType: format == .csv ? "text/csv; charset=utf-8" : "application/json",
                                               .contentDisposition: "attachment; filename=\"\(file)\""],
                        body: .init(byteBuffer: ByteBuffer(string: renderer.render(try await renderer.export(kind, from: app.store), as: format))))
    }

    // MARK: API

    struct ImportJSON: Encodable { var kind: String; var dryRun: Bool; var clinics: Int; var products: Int; var terms: Int; var sales: Int }

    /// `POST /api/v1/import?kind=sales&dryRun=true&decimalComma=true` with the CSV as the body.
    func importAPI(_ request: Request, context: AppRequestContext) async throws -> Response {
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
                                         currency: try await app.store.settings().currency)
        } catch let error as CSVFileError {
            throw Problem(.unprocessableContent, error.description)
        }
        let summary = try await app.store.importRows(from: source, options: ImportOptions(dryRun: query["dryRun"] == "true"))
        return try app.json(ImportJSON(kind: source.kind.rawValue, dryRun: summary.dryRun, clinics: summary.clinics, products: summary.products,
                                       terms: summary.terms, sales: summary.sales), status: summary.dryRun ? .ok : .created)
    }
}
