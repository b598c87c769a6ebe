/// How a pay period stands once payments are compared with what was expected.
public enum ReconciliationStatus: String, Sendable, Hashable, CaseIterable, Codable {
    /// The period has not ended yet.
    case open
    /// Received equals expected (and something was due or paid).
    case settled
    /// Nothing was due and nothing was paid.
    case nothingDue = "nothing-due"
    /// Something was due and nothing has been paid.
    case unpaid
    /// Less was paid than expected.
    case underpaid
    /// More was paid than expected.
    case overpaid

    /// True for the periods that should stand out: money is missing or too much arrived.
    public var needsAttention: Bool { self == .unpaid || self == .underpaid || self == .overpaid }
}

/// One clinic's pay period compared with its payouts.
public struct PeriodReconciliation: Sendable, Hashable {
    public var period: PayPeriod
    /// The commission the period's sales earn.
    public var expected: Money
    public var received: Money
    /// `expected − received`: positive when the clinic still owes her.
    public var difference: Money
    /// The running sum of differences up to and including this period.
    public var balance: Money
    public var status: ReconciliationStatus
    public var isClosed: Bool

    public init(
        period: PayPeriod,
        expected: Money,
        received: Money,
        difference: Money,
        balance: Money,
        status: ReconciliationStatus,
        isClosed: Bool
    ) {
        self.period = period
        self.expected = expected
        self.received = received
        self.difference = difference
        self.balance = balance
        self.status = status
        self.isClosed = isClosed
    }
}

/// A clinic's reconciliation: every period with sales or payouts, in order, with a running balance.
public struct Reconciliation: Sendable, Hashable {
    public var clinic: Clinic
    public var periods: [PeriodReconciliation]
    /// What the clinic owes her over all periods (negative when it paid more).
    public var balance: Money

    /// Builds the reconciliation from each period's expected and received amounts.
    /// - Parameters:
    ///   - clinic: whose periods they are.
    ///   - entries: each period with what it was expected to pay, what it paid, and whether it is closed, in order.
    ///   - today: decides which period is still open.
    public init(
        clinic: Clinic,
        entries: [(period: PayPeriod, expected: Money, received: Money, isClosed: Bool)],
        today: Day
    ) throws(MoneyError) {
        self.clinic = clinic
        var running = Money.zero
        var periods: [PeriodReconciliation] = []
        for entry in entries.sorted(by: { $0.period < $1.period }) {
            let difference = try entry.expected.subtracting(entry.received)
            running = try running.adding(difference)
            periods.append(
                PeriodReconciliation(
                    period: entry.period,
                    expected: entry.expected,
                    received: entry.received,
                    difference: difference,
                    balance: running,
                    status: Self.status(
                        expected: entry.expected,
                        received: entry.received,
                        isOpen: entry.period.end >= today && !entry.isClosed
                    ),
                    isClosed: entry.isClosed
                )
            )
        }
        self.periods = periods
        self.balance = running
    }

    static func status(expected: Money, received: Money, isOpen: Bool) -> ReconciliationStatus {
        if isOpen && received.isZero { return .open }
        if expected == received { return expected.isZero ? .nothingDue : .settled }
        if received.isZero { return .unpaid }
        return received < expected ? .underpaid : .overpaid
    }
}
