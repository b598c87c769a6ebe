import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Hummingbird

/// Her numbers against the clinic's: the clinic's own statement for a period (pasted, or a chosen
/// CSV file read into the form) set beside her book, line by line. She tells what the clinic calls
/// a product (remembered), ticks lines of theirs to add to her book, and ticks the lines she
/// disputes for a printable summary or a CSV to send back. Nothing in her book changes until she
/// adds lines.
struct CompareJob: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {
        pages.get("/compare") { request, context in
            let query = request.uri.queryParameters
            return try await comparePage(
                context: context,
                form: CompareForm(
                    clinic: query["clinic"].flatMap { Int64(String($0)) },
                    date: query["date"].map(String.init) ?? ""
                )
            )
        }
        pages.post("/compare") { request, context in
            try await compare(try await Form.read(request, context: context), context: context)
        }
        pages.post("/compare/file") { request, context in try await compareFile(request, context: context) }
    }

    func registerAPI<G>(on api: Registrar<G>) {
        api.post("/clinics/:id/compare") { request, context in try await compareAPI(request, context: context) }
    }

    /// `POST /api/v1/clinics/{id}/compare`: the clinic's statement (the body, a CSV or a PDF with
    /// text) beside her book for the period holding `date` (today by default), as the page sets it.
    /// Nothing in the book changes.
    func compareAPI(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        let settings = try await app.store.settings()
        let clinic = try await app.clinic(context)
        let day = try app.queryDay(request, "date", settings: settings) ?? settings.today()
        // A PDF is read by pdftotext, a process: a few at once, as workbooks are read.
        let reading = try ReadingQuery(request)
        let theirs = try await app.configuration.workbookReads.run {
            try await reading.read(Data(buffer: body), app: app, rows: "line") {
                try TheirStatement(origin: $0, format: $1, currency: settings.currency)
            }
        }
        let compared = try await StatementComparison.compare(
            theirs,
            clinic: clinic,
            period: clinic.calendar.period(containing: day),
            store: app.store
        )
        return try app.json(Presenter(currency: settings.currency).comparison(compared, said: theirs.said))
    }

    /// The Compare page: `form` as she sent it (her clinic and period, text, reading choices,
    /// ticks and names of theirs told), with the comparison when there is one. `field` is the
    /// field a refusal (`error`) is about, marked.
    func comparePage(
        context: AppRequestContext,
        form: CompareForm,
        comparison: StatementComparison? = nil,
        columnMapping: ColumnMappingView? = nil,
        message: String? = nil,
        error: String? = nil,
        errorLink: PageLink? = nil,
        field: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let settings = try await app.store.settings()
        let style = settings.style
        var clinics = try await app.store.clinics(ClinicQuery())
        // An archived clinic's statement links here too: its clinic is offered beside the others.
        if let id = form.clinic, !clinics.contains(where: { $0.id.rawValue == id }),
            // try?: an id that is no clinic's adds nothing to the picker, which offers the others
            let archived = try? await app.store.clinic(Clinic.ID(id)), archived.isArchived
        {
            clinics.append(archived)
        }
        let products = try await app.store.products(ProductQuery())
        let today = settings.today()
        // The period her chosen day falls in (a statement's link, her last choice), else the first clinic's last ended one.
        // try?: a date that is not a day chooses the period of today
        let chosenDay = (try? Day(parsing: form.date)) ?? today
        let chosen: (clinic: Clinic.ID, start: Day)? =
            if let clinic = clinics.first(where: { $0.id.rawValue == form.clinic }) {
                (clinic.id, clinic.calendar.period(containing: chosenDay).start)
            } else {
                clinics.first.map {
                    (
                        $0.id,
                        $0.calendar.period(containing: $0.calendar.period(containing: today).start.adding(days: -1))
                            .start
                    )
                }
            }
        let pickers = clinics.map { clinic in
            var periods: [PayPeriod] = [clinic.calendar.period(containing: today)]
            while periods.count < Self.periodsOffered, periods.last!.start > AcceptedDays.earliest {
                periods.append(clinic.calendar.period(containing: periods.last!.start.adding(days: -1)))
            }
            // The chosen period, should it be older than those offered.
            if let chosen, chosen.clinic == clinic.id, !periods.contains(where: { $0.start == chosen.start }) {
                periods.append(clinic.calendar.period(containing: chosen.start))
            }
            return ComparePageView.Clinic(
                name: clinic.name + (clinic.isArchived ? " (archived)" : ""),
                periods: periods.map { period in
                    .init(
                        value: "\(clinic.id)/\(period.start)",
                        label: style.formatShort(period) + (period.end >= today ? " (running)" : ""),
                        selected: chosen.map { $0.clinic == clinic.id && $0.start == period.start } ?? false
                    )
                }
            )
        }
        // Her saved column mappings, to read a statement whose headers are not known with one.
        let saved = try await (app.store as? any ImportMappings)?.mappings() ?? []
        let result = comparison.map { comparison in
            let unknown = Array(
                Set(
                    comparison.lines.compactMap { line -> String? in
                        line.differences.lazy.compactMap {
                            if case .unknownProduct(let name) = $0 { name } else { nil }
                        }.first
                    }
                )
            ).sorted()
            let agree = comparison.lines.count - comparison.differing.count
            // The names of theirs she told, as she told them.
            let told = Dictionary(form.aliases, uniquingKeysWith: { _, last in last })
            return ComparePageView.Result(
                title: "\(comparison.clinic.name) · \(style.format(comparison.period))",
                theirTotal: style.format(comparison.theirTotal),
                herTotal: style.format(comparison.herTotal),
                difference: style.formatSigned(comparison.difference),
                agree: "\(agree) line\(agree == 1 ? "" : "s") agree\(agree == 1 ? "s" : "").",
                allAgree: comparison.differing.isEmpty,
                unknown: unknown.enumerated().map { index, name in
                    .init(
                        index: index,
                        name: name,
                        products: products.map {
                            .init(id: $0.id.rawValue, name: $0.name, selected: told[name] == $0.id.rawValue)
                        }
                    )
                },
                lines: comparison.differing.enumerated().map { index, line in
                    .init(
                        number: index + 1,
                        date: style.format(line.date),
                        product: line.product,
                        theirs: line.theirFigures(style.format),
                        yours: line.herFigures(style.format),
                        what: line.explained(style.format),
                        difference: style.formatSigned(line.commissionDifference),
                        canAccept: line.canAccept,
                        accepted: form.accepted.contains(index + 1),
                        disputed: form.disputed.contains(index + 1)
                    )
                }
            )
        }
        let view = ComparePageView(
            clinics: pickers,
            text: form.text,
            decimalComma: form.decimalComma,
            optionsOpen: form.dates != nil || form.decimalComma || !form.mapping.isEmpty || columnMapping != nil
                || field == "dates" || field == "mapping",
            dateOrders: DateOrder.allCases.map {
                .init(value: $0.rawValue, label: $0.described, selected: $0 == form.dates)
            },
            savedMappings: saved.map {
                .init(value: $0.name, label: "the mapping “\($0.name)”", selected: $0.name == form.mapping)
            },
            columnMapping: columnMapping?.marked(field),
            comparison: result,
            invalid: FieldMarks(field),
            csrf: context.csrfToken ?? ""
        )
        return try await app.page(
            "compare",
            view: view,
            title: "Compare with the clinic's statement",
            nav: "statements",
            context: context,
            status: status,
            message: message,
            error: error,
            errorLink: errorLink
        )
    }

    /// The largest statement file the page reads (it is read whole): a 3,000-line PDF is ~130 KB.
    static let largestStatement = 32 << 20

    /// How many of each clinic's periods the picker offers, the running one first.
    static let periodsOffered = 13

    /// Their statement as a file (`multipart/form-data`, its `statementFile` part): a PDF (what
    /// their accounting software prints) is read as the table it shows, a CSV as its text; either
    /// becomes the form's statement text — shown in its box, so that what she does next (a name of
    /// theirs told, lines ticked) posts it as pasted text — and is compared as that.
    func compareFile(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (path, fields) = try await app.receiveUpload(
            request,
            context: context,
            field: "statementFile",
            missing: "Choose their statement's file, or paste its text.",
            tooLarge:
                "Their statement is larger than \(TransferJob.size(Self.largestStatement)), more than a clinic's statement is: choose the PDF or CSV they sent, or paste its lines.",
            limit: Self.largestStatement
        )
        // try?: the upload, read by now or refused; the OS cleans its temporary directory
        defer { try? FileManager.default.removeItem(atPath: path) }
        // A new statement is compared, whatever button of the page sent it: the ticks and names of
        // theirs told of the statement shown before are not carried over to this one.
        var values = Form(values: fields.filter { ["period", "dates", "decimalComma", "mapping"].contains($0.key) })
        values.values["action"] = "compare"
        let read: String
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            if PDFTable.isPDF(data) {
                // pdftotext, a process, on the upload as it lies: a few at once, as workbooks are read.
                let pdf = try await app.configuration.workbookReads.run {
                    try PDFTable.csv(ofPDFAt: path, name: "Their statement")
                }
                values.values["statement"] = pdf.csv
                read =
                    "Read from their PDF (\((["its table's text is in the box below"] + pdf.said).joined(separator: "; ")))."
            } else if let text = String(data: data, encoding: .utf8), !text.contains("\0") {
                values.values["statement"] = text
                read = "Read from their file: its text is in the box below."
            } else {
                var problem = Problem(
                    .unprocessableContent,
                    "Their statement is neither a PDF nor a CSV file: choose the PDF or CSV they sent, or paste its lines."
                )
                problem.field = "text"
                throw problem
            }
        } catch let error as PDFTableError {
            return try await comparePage(
                context: context,
                form: CompareForm(values),
                error: error.said(on: .page),
                field: "text",
                status: .unprocessableContent
            )
        } catch let problem as Problem {
            return try await comparePage(
                context: context,
                form: CompareForm(values),
                error: problem.detail,
                field: problem.field,
                status: .init(code: problem.status)
            )
        }
        return try await compare(values, context: context, read: read)
    }

    /// Their statement (pasted, or `read` from a file: said first) beside her book, and what she
    /// does with it: a name of theirs told, lines added, lines disputed.
    func compare(_ values: Form, context: AppRequestContext, read: String? = nil) async throws -> Response {
        var form = CompareForm(values)
        let origin = CSVImportSource.Origin.data(Data(form.text.utf8), name: "Their statement")
        let settings = try await app.store.settings()
        // What the page shows once the statement is read, kept for a refusal of what she does with it.
        var comparison: StatementComparison?
        var columns: ColumnMappingView?
        func table() async throws -> ColumnMappingView {
            try await app.columnTable(
                origin,
                fields: ["date", "product", "quantity", "unit price", "commission"],
                required: ["date", "product", "commission"],
                form: values,
                button: "Keep the mapping and compare"
            )
        }
        // Their statement beside her book, for the clinic and period chosen.
        func comparing(_ clinic: Clinic, on day: Day) async throws -> StatementComparison {
            let theirs: TheirStatement
            do {
                theirs = try await app.readPasted(
                    form.text,
                    what: "Their statement",
                    rows: "line",
                    dates: form.dates,
                    decimalComma: form.decimalComma,
                    mapping: form.mapping
                ) {
                    try TheirStatement(origin: $0, format: $1, currency: settings.currency)
                }
            } catch var problem as Problem {
                // A statement that cannot be read: the refusal is about her text (or the mapping she chose).
                problem.field = problem.field ?? "text"
                throw problem
            }
            return try await StatementComparison.compare(
                theirs,
                clinic: clinic,
                period: clinic.calendar.period(containing: day),
                store: app.store
            )
        }
        return try await app.form {
            guard let clinicID = form.clinic else {
                var problem = Problem(.unprocessableContent, "Choose the clinic whose statement it is.")
                problem.field = "period"
                throw problem
            }
            let clinic = try await app.store.clinic(Clinic.ID(clinicID))
            let day = try Problem.about("period") { try Day(parsing: form.date) }
            // What she told of the clinic's product names, remembered first.
            if let aliases = app.store as? any ProductAliases {
                for (name, product) in form.aliases {
                    try await aliases.setAlias(
                        ProductAlias(clinicID: clinic.id, name: name, productID: Product.ID(product))
                    )
                }
            }
            // Her mapping of the statement's columns, from the form that showed them: kept, then used.
            if values["action"] == "map" {
                columns = try await table()
                form.mapping = try await app.saveMapping(values, origin: origin, kind: nil).name
                columns = nil
            }
            let compared: StatementComparison
            do {
                compared = try await comparing(clinic, on: day)
            } catch let unknown as UnknownColumns {
                // Columns it does not know: their statement's columns beside the fields, for her to say which holds what.
                return try await comparePage(
                    context: context,
                    form: form,
                    columnMapping: try await table(),
                    error: unknown.said + " Say which column holds what below.",
                    status: .unprocessableContent
                )
            }
            comparison = compared
            let differing = compared.differing
            switch values["action"] {
            case "accept":
                let chosen = form.accepted.sorted().compactMap {
                    $0 >= 1 && $0 <= differing.count ? differing[$0 - 1] : nil
                }.filter(\.canAccept)
                guard !chosen.isEmpty, chosen.count == form.accepted.count else {
                    throw Problem(
                        .unprocessableContent,
                        form.accepted.isEmpty
                            ? "Tick the lines of theirs to add to your book."
                            : "Some ticked lines are no longer missing from your book: compare again. Nothing was added."
                    )
                }
                let rows = chosen.compactMap { line in
                    line.theirs.map { their in
                        ImportRow(
                            line: their.line,
                            record: .sale(
                                NamedSaleDraft(
                                    clinic: clinic.name,
                                    product: line.product,
                                    date: their.date,
                                    quantity: their.quantity,
                                    unitPrice: their.price,
                                    note: "From \(clinic.name)'s statement (line \(their.line))"
                                )
                            )
                        )
                    }
                }
                let summary = try await app.store.importRows(from: ArrayImportSource(rows), options: ImportOptions())
                app.configuration.metrics?.imported(summary)
                let again = try await comparing(clinic, on: day)
                return try await comparePage(
                    context: context,
                    form: form.withoutTicks,
                    comparison: again,
                    message:
                        "Added \(summary.sales) sale\(summary.sales == 1 ? "" : "s") from their statement to your book."
                )
            case "dispute", "dispute-csv":
                let numbers = Set(form.disputed.filter { $0 >= 1 && $0 <= differing.count })
                guard !numbers.isEmpty else { throw Problem(.unprocessableContent, "Tick the lines you dispute.") }
                let renderer = Renderer(currency: settings.currency)
                if values["action"] == "dispute-csv" {
                    let name =
                        "dispute-\(clinic.name.filter { $0.isLetter || $0.isNumber })-\(compared.period.start).csv"
                    return StatementsJob.csv(try renderer.disputeCSV(compared, lines: numbers), name: name)
                }
                return try await disputePage(compared, numbers: numbers, context: context, style: settings.style)
            default:
                return try await comparePage(context: context, form: form, comparison: compared, message: read)
            }
        } refused: { refusal in
            // Refused before the statement was set beside her book (a name of theirs she told):
            // set beside it again, so that the table, her ticks and her names stay.
            if comparison == nil, columns == nil, values["action"] != "map", let id = form.clinic,
                // try?: what cannot be set beside it again is only not shown; the refusal is said.
                let clinic = try? await app.store.clinic(Clinic.ID(id)), let day = try? Day(parsing: form.date)
            {
                // try?: as above, a statement that cannot be read again is only not shown.
                comparison = try? await comparing(clinic, on: day)
            }
            return try await comparePage(
                context: context,
                form: form,
                comparison: comparison,
                columnMapping: columns,
                error: refusal.detail,
                errorLink: refusal.link,
                field: refusal.field(renaming: ["clinic": "period", "date": "period"]),
                status: .init(code: refusal.status)
            )
        }
    }

    /// The dispute to send back, printable: the clinic, the period, each disputed line with both
    /// sides' figures and what differs, and what they add up to.
    func disputePage(
        _ comparison: StatementComparison,
        numbers: Set<Int>,
        context: AppRequestContext,
        style: LocaleStyle
    ) async throws -> Response {
        var total = Money.zero
        // A total that does not fit is refused, as the dispute's CSV refuses it, never shown short of a line.
        let disputed = comparison.differing.enumerated().filter { numbers.contains($0.offset + 1) }
        let lines = try disputed.map { index, line in
            total = try total.adding(line.commissionDifference)
            return DisputePageView.Line(
                date: style.format(line.date),
                product: line.product,
                theirs: line.theirs.map { "\($0.quantity) → \(style.format($0.commission))" } ?? "—",
                yours: line.hers.map { "\($0.quantity) → \(style.format($0.figures.commission))" } ?? "—",
                what: line.explained(style.format, toClinic: true),
                difference: style.formatSigned(line.commissionDifference)
            )
        }
        let view = DisputePageView(
            clinic: comparison.clinic.name,
            period: style.format(comparison.period),
            lines: lines,
            total: style.formatSigned(total),
            theirTotal: style.format(comparison.theirTotal),
            herTotal: style.format(comparison.herTotal)
        )
        return try await app.page(
            "dispute",
            view: view,
            title: "Dispute: \(comparison.clinic.name)",
            nav: "statements",
            context: context
        )
    }
}

/// What the compare form carries from one step to the next.
struct CompareForm {
    var clinic: Int64?
    var date = ""
    var text = ""
    var dates: DateOrder?
    var decimalComma = false
    /// The saved column mapping she chose, by name ("": the one saved for the file's headers, if any).
    var mapping = ""
    /// The clinic's product names she told, in the page's order: their name → her product's id.
    var aliases: [(String, Int64)] = []
    /// The differing lines ticked to add to her book, and to dispute, by number.
    var accepted: Set<Int> = [], disputed: Set<Int> = []

    init(clinic: Int64?, date: String) {
        self.clinic = clinic
        self.date = date
    }

    init(_ form: Form) {
        clinic = form["clinic"].flatMap(Int64.init)
        date = form["date"] ?? ""
        // The period picker's choice, `CLINIC/START`: its clinic and a day of it.
        if let chosen = form["period"], let slash = chosen.firstIndex(of: "/"), let id = Int64(chosen[..<slash]) {
            (clinic, date) = (id, String(chosen[chosen.index(after: slash)...]))
        }
        text = form.values["statement"] ?? ""
        dates = form["dates"].flatMap(DateOrder.init(rawValue:))
        decimalComma = form["decimalComma"] != nil
        mapping = form["mapping"] ?? ""
        var told: [(index: Int, name: String, product: Int64)] = []
        for (key, value) in form.values {
            if key.hasPrefix("accept"), let number = Int(key.dropFirst(6)), value == "1" { accepted.insert(number) }
            if key.hasPrefix("dispute"), let number = Int(key.dropFirst(7)), value == "1" { disputed.insert(number) }
            if key.hasPrefix("aliasName"), let index = Int(key.dropFirst(9)),
                let product = form["aliasProduct\(index)"].flatMap(Int64.init)
            {
                told.append((index, value, product))
            }
        }
        // In the page's order: the first refused is the first she told.
        aliases = told.sorted { $0.index < $1.index }.map { ($0.name, $0.product) }
    }

    var withoutTicks: CompareForm {
        var form = self
        form.accepted = []
        form.disputed = []
        return form
    }
}

/// The Compare page (`compare.mustache`): her clinic's period picked from a list, their statement,
/// and once compared, the totals side by side and each line that differs with what to do about it.
package struct ComparePageView: PageView {
    package typealias Choice = PageChoice

    /// A clinic's periods, the running one first (an `optgroup`).
    package struct Clinic: Sendable, TemplateValues {
        let name: String
        let periods: [Choice]
        package init(name: String, periods: [Choice]) { (self.name, self.periods) = (name, periods) }
    }

    /// A product name of theirs she has not told yet, with her products to choose from (the one
    /// she chose, when the form comes back to her).
    package struct Unknown: Sendable, TemplateValues {
        let index: Int, name: String
        let products: [PageOption]
        package init(index: Int, name: String, products: [PageOption]) {
            (self.index, self.name, self.products) = (index, name, products)
        }
    }

    package struct Line: Sendable, TemplateValues {
        let number: Int, date: String, product: String, theirs: String, yours: String, what: String, difference: String
        /// She ticked it to add to her book, or to dispute.
        let canAccept: Bool, accepted: Bool, disputed: Bool
        package init(
            number: Int,
            date: String,
            product: String,
            theirs: String,
            yours: String,
            what: String,
            difference: String,
            canAccept: Bool,
            accepted: Bool = false,
            disputed: Bool
        ) {
            (self.number, self.date, self.product, self.theirs, self.yours, self.what, self.difference) = (
                number, date, product, theirs, yours, what, difference
            )
            (self.canAccept, self.accepted, self.disputed) = (canAccept, accepted, disputed)
        }
    }

    package struct Result: Sendable, TemplateValues {
        let title: String, theirTotal: String, herTotal: String, difference: String
        /// "3 lines agree."
        let agree: String
        let allAgree: Bool
        let unknown: [Unknown]
        let hasUnknown: Bool
        let lines: [Line]
        package init(
            title: String,
            theirTotal: String,
            herTotal: String,
            difference: String,
            agree: String,
            allAgree: Bool,
            unknown: [Unknown],
            lines: [Line]
        ) {
            (self.title, self.theirTotal, self.herTotal, self.difference, self.agree, self.allAgree) = (
                title, theirTotal, herTotal, difference, agree, allAgree
            )
            (self.unknown, self.hasUnknown, self.lines) = (unknown, !unknown.isEmpty, lines)
        }
    }

    let clinics: [Clinic]
    let text: String
    let decimalComma: Bool
    /// The reading options unfolded: she chose one, or the columns need her.
    let optionsOpen: Bool
    let dateOrders: [Choice]
    let savedMappings: [Choice]
    let hasSavedMappings: Bool
    let columnMapping: ColumnMappingView?
    let comparison: Result?
    /// The field a refusal is about (`period`, `text`, `dates`, `mapping`).
    let invalid: FieldMarks
    /// Under a comparison, the statement's form unfolded: a refusal is about it, or its columns need her.
    let inputOpen: Bool
    let csrf: String

    package init(
        clinics: [Clinic],
        text: String,
        decimalComma: Bool,
        optionsOpen: Bool,
        dateOrders: [Choice],
        savedMappings: [Choice],
        columnMapping: ColumnMappingView?,
        comparison: Result?,
        invalid: FieldMarks = FieldMarks(),
        csrf: String
    ) {
        self.invalid = invalid
        inputOpen = columnMapping != nil || invalid.period || invalid.text || invalid.dates || invalid.mapping
        (self.clinics, self.text, self.decimalComma, self.optionsOpen, self.dateOrders) = (
            clinics, text, decimalComma, optionsOpen, dateOrders
        )
        (self.savedMappings, self.hasSavedMappings, self.columnMapping, self.comparison, self.csrf) = (
            savedMappings, !savedMappings.isEmpty, columnMapping, comparison, csrf
        )
    }
}

/// The dispute to send back (`dispute.mustache`): printable, in the clinic's words ("yours", "mine").
package struct DisputePageView: PageView {
    package struct Line: Sendable, TemplateValues {
        let date: String, product: String, theirs: String, yours: String, what: String, difference: String
        package init(date: String, product: String, theirs: String, yours: String, what: String, difference: String) {
            (self.date, self.product, self.theirs, self.yours, self.what, self.difference) = (
                date, product, theirs, yours, what, difference
            )
        }
    }

    let clinic: String, period: String
    let lines: [Line]
    let total: String, theirTotal: String, herTotal: String

    package init(clinic: String, period: String, lines: [Line], total: String, theirTotal: String, herTotal: String) {
        (self.clinic, self.period, self.lines, self.total, self.theirTotal, self.herTotal) = (
            clinic, period, lines, total, theirTotal, herTotal
        )
    }
}
