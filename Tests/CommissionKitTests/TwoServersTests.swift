import AsyncHTTPClient
import CommissionCore
import CommissionPostgres
import CommissionStore
import CommissionWeb
import Foundation
import NIOCore
import Synchronization
import Testing

/// Two `commission serve` processes on one PostgreSQL database, as behind a proxy.
@Suite(.serialized) struct TwoServersTests {
    /// (How soon — milliseconds — is the benchmark's to measure; here it is waited for as long as
    /// it takes, under a limit far beyond the suite's run, so that a busy machine never fails it.)
    @Test("A sale posted to one server reaches the other's live stream", .timeLimit(.minutes(10)))
    func saleReachesTheOtherServer() async throws {
        let url = try await scratchPostgresDatabase()
        // The book, its owner and an API token, straight through the store.
        let database = try await PostgresBookDatabase(url: url)
        defer { database.shutdown() }
        let store = try await PostgresStore.firstBook(
            in: database,
            creatingWith: BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        )
        let owner = try await store.createOwner(username: "owner", passwordHash: "unused")
        let secret = "cm_test_\(UUID().uuidString)"
        _ = try await store.createToken(
            account: owner.id,
            name: "test",
            tokenDigest: WebSecrets.digest(secret),
            now: Date()
        )
        let glow = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        let serum = try await store.createProduct(
            ProductDraft(name: "Serum", unitPrice: Money(minorUnits: 5000), unitCost: Money(minorUnits: 2000))
        )
        _ = try await store.createTerms(
            TermsDraft(
                clinicID: glow.id,
                share: try Share(parsing: "40"),
                effectiveFrom: try Day(parsing: "2000-01-01")
            )
        )
        let today = try await store.settings().today()

        let servers = try [ServerProcess(databaseURL: url), ServerProcess(databaseURL: url)]
        defer { servers.forEach { $0.stop() } }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { _ = client.shutdown() }
        for server in servers { try await server.waitUntilAnswering(client) }

        // A live dashboard on the second server.
        let events = Mutex<[String]>([])
        let ended = Mutex(false)
        var request = HTTPClientRequest(url: servers[1].base + "/api/v1/events")
        request.headers.add(name: "Authorization", value: "Bearer \(secret)")
        let response = try await client.execute(request, timeout: .seconds(30))
        #expect(response.status == .ok)
        let reader = Task {
            // However it ends, the waits below stop at once (a stream that ended brings nothing more).
            defer { ended.withLock { $0 = true } }
            var pending = ""
            for try await chunk in response.body {
                pending += String(buffer: chunk)
                while let end = pending.range(of: "\n\n") {
                    let event = String(pending[..<end.lowerBound])
                    // A comment (the heartbeat, every 15 s) is skipped, as a browser's EventSource does.
                    if !event.hasPrefix(":") { events.withLock { $0.append(event) } }
                    pending.removeSubrange(..<end.upperBound)
                }
            }
        }
        defer { reader.cancel() }
        try await waitUntil("the first event on the second server's stream") {
            events.withLock { !$0.isEmpty } || ended.withLock { $0 }
        }
        #expect(events.withLock { $0.first?.contains(#""sales":0}"#) == true })

        // A sale posted to the first server.
        var post = HTTPClientRequest(url: servers[0].base + "/api/v1/sales")
        post.method = .POST
        post.headers.add(name: "Authorization", value: "Bearer \(secret)")
        post.headers.add(name: "Content-Type", value: "application/json")
        post.body = .bytes(
            ByteBuffer(
                string:
                    #"{"clinicId": \#(glow.id.rawValue), "productId": \#(serum.id.rawValue), "quantity": 2, "date": "\#(today)"}"#
            )
        )
        let posted = try await client.execute(post, timeout: .seconds(120))
        #expect(posted.status == .created)

        // 2 × (50.00 − 20.00) × 40% = 24.00 today, on the other server's stream.
        let sold = #""todayTotals":{"commission":"24.00","revenue":"100.00","sales":1}"#
        try await waitUntil("the sale on the second server's stream") {
            events.withLock { $0.contains { $0.contains(sold) } } || ended.withLock { $0 }
        }
        #expect(
            events.withLock { $0.contains { $0.contains(sold) } },
            "the stream ended; events seen: \(events.withLock { $0 })"
        )
    }
}

/// A new database on the test server (`scripts/test` starts one; its URL is in COMMISSION_TEST_POSTGRES_URL).
func scratchPostgresDatabase() async throws -> String {
    guard let server = ProcessInfo.processInfo.environment["COMMISSION_TEST_POSTGRES_URL"], !server.isEmpty else {
        throw StoreError.storage(
            "COMMISSION_TEST_POSTGRES_URL is not set: run the tests with scripts/test, which starts a throw-away PostgreSQL"
        )
    }
    return try await PostgresBookDatabase.createDatabase(prefix: "commission_kit", onServer: server)
}

/// `commission serve` on a free port, stopped with SIGTERM (or killed).
final class ServerProcess: Sendable {
    let base: String
    /// The file the server's output goes to, when one was named.
    let log: String?
    private let process: Process

    convenience init(databaseURL: String, log: String? = nil) throws {
        try self.init(["--database", databaseURL], log: log)
    }

    /// A server of the book these options name (`--db PATH` or `--database URL`); its output
    /// goes to the file `log` when one is named.
    init(_ book: [String], log: String? = nil) throws {
        let socket = try ServerSocketPort()
        base = "http://127.0.0.1:\(socket.port)"
        self.log = log
        let process = Process()
        process.executableURL = commissionExecutable
        process.arguments = ["serve"] + book + ["--port", String(socket.port)]
        if let log, FileManager.default.createFile(atPath: log, contents: nil),
            let file = FileHandle(forWritingAtPath: log)
        {
            process.standardOutput = file
            process.standardError = file
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        self.process = process
    }

    /// Returns once the server answers `/health`; throws when it ended first, or when it neither
    /// answers nor ends for two minutes (hung: a slow start on a busy machine takes seconds).
    func waitUntilAnswering(_ client: HTTPClient) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            if let response = try? await client.execute(HTTPClientRequest(url: base + "/health"), timeout: .seconds(5)),
                response.status == .ok
            {
                return
            }
            guard process.isRunning else {
                throw StoreError.storage(
                    "the server at \(base) ended (status \(process.terminationStatus)) before it answered"
                )
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw StoreError.storage("the server at \(base) neither answered nor ended within two minutes")
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    /// Runs `body` with an HTTP client of its own, then ends the server as systemd does (SIGTERM,
    /// killed after `limit`), or kills it at once when `body` throws, and passes the error on.
    /// Gives `body`'s value, whether the server ended by itself, and the lines of its log.
    func run<T>(
        stoppingWithin limit: Duration = .seconds(10),
        _ body: (HTTPClient) async throws -> T
    ) async throws
        -> (value: T, endedByItself: Bool, log: [Substring])
    {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let value: T
        do {
            value = try await body(client)
        } catch {
            kill()
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        let ended = await stopGracefully(within: limit)
        let lines = log.map { ((try? String(contentsOfFile: $0, encoding: .utf8)) ?? "").split(separator: "\n") } ?? []
        return (value, ended, lines)
    }

    /// SIGTERM, then whether the server ended by itself within `limit`: killed (SIGKILL) when it did not.
    func stopGracefully(within limit: Duration) async -> Bool {
        process.terminate()
        let deadline = ContinuousClock.now + limit
        while process.isRunning && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        guard process.isRunning else { return true }
        Foundation.kill(process.processIdentifier, SIGKILL)
        while process.isRunning { try? await Task.sleep(for: .milliseconds(50)) }
        return false
    }

    /// SIGKILL: no clean-up of any kind, as a crash or a power cut of the process would leave it.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

@Suite struct ServerSocketPortTests {
    /// The ports servers of other processes are given are never ones the kernel hands out for
    /// bind(0) or an outgoing connection, never the same twice in a run, and never one held.
    @Test func portsForServersAreBelowTheEphemeralRangeDistinctAndFree() throws {
        let ports = try (0..<200).map { _ in try ServerSocketPort().port }
        #expect(
            ports.allSatisfy { $0 < ServerSocketPort.firstEphemeral },
            "\(ports.filter { $0 >= ServerSocketPort.firstEphemeral })"
        )
        #expect(Set(ports).count == ports.count)
        // A port held (here by a listener of this test's own, on a port the kernel chose) is not free.
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = ServerSocketPort.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        #expect(bound)
        #expect(!ServerSocketPort.isFree(Int(UInt16(bigEndian: address.sin_port))))
    }
}

/// A free TCP port on 127.0.0.1 for a server started in another process (`commission serve`, a
/// private PostgreSQL), taken below the system's ephemeral range.
///
/// A port the kernel hands out for bind(0), given back for the child to bind, may be handed out
/// again before the child binds it — to a server another test starts in this process (seen: the
/// child could not listen, the other test's server answered this test's `/health` and then refused
/// its sales for good), or to an outgoing connection; and a private PostgreSQL stopped and started
/// again gives its port back meanwhile. The kernel hands out no port below its ephemeral range
/// (`/proc/sys/net/ipv4/ip_local_port_range`) that way, so these come from there: each of this
/// process's a different one (in turn, from a start that differs between processes), checked free.
struct ServerSocketPort {
    let port: Int
    /// The first port the kernel hands out by itself.
    static let firstEphemeral: Int = {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32_768
    }()
    /// The range the ports come from: from 10,000 up to the first ephemeral port.
    static var range: Range<Int> { 10_000..<max(firstEphemeral, 10_000) }
    private static let next = Mutex<Int?>(nil)

    init() throws {
        let range = Self.range
        guard range.count >= 1_000 else {
            throw StoreError.storage(
                "the system hands out ports from \(Self.firstEphemeral) (/proc/sys/net/ipv4/ip_local_port_range): leave 11,000 and up to servers, as Linux does by default (32768)"
            )
        }
        for _ in range {
            let candidate: Int = Self.next.withLock { next in
                let value = next ?? range.lowerBound + Int(getpid()) % range.count
                next = value + 1 < range.upperBound ? value + 1 : range.lowerBound
                return value
            }
            if Self.isFree(candidate) {
                port = candidate
                return
            }
        }
        throw StoreError.storage("no free port on 127.0.0.1 in \(range)")
    }

    /// 127.0.0.1:`port`.
    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return address
    }

    /// Whether nothing holds `port` on 127.0.0.1 (binding it succeeds).
    static func isFree(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// Polls `condition` until it holds, however long that takes: the test's `.timeLimit` ends a hang
/// (the limit cancels the wait), and the issue then says what was awaited, and how the server's
/// `log` ends when one is named. Only for what the server promises, `within` that long.
func waitUntil(
    _ what: String,
    log: String? = nil,
    within limit: Duration? = nil,
    _ condition: () async -> Bool
) async throws {
    let deadline = limit.map { ContinuousClock.now + $0 }
    let tail = { log.map { "; the server's log ends:\n\(DatabaseOutageTests.tail(of: $0))" } ?? "" }
    while !(await condition()) {
        if let limit, let deadline, ContinuousClock.now >= deadline {
            Issue.record("not within \(limit): \(what)\(tail())")
            return
        }
        do {
            try await Task.sleep(for: .milliseconds(20))
        } catch {
            Issue.record("still waiting for \(what) at the time limit\(tail())")
            throw error
        }
    }
}
