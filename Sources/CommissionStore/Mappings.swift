import CommissionCore
import Foundation

/// Something she told Commission once about files that come from elsewhere, kept in the book under
/// a name so that she is not asked again: which of a file's columns holds which field.
///
/// A store keeps one mapping per name (compared without regard to case); saving a mapping under a
/// name that exists replaces it. The fields are named as the import names them (`date`, `unit
/// price`…); the store keeps them as they are given, the reader of the file checks them.
public struct ImportMapping: Sendable, Hashable, Codable {
    /// How she calls it (`Clinic A's export`), 1–100 characters.
    public var name: String
    /// What such a file holds (an import kind: `sales`, `terms`…), or nil to tell from its headers.
    public var kind: String?
    /// The file's headers as it spells them, in order: the next file with the same headers is
    /// offered this mapping.
    public var headers: [String]
    /// Each mapped header (as spelled) and the field it holds. Headers left out are read as usual
    /// (a header Commission knows) or ignored.
    public var fields: [String: String]

    public init(name: String, kind: String? = nil, headers: [String], fields: [String: String]) {
        self.name = name
        self.kind = kind
        self.headers = headers
        self.fields = fields
    }

    /// A header as files are compared by: its letters, digits and `%`, case ignored (as the import
    /// recognises headers).
    public static func key(_ header: String) -> String {
        String(
            header.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "%" }.map(
                Character.init
            )
        )
    }

    /// Whether a file with these headers is one this mapping was made for: the same headers, in
    /// any order, spelled as loosely as ``key(_:)`` allows (blank headers aside).
    public func fits(_ headers: [String]) -> Bool {
        Set(self.headers.map(Self.key).filter { !$0.isEmpty }) == Set(headers.map(Self.key).filter { !$0.isEmpty })
    }

    /// The field of a header of the file, when this mapping names it.
    public func field(for header: String) -> String? {
        let key = Self.key(header)
        return fields.first { Self.key($0.key) == key }?.value
    }

    /// Checks what a store may keep.
    /// - Throws: ``StoreError/invalid(field:reason:)``.
    public func validate() throws {
        let name = name.trimmingWhitespace()
        guard !name.isEmpty, name.count <= 100 else {
            throw StoreError.invalid(
                field: "mapping name",
                reason: "a mapping's name is 1 to 100 characters, such as “Clinic A's export”."
            )
        }
        guard !fields.isEmpty else {
            throw StoreError.invalid(field: "mapping", reason: "it maps no column to a field.")
        }
        guard headers.count <= 1_000, fields.count <= 1_000,
            (headers + fields.keys + fields.values).allSatisfy({ $0.count <= 200 })
        else {
            throw StoreError.invalid(
                field: "mapping",
                reason: "it has more columns, or longer headers, than a file of sales could."
            )
        }
    }

    /// As a store keeps it: JSON with sorted keys.
    public var stored: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // try?: a mapping is strings only: JSONEncoder cannot fail on it, so "{}" is never stored
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// A mapping as a store kept it.
    /// - Throws: ``StoreError/storage(_:)`` for a malformed record.
    public static func stored(_ text: String) throws -> ImportMapping {
        // try?: a record it cannot decode is thrown just after, as malformed
        guard let mapping = try? JSONDecoder().decode(ImportMapping.self, from: Data(text.utf8)) else {
            throw StoreError.storage("a saved column mapping is malformed")
        }
        return mapping
    }
}

extension Array where Element == ImportMapping {
    /// The mapping of this name (any case), among these. - Throws: ``StoreError/unknownMapping(_:)``.
    public func named(_ name: String) throws -> ImportMapping {
        let key = name.trimmingWhitespace().lowercased()
        guard let mapping = first(where: { $0.name.lowercased() == key }) else { throw StoreError.unknownMapping(name) }
        return mapping
    }
}

/// A store that keeps her column mappings (``ImportMapping``). Both of Commission's stores are.
public protocol ImportMappings: Sendable {
    /// Keeps `mapping` under its name, replacing one of the same name (any case).
    func saveMapping(_ mapping: ImportMapping) async throws
    /// Every saved mapping, by name.
    func mappings() async throws -> [ImportMapping]
    /// Forgets the mapping of this name (any case). - Throws: ``StoreError/unknownMapping(_:)``.
    func deleteMapping(named name: String) async throws
}

extension ImportMappings {
    /// The mapping of this name (any case). - Throws: ``StoreError/unknownMapping(_:)``.
    public func mapping(named name: String) async throws -> ImportMapping {
        try await mappings().named(name)
    }

    /// The saved mapping made for a file with these headers, if any (the newest name first when
    /// two fit: by name, the first).
    public func mapping(fitting headers: [String]) async throws -> ImportMapping? {
        try await mappings().first { $0.fits(headers) }
    }
}

/// What a clinic calls one of her products on its own statements (`SERUM 30 ML (RETAIL)` for
/// Serum 30ml): told once when their statement is compared with her book, and remembered.
public struct ProductAlias: Sendable, Hashable {
    public var clinicID: Clinic.ID
    /// The clinic's name for it, as its statement writes it (compared without regard to case).
    public var name: String
    public var productID: Product.ID

    public init(clinicID: Clinic.ID, name: String, productID: Product.ID) {
        self.clinicID = clinicID
        self.name = name
        self.productID = productID
    }
}

/// A store that remembers the clinics' names for her products (``ProductAlias``). Both of
/// Commission's stores do.
public protocol ProductAliases: Sendable {
    /// Remembers an alias, replacing the clinic's alias of the same name (any case).
    /// - Throws: ``StoreError/notFound(_:id:)`` for a clinic or product that is not in the book;
    ///   ``StoreError/invalid(field:reason:)`` for an empty or overlong name.
    func setAlias(_ alias: ProductAlias) async throws
    /// A clinic's aliases, by name.
    func aliases(clinic: Clinic.ID) async throws -> [ProductAlias]
    /// Forgets one. - Throws: ``StoreError/invalid(field:reason:)`` when the clinic has no such alias.
    func removeAlias(clinic: Clinic.ID, name: String) async throws
}

extension ProductAlias {
    /// The alias as a store may keep it: its name trimmed, 1–200 characters.
    public func checked() throws -> ProductAlias {
        var alias = self
        alias.name = name.trimmingWhitespaceAndNewlines()
        guard !alias.name.isEmpty, alias.name.count <= 200 else {
            throw StoreError.invalid(
                field: "product name",
                reason: "the clinic's name for a product is 1 to 200 characters."
            )
        }
        return alias
    }
}
