import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Hummingbird
import MultipartKit
import Synchronization

/// Her book in and out: CSV import (checked first, all or nothing), exports, backup downloads (an
/// SQLite file, or a book archive from any store), and restoring a backup (owners, after a
/// confirmation that says what is replaced; on a team server, from an archive, keeping the
/// book's members).
package struct TransferJob: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {
        pages.get("/transfer") { _, context in try await transferPage(context: context) }
        pages.post("/import") { request, context in try await importPage(request, context: context) }
        pages.get("/export") { request, _ in try await exportChoice(request) }
        pages.get("/export/:file") { _, context in
            let file = try context.parameters.require("file")
            switch file {
            case "backup.sqlite": return try await backup()
            case "backup.jsonl": return try await archive()
            default: return try await export(file)
            }
        }
        pages.post("/import/workbook") { request, context in try await importWorkbook(request, context: context) }
        pages.post("/import/workbook/confirm") { request, context in
            try await confirmWorkbook(request, context: context)
        }
        pages.post("/import/additions") { request, context in try await importAdditions(request, context: context) }
        pages.post("/transfer/restore") { request, context in try await stageRestore(request, context: context) }
        pages.post("/transfer/restore/confirm") { request, context in
            try await confirmRestore(request, context: context)
        }
    }

    func registerAPI<G>(on api: Registrar<G>) {
        api.post("/import") { request, context in try await importAPI(request, context: context) }
        api.get("/export/:file") { _, context in try await export(try context.parameters.require("file")) }
    }

    // MARK: Pages

    /// How the workbook form was sent: its order of dates typed as text, and whether it is to be
    /// imported again.
    struct WorkbookChoices {
        var dates: DateOrder?
        var again: Bool
    }

    /// The Import & export page. `typed` is the CSV form as she sent it, `uploaded` the workbook
    /// form's choices: drawn again as she chose them (without them, the book's locale's: dates
    /// day-first, a decimal comma), `field` the one a refusal (`error`) is about, marked. A
    /// refusal of her file opens the forms' fold; an answer standing above them keeps it closed.
    func transferPage(
        context: AppRequestContext,
        csv: String = "",
        kind: ImportKind? = nil,
        preview: [ImportRow] = [],
        problems: [ImportProblem] = [],
        alreadyImported: Bool = false,
        workbookToken: String? = nil,
        workbookDates: String = "",
        workbookAgain: Bool = false,
        mapping: ColumnMappingView? = nil,
        needs: ImportNeedsView? = nil,
        checked: TransferPageView.CheckedCSV? = nil,
        message: String? = nil,
        messageLink: PageLink? = nil,
        error: String? = nil,
        errorLink: PageLink? = nil,
        status: HTTPResponse.Status = .ok,
        typed: Form? = nil,
        uploaded: WorkbookChoices? = nil,
        field: String? = nil
    ) async throws -> Response {
        let canRestore = app.store is any BookRestoring ? try await isOwner(context) : false
        let saved = try await (app.store as? any ImportMappings)?.mappings() ?? []
        let style = try await app.store.settings().style
        // The store that writes SQLite backups takes them back; any store takes an archive.
        let restoresSQLite = app.store is any BookBackup
        // Her choices as she sent them, else what her book's locale writes.
        let localeDates: DateOrder? = style.writesDayFirst ? .dmy : nil
        let dates = typed.map { $0["dates"].flatMap(DateOrder.init(rawValue:)) } ?? localeDates
        let decimalComma = typed.map { $0["decimalComma"] != nil } ?? style.usesDecimalComma
        let chosenMapping = typed?["mapping"] ?? ""
        let refused = status.code >= 400
        let again = refused && typed?["again"] != nil
        let view = TransferPageView(
            csv: csv,
            optionsOpen: kind != nil || mapping != nil || dates != localeDates || decimalComma != style.usesDecimalComma
                || !chosenMapping.isEmpty || field == "dates" || field == "mapping",
            importKinds: ImportKind.allCases.map {
                .init(value: $0.rawValue, label: $0.rawValue.capitalized, selected: $0 == kind)
            },
            savedMappings: saved.map {
                .init(value: $0.name, label: $0.name, selected: $0.name.lowercased() == chosenMapping.lowercased())
            },
            mapping: mapping?.marked(field),
            needs: needs,
            checked: checked,
            reading: .init(
                dates: .init(dates),
                decimalComma: decimalComma,
                again: again,
                invalid: FieldMarks(uploaded == nil ? field : nil)
            ),
            workbookForm: .init(
                dates: .init(uploaded.map(\.dates) ?? localeDates),
                again: refused && uploaded?.again == true,
                open: uploaded != nil && refused,
                invalid: FieldMarks(uploaded != nil ? field : nil)
            ),
            // A refusal of her file, with no answer standing above the forms: they show open.
            formsOpen: refused && error != nil && needs == nil && checked == nil && workbookToken == nil,
            alreadyImported: alreadyImported || again,
            workbook: workbookToken.map { .init(token: $0, dates: workbookDates, again: workbookAgain) },
            // A dry run's first sales as read: no price or cost is the product's.
            preview: preview.compactMap { row -> TransferPageView.PreviewRow? in
                guard case .sale(let sale) = row.record else { return nil }
                return .init(
                    line: row.line,
                    date: style.format(sale.date),
                    clinic: sale.clinic,
                    product: sale.product,
                    quantity: sale.quantity,
                    price: sale.unitPrice.map { style.format($0) } ?? "the product's",
                    cost: sale.unitCost.map { style.format($0) } ?? "the product's"
                )
            },
            problems: ImportProblem.grouped(problems, on: .page).map {
                .init(lines: $0.linesSaid, column: $0.column ?? "", reason: $0.reason)
            },
            exports: ExportKind.shownOrder.map { .init(value: $0.rawValue, label: $0.label) },
            backup: app.store is any BookBackup,
            archive: app.store is any BookArchiving,
            restore: canRestore
                ? .init(
                    takes: restoresSQLite ? "A backup or an archive of the book" : "An archive of the book (.jsonl)",
                    maxSize: Self.size(app.configuration.maxBackupSize),
                    accept: (restoresSQLite ? ".sqlite,application/vnd.sqlite3," : "") + ".jsonl"
                ) : nil,
            csrf: context.csrfToken ?? ""
        )
        return try await app.page(
            "transfer",
            view: view,
            title: "Import & export",
            nav: "transfer",
            context: context,
            status: status,
            message: message,
            messageLink: messageLink,
            error: error,
            errorLink: errorLink
        )
    }

    /// `GET /export?what=sales&format=csv`: the Export form's choice, downloaded.
    func exportChoice(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        guard let what = query["what"].flatMap({ ExportKind(rawValue: String($0)) }) else {
            throw Problem(
                .badRequest,
                "Choose what to export: \(ExportKind.shownOrder.map(\.label).joined(separator: ", "))."
            )
        }
        guard let format = query["format"].map(String.init), ["csv", "json"].contains(format) else {
            throw Problem(.badRequest, "Choose CSV or JSON.")
        }
        return try await export("\(what.rawValue).\(format)")
    }

    func importPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        let settings = try await app.store.settings()
        let text = form.values["csv"] ?? ""
        let origin = CSVImportSource.Origin.data(Data(text.utf8), name: "The file")
        let mappings = app.store as? any ImportMappings
        var kind = form["kind"].flatMap(ImportKind.init(rawValue:))
        // Her saved mappings, read once for the whole request.
        var saved = try await mappings?.mappings() ?? []
        // The file as read, for what it lacks of the book when its rows are refused.
        var checkedFile: CheckedFile?
        let typed = form
        do {
            var given = try form["mapping"].map { try saved.named($0) }
            if form["action"] == "map" {
                // Her mapping, from the form that showed the file's columns beside the fields: saved, then used.
                let mapping = try await app.saveMapping(form, origin: origin, kind: kind)
                saved = saved.filter { $0.name.lowercased() != mapping.name.lowercased() } + [mapping]
                given = mapping
                kind = kind ?? mapping.kind.flatMap(ImportKind.init(rawValue:))
            }
            let dryRun = form["action"] != "commit"
            let source = try CSVImportSource(
                origin: origin,
                kind: kind,
                format: CSVFormat(
                    decimalComma: form["decimalComma"] != nil,
                    dates: form["dates"].flatMap(DateOrder.init(rawValue:)),
                    mapping: given,
                    saved: saved
                ),
                currency: settings.currency
            )
            checkedFile = .csv(
                text: text,
                kind: kind,
                dates: form["dates"].flatMap(DateOrder.init(rawValue:)),
                decimalComma: form["decimalComma"] != nil,
                mapping: given?.name
            )
            // The text's digest is kept with the import: the same file pasted again is refused, unless she says so.
            let options = ImportOptions(
                dryRun: dryRun,
                digests: [ImportDigest(name: "This file", data: Data(text.utf8))],
                again: form["again"] != nil
            )
            let summary = try await app.store.importRows(from: source, options: options)
            await app.imported(summary)
            let what =
                "\(summary.rows) \(source.kind.rawValue) row\(summary.rows == 1 ? "" : "s")"
                + (source.said.dropFirst() + source.rowsPassedOverSaid).map { " (\($0))" }.joined()
            return try await transferPage(
                context: context,
                csv: dryRun ? text : "",
                preview: dryRun ? try source.preview() : [],
                checked: dryRun
                    ? TransferPageView.CheckedCSV(
                        csv: text,
                        kind: kind?.rawValue ?? "",
                        dates: form["dates"] ?? "",
                        decimalComma: form["decimalComma"] != nil,
                        mapping: given?.name ?? ""
                    ) : nil,
                message: dryRun
                    ? "The file is good: \(what) would be imported. Press Import to import them." : "Imported \(what).",
                messageLink: dryRun ? nil : PageLink.afterImport,
                typed: form
            )
        } catch let error as CSVFileError {
            switch error {
            case .missingColumns, .unknownKind:
                // Columns it does not know: her file's columns beside the fields, for her to map.
                let form = try ColumnMappingView(origin: origin, kind: kind, form: form, mappings: saved)
                let said =
                    if case .unknownKind(_, let headers) = error {
                        "Cannot tell what the file holds from its headers (\(headers.joined(separator: ", "))): choose it under “It holds”."
                    } else { error.description }
                return try await transferPage(
                    context: context,
                    csv: text,
                    kind: kind,
                    mapping: form,
                    error: said + " Say which column holds what below.",
                    status: .unprocessableContent,
                    typed: typed
                )
            default:
                // A file that cannot be read: the refusal is about her text.
                return try await transferPage(
                    context: context,
                    csv: text,
                    kind: kind,
                    error: error.description,
                    status: .unprocessableContent,
                    typed: typed,
                    field: "text"
                )
            }
        } catch let error as MappingError {
            // try?: a file whose first rows cannot be read shows no table of its columns; the refusal is said
            let form = try? ColumnMappingView(origin: origin, kind: kind, form: form, mappings: [])
            return try await transferPage(
                context: context,
                csv: text,
                kind: kind,
                mapping: form,
                error: error.description,
                status: .unprocessableContent,
                typed: typed,
                field: "columns"
            )
        } catch let error as StoreError where error.isAboutAMapping {
            // try?: as above: no table of the columns, the refusal said
            let form = try? ColumnMappingView(origin: origin, kind: kind, form: form, mappings: [])
            return try await transferPage(
                context: context,
                csv: text,
                kind: kind,
                mapping: form,
                error: error.message(on: .page),
                status: .unprocessableContent,
                typed: typed,
                // A mapping she chose that is not there, or one she made that cannot be kept.
                field: Problem.formField(for: error) ?? "mapping"
            )
        } catch let StoreError.importRejected(problems, total) {
            // What the file names that the book lacks, to make with it in one step.
            if let checkedFile, let found = try await findNeeds(for: checkedFile, path: nil, settings: settings) {
                return try await transferPage(
                    context: context,
                    csv: text,
                    kind: kind,
                    needs: ImportNeedsView(
                        found,
                        file: checkedFile,
                        answers: nil,
                        settings: settings,
                        again: form["again"] != nil,
                        csrf: context.csrfToken ?? ""
                    ),
                    status: .unprocessableContent,
                    typed: form
                )
            }
            return try await transferPage(
                context: context,
                csv: text,
                kind: kind,
                problems: problems,
                error: "Nothing was imported: \(total) row problem\(total == 1 ? "" : "s").",
                status: .unprocessableContent,
                typed: form
            )
        } catch StoreError.alreadyImported(let file, let day) {
            return try await transferPage(
                context: context,
                csv: text,
                kind: kind,
                alreadyImported: true,
                error: StoreError.alreadyImported(file, on: day, again: "tick “Import it again” and import"),
                status: .conflict,
                typed: form,
                field: "again"
            )
        }
    }

    func backup() async throws -> Response {
        guard let backup = app.store as? any BookBackup else {
            throw Problem(.notFound, "This store cannot be backed up from the web.")
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "commission-backup-\(UUID().uuidString).sqlite"
        ).path
        try await backup.backup(to: path, replacing: false)
        // try?: the backup's temporary copy, read into the answer by now; the OS cleans its temporary directory
        defer { try? FileManager.default.removeItem(atPath: path) }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/vnd.sqlite3",
                .contentDisposition:
                    "attachment; filename=\"commission-\(try await app.store.settings().today()).sqlite\"",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// The whole book as a book archive (JSON Lines), streamed as it is read: a download cut off
    /// midway lacks the end line, and no restore takes it.
    func archive() async throws -> Response {
        guard let source = app.store as? any BookArchiving else {
            throw Problem(.notFound, "This store cannot be archived from the web.")
        }
        let name = "commission-\(try await app.store.settings().today()).jsonl"
        return Response(
            status: .ok,
            headers: [.contentType: "application/jsonl", .contentDisposition: "attachment; filename=\"\(name)\""],
            body: ResponseBody { writer in
                try await ArchiveFile.stream(source) { chunk in try await writer.write(ByteBuffer(bytes: chunk)) }
                try await writer.finish(nil)
            }
        )
    }

    // MARK: A workbook from the page

    /// Step one: the uploaded workbook (`multipart/form-data`: `csrf`, then the `workbook` file and
    /// the `dates` choice) is checked whole as a dry run, and kept for the confirmation; the page
    /// says what would be imported. Nothing of the book changes.
    func importWorkbook(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (path, fields) = try await app.receiveUpload(
            request,
            context: context,
            field: "workbook",
            missing: "Choose the workbook.",
            tooLarge:
                "The workbook is larger than this server takes (\(Self.size(app.configuration.maxBackupSize))): split it into smaller workbooks, or ask whoever runs the server to import it there."
        )
        let dates = fields["dates"].flatMap(DateOrder.init(rawValue:)), again = fields["again"] != nil
        // Her choices, drawn again should the workbook be refused.
        let uploaded = WorkbookChoices(dates: dates, again: again)
        do {
            let summary = try await importWorkbook(at: path, dates: dates, again: again, dryRun: true)
            let token = app.importStaging.stage(path)
            return try await transferPage(
                context: context,
                workbookToken: token,
                workbookDates: dates?.rawValue ?? "",
                workbookAgain: again,
                message: "The workbook is good: \(summary) would be imported. Press Import to import them."
            )
        } catch StoreError.importRejected(let problems, let total) {
            // What it lacks of the book, made with it in one step: the workbook stays for that.
            let settings = try await app.store.settings()
            let token = app.importStaging.stage(path)
            let file = CheckedFile.workbook(token: token, dates: dates)
            if let found = try await findNeeds(for: file, path: path, settings: settings) {
                return try await transferPage(
                    context: context,
                    needs: ImportNeedsView(
                        found,
                        file: file,
                        answers: nil,
                        settings: settings,
                        again: again,
                        csrf: context.csrfToken ?? ""
                    ),
                    status: .unprocessableContent,
                    uploaded: uploaded
                )
            }
            // Nothing to make: the rows are to correct in the workbook, which is let go.
            // try?: its staged file, never to be imported; the OS cleans its temporary directory
            if let kept = app.importStaging.take(token) { try? FileManager.default.removeItem(atPath: kept) }
            return try await workbookRefused(
                StoreError.importRejected(problems, total: total),
                context: context,
                uploaded: uploaded
            )
        } catch {
            // try?: the refused workbook's upload; the OS cleans its temporary directory
            try? FileManager.default.removeItem(atPath: path)
            return try await workbookRefused(error, context: context, uploaded: uploaded)
        }
    }

    /// Step two: the staged workbook imported (or its upload forgotten).
    func confirmWorkbook(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        guard let path = app.importStaging.take(form["token"] ?? "") else {
            return try await transferPage(
                context: context,
                error: "That upload has expired or was imported already: upload the workbook again.",
                status: .conflict
            )
        }
        // try?: the staged workbook, imported or not by now; the OS cleans its temporary directory
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard form["action"] == "commit" else {
            return try await transferPage(context: context, message: "Nothing was imported.")
        }
        let uploaded = WorkbookChoices(
            dates: form["dates"].flatMap(DateOrder.init(rawValue:)),
            again: form["again"] != nil
        )
        do {
            let summary = try await importWorkbook(
                at: path,
                dates: uploaded.dates,
                again: uploaded.again,
                dryRun: false
            )
            return try await transferPage(
                context: context,
                message: "Imported \(summary).",
                messageLink: PageLink.afterImport
            )
        } catch {
            return try await workbookRefused(error, context: context, uploaded: uploaded)
        }
    }

    /// Imports every sheet of the workbook at `path` it can, as one import; says what it imported.
    func importWorkbook(at path: String, dates: DateOrder?, again: Bool, dryRun: Bool) async throws -> String {
        let settings = try await app.store.settings()
        // Unpacked within the server's bounds, one workbook at a time.
        let (summary, names) = try await app.configuration.workbookReads.run {
            let workbook = try Workbook(path: path, limits: app.configuration.workbookLimits)
            let sheets = try workbook.importSources(format: CSVFormat(dates: dates), currency: settings.currency)
                .sources
            let options = ImportOptions(
                dryRun: dryRun,
                digests: [try ImportDigest.ofFile(atPath: path, name: "This workbook")],
                again: again
            )
            return (
                try await app.store.importRows(
                    from: ImportSources.combining(sheets.map { ($0.name, $0.source) }),
                    options: options
                ),
                sheets.map {
                    "“\($0.source.sheetName ?? $0.name)”" + $0.source.passedOverSaid
                        + $0.source.rowsPassedOverSaid.map { " (\($0))" }.joined()
                }
            )
        }
        await app.imported(summary)
        return summary.counted + " from the sheet\(names.count == 1 ? "" : "s") " + names.joined(separator: ", ")
    }

    /// A workbook's refusal on the page: its reason, or its rows' problems; the workbook form
    /// open, with the choices she sent it with (`uploaded`).
    func workbookRefused(
        _ error: any Error,
        context: AppRequestContext,
        uploaded: WorkbookChoices? = nil
    ) async throws -> Response {
        let uploaded = uploaded ?? WorkbookChoices(dates: nil, again: false)
        switch error {
        case let error as CSVFileError:
            return try await transferPage(
                context: context,
                error: error.description,
                status: .unprocessableContent,
                uploaded: uploaded
            )
        case StoreError.importRejected(let problems, let total):
            return try await transferPage(
                context: context,
                problems: problems,
                error: "Nothing was imported: \(total) row problem\(total == 1 ? "" : "s").",
                status: .unprocessableContent,
                uploaded: uploaded
            )
        case StoreError.alreadyImported(let file, let day):
            return try await transferPage(
                context: context,
                error: StoreError.alreadyImported(file, on: day, again: "upload it again and tick “Import it again”"),
                status: .conflict,
                uploaded: uploaded,
                field: "again"
            )
        default:
            throw error
        }
    }

    // MARK: Restoring a backup

    func isOwner(_ context: AppRequestContext) async throws -> Bool {
        guard let account = context.caller.account else { return false }
        return try await app.store.role(of: account.id) == .owner
    }

    func restoring(_ context: AppRequestContext) async throws -> any BookRestoring {
        try await app.requireOwner(context, to: "restore a backup")
        guard let restoring = app.store as? any BookRestoring else {
            throw Problem(
                .conflict,
                "This book's store cannot be restored from the web: restore it with the commission command on the server."
            )
        }
        return restoring
    }

    /// Step one: the uploaded backup (`multipart/form-data`: the `csrf` field, then the `backup`
    /// file) is streamed to a file of its own and checked whole; the page then says what it holds
    /// and what it would replace. Nothing of the book changes.
    func stageRestore(_ request: Request, context: AppRequestContext) async throws -> Response {
        let restoring = try await restoring(context)
        let path = try await receiveUpload(request, context: context)
        do {
            let backup = try await restoring.inspectBackup(at: path)
            // A backup that brings the accounts must bring one, or no one could sign in to the book.
            guard backup.accounts > 0 || !restoring.restoreReplacesAccounts else {
                throw Problem(
                    .unprocessableContent,
                    """
                    This backup holds no account: restored from here, the book would wait for whoever sets it up first. \
                    Ask whoever runs the server to restore it there, then set up its owner.
                    """
                )
            }
            let token = app.staging.stage(path)
            let current = try await currentCounts()
            let view = RestorePageView(
                token: token,
                backup: backup,
                current: current,
                replacesAccounts: restoring.restoreReplacesAccounts,
                downloadSQLite: app.store is any BookBackup,
                csrf: context.csrfToken ?? ""
            )
            return try await app.page(
                "restore",
                view: view,
                title: "Restore a backup",
                nav: "transfer",
                context: context
            )
        } catch {
            // try?: the refused backup's upload; the OS cleans its temporary directory
            try? FileManager.default.removeItem(atPath: path)
            let problem = Problem.from(error, on: .page)
            guard problem.status < 500 else { throw error }
            return try await transferPage(
                context: context,
                error: "The backup was not restored: \(problem.detail)",
                status: .init(code: problem.status)
            )
        }
    }

    /// Step two: the confirmation (or the cancellation) of a staged backup.
    func confirmRestore(_ request: Request, context: AppRequestContext) async throws -> Response {
        let restoring = try await restoring(context)
        let form = try await Form.read(request, context: context)
        guard let path = app.staging.take(form["token"] ?? "") else {
            return try await transferPage(
                context: context,
                error: "That upload has expired or was restored already: upload the backup again.",
                status: .conflict
            )
        }
        // try?: the staged backup, restored or not by now; the OS cleans its temporary directory
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard form["action"] == "restore" else {
            return try await transferPage(context: context, message: "Nothing was restored.")
        }
        let counts: ArchiveCounts
        do {
            counts = try await restoring.restoreBackup(at: path)
        } catch {
            let problem = Problem.from(error, on: .page)
            guard problem.status < 500 else { throw error }
            return try await transferPage(
                context: context,
                error: "The backup was not restored: \(problem.detail)",
                status: .init(code: problem.status)
            )
        }
        guard restoring.restoreReplacesAccounts else {
            // A team server's book keeps its members, signed in as they were.
            return try await transferPage(
                context: context,
                message: "The book was restored from the backup: \(Self.restored(counts))."
            )
        }
        // The book's accounts and sessions are the backup's now: everyone signs in again.
        var response = Response.redirect(to: "/login?restored=1")
        response.setCookie(
            Cookie(
                name: AuthenticationMiddleware.cookieName,
                value: "",
                maxAge: 0,
                path: "/",
                secure: app.configuration.secureCookies,
                httpOnly: true,
                sameSite: .lax
            )
        )
        return response
    }

    /// Streams the request's `backup` part to a new file, once its `csrf` part has matched the
    /// session's; returns the file's path. Refuses a missing file, a bad token and a file over
    /// ``WebConfiguration/maxBackupSize``, leaving nothing behind.
    func receiveUpload(_ request: Request, context: AppRequestContext) async throws -> String {
        try await app.receiveUpload(
            request,
            context: context,
            field: "backup",
            missing: "Choose the backup file to restore.",
            tooLarge:
                "The backup is larger than this server takes (\(Self.size(app.configuration.maxBackupSize))): ask whoever runs the server to restore it there."
        ).path
    }

    /// How many of each kind the book holds now, from the store's counts.
    func currentCounts() async throws -> ArchiveCounts {
        var counts = ArchiveCounts()
        counts.clinics = try await app.store.clinics(ClinicQuery(includeArchived: true)).count
        counts.products = try await app.store.products(ProductQuery(includeArchived: true)).count
        counts.sales = try await app.store.countSales(SaleQuery(includeVoided: true))
        counts.payouts = try await app.store.payouts(PayoutQuery()).count
        counts.accounts = try await app.store.members().count
        return counts
    }

    /// "3 clinics, 12 products, 40 sales and 2 payouts".
    static func restored(_ counts: ArchiveCounts) -> String {
        func n(_ count: Int, _ one: String, _ many: String) -> String { "\(count) \(count == 1 ? one : many)" }
        return
            "\(n(counts.clinics, "clinic", "clinics")), \(n(counts.products, "product", "products")), \(n(counts.sales, "sale", "sales")) "
            + "and \(n(counts.payouts, "payout", "payouts"))"
    }

    /// "1 GiB", "250 MiB".
    static func size(_ bytes: Int) -> String {
        bytes >= 1 << 30 && bytes % (1 << 30) == 0 ? "\(bytes >> 30) GiB" : "\(bytes >> 20) MiB"
    }

    /// An export named like a file (`sales.csv`, `clinics.json`), as a download. Shared by the page and the API.
    func export(_ file: String) async throws -> Response {
        let parts = file.split(separator: ".")
        guard parts.count == 2, let kind = ExportKind(rawValue: String(parts[0])),
            let format = OutputFormat(rawValue: String(parts[1])),
            format != .table
        else {
            throw Problem(.notFound, "There is no export named \(file): try sales.csv or clinics.json.")
        }
        let renderer = Renderer(currency: try await app.store.settings().currency)
        return Response(
            status: .ok,
            headers: [
                .contentType: format == .csv ? "text/csv; charset=utf-8" : "application/json",
                .contentDisposition: "attachment; filename=\"\(file)\"",
            ],
            body: .init(
                byteBuffer: ByteBuffer(
                    string: renderer.render(try await renderer.export(kind, from: app.store), as: format)
                )
            )
        )
    }

    // MARK: API

    /// The media type of an Excel workbook, which `POST /api/v1/import` takes beside CSV.
    static let workbookType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

    /// `POST /api/v1/import?kind=sales&dryRun=true&decimalComma=true&again=true` with a CSV file
    /// or an `.xlsx` workbook (every sheet it can import, as one import) as the body. The body's
    /// SHA-256 is kept with the import: the same body a second time is refused unless `again`.
    func importAPI(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        let query = request.uri.queryParameters
        var kind: ImportKind?
        if let text = query["kind"] {
            guard let parsed = ImportKind(rawValue: String(text)) else {
                throw Problem(
                    .badRequest,
                    "The kind is \(ImportKind.allCases.map(\.rawValue).joined(separator: ", "))."
                )
            }
            kind = parsed
        }
        var dates: DateOrder?
        if let text = query["dates"] {
            guard let order = DateOrder(rawValue: String(text)) else {
                throw Problem(.badRequest, "The order of dates is mdy, dmy or ymd.")
            }
            dates = order
        }
        let data = Data(buffer: buffer)
        let name = "The request body"
        let mappings = app.store as? any ImportMappings
        // Her saved column mappings: the one named by mapping=, or one made for the file's headers.
        var given: ImportMapping?
        if let name = query["mapping"] {
            guard let mappings else {
                throw Problem(.unprocessableContent, "This book's store keeps no column mappings.")
            }
            given = try await mappings.mapping(named: String(name))
        }
        let format = CSVFormat(
            decimalComma: query["decimalComma"] == "true",
            dates: dates,
            mapping: given,
            saved: try await mappings?.mappings() ?? []
        )
        let currency = try await app.store.settings().currency
        let options = ImportOptions(
            dryRun: query["dryRun"] == "true",
            digests: [ImportDigest(name: name, data: data)],
            again: query["again"] == "true"
        )
        // What the sales need that the book lacks, made with them when asked (createMissing=true).
        let createMissing = query["createMissing"] == "true"
        let schedule: PaySchedule, share: Share?, basis: CommissionBasis
        do {
            schedule = try PaySchedule(parsing: query["schedule"].map(String.init) ?? "monthly")
        } catch {
            throw Problem(.badRequest, "The schedule is monthly, semimonthly, weekly:WEEKDAY or biweekly:YYYY-MM-DD.")
        }
        do { share = try query["share"].map { try Share(parsing: String($0)) } } catch {
            throw Problem(.badRequest, "The share: \(error)")
        }
        guard let given = CommissionBasis(rawValue: query["basis"].map(String.init) ?? "profit") else {
            throw Problem(.badRequest, "The basis is profit or revenue.")
        }
        basis = given
        /// The import of `source`, read as `kinds`.
        func importing(
            _ read: () throws -> (source: any ImportSource, kinds: [ImportKind])
        ) async throws -> (ImportSummary, [ImportKind]) {
            let (source, kinds): (any ImportSource, [ImportKind])
            do {
                (source, kinds) = try read()
            } catch CSVFileError.unknownKind(_, let headers) {
                // The API's own way to say what the body holds, not the command line's.
                throw Problem(
                    .unprocessableContent,
                    "Cannot tell what the body holds from its headers (\(headers.joined(separator: ", "))): add kind="
                        + ImportKind.allCases.map(\.rawValue).joined(separator: "|") + " to the request."
                )
            } catch let error as CSVFileError {
                throw Problem(.unprocessableContent, error.description)
            }
            var additions = Additions()
            if createMissing,
                let missing = try await MissingRecords.find(importing: source, into: app.store, options: options)
            {
                do {
                    additions = try Additions(missing, schedule: schedule, share: share, basis: basis)
                } catch StoreError.invalid(let field, let reason) {
                    var problem = Problem(
                        .unprocessableContent,
                        field == "share"
                            ? "The new clinics need your share there: add share=PERCENT to the request. Nothing was imported."
                            : "\(reason.prefix(1).uppercased())\(reason.dropFirst()) Nothing was imported."
                    )
                    problem.missing = API.MissingRecords(missing, currency: currency)
                    throw problem
                }
            }
            do {
                return (try await app.store.importRows(from: additions.importing(source), options: options), kinds)
            } catch let error as StoreError where !createMissing {
                // Refused for what the book lacks: said, with what would make it in the same step.
                guard case .importRejected = error,
                    let missing = try await MissingRecords.find(importing: source, into: app.store, options: options)
                else { throw error }
                // Every row refused is still listed in `errors`, as before.
                var problem = Problem.from(error, on: .api)
                problem.detail =
                    "The sales need what the book lacks (\(API.MissingRecords.said(missing))): nothing was imported. "
                    + "Add createMissing=true&share=PERCENT to the request to make them with the sales in one step"
                    + (missing.otherProblems.isEmpty ? "." : ", once the other rows are corrected.")
                problem.missing = API.MissingRecords(missing, currency: currency)
                throw problem
            } catch let error as CSVFileError {
                throw Problem(.unprocessableContent, error.description)
            } catch StoreError.alreadyImported(let file, let day) {
                throw Problem(
                    .conflict,
                    StoreError.alreadyImported(file, on: day, again: "add again=true to the request")
                )
            }
        }
        let summary: ImportSummary, kinds: [ImportKind]
        var passedOver: [String] = [], sources: [CSVImportSource] = []
        if Workbook.isWorkbook(data) || request.headers[.contentType]?.hasPrefix(Self.workbookType) == true {
            // Unpacked within the server's bounds, one workbook at a time.
            (summary, kinds) = try await app.configuration.workbookReads.run {
                try await importing {
                    let workbook = try Workbook(data: data, name: name, limits: app.configuration.workbookLimits)
                    let sheets = try workbook.importSources(kind: kind, format: format, currency: currency).sources
                    passedOver = sheets.flatMap { sheet in
                        sheet.source.passedOver.map { "\(sheet.source.sheetName ?? sheet.name): \($0)" }
                    }
                    sources = sheets.map(\.source)
                    return (ImportSources.combining(sheets.map { ($0.name, $0.source) }), sheets.map(\.source.kind))
                }
            }
        } else {
            (summary, kinds) = try await importing {
                let csv = try CSVImportSource(
                    origin: .data(data, name: name),
                    kind: kind,
                    format: format,
                    currency: currency
                )
                passedOver = csv.passedOver
                sources = [csv]
                return (csv, [csv.kind])
            }
        }
        await app.imported(summary)
        // Totals rows are no records: said among what was passed over.
        passedOver += sources.flatMap { source in
            source.totalRows.map { "\(source.sheetName.map { "\($0): " } ?? "")line \($0): totals" }
        }
        let preview =
            summary.dryRun
            ? try sources.flatMap { try $0.preview() }.prefix(5).compactMap {
                row -> API.ImportResult.PreviewPayloadPayload? in
                guard case .sale(let sale) = row.record else { return nil }
                return API.ImportResult.PreviewPayloadPayload(
                    line: row.line,
                    date: sale.date.description,
                    clinic: sale.clinic,
                    product: sale.product,
                    quantity: sale.quantity,
                    unitPrice: sale.unitPrice.map { currency.format($0) },
                    unitCost: sale.unitCost.map { currency.format($0) },
                    discount: currency.format(sale.discount)
                )
            } : nil
        return try app.json(
            API.ImportResult(
                preview: preview,
                passedOver: passedOver,
                kind: kinds.count == 1 ? kinds[0].rawValue : "workbook",
                dryRun: summary.dryRun,
                clinics: summary.clinics,
                products: summary.products,
                terms: summary.terms,
                sales: summary.sales,
                prices: summary.prices,
                scheduleChanges: summary.scheduleChanges,
                deductions: summary.deductions
            ),
            status: summary.dryRun ? .ok : .created
        )
    }
}

/// The one backup a book's owner has uploaded and not yet confirmed or cancelled: a new upload
/// replaces it, and it expires after a quarter of an hour.
package final class RestoreStaging: Sendable {
    private struct Staged {
        var token: String
        var path: String
        var expires: Date
    }

    private let staged = Mutex<Staged?>(nil)
    private let clock: any WallClock
    /// How long an upload waits for its confirmation.
    static let lifetime: TimeInterval = 15 * 60

    package init(clock: any WallClock = SystemClock()) {
        self.clock = clock
    }

    /// Keeps `path` and returns the token that confirms it.
    package func stage(_ path: String) -> String {
        let token = Secret.make()
        let previous = staged.withLock { staged in
            defer { staged = Staged(token: token, path: path, expires: clock.now.addingTimeInterval(Self.lifetime)) }
            return staged?.path
        }
        // try?: the upload this one replaces, never to be confirmed; the OS cleans its temporary directory
        if let previous, previous != path { try? FileManager.default.removeItem(atPath: previous) }
        return token
    }

    /// The staged file of `token`, handed over once; nil when there is none, or it expired.
    package func take(_ token: String) -> String? {
        let taken: Staged? = staged.withLock { staged in
            guard let current = staged, Secret.matches(token, current.token) else { return nil }
            staged = nil
            return current
        }
        guard let taken else { return nil }
        guard taken.expires > clock.now else {
            // try?: the expired upload, never to be confirmed; the OS cleans its temporary directory
            try? FileManager.default.removeItem(atPath: taken.path)
            return nil
        }
        return taken.path
    }
}

/// The file's columns beside the fields, for her to say which holds what: each column's header,
/// its first value and a choice of field (what Commission would read it as, chosen already).
/// A file's columns beside the fields they may hold, for her to say which holds what
/// (`column-mapping.mustache`, on the Import page and on the bank and Compare forms): what her
/// saved mapping for these headers, or Commission's own reading of them, says is chosen already.
package struct ColumnMappingView: Sendable, TemplateValues {
    package typealias Choice = PageChoice

    package struct Column: Sendable, TemplateValues {
        let index: Int
        let header: String
        /// Its first row's value.
        let sample: String
        let options: [Choice]
        package init(index: Int, header: String, sample: String, options: [Choice]) {
            (self.index, self.header, self.sample, self.options) = (index, header, sample, options)
        }
    }

    let columns: [Column]
    /// The name to keep it under.
    let name: String
    /// What its button says it does next ("Keep the mapping and check the file").
    let button: String
    /// A refusal is about the columns it maps, or its name (``Problem/field``: `columns`, `mappingName`).
    var invalid = false, nameInvalid = false

    /// The table marked for a refusal about `field`, when it is the table's.
    func marked(_ field: String?) -> ColumnMappingView {
        var marked = self
        (marked.invalid, marked.nameInvalid) = (field == "columns", field == "mappingName")
        return marked
    }

    package init(columns: [Column], name: String, button: String) {
        (self.columns, self.name, self.button) = (columns, name, button)
    }

    /// The columns of `origin` (a CSV given), each with `fields` to choose from (`required` said so).
    init(
        origin: CSVImportSource.Origin,
        fields: [String],
        required: [String],
        form: Form,
        mappings: [ImportMapping],
        button: String = "Keep the mapping and check the file"
    ) throws {
        self.button = button
        let (headers, first) = try CSVImportSource.firstRows(of: origin)
        let fitting = mappings.first { $0.fits(headers) }
        columns = headers.enumerated().map { index, header in
            let chosen =
                form.values["map\(index)"] ?? fitting?.field(for: header) ?? CSVImportSource.fieldName(for: header)
                ?? ""
            return Column(
                index: index,
                header: header.isEmpty ? "(no header)" : header,
                sample: index < first.count ? String(first[index].prefix(40)) : "",
                options: [Choice(value: "", label: "(not read)", selected: chosen.isEmpty)]
                    + fields.map {
                        Choice(
                            value: $0,
                            label: $0 + (required.contains($0) ? " (required)" : ""),
                            selected: $0 == chosen
                        )
                    }
            )
        }
        name = form["mappingName"] ?? fitting?.name ?? ""
    }

    /// An import's: every field, the kind's required ones said.
    init(origin: CSVImportSource.Origin, kind: ImportKind?, form: Form, mappings: [ImportMapping]) throws {
        try self.init(
            origin: origin,
            fields: ImportMapping.importFields,
            required: kind.map(ImportMapping.requiredFields(of:)) ?? [],
            form: form,
            mappings: mappings
        )
    }
}

extension StoreError {
    /// A mapping's name that is not there, or that cannot be kept.
    var isAboutAMapping: Bool {
        switch self {
        case .unknownMapping: true
        case .invalid(let field, _): field.hasPrefix("mapping")
        default: false
        }
    }
}

/// The Import & export page (`transfer.mustache`): the CSV and workbook imports with what a dry run
/// read or refused, one Export control, the whole book's downloads, and (for an owner) Restore.
package struct TransferPageView: PageView {
    package typealias Choice = PageChoice

    /// A workbook checked and kept for her confirmation.
    package struct StagedWorkbook: Sendable, TemplateValues {
        let token: String, dates: String, again: Bool
        package init(token: String, dates: String, again: Bool) {
            (self.token, self.dates, self.again) = (token, dates, again)
        }
    }

    /// One sale of a dry run, as read.
    package struct PreviewRow: Sendable, TemplateValues {
        let line: Int, date: String, clinic: String, product: String, quantity: Int64, price: String, cost: String
        package init(
            line: Int,
            date: String,
            clinic: String,
            product: String,
            quantity: Int64,
            price: String,
            cost: String
        ) {
            (self.line, self.date, self.clinic, self.product, self.quantity, self.price, self.cost) = (
                line, date, clinic, product, quantity, price, cost
            )
        }
    }

    /// One problem, with every line it is on ("lines 3–14, 19").
    package struct ProblemRow: Sendable, TemplateValues {
        let lines: String, column: String, reason: String
        package init(lines: String, column: String, reason: String) {
            (self.lines, self.column, self.reason) = (lines, column, reason)
        }
    }

    /// A CSV checked and good, kept for her Import: its text and how it was read.
    package struct CheckedCSV: Sendable, TemplateValues {
        let csv: String, kind: String, dates: String, decimalComma: Bool, mapping: String
        package init(csv: String, kind: String, dates: String, decimalComma: Bool, mapping: String) {
            (self.csv, self.kind, self.dates, self.decimalComma, self.mapping) = (
                csv, kind, dates, decimalComma, mapping
            )
        }
    }

    package struct Restore: Sendable, TemplateValues {
        /// "An SQLite backup or a book archive".
        let takes: String
        let maxSize: String
        /// The file picker's `accept`.
        let accept: String
        package init(takes: String, maxSize: String, accept: String) {
            (self.takes, self.maxSize, self.accept) = (takes, maxSize, accept)
        }
    }

    /// An order of dates chosen (none: told from the file).
    package struct DatesChoice: Sendable, TemplateValues {
        let mdy: Bool, dmy: Bool, ymd: Bool
        package init(_ order: DateOrder?) { (mdy, dmy, ymd) = (order == .mdy, order == .dmy, order == .ymd) }
    }

    /// How the CSV form reads a file: as she chose, or as her book's locale writes (dates
    /// day-first, a decimal comma); "again" when she ticked it and was refused.
    package struct Reading: Sendable, TemplateValues {
        let dates: DatesChoice
        let decimalComma: Bool
        let again: Bool
        /// The field a refusal of the CSV form is about (`text`, `dates`, `mapping`, `again`).
        let invalid: FieldMarks
        package init(dates: DatesChoice, decimalComma: Bool, again: Bool, invalid: FieldMarks = FieldMarks()) {
            (self.dates, self.decimalComma, self.again, self.invalid) = (dates, decimalComma, again, invalid)
        }
    }

    /// The workbook form's choices, as ``Reading``; `open` unfolds them (its refusal, to send it again).
    package struct WorkbookForm: Sendable, TemplateValues {
        let dates: DatesChoice
        let again: Bool
        let open: Bool
        let invalid: FieldMarks
        package init(dates: DatesChoice, again: Bool, open: Bool, invalid: FieldMarks = FieldMarks()) {
            (self.dates, self.again, self.open, self.invalid) = (dates, again, open, invalid)
        }
    }

    let csv: String
    /// The reading options unfolded: she chose one, or the columns need her.
    let optionsOpen: Bool
    let importKinds: [Choice]
    /// Her saved column mappings, the one she chose selected.
    let savedMappings: [Choice]
    let hasSavedMappings: Bool
    let mapping: ColumnMappingView?
    /// What the checked file lacks of the book, to make with it.
    let needs: ImportNeedsView?
    let checked: CheckedCSV?
    let reading: Reading
    let workbookForm: WorkbookForm
    /// Something to answer stands first (a check's result, what a file lacks): the forms fold under it.
    let hasResult: Bool
    /// The fold shows open: her file was refused, and no answer stands above it.
    let formsOpen: Bool
    /// The box "Import it again" is shown: the file was imported before, or she ticked it.
    let alreadyImported: Bool
    let workbook: StagedWorkbook?
    let preview: [PreviewRow]
    let hasPreview: Bool
    let problems: [ProblemRow]
    let hasProblems: Bool
    let exports: [Choice]
    let backup: Bool, archive: Bool
    let wholeBook: Bool
    let restore: Restore?
    let csrf: String

    package init(
        csv: String,
        optionsOpen: Bool,
        importKinds: [Choice],
        savedMappings: [Choice],
        mapping: ColumnMappingView?,
        needs: ImportNeedsView? = nil,
        checked: CheckedCSV? = nil,
        reading: Reading = Reading(dates: DatesChoice(nil), decimalComma: false, again: false),
        workbookForm: WorkbookForm = WorkbookForm(dates: DatesChoice(nil), again: false, open: false),
        formsOpen: Bool = false,
        alreadyImported: Bool,
        workbook: StagedWorkbook?,
        preview: [PreviewRow],
        problems: [ProblemRow],
        exports: [Choice],
        backup: Bool,
        archive: Bool,
        restore: Restore?,
        csrf: String
    ) {
        (self.csv, self.optionsOpen, self.importKinds, self.savedMappings, self.mapping) = (
            csv, optionsOpen, importKinds, savedMappings, mapping
        )
        (self.alreadyImported, self.workbook, self.preview, self.problems, self.exports) = (
            alreadyImported, workbook, preview, problems, exports
        )
        (self.backup, self.archive, self.restore, self.csrf) = (backup, archive, restore, csrf)
        (hasSavedMappings, hasPreview, hasProblems, wholeBook) = (
            !savedMappings.isEmpty, !preview.isEmpty, !problems.isEmpty, backup || archive
        )
        (self.needs, self.checked) = (needs, checked)
        (self.reading, self.workbookForm, self.formsOpen) = (reading, workbookForm, formsOpen)
        hasResult = needs != nil || checked != nil || workbook != nil || !problems.isEmpty || !preview.isEmpty
    }
}

extension ExportKind {
    /// The Export control's order: what she exports most first.
    package static let shownOrder: [ExportKind] = [
        .sales, .payouts, .clinics, .products, .terms, .prices, .deductions, .schedules, .audit,
    ]

    /// Its name in the Export control.
    var label: String {
        switch self {
        case .sales: "Sales"
        case .payouts: "Payouts"
        case .clinics: "Clinics"
        case .products: "Products"
        case .terms: "Commission terms"
        case .prices: "Prices at clinics"
        case .deductions: "Deductions"
        case .schedules: "Pay schedule changes"
        case .audit: "The history of changes"
        }
    }
}

/// The confirmation before a restore (`restore.mustache`): what the backup holds beside what the book holds now.
package struct RestorePageView: PageView {
    /// The staged upload's token.
    let token: String
    let backup: ArchiveCounts, current: ArchiveCounts
    /// The backup brings its accounts: everyone signs in again.
    let replacesAccounts: Bool
    let downloadSQLite: Bool
    let csrf: String
    package init(
        token: String,
        backup: ArchiveCounts,
        current: ArchiveCounts,
        replacesAccounts: Bool,
        downloadSQLite: Bool,
        csrf: String
    ) {
        (self.token, self.backup, self.current, self.replacesAccounts, self.downloadSQLite, self.csrf) = (
            token, backup, current, replacesAccounts, downloadSQLite, csrf
        )
    }
}
