import CommissionCore
import CommissionStore
import PostgresNIO

extension PostgresStore: ImportMappings {
    // MARK: Column mappings

    public func saveMapping(_ mapping: ImportMapping) async throws {
        try mapping.validate()
        var mapping = mapping
        mapping.name = mapping.name.trimmingWhitespace()
        try await write([]) { [mapping] connection in
            _ = try await connection.query(
                """
                INSERT INTO columnMapping (bookId, name, body) VALUES (\(book), \(mapping.name), \(mapping.stored))
                ON CONFLICT (bookId, lower(name)) DO UPDATE SET name = EXCLUDED.name, body = EXCLUDED.body
                """,
                logger: logger
            )
        }
    }

    public func mappings() async throws -> [ImportMapping] {
        try await read { connection in
            try await connection.query(
                "SELECT body FROM columnMapping WHERE bookId = \(book) ORDER BY \(unescaped: Columns.byName("name"))",
                logger: logger
            )
            .decode(String.self).all().map(ImportMapping.stored)
        }
    }

    public func deleteMapping(named name: String) async throws {
        try await write([]) { connection in
            let deleted = try await connection.query(
                """
                DELETE FROM columnMapping WHERE bookId = \(book) AND lower(name) = lower(\(name.trimmingWhitespace())) RETURNING 1
                """,
                logger: logger
            ).decode(Int.self).all()
            guard !deleted.isEmpty else { throw StoreError.unknownMapping(name) }
        }
    }
}

extension PostgresStore: ProductAliases {
    // MARK: The clinics' names for her products

    public func setAlias(_ alias: ProductAlias) async throws {
        let alias = try alias.checked()
        try await write([]) { connection in
            _ = try await clinic(connection, alias.clinicID)
            let found = try await connection.query(
                "SELECT 1 FROM product WHERE bookId = \(book) AND id = \(alias.productID.rawValue)",
                logger: logger
            )
            .decode(Int.self).all()
            guard !found.isEmpty else { throw StoreError.notFound(.products, id: alias.productID.rawValue) }
            _ = try await connection.query(
                """
                INSERT INTO productAlias (bookId, clinicId, name, productId) VALUES (\(book), \(alias.clinicID.rawValue), \(alias.name), \(alias.productID.rawValue))
                ON CONFLICT (bookId, clinicId, lower(name)) DO UPDATE SET name = EXCLUDED.name, productId = EXCLUDED.productId
                """,
                logger: logger
            )
        }
    }

    public func aliases(clinic: Clinic.ID) async throws -> [ProductAlias] {
        try await read { connection in
            try await connection.query(
                """
                SELECT name, productId FROM productAlias WHERE bookId = \(book) AND clinicId = \(clinic.rawValue) ORDER BY \(unescaped: Columns.byName("name"))
                """,
                logger: logger
            ).decode((String, Int64).self).all().map {
                ProductAlias(clinicID: clinic, name: $0.0, productID: Product.ID($0.1))
            }
        }
    }

    public func removeAlias(clinic: Clinic.ID, name: String) async throws {
        try await write([]) { connection in
            let deleted = try await connection.query(
                """
                DELETE FROM productAlias WHERE bookId = \(book) AND clinicId = \(clinic.rawValue) AND lower(name) = lower(\(name.trimmingWhitespace()))
                RETURNING 1
                """,
                logger: logger
            ).decode(Int.self).all()
            guard !deleted.isEmpty else {
                throw StoreError.invalid(
                    field: "product name",
                    reason: "the clinic has no product named \"\(name)\" to forget."
                )
            }
        }
    }
}
