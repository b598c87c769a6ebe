import CommissionCore
import CommissionPostgres
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import Logging

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
            let secrets = try await seed(url, eastURL)
            try await serve(url, eastURL, secrets: secrets, report: &report)
        } catch {
            await drop()
            throw error
        }
        await drop()
    }

    /// The books, made as `commission books add` makes them (in turn on each database), each with a
    /// clinic, a product, terms, a sale, an owner and an API token; by four writers at once.
    func seed(_ url: String, _ eastURL: String?) async throws -> [String] {
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
        let made = try await withThrowingTaskGroup(of: [(Int, String)].self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var secrets: [(Int, String)] = []
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
                        _ = try await store.createSale(
                            SaleDraft(clinicID: glow.id, productID: serum.id, date: try Day(parsing: "2026-03-02")),
                            idempotencyKey: nil
                        )
                        let owner = try await store.createOwner(username: "owner\(index)", passwordHash: "x")
                        let secret = "cm_bench_\(index)_\(UUID().uuidString)"
                        _ = try await store.createToken(
                            account: owner.id,
                            name: "bench",
                            tokenDigest: WebSecrets.digest(secret),
                            now: Date()
                        )
                        secrets.append((index, secret))
                    }
                    return secrets
                }
            }
            var all: [(Int, String)] = []
            for try await part in group { all += part }
            return all
        }
        // Served in the order they were made.
        return made.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Serves every book once, then measures.
    func serve(_ url: String, _ eastURL: String?, secrets: [String], report: inout Report) async throws {
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
    }
}
