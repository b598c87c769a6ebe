import CommissionCore
import CommissionStore
import GRDB

/// What a bulk load adds to each row of the summary tables, kept in memory while the summary
/// triggers are off and written with one upsert per summary row at the end.
///
/// A trigger costs a B-tree upsert per summary per sale; a million-sale import touches only about
/// 100,000 distinct summary rows, so adding up in memory first does a tenth of the work.
struct SummaryDeltas {
    struct Key: Hashable {
        var id: Int64
        /// The ordinal of the day for `clinicDayTotal`, of the month's first day for the month summaries.
        var period: Int
    }

    struct Figures {
        var saleCount: Int64 = 0
        var quantity: Int64 = 0
        var revenue: Int64 = 0
        var cost: Int64 = 0
        var profit: Int64 = 0
        var commission: Int64 = 0
        var exactCommission: Int64 = 0

        mutating func add(_ sale: Sale) throws {
            func add(_ total: inout Int64, _ value: Int64) throws {
                let (sum, overflow) = total.addingReportingOverflow(value)
                if overflow { throw StoreError.invalid(field: "amount", reason: MoneyError.overflow("total").description) }
                total = sum
            }
            saleCount += 1
            try add(&quantity, sale.line.quantity)
            try add(&revenue, sale.figures.revenue.minorUnits)
            try add(&cost, sale.figures.cost.minorUnits)
            try add(&profit, sale.figures.profit.minorUnits)
            try add(&commission, sale.figures.commission.minorUnits)
            try add(&exactCommission, sale.figures.exactCommission.tenThousandths)
        }
    }

    private var clinicDay: [Key: Figures] = [:]
    private var clinicMonth: [Key: Figures] = [:]
    private var productMonth: [Key: Figures] = [:]

    /// Counts a non-voided sale.
    mutating func add(_ sale: Sale) throws {
        let month = sale.date.firstOfMonth.ordinal
        try clinicDay[Key(id: sale.clinicID.rawValue, period: sale.date.ordinal), default: Figures()].add(sale)
        try clinicMonth[Key(id: sale.clinicID.rawValue, period: month), default: Figures()].add(sale)
        try productMonth[Key(id: sale.productID.rawValue, period: month), default: Figures()].add(sale)
    }

    /// Adds every delta to its summary row.
    func write(_ db: Database) throws {
        func monthText(_ period: Int) -> String { String(Day(ordinal: period).description.prefix(7)) }
        try write(db, clinicDay, to: .clinicDay) { Day(ordinal: $0).description }
        try write(db, clinicMonth, to: .clinicMonth, period: monthText)
        try write(db, productMonth, to: .productMonth, period: monthText)
    }

    private func write(_ db: Database, _ deltas: [Key: Figures], to summary: Schema.Summary, period: (Int) -> String) throws {
        let statement = try db.makeStatement(sql: summary.upsert(values: "?, ?, ?, ?, ?, ?, ?, ?, ?"))
        for (key, figures) in deltas {
            try FastStatement.execute(statement) { row in
                row.bind(key.id)
                row.bind(period(key.period))
                row.bind(figures.saleCount)
                row.bind(figures.quantity)
                row.bind(figures.revenue)
                row.bind(figures.cost)
                row.bind(figures.profit)
                row.bind(figures.commission)
                row.bind(figures.exactCommission)
            }
        }
    }
}
