import Foundation

/// How a locale writes amounts and dates: what the book's pages show her, and how they read what
/// she types.
///
/// The separators, the currency's symbol and where it goes, the order of a date's fields and the
/// month names are read once from Foundation's locale data, as strings; amounts are then written
/// from their integer minor units and read into them, never through a floating-point number.
public struct LocaleStyle: Sendable, Hashable {
    /// The locale's identifier (`de_DE`).
    public let identifier: String
    public let currency: Currency
    public let decimalSeparator: Character
    public let groupingSeparator: Character
    public let currencySymbol: String
    /// True when the symbol comes before the number (`$1.00`), false after it (`1,00 €`).
    public let symbolFirst: Bool
    /// True when a space separates the symbol from the number.
    public let symbolSpaced: Bool
    /// The day, month and year fields in the locale's order, and what separates them.
    public let dateFields: [DateField]
    public let dateSeparator: String
    /// Abbreviated month names, January first.
    public let shortMonths: [String]

    public enum DateField: Sendable, Hashable { case day, month, year }

    /// The locales a book offers, each with how it calls itself.
    public static let common: [(identifier: String, name: String)] = [
        ("en_US", "English (United States)"), ("en_GB", "English (United Kingdom)"), ("en_IE", "English (Ireland)"),
        ("en_AU", "English (Australia)"), ("en_CA", "English (Canada)"), ("de_DE", "Deutsch (Deutschland)"),
        ("de_AT", "Deutsch (Österreich)"), ("de_CH", "Deutsch (Schweiz)"), ("fr_FR", "Français (France)"),
        ("fr_CH", "Français (Suisse)"), ("fr_CA", "Français (Canada)"), ("es_ES", "Español (España)"),
        ("es_MX", "Español (México)"),
        ("it_IT", "Italiano (Italia)"), ("nl_NL", "Nederlands (Nederland)"), ("pt_PT", "Português (Portugal)"),
        ("pt_BR", "Português (Brasil)"), ("sv_SE", "Svenska (Sverige)"), ("da_DK", "Dansk (Danmark)"),
        ("nb_NO", "Norsk bokmål (Norge)"),
        ("fi_FI", "Suomi (Suomi)"), ("pl_PL", "Polski (Polska)"), ("ja_JP", "日本語 (日本)"),
    ]

    /// Whether Foundation knows this locale identifier (`de_DE`, `en-GB` is read as `en_GB`).
    public static func isKnown(_ identifier: String) -> Bool {
        let normalized = identifier.replacingOccurrences(of: "-", with: "_")
        return common.contains { $0.identifier == normalized } || Locale.availableIdentifiers.contains(normalized)
    }

    public init(identifier: String, currency: Currency) {
        let normalized = identifier.replacingOccurrences(of: "-", with: "_")
        let locale = Locale(identifier: normalized)
        self.identifier = normalized
        self.currency = currency
        let numbers = NumberFormatter()
        numbers.locale = locale
        numbers.numberStyle = .currency
        numbers.currencyCode = currency.code
        decimalSeparator = numbers.currencyDecimalSeparator.flatMap(\.first) ?? "."
        groupingSeparator = numbers.currencyGroupingSeparator.flatMap(\.first) ?? ","
        currencySymbol = numbers.currencySymbol ?? currency.code
        // The pattern says where the symbol (¤) goes: "¤#,##0.00", "#,##0.00 ¤", "¤ #,##0.00".
        let pattern = numbers.positiveFormat ?? "¤#,##0.00"
        let symbolIndex = pattern.firstIndex(of: "¤")
        let numberIndex = pattern.firstIndex { $0 == "#" || $0 == "0" }
        symbolFirst = symbolIndex.map { symbol in numberIndex.map { symbol < $0 } ?? true } ?? true
        symbolSpaced = pattern.unicodeScalars.contains { $0.properties.isWhitespace }
        // The date's fields in order, from the locale's pattern for day, month and year ("dd.MM.yyyy").
        let datePattern = DateFormatter.dateFormat(fromTemplate: "ddMMyyyy", options: 0, locale: locale) ?? "yyyy-MM-dd"
        var fields: [DateField] = [], separator = ""
        for character in datePattern {
            let field: DateField? =
                switch character {
                case "d": .day
                case "M": .month
                case "y": .year
                default: nil
                }
            if let field {
                if fields.last != field { fields.append(field) }
            } else if fields.count == 1 {
                separator.append(character)  // what stands between the first field and the second
            }
        }
        let complete = Set(fields) == [.day, .month, .year] && fields.count == 3
        dateFields = complete ? fields : [.year, .month, .day]
        dateSeparator = complete && !separator.isEmpty ? separator : "-"
        // The pages speak English: a month is named in English whatever her locale's order of a
        // date's fields and its separators (a German book's page says "1. Oct", not "1. Okt.").
        let months = DateFormatter()
        months.locale = Locale(identifier: "en_US_POSIX")
        shortMonths =
            months.shortStandaloneMonthSymbols.count == 12
            ? months.shortStandaloneMonthSymbols : months.shortMonthSymbols
    }

    // MARK: Amounts

    /// The amount as she reads it: `$1,234.50`, `1.234,50 €`, `−€19.80` (a real minus, U+2212,
    /// which ``parse(_:)`` reads back as it reads `-`).
    public func format(_ money: Money) -> String {
        let number = formatNumber(money.minorUnits.magnitude)
        let sign = money.minorUnits < 0 ? "\u{2212}" : ""
        let space = symbolSpaced ? "\u{00A0}" : ""
        return symbolFirst ? "\(sign)\(currencySymbol)\(space)\(number)" : "\(sign)\(number)\(space)\(currencySymbol)"
    }

    /// A difference, signed either way with typographic signs: `+$5.00`, `−$5.00` (a real minus,
    /// U+2212, as a page shows it), `$0.00`.
    public func formatSigned(_ money: Money) -> String {
        let magnitude = format(money.magnitudeOrSelf)
        return money.isZero ? magnitude : money.isNegative ? "\u{2212}\(magnitude)" : "+\(magnitude)"
    }

    /// A whole number of major units with the sign of the currency, for a chart's axis (`$1,200`).
    public func formatWhole(_ majorUnits: Int64) -> String {
        let number =
            formatNumber(majorUnits.magnitude * UInt64(currency.scale)).split(separator: decimalSeparator).first.map(
                String.init
            ) ?? "0"
        let sign = majorUnits < 0 ? "\u{2212}" : ""
        let space = symbolSpaced ? "\u{00A0}" : ""
        return symbolFirst ? "\(sign)\(currencySymbol)\(space)\(number)" : "\(sign)\(number)\(space)\(currencySymbol)"
    }

    /// The amount for a field she types in: no symbol, no grouping, her decimal separator (`1234,50`).
    public func formatInput(_ money: Money) -> String {
        let plain = currency.format(money)
        return decimalSeparator == "." ? plain : plain.replacingOccurrences(of: ".", with: String(decimalSeparator))
    }

    /// A count as she reads it, grouped by her locale: `1,039`, `1.039`.
    public func formatCount(_ count: Int) -> String {
        var whole = String(count.magnitude)
        var grouped = ""
        while whole.count > 3 {
            grouped = String(groupingSeparator) + whole.suffix(3) + grouped
            whole.removeLast(3)
        }
        return (count < 0 ? "\u{2212}" : "") + whole + grouped
    }

    private func formatNumber(_ magnitude: UInt64) -> String {
        let scale = UInt64(currency.scale)
        var whole = String(magnitude / scale)
        var grouped = ""
        while whole.count > 3 {
            grouped = String(groupingSeparator) + whole.suffix(3) + grouped
            whole.removeLast(3)
        }
        grouped = whole + grouped
        guard currency.minorDigits > 0 else { return grouped }
        let fraction = String(magnitude % scale)
        return grouped + String(decimalSeparator) + String(repeating: "0", count: currency.minorDigits - fraction.count)
            + fraction
    }

    /// Reads an amount as she may type it: with a decimal comma or point (`1,50` and `1.50`), with
    /// grouping (`1,234.50`, `1.234,50`, `1 234,50`, `1'234.50`), with or without the currency's
    /// symbol or code. A single separator followed by exactly three digits is grouping when it is
    /// the locale's grouping separator (`1,500` in English is fifteen hundred) and refused as
    /// ambiguous otherwise; followed by fewer digits it is the decimal separator.
    /// - Throws: ``MoneyError`` saying what is wrong.
    public func parse(_ text: String) throws(MoneyError) -> Money {
        var body = text.trimmingWhitespace()
        for mark in [currencySymbol, currency.code] where !mark.isEmpty {
            if body.hasPrefix(mark) {
                body = String(body.dropFirst(mark.count))
            } else if body.hasSuffix(mark) {
                body = String(body.dropLast(mark.count))
            }
        }
        body = body.trimmingWhitespace()
        var negative = false
        if let first = body.first, first == "-" || first == "−" {
            negative = true
            body = String(body.dropFirst()).trimmingWhitespace()
            for mark in [currencySymbol, currency.code] where !mark.isEmpty && body.hasPrefix(mark) {
                body = String(body.dropFirst(mark.count)).trimmingWhitespace()
            }
        }
        let spaces: Set<Character> = [" ", "\u{00A0}", "\u{202F}", "'", "’"]
        let separators = body.enumerated().filter {
            $0.element == "." || $0.element == "," || spaces.contains($0.element)
        }
        var decimalAt: Int?
        if let last = separators.last, last.element == "." || last.element == "," {
            let digitsAfter = body.count - last.offset - 1
            let sameKind = separators.filter { $0.element == last.element }.count
            let otherKinds = separators.contains { $0.element != last.element }
            if otherKinds {
                decimalAt = last.offset  // 1.234,50 / 1,234.50 / 1 234,50: the last one is the decimal separator
            } else if sameKind > 1 {
                decimalAt = nil  // 1,234,567: grouping only
            } else if digitsAfter == 3 && currency.minorDigits < 3 {
                guard last.element == groupingSeparator || currency.minorDigits == 0 else {
                    throw .malformed(
                        text,
                        reason:
                            "it could be \(body.replacingOccurrences(of: String(last.element), with: "")) or a decimal amount: write it without grouping, like 1500 or 1500\(decimalSeparator)00"
                    )
                }
                decimalAt = nil
            } else {
                decimalAt = last.offset
            }
        }
        // The whole part's groups, if grouped, are of three digits after the first.
        let characters = Array(body)
        let wholeEnd = decimalAt ?? characters.count
        let groups = String(characters[..<wholeEnd]).split(omittingEmptySubsequences: false) {
            $0 == "." || $0 == "," || spaces.contains($0)
        }
        if groups.count > 1 {
            guard (1...3).contains(groups[0].count), groups.dropFirst().allSatisfy({ $0.count == 3 }) else {
                throw .malformed(
                    text,
                    reason: "its digit groups are not of three, like 1,234,567\(decimalSeparator == "," ? "" : ".00")"
                )
            }
        }
        var canonical = (negative ? "-" : "") + groups.joined()
        if let decimalAt { canonical += "." + String(characters[(decimalAt + 1)...]) }
        do {
            return try currency.parse(canonical)
        } catch .overflow {
            throw .overflow(text)
        } catch {
            throw .malformed(
                text,
                reason:
                    "use digits with a decimal \(decimalSeparator == "," ? "comma" : "point"), like 1234\(decimalSeparator)50"
            )
        }
    }

    // MARK: Dates

    /// The day as she writes it: `11/23/2026`, `23.11.2026`, `2026-11-23`.
    public func format(_ day: Day) -> String {
        dateFields.map { field -> String in
            switch field {
            case .day: return day.day < 10 ? "0\(day.day)" : "\(day.day)"
            case .month: return day.month < 10 ? "0\(day.month)" : "\(day.month)"
            case .year: return String(day.year)
            }
        }.joined(separator: dateSeparator)
    }

    /// A month's short name, in the pages' language (`Nov`).
    public func monthName(_ month: Int) -> String {
        shortMonths.indices.contains(month - 1) ? shortMonths[month - 1] : String(month)
    }

    /// A day in few words, for a list within one period: `Nov 2` (`2. Nov` where the day comes first).
    public func formatShort(_ day: Day) -> String {
        let monthFirst = dateFields.first(where: { $0 != .year }) == .month
        return monthFirst
            ? "\(monthName(day.month)) \(day.day)"
            : "\(day.day)\(dateSeparator == "." ? "." : "") \(monthName(day.month))"
    }

    /// A pay period as she reads it: `11/01/2026 – 11/30/2026`.
    public func format(_ period: PayPeriod) -> String { "\(format(period.start)) – \(format(period.end))" }

    /// A pay period in few words, for a phone's narrow column: a calendar month by its name
    /// (`Nov 2026`), a part of one by its days (`Nov 1–15, 2026`; `1.–15. Nov. 2026` where the day
    /// comes first), a period across two months by both (`Oct 27 – Nov 9, 2026`); across two
    /// years, in full (`11/01/2026 – 11/30/2026`).
    public func formatShort(_ period: PayPeriod) -> String {
        let (start, end) = (period.start, period.end)
        guard start.year == end.year else { return format(period) }
        let monthFirst = dateFields.first(where: { $0 != .year }) == .month
        let dot = dateSeparator == "." ? "." : ""
        if start.month == end.month {
            if start.day == 1 && end == end.lastOfMonth { return "\(monthName(start.month)) \(start.year)" }
            return monthFirst
                ? "\(monthName(start.month)) \(start.day)–\(end.day), \(start.year)"
                : "\(start.day)\(dot)–\(end.day)\(dot) \(monthName(start.month)) \(start.year)"
        }
        return monthFirst
            ? "\(monthName(start.month)) \(start.day) – \(monthName(end.month)) \(end.day), \(start.year)"
            : "\(start.day)\(dot) \(monthName(start.month)) – \(end.day)\(dot) \(monthName(end.month)) \(start.year)"
    }
}
