import CommissionCore
import CommissionStore
import GRDB

/// The expected figure of each pay period of the clinics whose figure is not the sum of their
/// lines' (``PeriodSums/isKept``), kept in `clinicPeriodTotal` so that the dashboard reads a row a
/// period rather than their whole history.
///
/// Triggers mark what a write changes in `clinicPeriodDirty` (see `Schema.periodFigureTables`);
/// every write transaction settles the marks before it commits, so readers never see them. What to
/// recompute and write is ``PeriodSettlement``'s (CommissionStore), shared with the PostgreSQL
/// store; this file reads and writes the rows it names.
extension SQLiteStore {
    /// Recomputes the periods the transaction's writes marked, and forgets the marks.
    static func settlePeriodFigures(_ db: Database) throws {
        // Read through SQLite's C API (``FastStatement``): every write transaction asks, and nearly
        // always finds nothing. Both columns are NOT NULL.
        let rows = try FastStatement.rows(
            db.cachedStatement(sql: "SELECT clinicId, date FROM clinicPeriodDirty"),
            { _ in }
        ) { row in
            (clinic: row.int64(0), date: row.text(1))
        }
        guard !rows.isEmpty else { return }
        try db.execute(sql: "DELETE FROM clinicPeriodDirty")
        var marks: [Int64: PeriodMarks] = [:]
        for row in rows {
            try marks[row.clinic, default: PeriodMarks()].add(stored: row.date)
        }
        let settings = try settings(db)
        for (id, mark) in marks.sorted(by: { $0.key < $1.key }) {
            // A clinic deleted in the same transaction may have marked itself on the way out.
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT \(Rows.clinicColumns) FROM clinic WHERE id = ?"),
                    arguments: [id]
                )
            else {
                continue
            }
            let clinic = try Rows.clinic(row)
            var settlement = PeriodSettlement(
                clinic: clinic,
                marks: mark,
                rounding: settings.rounding,
                tiered: try tieredTerms(db, clinic: clinic.id),
                deductions: try deductions(db, clinic: clinic.id)
            )
            for read in settlement.reads {
                switch read {
                case .period(let period):
                    try addSums(db, to: &settlement.sums, from: period.start, through: period.end)
                case .history:
                    let range = try Row.fetchOne(
                        db.cachedStatement(sql: "SELECT min(date), max(date) FROM clinicDayTotal WHERE clinicId = ?"),
                        arguments: [id]
                    )
                    if let first = (range?[0] as String?).flatMap(Day.reading(stored:)),
                        let last = (range?[1] as String?).flatMap(Day.reading(stored:))
                    {
                        try addSums(db, to: &settlement.sums, from: first, through: last)
                    }
                }
            }
            for write in try settlement.writes() {
                switch write {
                case .removePeriod(let start):
                    try db.execute(
                        sql: "DELETE FROM clinicPeriodTotal WHERE clinicId = ? AND periodStart = ?",
                        arguments: [id, start.description]
                    )
                case .removeAll:
                    try db.execute(sql: "DELETE FROM clinicPeriodTotal WHERE clinicId = ?", arguments: [id])
                case .kept(true):
                    try db.execute(sql: "INSERT OR IGNORE INTO clinicPeriodKept VALUES (?)", arguments: [id])
                case .kept(false):
                    try db.execute(sql: "DELETE FROM clinicPeriodKept WHERE clinicId = ?", arguments: [id])
                case .insert(let figures):
                    let insert = try db.cachedStatement(
                        sql:
                            "INSERT INTO clinicPeriodTotal (clinicId, periodStart, periodEnd, expectedMinor) VALUES (?, ?, ?, ?)"
                    )
                    for figure in figures {
                        try insert.execute(arguments: [
                            id, figure.period.start.description, figure.period.end.description,
                            figure.expected.minorUnits,
                        ])
                    }
                }
            }
        }
    }

    /// Marks every clinic whole and settles: for a book whose figures were loaded without the
    /// triggers (an upgrade, an archive).
    static func rebuildPeriodFigures(_ db: Database) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO clinicPeriodDirty SELECT id, '' FROM clinic")
        try settlePeriodFigures(db)
    }

    /// Marks the days of kept clinics a bulk load wrote (its summaries' deltas), without the
    /// triggers it dropped.
    static func markPeriods(_ db: Database, days: [(clinic: Int64, day: Day)]) throws {
        let kept = Set(try Int64.fetchAll(db.cachedStatement(sql: "SELECT clinicId FROM clinicPeriodKept")))
        guard !kept.isEmpty else { return }
        let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO clinicPeriodDirty VALUES (?, ?)")
        let byClinic = Dictionary(grouping: days.filter { kept.contains($0.clinic) }, by: \.clinic)
        for (clinic, days) in byClinic {
            // Beyond what settling takes period by period, the whole clinic is one mark.
            if days.count > PeriodMarks.periodLimit * 31 {
                try insert.execute(arguments: [clinic, ""])
                continue
            }
            for (_, day) in days {
                try insert.execute(arguments: [clinic, day.description])
            }
        }
    }
}
