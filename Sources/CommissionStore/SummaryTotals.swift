import CommissionCore

/// The figures of the four summaries every store keeps — a clinic's day and month, a product's
/// month and year — added up in memory, for a bulk load that writes each summary row once rather
/// than moving it once per sale (an import of a million sales touches about 100,000 rows).
public struct SummaryTotals: Sendable {
    /// A summary, and the period a sale's day counts in.
    public enum Summary: Int, CaseIterable, Sendable {
        case clinicDay, clinicMonth, productMonth, productYear

        /// Whether the summary is kept by product (else by clinic).
        public var byProduct: Bool { self == .productMonth || self == .productYear }

        /// The first day of the period `day` counts in: the day, its month, its year.
        public func period(of day: Day) throws -> Day {
            switch self {
            case .clinicDay: day
            case .clinicMonth, .productMonth: day.firstOfMonth
            case .productYear: try Day(year: day.year, month: 1, day: 1)
            }
        }
    }

    /// A summary row's key: the clinic's or product's id, and the ordinal of its period's first day.
    public struct Key: Hashable, Sendable {
        public var id: Int64
        public var period: Int
    }

    /// A summary row's figures; a total out of range is an error.
    public struct Figures: Sendable {
        public var saleCount: Int64 = 0
        public var quantity: Int64 = 0
        public var revenue: Int64 = 0
        public var cost: Int64 = 0
        public var profit: Int64 = 0
        public var commission: Int64 = 0
        public var exactCommission: Int64 = 0

        private static func add(_ total: inout Int64, _ value: Int64) throws {
            let (sum, overflow) = total.addingReportingOverflow(value)
            if overflow { throw StoreError.invalid(field: "amount", reason: MoneyError.overflow("total").description) }
            total = sum
        }

        mutating func add(_ other: Figures) throws {
            try Self.add(&saleCount, other.saleCount)
            try Self.add(&quantity, other.quantity)
            try Self.add(&revenue, other.revenue)
            try Self.add(&cost, other.cost)
            try Self.add(&profit, other.profit)
            try Self.add(&commission, other.commission)
            try Self.add(&exactCommission, other.exactCommission)
        }

        mutating func add(_ sale: Sale) throws {
            try add(
                Figures(
                    saleCount: 1,
                    quantity: sale.line.quantity,
                    revenue: sale.figures.revenue.minorUnits,
                    cost: sale.figures.cost.minorUnits,
                    profit: sale.figures.profit.minorUnits,
                    commission: sale.figures.commission.minorUnits,
                    exactCommission: sale.figures.exactCommission.tenThousandths
                )
            )
        }
    }

    private var rows = Array(repeating: [Key: Figures](), count: Summary.allCases.count)

    public init() {}

    /// Counts a sale in every summary (the caller leaves voided sales out: they count nowhere).
    public mutating func add(_ sale: Sale) throws {
        for summary in Summary.allCases {
            let key = Key(
                id: summary.byProduct ? sale.productID.rawValue : sale.clinicID.rawValue,
                period: try summary.period(of: sale.date).ordinal
            )
            try rows[summary.rawValue][key, default: Figures()].add(sale)
        }
    }

    /// Adds the totals of another part of the same load.
    public mutating func merge(_ other: SummaryTotals) throws {
        for index in rows.indices {
            for (key, figures) in other.rows[index] {
                try rows[index][key, default: Figures()].add(figures)
            }
        }
    }

    public var isEmpty: Bool { rows.allSatisfy(\.isEmpty) }

    /// The rows of one summary.
    public subscript(summary: Summary) -> [Key: Figures] { rows[summary.rawValue] }
}
