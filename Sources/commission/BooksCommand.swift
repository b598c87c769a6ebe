import ArgumentParser
import CommissionCore
import CommissionKit
import CommissionPostgres
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import Logging

struct BooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "books",
        abstract: "List the books of a PostgreSQL database, add a private book for another person, back one up or restore one.",
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

            Examples:
              commission books list --database postgres://commission@127.0.0.1/commission
              commission books add "Maya's book" --currency EUR --time-zone Europe/Paris \\
                  --url https://commission.example.com --database postgres://commission@127.0.0.1/commission
              commission books link 1 --url https://commission.example.com --database postgres://commission@127.0.0.1/commission
              commission books backup 3 ~/maya-2026-11-23.jsonl --database postgres://commission@127.0.0.1/commission
              commission books restore ~/maya-2026-11-23.jsonl --name "Maya (restored)" --database postgres://…
            """,
        subcommands: [List.self, Add.self, Link.self, Backup.self, Restore.self])

    /// The server's address, for the links printed: `--url`, else COMMISSION_PUBLIC_URL (the
    /// server's own `publicUrl` setting), else the server's default address.
    struct AddressOption: ParsableArguments {
        @Option(help: ArgumentHelp("The address the server is reached at, for the link (also COMMISSION_PUBLIC_URL; default http://127.0.0.1:8080).",
                                   valueName: "http(s)://HOST[:PORT]"))
        var url: String?

        func base() throws -> String {
            let given = url ?? ProcessInfo.processInfo.environment["COMMISSION_PUBLIC_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? "http://127.0.0.1:8080"
            guard let base = PublicAddress(given) else {
                throw Failure("--url must be the server's address, such as http://127.0.0.1:8080 or https://commission.example.com.")
            }
            return base.text
        }

        /// The one-time link of `secret` on the server.
        func link(_ secret: String) throws -> String { try base() + WebSecrets.invitationPath + secret }
    }

    struct DatabaseOption: ParsableArguments {
        @Option(name: .long, help: ArgumentHelp("The PostgreSQL database (also COMMISSION_DATABASE_URL).",
                                                valueName: "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"))
        var database: String?

        func open() async throws -> PostgresBookDatabase {
            guard let url = database ?? ProcessInfo.processInfo.environment["COMMISSION_DATABASE_URL"].flatMap({ $0.isEmpty ? nil : $0 }) else {
                throw Failure("Name the PostgreSQL database with --database postgres://… (or COMMISSION_DATABASE_URL): books live there.")
            }
            var logger = Logger(label: "commission")
            logger.logLevel = .error
            return try await PostgresBookDatabase(url: url, logger: logger)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the books, with how many accounts each has.", discussion: """
            Example:
              commission books list --database postgres://commission@127.0.0.1/commission --format csv
            """)
        @OptionGroup var database: DatabaseOption
        @OptionGroup var format: FormatOption

        func run() async throws {
            let shared = try await database.open()
            defer { shared.shutdown() }
            let books = try await PostgresBooks(database: shared, defaultSettings: SQLiteStore.systemDefaultSettings).books()
            if books.isEmpty && format.format == .table {
                output("No books yet: `commission serve --database …` makes the first, `commission books add` another.\n")
                return
            }
            let table = TextTable([.init("id", .right), .init("name"), .init("accounts", .right)],
                                  rows: books.map { ["\($0.id)", $0.name, "\($0.accounts)"] })
            output(Renderer(currency: .usd).render(table, as: format.format))
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an empty book and print the one-time link with which its owner signs up.",
            discussion: """
                Example:
                  commission books add "Maya's book" --currency EUR --time-zone Europe/Paris --url http://127.0.0.1:8080
                """)
        @Argument(help: "The book's name.") var name: String
        @Option(help: "The book's currency (ISO 4217 code).") var currency = "USD"
        @Option(name: .customLong("time-zone"), help: "The book's time zone (IANA name); this machine's by default.")
        var timeZone = TimeZone.current.identifier
        @OptionGroup var address: AddressOption
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty else { throw Failure("Give the book a name.") }
            let settings: BookSettings
            do {
                settings = BookSettings(currency: try Currency(code: currency), timeZoneIdentifier: timeZone)
            } catch {
                throw Failure("The currency: \(error)")
            }
            _ = try address.base()
            let shared = try await database.open()
            defer { shared.shutdown() }
            let secret = WebSecrets.make()
            let expires = Date().addingTimeInterval(7 * 24 * 3600)
            // The book and its owner's link in one transaction: only the link can claim it.
            let store = try await PostgresStore.createBook(in: shared, name: name, settings: settings,
                                                           ownersLink: (WebSecrets.digest(secret), expires))
            let link = try address.link(secret)
            output("""
                Book \(store.book) "\(name)" (\(settings.currency.code), \(settings.timeZoneIdentifier)) is ready.
                Send its owner this link; it works once, until \(Day(expires, in: .current)):
                  \(link)

                """)
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
                """)
        @Argument(help: "The book's id (`commission books list` shows them).") var book: Int64
        @Flag(help: "A member's link rather than the owner's.") var member = false
        @OptionGroup var address: AddressOption
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            _ = try address.base()
            let shared = try await database.open()
            defer { shared.shutdown() }
            let books = PostgresBooks(database: shared, defaultSettings: SQLiteStore.systemDefaultSettings)
            guard let listed = try await books.books().first(where: { $0.id == book }) else {
                throw Failure("There is no book \(book) in this database: `commission books list` shows them.")
            }
            let store = try await books.store(book: book)
            let owners = try await store.members().filter { $0.role == .owner }
            if !member, let owner = owners.first {
                throw Failure("Book \(book) \"\(listed.name)\" has its owner (\(owner.account.username)): they invite people from Settings in the web app. "
                              + "For a member's link, add --member.")
            }
            let secret = WebSecrets.make()
            let expires = Date().addingTimeInterval(7 * 24 * 3600)
            try await store.createInvitation(tokenDigest: WebSecrets.digest(secret), role: member ? .member : .owner, invitedBy: nil, expiresAt: expires)
            output("""
                Send \(member ? "the new member" : "the owner") of book \(book) "\(listed.name)" this link; it works once, until \(Day(expires, in: .current)):
                  \(try address.link(secret))

                """)
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
                """)
        @Argument(help: "The book's id (see `commission books list`).") var book: Int64
        @Argument(help: "The archive file to write.") var path: String
        @Flag(help: "Replace the file if it exists.") var force = false
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let shared = try await database.open()
            defer { shared.shutdown() }
            guard try await PostgresBooks(database: shared, defaultSettings: SQLiteStore.systemDefaultSettings).books()
                .contains(where: { $0.id == book }) else {
                throw Failure("There is no book \(book) in this database: `commission books list` shows them.")
            }
            let store = try await PostgresStore(database: shared, book: book)
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
                """)
        @Argument(help: "The archive file (`commission books backup`, or `commission backup --archive`).") var path: String
        @Option(help: "The new book's name; the archive's by default.") var name: String?
        @Option(help: ArgumentHelp("Replace this book's records with the archive's, in place, keeping its members.", valueName: "BOOK"))
        var replace: Int64?
        @OptionGroup var address: AddressOption
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            guard ArchiveFile.isArchive(atPath: path) else {
                throw Failure("\(path) is not a book archive (an SQLite book moves with `commission migrate`).")
            }
            let shared = try await database.open()
            defer { shared.shutdown() }
            let progress = Progress()
            if let replace {
                guard name == nil else { throw Failure("--replace keeps the book's own name; --name is for a new book. Give one of them.") }
                guard try await PostgresBooks(database: shared, defaultSettings: SQLiteStore.systemDefaultSettings).books()
                    .contains(where: { $0.id == replace }) else {
                    throw Failure("There is no book \(replace) in this database: `commission books list` shows them.")
                }
                let counts = try await PostgresStore(database: shared, book: replace).replaceBook { sink in
                    try await ArchiveFile.read(path) { record in
                        try await sink(record)
                        progress.saw(record)
                    }
                }
                output("Replaced book \(replace) with \(path): \(counts). Its members stay; the archive's accounts were passed over.\n")
                return
            }
            let secret = WebSecrets.make()
            let expires = Date().addingTimeInterval(7 * 24 * 3600)
            let restored = try await PostgresStore.restoreBook(into: shared, name: name?.trimmingCharacters(in: .whitespacesAndNewlines),
                                                               ownersLink: (WebSecrets.digest(secret), expires)) { sink in
                try await ArchiveFile.read(path) { record in
                    try await sink(record)
                    progress.saw(record)
                }
            }
            output("Restored \(path) as book \(restored.store.book): \(restored.counts).\n")
            if restored.awaitsOwner {
                let link = try address.link(secret)
                output("""
                    It has no owner yet. Send its owner this link; it works once, until \(Day(expires, in: .current)):
                      \(link)

                    """)
            }
        }
    }
}
