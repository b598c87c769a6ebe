import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Hummingbird

/// Her history in one pass, on the Import page: when a file names clinics or products the book
/// does not have (or a clinic's sales before its split), the check offers to make them —
/// a row each, filled from the file (a new clinic's split from its first sale, a product's price
/// and cost from its first line) — and imports them and the file in one transaction once she
/// confirms. The file is kept through it: a pasted CSV rides in the form, a workbook stays staged.
extension TransferJob {
    /// Where a checked file's rows come from, for the form that makes what it lacks.
    package enum CheckedFile: Sendable {
        /// A CSV pasted or chosen, with how it is read.
        case csv(text: String, kind: ImportKind?, dates: DateOrder?, decimalComma: Bool, mapping: String?)
        /// A workbook kept on the server under its staging token.
        case workbook(token: String, dates: DateOrder?)
    }

    /// `POST /import/additions`: her answers for what the file lacks, made with the file in one import.
    func importAdditions(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        let settings = try await app.store.settings()
        let file: CheckedFile
        var path: String?
        if let token = form["token"] {
            guard let staged = app.importStaging.take(token) else {
                return try await transferPage(
                    context: context,
                    error: "That upload has expired or was imported already: choose the workbook again.",
                    status: .conflict
                )
            }
            path = staged
            file = .workbook(token: token, dates: form["dates"].flatMap(DateOrder.init(rawValue:)))
        } else {
            file = .csv(
                text: form.values["csv"] ?? "",
                kind: form["kind"].flatMap(ImportKind.init(rawValue:)),
                dates: form["dates"].flatMap(DateOrder.init(rawValue:)),
                decimalComma: form["decimalComma"] != nil,
                mapping: form["mapping"]
            )
        }
        defer { if let path { try? FileManager.default.removeItem(atPath: path) } }  // taken: imported or staged again
        /// The form again, as she filled it, with what went wrong at its top.
        func again(_ error: String, status: HTTPResponse.Status = .unprocessableContent) async throws -> Response {
            let kept = try path.map { try keep(staged: $0) }
            let needs = try await findNeeds(for: file, path: kept.map(\.path) ?? path, settings: settings)
            guard let needs else { return try await transferPage(context: context, error: error, status: status) }
            return try await transferPage(
                context: context,
                needs: ImportNeedsView(
                    needs,
                    file: kept.map { .workbook(token: $0.token, dates: file.dates) } ?? file,
                    answers: form.values,
                    settings: settings,
                    again: form["again"] != nil,
                    csrf: context.csrfToken ?? ""
                ),
                error: error,
                status: status
            )
        }
        let additions: Additions
        do {
            additions = try Self.additions(from: form, style: settings.style)
        } catch let problem as Problem {
            return try await again(problem.detail)
        }
        do {
            let (source, digest, read) = try await checkedSource(file, path: path, settings: settings)
            let summary = try await app.configuration.workbookReads.run {
                try await app.store.importRows(
                    from: additions.importing(source),
                    options: ImportOptions(digests: [digest], again: form["again"] != nil)
                )
            }
            await app.imported(summary)
            return try await transferPage(
                context: context,
                // A title above the header and totals rows are not records: passed over, and said.
                message: "Imported \(summary.counted)\(Self.passedOver(read)).",
                messageLink: PageLink.afterImport
            )
        } catch let StoreError.importRejected(problems, total) {
            let said = ImportProblem.grouped(problems, on: .page).prefix(3).map(\.description)
            return try await again(
                "Nothing was imported: \(total) row problem\(total == 1 ? "" : "s"). " + said.joined(separator: " ")
            )
        } catch let error as StoreError {
            return try await again(
                error.message(on: .page),
                status: error.isServerFailure ? .serviceUnavailable : .unprocessableContent
            )
        } catch let error as CSVFileError {
            return try await transferPage(context: context, error: error.description, status: .unprocessableContent)
        }
    }

    /// A staged workbook's file moved to a new staging (a refused answer keeps it for the next).
    func keep(staged path: String) throws -> (path: String, token: String) {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
            "commission-import-\(UUID().uuidString)"
        ).path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        return (copy, app.importStaging.stage(copy))
    }

    /// What the import passed over that was not a record (a title above the header, a totals
    /// row), per sheet: ` (passed over the title on line 1; passed over the totals row on line 9)`,
    /// or nothing.
    static func passedOver(_ read: [(name: String?, source: CSVImportSource)]) -> String {
        let said = read.compactMap { named -> String? in
            let rows = named.source.rowsPassedOverSaid
            guard !rows.isEmpty else { return nil }
            return (named.name.map { "\($0): " } ?? "") + rows.joined(separator: ", ")
        }
        return said.isEmpty ? "" : " (\(said.joined(separator: "; ")))"
    }

    /// The file's rows, the digest kept with its import, and each sheet (or the file) as read, for
    /// what it passed over to be said after.
    func checkedSource(
        _ file: CheckedFile,
        path: String?,
        settings: BookSettings
    ) async throws -> (any ImportSource, ImportDigest, read: [(name: String?, source: CSVImportSource)]) {
        switch file {
        case .csv(let text, let kind, let dates, let decimalComma, let mapping):
            let saved = try await (app.store as? any ImportMappings)?.mappings() ?? []
            let source = try CSVImportSource(
                origin: .data(Data(text.utf8), name: "The file"),
                kind: kind,
                format: CSVFormat(
                    decimalComma: decimalComma,
                    dates: dates,
                    mapping: try mapping.map { try saved.named($0) },
                    saved: saved
                ),
                currency: settings.currency
            )
            return (source, ImportDigest(name: "This file", data: Data(text.utf8)), [(nil, source)])
        case .workbook(_, let dates):
            guard let path else { throw CSVFileError.cannotOpen("the workbook") }
            let workbook = try Workbook(path: path, limits: app.configuration.workbookLimits)
            let sheets = try workbook.importSources(format: CSVFormat(dates: dates), currency: settings.currency)
                .sources
            return (
                ImportSources.combining(sheets.map { ($0.name, $0.source) }),
                try ImportDigest.ofFile(atPath: path, name: "This workbook"),
                sheets.map { ("“\($0.source.sheetName ?? $0.name)”", $0.source) }
            )
        }
    }

    /// What the checked file lacks of the book, or nil when it lacks nothing (its problems, if
    /// any, are rows to correct).
    func findNeeds(for file: CheckedFile, path: String?, settings: BookSettings) async throws -> MissingRecords? {
        let (source, _, _) = try await checkedSource(file, path: path, settings: settings)
        return try await app.configuration.workbookReads.run {
            try await MissingRecords.find(importing: source, into: app.store)
        }
    }

    /// Her answers, read and checked field by field before anything is written.
    static func additions(from form: Form, style: LocaleStyle) throws -> Additions {
        func share(_ name: String, _ who: String) throws -> Share {
            do { return try Share(parsing: form[name] ?? "") } catch {
                throw Problem(.unprocessableContent, "Your share at \(who): \(error)")
            }
        }
        func day(_ name: String, _ who: String) throws -> Day {
            do { return try Day(parsing: form[name] ?? "") } catch {
                throw Problem(.unprocessableContent, "The first day of your split at \(who): \(error)")
            }
        }
        func basis(_ name: String) -> CommissionBasis { CommissionBasis(rawValue: form[name] ?? "") ?? .profit }
        var additions = Additions()
        for index in 0..<ImportNeedsView.limit {
            guard let name = form["clinic\(index)"] else { continue }
            var picker = Form("")
            picker.values = [
                "scheduleKind": form["kind\(index)"] ?? "monthly", "weekday": form["weekday\(index)"] ?? "",
                "anchor": form["anchor\(index)"] ?? "",
            ]
            let schedule: PaySchedule
            do { schedule = try BookJob.schedule(picker) } catch {
                throw Problem(.unprocessableContent, "How \(name) pays you: \(error)")
            }
            additions.clinics.append(
                .init(
                    name: name,
                    schedule: schedule,
                    share: try share("share\(index)", name),
                    basis: basis("basis\(index)"),
                    from: try day("from\(index)", name)
                )
            )
        }
        for index in 0..<ImportNeedsView.limit {
            guard let name = form["product\(index)"] else { continue }
            func amount(_ field: String, _ what: String) throws -> Money {
                guard let text = form[field] else {
                    if what == "cost" { return .zero }
                    throw Problem(.unprocessableContent, "\(name): give its price.")
                }
                do { return try style.parse(text) } catch {
                    throw Problem(.unprocessableContent, "\(name): the \(what): \(error)")
                }
            }
            additions.products.append(
                ProductDraft(
                    name: name,
                    unitPrice: try amount("price\(index)", "price"),
                    unitCost: try amount("cost\(index)", "cost")
                )
            )
        }
        for index in 0..<ImportNeedsView.limit {
            guard let clinic = form["terms\(index)"] else { continue }
            additions.terms.append(
                .init(
                    clinic: clinic,
                    share: try share("tshare\(index)", clinic),
                    basis: basis("tbasis\(index)"),
                    from: try day("tfrom\(index)", clinic)
                )
            )
        }
        return additions
    }
}

extension TransferJob.CheckedFile {
    var dates: DateOrder? {
        switch self {
        case .csv(_, _, let dates, _, _), .workbook(_, let dates): dates
        }
    }
}

/// What a checked file lacks of the book, as a form to fill (`transfer.mustache`): a row per new
/// clinic (how it pays, her share, from the file's first sale there), per new product (its price
/// and cost from the file's first line), per clinic without terms for the file's dates; the file
/// kept in it (the CSV's text, or the staged workbook's token) and how it is read.
package struct ImportNeedsView: Sendable, TemplateValues {
    /// The most rows of each kind a form holds (a file naming more is told to split).
    static let limit = 200

    package struct ClinicRow: Sendable, TemplateValues {
        let index: Int, name: String, firstSale: String, from: String
        let kinds: [PageChoice], weekdays: [PageChoice], anchor: String
        let share: String, revenue: Bool
    }

    package struct ProductRow: Sendable, TemplateValues {
        let index: Int, name: String, price: String, cost: String
    }

    package struct TermsRow: Sendable, TemplateValues {
        let index: Int, clinic: String, firstSale: String, from: String, share: String, revenue: Bool
    }

    /// "Your file names 2 clinics and 3 products your book does not have yet."
    let said: String
    let clinics: [ClinicRow], products: [ProductRow], terms: [TermsRow]
    let hasClinics: Bool, hasProducts: Bool, hasTerms: Bool
    /// "Create them and import 240 sales".
    let button: String
    /// The rows to correct in the file first, when there are (the form then waits for them).
    let otherProblems: [TransferPageView.ProblemRow]
    let hasOtherProblems: Bool
    // The file, kept: a CSV's text and reading options, or a workbook's staging token.
    let csv: String?, kind: String, dates: String, decimalComma: Bool, mapping: String, token: String?
    let again: Bool
    let csrf: String

    /// `answers`: what she filled in when the form is drawn again (nil: as the file proposes).
    package init(
        _ needs: MissingRecords,
        file: TransferJob.CheckedFile,
        answers: [String: String]?,
        settings: BookSettings,
        again: Bool = false,
        csrf: String
    ) {
        let style = settings.style
        func value(_ name: String, _ otherwise: String) -> String { answers?[name] ?? otherwise }
        clinics = needs.clinics.prefix(Self.limit).enumerated().map { index, clinic in
            let kind = value("kind\(index)", "monthly")
            return ClinicRow(
                index: index,
                name: clinic.name,
                firstSale: style.format(clinic.firstSale),
                from: value("from\(index)", clinic.firstSale.description),
                kinds: BookJob.scheduleKinds.map {
                    PageChoice(value: $0.value, label: $0.label, selected: $0.value == kind)
                },
                weekdays: PageChoice.weekdays(
                    selected: Weekday.allCases.first { $0.description == value("weekday\(index)", "monday") }
                ),
                anchor: value("anchor\(index)", clinic.firstSale.description),
                share: value("share\(index)", ""),
                revenue: value("basis\(index)", "profit") == "revenue"
            )
        }
        products = needs.products.prefix(Self.limit).enumerated().map { index, product in
            ProductRow(
                index: index,
                name: product.name,
                price: value("price\(index)", product.unitPrice.map { style.formatInput($0) } ?? ""),
                cost: value("cost\(index)", product.unitCost.map { style.formatInput($0) } ?? "")
            )
        }
        terms = needs.terms.prefix(Self.limit).enumerated().map { index, terms in
            TermsRow(
                index: index,
                clinic: terms.clinic,
                firstSale: style.format(terms.from),
                from: value("tfrom\(index)", terms.from.description),
                share: value("tshare\(index)", terms.share?.percentText ?? ""),
                revenue: value("tbasis\(index)", terms.basis.rawValue) == "revenue"
            )
        }
        (hasClinics, hasProducts, hasTerms) = (!clinics.isEmpty, !products.isEmpty, !terms.isEmpty)
        func count(_ n: Int, _ one: String, _ many: String) -> String? { n == 0 ? nil : "\(n) \(n == 1 ? one : many)" }
        let lacking = [count(clinics.count, "clinic", "clinics"), count(products.count, "product", "products")]
            .compactMap { $0 }
        let withoutTerms = terms.map(\.clinic)
        said =
            (lacking.isEmpty
                ? "" : "Your file names \(lacking.joined(separator: " and ")) your book does not have yet. ")
            + (withoutTerms.isEmpty
                ? ""
                : "It has sales at \(withoutTerms.joined(separator: ", ")) from before your split there begins. ")
            + "Say how each pays you: they are made and every sale imported in one step."
        button =
            "Create \(lacking.isEmpty ? "the splits" : "them") and import \(needs.sales) sale\(needs.sales == 1 ? "" : "s")"
        otherProblems = ImportProblem.grouped(needs.otherProblems, on: .page).map {
            .init(lines: $0.linesSaid, column: $0.column ?? "", reason: $0.reason)
        }
        hasOtherProblems = !otherProblems.isEmpty
        switch file {
        case .csv(let text, let kind, let dates, let decimalComma, let mapping):
            (csv, self.kind, self.dates, self.decimalComma, self.mapping, token) = (
                text, kind?.rawValue ?? "", dates?.rawValue ?? "", decimalComma, mapping ?? "", nil
            )
        case .workbook(let token, let dates):
            (csv, kind, self.dates, decimalComma, mapping, self.token) = (
                nil, "", dates?.rawValue ?? "", false, "", token
            )
        }
        self.again = again
        self.csrf = csrf
    }
}
