import CommissionCore

/// The question a new book asks once about the history she brought into it: were the pay periods
/// that ended before the book was set up paid? Until she answers, their unpaid balances are
/// *unconfirmed* — shown apart, never as Overdue — so that two months of imported sales do not
/// light every clinic red on her first day. "Mark all paid up to …" records a payout for each
/// (``UnconfirmedHistory/payouts(through:today:)``); "I'll record them" closes the question, and
/// they are what the rules say they are (Overdue past a clinic's usual day) from then on.
///
/// The web app's first visit, which sets her book up, opens the question on that day (its pages are
/// where Overdue is shown and the question answered); a book made otherwise (`commission init`, a
/// test, the sample, a restore) asks nothing.
public protocol HistoryQuestionStore: Sendable {
    /// The day the book was set up while its question is open — periods that ended before it and
    /// are unpaid are unconfirmed — or nil (no question, or answered).
    func historyQuestion() async throws -> Day?
    /// Opens the question on `day`, or closes it (nil).
    func setHistoryQuestion(_ day: Day?) async throws
}

/// What of her history she has not said was paid, while the book's question is open: each
/// clinic's unpaid periods that ended before the book was set up, and the part of what it owes
/// past its usual day that they make (shown as Unconfirmed, the rest as Overdue).
public struct UnconfirmedHistory: Sendable, Hashable {
    /// The day the book was set up: the periods ended before it are asked about.
    public var before: Day
    /// Each clinic's unpaid periods ended before ``before`` (what they lack is `difference`).
    public var periods: [Clinic.ID: [PeriodReconciliation]] = [:]
    /// Each clinic's unconfirmed part of its overdue figure (never more than it).
    public var amounts: [Clinic.ID: Money] = [:]

    public init(before: Day, periods: [Clinic.ID: [PeriodReconciliation]] = [:], amounts: [Clinic.ID: Money] = [:]) {
        (self.before, self.periods, self.amounts) = (before, periods, amounts)
    }

    /// Nothing to ask about.
    public var isEmpty: Bool { amounts.values.allSatisfy(\.isZero) }

    /// The whole amount unconfirmed.
    /// - Throws: `MoneyError.overflow` when it does not fit.
    public func total() throws -> Money { try amounts.values.reduce(Money.zero) { try $0.adding($1) } }

    /// A clinic's unconfirmed part of its overdue figure (zero for one without).
    public func amount(for clinic: Clinic.ID) -> Money { amounts[clinic] ?? .zero }

    /// Whether a period of a clinic is one asked about.
    public func asks(about period: PayPeriod, of clinic: Clinic.ID) -> Bool {
        periods[clinic]?.contains { $0.period == period } ?? false
    }

    /// The history of `standings`' clinics, read from their reconciliations (only for a clinic with
    /// something overdue: the rest have nothing to ask about).
    public static func read(
        from store: any CommissionStore,
        before: Day,
        today: Day,
        standings: [ClinicStanding]
    ) async throws -> UnconfirmedHistory {
        var history = UnconfirmedHistory(before: before)
        for standing in standings where standing.arrears.overdue.isPositive {
            let reconciliation = try await store.reconciliation(clinic: standing.clinic.id, today: today)
            let asked = reconciliation.periods.filter {
                $0.period.end < before && $0.difference.isPositive && !$0.isClosed
            }
            guard !asked.isEmpty else { continue }
            let lacking = try asked.reduce(Money.zero) { try $0.adding($1.difference) }
            history.periods[standing.clinic.id] = asked
            history.amounts[standing.clinic.id] = min(lacking, standing.arrears.overdue)
        }
        return history
    }

    /// The payouts that mark every period asked about that ended on or before `through` paid,
    /// each of what it lacks, received a clinic's default time after its end (never after
    /// `today`): so that her history does not teach a clinic's usual time to pay anything new.
    public func payouts(through: Day, today: Day) -> [PayoutDraft] {
        periods.sorted { $0.key < $1.key }.flatMap { clinic, periods in
            periods.filter { $0.period.end <= through }.map {
                PayoutDraft(
                    clinicID: clinic,
                    period: $0.period,
                    amount: $0.difference,
                    receivedOn: min(today, $0.period.end.adding(days: Arrears.defaultDueAfterDays)),
                    reference: Self.reference
                )
            }
        }
    }

    /// The reference of the payouts she marked paid from her history.
    public static let reference = "Paid before Commission"
}
