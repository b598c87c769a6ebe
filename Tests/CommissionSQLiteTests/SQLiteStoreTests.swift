import CommissionCore
import CommissionSQLite
import CommissionStore
import Foundation
import GRDB
import Testing

func temporaryPath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("commission-sqlite-\(UUID().uuidString)/book.sqlite")
        .path
}

func day(_ text: String) -> Day { try! Day(parsing: text) }
func cents(_ minor: Int64) -> Money { Money(minorUnits: minor) }

@Suite struct SQLiteStoreTests {
    @Test func aFileBookIsAWALPoolWithForeignKeysAndABusyTimeout() async throws {
        let store = try SQLiteStore(.file(temporaryPath()))
        #expect(store.writer is DatabasePool)
        let (journal, foreignKeys, synchronous, timeout) = try await store.writer.write { db in
            (
                try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA foreign_keys"),
                try Int.fetchOne(db, sql: "PRAGMA synchronous"), try Int.fetchOne(db, sql: "PRAGMA busy_timeout")
            )
        }
        #expect(journal == "wal")
        #expect(foreignKeys == 1)
        #expect(synchronous == 1)  // NORMAL
        #expect(timeout == 10_000)
    }

    @Test func migrationsAreNamedAndRunOnceWhenTheStoreOpens() async throws {
        let path = temporaryPath()
        _ = try SQLiteStore(.file(path))
        let reopened = try SQLiteStore(.file(path))
        let applied = try await reopened.writer.read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
        }
        #expect(
            applied == [
                "v1: book", "v1: clinics and products", "v1: terms", "v1: sales", "v1: payouts and closed periods",
                "v1: summary tables",
                "v2: accounts, sessions and API tokens", "v3: product year summary", "v4: members and invitations",
                "v5: audit log",
                "v6: idempotency keys indexed where set", "v7: sales by product through the date index",
                "v8: summaries clustered by their key", "v9: the book's locale",
                "v10: clinic price lists and schedule changes",
                "v11: tiers and deductions", "v12: expected figures by pay period", "v13: saved column mappings",
                "v14: clinics' product names", "v15: idempotency keys of write requests",
                "v16: sign-in failures and server secrets",
                "v17: the book's epoch, products and clinics on the audit log",
                "v18: the question about her history",
                "v19: reminders, push devices and the pay dates calendar",
            ]
        )
    }

    /// Idempotency keys are unique where a sale has one, and sales without (every imported one)
    /// cost no index entry; the lookup of a key still goes through the index.
    @Test func idempotencyKeysAreUniqueAndIndexedOnlyWhereSet() async throws {
        let store = try SQLiteStore(.file(temporaryPath()))
        let clinic = try await store.createClinic(ClinicDraft(name: "A", schedule: .monthly))
        let product = try await store.createProduct(
            ProductDraft(name: "P", unitPrice: cents(1000), unitCost: cents(100))
        )
        _ = try await store.createTerms(
            TermsDraft(clinicID: clinic.id, share: try Share(basisPoints: 5000), effectiveFrom: day("2026-01-01"))
        )
        let draft = SaleDraft(clinicID: clinic.id, productID: product.id, date: day("2026-02-02"), quantity: 1)
        let keyed = try await store.createSale(draft, idempotencyKey: "k-1")
        for _ in 0..<3 { _ = try await store.createSale(draft, idempotencyKey: nil) }
        try await store.writer.write { db in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sale") == 4)
            #expect(
                try Int.fetchOne(
                    db,
                    sql: "SELECT count(*) FROM sale INDEXED BY sale_idempotencyKey WHERE idempotencyKey IS NOT NULL"
                ) == 1
            )
            #expect(
                try String.fetchOne(
                    db,
                    sql:
                        "SELECT group_concat(name) FROM sqlite_master WHERE tbl_name = 'sale' AND name LIKE 'sqlite_autoindex%'"
                ) == nil
            )
            let plan = try Row.fetchAll(
                db,
                sql: "EXPLAIN QUERY PLAN SELECT id FROM sale WHERE idempotencyKey = ?",
                arguments: ["k-1"]
            ).map { $0["detail"] as String }
            #expect(plan.contains { $0.contains("sale_idempotencyKey") }, "\(plan)")
            // SQLite itself refuses a second sale with the same key.
            #expect(throws: DatabaseError.self) {
                try db.execute(
                    sql: "UPDATE sale SET idempotencyKey = 'k-1' WHERE id <> ?",
                    arguments: [keyed.id.rawValue]
                )
            }
        }
        #expect(try await store.createSale(draft, idempotencyKey: "k-1").id == keyed.id)
    }

    /// The sales lists, whatever their filter, come in the order of an index (no sort of every
    /// matching sale before the first page); a product's sales are found through the date index,
    /// which carries the product and the voided flag, so counting them reads no sale.
    @Test("Sales lists come in index order, and a product's sales are counted from the date index")
    func salesListsFollowTheirIndexes() async throws {
        let store = try SQLiteStore(.file(temporaryPath()))
        let clinic = try await store.createClinic(ClinicDraft(name: "A", schedule: .monthly))
        let product = try await store.createProduct(
            ProductDraft(name: "P", unitPrice: cents(1000), unitCost: cents(100))
        )
        _ = try await store.createTerms(
            TermsDraft(clinicID: clinic.id, share: try Share(basisPoints: 5000), effectiveFrom: day("2026-01-01"))
        )
        for date in ["2026-02-02", "2026-02-01", "2026-03-05"] {
            _ = try await store.createSale(
                SaleDraft(clinicID: clinic.id, productID: product.id, date: day(date), quantity: 1),
                idempotencyKey: nil
            )
        }
        let page = Page(limit: 50)
        let lists = [
            SaleQuery(page: page), SaleQuery(order: .oldestFirst, page: page),
            SaleQuery(includeVoided: true, page: page),
            SaleQuery(productID: product.id, page: page),
            SaleQuery(productID: product.id, order: .oldestFirst, page: page),
            SaleQuery(productID: product.id, from: day("2026-02-01"), through: day("2026-02-28"), page: page),
            SaleQuery(clinicID: clinic.id, page: page),
            SaleQuery(clinicID: clinic.id, productID: product.id, page: page),
            SaleQuery(from: day("2026-02-01"), page: page),
        ]
        try await store.writer.read { db in
            func plan(_ statement: (sql: String, arguments: StatementArguments)) throws -> [String] {
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments).map {
                    $0["detail"] as String
                }
            }
            for query in lists {
                let steps = try plan(SQLiteStore.salesStatement(query))
                #expect(
                    steps.contains {
                        $0.contains("USING INDEX sale_date") || $0.contains("USING INDEX sale_clinic_date")
                    },
                    "\(query): \(steps)"
                )
                #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "\(query): \(steps)")
            }
            // Not voided, by clinic and dates: summed from the day summary, not counted sale by sale.
            for query in [
                SaleQuery(), SaleQuery(clinicID: clinic.id),
                SaleQuery(clinicID: clinic.id, from: day("2026-02-01"), through: day("2026-02-28")),
            ] {
                let steps = try plan(SQLiteStore.countSalesStatement(query))
                #expect(
                    steps.allSatisfy { !$0.contains("sale ") && !$0.hasSuffix("sale") }
                        && steps.contains { $0.contains("clinicDayTotal") },
                    "\(query): \(steps)"
                )
            }
            for query in [
                SaleQuery(productID: product.id), SaleQuery(productID: product.id, includeVoided: true),
                SaleQuery(productID: product.id, from: day("2026-02-01"), through: day("2026-02-28")),
            ] {
                let steps = try plan(SQLiteStore.countSalesStatement(query))
                #expect(steps.contains { $0.contains("USING COVERING INDEX sale_date") }, "\(query): \(steps)")
            }
        }
        // And the lists hold what they should, in order.
        let newest = try await store.sales(SaleQuery(productID: product.id, page: Page(limit: 2)))
        #expect(newest.map(\.date) == [day("2026-03-05"), day("2026-02-02")])
        #expect(
            try await store.countSales(
                SaleQuery(productID: product.id, from: day("2026-02-01"), through: day("2026-02-28"))
            ) == 2
        )
    }

    @Test("Values are stored as exact integers and schedules as two checked columns") func valuesAreStoredExactly()
        async throws
    {
        let store = try SQLiteStore(.file(temporaryPath()))
        let clinic = try await store.createClinic(
            ClinicDraft(name: "Lumen", schedule: .biweekly(anchor: day("2026-01-02")))
        )
        let product = try await store.createProduct(
            ProductDraft(name: "Mask", unitPrice: cents(4250), unitCost: cents(1601))
        )
        _ = try await store.createTerms(
            TermsDraft(clinicID: clinic.id, share: try Share(parsing: "37.5"), effectiveFrom: day("2026-01-01"))
        )
        _ = try await store.createSale(
            SaleDraft(clinicID: clinic.id, productID: product.id, date: day("2026-03-02")),
            idempotencyKey: nil
        )
        try await store.writer.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT scheduleKind, scheduleAnchor FROM clinic"))
            #expect(row[0] as String == "biweekly" && row[1] as String == "2026-01-02")
            let sale = try #require(
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT typeof(revenueMinor), revenueMinor, profitMinor, shareBasisPoints, commissionExact, commissionMinor FROM sale
                        """
                )
            )
            // 42.50 − 16.01 = 26.49 profit; × 3750 bp = 9,933,750 ten-thousandths = 993.375 cents → 9.93.
            #expect(sale[0] as String == "integer")
            #expect(sale[1] as Int64 == 4250 && sale[2] as Int64 == 2649 && sale[3] as Int == 3750)
            #expect(sale[4] as Int64 == 9_933_750 && sale[5] as Int64 == 993)
        }
        // The schema itself refuses a weekly schedule without its weekday, and a share above 100%.
        await #expect(throws: DatabaseError.self) {
            try await store.writer.write { db in
                try db.execute(
                    sql: "INSERT INTO clinic (name, scheduleKind, scheduleAnchor) VALUES ('Bad', 'weekly', NULL)"
                )
            }
        }
        await #expect(throws: DatabaseError.self) {
            try await store.writer.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO terms (clinicId, basis, shareBasisPoints, effectiveFrom) VALUES (1, 'profit', 10001, '2026-01-01')"
                )
            }
        }
        // And a sale's clinic cannot be deleted under it.
        await #expect(throws: DatabaseError.self) {
            try await store.writer.write { db in try db.execute(sql: "DELETE FROM clinic") }
        }
    }

    @Test func summaryTablesEqualARecountFromTheSales() async throws {
        let store = try SQLiteStore(.file(temporaryPath()))
        let clinics = [
            try await store.createClinic(ClinicDraft(name: "A", schedule: .monthly)),
            try await store.createClinic(ClinicDraft(name: "B", schedule: .weekly(startingOn: .monday))),
        ]
        let products = [
            try await store.createProduct(ProductDraft(name: "P", unitPrice: cents(1999), unitCost: cents(733))),
            try await store.createProduct(ProductDraft(name: "Q", unitPrice: cents(505), unitCost: cents(10))),
        ]
        for clinic in clinics {
            _ = try await store.createTerms(
                TermsDraft(clinicID: clinic.id, share: try Share(basisPoints: 3333), effectiveFrom: day("2025-01-01"))
            )
        }
        // B takes a share of its revenue: its expected figure per period is kept (`clinicPeriodTotal`).
        _ = try await store.createDeduction(
            Deduction(
                id: Deduction.ID(0),
                clinicID: clinics[1].id,
                name: "Card fees",
                amount: .shareOfRevenue(try Share(basisPoints: 250)),
                effectiveFrom: day("2025-01-01")
            )
        )
        // Seeded, so that a failure repeats.
        var generator = SplitMix64(seed: 2025)
        var ids: [Sale.ID] = []
        for _ in 0..<300 {
            let quantity = Int64.random(in: -2...5, using: &generator)
            guard quantity != 0 else { continue }
            ids.append(
                try await store.createSale(
                    SaleDraft(
                        clinicID: clinics.randomElement(using: &generator)!.id,
                        productID: products.randomElement(using: &generator)!.id,
                        date: Day(ordinal: day("2025-11-01").ordinal + Int.random(in: 0...120, using: &generator)),
                        quantity: quantity
                    ),
                    idempotencyKey: nil
                ).id
            )
        }
        for id in ids.shuffled(using: &generator).prefix(40) { _ = try await store.voidSale(id) }
        for id in ids.shuffled(using: &generator).prefix(40) where !(try await store.sale(id).isVoided) {
            let sale = try await store.sale(id)
            _ = try await store.updateSale(
                id,
                with: SaleDraft(
                    clinicID: clinics.randomElement(using: &generator)!.id,
                    productID: sale.productID,
                    date: sale.date.adding(days: 31),
                    quantity: sale.quantity
                )
            )
        }
        _ = try await store.createTerms(
            TermsDraft(clinicID: clinics[0].id, share: try Share(basisPoints: 5001), effectiveFrom: day("2025-12-15"))
        )
        // An import of sales and of backdated terms, in one transaction.
        let imported =
            (0..<200).map { index in
                ImportRow(
                    line: index + 2,
                    record: .sale(
                        NamedSaleDraft(
                            clinic: index.isMultiple(of: 2) ? "A" : "B",
                            product: index.isMultiple(of: 3) ? "P" : "Q",
                            date: day("2025-11-01").adding(days: index % 150),
                            quantity: index % 7 == 0 ? -1 : 2
                        )
                    )
                )
            } + [
                ImportRow(
                    line: 300,
                    record: .terms(
                        NamedTermsDraft(
                            clinic: "A",
                            product: nil,
                            basis: .revenue,
                            share: try Share(basisPoints: 1234),
                            effectiveFrom: day("2026-01-10")
                        )
                    )
                )
            ]
        let schema = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
        let schemaBefore = try store.writer.read { db in try Row.fetchAll(db, sql: schema) }
        _ = try await store.importRows(from: MemorySource(rows: imported), options: ImportOptions())
        // A bulk import keeps the summaries itself with the triggers off; they are back afterwards,
        // exactly as the migrations made them, and keep the summaries of the sales that follow.
        let schemaAfter = try store.writer.read { db in try Row.fetchAll(db, sql: schema) }
        #expect(schemaAfter == schemaBefore)
        for index in 0..<20 {
            let sale = try await store.createSale(
                SaleDraft(
                    clinicID: clinics[index % 2].id,
                    productID: products[index % 2].id,
                    date: day("2026-01-20").adding(days: index),
                    quantity: 3
                ),
                idempotencyKey: nil
            )
            if index.isMultiple(of: 4) { _ = try await store.voidSale(sale.id) }
        }

        try await store.writer.read { db in
            let figures =
                "count(*), sum(quantity), sum(revenueMinor), sum(costMinor), sum(profitMinor), sum(commissionMinor), sum(commissionExact)"
            let stored =
                "sum(saleCount), sum(quantity), sum(revenueMinor), sum(costMinor), sum(profitMinor), sum(commissionMinor), sum(commissionExact)"
            let pairs = [
                (
                    "SELECT clinicId, date, \(figures) FROM sale WHERE isVoided = 0 GROUP BY 1, 2 ORDER BY 1, 2",
                    "SELECT clinicId, date, \(stored) FROM clinicDayTotal GROUP BY 1, 2 ORDER BY 1, 2"
                ),
                (
                    "SELECT clinicId, substr(date, 1, 7), \(figures) FROM sale WHERE isVoided = 0 GROUP BY 1, 2 ORDER BY 1, 2",
                    "SELECT clinicId, month, \(stored) FROM clinicMonthTotal GROUP BY 1, 2 ORDER BY 1, 2"
                ),
                (
                    "SELECT productId, substr(date, 1, 7), \(figures) FROM sale WHERE isVoided = 0 GROUP BY 1, 2 ORDER BY 1, 2",
                    "SELECT productId, month, \(stored) FROM productMonthTotal GROUP BY 1, 2 ORDER BY 1, 2"
                ),
                (
                    "SELECT productId, substr(date, 1, 4), \(figures) FROM sale WHERE isVoided = 0 GROUP BY 1, 2 ORDER BY 1, 2",
                    "SELECT productId, year, \(stored) FROM productYearTotal GROUP BY 1, 2 ORDER BY 1, 2"
                ),
            ]
            for (recount, summary) in pairs {
                // Compare values only: the two queries name their columns differently.
                let expected = try Row.fetchAll(db, sql: recount).map { Array($0.databaseValues) }
                #expect(!expected.isEmpty)
                #expect(try Row.fetchAll(db, sql: summary).map { Array($0.databaseValues) } == expected, "\(summary)")
            }
        }
        // The count beside the sales list, summed from the day summary where it can be, is the
        // number of sales the list holds, whatever the filter.
        let queries = [
            SaleQuery(), SaleQuery(clinicID: clinics[1].id), SaleQuery(from: day("2025-12-01")),
            SaleQuery(through: day("2026-01-15")),
            SaleQuery(clinicID: clinics[0].id, from: day("2025-11-10"), through: day("2026-02-01")),
            SaleQuery(text: ""),
            SaleQuery(from: day("2027-01-01")), SaleQuery(includeVoided: true),
            SaleQuery(clinicID: clinics[0].id, productID: products[1].id),
        ]
        for query in queries {
            let listed = try await store.sales(query).count
            #expect(try await store.countSales(query) == listed, "\(query)")
        }
        #expect(try await store.countSales(SaleQuery()) > 300)
        // The summaries are clustered by their key (schema v8): read where the key finds them.
        let clustered = try await store.writer.read { db in
            try String.fetchAll(
                db,
                sql: "SELECT name FROM pragma_table_list WHERE wr = 1 AND schema = 'main' ORDER BY name"
            )
        }
        // (and the clinics' product names, WITHOUT ROWID for their key too, schema v14; the reminders
        // sent, claimed by their key, v19.)
        #expect(
            clustered == [
                "clinicDayTotal", "clinicMonthTotal", "clinicPeriodDirty", "clinicPeriodTotal", "idempotencyKey",
                "productAlias", "productMonthTotal", "productYearTotal", "reminderSent", "serverSecret",
                "signInFailure",
            ]
        )

        // B's kept figures are its reconciliation's, recounted from its sales, period by period
        // (imported, moved, voided and recomputed sales included); A is not kept; no mark is left.
        let kept = try await store.writer.read { db in
            (
                clinics: try Int64.fetchAll(db, sql: "SELECT clinicId FROM clinicPeriodKept"),
                rows: try Row.fetchAll(
                    db,
                    sql:
                        "SELECT periodStart, expectedMinor FROM clinicPeriodTotal WHERE clinicId = ? ORDER BY periodStart",
                    arguments: [clinics[1].id.rawValue]
                ).map { "\($0[0] as String) \($0[1] as Int64)" },
                marks: try Int.fetchOne(db, sql: "SELECT count(*) FROM clinicPeriodDirty")
            )
        }
        let recount = try await store.reconciliation(clinic: clinics[1].id, today: day("2027-12-31")).periods
        #expect(kept.clinics == [clinics[1].id.rawValue])
        #expect(kept.marks == 0)
        #expect(kept.rows.count > 10)
        #expect(kept.rows == recount.map { "\($0.period.start) \($0.expected.minorUnits)" })

        // Rounding once per statement: every clinic's figure is kept, each its reconciliation's.
        var settings = try await store.settings()
        settings.rounding = RoundingPolicy(rule: .halfToEven, scope: .perStatement)
        try await store.updateSettings(settings)
        for clinic in clinics {
            let rows = try await store.writer.read { db in
                try Row.fetchAll(
                    db,
                    sql:
                        "SELECT periodStart, expectedMinor FROM clinicPeriodTotal WHERE clinicId = ? ORDER BY periodStart",
                    arguments: [clinic.id.rawValue]
                ).map { "\($0[0] as String) \($0[1] as Int64)" }
            }
            let recount = try await store.reconciliation(clinic: clinic.id, today: day("2027-12-31")).periods
            #expect(!rows.isEmpty)
            #expect(rows == recount.map { "\($0.period.start) \($0.expected.minorUnits)" }, "\(clinic.name)")
        }
        #expect(
            try await store.writer.read { db in
                try Int64.fetchAll(db, sql: "SELECT clinicId FROM clinicPeriodKept ORDER BY 1")
            }
                == clinics.map(\.id.rawValue)
        )
    }

    /// A book written before the product-year summary gets it filled from its sales when it opens.
    @Test func theProductYearSummaryIsFilledFromExistingSales() async throws {
        let path = temporaryPath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        let old = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(old, upTo: "v2: accounts, sessions and API tokens")
        try await old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO book (id, currencyCode, currencyMinorDigits, timeZone, roundingRule, roundingScope)
                    VALUES (1, 'USD', 2, 'UTC', 'half-away-from-zero', 'per-line');
                    INSERT INTO clinic (id, name, scheduleKind) VALUES (1, 'A', 'monthly');
                    INSERT INTO product (id, name, unitPriceMinor, unitCostMinor) VALUES (1, 'P', 1000, 400), (2, 'Q', 500, 100);
                    """
            )
            // Three sales of P across two years, one of Q, and a voided one that counts nowhere.
            for (product, date, revenue, voided) in [
                (1, "2025-12-31", 1000, 0), (1, "2026-01-01", 2000, 0), (1, "2026-06-30", 1000, 0),
                (2, "2026-02-02", 500, 0), (2, "2026-02-03", 500, 1),
            ] {
                try db.execute(
                    sql: """
                        INSERT INTO sale (clinicId, productId, date, quantity, unitPriceMinor, unitCostMinor, discountMinor,
                                          revenueMinor, costMinor, profitMinor, commissionExact, commissionMinor, isVoided)
                        VALUES (1, ?, ?, 1, ?, 0, 0, ?, 0, ?, ?, ?, ?)
                        """,
                    arguments: [product, date, revenue, revenue, revenue, revenue * 10_000 / 10, revenue / 10, voided]
                )
            }
        }
        try old.close()
        let store = try SQLiteStore(.file(path))
        let rows = try store.writer.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT year, productId, saleCount, revenueMinor, commissionMinor FROM productYearTotal ORDER BY year, productId"
            )
        }
        let found = rows.map { row -> String in
            "\(row[0] as String) \(row[1] as Int) \(row[2] as Int) \(row[3] as Int) \(row[4] as Int)"
        }
        // year, product, sales, revenue, commission
        #expect(found == ["2025 1 1 1000 100", "2026 1 2 3000 300", "2026 2 1 500 50"])
    }

    /// A book of schema v11 with a deduction: the upgrade keeps its clinic's expected figure per
    /// period, as its reconciliation recounts it; a clinic without one is not kept.
    @Test func theUpgradeKeepsThePeriodsOfClinicsWithDeductions() async throws {
        let path = temporaryPath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        let old = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(old, upTo: "v11: tiers and deductions")
        try await old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO book (id, currencyCode, currencyMinorDigits, timeZone, roundingRule, roundingScope)
                    VALUES (1, 'USD', 2, 'UTC', 'half-away-from-zero', 'per-line');
                    INSERT INTO clinic (id, name, scheduleKind) VALUES (1, 'A', 'monthly'), (2, 'B', 'monthly');
                    INSERT INTO product (id, name, unitPriceMinor, unitCostMinor) VALUES (1, 'P', 1000, 400);
                    INSERT INTO deduction (clinicId, name, kind, amountMinor, effectiveFrom) VALUES (1, 'Rent', 'fixed', 150, '2026-01-01');
                    """
            )
            for (clinic, date) in [(1, "2026-01-05"), (1, "2026-01-20"), (1, "2026-03-02"), (2, "2026-01-05")] {
                try db.execute(
                    sql: """
                        INSERT INTO sale (clinicId, productId, date, quantity, unitPriceMinor, unitCostMinor, discountMinor,
                                          revenueMinor, costMinor, profitMinor, commissionExact, commissionMinor, isVoided)
                        VALUES (?, 1, ?, 1, 1000, 400, 0, 1000, 400, 600, 2400000, 240, 0)
                        """,
                    arguments: [clinic, date]
                )
            }
        }
        try old.close()
        let store = try SQLiteStore(.file(path))
        let kept = try await store.writer.read { db in
            (
                clinics: try Int64.fetchAll(db, sql: "SELECT clinicId FROM clinicPeriodKept"),
                rows: try Row.fetchAll(
                    db,
                    sql: "SELECT clinicId, periodStart, periodEnd, expectedMinor FROM clinicPeriodTotal ORDER BY 1, 2"
                )
                .map { "\($0[0] as Int64) \($0[1] as String) \($0[2] as String) \($0[3] as Int64)" },
                marks: try Int.fetchOne(db, sql: "SELECT count(*) FROM clinicPeriodDirty")
            )
        }
        // January: two lines of 2.40, less 1.50 rent = 3.30; March: 2.40 − 1.50 = 0.90.
        #expect(kept.clinics == [1] && kept.marks == 0)
        #expect(kept.rows == ["1 2026-01-01 2026-01-31 330", "1 2026-03-01 2026-03-31 90"])
        #expect(
            try await store.reconciliation(clinic: Clinic.ID(1), today: day("2026-03-10")).periods.map(
                \.expected.minorUnits
            ) == [330, 90]
        )
        let dashboard = try await store.dashboard(today: day("2026-03-10"))
        #expect(dashboard.clinics.map(\.arrears.owed.minorUnits) == [420, 240])
    }

    @Test func theAuditLogIsAppendOnly() async throws {
        let store = try SQLiteStore(.file(temporaryPath()))
        let clinic = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        try await store.closePeriod(
            clinic: clinic.id,
            period: PaySchedule.monthly.period(containing: day("2026-03-02"))
        )
        #expect(try await store.auditLog(AuditQuery()).map(\.action) == ["close", "create"])
        for sql in ["UPDATE auditEntry SET actor = 'someone else'", "DELETE FROM auditEntry"] {
            await #expect(throws: DatabaseError.self) {
                try await store.writer.write { db in try db.execute(sql: sql) }
            }
        }
        #expect(try await store.auditLog(AuditQuery()).map(\.actor) == ["system", "system"])
    }

    /// The account of a book written before members existed is its owner, and still signs in.
    @Test func theAccountOfAnOlderBookBecomesItsOwner() async throws {
        let path = temporaryPath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        let old = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(old, upTo: "v3: product year summary")
        try await old.write { db in
            try db.execute(
                sql: "INSERT INTO account (id, username, passwordHash, createdAt) VALUES (7, 'ana', 'hash', 0)"
            )
        }
        try old.close()
        let store = try SQLiteStore(.file(path))
        #expect(try await store.role(of: Account.ID(7)) == .owner)
        #expect(try await store.members().map(\.account.username) == ["ana"])
        #expect(try await store.credentials(username: "ANA")?.passwordHash == "hash")
    }

    /// A server keeps settings and tokens in memory; a change by another process (two stores on one
    /// file stand for two) still reaches it within a moment, and its own changes at once.
    @Test(.timeLimit(.minutes(10))) func cachedSettingsAndTokensFollowChangesOfEveryProcess() async throws {
        let path = temporaryPath()
        let server = try SQLiteStore(
            .file(path),
            defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        )
        let cli = try SQLiteStore(.file(path))
        server.cacheHotReads()
        let owner = try await server.createOwner(username: "owner", passwordHash: "x")
        let first = try await server.createToken(account: owner.id, name: "one", tokenDigest: "digest-1", now: Date())
        let second = try await server.createToken(account: owner.id, name: "two", tokenDigest: "digest-2", now: Date())
        for _ in 0..<3 {  // read, then served from memory
            #expect(try await server.account(tokenDigest: "digest-1", now: Date()) == owner)
            #expect(try await server.account(tokenDigest: "digest-2", now: Date()) == owner)
            #expect(try await server.settings().timeZoneIdentifier == "UTC")
        }
        // Its own revocation: refused at once.
        try await server.revokeToken(first.id, account: owner.id)
        #expect(try await server.account(tokenDigest: "digest-1", now: Date()) == nil)
        for _ in 0..<2 {  // in memory again
            #expect(try await server.account(tokenDigest: "digest-2", now: Date()) == owner)
            #expect(try await server.settings().timeZoneIdentifier == "UTC")
        }
        #expect(server.caches.withLock { $0.tokens["digest-2"] != nil && $0.settings != nil })
        // Another process's revocation and settings change: seen at the watcher's next look (it
        // looks every 250 ms; waited for however long a busy machine takes: the time limit ends a
        // watcher that never sees them).
        try await cli.revokeToken(second.id, account: owner.id)
        var settings = try await cli.settings()
        settings.timeZoneIdentifier = "Europe/Paris"
        try await cli.updateSettings(settings)
        while true {
            let account = try await server.account(tokenDigest: "digest-2", now: Date())
            let zone = try await server.settings().timeZoneIdentifier
            if account == nil && zone == "Europe/Paris" { break }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Names stored before they were kept in their comparable form — two spaces in a row, a user
    /// name with a capital beyond ASCII — are still found as they are typed.
    @Test func namesStoredBeforeNormalisationAreStillFound() async throws {
        let path = temporaryPath()
        let store = try SQLiteStore(.file(path))
        let old = try DatabaseQueue(path: path)
        try await old.write { db in
            try db.execute(sql: "INSERT INTO clinic (name, scheduleKind) VALUES ('Glow  Aesthetics', 'monthly')")
            try db.execute(
                sql: "INSERT INTO product (name, unitPriceMinor, unitCostMinor) VALUES ('Cre\u{0300}me', 100, 0)"
            )
            try db.execute(sql: "INSERT INTO account (username, passwordHash, createdAt) VALUES ('Élodie', 'x', 0)")
        }
        #expect(try await store.clinic(named: "Glow  Aesthetics").name == "Glow  Aesthetics")
        #expect(try await store.product(named: "Cre\u{0300}me").name == "Cre\u{0300}me")
        #expect(try await store.credentials(username: "Élodie")?.account.username == "Élodie")
        await #expect(throws: StoreError.unknownClinic("Harbor")) { try await store.clinic(named: "Harbor") }
    }

    /// Amounts are bounded at entry so that no total can overflow; should one ever be about to (a
    /// day's total set near the limit here by hand), the sale is refused rather than SQLite turning
    /// the sum into a float.
    @Test func summariesRefuseToOverflowRatherThanTurnIntoFloats() async throws {
        let path = temporaryPath()
        let store = try SQLiteStore(.file(path))
        let clinic = try await store.createClinic(ClinicDraft(name: "A", schedule: .monthly))
        let product = try await store.createProduct(
            ProductDraft(name: "Gold", unitPrice: SaleLine.largestUnitAmount, unitCost: .zero)
        )
        let sale = SaleDraft(
            clinicID: clinic.id,
            productID: product.id,
            date: day("2026-03-02"),
            quantity: SaleLine.largestQuantity,
            noCommission: true
        )
        _ = try await store.createSale(sale, idempotencyKey: nil)
        let other = try DatabaseQueue(path: path)
        try await other.write { db in
            try db.execute(sql: "UPDATE clinicDayTotal SET revenueMinor = ?", arguments: [Int64.max - 1])
        }
        // A second sale's revenue would push the day's total past Int64.max.
        await #expect(throws: StoreError.self) { _ = try await store.createSale(sale, idempotencyKey: nil) }
        #expect(try await store.countSales(SaleQuery()) == 1)
        #expect(
            try await other.read { db in try Int64.fetchOne(db, sql: "SELECT revenueMinor FROM clinicDayTotal") }
                == Int64.max - 1
        )
    }

    @Test func defaultPathFollowsTheEnvironment() {
        #expect(
            SQLiteStore.defaultPath(environment: ["HOME": "/home/ana"])
                == "/home/ana/.local/share/commission/commission.sqlite"
        )
        #expect(
            SQLiteStore.defaultPath(environment: ["HOME": "/home/ana", "XDG_DATA_HOME": "/data"])
                == "/data/commission/commission.sqlite"
        )
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        #expect(
            SQLiteStore.defaultPath(environment: ["HOME": "/home/ana", "XDG_DATA_HOME": "data"])
                == "/home/ana/.local/share/commission/commission.sqlite"
        )
        #expect(
            SQLiteStore.defaultPath(environment: [
                "HOME": "/home/ana", "XDG_DATA_HOME": "/data", "COMMISSION_DB": "/tmp/b.sqlite",
            ]) == "/tmp/b.sqlite"
        )
    }

    @Test("A backup taken while writes go on restores to identical figures") func backupDuringWrites() async throws {
        let store = try SQLiteStore(.file(temporaryPath()))
        let clinic = try await store.createClinic(ClinicDraft(name: "A", schedule: .semimonthly))
        let product = try await store.createProduct(
            ProductDraft(name: "P", unitPrice: cents(1234), unitCost: cents(99))
        )
        _ = try await store.createTerms(
            TermsDraft(clinicID: clinic.id, share: try Share(basisPoints: 4000), effectiveFrom: day("2026-01-01"))
        )
        let writes = Task {
            for index in 0..<300 {
                _ = try await store.createSale(
                    SaleDraft(
                        clinicID: clinic.id,
                        productID: product.id,
                        date: Day(ordinal: day("2026-01-01").ordinal + index % 200)
                    ),
                    idempotencyKey: nil
                )
            }
        }
        // Back up once the writes are well under way.
        while try await store.countSales(SaleQuery()) < 20 { try await Task.sleep(for: .milliseconds(1)) }
        let backupPath = temporaryPath()
        try await store.backup(to: backupPath)
        try await writes.value

        let copy = try SQLiteStore(.file(backupPath))
        let copied = try await copy.countSales(SaleQuery())
        #expect(copied >= 20)
        // The copy is a consistent snapshot: its summaries agree with its own sales.
        let recount = try await copy.sales(SaleQuery()).reduce(Int64(0)) { $0 + $1.figures.commission.minorUnits }
        #expect(try await copy.dashboard(today: day("2026-12-31")).yearTotals.commission.minorUnits == recount)

        // Restoring it into a fresh book gives the same figures.
        let restored = try SQLiteStore(.file(temporaryPath()))
        try await restored.restore(from: backupPath)
        #expect(
            try await restored.dashboard(today: day("2026-12-31"))
                == (try await copy.dashboard(today: day("2026-12-31")))
        )
        // Backups never overwrite by accident.
        await #expect(throws: StoreError.self) { try await store.backup(to: backupPath) }
    }

    /// A restore by another process (the CLI while a server runs) reaches the server's live pages,
    /// though the backup's own revision counter is older than the one the server knows.
    @Test(.timeLimit(.minutes(10)), arguments: ["backup file", "book archive"])
    func aRestoreByAnotherProcessIsAnnouncedToThisOne(kind: String) async throws {
        let path = temporaryPath()
        let server = try SQLiteStore(.file(path))
        let clinic = try await server.createClinic(ClinicDraft(name: "A", schedule: .monthly))
        let product = try await server.createProduct(ProductDraft(name: "P", unitPrice: cents(1000), unitCost: .zero))
        let backupPath = temporaryPath()
        if kind == "backup file" {
            try await server.backup(to: backupPath)
        } else {
            try await ArchiveFile.write(server, to: backupPath)
        }
        for _ in 0..<5 {  // the book moves on past the backup
            _ = try await server.createSale(
                SaleDraft(clinicID: clinic.id, productID: product.id, date: day("2026-03-02"), noCommission: true),
                idempotencyKey: nil
            )
        }
        let announced = Task {
            for await tables in server.changes() where tables.contains(.sales) { return true }
            return false
        }
        try await Task.sleep(for: .milliseconds(300))  // the watcher is polling
        let cli = try SQLiteStore(.file(path))
        if kind == "backup file" {
            try await cli.restore(from: backupPath)
        } else {
            _ = try await cli.restoreArchive { sink in try await ArchiveFile.read(backupPath, into: sink) }
        }
        // However long a busy machine takes: the time limit ends (cancels) a watcher that never tells.
        #expect(
            await withTaskCancellationHandler {
                await announced.value
            } onCancel: {
                announced.cancel()
            },
            "the server was not told of the restore"
        )
        #expect(try await server.countSales(SaleQuery()) == 0)
    }
}

struct MemorySource: ImportSource {
    var rows: [ImportRow]
    func column(for field: String) -> String? { field }
    func read(_ body: (ImportRow) throws -> Void) throws -> [ImportProblem] {
        for row in rows { try body(row) }
        return []
    }
}

/// What an earlier version could store, or a hand edit leave behind, costs that row and nothing more.
@Suite struct StoredValueTests {
    /// Found by Schemathesis (another seed than the test script's): a sale dated 0001-01-01 at a
    /// clinic paid every two weeks falls in a period that starts on 0000-12-29. An earlier version
    /// let that period be closed, and from then on reconciling the clinic, voiding its sales and
    /// reconciling every clinic failed on "a stored date "0000-12-29" is malformed".
    @Test("A period stored at the calendar's edge is read and can be reopened") func periodAtCalendarsEdge()
        async throws
    {
        let store = try SQLiteStore(
            .file(temporaryPath()),
            defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        )
        let clinic = try await store.createClinic(
            ClinicDraft(name: "Fortnightly", schedule: .biweekly(anchor: day("2026-01-02")))
        )
        let product = try await store.createProduct(
            ProductDraft(name: "P", unitPrice: cents(1000), unitCost: cents(100))
        )
        _ = try await store.createTerms(
            TermsDraft(clinicID: clinic.id, share: try Share(basisPoints: 5000), effectiveFrom: day("2026-01-01"))
        )
        let sale = try await store.createSale(
            SaleDraft(clinicID: clinic.id, productID: product.id, date: day("2026-02-02"), quantity: 1),
            idempotencyKey: nil
        )
        let edge = clinic.schedule.period(containing: day("0001-01-01"))
        try await store.writer.write { db in
            try db.execute(
                sql: "INSERT INTO closedPeriod (clinicId, periodStart, periodEnd) VALUES (?, '0000-12-29', ?)",
                arguments: [clinic.id.rawValue, edge.end.description]
            )
        }
        #expect(edge.start.description == "0000-12-29")
        #expect(try await store.reconciliation(clinic: clinic.id, today: day("2026-02-20")).periods.count >= 1)
        #expect(try await store.voidSale(sale.id).isVoided)
        try await store.reopenPeriod(clinic: clinic.id, period: edge)
        #expect(
            try await store.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM closedPeriod") } == 0
        )
    }

    @Test("A stored value that cannot be read is an error about its row only") func unreadableStoredValue() async throws
    {
        let store = try SQLiteStore(
            .file(temporaryPath()),
            defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        )
        let clinic = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        let product = try await store.createProduct(
            ProductDraft(name: "P", unitPrice: cents(1000), unitCost: cents(100))
        )
        _ = try await store.createTerms(
            TermsDraft(clinicID: clinic.id, share: try Share(basisPoints: 5000), effectiveFrom: day("2026-01-01"))
        )
        var made: [Sale] = []
        for date in ["2026-02-02", "2026-02-03"] {
            made.append(
                try await store.createSale(
                    SaleDraft(clinicID: clinic.id, productID: product.id, date: day(date), quantity: 1),
                    idempotencyKey: nil
                )
            )
        }
        let sales = made
        try await store.writer.write { db in
            try db.execute(sql: "UPDATE sale SET date = '2026-02-3x' WHERE id = ?", arguments: [sales[1].id.rawValue])
        }
        await #expect(throws: StoreError.unreadable("Sale \(sales[1].id.rawValue)'s date (\"2026-02-3x\")")) {
            _ = try await store.sale(sales[1].id)
        }
        #expect(
            StoreError.unreadable("Sale 2's date (\"2026-02-3x\")").description.hasPrefix(
                "Sale 2's date (\"2026-02-3x\") cannot be read"
            )
        )
        // The rest of the book works: the other sale, the dashboard, a new sale.
        #expect(try await store.sale(sales[0].id).date == day("2026-02-02"))
        _ = try await store.dashboard(today: day("2026-02-20"))
        _ = try await store.createSale(
            SaleDraft(clinicID: clinic.id, productID: product.id, date: day("2026-02-04"), quantity: 1),
            idempotencyKey: nil
        )
    }

    @Test func everyDayThatADayCanWriteReadsBack() throws {
        // Around the calendar's start, where Day(ordinal:) writes the year 0000, and across the bounds a book takes.
        for ordinal in stride(from: -719_528, through: -719_100, by: 1) {  // from 0000-01-01
            let written = Day(ordinal: ordinal)
            #expect(Day.reading(stored: written.description) == written, "\(written)")
        }
        #expect(Day.reading(stored: "0000-02-30") == nil)
        #expect(Day.reading(stored: "00000-01-01") == nil)
    }
}
