/// A JSON object of scalars read in one pass: the members of `{"clinicId": 1, "date": "2026-03-02"}`,
/// for a hot path that `JSONDecoder` would otherwise read (every sale entered over the API).
///
/// It reads only what it can promise to read as `JSONDecoder` does, and gives up (`nil`) on
/// anything else, for the caller to hand the bytes to `JSONDecoder`, which then decodes them or
/// says what is wrong: so a body is never read two ways. What it reads: one object, its keys and
/// string values without escapes, control characters or invalid UTF-8, integers in `Int64`
/// without a fraction or an exponent, `true`, `false` and `null`, JSON's whitespace around them.
/// It gives up on a nested object or array, a number with a fraction or an exponent, an escape
/// in a string, a key given twice, more than ``memberLimit`` members, and anything that is not JSON
/// (shown against `JSONDecoder` on random bodies in `FlatBodiesTests`).
public enum FlatJSON {
    /// The most members read; a body with more goes to `JSONDecoder` (a sale's has eleven).
    public static let memberLimit = 32

    public enum Value: Equatable, Sendable {
        case string(String)
        case integer(Int64)
        case bool(Bool)
        case null

        public var string: String? { if case .string(let text) = self { text } else { nil } }
        public var integer: Int64? { if case .integer(let number) = self { number } else { nil } }
        public var bool: Bool? { if case .bool(let flag) = self { flag } else { nil } }
    }

    /// The object's members in their order, or nil where only `JSONDecoder` would do.
    public static func members(_ bytes: UnsafeRawBufferPointer) -> [(key: String, value: Value)]? {
        var reader = Reader(bytes: bytes)
        return reader.object()
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            index += 1
            return true
        }

        mutating func object() -> [(key: String, value: Value)]? {
            skipWhitespace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var members: [(key: String, value: Value)] = []
            skipWhitespace()
            if !take(UInt8(ascii: "}")) {
                while true {
                    skipWhitespace()
                    guard take(UInt8(ascii: "\"")), let key = string() else { return nil }
                    skipWhitespace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipWhitespace()
                    // A key given twice is left to JSONDecoder; so is a body of many members, whose
                    // check for twice would grow with the square of their number.
                    guard members.count < FlatJSON.memberLimit, let value = value(),
                        !members.contains(where: { $0.key == key })
                    else { return nil }
                    members.append((key, value))
                    skipWhitespace()
                    if take(UInt8(ascii: ",")) { continue }
                    guard take(UInt8(ascii: "}")) else { return nil }
                    break
                }
            }
            skipWhitespace()
            return index == bytes.count ? members : nil
        }

        /// A string's characters after its opening quote, through its closing one.
        mutating func string() -> String? {
            let start = index
            while let byte = current, byte != UInt8(ascii: "\"") {
                guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return nil }
                index += 1
            }
            guard current != nil else { return nil }
            let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            index += 1
            return text
        }

        mutating func value() -> Value? {
            guard let byte = current else { return nil }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return string().map(Value.string)
            case UInt8(ascii: "t"): return word("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return word("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return word("null") ? .null : nil
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return integer().map(Value.integer)
            default: return nil
            }
        }

        mutating func word(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count,
                (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
            else { return false }
            index += count
            return true
        }

        /// `-?(0|[1-9][0-9]*)` within Int64, not followed by a fraction or an exponent.
        mutating func integer() -> Int64? {
            let negative = take(UInt8(ascii: "-"))
            guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return nil }
            var value: Int64 = 0
            if first == UInt8(ascii: "0") {
                index += 1
            } else {
                while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    // Built negative: Int64.min has no positive twin.
                    let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                    let (next, overflow2) = times.subtractingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                    guard !overflow, !overflow2 else { return nil }
                    value = next
                    index += 1
                }
            }
            if let byte = current,
                byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            {
                return nil  // a fraction, an exponent, or a leading zero
            }
            if negative { return value }
            return value == .min ? nil : -value
        }
    }
}
