import ArgumentParser
import AsyncHTTPClient
import CommissionClient
import CommissionCore
import CommissionKit
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import Hummingbird
import Logging
import NIOCore
import OpenAPIAsyncHTTPClient
import Synchronization

/// `commission serve`'s app on a book, in this process on a free port, with an API token of the
/// book's owner (made when the book has none).
struct BenchServer {
    let base: String
    let secret: String
    private let running: Task<Void, any Error>

    init(store: SQLiteStore) async throws {
        let existing = try await store.ownerAccount()
        let owner =
            if let existing { existing } else { try await store.createOwner(username: "bench", passwordHash: "x") }
        secret = "cm_bench_\(UUID().uuidString)"
        _ = try await store.createToken(
            account: owner.id,
            name: "bench",
            tokenDigest: WebSecrets.digest(secret),
            now: Date()
        )
        let port = try freePort()
        var logger = Logger(label: "commission-bench") { TextLogHandler(label: $0) }  // serve's handler
        logger.logLevel = .error
        let app = buildApplication(
            configuration: WebConfiguration(port: port, bcryptCost: 4),
            store: store,
            logger: logger
        )
        running = Task { try await app.runService(gracefulShutdownSignals: []) }
        base = "http://127.0.0.1:\(port)"
        // try?: polling until the server answers: an error is a server not up yet
        while (try? await get(base + "/health"))?.0 != 200 { try await Task.sleep(for: .milliseconds(10)) }
    }

    func stop() { running.cancel() }
}

/// Sale entry over HTTP with and without 100 live dashboard streams, `GET /health` as the
/// baseline, and the latency from a committed sale to its event on a stream.
struct HTTPBench {
    let path: String
    let seconds: Double
}

extension HTTPBench {
    func run(report: inout Report) async throws {
        let store = try SQLiteStore(.file(path))
        store.cacheHotReads()  // as `commission serve` does
        let server = try await BenchServer(store: store)
        defer { server.stop() }
        let (base, secret) = (server.base, server.secret)

        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(
                connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 256)
            )
        )

        let today = try await store.settings().today()

        // The dashboard read through the remote store (an app on the server's book) beside the same
        // store read in process: the price of the network and the JSON, here over loopback.
        let remote = HTTPStore(url: URL(string: base)!, token: secret, transport: AsyncHTTPClientTransport())
        let lastDay = try await store.sales(SaleQuery(page: Page(limit: 1))).first?.date ?? today
        _ = try await remote.dashboard(today: lastDay)
        let remoteDashboard = try await timed(50) { _ = try await remote.dashboard(today: lastDay) }
        let localDashboard = try await timed(50) { _ = try await store.dashboard(today: lastDay) }
        report.add(
            "dashboard through the HTTP store (loopback): p50",
            measured: remoteDashboard.p50,
            unit: "ms",
            baseline: localDashboard.p50,
            baselineName: "the SQLite store in process",
            target: nil,
            met: nil
        )

        // A sale's answer as the API writes it (member by member, Presenter.json) beside JSONEncoder,
        // which wrote it before: the same bytes, checked here too.
        if let sale = try await store.sales(SaleQuery(page: Page(limit: 1))).first {
            let answer = Presenter(currency: try await store.settings().currency).sale(sale)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            guard Presenter.json(answer) == Array(try encoder.encode(answer)),
                SortedJSON.encode(answer, escapingSlashes: true) == Array(try encoder.encode(answer))
            else {
                throw ValidationError("the API's writers and JSONEncoder disagree on a sale's answer")
            }
            let clock = ContinuousClock(), rounds = 20_000
            func foundationRound() {
                let encoder = JSONEncoder()  // as the answer was made before
                encoder.outputFormatting = [.sortedKeys]
                // try?: only timed; the same answer was encoded with `try` above
                _ = try? encoder.encode(answer)
            }
            for _ in 0..<1000 {
                _ = Presenter.json(answer)
                _ = SortedJSON.encode(answer, escapingSlashes: true)
                foundationRound()
            }  // warm
            var ours = Duration.zero, sorted = Duration.zero, foundation = Duration.zero
            for _ in 0..<4 {  // alternated, so that none has the machine's quieter moments
                ours += clock.measure { for _ in 0..<rounds / 4 { _ = Presenter.json(answer) } }
                sorted += clock.measure {
                    for _ in 0..<rounds / 4 { _ = SortedJSON.encode(answer, escapingSlashes: true) }
                }
                foundation += clock.measure { for _ in 0..<rounds / 4 { foundationRound() } }
            }
            report.add(
                "a sale's API answer as JSON (member by member)",
                measured: ours.seconds * 1e6 / Double(rounds),
                unit: "µs",
                baseline: foundation.seconds * 1e6 / Double(rounds),
                baselineName: "JSONEncoder, sorted keys",
                target: nil,
                met: nil
            )
            report.add(
                "a sale's API answer as JSON (SortedJSON, any Encodable)",
                measured: sorted.seconds * 1e6 / Double(rounds),
                unit: "µs",
                baseline: foundation.seconds * 1e6 / Double(rounds),
                baselineName: "JSONEncoder, sorted keys",
                target: nil,
                met: nil
            )
        }

        let body = #"{"clinicId": 1, "productId": 1, "quantity": 1, "date": "\#(today)"}"#
        let health: @Sendable () -> HTTPClientRequest = { HTTPClientRequest(url: base + "/health") }
        let sale: @Sendable () -> HTTPClientRequest = {
            var request = HTTPClientRequest(url: base + "/api/v1/sales")
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(secret)")
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
            return request
        }
        // try?: shutting the bench's HTTP client down at the end; nothing is left to send
        defer { Task { try? await client.shutdown() } }

        // The load comes from wrk in a process of its own when it is installed (as in PERFORMANCE.md),
        // else from this process's own HTTP client, which then shares the two cores with the server.
        let wrk = which("wrk")
        if wrk == nil {
            note(
                "wrk is not installed (apt-get install wrk): the load comes from this process, and costs the server CPU."
            )
        }
        let postScript = FileManager.default.temporaryDirectory.appendingPathComponent(
            "commission-bench-\(UUID().uuidString).lua"
        )
        try """
        wrk.method = "POST"
        wrk.body = '\(body)'
        wrk.headers["Content-Type"] = "application/json"
        wrk.headers["Authorization"] = "Bearer \(secret)"
        """.write(to: postScript, atomically: true, encoding: .utf8)
        // try?: the wrk script, a temporary file; the OS cleans its temporary directory
        defer { try? FileManager.default.removeItem(at: postScript) }
        func run(
            _ path: String,
            expect: Int,
            script: URL?,
            _ make: @escaping @Sendable () -> HTTPClientRequest
        ) async throws -> Load {
            if let wrk { return try await wrkLoad(wrk, url: base + path, seconds: seconds, script: script) }
            return try await load(client, seconds: seconds, expect: expect, make)
        }
        let loader = wrk == nil ? "in-process client" : "wrk"

        let healthLoad = try await run("/health", expect: 200, script: nil, health)
        report.add(
            "GET /health, 4 connections (\(loader))",
            measured: healthLoad.rate,
            unit: "req/s",
            baseline: nil,
            baselineName: nil,
            target: nil,
            met: nil
        )

        let before = try await store.countSales(SaleQuery(includeVoided: true))
        let quiet = try await run("/api/v1/sales", expect: 201, script: postScript, sale)
        report.add(
            "POST /api/v1/sales, no streams",
            measured: quiet.rate,
            unit: "req/s",
            baseline: healthLoad.rate,
            baselineName: "GET /health",
            target: nil,
            met: nil
        )

        // 100 live dashboards.
        let arrivals = Arrivals()
        let opened = Counter()
        let streams = (0..<100).map { index in
            Task {
                var request = HTTPClientRequest(url: base + "/api/v1/events")
                request.headers.add(name: "Authorization", value: "Bearer \(secret)")
                let response = try await client.execute(request, timeout: .hours(1))
                opened.increment()
                for try await chunk in response.body where index == 0 {
                    if chunk.readableBytesView.contains(where: { $0 == UInt8(ascii: "\n") })
                        && String(buffer: chunk).contains("event: dashboard")
                    {
                        arrivals.record(.now)
                    }
                }
            }
        }
        defer { streams.forEach { $0.cancel() } }
        while opened.value < 100 { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(500))

        let eventsBefore = arrivals.count
        let busy = try await run("/api/v1/sales", expect: 201, script: postScript, sale)
        let events = Double(arrivals.count - eventsBefore) / seconds
        report.add(
            "POST /api/v1/sales, 100 streams: rate",
            measured: busy.rate,
            unit: "req/s",
            baseline: healthLoad.rate,
            baselineName: "GET /health",
            target: "≥ 2000 req/s, ≥ 0.25× baseline",
            met: busy.rate >= 2000 && busy.rate >= 0.25 * healthLoad.rate
        )
        report.add(
            "POST /api/v1/sales, 100 streams: p99",
            measured: busy.p99,
            unit: "ms",
            baseline: nil,
            baselineName: nil,
            target: "≤ 20 ms",
            met: busy.p99 <= 20
        )
        report.add(
            "commit rate with 100 streams ÷ with none",
            measured: busy.rate / quiet.rate,
            unit: "×",
            baseline: nil,
            baselineName: nil,
            target: "≥ 0.5",
            met: busy.rate / quiet.rate >= 0.5
        )
        // The streams were live during the load: each got the merged changes, up to 20 events a second.
        report.add(
            "events per stream per second during that load",
            measured: events,
            unit: "/s",
            baseline: nil,
            baselineName: nil,
            target: nil,
            met: nil
        )
        let after = try await store.countSales(SaleQuery(includeVoided: true))
        let acknowledged = quiet.acknowledged + busy.acknowledged
        // wrk stops with up to one request in flight per connection: the server may store those
        // without wrk counting their answers.
        let inFlight = wrk == nil ? 0 : 2 * 4
        report.add(
            "acknowledged sales stored (\(acknowledged) acknowledged)",
            measured: Double(after - before),
            unit: "sales",
            baseline: Double(acknowledged),
            baselineName: "acknowledged",
            target: "all",
            met: after - before >= acknowledged && after - before <= acknowledged + inFlight
        )

        // Commit → event on a stream, one sale at a time, 100 ms apart (faster than anyone enters
        // sales; under a burst the hub merges changes into at most one event per 50 ms).
        try await Task.sleep(for: .milliseconds(300))
        var latencies: [Double] = []
        for _ in 0..<100 {
            try await Task.sleep(for: .milliseconds(100))
            let response = try await client.execute(sale(), timeout: .seconds(10))
            let committed = ContinuousClock.now
            _ = try await response.body.collect(upTo: 1 << 20)
            let deadline = committed + .seconds(2)
            var arrival: ContinuousClock.Instant?
            while arrival == nil && ContinuousClock.now < deadline {
                arrival = arrivals.first(after: committed)
                if arrival == nil { try await Task.sleep(for: .microseconds(200)) }
            }
            if let arrival { latencies.append((arrival - committed).seconds * 1000) }
        }
        report.add(
            "live update, commit to event: p50",
            measured: percentile(latencies, 50),
            unit: "ms",
            baseline: nil,
            baselineName: nil,
            target: "≤ 5 ms",
            met: percentile(latencies, 50) <= 5
        )
        report.add(
            "live update, commit to event: p99",
            measured: percentile(latencies, 99),
            unit: "ms",
            baseline: nil,
            baselineName: nil,
            target: "≤ 50 ms",
            met: percentile(latencies, 99) <= 50
        )

        // Twenty open dashboard pages: the server renders the new body once per change and pushes
        // it to each (/events). Beside it, what twenty tabs cost before: the event, then each tab
        // fetching the body (GET /dashboard?fragment=1), twenty at once.
        let pages = PageStreams(count: 20)
        let pageStreams = (0..<20).map { index in
            Task {
                var request = HTTPClientRequest(url: base + "/events")
                request.headers.add(name: "Authorization", value: "Bearer \(secret)")
                let response = try await client.execute(request, timeout: .hours(1))
                var text = ""
                for try await chunk in response.body {
                    text += String(buffer: chunk)
                    while let end = text.range(of: "\n\n") {
                        let event = text[..<end.lowerBound]
                        if event.contains("event: body"),
                            let line = event.split(separator: "\n").first(where: { $0.hasPrefix("id: ") })
                        {
                            pages.record(stream: index, id: String(line.dropFirst(4)), at: .now)
                        }
                        text.removeSubrange(..<end.upperBound)
                    }
                }
            }
        }
        defer { pageStreams.forEach { $0.cancel() } }
        while !pages.allReceived(after: .now - .seconds(3600)) { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(300))
        var pushed: [Double] = [], fetched: [Double] = [], rendersPerChange: [Double] = []
        let fragment: @Sendable () -> HTTPClientRequest = {
            var request = HTTPClientRequest(url: base + "/dashboard?fragment=1")
            request.headers.add(name: "Authorization", value: "Bearer \(secret)")
            return request
        }
        for _ in 0..<30 {
            try await Task.sleep(for: .milliseconds(150))
            let response = try await client.execute(sale(), timeout: .seconds(10))
            let committed = ContinuousClock.now
            _ = try await response.body.collect(upTo: 1 << 20)
            let deadline = committed + .seconds(5)
            while !pages.allReceived(after: committed) && ContinuousClock.now < deadline {
                try await Task.sleep(for: .microseconds(200))
            }
            if let (last, ids) = pages.arrivals(after: committed) {
                pushed.append((last - committed).seconds * 1000)
                rendersPerChange.append(Double(ids))
            }
            // The former way, for the same change: once the event is there, twenty fetches of the body.
            while arrivals.first(after: committed) == nil && ContinuousClock.now < deadline {
                try await Task.sleep(for: .microseconds(200))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        _ = try await client.execute(fragment(), timeout: .seconds(10)).body.collect(upTo: 1 << 24)
                    }
                }
                try await group.waitForAll()
            }
            fetched.append((ContinuousClock.now - committed).seconds * 1000)
        }
        report.add(
            "live page, 20 tabs: commit to every tab updated, p50",
            measured: percentile(pushed, 50),
            unit: "ms",
            baseline: percentile(fetched, 50),
            baselineName: "20 tabs fetching the body",
            target: nil,
            met: nil
        )
        report.add(
            "live page, 20 tabs: commit to every tab updated, p99",
            measured: percentile(pushed, 99),
            unit: "ms",
            baseline: percentile(fetched, 99),
            baselineName: "20 tabs fetching the body",
            target: nil,
            met: nil
        )
        report.add(
            "live page, 20 tabs: renders per change (distinct events)",
            measured: rendersPerChange.max() ?? 0,
            unit: "",
            baseline: nil,
            baselineName: nil,
            target: "1",
            met: rendersPerChange.allSatisfy { $0 == 1 } && rendersPerChange.count == 30
        )
    }

    struct Load {
        var rate: Double
        var p50: Double
        var p99: Double
        var acknowledged: Int
    }

    /// `wrk` with two threads and four connections for `seconds`: its requests per second, latency
    /// percentiles, and the count of answers that were not errors.
    func wrkLoad(_ wrk: String, url: String, seconds: Double, script: URL?) async throws -> Load {
        var arguments = ["-t2", "-c4", "-d\(max(1, Int(seconds.rounded())))s", "--latency"]
        if let script { arguments += ["-s", script.path] }
        let result = try await runProcessAside(wrk, arguments + [url])
        guard result.status == 0 else { throw ValidationError("wrk failed: \(result.output)") }
        let lines = result.output.split(separator: "\n").map { $0.trimmingWhitespace() }
        /// The first field after `label` on the line that starts with it.
        func value(_ label: String) -> String? {
            lines.first { $0.hasPrefix(label) }.flatMap {
                $0.dropFirst(label.count).split(whereSeparator: \.isWhitespace).first.map(String.init)
            }
        }
        guard let rate = value("Requests/sec:").flatMap(Double.init),
            let p50 = value("50%").flatMap(Self.milliseconds), let p99 = value("99%").flatMap(Self.milliseconds),
            let total = lines.first(where: { $0.contains(" requests in ") })?.split(separator: " ").first.flatMap({
                Int($0)
            })
        else {
            throw ValidationError("cannot read wrk's output: \(result.output)")
        }
        let failed = value("Non-2xx or 3xx responses:").flatMap { Int($0) } ?? 0
        return Load(rate: rate, p50: p50, p99: p99, acknowledged: total - failed)
    }

    /// `812.00us`, `1.23ms`, `2.00s` → milliseconds.
    static func milliseconds(_ text: String) -> Double? {
        for (unit, factor) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0)] where text.hasSuffix(unit) {
            return Double(text.dropLast(unit.count)).map { $0 * factor }
        }
        return nil
    }

    /// Four connections sending requests back to back for `seconds`.
    func load(
        _ client: HTTPClient,
        seconds: Double,
        expect: Int,
        _ make: @escaping @Sendable () -> HTTPClientRequest
    ) async throws -> Load {
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let results = try await withThrowingTaskGroup(of: ([Double], Int).self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var latencies: [Double] = []
                    var ok = 0
                    while ContinuousClock.now < end {
                        let start = ContinuousClock.now
                        let response = try await client.execute(make(), timeout: .seconds(10))
                        _ = try await response.body.collect(upTo: 1 << 20)
                        latencies.append((ContinuousClock.now - start).seconds * 1000)
                        if response.status.code == expect { ok += 1 }
                    }
                    return (latencies, ok)
                }
            }
            var all: [Double] = []
            var ok = 0
            for try await (latencies, count) in group {
                all += latencies
                ok += count
            }
            return (all, ok)
        }
        return Load(
            rate: Double(results.0.count) / seconds,
            p50: percentile(results.0, 50),
            p99: percentile(results.0, 99),
            acknowledged: results.1
        )
    }
}

/// A counter shared between tasks.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// When events reached the watched stream.
final class Arrivals: Sendable {
    private let instants = Mutex<[ContinuousClock.Instant]>([])
    func record(_ instant: ContinuousClock.Instant) { instants.withLock { $0.append(instant) } }
    var count: Int { instants.withLock { $0.count } }
    func first(after instant: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        instants.withLock { $0.first(where: { $0 >= instant }) }
    }
}

/// When each of a number of page streams received each numbered body event.
final class PageStreams: Sendable {
    private let received: Mutex<[[(id: String, at: ContinuousClock.Instant)]]>

    init(count: Int) { received = Mutex(Array(repeating: [], count: count)) }

    func record(stream: Int, id: String, at instant: ContinuousClock.Instant) {
        received.withLock { $0[stream].append((id, instant)) }
    }

    /// Whether every stream has received an event since `instant`.
    func allReceived(after instant: ContinuousClock.Instant) -> Bool {
        received.withLock { $0.allSatisfy { $0.contains { $0.at >= instant } } }
    }

    /// When the last stream received its first event since `instant`, and how many distinct
    /// events (ids) the streams received first: one render per change is one.
    func arrivals(after instant: ContinuousClock.Instant) -> (ContinuousClock.Instant, Int)? {
        received.withLock { streams in
            let firsts = streams.compactMap { $0.first { $0.at >= instant } }
            guard firsts.count == streams.count, let last = firsts.map(\.at).max() else { return nil }
            return (last, Set(firsts.map(\.id)).count)
        }
    }
}
