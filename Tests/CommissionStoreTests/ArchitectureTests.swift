import Foundation
import Testing

/// The structure `docs/architecture.md` describes, checked against the sources themselves.
@Suite struct ArchitectureTests {
    /// The repository's root, found from this file's own path.
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every Swift source of a target, with its text.
    static func sources(of target: String) throws -> [(name: String, text: String)] {
        let folder = root.appending(path: "Sources/\(target)")
        let names = try #require(FileManager.default.enumerator(atPath: folder.path(percentEncoded: false)))
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
        #expect(!names.isEmpty, "no sources found for \(target) under \(folder.path(percentEncoded: false))")
        return try names.map { ($0, try String(contentsOf: folder.appending(path: $0), encoding: .utf8)) }
    }

    /// The ledger (`Sources/CommissionStore/Ledger.swift`) holds every rule a sale passes through; a
    /// store reads snapshots and writes rows. A store that picked terms, built a sale line or filled
    /// in a price itself would hold a second copy of a rule.
    @Test(arguments: ["CommissionSQLite", "CommissionPostgres"])
    func storesHoldNoCommissionRule(target: String) throws {
        let forbidden = [
            "inForce": "picks the terms in force",
            "SaleLine": "builds a sale line",
            "?? product.unitPrice": "fills in the product's price",
            "?? product.unitCost": "fills in the product's cost",
            "unitPrice ??": "fills in a price",
            "unitCost ??": "fills in a cost",
        ]
        for (name, text) in try Self.sources(of: target) {
            for (word, rule) in forbidden where text.contains(word) {
                Issue.record("\(target)/\(name) names `\(word)`: it \(rule), which is the ledger's job (Ledger.swift)")
            }
        }
    }
}
