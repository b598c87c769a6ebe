import CommissionCore
import CommissionStore
import Foundation
import PostgresNIO

extension PostgresStore: BookChangesReading {
    /// Reads the changes after `revision` in one read-only transaction (a snapshot): the book's
    /// audit entries after it, then the records they touched (``ChangesPlan``), as they are now.
    /// Entries' ids follow commits (``lockCommitOrder(_:)``), so none can appear later below the
    /// revision answered.
    public func changes(since revision: Int64, epoch: String) async throws -> ChangesAnswer {
        try await read { connection in
            let head = try await connection.query(
                """
                SELECT book.name, book.epoch, (SELECT coalesce(max(id), 0) FROM auditEntry WHERE bookId = \(book)) FROM book WHERE id = \(book)
                """,
                logger: logger
            ).decode((String, String, Int64).self).all().first
            guard let (name, current, newest) = head else { throw StoreError.storage("the book is gone") }
            guard current == epoch, (0...newest).contains(revision) else {
                return .gone(BookPosition(epoch: current, revision: newest))
            }
            let entries = try await auditEntries(
                connection,
                """
                SELECT \(unescaped: Columns.audit) FROM auditEntry WHERE bookId = \(book) AND id > \(revision) ORDER BY id
                """
            )
            let plan = ChangesPlan(entries)
            var records = try await smallRecords(connection, name: name, plan)
            var sales: [ArchivedSale] = []
            for condition in plan.saleConditions("id") {
                sales += try await connection.query(
                    """
                    SELECT \(unescaped: Columns.sale), sale.idempotencyKey FROM sale WHERE bookId = \(book) AND \(unescaped: condition)
                    """,
                    logger: logger
                ).all().map { row in
                    let stored = try Self.saleRow(row, keyed: true)
                    return ArchivedSale(sale: try stored.sale(), idempotencyKey: stored.idempotencyKey)
                }
            }
            if !sales.isEmpty { records.append(.sales(sales.sorted { $0.sale.id < $1.sale.id })) }
            records += try await payouts(
                connection,
                """
                SELECT \(unescaped: Columns.payout) FROM payout WHERE bookId = \(book) AND \(unescaped: ChangesPlan.Selection.ids(plan.payouts).condition("id")) ORDER BY id
                """
            ).map { .payout($0) }
            let closed = try await connection.query(
                """
                SELECT clinicId, periodStart::text, periodEnd::text FROM closedPeriod
                WHERE bookId = \(book) AND \(unescaped: ChangesPlan.Selection.ids(plan.periodClinics).condition("clinicId")) ORDER BY clinicId, periodStart
                """,
                logger: logger
            ).decode((Int64, String, String).self).all()
            for (clinic, start, end) in closed {
                records.append(
                    .closedPeriod(
                        clinic: Clinic.ID(clinic),
                        period: PayPeriod(
                            start: try Day.stored(start, row: "A closed period"),
                            end: try Day.stored(end, row: "A closed period")
                        )
                    )
                )
            }
            if !entries.isEmpty { records.append(.audit(entries)) }
            return .changes(plan.changes(epoch: current, since: revision, revision: newest, records: records))
        }
    }
}
