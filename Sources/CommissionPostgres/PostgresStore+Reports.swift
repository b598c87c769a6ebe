import CommissionCore
import CommissionStore
import Foundation
import PostgresNIO
import Synchronization

extension PostgresStore {
    /// How many products the dashboard lists.
    static let dashboardProductLimit = 20

    /// Totals from the seven sums of ``Columns/totalsSums``, in their order (NULL for no rows counts as 0).
    static func totals(_ cells: [Int64?], rounding: RoundingPolicy) -> Totals {
        let value = { (index: Int) in index < cells.count ? cells[index] ?? 0 : 0 }
        let exact = ExactCommission(tenThousandths: value(6))
        return Totals(
            saleCount: Int(value(0)),
            quantity: value(1),
            revenue: Money(minorUnits: value(2)),
            cost: Money(minorUnits: value(3)),
            profit: Money(minorUnits: value(4)),
            commission: rounding.scope == .perLine ? Money(minorUnits: value(5)) : exact.rounded(rounding.rule)
        )
    }

    /// One statement, whatever the number of clinics and products: every sum at once, as one row
    /// per part and key (``DashboardPart``), the top products with their figures of the month, and
    /// what the sums depend on (the settings, the clinics, which of them are kept by period, their
    /// latest payment lags) in a row of its own. Each sum reads a summary by an index of its own;
    /// a clinic's current period and arrears share one scan per summary (``DashboardSums``).
    ///
    /// The clinics' current periods are worked out in Swift from those inputs, so the statement
    /// needs them before it runs: it is given the ones the book's last dashboard read
    /// (``DashboardInputsCache``), and its own row of inputs says, byte for byte, whether they
    /// still hold. Then the statement is its own snapshot and the dashboard one round trip. When
    /// they do not (a clinic, a payout or the settings changed since, or no dashboard was read
    /// yet), it runs again with the inputs it read; should they have changed again in between, the
    /// statement runs twice in one read-only transaction, the second time with the first's inputs.
    public func dashboard(today: Day) async throws -> Dashboard {
        var inputs = dashboardInputs.current
        for _ in 0..<2 {
            let plan = inputs?.plan(today: today)
            let sums = try await readStatement { [inputs] connection in
                try await dashboardSums(connection, today: today, inputs: inputs, plan: plan)
            }
            if let inputs, let plan, let read = sums.inputs, read.utf8.elementsEqual(inputs.text.utf8) {
                return try dashboard(today: today, inputs: inputs, plan: plan, sums: sums)
            }
            inputs = try DashboardInputs(text: sums.inputs, book: book)
            dashboardInputs.current = inputs
        }
        let (read, plan, sums) = try await self.read { connection in
            let first = try await dashboardSums(connection, today: today, inputs: nil, plan: nil)
            let inputs = try DashboardInputs(text: first.inputs, book: book)
            let plan = inputs.plan(today: today)
            return (inputs, plan, try await dashboardSums(connection, today: today, inputs: inputs, plan: plan))
        }
        dashboardInputs.current = read
        return try dashboard(today: today, inputs: read, plan: plan, sums: sums)
    }

    /// The dashboard from its statement's rows, read with `inputs` and the points of `plan`.
    func dashboard(today: Day, inputs: DashboardInputs, plan: ArrearsPlan, sums: DashboardRows) throws -> Dashboard {
        let rounding = inputs.settings.rounding
        let parts = sums.parts
        func totals(_ part: DashboardPart) -> [Int64: Totals] {
            (parts[part] ?? [:]).mapValues { Self.totals($0, rounding: rounding) }
        }
        func total(_ part: DashboardPart) throws -> Totals {
            Self.totals(try Self.added((parts[part] ?? [:]).values), rounding: rounding)
        }
        let clinicMonth = totals(.clinicMonth), clinicYear = totals(.clinicYear), periodTotals = totals(.period)
        let standingSums = parts[.standing] ?? [:]
        var arrearsSums: [Int64: ArrearsPlan.Sums] = [:]
        for (id, cells) in standingSums {
            arrearsSums[id] = ArrearsPlan.Sums(
                expected: cells[0] ?? 0,
                expectedNotDue: cells[1] ?? 0,
                received: cells[2] ?? 0,
                receivedNotDue: cells[3] ?? 0
            )
        }
        let arrears = try plan.arrears(arrearsSums)
        var standings: [ClinicStanding] = []
        for (clinic, point) in zip(inputs.clinics, plan.points)
        where !clinic.isArchived || clinicYear[clinic.id.rawValue] != nil {
            let id = clinic.id.rawValue
            let totals = periodTotals[id] ?? .zero
            let paid = Money(minorUnits: standingSums[id]?[4] ?? 0)
            let payable = inputs.kept.contains(id) ? Money(minorUnits: standingSums[id]?[5] ?? 0) : totals.commission
            standings.append(
                ClinicStanding(
                    clinic: clinic,
                    period: point.current,
                    periodTotals: totals,
                    periodPayable: payable,
                    periodReceived: paid,
                    periodBalance: try payable.subtracting(paid),
                    monthTotals: clinicMonth[id] ?? .zero,
                    yearTotals: clinicYear[id] ?? .zero,
                    arrears: arrears[id]
                        ?? Arrears(owed: .zero, overdue: .zero, dueAfterDays: Arrears.defaultDueAfterDays)
                )
            )
        }

        // The statement gave the products that may be among the top ones (``DashboardSums``); which are is decided here.
        let productYear = totals(.productYear), productMonth = parts[.productMonth] ?? [:],
            prices = parts[.productPrices] ?? [:]
        let top = productYear.sorted { ($0.value.commission, $1.key) > ($1.value.commission, $0.key) }.prefix(
            Self.dashboardProductLimit
        )
        let products = top.compactMap { id, yearTotals -> ProductStanding? in
            guard let name = sums.names[id], let price = prices[id], price.count >= 3 else { return nil }
            let product = Product(
                id: Product.ID(id),
                name: name.name,
                sku: name.sku,
                unitPrice: Money(minorUnits: price[0] ?? 0),
                unitCost: Money(minorUnits: price[1] ?? 0),
                isArchived: price[2] == 1
            )
            return ProductStanding(
                product: product,
                monthTotals: Self.totals(productMonth[id] ?? [], rounding: rounding),
                yearTotals: yearTotals
            )
        }
        return Dashboard(
            today: today,
            currency: inputs.settings.currency,
            todayTotals: try total(.today),
            monthTotals: try total(.clinicMonth),
            yearTotals: try total(.clinicYear),
            clinics: standings,
            products: products
        )
    }

    /// What the dashboard's sums depend on: the book's settings, its clinics in order of name,
    /// whether each is kept by period, and its latest payment lags in days; with the text they
    /// were read from (JSON), which a later statement's row of inputs is compared with.
    struct DashboardInputs: Sendable {
        let text: String
        let settings: BookSettings
        let clinics: [Clinic]
        let kept: Set<Int64>
        let lags: [Int64: [Int]]

        /// The row of inputs, as ``DashboardSums`` writes it: the book's settings, then its clinics,
        /// each an array in the statement's order.
        private struct Stored: Decodable {
            struct Book: Decodable {
                let currencyCode: String, minorDigits: Int, timeZone: String, roundingRule: String,
                    roundingScope: String, locale: String
                init(from decoder: any Decoder) throws {
                    var cells = try decoder.unkeyedContainer()
                    (currencyCode, minorDigits) = (try cells.decode(String.self), try cells.decode(Int.self))
                    (timeZone, roundingRule, roundingScope, locale) = (
                        try cells.decode(String.self), try cells.decode(String.self),
                        try cells.decode(String.self), try cells.decode(String.self)
                    )
                }
            }
            struct Clinic: Decodable {
                let id: Int64, name: String, kind: String, anchor: String?, archived: Bool, changes: String?,
                    kept: Bool, lags: [Int64]
                init(from decoder: any Decoder) throws {
                    var cells = try decoder.unkeyedContainer()
                    (id, name, kind) = (
                        try cells.decode(Int64.self), try cells.decode(String.self), try cells.decode(String.self)
                    )
                    (anchor, archived, changes) = (
                        try cells.decode(String?.self), try cells.decode(Bool.self), try cells.decode(String?.self)
                    )
                    (kept, lags) = (try cells.decode(Bool.self), try cells.decode([Int64].self))
                }
            }
            let book: Book
            let clinics: [Clinic]
            init(from decoder: any Decoder) throws {
                var parts = try decoder.unkeyedContainer()
                (book, clinics) = (try parts.decode(Book.self), try parts.decode([Clinic].self))
            }
        }

        init(text: String?, book: Int64) throws {
            guard let text else { throw StoreError.storage("the book \(book) does not exist") }
            let stored: Stored
            do {
                stored = try JSONDecoder().decode(Stored.self, from: Data(text.utf8))
            } catch {
                throw StoreError.storage("the book's clinics or settings are unreadable")
            }
            let b = stored.book
            self.text = text
            settings = try PostgresStore.settings(
                b.currencyCode,
                b.minorDigits,
                b.timeZone,
                b.roundingRule,
                b.roundingScope,
                b.locale
            )
            clinics = try stored.clinics.map {
                try PostgresStore.clinic($0.id, $0.name, $0.kind, $0.anchor, $0.archived, $0.changes)
            }
            kept = Set(stored.clinics.filter(\.kept).map(\.id))
            lags = Dictionary(
                uniqueKeysWithValues: stored.clinics.filter { !$0.lags.isEmpty }.map {
                    ($0.id, $0.lags.map { Int($0) })
                }
            )
        }

        func plan(today: Day) -> ArrearsPlan { ArrearsPlan(clinics: clinics, today: today, lags: lags) }
    }

    /// The inputs of the book's last dashboard, kept between dashboards: the store is a value,
    /// its copies share them.
    final class DashboardInputsCache: Sendable {
        private let value = Mutex<DashboardInputs?>(nil)
        var current: DashboardInputs? {
            get { value.withLock { $0 } }
            set { value.withLock { $0 = newValue } }
        }
    }

    /// The parts of the dashboard's one statement, each a row per key (a clinic, a product; 0 for
    /// the book) of up to seven figures.
    enum DashboardPart: Int64 {
        /// The seven figures of ``Columns/totalsSums``: of today, of each clinic's month and year,
        /// of its current period, of each product's year (only the products that may be among the
        /// top ones).
        case today, clinicMonth, clinicYear, period, productYear
        /// A clinic's ``ArrearsPlan/Sums``, in its order, then what it paid for its current period and
        /// (a kept clinic) its expected figure for it.
        case standing
        /// A product's figures of the month (with its name and SKU), and its unit price, unit
        /// cost and whether it is archived (1).
        case productMonth, productPrices
        /// The inputs the sums depend on, as JSON (``DashboardInputs``).
        case inputs
    }

    /// The rows of the dashboard's statement.
    struct DashboardRows: Sendable {
        var parts: [DashboardPart: [Int64: [Int64?]]] = [:]
        /// The top products' names and SKUs.
        var names: [Int64: (name: String, sku: String?)] = [:]
        /// The row of inputs, as the statement's snapshot has them.
        var inputs: String?
    }

    /// Runs the dashboard's statement (prepared once per connection) on the clinics' points of
    /// `plan` (their current periods and the first period not yet due), worked out from `inputs`
    /// (none without).
    func dashboardSums(
        _ connection: PostgresConnection,
        today: Day,
        inputs: DashboardInputs?,
        plan: ArrearsPlan?
    ) async throws -> DashboardRows {
        let points = plan?.points ?? []
        let kept = inputs?.kept ?? []
        let perLine = (inputs?.settings.rounding.scope ?? .perLine) == .perLine
        let statement = DashboardSums(
            book: book,
            clinics: points.map(\.clinicID),
            firsts: points.map(\.current.start.description),
            lasts: points.map(\.current.end.description),
            notDues: points.map(\.notDue.description),
            kept: points.map { kept.contains($0.clinicID) },
            today: today.description,
            month: today.firstOfMonth.description,
            yearFirst: "\(today.year)-01-01",
            yearLast: "\(today.year)-12-31",
            year: Int64(today.year),
            perLine: perLine
        )
        var rows = DashboardRows()
        for try await row in try await connection.execute(statement, logger: logger) {
            guard let part = DashboardPart(rawValue: row.part) else { continue }
            switch part {
            case .inputs: rows.inputs = row.text
            case .productMonth:
                if let name = row.text { rows.names[row.key] = (name, row.sku) }
                rows.parts[part, default: [:]][row.key] = row.figures
            default: rows.parts[part, default: [:]][row.key] = row.figures
            }
        }
        return rows
    }

    /// The dashboard's statement: a row per part (``DashboardPart``) and key, of up to seven
    /// figures and two texts (a product's name and SKU; the inputs).
    ///
    /// Of the products, only those that may be among the top ones by commission of the year are
    /// read: with per-line rounding, those whose rounded commission is at least the
    /// ``PostgresStore/dashboardProductLimit``th highest; else those whose exact commission is
    /// above that of the limit's product less two minor units. Every rounding rule moves an amount
    /// by at most half a unit, so a product two units below rounds to less than each of the limit's
    /// products at or above it, whatever the ties (with half to even, 9.5 and 10.5 both round to
    /// 10: one unit would not do). A rule that rounded to more than one unit would need more.
    ///
    /// The candidates' product and month rows are each looked up by their key: `LIMIT 1` (each
    /// key is unique) keeps the planner from flattening the lateral joins into hash joins that read
    /// every product of the book and every row of its month (500 each at 1M sales: 0.3 ms of 2.5).
    ///
    /// Each clinic's standing (`standing`) reads each of its summaries once: its days from the
    /// first that counts (its current period's, or the first not yet due) for the period's figures
    /// and the arrears' both, its payouts and kept periods up to the current one for what was paid,
    /// payable and expected, each split by `FILTER` — one scan per table and clinic where there
    /// were seven (2.30 → 2.15 ms at 1M sales, EXPLAIN ANALYZE, median of 30).
    struct DashboardSums: PostgresPreparedStatement {
        static let name = "commission_dashboard_v4"
        static let bindingDataTypes: [PostgresDataType] = [
            .int8, .int8Array, .textArray, .textArray, .textArray, .boolArray, .text, .text, .text,
            .text, .int8, .bool,
        ]
        /// A summary's figures, as ``Columns/totalsSums`` gives them for a row that is its key's only one.
        static let figures = Columns.totals.joined(separator: ", ")
        /// `count` figures a part leaves empty.
        static func none(_ count: Int) -> String { String(repeating: ", NULL::bigint", count: count) }
        /// The two texts a part leaves empty.
        static let noText = ", NULL::text, NULL::text"
        /// A summary's figures summed over the days of a clinic's current period (of `point`), named as the columns.
        static let periodSums = Columns.totals.map {
            "sum(\($0)) FILTER (WHERE date BETWEEN point.first AND point.last) AS \($0)"
        }
        .joined(separator: ", ")
        /// Two minor units, in the ten-thousandths of ``ExactCommission``.
        static let margin = 2 * 10_000
        static let sql = """
            WITH point AS MATERIALIZED (
                SELECT * FROM unnest($2::bigint[], $3::text[]::date[], $4::text[]::date[], $5::text[]::date[], $6::boolean[])
                    AS p(clinicId, first, last, notDue, kept)),
            productYear AS MATERIALIZED (
                SELECT productId, \(figures), CASE WHEN $12 THEN commissionMinor ELSE commissionExact END AS rank
                FROM productYearTotal WHERE bookId = $1 AND year = $11),
            cut AS (SELECT rank FROM productYear ORDER BY rank DESC OFFSET \(PostgresStore.dashboardProductLimit - 1) LIMIT 1),
            candidate AS MATERIALIZED (
                SELECT * FROM productYear
                WHERE NOT EXISTS (SELECT FROM cut) OR rank > (SELECT rank FROM cut) - CASE WHEN $12 THEN 1 ELSE \(margin) END),
            top AS MATERIALIZED (
                SELECT product.id AS productId, product.name, product.sku, product.unitPriceMinor, product.unitCostMinor, product.isArchived, m.*
                FROM candidate
                JOIN LATERAL (SELECT * FROM product WHERE product.bookId = $1 AND product.id = candidate.productId LIMIT 1) product ON true
                LEFT JOIN LATERAL (
                    SELECT \(figures) FROM productMonthTotal
                    WHERE bookId = $1 AND productId = candidate.productId AND month = $8::date LIMIT 1) m ON true),
            standing AS MATERIALIZED (
                SELECT point.clinicId, point.kept, d.*, pa.*, k.*, mo.monthsCommission
                FROM point
                LEFT JOIN LATERAL (
                    SELECT \(periodSums),
                        sum(commissionMinor) FILTER (WHERE date > point.last) AS commissionAfter,
                        sum(commissionMinor) FILTER (WHERE date BETWEEN point.notDue AND point.last) AS commissionNotDue
                    FROM clinicDayTotal t WHERE t.bookId = $1 AND t.clinicId = point.clinicId AND t.date >= least(point.first, point.notDue)) d ON true
                LEFT JOIN LATERAL (
                    SELECT sum(amountMinor) AS paid, sum(amountMinor) FILTER (WHERE periodStart >= point.notDue) AS paidNotDue,
                        sum(amountMinor) FILTER (WHERE periodStart = point.first) AS received
                    FROM payout p WHERE p.bookId = $1 AND p.clinicId = point.clinicId AND p.periodStart <= point.first) pa ON true
                LEFT JOIN LATERAL (
                    SELECT sum(expectedMinor) AS expected, sum(expectedMinor) FILTER (WHERE periodStart >= point.notDue) AS expectedNotDue,
                        sum(expectedMinor) FILTER (WHERE periodStart = point.first) AS payable
                    FROM clinicPeriodTotal t WHERE point.kept AND t.bookId = $1 AND t.clinicId = point.clinicId AND t.periodStart <= point.first) k ON true
                LEFT JOIN LATERAL (
                    SELECT sum(commissionMinor) AS monthsCommission FROM clinicMonthTotal m
                    WHERE NOT point.kept AND m.bookId = $1 AND m.clinicId = point.clinicId) mo ON true)
            SELECT \(DashboardPart.today.rawValue)::bigint, 0::bigint, \(Columns.totalsSums)\(noText)
                FROM clinicDayTotal WHERE bookId = $1 AND date = $7::date
            UNION ALL SELECT \(DashboardPart.clinicMonth.rawValue), clinicId, \(figures)\(noText) FROM clinicMonthTotal WHERE bookId = $1 AND month = $8::date
            UNION ALL SELECT \(DashboardPart.clinicYear.rawValue), clinicId, \(Columns.totalsSums)\(noText) FROM clinicMonthTotal
                WHERE bookId = $1 AND month BETWEEN $9::date AND $10::date GROUP BY clinicId
            UNION ALL SELECT \(DashboardPart.productYear.rawValue), productId, \(figures)\(noText) FROM candidate
            UNION ALL SELECT \(DashboardPart.productMonth.rawValue), productId, \(figures), name, sku FROM top
            UNION ALL SELECT \(DashboardPart.productPrices.rawValue), productId, unitPriceMinor, unitCostMinor,
                    CASE WHEN isArchived THEN 1 ELSE 0 END::bigint\(none(4))\(noText) FROM top
            UNION ALL SELECT \(DashboardPart.period.rawValue), clinicId, \(Columns.totals.map { "\($0)::bigint" }.joined(separator: ", "))\(noText)
                FROM standing WHERE saleCount IS NOT NULL
            UNION ALL SELECT \(DashboardPart.standing.rawValue), clinicId,
                (CASE WHEN kept THEN coalesce(expected, 0) ELSE coalesce(monthsCommission, 0) - coalesce(commissionAfter, 0) END)::bigint,
                (CASE WHEN kept THEN coalesce(expectedNotDue, 0) ELSE coalesce(commissionNotDue, 0) END)::bigint,
                coalesce(paid, 0)::bigint, coalesce(paidNotDue, 0)::bigint, coalesce(received, 0)::bigint, coalesce(payable, 0)::bigint\(none(1))\(noText)
                FROM standing
            UNION ALL SELECT \(DashboardPart.inputs.rawValue), 0\(none(7)), (
                SELECT json_build_array(
                    json_build_array(b.currencyCode, b.currencyMinorDigits, b.timeZone, b.roundingRule, b.roundingScope, b.locale),
                    coalesce((
                        SELECT json_agg(json_build_array(
                            c.id, c.name, c.scheduleKind, c.scheduleAnchor, c.isArchived, c.scheduleChanges, k.clinicId IS NOT NULL,
                            ARRAY (SELECT (p.receivedOn - p.periodEnd)::bigint FROM payout p WHERE p.bookId = b.id AND p.clinicId = c.id
                                   ORDER BY p.periodStart DESC, p.id DESC LIMIT \(Arrears.lagSample)))
                            ORDER BY \(Columns.byName("c.name")), c.id)
                        FROM clinic c LEFT JOIN clinicPeriodKept k ON k.bookId = c.bookId AND k.clinicId = c.id
                        WHERE c.bookId = b.id), '[]'::json))::text
                FROM book b WHERE b.id = $1), NULL::text
            """

        var book: Int64
        var clinics: [Int64], firsts: [String], lasts: [String], notDues: [String], kept: [Bool]
        var today: String, month: String, yearFirst: String, yearLast: String, year: Int64
        /// Whether the book rounds per line (products are ranked by their rounded commission).
        var perLine: Bool

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 12)
            bindings.append(book)
            bindings.append(clinics)
            bindings.append(firsts)
            bindings.append(lasts)
            bindings.append(notDues)
            bindings.append(kept)
            for text in [today, month, yearFirst, yearLast] { bindings.append(text) }
            bindings.append(year)
            bindings.append(perLine)
            return bindings
        }

        /// Cell by cell: a whole row's tuple decoded at once instantiates generic metadata for every cell.
        func decodeRow(
            _ row: PostgresRow
        ) throws -> (part: Int64, key: Int64, figures: [Int64?], text: String?, sku: String?) {
            var cells = row.makeIterator()
            guard let part = try cells.next()?.decode(Int64.self), let key = try cells.next()?.decode(Int64.self) else {
                throw StoreError.storage("a row of the dashboard's sums is short of its key")
            }
            var figures: [Int64?] = []
            figures.reserveCapacity(7)
            for _ in 0..<7 {
                guard let cell = cells.next() else {
                    throw StoreError.storage("a row of the dashboard's sums is short of its figures")
                }
                figures.append(try cell.decode(Int64?.self))
            }
            let text = try cells.next()?.decode(String?.self) ?? nil
            let sku = try cells.next()?.decode(String?.self) ?? nil
            return (part, key, figures, text, sku)
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
        for row in try await connection.query(
            try SQL(
                """
                SELECT 0::bigint, \(sums) FROM clinicDayTotal WHERE bookId = ? AND date = ?::date
                UNION ALL SELECT 1, \(sums) FROM clinicMonthTotal WHERE bookId = ? AND month = ?::date
                UNION ALL SELECT 2, \(sums) FROM clinicMonthTotal WHERE bookId = ? AND month BETWEEN ?::date AND ?::date
                """,
                book,
                today.description,
                book,
                today.firstOfMonth.description,
                book,
                "\(today.year)-01-01",
                "\(today.year)-12-31"
            ).query,
            logger: logger
        )
        .decode((Int64, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?).self).all() {
            rows[row.0] = [row.1, row.2, row.3, row.4, row.5, row.6, row.7]
        }
        let rounding = settings.rounding
        return Headline(
            today: today,
            currency: settings.currency,
            todayTotals: Self.totals(rows[0] ?? [], rounding: rounding),
            monthTotals: Self.totals(rows[1] ?? [], rounding: rounding),
            yearTotals: Self.totals(rows[2] ?? [], rounding: rounding)
        )
    }

    public func clinicMonths(from first: Day, through last: Day) async throws -> [ClinicMonth] {
        try await read { connection in
            let rounding = try await settings(connection).rounding
            let rows = try await connection.query(
                try SQL(
                    """
                    SELECT clinicId, month::text, \(Columns.totalsSums) FROM clinicMonthTotal
                    WHERE bookId = ? AND month BETWEEN ?::date AND ?::date
                    GROUP BY clinicId, month ORDER BY month, clinicId
                    """,
                    book,
                    first.firstOfMonth.description,
                    last.firstOfMonth.description
                ).query,
                logger: logger
            )
            .decode((Int64, String, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?).self).all()
            return try rows.map { row in
                ClinicMonth(
                    clinicID: Clinic.ID(row.0),
                    month: try Day.stored(row.1, row: "A month summary of clinic \(row.0)"),
                    totals: Self.totals([row.2, row.3, row.4, row.5, row.6, row.7, row.8], rounding: rounding)
                )
            }
        }
    }

    public func statement(clinic id: Clinic.ID, period: PayPeriod) async throws -> CommissionCore.Statement {
        try await read { connection in
            let settings = try await settings(connection)
            let clinic = try await clinic(connection, id)
            try Ledger.checkPeriod(period, of: clinic)
            // Each line with its product's name, in the one statement.
            let lines = try await connection.query(
                try SQL(
                    """
                    SELECT \(Columns.sale), product.name FROM sale JOIN product ON product.bookId = sale.bookId AND product.id = sale.productId
                    WHERE sale.bookId = ? AND sale.clinicId = ? AND sale.date BETWEEN ?::date AND ?::date AND NOT sale.isVoided
                    ORDER BY sale.date, sale.id
                    """,
                    book,
                    id.rawValue,
                    period.start.description,
                    period.end.description
                ).query,
                logger: logger
            ).all().map { row in
                let (sale, name) = try Self.saleRow(row, then: String.self)
                return StatementLine(sale: try sale.sale(), productName: name)
            }
            let payouts = try await payouts(
                connection,
                try SQL(
                    """
                    SELECT \(Columns.payout) FROM payout WHERE bookId = ? AND clinicId = ? AND periodStart = ?::date ORDER BY receivedOn, id
                    """,
                    book,
                    id.rawValue,
                    period.start.description
                ).query
            )
            return try CommissionCore.Statement(
                clinic: clinic,
                period: period,
                lines: lines,
                payouts: payouts,
                rounding: settings.rounding,
                isClosed: try await closedPeriods(connection, clinic: id).overlaps(period),
                terms: try await tieredTerms(connection, clinic: id),
                deductions: try await deductions(connection, clinic: id)
            )
        }
    }

    public func reconciliation(clinic id: Clinic.ID, today: Day) async throws -> Reconciliation {
        try await read { connection in
            try await reconciliation(
                connection,
                clinic: try await clinic(connection, id),
                today: today,
                settings: try await settings(connection)
            )
        }
    }

    public func reconciliations(clinics ids: [Clinic.ID], today: Day) async throws -> [Reconciliation] {
        try await read { connection in
            let settings = try await settings(connection)
            var all: [Reconciliation] = []
            for id in ids {
                all.append(
                    try await reconciliation(
                        connection,
                        clinic: try await clinic(connection, id),
                        today: today,
                        settings: settings
                    )
                )
            }
            return all
        }
    }

    func reconciliation(
        _ connection: PostgresConnection,
        clinic: Clinic,
        today: Day,
        settings: BookSettings
    ) async throws -> Reconciliation {
        let last = clinic.calendar.period(containing: today).end
        let sums = try await periodSums(
            connection,
            clinic: clinic,
            from: Day(ordinal: -719_162),
            through: last,
            settings: settings
        )  // from 0001-01-01
        return try await reconciliation(connection, sums, through: last, today: today)
    }

    /// The reconciliation of the periods `sums` holds through `last`, with the clinic's payouts.
    func reconciliation(
        _ connection: PostgresConnection,
        _ sums: PeriodSums,
        through last: Day,
        today: Day
    ) async throws -> Reconciliation {
        let id = sums.clinic.id
        var received: [PayPeriod: Money] = [:]
        for (start, end, amount) in try await connection.query(
            try SQL(
                """
                SELECT periodStart::text, periodEnd::text, sum(amountMinor)::bigint FROM payout
                WHERE bookId = ? AND clinicId = ? AND periodStart <= ?::date GROUP BY periodStart, periodEnd
                """,
                book,
                id.rawValue,
                last.description
            ).query,
            logger: logger
        ).decode((String, String, Int64).self).all() {
            received[
                PayPeriod(
                    start: try Day.stored(start, row: "A payout's period at clinic \(id)"),
                    end: try Day.stored(end, row: "A payout's period at clinic \(id)")
                )
            ] = Money(minorUnits: amount)
        }
        return try sums.reconciliation(
            received: received,
            closed: try await closedPeriods(connection, clinic: id),
            today: today
        )
    }
}
