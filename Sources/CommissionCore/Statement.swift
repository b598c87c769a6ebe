/// What a clinic owes for one pay period: every sale line and the totals.
public struct Statement: Sendable, Hashable {
    public var clinic: Clinic
    public var period: PayPeriod
    /// The sales of the period (voided ones excluded), in date order.
    public var lines: [StatementLine]
    public var totals: Totals
    public var payouts: [Payout]
    /// What the clinic has paid for this period.
    public var received: Money
    /// Expected commission minus what was received.
    public var balance: Money
    public var isClosed: Bool

    /// Builds a statement, adding up its lines under the book's rounding policy.
    /// - Throws: ``MoneyError/overflow(_:)`` when a total does not fit.
    public init(clinic: Clinic, period: PayPeriod, lines: [StatementLine], payouts: [Payout],
                rounding: RoundingPolicy, isClosed: Bool) throws(MoneyError) {
        self.clinic = clinic
        self.period = period
        self.lines = lines
        self.payouts = payouts
        self.isClosed = isClosed
        var accumulator = Totals.Accumulator()
        for line in lines { try accumulator.add(line.sale.line.quantity, line.sale.figures) }
        self.totals = try accumulator.totals(rounding: rounding)
        self.received = try Money.sum(payouts.map(\.amount))
        self.balance = try totals.commission.subtracting(received)
    }
}

/// A sale as a statement shows it, with the names of its product.
public struct StatementLine: Sendable, Hashable {
    public var sale: Sale
    public var productName: String

    public init(sale: Sale, productName: String) {
        self.sale = sale
        self.productName = productName
    }
}

/// Sums of sale figures: how much was sold, what it cost, and the commission it earns.
public struct Totals: Sendable, Hashable {
    public var saleCount: Int
    public var quantity: Int64
    public var revenue: Money
    public var cost: Money
    public var profit: Money
    /// Commission after rounding: the sum of rounded lines, or the rounded sum of exact lines,
    /// as the book's ``RoundingScope`` says.
    public var commission: Money

    public init(saleCount: Int = 0, quantity: Int64 = 0, revenue: Money = .zero, cost: Money = .zero,
                profit: Money = .zero, commission: Money = .zero) {
        self.saleCount = saleCount
        self.quantity = quantity
        self.revenue = revenue
        self.cost = cost
        self.profit = profit
        self.commission = commission
    }

    public static let zero = Totals()

    /// Adds sale figures one by one, keeping the exact commission beside the rounded one, so that
    /// either rounding scope can produce the total.
    public struct Accumulator: Sendable {
        public var saleCount = 0
        public var quantity: Int64 = 0
        public var revenue = Money.zero
        public var cost = Money.zero
        public var profit = Money.zero
        public var roundedCommission = Money.zero
        public var exactCommission = ExactCommission.zero

        public init() {}

        public mutating func add(_ quantity: Int64, _ figures: SaleFigures) throws(MoneyError) {
            saleCount += 1
            let (q, overflow) = self.quantity.addingReportingOverflow(quantity)
            if overflow { throw .overflow("quantity") }
            self.quantity = q
            revenue = try revenue.adding(figures.revenue)
            cost = try cost.adding(figures.cost)
            profit = try profit.adding(figures.profit)
            roundedCommission = try roundedCommission.adding(figures.commission)
            exactCommission = try exactCommission.adding(figures.exactCommission)
        }

        public func totals(rounding: RoundingPolicy) throws(MoneyError) -> Totals {
            Totals(saleCount: saleCount, quantity: quantity, revenue: revenue, cost: cost, profit: profit,
                   commission: rounding.scope == .perLine ? roundedCommission : exactCommission.rounded(rounding.rule))
        }
    }
}
