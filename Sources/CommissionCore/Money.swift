import Foundation

/// An exact amount of the book's currency, in integer minor units (cents for USD or EUR).
///
/// A book has one currency, so `Money` carries only the count of minor units; ``Currency``
/// formats and parses it. Arithmetic never wraps: every operation that could overflow throws
/// ``MoneyError/overflow(_:)``. No floating-point value is ever involved.
public struct Money: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The amount in minor units of the book's currency (1234.50 is `123450` when the currency has two digits).
    public var minorUnits: Int64

    public init(minorUnits: Int64) {
        self.minorUnits = minorUnits
    }

    public static let zero = Money(minorUnits: 0)

    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.minorUnits < rhs.minorUnits }

    public var isNegative: Bool { minorUnits < 0 }
    public var isPositive: Bool { minorUnits > 0 }
    /// The amount without its sign, or itself when that does not fit (`Int64.min`).
    public var magnitudeOrSelf: Money { minorUnits == .min ? self : Money(minorUnits: Swift.abs(minorUnits)) }
    public var isZero: Bool { minorUnits == 0 }

    /// The sum of two amounts.
    /// - Throws: ``MoneyError/overflow(_:)`` when the sum does not fit in 64 bits.
    public func adding(_ other: Money) throws(MoneyError) -> Money {
        let (sum, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
        if overflow { throw .overflow("\(minorUnits) + \(other.minorUnits)") }
        return Money(minorUnits: sum)
    }

    /// The difference of two amounts.
    /// - Throws: ``MoneyError/overflow(_:)`` when the difference does not fit in 64 bits.
    public func subtracting(_ other: Money) throws(MoneyError) -> Money {
        let (difference, overflow) = minorUnits.subtractingReportingOverflow(other.minorUnits)
        if overflow { throw .overflow("\(minorUnits) − \(other.minorUnits)") }
        return Money(minorUnits: difference)
    }

    /// This amount times a quantity (a unit price times the number of units).
    /// - Throws: ``MoneyError/overflow(_:)`` when the product does not fit in 64 bits.
    public func multiplied(by quantity: Int64) throws(MoneyError) -> Money {
        let (product, overflow) = minorUnits.multipliedReportingOverflow(by: quantity)
        if overflow { throw .overflow("\(minorUnits) × \(quantity)") }
        return Money(minorUnits: product)
    }

    /// The opposite amount.
    /// - Throws: ``MoneyError/overflow(_:)`` for the one amount that has no opposite (`Int64.min`).
    public func negated() throws(MoneyError) -> Money {
        try Money.zero.subtracting(self)
    }

    /// The absolute value, as used by discounts on returns.
    public func magnitude() throws(MoneyError) -> Money {
        isNegative ? try negated() : self
    }

    /// The sum of a sequence of amounts, checked for overflow.
    public static func sum<S: Sequence>(_ amounts: S) throws(MoneyError) -> Money where S.Element == Money {
        var total = Money.zero
        for amount in amounts { total = try total.adding(amount) }
        return total
    }

    /// Minor units, unformatted. Use ``Currency/format(_:)`` to show an amount.
    public var description: String { "\(minorUnits) minor units" }
}

/// Errors of money arithmetic and parsing. Each has a sentence a user can act on.
public enum MoneyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An operation's result does not fit in 64-bit minor units.
    case overflow(String)
    /// The text is not an amount.
    case malformed(String, reason: String)

    public var description: String {
        switch self {
        case .overflow:
            return "The amount is too large: it does not fit in Commission's range of exact amounts."
        case .malformed(let text, let reason):
            return "\"\(text)\" is not an amount: \(reason)."
        }
    }
}

/// The book's currency: an ISO 4217 code and the number of minor digits it is counted in.
public struct Currency: Sendable, Hashable, CustomStringConvertible {
    /// The ISO 4217 code, upper case (`USD`).
    public let code: String
    /// How many decimal digits a minor unit has (2 for USD, 0 for JPY, 3 for KWD).
    public let minorDigits: Int

    /// The currencies whose minor digits are not 2 (ISO 4217). Every other well-formed code has 2.
    private static let nonDecimalDigits: [String: Int] = [
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0,
        "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3, "CLF": 4, "UYW": 4,
    ]

    /// A currency from its ISO 4217 code; minor digits follow ISO 4217 unless given.
    /// - Throws: ``CurrencyError`` when the code is not three letters or the digits are outside 0…4.
    public init(code: String, minorDigits: Int? = nil) throws(CurrencyError) {
        let upper = code.trimmingWhitespace().uppercased()
        guard upper.count == 3, upper.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
            throw .invalidCode(code)
        }
        let digits = minorDigits ?? Self.nonDecimalDigits[upper] ?? 2
        guard (0...4).contains(digits) else { throw .invalidDigits(digits) }
        self.code = upper
        self.minorDigits = digits
    }

    public static let usd = try! Currency(code: "USD")

    public var description: String { code }

    /// How many minor units make one major unit (100 for two digits).
    public var scale: Int64 {
        var result: Int64 = 1
        for _ in 0..<minorDigits { result *= 10 }
        return result
    }

    /// The amount as a plain decimal string with exactly ``minorDigits`` decimals: `"1234.50"`, `"-0.05"`.
    /// No grouping separators and no symbol, so that the string reads back with ``parse(_:decimalSeparator:)``.
    public func format(_ money: Money) -> String {
        let magnitude = money.minorUnits.magnitude  // UInt64: Int64.min has a magnitude too
        let scale = UInt64(self.scale)
        let whole = magnitude / scale
        let sign = money.minorUnits < 0 ? "-" : ""
        guard minorDigits > 0 else { return "\(sign)\(whole)" }
        let fraction = String(magnitude % scale)
        let padded = String(repeating: "0", count: minorDigits - fraction.count) + fraction
        return "\(sign)\(whole).\(padded)"
    }

    /// Parses a decimal amount strictly: an optional sign, digits, and at most ``minorDigits`` decimals.
    ///
    /// `"50"`, `"50.0"` and `"50.00"` are all fifty (never 5000); `"12.345"` (too many decimals),
    /// `"1,2,3"`, `"1e5"`, `"abc"` and `""` are refused. Grouping separators are refused rather than
    /// guessed. With `decimalSeparator: ","` the amount is read as spreadsheets in many locales export it (`"12,50"`).
    /// - Throws: ``MoneyError`` saying what is wrong with the text.
    public func parse(_ text: String, decimalSeparator: Character = ".") throws(MoneyError) -> Money {
        // Foundation's trim scans every amount of an import; most have nothing to trim.
        func isSpace(_ scalar: Unicode.Scalar?) -> Bool { scalar?.properties.isWhitespace ?? false }
        let spaced = isSpace(text.unicodeScalars.first) || isSpace(text.unicodeScalars.last)
        var scalars = Substring(spaced ? text.trimmingWhitespace() : text)
        guard !scalars.isEmpty else { throw .malformed(text, reason: "it is empty") }
        var negative = false
        if let first = scalars.first, first == "-" || first == "+" {
            negative = first == "-"
            scalars = scalars.dropFirst()
        }
        let parts = scalars.split(separator: decimalSeparator, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count <= 2 else {
            throw .malformed(text, reason: "it has more than one decimal separator")
        }
        let wholePart = parts[0]
        let fractionPart = parts.count == 2 ? parts[1] : ""
        func isDigits(_ s: Substring) -> Bool { s.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
        guard !wholePart.isEmpty, isDigits(wholePart) else {
            throw .malformed(
                text,
                reason:
                    "use digits with an optional \(decimalSeparator == "." ? "decimal point" : "decimal comma"), like 1234\(decimalSeparator)50"
            )
        }
        if parts.count == 2 {
            guard !fractionPart.isEmpty, isDigits(fractionPart) else {
                throw .malformed(
                    text,
                    reason:
                        "use digits with an optional \(decimalSeparator == "." ? "decimal point" : "decimal comma"), like 1234\(decimalSeparator)50"
                )
            }
            guard fractionPart.count <= minorDigits else {
                throw .malformed(
                    text,
                    reason: minorDigits == 0
                        ? "\(code) amounts have no decimals"
                        : "\(code) amounts have at most \(minorDigits) decimal places"
                )
            }
        }
        let padded = String(fractionPart) + String(repeating: "0", count: minorDigits - fractionPart.count)
        // Accumulate as negative numbers so that Int64.min itself parses.
        var value: Int64 = 0
        for scalar in (String(wholePart) + padded).unicodeScalars {
            let digit = Int64(scalar.value - 48)
            let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = shifted.subtractingReportingOverflow(digit)
            if o1 || o2 { throw .overflow(text) }
            value = next
        }
        if negative { return Money(minorUnits: value) }
        let (positive, overflow) = Int64(0).subtractingReportingOverflow(value)
        if overflow { throw .overflow(text) }
        return Money(minorUnits: positive)
    }
}

/// A currency that cannot be used.
public enum CurrencyError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidCode(String)
    case invalidDigits(Int)

    public var description: String {
        switch self {
        case .invalidCode(let code):
            return "\"\(code)\" is not a currency code: use the three letters of ISO 4217, like USD or EUR."
        case .invalidDigits(let digits):
            return "A currency has 0 to 4 minor digits, not \(digits)."
        }
    }
}
