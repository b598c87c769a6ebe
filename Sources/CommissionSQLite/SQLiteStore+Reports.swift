import CommissionCore
import CommissionStore
import GRDB

extension SQLiteStore {
    /// How many products the dashboard lists.
    static let dashboardProductLimit = 20

    /// Reads only summary tables, in a dozen statements whatever the number of clinics and products:
    /// about the same work at a million sales as at a thousand.
    public func dashboard(today: Day) async throws -> Dashboard {
        try await read { db in
            let settings = try Self.settings(db)
            let rounding = settings.rounding
            let month = String(today.description.prefix(7)), year = String(today.description.prefix(4))
            let yearFirst = "\(year)-01", yearLast = "\(year)-12"

            func grouped(_ sql: String, _ arguments: StatementArguments) throws -> [Int64: Totals] {
                var result: [Int64: Totals] = [:]
                let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
                while let row = try rows.next() {
                    result[row[0]] = Rows.totals(row, at: 1, rounding: rounding)
                }
                return result
            }

            // Each clinic's month and year, and the book's summed from them (rounded once, as a
            // statement would be): a few primary-key ranges per clinic.
            let clinicMonthSums = try Self.clinicSums(db, from: month, through: month)
            let clinicYearSums = try Self.clinicSums(db, from: yearFirst, through: yearLast)
            func totals(_ sums: [Int64: Totals.Accumulator]) throws -> [Int64: Totals] {
                try sums.mapValues { sums in try Self.total(CollectionOfOne(sums), rounding: rounding) }
            }
            let clinicMonth = try totals(clinicMonthSums), clinicYear = try totals(clinicYearSums)
            let headline = Headline(
                today: today,
                currency: settings.currency,
                todayTotals: try Self.todayTotals(db, today: today, rounding: rounding),
                monthTotals: try Self.total(clinicMonthSums.values, rounding: rounding),
                yearTotals: try Self.total(clinicYearSums.values, rounding: rounding)
            )
            let clinics = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT \(Rows.clinicColumns) FROM clinic ORDER BY name COLLATE NOCASE, id")
            )
            .map { try Rows.clinic($0) }
            .filter { !$0.isArchived || clinicYear[$0.id.rawValue] != nil }

            // Every clinic's current period at once: a period that is this calendar month is the
            // month's figures just read; the others, as a VALUES list joined to the day summary.
            // The payouts, likewise joined.
            let periods = clinics.map { ($0.id.rawValue, $0.calendar.period(containing: today)) }
            let monthStart = today.firstOfMonth, monthEnd = today.lastOfMonth
            var periodTotals: [Int64: Totals] = [:], received: [Int64: Int64] = [:]
            let byDay = periods.filter { $0.1.start != monthStart || $0.1.end != monthEnd }
            for (id, period) in periods where period.start == monthStart && period.end == monthEnd {
                periodTotals[id] = clinicMonth[id]
            }
            if !byDay.isEmpty {
                let values = repeatElement("(?, ?, ?)", count: byDay.count).joined(separator: ", ")
                var arguments = StatementArguments()
                for (id, period) in byDay { arguments += [id, period.start.description, period.end.description] }
                periodTotals.merge(
                    try grouped(
                        """
                        WITH current(clinicId, first, last) AS (VALUES \(values))
                        SELECT current.clinicId, \(Rows.totalsSums) FROM current
                        JOIN clinicDayTotal ON clinicDayTotal.clinicId = current.clinicId AND clinicDayTotal.date BETWEEN current.first AND current.last
                        GROUP BY current.clinicId
                        """,
                        arguments
                    )
                ) { _, byDay in byDay }
            }
            if !periods.isEmpty {
                let values = repeatElement("(?, ?, ?)", count: periods.count).joined(separator: ", ")
                var arguments = StatementArguments()
                for (id, period) in periods { arguments += [id, period.start.description, period.end.description] }
                let rows = try Row.fetchCursor(
                    db.cachedStatement(
                        sql: """
                            WITH current(clinicId, first, last) AS (VALUES \(values))
                            SELECT current.clinicId, sum(payout.amountMinor) FROM current
                            JOIN payout ON payout.clinicId = current.clinicId AND payout.periodStart = current.first
                            GROUP BY current.clinicId
                            """
                    ),
                    arguments: arguments
                )
                while let row = try rows.next() { received[row[0]] = row[1] }
            }
            // Clinics whose figure is not the sum of their lines' (tiers, deductions, rounding once
            // per statement): their current period's expected figure is kept (`clinicPeriodTotal`).
            let kept = Set(try Int64.fetchAll(db.cachedStatement(sql: "SELECT clinicId FROM clinicPeriodKept")))
            var payables: [Int64: Money] = [:]
            if !kept.isEmpty, !periods.isEmpty {
                let values = repeatElement("(?, ?)", count: periods.count).joined(separator: ", ")
                var arguments = StatementArguments()
                for (id, period) in periods { arguments += [id, period.start.description] }
                let rows = try Row.fetchCursor(
                    db.cachedStatement(
                        sql: """
                            WITH current(clinicId, first) AS (VALUES \(values))
                            SELECT t.clinicId, t.expectedMinor FROM current
                            JOIN clinicPeriodTotal t ON t.clinicId = current.clinicId AND t.periodStart = current.first
                            """
                    ),
                    arguments: arguments
                )
                while let row = try rows.next() { payables[row[0]] = Money(minorUnits: row[1]) }
            }
            let arrears = try Self.arrears(db, of: clinics, today: today, kept: kept)
            let standings = try zip(clinics, periods).map { clinic, period in
                let totals = periodTotals[clinic.id.rawValue] ?? .zero
                let paid = Money(minorUnits: received[clinic.id.rawValue] ?? 0)
                let payable =
                    kept.contains(clinic.id.rawValue) ? payables[clinic.id.rawValue] ?? .zero : totals.commission
                return ClinicStanding(
                    clinic: clinic,
                    period: period.1,
                    periodTotals: totals,
                    periodPayable: payable,
                    periodReceived: paid,
                    periodBalance: try payable.subtracting(paid),
                    monthTotals: clinicMonth[clinic.id.rawValue] ?? .zero,
                    yearTotals: clinicYear[clinic.id.rawValue] ?? .zero,
                    arrears: arrears[clinic.id.rawValue]
                        ?? Arrears(owed: .zero, overdue: .zero, dueAfterDays: Arrears.defaultDueAfterDays)
                )
            }

            // Top products: the year's few hundred rows, then this month's figures and the names of the top ones.
            let productYear = try grouped(
                "SELECT productId, \(Rows.totalsSums) FROM productYearTotal WHERE year = ? GROUP BY productId",
                [year]
            )
            let top = productYear.sorted { ($0.value.commission, $1.key) > ($1.value.commission, $0.key) }.prefix(
                Self.dashboardProductLimit
            )
            var products: [ProductStanding] = []
            if !top.isEmpty {
                let ids = top.map(\.key)
                let list = repeatElement("?", count: ids.count).joined(separator: ", ")
                let productMonth = try grouped(
                    "SELECT productId, \(Rows.totalsSums) FROM productMonthTotal WHERE month = ? AND productId IN (\(list)) GROUP BY productId",
                    StatementArguments(
                        [month as any DatabaseValueConvertible] + ids.map { $0 as any DatabaseValueConvertible }
                    )
                )
                var byID: [Int64: Product] = [:]
                for row in try Row.fetchAll(
                    db,
                    sql: "SELECT \(Rows.productColumns) FROM product WHERE id IN (\(list))",
                    arguments: StatementArguments(ids)
                ) {
                    let product = Rows.product(row)
                    byID[product.id.rawValue] = product
                }
                products = top.compactMap { id, year in
                    byID[id].map {
                        ProductStanding(product: $0, monthTotals: productMonth[id] ?? .zero, yearTotals: year)
                    }
                }
            }
            return Dashboard(
                today: today,
                currency: settings.currency,
                todayTotals: headline.todayTotals,
                monthTotals: headline.monthTotals,
                yearTotals: headline.yearTotals,
                clinics: standings,
                products: products
            )
        }
    }

    /// Feeds `sums` the clinic's day summary and the basis totals of its tiered terms from `first`
    /// through `last`, summed per pay period by SQLite (the periods joined as a VALUES list): a few
    /// hundred rows for years of sales, rather than a row a day. Day by day when the periods would
    /// be too many for one statement.
    static func addSums(_ db: Database, to sums: inout PeriodSums, from first: Day, through last: Day) throws {
        let id = sums.clinic.id
        let figures =
            "sum(saleCount), sum(quantity), sum(revenueMinor), sum(costMinor), sum(profitMinor), sum(commissionMinor), sum(commissionExact)"
        func add(_ row: Row) throws {
            try sums.add(
                day: try Day.stored(row[0], row: "A day summary of clinic \(id)"),
                saleCount: row[1],
                quantity: row[2],
                revenue: Money(minorUnits: row[3]),
                cost: Money(minorUnits: row[4]),
                profit: Money(minorUnits: row[5]),
                commission: Money(minorUnits: row[6]),
                exactCommission: ExactCommission(tenThousandths: row[7])
            )
        }
        let tiered = sums.tiered.map(\.id.rawValue)
        let termsList = repeatElement("?", count: tiered.count).joined(separator: ", ")
        let basis = "sum(CASE s.basis WHEN 'revenue' THEN s.revenueMinor ELSE s.profitMinor END)"
        if let periods = sums.periods(from: first, through: last) {
            guard !periods.isEmpty else { return }
            // The periods' bounds as one JSON argument, so that the statement is compiled once and
            // kept (a clinic of five weekly years has 260 periods: their own SQL text each time
            // cost more than the sums).
            let values =
                "WITH p(first, last) AS (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))"
            let bounds: StatementArguments = [
                "[" + periods.map { "[\"\($0.start)\",\"\($0.end)\"]" }.joined(separator: ",") + "]"
            ]
            let rows = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        \(values) SELECT p.first, \(figures) FROM p JOIN clinicDayTotal d ON d.clinicId = ? AND d.date BETWEEN p.first AND p.last GROUP BY p.first
                        """
                ),
                arguments: bounds + [id.rawValue]
            )
            while let row = try rows.next() { try add(row) }
            guard !tiered.isEmpty else { return }
            let totals = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        \(values) SELECT p.first, s.termsId, \(basis) FROM p JOIN sale s ON s.clinicId = ? AND s.date BETWEEN p.first AND p.last
                        WHERE s.isVoided = 0 AND s.termsId IN (\(termsList)) GROUP BY p.first, s.termsId
                        """
                ),
                arguments: bounds + [id.rawValue] + StatementArguments(tiered)
            )
            while let row = try totals.next() {
                try sums.add(
                    day: try Day.stored(row[0], row: "A period of clinic \(id)"),
                    terms: Terms.ID(row[1] as Int64),
                    basisTotal: Money(minorUnits: row[2])
                )
            }
            return
        }
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT date, \(figures) FROM clinicDayTotal WHERE clinicId = ? AND date BETWEEN ? AND ? GROUP BY date
                    """
            ),
            arguments: [id.rawValue, first.description, last.description]
        )
        while let row = try rows.next() { try add(row) }
        for item in try basisTotals(db, clinic: id, terms: sums.tiered, from: first, through: last) {
            try sums.add(day: item.day, terms: item.terms, basisTotal: item.total)
        }
    }

    /// What each clinic owes her now (``Arrears``), from sums: every period's expected figure
    /// through the current period's end and from the first period not yet due, against the payouts
    /// for the same periods — two statements for every clinic at once, and one small lookup per
    /// clinic for its usual time to pay. A clinic's expected figure is the sum of its lines'
    /// commission (its months, less the days after the current period) or, for a kept clinic
    /// (tiers, deductions, rounding once per statement), the sum of its kept periods' figures.
    /// - Parameter kept: the clinics whose figures are kept by period (`clinicPeriodKept`): every
    ///   clinic with tiers or deductions, and every clinic of a book rounding once per statement.
    static func arrears(_ db: Database, of clinics: [Clinic], today: Day, kept: Set<Int64>) throws -> [Int64: Arrears] {
        guard !clinics.isEmpty else { return [:] }
        var lags: [Int64: [Int]] = [:]
        let latest = try db.cachedStatement(
            sql: """
                SELECT CAST(julianday(receivedOn) - julianday(periodEnd) AS INTEGER) FROM payout
                WHERE clinicId = ? ORDER BY periodStart DESC, id DESC LIMIT \(Arrears.lagSample)
                """
        )
        for clinic in clinics {
            lags[clinic.id.rawValue] = try Int.fetchAll(latest, arguments: [clinic.id.rawValue])
        }
        let plan = ArrearsPlan(clinics: clinics, today: today, lags: lags)
        var arguments = StatementArguments()
        for point in plan.points {
            arguments += [
                point.clinicID, point.current.start.description, point.current.end.description,
                point.notDue.description,
                kept.contains(point.clinicID),
            ]
        }
        var sums: [Int64: ArrearsPlan.Sums] = [:]
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    WITH point(clinicId, first, last, notDue, kept) AS (VALUES \(repeatElement("(?, ?, ?, ?, ?)", count: plan.points.count).joined(separator: ", ")))
                    SELECT clinicId,
                           CASE WHEN kept THEN
                               (SELECT coalesce(sum(expectedMinor), 0) FROM clinicPeriodTotal t WHERE t.clinicId = point.clinicId AND t.periodStart <= point.first)
                           ELSE
                               (SELECT coalesce(sum(commissionMinor), 0) FROM clinicMonthTotal m WHERE m.clinicId = point.clinicId)
                             - (SELECT coalesce(sum(commissionMinor), 0) FROM clinicDayTotal d WHERE d.clinicId = point.clinicId AND d.date > point.last)
                           END,
                           CASE WHEN kept THEN
                               (SELECT coalesce(sum(expectedMinor), 0) FROM clinicPeriodTotal t
                                WHERE t.clinicId = point.clinicId AND t.periodStart BETWEEN point.notDue AND point.first)
                           ELSE
                               (SELECT coalesce(sum(commissionMinor), 0) FROM clinicDayTotal d
                                WHERE d.clinicId = point.clinicId AND d.date BETWEEN point.notDue AND point.last)
                           END,
                           (SELECT coalesce(sum(amountMinor), 0) FROM payout p WHERE p.clinicId = point.clinicId AND p.periodStart <= point.first),
                           (SELECT coalesce(sum(amountMinor), 0) FROM payout p
                            WHERE p.clinicId = point.clinicId AND p.periodStart BETWEEN point.notDue AND point.first)
                    FROM point
                    """
            ),
            arguments: arguments
        )
        while let row = try rows.next() {
            sums[row[0]] = ArrearsPlan.Sums(
                expected: row[1],
                expectedNotDue: row[2],
                received: row[3],
                receivedNotDue: row[4]
            )
        }
        return try plan.arrears(sums)
    }

    /// Three statements over the summaries (a key range per clinic each): what each live update
    /// of the server reads.
    public func headline(today: Day) async throws -> Headline {
        try await read { db in try Self.headline(db, today: today, settings: try Self.settings(db)) }
    }

    static func headline(_ db: Database, today: Day, settings: BookSettings) throws -> Headline {
        let month = String(today.description.prefix(7)), year = String(today.description.prefix(4))
        let rounding = settings.rounding
        return Headline(
            today: today,
            currency: settings.currency,
            todayTotals: try todayTotals(db, today: today, rounding: rounding),
            monthTotals: try total(clinicSums(db, from: month, through: month).values, rounding: rounding),
            yearTotals: try total(clinicSums(db, from: "\(year)-01", through: "\(year)-12").values, rounding: rounding)
        )
    }

    /// Today's figures of the whole book: one primary-key lookup per clinic rather than a scan of
    /// every clinic-day.
    static func todayTotals(_ db: Database, today: Day, rounding: RoundingPolicy) throws -> Totals {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT \(Rows.totalsSums) FROM clinicDayTotal WHERE clinicId IN (SELECT id FROM clinic) AND date = ?
                        """
                ),
                arguments: [today.description]
            )
        else { return .zero }
        return Rows.totals(row, at: 0, rounding: rounding)
    }

    /// Each clinic's sums of the months `first` through `last` (`YYYY-MM`), unrounded: the clinics
    /// drive the join, so SQLite reads a range of `clinicMonthTotal`'s key per clinic instead of
    /// scanning every clinic-month of the book.
    static func clinicSums(
        _ db: Database,
        from first: String,
        through last: String
    ) throws -> [Int64: Totals.Accumulator] {
        var result: [Int64: Totals.Accumulator] = [:]
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT clinic.id, \(Rows.totalsSums) FROM clinic CROSS JOIN clinicMonthTotal m ON m.clinicId = clinic.id AND m.month BETWEEN ? AND ?
                    GROUP BY clinic.id
                    """
            ),
            arguments: [first, last]
        )
        while let row = try rows.next() { result[row[0]] = Rows.sums(row, at: 1) }
        return result
    }

    /// The sum of several groups' figures, rounded once; a sum too large is the store's error.
    static func total(_ sums: some Sequence<Totals.Accumulator>, rounding: RoundingPolicy) throws -> Totals {
        do {
            var total = Totals.Accumulator()
            for item in sums { try total.add(item) }
            return try total.totals(rounding: rounding)
        } catch {
            throw StoreError.invalid(field: "amount", reason: error.description)
        }
    }

    public func clinicMonths(from first: Day, through last: Day) async throws -> [ClinicMonth] {
        try await read { db in
            let rounding = try Self.settings(db).rounding
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT clinicId, month, \(Rows.totalsSums) FROM clinicMonthTotal WHERE month BETWEEN ? AND ?
                    GROUP BY clinicId, month ORDER BY month, clinicId
                    """,
                arguments: [String(first.description.prefix(7)), String(last.description.prefix(7))]
            ).map { row in
                ClinicMonth(
                    clinicID: Clinic.ID(row[0] as Int64),
                    month: try Day.stored(
                        (row[1] as String) + "-01",
                        row: "A month summary of clinic \(row[0] as Int64)"
                    ),
                    totals: Rows.totals(row, at: 2, rounding: rounding)
                )
            }
        }
    }

    public func statement(clinic id: Clinic.ID, period: PayPeriod) async throws -> CommissionCore.Statement {
        try await read { db in
            let settings = try Self.settings(db)
            let clinic = try Self.clinic(db, id)
            try Ledger.checkPeriod(period, of: clinic)
            // Read through SQLite's C API: a busy clinic's month is tens of thousands of lines, and
            // GRDB's generic decoding of each cell was half of a statement's time.
            let lines = try FastStatement.rows(
                try db.cachedStatement(
                    sql: """
                        SELECT \(Rows.saleColumns), product.name FROM sale JOIN product ON product.id = sale.productId
                        WHERE sale.clinicId = ? AND sale.date BETWEEN ? AND ? AND sale.isVoided = 0
                        ORDER BY sale.date, sale.id
                        """
                )
            ) {
                $0.bind(id.rawValue)
                $0.bind(period.start.description)
                $0.bind(period.end.description)
            } read: {
                StatementLine(sale: try Rows.sale($0), productName: $0.text(18))
            }
            let payouts = try Row.fetchAll(
                db,
                sql:
                    "SELECT \(Rows.payoutColumns) FROM payout WHERE clinicId = ? AND periodStart = ? ORDER BY receivedOn, id",
                arguments: [id.rawValue, period.start.description]
            ).map { try Rows.payout($0) }
            return try CommissionCore.Statement(
                clinic: clinic,
                period: period,
                lines: lines,
                payouts: payouts,
                rounding: settings.rounding,
                isClosed: try Self.closedPeriods(db, clinic: id).overlaps(period),
                terms: try Self.tieredTerms(db, clinic: id),
                deductions: try Self.deductions(db, clinic: id)
            )
        }
    }

    public func reconciliation(clinic id: Clinic.ID, today: Day) async throws -> Reconciliation {
        try await read { db in
            try Self.reconciliation(db, clinic: try Self.clinic(db, id), today: today, settings: try Self.settings(db))
        }
    }

    public func reconciliations(clinics ids: [Clinic.ID], today: Day) async throws -> [Reconciliation] {
        try await read { db in
            let settings = try Self.settings(db)
            return try ids.map {
                try Self.reconciliation(db, clinic: try Self.clinic(db, $0), today: today, settings: settings)
            }
        }
    }

    static func reconciliation(
        _ db: Database,
        clinic: Clinic,
        today: Day,
        settings: BookSettings
    ) throws -> Reconciliation {
        let last = clinic.calendar.period(containing: today).end
        return try reconciliation(
            db,
            try periodSums(db, clinic: clinic, through: last, settings: settings),
            through: last,
            today: today
        )
    }

    /// A clinic's sums by period from its first day with a sale through `last`.
    static func periodSums(
        _ db: Database,
        clinic: Clinic,
        through last: Day,
        settings: BookSettings
    ) throws -> PeriodSums {
        var sums = PeriodSums(
            clinic: clinic,
            rounding: settings.rounding,
            tiered: try tieredTerms(db, clinic: clinic.id),
            deductions: try deductions(db, clinic: clinic.id)
        )
        let first = try String.fetchOne(
            db.cachedStatement(sql: "SELECT min(date) FROM clinicDayTotal WHERE clinicId = ?"),
            arguments: [clinic.id.rawValue]
        )
        .flatMap(Day.reading(stored:))
        if let first { try addSums(db, to: &sums, from: first, through: last) }
        return sums
    }

    /// The reconciliation of the periods `sums` holds through `last`, with the clinic's payouts.
    static func reconciliation(
        _ db: Database,
        _ sums: PeriodSums,
        through last: Day,
        today: Day
    ) throws -> Reconciliation {
        let id = sums.clinic.id
        var received: [PayPeriod: Money] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT periodStart, periodEnd, sum(amountMinor) FROM payout WHERE clinicId = ? AND periodStart <= ?
                GROUP BY periodStart, periodEnd
                """,
            arguments: [id.rawValue, last.description]
        ) {
            received[
                PayPeriod(
                    start: try Day.stored(row[0], row: "A payout's period at clinic \(id)"),
                    end: try Day.stored(row[1], row: "A payout's period at clinic \(id)")
                )
            ] = Money(minorUnits: row[2])
        }
        return try sums.reconciliation(received: received, closed: try closedPeriods(db, clinic: id), today: today)
    }
}
