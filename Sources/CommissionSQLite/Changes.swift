import CommissionCore
import CommissionStore
import Foundation
import GRDB

extension SQLiteStore: BookChangesReading {
    /// Reads the changes after `revision` from one snapshot of the file: the audit entries after
    /// it, then the records they touched (`ChangesPlan`), as they are now.
    public func changes(since revision: Int64, epoch: String) async throws -> ChangesAnswer {
        let name = bookName
        return try await read { db in
            let current = try String.fetchOne(db, sql: "SELECT epoch FROM book") ?? ""
            let newest = try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM auditEntry") ?? 0
            guard current == epoch, (0...newest).contains(revision) else {
                return .gone(BookPosition(epoch: current, revision: newest))
            }
            let entries = try Row.fetchAll(
                db,
                sql: "SELECT \(Rows.auditColumns) FROM auditEntry WHERE id > ? ORDER BY id",
                arguments: [revision]
            )
            .map(Rows.audit)
            let plan = ChangesPlan(entries)
            var records = try Self.smallRecords(db, name: name, plan)
            var sales: [ArchivedSale] = []
            for condition in plan.saleConditions("id") {
                sales += try FastStatement.rows(
                    try db.makeStatement(
                        sql: "SELECT \(Rows.saleColumns), sale.idempotencyKey FROM sale WHERE \(condition)"
                    )
                ) { _ in
                } read: {
                    ArchivedSale(sale: try Rows.sale($0), idempotencyKey: $0.optionalText(18))
                }
            }
            if !sales.isEmpty { records.append(.sales(sales.sorted { $0.sale.id < $1.sale.id })) }
            let payouts = ChangesPlan.Selection.ids(plan.payouts).condition("id")
            records += try Row.fetchAll(
                db,
                sql: "SELECT \(Rows.payoutColumns) FROM payout WHERE \(payouts) ORDER BY id"
            ).map { .payout(try Rows.payout($0)) }
            let clinics = ChangesPlan.Selection.ids(plan.periodClinics).condition("clinicId")
            records += try Row.fetchAll(
                db,
                sql:
                    "SELECT clinicId, periodStart, periodEnd FROM closedPeriod WHERE \(clinics) ORDER BY clinicId, periodStart"
            ).map {
                .closedPeriod(
                    clinic: Clinic.ID($0[0] as Int64),
                    period: PayPeriod(
                        start: try Day.stored($0[1], row: "A closed period"),
                        end: try Day.stored($0[2], row: "A closed period")
                    )
                )
            }
            if !entries.isEmpty { records.append(.audit(entries)) }
            return .changes(plan.changes(epoch: current, since: revision, revision: newest, records: records))
        }
    }
}

extension SQLiteStore: BookChangesApplying {
    public func bookEpoch() async throws -> String {
        try await read { db in try String.fetchOne(db, sql: "SELECT epoch FROM book") ?? "" }
    }

    /// Takes a server's changes in one write transaction; see `BookChangesApplying`. The audit
    /// log's append-only triggers are lifted for that transaction only: the device's own entries
    /// since its pull give way to the server's, which record the same changes as the server made them.
    public func apply(
        _ changes: BookChanges,
        removingOwn own: [RemovedRecord],
        auditAfter: Int64,
        expectingNewest newest: Int64
    ) async throws -> Bool {
        try await write(Set(StoreTable.allCases)) { db in
            guard try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM auditEntry") == newest else {
                return false
            }
            // Children before the records they name: sales and payouts, then what names a clinic or a product.
            let order: [AuditSubject] = [.sale, .payout, .deduction, .price, .terms, .product, .clinic]
            let tables: [AuditSubject: String] = [
                .sale: "sale", .payout: "payout", .deduction: "deduction", .price: "priceListEntry", .terms: "terms",
                .product: "product", .clinic: "clinic",
            ]
            let removals = own + changes.removed
            for kind in order {
                let ids = Set(removals.filter { $0.kind == kind }.map(\.id))
                guard let table = tables[kind], !ids.isEmpty else { continue }
                if kind == .clinic {
                    try db.execute(
                        sql: "DELETE FROM closedPeriod WHERE \(ChangesPlan.Selection.ids(ids).condition("clinicId"))"
                    )
                }
                try db.execute(sql: "DELETE FROM \(table) WHERE \(ChangesPlan.Selection.ids(ids).condition("id"))")
            }
            try db.execute(sql: "DROP TRIGGER auditEntry_no_update; DROP TRIGGER auditEntry_no_delete")
            try db.execute(sql: "DELETE FROM auditEntry WHERE id > ?", arguments: [auditAfter])
            try Schema.appendOnlyAudit(db)
            try db.execute(
                sql:
                    "DELETE FROM closedPeriod WHERE \(ChangesPlan.Selection.ids(Set(changes.periodClinics)).condition("clinicId"))"
            )
            for record in changes.records {
                switch record {
                case .account, .token: continue  // a server's accounts are its own
                default: try Self.insert(record, db, replacing: true)
                }
            }
            return true
        }
    }
}
