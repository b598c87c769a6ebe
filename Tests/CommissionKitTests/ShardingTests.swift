import AsyncHTTPClient
import CommissionCore
import CommissionKit
import CommissionPostgres
import CommissionStore
import CommissionWeb
import Foundation
import Logging
import NIOCore
import Synchronization
import Testing

/// Books on two PostgreSQL databases (`--more-database`): a book moved from one to the other under
/// `commission serve` taking its sales, with every acknowledged sale kept once and its statements
/// equal before and after; a move that fails leaves the book where it was; a database that was
/// another server's is refused. (The isolation sweep across two databases is BookIsolationTests'.)
@Suite(.serialized) struct ShardingTests {
    let settings = BookSettings(currency: .usd, timeZoneIdentifier: "UTC")

    /// Two scratch databases, dropped afterwards.
    func withTwoDatabases(_ body: (_ main: String, _ east: String) async throws -> Void) async throws {
        guard let server = ProcessInfo.processInfo.environment["COMMISSION_TEST_POSTGRES_URL"], !server.isEmpty else {
            throw StoreError.storage(
                "COMMISSION_TEST_POSTGRES_URL is not set: run the tests with scripts/test, which starts a throw-away PostgreSQL"
            )
        }
        let main = try await PostgresBookDatabase.createDatabase(prefix: "commission_main", onServer: server)
        let east = try await PostgresBookDatabase.createDatabase(prefix: "commission_east", onServer: server)
        do {
            try await body(main, east)
        } catch {
            try? await PostgresBookDatabase.dropDatabase(main, onServer: server)
            try? await PostgresBookDatabase.dropDatabase(east, onServer: server)
            throw error
        }
        try await PostgresBookDatabase.dropDatabase(main, onServer: server)
        try await PostgresBookDatabase.dropDatabase(east, onServer: server)
    }

    static func open(_ main: String, _ east: String) async throws -> PostgresBooks {
        var logger = Logger(label: "test")
        logger.logLevel = .error
        return try await PostgresBooks.open(
            url: main,
            more: ["east=\(east)"],
            defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"),
            logger: logger
        )
    }

    /// What a book's statements of `period` say, clinic by clinic.
    static func statements(_ store: any CommissionStore, _ period: PayPeriod) async throws -> [String] {
        var all: [String] = []
        for clinic in try await store.clinics(ClinicQuery(includeArchived: true)) {
            let statement = try await store.statement(clinic: clinic.id, period: period)
            all.append("\(clinic.name): \(statement.totals) \(statement.netPayable) \(statement.lines.count) lines")
        }
        return all
    }

    @Test(
        "A book moved to another database under commission serve keeps every acknowledged sale, once",
        .timeLimit(.minutes(10))
    )
    func moveUnderLoad() async throws {
        try await withTwoDatabases(moveUnderLoad)
    }

    func moveUnderLoad(_ mainURL: String, _ eastURL: String) async throws {
        // Book 1 on main, as the outage test seeds it, with February's sales and a payout before
        // the load; book 2 on east, which the move must not touch.
        let token = "cm_move_\(UUID().uuidString)"
        let (glow, serum) = try await DatabaseOutageTests.seed(url: mainURL, settings: settings, token: token)
        let books = try await Self.open(mainURL, eastURL)
        defer { books.shutdown() }
        let moving = try await books.postgresStore(book: 1)
        for day in 1...20 {
            _ = try await moving.createSale(
                SaleDraft(
                    clinicID: glow,
                    productID: serum,
                    date: try Day(parsing: "2026-02-\(String(format: "%02d", day))"),
                    quantity: Int64(day % 3 + 1)
                ),
                idempotencyKey: nil
            )
        }
        let february = PaySchedule.monthly.period(containing: try Day(parsing: "2026-02-01"))
        _ = try await moving.createPayout(
            PayoutDraft(
                clinicID: glow,
                period: february,
                amount: Money(minorUnits: 12_345),
                receivedOn: try Day(parsing: "2026-03-05")
            )
        )
        let other = try await books.addBook(name: "East book", settings: settings, on: "east")
        let otherClinic = try await other.createClinic(ClinicDraft(name: "Elsewhere", schedule: .monthly))
        // east numbers its records from a block of its own: a moved book's ids never meet them.
        #expect(otherClinic.id.rawValue >= 1 << 40 && glow.rawValue < 1 << 40)
        let otherProduct = try await other.createProduct(
            ProductDraft(name: "Balm", unitPrice: Money(minorUnits: 900), unitCost: Money(minorUnits: 100))
        )
        _ = try await other.createTerms(
            TermsDraft(
                clinicID: otherClinic.id,
                share: try Share(parsing: "30"),
                effectiveFrom: try Day(parsing: "2026-01-01")
            )
        )
        _ = try await other.createSale(
            SaleDraft(clinicID: otherClinic.id, productID: otherProduct.id, date: try Day(parsing: "2026-02-02")),
            idempotencyKey: nil
        )
        let otherBefore = try await Self.statements(other, february)
        let februaryBefore = try await Self.statements(moving, february)
        #expect(try await books.books().map(\.database) == ["main", "east"])

        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "commission-move-\(UUID().uuidString).log"
        ).path
        let server = try ServerProcess(["--database", mainURL, "--more-database", "east=\(eastURL)"], log: log)
        let (final, stopped, lines) = try await server.run { client in
            // From now on (sales sent before the server answers are sent again until it does).
            let sales = SaleLoad(
                server: server.base,
                client: client,
                token: token,
                glow: glow,
                serum: serum,
                keys: "move"
            )
            defer { sales.cancel() }
            try await server.waitUntilAnswering(client)
            // Each for as long as a busy machine takes: the test's time limit ends a hang.
            try await waitUntil("sales taken before the move", log: log) {
                sales.seen.withLock { $0.acknowledged.count } >= 20
            }

            // The move, from this process (as `commission books move` runs beside the servers).
            let proof = Mutex<BookComparison.Checked?>(nil)
            let moved = try await books.move(book: 1, to: "east", settle: .milliseconds(500)) { source, target in
                let checked = try await BookComparison(source: source, target: target).run()
                proof.withLock { $0 = checked }
            }
            let movedAt = ContinuousClock.now
            #expect(moved.from == "main" && moved.to == "east")
            #expect((proof.withLock { $0 }?.statements ?? 0) >= 2, "the copy was proved statement by statement")
            print("book 1 moved; its writes were refused for \(moved.readOnlyFor)")

            // Sales are taken on the new place, and the dashboard's stream tells them.
            try await waitUntil("a sale taken after the move", log: log) {
                sales.seen.withLock { $0.lastAcknowledgedAt } > movedAt
            }
            let eventsBefore = sales.events.withLock { $0.count }
            let acknowledgedBefore = sales.seen.withLock { $0.acknowledged.count }
            try await waitUntil("another sale after the move", log: log) {
                sales.seen.withLock { $0.acknowledged.count } > acknowledgedBefore + 2
            }
            try await waitUntil("the dashboard's stream telling a sale after the move", log: log) {
                sales.events.withLock { String($0.dropFirst(eventsBefore)) }.contains("event: dashboard")
            }
            await sales.stop()
            return sales.seen.withLock { $0 }
        }
        #expect(stopped, "commission serve did not end within 10 s of SIGTERM")

        #expect(
            final.statuses.keys.allSatisfy { $0 == 201 || $0 == 503 },
            "every answer a sale or a 503: \(final.statuses)"
        )
        #expect(final.unavailableWithoutRetryAfter == 0)
        #expect(lines.filter { $0.contains(" error ") }.isEmpty, "\(lines.filter { $0.contains(" error ") }.prefix(5))")

        // Where the book is now, and what it holds: every acknowledged sale once, February as before.
        #expect(try await books.place(of: 1) == "east")
        let moved = try await books.postgresStore(book: 1)
        #expect(moved.database === books.others["east"])
        let march = try await moved.sales(
            SaleQuery(from: try Day(parsing: "2026-03-01"), includeVoided: true, page: Page(limit: 100_000))
        )
        #expect(
            march.count == final.acknowledged.count,
            "\(march.count) sales for \(final.acknowledged.count) acknowledged"
        )
        #expect(try await Self.statements(moved, february) == februaryBefore)
        // Its accounts stayed with the directory: the owner's token still finds it.
        #expect(try await books.book(tokenDigest: WebSecrets.digest(token)) == 1)
        #expect(try await moved.members().map(\.account.username) == ["ana"])
        // The old copy is gone from main (its row stays: the directory's, which its accounts hang on).
        let left = try await books.database.withConnection { connection in
            try await connection.query(
                """
                SELECT (SELECT count(*) FROM sale WHERE bookId = 1) + (SELECT count(*) FROM auditEntry WHERE bookId = 1) + (SELECT count(*) FROM clinic WHERE bookId = 1)
                """,
                logger: Logger(label: "test")
            ).decode(Int64.self).all().first ?? -1
        }
        #expect(left == 0)
        // The other book of east is as it was.
        #expect(try await Self.statements(other, february) == otherBefore)
    }

    @Test("A move that fails leaves the book where it was, taking writes; a move back reuses the directory's row")
    func failedMoveAndBack() async throws {
        try await withTwoDatabases { mainURL, eastURL in
            let token = "cm_back_\(UUID().uuidString)"
            let (glow, serum) = try await DatabaseOutageTests.seed(url: mainURL, settings: settings, token: token)
            let directory = try await Self.open(mainURL, eastURL)
            defer { directory.shutdown() }
            let store = try await directory.postgresStore(book: 1)
            _ = try await store.createSale(
                SaleDraft(clinicID: glow, productID: serum, date: try Day(parsing: "2026-02-03")),
                idempotencyKey: nil
            )
            // What an import reads besides the records (not in the archive): they move too.
            let mapping = ImportMapping(
                name: "Glow's export",
                headers: ["Datum", "Artikel"],
                fields: ["Datum": "date", "Artikel": "product"]
            )
            try await store.saveMapping(mapping)
            try await store.setAlias(ProductAlias(clinicID: glow, name: "SER-50", productID: serum))

            struct Refused: Error {}
            await #expect(throws: Refused.self) {
                _ = try await directory.move(book: 1, to: "east", settle: .zero) { _, _ in throw Refused() }
            }
            #expect(try await directory.place(of: 1) == "main")
            _ = try await store.createSale(
                SaleDraft(clinicID: glow, productID: serum, date: try Day(parsing: "2026-02-04")),
                idempotencyKey: nil
            )
            let eastBooks = try await directory.others["east"]!.withConnection { connection in
                try await connection.query("SELECT count(*) FROM book", logger: Logger(label: "test")).decode(
                    Int64.self
                ).all().first ?? -1
            }
            #expect(eastBooks == 0, "the failed move's copy is removed")

            // There and back: the directory's row takes the book again, and a write refused while it was away.
            let february = PaySchedule.monthly.period(containing: try Day(parsing: "2026-02-01"))
            let before = try await Self.statements(store, february)
            _ = try await directory.move(book: 1, to: "east", settle: .zero) { source, target in
                _ = try await BookComparison(source: source, target: target).run()
            }
            let away = try await directory.postgresStore(book: 1)
            #expect(try await away.mappings() == [mapping])
            #expect(
                try await away.aliases(clinic: glow) == [ProductAlias(clinicID: glow, name: "SER-50", productID: serum)]
            )
            await #expect(throws: StoreError.self) {
                _ = try await store.createSale(
                    SaleDraft(clinicID: glow, productID: serum, date: try Day(parsing: "2026-02-05")),
                    idempotencyKey: nil
                )
            }
            _ = try await directory.move(book: 1, to: "main", settle: .zero) { source, target in
                _ = try await BookComparison(source: source, target: target).run()
            }
            let home = try await directory.postgresStore(book: 1)
            #expect(home.database === directory.database)
            #expect(try await Self.statements(home, february) == before)
            _ = try await home.createSale(
                SaleDraft(clinicID: glow, productID: serum, date: try Day(parsing: "2026-02-06")),
                idempotencyKey: nil
            )
            #expect(try await home.sales(SaleQuery(includeVoided: true)).count == 3)

            await #expect(throws: StoreError.self) {
                _ = try await directory.move(book: 1, to: "main", settle: .zero) { _, _ in }
            }
            await #expect(throws: StoreError.self) {
                _ = try await directory.move(book: 1, to: "west", settle: .zero) { _, _ in }
            }
        }
    }

    /// A further database that goes away: its books are refused, the server stays ready (the
    /// directory answers) and its probe names the database, until it answers again.
    @Test("The readiness probe names a further database that is away, and stays 200", .timeLimit(.minutes(10)))
    func readinessNamesADatabaseAway() async throws {
        guard let shared = ProcessInfo.processInfo.environment["COMMISSION_TEST_POSTGRES_URL"], !shared.isEmpty else {
            throw StoreError.storage(
                "COMMISSION_TEST_POSTGRES_URL is not set: run the tests with scripts/test, which starts a throw-away PostgreSQL"
            )
        }
        let mainURL = try await PostgresBookDatabase.createDatabase(prefix: "commission_main", onServer: shared)
        // East on a server of the test's own, to stop and start.
        let east = try await PrivatePostgres()
        do {
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString).log")
                .path
            defer { try? FileManager.default.removeItem(atPath: log) }
            let server = try ServerProcess(["--database", mainURL, "--more-database", "east=\(east.url)"], log: log)
            let lines = try await server.run { client in
                try await server.waitUntilAnswering(client)
                func ready() async throws -> (status: Int, body: String) {
                    let response = try await client.execute(
                        HTTPClientRequest(url: server.base + "/health/ready"),
                        timeout: .seconds(30)
                    )
                    return (Int(response.status.code), String(buffer: try await response.body.collect(upTo: 1 << 16)))
                }
                #expect(try await ready() == (200, "ready\nrelease: \(CommissionRelease.version)\n"))
                try await east.stop()
                // Noticed by its watcher (within seconds; waited for however long it takes).
                var answer = try await ready()
                while !answer.body.contains("away") {
                    try await Task.sleep(for: .milliseconds(50))
                    answer = try await ready()
                }
                #expect(
                    answer == (
                        200,
                        "ready\nrelease: \(CommissionRelease.version)\naway: database east (its books are refused until it answers)\n"
                    )
                )
                try await east.start()
                while try await ready().body.contains("away") { try await Task.sleep(for: .milliseconds(50)) }
                // Its log line comes just after the probe turns (waited for, not raced by the stop).
                while !((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains(
                    "The database answers again"
                ) {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }.log
            // The log says which database went away and came back.
            let away = lines.filter { $0.contains("The database does not answer") }
            let back = lines.filter { $0.contains("The database answers again") }
            #expect(
                !away.isEmpty && away.allSatisfy { $0.contains("database=east") },
                "\(lines.joined(separator: "\n"))"
            )
            #expect(
                !back.isEmpty && back.allSatisfy { $0.contains("database=east") },
                "\(lines.joined(separator: "\n"))"
            )
        } catch {
            await east.remove()
            try? await PostgresBookDatabase.dropDatabase(mainURL, onServer: shared)
            throw error
        }
        await east.remove()
        try await PostgresBookDatabase.dropDatabase(mainURL, onServer: shared)
    }

    @Test("books add --on, books list and books move, from the command line")
    func commandLine() async throws {
        try await withTwoDatabases { mainURL, eastURL in
            let both = ["--database", mainURL, "--more-database", "east=\(eastURL)"]
            let added = try commission(["books", "add", "Ana's book", "--on", "east", "--time-zone", "UTC"] + both)
            #expect(
                added.status == 0 && added.stdout.contains("Book 1 \"Ana's book\" (USD, UTC) is ready on east."),
                "\(added.stdout)\(added.stderr)"
            )
            let listed = try commission(["books", "list", "--format", "csv"] + both)
            #expect(
                listed.stdout == "id,name,accounts,database\r\n1,Ana's book,0,east\r\n",
                "\(listed.stdout)\(listed.stderr)"
            )
            let moved = try commission(["books", "move", "1", "--to", "main"] + both)
            #expect(
                moved.status == 0 && moved.stdout.contains("Moved book 1 \"Ana's book\" from east to main")
                    && moved.stdout.contains("Checked: the settings"),
                "\(moved.stdout)\(moved.stderr)"
            )
            #expect(try commission(["books", "list", "--format", "csv"] + both).stdout.contains("1,Ana's book,0,main"))
            let there = try commission(["books", "move", "1", "--to", "main"] + both)
            #expect(there.status != 0 && there.stderr.contains("is on main already"), "\(there.stderr)")
            let nowhere = try commission(["books", "move", "1", "--to", "west"] + both)
            #expect(
                nowhere.status != 0 && nowhere.stderr.contains("there is no database \"west\""),
                "\(nowhere.stderr)"
            )
            let unnamed = try commission(["books", "list", "--database", mainURL, "--more-database", eastURL])
            #expect(unnamed.status != 0 && unnamed.stderr.contains("is not NAME=postgres://"), "\(unnamed.stderr)")
        }
    }

    @Test(
        "A move cut short (its process gone) neither stops a server starting nor leaves the book read-only once done again or given up"
    )
    func cutShortMove() async throws {
        try await withTwoDatabases { mainURL, eastURL in
            let token = "cm_cut_\(UUID().uuidString)"
            let (glow, serum) = try await DatabaseOutageTests.seed(url: mainURL, settings: settings, token: token)
            let directory = try await Self.open(mainURL, eastURL)
            defer { directory.shutdown() }
            let store = try await directory.postgresStore(book: 1)
            let east = try #require(directory.others["east"])
            let test = Logger(label: "test")
            /// What a move leaves when its process dies after its copy committed, before the switch.
            func cutShort() async throws {
                _ = try await directory.database.withConnection { connection in
                    try await connection.query(
                        "UPDATE book SET movingTo = 'east', leaving = 'east' WHERE id = 1",
                        logger: test
                    )
                }
                _ = try await east.withConnection { connection in
                    try await connection.query(
                        """
                        INSERT INTO book (id, name, currencyCode, currencyMinorDigits, timeZone, roundingRule, roundingScope, locale)
                        VALUES (1, 'Commission', 'USD', 2, 'UTC', 'half-away-from-zero', 'per-line', 'en_US')
                        """,
                        logger: test
                    )
                }
            }
            func eastBooks() async throws -> Int64 {
                try await east.withConnection { connection in
                    try await connection.query("SELECT count(*) FROM book", logger: test).decode(Int64.self).all().first
                        ?? -1
                }
            }
            let sale = SaleDraft(clinicID: glow, productID: serum, date: try Day(parsing: "2026-02-03"))

            // Given up: the book is moved to where it is, which takes its writes again and removes the copy.
            try await cutShort()
            let restarted = try await Self.open(mainURL, eastURL)  // a server starting meanwhile is not refused
            restarted.shutdown()
            await #expect(throws: StoreError.self) { _ = try await store.createSale(sale, idempotencyKey: nil) }
            await #expect(throws: StoreError.self) {
                _ = try await directory.move(book: 1, to: "main", settle: .zero) { _, _ in }
            }
            _ = try await store.createSale(sale, idempotencyKey: nil)
            #expect(try await eastBooks() == 0)

            // Done again: the move runs from the start and ends there.
            try await cutShort()
            let moved = try await directory.move(book: 1, to: "east", settle: .zero) { source, target in
                _ = try await BookComparison(source: source, target: target).run()
            }
            #expect(moved.oldCopyLeft == nil && moved.to == "east")
            #expect(try await directory.postgresStore(book: 1).sales(SaleQuery()).count == 1)
            #expect(try await eastBooks() == 1)
        }
    }

    @Test("A write that waited for the book's lock while a move marked it is refused, not written to the old copy")
    func writeWaitingForTheMarkIsRefused() async throws {
        try await withTwoDatabases { mainURL, eastURL in
            let (glow, serum) = try await DatabaseOutageTests.seed(
                url: mainURL,
                settings: settings,
                token: "cm_mark_\(UUID().uuidString)"
            )
            let directory = try await Self.open(mainURL, eastURL)
            defer { directory.shutdown() }
            let store = try await directory.postgresStore(book: 1)
            let test = Logger(label: "test")
            let marked = AsyncStream.makeStream(of: Void.self)
            let writeWaits = AsyncStream.makeStream(of: Void.self)
            // As the move marks a book: its exclusive lock held, the mark written, then committed.
            let move = Task {
                try await directory.database.withConnection { connection in
                    try await connection.query("BEGIN", logger: test)
                    try await connection.query("SELECT pg_advisory_xact_lock(1801, 1)", logger: test)
                    marked.continuation.yield()
                    for await _ in writeWaits.stream { break }
                    try await connection.query("UPDATE book SET leaving = 'east' WHERE id = 1", logger: test)
                    try await connection.query("COMMIT", logger: test)
                }
            }
            for await _ in marked.stream { break }
            // A sale sent meanwhile: its statement begins (and takes its snapshot), then waits for the lock.
            let sale = Task {
                try await store.createSale(
                    SaleDraft(clinicID: glow, productID: serum, date: try Day(parsing: "2026-02-03")),
                    idempotencyKey: nil
                )
            }
            while try await directory.database.withConnection({ connection in
                try await connection.query(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
                    logger: test
                )
                .decode(Int64.self).all().first ?? 0
            }) == 0 {
                try await Task.sleep(for: .milliseconds(10))
            }
            writeWaits.continuation.yield()
            try await move.value
            await #expect(throws: StoreError.self) { _ = try await sale.value }
            #expect(try await store.sales(SaleQuery()).isEmpty)
        }
    }

    @Test("Each further database numbers its records from a block of its own, kept by the directory")
    func numberingBlocks() async throws {
        try await withTwoDatabases { mainURL, eastURL in
            guard let server = ProcessInfo.processInfo.environment["COMMISSION_TEST_POSTGRES_URL"] else { return }
            let westURL = try await PostgresBookDatabase.createDatabase(prefix: "commission_west", onServer: server)
            var logger = Logger(label: "test")
            logger.logLevel = .error
            var ids: [String: Int64] = [:]
            for round in 0..<2 {
                // Opened twice: a second start keeps each database's block (and its next id).
                let books = try await PostgresBooks.open(
                    url: mainURL,
                    more: ["east=\(eastURL)", "west=\(westURL)"],
                    defaultSettings: settings,
                    logger: logger
                )
                for name in ["main", "east", "west"] {
                    let book = try await books.addBook(name: "\(name) \(round)", settings: settings, on: name)
                    let clinic = try await book.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
                    if round == 0 {
                        ids[name] = clinic.id.rawValue
                    } else {
                        #expect(clinic.id.rawValue == ids[name]! + 1, "\(name)")
                    }
                }
                books.shutdown()
            }
            #expect(ids["main"]! < 1 << 40)
            #expect(Set([ids["east"]! >> 40, ids["west"]! >> 40]) == [1, 2], "\(ids)")
            try await PostgresBookDatabase.dropDatabase(westURL, onServer: server)
        }
    }

    @Test("A database that was another server's, or one given twice, is refused as a further one, saying why")
    func strayBooksRefused() async throws {
        try await withTwoDatabases { mainURL, eastURL in
            // east served on its own first: it holds its own book 1.
            let alone = try await PostgresBookDatabase(url: eastURL)
            _ = try await PostgresStore.firstBook(in: alone, creatingWith: settings)
            alone.shutdown()
            do {
                _ = try await Self.open(mainURL, eastURL)
                Issue.record("a database with books of its own was taken")
            } catch let error as StoreError {
                #expect("\(error)".contains("holds book 1 that the directory does not place there"), "\(error)")
            }
            // One database given twice: as the first and a further one, or under two names.
            for more in [["east=\(mainURL)"], ["east=\(eastURL)", "west=\(eastURL)"]] {
                do {
                    _ = try await PostgresBooks.open(
                        url: mainURL,
                        more: more,
                        defaultSettings: settings,
                        logger: Logger(label: "test")
                    )
                    Issue.record("one database given twice was taken: \(more)")
                } catch let error as StoreError {
                    #expect("\(error)".contains("are the same database"), "\(error)")
                }
            }
            #expect(throws: StoreError.self) { _ = try PostgresBooks.named("postgres://nameless") }
            #expect(throws: StoreError.self) { _ = try PostgresBooks.named("main east=postgres://x") }
        }
    }
}
