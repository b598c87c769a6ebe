/// Text helpers on the hot paths, in plain Swift: on Linux, Foundation's `trimmingCharacters(in:)`
/// goes through `NSString` and `String(format: "%02x")` through `CFString` formatting, each some
/// microseconds a call — a visible share of every API request (its bearer token's digest, the
/// book's currency code, the sale's date).
extension StringProtocol {
    /// The text without the spaces and tabs at its ends: what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` gives, looking only at the ends when there are none.
    public func trimmingWhitespace() -> String { trimming(Self.isWhitespace) }

    /// The text without spaces, tabs and line breaks at its ends: what Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives.
    public func trimmingWhitespaceAndNewlines() -> String {
        trimming { Self.isWhitespace($0) || Self.isNewline($0) }
    }

    private func trimming(_ isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.first, let last = scalars.last, isTrimmed(first) || isTrimmed(last) else {
            return String(self)
        }
        guard let start = scalars.firstIndex(where: { !isTrimmed($0) }),
            let end = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[start...end])
        return String(kept)
    }

    /// `CharacterSet.whitespaces`: tab, the space separators (Unicode's Zs) and, as Foundation has
    /// it, the zero-width space.
    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == " "
            || (scalar.value > 0x7F && (scalar.value == 0x200B || scalar.properties.generalCategory == .spaceSeparator))
    }

    /// `CharacterSet.newlines`: U+000A–U+000D, U+0085, U+2028 and U+2029.
    private static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        (0x0A...0x0D).contains(scalar.value) || scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}

extension Sequence<UInt8> {
    /// The bytes as lowercase hexadecimal, two digits each (a digest, a signature, a random secret).
    /// (Each request with a token computes one: the digits are written straight into the string.)
    public var hexadecimal: String {
        let bytes = Array(self)
        return String(unsafeUninitializedCapacity: bytes.count * 2) { text in
            func digit(_ value: UInt8) -> UInt8 {
                value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
            }
            for (index, byte) in bytes.enumerated() {
                text[2 * index] = digit(byte >> 4)
                text[2 * index + 1] = digit(byte & 0x0F)
            }
            return bytes.count * 2
        }
    }
}
