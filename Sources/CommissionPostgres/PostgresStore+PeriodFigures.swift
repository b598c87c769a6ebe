import CommissionCore
import CommissionStore
import PostgresNIO

/// The expected figure of each pay period of the clinics whose figure is not the sum of their
/// lines' (``PeriodSums/isKept``), kept in `clinicPeriodTotal` as the SQLite store keeps it: the
/// schema's triggers mark what a write changes (`PostgresSchema.periodFigureStatements`), and every
/// write transaction settles the marks before it commits. What to recompute and write is
/// ``PeriodSettlement``'s (CommissionStore), shared with the SQLite store; this file reads and
/// writes the rows it names.
extension PostgresStore {
    /// Recomputes the periods the transaction's writes marked, and forgets the marks.
    func settlePeriodFigures(_ connection: PostgresConnection) async throws {
        let rows = try await connection.query(
            """
            DELETE FROM clinicPeriodDirty WHERE bookId = \(book)
            RETURNING clinicId, CASE WHEN day = '-infinity' THEN '' ELSE day::text END
            """,
            logger: logger
        ).decode((Int64, String).self).all()
        guard !rows.isEmpty else { return }
        // Summed after every commit before this one (a sale written beside this write may have marked the same period).
        try await lockCommitOrder(connection)
        var marks: [Int64: PeriodMarks] = [:]
        for (id, day) in rows {
            try marks[id, default: PeriodMarks()].add(stored: day)
        }
        let settings = try await settings(connection)
        for (id, mark) in marks.sorted(by: { $0.key < $1.key }) {
            // A clinic deleted in the same transaction marks itself on the way out.
            guard
                let clinic = try await clinics(
                    connection,
                    "SELECT \(unescaped: Columns.clinic) FROM clinic WHERE bookId = \(book) AND id = \(id)"
                ).first
            else {
                continue
            }
            var settlement = PeriodSettlement(
                clinic: clinic,
                marks: mark,
                rounding: settings.rounding,
                tiered: try await tieredTerms(connection, clinic: clinic.id),
                deductions: try await deductions(connection, clinic: clinic.id)
            )
            for read in settlement.reads {
                switch read {
                case .period(let period):
                    try await addSums(connection, to: &settlement.sums, from: period.start, through: period.end)
                case .history:
                    let last = try await connection.query(
                        "SELECT max(date)::text FROM clinicDayTotal WHERE bookId = \(book) AND clinicId = \(id)",
                        logger: logger
                    ).decode(String?.self).all().first.flatMap { $0 }.flatMap(Day.reading(stored:))
                    if let last {
                        try await addSums(connection, to: &settlement.sums, from: Day(ordinal: -719_162), through: last)
                    }  // from 0001-01-01
                }
            }
            for write in try settlement.writes() {
                switch write {
                case .removePeriod(let start):
                    try await connection.query(
                        """
                        DELETE FROM clinicPeriodTotal WHERE bookId = \(book) AND clinicId = \(id) AND periodStart = \(start.description)::date
                        """,
                        logger: logger
                    )
                case .removeAll:
                    try await connection.query(
                        "DELETE FROM clinicPeriodTotal WHERE bookId = \(book) AND clinicId = \(id)",
                        logger: logger
                    )
                case .kept(true):
                    try await connection.query(
                        "INSERT INTO clinicPeriodKept (bookId, clinicId) VALUES (\(book), \(id)) ON CONFLICT DO NOTHING",
                        logger: logger
                    )
                case .kept(false):
                    try await connection.query(
                        "DELETE FROM clinicPeriodKept WHERE bookId = \(book) AND clinicId = \(id)",
                        logger: logger
                    )
                case .insert(let figures):
                    // One statement for the clinic's rows, however many periods.
                    guard !figures.isEmpty else { continue }
                    var insert = SQL(
                        "INSERT INTO clinicPeriodTotal (bookId, clinicId, periodStart, periodEnd, expectedMinor) VALUES "
                    )
                    for (index, figure) in figures.enumerated() {
                        try insert.add(
                            index == 0 ? "(?, ?, ?::date, ?::date, ?)" : ", (?, ?, ?::date, ?::date, ?)",
                            book,
                            id,
                            figure.period.start.description,
                            figure.period.end.description,
                            figure.expected.minorUnits
                        )
                    }
                    try await connection.query(insert.query, logger: logger)
                }
            }
        }
    }

    /// Settles what a migration or an archive's restore left marked, before the store's first read.
    func settlePendingPeriodFigures() async throws {
        let pending = try await read { connection in
            try await self.int(connection, "SELECT count(*) FROM clinicPeriodDirty WHERE bookId = \(self.book)")
        }
        guard pending > 0 else { return }
        do {
            try await database.transaction { connection in
                try await connection.query("SELECT \(unescaped: bookLock(.exclusive).sql)", logger: logger)
                try await settlePeriodFigures(connection)
            }
        } catch {
            throw PostgresBookDatabase.storeError(error, doing: "settle the book's period figures")
        }
    }
}
