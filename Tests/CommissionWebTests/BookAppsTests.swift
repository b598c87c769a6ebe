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

/// A server of many books keeps the apps of the books in use only: an idle book's app is released,
/// no more than the limit are kept, and a released book is served again — its live streams too.
@Suite struct BookAppsTests {
    static let operatorToken = "operator-secret-0123456789"

    /// The books whose app the server keeps now, as `/metrics` says.
    func booksInMemory(_ client: some TestClientProtocol) async throws -> Int {
        let text = try await client.execute(
            uri: "/metrics",
            method: .get,
            headers: [.authorization: "Bearer \(Self.operatorToken)"]
        ).text
        let match = text.firstMatch(of: #/commission_books_in_memory (\d+)/#)
        return try #require(match.flatMap { Int($0.output.1) }, "\(text)")
    }

    /// Reads a change stream until it tells a change or ends (however long a busy machine takes:
    /// the test's time limit ends a stream open and silent).
    func nextChange(_ chunks: inout HTTPClientResponse.Body.AsyncIterator) async throws -> String {
        var text = ""
        while !text.contains("event: change"), let chunk = try await chunks.next() { text += String(buffer: chunk) }
        return text
    }

    @Test("An idle book is released, and served again with its live stream", .timeLimit(.minutes(10)))
    func idleBookReleased() async throws {
        guard let server = ProcessInfo.processInfo.environment["COMMISSION_TEST_POSTGRES_URL"], !server.isEmpty else {
            throw StoreError.storage(
                "COMMISSION_TEST_POSTGRES_URL is not set: run the tests with scripts/test, which starts a throw-away PostgreSQL"
            )
        }
        let url = try await PostgresBookDatabase.createDatabase(prefix: "commission_apps", onServer: server)
        let database = try await PostgresBookDatabase(url: url)
        defer { database.shutdown() }
        let settings = BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        var made: [(store: PostgresStore, token: String, session: String)] = []
        for name in ["Ada", "Bea", "Cleo"] {
            let store = try await PostgresStore.createBook(in: database, name: name, settings: settings)
            _ = try await store.createClinic(ClinicDraft(name: "\(name)'s clinic", schedule: .monthly))
            let owner = try await store.createOwner(
                username: "\(name.lowercased())-\(UUID().uuidString.prefix(6))",
                passwordHash: "x"
            )
            let token = "cm_\(name)_\(UUID().uuidString)"
            _ = try await store.createToken(
                account: owner.id,
                name: "t",
                tokenDigest: WebSecrets.digest(token),
                now: Date()
            )
            let session = "session-\(UUID().uuidString)"
            try await store.createSession(
                account: owner.id,
                tokenDigest: WebSecrets.digest(session),
                csrfToken: "c",
                expiresAt: Date().addingTimeInterval(3600)
            )
            made.append((store, token, session))
        }
        let books = made
        // The server's clock: the books are released when it says they have been idle long enough.
        let clock = ManualClock()
        func serving(keeping kept: Int, releasingAfter idle: Duration) -> some ApplicationProtocol {
            var configuration = WebConfiguration(bcryptCost: 4)
            configuration.metrics = ServerMetrics(token: Self.operatorToken)
            configuration.releaseBooksIdleFor = idle
            configuration.booksKept = kept
            configuration.clock = clock
            return buildApplication(
                configuration: configuration,
                books: PostgresBooks(database: database, defaultSettings: settings)
            )
        }
        // Each book answered with its own records; beyond two, the least recently used is released.
        try await serving(keeping: 2, releasingAfter: .seconds(3600)).test(.router) { client in
            for (index, name) in ["Ada", "Bea", "Cleo"].enumerated() {
                let clinics = try await client.execute(
                    uri: "/api/v1/clinics",
                    method: .get,
                    headers: [.authorization: "Bearer \(books[index].token)"]
                )
                #expect(clinics.status == .ok && clinics.text.contains("\(name)'s clinic"), "\(clinics.text)")
                #expect(try await booksInMemory(client) == min(index + 1, 2))
            }
        }
        // Released after ten seconds idle by the server's clock; the sweep looks every second.
        try await serving(keeping: 100, releasingAfter: .seconds(10)).test(.live) { client in
            let port = try #require(client.port)
            for book in books {
                #expect(
                    try await client.execute(
                        uri: "/api/v1/clinics",
                        method: .get,
                        headers: [.authorization: "Bearer \(book.token)"]
                    ).status == .ok
                )
            }

            // Ada's streams opened — the store's changes, the API's dashboard events, the dashboard
            // page's — then nobody asks anything: every app is released…
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/v1/changes")
            request.headers.add(name: "Authorization", value: "Bearer \(books[0].token)")
            let open = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
            #expect(open.status == .ok)
            var openChunks = open.body.makeAsyncIterator()
            let events = StreamReader(
                "http://127.0.0.1:\(port)/api/v1/events",
                headers: [("Authorization", "Bearer \(books[0].token)")]
            )
            let page = StreamReader(
                "http://127.0.0.1:\(port)/events",
                headers: [("Cookie", "commission_session=\(books[0].session)")]
            )
            let (eventsOpen, pageOpen) = (await events.waitFor("event: dashboard"), await page.waitFor("event: body"))
            #expect(eventsOpen && pageOpen, "\(events.text.prefix(300)) \(page.text.prefix(300))")
            clock.advance(by: .seconds(11))
            // Once the sweep has looked (however long a busy machine takes: the time limit ends a hang).
            while try await booksInMemory(client) > 0 { try await Task.sleep(for: .milliseconds(100)) }
            // …and each stream opened before still tells Ada's changes: none is open and silent.
            let (eventsSeen, pageSeen) = (events.text.count, page.text.count)
            _ = try await books[0].store.createClinic(ClinicDraft(name: "Ada's second clinic", schedule: .monthly))
            #expect(try await nextChange(&openChunks).contains(#"data: ["clinics"]"#))
            let eventsTold = await events.waitFor("event: dashboard", after: eventsSeen)
            #expect(eventsTold, "\(events.text.suffix(300))")
            let pageTold = await page.waitFor("event: body", after: pageSeen)
            #expect(pageTold, "\(page.text.suffix(300))")

            // Served again: built on its request, with its records and a live stream that works.
            let again = try await client.execute(
                uri: "/api/v1/clinics",
                method: .get,
                headers: [.authorization: "Bearer \(books[0].token)"]
            )
            #expect(again.status == .ok && again.text.contains("Ada's second clinic"), "\(again.text)")
            let reopened = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
            var chunks = reopened.body.makeAsyncIterator()
            _ = try await chunks.next()  // ": open"
            _ = try await books[0].store.createProduct(
                ProductDraft(name: "Serum", unitPrice: Money(minorUnits: 100), unitCost: .zero)
            )
            #expect(try await nextChange(&chunks).contains(#"data: ["products"]"#))
        }
    }
}

/// A live stream read in the background as a browser's EventSource reads it: what it wrote so far,
/// and whether it ended.
final class StreamReader: Sendable {
    /// What was read, shared with the task reading it (which must not hold the reader).
    final class Read: Sendable {
        let state = Mutex((text: "", ended: false))
    }
    private let read = Read()
    private let task: Task<Void, Never>

    init(_ url: String, headers: [(String, String)]) {
        let read = self.read
        task = Task {
            var request = HTTPClientRequest(url: url)
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            if let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(600)) {
                read.state.withLock { $0.text += "status \(response.status.code)\n" }
                do {
                    for try await chunk in response.body { read.state.withLock { $0.text += String(buffer: chunk) } }
                } catch {}
            }
            read.state.withLock { $0.ended = true }
        }
    }

    deinit { task.cancel() }

    var text: String { read.state.withLock { $0.text } }
    var ended: Bool { read.state.withLock { $0.ended } }

    /// Waits until what the stream writes after `offset` characters contains `marker` (true), or
    /// it ended (false): however long a busy machine takes (the test's time limit ends a stream
    /// open and silent).
    func waitFor(_ marker: String, after offset: Int = 0) async -> Bool {
        while !Task.isCancelled {
            let (text, ended) = read.state.withLock { ($0.text, $0.ended) }
            if String(text.dropFirst(offset)).contains(marker) { return true }
            if ended { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
