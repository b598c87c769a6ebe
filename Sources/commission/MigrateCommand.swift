import ArgumentParser
import CommissionCore
import CommissionKit
import CommissionPostgres
import CommissionSQLite
import CommissionStore
import Foundation
import Logging
import Synchronization

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Move a whole book from one store to another (SQLite ⇄ PostgreSQL), then prove the copy.",
        discussion: """
            Streams the book out of the source as one consistent snapshot — settings, clinics, \
            products, terms, every sale (voided ones too, with their snapshots and idempotency keys), \
            payouts, closed periods, the audit log, its accounts and API tokens (browsers sign in \
            again) — into a new book of the target: a new SQLite file, or a new book of a PostgreSQL \
            database. The target takes it in one transaction (PostgreSQL) or builds it beside the file \
            and moves it into place (SQLite): an interrupted move leaves nothing behind. The source is \
            only read. Then it proves the copy: the settings, the count of every kind of record, the \
            totals of every statement of every clinic, and the audit log entry by entry must be equal \
            on both sides.

            A PostgreSQL database may hold several books: name the source's with --from-book (see \
            `commission books list`). A PostgreSQL target that holds books already is refused unless \
            --into-nonempty says to add this one beside them; an SQLite target must be a new file.

            Examples:
              commission migrate --from sqlite:~/.local/share/commission/commission.sqlite \\
                                 --to postgres://commission@127.0.0.1/commission
              commission migrate --from postgres://commission@127.0.0.1/commission --from-book 3 \\
                                 --to sqlite:~/maya.sqlite
            """
    )

    @Option(
        help: ArgumentHelp(
            "The book to move: sqlite:PATH (or just PATH), or a PostgreSQL database.",
            valueName: "sqlite:path|postgres://…"
        )
    )
    var from: String
    @Option(name: .customLong("from-book"), help: "The id of the book to move, when the source database holds several.")
    var fromBook: Int64?
    @Option(
        help: ArgumentHelp(
            "Where to: sqlite:PATH (a new file), or a PostgreSQL database (a new book in it).",
            valueName: "sqlite:path|postgres://…"
        )
    )
    var to: String
    @Flag(
        name: .customLong("into-nonempty"),
        help: "Add the book to a PostgreSQL database that holds other books already."
    )
    var intoNonEmpty = false
    @Flag(
        name: .customLong("skip-proof"),
        help: "Move without comparing the two sides afterwards (the benchmark does; a person should not)."
    )
    var skipProof = false

    func run() async throws {
        let source = try await OpenedBook.open(BookAddress(from), book: fromBook)
        defer { source.close() }
        let started = ContinuousClock.now
        let progress = Progress()
        let target: OpenedBook
        let counts: ArchiveCounts
        switch try BookAddress(to) {
        case .sqlite(let path):
            if FileManager.default.fileExists(atPath: path) {
                throw Failure(
                    "\(path) exists already: migrate makes a new book file. Choose a new path (or replace a book with `commission restore`)."
                )
            }
            let store = try SQLiteStore(.file(path))
            do {
                counts = try await store.restoreArchive { sink in
                    _ = try await source.archiving.archive { record in
                        try await sink(record)
                        progress.saw(record)
                    }
                }
            } catch {
                // try?: the empty book just made (a restore swaps in whole or not at all); the error is thrown
                try? FileManager.default.removeItem(atPath: path)
                throw error
            }
            target = OpenedBook(store: store, archiving: store, name: path, close: {})
        case .postgres(let url):
            let database = try await OpenedBook.database(url)
            let books = try await PostgresBooks(database: database, defaultSettings: SQLiteStore.systemDefaultSettings)
                .books()
            if !books.isEmpty && !intoNonEmpty {
                database.shutdown()
                throw Failure(
                    """
                    \(PostgresBookDatabase.redacted(url)) already holds \(books.count) book\(books.count == 1 ? "" : "s"): \
                    pass --into-nonempty to add this one beside \(books.count == 1 ? "it" : "them").
                    """
                )
            }
            let restored: PostgresStore.RestoredBook
            do {
                restored = try await PostgresStore.restoreBook(into: database) { sink in
                    _ = try await source.archiving.archive { record in
                        try await sink(record)
                        progress.saw(record)
                    }
                }
            } catch {
                database.shutdown()
                throw error
            }
            counts = restored.counts
            target = OpenedBook(
                store: restored.store,
                archiving: restored.store,
                name: "book \(restored.store.book) of \(PostgresBookDatabase.redacted(url))",
                close: { database.shutdown() }
            )
        }
        defer { target.close() }
        output("Copied \(source.name) to \(target.name) in \(Self.seconds(since: started)): \(counts).\n")
        if skipProof { return }
        let checked = try await BookComparison(source: source.store, target: target.store).run()
        output(
            "Checked: the settings and counts are equal, the totals of all \(checked.statements) statements are equal, "
                + "and so are all \(checked.auditEntries) audit entries.\n"
        )
    }

    static func seconds(since start: ContinuousClock.Instant) -> String {
        seconds(ContinuousClock.now - start)
    }

    static func seconds(_ duration: Duration) -> String {
        let elapsed = duration.components
        return String(format: "%.1f s", Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
    }
}

/// Where a book is: an SQLite file or a PostgreSQL database.
enum BookAddress {
    case sqlite(String)
    case postgres(String)

    init(_ text: String) throws {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(text)
        } else {
            let path = text.hasPrefix("sqlite:") ? String(text.dropFirst("sqlite:".count)) : text
            guard !path.isEmpty, !path.contains("://") else {
                throw Failure("\"\(text)\" is neither sqlite:PATH nor a postgres://USER@HOST/DATABASE address.")
            }
            self = .sqlite(NSString(string: path).expandingTildeInPath)
        }
    }
}

/// A store opened for a move, with what closes it.
struct OpenedBook {
    let store: any CommissionStore
    let archiving: any BookArchiving
    let name: String
    let close: @Sendable () -> Void

    static func database(_ url: String) async throws -> PostgresBookDatabase {
        var logger = Logger(label: "commission")
        logger.logLevel = .error
        return try await PostgresBookDatabase(url: url, logger: logger)
    }

    /// Opens an existing book; a PostgreSQL database's `book`, or its only one.
    static func open(_ address: BookAddress, book: Int64?) async throws -> OpenedBook {
        switch address {
        case .sqlite(let path):
            guard FileManager.default.fileExists(atPath: path) else {
                throw Failure("\(path) does not exist: give the book's SQLite file.")
            }
            let store = try SQLiteStore(.file(path))
            return OpenedBook(store: store, archiving: store, name: path, close: {})
        case .postgres(let url):
            let database = try await Self.database(url)
            do {
                let books = try await PostgresBooks(
                    database: database,
                    defaultSettings: SQLiteStore.systemDefaultSettings
                ).books()
                let id: Int64
                if let book {
                    guard books.contains(where: { $0.id == book }) else {
                        throw Failure("\(PostgresBookDatabase.redacted(url)) has no book \(book): \(Self.list(books)).")
                    }
                    id = book
                } else if books.count == 1 {
                    id = books[0].id
                } else {
                    throw Failure(
                        books.isEmpty
                            ? "\(PostgresBookDatabase.redacted(url)) holds no book."
                            : "\(PostgresBookDatabase.redacted(url)) holds \(books.count) books: name one with --from-book (\(Self.list(books)))."
                    )
                }
                if let elsewhere = books.first(where: { $0.id == id && $0.database != PostgresBooks.mainName })?
                    .database
                {
                    throw Failure(
                        """
                        Book \(id)'s records are on the server's database "\(elsewhere)", not this one: bring it here first with \
                        `commission books move \(id) --to main --database … --more-database \(elsewhere)=…`.
                        """
                    )
                }
                let store = try await PostgresStore(database: database, book: id)
                return OpenedBook(
                    store: store,
                    archiving: store,
                    name: "book \(id) of \(PostgresBookDatabase.redacted(url))",
                    close: { database.shutdown() }
                )
            } catch {
                database.shutdown()
                throw error
            }
        }
    }

    static func list(_ books: [PostgresBooks.Listed]) -> String {
        books.map { "\($0.id) \"\($0.name)\"" }.joined(separator: ", ")
    }
}

/// Says how far a long move has come, on standard error, every 100,000 sales.
final class Progress: Sendable {
    /// Sales seen, and how many when it last said so.
    private let counts = Mutex((sales: 0, said: 0))

    func saw(_ record: ArchiveRecord) {
        guard case .sales(let page) = record else { return }
        let due: Int? = counts.withLock { counts in
            counts.sales += page.count
            guard counts.sales - counts.said >= 100_000 else { return nil }
            counts.said = counts.sales
            return counts.sales
        }
        if let due { note("… \(due) sales") }
    }
}
