import AsyncHTTPClient
import CommissionCore
import CommissionPostgres
import CommissionStore
import CommissionWeb
import Foundation
import Testing

/// A primary and a hot standby on loopback, with synchronous replication (an acknowledged commit is
/// on both): the primary killed, the standby promoted, and the same database value — its URL
/// naming both hosts in libpq's form — takes writes again on the standby, with every acknowledged
/// sale there exactly once.
@Suite(.serialized) struct FailoverTests {
    @Test("A URL names a primary and its standbys in libpq's form")
    func severalHosts() throws {
        let target = try PostgresBookDatabase.target(
            "postgres://ana:secret@db1:5432,db2:5433,db3,[::1]:5434/books?sslmode=prefer"
        )
        #expect(
            target.hosts.map(\.description) == ["db1:5432", "db2:5433", "db3:5432", "[::1]:5434"]
                && target.hosts[3].name == "::1"
        )
        #expect(
            target.readWrite && target.user == "ana" && target.password == "secret" && target.database == "books"
                && target.tls == .prefer
        )
        // One host: any session will do (as before); several: the primary, unless told otherwise.
        #expect(try !PostgresBookDatabase.target("postgres://ana@db1/books").readWrite)
        #expect(try PostgresBookDatabase.target("postgres://ana@db1/books?target_session_attrs=read-write").readWrite)
        #expect(try !PostgresBookDatabase.target("postgres://ana@db1,db2/books?target_session_attrs=any").readWrite)
        #expect(throws: StoreError.self) { try PostgresBookDatabase.target("postgres://ana@db1,,db2/books") }
        #expect(throws: StoreError.self) {
            try PostgresBookDatabase.target("postgres://ana@db1,db2/books?target_session_attrs=standby")
        }
        #expect(throws: StoreError.self) { try PostgresBookDatabase.target("postgres://ana@db1,db2:70000/books") }
        // The password never shows, the hosts do.
        #expect(
            PostgresBookDatabase.redacted("postgres://ana:secret@db1:5432,db2:5433/books")
                == "postgres://ana:***@db1:5432,db2:5433/books"
        )
        #expect(PostgresBookDatabase.redacted("postgres://ana:secret@db1/books") == "postgres://ana:***@db1/books")
        // A password Foundation cannot read as a URL's (a bare "/" and "@") is hidden all the same.
        #expect(
            PostgresBookDatabase.redacted("postgres://ana:se/c@ret@db1,db2/books") == "postgres://ana:***@db1,db2/books"
        )
    }

    @Test("A standby promoted takes over within seconds, with every acknowledged sale once", .timeLimit(.minutes(10)))
    func standbyTakesOver() async throws {
        try await Self.withPrimaryAndStandby(failover)
    }

    /// A primary whose commits wait for its standby (synchronous replication), and that standby,
    /// both removed when `body` ends.
    static func withPrimaryAndStandby(_ body: (PrivatePostgres, PrivatePostgres) async throws -> Void) async throws {
        let primary = try await PrivatePostgres(settings: "-c synchronous_standby_names=* -c synchronous_commit=on")
        var standby: PrivatePostgres?
        do {
            standby = try await PrivatePostgres(standbyOf: primary)
            try await body(primary, standby!)
        } catch {
            await primary.remove()
            await standby?.remove()
            throw error
        }
        await primary.remove()
        await standby?.remove()
    }

    /// The same under `commission serve` (the release executable, in a process of its own) taking
    /// sales from a client that resends each with its key until acknowledged, with its live stream
    /// open: while no host is the primary, 503s with `Retry-After`; within 10 s of the promotion
    /// sales are taken again; then the stream tells changes again, readiness names the new primary,
    /// `/metrics` counts one failover, and every acknowledged sale is in the book once.
    @Test("Under commission serve, a standby promoted takes over with nothing lost", .timeLimit(.minutes(10)))
    func serveFailsOver() async throws {
        try await Self.withPrimaryAndStandby(serve)
    }

    func serve(_ primary: PrivatePostgres, _ standby: PrivatePostgres) async throws {
        let url =
            "postgres://postgres@127.0.0.1:\(primary.port),127.0.0.1:\(standby.port)/postgres?target_session_attrs=read-write"
        let settings = BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        let token = "cm_failover_\(UUID().uuidString)", metricsToken = "failover-metrics-\(UUID().uuidString)"
        let (glow, serum) = try await DatabaseOutageTests.seed(url: url, settings: settings, token: token)

        let log = standby.directory + "/server.log"
        let server = try ServerProcess(["--database", url, "--metrics-token", metricsToken], log: log)
        let (outcome, stopped, lines) = try await server.run { client in
            try await server.waitUntilAnswering(client)
            let outcome = try await DatabaseOutageTests().load(
                server: server.base,
                client: client,
                token: token,
                glow: glow,
                serum: serum,
                log: log,
                away: { try primary.kill() },
                back: { try await standby.promote() },
                within: .seconds(10)
            )
            let ready = try await client.execute(
                HTTPClientRequest(url: "\(server.base)/health/ready"),
                timeout: .seconds(60)
            )
            let readiness = String(buffer: try await ready.body.collect(upTo: 1 << 16))
            // By its place in the URL, not its address (the probe is public).
            #expect(
                ready.status == .ok
                    && readiness == "ready\nrelease: \(CommissionRelease.version)\nprimary: host 2 of 2\n",
                "\(readiness)"
            )
            var scrape = HTTPClientRequest(url: "\(server.base)/metrics")
            scrape.headers.add(name: "Authorization", value: "Bearer \(metricsToken)")
            let metrics = String(
                buffer: try await client.execute(scrape, timeout: .seconds(60)).body.collect(upTo: 1 << 22)
            )
            // One failover of one database, labelled with it.
            #expect(
                metrics.split(separator: "\n").contains(#"commission_database_failovers_total{database="main"} 1"#),
                "\(metrics.split(separator: "\n").filter { $0.contains("failover") })"
            )
            return outcome
        }
        #expect(stopped, "commission serve did not end within 10 s of SIGTERM")
        let takeover = lines.filter {
            $0.contains("The database's primary is now 127.0.0.1:\(standby.port) (it was 127.0.0.1:\(primary.port))")
        }
        #expect(takeover.count == 1, "\(lines.suffix(20))")
        // Told as it happened: every 503 she was answered is among those it counts, from the first
        // request refused on the dead primary (a primary killed fails requests before the watcher
        // sees it go), and its seconds are not those of the watcher's last look.
        #expect(
            takeover.allSatisfy {
                DatabaseOutageTests.refusedSaid(in: $0).map { $0 >= outcome.refused && $0 > 0 } ?? false
            },
            "\(takeover) for \(outcome.refused) refused"
        )
        #expect(!takeover.contains { $0.contains("after 0.0 s") }, "\(takeover)")

        // Every acknowledged sale is in the book, once.
        let database = try await PostgresBookDatabase(url: url)
        defer { database.shutdown() }
        let store = try await PostgresStore.firstBook(in: database, creatingWith: settings)
        let sales = try await store.sales(SaleQuery(includeVoided: true, page: Page(limit: 100_000)))
        #expect(sales.count == outcome.acknowledged, "\(sales.count) sales for \(outcome.acknowledged) acknowledged")
    }

    func failover(_ primary: PrivatePostgres, _ standby: PrivatePostgres) async throws {
        // The standby first: a host that answers read-only is passed over.
        let url = "postgres://postgres@127.0.0.1:\(standby.port),127.0.0.1:\(primary.port)/postgres"
        let database = try await PostgresBookDatabase(url: url)
        defer { database.shutdown() }
        #expect(database.primary == "127.0.0.1:\(primary.port)" && database.failovers == 0)
        let store = try await PostgresStore.createBook(
            in: database,
            name: "Failover",
            settings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        )
        let clinic = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        let product = try await store.createProduct(
            ProductDraft(name: "Serum", unitPrice: Money(minorUnits: 5000), unitCost: Money(minorUnits: 2000))
        )
        _ = try await store.createTerms(
            TermsDraft(
                clinicID: clinic.id,
                share: try Share(parsing: "40"),
                effectiveFrom: try Day(parsing: "2026-01-01")
            )
        )

        // A client that sends each sale with its key until it is acknowledged (for as long as it
        // takes: the time limit ends a hang, and the sale is then said never acknowledged).
        func record(_ number: Int) async -> ContinuousClock.Instant? {
            while !Task.isCancelled {
                do {
                    _ = try await store.createSale(
                        SaleDraft(
                            clinicID: clinic.id,
                            productID: product.id,
                            date: try Day(parsing: "2026-03-02"),
                            note: "sale \(number)"
                        ),
                        idempotencyKey: "failover-\(number)"
                    )
                    return .now
                } catch {
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
            return nil
        }
        for number in 0..<20 { #expect(await record(number) != nil) }

        // The primary's machine lost; the operator (or pg_auto_failover's monitor) promotes the standby.
        try primary.kill()
        try await standby.promote()
        let promoted = ContinuousClock.now
        var resumed: Duration?
        for number in 20..<40 {
            guard let at = await record(number) else {
                Issue.record("sale \(number) was never acknowledged after the failover")
                break
            }
            if resumed == nil { resumed = at - promoted }
        }
        print("failover: writes accepted again \(resumed.map { "\($0)" } ?? "never") after the promotion")
        #expect(
            resumed.map { $0 < .seconds(10) } == true,
            "writes were accepted again \(String(describing: resumed)) after the promotion"
        )
        #expect(database.primary == "127.0.0.1:\(standby.port)" && database.failovers == 1)
        // Synchronous replication: every sale acknowledged before the kill is on the standby; the
        // keys kept each resent one from being recorded twice.
        let notes = try await store.sales(SaleQuery(includeVoided: true, order: .oldestFirst)).compactMap(\.note)
        #expect(notes.sorted() == (0..<40).map { "sale \($0)" }.sorted(), "\(notes)")

        // The old primary started again as it was — a primary of the timeline before the promotion —
        // is never taken: not by a new database value (the newest timeline wins), nor by this one
        // when the new primary goes away (it is away rather than on two primaries' older one).
        try await primary.start()
        let another = try await PostgresBookDatabase(url: url)
        #expect(another.primary == "127.0.0.1:\(standby.port)")
        another.shutdown()
        try await standby.stop()
        while !database.isAway { try await Task.sleep(for: .milliseconds(100)) }  // the time limit ends a hang
        try await Task.sleep(for: .seconds(1))
        #expect(database.isAway && database.primary == "127.0.0.1:\(standby.port)" && database.failovers == 1)
        try await standby.start()
        while database.isAway { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!database.isAway && database.primary == "127.0.0.1:\(standby.port)")
    }
}
