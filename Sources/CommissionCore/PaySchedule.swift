/// How often a clinic pays, which decides its pay periods.
///
/// Every day falls in exactly one period of a schedule, and a schedule's periods tile the calendar
/// without gaps or overlaps.
public enum PaySchedule: PayPeriods, Sendable, Hashable, CustomStringConvertible {
    /// Seven-day periods starting on the given weekday.
    case weekly(startingOn: Weekday)
    /// Fourteen-day periods, one of which starts on the anchor date (periods run before it too).
    case biweekly(anchor: Day)
    /// The 1st to the 15th, and the 16th to the end of the month.
    case semimonthly
    /// Calendar months.
    case monthly

    /// The period that contains `day`.
    public func period(containing day: Day) -> PayPeriod {
        switch self {
        case .weekly(let weekday):
            let back = (day.weekday.rawValue - weekday.rawValue + 7) % 7
            let start = day.adding(days: -back)
            return PayPeriod(start: start, end: start.adding(days: 6))
        case .biweekly(let anchor):
            let offset = anchor.days(to: day)
            let index = offset >= 0 ? offset / 14 : -((-offset + 13) / 14)
            let start = anchor.adding(days: index * 14)
            return PayPeriod(start: start, end: start.adding(days: 13))
        case .semimonthly:
            if day.day <= 15 {
                return PayPeriod(start: day.firstOfMonth, end: day.firstOfMonth.adding(days: 14))
            }
            return PayPeriod(start: day.firstOfMonth.adding(days: 15), end: day.lastOfMonth)
        case .monthly:
            return PayPeriod(start: day.firstOfMonth, end: day.lastOfMonth)
        }
    }

    /// `weekly:monday`, `biweekly:2026-01-05`, `semimonthly`, `monthly`: the form ``init(parsing:)`` reads.
    public var description: String {
        switch self {
        case .weekly(let weekday): "weekly:\(weekday)"
        case .biweekly(let anchor): "biweekly:\(anchor)"
        case .semimonthly: "semimonthly"
        case .monthly: "monthly"
        }
    }

    /// The schedule's kind alone: `weekly`, `biweekly`, `semimonthly`, `monthly`.
    public var kind: String {
        switch self {
        case .weekly: "weekly"
        case .biweekly: "biweekly"
        case .semimonthly: "semimonthly"
        case .monthly: "monthly"
        }
    }

    /// The schedule's anchor as text: a weekday for weekly, a date for biweekly, nil otherwise.
    public var anchor: String? {
        switch self {
        case .weekly(let weekday): weekday.description
        case .biweekly(let anchor): anchor.description
        case .semimonthly, .monthly: nil
        }
    }

    /// Builds a schedule from its kind and anchor, as stored in a database.
    public init(kind: String, anchor: String?) throws(PayScheduleError) {
        switch (kind.lowercased(), anchor) {
        case ("weekly", let name?):
            guard let weekday = Weekday(name: name) else { throw .badAnchor(kind: "weekly", anchor: name) }
            self = .weekly(startingOn: weekday)
        case ("biweekly", let text?):
            // try?: an unreadable anchor is thrown just after, as badAnchor naming it
            guard let day = try? Day(parsing: text) else { throw .badAnchor(kind: "biweekly", anchor: text) }
            self = .biweekly(anchor: day)
        case ("weekly", nil), ("biweekly", nil):
            throw .missingAnchor(kind.lowercased())
        case ("semimonthly", _), ("semi-monthly", _), ("twice-monthly", _):
            self = .semimonthly
        case ("monthly", _):
            self = .monthly
        default:
            throw .unknown(kind)
        }
    }

    /// Reads `weekly:monday`, `biweekly:2026-01-05`, `semimonthly` or `monthly`.
    public init(parsing text: String) throws(PayScheduleError) {
        let parts = text.trimmingWhitespace().split(separator: ":", maxSplits: 1)
        guard let kind = parts.first else { throw .unknown(text) }
        try self.init(kind: String(kind), anchor: parts.count == 2 ? String(parts[1]) : nil)
    }
}

public enum PayScheduleError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknown(String)
    case missingAnchor(String)
    case badAnchor(kind: String, anchor: String)

    public var description: String {
        switch self {
        case .unknown(let text):
            return "\"\(text)\" is not a pay schedule: use weekly:monday, biweekly:2026-01-05, semimonthly or monthly."
        case .missingAnchor("weekly"):
            return "A weekly schedule needs the weekday its periods start on, like weekly:monday."
        case .missingAnchor:
            return "A biweekly schedule needs the date one of its periods starts on, like biweekly:2026-01-05."
        case .badAnchor(let kind, let anchor):
            return kind == "weekly"
                ? "\"\(anchor)\" is not a weekday: write weekly:monday (or tue, wed…)."
                : "\"\(anchor)\" is not a date: write biweekly:YYYY-MM-DD, the first day of one period."
        }
    }
}

/// Pay periods that tile the calendar: a schedule, or a clinic's schedules over time
/// (``PayCalendar``). Each gives the period that holds a day; the rest follows.
public protocol PayPeriods {
    /// The period that contains `day`.
    func period(containing day: Day) -> PayPeriod
}

extension PayPeriods {
    /// The period that follows `period`.
    public func period(after period: PayPeriod) -> PayPeriod { self.period(containing: period.end.adding(days: 1)) }

    /// The period that precedes `period`.
    public func period(before period: PayPeriod) -> PayPeriod { self.period(containing: period.start.adding(days: -1)) }

    /// The periods that overlap `first...last`, in order.
    public func periods(from first: Day, through last: Day) -> [PayPeriod] {
        guard first <= last else { return [] }
        var result = [period(containing: first)]
        while let current = result.last, current.end < last {
            result.append(period(after: current))
        }
        return result
    }

    /// Whether `period` is one of these periods, exactly.
    public func isPeriod(_ period: PayPeriod) -> Bool { self.period(containing: period.start) == period }
}

/// One pay period of a clinic: the days from `start` through `end`, both included.
public struct PayPeriod: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let start: Day
    public let end: Day

    public init(start: Day, end: Day) {
        self.start = start
        self.end = end
    }

    public func contains(_ day: Day) -> Bool { start <= day && day <= end }

    public var dayCount: Int { start.days(to: end) + 1 }

    public static func < (lhs: PayPeriod, rhs: PayPeriod) -> Bool { lhs.start < rhs.start }

    /// `2026-03-01…2026-03-15`.
    public var description: String { "\(start)…\(end)" }
}
