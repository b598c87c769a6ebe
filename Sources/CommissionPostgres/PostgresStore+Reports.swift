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

    /// Three statements whatever the number of clinics and products, in one read-only transaction:
    /// what the sums depend on (the settings, the clinics, which of them are kept by period, their
    /// latest payment lags); every sum at once, as one row per part and key (``DashboardPart``); the
    /// top products with this month's figures. Each sum reads a summary by an index of its own.
    public func dashboard(today: Day) async throws -> Dashboard {
        try await read { connection in
            let inputs = try await dashboardInputs(connection)
            let rounding = inputs.settings.rounding
            let plan = ArrearsPlan(clinics: inputs.clinics, today: today, lags: inputs.lags)
            let sums = try await dashboardSums(connection, today: today, points: plan.points, kept: inputs.kept)
            func totals(_ part: DashboardPart) -> [Int64: Totals] { (sums[part] ?? [:]).mapValues { Self.totals($0, rounding: rounding) } }
            func total(_ part: DashboardPart) throws -> Totals { Self.totals(try Self.added((sums[part] ?? [:]).values), rounding: rounding) }
            let clinicMonth = totals(.clinicMonth), clinicYear = totals(.clinicYear), periodTotals = totals(.period)
            let received = sums[.received] ?? [:], payables = sums[.payable] ?? [:]
            var arrearsSums: [Int64: ArrearsPlan.Sums] = [:]
            for (id, cells) in sums[.arrears] ?? [:] {
                arrearsSums[id] = ArrearsPlan.Sums(expected: cells[0] ?? 0, expectedNotDue: cells[1] ?? 0, received: cells[2] ?? 0,
                                                   receivedNotDue: cells[3] ?? 0)
            }
            let arrears = try plan.arrears(arrearsSums)
            var standings: [ClinicStanding] = []
            for (clinic, point) in zip(inputs.clinics, plan.points) where !clinic.isArchived || clinicYear[clinic.id.rawValue] != nil {
                let id = clinic.id.rawValue
                let totals = periodTotals[id] ?? .zero
                let paid = Money(minorUnits: received[id]?[0] ?? 0)
                let payable = inputs.kept.contains(id) ? Money(minorUnits: payables[id]?[0] ?? 0) : totals.commission
                standings.append(ClinicStanding(clinic: clinic, period: point.current, periodTotals: totals, periodPayable: payable,
                                                periodReceived: paid, periodBalance: try payable.subtracting(paid),
                                                monthTotals: clinicMonth[id] ?? .zero, yearTotals: clinicYear[id] ?? .zero,
                                                arrears: arrears[id] ?? Arrears(owed: .zero, overdue: .zero, dueAfterDays: Arrears.defaultDueAfterDays)))
            }

            let productYear = totals(.productYear)
            let top = productYear.sorted { ($0.value.commission, $1.key) > ($1.value.commission, $0.key) }.prefix(Self.dashboardProductLimit)
            var products: [ProductStanding] = []
            if !top.isEmpty {
                var byID: [Int64: ProductStanding] = [:]
                for try await row in try await connection.execute(TopProducts(book: book, month: today.firstOfMonth.description, ids: top.map(\.key)),
                                                        logger: logger) {
                    let product = Product(id: Product.ID(row.0), name: row.1, sku: row.2, unitPrice: Money(minorUnits: row.3),
                                          unitCost: Money(minorUnits: row.4), isArchived: row.5)
                    byID[row.0] = ProductStanding(product: product, monthTotals: Self.totals([row.6, row.7, row.8, row.9, row.10, row.11, row.12],
                                                                                          rounding: rounding),
                                                  yearTotals: productYear[row.0] ?? .zero)
                }
                products = top.compactMap { byID[$0.key] }
            }
            return Dashboard(today: today, currency: inputs.settings.currency, todayTotals: try total(.today), monthTotals: try total(.clinicMonth),
                             yearTotals: try total(.clinicYear), clinics: standings, products: products)
        }
    }

    /// What the dashboard's sums depend on, in one statement: the book's settings, its clinics in
    /// order of name, whether each is kept by period, and its latest payment lags in days.
    func dashboardInputs(_ connection: PostgresConnection) async throws
        -> (settings: BookSettings, clinics: [Clinic], kept: Set<Int64>, lags: [Int64: [Int]]) {
        let rows = try await connection.execute(DashboardInputs(book: book), logger: logger).all()
        guard let first = rows.first else { throw StoreError.storage("the book \(book) does not exist") }
        let settings = try Self.settings(first.0, first.1, first.2, first.3, first.4, first.5)
        var clinics: [Clinic] = [], kept: Set<Int64> = [], lags: [Int64: [Int]] = [:]
        for row in rows {
            guard let id = row.6, let name = row.7, let kind = row.8, let archived = row.10 else { continue }
            clinics.append(try Self.clinic(id, name, kind, row.9, archived, row.11))
            if row.12 { kept.insert(id) }
            if !row.13.isEmpty { lags[id] = row.13.map { Int($0) } }
        }
        return (settings, clinics, kept, lags)
    }

    /// The dashboard's inputs: a row per clinic (one with no clinic for a book of none), the book's settings first.
    struct DashboardInputs: PostgresPreparedStatement {
        static let name = "commission_dashboard_inputs_v1"
        static let bindingDataTypes: [PostgresDataType] = [.int8]
        static let sql = """
            SELECT b.currencyCode, b.currencyMinorDigits, b.timeZone, b.roundingRule, b.roundingScope, b.locale,
                   c.id, c.name, c.scheduleKind, c.scheduleAnchor, c.isArchived, c.scheduleChanges,
                   EXISTS (SELECT 1 FROM clinicPeriodKept k WHERE k.bookId = b.id AND k.clinicId = c.id),
                   ARRAY (SELECT (p.receivedOn - p.periodEnd)::bigint FROM payout p WHERE p.bookId = b.id AND p.clinicId = c.id
                          ORDER BY p.periodStart DESC, p.id DESC LIMIT \(Arrears.lagSample))
            FROM book b LEFT JOIN clinic c ON c.bookId = b.id
            WHERE b.id = $1 ORDER BY lower(c.name), c.id
            """
        var book: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(book)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws
            -> (String, Int, String, String, String, String, Int64?, String?, String?, String?, Bool?, String?, Bool, [Int64]) {
            try row.decode((String, Int, String, String, String, String, Int64?, String?, String?, String?, Bool?, String?, Bool, [Int64]).self)
        }
    }

    /// The dashboard's top products, each with its figures of the month.
    struct TopProducts: PostgresPreparedStatement {
        static let name = "commission_dashboard_products_v1"
        static let bindingDataTypes: [PostgresDataType] = [.int8, .text, .int8Array]
        static let sql = """
            SELECT \(Columns.product), m.* FROM product LEFT JOIN LATERAL (
                SELECT \(DashboardSums.figures) FROM productMonthTotal
                WHERE bookId = product.bookId AND productId = product.id AND month = $2::date) m ON true
            WHERE product.bookId = $1 AND product.id = ANY ($3::bigint[])
            """
        var book: Int64, month: String, ids: [Int64]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(book)
            bindings.append(month)
            bindings.append(ids)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (Int64, String, String?, Int64, Int64, Bool, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?) {
            try row.decode((Int64, String, String?, Int64, Int64, Bool, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?).self)
        }
    }

    /// The parts of the dashboard's one statement of sums, each a row per key (a clinic, a product;
    /// 0 for the book) of up to seven figures.
    enum DashboardPart: Int64 {
        /// ``Columns/totalsSums`` of today, of each clinic's month and year, of its current period,
        /// of each product's year.
        case today, clinicMonth, clinicYear, period, productYear
        /// What each clinic paid for its current period; a kept clinic's expected figure for it.
        case received, payable
        /// ``ArrearsPlan/Sums``, in its order.
        case arrears
    }

    /// Every sum of the dashboard in one statement (prepared once per connection): the clinics'
    /// points (their current periods and the first period not yet due), as arrays unnested,
    /// joined to the summaries and the payouts.
    func dashboardSums(_ connection: PostgresConnection, today: Day, points: [ArrearsPlan.Point], kept: Set<Int64>) async throws
        -> [DashboardPart: [Int64: [Int64?]]] {
        let statement = DashboardSums(
            book: book, clinics: points.map(\.clinicID), firsts: points.map(\.current.start.description),
            lasts: points.map(\.current.end.description), notDues: points.map(\.notDue.description), kept: points.map { kept.contains($0.clinicID) },
            today: today.description, month: today.firstOfMonth.description, yearFirst: "\(today.year)-01-01", yearLast: "\(today.year)-12-31",
            year: Int64(today.year))
        var result: [DashboardPart: [Int64: [Int64?]]] = [:]
        for try await row in try await connection.execute(statement, logger: logger) {
            guard let part = DashboardPart(rawValue: row.part) else { continue }
            result[part, default: [:]][row.key] = row.figures
        }
        return result
    }

    /// The dashboard's statement of sums: a row per part (``DashboardPart``) and key, of up to seven figures.
    struct DashboardSums: PostgresPreparedStatement {
        static let name = "commission_dashboard_sums_v1"
        static let bindingDataTypes: [PostgresDataType] = [.int8, .int8Array, .textArray, .textArray, .textArray, .boolArray, .text, .text, .text,
                                                           .text, .int8]
        /// A summary's figures, as ``Columns/totalsSums`` gives them for a row that is its key's only one.
        static let figures = "saleCount, quantity, revenueMinor, costMinor, profitMinor, commissionMinor, commissionExact"
        /// `count` figures a part leaves empty.
        static func none(_ count: Int) -> String { String(repeating: ", NULL::bigint", count: count) }
        static let sql = """
            WITH point AS MATERIALIZED (
                SELECT * FROM unnest($2::bigint[], $3::text[]::date[], $4::text[]::date[], $5::text[]::date[], $6::boolean[])
                    AS p(clinicId, first, last, notDue, kept))
            SELECT \(DashboardPart.today.rawValue)::bigint, 0::bigint, \(Columns.totalsSums) FROM clinicDayTotal WHERE bookId = $1 AND date = $7::date
            UNION ALL SELECT \(DashboardPart.clinicMonth.rawValue), clinicId, \(figures) FROM clinicMonthTotal WHERE bookId = $1 AND month = $8::date
            UNION ALL SELECT \(DashboardPart.clinicYear.rawValue), clinicId, \(Columns.totalsSums) FROM clinicMonthTotal
                WHERE bookId = $1 AND month BETWEEN $9::date AND $10::date GROUP BY clinicId
            UNION ALL SELECT \(DashboardPart.productYear.rawValue), productId, \(figures) FROM productYearTotal WHERE bookId = $1 AND year = $11
            UNION ALL SELECT \(DashboardPart.period.rawValue), point.clinicId, \(Columns.totalsSums) FROM point
                JOIN clinicDayTotal t ON t.bookId = $1 AND t.clinicId = point.clinicId AND t.date BETWEEN point.first AND point.last
                GROUP BY point.clinicId
            UNION ALL SELECT \(DashboardPart.received.rawValue), point.clinicId, sum(p.amountMinor)::bigint\(none(6))
                FROM point JOIN payout p ON p.bookId = $1 AND p.clinicId = point.clinicId AND p.periodStart = point.first
                GROUP BY point.clinicId
            UNION ALL SELECT \(DashboardPart.payable.rawValue), t.clinicId, t.expectedMinor\(none(6))
                FROM point JOIN clinicPeriodTotal t ON t.bookId = $1 AND t.clinicId = point.clinicId AND t.periodStart = point.first
                WHERE point.kept
            UNION ALL SELECT \(DashboardPart.arrears.rawValue), point.clinicId,
                (CASE WHEN kept THEN
                    (SELECT coalesce(sum(expectedMinor), 0) FROM clinicPeriodTotal t WHERE t.bookId = $1 AND t.clinicId = point.clinicId
                      AND t.periodStart <= point.first)
                 ELSE
                    (SELECT coalesce(sum(commissionMinor), 0) FROM clinicMonthTotal m WHERE m.bookId = $1 AND m.clinicId = point.clinicId)
                  - (SELECT coalesce(sum(commissionMinor), 0) FROM clinicDayTotal d WHERE d.bookId = $1 AND d.clinicId = point.clinicId
                      AND d.date > point.last)
                 END)::bigint,
                (CASE WHEN kept THEN
                    (SELECT coalesce(sum(expectedMinor), 0) FROM clinicPeriodTotal t WHERE t.bookId = $1 AND t.clinicId = point.clinicId
                      AND t.periodStart BETWEEN point.notDue AND point.first)
                 ELSE
                    (SELECT coalesce(sum(commissionMinor), 0) FROM clinicDayTotal d WHERE d.bookId = $1 AND d.clinicId = point.clinicId
                      AND d.date BETWEEN point.notDue AND point.last)
                 END)::bigint,
                (SELECT coalesce(sum(amountMinor), 0) FROM payout p WHERE p.bookId = $1 AND p.clinicId = point.clinicId
                  AND p.periodStart <= point.first)::bigint,
                (SELECT coalesce(sum(amountMinor), 0) FROM payout p WHERE p.bookId = $1 AND p.clinicId = point.clinicId
                  AND p.periodStart BETWEEN point.notDue AND point.first)::bigint\(none(3))
                FROM point
            """

        var book: Int64
        var clinics: [Int64], firsts: [String], lasts: [String], notDues: [String], kept: [Bool]
        var today: String, month: String, yearFirst: String, yearLast: String, year: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 11)
            bindings.append(book)
            bindings.append(clinics)
            bindings.append(firsts)
            bindings.append(lasts)
            bindings.append(notDues)
            bindings.append(kept)
            for text in [today, month, yearFirst, yearLast] { bindings.append(text) }
            bindings.append(year)
            return bindings
        }

        /// Cell by cell: a whole row's tuple decoded at once instantiates generic metadata for every cell.
        func decodeRow(_ row: PostgresRow) throws -> (part: Int64, key: Int64, figures: [Int64?]) {
            var cells = row.makeIterator()
            guard let part = try cells.next()?.decode(Int64.self), let key = try cells.next()?.decode(Int64.self) else {
                throw StoreError.storage("a row of the dashboard's sums is short of its key")
            }
            var figures: [Int64?] = []
            figures.reserveCapacity(7)
            while let cell = cells.next() { figures.append(try cell.decode(Int64?.self)) }
            return (part, key, figures)
        }
    }

    /// Rows of ``Columns/totalsSums`` added up (a book's month from its clinics' months), overflow an error.
    static func added(_ rows: some Sequence<[Int64?]>) throws -> [Int64?] {
        var total = [Int64](repeating: 0, count: 7)
        for row in rows {
            for (index, cell) in row.prefix(7).enumerated() {
                let (sum, overflow) = total[index].addingReportingOverflow(cell ?? 0)
                if overflow { throw StoreError.storage("a dashboard total is out of range") }
                total[index] = sum
            }
        }
        return total
    }

    /// One statement over the summaries (and the settings before it): what each live update reads.
    public func headline(today: Day) async throws -> Headline {
        try await read { connection in
            try await headline(connection, today: today, settings: try await settings(connection))
        }
    }

    func headline(_ connection: PostgresConnection, today: Day, settings: BookSettings) async throws -> Headline {
        let sums = Columns.totalsSums
        var rows: [Int64: [Int64?]] = [:]
        for row in try await connection.query(try SQL("""
            SELECT 0::bigint, \(sums) FROM clinicDayTotal WHERE bookId = ? AND date = ?::date
            UNION ALL SELECT 1, \(sums) FROM clinicMonthTotal WHERE bookId = ? AND month = ?::date
            UNION ALL SELECT 2, \(sums) FROM clinicMonthTotal WHERE bookId = ? AND month BETWEEN ?::date AND ?::date
            """, book, today.description, book, today.firstOfMonth.description, book, "\(today.year)-01-01", "\(today.year)-12-31").query, logger: logger)
            .decode((Int64, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?).self).all() {
            rows[row.0] = [row.1, row.2, row.3, row.4, row.5, row.6, row.7]
        }
        let rounding = settings.rounding
        return Headline(today: today, currency: settings.currency, todayTotals: Self.totals(rows[0] ?? [], rounding: rounding),
                        monthTotals: Self.totals(rows[1] ?? [], rounding: rounding), yearTotals: Self.totals(rows[2] ?? [], rounding: rounding))
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
            // Each line with its product's name, in the one statement.
            let lines = try await connection.query(try SQL("""
                SELECT \(Columns.sale), product.name FROM sale JOIN product ON product.bookId = sale.bookId AND product.id = sale.productId
                WHERE sale.bookId = ? AND sale.clinicId = ? AND sale.date BETWEEN ?::date AND ?::date AND NOT sale.isVoided
                ORDER BY sale.date, sale.id
                """, book, id.rawValue, period.start.description, period.end.description).query, logger: logger).all().map { row in
                let (sale, name) = try Self.saleRow(row, then: String.self)
                return StatementLine(sale: try sale.sale(), productName: name)
            }
            let payouts = try await payouts(connection, try SQL("""
                SELECT \(Columns.payout) FROM payout WHERE bookId = ? AND clinicId = ? AND periodStart = ?::date ORDER BY receivedOn, id
                """, book, id.rawValue, period.start.description).query)
            return try CommissionCore.Statement(clinic: clinic, period: period, lines: lines, payouts: payouts, rounding: settings.rounding,
                                                isClosed: try await closedPeriods(connection, clinic: id).overlaps(period),
                                                terms: try await tieredTerms(connection, clinic: id), deductions: try await deductions(connection, clinic: id))
        }
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
}
