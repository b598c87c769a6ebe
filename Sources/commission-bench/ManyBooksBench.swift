import CommissionCore
import CommissionPostgres
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation

/// A team server of many books: a thousand books on one PostgreSQL database, each served once by a
/// real `commission serve --database` — the server's memory beside its memory with one book served,
/// and a cold book's first answer beside the same book's next one.
struct ManyBooksBench {
    let server: String
    let binary: String
    let books: Int

    func run(report: inout Report) async throws {
        let url = try await PostgresBookDatabase.createDatabase(prefix: "commission_books", onServer: server)
        let database = try await PostgresBookDatabase(url: url)
        var secrets: [String] = []
        let settings = SQLiteStore.systemDefaultSettings
        // The first book is the server's own; the others are made as `commission books add` makes them.
        for index in 0..<books {
            let store = index == 0 ? try await PostgresStore.firstBook(in: database, creatingWith: settings)
                : try await PostgresStore.createBook(in: database, name: "Book \(index)", settings: settings)
            let glow = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
            let serum = try await store.createProduct(ProductDraft(name: "Serum", unitPrice: Money(minorUnits: 5000), unitCost: Money(minorUnits: 2000)))
            _ = try await store.createTerms(TermsDraft(clinicID: glow.id, share: try Share(parsing: "40"), effectiveFrom: try Day(parsing: "2026-01-01")))
            _ = try await store.createSale(SaleDraft(clinicID: glow.id, productID: serum.id, date: try Day(parsing: "2026-03-02")), idempotencyKey: nil)
            let owner = try await store.createOwner(username: "owner\(index)", passwordHash: "x")
            let secret = "cm_bench_\(index)_\(UUID().uuidString)"
            _ = try await store.createToken(account: owner.id, name: "bench", tokenDigest: WebSecrets.digest(secret), now: Date())
            secrets.append(secret)
        }
        database.shutdown()
        do {
            try await serve(url, secrets: secrets, report: &report)
        } catch {
            try? await PostgresBookDatabase.dropDatabase(url, onServer: server)
            throw error
        }
        try await PostgresBookDatabase.dropDatabase(url, onServer: server)
    }

    /// Serves every book once, then measures.
    func serve(_ url: String, secrets: [String], report: inout Report) async throws {

        let (process, port) = try startServer(binary, ["--database", url])
        defer { process.terminate(); process.waitUntilExit() }
        let base = "http://127.0.0.1:\(port)"
        let start = ContinuousClock.now
        while (try? await get("\(base)/health"))?.0 != 200 {
            guard ContinuousClock.now - start < .seconds(20) else { throw StoreError.storage("the server did not start") }
            try await Task.sleep(for: .milliseconds(20))
        }

        var cold: [Double] = [], warm: [Double] = []
        var oneBook = Double.nan
        for (index, secret) in secrets.enumerated() {
            let clock = ContinuousClock()
            var status = 0
            cold.append(try await clock.measure { status = try await get("\(base)/api/v1/dashboard", token: secret).0 }.seconds * 1000)
            guard status == 200 else { throw StoreError.storage("book \(index) answered \(status)") }
            warm.append(try await clock.measure { _ = try await get("\(base)/api/v1/dashboard", token: secret) }.seconds * 1000)
            if index == 0 {
                try await Task.sleep(for: .milliseconds(500))
                oneBook = memory(of: process.processIdentifier).rss
            }
        }
        try await Task.sleep(for: .milliseconds(500))
        let all = memory(of: process.processIdentifier)
        report.add("\(books) books served once each: server memory, peak", measured: all.peak, unit: "MB", baseline: oneBook,
                   baselineName: "one book served", target: "≤ 150 MB", met: all.peak <= 150)
        report.add("a cold book's first answer (dashboard): p50", measured: percentile(cold, 50), unit: "ms", baseline: percentile(warm, 50),
                   baselineName: "its next answer", target: "≤ 50 ms", met: percentile(cold, 50) <= 50)
        report.add("a cold book's first answer (dashboard): p99", measured: percentile(cold, 99), unit: "ms", baseline: percentile(warm, 99),
                   baselineName: "its next answer", target: "≤ 50 ms", met: percentile(cold, 99) <= 50)
    }
}
