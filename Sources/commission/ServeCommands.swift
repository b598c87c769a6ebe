import ArgumentParser
import CommissionCore
import CommissionKit
import CommissionPostgres
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import Hummingbird
import HummingbirdBcrypt
import Logging

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the web app and the JSON API.",
        discussion: """
            Serves the same book as the other commands, on 127.0.0.1:8080 unless told otherwise. The \
            first visit to a new book creates its owner account. Stop it with Ctrl-C (or SIGTERM): \
            requests in flight finish and the database closes cleanly.

            With --demo it serves a fresh demo book from a temporary file and prints a login for it.

            With --database (or COMMISSION_DATABASE_URL) it serves the books of a PostgreSQL database \
            instead of the SQLite file, so that several instances behind a proxy share them: each pushes \
            every instance's changes to its browsers. Each account sees only its own book. The database \
            is migrated on start; a database without a book gets one, with this machine's time zone and \
            USD (change them in the settings), whose owner is created on the first visit. Owners invite \
            members from Settings; `commission books add` makes another private book. A URL naming \
            several hosts (postgres://USER@HOST1:5432,HOST2:5432/DATABASE) is a primary and its standbys: \
            the server uses the one that answers as the primary, and moves to a standby once it is promoted.

            Books may be spread over several databases: --more-database NAME=postgres://… adds one \
            (repeat it for each; every server of the team is given the same). The --database one keeps \
            the accounts and where each book is; `commission books add --on NAME` and `commission books \
            move BOOK --to NAME` place books, and a server follows a move as it happens.

            Examples:
              commission serve
              commission serve --demo
              commission serve --database postgres://commission@127.0.0.1/commission
              commission serve --database 'postgres://commission@db1:5432,db2:5432/commission'   # a primary and its standby
              commission serve --database postgres://commission@db1/commission \\
                               --more-database east=postgres://commission@db3/commission      # books on two databases
              commission serve --host 0.0.0.0 --port 8443 --secure-cookies   # behind a TLS proxy
              commission serve --log-format json                              # for a log collector
              commission serve --log-level notice                             # no line for each request
              COMMISSION_METRICS_TOKEN=… commission serve                     # /metrics for Prometheus
              commission serve --backup-every 24h --keep 14                   # into backups/ beside the book
              commission serve --public-url https://commission.example.com --push-contact mailto:ops@example.com

            Her reminders (Settings → Notifications) go out from the server itself, through the push \
            services her browsers name (Web Push): it needs outbound HTTPS, and a contact for them \
            (--push-contact, else --public-url).
            """
    )
    @OptionGroup var book: BookOptions
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A PostgreSQL database to serve instead of the SQLite file (also COMMISSION_DATABASE_URL).",
            valueName: "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"
        )
    )
    var database: String?
    @Option(
        name: .customLong("more-database"),
        help: ArgumentHelp(
            "With --database: another database the books may be on, by a name of yours (repeat it for each); --database keeps the accounts and where each book is.",
            valueName: "NAME=postgres://…"
        )
    )
    var moreDatabases: [String] = []
    @Option(help: "The address to listen on (default 127.0.0.1).") var host: String?
    @Option(help: "The port to listen on (default 8080).") var port: Int?
    @Flag(help: "Serve a temporary demo book, with a printed login.") var demo = false
    @Flag(
        name: .customLong("secure-cookies"),
        inversion: .prefixedNo,
        help: "Mark cookies Secure and send HSTS (when users reach the app over HTTPS)."
    ) var secureCookies: Bool?
    @Option(
        name: .customLong("log-format"),
        help: ArgumentHelp(
            "The log's lines: text, or JSON objects with the request's id on each.",
            valueName: "text|json"
        )
    )
    var logFormat: String?
    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(
            "The least severe log lines written: info (a line a request, the default), notice (what the server does on its own), warning, error…",
            valueName: "trace|debug|info|notice|warning|error|critical"
        )
    )
    var logLevel: String?
    @Option(
        name: .customLong("metrics-token"),
        help: ArgumentHelp(
            "Keep metrics and serve them at /metrics to this bearer token, for Prometheus.",
            valueName: "token"
        )
    )
    var metricsToken: String?
    @Option(
        name: .customLong("backup-every"),
        help: ArgumentHelp(
            "Back up every book on this schedule (24h, 6h, 30m, 7d): its archive, which any store restores.",
            valueName: "period"
        )
    )
    var backupEvery: String?
    @Option(
        name: .customLong("keep"),
        help: "How many scheduled backups of each book to keep (the oldest go; default 14)."
    ) var keep: Int?
    @Option(
        name: .customLong("backup-directory"),
        help: ArgumentHelp(
            "Where scheduled backups go (default: backups/ beside the SQLite book; required for PostgreSQL).",
            valueName: "path"
        )
    )
    var backupDirectory: String?
    @Option(
        name: .customLong("books-kept"),
        help:
            "With --database: how many books' apps to keep in memory at most; the least recently used go first (default 100)."
    )
    var booksKept: Int?
    @Option(
        name: .customLong("release-books-after"),
        help: ArgumentHelp(
            "With --database: release the app of a book nobody used this long (30s, 10m, 1h; default 10m); its next request builds it again.",
            valueName: "period"
        )
    )
    var releaseBooksAfter: String?
    @Flag(
        name: .customLong("trust-forwarded-for"),
        inversion: .prefixedNo,
        help:
            "Take the client's address from X-Forwarded-For, for the sign-in slowdown (only behind a reverse proxy that sets it)."
    )
    var trustForwardedFor: Bool?
    @Option(
        name: .customLong("public-url"),
        help: ArgumentHelp(
            "The address people reach the server at, for the links it makes (invitations); its own by default.",
            valueName: "http(s)://HOST[:PORT]"
        )
    )
    var publicUrl: String?
    @Option(
        name: .customLong("max-body-size"),
        help: ArgumentHelp(
            "The largest request body (an API import): 8M by default; an uploaded workbook may unpack to 64 times it.",
            valueName: "size"
        )
    )
    var maxBodySize: String?
    @Option(
        name: .customLong("push-contact"),
        help: ArgumentHelp(
            "How the push services that carry her reminders reach whoever runs the server (default: --public-url).",
            valueName: "mailto:…|https://…"
        )
    )
    var pushContact: String?
    @Flag(
        name: .customLong("unsafe-push-endpoints"),
        help: "For tests only: call push endpoints on private addresses and over http."
    ) var unsafePushEndpoints = false
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "A JSON file of settings, below the flags and COMMISSION_* variables (also COMMISSION_CONFIG).",
            valueName: "file"
        )
    )
    var configFile: String?

    /// The settings: these flags, else the environment, else the configuration file, else the defaults.
    func settings() async throws -> ServerSettings {
        var flags = ServerSettings.Flags()
        (flags.db, flags.databaseUrl, flags.host, flags.port) = (book.db, database, host, port)
        flags.moreDatabases = moreDatabases
        (flags.secureCookies, flags.trustForwardedFor, flags.logFormat, flags.metricsToken) = (
            secureCookies, trustForwardedFor, logFormat, metricsToken
        )
        flags.logLevel = logLevel
        (flags.backupEvery, flags.backupKeep, flags.backupDirectory) = (backupEvery, keep, backupDirectory)
        (flags.booksKept, flags.releaseBooksAfter, flags.publicUrl, flags.maxBodySize) = (
            booksKept, releaseBooksAfter, publicUrl, maxBodySize
        )
        (flags.pushContact, flags.unsafePushEndpoints) = (pushContact, unsafePushEndpoints ? true : nil)
        let settings: ServerSettings
        do {
            settings = try await ServerSettings.resolve(flags, file: configFile)
        } catch let error as SettingsError {
            throw Failure(error.description)
        }
        if let every = settings.backupEvery, ScheduledBackups.period(every) == nil {
            throw Failure("The backup period \"\(every)\" is not a number and a unit: 30m, 6h, 24h, 7d.")
        }
        if settings.backupKeep < 1 { throw Failure("Keep at least 1 scheduled backup of each book.") }
        if settings.booksKept < 1 { throw Failure("Keep the app of at least 1 book in memory (--books-kept).") }
        if ScheduledBackups.period(settings.releaseBooksAfter) == nil {
            throw Failure(
                "The time after which an unused book is released, \"\(settings.releaseBooksAfter)\", is not a number and a unit: 30s, 10m, 1h."
            )
        }
        if let token = settings.metricsToken, token.count < 16 {
            throw Failure("The metrics token is a secret of 16 characters or more.")
        }
        return settings
    }

    func run() async throws {
        let settings = try await settings()
        // Every logger of the process writes from this level on (its handlers are made at it).
        settings.logFormat.bootstrap(level: settings.logLevel)
        let logger = Logger(label: "commission")
        let (host, port) = (settings.host, settings.port)
        var configuration = WebConfiguration(
            host: host,
            port: port,
            secureCookies: settings.secureCookies,
            maxBodySize: settings.maxBodySize,
            trustForwardedFor: settings.trustForwardedFor
        )
        configuration.booksKept = settings.booksKept
        configuration.releaseBooksIdleFor =
            ScheduledBackups.period(settings.releaseBooksAfter) ?? configuration.releaseBooksIdleFor
        configuration.publicAddress = settings.publicUrl.flatMap(PublicAddress.init)
        // Behind a proxy (secure cookies, a forwarded address) or reachable from elsewhere, the server's own address is not where people reach it.
        if configuration.publicAddress == nil
            && (settings.secureCookies || settings.trustForwardedFor
                || !["127.0.0.1", "localhost", "::1"].contains(host))
        {
            output(
                "The links this server makes (invitations) will lead to \(configuration.linkBase): set --public-url (publicUrl) to the address people reach it at.\n"
            )
        }
        // Her reminders go out through the push services of her browsers (Web Push).
        let push = HTTPPushTransport()
        configuration.pushTransport = push
        configuration.pushContact = settings.pushContact
        if settings.pushContact == nil && !configuration.linkBase.hasPrefix("https://") {
            output(
                "Reminders name this server to the push services by --push-contact (mailto:… or https://…), else by an https --public-url: set one, or Apple's push service may refuse them.\n"
            )
        }
        configuration.unsafePushEndpoints = settings.unsafePushEndpoints
        if let token = settings.metricsToken {
            let metrics = ServerMetrics(token: token)
            metrics.bootstrap()
            configuration.metrics = metrics
        }
        let store: any WebStore
        var temporary: URL?
        defer {
            // The demo book lives only as long as the server.
            // try?: the demo book's folder under the OS's temporary directory, which the OS cleans
            if let temporary { try? FileManager.default.removeItem(at: temporary) }
        }
        let databaseURL = settings.databaseUrl
        if databaseURL == nil && !settings.moreDatabases.isEmpty {
            throw Failure("--more-database adds databases to the one --database names: give --database too.")
        }
        let book = BookOptions(path: settings.db)
        if demo {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "commission-demo-\(UUID().uuidString)"
            )
            temporary = directory
            let demoStore = try SQLiteStore(
                .file(directory.appendingPathComponent("demo.sqlite").path),
                defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: TimeZone.current.identifier)
            )
            let summary = try await DemoBook(today: try await demoStore.settings().today()).build(in: demoStore)
            let password = String(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16)).lowercased()
            // At the server's own cost, as an unknown name is checked: the time of an answer does not tell that "demo" exists.
            _ = try await demoStore.createOwner(
                username: "demo",
                passwordHash: Bcrypt.hash(password, cost: configuration.bcryptCost)
            )
            output(
                """
                Demo book: \(summary.clinics) clinics, \(summary.products) products, \(summary.sales) sales (\(directory.path)).
                Open http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(port)/ and sign in as demo / \(password)

                """
            )
            demoStore.cacheHotReads()
            store = demoStore
        } else if let databaseURL {
            let books = try await PostgresBooks.open(
                url: databaseURL,
                more: settings.moreDatabases,
                defaultSettings: SQLiteStore.systemDefaultSettings,
                logger: logger
            )
            let firstBook = try await PostgresStore.firstBook(
                in: books.database,
                creatingWith: SQLiteStore.systemDefaultSettings
            )
            if try await books.setupIsOpen(book: firstBook.book) {
                output(
                    "Open http://\(host):\(port)/ to create the owner account of the first book on \(PostgresBookDatabase.redacted(databaseURL)).\n"
                )
            } else if try await firstBook.awaitsSetup() {
                // Nobody set it up before another book's owner signed up: only a link makes its owner now.
                output(
                    "Book \(firstBook.book) has no owner: `commission books link \(firstBook.book) --database …` prints its owner's one-time link.\n"
                )
            }
            let app = buildApplication(configuration: configuration, books: books, logger: logger)
            let backups = try schedule(
                settings,
                logger: logger,
                metrics: configuration.metrics,
                directory: settings.backupDirectory
            ) {
                var all: [ScheduledBackups.Book] = []
                for book in try await books.books() {
                    all.append(
                        ScheduledBackups.Book(
                            folder: "book-\(book.id)",
                            source: try await books.postgresStore(book: book.id)
                        )
                    )
                }
                return all
            }
            defer { backups?.cancel() }
            let reminders = try await remind(configuration, logger: logger, identityFrom: firstBook) { now in
                // Every book glanced at in a few statements per database; a book's store is
                // opened only to read its clinics' lateness.
                let glances = try await books.reminderGlances(now: now) { place, error in
                    logger.warning(
                        "reminders: the books on the database \"\(place)\" are left to the next pass: \(String(reflecting: error))"
                    )
                }
                return glances.sorted { $0.key < $1.key }.map { id, glance in
                    ReminderService.Book(name: "book \(id)", glance: glance, reminders: books.reminders(of: id)) {
                        try await books.store(book: id)
                    }
                }
            }
            defer { reminders.cancel() }
            try await app.runService()
            reminders.cancel()
            await reminders.value
            await push.shutdown()
            return
        } else {
            let fileStore = try book.open()
            if try await fileStore.awaitsSetup() {
                output("Open http://\(host):\(port)/ to create the owner account of \(book.path).\n")
            }
            fileStore.cacheHotReads()
            store = fileStore
            // Its set-up page offers a sample book to look around in first, kept in memory.
            configuration.sampleStore = { try SQLiteStore(.inMemory) }
        }
        let app = buildApplication(configuration: configuration, store: store, logger: logger)
        let archiving = store as? any BookArchiving
        let backups = try schedule(
            settings,
            logger: logger,
            metrics: configuration.metrics,
            directory: settings.backupDirectory
                ?? URL(fileURLWithPath: book.path).deletingLastPathComponent().appendingPathComponent("backups").path
        ) {
            archiving.map { [ScheduledBackups.Book(folder: "book", source: $0)] } ?? []
        }
        defer { backups?.cancel() }
        let reminders = try await remind(configuration, logger: logger, identityFrom: store) { now in
            [try await ReminderService.Book.reading(store, now: now)]
        }
        defer { reminders.cancel() }
        try await app.runService()
        reminders.cancel()
        await reminders.value
        await push.shutdown()
    }

    /// Starts the scheduler of her reminders (every minute, for the books with a device to reach):
    /// its task, which the server's end cancels. The server's VAPID identity is made once and kept
    /// in `identityFrom`'s database.
    func remind(
        _ configuration: WebConfiguration,
        logger: Logger,
        identityFrom store: any WebStore,
        books: @escaping @Sendable (_ now: Date) async throws -> [ReminderService.Book]
    ) async throws -> Task<Void, Never> {
        guard let transport = configuration.pushTransport else { return Task {} }
        let sender = PushSender(
            identity: try await WebPush.Identity.kept(in: store),
            contact: configuration.pushContact ?? configuration.linkBase,
            transport: transport,
            policy: PushEndpointPolicy(allowUnsafe: configuration.unsafePushEndpoints),
            clock: configuration.clock,
            logger: logger
        )
        let service = ReminderService(books: books, sender: sender, clock: configuration.clock, logger: logger)
        return Task { await service.run(every: .seconds(60)) }
    }

    /// Starts the scheduled backups (`--backup-every`), if asked for: their task, which the server's end cancels.
    func schedule(
        _ settings: ServerSettings,
        logger: Logger,
        metrics: ServerMetrics?,
        directory: String?,
        books: @escaping @Sendable () async throws -> [ScheduledBackups.Book]
    ) throws -> Task<Void, Never>? {
        guard let backupEvery = settings.backupEvery, let every = ScheduledBackups.period(backupEvery) else {
            return nil
        }
        let keep = settings.backupKeep
        guard let directory else { throw Failure("Say where scheduled backups go with --backup-directory PATH.") }
        let schedule = ScheduledBackups(directory: directory, every: every, keep: keep, books: books) { at, problems in
            if problems.isEmpty {
                metrics?.backedUp(at: at)
                logger.info("scheduled backup written to \(directory)")
            } else {
                logger.error("scheduled backup: \(problems.joined(separator: "; "))")
            }
        }
        output("Backing up every \(backupEvery) to \(directory), keeping \(keep) of each book.\n")
        return Task { await schedule.run() }
    }
}

struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Create, list and revoke API tokens of the book's owner.",
        discussion: """
            A token lets a script use the JSON API: send `Authorization: Bearer TOKEN`. It is shown once.

            Example:
              commission token create "laptop script"
              curl -H "Authorization: Bearer cm_…" http://127.0.0.1:8080/api/v1/dashboard
            """,
        subcommands: [Create.self, List.self, Revoke.self]
    )

    static func owner(_ store: SQLiteStore) async throws -> Account {
        guard let row = try await store.ownerAccount() else {
            throw Failure("This book has no owner yet: run `commission serve` and open it in a browser to create one.")
        }
        return row
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a token.",
            discussion: """
                Example:
                  commission token create "laptop script"
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "What the token is for.") var name: String

        func run() async throws {
            let store = try book.open()
            let owner = try await TokenCommand.owner(store)
            let secret = "cm_" + WebSecrets.make()  // as the Settings page makes them
            let token = try await store.createToken(
                account: owner.id,
                name: name,
                tokenDigest: WebSecrets.digest(secret),
                now: Date()
            )
            output(
                "Token \(token.id) (\(token.name)) for \(owner.username):\n\(secret)\nIt is shown only now; keep it somewhere safe.\n"
            )
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List live tokens.",
            discussion: """
                Example:
                  commission token list
                """
        )
        @OptionGroup var book: BookOptions

        func run() async throws {
            let store = try book.open()
            let owner = try await TokenCommand.owner(store)
            let tokens = try await store.tokens(account: owner.id)
            let table = TextTable(
                [.init("id"), .init("name"), .init("created"), .init("last used")],
                rows: tokens.map {
                    [
                        String($0.id.rawValue), $0.name, ISO8601DateFormatter().string(from: $0.createdAt),
                        $0.lastUsedAt.map { ISO8601DateFormatter().string(from: $0) } ?? "never",
                    ]
                }
            )
            output(table.rendered())
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke a token.",
            discussion: """
                Example:
                  commission token revoke 3
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The token's id.") var id: Int64

        func run() async throws {
            let store = try book.open()
            let owner = try await TokenCommand.owner(store)
            try await store.revokeToken(APIToken.ID(id), account: owner.id)
            output("Revoked token \(id).\n")
        }
    }
}
