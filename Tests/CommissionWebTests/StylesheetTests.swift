import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The stylesheet as served is built on its design tokens: the colours, type sizes, steps and radii
/// are custom properties of `:root` (light, and dark when the system is), and every rule after them
/// uses the tokens — so that owed, overdue, credit and paid look the same on every page, and a
/// change of the scale is one line.
@Suite struct StylesheetTests {
    /// The served `app.css`, as (selector, declarations) rules, with its comments removed.
    func stylesheet() async throws -> String {
        let test = try await TestApp()
        return try await test.app.test(.router) { client in
            let response = try await client.execute(uri: "/static/app.css", method: .get)
            #expect(response.status == .ok)
            return response.text.replacing(/\/\*[\s\S]*?\*\//, with: "")
        }
    }

    /// Every declaration as (selector, property, value); `:root` blocks are the tokens.
    static func declarations(_ css: String) -> [(selector: String, property: String, value: String)] {
        var found: [(String, String, String)] = []
        var selectors: [String] = []
        var text = ""
        for character in css {
            switch character {
            case "{":
                selectors.append(text.trimmingCharacters(in: .whitespacesAndNewlines))
                text = ""
            case "}", ";":
                let declaration = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if let colon = declaration.firstIndex(of: ":"), !declaration.isEmpty {
                    found.append(
                        (
                            selectors.last ?? "", String(declaration[..<colon]).trimmingCharacters(in: .whitespaces),
                            String(declaration[declaration.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                        )
                    )
                }
                text = ""
                if character == "}" { _ = selectors.popLast() }
            default:
                text.append(character)
            }
        }
        return found
    }

    @Test func theTokensAreDefinedLightAndDark() async throws {
        let rules = Self.declarations(try await stylesheet())
        let tokens = rules.filter { $0.selector == ":root" }
        let names = Set(tokens.map(\.property))
        for meaning in ["--owed", "--overdue", "--credit", "--paid"] {
            #expect(names.contains(meaning) && names.contains(meaning + "-bg"), "\(meaning) is a token")
            // Defined twice: once for light, once in the dark scheme.
            #expect(tokens.filter { $0.property == meaning }.count == 2, "\(meaning) has a dark value")
        }
        for scale in ["--text-sm", "--text-base", "--text-2xl", "--space-1", "--space-4", "--radius", "--tap"] {
            #expect(names.contains(scale), "\(scale) is a token")
        }
        #expect(tokens.first { $0.property == "--tap" }?.value == "2.75rem", "a tap target is 44 CSS px")
    }

    /// After `:root`, no raw colour anywhere, and sizes, steps and radii only from the tokens.
    @Test func everyRuleUsesTheTokens() async throws {
        let rules = Self.declarations(try await stylesheet()).filter {
            $0.selector != ":root" && !$0.property.hasPrefix("--")
        }
        #expect(rules.count > 200)
        let colour = /#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(|\b(white|black|red|blue|green|grey|gray)\b/
        let scaled: Set = [
            "font-size", "padding", "padding-top", "padding-bottom", "padding-left", "padding-right", "padding-block",
            "padding-inline",
            "margin", "margin-top", "margin-bottom", "margin-left", "margin-right", "gap", "row-gap", "column-gap",
            "border-radius",
        ]
        // A length written as a number with a unit (0 is no length; 1px is a hairline, allowed in a border).
        let rawLength = /(^|[\s(,])\d*\.?\d+(rem|em|px)\b/
        for rule in rules {
            #expect(
                rule.value.firstMatch(of: colour) == nil,
                "\(rule.selector) { \(rule.property): \(rule.value) } names a raw colour"
            )
            if scaled.contains(rule.property) {
                #expect(
                    rule.value.firstMatch(of: rawLength) == nil,
                    "\(rule.selector) { \(rule.property): \(rule.value) } is off the scale"
                )
            }
        }
    }
}
