import AsyncHTTPClient
import CommissionCore
import CommissionPostgres
import CommissionStore
import CommissionWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

/// PostgreSQL stopped under a server taking sales, then started again: while it is away every
/// answer is a 503 with `Retry-After` (never a 500) and readiness says so; within 5 s of its return
/// sales are taken again and the live stream tells changes again; no acknowledged sale is lost or
/// recorded twice.
@Suite struct DatabaseOutageTests {
    /// What the load saw.
    struct Seen {
        var acknowledged: [String] = []
        var statuses: [Int: Int] = [:]
        var unavailableWithoutRetryAfter = 0
        var lastAcknowledgedAt = ContinuousClock.now
    }

    /// Not in `scripts/test` yet: it fails in about one run of two. Part of that was the test's own
    /// — `pg_ctl` waited for with a blocking `waitUntilExit`, which held one of the two threads
    /// the server under test runs on (now awaited); what is left happens after the database's
    /// return: the log says "The database answers again", then no request is answered (the
    /// readiness probe, which leases from the new pool, hangs) — see the note on issue 18. Run it
    /// with `COMMISSION_OUTAGE_TEST=1 swift test --filter DatabaseOutageTests` (it starts its own PostgreSQL).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["COMMISSION_OUTAGE_TEST"] != nil, "set COMMISSION_OUTAGE_TEST=1 to run it"),
          .timeLimit(.minutes(1)))
    func aDatabaseThatGoesAwayIsA503AndTheServerIsBackWithinSecondsOfIt() async throws {
        let postgres = try await PrivatePostgres()
        do {
            try await outage(postgres)
        } catch {
            await postgres.remove()
            throw error
        }
        await postgres.remove()
    }

    func outage(_ postgres: PrivatePostgres) async throws {
        let database = try await PostgresBookDatabase(url: postgres.url)
        defer { database.shutdown() }
        let settings = BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        let store = try await PostgresStore.firstBook(in: database, creatingWith: settings)
        let glow = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        let serum = try await store.createProduct(ProductDraft(name: "Serum", unitPrice: Money(minorUnits: 5000), unitCost: Money(minorUnits: 2000)))
        _ = try await store.createTerms(TermsDraft(clinicID: glow.id, share: try Share(parsing: "40"), effectiveFrom: try Day(parsing: "2026-01-01")))
        let owner = try await store.createOwner(username: "ana", passwordHash: "x")
        let token = "cm_outage_\(UUID().uuidString)"
        _ = try await store.createToken(account: owner.id, name: "t", tokenDigest: WebSecrets.digest(token), now: Date())

        let app = buildApplication(configuration: WebConfiguration(bcryptCost: 4), books: PostgresBooks(database: database, defaultSettings: settings))
        try await app.test(.live) { client in
            let base = "http://127.0.0.1:\(try #require(client.port))"
            let seen = Mutex(Seen())
            let stopLoad = Atomic(false)
            // The load: sales one after the other, each sent again with its key until it is acknowledged (a phone's outbox).
            let load = Task {
                var number = 0
                while !stopLoad.load(ordering: .relaxed) {
                    number += 1
                    let key = "outage-\(number)"
                    while true {
                        var request = HTTPClientRequest(url: "\(base)/api/v1/sales")
                        request.method = .POST
                        request.headers.add(name: "Authorization", value: "Bearer \(token)")
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.headers.add(name: "Idempotency-Key", value: key)
                        request.body = .bytes(ByteBuffer(string: #"{"clinicId": \#(glow.id), "productId": \#(serum.id), "date": "2026-03-02"}"#))
                        // A phone gives up after a few seconds, and sends the sale again with its key.
                        if let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(5)) {
                            let status = Int(response.status.code)
                            _ = try? await response.body.collect(upTo: 1 << 20)
                            seen.withLock { seen in
                                seen.statuses[status, default: 0] += 1
                                if status == 503 && response.headers["Retry-After"].isEmpty { seen.unavailableWithoutRetryAfter += 1 }
                                if status == 201 { seen.acknowledged.append(key); seen.lastAcknowledgedAt = .now }
                            }
                            if status == 201 { break }
                        }
                        try? await Task.sleep(for: .milliseconds(50))
                    }
                }
            }
            // The live stream, opened again whenever it ends (as a browser's EventSource does).
            let streamed = Mutex("")
            let stream = Task {
                while !Task.isCancelled {
                    var request = HTTPClientRequest(url: "\(base)/api/v1/changes")
                    request.headers.add(name: "Authorization", value: "Bearer \(token)")
                    if let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(60)), response.status == .ok {
                        do { for try await chunk in response.body { streamed.withLock { $0 += String(buffer: chunk) } } } catch {}
                    }
                    try? await Task.sleep(for: .milliseconds(200))
                }
            }
            func waitFor(_ what: String, within limit: Duration, _ condition: () async -> Bool) async throws {
                let deadline = ContinuousClock.now + limit
                while !(await condition()) {
                    guard ContinuousClock.now < deadline else { Issue.record("not within \(limit): \(what)"); return }
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            func ready() async -> Int { (try? await client.execute(uri: "/health/ready", method: .get)).map { Int($0.status.code) } ?? 0 }

            try await waitFor("sales taken before", within: .seconds(10)) { seen.withLock { $0.acknowledged.count } >= 10 }
            #expect(await ready() == 200)

            // Away: 503s with Retry-After, readiness failing.
            try await postgres.stop()
            try await waitFor("readiness failing", within: .seconds(5)) { await ready() == 503 }
            try await waitFor("sales refused with 503", within: .seconds(5)) { seen.withLock { $0.statuses[503, default: 0] } > 3 }

            // Back: sales taken again within 5 s, readiness recovered, the stream telling changes again.
            try await postgres.start()
            let back = ContinuousClock.now
            let streamedBefore = streamed.withLock { $0.count }
            try await waitFor("a sale taken within 5 s of the database's return", within: .seconds(5)) {
                seen.withLock { $0.lastAcknowledgedAt } > back
            }
            try await waitFor("ready again", within: .seconds(5)) { await ready() == 200 }
            try await waitFor("the live stream telling a change again", within: .seconds(10)) {
                streamed.withLock { String($0.dropFirst(streamedBefore)) }.contains("sales")
            }
            stopLoad.store(true, ordering: .relaxed)
            await load.value
            stream.cancel()

            let final = seen.withLock { $0 }
            #expect(final.statuses.keys.allSatisfy { $0 == 201 || $0 == 503 }, "every answer a sale or a 503: \(final.statuses)")
            #expect(final.unavailableWithoutRetryAfter == 0)
            // Every acknowledged sale is in the book, once.
            let keys = try await store.sales(SaleQuery(includeVoided: true, page: Page(limit: 100_000)))
            #expect(keys.count == final.acknowledged.count, "\(keys.count) sales for \(final.acknowledged.count) acknowledged")
        }
    }
}
