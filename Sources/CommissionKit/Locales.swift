import CommissionCore
import Foundation

/// The order of a date's parts as a file writes them, where it does not write ISO 8601
/// (`2026-02-25`, which is always read as such).
public enum DateOrder: String, Sendable, Hashable, CaseIterable {
    case ymd, mdy, dmy

    /// "month/day/year".
    public var words: String {
        switch self {
        case .ymd: "year/month/day"
        case .mdy: "month/day/year"
        case .dmy: "day/month/year"
        }
    }
}

/// How a file's dates and amounts are read: what was given (`--dates`, `--decimal-comma`) or told
/// from the whole file, and the sentences that say so in a preview.
public struct ImportReading: Sendable, Hashable {
    /// The order of dates not written as ISO 8601; nil when the file has none.
    public var dates: DateOrder?
    public var decimalComma: Bool
    /// "dates read as month/day/year: 2/25/2026 can only be read so".
    public var said: [String]

    public init(dates: DateOrder? = nil, decimalComma: Bool = false, said: [String] = []) {
        self.dates = dates
        self.decimalComma = decimalComma
        self.said = said
    }
}

/// A file whose reading cannot be told, or whose values contradict each other.
public struct ReadingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
}

/// Dates and amounts as people's spreadsheets write them, read exactly.
package enum LocaleText {
    /// The three numbers of a date written `2/25/2026`, `25.02.26`, `2026/2/25` or `25-02-2026`,
    /// a time after it (`14:30`, `2:30 PM`) passed over; nil for text that is not such a date.
    static func parts(_ text: String) -> (first: Substring, second: Substring, third: Substring, separator: Character)?
    {
        let date = text.split(whereSeparator: { $0 == " " || $0 == "T" }).first ?? Substring(text)
        guard let separator = date.first(where: { $0 == "/" || $0 == "." || $0 == "-" }) else { return nil }
        var pieces = date.split(separator: separator, omittingEmptySubsequences: false)
        if separator == ".", pieces.count == 4, pieces[3].isEmpty { pieces.removeLast() }  // "25.02.2026."
        guard pieces.count == 3, pieces.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCIIDigit) })
        else { return nil }
        return (pieces[0], pieces[1], pieces[2], separator)
    }

    /// An amount as exports write it: digits, a point, a minus, nothing else.
    static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D }
    }

    /// `YYYY-MM-DD`, alone or before a space or a `T` (a time); read byte by byte, without a copy.
    static func isISO(_ text: String) -> Bool {
        var position = 0
        for byte in text.utf8 {
            switch position {
            case 4, 7: guard byte == UInt8(ascii: "-") else { return false }
            case 10: return byte == UInt8(ascii: " ") || byte == UInt8(ascii: "T")
            default: guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return false }
            }
            position += 1
        }
        return position == 10
    }

    /// The day `text` names, ISO 8601 or in `order`; a two-digit year is 2000–2029 for 00–29 and
    /// 1930–1999 for 30–99, as spreadsheets read one.
    package static func day(_ text: String, order: DateOrder?) throws -> Day {
        // ISO: what exports write, a million times in a large import, read without a copy when alone.
        if isISO(text) { return try Day(parsing: text.utf8.count == 10 ? text : String(text.prefix(10))) }
        guard let (a, b, c, _) = parts(text) else { return try Day(parsing: text) }  // Day's own sentence
        guard let order else {
            throw ReadingError(
                description:
                    "\"\(text)\" is not a date written YYYY-MM-DD, and the file's other dates do not say in which order it is written: pass --dates mdy, dmy or ymd."
            )
        }
        let (y, m, d) =
            switch order {
            case .ymd: (a, b, c)
            case .mdy: (c, a, b)
            case .dmy: (c, b, a)
            }
        guard y.count == 4 || y.count == 2, let year = Int(y), let month = Int(m), let dayOfMonth = Int(d) else {
            throw ReadingError(description: "\"\(text)\" is not a date read as \(order.words).")
        }
        let fullYear = y.count == 2 ? (year < 30 ? 2000 + year : 1900 + year) : year
        do {
            return try Day(year: fullYear, month: month, day: dayOfMonth)
        } catch {
            throw ReadingError(description: "\"\(text)\" is not a date on the calendar, read as \(order.words).")
        }
    }

    /// The orders that can read a date written with three numbers; every order for an ISO date.
    package static func orders(_ text: String) -> Set<DateOrder>? {
        if isISO(text) { return nil }
        guard let (a, b, c, separator) = parts(text), let first = Int(a), let second = Int(b), Int(c) != nil else {
            return []
        }
        if a.count == 4 { return second <= 12 ? [.ymd] : [] }
        var orders: Set<DateOrder> = []
        if first <= 12, second <= 31, c.count != 1 { orders.insert(.mdy) }
        if second <= 12, first <= 31, c.count != 1 { orders.insert(.dmy) }
        // Dots are written day.month.year wherever they are used.
        if separator == ".", orders.contains(.dmy) { orders.remove(.mdy) }
        return orders
    }

    /// An amount as spreadsheets write one: a currency sign or code before or after it, grouping
    /// (`1,234.50`, `1.234,50`, `1 234,50`, `1'234.50`), a minus or parentheses for a negative.
    /// Returns plain decimal text (`-1234.50`) for ``Currency/parse(_:decimalSeparator:)``; throws
    /// a sentence for grouping that is not in threes.
    package static func plainAmount(_ text: String, currency: Currency, decimalComma: Bool) throws -> String {
        var value = text.trimmingWhitespace()
        var negative = false
        if value.hasPrefix("("), value.hasSuffix(")") {
            negative = true
            value = String(value.dropFirst().dropLast())
        }
        value = value.filter { !$0.isWhitespace && $0 != "'" && $0 != "’" }
        for sign in signs(of: currency) {
            if value.hasPrefix("-" + sign) { value = "-" + value.dropFirst(1 + sign.count) }
            if value.hasPrefix(sign) { value.removeFirst(sign.count) }
            if value.hasSuffix(sign) { value.removeLast(sign.count) }
        }
        if value.hasSuffix("-"), value.count > 1 { value = "-" + value.dropLast() }
        if value.hasPrefix("-") {
            negative.toggle()
            value.removeFirst()
        }
        let (decimal, grouping): (Character, Character) = decimalComma ? (",", ".") : (".", ",")
        let whole = value.split(separator: decimal, maxSplits: 1, omittingEmptySubsequences: false)
        if whole[0].contains(grouping) {
            let groups = whole[0].split(separator: grouping, omittingEmptySubsequences: false)
            guard let head = groups.first, (1...3).contains(head.count),
                groups.dropFirst().allSatisfy({ $0.count == 3 })
            else {
                throw ReadingError(
                    description:
                        "\"\(text)\" is not an amount: its digits are grouped by \"\(grouping)\" but not in threes."
                )
            }
        }
        var plain = whole[0].filter { $0 != grouping }
        if whole.count == 2 { plain += "." + whole[1] }
        return negative ? "-" + plain : plain
    }

    /// How amounts in `currency` may be marked: its code and its usual signs, longest first. The
    /// sign of another currency is not taken off, so an amount in euros is refused by a book kept
    /// in dollars rather than read as dollars.
    static func signs(of currency: Currency) -> [String] {
        let usual: [String: [String]] = [
            "USD": ["US$", "$"], "CAD": ["CA$", "C$", "$"], "AUD": ["AU$", "A$", "$"], "NZD": ["NZ$", "$"],
            "MXN": ["MX$", "$"],
            "EUR": ["€"], "GBP": ["£"], "JPY": ["¥", "円"], "CNY": ["¥", "元"], "INR": ["Rs.", "₹"],
            "CHF": ["SFr.", "Fr."],
            "SEK": ["kr"], "NOK": ["kr"], "DKK": ["kr."], "PLN": ["zł"], "BRL": ["R$"], "KRW": ["₩"], "ZAR": ["R"],
        ]
        return [currency.code] + (usual[currency.code] ?? [])
    }

    /// What an amount says of the file's decimal separator: `true` a comma, `false` a point, nil
    /// when it could be either (`1,234`, `12`).
    package static func decimalComma(of text: String) -> Bool? {
        let digitsAndMarks = text.filter { $0.isASCIIDigit || $0 == "," || $0 == "." }
        let commas = digitsAndMarks.filter { $0 == "," }.count, points = digitsAndMarks.filter { $0 == "." }.count
        switch (commas, points) {
        case (0, 0): return nil
        case (_, 0): return commas > 1 ? false : (digitsAndMarks.split(separator: ",").last?.count == 3 ? nil : true)
        case (0, _): return points > 1 ? true : (digitsAndMarks.split(separator: ".").last?.count == 3 ? nil : false)
        default: return digitsAndMarks.lastIndex(of: ",")! > digitsAndMarks.lastIndex(of: ".")!
        }
    }
}

/// Gathers what a file's dates and amounts say about how they are written, value by value.
struct ReadingEvidence {
    var possible: Set<DateOrder> = Set(DateOrder.allCases)
    /// The first value that ruled each order out, for the sentence.
    var ruledOut: [DateOrder: String] = [:]
    var nonISO: String?
    var commaSays: String?, pointSays: String?
    /// True once a date not written ISO 8601 or an amount not written plain (`12.50`) was seen.
    var sawLocale = false

    mutating func date(_ text: String) {
        guard let orders = LocaleText.orders(text) else { return }
        sawLocale = true
        if nonISO == nil { nonISO = text }
        for order in possible.subtracting(orders) where ruledOut[order] == nil { ruledOut[order] = text }
        possible.formIntersection(orders)
    }

    mutating func amount(_ text: String) {
        if !LocaleText.isPlain(text) { sawLocale = true }
        switch LocaleText.decimalComma(of: text) {
        case true?: if commaSays == nil { commaSays = text }
        case false?: if pointSays == nil { pointSays = text }
        case nil: break
        }
    }

    /// The reading, with what was given taking precedence over what the values say.
    func reading(given dates: DateOrder?, decimalComma: Bool?) throws -> ImportReading {
        var reading = ImportReading()
        if let dates {
            reading.dates = dates
        } else if let example = nonISO {
            let left = possible.intersection([.mdy, .dmy, .ymd])
            switch left.count {
            case 1:
                let order = left.first!
                // The value that ruled out the other order a reader might have taken.
                let rival: DateOrder = order == .dmy ? .mdy : .dmy
                let other =
                    ruledOut[rival] ?? DateOrder.allCases.filter { $0 != order }.compactMap { ruledOut[$0] }.first
                    ?? example
                reading.dates = order
                reading.said.append("dates read as \(order.words): \(other) can only be read so")
            case 0:
                throw ReadingError(
                    description: """
                        The file's dates are written in more than one order (\(DateOrder.allCases.compactMap { ruledOut[$0] }.map { "\"\($0)\"" }.joined(separator: ", ")) \
                        cannot all be read one way): make them one order, or pass --dates mdy, dmy or ymd.
                        """
                )
            default:
                throw ReadingError(
                    description: """
                        Cannot tell how the file's dates are written: every day in it is 12 or less, so "\(example)" could be \
                        \(left.sorted { $0.rawValue < $1.rawValue }.map(\.words).joined(separator: " or ")). Say which with --dates mdy or --dates dmy.
                        """
                )
            }
        }
        if let decimalComma {
            reading.decimalComma = decimalComma
        } else if let comma = commaSays, let point = pointSays {
            throw ReadingError(
                description: """
                    The file's amounts are written with both decimal marks ("\(point)" with a point, "\(comma)" with a comma): make them one, \
                    or say which with --decimal-comma.
                    """
            )
        } else if let comma = commaSays {
            reading.decimalComma = true
            reading.said.append("amounts read with a decimal comma: \(comma) can only be read so")
        }
        return reading
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
