import CommissionCore
import CommissionStore
import PostgresNIO

extension PostgresStore {
    // MARK: Price lists

    public func setPrice(_ draft: PriceDraft) async throws -> PriceListEntry {
        try await write([.prices]) { connection in try await setPrice(connection, draft) }
    }

    /// Sets a clinic's price (replacing one from the same day), with its audit entry.
    func setPrice(_ connection: PostgresConnection, _ draft: PriceDraft) async throws -> PriceListEntry {
        _ = try await self.clinic(connection, draft.clinicID)
        _ = try await self.product(connection, draft.productID)
        let entry = try Ledger.priceEntry(draft.entry(id: PriceListEntry.ID(0)), rules: try await rules(connection))
        let existing = try await priceList(
            connection,
            try SQL(
                """
                SELECT \(Columns.price) FROM priceListEntry WHERE bookId = ? AND clinicId = ? AND productId = ? AND effectiveFrom = ?::date
                """,
                book,
                draft.clinicID.rawValue,
                draft.productID.rawValue,
                draft.effectiveFrom.description
            ).query
        ).first
        if let existing {
            var replaced = entry
            replaced.id = existing.id
            try await connection.query(
                """
                UPDATE priceListEntry SET unitPriceMinor = \(entry.unitPrice.minorUnits), unitCostMinor = \(entry.unitCost?.minorUnits)
                WHERE bookId = \(book) AND id = \(existing.id.rawValue)
                """,
                logger: logger
            )
            try await record(
                connection,
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
        let id = try await int(
            connection,
            """
            INSERT INTO priceListEntry (bookId, clinicId, productId, unitPriceMinor, unitCostMinor, effectiveFrom)
            VALUES (\(book), \(entry.clinicID.rawValue), \(entry.productID.rawValue), \(entry.unitPrice.minorUnits), \(entry.unitCost?.minorUnits),
                    \(entry.effectiveFrom.description)::date)
            RETURNING id
            """
        )
        let created = draft.entry(id: PriceListEntry.ID(id))
        try await record(connection, Audit.Change(.price, id, "create", before: nil, after: Audit.json(created)))
        return created
    }

    public func prices(_ query: PriceQuery) async throws -> [PriceListEntry] {
        try await read { connection in
            var sql = try SQL("SELECT \(Columns.price) FROM priceListEntry WHERE bookId = ?", book)
            if let clinic = query.clinicID { try sql.add(" AND clinicId = ?", clinic.rawValue) }
            if let product = query.productID { try sql.add(" AND productId = ?", product.rawValue) }
            try sql.add(" ORDER BY clinicId, productId, effectiveFrom, id")
            return try await priceList(connection, sql.query)
        }
    }

    public func removePrice(_ id: PriceListEntry.ID) async throws {
        try await write([.prices]) { connection in
            guard
                let entry = try await priceList(
                    connection,
                    try SQL(
                        "SELECT \(Columns.price) FROM priceListEntry WHERE bookId = ? AND id = ?",
                        book,
                        id.rawValue
                    ).query
                ).first
            else {
                throw StoreError.notFound(.prices, id: id.rawValue)
            }
            try await connection.query(
                "DELETE FROM priceListEntry WHERE bookId = \(book) AND id = \(id.rawValue)",
                logger: logger
            )
            try await record(
                connection,
                Audit.Change(.price, id.rawValue, "delete", before: Audit.json(entry), after: nil)
            )
        }
    }

    func priceList(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> [PriceListEntry] {
        try await connection.query(query, logger: logger).decode((Int64, Int64, Int64, Int64, Int64?, String).self)
            .all()
            .map { id, clinic, product, price, cost, from in
                PriceListEntry(
                    id: PriceListEntry.ID(id),
                    clinicID: Clinic.ID(clinic),
                    productID: Product.ID(product),
                    unitPrice: Money(minorUnits: price),
                    unitCost: cost.map { Money(minorUnits: $0) },
                    effectiveFrom: try Day.stored(from, row: "Price-list entry \(id)'s effective date")
                )
            }
    }

    /// A clinic's entries (of one product, or all): what a sale's default price comes from.
    func priceEntries(
        _ connection: PostgresConnection,
        clinic: Clinic.ID,
        product: Product.ID? = nil
    ) async throws -> [PriceListEntry] {
        var sql = try SQL(
            "SELECT \(Columns.price) FROM priceListEntry WHERE bookId = ? AND clinicId = ?",
            book,
            clinic.rawValue
        )
        if let product { try sql.add(" AND productId = ?", product.rawValue) }
        return try await priceList(connection, sql.query)
    }
}
