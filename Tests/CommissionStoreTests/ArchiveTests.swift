import CommissionCore
import CommissionSQLite
import CommissionStore
import Foundation
import Synchronization
import Testing

/// Books streamed out of every store and into SQLite, through memory and through an archive file;
/// the checks every restore makes on the way.
@Suite struct ArchiveTests {
    /// A book with a bit of everything: a return, a sample, a voided sale, a retry key, a payout, a
    /// deleted payout, a closed period, new terms that recomputed sales, an archived product, a
    /// clinic's price list (one entry with its own cost, one without).
    static func filledBook(_ kind: StoreKind) async throws -> Book {
        let book = try await Book(kind)
        let store = book.store
        _ = try await store.setPrice(
            PriceDraft(
                clinicID: book.harbor.id,
                productID: book.cream.id,
                unitPrice: cents(3300),
                unitCost: cents(1100),
                effectiveFrom: day("2026-03-01")
            )
        )
        _ = try await store.setPrice(
            PriceDraft(
                clinicID: book.glow.id,
                productID: book.serum.id,
                unitPrice: cents(4800),
                effectiveFrom: day("2026-04-01")
            )
        )
        try await book.sell(book.serum, at: book.glow, on: "2026-03-02", quantity: 2, key: "phone-1")
        try await book.sell(book.serum, at: book.glow, on: "2026-03-03", quantity: -1)
        try await book.sell(book.cream, at: book.harbor, on: "2026-03-04", noCommission: true)
        let voided = try await book.sell(book.cream, at: book.glow, on: "2026-04-04", discount: 150)
        _ = try await store.voidSale(voided.id)
        try await book.sell(book.cream, at: book.harbor, on: "2026-04-20", quantity: 3)
        let march = PaySchedule.monthly.period(containing: day("2026-03-01"))
        _ = try await store.createPayout(
            PayoutDraft(clinicID: book.glow.id, period: march, amount: cents(1000), receivedOn: day("2026-04-05"))
        )
        let wrong = try await store.createPayout(
            PayoutDraft(clinicID: book.glow.id, period: march, amount: cents(1), receivedOn: day("2026-04-05"))
        )
        try await store.deletePayout(wrong.id)
        try await store.closePeriod(clinic: book.glow.id, period: march)
        _ = try await store.createTerms(
            TermsDraft(
                clinicID: book.harbor.id,
                share: share("60%"),
                tiers: [Tier(threshold: cents(5000), share: share("70%"))],
                effectiveFrom: day("2026-04-01")
            )
        )
        _ = try await store.createDeduction(
            Deduction(
                id: Deduction.ID(0),
                clinicID: book.harbor.id,
                name: "Card fees",
                amount: .shareOfRevenue(share("3%")),
                effectiveFrom: day("2026-04-01"),
                lastDay: day("2026-12-31")
            )
        )
        var cream = try await store.product(book.cream.id)
        cream.isArchived = true
        _ = try await store.updateProduct(cream)
        // Harbor (twice a month) is paid weekly on Fridays from 10 April: 1–9 April is a period.
        var harbor = try await store.clinic(book.harbor.id)
        harbor.scheduleChanges = [
            ScheduleChange(effectiveFrom: day("2026-04-10"), schedule: .weekly(startingOn: .friday))
        ]
        _ = try await store.updateClinic(harbor)
        return book
    }

    @Test(arguments: StoreKind.local)
    func everyStoreStreamsItsBookAndSQLiteTakesItWhole(kind: StoreKind) async throws {
        let book = try await Self.filledBook(kind)
        let source = try #require(book.store as? any BookArchiving)
        let copy = try SQLiteStore(
            .inMemory,
            defaultSettings: BookSettings(currency: try Currency(code: "EUR"), timeZoneIdentifier: "UTC")
        )
        let counts = try await copy.restoreArchive { sink in _ = try await source.archive(into: sink) }
        #expect(
            counts.clinics == 2 && counts.products == 2 && counts.terms == 3 && counts.sales == 5 && counts.payouts == 1
                && counts.closedPeriods == 1
        )
        #expect(counts.prices == 2 && counts.deductions == 1)
        #expect(try await copy.deductions(clinic: nil) == book.store.deductions(clinic: nil))
        #expect(
            try await copy.terms(TermsQuery(includeArchived: true))
                == book.store.terms(TermsQuery(includeArchived: true))
        )
        #expect(try await copy.prices(PriceQuery()) == book.store.prices(PriceQuery()))
        #expect(try await copy.clinic(book.harbor.id).scheduleChanges.map(\.effectiveFrom) == [day("2026-04-10")])
        #expect(try await copy.settings() == book.store.settings())

        let today = day("2026-04-30")
        #expect(try await copy.dashboard(today: today) == book.store.dashboard(today: today))
        for clinic in [book.glow, book.harbor] {
            let reconciliation = try await book.store.reconciliation(clinic: clinic.id, today: today)
            #expect(try await copy.reconciliation(clinic: clinic.id, today: today) == reconciliation)
            for period in reconciliation.periods.map(\.period) {
                #expect(
                    try await copy.statement(clinic: clinic.id, period: period)
                        == book.store.statement(clinic: clinic.id, period: period)
                )
            }
        }
        #expect(
            try await copy.sales(SaleQuery(includeVoided: true)) == book.store.sales(SaleQuery(includeVoided: true))
        )
        #expect(try await copy.product(book.cream.id).isArchived)
        let log = try await book.store.auditLog(AuditQuery())
        #expect(try await copy.auditLog(AuditQuery()) == log)
        // The retry key came along: the phone's retry is still the one sale.
        let first = try #require(try await book.store.sales(SaleQuery()).last)
        let retried = try await copy.createSale(
            SaleDraft(clinicID: book.glow.id, productID: book.serum.id, date: day("2026-03-02"), quantity: 2),
            idempotencyKey: "phone-1"
        )
        #expect(retried == first)
        // The closed period stays closed.
        await #expect(throws: StoreError.self) {
            try await copy.createSale(
                SaleDraft(clinicID: book.glow.id, productID: book.serum.id, date: day("2026-03-20")),
                idempotencyKey: nil
            )
        }
    }

    @Test("An archive file holds the book exactly, and says when it is cut short") func archiveFileIsExact()
        async throws
    {
        let book = try await Self.filledBook(.sqliteMemory)
        let source = try #require(book.store as? any BookArchiving)
        let directory = URL(filePath: temporaryDatabasePath()).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appending(path: "book.jsonl").path(percentEncoded: false)
        let written = try await ArchiveFile.write(source, to: path)
        let head = try String(contentsOfFile: path, encoding: .utf8).prefix(80)
        #expect(ArchiveFile.isArchive(atPath: path), "\(head)")
        // no replacing unless told
        await #expect(throws: StoreError.self) { try await ArchiveFile.write(source, to: path) }

        // Read back, the records are the ones streamed out.
        var streamed: [ArchiveRecord] = []
        _ = try await source.archive { streamed.append($0) }
        var read: [ArchiveRecord] = []
        let counts = try await ArchiveFile.read(path) { read.append($0) }
        #expect(counts == written && read == streamed)

        // A note with a newline, a tab and quotes is one line, and comes back as it was.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 2 + 1 + 2 + 2 + 3 + 2 + 1 + 5 + 1 + 1 + counts.auditEntries)

        func refusal(_ lines: [Substring]) async -> String {
            let broken = directory.appending(path: "broken-\(UUID()).jsonl").path(percentEncoded: false)
            try? lines.joined(separator: "\n").write(toFile: broken, atomically: true, encoding: .utf8)
            do {
                try await ArchiveFile.read(broken) { _ in }
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        let lines = text.split(separator: "\n")
        #expect(await refusal(Array(lines.dropLast())).contains("cut short"))
        #expect(await refusal(Array(lines.dropFirst())).contains("line 1: this is not a Commission book archive"))
        #expect(
            await refusal(["{\"commissionArchive\":4}"] + lines.dropFirst()).contains(
                "format 4, newer than this Commission reads"
            )
        )
        var bad = lines
        bad[3] = "{\"product\":{\"id\":1,\"name\":\"Serum\"}}"
        #expect(
            await refusal(bad).contains("line 4: not a record this Commission reads (\"unitPriceMinor\" is missing)")
        )
        var late = lines
        late.insert(late[late.count - 2], at: late.count - 1)  // a record twice: the end line's count is off
        #expect(await refusal(late).contains("says it holds"))
    }

    /// The rules every restore checks a record against before writing it.
    @Test("A restore refuses an archive out of order or naming what it does not hold") func restoreRefusesABadArchive()
        throws
    {
        let settings = ArchivedBook(name: "B", settings: .test)
        let glow = Clinic(id: Clinic.ID(1), name: "Glow", schedule: .monthly)
        let serum = Product(id: Product.ID(1), name: "Serum", unitPrice: cents(5000), unitCost: cents(2000))
        let sale = Sale(
            id: Sale.ID(5),
            clinicID: glow.id,
            productID: serum.id,
            date: day("2026-03-02"),
            line: SaleLine(quantity: 1, unitPrice: cents(5000), unitCost: cents(2000), rate: nil),
            termsID: nil,
            figures: try SaleLine(quantity: 1, unitPrice: cents(5000), unitCost: cents(2000), rate: nil).figures(
                rounding: .halfAwayFromZero
            )
        )
        func refusal(_ records: [ArchiveRecord]) -> String? {
            var checker = ArchiveChecker()
            do {
                for record in records { try checker.check(record) }
                _ = try checker.finish()
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(refusal([.book(settings), .clinic(glow), .product(serum), .sales([ArchivedSale(sale: sale)])]) == nil)
        #expect(refusal([])?.contains("it is empty") == true)
        #expect(refusal([.clinic(glow)])?.contains("does not start with the book's settings") == true)
        #expect(
            refusal([.book(settings), .product(serum), .clinic(glow)])?.contains(
                "a clinic comes after the product records"
            ) == true
        )
        #expect(refusal([.book(settings), .clinic(glow), .clinic(glow)])?.contains("clinic 1 twice") == true)
        #expect(
            refusal([.book(settings), .clinic(glow), .sales([ArchivedSale(sale: sale)])])?.contains(
                "Sale 5 names product 1, which the archive does not hold"
            ) == true
        )
        var earlier = sale
        earlier.id = Sale.ID(4)
        #expect(
            refusal([
                .book(settings), .clinic(glow), .product(serum),
                .sales([ArchivedSale(sale: sale), ArchivedSale(sale: earlier)]),
            ])?
            .contains("sale 4 comes after sale 5") == true
        )
        #expect(
            refusal([
                .book(settings),
                .token(
                    ArchivedToken(
                        accountID: Account.ID(3),
                        name: "t",
                        tokenDigest: "d",
                        createdAt: 0,
                        lastUsedAt: nil,
                        revokedAt: nil
                    )
                ),
            ])?.contains("names account 3") == true
        )
        var nowhere = settings
        nowhere.settings.timeZoneIdentifier = "Mars/Olympus"
        #expect(refusal([.book(nowhere)])?.contains("Mars/Olympus") == true)
    }

    /// An archive broken in a way only the database sees (two clinics of one name) changes nothing.
    @Test func aRestoreThatFailsLeavesTheBookAsItWas() async throws {
        let book = try await Self.filledBook(.sqliteFile)
        let store = try #require(book.store as? SQLiteStore)
        let before = try await store.dashboard(today: day("2026-04-30"))
        let twin = Clinic(id: Clinic.ID(99), name: "GLOW", schedule: .monthly)
        await #expect(
            throws: StoreError.invalid(
                field: "archive",
                reason: "it holds two records a book cannot hold together (UNIQUE constraint failed: clinic.name)."
            )
        ) {
            try await store.restoreArchive { sink in
                try await sink(.book(ArchivedBook(name: "B", settings: .test)))
                try await sink(.clinic(book.glow))
                try await sink(.clinic(twin))
            }
        }
        #expect(try await store.dashboard(today: day("2026-04-30")) == before)
        #expect(try await store.countSales(SaleQuery(includeVoided: true)) == 5)
    }
}

/// Backups on a schedule: written, rotated, and restorable, on every store.
@Suite struct ScheduledBackupTests {
    @Test(arguments: StoreKind.local)
    func aScheduledBackupIsWrittenRotatedAndRestorable(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        try await book.sell(book.serum, at: book.glow, on: "2026-03-02", quantity: 2)
        try await book.sell(book.cream, at: book.harbor, on: "2026-03-05")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "commission-backups-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reports = Reports()
        guard let archiving = book.store as? any BookArchiving else {
            Issue.record("\(kind) cannot archive")
            return
        }
        let schedule = ScheduledBackups(
            directory: directory,
            every: .seconds(3600),
            keep: 2,
            books: { [ScheduledBackups.Book(folder: "book-1", source: archiving)] },
            report: { _, problems in reports.add(problems) }
        )
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        var written: [String] = []
        for hour in 0..<3 { written += await schedule.backUpOnce(now: start.addingTimeInterval(Double(hour) * 3600)) }
        #expect(written.count == 3 && reports.all == [[], [], []])
        // Rotated: the two newest are kept.
        let kept = try FileManager.default.contentsOfDirectory(atPath: directory + "/book-1").sorted()
        #expect(kept == written.suffix(2).map { URL(fileURLWithPath: $0).lastPathComponent }, "\(kept)")
        #expect(kept.allSatisfy { $0.hasPrefix("book-1-2026") && $0.hasSuffix(".jsonl") })
        // Restorable: the newest into a new book equals the book.
        let copy = try SQLiteStore(.inMemory)
        _ = try await copy.restoreArchive { sink in
            _ = try await ArchiveFile.read(try #require(written.last), into: sink)
        }
        #expect(try await copy.countSales(SaleQuery()) == 2)
        let glow = try await copy.clinic(named: "Glow")
        let march = PayPeriod(start: day("2026-03-01"), end: day("2026-03-31"))
        #expect(
            try await copy.statement(clinic: glow.id, period: march).totals
                == (try await book.store.statement(clinic: book.glow.id, period: march).totals)
        )

        // A book that cannot be archived is said, and the round goes on.
        let failing = ScheduledBackups(
            directory: "/proc/no-such-place",
            every: .seconds(60),
            keep: 1,
            books: { [ScheduledBackups.Book(folder: "book-1", source: archiving)] },
            report: { _, problems in reports.add(problems) }
        )
        #expect(await failing.backUpOnce().isEmpty)
        #expect(reports.all.last?.first?.hasPrefix("book-1: ") == true, "\(reports.all)")
        #expect(
            ScheduledBackups.period("24h") == .seconds(86_400) && ScheduledBackups.period("30m") == .seconds(1800)
                && ScheduledBackups.period("7d") == .seconds(604_800)
        )
        #expect(
            ScheduledBackups.period("24") == nil && ScheduledBackups.period("0h") == nil
                && ScheduledBackups.period("h") == nil
        )
    }

    final class Reports: Sendable {
        private let problems = Mutex<[[String]]>([])
        func add(_ some: [String]) { problems.withLock { $0.append(some) } }
        var all: [[String]] { problems.withLock { $0 } }
    }
}
