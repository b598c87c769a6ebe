import CommissionCore
import CommissionStore
import Foundation
import PostgresNIO

extension PostgresStore {
    /// How many products the dashboard lists.
    static let dashboardProductLimit = 20

    /// Totals from the seven sums of ``Columns/totalsSums``, in their order (NULL for no rows counts as 0).
    static func totals(_ cells: [Int64?], rounding: RoundingPolicy) -> Totals {
        let value = { (index: Int) in index < cells.count ? cells[index] ?? 0 : 0 }
        let exact = ExactCommission(tenThousandths: value(6))
        return Totals(saleCount: Int(value(0)), quantity: value(1), revenue: Money(minorUnits: value(2)), cost: Money(minorUnits: value(3)),
                      profit: Money(minorUnits: value(4)),
                      commission: rounding.scope == .perLine ? Money(minorUnits: value(5)) : exact.rounded(rounding.rule))
    }

    /// One row of sums.
    func totals(_ connection: PostgresConnection, _ query: PostgresQuery, rounding: RoundingPolicy) async throws -> Totals {
        let rows = try await connection.query(query, logger: logger)
            .decode((Int64?, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?).self).all()
        guard let row = rows.first else { return .zero }
        return Self.totals([row.0, row.1, row.2, row.3, row.4, row.5, row.6], rounding: rounding)
    }

    /// Sums per id: the id first, then ``Columns/totalsSums``.
    func grouped(_ connection: PostgresConnection, _ query: PostgresQuery, rounding: RoundingPolicy) async throws -> [Int64: Totals] {
        var result: [Int64: Totals] = [:]
        for row in try await connection.query(query, logger: logger)
            .decode((Int64, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?).self).all() {
            result[row.0] = Self.totals([row.1, row.2, row.3, row.4, row.5, row.6, row.7], rounding: rounding)
        }
        return result
    }

    public func dashboard(today: Day) async throws -> Dashboard {
        try await read { connection in
            let settings = try await settings(connection)
            let rounding = settings.rounding
            let month = today.firstOfMonth.description
            let yearFirst = "\(today.year)-01-01", yearLast = "\(today.year)-12-31"
            let sums = Columns.totalsSums

            let headline = try await headline(connection, today: today, settings: settings)
            let clinicMonth = try await grouped(connection, try SQL("""
                SELECT clinicId, \(sums) FROM clinicMonthTotal WHERE bookId = ? AND month = ?::date GROUP BY clinicId
                """, book, month).query, rounding: rounding)
            let clinicYear = try await grouped(connection, try SQL("""
                SELECT clinicId, \(sums) FROM clinicMonthTotal WHERE bookId = ? AND month BETWEEN ?::date AND ?::date GROUP BY clinicId
                """, book, yearFirst, yearLast).query, rounding: rounding)
            let clinics = try await clinics(connection, try SQL("SELECT \(Columns.clinic) FROM clinic WHERE bookId = ? ORDER BY lower(name), id", book).query)
                .filter { !$0.isArchived || clinicYear[$0.id.rawValue] != nil }

            // Every clinic's current period at once: the periods as a VALUES list joined to the day
            // summary and to the payouts (two round trips, however many clinics).
            let periods = clinics.map { ($0.id.rawValue, $0.calendar.period(containing: today)) }
            var periodTotals: [Int64: Totals] = [:], received: [Int64: Int64] = [:]
            if !periods.isEmpty {
                func current() throws -> SQL {
                    var sql = SQL("WITH current(clinicId, first, last) AS (VALUES ")
                    for (index, (id, period)) in periods.enumerated() {
                        try sql.add(index == 0 ? "(?::bigint, ?::date, ?::date)" : ", (?::bigint, ?::date, ?::date)",
                                    id, period.start.description, period.end.description)
                    }
                    try sql.add(") ")
                    return sql
                }
                var totalsQuery = try current()
                try totalsQuery.add("""
                    SELECT current.clinicId, \(sums) FROM current JOIN clinicDayTotal t
                    ON t.bookId = ? AND t.clinicId = current.clinicId AND t.date BETWEEN current.first AND current.last
                    GROUP BY current.clinicId
                    """, book)
                periodTotals = try await grouped(connection, totalsQuery.query, rounding: rounding)
                var paidQuery = try current()
                try paidQuery.add("""
                    SELECT current.clinicId, sum(p.amountMinor)::bigint FROM current JOIN payout p
                    ON p.bookId = ? AND p.clinicId = current.clinicId AND p.periodStart = current.first
                    GROUP BY current.clinicId
                    """, book)
                for (id, amount) in try await connection.query(paidQuery.query, logger: logger).decode((Int64, Int64).self).all() {
                    received[id] = amount
                }
            }
            // Clinics whose figure is not the sum of their lines' (tiers, deductions, rounding once
            // per statement): their current period's expected figure is kept (`clinicPeriodTotal`).
            let kept = Set(try await connection.query("SELECT clinicId FROM clinicPeriodKept WHERE bookId = \(book)", logger: logger)
                .decode(Int64.self).all())
            var payables: [Int64: Money] = [:]
            if !kept.isEmpty, !periods.isEmpty {
                var query = SQL("WITH current(clinicId, first) AS (VALUES ")
                for (index, (id, period)) in periods.enumerated() {
                    try query.add(index == 0 ? "(?::bigint, ?::date)" : ", (?::bigint, ?::date)", id, period.start.description)
                }
                try query.add("""
                    ) SELECT t.clinicId, t.expectedMinor FROM current
                    JOIN clinicPeriodTotal t ON t.bookId = ? AND t.clinicId = current.clinicId AND t.periodStart = current.first
                    """, book)
                for (id, amount) in try await connection.query(query.query, logger: logger).decode((Int64, Int64).self).all() {
                    payables[id] = Money(minorUnits: amount)
                }
            }
            let arrears = try await arrears(connection, of: clinics, today: today, kept: kept)
            var standings: [ClinicStanding] = []
            for (clinic, period) in zip(clinics, periods) {
                let totals = periodTotals[clinic.id.rawValue] ?? .zero
                let paid = Money(minorUnits: received[clinic.id.rawValue] ?? 0)
                let payable = kept.contains(clinic.id.rawValue) ? payables[clinic.id.rawValue] ?? .zero : totals.commission
                standings.append(ClinicStanding(clinic: clinic, period: period.1, periodTotals: totals, periodPayable: payable, periodReceived: paid,
                                                periodBalance: try payable.subtracting(paid),
                                                monthTotals: clinicMonth[clinic.id.rawValue] ?? .zero,
                                                yearTotals: clinicYear[clinic.id.rawValue] ?? .zero,
                                                arrears: arrears[clinic.id.rawValue]
                                                    ?? Arrears(owed: .zero, overdue: .zero, dueAfterDays: Arrears.defaultDueAfterDays)))
            }

            let productYear = try await grouped(connection, try SQL("""
                SELECT productId, \(sums) FROM productYearTotal WHERE bookId = ? AND year = ? GROUP BY productId
                """, book, today.year).query, rounding: rounding)
            let productMonth = try await grouped(connection, try SQL("""
                SELECT productId, \(sums) FROM productMonthTotal WHERE bookId = ? AND month = ?::date GROUP BY productId
                """, book, month).query, rounding: rounding)
            let top = productYear.sorted { ($0.value.commission, $1.key) > ($1.value.commission, $0.key) }.prefix(Self.dashboardProductLimit)
            var byID: [Int64: Product] = [:]
            if !top.isEmpty {
                var query = try SQL("SELECT \(Columns.product) FROM product WHERE bookId = ? AND id IN (", book)
                for (index, (id, _)) in top.enumerated() { try query.add(index == 0 ? "?" : ", ?", id) }
                try query.add(")")
                for product in try await products(connection, query.query) { byID[product.id.rawValue] = product }
            }
            let topProducts = top.compactMap { id, year in
                byID[id].map { ProductStanding(product: $0, monthTotals: productMonth[id] ?? .zero, yearTotals: year) }
            }
            return Dashboard(today: today, currency: settings.currency, todayTotals: headline.todayTotals, monthTotals: headline.monthTotals,
                             yearTotals: headline.yearTotals, clinics: standings, products: topProducts)
        }
    }

    /// Three round trips over the summaries, of the dashboard's ten or so: what each live update reads.
    public func headline(today: Day) async throws -> Headline {
        try await read { connection in
            try await headline(connection, today: today, settings: try await settings(connection))
        }
    }

    func headline(_ connection: PostgresConnection, today: Day, settings: BookSettings) async throws -> Headline {
        let rounding = settings.rounding, sums = Columns.totalsSums
        let yearFirst = "\(today.year)-01-01", yearLast = "\(today.year)-12-31"
        return Headline(
            today: today, currency: settings.currency,
            todayTotals: try await totals(connection, try SQL("SELECT \(sums) FROM clinicDayTotal WHERE bookId = ? AND date = ?::date",
                                                              book, today.description).query, rounding: rounding),
            monthTotals: try await totals(connection, try SQL("SELECT \(sums) FROM clinicMonthTotal WHERE bookId = ? AND month = ?::date",
                                                              book, today.firstOfMonth.description).query, rounding: rounding),
            yearTotals: try await totals(connection, try SQL("""
                SELECT \(sums) FROM clinicMonthTotal WHERE bookId = ? AND month BETWEEN ?::date AND ?::date
                """, book, yearFirst, yearLast).query, rounding: rounding))
    }

    public func clinicMonths(from first: Day, through last: Day) async throws -> [ClinicMonth] {
        try await read { connection in
            let rounding = try await settings(connection).rounding
            let rows = try await connection.query(try SQL("""
                SELECT clinicId, month::text, \(Columns.totalsSums) FROM clinicMonthTotal
                WHERE bookId = ? AND month BETWEEN ?::date AND ?::date
                GROUP BY clinicId, month ORDER BY month, clinicId
                """, book, first.firstOfMonth.description, last.firstOfMonth.description).query, logger: logger)
                .decode((Int64, String, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?).self).all()
            return try rows.map { row in
                ClinicMonth(clinicID: Clinic.ID(row.0), month: try Day.stored(row.1, row: "A month summary of clinic \(row.0)"),
                            totals: Self.totals([row.2, row.3, row.4, row.5, row.6, row.7, row.8], rounding: rounding))
            }
        }
    }

    public func statement(clinic id: Clinic.ID, period: PayPeriod) async throws -> CommissionCore.Statement {
        try await read { connection in
            let settings = try await settings(connection)
            let clinic = try await clinic(connection, id)
            try Ledger.checkPeriod(period, of: clinic)
            let sales = try await sales(connection, try SQL("""
                SELECT \(Columns.sale) FROM sale
                WHERE sale.bookId = ? AND sale.clinicId = ? AND sale.date BETWEEN ?::date AND ?::date AND NOT sale.isVoided
                ORDER BY sale.date, sale.id
                """, book, id.rawValue, period.start.description, period.end.description).query)
            var names: [Product.ID: String] = [:]
            for row in try await connection.query(try SQL("SELECT id, name FROM product WHERE bookId = ?", book).query, logger: logger)
                .decode((Int64, String).self).all() {
                names[Product.ID(row.0)] = row.1
            }
            let lines = sales.map { StatementLine(sale: $0, productName: names[$0.productID] ?? "") }
            let payouts = try await payouts(connection, try SQL("""
                SELECT \(Columns.payout) FROM payout WHERE bookId = ? AND clinicId = ? AND periodStart = ?::date ORDER BY receivedOn, id
                """, book, id.rawValue, period.start.description).query)
            return try CommissionCore.Statement(clinic: clinic, period: period, lines: lines, payouts: payouts, rounding: settings.rounding,
                                                isClosed: try await closedPeriods(connection, clinic: id).overlaps(period),
                                                terms: try await tieredTerms(connection, clinic: id), deductions: try await deductions(connection, clinic: id))
        }
    }

    /// What each clinic owes her now (``Arrears``), as the SQLite store reads it: from sums, three
    /// round trips for every clinic at once; a kept clinic's expected figure from its kept periods.
    /// - Parameter kept: the clinics whose figures are kept by period (`clinicPeriodKept`).
    func arrears(_ connection: PostgresConnection, of clinics: [Clinic], today: Day, kept: Set<Int64>) async throws -> [Int64: Arrears] {
        guard !clinics.isEmpty else { return [:] }
        var lags: [Int64: [Int]] = [:]
        for (clinic, lag) in try await connection.query(try SQL("""
            SELECT clinicId, (receivedOn - periodEnd)::bigint FROM (
                SELECT clinicId, receivedOn, periodEnd, row_number() OVER (PARTITION BY clinicId ORDER BY periodStart DESC, id DESC) AS n
                FROM payout WHERE bookId = ?) latest
            WHERE n <= ? ORDER BY clinicId, n
            """, book, Int64(Arrears.lagSample)).query, logger: logger).decode((Int64, Int64).self).all() {
            lags[clinic, default: []].append(Int(lag))
        }
        let plan = ArrearsPlan(clinics: clinics, today: today, lags: lags)
        var query = SQL("WITH point(clinicId, first, last, notDue, kept) AS (VALUES ")
        for (index, point) in plan.points.enumerated() {
            try query.add(index == 0 ? "(?::bigint, ?::date, ?::date, ?::date, ?::boolean)" : ", (?::bigint, ?::date, ?::date, ?::date, ?::boolean)",
                          point.clinicID, point.current.start.description, point.current.end.description, point.notDue.description,
                          kept.contains(point.clinicID))
        }
        try query.add("""
            ) SELECT point.clinicId,
                (CASE WHEN kept THEN
                    (SELECT coalesce(sum(expectedMinor), 0) FROM clinicPeriodTotal t WHERE t.bookId = ? AND t.clinicId = point.clinicId
                      AND t.periodStart <= point.first)
                 ELSE
                    (SELECT coalesce(sum(commissionMinor), 0) FROM clinicMonthTotal m WHERE m.bookId = ? AND m.clinicId = point.clinicId)
                  - (SELECT coalesce(sum(commissionMinor), 0) FROM clinicDayTotal d WHERE d.bookId = ? AND d.clinicId = point.clinicId
                      AND d.date > point.last)
                 END)::bigint,
                (CASE WHEN kept THEN
                    (SELECT coalesce(sum(expectedMinor), 0) FROM clinicPeriodTotal t WHERE t.bookId = ? AND t.clinicId = point.clinicId
                      AND t.periodStart BETWEEN point.notDue AND point.first)
                 ELSE
                    (SELECT coalesce(sum(commissionMinor), 0) FROM clinicDayTotal d WHERE d.bookId = ? AND d.clinicId = point.clinicId
                      AND d.date BETWEEN point.notDue AND point.last)
                 END)::bigint,
                (SELECT coalesce(sum(amountMinor), 0) FROM payout p WHERE p.bookId = ? AND p.clinicId = point.clinicId
                  AND p.periodStart <= point.first)::bigint,
                (SELECT coalesce(sum(amountMinor), 0) FROM payout p WHERE p.bookId = ? AND p.clinicId = point.clinicId
                  AND p.periodStart BETWEEN point.notDue AND point.first)::bigint
            FROM point
            """, book, book, book, book, book, book, book)
        var sums: [Int64: ArrearsPlan.Sums] = [:]
        for (clinic, expected, notDue, received, receivedNotDue) in try await connection.query(query.query, logger: logger)
            .decode((Int64, Int64, Int64, Int64, Int64).self).all() {
            sums[clinic] = ArrearsPlan.Sums(expected: expected, expectedNotDue: notDue, received: received, receivedNotDue: receivedNotDue)
        }
        return try plan.arrears(sums)
    }

    public func reconciliation(clinic id: Clinic.ID, today: Day) async throws -> Reconciliation {
        try await read { connection in
            try await reconciliation(connection, clinic: try await clinic(connection, id), today: today, settings: try await settings(connection))
        }
    }

    func reconciliation(_ connection: PostgresConnection, clinic: Clinic, today: Day, settings: BookSettings) async throws -> Reconciliation {
        let last = clinic.calendar.period(containing: today).end
        let sums = try await periodSums(connection, clinic: clinic, from: Day(ordinal: -719_162), through: last, settings: settings)  // from 0001-01-01
        return try await reconciliation(connection, sums, through: last, today: today)
    }

    /// The reconciliation of the periods `sums` holds through `last`, with the clinic's payouts.
    func reconciliation(_ connection: PostgresConnection, _ sums: PeriodSums, through last: Day, today: Day) async throws -> Reconciliation {
        let id = sums.clinic.id
        var received: [PayPeriod: Money] = [:]
        for (start, end, amount) in try await connection.query(try SQL("""
            SELECT periodStart::text, periodEnd::text, sum(amountMinor)::bigint FROM payout
            WHERE bookId = ? AND clinicId = ? AND periodStart <= ?::date GROUP BY periodStart, periodEnd
            """, book, id.rawValue, last.description).query, logger: logger).decode((String, String, Int64).self).all() {
            received[PayPeriod(start: try Day.stored(start, row: "A payout's period at clinic \(id)"),
                               end: try Day.stored(end, row: "A payout's period at clinic \(id)"))] = Money(minorUnits: amount)
        }
        return try sums.reconciliation(received: received, closed: try await closedPeriods(connection, clinic: id), today: today)
    }

    // MARK: Import

    /// The import, in one transaction. The source is read on a thread of its own a few thousand rows
    /// ahead (a PostgreSQL statement is asynchronous, the source's reading is not), and its rows are
    /// applied in file order as they come: a file of any length takes the memory of a few chunks.
    public func importRows(from source: any ImportSource, options: ImportOptions) async throws -> ImportSummary {
        struct Rejected: Error { let problems: [ImportProblem] }
        struct DryRun: Error { let summary: ImportSummary }
        do {
            let summary = try await write([.clinics, .products, .terms, .sales, .prices, .deductions]) { connection -> ImportSummary in
                let before = try await int(connection, "SELECT coalesce(max(id), 0) FROM sale WHERE bookId = \(book)")
                try options.checkNotImportedBefore(try await connection.query("""
                    SELECT at, after FROM auditEntry WHERE bookId = \(book) AND subject = 'sale' AND action = 'import'
                    """, logger: logger).decode((Int64, String?).self).all().map { (at: $0.0, after: $0.1) })
                var session = ImportSession(store: self, source: source)
                var readProblems: [ImportProblem] = []
                var rowsRead = 0
                for try await chunk in source.chunks() {
                    switch chunk {
                    case .rows(let rows):
                        for row in rows {
                            await session.apply(row, connection)
                            rowsRead += 1
                            if rowsRead % 10_000 == 0 { options.progress?(rowsRead) }
                        }
                    case .end(let problems):
                        readProblems = problems
                    }
                }
                options.progress?(rowsRead)
                var problems = readProblems + session.problems
                if problems.isEmpty {
                    for (clinicID, from) in session.recomputeFrom {
                        do {
                            _ = try await recompute(connection, clinic: try await clinic(connection, clinicID), from: from)
                        } catch let error as StoreError {
                            problems.append(ImportProblem(line: 0, column: nil, reason: error.description))
                        }
                    }
                }
                if !problems.isEmpty { throw Rejected(problems: problems) }
                if options.dryRun { throw DryRun(summary: session.summary) }
                // One entry for the whole import: who, when, how much, and the ids of the sales it made.
                let made = try await connection.query("SELECT min(id), max(id) FROM sale WHERE bookId = \(book) AND id > \(before)", logger: logger)
                    .decode((Int64?, Int64?).self).all().first
                try await record(connection, Audit.Change(.sale, made?.0, lastSubjectID: made?.1, "import", before: nil,
                                                                 after: Audit.json(session.summary, digests: options.digests)))
                return session.summary
            }
            return summary
        } catch let rejected as Rejected {
            let problems = rejected.problems.sorted(by: ImportProblem.inFileOrder)
            throw StoreError.importRejected(Array(problems.prefix(options.problemLimit)), total: problems.count)
        } catch let dryRun as DryRun {
            var summary = dryRun.summary
            summary.dryRun = true
            return summary
        }
    }
}

/// One import inside its transaction: resolves names, computes sales, collects problems.
private struct ImportSession {
    let store: PostgresStore
    let source: any ImportSource
    var problems: [ImportProblem] = []
    var summary = ImportSummary()
    var clinics: [String: Clinic] = [:]
    var products: [String: Product] = [:]
    var candidates: [Clinic.ID: [Terms]] = [:]
    /// The earliest effective date of imported terms, per clinic: existing sales from then on are recomputed.
    var recomputeFrom: [Clinic.ID: Day] = [:]
    var closed: [Clinic.ID: ClosedPeriods] = [:]
    /// Each clinic's price list, read once.
    var prices: [Clinic.ID: [PriceListEntry]] = [:]
    /// The book's rounding and the dates it takes, read once for the whole import.
    var rules: EntryRules?

    init(store: PostgresStore, source: any ImportSource) {
        self.store = store
        self.source = source
    }

    mutating func apply(_ row: ImportRow, _ connection: PostgresConnection) async {
        do {
            try await apply(row.record, connection)
        } catch {
            problems.append(ImportProblem(row, error, source: source))
        }
    }

    mutating func rules(_ connection: PostgresConnection) async throws -> EntryRules {
        if let rules { return rules }
        let read = EntryRules(try await store.settings(connection))
        rules = read
        return read
    }

    mutating func clinic(named name: String, _ connection: PostgresConnection) async throws -> Clinic {
        let key = name.lowercased()
        if let clinic = clinics[key] { return clinic }
        let clinic = try await store.clinic(connection, named: name)
        clinics[key] = clinic
        return clinic
    }

    mutating func product(named name: String, _ connection: PostgresConnection) async throws -> Product {
        let key = name.lowercased()
        if let product = products[key] { return product }
        let product = try await store.product(connection, named: name)
        products[key] = product
        return product
    }

    mutating func terms(of clinic: Clinic.ID, _ connection: PostgresConnection) async throws -> [Terms] {
        if let terms = candidates[clinic] { return terms }
        let terms = try await store.termsCandidates(connection, clinic: clinic)
        candidates[clinic] = terms
        return terms
    }

    mutating func apply(_ record: ImportRecord, _ connection: PostgresConnection) async throws {
        switch record {
        case .clinic(let draft):
            let name = try StoreInput.name(draft.name, field: "name")
            let clinic = try await store.insertClinic(connection, ClinicDraft(name: name, schedule: try Ledger.schedule(draft.schedule,
                                                                                                                  rules: try await rules(connection))))
            clinics[name.lowercased()] = clinic
            summary.clinics += 1
        case .product(let draft):
            let product = try await store.insertProduct(connection, try StoreInput.product(draft))
            products[product.name.lowercased()] = product
            summary.products += 1
        case .terms(let draft):
            let clinic = try await clinic(named: draft.clinic, connection)
            var productID: Product.ID?
            if let name = draft.product, !name.isEmpty { productID = try await product(named: name, connection).id }
            _ = try Ledger.terms(TermsDraft(clinicID: clinic.id, productID: productID, basis: draft.basis, share: draft.share, tiers: draft.tiers,
                                            effectiveFrom: draft.effectiveFrom), rules: try await rules(connection))
            let id = try await store.int(connection, """
                INSERT INTO terms (bookId, clinicId, productId, basis, shareBasisPoints, effectiveFrom, tiers)
                VALUES (\(store.book), \(clinic.id.rawValue), \(productID?.rawValue), \(draft.basis.rawValue), \(draft.share.basisPoints),
                        \(draft.effectiveFrom.description)::date, \(Tier.stored(draft.tiers)))
                RETURNING id
                """)
            let terms = Terms(id: Terms.ID(id), clinicID: clinic.id, productID: productID, basis: draft.basis, share: draft.share,
                              tiers: draft.tiers, effectiveFrom: draft.effectiveFrom)
            candidates[clinic.id] = try await self.terms(of: clinic.id, connection) + [terms]
            recomputeFrom[clinic.id] = min(recomputeFrom[clinic.id] ?? draft.effectiveFrom, draft.effectiveFrom)
            summary.terms += 1
        case .sale(let named):
            let clinic = try await clinic(named: named.clinic, connection)
            let product = try await product(named: named.product, connection)
            let draft = SaleDraft(clinicID: clinic.id, productID: product.id, date: named.date, quantity: named.quantity, unitPrice: named.unitPrice,
                                  unitCost: named.unitCost, discount: named.discount, noCommission: named.noCommission, note: named.note)
            if closed[clinic.id] == nil { closed[clinic.id] = try await store.closedPeriods(connection, clinic: clinic.id) }
            if prices[clinic.id] == nil { prices[clinic.id] = try await store.priceEntries(connection, clinic: clinic.id) }
            _ = try await store.insert(connection, try Ledger.sale(draft, in: SaleContext(
                clinic: clinic, product: product, candidates: try await terms(of: clinic.id, connection), rules: try await rules(connection),
                closed: closed[clinic.id]!, prices: prices[clinic.id]!)), idempotencyKey: nil)
            summary.sales += 1
        case .price(let draft):
            let clinic = try await clinic(named: draft.clinic, connection)
            _ = try await store.setPrice(connection, PriceDraft(clinicID: clinic.id, productID: try await product(named: draft.product, connection).id,
                                                                unitPrice: draft.unitPrice, unitCost: draft.unitCost, effectiveFrom: draft.effectiveFrom))
            prices[clinic.id] = nil  // the sales that follow take it
            summary.prices += 1
        case .scheduleChange(let change):
            var clinic = try await clinic(named: change.clinic, connection)
            clinic.scheduleChanges.append(ScheduleChange(effectiveFrom: change.effectiveFrom, schedule: change.schedule))
            let changed = try await store.updateClinic(connection, clinic)
            clinics[changed.name.lowercased()] = changed
            summary.scheduleChanges += 1
        case .deduction(let draft):
            let clinic = try await clinic(named: draft.clinic, connection)
            _ = try await store.createDeduction(connection, Deduction(id: Deduction.ID(0), clinicID: clinic.id, name: draft.name, amount: draft.amount,
                                                                      effectiveFrom: draft.effectiveFrom, lastDay: draft.lastDay))
            summary.deductions += 1
        }
    }
}
