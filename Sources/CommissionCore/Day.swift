import Foundation

/// A calendar date in the book's time zone, with no time of day: the day a sale happened.
///
/// Days are proleptic Gregorian and count from 1970-01-01 (``ordinal`` 0), which makes period
/// arithmetic plain integer arithmetic. They read and write as ISO 8601 (`2026-02-28`).
public struct Day: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// - Throws: ``DayError/impossible(_:)`` for a date that does not exist (2026-02-30, 2025-02-29).
    public init(year: Int, month: Int, day: Int) throws(DayError) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Day.daysIn(month: month, year: year)).contains(day)
        else {
            throw .impossible(String(format: "%04d-%02d-%02d", year, month, day))
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day `ordinal` days after 1970-01-01 (negative before). Civil-from-days, after Howard Hinnant.
    public init(ordinal: Int) {
        let z = ordinal + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.month = m
        self.day = d
    }

    /// Days since 1970-01-01. Days-from-civil, after Howard Hinnant.
    public var ordinal: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Parses `YYYY-MM-DD` strictly.
    /// - Throws: ``DayError`` for text that is not such a date, or a date that does not exist.
    public init(parsing text: String) throws(DayError) {
        // The common case, exactly `YYYY-MM-DD`, without splitting into substrings.
        if text.utf8.count == 10 {
            var fields = (0, 0, 0), field = 0, isPlain = true
            for (index, byte) in text.utf8.enumerated() {
                if index == 4 || index == 7 {
                    if byte != 45 {
                        isPlain = false
                        break
                    }
                    field += 1
                } else if (48...57).contains(byte) {
                    let digit = Int(byte - 48)
                    switch field {
                    case 0: fields.0 = fields.0 * 10 + digit
                    case 1: fields.1 = fields.1 * 10 + digit
                    default: fields.2 = fields.2 * 10 + digit
                    }
                } else {
                    isPlain = false
                    break
                }
            }
            if isPlain {
                try self.init(year: fields.0, month: fields.1, day: fields.2)
                return
            }
        }
        let trimmed = text.trimmingWhitespace()
        let parts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else {
            throw .malformed(text)
        }
        try self.init(year: y, month: m, day: d)
    }

    /// The day a moment falls on in a time zone.
    ///
    /// By the zone's offset at that moment, counted in whole days from 1970-01-01 (a `Calendar`
    /// costs every sale recorded some microseconds, and switches to the Julian calendar before 1582).
    /// A moment outside years 1 to 9999 is their first or last day.
    public init(_ date: Date, in timeZone: TimeZone) {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite else {
            self.init(ordinal: 0)
            return
        }
        let local = Int64(max(-1e14, min(1e14, seconds.rounded(.down)))) + Int64(timeZone.secondsFromGMT(for: date))
        let days = Int(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
        self.init(ordinal: min(max(days, Self.ordinals.lowerBound), Self.ordinals.upperBound))
    }

    /// The ordinals of years 1 to 9999: 0001-01-01 to 9999-12-31.
    static let ordinals = -719_162...2_932_896

    public static func < (lhs: Day, rhs: Day) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// `2026-02-28`.
    public var description: String {
        // Written digit by digit: a million-sale import formats a million dates.
        String(unsafeUninitializedCapacity: 10) { buffer in
            func put(_ value: Int, at end: Int, digits: Int) {
                var value = value
                for index in stride(from: end, to: end - digits, by: -1) {
                    buffer[index] = UInt8(truncatingIfNeeded: 48 + value % 10)
                    value /= 10
                }
            }
            put(year, at: 3, digits: 4)
            buffer[4] = 45  // "-"
            put(month, at: 6, digits: 2)
            buffer[7] = 45
            put(day, at: 9, digits: 2)
            return 10
        }
    }

    public func adding(days: Int) -> Day { Day(ordinal: ordinal + days) }

    /// Days from `self` to `other` (positive when `other` is later).
    public func days(to other: Day) -> Int { other.ordinal - ordinal }

    public var weekday: Weekday {
        // 1970-01-01 was a Thursday (ISO weekday 4).
        let iso = ((ordinal % 7) + 7 + 3) % 7 + 1
        return Weekday(rawValue: iso)!
    }

    public var firstOfMonth: Day { Day(uncheckedYear: year, month: month, day: 1) }
    public var lastOfMonth: Day { Day(uncheckedYear: year, month: month, day: Day.daysIn(month: month, year: year)) }
    public var firstOfYear: Day { Day(uncheckedYear: year, month: 1, day: 1) }

    /// The first day of the next month.
    public var firstOfNextMonth: Day { lastOfMonth.adding(days: 1) }

    public static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private init(uncheckedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Reads a date as a store wrote it: `YYYY-MM-DD` as ``init(parsing:)`` reads it, and also the
    /// year 0000 that ``init(ordinal:)`` gives the days just before 0001-01-01 (a period that an
    /// earlier version let start there, before ``AcceptedDays`` bounded what a book takes).
    ///
    /// A function, not an initializer on purpose: a typed-throws initializer that delegated to
    /// `init(parsing:)`, caught its error and threw it again handed its caller a corrupt error
    /// (Swift 6.3.1, seen as a crash describing it).
    public static func reading(stored text: String) -> Day? {
        // try?: not YYYY-MM-DD as init(parsing:) reads it: the year-0000 form is tried next
        if let day = try? Day(parsing: text) { return day }
        let bytes = Array(text.utf8)
        guard bytes.count == 10, text.hasPrefix("0000-"), bytes[7] == 45,
            let month = Int(text.dropFirst(5).prefix(2)), let day = Int(text.suffix(2)),
            (1...12).contains(month), (1...Day.daysIn(month: month, year: 0)).contains(day)
        else { return nil }
        return Day(uncheckedYear: 0, month: month, day: day)
    }

    /// The same day `years` years later (or earlier); 29 February becomes 28 February in a common year.
    public func adding(years: Int) -> Day {
        let year = self.year + years
        return Day(uncheckedYear: year, month: month, day: min(day, Day.daysIn(month: month, year: year)))
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = try Day(parsing: text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

public enum DayError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(String)
    case impossible(String)

    public var description: String {
        switch self {
        case .malformed(let text): return "\"\(text)\" is not a date: write it as YYYY-MM-DD, like 2026-03-02."
        case .impossible(let text): return "\(text) is not a date on the calendar."
        }
    }
}

/// A date outside the days a book takes (``AcceptedDays``); `field` names what it was for.
///
/// An error of its own rather than a case of ``DayError``: a third, larger case there made Swift
/// 6.3.1's typed throws hand callers of `Day(parsing:)` in other modules a corrupt error (crashes
/// replayed by `FuzzRegressionTests`), so ``DayError`` keeps the shape it has always had.
public struct DateOutOfRange: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var day: Day
    public var accepted: AcceptedDays

    public init(field: String, day: Day, accepted: AcceptedDays) {
        self.field = field
        self.day = day
        self.accepted = accepted
    }

    public var description: String {
        let why = day < AcceptedDays.earliest ? "is before \(AcceptedDays.earliest)" : "is more than a year from today"
        return
            "\(field.prefix(1).uppercased() + field.dropFirst()): \(day) \(why); a book takes dates from \(AcceptedDays.earliest) to \(accepted.latest)."
    }
}

/// The dates a book takes: from 1900-01-01 to a year after today (in the book's time zone).
///
/// Every date that enters a book is checked against it — a sale's, terms' effective date, a
/// payout's, a period closed, a biweekly anchor, each row of an import, the API's query
/// parameters — so that a typo (2062 for 2026) is refused with a sentence rather than counted in
/// no figure, and no pay period can leave the calendar that ``Day`` writes.
public struct AcceptedDays: Sendable, Hashable {
    public static let earliest = Day(ordinal: -25_567)  // 1900-01-01
    /// The last day taken: the same date a year after today.
    public let latest: Day

    public init(today: Day) {
        latest = today.adding(years: 1)
    }

    /// The range whose last day is `latest` (as a server said it).
    public init(latest: Day) {
        self.latest = latest
    }

    public func contains(_ day: Day) -> Bool { Self.earliest <= day && day <= latest }

    /// - Throws: ``DateOutOfRange`` naming `field` ("date", "effective from" …).
    public func check(_ day: Day, field: String) throws {
        guard contains(day) else { throw DateOutOfRange(field: field, day: day, accepted: self) }
    }

    /// A period is taken when at least one of its days is (a week that starts on 1899-12-25 holds 1900-01-01).
    /// - Throws: ``DateOutOfRange`` for the period's nearest day when none is.
    public func check(_ period: PayPeriod, field: String) throws {
        guard period.end >= Self.earliest && period.start <= latest else {
            throw DateOutOfRange(
                field: field,
                day: period.end < Self.earliest ? period.end : period.start,
                accepted: self
            )
        }
    }
}

/// A day of the week, numbered as ISO 8601 does (Monday 1 … Sunday 7).
public enum Weekday: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    public var description: String {
        switch self {
        case .monday: "monday"
        case .tuesday: "tuesday"
        case .wednesday: "wednesday"
        case .thursday: "thursday"
        case .friday: "friday"
        case .saturday: "saturday"
        case .sunday: "sunday"
        }
    }

    /// `"monday"`, `"Mon"`, `"MON"`.
    public init?(name: String) {
        let lower = name.trimmingWhitespace().lowercased()
        guard lower.count >= 3,
            let match = Weekday.allCases.first(where: { $0.description.hasPrefix(lower) })
        else { return nil }
        self = match
    }
}
