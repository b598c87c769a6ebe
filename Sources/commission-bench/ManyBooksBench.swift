import CommissionCore
import CommissionPostgres
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import Hummingbird
import Logging
import Synchronization

/// A team server of many books: ten thousand books over two PostgreSQL databases (the directory's
/// and one given with `--more-database`), each served once by a real `commission serve` — the
/// server's memory beside its memory with one book served, and a cold book's first answer beside
/// the same book's next one.
struct ManyBooksBench {
    let server: String
    let binary: String
    let books: Int
    /// How many databases the books are spread over (1 or 2), in turn.
    var databases = 2

    func run(report: inout Report) async throws {
        let url = try await PostgresBookDatabase.createDatabase(prefix: "commission_books", onServer: server)
        let eastURL =
            databases > 1
            ? try await PostgresBookDatabase.createDatabase(prefix: "commission_books_east", onServer: server) : nil
        func drop() async {
            // try?: cleanup of the bench's scratch database; one left behind only takes disk space
            try? await PostgresBookDatabase.dropDatabase(url, onServer: server)
            // try?: likewise, the second scratch database
            if let eastURL { try? await PostgresBookDatabase.dropDatabase(eastURL, onServer: server) }
        }
        do {
            let made = try await seed(url, eastURL)
            let idle = try await serve(url, eastURL, secrets: made.map(\.secret), report: &report)
            try await reminders(url, eastURL, books: made, idle: idle, report: &report)
        } catch {
            await drop()
            throw error
        }
        await drop()
    }

    /// A book made for the bench: its owner's API token, its id and its owner.
    struct Made: Sendable {
        let secret: String
        let book: Int64
        let owner: Account.ID
    }

    /// The books, made as `commission books add` makes them (in turn on each database), each with a
    /// clinic, a product, terms, an owner and an API token, a sale in March and one on today's
    /// weekday three, four and five weeks ago (a day she usually works, for her end-of-day
    /// reminder); by four writers at once.
    func seed(_ url: String, _ eastURL: String?) async throws -> [Made] {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let directory = try await PostgresBooks.open(
            url: url,
            more: eastURL.map { ["east=\($0)"] } ?? [],
            defaultSettings: SQLiteStore.systemDefaultSettings,
            logger: logger
        )
        defer { directory.shutdown() }
        let settings = SQLiteStore.systemDefaultSettings
        // The first book is the server's own.
        _ = try await PostgresStore.firstBook(in: directory.database, creatingWith: settings)
        let writers = 4
        let today = settings.today()
        let made = try await withThrowingTaskGroup(of: [(Int, Made)].self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var secrets: [(Int, Made)] = []
                    for index in stride(from: writer, to: books, by: writers) {
                        let store =
                            index == 0
                            ? try await directory.postgresStore(book: 1)
                            : try await directory.addBook(
                                name: "Book \(index)",
                                settings: settings,
                                on: index % databases == 0 ? PostgresBooks.mainName : "east"
                            )
                        let glow = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
                        let serum = try await store.createProduct(
                            ProductDraft(
                                name: "Serum",
                                unitPrice: Money(minorUnits: 5000),
                                unitCost: Money(minorUnits: 2000)
                            )
                        )
                        _ = try await store.createTerms(
                            TermsDraft(
                                clinicID: glow.id,
                                share: try Share(parsing: "40"),
                                effectiveFrom: try Day(parsing: "2026-01-01")
                            )
                        )
                        for date in [try Day(parsing: "2026-03-02")] + [21, 28, 35].map({ today.adding(days: -$0) }) {
                            _ = try await store.createSale(
                                SaleDraft(clinicID: glow.id, productID: serum.id, date: date),
                                idempotencyKey: nil
                            )
                        }
                        let owner = try await store.createOwner(username: "owner\(index)", passwordHash: "x")
                        let secret = "cm_bench_\(index)_\(UUID().uuidString)"
                        _ = try await store.createToken(
                            account: owner.id,
                            name: "bench",
                            tokenDigest: WebSecrets.digest(secret),
                            now: Date()
                        )
                        secrets.append((index, Made(secret: secret, book: store.book, owner: owner.id)))
                    }
                    return secrets
                }
            }
            var all: [(Int, Made)] = []
            for try await part in group { all += part }
            return all
        }
        // Served in the order they were made.
        return made.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Serves every book once, then measures. Returns the server's memory once it answered, before
    /// any book was served (its idle memory, in MB).
    func serve(_ url: String, _ eastURL: String?, secrets: [String], report: inout Report) async throws -> Double {
        let (process, port) = try startServer(
            binary,
            ["--database", url] + (eastURL.map { ["--more-database", "east=\($0)"] } ?? [])
        )
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let base = "http://127.0.0.1:\(port)"
        let start = ContinuousClock.now
        // try?: polling until the server answers; the 20-second limit below throws if it never does
        while (try? await get("\(base)/health"))?.0 != 200 {
            guard ContinuousClock.now - start < .seconds(20) else {
                throw StoreError.storage("the server did not start")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let idle = memory(of: process.processIdentifier).rss

        var cold: [Double] = [], warm: [Double] = []
        var oneBook = Double.nan
        for (index, secret) in secrets.enumerated() {
            let clock = ContinuousClock()
            var status = 0
            cold.append(
                try await clock.measure { status = try await get("\(base)/api/v1/dashboard", token: secret).0 }.seconds
                    * 1000
            )
            guard status == 200 else { throw StoreError.storage("book \(index) answered \(status)") }
            warm.append(
                try await clock.measure { _ = try await get("\(base)/api/v1/dashboard", token: secret) }.seconds * 1000
            )
            if index == 0 {
                try await Task.sleep(for: .milliseconds(500))
                oneBook = memory(of: process.processIdentifier).rss
            }
        }
        try await Task.sleep(for: .milliseconds(500))
        let all = memory(of: process.processIdentifier)
        let over = databases > 1 ? " over \(databases) databases" : ""
        report.add(
            "\(books) books\(over) served once each: server memory, peak",
            measured: all.peak,
            unit: "MB",
            baseline: oneBook,
            baselineName: "one book served",
            target: "≤ 300 MB",
            met: all.peak <= 300
        )
        report.add(
            "a cold book's first answer (dashboard): p50",
            measured: percentile(cold, 50),
            unit: "ms",
            baseline: percentile(warm, 50),
            baselineName: "its next answer",
            target: "≤ 20 ms",
            met: percentile(cold, 50) <= 20
        )
        report.add(
            "a cold book's first answer (dashboard): p99",
            measured: percentile(cold, 99),
            unit: "ms",
            baseline: percentile(warm, 99),
            baselineName: "its next answer",
            target: "≤ 50 ms",
            met: percentile(cold, 99) <= 50
        )
        return idle
    }
}

extension ManyBooksBench {
    /// The end-of-day pass of her reminders on the team server: every book given a device (a
    /// subscription on a push service of this bench, on 127.0.0.1: `--unsafe-push-endpoints`) and
    /// a working day that ended at midnight, then a server started whose pass at start owes each
    /// book one notification. Measured: how long until the push service had them all, the
    /// server's memory at its peak above its idle memory (`idle`, the same directory just
    /// started), and the connections open to the push service at once (read from the system's
    /// own table of sockets, every few milliseconds).
    func reminders(_ url: String, _ eastURL: String?, books: [Made], idle: Double, report: inout Report) async throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let received = Received()
        let pushPort = try freePort()
        let router = Router()
        router.post("/push/:device") { _, _ in
            received.count.withLock { $0 += 1 }
            return Response(status: .created)
        }
        let push = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: pushPort)),
            logger: logger
        )
        let pushing = Task { try await push.runService(gracefulShutdownSignals: []) }
        defer { pushing.cancel() }

        // Every book's owner, a device and her day's end at midnight (the pass at start finds it due).
        let directory = try await PostgresBooks.open(
            url: url,
            more: eastURL.map { ["east=\($0)"] } ?? [],
            defaultSettings: SQLiteStore.systemDefaultSettings,
            logger: logger
        )
        let writers = 4
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<writers {
                    group.addTask {
                        for made in stride(from: writer, to: books.count, by: writers).map({ books[$0] }) {
                            let store = try await directory.postgresStore(book: made.book)
                            try await store.addPushDevice(
                                account: made.owner,
                                endpoint: "http://127.0.0.1:\(pushPort)/push/\(made.book)",
                                // RFC 8291's example subscription (§5): a valid P-256 key and auth secret.
                                p256dh:
                                    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
                                auth: "BTBZMqHH6r4Tts7J_aSIgg",
                                label: "bench",
                                now: Date()
                            )
                            try await store.setReminderSettings(
                                ReminderSettings(endOfDay: true, lateClinics: false, endOfDayMinute: 0),
                                of: made.owner
                            )
                        }
                    }
                }
                try await group.waitForAll()
            }
        } catch {
            directory.shutdown()
            throw error
        }
        directory.shutdown()

        let started = ContinuousClock.now
        let (process, port) = try startServer(
            binary,
            ["--database", url, "--unsafe-push-endpoints", "--push-contact", "mailto:bench@example.net"]
                + (eastURL.map { ["--more-database", "east=\($0)"] } ?? [])
        )
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        var mostConnections = 0
        var answered: Duration?
        while received.count.withLock({ $0 }) < books.count {
            guard ContinuousClock.now - started < .seconds(300) else {
                throw StoreError.storage(
                    "the reminders' pass sent \(received.count.withLock { $0 }) of \(books.count) notifications in 300 s"
                )
            }
            mostConnections = max(mostConnections, establishedConnections(toPort: pushPort))
            if answered == nil, (try? await get("http://127.0.0.1:\(port)/health"))?.0 == 200 {  // try?: not up yet
                answered = ContinuousClock.now - started
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        let seconds = (ContinuousClock.now - started).seconds
        let peak = memory(of: process.processIdentifier).peak
        report.add(
            "her reminders: the end-of-day pass for \(books.count) books, each a device (from the server's start)",
            measured: seconds,
            unit: "s",
            baseline: answered?.seconds,
            baselineName: "the server's first answer",
            target: "≤ 30 s",
            met: seconds <= 30
        )
        report.add(
            "her reminders' pass: server memory, peak above idle",
            measured: peak - idle,
            unit: "MB",
            baseline: idle,
            baselineName: "idle (the same books, just started)",
            target: "≤ 50 MB",
            met: peak - idle <= 50
        )
        report.add(
            "her reminders' pass: connections open at once to the push service",
            measured: Double(mostConnections),
            unit: "",
            baseline: nil,
            baselineName: nil,
            target: "≤ 64",
            met: mostConnections <= 64
        )
    }

    /// What the bench's push service received.
    final class Received: Sendable {
        let count = Mutex(0)
    }

    /// How many TCP connections to `port` on this machine are established (the server's side of
    /// each, in /proc/net/tcp: local address, state 01).
    func establishedConnections(toPort port: Int) -> Int {
        // try?: an unreadable table counts none; the row then says 0, never more than there were
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return 0 }
        let local = ":" + String(format: "%04X", port)
        return table.split(separator: "\n").dropFirst().filter { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count > 3 && fields[1].hasSuffix(local) && fields[3] == "01"
        }.count
    }
}
