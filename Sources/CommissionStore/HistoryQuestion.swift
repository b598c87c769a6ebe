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
/// clinic's unpaid periods that ended before the book was set up, and the parts of what it owes
/// that they make — of its overdue figure (past its usual day) and of its due one (ended, not yet
/// past it) — shown as Unconfirmed, never as Overdue or Due: a period's row and its clinic's card
/// say the same word for the same money.
public struct UnconfirmedHistory: Sendable, Hashable {
    /// The day the book was set up: the periods ended before it are asked about.
    public var before: Day
    /// Each clinic's unpaid periods ended before ``before`` (what they lack is `difference`).
    public var periods: [Clinic.ID: [PeriodReconciliation]] = [:]
    /// Each clinic's unconfirmed part of its overdue figure (never more than it).
    public var overdueParts: [Clinic.ID: Money] = [:]
    /// Each clinic's unconfirmed part of what ended periods owe before their usual day (never more
    /// than it): a period of her history that ended just before she began.
    public var dueParts: [Clinic.ID: Money] = [:]

    public init(
        before: Day,
        periods: [Clinic.ID: [PeriodReconciliation]] = [:],
        overdueParts: [Clinic.ID: Money] = [:],
        dueParts: [Clinic.ID: Money] = [:]
    ) {
        (self.before, self.periods, self.overdueParts, self.dueParts) = (before, periods, overdueParts, dueParts)
    }

    /// Nothing to ask about.
    public var isEmpty: Bool { overdueParts.values.allSatisfy(\.isZero) && dueParts.values.allSatisfy(\.isZero) }

    /// The whole amount unconfirmed.
    /// - Throws: `MoneyError.overflow` when it does not fit.
    public func total() throws -> Money {
        try (Array(overdueParts.values) + Array(dueParts.values)).reduce(Money.zero) { try $0.adding($1) }
    }

    /// A clinic's whole unconfirmed amount (zero for one without).
    /// - Throws: `MoneyError.overflow` when it does not fit.
    public func amount(for clinic: Clinic.ID) throws -> Money {
        try overduePart(of: clinic).adding(duePart(of: clinic))
    }

    /// A clinic's unconfirmed part of its overdue figure (zero for one without).
    public func overduePart(of clinic: Clinic.ID) -> Money { overdueParts[clinic] ?? .zero }

    /// A clinic's unconfirmed part of what its ended periods owe before their usual day.
    public func duePart(of clinic: Clinic.ID) -> Money { dueParts[clinic] ?? .zero }

    /// Whether a period of a clinic is one asked about.
    public func asks(about period: PayPeriod, of clinic: Clinic.ID) -> Bool {
        periods[clinic]?.contains { $0.period == period } ?? false
    }

    /// The history of `standings`' clinics, read from their reconciliations (only for a clinic that
    /// is owed something: the rest have nothing to ask about).
    /// - Throws: what the store throws; `MoneyError.overflow` when a sum does not fit.
    public static func read(
        from store: any CommissionStore,
        before: Day,
        today: Day,
        standings: [ClinicStanding]
    ) async throws -> UnconfirmedHistory {
        var history = UnconfirmedHistory(before: before)
        let owed = standings.filter { $0.arrears.owed.isPositive }
        let reconciliations = try await store.reconciliations(clinics: owed.map(\.clinic.id), today: today)
        for (standing, reconciliation) in zip(owed, reconciliations) {
            let asked = reconciliation.periods.filter {
                $0.period.end < before && $0.difference.isPositive && !$0.isClosed
            }
            guard !asked.isEmpty else { continue }
            history.periods[standing.clinic.id] = asked
            // Each asked period lacks its difference, past its usual day (overdue) or not yet (due):
            // the parts are taken out of those figures, never beyond them (a credit elsewhere nets).
            let notDue = Arrears.notDueFrom(
                standing.clinic.calendar,
                today: today,
                dueAfterDays: standing.arrears.dueAfterDays
            )
            var overdueLack = Money.zero, dueLack = Money.zero
            for period in asked {
                if Arrears.isOverdue(period, today: today, notDue: notDue) {
                    overdueLack = try overdueLack.adding(period.difference)
                } else {
                    dueLack = try dueLack.adding(period.difference)
                }
            }
            let due = try standing.arrears.owed.subtracting(standing.arrears.overdue).subtracting(
                standing.periodBalance
            )
            history.overdueParts[standing.clinic.id] = min(overdueLack, standing.arrears.overdue)
            history.dueParts[standing.clinic.id] = max(.zero, min(dueLack, due))
        }
        return history
    }

    /// After `summary`'s import into `store`: when it brought the first sales into her book — her
    /// history, however the book was made (`commission init`, a restore, the first visit) — the
    /// periods of that history are asked about once: the question opens on the day after its last
    /// sale (today at most), unless it is open already. An import into a book that had sales asks
    /// nothing (her weekly sheet never turns a late clinic quiet); a dry run, nothing. The command
    /// line, the page and the API's imports all call it.
    public static func askAfterImport(_ summary: ImportSummary, into store: any CommissionStore) async throws {
        guard !summary.dryRun, summary.sales > 0, let last = summary.lastSaleDate,
            let question = store as? any HistoryQuestionStore, try await question.historyQuestion() == nil,
            try await store.countSales(SaleQuery(includeVoided: true)) == summary.sales
        else { return }
        try await question.setHistoryQuestion(min(try await store.settings().today(), last.adding(days: 1)))
    }

    /// Her history's unpaid periods while the book's question is open and something is unpaid
    /// (nil otherwise: nothing to ask, nothing shown apart), on the dashboard's day.
    public static func asked(of store: any CommissionStore, dashboard: Dashboard) async throws -> UnconfirmedHistory? {
        guard let question = store as? any HistoryQuestionStore, let before = try await question.historyQuestion()
        else { return nil }
        let history = try await read(from: store, before: before, today: dashboard.today, standings: dashboard.clinics)
        return history.isEmpty ? nil : history
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
