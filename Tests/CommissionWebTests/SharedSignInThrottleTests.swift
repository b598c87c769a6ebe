import CommissionCore
import CommissionPostgres
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Two server processes on one database slow down the same guesses: the failures one counts stop
/// the next try at the other, and a device one of them knows is known to the other — on an SQLite
/// file shared by two servers and on a PostgreSQL database shared by two.
@Suite struct SharedSignInThrottleTests {
    enum Database: String, CaseIterable, CustomTestStringConvertible {
        case sqlite = "SQLite file", postgres = "PostgreSQL"
        var testDescription: String { rawValue }
    }

    /// Two servers on one new database, as two processes would run (each with its own store and
    /// router), on one clock that stands still: no wait ends mid-test however slow the machine.
    func twoServers(
        _ database: Database
    ) async throws -> (any ApplicationProtocol, any ApplicationProtocol, close: @Sendable () -> Void) {
        var configuration = WebConfiguration(bcryptCost: 4, trustForwardedFor: true)
        configuration.clock = ManualClock()
        switch database {
        case .sqlite:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "commission-\(UUID().uuidString).sqlite"
            ).path
            let (one, other) = (try SQLiteStore(.file(path)), try SQLiteStore(.file(path)))
            return (
                Application(router: buildRouter(configuration: configuration, store: one)),
                Application(router: buildRouter(configuration: configuration, store: other)), {}
            )
        case .postgres:
            guard let server = ProcessInfo.processInfo.environment["COMMISSION_TEST_POSTGRES_URL"], !server.isEmpty
            else {
                throw StoreError.storage(
                    "COMMISSION_TEST_POSTGRES_URL is not set: run the tests with scripts/test, which starts a throw-away PostgreSQL"
                )
            }
            let url = try await PostgresBookDatabase.createDatabase(prefix: "commission_signin", onServer: server)
            let settings = BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
            let (one, other) = (try await PostgresBookDatabase(url: url), try await PostgresBookDatabase(url: url))
            return (
                buildApplication(
                    configuration: configuration,
                    books: PostgresBooks(database: one, defaultSettings: settings)
                ),
                buildApplication(
                    configuration: configuration,
                    books: PostgresBooks(database: other, defaultSettings: settings)
                ),
                {
                    one.shutdown()
                    other.shutdown()
                }
            )
        }
    }

    func attempt(
        _ client: some TestClientProtocol,
        _ password: String,
        from address: String,
        device: String? = nil
    ) async throws -> TestResponse {
        let page = try await client.execute(uri: "/login", method: .get)
        var headers = formHeaders
        headers[.cookie] =
            "commission_csrf=\(page.cookies["commission_csrf"] ?? "")"
            + (device.map { "; commission_device=\($0)" } ?? "")
        headers[HTTPField.Name("X-Forwarded-For")!] = address
        return try await client.execute(
            uri: "/login",
            method: .post,
            headers: headers,
            body: form(["csrf": csrfField(page.text) ?? "", "username": "ana", "password": password])
        )
    }

    @Test(arguments: Database.allCases)
    func twoServersSlowTheSameGuessesDown(_ database: Database) async throws {
        let (one, other, close) = try await twoServers(database)
        defer { close() }
        try await one.test(.router) { first in
            try await other.test(.router) { second in
                _ = try await signUp(first, password: "the right password")
                // Five failures at the first server: the second makes that address wait.
                for _ in 0..<5 { #expect(try await attempt(first, "wrong", from: "10.0.0.1").status == .unauthorized) }
                let slowed = try await attempt(second, "the right password", from: "10.0.0.1")
                #expect(
                    slowed.status == .tooManyRequests && Int(slowed.headers[.retryAfter] ?? "") ?? 0 > 0,
                    "\(slowed.status)"
                )
                // Her phone signs in at the second server, elsewhere, and becomes a known device.
                let mine = try await attempt(second, "the right password", from: "10.0.0.2")
                #expect(mine.status == .seeOther)
                let device = try #require(mine.cookies["commission_device"])
                // A guess spread over many addresses at the second server locks her name at the first…
                for index in 1...15 {
                    #expect(try await attempt(second, "wrong", from: "10.0.1.\(index)").status == .unauthorized)
                }
                #expect(try await attempt(first, "the right password", from: "10.0.0.3").status == .tooManyRequests)
                // …but not on her device, which the first server knows too.
                #expect(
                    try await attempt(first, "the right password", from: "10.0.0.3", device: device).status == .seeOther
                )
            }
        }
    }

    /// Thirty wrong passwords sent at once from one address, half to each server: five are
    /// compared, twenty-five refused — counted before the comparison, in the database both share
    /// (on PostgreSQL, under a lock of each key: a row alone would not hold a new address's burst).
    @Test(arguments: Database.allCases)
    func thirtyAtOnceAtTwoServersAreFiveChecks(_ database: Database) async throws {
        let (one, other, close) = try await twoServers(database)
        defer { close() }
        try await one.test(.router) { first in
            try await other.test(.router) { second in
                _ = try await signUp(first, password: "the right password")
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for index in 0..<30 {
                        group.addTask {
                            index % 2 == 0
                                ? try await attempt(first, "wrong", from: "10.9.9.9").status
                                : try await attempt(second, "wrong", from: "10.9.9.9").status
                        }
                    }
                    return try await group.reduce(into: [HTTPResponse.Status: Int]()) { $0[$1, default: 0] += 1 }
                }
                #expect(statuses == [.unauthorized: 5, .tooManyRequests: 25], "\(statuses)")
            }
        }
    }
}
