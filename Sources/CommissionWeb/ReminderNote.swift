import CommissionCore
import Foundation

/// "Remind Glow": a short, polite note in her voice about what a clinic has not paid — one
/// overdue period (a row of Payouts) or all of them (a clinic's page) — with each period, what it
/// owes and by when it was due. The page hands it to her phone's share sheet (the Web Share API,
/// each period's statement attached as a CSV where the browser can share files) or, where there
/// is none, opens it as an e-mail draft (`mailto:`). The server sends nothing.
package struct ReminderNote: Sendable, TemplateValues {
    package let subject: String
    package let body: String
    /// Each period's statement as CSV, to attach: the pages' own links, space-separated.
    package let files: String
    /// The note as an e-mail draft her mail app opens written (she chooses whom to send it to).
    let mailto: String

    /// The note as written, its e-mail draft made of it.
    package init(subject: String, body: String, files: String) {
        (self.subject, self.body, self.files) = (subject, body, files)
        // Line breaks as CRLF in a mailto: URL (RFC 6068 §5).
        let encode = { (text: String) in
            text.replacingOccurrences(of: "\n", with: "\r\n").addingPercentEncoding(
                withAllowedCharacters: .alphanumerics
            ) ?? ""
        }
        mailto = "mailto:?subject=\(encode(subject))&body=\(encode(body))"
    }

    /// The note about `overdue` (oldest first), each due `dueAfterDays` after its end; nil when
    /// nothing is.
    package init?(to clinic: Clinic, overdue: [PeriodReconciliation], dueAfterDays: Int, style: LocaleStyle) {
        guard let first = overdue.first else { return nil }
        let dueBy = { (p: PeriodReconciliation) in style.format(p.period.end.adding(days: dueAfterDays)) }
        let subject: String
        let body: String
        let owes = { (p: PeriodReconciliation) in
            p.received.isZero
                ? style.format(p.difference) : "\(style.format(p.difference)) of \(style.format(p.expected))"
        }
        if overdue.count == 1 {
            let period = style.format(first.period)
            subject = "Commission for \(period)"
            let owed =
                first.received.isZero
                ? "My commission for \(period), \(style.format(first.difference)), has"
                : "Of my commission for \(period), \(owes(first)) has"
            body = """
                Hello,

                \(owed) not reached me yet; it was due by \(dueBy(first)). Could you let me know when it will be paid?

                Thank you.
                """
        } else {
            subject = "Commission for \(overdue.count) periods, from \(style.format(first.period.start))"
            // The oldest few line by line; the rest in one line (a note of years is still a note).
            var lines = overdue.prefix(Self.periodsListed).map {
                "- \(style.format($0.period)): \(owes($0)), due by \(dueBy($0))"
            }
            let rest = overdue.dropFirst(Self.periodsListed)
            if let from = rest.first, let to = rest.last {
                // try?: a sum too large to work out is left unsaid; the periods are still named
                let owed = (try? rest.reduce(Money.zero) { try $0.adding($1.difference) }).map {
                    ": \(style.format($0))"
                }
                lines.append(
                    "- and \(rest.count) later period\(rest.count == 1 ? "" : "s"), \(style.format(from.period.start)) to \(style.format(to.period.end))\(owed ?? "")"
                )
            }
            // try?: a sum too large to work out is left unsaid; each period still says what it owes
            let total = try? overdue.reduce(Money.zero) { try $0.adding($1.difference) }
            body = """
                Hello,

                My commission for these periods has not reached me yet:
                \(lines.joined(separator: "\n"))
                \(total.map { "That is \(style.format($0)) in all. " } ?? "")Could you let me know when it will be paid?

                Thank you.
                """
        }
        let files = overdue.prefix(Self.periodsListed).map {
            "/statements.csv?clinic=\(clinic.id)&date=\($0.period.start)"
        }.joined(separator: " ")
        self.init(subject: subject, body: body, files: files)
    }

    /// How many periods a note lists line by line (and attaches); later ones are said in one line.
    static let periodsListed = 4
}
