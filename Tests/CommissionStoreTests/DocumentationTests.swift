import CommissionStore
import Foundation
import Testing

/// The README and the docs, held to the repository: what they link to exists, and the README's
/// table of packages is `Package.swift`'s.
@Suite struct DocumentationTests {
    static let root = ArchitectureTests.root

    /// The README, and every Markdown file of `docs/` and `benchmarks/`.
    static func documents() throws -> [URL] {
        var found = [root.appending(path: "README.md")]
        for folder in ["docs", "benchmarks"] {
            let url = root.appending(path: folder)
            found += try FileManager.default.contentsOfDirectory(atPath: url.path(percentEncoded: false)).filter {
                $0.hasSuffix(".md")
            }.sorted()
                .map { url.appending(path: $0) }
        }
        return found
    }

    @Test("Every relative link of the README and the docs points to a file that exists")
    func relativeLinksResolve() throws {
        let documents = try Self.documents()
        #expect(documents.count >= 5, "the README and the docs are found (\(documents.count))")
        var checked = 0
        for document in documents {
            let text = try String(contentsOf: document, encoding: .utf8)
            for match in text.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.1)
                guard !target.contains("://"), !target.hasPrefix("mailto:"), !target.hasPrefix("#") else { continue }
                let path = String(target.split(separator: "#", maxSplits: 1).first ?? "")
                let resolved = document.deletingLastPathComponent().appending(
                    path: path.removingPercentEncoding ?? path
                )
                checked += 1
                #expect(
                    FileManager.default.fileExists(atPath: resolved.standardized.path(percentEncoded: false)),
                    "\(document.lastPathComponent) links to \(target), which does not exist"
                )
            }
        }
        #expect(checked >= 10, "relative links were found and checked (\(checked))")
    }

    /// The release the binary says (`--version`, Settings, `/health/ready`) is CHANGELOG.md's
    /// newest, so a release is never cut without saying what it changed; every release named is
    /// newer than the one under it.
    @Test("The release is the changelog's newest")
    func releaseIsTheChangelogsNewest() throws {
        let text = try String(contentsOf: Self.root.appending(path: "CHANGELOG.md"), encoding: .utf8)
        let releases = text.matches(of: /\n## (\d{4}\.\d{2}\.\d{2})\n/).map { String($0.1) }
        #expect(
            releases.first == CommissionRelease.version,
            "CHANGELOG.md's newest release is \(releases.first ?? "none")"
        )
        #expect(releases == releases.sorted(by: >) && Set(releases).count == releases.count, "\(releases)")
        #expect(releases.count >= 2)
    }

    /// `docs/architecture.md` is the map of the code: every file it names exists, and every type
    /// it names (a word in backticks that reads as a Swift type, `Ledger`, `ImportState`,
    /// `Ledger.sale(…)`'s `Ledger`) is declared in `Sources/` — so that a rename or a removal
    /// that leaves the map behind fails here.
    @Test("Every file and type docs/architecture.md names exists")
    func theArchitecturePageNamesWhatExists() throws {
        let page = try String(contentsOf: Self.root.appending(path: "docs/architecture.md"), encoding: .utf8)
        let files = try Self.files(under: ["Sources", "Tests", "scripts"])
        let declared = try Self.declaredTypes(in: files.filter { $0.hasSuffix(".swift") })
        // Modules and products are named in backticks too (the targets' table): not types.
        let modules = Set(try ArchitectureTests.packageTargets().keys).union([
            "GRDB", "PostgresNIO", "Hummingbird", "Foundation",
        ])
        var named = 0
        for match in page.matches(of: /`([^`\n]+)`/) {
            let token = String(match.1)
            // A route (`/api/v1/openapi.json`) or a family of files (`…+PeriodFigures.swift`) is no one file.
            if token.hasPrefix("/") || token.contains("…") { continue }
            if token.hasSuffix(".swift") || token.hasSuffix(".json") || token.hasSuffix(".mustache")
                || token.hasSuffix(".md")
            {
                named += 1
                let path = token.hasPrefix("Sources/") || token.hasPrefix("Tests/") ? token : "/" + token
                #expect(
                    files.contains { $0 == token || $0.hasSuffix(path) },
                    "docs/architecture.md names \(token), which is no file of the repository"
                )
                continue
            }
            // A type, or a type's member (`Ledger.sale(draft, in:)`): the part before the first dot.
            guard let type = token.firstMatch(of: /^([A-Z][A-Za-z0-9]+)(\.|$|\()/)?.1 else { continue }
            let name = String(type)
            guard !modules.contains(name), !Self.libraryTypes.contains(name), name.contains(where: \.isLowercase) else {
                continue
            }
            named += 1
            if !declared.contains(name) { Issue.record("docs/architecture.md names \(name), which no source declares") }
        }
        #expect(named > 60, "the page's names were found (\(named))")
    }

    /// The types of Swift and of the packages the page names beside ours.
    static let libraryTypes: Set<String> = [
        "DatabasePool", "Task", "Mutex", "Atomic", "ValueObservation", "Observable",
    ]

    /// Every file's path under `folders`, relative to the repository.
    static func files(under folders: [String]) throws -> [String] {
        var found: [String] = []
        for folder in folders {
            let base = root.appending(path: folder)
            guard let walk = FileManager.default.enumerator(atPath: base.path(percentEncoded: false)) else { continue }
            while let path = walk.nextObject() as? String { found.append("\(folder)/\(path)") }
        }
        return found
    }

    /// The names of the types (and protocols, type aliases, actors) the Swift files declare.
    static func declaredTypes(in files: [String]) throws -> Set<String> {
        var names = Set<String>()
        for file in files {
            let text = try String(contentsOf: root.appending(path: file), encoding: .utf8)
            for match in text.matches(
                of: /(?:struct|enum|class|protocol|actor|typealias|extension)\s+([A-Z][A-Za-z0-9]*)/
            ) {
                names.insert(String(match.1))
            }
        }
        return names
    }

    /// The API's shapes are defined by its OpenAPI document; `docs/json.md` explains them with
    /// examples. Every key an example shows is a property the document defines, so that the
    /// explanation cannot describe a field the API does not have.
    @Test("Every key in docs/json.md's examples is one the OpenAPI document defines")
    func theJSONPageNamesOnlyTheDocumentsKeys() throws {
        let document = try JSONSerialization.jsonObject(
            with: try Data(contentsOf: Self.root.appending(path: "Sources/CommissionWeb/Resources/openapi.json"))
        )
        // Every name a schema lists under `properties`, anywhere in the document.
        var defined = Set<String>()
        func collect(_ node: Any) {
            if let object = node as? [String: Any] {
                if let properties = object["properties"] as? [String: Any] { defined.formUnion(properties.keys) }
                object.values.forEach(collect)
            } else if let array = node as? [Any] {
                array.forEach(collect)
            }
        }
        collect(document)
        let page = try String(contentsOf: Self.root.appending(path: "docs/json.md"), encoding: .utf8)
        var shown = Set<String>()
        for block in page.matches(of: /```json\n((?:.|\n)*?)```/) {
            for key in block.1.matches(of: /"([A-Za-z]+)"\s*:/) { shown.insert(String(key.1)) }
        }
        #expect(shown.count >= 40, "the examples' keys were found (\(shown.count))")
        #expect(
            shown.subtracting(defined).isEmpty,
            "docs/json.md shows keys the OpenAPI document does not define: \(shown.subtracting(defined).sorted())"
        )
    }

    /// What `Package.swift` says each package gives to which target: package → target → products.
    static func packageUses() throws -> (packages: Set<String>, uses: [String: [String: Set<String>]]) {
        let text = try String(contentsOf: root.appending(path: "Package.swift"), encoding: .utf8)
        let packages = Set(text.matches(of: /\.package\(\s*url: "[^"]*\/([^"\/]+?)(?:\.git)?"/).map { String($0.1) })
        var uses: [String: [String: Set<String>]] = [:]
        let starts = text.ranges(of: /\.(?:target|executableTarget|testTarget)\(\s*name: "([A-Za-z-]+)"/)
        for (index, range) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1].lowerBound : text.endIndex
            let block = text[range.lowerBound..<end]
            guard let target = block.firstMatch(of: /name: "([A-Za-z-]+)"/)?.1 else { continue }
            for use in block.matches(of: /\.product\(\s*name: "([A-Za-z_]+)",\s*package: "([^"]+)"/) {
                uses[String(use.2), default: [:]][String(target), default: []].insert(String(use.1))
            }
        }
        return (packages, uses)
    }

    @Test(
        "The README's table of packages is Package.swift's: every package, and which target takes which of its products"
    )
    func theReadmesPackageTableIsPackageSwifts() throws {
        let readme = try String(contentsOf: Self.root.appending(path: "README.md"), encoding: .utf8)
        let (packages, uses) = try Self.packageUses()
        var rows: [String: [String: Set<String>]] = [:]
        var inTable = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("| Package | Used by |") {
                inTable = true
                continue
            }
            guard inTable else { continue }
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                String($0).trimmingCharacters(in: CharacterSet.whitespaces)
            }
            guard cells.count >= 3, let package = cells[1].firstMatch(of: /`([^`]+)`/)?.1 else { continue }
            var targets: [String: Set<String>] = [:]
            for use in cells[2].matches(of: /`([A-Za-z-]+)` \(([^)]*)\)/) {
                targets[String(use.1)] = Set(
                    use.2.split(separator: ",").map { String($0).trimmingCharacters(in: CharacterSet.whitespaces) }
                        .filter { $0.wholeMatch(of: /[A-Za-z_]+/) != nil }
                )
            }
            rows[String(package)] = targets
        }
        #expect(
            Set(rows.keys) == packages,
            "README's packages \(rows.keys.sorted()) against Package.swift's \(packages.sorted())"
        )
        for (package, targets) in rows where !targets.isEmpty || uses[package] != nil {
            #expect(
                targets == uses[package] ?? [:],
                "\(package): the README says \(targets), Package.swift \(uses[package] ?? [:])"
            )
        }
    }
}
