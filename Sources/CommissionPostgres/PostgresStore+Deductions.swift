import CommissionCore
import CommissionStore
import PostgresNIO

extension PostgresStore {
    // MARK: Deductions

    public func createDeduction(_ deduction: Deduction) async throws -> Deduction {
        try await write([.deductions]) { connection in
            let clinic = try await clinic(connection, deduction.clinicID)
            guard var created = try Ledger.deductionChange(from: nil, to: deduction, clinic: clinic, closed: try await closedPeriods(connection, clinic: clinic.id),
                                                            rules: try await rules(connection)) else { return deduction }
            let stored = created.amount.stored
            let id = try await int(connection, """
                INSERT INTO deduction (bookId, clinicId, name, kind, amountMinor, shareBasisPoints, effectiveFrom, lastDay)
                VALUES (\(book), \(clinic.id.rawValue), \(created.name), \(stored.kind), \(stored.amountMinor), \(stored.shareBasisPoints),
                        \(created.effectiveFrom.description)::date, \(created.lastDay?.description)::date)
                RETURNING id
                """)
            created.id = Deduction.ID(id)
            try await record(connection, Audit.Change(.deduction, id, "create", before: nil, after: Audit.json(created)))
            return created
        }
    }

    public func deductions(clinic: Clinic.ID?) async throws -> [Deduction] {
        try await read { connection in try await deductions(connection, clinic: clinic) }
    }

    func deductions(_ connection: PostgresConnection, clinic: Clinic.ID?, id: Deduction.ID? = nil) async throws -> [Deduction] {
        var sql = try SQL("SELECT \(Columns.deduction) FROM deduction WHERE bookId = ?", book)
        if let clinic { try sql.add(" AND clinicId = ?", clinic.rawValue) }
        if let id { try sql.add(" AND id = ?", id.rawValue) }
        try sql.add(" ORDER BY clinicId, effectiveFrom, id")
        return try await connection.query(sql.query, logger: logger).decode((Int64, Int64, String, String, Int64?, Int?, String, String?).self).all()
            .map { id, clinic, name, kind, amount, points, from, last in
                Deduction(id: Deduction.ID(id), clinicID: Clinic.ID(clinic), name: name,
                          amount: try DeductionAmount(kind: kind, amountMinor: amount, shareBasisPoints: points, deduction: id),
                          effectiveFrom: try Day.stored(from, row: "Deduction \(id)'s first day"),
                          lastDay: try last.map { try Day.stored($0, row: "Deduction \(id)'s last day") })
            }
    }

    func deduction(_ connection: PostgresConnection, _ id: Deduction.ID) async throws -> Deduction {
        guard let deduction = try await deductions(connection, clinic: nil, id: id).first else { throw StoreError.notFound(.deductions, id: id.rawValue) }
        return deduction
    }

    public func updateDeduction(_ deduction: Deduction) async throws -> Deduction {
        try await write([.deductions]) { connection in
            let old = try await self.deduction(connection, deduction.id)
            guard old.clinicID == deduction.clinicID else {
                throw StoreError.invalid(field: "clinic", reason: "a deduction cannot move to another clinic; add it there instead.")
            }
            let clinic = try await clinic(connection, old.clinicID)
            guard let changed = try Ledger.deductionChange(from: old, to: deduction, clinic: clinic, closed: try await closedPeriods(connection, clinic: clinic.id),
                                                           rules: try await rules(connection)) else { return old }
            let stored = changed.amount.stored
            try await connection.query("""
                UPDATE deduction SET name = \(changed.name), kind = \(stored.kind), amountMinor = \(stored.amountMinor),
                    shareBasisPoints = \(stored.shareBasisPoints), effectiveFrom = \(changed.effectiveFrom.description)::date,
                    lastDay = \(changed.lastDay?.description)::date
                WHERE bookId = \(book) AND id = \(changed.id.rawValue)
                """, logger: logger)
            try await record(connection, Audit.Change(.deduction, changed.id.rawValue, "update", before: Audit.json(old), after: Audit.json(changed)))
            return changed
        }
    }

    public func deleteDeduction(_ id: Deduction.ID) async throws {
        try await write([.deductions]) { connection in
            let old = try await self.deduction(connection, id)
            let clinic = try await clinic(connection, old.clinicID)
            _ = try Ledger.deductionChange(from: old, to: nil, clinic: clinic, closed: try await closedPeriods(connection, clinic: clinic.id),
                                           rules: try await rules(connection))
            try await connection.query("DELETE FROM deduction WHERE bookId = \(book) AND id = \(id.rawValue)", logger: logger)
            try await record(connection, Audit.Change(.deduction, id.rawValue, "delete", before: Audit.json(old), after: nil))
        }
    }

    /// Every terms of a clinic with tiers, archived ones too.
    func tieredTerms(_ connection: PostgresConnection, clinic: Clinic.ID) async throws -> [Terms] {
        try await termsList(connection, try SQL("SELECT \(Columns.terms) FROM terms WHERE bookId = ? AND clinicId = ? AND tiers IS NOT NULL",
                                                book, clinic.rawValue).query)
    }

    /// A clinic's sums by period from `first` through `last`: its day summary, and the basis totals
    /// of its lines under tiered terms (``PeriodSums``).
    func periodSums(_ connection: PostgresConnection, clinic: Clinic, from first: Day, through last: Day, settings: BookSettings) async throws -> PeriodSums {
        var sums = PeriodSums(clinic: clinic, rounding: settings.rounding, tiered: try await tieredTerms(connection, clinic: clinic.id),
                              deductions: try await deductions(connection, clinic: clinic.id))
        for (date, count, quantity, revenue, cost, profit, commission, exact) in try await connection.query(try SQL("""
            SELECT date::text, saleCount::bigint, quantity, revenueMinor, costMinor, profitMinor, commissionMinor, commissionExact
            FROM clinicDayTotal WHERE bookId = ? AND clinicId = ? AND date BETWEEN ?::date AND ?::date ORDER BY date
            """, book, clinic.id.rawValue, first.description, last.description).query, logger: logger)
            .decode((String, Int64, Int64, Int64, Int64, Int64, Int64, Int64).self).all() {
            try sums.add(day: try Day.stored(date, row: "A day summary of clinic \(clinic.id)"), saleCount: Int(count), quantity: quantity,
                         revenue: Money(minorUnits: revenue), cost: Money(minorUnits: cost), profit: Money(minorUnits: profit),
                         commission: Money(minorUnits: commission), exactCommission: ExactCommission(tenThousandths: exact))
        }
        if !sums.tiered.isEmpty {
            var query = try SQL("""
                SELECT date::text, termsId, sum(CASE basis WHEN 'revenue' THEN revenueMinor ELSE profitMinor END)::bigint FROM sale
                WHERE bookId = ? AND clinicId = ? AND date BETWEEN ?::date AND ?::date AND NOT isVoided AND termsId IN (
                """, book, clinic.id.rawValue, first.description, last.description)
            for (index, terms) in sums.tiered.enumerated() { try query.add(index == 0 ? "?" : ", ?", terms.id.rawValue) }
            try query.add(") GROUP BY date, termsId")
            for (date, terms, total) in try await connection.query(query.query, logger: logger).decode((String, Int64, Int64).self).all() {
                try sums.add(day: try Day.stored(date, row: "A sale's date at clinic \(clinic.id)"), terms: Terms.ID(terms), basisTotal: Money(minorUnits: total))
            }
        }
        return sums
    }
}
