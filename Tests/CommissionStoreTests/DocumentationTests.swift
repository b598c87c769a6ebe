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
