import AsyncHTTPClient
import CommissionCore
import CommissionPostgres
import CommissionStore
import CommissionWeb
import Foundation
import NIOCore
import Synchronization
import Testing

/// PostgreSQL stopped under a `commission serve` taking sales, then started again: while it is away
/// every answer is a 503 with `Retry-After` (never a 500) and readiness says so; within 5 s of its
/// return sales are taken again (the promise); then readiness recovers and the live stream tells
/// changes again (waited for); no acknowledged sale is lost or recorded twice.
///
/// The server is the real executable, in a process of its own, as an operator runs it, and it is
/// stopped as systemd stops it: SIGTERM, then whether it ended by itself within 10 s.
///
/// The end caught a real bug: a query sent as PostgreSQL dropped its connection was lost inside
/// postgres-nio and its request never ended, nor did the server after SIGTERM (about one run in
/// four). Database work that outlives its connection is now abandoned (`LentConnections`).
@Suite(.serialized) struct DatabaseOutageTests {
    /// What the load saw.
    struct Seen {
        var acknowledged: [String] = []
        var statuses: [Int: Int] = [:]
        var unavailableWithoutRetryAfter = 0
        var lastAcknowledgedAt = ContinuousClock.now
    }

    @Test("A database that goes away is a 503, and the server is back within seconds of it", .timeLimit(.minutes(10)))
    func databaseOutage() async throws {
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
        // The book, its owner's API token, a clinic, a product and terms, straight through the store.
        let settings = BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        let token = "cm_outage_\(UUID().uuidString)"
        let (glow, serum) = try await Self.seed(url: postgres.url, settings: settings, token: token)

        let log = postgres.directory + "/server.log"
        let server = try ServerProcess(databaseURL: postgres.url, log: log)
        // Then SIGTERM: the server ends by itself (its live streams' clients gone), as under systemd.
        let (outcome, stopped, lines) = try await server.run { client in
            try await server.waitUntilAnswering(client)
            return try await load(
                server: server.base,
                client: client,
                token: token,
                glow: glow,
                serum: serum,
                log: log,
                away: { try await postgres.stop() },
                back: { try await postgres.start() },
                within: .seconds(5)
            )
        }
        #expect(stopped, "commission serve did not end within 10 s of SIGTERM; its log:\n\(Self.tail(of: log))")

        // The outage is said once as it starts and once as it ends (with its length), not once per
        // refused request nor every second by the change feed.
        let errors = lines.filter { $0.contains(" error ") }
        #expect(
            lines.filter { $0.contains("requests are refused (503) until it does") }.count == 1,
            "\(errors.prefix(5))"
        )
        #expect(
            lines.filter { $0.contains("not ready") }.isEmpty,
            "a readiness probe is answered, not logged, while the database is away"
        )
        let back = lines.filter {
            $0.contains("The database answers again after") && $0.contains("refused (503) meanwhile")
        }
        #expect(back.count == 1)
        // It counts every 503 she was answered (and the probes' and streams' besides).
        #expect(
            back.allSatisfy { Self.refusedSaid(in: $0).map { $0 >= outcome.refused } ?? false },
            "\(back) for \(outcome.refused)"
        )
        #expect(lines.filter { $0.contains("Listening for changes was lost") }.count <= 1)
        #expect(errors.count <= 5, "\(errors.count) error lines for one outage, the first: \(errors.prefix(5))")

        // Every acknowledged sale is in the book, once.
        let database = try await PostgresBookDatabase(url: postgres.url)
        defer { database.shutdown() }
        let store = try await PostgresStore.firstBook(in: database, creatingWith: settings)
        let sales = try await store.sales(SaleQuery(includeVoided: true, page: Page(limit: 100_000)))
        #expect(sales.count == outcome.acknowledged, "\(sales.count) sales for \(outcome.acknowledged) acknowledged")
    }

    /// How many requests the log line says were refused ("…; 12 requests were refused (503) meanwhile.").
    static func refusedSaid(in line: some StringProtocol) -> Int? {
        String(line).firstMatch(of: /; (\d+) requests? (?:was|were) refused/).flatMap { Int($0.1) }
    }

    /// The first book of the database at `url`: a clinic, a product and terms, straight through
    /// the store, and its owner's API token `token`.
    static func seed(url: String, settings: BookSettings, token: String) async throws -> (Clinic.ID, Product.ID) {
        let database = try await PostgresBookDatabase(url: url)
        defer { database.shutdown() }
        let store = try await PostgresStore.firstBook(in: database, creatingWith: settings)
        let glow = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        let serum = try await store.createProduct(
            ProductDraft(name: "Serum", unitPrice: Money(minorUnits: 5000), unitCost: Money(minorUnits: 2000))
        )
        _ = try await store.createTerms(
            TermsDraft(
                clinicID: glow.id,
                share: try Share(parsing: "40"),
                effectiveFrom: try Day(parsing: "2026-01-01")
            )
        )
        let owner = try await store.createOwner(username: "ana", passwordHash: "x")
        _ = try await store.createToken(
            account: owner.id,
            name: "t",
            tokenDigest: WebSecrets.digest(token),
            now: Date()
        )
        return (glow.id, serum.id)
    }

    /// The last lines of the server's log.
    static func tail(of log: String) -> String {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(30).joined(
            separator: "\n"
        )
    }

    /// Sales sent one after the other through the outage, what they saw checked; how many were
    /// acknowledged. `away` takes the database away, `back` gives one back (the same started again,
    /// or a standby promoted), after which a sale must be taken `within` that long.
    func load(
        server base: String,
        client: HTTPClient,
        token: String,
        glow: Clinic.ID,
        serum: Product.ID,
        log: String,
        away: () async throws -> Void,
        back: () async throws -> Void,
        within limit: Duration
    ) async throws -> (acknowledged: Int, refused: Int) {

        let sales = SaleLoad(server: base, client: client, token: token, glow: glow, serum: serum, keys: "outage")
        defer { sales.cancel() }
        // The live stream, opened again whenever it ends (as a browser's EventSource does).
        let streamed = Mutex("")
        let stream = Task {
            while !Task.isCancelled {
                var request = HTTPClientRequest(url: "\(base)/api/v1/changes")
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                if let response = try? await client.execute(request, timeout: .seconds(60)), response.status == .ok {
                    do {
                        for try await chunk in response.body { streamed.withLock { $0 += String(buffer: chunk) } }
                    } catch {}
                }
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        defer { stream.cancel() }
        func ready() async -> Int {
            (try? await client.execute(HTTPClientRequest(url: "\(base)/health/ready"), timeout: .seconds(2))).map {
                Int($0.status.code)
            } ?? 0
        }

        try await waitUntil("sales taken before", log: log) { sales.seen.withLock { $0.acknowledged.count } >= 10 }
        #expect(await ready() == 200)

        // Away: 503s with Retry-After, readiness failing.
        try await away()
        try await waitUntil("readiness failing", log: log) { await ready() == 503 }
        try await waitUntil("sales refused with 503", log: log) {
            sales.seen.withLock { $0.statuses[503, default: 0] } > 3
        }

        // Back: sales taken again within the limit (the promise), readiness recovered, the stream
        // telling changes again (however long a busy machine takes).
        try await back()
        let returned = ContinuousClock.now
        let streamedBefore = streamed.withLock { $0.count }
        try await waitUntil("a sale taken within \(limit) of the database's return", log: log, within: limit) {
            sales.seen.withLock { $0.lastAcknowledgedAt } > returned
        }
        print(
            "a sale taken again \(sales.seen.withLock { $0.lastAcknowledgedAt } - returned) after the database's return"
        )
        try await waitUntil("ready again", log: log) { await ready() == 200 }
        try await waitUntil("the live stream telling a change again", log: log) {
            streamed.withLock { String($0.dropFirst(streamedBefore)) }.contains("sales")
        }
        // A sale acknowledged now is told on the dashboard's stream.
        let eventsBefore = sales.events.withLock { $0.count }
        let acknowledgedBefore = sales.seen.withLock { $0.acknowledged.count }
        try await waitUntil("a sale acknowledged after the return", log: log) {
            sales.seen.withLock { $0.acknowledged.count } > acknowledgedBefore
        }
        try await waitUntil("the dashboard's stream telling that sale", log: log) {
            sales.events.withLock { String($0.dropFirst(eventsBefore)) }.contains("event: dashboard")
        }
        await sales.stop()

        let final = sales.seen.withLock { $0 }
        #expect(
            final.statuses.keys.allSatisfy { $0 == 201 || $0 == 503 },
            "every answer a sale or a 503: \(final.statuses)"
        )
        #expect(final.unavailableWithoutRetryAfter == 0)
        #expect(final.statuses[503, default: 0] > 0)
        return (final.acknowledged.count, final.statuses[503, default: 0])
    }
}

/// What a phone and a browser do against a server under test: sales sent one after the other, each
/// sent again with its key until it is acknowledged (a phone's outbox), and the dashboard's events
/// stream, opened again whenever the server ends it (as a browser's EventSource does).
final class SaleLoad: Sendable {
    let seen = Mutex(DatabaseOutageTests.Seen())
    /// Everything the events stream told, with "(stream ended)" where the server ended it.
    let events = Mutex("")
    private let stopped = Atomic(false)
    private let tasks = Mutex<(load: Task<Void, Never>?, events: Task<Void, Never>?)>((nil, nil))

    /// Sales of `glow` and `serum` dated 2026-03-02, with the keys `keys-1`, `keys-2`…
    init(server base: String, client: HTTPClient, token: String, glow: Clinic.ID, serum: Product.ID, keys: String) {
        let load = Task { [self] in
            var number = 0
            while !stopped.load(ordering: .relaxed) && !Task.isCancelled {
                number += 1
                let key = "\(keys)-\(number)"
                // Sent until acknowledged, stopped or not (it may have been taken): a server that
                // never answers again is a hang, which the test's time limit ends (cancelling this).
                while !Task.isCancelled {
                    var request = HTTPClientRequest(url: "\(base)/api/v1/sales")
                    request.method = .POST
                    request.headers.add(name: "Authorization", value: "Bearer \(token)")
                    request.headers.add(name: "Content-Type", value: "application/json")
                    request.headers.add(name: "Idempotency-Key", value: key)
                    request.body = .bytes(
                        ByteBuffer(string: #"{"clinicId": \#(glow), "productId": \#(serum), "date": "2026-03-02"}"#)
                    )
                    // A phone gives up after a few seconds, and sends the sale again with its key.
                    if let response = try? await client.execute(request, timeout: .seconds(5)) {
                        let status = Int(response.status.code)
                        _ = try? await response.body.collect(upTo: 1 << 20)
                        seen.withLock { seen in
                            seen.statuses[status, default: 0] += 1
                            if status == 503 && response.headers["Retry-After"].isEmpty {
                                seen.unavailableWithoutRetryAfter += 1
                            }
                            if status == 201 {
                                seen.acknowledged.append(key)
                                seen.lastAcknowledgedAt = .now
                            }
                        }
                        if status == 201 { break }
                    }
                    try? await Task.sleep(for: .milliseconds(20))
                }
            }
        }
        let stream = Task { [self] in
            while !Task.isCancelled {
                var request = HTTPClientRequest(url: "\(base)/api/v1/events")
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                if let response = try? await client.execute(request, timeout: .seconds(120)), response.status == .ok {
                    do {
                        for try await chunk in response.body { events.withLock { $0 += String(buffer: chunk) } }
                    } catch {}
                    events.withLock { $0 += "\n(stream ended)\n" }
                }
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        tasks.withLock { $0 = (load, stream) }
    }

    /// Stops sending sales (once the last one is acknowledged) and closes the events stream.
    func stop() async {
        stopped.store(true, ordering: .relaxed)
        let (load, stream) = tasks.withLock { $0 }
        await load?.value
        stream?.cancel()
    }

    /// Stops both at once (a test that failed, or its time limit).
    func cancel() {
        stopped.store(true, ordering: .relaxed)
        let (load, stream) = tasks.withLock { $0 }
        load?.cancel()
        stream?.cancel()
    }
}
