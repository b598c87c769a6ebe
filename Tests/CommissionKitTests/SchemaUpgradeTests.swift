import CommissionCore
import CommissionKit
import CommissionPostgres
import CommissionStore
import Foundation
import PostgresNIO
import Testing

/// The books of every schema version that has shipped (`Fixtures/`, made by
/// `scripts/make-schema-fixture` with the binary of that version) open in this version, and every
/// figure is the one that version printed: the dashboard and every clinic's reconciliation as of
/// 2026-11-23, and every sale as exported.
@Suite struct SchemaUpgradeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// SQLite schema versions and the commits whose binaries wrote them.
    static let sqliteVersions = [
        "v1",  // d5b4fe9^: the six v1 migrations
        "v2",  // 8c58bc5^: + accounts, sessions and API tokens
        "v3",  // 5833b1f: + product year summary
        "v4",  // 7ef902d: + members and invitations
        "v5",  // 5a7238b: + the audit log
        "v6",  // 773201c: the sale table rebuilt, its idempotency key indexed where set
        "v7",  // 203dc2e: no product index on sale
        "v8",  // 505b43d: summaries WITHOUT ROWID
        // c34d4b0: the book's locale (v10 to v14, this version: price lists, schedule changes, tiers, deductions, period figures, column mappings, product aliases, idempotency keys of write requests, sign-in failures)
        "v9",
    ]

    func expected(_ version: String, _ what: String) throws -> String {
        try String(contentsOf: Self.fixtures.appendingPathComponent("sqlite-\(version).\(what)"), encoding: .utf8)
    }

    /// The dashboard's JSON without the fields added since the fixtures' versions printed theirs
    /// (each clinic's `expected`, `owed` and `overdue`): what was there must be there, unchanged.
    static func asShipped(_ json: String) throws -> NSDictionary {
        let object = try parsed(json).mutableCopy() as! NSMutableDictionary
        object["clinics"] = (object["clinics"] as? [NSDictionary] ?? []).map { clinic -> NSDictionary in
            let copy = clinic.mutableCopy() as! NSMutableDictionary
            copy.removeObjects(forKeys: ["expected", "owed", "overdue", "dueAfterDays"])
            return copy
        }
        return object
    }

    static func parsed(_ json: String) throws -> NSDictionary {
        try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary ?? [:]
    }

    @Test("An SQLite book of every shipped version upgrades with its figures unchanged", arguments: sqliteVersions)
    func sqliteUpgrades(_ version: String) throws {
        let directory = temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("book.sqlite").path
        try FileManager.default.copyItem(
            atPath: Self.fixtures.appendingPathComponent("sqlite-\(version).sqlite").path,
            toPath: path
        )

        let hasAudit = try sqlite3(path, "SELECT count(*) FROM sqlite_master WHERE name = 'auditEntry'") == "1"
        let auditEntries =
            hasAudit ? try sqlite3(path, "SELECT count(*), max(id), sum(length(after)) FROM auditEntry") : ""

        let report = try commission(["report", "--format", "json", "--date", "2026-11-23", "--db", path])
        #expect(report.status == 0, "\(report.stderr)")
        // The first command says why it takes a moment; the book is upgraded once.
        #expect(report.stderr.contains("Upgrading \(path) to this version of Commission"), "\(report.stderr)")
        #expect(!(try commission(["report", "--db", path]).stderr.contains("Upgrading")))
        #expect(try Self.asShipped(report.stdout) == Self.parsed(try expected(version, "report.json")))
        #expect(
            try commission(["reconcile", "--format", "json", "--date", "2026-11-23", "--db", path]).stdout
                == (try expected(version, "reconcile.json"))
        )
        #expect(
            try commission(["export", "sales", "--format", "csv", "--db", path]).stdout
                == (try expected(version, "sales.csv"))
        )

        // Upgraded to the last migration, sound, and its summaries equal a recount of its sales.
        #expect(
            try sqlite3(path, "SELECT identifier FROM grdb_migrations ORDER BY rowid DESC LIMIT 1")
                == "v19: reminders, push devices and the pay dates calendar"
        )
        #expect(try sqlite3(path, "SELECT locale FROM book") == "en_US")
        // The newest release that opened it, in its header: what an older release would name.
        #expect(
            try sqlite3(path, "PRAGMA user_version")
                == CommissionRelease.version.replacingOccurrences(of: ".", with: "")
        )
        // The audit log, copied into a table that also takes price-list, schedule and product
        // entries, is whole and still append-only.
        if hasAudit {
            #expect(try sqlite3(path, "SELECT count(*), max(id), sum(length(after)) FROM auditEntry") == auditEntries)
        }
        #expect(
            try sqlite3(
                path,
                "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'auditEntry_no_%'"
            ) == "2"
        )
        #expect(try sqlite3(path, "PRAGMA integrity_check") == "ok")
        #expect(try sqlite3(path, "PRAGMA foreign_key_check") == "")
        let summaries = try sqlite3(
            path,
            "SELECT productId, year, saleCount, revenueMinor, commissionMinor FROM productYearTotal WHERE saleCount > 0 ORDER BY 1, 2"
        )
        let recount = try sqlite3(
            path,
            """
            SELECT productId, substr(date, 1, 4), count(*), sum(revenueMinor), sum(commissionMinor) FROM sale WHERE isVoided = 0 GROUP BY 1, 2 ORDER BY 1, 2
            """
        )
        #expect(!recount.isEmpty && summaries == recount)
    }

    /// The schema versions whose fixture, written by that version's binary, is still owed: the
    /// upgrade tests open every other version before she does. Each is made with
    /// `scripts/make-schema-fixture` at the commit that introduced it, and taken off this list.
    static let owedFixtures = (sqlite: Set(10...19), postgres: Set(5...17))

    /// A migration added without its fixture fails here: every version a migration names has a
    /// fixture, or is on the list of those owed one (which never names one that has its fixture).
    @Test func everySchemaVersionHasItsFixture() throws {
        let sources = Self.fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        func versions(_ file: String) throws -> Set<Int> {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            return Set(text.matches(of: #/"v(\d+):\s/#).compactMap { Int($0.1) })
        }
        let present = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path)
        for (store, file, fixture, owed) in [
            ("SQLite", "CommissionSQLite/Schema.swift", "sqlite-v%@.sqlite", Self.owedFixtures.sqlite),
            ("PostgreSQL", "CommissionPostgres/PostgresSchema.swift", "postgres-v%@.sql", Self.owedFixtures.postgres),
        ] {
            let shipped = try versions(file)
            #expect(shipped.count >= 17, "the \(store) schema's versions are found (\(shipped.sorted()))")
            for version in shipped.sorted() {
                let has = present.contains(fixture.replacingOccurrences(of: "%@", with: "\(version)"))
                #expect(
                    has || owed.contains(version),
                    "\(store) schema v\(version) has no fixture: make one with scripts/make-schema-fixture"
                )
                #expect(
                    !(has && owed.contains(version)),
                    "\(store) v\(version) has its fixture: take it off owedFixtures"
                )
            }
            #expect(owed.isSubset(of: shipped), "owedFixtures names a \(store) version no migration has")
        }
    }

    /// Every migration a release has shipped, by the name a book records it under, in order. A
    /// book knows its migrations by these names alone: one renamed, reordered or taken out would
    /// make every book that applied it look written by a newer release (refused), or apply twice.
    /// A new migration is added at the end of its list here, with the one in the schema.
    static let shippedMigrations = (
        sqlite: [
            "v1: book", "v1: clinics and products", "v1: terms", "v1: sales", "v1: payouts and closed periods",
            "v1: summary tables", "v2: accounts, sessions and API tokens", "v3: product year summary",
            "v4: members and invitations", "v5: audit log", "v6: idempotency keys indexed where set",
            "v7: sales by product through the date index", "v8: summaries clustered by their key",
            "v9: the book's locale", "v10: clinic price lists and schedule changes", "v11: tiers and deductions",
            "v12: expected figures by pay period", "v13: saved column mappings", "v14: clinics' product names",
            "v15: idempotency keys of write requests", "v16: sign-in failures and server secrets",
            "v17: the book's epoch, products and clinics on the audit log", "v18: the question about her history",
            "v19: reminders, push devices and the pay dates calendar",
        ],
        postgres: [
            "v1: books, accounts and members", "v1: clinics, products and terms",
            "v1: sales, payouts and closed periods", "v1: summary tables",
            "v2: invitation roles, one book per account", "v3: audit log", "v4: the book's locale",
            "v5: clinic price lists and schedule changes", "v6: tiers and deductions",
            "v7: expected figures by pay period", "v8: saved column mappings", "v9: clinics' product names",
            "v10: idempotency keys of write requests", "v11: sign-in failures and server secrets",
            "v12: the dashboard's indexes, sale keys indexed when present, no book revision, references checked per statement, bulk copies",
            "v13: a sale's references checked once per value",
            "v14: the book's epoch, products and clinics on the audit log", "v15: books placed on several databases",
            "v16: the question about her history", "v17: reminders, push devices and the pay dates calendar",
        ]
    )

    /// The schemas' migrations begin with every shipped one, unchanged and in order: a later
    /// migration is only ever added after them.
    @Test func aShippedMigrationIsNeverRenamedReorderedOrTakenOut() throws {
        let sources = Self.fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        for (store, file, pattern, shipped) in [
            (
                "SQLite", "CommissionSQLite/Schema.swift", #/registerMigration\("(v\d+: [^"]*)"\)/#,
                Self.shippedMigrations.sqlite
            ),
            (
                "PostgreSQL", "CommissionPostgres/PostgresSchema.swift", #/"(v\d+: [^"]*)"/#,
                Self.shippedMigrations.postgres
            ),
        ] {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let names = text.matches(of: pattern).map { String($0.1) }
            #expect(
                Array(names.prefix(shipped.count)) == shipped,
                "the \(store) schema's migrations must begin with every shipped one, unchanged and in order (a book that applied one under its old name would be refused as a newer release's): add a new migration instead"
            )
            #expect(Set(names).count == names.count, "two \(store) migrations have one name")
        }
    }

    /// A book a newer release wrote (a migration this one does not know; that release in its
    /// header) is refused with the release it needs, and nothing in it changes.
    @Test func aBookOfANewerReleaseIsRefusedAndLeftAsItWas() throws {
        let directory = temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("book.sqlite").path
        #expect(try commission(["init", "--currency", "EUR", "--db", path]).status == 0)
        _ = try sqlite3(
            path,
            "INSERT INTO grdb_migrations VALUES ('v99: from the future'); PRAGMA user_version = 20991231"
        )
        // Its every record, and its header's release (SQLite may move a page of the file on open).
        let dump = { try sqlite3(path, ".dump") + (try sqlite3(path, "PRAGMA user_version")) }
        let before = try dump()
        let refused = try commission(["report", "--db", path])
        #expect(refused.status != 0)
        #expect(
            refused.stderr.contains(
                "\(path) was written by Commission 2099.12.31, newer than this release (\(CommissionRelease.version)): open it with that release or a later one. Nothing was changed."
            ),
            "\(refused.stderr)"
        )
        #expect(try dump() == before && before.contains("v99: from the future"))
    }

    /// PostgreSQL schema versions, each the demo book copied by that version's `migrate` from the
    /// SQLite fixture named beside it.
    static let postgresVersions = [
        ("v1", "v3"),  // 5833b1f
        ("v2", "v4"),  // + invitation roles, one book per account
        ("v3", "v5"),  // + the audit log
        // c34d4b0: the book's locale (v5 and v6, this version: price lists, schedule changes, tiers, deductions, and after them mappings, aliases, idempotency keys)
        ("v4", "v9"),
    ]

    @Test(
        "A PostgreSQL database of every shipped version upgrades with its figures unchanged",
        arguments: postgresVersions
    )
    func postgresUpgrades(_ version: String, _ sqliteVersion: String) async throws {
        guard let server = ProcessInfo.processInfo.environment["COMMISSION_TEST_POSTGRES_URL"], !server.isEmpty else {
            throw StoreError.storage(
                "COMMISSION_TEST_POSTGRES_URL is not set: run the tests with scripts/test, which starts a throw-away PostgreSQL"
            )
        }
        let url = try await PostgresBookDatabase.createDatabase(prefix: "commission_upgrade", onServer: server)
        let restore = Process()
        restore.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        restore.arguments = [
            "psql", "-q", "-v", "ON_ERROR_STOP=1", "-f",
            Self.fixtures.appendingPathComponent("postgres-\(version).sql").path, url,
        ]
        restore.standardOutput = FileHandle.nullDevice
        try restore.run()
        restore.waitUntilExit()
        #expect(restore.terminationStatus == 0, "psql could not restore postgres-\(version).sql")

        let database = try await PostgresBookDatabase(url: url)  // migrates
        defer { database.shutdown() }
        let books = try await PostgresBooks(
            database: database,
            defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        ).books()
        #expect(books.count == 1)
        let store = try await PostgresStore(database: database, book: try #require(books.first).id)
        let settings = try await store.settings()
        let renderer = Renderer(currency: settings.currency)
        let today = try Day(parsing: "2026-11-23")
        // As `commission report` and `commission reconcile` print them.
        #expect(
            try Self.asShipped(renderer.render(try await store.dashboard(today: today), as: .json))
                == Self.parsed(try expected(sqliteVersion, "report.json"))
        )
        var reconciliations: [Reconciliation] = []
        for clinic in try await store.clinics(ClinicQuery()) {
            reconciliations.append(try await store.reconciliation(clinic: clinic.id, today: today))
        }
        #expect(renderer.render(reconciliations, as: .json) == (try expected(sqliteVersion, "reconcile.json")))
        #expect(try await store.countSales(SaleQuery(includeVoided: true)) > 1000)
        var migrations: [String] = []
        for try await name in try await database.client.query("SELECT name FROM commissionMigration").decode(
            String.self
        ) { migrations.append(name) }
        #expect(
            migrations.contains("v3: audit log") && migrations.contains("v4: the book's locale")
                && migrations.contains("v5: clinic price lists and schedule changes")
                && migrations.contains("v6: tiers and deductions")
        )
        // The upgraded book takes a price list and a schedule change.
        let clinic = try #require(try await store.clinics(ClinicQuery()).first)
        let product = try #require(try await store.products(ProductQuery()).first)
        _ = try await store.setPrice(
            PriceDraft(clinicID: clinic.id, productID: product.id, unitPrice: product.unitPrice, effectiveFrom: today)
        )
        var changed = clinic
        changed.scheduleChanges = [ScheduleChange(effectiveFrom: today.adding(days: 60), schedule: .monthly)]
        #expect(try await store.updateClinic(changed).scheduleChanges.count == 1)
        #expect(settings.localeIdentifier == "en_US")
        database.shutdown()  // its listener first, or it reports the dropped database
        try await PostgresBookDatabase.dropDatabase(url, onServer: server)
    }
}
