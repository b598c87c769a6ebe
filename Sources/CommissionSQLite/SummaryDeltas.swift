import CommissionCore
import CommissionStore
import GRDB

/// What a bulk load adds to each row of the summary tables, kept in memory while the summary
/// triggers are off and written with one upsert per summary row at the end.
///
/// A trigger costs a B-tree upsert per summary per sale; a million-sale import touches only about
/// 100,000 distinct summary rows, so adding up in memory first does a tenth of the work.
struct SummaryDeltas {
    private var totals = SummaryTotals()

    /// Counts a non-voided sale.
    mutating func add(_ sale: Sale) throws { try totals.add(sale) }

    var isEmpty: Bool { totals.isEmpty }

    /// Adds the deltas of another part of the same load.
    mutating func merge(_ other: SummaryDeltas) throws { try totals.merge(other.totals) }

    /// The clinics' days the deltas change (from the day summary's).
    var clinicDays: [(clinic: Int64, day: Day)] {
        totals[.clinicDay].keys.map { ($0.id, Day(ordinal: $0.period)) }
    }

    /// Adds every delta to its summary row, and marks the kept clinics' days it changes.
    func write(_ db: Database) throws {
        for summary in Schema.Summary.all {
            let deltas = totals[summary.kind]
            let statement = try db.makeStatement(
                sql: summary.upsert(values: "?, ?, ?, ?, ?, ?, ?, ?, ?", columns: summary.deltaKeyColumns)
            )
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
