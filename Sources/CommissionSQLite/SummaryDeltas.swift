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
        /// The ordinal of the sale's day, or of the first day of its month or year.
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
            func add(_ total: inout Int64, _ value: Int64) throws { try Self.add(&total, value) }
            saleCount += 1
            try add(&quantity, sale.line.quantity)
            try add(&revenue, sale.figures.revenue.minorUnits)
            try add(&cost, sale.figures.cost.minorUnits)
            try add(&profit, sale.figures.profit.minorUnits)
            try add(&commission, sale.figures.commission.minorUnits)
            try add(&exactCommission, sale.figures.exactCommission.tenThousandths)
        }
    }

    /// One table of deltas per summary, in the order of `Schema.Summary.all`.
    private var deltas = Array(repeating: [Key: Figures](), count: Schema.Summary.all.count)

    /// Counts a non-voided sale.
    mutating func add(_ sale: Sale) throws {
        let day = sale.date, month = day.firstOfMonth
        for (index, summary) in Schema.Summary.all.enumerated() {
            let period = switch summary.datePrefix {
            case 10: day.ordinal
            case 7: month.ordinal
            default: try Day(year: day.year, month: 1, day: 1).ordinal
            }
            let id = summary.byProduct ? sale.productID.rawValue : sale.clinicID.rawValue
            try deltas[index][Key(id: id, period: period), default: Figures()].add(sale)
        }
    }

    var isEmpty: Bool { deltas.allSatisfy(\.isEmpty) }

    /// Adds the deltas of another part of the same load.
    mutating func merge(_ other: SummaryDeltas) throws {
        for index in deltas.indices {
            for (key, figures) in other.deltas[index] {
                try deltas[index][key, default: Figures()].add(figures)
            }
        }
    }

    /// The clinics' days the deltas change (from the day summary's).
    var clinicDays: [(clinic: Int64, day: Day)] {
        guard let index = Schema.Summary.all.firstIndex(where: { $0.table == Schema.Summary.clinicDay.table }) else { return [] }
        return deltas[index].keys.map { ($0.id, Day(ordinal: $0.period)) }
    }

    /// Adds every delta to its summary row, and marks the kept clinics' days it changes.
    func write(_ db: Database) throws {
        for (summary, deltas) in zip(Schema.Summary.all, deltas) {
            let statement = try db.makeStatement(sql: summary.upsert(values: "?, ?, ?, ?, ?, ?, ?, ?, ?", columns: summary.deltaKeyColumns))
            for (key, figures) in deltas {
                try FastStatement.execute(statement) { row in
                    row.bind(key.id)
                    row.bind(String(Day(ordinal: key.period).description.prefix(summary.datePrefix)))
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
        try SQLiteStore.markPeriods(db, days: clinicDays)
    }
}
