import ArgumentParser
import CommissionCore
import CommissionKit
import CommissionPostgres
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import Logging
import Synchronization

struct BooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "books",
        abstract:
            "List the books of a PostgreSQL server, add a private book for another person, move one to another database, back one up or restore one.",
        discussion: """
            A server on PostgreSQL (`commission serve --database …`) holds one book per person or team; \
            each account sees only its own. `books add` makes a new, empty book and prints a one-time \
            link (valid 7 days) with which its owner creates their account. Owners then invite members \
            of their own book from Settings in the web app.

            `books link` makes such a link for a book that exists: its owner's, while it has none (a book \
            restored without accounts, or the server's first book when nobody set it up), or with \
            --member a member's.

            `books backup` writes one book to a book archive (JSON Lines, a consistent snapshot taken \
            while the team works on); `books restore` makes a new book from an archive — one made \
            here, or on SQLite with `commission backup --archive`.

            A server's books may be spread over several databases: give the others with \
            --more-database NAME=postgres://… (as the server is given them). The first keeps the \
            accounts and where each book is; `books list` shows it, `books add --on NAME` makes a \
            book there, and `books move BOOK --to NAME` moves one, with nothing lost.

            Examples:
              commission books list --database postgres://commission@127.0.0.1/commission
              commission books add "Maya's book" --currency EUR --time-zone Europe/Paris \\
                  --url https://commission.example.com --database postgres://commission@127.0.0.1/commission
              commission books add "Ana's book" --on east --database postgres://commission@db1/commission \\
                  --more-database east=postgres://commission@db2/commission
              commission books link 1 --url https://commission.example.com --database postgres://commission@127.0.0.1/commission
              commission books backup 3 ~/maya-2026-11-23.jsonl --database postgres://commission@127.0.0.1/commission
              commission books restore ~/maya-2026-11-23.jsonl --name "Maya (restored)" --database postgres://…
            """,
        subcommands: [List.self, Add.self, Link.self, Move.self, Backup.self, Restore.self]
    )

    /// The server's address, for the links printed: `--url`, else COMMISSION_PUBLIC_URL (the
    /// server's own `publicUrl` setting), else the server's default address.
    struct AddressOption: ParsableArguments {
        @Option(
            help: ArgumentHelp(
                "The address the server is reached at, for the link (also COMMISSION_PUBLIC_URL; default http://127.0.0.1:8080).",
                valueName: "http(s)://HOST[:PORT]"
            )
        )
        var url: String?

        func base() throws -> String {
            let given =
                url ?? ProcessInfo.processInfo.environment["COMMISSION_PUBLIC_URL"].flatMap { $0.isEmpty ? nil : $0 }
                ?? "http://127.0.0.1:8080"
            guard let base = PublicAddress(given) else {
                throw Failure(
                    "--url must be the server's address, such as http://127.0.0.1:8080 or https://commission.example.com."
                )
            }
            return base.text
        }

        /// The one-time link of `secret` on the server.
        func link(_ secret: String) throws -> String { try base() + WebSecrets.invitationPath + secret }
    }

    struct DatabaseOption: ParsableArguments {
        @Option(
            name: .long,
            help: ArgumentHelp(
                "The PostgreSQL database (also COMMISSION_DATABASE_URL); with several, the first: it keeps the accounts and where each book is.",
                valueName: "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"
            )
        )
        var database: String?
        @Option(
            name: .customLong("more-database"),
            help: ArgumentHelp(
                "Another database the server's books may be on, by a name of yours; repeat it for each, as the server is given them.",
                valueName: "NAME=postgres://…"
            )
        )
        var moreDatabases: [String] = []

        /// The server's books on its databases.
        func open() async throws -> PostgresBooks {
            guard
                let url = database
                    ?? ProcessInfo.processInfo.environment["COMMISSION_DATABASE_URL"].flatMap({ $0.isEmpty ? nil : $0 })
            else {
                throw Failure(
                    "Name the PostgreSQL database with --database postgres://… (or COMMISSION_DATABASE_URL): books live there."
                )
            }
            var logger = Logger(label: "commission")
            logger.logLevel = .error
            return try await PostgresBooks.open(
                url: url,
                more: moreDatabases,
                defaultSettings: SQLiteStore.systemDefaultSettings,
                logger: logger
            )
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the books, with how many accounts each has (and, with several databases, where each is).",
            discussion: """
                Example:
                  commission books list --database postgres://commission@127.0.0.1/commission --format csv
                """
        )
        @OptionGroup var database: DatabaseOption
        @OptionGroup var format: FormatOption

        func run() async throws {
            let directory = try await database.open()
            defer { directory.shutdown() }
            let books = try await directory.books()
            if books.isEmpty && format.format == .table {
                output(
                    "No books yet: `commission serve --database …` makes the first, `commission books add` another.\n"
                )
                return
            }
            // Where each book is, when the server has several databases (or a book is on one this command was not given).
            let table =
                directory.others.isEmpty && books.allSatisfy({ $0.database == PostgresBooks.mainName })
                ? TextTable(
                    [.init("id", .right), .init("name"), .init("accounts", .right)],
                    rows: books.map { ["\($0.id)", $0.name, "\($0.accounts)"] }
                )
                : TextTable(
                    [.init("id", .right), .init("name"), .init("accounts", .right), .init("database")],
                    rows: books.map { ["\($0.id)", $0.name, "\($0.accounts)", $0.database] }
                )
            output(Renderer(currency: .usd).render(table, as: format.format))
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an empty book and print the one-time link with which its owner signs up.",
            discussion: """
                Example:
                  commission books add "Maya's book" --currency EUR --time-zone Europe/Paris --url http://127.0.0.1:8080
                """
        )
        @Argument(help: "The book's name.") var name: String
        @Option(help: "The book's currency (ISO 4217 code).") var currency = "USD"
        @Option(name: .customLong("time-zone"), help: "The book's time zone (IANA name); this machine's by default.")
        var timeZone = TimeZone.current.identifier
        @Option(
            help: ArgumentHelp(
                "The database to keep it on, by its name (main, or one given with --more-database); main by default.",
                valueName: "NAME"
            )
        )
        var on = PostgresBooks.mainName
        @OptionGroup var address: AddressOption
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let name = name.trimmingWhitespaceAndNewlines()
            guard !name.isEmpty else { throw Failure("Give the book a name.") }
            let settings: BookSettings
            do {
                settings = BookSettings(currency: try Currency(code: currency), timeZoneIdentifier: timeZone)
            } catch {
                throw Failure("The currency: \(error)")
            }
            _ = try address.base()
            let books = try await database.open()
            defer { books.shutdown() }
            _ = try books.database(named: on)
            let secret = WebSecrets.make()
            let expires = Date().addingTimeInterval(7 * 24 * 3600)
            // The book and its owner's link in one transaction: only the link can claim it.
            let store = try await books.addBook(
                name: name,
                settings: settings,
                ownersLink: (WebSecrets.digest(secret), expires),
                on: on
            )
            let link = try address.link(secret)
            let place = books.others.isEmpty ? "" : " on \(on)"
            output(
                """
                Book \(store.book) "\(name)" (\(settings.currency.code), \(settings.timeZoneIdentifier)) is ready\(place).
                Send its owner this link; it works once, until \(Day(expires, in: .current)):
                  \(link)

                """
            )
        }
    }

    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a one-time link to a book that exists: its owner's while it has none, or a member's.",
            discussion: """
                The link works once, for 7 days. A book that has its owner takes an owner's link no more: \
                its owner invites people from Settings in the web app, or ask here for a member's (--member).

                Examples:
                  commission books link 1 --url https://commission.example.com --database postgres://commission@127.0.0.1/commission
                  commission books link 3 --member --database postgres://…
                """
        )
        @Argument(help: "The book's id (`commission books list` shows them).") var book: Int64
        @Flag(help: "A member's link rather than the owner's.") var member = false
        @OptionGroup var address: AddressOption
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            _ = try address.base()
            let books = try await database.open()
            defer { books.shutdown() }
            guard let listed = try await books.books().first(where: { $0.id == book }) else {
                throw Failure("There is no book \(book) on this server: `commission books list` shows them.")
            }
            let store = try await books.store(book: book)
            let owners = try await store.members().filter { $0.role == .owner }
            if !member, let owner = owners.first {
                throw Failure(
                    "Book \(book) \"\(listed.name)\" has its owner (\(owner.account.username)): they invite people from Settings in the web app. "
                        + "For a member's link, add --member."
                )
            }
            let secret = WebSecrets.make()
            let expires = Date().addingTimeInterval(7 * 24 * 3600)
            try await store.createInvitation(
                tokenDigest: WebSecrets.digest(secret),
                role: member ? .member : .owner,
                invitedBy: nil,
                expiresAt: expires
            )
            output(
                """
                Send \(member ? "the new member" : "the owner") of book \(book) "\(listed.name)" this link; it works once, until \(Day(expires, in: .current)):
                  \(try address.link(secret))

                """
            )
        }
    }

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move a book to another of the server's databases, with nothing lost, then prove the copy.",
            discussion: """
                For a server whose books are on several PostgreSQL databases (`commission serve \
                --database … --more-database NAME=…`). The book's writes are refused while it moves — \
                her phone and the web app send them again, with their keys, and they are taken on the \
                new database — while its archive is copied there in one transaction and the copy is \
                proved as `commission migrate` proves one: the settings, the count of every kind of \
                record, the totals of every statement of every clinic, and the audit log entry by \
                entry. Then the server's directory is switched in one commit; every server running on \
                it opens the book on its new database, and the live pages follow. The old copy is \
                removed a few seconds later. Accounts, sessions and API tokens stay where they are (the \
                first database keeps them): nobody signs in again. A failure before the switch removes \
                the copy and leaves the book where it was. Records keep their ids; devices syncing the \
                book take it whole once (its audit log is numbered by the new database). A move cut \
                short (the command killed, its machine lost) leaves the book read-only: run it again \
                to finish it, or move the book to where it is to give it up. Every server of the team \
                must run this version (or newer) before a book is moved.

                Example:
                  commission books move 3 --to east \\
                      --database postgres://commission@db1/commission --more-database east=postgres://commission@db2/commission
                """
        )
        @Argument(help: "The book's id (`commission books list` shows them and where they are).") var book: Int64
        @Option(
            help: ArgumentHelp(
                "The database to move it to, by its name (main, or one given with --more-database).",
                valueName: "NAME"
            )
        )
        var to: String
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let books = try await database.open()
            defer { books.shutdown() }
            _ = try books.database(named: to)
            guard let listed = try await books.books().first(where: { $0.id == book }) else {
                throw Failure("There is no book \(book) on this server: `commission books list` shows them.")
            }
            if listed.database == to { throw Failure("Book \(book) \"\(listed.name)\" is on \(to) already.") }
            note(
                "Moving book \(book) \"\(listed.name)\" from \(listed.database) to \(to); its writes are refused until it is there…"
            )
            let started = ContinuousClock.now
            let checked = Mutex<BookComparison.Checked?>(nil)
            let moved = try await books.move(book: book, to: to) { source, target in
                let found = try await BookComparison(source: source, target: target).run()
                checked.withLock { $0 = found }
            }
            guard let proof = checked.withLock({ $0 }) else { throw Failure("The move ended without its proof.") }
            output(
                """
                Moved book \(book) "\(listed.name)" from \(moved.from) to \(moved.to) in \(Migrate.seconds(since: started)): \(moved.counts).
                Checked: the settings and counts are equal, the totals of all \(proof.statements) statements are equal, and so are all \(proof.auditEntries) audit entries.
                Its writes were refused for \(Migrate.seconds(moved.readOnlyFor)); \(moved.oldCopyLeft.map {
                    "the old copy on \(moved.from) could not be removed (\($0)): the book's next move removes it."
                } ?? "the old copy on \(moved.from) is removed.")

                """
            )
        }
    }

    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write one book of the database to a book archive (JSON Lines).",
            discussion: """
                The archive is one consistent snapshot (REPEATABLE READ): the team may go on recording \
                meanwhile. It holds the book's settings, records, audit log, its members' accounts \
                (with their password hashes) and API tokens: keep it as safe as the database.

                Example:
                  commission books backup 3 ~/maya-2026-11-23.jsonl --database postgres://commission@127.0.0.1/commission
                """
        )
        @Argument(help: "The book's id (see `commission books list`).") var book: Int64
        @Argument(help: "The archive file to write.") var path: String
        @Flag(help: "Replace the file if it exists.") var force = false
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let books = try await database.open()
            defer { books.shutdown() }
            guard try await books.books().contains(where: { $0.id == book }) else {
                throw Failure("There is no book \(book) on this server: `commission books list` shows them.")
            }
            let store = try await books.postgresStore(book: book)
            let counts = try await ArchiveFile.write(store, to: path, replacing: force)
            output("Archived book \(book) to \(path): \(counts).\n")
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a new book of the database from a book archive, or replace a book with one.",
            discussion: """
                The archive is read to its end line inside one transaction: a file cut short or broken \
                leaves nothing behind. Its accounts come along (they sign in with their own \
                passwords) unless a namesake exists on this server, which is refused. When it brings no \
                owner, a one-time link for the owner is printed, as `books add` does.

                With --replace BOOK, the archive replaces that book in place instead, as its owner's \
                restore on the Import & export page does: its clinics, products, terms, price lists, \
                deductions, sales, payouts, closed periods and settings become the archive's; its id, \
                name, members, their sessions, tokens and invitations stay (the archive's accounts \
                are passed over); its audit log keeps its entries and adds the archive's, then one \
                that records the restore.

                Examples:
                  commission books restore ~/maya-2026-11-23.jsonl --name "Maya (restored)" \\
                      --url https://commission.example.com --database postgres://commission@127.0.0.1/commission
                  commission books restore ~/maya-2026-11-23.jsonl --replace 2 --database postgres://commission@127.0.0.1/commission
                """
        )
        @Argument(help: "The archive file (`commission books backup`, or `commission backup --archive`).") var path:
            String
        @Option(help: "The new book's name; the archive's by default.") var name: String?
        @Option(
            help: ArgumentHelp(
                "Replace this book's records with the archive's, in place, keeping its members.",
                valueName: "BOOK"
            )
        )
        var replace: Int64?
        @OptionGroup var address: AddressOption
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            guard ArchiveFile.isArchive(atPath: path) else {
                throw Failure("\(path) is not a book archive (an SQLite book moves with `commission migrate`).")
            }
            let books = try await database.open()
            defer { books.shutdown() }
            let shared = books.database
            let progress = Progress()
            if let replace {
                guard name == nil else {
                    throw Failure("--replace keeps the book's own name; --name is for a new book. Give one of them.")
                }
                guard try await books.books().contains(where: { $0.id == replace }) else {
                    throw Failure("There is no book \(replace) on this server: `commission books list` shows them.")
                }
                let counts = try await books.postgresStore(book: replace).replaceBook { sink in
                    try await ArchiveFile.read(path) { record in
                        try await sink(record)
                        progress.saw(record)
                    }
                }
                output(
                    "Replaced book \(replace) with \(path): \(counts). Its members stay; the archive's accounts were passed over.\n"
                )
                return
            }
            let secret = WebSecrets.make()
            let expires = Date().addingTimeInterval(7 * 24 * 3600)
            let restored = try await PostgresStore.restoreBook(
                into: shared,
                name: name?.trimmingWhitespaceAndNewlines(),
                ownersLink: (WebSecrets.digest(secret), expires)
            ) { sink in
                try await ArchiveFile.read(path) { record in
                    try await sink(record)
                    progress.saw(record)
                }
            }
            output("Restored \(path) as book \(restored.store.book): \(restored.counts).\n")
            if restored.awaitsOwner {
                let link = try address.link(secret)
                output(
                    """
                    It has no owner yet. Send its owner this link; it works once, until \(Day(expires, in: .current)):
                      \(link)

                    """
                )
            }
        }
    }
}
