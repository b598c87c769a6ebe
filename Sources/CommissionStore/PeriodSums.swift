import CommissionCore

/// A clinic's sums by pay period, fed by a store from its day summary (and, for terms with tiers,
/// from the basis totals of their lines): what each period's net payable, the reconciliation and
/// the dashboard's expected figures are computed from, the same way on every store.
public struct PeriodSums: Sendable {
    public let clinic: Clinic
    public let rounding: RoundingPolicy
    /// The clinic's terms with tiers (archived ones too), and its deductions.
    public let tiered: [Terms]
    public let deductions: [Deduction]
    private var sums: [PayPeriod: Totals.Accumulator] = [:]
    private var sold: [PayPeriod: Int] = [:]
    private var basis: [PayPeriod: [Terms.ID: Money]] = [:]
    private var last: PayPeriod?

    public init(clinic: Clinic, rounding: RoundingPolicy, tiered: [Terms], deductions: [Deduction]) {
        self.clinic = clinic
        self.rounding = rounding
        self.tiered = tiered
        self.deductions = deductions
    }

    /// Whether anything beyond the lines' sums decides what the clinic owes (tiers, deductions):
    /// then each period's net payable needs its own sums, which stores keep (``isKept``).
    public var needsPeriods: Bool { !tiered.isEmpty || !deductions.isEmpty }

    private mutating func period(of day: Day) -> PayPeriod {
        if let last, last.contains(day) { return last }
        let period = clinic.calendar.period(containing: day)
        last = period
        return period
    }

    /// The periods a store sums over in one statement (a day summary joined to them), from the
    /// clinic's first day with a sale through `last`; nil when they would be too many for one
    /// statement (a store then reads day by day).
    public func periods(from first: Day, through last: Day) -> [PayPeriod]? {
        guard first <= last, first.days(to: last) <= 20_000 else { return first <= last ? nil : [] }
        let periods = clinic.calendar.periods(from: first, through: last)
        return periods.count <= 2_000 ? periods : nil
    }

    /// One row of the day summary (or the sums of a whole period, given any day of it).
    public mutating func add(
        day: Day,
        saleCount: Int,
        quantity: Int64,
        revenue: Money,
        cost: Money,
        profit: Money,
        commission: Money,
        exactCommission: ExactCommission
    ) throws {
        let period = period(of: day)
        try sums[period, default: Totals.Accumulator()].add(
            quantity,
            SaleFigures(
                revenue: revenue,
                cost: cost,
                profit: profit,
                exactCommission: exactCommission,
                commission: commission
            )
        )
        sold[period, default: 0] += saleCount
    }

    /// The basis total of a day's lines under one set of tiered terms.
    public mutating func add(day: Day, terms: Terms.ID, basisTotal: Money) throws {
        let period = period(of: day)
        basis[period, default: [:]][terms] = try basis[period, default: [:]][terms, default: .zero].adding(basisTotal)
    }

    public var periods: Set<PayPeriod> { Set(sums.keys) }

    /// What the clinic is expected to pay for `period`.
    public func payable(_ period: PayPeriod) throws -> PeriodPayable {
        let sums = self.sums[period] ?? Totals.Accumulator()
        return try PeriodPayable(
            clinic: clinic.id,
            period: period,
            saleCount: sold[period] ?? 0,
            revenue: sums.revenue,
            roundedCommission: sums.roundedCommission,
            exactCommission: sums.exactCommission,
            basisTotals: basis[period] ?? [:],
            terms: tiered,
            deductions: deductions,
            rounding: rounding
        )
    }

    /// The reconciliation of every period with sales or payouts.
    public func reconciliation(received: [PayPeriod: Money], closed: ClosedPeriods, today: Day) throws -> Reconciliation
    {
        let entries = try periods.union(received.keys).map { period in
            (
                period: period, expected: sums[period] == nil ? Money.zero : try payable(period).netPayable,
                received: received[period] ?? .zero,
                isClosed: closed.contains(period.start)
            )
        }
        return try Reconciliation(clinic: clinic, entries: entries, today: today)
    }
}

extension PeriodSums {
    /// Whether a store keeps the clinic's expected figure per period (``PeriodMarks``): when it is
    /// not the sum of its lines' commission — tiers, deductions, or rounding once per statement.
    public var isKept: Bool { needsPeriods || rounding.scope == .perStatement }

    /// Each period's expected figure (its net payable), for the periods with sales.
    public func expectedByPeriod() throws -> [(period: PayPeriod, expected: Money)] {
        try periods.sorted { $0.start < $1.start }.map { ($0, try payable($0).netPayable) }
    }
}

/// What the writes of one transaction changed of a clinic's expected figures per period, for a
/// store that keeps them (``PeriodSums/isKept``): days with a sale written, voided, moved or
/// deleted, or the whole clinic (its schedule, tiers or deductions, or the book's rounding).
/// The store settles them in the same transaction.
public struct PeriodMarks: Sendable {
    public var whole = false
    public var days: Set<Day> = []

    /// Beyond this many periods, a store recomputes the whole clinic in one read.
    public static let periodLimit = 12

    public init() {}

    /// The stored mark of a day (`''` marks the whole clinic).
    public mutating func add(stored: String) throws {
        if stored.isEmpty {
            whole = true
        } else {
            days.insert(try Day.stored(stored, row: "A changed day"))
        }
    }

    /// The periods to recompute, or nil for the whole clinic.
    public func periods(in calendar: PayCalendar) -> [PayPeriod]? {
        guard !whole else { return nil }
        let periods = Set(days.map { calendar.period(containing: $0) })
        return periods.count > Self.periodLimit ? nil : periods.sorted { $0.start < $1.start }
    }
}

/// Settling one clinic's marks: the algorithm the stores share, as values — what to read and then
/// what to write — which each store performs in its own transaction (SQLite's is a synchronous
/// closure, PostgreSQL's asynchronous, so the algorithm does no I/O of its own).
///
/// A store reads the clinic's marks, its tiered terms and deductions, makes a settlement, adds to
/// ``sums`` the day sums of each of ``reads``, and performs ``writes()`` in order.
public struct PeriodSettlement: Sendable {
    /// A span of day sums to read.
    public enum Read: Sendable, Equatable {
        /// The days of one pay period.
        case period(PayPeriod)
        /// Every day of the clinic with sales.
        case history
    }

    /// A change to the kept figures, in the order given.
    public enum Write: Sendable, Equatable {
        /// Remove the figure of the period starting that day.
        case removePeriod(start: Day)
        /// Remove every figure of the clinic.
        case removeAll
        /// The clinic's figures are kept from now on (it has tiers or deductions, or the book
        /// rounds per statement) — or, `false`, no longer.
        case kept(Bool)
        /// Each period's figure.
        case insert([Figure])
    }

    public struct Figure: Sendable, Equatable {
        public var period: PayPeriod
        public var expected: Money

        public init(period: PayPeriod, expected: Money) {
            self.period = period
            self.expected = expected
        }
    }

    public var sums: PeriodSums
    public let reads: [Read]
    private let periods: [PayPeriod]?

    public init(clinic: Clinic, marks: PeriodMarks, rounding: RoundingPolicy, tiered: [Terms], deductions: [Deduction])
    {
        sums = PeriodSums(clinic: clinic, rounding: rounding, tiered: tiered, deductions: deductions)
        periods = marks.periods(in: clinic.calendar)
        if let periods {
            reads = periods.map(Read.period)
        } else {
            reads = sums.isKept ? [.history] : []
        }
    }

    /// What to write once the reads are added to ``sums``: the marked periods' figures replaced,
    /// or the whole clinic's (and whether it is kept at all).
    public func writes() throws -> [Write] {
        let removals: [Write] =
            if let periods { periods.map { .removePeriod(start: $0.start) } } else { [.removeAll, .kept(sums.isKept)] }
        guard periods != nil || sums.isKept else { return removals }
        return removals + [
            .insert(try sums.expectedByPeriod().map { Figure(period: $0.period, expected: $0.expected) })
        ]
    }
}
