import CommissionCore
import Foundation
import Testing

/// The plain-Swift text helpers give what Foundation gives, which they replace on the hot paths.
@Suite struct TextTests {
    static let samples = [
        "", " ", "\t", "  \t ", "USD", " usd ", "\tBearer cm_1\t", "a b", " a b ", "\u{00A0}EUR\u{00A0}",
        "\u{3000}名前\u{3000}",
        "\u{2003}em\u{2009}", "line\n", "\r\nboth\r\n", "\u{0085}next\u{2028}", "\u{2029}", "\n \t\r", "é", " é ", "👩🏽‍⚕️ ",
        " \u{0301}x", "x\u{200B}", "\u{FEFF}bom", "\u{000B}\u{000C}v", " \u{1680}ogham\u{202F}",
    ]

    @Test(arguments: samples)
    func trimmingIsFoundations(_ text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
        #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
        let inside = Substring("[\(text)]").dropFirst().dropLast()
        #expect(inside.trimmingWhitespace() == inside.trimmingCharacters(in: .whitespaces))
    }

    @Test func hexadecimalIsTwoLowercaseDigitsAByte() {
        #expect([UInt8]().hexadecimal == "")
        #expect([0x00, 0x0F, 0x10, 0xAB, 0xFF].hexadecimal == "000f10abff")
        let bytes = (0...255).map { UInt8($0) }
        #expect(bytes.hexadecimal == bytes.map { String(format: "%02x", $0) }.joined())
    }
}
