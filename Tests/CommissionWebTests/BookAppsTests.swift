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
import Testing

/// A server of many books keeps the apps of the books in use only: an idle book's app is released,
/// no more than the limit are kept, and a released book is served again — its live streams too.
@Suite struct BookAppsTests {
    static let operatorToken = "operator-secret-0123456789"

    /// The books whose app the server keeps now, as `/metrics` says.
    func booksInMemory(_ client: some TestClientProtocol) async throws -> Int {
        let text = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(Self.operatorToken)"]).text
        let match = text.firstMatch(of: #/commission_books_in_memory (\d+)/#)
        return try #require(match.flatMap { Int($0.output.1) }, "\(text)")
    }

    /// Reads a change stream until it tells a change, or gives up after 10 s.
    func nextChange(_ chunks: inout HTTPClientResponse.Body.AsyncIterator) async throws -> String {
        var text = ""
        let deadline = ContinuousClock.now + .seconds(10)
        while !text.contains("event: change"), ContinuousClock.now < deadline, let chunk = try await chunks.next() { text += String(buffer: chunk) }
        return text
    }

    @Test func anIdleBookIsReleasedAndServedAgainWithItsLiveStream() async throws {
        guard let server = ProcessInfo.processInfo.environment["COMMISSION_TEST_POSTGRES_URL"], !server.isEmpty else {
            throw StoreError.storage("COMMISSION_TEST_POSTGRES_URL is not set: run the tests with scripts/test, which starts a throw-away PostgreSQL")
        }
        let url = try await PostgresBookDatabase.createDatabase(prefix: "commission_apps", onServer: server)
        let database = try await PostgresBookDatabase(url: url)
        defer { database.shutdown() }
        let settings = BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        var made: [(store: PostgresStore, token: String)] = []
        for name in ["Ada", "Bea", "Cleo"] {
            let store = try await PostgresStore.createBook(in: database, name: name, settings: settings)
            _ = try await store.createClinic(ClinicDraft(name: "\(name)'s clinic", schedule: .monthly))
            let owner = try await store.createOwner(username: "\(name.lowercased())-\(UUID().uuidString.prefix(6))", passwordHash: "x")
            let token = "cm_\(name)_\(UUID().uuidString)"
            _ = try await store.createToken(account: owner.id, name: "t", tokenDigest: WebSecrets.digest(token), now: Date())
            made.append((store, token))
        }
        let books = made
        func serving(keeping kept: Int, releasingAfter idle: Duration) -> some ApplicationProtocol {
            var configuration = WebConfiguration(bcryptCost: 4)
            configuration.metrics = ServerMetrics(token: Self.operatorToken)
            configuration.releaseBooksIdleFor = idle
            configuration.booksKept = kept
            return buildApplication(configuration: configuration, books: PostgresBooks(database: database, defaultSettings: settings))
        }
        // Each book answered with its own records; beyond two, the least recently used is released.
        try await serving(keeping: 2, releasingAfter: .seconds(3600)).test(.router) { client in
            for (index, name) in ["Ada", "Bea", "Cleo"].enumerated() {
                let clinics = try await client.execute(uri: "/api/v1/clinics", method: .get, headers: [.authorization: "Bearer \(books[index].token)"])
                #expect(clinics.status == .ok && clinics.text.contains("\(name)'s clinic"), "\(clinics.text)")
                #expect(try await booksInMemory(client) == min(index + 1, 2))
            }
        }
        try await serving(keeping: 100, releasingAfter: .seconds(1)).test(.live) { client in
            let port = try #require(client.port)
            for book in books {
                #expect(try await client.execute(uri: "/api/v1/clinics", method: .get, headers: [.authorization: "Bearer \(book.token)"]).status == .ok)
            }

            // Ada's change stream opened, then nobody asks anything: every app is released…
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/v1/changes")
            request.headers.add(name: "Authorization", value: "Bearer \(books[0].token)")
            let open = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            #expect(open.status == .ok)
            var openChunks = open.body.makeAsyncIterator()
            let deadline = ContinuousClock.now + .seconds(20)
            while try await booksInMemory(client) > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
            #expect(try await booksInMemory(client) == 0, "the idle books were not released")
            // …and the stream opened before still tells Ada's changes.
            _ = try await books[0].store.createClinic(ClinicDraft(name: "Ada's second clinic", schedule: .monthly))
            #expect(try await nextChange(&openChunks).contains(#"data: ["clinics"]"#))

            // Served again: built on its request, with its records and a live stream that works.
            let again = try await client.execute(uri: "/api/v1/clinics", method: .get, headers: [.authorization: "Bearer \(books[0].token)"])
            #expect(again.status == .ok && again.text.contains("Ada's second clinic"), "\(again.text)")
            let reopened = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            var chunks = reopened.body.makeAsyncIterator()
            _ = try await chunks.next()  // ": open"
            _ = try await books[0].store.createProduct(ProductDraft(name: "Serum", unitPrice: Money(minorUnits: 100), unitCost: .zero))
            #expect(try await nextChange(&chunks).contains(#"data: ["products"]"#))
        }
    }
}
