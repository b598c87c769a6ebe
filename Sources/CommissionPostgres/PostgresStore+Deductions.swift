import CommissionCore
import CommissionStore
import PostgresNIO

extension PostgresStore {
    // MARK: Deductions

    public func createDeduction(_ deduction: Deduction) async throws -> Deduction {
        try await write([.deductions]) { connection in try await createDeduction(connection, deduction) }
    }

    /// Adds a deduction, with its audit entry.
    func createDeduction(_ connection: PostgresConnection, _ deduction: Deduction) async throws -> Deduction {
        let clinic = try await clinic(connection, deduction.clinicID)
        guard
            var created = try Ledger.deductionChange(
                from: nil,
                to: deduction,
                clinic: clinic,
                closed: try await closedPeriods(connection, clinic: clinic.id),
                rules: try await rules(connection)
            )
        else { return deduction }
        let stored = created.amount.stored
        let id = try await int(
            connection,
            """
            INSERT INTO deduction (bookId, clinicId, name, kind, amountMinor, shareBasisPoints, effectiveFrom, lastDay)
            VALUES (\(book), \(clinic.id.rawValue), \(created.name), \(stored.kind), \(stored.amountMinor), \(stored.shareBasisPoints),
                    \(created.effectiveFrom.description)::date, \(created.lastDay?.description)::date)
            RETURNING id
            """
        )
        created.id = Deduction.ID(id)
        try await record(connection, Audit.Change(.deduction, id, "create", before: nil, after: Audit.json(created)))
        return created
    }

    public func deductions(clinic: Clinic.ID?) async throws -> [Deduction] {
        try await read { connection in try await deductions(connection, clinic: clinic) }
    }

    /// The deductions of a clinic (or all), one of them, or those `condition` (SQL on their columns) selects.
    func deductions(
        _ connection: PostgresConnection,
        clinic: Clinic.ID?,
        id: Deduction.ID? = nil,
        condition: String = "TRUE"
    ) async throws -> [Deduction] {
        var sql = try SQL("SELECT \(Columns.deduction) FROM deduction WHERE bookId = ? AND \(condition)", book)
        if let clinic { try sql.add(" AND clinicId = ?", clinic.rawValue) }
        if let id { try sql.add(" AND id = ?", id.rawValue) }
        try sql.add(" ORDER BY clinicId, effectiveFrom, id")
        return try await connection.query(sql.query, logger: logger).decode(
            (Int64, Int64, String, String, Int64?, Int?, String, String?).self
        ).all()
            .map { id, clinic, name, kind, amount, points, from, last in
                Deduction(
                    id: Deduction.ID(id),
                    clinicID: Clinic.ID(clinic),
                    name: name,
                    amount: try DeductionAmount(
                        kind: kind,
                        amountMinor: amount,
                        shareBasisPoints: points,
                        deduction: id
                    ),
                    effectiveFrom: try Day.stored(from, row: "Deduction \(id)'s first day"),
                    lastDay: try last.map { try Day.stored($0, row: "Deduction \(id)'s last day") }
                )
            }
    }

    public func deduction(_ id: Deduction.ID) async throws -> Deduction {
        try await read { connection in try await deduction(connection, id) }
    }

    func deduction(_ connection: PostgresConnection, _ id: Deduction.ID) async throws -> Deduction {
        guard let deduction = try await deductions(connection, clinic: nil, id: id).first else {
            throw StoreError.notFound(.deductions, id: id.rawValue)
        }
        return deduction
    }

    public func updateDeduction(_ deduction: Deduction) async throws -> Deduction {
        try await write([.deductions]) { connection in
            let old = try await self.deduction(connection, deduction.id)
            guard old.clinicID == deduction.clinicID else {
                throw StoreError.invalid(
                    field: "clinic",
                    reason: "a deduction cannot move to another clinic; add it there instead."
                )
            }
            let clinic = try await clinic(connection, old.clinicID)
            guard
                let changed = try Ledger.deductionChange(
                    from: old,
                    to: deduction,
                    clinic: clinic,
                    closed: try await closedPeriods(connection, clinic: clinic.id),
                    rules: try await rules(connection)
                )
            else { return old }
            let stored = changed.amount.stored
            try await connection.query(
                """
                UPDATE deduction SET name = \(changed.name), kind = \(stored.kind), amountMinor = \(stored.amountMinor),
                    shareBasisPoints = \(stored.shareBasisPoints), effectiveFrom = \(changed.effectiveFrom.description)::date,
                    lastDay = \(changed.lastDay?.description)::date
                WHERE bookId = \(book) AND id = \(changed.id.rawValue)
                """,
                logger: logger
            )
            try await record(
                connection,
                Audit.Change(
                    .deduction,
                    changed.id.rawValue,
                    "update",
                    before: Audit.json(old),
                    after: Audit.json(changed)
                )
            )
            return changed
        }
    }

    public func deleteDeduction(_ id: Deduction.ID) async throws {
        try await write([.deductions]) { connection in
            let old = try await self.deduction(connection, id)
            let clinic = try await clinic(connection, old.clinicID)
            _ = try Ledger.deductionChange(
                from: old,
                to: nil,
                clinic: clinic,
                closed: try await closedPeriods(connection, clinic: clinic.id),
                rules: try await rules(connection)
            )
            try await connection.query(
                "DELETE FROM deduction WHERE bookId = \(book) AND id = \(id.rawValue)",
                logger: logger
            )
            try await record(
                connection,
                Audit.Change(.deduction, id.rawValue, "delete", before: Audit.json(old), after: nil)
            )
        }
    }

    /// Every terms of a clinic with tiers, archived ones too.
    func tieredTerms(_ connection: PostgresConnection, clinic: Clinic.ID) async throws -> [Terms] {
        try await termsList(
            connection,
            try SQL(
                "SELECT \(Columns.terms) FROM terms WHERE bookId = ? AND clinicId = ? AND tiers IS NOT NULL",
                book,
                clinic.rawValue
            ).query
        )
    }

    /// A clinic's sums by period from `first` through `last`: its day summary, and the basis totals
    /// of its lines under tiered terms (``PeriodSums``).
    func periodSums(
        _ connection: PostgresConnection,
        clinic: Clinic,
        from first: Day,
        through last: Day,
        settings: BookSettings
    ) async throws -> PeriodSums {
        var sums = PeriodSums(
            clinic: clinic,
            rounding: settings.rounding,
            tiered: try await tieredTerms(connection, clinic: clinic.id),
            deductions: try await deductions(connection, clinic: clinic.id)
        )
        try await addSums(connection, to: &sums, from: first, through: last)
        return sums
    }

    /// Feeds `sums` the clinic's figures from `first` through `last`.
    func addSums(
        _ connection: PostgresConnection,
        to sums: inout PeriodSums,
        from first: Day,
        through last: Day
    ) async throws {
        let clinic = sums.clinic
        // From the clinic's first day with a sale: summed per pay period by PostgreSQL (the periods
        // joined as a VALUES list), a few hundred rows for years of sales.
        let start = try await connection.query(
            try SQL(
                "SELECT min(date)::text FROM clinicDayTotal WHERE bookId = ? AND clinicId = ? AND date >= ?::date",
                book,
                clinic.id.rawValue,
                first.description
            ).query,
            logger: logger
        )
        .decode(String?.self).all().first.flatMap { $0 }.flatMap(Day.reading(stored:))
        guard let start, start <= last else { return }
        let periods = sums.periods(from: start, through: last) ?? clinic.calendar.periods(from: start, through: last)
        func values() throws -> SQL {
            var sql = SQL("WITH p(first, last) AS (VALUES ")
            for (index, period) in periods.enumerated() {
                try sql.add(
                    index == 0 ? "(?::date, ?::date)" : ", (?::date, ?::date)",
                    period.start.description,
                    period.end.description
                )
            }
            try sql.add(") ")
            return sql
        }
        var query = try values()
        try query.add(
            """
            SELECT p.first::text, sum(saleCount)::bigint, sum(quantity)::bigint, sum(revenueMinor)::bigint, sum(costMinor)::bigint,
                   sum(profitMinor)::bigint, sum(commissionMinor)::bigint, sum(commissionExact)::bigint
            FROM p JOIN clinicDayTotal d ON d.bookId = ? AND d.clinicId = ? AND d.date BETWEEN p.first AND p.last GROUP BY p.first
            """,
            book,
            clinic.id.rawValue
        )
        for (date, count, quantity, revenue, cost, profit, commission, exact) in try await connection.query(
            query.query,
            logger: logger
        )
        .decode((String, Int64, Int64, Int64, Int64, Int64, Int64, Int64).self).all() {
            try sums.add(
                day: try Day.stored(date, row: "A period of clinic \(clinic.id)"),
                saleCount: Int(count),
                quantity: quantity,
                revenue: Money(minorUnits: revenue),
                cost: Money(minorUnits: cost),
                profit: Money(minorUnits: profit),
                commission: Money(minorUnits: commission),
                exactCommission: ExactCommission(tenThousandths: exact)
            )
        }
        if !sums.tiered.isEmpty {
            var totals = try values()
            try totals.add(
                """
                SELECT p.first::text, s.termsId, sum(CASE s.basis WHEN 'revenue' THEN s.revenueMinor ELSE s.profitMinor END)::bigint
                FROM p JOIN sale s ON s.bookId = ? AND s.clinicId = ? AND s.date BETWEEN p.first AND p.last
                WHERE NOT s.isVoided AND s.termsId IN (
                """,
                book,
                clinic.id.rawValue
            )
            for (index, terms) in sums.tiered.enumerated() {
                try totals.add(index == 0 ? "?" : ", ?", terms.id.rawValue)
            }
            try totals.add(") GROUP BY p.first, s.termsId")
            for (date, terms, total) in try await connection.query(totals.query, logger: logger).decode(
                (String, Int64, Int64).self
            ).all() {
                try sums.add(
                    day: try Day.stored(date, row: "A period of clinic \(clinic.id)"),
                    terms: Terms.ID(terms),
                    basisTotal: Money(minorUnits: total)
                )
            }
        }
    }
}
