import CommissionCore
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdBcrypt
import HummingbirdTesting
import Testing

/// Every time window of the server is measured by its configuration's clock: a test moves a
/// `ManualClock` instead of waiting, so none of them depends on the machine's speed. And the
/// sign-in slowdown counts an attempt before its password is compared.
@Suite struct TimeWindowTests {
    /// A server on an in-memory book, its clock standing still until moved.
    struct Served {
        let store: SQLiteStore
        /// On a whole second, as the store keeps moments to the millisecond.
        let clock = ManualClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        let app: Application<RouterResponder<AppRequestContext>>

        init(bcryptCost: UInt8 = 4) throws {
            store = try SQLiteStore(.inMemory, defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"))
            var configuration = WebConfiguration(bcryptCost: bcryptCost, trustForwardedFor: true)
            configuration.clock = clock
            app = Application(router: buildRouter(configuration: configuration, store: store))
        }

        /// An API token of the owner (made by the store, at the server's time).
        func token() async throws -> String {
            let owner = try #require(try await store.ownerAccount())
            let secret = "cm_test_\(UUID().uuidString)"
            _ = try await store.createToken(
                account: owner.id,
                name: "t",
                tokenDigest: WebSecrets.digest(secret),
                now: clock.now
            )
            return secret
        }
    }

    /// A sign-in from `address`, with the sign-in page's CSRF token.
    func signIn(
        _ client: some TestClientProtocol,
        _ name: String = "ana",
        password: String,
        from address: String
    ) async throws -> TestResponse {
        let page = try await client.execute(uri: "/login", method: .get)
        var headers = formHeaders
        headers[.cookie] = "commission_csrf=\(page.cookies["commission_csrf"] ?? "")"
        headers[HTTPField.Name("X-Forwarded-For")!] = address
        return try await client.execute(
            uri: "/login",
            method: .post,
            headers: headers,
            body: form(["csrf": csrfField(page.text) ?? "", "username": name, "password": password])
        )
    }

    @Test("Thirty wrong passwords sent at once from one address: five are checked, twenty-five refused")
    func attemptsSentAtOnceAreCountedBeforeTheyAreChecked() async throws {
        let served = try Served()
        try await served.app.test(.router) { client in
            _ = try await signUp(client, password: "the right password")
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<30 {
                    group.addTask { try await signIn(client, password: "wrong", from: "10.9.9.9").status }
                }
                return try await group.reduce(into: [HTTPResponse.Status: Int]()) { $0[$1, default: 0] += 1 }
            }
            #expect(statuses == [.unauthorized: 5, .tooManyRequests: 25], "\(statuses)")
            // Refused ones were not failures: the name's count over every address is five.
            let failures = try await served.store.signInFailures(["name:ana", "address:10.9.9.9"])
            #expect(failures["name:ana"]?.failures == 5 && failures["address:10.9.9.9"]?.failures == 5)
        }
    }

    @Test("The wait after five failures ends when the server's clock says so, and her success is no failure")
    func aWaitEndsByTheServersClock() async throws {
        let served = try Served()
        try await served.app.test(.router) { client in
            _ = try await signUp(client, password: "the right password")
            for _ in 0..<5 {
                #expect(try await signIn(client, password: "wrong", from: "10.0.0.1").status == .unauthorized)
            }
            let slowed = try await signIn(client, password: "the right password", from: "10.0.0.1")
            #expect(slowed.status == .tooManyRequests && slowed.headers[.retryAfter] == "2")
            served.clock.advance(by: .seconds(1))
            #expect(
                try await signIn(client, password: "the right password", from: "10.0.0.1").headers[.retryAfter] == "1"
            )
            served.clock.advance(by: .seconds(1))
            #expect(try await signIn(client, password: "the right password", from: "10.0.0.1").status == .seeOther)
            // Her success cleared her own count and counted nothing anywhere.
            let counts = try await served.store.signInFailures(["pair:ana|10.0.0.1", "address:10.0.0.1", "name:ana"])
            #expect(
                counts["pair:ana|10.0.0.1"] == nil && counts["name:ana"]?.failures == 5
                    && counts["address:10.0.0.1"]?.failures == 5
            )
            // An hour later every count is forgotten at the next attempt.
            served.clock.advance(by: .seconds(3601))
            #expect(try await signIn(client, password: "wrong", from: "10.0.0.2").status == .unauthorized)
            #expect(try await served.store.signInFailures(["name:ana"])["name:ana"]?.failures == 1)
        }
    }

    @Test("The current password asked by a change of password is guessed no faster than at sign-in")
    func theCurrentPasswordIsSlowedDownToo() async throws {
        let served = try Served()
        try await served.app.test(.router) { client in
            let (session, csrf) = try await signUp(client, password: "the right password")
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(session)"
            headers[HTTPField.Name("X-Forwarded-For")!] = "10.1.1.1"
            func change(_ current: String) async throws -> TestResponse {
                try await client.execute(
                    uri: "/settings/password",
                    method: .post,
                    headers: headers,
                    body: form(["csrf": csrf, "current": current, "new": "a new long password"])
                )
            }
            for _ in 0..<5 { #expect(try await change("wrong").status.code == 422) }
            let slowed = try await change("the right password")
            #expect(slowed.status == .tooManyRequests && slowed.text.contains("try again in"))
            served.clock.advance(by: .seconds(2))
            #expect(try await change("the right password").status == .seeOther)
        }
    }

    /// An account whose hash was made at another cost (the demo's, or before the cost was raised)
    /// takes as long to check as an unknown name once she has signed in: its hash is made again at
    /// the server's cost.
    @Test func aHashOfAnotherCostIsMadeAgainAtTheServersCost() async throws {
        let served = try Served(bcryptCost: 5)
        _ = try await served.store.createOwner(
            username: "demo",
            passwordHash: Bcrypt.hash("the demo password", cost: 4)
        )
        try await served.app.test(.router) { client in
            let signedIn = try await signIn(client, "demo", password: "the demo password", from: "10.2.2.2")
            #expect(signedIn.status == .seeOther)
        }
        let hash = try #require(try await served.store.credentials(username: "demo")?.passwordHash)
        #expect(hash.hasPrefix("$2b$05$") && Bcrypt.verify("the demo password", hash: hash))
    }

    @Test("Sessions, invitation links and API tokens' sessions expire by the server's clock")
    func sessionsAndLinksExpireByTheServersClock() async throws {
        let served = try Served()
        try await served.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            let signedIn: HTTPFields = [.cookie: "commission_session=\(session)"]
            #expect(try await client.execute(uri: "/", method: .get, headers: signedIn).status == .ok)
            var headers = signedIn
            headers[.contentType] = "application/json"
            headers[.csrfToken] = csrf
            let invitation = try await client.execute(
                uri: "/api/v1/invitations",
                method: .post,
                headers: headers,
                body: ByteBuffer(string: "{}")
            )
            let path = try #require(try invitation.json()["path"] as? String)
            #expect(try await client.execute(uri: path, method: .get).status == .ok)

            // Eight days on: the week-long link is spent; thirty-one days on, the session too.
            served.clock.advance(by: .seconds(8 * 24 * 3600))
            #expect(try await client.execute(uri: path, method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/", method: .get, headers: signedIn).status == .ok)
            served.clock.advance(by: .seconds(23 * 24 * 3600))
            let expired = try await client.execute(uri: "/", method: .get, headers: signedIn)
            #expect(expired.status == .seeOther && expired.headers[.location] == "/login")
        }
    }

    @Test("An idempotency key is answered again for thirty days by the server's clock, then forgotten")
    func anIdempotencyKeyIsForgottenAfterThirtyDays() async throws {
        let served = try Served()
        try await served.app.test(.router) { client in
            _ = try await signUp(client)
            let token = try await served.token()
            func create(_ name: String, key: String) async throws -> TestResponse {
                try await client.execute(
                    uri: "/api/v1/clinics",
                    method: .post,
                    headers: [
                        .authorization: "Bearer \(token)", .contentType: "application/json", .idempotencyKey: key,
                    ],
                    body: ByteBuffer(string: #"{"name": "\#(name)", "schedule": "monthly"}"#)
                )
            }
            #expect(try await create("Glow", key: "k-1").status == .created)
            served.clock.advance(by: .seconds(29 * 24 * 3600))
            let replayed = try await create("Glow", key: "k-1")
            #expect(replayed.status == .created && replayed.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            // Past thirty days, the next kept answer forgets it: sent again, it is a new request.
            served.clock.advance(by: .seconds(2 * 24 * 3600))
            #expect(try await create("Harbor", key: "k-2").status == .created)
            let anew = try await create("Glow", key: "k-1")
            #expect(
                anew.status != .created && anew.headers[HTTPField.Name("Idempotent-Replayed")!] == nil,
                "\(anew.status) \(anew.text)"
            )
        }
    }

    /// A backup uploaded to restore waits a quarter of an hour for her confirmation.
    @Test func aStagedUploadExpiresByTheServersClock() throws {
        let clock = ManualClock()
        let staging = RestoreStaging(clock: clock)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("staged-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        let token = staging.stage(path)
        clock.advance(by: .seconds(15 * 60 + 1))
        #expect(staging.take(token) == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
        let kept = staging.stage(path)
        clock.advance(by: .seconds(14 * 60))
        #expect(staging.take(kept) == path)
    }
}
