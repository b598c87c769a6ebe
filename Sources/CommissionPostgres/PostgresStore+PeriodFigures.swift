import CommissionCore
import CommissionStore
import PostgresNIO

/// The expected figure of each pay period of the clinics whose figure is not the sum of their
/// lines' (``PeriodSums/isKept``), kept in `clinicPeriodTotal` as the SQLite store keeps it: the
/// schema's triggers mark what a write changes (`PostgresSchema.periodFigureStatements`), and every
/// write transaction settles the marks before it commits.
extension PostgresStore {
    /// Recomputes the periods the transaction's writes marked, and forgets the marks.
    func settlePeriodFigures(_ connection: PostgresConnection) async throws {
        let rows = try await connection.query("""
            DELETE FROM clinicPeriodDirty WHERE bookId = \(book)
            RETURNING clinicId, CASE WHEN day = '-infinity' THEN '' ELSE day::text END
            """, logger: logger).decode((Int64, String).self).all()
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
            guard let clinic = try await clinics(connection, "SELECT \(unescaped: Columns.clinic) FROM clinic WHERE bookId = \(book) AND id = \(id)").first else {
                continue
            }
            var sums = PeriodSums(clinic: clinic, rounding: settings.rounding, tiered: try await tieredTerms(connection, clinic: clinic.id),
                                  deductions: try await deductions(connection, clinic: clinic.id))
            if let periods = mark.periods(in: clinic.calendar) {
                for period in periods {
                    try await addSums(connection, to: &sums, from: period.start, through: period.end)
                    try await connection.query("""
                        DELETE FROM clinicPeriodTotal WHERE bookId = \(book) AND clinicId = \(id) AND periodStart = \(period.start.description)::date
                        """, logger: logger)
                }
            } else {
                try await connection.query("DELETE FROM clinicPeriodTotal WHERE bookId = \(book) AND clinicId = \(id)", logger: logger)
                guard sums.isKept else {
                    try await connection.query("DELETE FROM clinicPeriodKept WHERE bookId = \(book) AND clinicId = \(id)", logger: logger)
                    continue
                }
                try await connection.query("INSERT INTO clinicPeriodKept (bookId, clinicId) VALUES (\(book), \(id)) ON CONFLICT DO NOTHING",
                                           logger: logger)
                let last = try await connection.query("SELECT max(date)::text FROM clinicDayTotal WHERE bookId = \(book) AND clinicId = \(id)",
                                                      logger: logger).decode(String?.self).all().first.flatMap { $0 }.flatMap(Day.reading(stored:))
                if let last { try await addSums(connection, to: &sums, from: Day(ordinal: -719_162), through: last) }  // from 0001-01-01
            }
            // One statement for the clinic's rows, however many periods.
            let expected = try sums.expectedByPeriod()
            guard !expected.isEmpty else { continue }
            var insert = SQL("INSERT INTO clinicPeriodTotal (bookId, clinicId, periodStart, periodEnd, expectedMinor) VALUES ")
            for (index, (period, amount)) in expected.enumerated() {
                try insert.add(index == 0 ? "(?, ?, ?::date, ?::date, ?)" : ", (?, ?, ?::date, ?::date, ?)",
                               book, id, period.start.description, period.end.description, amount.minorUnits)
            }
            try await connection.query(insert.query, logger: logger)
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
