/// What a clinic owes for one pay period: every sale line, its accelerators and deductions, and
/// the totals.
public struct Statement: Sendable, Hashable {
    public var clinic: Clinic
    public var period: PayPeriod
    /// The sales of the period (voided ones excluded), in date order.
    public var lines: [StatementLine]
    /// The sums of the lines (their commission at the terms' base shares).
    public var totals: Totals
    /// One line per set of terms with tiers that lines of the period were computed under, in the
    /// order of the terms' ids.
    public var accelerators: [AcceleratorLine]
    /// The lines' commission and the accelerators: rounded per line, or the exact sum rounded once
    /// under per-statement rounding.
    public var commission: Money
    /// The clinic's deductions that apply to the period.
    public var deductions: [DeductionLine]
    /// `commission − deductions`: what the clinic is expected to pay.
    public var netPayable: Money
    public var payouts: [Payout]
    /// What the clinic has paid for this period.
    public var received: Money
    /// The net payable minus what was received.
    public var balance: Money
    public var isClosed: Bool

    /// Builds a statement: adds up its lines under the book's rounding policy, adds an accelerator
    /// for each set of terms with tiers that lines were computed under (`terms`: those terms;
    /// others are ignored), and takes off every deduction of `deductions` that applies.
    /// - Throws: ``MoneyError/overflow(_:)`` when a total does not fit.
    public init(
        clinic: Clinic,
        period: PayPeriod,
        lines: [StatementLine],
        payouts: [Payout],
        rounding: RoundingPolicy,
        isClosed: Bool,
        terms: [Terms] = [],
        deductions: [Deduction] = []
    ) throws(MoneyError) {
        self.clinic = clinic
        self.period = period
        self.lines = lines
        self.payouts = payouts
        self.isClosed = isClosed
        var accumulator = Totals.Accumulator()
        var basisTotals: [Terms.ID: Money] = [:]
        for line in lines {
            try accumulator.add(line.sale.line.quantity, line.sale.figures)
            if let id = line.sale.termsID, let rate = line.sale.line.rate {
                basisTotals[id] = try basisTotals[id, default: .zero].adding(
                    rate.basis == .profit ? line.sale.figures.profit : line.sale.figures.revenue
                )
            }
        }
        let totals = try accumulator.totals(rounding: rounding)
        self.totals = totals
        let payable = try PeriodPayable(
            clinic: clinic.id,
            period: period,
            saleCount: totals.saleCount,
            revenue: totals.revenue,
            roundedCommission: accumulator.roundedCommission,
            exactCommission: accumulator.exactCommission,
            basisTotals: basisTotals,
            terms: terms,
            deductions: deductions,
            rounding: rounding
        )
        self.accelerators = payable.accelerators
        self.commission = payable.commission
        self.deductions = payable.deductions
        self.netPayable = payable.netPayable
        self.received = try Money.sum(payouts.map(\.amount))
        self.balance = try netPayable.subtracting(received)
    }
}

/// What a clinic is expected to pay for one period, from sums (a statement's lines, or a store's
/// summaries): the lines' commission, one accelerator per set of terms with tiers that lines were
/// computed under, the deductions that apply, and the net payable. The one place these rules are
/// written: statements, reconciliation and the dashboard all come here.
public struct PeriodPayable: Sendable, Hashable {
    public var accelerators: [AcceleratorLine]
    /// The lines' commission and the accelerators: rounded per line, or the exact sum rounded once.
    public var commission: Money
    public var deductions: [DeductionLine]
    /// `commission − deductions`.
    public var netPayable: Money

    /// - Parameters:
    ///   - clinic: the clinic the figures are of.
    ///   - period: its pay period.
    ///   - saleCount: the period's sales (not voided): a deduction applies only when she sold.
    ///   - revenue: the lines' revenue.
    ///   - roundedCommission: the sum of the lines' commission, each rounded.
    ///   - exactCommission: the exact sum of the lines' commission (what per-statement rounding rounds).
    ///   - basisTotals: the exact sum of the basis amounts of the lines computed under each terms
    ///     (only those of `terms` with tiers count).
    ///   - terms: the terms lines were computed under (others, and those without tiers, are ignored).
    ///   - deductions: the clinic's deductions (those of other clinics, or not applying, are ignored).
    ///   - rounding: the book's rounding policy.
    public init(
        clinic: Clinic.ID,
        period: PayPeriod,
        saleCount: Int,
        revenue: Money,
        roundedCommission: Money,
        exactCommission: ExactCommission,
        basisTotals: [Terms.ID: Money],
        terms: [Terms],
        deductions: [Deduction],
        rounding: RoundingPolicy
    ) throws(MoneyError) {
        var exact = exactCommission, rounded = roundedCommission
        var accelerators: [AcceleratorLine] = []
        for item in terms.sorted(by: { $0.id < $1.id })
        where !item.tiers.isEmpty && !accelerators.contains(where: { $0.terms.id == item.id }) {
            guard let total = basisTotals[item.id] else { continue }
            let line = try AcceleratorLine(terms: item, basisTotal: total, rule: rounding.rule)
            accelerators.append(line)
            exact = try exact.adding(line.exact)
            rounded = try rounded.adding(line.amount)
        }
        self.accelerators = accelerators
        self.commission = rounding.scope == .perLine ? rounded : exact.rounded(rounding.rule)
        var taken: [DeductionLine] = []
        for deduction in deductions.sorted(by: { $0.id < $1.id })
        where deduction.clinicID == clinic && deduction.applies(to: period, saleCount: saleCount) {
            taken.append(
                DeductionLine(deduction: deduction, amount: try deduction.amount(revenue: revenue, rule: rounding.rule))
            )
        }
        self.deductions = taken
        self.netPayable = try commission.subtracting(try Money.sum(taken.map(\.amount)))
    }
}

/// The accelerator of one set of terms with tiers over a period: what its tiers add to the lines'
/// commission at the base share.
public struct AcceleratorLine: Sendable, Hashable {
    public var terms: Terms
    /// `T`: the exact sum of the basis amounts of the period's lines computed under these terms.
    public var basisTotal: Money
    /// The accelerator before rounding.
    public var exact: ExactCommission
    /// Rounded once with the book's rule (under per-statement rounding, shown so; the exact value
    /// joins the statement's exact sum).
    public var amount: Money

    public init(terms: Terms, basisTotal: Money, rule: RoundingRule) throws(MoneyError) {
        self.terms = terms
        self.basisTotal = basisTotal
        self.exact = try Tier.accelerator(total: basisTotal, base: terms.share, tiers: terms.tiers)
        self.amount = exact.rounded(rule)
    }
}

/// A deduction as a statement shows it.
public struct DeductionLine: Sendable, Hashable {
    public var deduction: Deduction
    public var amount: Money

    public init(deduction: Deduction, amount: Money) {
        self.deduction = deduction
        self.amount = amount
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

    public init(
        saleCount: Int = 0,
        quantity: Int64 = 0,
        revenue: Money = .zero,
        cost: Money = .zero,
        profit: Money = .zero,
        commission: Money = .zero
    ) {
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

        /// Adds another accumulator's figures: a total of several groups rounds once, as one group's does.
        public mutating func add(_ other: Accumulator) throws(MoneyError) {
            saleCount += other.saleCount
            let (q, overflow) = quantity.addingReportingOverflow(other.quantity)
            if overflow { throw .overflow("quantity") }
            quantity = q
            revenue = try revenue.adding(other.revenue)
            cost = try cost.adding(other.cost)
            profit = try profit.adding(other.profit)
            roundedCommission = try roundedCommission.adding(other.roundedCommission)
            exactCommission = try exactCommission.adding(other.exactCommission)
        }

        public func totals(rounding: RoundingPolicy) throws(MoneyError) -> Totals {
            Totals(
                saleCount: saleCount,
                quantity: quantity,
                revenue: revenue,
                cost: cost,
                profit: profit,
                commission: rounding.scope == .perLine ? roundedCommission : exactCommission.rounded(rounding.rule)
            )
        }
    }
}
