import CommissionStore
import PostgresNIO

extension PostgresStore: ImportMappings {
    // MARK: Column mappings

    public func saveMapping(_ mapping: ImportMapping) async throws {
        try mapping.validate()
        var mapping = mapping
        mapping.name = mapping.name.trimmingCharacters(in: .whitespaces)
        try await write([]) { connection in
            try await connection.query("""
                INSERT INTO columnMapping (bookId, name, body) VALUES (\(book), \(mapping.name), \(mapping.stored))
                ON CONFLICT (bookId, lower(name)) DO UPDATE SET name = EXCLUDED.name, body = EXCLUDED.body
                """, logger: logger)
        }
    }

    public func mappings() async throws -> [ImportMapping] {
        try await read { connection in
            try await connection.query("SELECT body FROM columnMapping WHERE bookId = \(book) ORDER BY lower(name)", logger: logger)
                .decode(String.self).all().map(ImportMapping.stored)
        }
    }

    public func deleteMapping(named name: String) async throws {
        try await write([]) { connection in
            let deleted = try await connection.query("""
                DELETE FROM columnMapping WHERE bookId = \(book) AND lower(name) = lower(\(name.trimmingCharacters(in: .whitespaces))) RETURNING 1
                """, logger: logger).decode(Int.self).all()
            guard !deleted.isEmpty else { throw StoreError.unknownMapping(name) }
        }
    }
}
