import CommissionCore
import CommissionStore
import GRDB

extension SQLiteStore {
    // MARK: Price lists

    public func setPrice(_ draft: PriceDraft) async throws -> PriceListEntry {
        try await write([.prices]) { db in try Self.setPrice(db, draft) }
    }

    /// Sets a clinic's price (replacing one from the same day), with its audit entry.
    static func setPrice(_ db: Database, _ draft: PriceDraft) throws -> PriceListEntry {
        _ = try Self.clinic(db, draft.clinicID)
        _ = try Self.product(db, draft.productID)
        let entry = try Ledger.priceEntry(draft.entry(id: PriceListEntry.ID(0)), rules: try Self.rules(db))
        let existing = try Row.fetchOne(
            db,
            sql:
                "SELECT \(Rows.priceColumns) FROM priceListEntry WHERE clinicId = ? AND productId = ? AND effectiveFrom = ?",
            arguments: [draft.clinicID.rawValue, draft.productID.rawValue, draft.effectiveFrom.description]
        )
        .map { try Rows.price($0) }
        if let existing {
            var replaced = entry
            replaced.id = existing.id
            try db.execute(
                sql: "UPDATE priceListEntry SET unitPriceMinor = ?, unitCostMinor = ? WHERE id = ?",
                arguments: [entry.unitPrice.minorUnits, entry.unitCost?.minorUnits, existing.id.rawValue]
            )
            try Self.record(
                db,
                Audit.Change(
                    .price,
                    existing.id.rawValue,
                    "update",
                    before: Audit.json(existing),
                    after: Audit.json(replaced)
                )
            )
            return replaced
        }
        try db.execute(
            sql:
                "INSERT INTO priceListEntry (clinicId, productId, unitPriceMinor, unitCostMinor, effectiveFrom) VALUES (?, ?, ?, ?, ?)",
            arguments: [
                entry.clinicID.rawValue, entry.productID.rawValue, entry.unitPrice.minorUnits,
                entry.unitCost?.minorUnits,
                entry.effectiveFrom.description,
            ]
        )
        let created = draft.entry(id: PriceListEntry.ID(db.lastInsertedRowID))
        try Self.record(
            db,
            Audit.Change(.price, created.id.rawValue, "create", before: nil, after: Audit.json(created))
        )
        return created
    }

    public func prices(_ query: PriceQuery) async throws -> [PriceListEntry] {
        try await read { db in
            var sql = "SELECT \(Rows.priceColumns) FROM priceListEntry WHERE 1"
            var arguments = StatementArguments()
            if let clinic = query.clinicID {
                sql += " AND clinicId = ?"
                arguments += [clinic.rawValue]
            }
            if let product = query.productID {
                sql += " AND productId = ?"
                arguments += [product.rawValue]
            }
            sql += " ORDER BY clinicId, productId, effectiveFrom, id"
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { try Rows.price($0) }
        }
    }

    public func removePrice(_ id: PriceListEntry.ID) async throws {
        try await write([.prices]) { db in
            guard
                let entry = try Row.fetchOne(
                    db,
                    sql: "SELECT \(Rows.priceColumns) FROM priceListEntry WHERE id = ?",
                    arguments: [id.rawValue]
                )
                .map({ try Rows.price($0) })
            else {
                throw StoreError.notFound(.prices, id: id.rawValue)
            }
            try db.execute(sql: "DELETE FROM priceListEntry WHERE id = ?", arguments: [id.rawValue])
            try Self.record(db, Audit.Change(.price, id.rawValue, "delete", before: Audit.json(entry), after: nil))
        }
    }

    /// A clinic's entries for a product: what a sale's default price comes from.
    static func priceEntries(_ db: Database, clinic: Clinic.ID, product: Product.ID) throws -> [PriceListEntry] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT \(Rows.priceColumns) FROM priceListEntry WHERE clinicId = ? AND productId = ?"
            ),
            arguments: [clinic.rawValue, product.rawValue]
        ).map { try Rows.price($0) }
    }
}
