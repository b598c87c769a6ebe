import CommissionCore
import CommissionKit
import CommissionStore

/// How money stands, in the one vocabulary every page speaks: each state is one word on a chip of
/// its tone (`chip.mustache`), the same on the dashboard, Payouts, a clinic's page and the year.
///
/// - **This period**: the period running now; due once it ends.
/// - **Due**: a period that has ended, not yet past the day this clinic usually pays.
/// - **Overdue**: past that day (``Arrears``), paid nothing or too little.
/// - **Part-paid**: something paid, less than owed, not yet overdue.
/// - **Credit**: paid more than owed. **Paid**, **Nothing due**, and **Closed** beside any of them.
/// - **Unconfirmed**: unpaid in the history she brought in (ended before the book was set up),
///   while she has not said whether it was paid (`HistoryQuestionStore`): never Overdue.
package struct Chip: Sendable, Hashable, TemplateValues {
    package let word: String
    /// The chip's colour class (`tone-…` in `app.css`): a meaning's token, never the only signal.
    package let tone: String

    package static let thisPeriod = Chip(word: "This period", tone: "running")
    package static let due = Chip(word: "Due", tone: "due")
    package static let overdue = Chip(word: "Overdue", tone: "overdue")
    package static let partPaid = Chip(word: "Part-paid", tone: "due")
    package static let credit = Chip(word: "Credit", tone: "credit")
    package static let paid = Chip(word: "Paid", tone: "paid")
    package static let nothingDue = Chip(word: "Nothing due", tone: "quiet")
    package static let closed = Chip(word: "Closed", tone: "quiet")
    package static let unconfirmed = Chip(word: "Unconfirmed", tone: "quiet")
    /// A set of terms: the one in force today, one from a later day, one a later set replaced.
    package static let inForce = Chip(word: "In force", tone: "paid")
    package static let upcoming = Chip(word: "Upcoming", tone: "running")
    package static let ended = Chip(word: "Ended", tone: "quiet")

    /// A period's chip on `today`, when periods starting on or after `notDue` are not yet due;
    /// `unconfirmed`: it is a period of her history she has not said was paid.
    static func of(_ period: PeriodReconciliation, today: Day, notDue: Day, unconfirmed: Bool = false) -> Chip {
        if period.difference.isNegative { return .credit }
        if unconfirmed && period.difference.isPositive { return .unconfirmed }
        if period.difference.isZero {
            return period.status == .nothingDue ? .nothingDue : period.period.end >= today ? .thisPeriod : .paid
        }
        if period.period.end >= today { return period.received.isZero ? .thisPeriod : .partPaid }
        if period.period.start >= notDue { return period.received.isZero ? .due : .partPaid }
        return .overdue
    }
}

/// A figure beside its chip: `Overdue $291.12`.
package struct ChipFigure: Sendable, Hashable, TemplateValues {
    package let chip: Chip
    package let amount: String
    /// A word after the figure: "$40.00 paid".
    package let note: String?

    package init(_ chip: Chip, _ amount: String, note: String? = nil) {
        (self.chip, self.amount, self.note) = (chip, amount, note)
    }
}

extension ClinicStanding {
    /// What it owes past its usual day that she has not confirmed was not paid (her history's
    /// part, ``UnconfirmedHistory``, is apart): what the pages call Overdue.
    func overdue(_ history: UnconfirmedHistory?) -> Money {
        Presenter.overdue(of: self, history)
    }

    /// What the clinic owes her, in parts that add up to it: unconfirmed (her history's, while
    /// she has not said whether it was paid), overdue, due (ended, not yet past its usual day),
    /// this period (with what it paid of it); or, when it paid beyond, its credit.
    func owedParts(style: LocaleStyle, history: UnconfirmedHistory? = nil) -> [ChipFigure] {
        let owed = arrears.owed
        if owed.isNegative { return [ChipFigure(.credit, style.format(owed.magnitudeOrSelf))] }
        // try?: both parts are at least zero and each within a figure that fits; a sum beyond range is left unsaid
        let unconfirmed = (try? history?.amount(for: clinic.id)) ?? .zero
        // What ended periods owe before their day (less her history's part of it, said apart); when
        // earlier periods were paid beyond what they owed, a credit that the parts must show too, or
        // they would not add up.
        // try?: a due that does not fit (a credit beyond range) is said so on its chip, never shown as a figure
        let due = try? owed.subtracting(arrears.overdue).subtracting(periodBalance)
            .subtracting(history?.duePart(of: clinic.id) ?? .zero)
        let dueFigure: ChipFigure?
        if let due {
            dueFigure =
                due.isZero
                ? nil
                : due.isNegative
                    ? ChipFigure(.credit, style.format(due.magnitudeOrSelf), note: "on ended periods")
                    : ChipFigure(.due, style.format(due))
        } else {
            dueFigure = ChipFigure(.due, "—", note: "too large to work out")
        }
        // This period: what is left of it once paid in part ("$8.00 left of $48.00"), so that the parts add up.
        let running =
            periodBalance.isNegative
            ? ChipFigure(.credit, style.format(periodBalance.magnitudeOrSelf), note: "on this period")
            : ChipFigure(
                .thisPeriod,
                style.format(periodBalance),
                note: periodReceived.isZero ? nil : "left of \(style.format(periodPayable))"
            )
        let overdue = self.overdue(history)
        return [
            unconfirmed.isZero
                ? nil : ChipFigure(.unconfirmed, style.format(unconfirmed), note: "from before Commission"),
            overdue.isZero ? nil : ChipFigure(.overdue, style.format(overdue)),
            dueFigure, running,
        ].compactMap { $0 }
    }
}

/// How a sale is named on a page: `2 × Serum 30ml`; a return (a negative quantity) says so,
/// `Return: 2 × Serum 30ml`, rather than showing a minus before its count.
package enum SaleWords {
    package static func what(_ quantity: Int64, _ product: String) -> String {
        quantity < 0 ? "Return: \(quantity.magnitude) × \(product)" : "\(quantity) × \(product)"
    }

    /// "1 sale", "1,039 sales".
    static func count(_ count: Int, style: LocaleStyle) -> String {
        "\(style.formatCount(count)) sale\(count == 1 ? "" : "s")"
    }
}

extension Chip {
    /// How a set of terms stands on `today` among `all` (a clinic's sets): the latest begun in its
    /// scope (the clinic's own, or one product's) is in force — of two from the same day, the one
    /// entered last, as the ledger takes it (`Terms.inForce`); a set from a later day is upcoming;
    /// an earlier one is ended. `rank` orders them so: in force, upcoming, ended.
    static func of(_ terms: Terms, among all: [Terms], today: Day) -> (rank: Int, chip: Chip) {
        if terms.effectiveFrom > today { return (1, .upcoming) }
        let inForce = all.filter {
            !$0.isArchived && $0.clinicID == terms.clinicID && $0.productID == terms.productID
                && $0.effectiveFrom <= today
        }
        .max { ($0.effectiveFrom, $0.id.rawValue) < ($1.effectiveFrom, $1.id.rawValue) }
        return inForce?.id == terms.id ? (0, .inForce) : (2, .ended)
    }
}

/// The question about her history (`history-question.mustache`), on the dashboard and Payouts:
/// what is unpaid from before she began, and her two answers.
package struct HistoryQuestionView: Sendable, TemplateValues {
    /// "Glow, Praxis Mitte and Haut & Co have 2.345,00 € unpaid from periods that ended before 1 Dec 2026."
    let said: String
    /// The last day "Mark paid" may cover (the day before the book was set up), and its label.
    let through: String, throughLabel: String
    /// Where the answer comes back to: `dashboard` or `payouts`.
    let back: String
    let csrf: String

    init?(_ history: UnconfirmedHistory?, settings: BookSettings, back: String, csrf: String) {
        guard let history, !history.isEmpty else { return nil }
        let style = settings.style
        // try?: a total that does not fit is said so in the question, never shown as a figure
        let total = (try? history.total()).map { style.format($0) } ?? "an amount too large to work out"
        let last = history.before.adding(days: -1)
        let clinics = history.periods.keys.count
        let periods = history.periods.values.reduce(0) { $0 + $1.count }
        said =
            "\(periods) pay period\(periods == 1 ? "" : "s") at \(clinics) clinic\(clinics == 1 ? "" : "s") ended before you began with Commission (\(style.format(history.before))), with \(total) unpaid in your book. Were they paid?"
        through = last.description
        throughLabel = style.format(last)
        self.back = back
        self.csrf = csrf
    }
}
