import CommissionCore
import CommissionStore
import Foundation

/// Her pay dates as a calendar (RFC 5545), for a feed her phone's calendar subscribes to: for each
/// clinic, the end of each pay period and the day its payment is expected (the clinic's usual
/// time to pay after a period's end, as Payouts counts it), said paid, expected or overdue.
/// All-day events (dates in the book's time zone); each event's UID is stable, per clinic and
/// period, so that a calendar updates an event rather than adding another.
public struct PayDatesCalendar: Sendable {
    /// One clinic's periods, with how they stand.
    public typealias Clinic = ClinicPeriods

    public var clinics: [Clinic]
    public var today: Day
    public var timeZone: String
    public var style: LocaleStyle
    /// The host the UIDs are of (the server's name), so that two servers' events never mix.
    public var host: String
    /// How far back and ahead the feed goes, in days from today.
    public var back = 190, ahead = 70

    public init(clinics: [Clinic], today: Day, timeZone: String, style: LocaleStyle, host: String) {
        (self.clinics, self.today, self.timeZone, self.style, self.host) = (clinics, today, timeZone, style, host)
    }

    /// The feed, lines ended by CRLF and folded at 75 octets.
    public var text: String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Commission//Pay dates//EN", "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH", "X-WR-CALNAME:\(Self.escape("Commission: pay dates"))",
            "X-WR-TIMEZONE:\(Self.escape(timeZone))",
        ]
        let first = today.adding(days: -back), last = today.adding(days: ahead)
        for entry in clinics {
            let calendar = entry.clinic.calendar
            let standing = Dictionary(
                entry.reconciliation.periods.map { ($0.period, $0) },
                uniquingKeysWith: { first, _ in first }
            )
            let notDue = Arrears.notDueFrom(calendar, today: today, dueAfterDays: entry.dueAfterDays)
            var period = calendar.period(containing: first)
            while period.start <= last {
                let name = entry.clinic.name
                let key = "\(entry.clinic.id)-\(period.start)"
                lines += Self.event(
                    uid: "commission-\(key)-end@\(host)",
                    day: period.end,
                    summary: "\(name): pay period ends",
                    description: "The pay period \(style.format(period)) at \(name) ends."
                )
                if let figures = standing[period], !figures.expected.isZero || !figures.received.isZero {
                    let expected = period.end.adding(days: entry.dueAfterDays)
                    // What it says, and its SEQUENCE: a later state of the same event counts higher,
                    // so that a calendar that kept the earlier one takes this one (RFC 5545 §3.8.7.4).
                    let summary: String, sequence: Int
                    if figures.difference.isZero || figures.difference.isNegative {
                        (summary, sequence) = ("Paid: \(name) paid \(style.format(figures.received))", 2)
                    } else if entry.unconfirmed.contains(period) {
                        (summary, sequence) = (
                            "Unconfirmed: \(name), \(style.format(figures.difference)) — was it paid?", 1
                        )
                    } else if Arrears.isOverdue(figures, today: today, notDue: notDue) {
                        (summary, sequence) = ("Overdue: \(name) owes \(style.format(figures.difference))", 1)
                    } else {
                        (summary, sequence) = ("Expected: \(name) pays \(style.format(figures.difference))", 0)
                    }
                    lines += Self.event(
                        uid: "commission-\(key)-pay@\(host)",
                        day: expected,
                        summary: summary,
                        description: "For \(style.format(period)): \(style.format(figures.expected)) expected, "
                            + "\(style.format(figures.received)) paid"
                            + (summary.hasPrefix("Overdue") ? ", past the day it usually pays." : "."),
                        sequence: sequence
                    )
                }
                period = calendar.period(containing: period.end.adding(days: 1))
            }
        }
        lines.append("END:VCALENDAR")
        return lines.map(Self.fold).joined(separator: "\r\n") + "\r\n"
    }

    static func event(uid: String, day: Day, summary: String, description: String, sequence: Int = 0) -> [String] {
        let date = day.description.replacingOccurrences(of: "-", with: "")
        return [
            "BEGIN:VEVENT", "UID:\(escape(uid))",
            // Stable, so that the feed's bytes (and its ETag) change only when what it says does.
            "DTSTAMP:\(date)T000000Z",
            "DTSTART;VALUE=DATE:\(date)",
            "DTEND;VALUE=DATE:\(day.adding(days: 1).description.replacingOccurrences(of: "-", with: ""))",
            "SEQUENCE:\(sequence)", "SUMMARY:\(escape(summary))", "DESCRIPTION:\(escape(description))",
            "TRANSP:TRANSPARENT",
            "END:VEVENT",
        ]
    }

    /// A TEXT value escaped (RFC 5545 §3.3.11).
    package static func escape(_ text: String) -> String {
        var out = ""
        // By scalar: "\r\n" is one Character, which a match on "\n" would miss.
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            case "\r": break
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A content line folded at 75 octets, never inside a UTF-8 sequence (§3.1).
    static func fold(_ line: String) -> String {
        var folded = "", count = 0
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if count + size > 75 {
                folded += "\r\n "
                count = 1
            }
            folded.unicodeScalars.append(scalar)
            count += size
        }
        return folded
    }
}
