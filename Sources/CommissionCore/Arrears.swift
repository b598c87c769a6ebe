/// What a clinic owes her now, and how much of it is overdue: the figure her dashboard leads with.
///
/// **Owed** is every pay period through the current one, net of what the clinic paid for them
/// (negative when it paid more). A period is **due** once it has ended and the clinic's usual time
/// to pay has passed (``dueAfterDays``: the median days from a period's end to the payout, over its
/// latest payouts; ``defaultDueAfterDays`` before it has paid anything); **overdue** is what the
/// due periods still lack, net — never negative. A missed payment therefore shows on the first
/// screen, not only on the payouts page.
public struct Arrears: Sendable, Hashable {
    public var owed: Money
    public var overdue: Money
    public var dueAfterDays: Int

    /// How long a clinic is given before it has paid anything.
    public static let defaultDueAfterDays = 14
    /// How many of a clinic's latest payouts its usual time to pay is taken from.
    public static let lagSample = 12

    public init(owed: Money, overdue: Money, dueAfterDays: Int) {
        self.owed = owed
        self.overdue = overdue
        self.dueAfterDays = dueAfterDays
    }

    /// The usual days from a period's end to its payout: the median of `lags` (the lower middle of
    /// an even count), never below 1; ``defaultDueAfterDays`` when there are none.
    public static func usualLag(_ lags: [Int]) -> Int {
        guard !lags.isEmpty else { return defaultDueAfterDays }
        let sorted = lags.sorted()
        return max(1, sorted[(sorted.count - 1) / 2])
    }

    /// The first day of the periods not yet due on `today`: the period that holds
    /// `today − dueAfterDays` ends on or after it, so it and every later period are not due.
    /// Whether `period` is overdue on `today`: it still lacks something, has ended, and its usual
    /// time to pay has run out (it starts before `notDue`, ``notDueFrom(_:today:dueAfterDays:)``).
    public static func isOverdue(_ period: PeriodReconciliation, today: Day, notDue: Day) -> Bool {
        period.difference.isPositive && period.period.end < today && period.period.start < notDue
    }

    public static func notDueFrom(_ calendar: PayCalendar, today: Day, dueAfterDays: Int) -> Day {
        calendar.period(containing: today.adding(days: -dueAfterDays)).start
    }

    /// From sums, when every period's expected figure is the sum of its lines (rounding per line):
    /// `expected` and `received` cover every period through the current one, the `…NotDue` ones
    /// the periods from ``notDueFrom(_:today:dueAfterDays:)`` on.
    /// - Throws: ``MoneyError/overflow(_:)`` when a difference does not fit.
    public init(
        expected: Money,
        received: Money,
        expectedNotDue: Money,
        receivedNotDue: Money,
        dueAfterDays: Int
    ) throws {
        let owed = try expected.subtracting(received)
        let notDue = try expectedNotDue.subtracting(receivedNotDue)
        let overdue = try owed.subtracting(notDue)
        self.init(owed: owed, overdue: overdue.isNegative ? .zero : overdue, dueAfterDays: dueAfterDays)
    }

    /// From a reconciliation, period by period (any rounding): owed is its balance, overdue the
    /// running balance after the last due period.
    public init(_ reconciliation: Reconciliation, today: Day, dueAfterDays: Int) {
        let cutoff = today.adding(days: -dueAfterDays)
        let due = reconciliation.periods.last { $0.period.end < cutoff }?.balance ?? .zero
        self.init(owed: reconciliation.balance, overdue: due.isNegative ? .zero : due, dueAfterDays: dueAfterDays)
    }
}
