import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Hummingbird

/// What a remote store (`CommissionClient`) reads and writes beyond the app's own routes: a batch
/// of writes in one transaction, every committed change as an event, the audit log, the days with
/// sales, the months per clinic, a payout's removal and a deduction's read.
struct RemoteStoreJob: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {}

    func registerAPI<G>(on api: Registrar<G>) {
        api.post("/batch") { request, context in try await batch(request, context: context) }
        api.post("/import/rows") { request, context in try await importRows(request, context: context) }
        api.get("/changes") { _, _ in Self.changes(app.store, metrics: app.configuration.metrics) }
        api.get("/archive") { _, _ in try archive() }
        api.get("/changes/since/:revision") { request, context in try await changes(request, context: context) }
        api.get("/audit") { request, _ in
            let entries = try await app.store.auditLog(
                AuditQuery(
                    subject: try QueryParameter.choice(request, "subject"),
                    subjectID: try QueryParameter.integer(request, "subjectId"),
                    page: try QueryParameter.page(request)
                )
            )
            let presenter = Presenter(
                currency: try await app.store.settings().currency,
                names: try await Presenter.Names(store: app.store)
            )
            return try app.json(entries.map(presenter.audit))
        }
        api.get("/sales/days") { request, _ in
            let (from, through) = try range(request)
            return try app.json(
                try await app.store.daysWithSales(from: from, through: through).sorted().map(\.description)
            )
        }
        api.get("/months") { request, _ in
            let (from, through) = try range(request)
            let presenter = try await app.presenter()
            return try app.json(
                try await app.store.clinicMonths(from: from, through: through).map {
                    API.ClinicMonth(
                        clinicId: $0.clinicID.rawValue,
                        month: $0.month.description,
                        totals: presenter.totals($0.totals)
                    )
                }
            )
        }
        api.delete("/payouts/:id") { _, context in
            try await app.store.deletePayout(Payout.ID(try context.parameters.require("id", as: Int64.self)))
            return Response(status: .noContent)
        }
        api.get("/deductions/:id") { _, context in
            try app.json(
                try await app.presenter().deduction(
                    try await app.store.deduction(Deduction.ID(try context.parameters.require("id", as: Int64.self)))
                )
            )
        }
    }

    /// The book as a book archive (JSON Lines), streamed as it is read — without the server's
    /// accounts and tokens: what a device's sync restores its own copy of the book from.
    func archive() throws -> Response {
        guard let source = app.store as? any BookArchiving else {
            throw Problem(.notFound, "This store cannot be archived.")
        }
        return Response(
            status: .ok,
            headers: [.contentType: "application/jsonl", .cacheControl: "no-store"],
            body: ResponseBody { writer in
                try await ArchiveFile.stream(WithoutAccounts(source: source)) { chunk in
                    try await writer.write(ByteBuffer(bytes: chunk))
                }
                try await writer.finish(nil)
            }
        )
    }

    /// What changed after the device's revision, in the lines of a book archive; 410 with where the
    /// book stands when that cannot be told (another epoch — the book restored or replaced — or a
    /// revision it never reached): the device takes the whole book instead.
    func changes(_ request: Request, context: some RequestContext) async throws -> Response {
        guard let source = app.store as? any BookChangesReading else {
            throw Problem(.notFound, "This store does not tell its changes.")
        }
        guard let revision = context.parameters.get("revision", as: Int64.self), revision >= 0 else {
            throw Problem(
                .badRequest,
                "The revision is the id of the newest audit entry the device has: a whole number, 0 or more."
            )
        }
        // Without an epoch (no book's is ""), the device knows no history of this book: the answer is where it stands.
        let epoch = request.uri.queryParameters["epoch"].map(String.init) ?? ""
        guard epoch.utf8.count <= 100 else {
            throw Problem(.badRequest, "The epoch is at most 100 characters: give the one the last answer gave.")
        }
        switch try await source.changes(since: revision, epoch: epoch) {
        case .changes(let changes):
            return Response(
                status: .ok,
                headers: [.contentType: "application/jsonl", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: try ArchiveFile.data(of: changes)))
            )
        case .gone(let position):
            return try gone(position)
        }
    }

    func gone(_ position: BookPosition) throws -> Response {
        try app.json(
            API.BookPosition(
                epoch: position.epoch,
                revision: position.revision,
                message:
                    "The changes cannot be told from there (the book was restored or replaced, or never reached that revision): take the whole book."
            ),
            status: .gone,
            headers: [.cacheControl: "no-store"]
        )
    }

    /// A book's records without its accounts and tokens, which stay on the server.
    struct WithoutAccounts: BookArchiving {
        let source: any BookArchiving
        func archive(into sink: ArchiveSink) async throws -> ArchiveCounts {
            var counts = try await source.archive { record in
                switch record {
                case .account, .token: return
                default: try await sink(record)
                }
            }
            counts.accounts = 0
            counts.tokens = 0
            return counts
        }
    }

    /// `from` and `to`, both required (any days: a range to read may reach past what a sale takes).
    func range(_ request: Request) throws -> (Day, Day) {
        let query = request.uri.queryParameters
        guard let fromText = query["from"], let toText = query["to"] else {
            throw Problem(.badRequest, "Give the range: from=YYYY-MM-DD&to=YYYY-MM-DD.")
        }
        let range = try app.span(
            try app.day(String(fromText), field: "from", default: .init(ordinal: 0)),
            try app.day(String(toText), field: "to", default: .init(ordinal: 0)),
            "range"
        )
        return (range.start, range.end)
    }

    // MARK: Changes

    /// Server-Sent Events, one `event: change` per committed change of the book, its `data` the
    /// kinds of record it touched (`["payouts","sales"]`): what a remote store's live queries
    /// refresh on. A comment opens it (`: open`), so that a client knows it listens before it writes.
    static func changes(_ store: any WebStore, metrics: ServerMetrics?) -> Response {
        let events = store.changes().map { @Sendable tables in
            "event: change\ndata: \(Presenter.encode(tables.map(\.rawValue).sorted(), pretty: false))\n\n"
        }
        return DashboardJob.eventStream(events, opening: ": open\n\n", metrics: metrics)
    }

    // MARK: Rows

    /// The rows as an import source: a problem names the field (`clinic`, `effective from`…),
    /// which the caller turns into its file's column.
    struct Rows: ImportSource {
        var rows: [ImportRow]
        var problems: [ImportProblem]
        func column(for field: String) -> String? { nil }
        func read(_ body: (ImportRow) throws -> Void) throws -> [ImportProblem] {
            for row in rows { try body(row) }
            return problems
        }
        var holdsOnlySales: Bool { rows.allSatisfy { if case .sale = $0.record { true } else { false } } }
    }

    /// `POST /import/rows`: rows a caller has read itself (a remote store's `importRows`), imported
    /// whole or not at all, as a file is. A row that cannot be read as its kind is a problem of its
    /// line, reported with the store's; a body the document does not describe (a basis it does not
    /// list) is refused whole, its field named by path (`rows.2.terms.basis`).
    func importRows(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await app.body(API.ImportRowsInput.self, request, context: context)
        let settings = try await app.store.settings()
        let currency = settings.currency
        func file(_ name: String?, _ index: Int?) -> ImportFile? {
            name.map { ImportFile(index: index ?? 0, name: $0) }
        }
        var rows: [ImportRow] = [], problems: [ImportProblem] = []
        for row in body.rows {
            do {
                rows.append(
                    ImportRow(
                        line: row.line,
                        record: try record(row, currency: currency),
                        file: file(row.file, row.fileIndex)
                    )
                )
            } catch {
                problems.append(
                    ImportProblem(
                        line: row.line,
                        column: StoreInput.importField(for: error),
                        reason: Problem.from(error).detail,
                        file: file(row.file, row.fileIndex)
                    )
                )
            }
        }
        problems += (body.problems ?? []).map {
            ImportProblem(line: $0.line, column: $0.column, reason: $0.reason, file: file($0.file, $0.fileIndex))
        }
        let options = ImportOptions(
            dryRun: body.dryRun ?? false,
            problemLimit: max(1, min(body.problemLimit ?? 200, 10_000)),
            digests: (body.digests ?? []).map { ImportDigest(name: $0.name, sha256: $0.sha256) },
            again: body.again ?? false
        )
        let summary = try await app.store.importRows(from: Rows(rows: rows, problems: problems), options: options)
        await app.imported(summary)
        return try app.json(
            API.ImportResult(
                passedOver: [],
                kind: "rows",
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

    func record(_ row: API.ImportRowInput, currency: Currency) throws -> ImportRecord {
        func name(_ text: String?, _ field: String) throws -> String {
            guard let text else { throw Problem(.unprocessableContent, "Name the \(field).") }
            return text
        }
        func day(_ text: String?, _ field: String) throws -> Day {
            guard let text else { throw Problem(.unprocessableContent, "Give the \(field).") }
            return try Day(parsing: text)
        }
        func money(_ text: String?) throws -> Money? { try text.map { try currency.parse($0) } }
        var records: [ImportRecord] = []
        if let c = row.clinic { records.append(.clinic(try BookJob.clinicDraft(c))) }
        if let p = row.product {
            records.append(
                .product(
                    ProductDraft(
                        name: p.name,
                        sku: p.sku,
                        unitPrice: try money(p.unitPrice) ?? .zero,
                        unitCost: try money(p.unitCost) ?? .zero
                    )
                )
            )
        }
        if let t = row.terms {
            records.append(
                .terms(
                    NamedTermsDraft(
                        clinic: try name(t.clinic, "clinic"),
                        product: t.product,
                        basis: try app.choice(t.basis, field: "basis") ?? .profit,
                        share: try Share(parsing: t.share),
                        effectiveFrom: try day(t.effectiveFrom, "effective from"),
                        tiers: try BookJob.tiers(t.tiers ?? [], currency: currency)
                    )
                )
            )
        }
        if let s = row.sale {
            records.append(
                .sale(
                    NamedSaleDraft(
                        clinic: try name(s.clinic, "clinic"),
                        product: try name(s.product, "product"),
                        date: try day(s.date, "date"),
                        quantity: s.quantity ?? 1,
                        unitPrice: try money(s.unitPrice),
                        unitCost: try money(s.unitCost),
                        discount: try money(s.discount) ?? .zero,
                        noCommission: s.noCommission ?? false,
                        note: s.note
                    )
                )
            )
        }
        if let p = row.price {
            records.append(
                .price(
                    NamedPriceDraft(
                        clinic: try name(p.clinic, "clinic"),
                        product: try name(p.product, "product"),
                        unitPrice: try money(p.unitPrice) ?? .zero,
                        unitCost: try money(p.unitCost),
                        effectiveFrom: try day(p.effectiveFrom, "effective from")
                    )
                )
            )
        }
        if let c = row.scheduleChange {
            records.append(
                .scheduleChange(
                    NamedScheduleChange(
                        clinic: c.clinic,
                        schedule: try PaySchedule(parsing: c.schedule),
                        effectiveFrom: try day(c.effectiveFrom, "effective from")
                    )
                )
            )
        }
        if let d = row.deduction {
            records.append(
                .deduction(
                    NamedDeductionDraft(
                        clinic: try name(d.clinic, "clinic"),
                        name: d.name,
                        amount: try BookJob.deductionAmount(amount: d.amount, share: d.share, currency: currency),
                        effectiveFrom: try day(d.effectiveFrom, "effective from"),
                        lastDay: try d.lastDay.map { try day($0, "last day") }
                    )
                )
            )
        }
        guard records.count == 1 else {
            throw Problem(
                .unprocessableContent,
                "Each row has exactly one of clinic, product, terms, sale, price, scheduleChange, deduction."
            )
        }
        return records[0]
    }

    // MARK: Batch

    /// `POST /batch`: the writes in one transaction of the book — all of them, or (with the refused
    /// write's problem, `index` naming it) none.
    func batch(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await app.body(API.Batch.self, request, context: context)
        guard !body.writes.isEmpty else { throw Problem(.unprocessableContent, "The batch has no writes.") }
        guard body.writes.count <= 1000 else {
            throw Problem(.contentTooLarge, "A batch takes at most 1000 writes; send the rest in another.")
        }
        let settings = try await app.store.settings()
        let book = BookJob(app), sales = SalesJob(app), payouts = PayoutsJob(app)
        var writes: [StoreWrite] = []
        for (index, write) in body.writes.enumerated() {
            do {
                var made: [StoreWrite] = []
                if let input = write.clinic { made.append(.createClinic(try BookJob.clinicDraft(input))) }
                if let input = write.product {
                    made.append(.createProduct(try book.productDraft(input, currency: settings.currency)))
                }
                if let input = write.terms {
                    made.append(.createTerms(try await book.termsDraft(input, currency: settings.currency)))
                }
                if let input = write.sale {
                    made.append(
                        .createSale(
                            try await sales.saleDraft(input, settings: settings),
                            idempotencyKey: write.idempotencyKey
                        )
                    )
                }
                if let id = write.voidSale { made.append(.voidSale(Sale.ID(id))) }
                if let input = write.payout {
                    made.append(.createPayout(try await payouts.payoutDraft(input, settings: settings)))
                }
                if let input = write.price {
                    made.append(.setPrice(try await book.priceDraft(input, settings: settings)))
                }
                if let input = write.deduction {
                    made.append(.createDeduction(try await book.deductionDraft(input, settings: settings)))
                }
                guard made.count == 1 else {
                    throw Problem(
                        .unprocessableContent,
                        "Each write has exactly one of clinic, product, terms, sale, voidSale, payout, price, deduction."
                    )
                }
                writes.append(made[0])
            } catch {
                throw Self.atWrite(index, error)
            }
        }
        let written: [StoreWritten]
        do { written = try await app.store.apply(writes) } catch { throw Self.atWrite(nil, error) }
        let presenter = Presenter(currency: settings.currency)
        return try app.json(
            API.BatchResult(
                written: written.map { item in
                    switch item {
                    case .clinic(let clinic): API.BatchWritten(clinic: presenter.clinic(clinic))
                    case .product(let product): API.BatchWritten(product: presenter.product(product))
                    case .terms(let change):
                        API.BatchWritten(
                            terms: API.TermsChange(
                                terms: presenter.terms(change.terms),
                                recomputedSales: change.recomputedSales,
                                salesInClosedPeriods: change.salesInClosedPeriods
                            )
                        )
                    case .sale(let sale): API.BatchWritten(sale: presenter.sale(sale))
                    case .payout(let payout): API.BatchWritten(payout: presenter.payout(payout))
                    case .price(let entry): API.BatchWritten(price: presenter.price(entry))
                    case .deduction(let deduction): API.BatchWritten(deduction: presenter.deduction(deduction))
                    }
                }
            ),
            status: .created
        )
    }

    /// The problem of a refused batch, saying which write it was when it is known.
    static func atWrite(_ index: Int?, _ error: any Error) -> Problem {
        var problem = Problem.from(error)
        guard problem.status < 500 else { return problem }
        problem.detail =
            (index.map { "Write \($0 + 1) of the batch: " } ?? "") + problem.detail
            + " Nothing in the batch was recorded."
        return problem
    }
}
