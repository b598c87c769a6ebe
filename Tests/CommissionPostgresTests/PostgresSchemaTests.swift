import CommissionCore
import CommissionPostgres
import CommissionStore
import Foundation
import Logging
import PostgresNIO
import Testing

/// A new, empty database on the test server, dropped when the test is done with it.
struct ScratchDatabase {
    let url: String
    let name: String

    /// The server `scripts/test` starts (through `scripts/with-postgres`).
    static func serverURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["COMMISSION_TEST_POSTGRES_URL"], !url.isEmpty else {
            throw StoreError.storage(
                "COMMISSION_TEST_POSTGRES_URL is not set: run the tests with scripts/test, which starts a throw-away PostgreSQL"
            )
        }
        return url
    }

    static func create() async throws -> ScratchDatabase {
        let url = try await PostgresBookDatabase.createDatabase(prefix: "commission_test", onServer: try serverURL())
        return ScratchDatabase(url: url, name: String(URLComponents(string: url)!.path.dropFirst()))
    }

    func drop() async {
        try? await Self.admin { client in
            try await client.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"))
        }
    }

    /// Runs `body` with a client on the server's default database.
    static func admin(_ body: (PostgresClient) async throws -> Void) async throws {
        try await withClient(try serverURL(), body)
    }

    static func withClient(_ url: String, _ body: (PostgresClient) async throws -> Void) async throws {
        let client = PostgresClient(configuration: try PostgresBookDatabase.configuration(url))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await body(client)
        }
    }
}

extension PostgresClient {
    /// The first column of every row, as text.
    func texts(_ query: PostgresQuery) async throws -> [String] {
        var result: [String] = []
        for try await value in try await self.query(query).decode(String.self) { result.append(value) }
        return result
    }
}

@Suite(.serialized) struct PostgresSchemaTests {
    @Test func migrationsRunOnceEvenWhenInstancesStartTogether() async throws {
        let scratch = try await ScratchDatabase.create()
        defer { Task { await scratch.drop() } }
        // Three instances start at once on an empty database: the advisory lock lets one migrate.
        async let a = PostgresBookDatabase(url: scratch.url)
        async let b = PostgresBookDatabase(url: scratch.url)
        async let c = PostgresBookDatabase(url: scratch.url)
        let instances = try await [a, b, c]
        let names = try await instances[0].client.texts("SELECT name FROM commissionMigration ORDER BY appliedAt, name")
        #expect(Set(names) == Set(PostgresSchema.migrations.map(\.name)))
        #expect(names.count == PostgresSchema.migrations.count)
        // Opening again applies nothing.
        let again = try await PostgresBookDatabase(url: scratch.url)
        #expect(
            try await again.client.texts("SELECT count(*)::text FROM commissionMigration") == [
                "\(PostgresSchema.migrations.count)"
            ]
        )
        for instance in instances + [again] { instance.shutdown() }
    }

    @Test func amountsAreExactIntegersNeverFloatsOrMoney() async throws {
        let scratch = try await ScratchDatabase.create()
        defer { Task { await scratch.drop() } }
        let database = try await PostgresBookDatabase(url: scratch.url)
        defer { database.shutdown() }
        let inexact = try await database.client.texts(
            """
            SELECT table_name || '.' || column_name FROM information_schema.columns
            WHERE table_schema = 'public' AND data_type IN ('real', 'double precision', 'numeric', 'money')
            """
        )
        #expect(inexact.isEmpty)
        // Every amount (…minor), exact commission and summed figure is bigint; every share integer basis points.
        let amounts = try await database.client.texts(
            """
            SELECT table_name || '.' || column_name || ' ' || data_type FROM information_schema.columns
            WHERE table_schema = 'public' AND (column_name LIKE '%minor' OR column_name LIKE '%exact' OR column_name = 'sharebasispoints')
            ORDER BY 1
            """
        )
        #expect(amounts.count >= 20)
        for column in amounts {
            #expect(column.hasSuffix(column.contains("sharebasispoints") ? " integer" : " bigint"), "\(column)")
        }
    }

    @Test func rowsStayInTheirBookAndSummariesEqualARecount() async throws {
        // PSQLError's description hides the server's message; show it when something fails.
        do { try await rowsStayInTheirBook() } catch { Issue.record("\(String(reflecting: error))") }
    }

    func rowsStayInTheirBook() async throws {
        let scratch = try await ScratchDatabase.create()
        defer { Task { await scratch.drop() } }
        let database = try await PostgresBookDatabase(url: scratch.url)
        defer { database.shutdown() }
        let client = database.client
        for id in [1, 2] {
            try await client.query(
                """
                INSERT INTO book (id, name, currencyCode, currencyMinorDigits, timeZone, roundingRule, roundingScope)
                VALUES (\(id), \("Book \(id)"), 'USD', 2, 'UTC', 'half-away-from-zero', 'per-line')
                """
            )
        }
        try await client.query("INSERT INTO clinic (id, bookId, name, scheduleKind) VALUES (10, 1, 'Glow', 'monthly')")
        try await client.query(
            "INSERT INTO product (id, bookId, name, unitPriceMinor, unitCostMinor) VALUES (20, 1, 'Serum', 5000, 2000)"
        )
        try await client.query(
            "INSERT INTO product (id, bookId, name, unitPriceMinor, unitCostMinor) VALUES (21, 2, 'Other book', 100, 0)"
        )
        func sell(product: Int, date: String, quantity: Int64, revenue: Int64, commission: Int64) async throws {
            try await client.query(
                """
                INSERT INTO sale (bookId, clinicId, productId, date, quantity, unitPriceMinor, unitCostMinor, discountMinor,
                                  revenueMinor, costMinor, profitMinor, commissionExact, commissionMinor)
                VALUES (1, 10, \(product), \(date)::date, \(quantity), 5000, 2000, 0, \(revenue), 0, \(revenue), \(commission * 10_000), \(commission))
                """
            )
        }
        // A sale of book 1 cannot name book 2's product.
        await #expect(throws: PSQLError.self) {
            try await sell(product: 21, date: "2026-03-02", quantity: 1, revenue: 100, commission: 10)
        }
        for (index, date) in ["2026-02-27", "2026-03-02", "2026-03-02", "2027-01-05"].enumerated() {
            try await sell(
                product: 20,
                date: date,
                quantity: Int64(index + 1),
                revenue: Int64(1000 * (index + 1)),
                commission: Int64(100 * (index + 1))
            )
        }
        try await client.query("UPDATE sale SET isVoided = true WHERE date = '2026-02-27'")
        try await client.query("UPDATE sale SET date = '2026-04-01' WHERE quantity = 2")
        // The history is protected: a clinic or product with sales cannot be deleted, and a sale
        // cannot be moved to another book's product or to a clinic there is not (references are
        // checked once per statement, v12, and once per value a statement's sales name, v13).
        await #expect(throws: PSQLError.self) { try await client.query("DELETE FROM clinic WHERE id = 10") }
        await #expect(throws: PSQLError.self) { try await client.query("DELETE FROM product WHERE id = 20") }
        await #expect(throws: PSQLError.self) {
            try await client.query("UPDATE sale SET productId = 21 WHERE quantity = 3")
        }
        await #expect(throws: PSQLError.self) {
            try await client.query("UPDATE sale SET clinicId = 999 WHERE quantity >= 3")
        }
        await #expect(throws: PSQLError.self) {
            try await client.query(
                """
                INSERT INTO sale (bookId, clinicId, productId, date, quantity, unitPriceMinor, unitCostMinor, discountMinor, termsId, shareBasisPoints,
                                  basis, revenueMinor, costMinor, profitMinor, commissionExact, commissionMinor)
                VALUES (1, 10, 20, '2026-03-03', 1, 5000, 2000, 0, 999, 4000, 'profit', 5000, 2000, 3000, 12000000, 1200)
                """
            )
        }

        let figures = "count(*), sum(quantity), sum(revenueMinor), sum(commissionMinor), sum(commissionExact)"
        let stored = "sum(saleCount), sum(quantity), sum(revenueMinor), sum(commissionMinor), sum(commissionExact)"
        let pairs: [(String, String)] = [
            (
                "SELECT concat_ws(' ', clinicId, date, \(figures)) FROM sale WHERE NOT isVoided GROUP BY clinicId, date ORDER BY 1",
                "SELECT concat_ws(' ', clinicId, date, \(stored)) FROM clinicDayTotal GROUP BY clinicId, date ORDER BY 1"
            ),
            (
                "SELECT concat_ws(' ', clinicId, date_trunc('month', date)::date, \(figures)) FROM sale WHERE NOT isVoided GROUP BY clinicId, date_trunc('month', date) ORDER BY 1",
                "SELECT concat_ws(' ', clinicId, month, \(stored)) FROM clinicMonthTotal GROUP BY clinicId, month ORDER BY 1"
            ),
            (
                "SELECT concat_ws(' ', productId, date_trunc('month', date)::date, \(figures)) FROM sale WHERE NOT isVoided GROUP BY productId, date_trunc('month', date) ORDER BY 1",
                "SELECT concat_ws(' ', productId, month, \(stored)) FROM productMonthTotal GROUP BY productId, month ORDER BY 1"
            ),
            (
                "SELECT concat_ws(' ', productId, extract(year FROM date)::integer, \(figures)) FROM sale WHERE NOT isVoided GROUP BY productId, extract(year FROM date) ORDER BY 1",
                "SELECT concat_ws(' ', productId, year, \(stored)) FROM productYearTotal GROUP BY productId, year ORDER BY 1"
            ),
        ]
        for (recount, summary) in pairs {
            let expected = try await client.texts(PostgresQuery(unsafeSQL: recount))
            #expect(expected.count >= 2)
            #expect(try await client.texts(PostgresQuery(unsafeSQL: summary)) == expected, "\(summary)")
        }
        // A summary that would overflow is refused, not rounded.
        try await client.query(
            "INSERT INTO product (id, bookId, name, unitPriceMinor, unitCostMinor) VALUES (22, 1, 'Gold', 0, 0)"
        )
        try await sell(product: 22, date: "2026-05-01", quantity: 1, revenue: Int64.max / 2 + 1, commission: 0)
        await #expect(throws: PSQLError.self) {
            try await sell(product: 22, date: "2026-05-01", quantity: 1, revenue: Int64.max / 2 + 1, commission: 0)
        }
    }

    @Test func theAuditLogIsAppendOnly() async throws {
        let scratch = try await ScratchDatabase.create()
        defer { Task { await scratch.drop() } }
        let database = try await PostgresBookDatabase(url: scratch.url)
        defer { database.shutdown() }
        let store = try await PostgresStore.createBook(
            in: database,
            name: "Audit",
            settings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        )
        let clinic = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        try await store.closePeriod(
            clinic: clinic.id,
            period: PaySchedule.monthly.period(containing: try Day(parsing: "2026-03-02"))
        )
        #expect(try await store.auditLog(AuditQuery()).map(\.action) == ["close", "create"])
        for statement: PostgresQuery in ["UPDATE auditEntry SET actor = 'someone else'", "DELETE FROM auditEntry"] {
            await #expect(throws: (any Error).self) { try await database.client.query(statement) }
        }
        #expect(try await store.auditLog(AuditQuery()).map(\.actor) == ["system", "system"])
    }

    @Test func aDatabaseFromANewerCommissionIsRefused() async throws {
        let scratch = try await ScratchDatabase.create()
        defer { Task { await scratch.drop() } }
        let database = try await PostgresBookDatabase(url: scratch.url)
        try await database.client.query("INSERT INTO commissionMigration (name) VALUES ('v99: from the future')")
        database.shutdown()
        do {
            _ = try await PostgresBookDatabase(url: scratch.url)
            Issue.record("a database with an unknown migration was opened")
        } catch let error as StoreError {
            #expect(error.description.contains("newer Commission"), "\(error)")
        }
    }

    @Test(arguments: [
        ("sqlite:/tmp/book.sqlite", "is not a postgres:// URL"),
        ("postgres://127.0.0.1/commission", "names no user"),
        ("postgres://commission@127.0.0.1", "names no database"),
        ("postgres://commission:secret@127.0.0.1/db?sslmode=sometimes", "sslmode=sometimes"),
    ])
    func unusableURLsAreRefusedWithAReason(_ url: String, _ reason: String) throws {
        do {
            _ = try PostgresBookDatabase.configuration(url)
            Issue.record("\(url) was accepted")
        } catch let error as StoreError {
            #expect(error.description.contains(reason), "\(error)")
            #expect(!error.description.contains("secret"))
        }
    }
}
