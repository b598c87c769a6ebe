import CommissionCore
import CommissionStore
import GRDB

extension SQLiteStore: ImportMappings {
    // MARK: Column mappings

    public func saveMapping(_ mapping: ImportMapping) async throws {
        try mapping.validate()
        var mapping = mapping
        mapping.name = mapping.name.trimmingWhitespace()
        let saved = mapping
        // A preference, not a figure: other processes' caches need not hear of it.
        try await write([], bump: false) { db in
            try db.execute(sql: "DELETE FROM columnMapping WHERE name = ?", arguments: [saved.name])
            try db.execute(
                sql: "INSERT INTO columnMapping (name, body) VALUES (?, ?)",
                arguments: [saved.name, saved.stored]
            )
        }
    }

    public func mappings() async throws -> [ImportMapping] {
        try await read { db in
            try String.fetchAll(db, sql: "SELECT body FROM columnMapping ORDER BY name COLLATE NOCASE").map(
                ImportMapping.stored
            )
        }
    }

    public func deleteMapping(named name: String) async throws {
        try await write([], bump: false) { db in
            try db.execute(sql: "DELETE FROM columnMapping WHERE name = ?", arguments: [name.trimmingWhitespace()])
            guard db.changesCount > 0 else { throw StoreError.unknownMapping(name) }
        }
    }
}

extension SQLiteStore: ProductAliases {
    // MARK: The clinics' names for her products

    public func setAlias(_ alias: ProductAlias) async throws {
        let alias = try alias.checked()
        try await write([], bump: false) { db in
            _ = try Self.clinic(db, alias.clinicID)
            guard
                try Bool.fetchOne(db, sql: "SELECT 1 FROM product WHERE id = ?", arguments: [alias.productID.rawValue])
                    == true
            else {
                throw StoreError.notFound(.products, id: alias.productID.rawValue)
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO productAlias (clinicId, name, productId) VALUES (?, ?, ?)",
                arguments: [alias.clinicID.rawValue, alias.name, alias.productID.rawValue]
            )
        }
    }

    public func aliases(clinic: Clinic.ID) async throws -> [ProductAlias] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT name, productId FROM productAlias WHERE clinicId = ? ORDER BY name",
                arguments: [clinic.rawValue]
            ).map {
                ProductAlias(clinicID: clinic, name: $0["name"], productID: Product.ID($0["productId"] as Int64))
            }
        }
    }

    public func removeAlias(clinic: Clinic.ID, name: String) async throws {
        try await write([], bump: false) { db in
            try db.execute(
                sql: "DELETE FROM productAlias WHERE clinicId = ? AND name = ?",
                arguments: [clinic.rawValue, name.trimmingWhitespace()]
            )
            guard db.changesCount > 0 else {
                throw StoreError.invalid(
                    field: "product name",
                    reason: "the clinic has no product named \"\(name)\" to forget."
                )
            }
        }
    }
}
