import CommissionCore
import CommissionKit
import CommissionPostgres
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import PostgresNIO
import Testing

@Suite(.serialized) struct MigrateTests {
    @Test func aBookMovesToPostgreSQLWholeAndTheCopyIsProved() async throws {
        // A small book with everything a book holds: voided sales, an awkward note, payouts, a closed period, an account, a token.
        let path = temporaryDirectory().appendingPathComponent("book.sqlite").path
        let store = try SQLiteStore(
            .file(path),
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
        let note = "tab\there, a back\\slash,\nand a new line"
        var sales: [Sale] = []
        for index in 0..<40 {
            sales.append(
                try await store.createSale(
                    SaleDraft(
                        clinicID: index.isMultiple(of: 2) ? glow.id : harbor.id,
                        productID: serum.id,
                        date: try Day(parsing: "2026-03-01").adding(days: index),
                        quantity: Int64(index % 3 + 1),
                        note: index == 7 ? note : nil
                    ),
                    idempotencyKey: index == 9 ? "phone-9" : nil
                )
            )
        }
        _ = try await store.voidSale(sales[4].id)
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
        let owner = try await store.createOwner(username: "owner", passwordHash: "bcrypt-hash")
        _ = try await store.createToken(
            account: owner.id,
            name: "laptop",
            tokenDigest: WebSecrets.digest("cm_secret"),
            now: Date()
        )
        try await store.createInvitation(
            tokenDigest: "invited",
            role: .member,
            invitedBy: owner.id,
            expiresAt: Date().addingTimeInterval(60)
        )
        _ = try await store.acceptInvitation(
            tokenDigest: "invited",
            username: "helper",
            passwordHash: "bcrypt-2",
            now: Date()
        )

        let url = try await scratchPostgresDatabase()
        let copied = try commission(["migrate", "--from", "sqlite:\(path)", "--to", url])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout.contains("40 sales"))
        #expect(copied.stdout.contains("Checked: the settings and counts are equal"), "\(copied.stdout)")
        #expect(
            copied.stdout.contains("and so are all \(try await store.auditLog(AuditQuery()).count) audit entries"),
            "\(copied.stdout)"
        )

        // The copy, read through the PostgreSQL store.
        let database = try await PostgresBookDatabase(url: url)
        defer { database.shutdown() }
        let book = try await PostgresStore.firstBook(
            in: database,
            creatingWith: .init(currency: .usd, timeZoneIdentifier: "UTC")
        )
        #expect(try await book.settings() == store.settings())
        // The sale's secondary indexes, set aside while the sales were copied into an empty database, are built again.
        var indexes: [String] = []
        for try await name in try await database.client.query(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'sale' ORDER BY 1"
        ).decode(String.self) {
            indexes.append(name)
        }
        #expect(indexes == ["sale_clinic_date", "sale_date", "sale_key", "sale_pkey", "sale_product_date"])
        #expect(try await book.sales(SaleQuery(text: "back\\slash")).first?.note == note)
        #expect(try await book.countSales(SaleQuery(includeVoided: true)) == 40)
        #expect(try await book.countSales(SaleQuery()) == 39)
        let copiedGlow = try await book.clinic(named: "Glow")
        #expect(try await book.statement(clinic: copiedGlow.id, period: march).isClosed)
        #expect(
            try await book.statement(clinic: copiedGlow.id, period: march).totals
                == (try await store.statement(clinic: glow.id, period: march).totals)
        )
        #expect(try await book.credentials(username: "owner")?.passwordHash == "bcrypt-hash")
        #expect(
            try await book.members().map { "\($0.account.username):\($0.role)" } == ["owner:owner", "helper:member"]
        )
        #expect(try await book.account(tokenDigest: WebSecrets.digest("cm_secret"), now: Date())?.username == "owner")
        // The audit log came along, its entries pointing at the copied records.
        #expect(try await book.auditLog(AuditQuery()).count == (try await store.auditLog(AuditQuery())).count)
        let voided = try #require(try await book.sales(SaleQuery(includeVoided: true)).first { $0.isVoided })
        #expect(
            try await book.auditLog(AuditQuery(subject: .sale, subjectID: voided.id.rawValue)).map(\.action) == [
                "void", "create",
            ]
        )
        let periods = try await book.auditLog(AuditQuery(subject: .period, subjectID: copiedGlow.id.rawValue))
        #expect(periods.map(\.action) == ["close"])
        // A retried sale with the same key is still one sale (sale 9: Harbor, 2026-03-10, one unit).
        let retried = try await book.createSale(
            SaleDraft(
                clinicID: try await book.clinic(named: "Harbor").id,
                productID: try await book.product(named: "SER").id,
                date: try Day(parsing: "2026-03-10")
            ),
            idempotencyKey: "phone-9"
        )
        #expect(retried.date == (try Day(parsing: "2026-03-10")))
        #expect(try await book.countSales(SaleQuery(includeVoided: true)) == 40)

        // A database with a book is refused; told to add it anyway, the clash of accounts stops it,
        // and nothing of the second copy is left behind.
        let again = try commission(["migrate", "--from", path, "--to", url])
        #expect(again.status == 1)
        #expect(again.stderr.contains("already holds 1 book"))
        let beside = try commission(["migrate", "--from", path, "--to", url, "--into-nonempty"])
        #expect(beside.status == 1)
        #expect(
            beside.stderr.contains("its account \"owner\" has a namesake on this server already"),
            "\(beside.stderr)"
        )
        let books = try await database.client.query("SELECT count(*) FROM book").decode(Int64.self)
        var count: Int64 = 0
        for try await value in books { count = value }
        #expect(count == 1)

        // And back: PostgreSQL → a new SQLite file gives the same reports and the same audit log,
        // entry by entry, as the file it all came from.
        let back = temporaryDirectory().appendingPathComponent("back.sqlite").path
        let returned = try commission(["migrate", "--from", url, "--to", "sqlite:\(back)"])
        #expect(returned.status == 0, "\(returned.stderr)")
        #expect(returned.stdout.contains("Copied book 1 of"), "\(returned.stdout)")
        let roundTrip = try SQLiteStore(.file(back))
        let checked = try await BookComparison(source: store, target: roundTrip).run()
        #expect(checked.auditEntries == (try await store.auditLog(AuditQuery())).count && checked.statements > 0)
        #expect(try await roundTrip.credentials(username: "helper")?.passwordHash == "bcrypt-2")
        #expect(
            try await roundTrip.account(tokenDigest: WebSecrets.digest("cm_secret"), now: Date())?.username == "owner"
        )
        let voidedBack = try #require(try await roundTrip.sales(SaleQuery(includeVoided: true)).first { $0.isVoided })
        #expect(
            try await roundTrip.auditLog(AuditQuery(subject: .sale, subjectID: voidedBack.id.rawValue)).map(\.action)
                == ["void", "create"]
        )
        #expect(
            try await roundTrip.dashboard(today: try Day(parsing: "2026-04-30"))
                == (try await store.dashboard(today: try Day(parsing: "2026-04-30")))
        )
        // A target file that exists is refused, and left as it was.
        let onto = try commission(["migrate", "--from", url, "--to", back])
        #expect(onto.status == 1 && onto.stderr.contains("exists already"), "\(onto.stderr)")
        // A database of one book needs none named; a book it does not hold is refused by name.
        let only = try commission([
            "migrate", "--from", url, "--to", temporaryDirectory().appendingPathComponent("x.sqlite").path,
            "--skip-proof",
        ])
        #expect(only.status == 0, "\(only.stderr)")
        let missing = try commission([
            "migrate", "--from", url, "--from-book", "7", "--to",
            temporaryDirectory().appendingPathComponent("y.sqlite").path,
        ])
        #expect(missing.status == 1 && missing.stderr.contains("has no book 7: 1 \"book\""), "\(missing.stderr)")
    }

    /// The portable backup: a book archive written from SQLite restores into SQLite and into a new
    /// book on PostgreSQL, and back; an archive cut short or tampered with changes nothing.
    @Test("A book archive restores anywhere, and a broken one changes nothing") func archiveRestoresAnywhere()
        async throws
    {
        let directory = temporaryDirectory()
        let path = directory.appendingPathComponent("book.sqlite").path
        #expect(try commission(["demo", "--db", path]).status == 0)
        let original = try SQLiteStore(.file(path))
        let archive = directory.appendingPathComponent("book.jsonl").path
        let written = try commission(["backup", "--db", path, archive])
        #expect(written.status == 0 && written.stdout.contains("Archived"), "\(written.stderr)")
        #expect(ArchiveFile.isArchive(atPath: archive))
        let lines = try String(contentsOfFile: archive, encoding: .utf8).split(separator: "\n")
        #expect(
            lines.first?.hasPrefix("{\"commissionArchive\":\(ArchiveFile.version)") == true
                && lines.last?.hasPrefix("{\"end\":") == true
        )

        // Into a new SQLite book.
        let copy = directory.appendingPathComponent("copy.sqlite").path
        let restored = try commission(["restore", "--db", copy, archive])
        #expect(restored.status == 0, "\(restored.stderr)")
        try await BookComparison(source: original, target: try SQLiteStore(.file(copy))).run()
        // Into a book that holds sales: only with --force.
        let over = try commission(["restore", "--db", copy, archive])
        #expect(over.status == 1 && over.stderr.contains("--force"))

        // Cut short, or with a sale naming a clinic it does not hold: refused, and the book is as it was.
        let before = try await original.dashboard(today: try Day(parsing: "2026-11-23"))
        let cut = directory.appendingPathComponent("cut.jsonl").path
        try lines.dropLast(3).joined(separator: "\n").write(toFile: cut, atomically: true, encoding: .utf8)
        let short = try commission(["restore", "--db", path, cut, "--force"])
        #expect(short.status == 1 && short.stderr.contains("cut short"), "\(short.stderr)")
        let broken = directory.appendingPathComponent("broken.jsonl").path
        let saleLine = try #require(lines.firstIndex { $0.hasPrefix("{\"sale\":") })
        var tampered = lines.map(String.init)
        tampered[saleLine] = tampered[saleLine].replacingOccurrences(of: "\"clinicId\":", with: "\"clinicId\":9999")
        try tampered.joined(separator: "\n").write(toFile: broken, atomically: true, encoding: .utf8)
        let refused = try commission(["restore", "--db", path, broken, "--force"])
        #expect(refused.status == 1, "\(refused.stdout)")
        #expect(refused.stderr.contains("names clinic 9999"), "\(refused.stderr)")
        #expect(try await original.dashboard(today: try Day(parsing: "2026-11-23")) == before)
        #expect(
            !FileManager.default.fileExists(atPath: path + ".restoring-\(ProcessInfo.processInfo.processIdentifier)")
        )

        // A PostgreSQL book from the archive; with no owner in it, its owner's link is printed.
        let url = try await scratchPostgresDatabase()
        let made = try commission([
            "books", "restore", archive, "--name", "Demo (restored)", "--url", "https://c.example.com", "--database",
            url,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(
            made.stdout.contains("as book 1") && made.stdout.contains("https://c.example.com/invite/"),
            "\(made.stdout)"
        )
        let database = try await PostgresBookDatabase(url: url)
        defer { database.shutdown() }
        let book = try await PostgresStore(database: database, book: 1)
        try await BookComparison(source: original, target: book).run()
        #expect(
            try await PostgresBooks(
                database: database,
                defaultSettings: .init(currency: .usd, timeZoneIdentifier: "UTC")
            ).setupIsOpen(book: 1) == false
        )
        // …and its own backup, taken from PostgreSQL, restores into SQLite the same.
        let fromServer = directory.appendingPathComponent("server.jsonl").path
        #expect(try commission(["books", "backup", "1", fromServer, "--database", url]).status == 0)
        let third = directory.appendingPathComponent("third.sqlite").path
        #expect(try commission(["restore", "--db", third, fromServer]).status == 0)
        try await BookComparison(source: original, target: try SQLiteStore(.file(third))).run()
        // A cut archive makes no book on PostgreSQL either.
        let none = try commission(["books", "restore", cut, "--database", url])
        #expect(none.status == 1 && none.stderr.contains("cut short"), "\(none.stderr)")
        #expect(
            try await PostgresBooks(
                database: database,
                defaultSettings: .init(currency: .usd, timeZoneIdentifier: "UTC")
            ).books().count == 1
        )

        // --replace puts the archive in place of a book: the same figures, the restore on record, no new book.
        let replaced = try commission(["books", "restore", fromServer, "--replace", "1", "--database", url])
        #expect(replaced.status == 0 && replaced.stdout.contains("Replaced book 1 with"), "\(replaced.stderr)")
        try await BookComparison(source: original, target: book).run(restoredInPlace: true)
        #expect(
            try await PostgresBooks(
                database: database,
                defaultSettings: .init(currency: .usd, timeZoneIdentifier: "UTC")
            ).books().count == 1
        )
        let nowhere = try commission(["books", "restore", fromServer, "--replace", "9", "--database", url])
        #expect(nowhere.status == 1 && nowhere.stderr.contains("There is no book 9"), "\(nowhere.stderr)")
        let cutShort = try commission(["books", "restore", cut, "--replace", "1", "--database", url])
        #expect(cutShort.status == 1 && cutShort.stderr.contains("cut short"), "\(cutShort.stderr)")
        try await BookComparison(source: original, target: book).run(restoredInPlace: true)
    }
}

@Suite(.serialized) struct BooksCommandTests {
    /// The server's first book, left without its owner once another book's link was claimed (set-up
    /// closes when any account exists), gets its owner's link from `books link`; a book with its
    /// owner gets a member's only when asked.
    @Test func aBookWithoutItsOwnerGetsALinkForIt() async throws {
        let url = try await scratchPostgresDatabase()
        let database = try await PostgresBookDatabase(url: url)
        defer { database.shutdown() }
        let settings = BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        let first = try await PostgresStore.firstBook(in: database, creatingWith: settings)
        let books = PostgresBooks(database: database, defaultSettings: settings)
        // Book 2's owner claims their link before anyone set up book 1: set-up is closed for good.
        let added = try commission(
            ["books", "add", "Maya's book", "--database", url],
            environment: ["COMMISSION_PUBLIC_URL": "https://c.example.com"]
        )
        let mayaLink = try #require(
            added.stdout.firstMatch(of: /https:\/\/c\.example\.com\/invite\/([0-9a-f]{64})/),
            "\(added.stdout)\(added.stderr)"
        )
        let maya = try await books.store(book: 2)
        _ = try await maya.acceptInvitation(
            tokenDigest: WebSecrets.digest(String(mayaLink.1)),
            username: "maya",
            passwordHash: "x",
            now: Date()
        )
        #expect(try await books.setupIsOpen(book: first.book) == false)

        let linked = try commission([
            "books", "link", "\(first.book)", "--url", "https://c.example.com/", "--database", url,
        ])
        #expect(linked.status == 0, "\(linked.stderr)")
        let link = try #require(
            linked.stdout.firstMatch(of: /https:\/\/c\.example\.com\/invite\/([0-9a-f]{64})/),
            "\(linked.stdout)"
        )
        let digest = WebSecrets.digest(String(link.1))
        #expect(try await books.book(invitationDigest: digest, now: Date()) == first.book)
        let owner = try await first.acceptInvitation(
            tokenDigest: digest,
            username: "olivia",
            passwordHash: "x",
            now: Date()
        )
        #expect(try await first.role(of: owner.id) == .owner)

        // Now it has its owner: an owner's link is refused, saying where people are invited; a member's is made.
        let again = try commission(["books", "link", "\(first.book)", "--database", url])
        #expect(
            again.status != 0 && again.stderr.contains("has its owner (olivia)") && again.stderr.contains("--member"),
            "\(again.stderr)"
        )
        let member = try commission(["books", "link", "\(first.book)", "--member", "--database", url])
        #expect(
            member.status == 0 && member.stdout.contains("http://127.0.0.1:8080/invite/"),
            "\(member.stdout)\(member.stderr)"
        )
        let nowhere = try commission(["books", "link", "9", "--database", url])
        #expect(nowhere.status != 0 && nowhere.stderr.contains("There is no book 9"))
    }

    @Test func aNewBookComesWithAOneTimeLinkForItsOwner() async throws {
        let url = try await scratchPostgresDatabase()
        let empty = try commission(["books", "list", "--database", url])
        #expect(empty.status == 0 && empty.stdout.contains("No books yet"), "\(empty.stderr)")

        let added = try commission(
            [
                "books", "add", "Maya's book", "--currency", "EUR", "--time-zone", "Europe/Paris",
                "--url", "https://commission.example.com/",
            ],
            environment: ["COMMISSION_DATABASE_URL": url]
        )
        #expect(added.status == 0, "\(added.stderr)")
        let link = try #require(
            added.stdout.firstMatch(of: /https:\/\/commission\.example\.com\/invite\/([0-9a-f]{64})/)
        )
        let listed = try commission(["books", "list", "--format", "csv", "--database", url])
        #expect(
            listed.stdout.replacingOccurrences(of: "\r\n", with: "\n") == "id,name,accounts\n1,Maya's book,0\n",
            "\(listed.stdout)"
        )

        // The link's secret leads to the new book, which takes it once, for its owner.
        let database = try await PostgresBookDatabase(url: url)
        defer { database.shutdown() }
        let books = PostgresBooks(
            database: database,
            defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        )
        let digest = WebSecrets.digest(String(link.1))
        let book = try #require(try await books.book(invitationDigest: digest, now: Date()))
        let store = try await books.store(book: book)
        let settings = try await store.settings()
        #expect(settings.currency.code == "EUR" && settings.timeZoneIdentifier == "Europe/Paris")
        let maya = try await store.acceptInvitation(
            tokenDigest: digest,
            username: "maya",
            passwordHash: "x",
            now: Date()
        )
        #expect(try await store.role(of: maya.id) == .owner)
        #expect(try await books.book(username: "MAYA") == book)
        #expect(try await books.book(invitationDigest: digest, now: Date()) == nil)

        // Bad input is refused with a reason, and adds no book.
        let badCurrency = try commission(["books", "add", "X", "--currency", "EURO", "--database", url])
        #expect(badCurrency.status == 1 && badCurrency.stderr.contains("currency"), "\(badCurrency.stderr)")
        let noDatabase = try commission(["books", "add", "X"], environment: ["COMMISSION_DATABASE_URL": ""])
        #expect(noDatabase.status == 1 && noDatabase.stderr.contains("--database"), "\(noDatabase.stderr)")
        #expect(
            try commission(["books", "list", "--format", "csv", "--database", url]).stdout.split(
                whereSeparator: \.isNewline
            ).count == 2
        )
    }
}
