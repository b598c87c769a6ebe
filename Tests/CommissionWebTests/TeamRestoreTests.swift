import CommissionCore
import CommissionKit
import CommissionPostgres
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The owner of a book on a team server restores a backup from the transfer page: a book archive
/// replaces the book's records in place, its members stay signed in, the other books of the
/// database are untouched, and the audit log keeps what it held.
@Suite(.serialized) struct TeamRestoreTests {
    /// A book of its own with what a book holds: two clinics (one weekly with a deduction), terms,
    /// sales (one voided), a payout and a closed period; archived to a file.
    static func archivedBook(at path: String) async throws -> SQLiteStore {
        let store = try SQLiteStore(
            .inMemory,
            defaultSettings: BookSettings(
                currency: try Currency(code: "EUR", minorDigits: 2),
                timeZoneIdentifier: "Europe/Paris"
            )
        )
        let glow = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        let harbor = try await store.createClinic(ClinicDraft(name: "Harbor", schedule: .weekly(startingOn: .monday)))
        let serum = try await store.createProduct(
            ProductDraft(
                name: "Serum",
                sku: "SER",
                unitPrice: Money(minorUnits: 5000),
                unitCost: Money(minorUnits: 2000)
            )
        )
        for clinic in [glow, harbor] {
            _ = try await store.createTerms(
                TermsDraft(
                    clinicID: clinic.id,
                    share: try Share(parsing: "37.5"),
                    effectiveFrom: try Day(parsing: "2026-01-01")
                )
            )
        }
        _ = try await store.createDeduction(
            Deduction(
                id: Deduction.ID(0),
                clinicID: harbor.id,
                name: "Room",
                amount: .fixed(Money(minorUnits: 1500)),
                effectiveFrom: try Day(parsing: "2026-01-01")
            )
        )
        var sales: [Sale] = []
        for index in 0..<12 {
            sales.append(
                try await store.createSale(
                    SaleDraft(
                        clinicID: index.isMultiple(of: 2) ? glow.id : harbor.id,
                        productID: serum.id,
                        date: try Day(parsing: "2026-03-02").adding(days: index),
                        quantity: Int64(index % 3 + 1)
                    ),
                    idempotencyKey: nil
                )
            )
        }
        _ = try await store.voidSale(sales[3].id)
        let march = PayPeriod(start: try Day(parsing: "2026-03-01"), end: try Day(parsing: "2026-03-31"))
        _ = try await store.createPayout(
            PayoutDraft(
                clinicID: glow.id,
                period: march,
                amount: Money(minorUnits: 10_000),
                receivedOn: try Day(parsing: "2026-04-05")
            )
        )
        try await store.closePeriod(clinic: glow.id, period: march)
        _ = try await store.createOwner(username: "someone-else", passwordHash: "bcrypt-hash")
        try await ArchiveFile.write(store, to: path)
        return store
    }

    @Test("An owner on a team server restores an archive in place and her team stays") func teamRestoreKeepsTheTeam()
        async throws
    {
        guard let server = ProcessInfo.processInfo.environment["COMMISSION_TEST_POSTGRES_URL"], !server.isEmpty else {
            throw StoreError.storage(
                "COMMISSION_TEST_POSTGRES_URL is not set: run the tests with scripts/test, which starts a throw-away PostgreSQL"
            )
        }
        let database = try await PostgresBookDatabase(
            url: try await PostgresBookDatabase.createDatabase(prefix: "commission_restore", onServer: server)
        )
        defer { database.shutdown() }
        let settings = BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        let link = SetupTests.ownersLink()
        let maya = try await PostgresStore.createBook(
            in: database,
            name: "Maya's book",
            settings: settings,
            ownersLink: (link.digest, Date().addingTimeInterval(600))
        )
        let other = try await PostgresStore.createBook(in: database, name: "Another book", settings: settings)
        // Her book as it is before the restore, and another person's book on the same database.
        let day = try Day(parsing: "2026-05-04")
        for store in [maya, other] {
            let clinic = try await store.createClinic(ClinicDraft(name: "Old clinic", schedule: .monthly))
            let product = try await store.createProduct(
                ProductDraft(name: "Old product", sku: nil, unitPrice: Money(minorUnits: 1000), unitCost: .zero)
            )
            _ = try await store.createTerms(
                TermsDraft(clinicID: clinic.id, share: try Share(parsing: "50"), effectiveFrom: day)
            )
            for _ in 0..<3 {
                _ = try await store.createSale(
                    SaleDraft(clinicID: clinic.id, productID: product.id, date: day),
                    idempotencyKey: nil
                )
            }
        }
        let mayaLogBefore = try await maya.auditLog(AuditQuery()).count
        let otherBefore = try await other.dashboard(today: day)

        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "commission-team-restore-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let archivePath = directory.appendingPathComponent("book.jsonl").path
        let source = try await Self.archivedBook(at: archivePath)
        let sqlitePath = directory.appendingPathComponent("book.sqlite").path
        try await source.backup(to: sqlitePath)

        let app = buildApplication(
            configuration: WebConfiguration(bcryptCost: 4),
            books: PostgresBooks(database: database, defaultSettings: settings)
        )
        try await app.test(.router) { client in
            let cookie = try await accept(client, path: link.path, username: "maya")
            let signedIn: HTTPFields = [.cookie: "commission_session=\(cookie)"]
            let transfer = try await client.execute(uri: "/transfer", method: .get, headers: signedIn)
            #expect(
                transfer.text.contains("id=\"restore-form\"") && transfer.text.contains("accept=\".jsonl\""),
                "\(transfer.text)"
            )
            let csrf = try #require(csrfField(transfer.text))

            // An SQLite backup file is not for a team server: the page says how to make an archive.
            var (headers, body) = BookPagesTests.upload(
                csrf: csrf,
                file: Array(try Data(contentsOf: URL(fileURLWithPath: sqlitePath)))
            )
            headers[.cookie] = "commission_session=\(cookie)"
            let sqlite = try await client.execute(uri: "/transfer/restore", method: .post, headers: headers, body: body)
            #expect(sqlite.status.code == 422 && sqlite.text.contains("restored from a book archive"), "\(sqlite.text)")

            // The archive: what it holds beside the book as it is, and that her team stays.
            (headers, body) = BookPagesTests.upload(
                csrf: csrf,
                file: Array(try Data(contentsOf: URL(fileURLWithPath: archivePath)))
            )
            headers[.cookie] = "commission_session=\(cookie)"
            let staged = try await client.execute(uri: "/transfer/restore", method: .post, headers: headers, body: body)
            #expect(staged.status == .ok, "\(staged.text)")
            #expect(
                staged.text.contains("<td>Sales</td><td class=\"num\">3</td><td class=\"num\">12</td>"),
                "\(staged.text)"
            )
            #expect(
                staged.text.contains("The book's members stay") && !staged.text.contains("<td>Accounts</td>"),
                "\(staged.text)"
            )
            #expect(staged.text.contains("href=\"/export/backup.jsonl\""))
            #expect(try await maya.countSales(SaleQuery()) == 3)
            let token = try #require(staged.text.firstMatch(of: /name="token" value="([0-9a-f]{64})"/)?.1)

            var confirm = signedIn
            confirm[.contentType] = "application/x-www-form-urlencoded"
            let confirmed = try await client.execute(
                uri: "/transfer/restore/confirm",
                method: .post,
                headers: confirm,
                body: form(["csrf": csrf, "token": String(token), "action": "restore"])
            )
            #expect(
                confirmed.status == .ok
                    && confirmed.text.contains(
                        "The book was restored from the backup: 2 clinics, 1 product, 12 sales and 1 payout."
                    ),
                "\(confirmed.text)"
            )
            // She is still signed in, and her dashboard is the backup's.
            let dashboard = try await client.execute(uri: "/dashboard", method: .get, headers: signedIn)
            #expect(
                dashboard.status == .ok && dashboard.text.contains("Harbor") && !dashboard.text.contains("Old clinic")
            )
        }

        // The book is the archive's, statement by statement and entry by entry, with the restore on record.
        try await BookComparison(source: source, target: maya).run(restoredInPlace: true)
        let log = try await maya.auditLog(AuditQuery())
        #expect(log.count == mayaLogBefore + (try await source.auditLog(AuditQuery()).count) + 1)
        #expect(
            log.first?.actor == "maya" && log.first?.after?.contains("\"sales\":12") == true,
            "\(String(describing: log.first))"
        )
        #expect(try await maya.members().map { "\($0.account.username):\($0.role)" } == ["maya:owner"])
        #expect(try await maya.credentials(username: "someone-else") == nil)
        // Another book of the same database is as it was.
        #expect(try await other.dashboard(today: day) == otherBefore)
        #expect(try await other.clinics(ClinicQuery()).map(\.name) == ["Old clinic"])

        // An archive that breaks off midway changes nothing.
        let before = try await maya.dashboard(today: try Day(parsing: "2026-03-20"))
        await #expect(throws: StoreError.self) {
            try await maya.replaceBook { sink in
                try await ArchiveFile.read(archivePath) { record in
                    if case .payout = record { throw StoreError.invalid(field: "archive", reason: "cut short.") }
                    try await sink(record)
                }
            }
        }
        #expect(try await maya.dashboard(today: try Day(parsing: "2026-03-20")) == before)
        #expect(try await maya.auditLog(AuditQuery()).count == log.count)
    }
}
