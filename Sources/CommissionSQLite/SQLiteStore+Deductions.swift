import CommissionCore
import CommissionStore
import GRDB

extension SQLiteStore {
    // MARK: Deductions

    public func createDeduction(_ deduction: Deduction) async throws -> Deduction {
        try await write([.deductions]) { db in try Self.createDeduction(db, deduction) }
    }

    /// Adds a deduction, with its audit entry.
    static func createDeduction(_ db: Database, _ deduction: Deduction) throws -> Deduction {
        let clinic = try Self.clinic(db, deduction.clinicID)
        guard
            var created = try Ledger.deductionChange(
                from: nil,
                to: deduction,
                clinic: clinic,
                closed: try Self.closedPeriods(db, clinic: clinic.id),
                rules: try Self.rules(db)
            )
        else { return deduction }
        let stored = created.amount.stored
        try db.execute(
            sql: """
                INSERT INTO deduction (clinicId, name, kind, amountMinor, shareBasisPoints, effectiveFrom, lastDay) VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                clinic.id.rawValue, created.name, stored.kind, stored.amountMinor, stored.shareBasisPoints,
                created.effectiveFrom.description, created.lastDay?.description,
            ]
        )
        created.id = Deduction.ID(db.lastInsertedRowID)
        try Self.record(
            db,
            Audit.Change(.deduction, created.id.rawValue, "create", before: nil, after: Audit.json(created))
        )
        return created
    }

    public func deductions(clinic: Clinic.ID?) async throws -> [Deduction] {
        try await read { db in try Self.deductions(db, clinic: clinic) }
    }

    static func deductions(_ db: Database, clinic: Clinic.ID?) throws -> [Deduction] {
        var sql = "SELECT \(Rows.deductionColumns) FROM deduction"
        var arguments = StatementArguments()
        if let clinic {
            sql += " WHERE clinicId = ?"
            arguments += [clinic.rawValue]
        }
        return try Row.fetchAll(
            db.cachedStatement(sql: sql + " ORDER BY clinicId, effectiveFrom, id"),
            arguments: arguments
        ).map(Rows.deduction)
    }

    public func deduction(_ id: Deduction.ID) async throws -> Deduction {
        try await read { db in try Self.deduction(db, id) }
    }

    static func deduction(_ db: Database, _ id: Deduction.ID) throws -> Deduction {
        guard
            let row = try Row.fetchOne(
                db,
                sql: "SELECT \(Rows.deductionColumns) FROM deduction WHERE id = ?",
                arguments: [id.rawValue]
            )
        else {
            throw StoreError.notFound(.deductions, id: id.rawValue)
        }
        return try Rows.deduction(row)
    }

    public func updateDeduction(_ deduction: Deduction) async throws -> Deduction {
        try await write([.deductions]) { db in
            let old = try Self.deduction(db, deduction.id)
            guard old.clinicID == deduction.clinicID else {
                throw StoreError.invalid(
                    field: "clinic",
                    reason: "a deduction cannot move to another clinic; add it there instead."
                )
            }
            let clinic = try Self.clinic(db, old.clinicID)
            guard
                let changed = try Ledger.deductionChange(
                    from: old,
                    to: deduction,
                    clinic: clinic,
                    closed: try Self.closedPeriods(db, clinic: clinic.id),
                    rules: try Self.rules(db)
                )
            else { return old }
            let stored = changed.amount.stored
            try db.execute(
                sql: """
                    UPDATE deduction SET name = ?, kind = ?, amountMinor = ?, shareBasisPoints = ?, effectiveFrom = ?, lastDay = ? WHERE id = ?
                    """,
                arguments: [
                    changed.name, stored.kind, stored.amountMinor, stored.shareBasisPoints,
                    changed.effectiveFrom.description,
                    changed.lastDay?.description, changed.id.rawValue,
                ]
            )
            try Self.record(
                db,
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
        try await write([.deductions]) { db in
            let old = try Self.deduction(db, id)
            let clinic = try Self.clinic(db, old.clinicID)
            _ = try Ledger.deductionChange(
                from: old,
                to: nil,
                clinic: clinic,
                closed: try Self.closedPeriods(db, clinic: clinic.id),
                rules: try Self.rules(db)
            )
            try db.execute(sql: "DELETE FROM deduction WHERE id = ?", arguments: [id.rawValue])
            try Self.record(db, Audit.Change(.deduction, id.rawValue, "delete", before: Audit.json(old), after: nil))
        }
    }

    /// Every terms of a clinic with tiers, archived ones too (a sale keeps the terms it was computed under).
    static func tieredTerms(_ db: Database, clinic: Clinic.ID) throws -> [Terms] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT \(Rows.termsColumns) FROM terms WHERE clinicId = ? AND tiers IS NOT NULL"),
            arguments: [clinic.rawValue]
        ).map { try Rows.terms($0) }
    }

    /// The exact basis totals of a clinic's sales under `terms` (those with tiers), per day from
    /// `first` through `last`: what a period's accelerators are computed from.
    static func basisTotals(
        _ db: Database,
        clinic: Clinic.ID,
        terms: [Terms],
        from first: Day,
        through last: Day
    ) throws -> [(day: Day, terms: Terms.ID, total: Money)] {
        guard !terms.isEmpty else { return [] }
        let list = repeatElement("?", count: terms.count).joined(separator: ", ")
        var arguments: StatementArguments = [clinic.rawValue, first.description, last.description]
        for item in terms { arguments += [item.id.rawValue] }
        return try Row.fetchAll(
            db,
            sql: """
                SELECT date, termsId, sum(CASE basis WHEN 'revenue' THEN revenueMinor ELSE profitMinor END) FROM sale
                WHERE clinicId = ? AND date BETWEEN ? AND ? AND isVoided = 0 AND termsId IN (\(list))
                GROUP BY date, termsId
                """,
            arguments: arguments
        ).map {
            (
                try Day.stored($0[0], row: "A sale's date at clinic \(clinic)"), Terms.ID($0[1] as Int64),
                Money(minorUnits: $0[2])
            )
        }
    }
}
