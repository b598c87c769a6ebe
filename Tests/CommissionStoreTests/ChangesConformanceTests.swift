import CommissionCore
import CommissionStore
import Foundation
import Testing

/// What changed in a book after a revision (`BookChangesReading`), told the same by every store:
/// the records the audit log's entries since touched, as they are now, the ones removed, and a
/// new history after a restore.
@Suite struct ChangesConformanceTests {
    @Test(
        "The changes after a revision are the records touched since, as they are now, and those removed",
        arguments: StoreKind.allCases
    )
    func changesAfterARevision(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let store = book.store
        let reader = try #require(store as? any BookChangesReading, "\(kind) does not tell its changes")
        let march = book.glow.calendar.period(containing: day("2026-03-02"))
        let first = try await book.sell(book.serum, at: book.glow, on: "2026-03-02")
        let payout = try await store.createPayout(
            PayoutDraft(clinicID: book.glow.id, period: march, amount: cents(500), receivedOn: day("2026-04-01"))
        )
        let untouched = try await book.sell(book.cream, at: book.harbor, on: "2026-03-03")

        // Asked of no history, a store says where its book stands.
        guard case .gone(let start) = try await reader.changes(since: 0, epoch: "no such history") else {
            Issue.record("changes of another history were told")
            return
        }
        #expect(start.revision > 0 && !start.epoch.isEmpty)

        // Since then: a sale and a clinic made, a sale voided, a product renamed, a payout removed, March at Glow closed.
        let second = try await book.sell(book.cream, at: book.glow, on: "2026-03-05")
        _ = try await store.voidSale(first.id)
        var renamed = book.serum
        renamed.name = "Serum 50ml"
        renamed = try await store.updateProduct(renamed)
        let spa = try await store.createClinic(ClinicDraft(name: "Spa", schedule: .monthly))
        try await store.deletePayout(payout.id)
        try await store.closePeriod(clinic: book.glow.id, period: march)

        guard case .changes(let changes) = try await reader.changes(since: start.revision, epoch: start.epoch) else {
            Issue.record("the changes since \(start.revision) were not told")
            return
        }
        #expect(changes.since == start.revision && changes.revision > start.revision && changes.epoch == start.epoch)
        guard case .book(let settings)? = changes.records.first else {
            Issue.record("the book's settings do not come first")
            return
        }
        #expect(settings.settings == (try await store.settings()))
        var clinics: [Clinic] = [], products: [Product] = [], sales: [Sale] = [], closed: [PayPeriod] = [],
            others: [ArchiveRecord] = []
        for record in changes.records.dropFirst() {
            switch record {
            case .clinic(let clinic): clinics.append(clinic)
            case .product(let product): products.append(product)
            case .sales(let page): sales += page.map(\.sale)
            case .closedPeriod(let clinic, let period) where clinic == book.glow.id: closed.append(period)
            case .audit: break
            default: others.append(record)
            }
        }
        #expect(clinics == [spa])
        #expect(products == [renamed])
        #expect(
            sales.map(\.id) == [first.id, second.id] && sales.first?.isVoided == true
                && !sales.contains { $0.id == untouched.id }
        )
        #expect(closed == [march] && changes.periodClinics == [book.glow.id.rawValue])
        #expect(others.isEmpty, "records nothing touched: \(others)")
        #expect(changes.removed == [RemovedRecord(.payout, payout.id.rawValue)])
        // The entries since, oldest first: one a change.
        let entries = changes.entries
        #expect(entries.map(\.action) == ["create", "void", "update", "create", "delete", "close"])
        #expect(entries.map(\.subject) == [.sale, .sale, .product, .clinic, .payout, .period])
        #expect(entries.allSatisfy { $0.id.rawValue > start.revision } && entries.last?.id.rawValue == changes.revision)

        // Nothing since the newest: the settings alone. Beyond it, or in another history: where the book stands.
        guard case .changes(let none) = try await reader.changes(since: changes.revision, epoch: start.epoch) else {
            Issue.record("no changes were told since the newest revision")
            return
        }
        #expect(none.records.count == 1 && none.removed.isEmpty && none.revision == changes.revision)
        #expect(
            try await reader.changes(since: changes.revision + 1, epoch: start.epoch)
                == .gone(BookPosition(epoch: start.epoch, revision: changes.revision))
        )
        #expect(
            try await reader.changes(since: 0, epoch: start.epoch + "x")
                == .gone(BookPosition(epoch: start.epoch, revision: changes.revision))
        )

        // A restore starts a new history: changes from the old one are not told.
        guard let restoring = store as? any BookRestoring & BookArchiving else { return }
        let path = temporaryDatabasePath() + ".jsonl"
        _ = try await ArchiveFile.write(restoring, to: path)
        _ = try await restoring.restoreBackup(at: path)
        guard case .gone(let restored) = try await reader.changes(since: changes.revision, epoch: start.epoch) else {
            Issue.record("changes were told across a restore")
            return
        }
        #expect(restored.epoch != start.epoch)
    }
}

/// Which records a run of audit entries touched, without a database.
@Suite struct ChangesPlanTests {
    func entry(
        _ id: Int64,
        _ subject: AuditSubject,
        _ record: Int64?,
        through last: Int64? = nil,
        _ action: String = "create"
    ) -> AuditEntry {
        AuditEntry(
            id: AuditEntry.ID(id),
            at: Date(timeIntervalSince1970: 0),
            actor: "system",
            subject: subject,
            subjectID: record,
            lastSubjectID: last,
            action: action,
            before: nil,
            after: nil
        )
    }

    @Test func salesAreRangesAndAnImportReadsTheSmallRecordsAgain() {
        var plan = ChangesPlan([
            entry(1, .sale, 7), entry(2, .sale, 8), entry(3, .sale, 20), entry(4, .payout, 3, "delete"),
            entry(5, .period, 2, "close"),
        ])
        #expect(plan.sales == [7...8, 20...20])
        #expect(plan.saleConditions("id") == ["id BETWEEN 7 AND 8", "id IN (20)"])
        #expect(
            plan.covers(.sale, 8) && !plan.covers(.sale, 9) && plan.covers(.payout, 3) && plan.covers(.period, 2)
                && !plan.covers(.clinic, 2)
        )
        #expect(plan.clinics.condition("id") == "FALSE" && !plan.settings)
        // An import names its sales as one range, and makes clinics, products and terms without entries of their own.
        plan = ChangesPlan([entry(6, .sale, 100, through: 2_000, "import"), entry(7, .settings, nil, "update")])
        #expect(
            plan.sales == [100...2_000] && plan.clinics == .all && plan.terms.condition("id") == "TRUE" && plan.settings
        )
        // Many single sales go 500 to a query.
        plan = ChangesPlan((0..<1_200).map { entry($0, .sale, $0 * 2) })
        #expect(plan.saleConditions("id").count == 3)
    }

    @Test func whatWasTouchedAndIsGoneIsRemoved() {
        let plan = ChangesPlan([entry(1, .payout, 3, "delete"), entry(2, .payout, 4), entry(3, .terms, 9, "delete")])
        let payout = Payout(
            id: Payout.ID(4),
            clinicID: Clinic.ID(1),
            period: PayPeriod(start: day("2026-03-01"), end: day("2026-03-31")),
            amount: cents(100),
            receivedOn: day("2026-04-01")
        )
        let changes = plan.changes(epoch: "e", since: 0, revision: 3, records: [.payout(payout)])
        #expect(changes.removed == [RemovedRecord(.terms, 9), RemovedRecord(.payout, 3)])
        // A record deleted is removed even when one of its id is there again (SQLite reuses the
        // last id: the new one comes after the removal, which took the old one's children), and
        // when an import had every record of its kind read again.
        let again = ChangesPlan([
            entry(1, .clinic, 7, "delete"), entry(2, .clinic, 7), entry(3, .product, 2, "delete"),
            entry(4, .sale, 10, through: 20, "import"),
        ])
        let clinic = Clinic(id: Clinic.ID(7), name: "New", schedule: .monthly)
        #expect(
            again.changes(epoch: "e", since: 0, revision: 4, records: [.clinic(clinic)]).removed
                == [RemovedRecord(.clinic, 7), RemovedRecord(.product, 2)]
        )
    }

    @Test func changesTravelAsArchiveLines() throws {
        let entries = [entry(4, .sale, 1)]
        let changes = BookChanges(
            epoch: "e1",
            since: 3,
            revision: 4,
            records: [.audit(entries)],
            removed: [RemovedRecord(.price, 2)],
            periodClinics: [5]
        )
        #expect(try ArchiveFile.changes(from: try ArchiveFile.data(of: changes)) == changes)
        // Cut short, or a whole archive rather than changes: refused.
        let data = try ArchiveFile.data(of: changes)
        #expect(throws: StoreError.self) { try ArchiveFile.changes(from: data.prefix(data.count - 10)) }
        #expect(throws: StoreError.self) {
            try ArchiveFile.changes(from: Data(#"{"commissionArchive":2,"createdAt":0}"#.utf8))
        }
    }
}
