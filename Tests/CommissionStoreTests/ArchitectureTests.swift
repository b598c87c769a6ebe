import Foundation
import Testing

/// The structure `docs/architecture.md` describes, checked against the sources themselves.
@Suite struct ArchitectureTests {
    /// The repository's root, found from this file's own path.
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every Swift source of a target, with its text.
    static func sources(of target: String, in parent: String = "Sources") throws -> [(name: String, text: String)] {
        let folder = root.appending(path: "\(parent)/\(target)")
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

    // MARK: What each target may import

    /// A target as `Package.swift` declares it: its local dependencies and its products' modules.
    struct Target {
        var name: String
        var targets: Set<String> = []
        var products: Set<String> = []
    }

    /// The targets of `Package.swift`, read from its text (`.target(name: "X", dependencies: [...])`).
    static func packageTargets() throws -> [String: Target] {
        let text = try String(contentsOf: root.appending(path: "Package.swift"), encoding: .utf8)
        var targets: [String: Target] = [:]
        let starts = text.ranges(of: /\.(?:target|executableTarget|testTarget)\(\s*name: "([A-Za-z-]+)"/)
        for (index, range) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1].lowerBound : text.endIndex
            let block = text[range.lowerBound..<end]
            guard let name = block.firstMatch(of: /name: "([A-Za-z-]+)"/)?.1 else { continue }
            var target = Target(name: String(name))
            if let dependencies = block.firstMatch(of: /dependencies: \[((?:[^\[\]]|\[[^\]]*\])*)\]/)?.1 {
                for product in dependencies.matches(of: /\.product\(\s*name: "([A-Za-z_]+)"/) {
                    target.products.insert(String(product.1))
                }
                let withoutProducts = dependencies.replacing(/\.product\([^)]*\)/, with: "")
                for local in withoutProducts.matches(of: /"([A-Za-z-]+)"/) { target.targets.insert(String(local.1)) }
            }
            targets[target.name] = target
        }
        return targets
    }

    /// The modules a target's sources import.
    static func imports(of target: String, in folder: String = "Sources") throws -> Set<String> {
        var modules = Set<String>()
        for (_, text) in try sources(of: target, in: folder) {
            for match in text.matches(
                of:
                    /(?m)^(?:@testable |@_exported |@preconcurrency |public |internal |package )?import (?:struct |class |enum |protocol |func |typealias )?([A-Za-z_]+)/
            ) {
                modules.insert(String(match.1))
            }
        }
        return modules
    }

    /// The database drivers: only the stores may import them.
    static let drivers: Set<String> = ["GRDB", "GRDBSQLite", "PostgresNIO"]
    /// Modules of the platform, importable anywhere.
    static let system: Set<String> = ["Foundation", "FoundationXML", "Observation", "Synchronization", "Dispatch"]
    /// Modules a product brings along (a target declaring Hummingbird may use the NIO types it speaks in).
    static let broughtAlong: [String: Set<String>] = [
        "Hummingbird": ["NIOCore", "HTTPTypes", "Logging"], "PostgresNIO": ["NIOCore", "Logging"],
        "AsyncHTTPClient": ["NIOCore"],
        "Configuration": ["SystemPackage"],  // a file provider takes a FilePath
        "OpenAPIRuntime": ["HTTPTypes"],  // a client middleware speaks HTTPRequest and HTTPResponse
    ]

    /// What `docs/architecture.md` says each target may import, checked: the domain nothing, the
    /// store protocol only the domain, no store another store, and nothing but the stores a
    /// database driver — in `Package.swift` and in the sources' `import` lines alike.
    @Test func everyTargetImportsOnlyWhatItMay() throws {
        let targets = try Self.packageTargets()
        let stores: Set<String> = ["CommissionSQLite", "CommissionPostgres"]
        let rules: [String: (allowed: Set<String>?, forbidden: Set<String>)] = [
            "CommissionCore": ([], []),
            "CommissionStore": (["CommissionCore"], []),
            // The API's shapes: generated types over the OpenAPI runtime, nothing of the domain's.
            "CommissionAPI": (["OpenAPIRuntime"], []),
            "CommissionSQLite": (nil, ["CommissionPostgres", "PostgresNIO"]),
            "CommissionPostgres": (nil, ["CommissionSQLite", "GRDB", "GRDBSQLite"]),
            // The remote store: the store protocol and the generated client's runtime, no store, no driver, no server.
            "CommissionClient": (
                nil,
                stores.union(Self.drivers).union([
                    "CommissionKit", "CommissionWeb", "Hummingbird", "AsyncHTTPClient", "NIOCore",
                ])
            ),
            "CommissionKit": (nil, stores.union(Self.drivers)),
            "CommissionWeb": (nil, stores.union(Self.drivers)),
            "commission": (nil, Self.drivers),
        ]
        for (name, rule) in rules {
            let target = try #require(targets[name], "Package.swift declares no target \(name)")
            let declared = target.targets.union(target.products)
            for module in rule.forbidden where declared.contains(module) {
                Issue.record("Package.swift lets \(name) depend on \(module), which it may not (docs/architecture.md)")
            }
            if let allowed = rule.allowed, !declared.isSubset(of: allowed) {
                Issue.record(
                    "Package.swift lets \(name) depend on \(declared.subtracting(allowed).sorted()), beyond \(allowed.sorted())"
                )
            }
            // Reachable: the target's declared dependencies and, through local targets, theirs.
            var reachable = Set<String>(), queue = [name]
            while let next = queue.popLast() {
                guard let t = targets[next] else { continue }
                for product in t.products where reachable.insert(product).inserted {
                    reachable.formUnion(Self.broughtAlong[product] ?? [])
                }
                for local in t.targets where reachable.insert(local).inserted { queue.append(local) }
            }
            for module in try Self.imports(of: name).subtracting(Self.system) {
                if rule.forbidden.contains(module) {
                    Issue.record("\(name) imports \(module), which it may not (docs/architecture.md)")
                } else if let allowed = rule.allowed, !allowed.contains(module) {
                    Issue.record("\(name) imports \(module): it may import only \(allowed.sorted())")
                } else if !reachable.contains(module) {
                    Issue.record("\(name) imports \(module), which Package.swift does not give it")
                }
            }
        }
    }

    /// Dependencies as they are used: every module a target imports — source or test target — is
    /// a product or a local target that target itself declares in `Package.swift` (besides the
    /// platform's), never one that only compiles because another dependency brings it along.
    @Test func everyImportIsAProductTheTargetDeclares() throws {
        let targets = try Self.packageTargets()
        var checked = 0
        for (name, target) in targets.sorted(by: { $0.key < $1.key }) {
            let folder = name.hasSuffix("Tests") ? "Tests" : "Sources"
            let declared = target.targets.union(target.products)
            for module in try Self.imports(of: name, in: folder).subtracting(Self.system).subtracting([
                "Testing", "XCTest",
            ])
            where !declared.contains(module) {
                Issue.record("\(name) imports \(module), which it does not declare in Package.swift")
            }
            checked += 1
        }
        #expect(checked >= 15, "the targets were read (\(checked))")
    }

    /// An underscored module of another package is no API: one file of ours may import one, and
    /// says why and against which version (`PoolErrors.swift`, for postgres-nio's pool error).
    @Test func anUnderscoredModuleStaysBehindOneFile() throws {
        var importing: [String] = []
        for file in try DocumentationTests.files(under: ["Sources"])
        where file.hasSuffix(".swift") && !file.contains("/Generated/") {
            let text = try String(contentsOf: Self.root.appending(path: file), encoding: .utf8)
            if text.contains(/(?m)^(?:@_exported |@preconcurrency )?import _[A-Za-z]/) { importing.append(file) }
        }
        #expect(importing == ["Sources/CommissionPostgres/PoolErrors.swift"], "\(importing)")
        let reason = try String(
            contentsOf: Self.root.appending(path: "Sources/CommissionPostgres/PoolErrors.swift"),
            encoding: .utf8
        )
        #expect(reason.contains("checked against postgres-nio 1.33.2"))
    }

    /// Every `try?` in `Sources/` says why dropping its error loses nothing — a comment on its
    /// line, or a line just above it that starts `// try?:` — or handles what it drops instead:
    /// an error swallowed on a write path is a lost sale that no log shows. (The generated code is
    /// the generator's.)
    @Test func everyTryQuestionMarkSaysWhy() throws {
        var found = 0
        for file in try DocumentationTests.files(under: ["Sources"])
        where file.hasSuffix(".swift") && !file.contains("/Generated/") {
            let lines = try String(contentsOf: Self.root.appending(path: file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where line.contains(/\btry\?/) {
                found += 1
                let code = line.split(separator: "//", maxSplits: 1)[0]
                // in a comment
                guard code.contains(/\btry\?/) else { continue }
                let above = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                if !line.contains("//") && !above.hasPrefix("// try?:") {
                    Issue.record(
                        "\(file):\(index + 1) drops an error without saying why: \(line.trimmingCharacters(in: .whitespaces))"
                    )
                }
            }
        }
        #expect(found > 100, "the sources' try? were found (\(found))")
    }

    /// The library an app builds on — the domain, the store protocol, the SQLite store and the
    /// remote store — reaches nothing server-side, in `Package.swift` or in its sources: no web
    /// framework, no server networking stack (the remote store speaks through URLSession, or a
    /// transport its caller gives), no PostgreSQL, no logging or crypto of the server's.
    @Test(arguments: ["CommissionCore", "CommissionStore", "CommissionSQLite", "CommissionClient"])
    func theLibraryForAppsReachesNothingServerSide(_ name: String) throws {
        let targets = try Self.packageTargets()
        let allowed: Set<String> = [
            "CommissionCore", "CommissionStore", "CommissionAPI", "GRDB", "GRDBSQLite", "OpenAPIRuntime",
            "OpenAPIURLSession", "HTTPTypes",
        ]
        var reachable = Set<String>(), queue = [name]
        while let next = queue.popLast() {
            guard let target = targets[next] else { continue }
            reachable.formUnion(target.products)
            for local in target.targets where reachable.insert(local).inserted { queue.append(local) }
        }
        #expect(
            reachable.isSubset(of: allowed),
            "\(name) reaches \(reachable.subtracting(allowed).sorted()) through Package.swift"
        )
        let imported = try Self.imports(of: name).subtracting(Self.system)
        #expect(imported.isSubset(of: allowed), "\(name) imports \(imported.subtracting(allowed).sorted())")
        // Accounts, sessions and invitations are the server's: the store protocol an app implements does not ask for them.
        let storeProtocol =
            try Self.sources(of: "CommissionStore").first { $0.name == "CommissionStore.swift" }?.text ?? ""
        let declaration = storeProtocol[storeProtocol.range(of: "public protocol CommissionStore")!.lowerBound...]
        let body = declaration[..<(declaration.range(of: "\n}\n")?.upperBound ?? declaration.endIndex)]
        for word in ["Account", "Session", "Invitation", "Token", "Member"] {
            #expect(
                !body.contains(word),
                "the CommissionStore protocol names \(word): that belongs behind AccountStore or TeamStore"
            )
        }
    }

    /// The package declares the Apple platforms an app runs on, at the versions the code needs.
    @Test func thePackageDeclaresTheAppsPlatforms() throws {
        let text = try String(contentsOf: Self.root.appending(path: "Package.swift"), encoding: .utf8)
        for platform in [".macOS(.v15)", ".iOS(.v18)", ".tvOS(.v18)", ".watchOS(.v11)", ".visionOS(.v2)"] {
            #expect(text.contains(platform), "Package.swift does not declare \(platform)")
        }
        // `isolated deinit` (SE-0371) needs the 6.2 tools.
        let usesIsolatedDeinit = try ["CommissionCore", "CommissionStore", "CommissionSQLite"].contains {
            try Self.sources(of: $0).contains { $0.text.contains("isolated deinit") }
        }
        if usesIsolatedDeinit {
            #expect(text.hasPrefix("// swift-tools-version:6.2") || text.hasPrefix("// swift-tools-version:6.3"))
        }
    }

    /// The page describes every target there is (a new target gets its row and its rule).
    @Test func theArchitecturePageNamesEveryTarget() throws {
        let page = try String(contentsOf: Self.root.appending(path: "docs/architecture.md"), encoding: .utf8)
        for name in try Self.packageTargets().keys where !name.hasSuffix("Tests") {
            #expect(page.contains("| `\(name)` |"), "docs/architecture.md has no row for the target \(name)")
        }
    }
}
