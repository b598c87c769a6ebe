import CommissionStore
import GRDB

extension SQLiteStore: ImportMappings {
    // MARK: Column mappings

    public func saveMapping(_ mapping: ImportMapping) async throws {
        try mapping.validate()
        var mapping = mapping
        mapping.name = mapping.name.trimmingCharacters(in: .whitespaces)
        let saved = mapping
        // A preference, not a figure: other processes' caches need not hear of it.
        try await write([], bump: false) { db in
            try db.execute(sql: "DELETE FROM columnMapping WHERE name = ?", arguments: [saved.name])
            try db.execute(sql: "INSERT INTO columnMapping (name, body) VALUES (?, ?)", arguments: [saved.name, saved.stored])
        }
    }

    public func mappings() async throws -> [ImportMapping] {
        try await read { db in
            try String.fetchAll(db, sql: "SELECT body FROM columnMapping ORDER BY name COLLATE NOCASE").map(ImportMapping.stored)
        }
    }

    public func deleteMapping(named name: String) async throws {
        try await write([], bump: false) { db in
            try db.execute(sql: "DELETE FROM columnMapping WHERE name = ?", arguments: [name.trimmingCharacters(in: .whitespaces)])
            guard db.changesCount > 0 else { throw StoreError.unknownMapping(name) }
        }
    }
}
