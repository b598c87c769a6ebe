import AsyncHTTPClient
import CommissionCore
import CommissionPostgres
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import NIOCore
import Synchronization
import Testing

/// A book ready for clients of the API: Glow (40% of profit) and a serum at 50.00 that cost 20.00,
/// so every unit sold is 50.00 of revenue and 12.00 of commission, exactly.
struct APIBook: Sendable {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case sqlite = "SQLite", postgres = "PostgreSQL"
        var testDescription: String { rawValue }
    }

    let store: any CommissionStore
    /// `--db PATH` or `--database URL`, for `commission serve`.
    let serveArguments: [String]
    let token: String
    let glow: Clinic
    let serum: Product
    let today: Day
    /// For SQLite: the file.
    let path: String?

    static let unitRevenue: Int64 = 5000
    static let unitCommission: Int64 = 1200

    init(_ kind: Kind) async throws {
        let settings = BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        let accounts: any AccountStore
        switch kind {
        case .sqlite:
            let path = temporaryDirectory().appendingPathComponent("book.sqlite").path
            let sqlite = try SQLiteStore(.file(path), defaultSettings: settings)
            (store, accounts, serveArguments, self.path) = (sqlite, sqlite, ["--db", path], path)
        case .postgres:
            let url = try await scratchPostgresDatabase()
            let database = try await PostgresBookDatabase(url: url)
            let postgres = try await PostgresStore.firstBook(in: database, creatingWith: settings)
            (store, accounts, serveArguments, path) = (postgres, postgres, ["--database", url], nil)
        }
        let owner = try await accounts.createOwner(username: "owner", passwordHash: "unused")
        token = "cm_\(UUID().uuidString)"
        _ = try await accounts.createToken(
            account: owner.id,
            name: "clients",
            tokenDigest: WebSecrets.digest(token),
            now: Date()
        )
        glow = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        serum = try await store.createProduct(
            ProductDraft(name: "Serum", unitPrice: Money(minorUnits: 5000), unitCost: Money(minorUnits: 2000))
        )
        _ = try await store.createTerms(
            TermsDraft(
                clinicID: glow.id,
                share: try Share(parsing: "40"),
                effectiveFrom: try Day(parsing: "2000-01-01")
            )
        )
        today = try await store.settings().today()
    }

    /// Imports a CSV of sales through the API; its status, or nil when no answer came. The same file
    /// goes in every few rounds on purpose: `again=true`, or its digest would refuse it.
    func importCSV(_ client: HTTPClient, base: String, csv: Data) async -> UInt? {
        var request = HTTPClientRequest(url: base + "/api/v1/import?kind=sales&again=true")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "text/csv")
        request.body = .bytes(ByteBuffer(bytes: csv))
        guard let response = try? await client.execute(request, timeout: .seconds(60)) else { return nil }
        _ = try? await response.body.collect(upTo: 1 << 20)
        return response.status.code
    }

    /// Posts one sale; its status, or nil when no answer came (the server was gone).
    func post(_ client: HTTPClient, base: String, quantity: Int, key: String) async -> UInt? {
        var request = HTTPClientRequest(url: base + "/api/v1/sales")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Idempotency-Key", value: key)
        request.body = .bytes(
            ByteBuffer(
                string:
                    #"{"clinicId": \#(glow.id.rawValue), "productId": \#(serum.id.rawValue), "quantity": \#(quantity), "date": "\#(today)"}"#
            )
        )
        guard let response = try? await client.execute(request, timeout: .seconds(15)) else { return nil }
        _ = try? await response.body.collect(upTo: 1 << 20)
        return response.status.code
    }
}

/// What the clients were told: the keys and quantities of the sales acknowledged (201), and every
/// server error.
final class Acknowledgements: Sendable {
    private let state = Mutex<(sales: [String: Int], serverErrors: [String], requests: Int, unanswered: [String: Int])>(
        ([:], [], 0, [:])
    )
    var sales: [String: Int] { state.withLock { $0.sales } }
    var serverErrors: [String] { state.withLock { $0.serverErrors } }
    var requests: Int { state.withLock { $0.requests } }

    /// A sale that got no answer (the server died), to send again with its key.
    func takeUnanswered() -> (key: String, quantity: Int)? {
        state.withLock { state in state.unanswered.keys.first.map { ($0, state.unanswered.removeValue(forKey: $0)!) } }
    }

    func record(_ status: UInt?, key: String, quantity: Int) {
        state.withLock {
            $0.requests += 1
            if status == nil { $0.unanswered[key] = quantity }
            if status == 201 || status == 200 { $0.sales[key] = quantity }
            if let status, status >= 500 { $0.serverErrors.append("\(key): \(status)") }
        }
    }
}

@Suite(.serialized, .timeLimit(.minutes(10))) struct ConcurrencyTests {
    /// Eight clients post sales as fast as they can for 3 seconds (`COMMISSION_CONCURRENCY_SECONDS`),
    /// and each at least ten however slow the machine, some retrying with the same key: every
    /// acknowledged sale is stored once, none fails with a server error, and the totals are exact
    /// to the cent.
    @Test(arguments: APIBook.Kind.allCases)
    func eightClientsPostingTogetherLoseNothing(_ kind: APIBook.Kind) async throws {
        let book = try await APIBook(kind)
        let server = try ServerProcess(book.serveArguments)
        defer { server.stop() }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { _ = client.shutdown() }
        try await server.waitUntilAnswering(client)

        let acknowledged = Acknowledgements()
        let seconds = environmentCount("COMMISSION_CONCURRENCY_SECONDS", default: 3)
        let deadline = ContinuousClock.now + .seconds(seconds)
        await withTaskGroup(of: Void.self) { group in
            for clientNumber in 0..<8 {
                group.addTask {
                    var generator = SplitMix64(seed: UInt64(clientNumber))
                    var count = 0
                    while count < 10 || ContinuousClock.now < deadline {
                        let key = "client-\(clientNumber)-\(count)"
                        let quantity = Int(generator.next() % 5) + 1
                        acknowledged.record(
                            await book.post(client, base: server.base, quantity: quantity, key: key),
                            key: key,
                            quantity: quantity
                        )
                        // Now and then the answer "was lost" and the client sends the same sale again.
                        if generator.next() % 10 == 0 {
                            acknowledged.record(
                                await book.post(client, base: server.base, quantity: quantity, key: key),
                                key: key,
                                quantity: quantity
                            )
                        }
                        count += 1
                    }
                }
            }
        }
        let sales = acknowledged.sales
        #expect(acknowledged.serverErrors.isEmpty, "\(acknowledged.serverErrors.prefix(5))")
        #expect(sales.count >= 8 * 10, "only \(sales.count) sales were acknowledged")

        let stored = try await book.store.sales(SaleQuery(includeVoided: true))
        #expect(stored.count == sales.count)
        let units = Int64(sales.values.reduce(0, +))
        #expect(stored.reduce(0) { $0 + $1.quantity } == units)
        // The dashboard's summaries, kept while the writes raced, against the figures worked out here.
        let dashboard = try await book.store.dashboard(today: book.today)
        #expect(dashboard.todayTotals.revenue == Money(minorUnits: units * APIBook.unitRevenue))
        #expect(dashboard.todayTotals.commission == Money(minorUnits: units * APIBook.unitCommission))
        #expect(dashboard.todayTotals.saleCount == sales.count)
        reportFigures(
            "concurrency-\(kind == .sqlite ? "sqlite" : "postgres")",
            [
                "clients": 8, "seconds": seconds, "requests": acknowledged.requests, "acknowledged": sales.count,
                "stored": stored.count,
                "serverErrors": acknowledged.serverErrors.count,
            ]
        )
    }
}

/// What Debian's `sqlite3` prints for these statements on the file: an independent reader.
func sqlite3(_ path: String, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = ["-batch", "-bail", path, sql]
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw StoreError.storage("sqlite3 failed: \(String(decoding: errors, as: UTF8.self))")
    }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Figures of the long runs, for docs/reliability.md: appended as JSON lines to the file named by
/// `COMMISSION_RELIABILITY_REPORT`, when it is set (`scripts/reliability` sets it).
func reportFigures(_ test: String, _ figures: [String: Int]) {
    guard let path = ProcessInfo.processInfo.environment["COMMISSION_RELIABILITY_REPORT"], !path.isEmpty,
        let data = try? JSONSerialization.data(
            withJSONObject: ["test": test, "figures": figures] as [String: Any],
            options: [.sortedKeys]
        )
    else { return }
    if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
    guard let handle = FileHandle(forWritingAtPath: path) else { return }
    handle.seekToEndOfFile()
    handle.write(data + Data("\n".utf8))
    handle.closeFile()
}

func environmentCount(_ name: String, default value: Int) -> Int {
    ProcessInfo.processInfo.environment[name].flatMap { Int($0) } ?? value
}

/// Ten minutes for scripts/test's 100 rounds; a minute for every five of scripts/reliability's thousand.
let crashTestsLimit = TimeLimitTrait.timeLimit(
    .minutes(max(10, environmentCount("COMMISSION_CRASH_ROUNDS", default: 100) / 5))
)

@Suite(.serialized, crashTestsLimit) struct CrashTests {
    /// The server is killed (SIGKILL) at random moments while four clients post sales and, every
    /// third round, while a file of 10,000 sales is imported (by `commission import` and through the
    /// server's API, in turn); it restarts on the same file. After
    /// every kill: `PRAGMA integrity_check` is ok, every acknowledged sale is there exactly once
    /// (clients resend what got no answer, with the same key, as a phone would), a killed import
    /// left no row, and the summaries behind the dashboard and statements equal a recount of the
    /// sales, all read by Debian's `sqlite3`. 100 rounds here; `scripts/reliability` runs more.
    @Test("Killed at random moments, the book keeps every acknowledged sale") func killedAtRandomMoments() async throws
    {
        let rounds = environmentCount("COMMISSION_CRASH_ROUNDS", default: 100)
        let book = try await APIBook(.sqlite)
        let path = try #require(book.path)
        let importRows = 10_000  // about 0.15 s to load here: the kill lands before, during or after it
        let csv = temporaryDirectory().appendingPathComponent("import.csv")
        let csvData = Data(
            ("date,clinic,product,quantity,note\n"
                + String(repeating: "\(book.today),Glow,Serum,1,imported\n", count: importRows)).utf8
        )
        try csvData.write(to: csv)

        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { _ = client.shutdown() }
        let acknowledged = Acknowledgements()
        var generator = SplitMix64(seed: 2026)
        var (importsCompleted, importsKilled, importsKilledAfterCommit, importedBefore) = (0, 0, 0, 0)
        for round in 0..<rounds {
            let server = try ServerProcess(["--db", path])
            try await server.waitUntilAnswering(client)
            // Every third round an import runs: by `commission import` in one, through the server's API in the next.
            // It is the same file each time, imported again on purpose (`--again`).
            let base = server.base
            let importer: Process? =
                round % 6 == 0 ? try startCommission(["import", csv.path, "--again", "--db", path]) : nil
            let upload: Task<UInt?, Never>? =
                round % 6 == 3 ? Task { await book.importCSV(client, base: base, csv: csvData) } : nil
            let importing = importer != nil || upload != nil
            let posting = Task {
                await withTaskGroup(of: Void.self) { group in
                    for clientNumber in 0..<4 {
                        group.addTask {
                            var count = 0
                            while !Task.isCancelled {
                                // First what got no answer before the last kill, then new sales.
                                let (key, quantity) =
                                    acknowledged.takeUnanswered() ?? (
                                        "r\(round)-c\(clientNumber)-\(count)", count % 3 + 1
                                    )
                                count += 1
                                let status = await book.post(client, base: base, quantity: quantity, key: key)
                                acknowledged.record(status, key: key, quantity: quantity)
                            }
                        }
                    }
                }
            }
            try await Task.sleep(for: .milliseconds(Int(30 + generator.next() % (importing ? 300 : 400))))
            server.kill()
            var importerEnded = false
            if let importer {
                if importer.isRunning { Foundation.kill(importer.processIdentifier, SIGKILL) }
                importer.waitUntilExit()
                importerEnded = importer.terminationReason == .exit
                #expect(
                    !importerEnded || importer.terminationStatus == 0,
                    "round \(round): the import failed (status \(importer.terminationStatus))"
                )
                if importerEnded { importsCompleted += 1 } else { importsKilled += 1 }
            }
            if let upload {
                // Acknowledged (201), or no answer because the server died: nothing else.
                let status = await upload.value
                #expect(
                    status == nil || status == 201,
                    "round \(round): the import through the API answered \(status ?? 0)"
                )
                importerEnded = status == 201
                if importerEnded { importsCompleted += 1 } else { importsKilled += 1 }
            }
            posting.cancel()
            await posting.value

            #expect(try sqlite3(path, "PRAGMA integrity_check") == "ok", "round \(round)")
            let keys = Set(
                try sqlite3(path, "SELECT idempotencyKey FROM sale WHERE idempotencyKey IS NOT NULL").split(
                    separator: "\n"
                ).map(String.init)
            )
            let missing = Set(acknowledged.sales.keys).subtracting(keys)
            #expect(missing.isEmpty, "round \(round): acknowledged but not stored: \(missing.sorted().prefix(5))")
            #expect(
                try sqlite3(
                    path,
                    "SELECT count(*) - count(DISTINCT idempotencyKey) FROM sale WHERE idempotencyKey IS NOT NULL"
                ) == "0"
            )
            // A killed import left nothing, or (killed after its commit) everything; one that ended left everything.
            let importedNow = Int(try sqlite3(path, "SELECT count(*) FROM sale WHERE note = 'imported'")) ?? -1
            let added = importedNow - importedBefore
            #expect(added == 0 || (importing && added == importRows), "round \(round): the import added \(added) rows")
            if importerEnded {
                #expect(added == importRows, "round \(round): an import that ended well added \(added) rows")
            }
            if added == importRows && !importerEnded { importsKilledAfterCommit += 1 }
            importedBefore = importedNow
            let summaries = try sqlite3(
                path,
                """
                SELECT clinicId, month, saleCount, quantity, revenueMinor, commissionMinor FROM clinicMonthTotal WHERE saleCount > 0 ORDER BY 1, 2
                """
            )
            let recount = try sqlite3(
                path,
                """
                SELECT clinicId, substr(date, 1, 7), count(*), sum(quantity), sum(revenueMinor), sum(commissionMinor)
                FROM sale WHERE isVoided = 0 GROUP BY 1, 2 ORDER BY 1, 2
                """
            )
            #expect(summaries == recount, "round \(round)")
            if !(missing.isEmpty && summaries == recount) { break }
        }

        // What the statements say, through the store, against the rows counted by hand.
        let stored = try await book.store.sales(SaleQuery(includeVoided: true))
        let period = PaySchedule.monthly.period(containing: book.today)
        let statement = try await book.store.statement(clinic: book.glow.id, period: period)
        let units = stored.filter { period.contains($0.date) }.reduce(0) { $0 + $1.quantity }
        #expect(statement.totals.commission == Money(minorUnits: units * APIBook.unitCommission))
        #expect(statement.totals.revenue == Money(minorUnits: units * APIBook.unitRevenue))
        #expect(importsCompleted + importsKilled == (rounds + 2) / 3)
        reportFigures(
            "crash",
            [
                "rounds": rounds, "requests": acknowledged.requests, "acknowledged": acknowledged.sales.count,
                "stored": stored.count, "importsCompleted": importsCompleted, "importsKilled": importsKilled,
                "importsKilledAfterCommit": importsKilledAfterCommit,
            ]
        )
    }
}

/// Starts the `commission` binary without waiting for it.
func startCommission(_ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = commissionExecutable
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
}

@Suite(.serialized, .timeLimit(.minutes(10))) struct BackupWhileWritingTests {
    /// `commission backup` runs while clients post sales to the server: the copy is a consistent
    /// snapshot (its summaries equal a recount of its own sales, `sqlite3` says), and restoring it
    /// gives a book with identical figures.
    @Test("A backup taken while sales are posted restores to identical figures") func backupUnderWrites() async throws {
        let book = try await APIBook(.sqlite)
        let path = try #require(book.path)
        let server = try ServerProcess(book.serveArguments)
        defer { server.stop() }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { _ = client.shutdown() }
        try await server.waitUntilAnswering(client)

        let acknowledged = Acknowledgements()
        let posting = Task {
            await withTaskGroup(of: Void.self) { group in
                for clientNumber in 0..<4 {
                    group.addTask {
                        var count = 0
                        while !Task.isCancelled {
                            let key = "b-\(clientNumber)-\(count)"
                            acknowledged.record(
                                await book.post(client, base: server.base, quantity: count % 4 + 1, key: key),
                                key: key,
                                quantity: count % 4 + 1
                            )
                            count += 1
                        }
                    }
                }
            }
        }
        while acknowledged.sales.count < 50 { try await Task.sleep(for: .milliseconds(10)) }
        let directory = temporaryDirectory()
        let backup = directory.appendingPathComponent("backup.sqlite").path
        let made = try commission(["backup", backup, "--db", path])
        let acknowledgedAtBackup = acknowledged.sales.count
        try await Task.sleep(for: .milliseconds(300))
        posting.cancel()
        await posting.value
        #expect(made.status == 0, "\(made.stderr)")

        // A snapshot from the middle of the writes: some sales, not all, and self-consistent.
        let inBackup = Int(try sqlite3(backup, "SELECT count(*) FROM sale")) ?? -1
        let inBook = Int(try sqlite3(path, "SELECT count(*) FROM sale")) ?? -1
        #expect(
            inBackup >= 50 && inBackup < inBook,
            "backup \(inBackup), book \(inBook), acknowledged at backup time \(acknowledgedAtBackup)"
        )
        #expect(try sqlite3(backup, "PRAGMA integrity_check") == "ok")
        let summaries = try sqlite3(
            backup,
            "SELECT clinicId, month, saleCount, revenueMinor, commissionMinor FROM clinicMonthTotal WHERE saleCount > 0 ORDER BY 1, 2"
        )
        let recount = try sqlite3(
            backup,
            """
            SELECT clinicId, substr(date, 1, 7), count(*), sum(revenueMinor), sum(commissionMinor) FROM sale WHERE isVoided = 0 GROUP BY 1, 2 ORDER BY 1, 2
            """
        )
        #expect(summaries == recount)

        let restored = directory.appendingPathComponent("restored.sqlite").path
        #expect(try commission(["restore", backup, "--db", restored]).status == 0)
        for report in [
            ["reconcile", "--format", "json", "--date", "\(book.today)"],
            ["report", "--format", "json", "--date", "\(book.today)"],
            ["export", "sales", "--format", "csv"],
        ] {
            let fromBackup = try commission(report + ["--db", backup])
            #expect(fromBackup.status == 0 && !fromBackup.stdout.isEmpty)
            #expect(try commission(report + ["--db", restored]).stdout == fromBackup.stdout, "\(report)")
        }
    }
}
