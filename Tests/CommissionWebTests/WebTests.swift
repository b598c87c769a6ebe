import AsyncHTTPClient
import CommissionCore
import CommissionKit
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@Suite struct AccessTests {
    @Test func everyProtectedRouteRefusesAnAnonymousCaller() async throws {
        let test = try await TestApp()
        let routes = test.routes.routes
        #expect(routes.filter { !$0.isPublic }.count >= 30)
        try await test.app.test(.router) { client in
            for route in routes where !route.isPublic {
                let uri = route.path.replacing(/:\w+/, with: "1")
                let response = try await client.execute(
                    uri: uri,
                    method: route.method,
                    headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: "{}")
                )
                if route.path.hasPrefix("/api/") {
                    #expect(response.status == .unauthorized, "\(route)")
                    #expect(response.headers[.contentType] == "application/problem+json", "\(route)")
                } else {
                    #expect(response.status == .seeOther, "\(route)")
                    #expect(response.headers[.location] == "/setup", "\(route)")
                }
                // A forged or stale session cookie is no better than none.
                let forged = try await client.execute(
                    uri: uri,
                    method: route.method,
                    headers: [.cookie: "commission_session=forged"]
                )
                #expect(forged.status == .unauthorized || forged.status == .seeOther, "\(route)")
            }
        }
        // Nothing was written by the sweep.
        #expect(try await test.store.countSales(SaleQuery(includeVoided: true)) == 0)
    }

    @Test("Only the health check, static files, sign-in, invitations and her calendar feed are open")
    func onlyPublicRoutesAreOpen()
        async throws
    {
        let test = try await TestApp()
        let open = Set(test.routes.routes.filter(\.isPublic).map(\.description))
        #expect(
            open == [
                "GET /health", "GET /health/live", "GET /health/ready", "GET /metrics", "GET /static/:file",
                "GET /manifest.webmanifest", "GET /sw.js", "GET /favicon.ico",
                "GET /setup", "POST /setup", "GET /login", "POST /login", "GET /invite/:secret", "POST /invite/:secret",
                // The sample book set-up offers: opened only while the book awaits set-up (FirstRunTests), left by anyone.
                "POST /sample", "GET /sample/leave",
                // Her pay dates calendar, asked for by her calendar app: its secret is the key (NotificationsPageTests).
                "GET /calendar/:file",
            ]
        )
    }

    @Test func aPathRefusesAMethodItDoesNotTakeWith405() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            for (method, uri, allow) in [
                (HTTPRequest.Method.put, "/api/v1/sales/7", "GET, PATCH, DELETE, POST"),
                (.put, "/api/v1/clinics", "GET, POST"),
                (.init("TRACE")!, "/api/v1/dashboard", "GET"), (.patch, "/settings", "GET"),
                // A named path beside a parameter's: its own methods, not the parameter's.
                (.post, "/api/v1/sales/days", "GET"), (.patch, "/api/v1/sales/days", "GET"),
            ] {
                let response = try await client.execute(uri: uri, method: method)
                #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                #expect(response.headers[.allow] == allow, "\(method) \(uri)")
            }
            #expect(try await client.execute(uri: "/api/v1/nowhere", method: .delete).status == .notFound)
            #expect(try await client.execute(uri: "/api/v1/sales/7/void/again", method: .get).status == .notFound)
        }
    }

    @Test func securityHeadersOnEveryResponse() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            for uri in ["/login", "/setup", "/api/v1/sales", "/static/app.js", "/nowhere"] {
                let response = try await client.execute(uri: uri, method: .get)
                let csp = try #require(response.headers[.contentSecurityPolicy], "\(uri)")
                #expect(
                    csp.contains("script-src 'self'") && !csp.contains("unsafe-inline")
                        && csp.contains("frame-ancestors 'none'")
                )
                #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
                #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin")
                #expect(response.headers[HTTPField.Name("Permissions-Policy")!]?.contains("camera=()") == true)
                // Plain HTTP here: no HSTS, which would strand a browser that reaches the app without TLS.
                #expect(response.headers[HTTPField.Name("Strict-Transport-Security")!] == nil)
            }
        }
    }

    @Test func theFirstVisitCreatesTheOwnerAndOnlyOnce() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            #expect(try await client.execute(uri: "/login", method: .get).headers[.location] == "/setup")
            let (session, _) = try await signUp(client)
            #expect(try await test.store.accountCount() == 1)
            // The session cookie is HttpOnly and SameSite.
            let page = try await client.execute(uri: "/setup", method: .get)
            #expect(page.headers[.location] == "/login")
            let home = try await client.execute(
                uri: "/",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            )
            #expect(home.status == .ok && home.text.contains("Save sale"))
        }
        // The password is kept as a bcrypt hash, never as given.
        let (_, hash) = try #require(try await test.store.credentials(username: "ANA"))
        #expect(hash.hasPrefix("$2") && !hash.contains("correct horse"))
    }

    @Test func sessionCookieIsHttpOnlyAndSameSite() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let page = try await client.execute(uri: "/setup", method: .get)
            var headers = formHeaders
            headers[.cookie] = "commission_csrf=\(page.cookies["commission_csrf"] ?? "")"
            let created = try await client.execute(
                uri: "/setup",
                method: .post,
                headers: headers,
                body: form(["csrf": csrfField(page.text) ?? "", "username": "ana", "password": "0123456789ab"])
            )
            let header = try #require(created.headers[values: .setCookie].first { $0.hasPrefix("commission_session=") })
            #expect(header.contains("HttpOnly") && header.contains("SameSite=Lax") && header.contains("Path=/"))
        }
    }

    /// Five wrong passwords from one address slow that name there; a stranger failing on purpose
    /// elsewhere, even from many addresses, does not keep her out of a device she signed in from.
    /// The server's clock stands still: no wait ends mid-test however slowly the machine runs.
    @Test("Sign-in slows down per name and address, and lets her known device through") func signInThrottle()
        async throws
    {
        let store = try SQLiteStore(.inMemory)
        var configuration = WebConfiguration(bcryptCost: 4, trustForwardedFor: true)
        configuration.clock = ManualClock()
        let app = Application(router: buildRouter(configuration: configuration, store: store))
        try await app.test(.router) { client in
            _ = try await signUp(client, password: "the right password")
            func attempt(
                _ password: String,
                as name: String = "ana",
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
                    body: form(["csrf": csrfField(page.text) ?? "", "username": name, "password": password])
                )
            }
            for _ in 0..<5 { #expect(try await attempt("wrong", from: "10.0.0.1").status == .unauthorized) }
            // That address must now wait, even with the right password; it is told how long.
            let slowed = try await attempt("the right password", from: "10.0.0.1")
            #expect(slowed.status == .tooManyRequests && Int(slowed.headers[.retryAfter] ?? "") ?? 0 > 0)
            // Her own phone, elsewhere, signs in: and becomes a known device.
            let mine = try await attempt("the right password", from: "10.0.0.2")
            #expect(mine.status == .seeOther)
            let device = try #require(mine.cookies["commission_device"])
            // The anonymous forms' CSRF cookie is replaced at sign-in.
            #expect(mine.cookies["commission_csrf"] != nil)

            // A guess spread over other addresses (twenty failures for the name in all: her success
            // cleared only her own address's count) locks the name everywhere…
            for index in 1...15 { #expect(try await attempt("wrong", from: "10.0.1.\(index)").status == .unauthorized) }
            #expect(try await attempt("the right password", from: "10.0.0.3").status == .tooManyRequests)
            // …but not on her known device.
            #expect(try await attempt("the right password", from: "10.0.0.3", device: device).status == .seeOther)
            // A forged device cookie is no device.
            let forged = String(device.dropLast()) + (device.hasSuffix("0") ? "1" : "0")
            #expect(
                try await attempt("the right password", from: "10.0.0.4", device: forged).status == .tooManyRequests
            )

            // One address trying twenty names is slowed for any name.
            for index in 1...20 {
                #expect(try await attempt("x", as: "nobody\(index)", from: "10.0.2.1").status == .unauthorized)
            }
            #expect(
                try await attempt("the right password", from: "10.0.2.1", device: device).status == .tooManyRequests
            )
        }
    }

    /// An unknown name is checked against a hash of the server's own cost, so that its answer takes
    /// as long as a known name's and does not tell which names exist (timed by hand against a real
    /// server, cost 12, medians of four: 0.98–1.12× a known name's, was ~1/15; wall clocks are not
    /// asserted in tests).
    @Test func anUnknownNameIsCheckedAgainstAHashOfTheSameCost() {
        #expect(UnknownNameHash.forTests(cost: 4).hasPrefix("$2b$04$"))
        #expect(UnknownNameHash.forTests(cost: 4) == UnknownNameHash.forTests(cost: 4))
    }

    @Test func statechangingFormsNeedTheirCSRFToken() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(session)"
            let sale = [
                "clinic": "\(test.glow.id)", "product": "\(test.serum.id)", "quantity": "2", "date": "2026-03-02",
            ]
            #expect(
                try await client.execute(uri: "/sales", method: .post, headers: headers, body: form(sale)).status
                    == .forbidden
            )
            var forged = sale
            forged["csrf"] = String(repeating: "0", count: 64)
            #expect(
                try await client.execute(uri: "/sales", method: .post, headers: headers, body: form(forged)).status
                    == .forbidden
            )
            #expect(try await test.store.countSales(SaleQuery()) == 0)
            var good = sale
            good["csrf"] = csrf
            let saved = try await client.execute(uri: "/sales", method: .post, headers: headers, body: form(good))
            #expect(saved.status == .seeOther)
            // 2 × (50.00 − 20.00) × 40% = 24.00.
            #expect(try await test.store.sales(SaleQuery()).map(\.figures.commission) == [Money(minorUnits: 2400)])
        }
    }

    @Test func tokensAreAcceptedUntilRevoked() async throws {
        let test = try await TestApp()
        let owner = try await test.store.createOwner(username: "ana", passwordHash: "x")
        let secret = "cm_test-secret"
        let token = try await test.store.createToken(
            account: owner.id,
            name: "script",
            tokenDigest: WebSecrets.digest(secret),
            now: Date()
        )
        try await test.app.test(.router) { client in
            let bearer: HTTPFields = [.authorization: "Bearer \(secret)"]
            #expect(try await client.execute(uri: "/api/v1/clinics", method: .get, headers: bearer).status == .ok)
            // The scheme's name in any case, the secret with spaces around it.
            for spelling in ["bearer \(secret)", "BEARER \(secret) ", "BeArEr  \(secret)"] {
                #expect(
                    try await client.execute(uri: "/api/v1/clinics", method: .get, headers: [.authorization: spelling])
                        .status == .ok,
                    "\(spelling)"
                )
            }
            for other in ["Bearer_\(secret)", "Basic \(secret)", "Bearer", "Bearer@\(secret)"] {
                #expect(
                    try await client.execute(uri: "/api/v1/clinics", method: .get, headers: [.authorization: other])
                        .status == .unauthorized,
                    "\(other)"
                )
            }
            try await test.store.revokeToken(token.id, account: owner.id)
            let refused = try await client.execute(uri: "/api/v1/clinics", method: .get, headers: bearer)
            #expect(refused.status == .unauthorized)
            #expect(try refused.json()["detail"] as? String != nil)
        }
    }
}

@Suite struct APITests {
    func bearer(_ test: TestApp) async throws -> HTTPFields {
        let owner = try await test.store.createOwner(username: "ana", passwordHash: "x")
        _ = try await test.store.createToken(
            account: owner.id,
            name: "t",
            tokenDigest: WebSecrets.digest("cm_secret"),
            now: Date()
        )
        return [.authorization: "Bearer cm_secret", .contentType: "application/json"]
    }

    @Test("A retried sale with the same idempotency key is recorded once") func retriedSale() async throws {
        let test = try await TestApp()
        var fields = try await bearer(test)
        fields[HTTPField.Name("Idempotency-Key")!] = "phone-1234"
        let headers = fields
        let body =
            #"{"clinic": "Glow", "product": "SER-30", "quantity": 2, "date": "2026-03-02", "unitPrice": "50.00"}"#
        try await test.app.test(.router) { client in
            let first = try await client.execute(
                uri: "/api/v1/sales",
                method: .post,
                headers: headers,
                body: ByteBuffer(string: body)
            )
            let second = try await client.execute(
                uri: "/api/v1/sales",
                method: .post,
                headers: headers,
                body: ByteBuffer(string: body)
            )
            #expect(first.status == .created && second.status == .created)
            #expect(first.text == second.text)
            #expect(try first.json()["commission"] as? String == "24.00")
            #expect(first.headers[.location] == "/api/v1/sales/\(try first.json()["id"] as? Int ?? -1)")
        }
        #expect(try await test.store.countSales(SaleQuery()) == 1)
    }

    static let badRequests: [(name: String, body: String, status: Int, detail: String)] = [
        ("malformed JSON", #"{"clinic": "Glow", "#, 400, "not valid JSON"),
        ("wrong type", #"{"clinic": "Glow", "product": "SER-30", "quantity": "two"}"#, 400, "quantity"),
        (
            "beyond 64 bits", #"{"clinic": "Glow", "product": "SER-30", "quantity": 99999999999999999999}"#, 400,
            #"the field "quantity" is 99999999999999999999: a whole number from -9223372036854775808 to 9223372036854775807"#
        ),
        (
            "a fraction", #"{"clinic": "Glow", "product": "SER-30", "quantity": 1.5}"#, 400,
            #"the field "quantity" is 1.5: a whole number"#
        ),
        (
            "beyond a decimal", #"{"clinic": "Glow", "product": "SER-30", "quantity": 1e200}"#, 400,
            #"the field "quantity" is 1e+200: a whole number"#
        ),
        ("unknown clinic", #"{"clinic": "Nowhere", "product": "SER-30"}"#, 422, "no clinic named \"Nowhere\""),
        ("unknown product", #"{"clinic": "Glow", "product": "Elixir"}"#, 422, "no product named"),
        (
            "too many decimals", #"{"clinic": "Glow", "product": "SER-30", "unitPrice": "12.345"}"#, 422,
            "at most 2 decimal places"
        ),
        ("exponent", #"{"clinic": "Glow", "product": "SER-30", "unitPrice": "1e5"}"#, 422, "is not an amount"),
        ("impossible date", #"{"clinic": "Glow", "product": "SER-30", "date": "2026-02-30"}"#, 422, "2026-02-30"),
        ("quantity zero", #"{"clinic": "Glow", "product": "SER-30", "quantity": 0}"#, 422, "quantity is 0"),
        (
            "no terms", #"{"clinic": "Glow", "product": "SER-30", "date": "2019-12-31"}"#, 422,
            "No commission terms for Glow on 2019-12-31"
        ),
        (
            "overflow", #"{"clinic": "Glow", "product": "SER-30", "quantity": 3, "unitPrice": "92233720368547758.07"}"#,
            422, "more than Commission takes: at most 10000000.00"
        ),
        ("no clinic", #"{"product": "SER-30"}"#, 422, "Name the clinic"),
        (
            "the calendar's last day", #"{"clinic": "Glow", "product": "SER-30", "date": "9999-12-31"}"#, 422,
            "Date: 9999-12-31 is more than a year from today; a book takes dates from 1900-01-01 to"
        ),
        (
            "a year typed wrong", #"{"clinic": "Glow", "product": "SER-30", "date": "2062-03-02"}"#, 422,
            "2062-03-02 is more than a year from today"
        ),
        (
            "before 1900", #"{"clinic": "Glow", "product": "SER-30", "date": "0001-01-01"}"#, 422,
            "0001-01-01 is before 1900-01-01"
        ),
    ]

    /// Query parameters take the dates a book takes too; reopening takes any period, so that one
    /// stored before dates were bounded can still be reopened.
    @Test func queryDatesOutsideTheBooksRangeAre422() async throws {
        let test = try await TestApp()
        let headers = try await bearer(test)
        try await test.app.test(.router) { client in
            for uri in [
                "/api/v1/dashboard?date=0001-01-01", "/api/v1/sales?from=2062-01-01", "/api/v1/sales?to=1899-12-31",
                "/api/v1/clinics/1/statement?date=9999-12-31", "/api/v1/clinics/1/reconciliation?date=0001-01-01",
            ] {
                let response = try await client.execute(uri: uri, method: .get, headers: headers)
                #expect(response.status.code == 422, "\(uri): \(response.text)")
                #expect(
                    (try response.json()["detail"] as? String)?.contains("a book takes dates from 1900-01-01") == true,
                    "\(uri)"
                )
            }
            let close = try await client.execute(
                uri: "/api/v1/clinics/1/close?date=0001-01-01",
                method: .post,
                headers: headers
            )
            #expect(close.status.code == 422, "\(close.text)")
            let reopen = try await client.execute(
                uri: "/api/v1/clinics/1/reopen?date=0001-01-01",
                method: .post,
                headers: headers
            )
            #expect(reopen.status == .ok, "\(reopen.text)")
            #expect(
                try await client.execute(uri: "/api/v1/dashboard?date=1900-01-01", method: .get, headers: headers)
                    .status == .ok
            )
            // A filter given empty, or one end of a period alone, is refused rather than ignored.
            for uri in [
                "/api/v1/payouts?periodStart=", "/api/v1/payouts?periodEnd=2026-03-31",
                "/api/v1/payouts?periodStart=&periodEnd=",
            ] {
                let response = try await client.execute(uri: uri, method: .get, headers: headers)
                #expect(
                    response.status == .badRequest || response.status.code == 422,
                    "\(uri): \(response.status) \(response.text)"
                )
            }
            #expect(
                try await client.execute(
                    uri: "/api/v1/payouts?periodStart=2026-03-01&periodEnd=2026-03-31",
                    method: .get,
                    headers: headers
                ).status == .ok
            )
        }
    }

    @Test(arguments: badRequests)
    func badInputGetsAProblemDetailAndChangesNothing(
        _ bad: (name: String, body: String, status: Int, detail: String)
    ) async throws {
        let test = try await TestApp()
        let headers = try await bearer(test)
        try await test.app.test(.router) { client in
            let response = try await client.execute(
                uri: "/api/v1/sales",
                method: .post,
                headers: headers,
                body: ByteBuffer(string: bad.body)
            )
            #expect(response.status.code == bad.status, "\(bad.name): \(response.text)")
            #expect(response.headers[.contentType] == "application/problem+json")
            let problem = try response.json()
            #expect(problem["status"] as? Int == bad.status)
            #expect((problem["detail"] as? String)?.contains(bad.detail) == true, "\(bad.name): \(problem)")
        }
        #expect(try await test.store.countSales(SaleQuery(includeVoided: true)) == 0)
    }

    @Test func unknownRecordsAre404AndTooLargeBodiesAre413() async throws {
        let test = try await TestApp(maxBodySize: 1024)
        let headers = try await bearer(test)
        try await test.app.test(.router) { client in
            #expect(
                try await client.execute(uri: "/api/v1/sales/999", method: .get, headers: headers).status == .notFound
            )
            let huge = ByteBuffer(string: #"{"note": ""# + String(repeating: "x", count: 4096) + #""}"#)
            let response = try await client.execute(uri: "/api/v1/sales", method: .post, headers: headers, body: huge)
            #expect(response.status == .contentTooLarge)
        }
    }

    @Test func statementAndReconciliationOverTheAPI() async throws {
        let test = try await TestApp()
        let headers = try await bearer(test)
        try await test.app.test(.router) { client in
            _ = try await client.execute(
                uri: "/api/v1/sales",
                method: .post,
                headers: headers,
                body: ByteBuffer(string: #"{"clinicId": 1, "productId": 1, "quantity": 2, "date": "2026-03-02"}"#)
            )
            _ = try await client.execute(
                uri: "/api/v1/payouts",
                method: .post,
                headers: headers,
                body: ByteBuffer(
                    string:
                        #"{"clinic": "Glow", "period": "2026-03-10", "amount": "20.00", "receivedOn": "2026-04-02"}"#
                )
            )
            let statement = try await client.execute(
                uri: "/api/v1/clinics/1/statement?date=2026-03-15",
                method: .get,
                headers: headers
            )
            let totals = try statement.json()["totals"] as? [String: Any]
            #expect(totals?["commission"] as? String == "24.00")
            #expect(try statement.json()["balance"] as? String == "4.00")
            let reconciliation = try await client.execute(
                uri: "/api/v1/clinics/1/reconciliation?date=2026-04-30",
                method: .get,
                headers: headers
            )
            let periods = try reconciliation.json()["periods"] as? [[String: Any]]
            #expect(periods?.first?["status"] as? String == "underpaid")
        }
    }
}

@Suite struct PageTests {
    /// The endless event streams: the dashboard's (page and API) and the book's changes.
    static let streams: Set<String> = ["/api/v1/events", "/events", "/api/v1/changes"]
    /// Reads that need their query (a range, `from` and `to`; the Export form's choice): a 400 without it.
    static let ranged: Set<String> = ["/api/v1/sales/days", "/api/v1/months", "/export"]

    @Test func everyPageRendersForASignedInOwner() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (session, _) = try await signUp(client)
            for route in test.routes.routes
            where route.method == .get && !route.isPublic && !route.path.contains(":")
                && !Self.streams.union(Self.ranged).contains(route.path)
            {
                let response = try await client.execute(
                    uri: route.path,
                    method: .get,
                    headers: [.cookie: "commission_session=\(session)"]
                )
                #expect(response.status == .ok, "\(route): \(response.status)")
            }
        }
    }

    @Test("Settings: the currency from a list with its name, each field's help under it rather than in its label")
    func settingsOfferTheCurrencyAsAList() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (session, _) = try await signUp(client)
            let page = try await client.execute(
                uri: "/settings",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            #expect(
                page.contains(#"<option value="USD" selected>USD · US Dollar</option>"#)
                    && page.contains(#"<option value="EUR">EUR · Euro</option>"#),
                "\(page)"
            )
            #expect(
                page.contains(#"<label for="currency">Currency</label>"#)
                    && page.contains(#"<p class="hint" id="currency-hint">"#)
            )
            // No label carries its help inside it.
            #expect(page.firstMatch(of: /<label[^>]*>[^<]*<span class="muted/) == nil, "\(page)")
        }
    }

    @Test("A return is said as one in the sales list and on a statement, its commission with a real minus")
    func aReturnIsSaidAsOne() async throws {
        let test = try await TestApp()
        let today = try await test.store.settings().today()
        _ = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: today, quantity: 2),
            idempotencyKey: nil
        )
        _ = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: today, quantity: -1),
            idempotencyKey: nil
        )
        try await test.app.test(.router) { client in
            let (session, _) = try await signUp(client)
            let cookie: HTTPFields = [.cookie: "commission_session=\(session)"]
            let sales = try await client.execute(uri: "/sales", method: .get, headers: cookie).text
            #expect(sales.contains("Return: 1 × \(test.serum.name)") && !sales.contains("-1 × "), "\(sales)")
            let statement = try await client.execute(
                uri: "/statements?clinic=\(test.glow.id)",
                method: .get,
                headers: cookie
            ).text
            #expect(
                statement.contains("<td>Return: 1 × \(test.serum.name)</td>") && statement.contains("\u{2212}$"),
                "\(statement)"
            )
        }
    }

    @Test("Quick entry prefills the last clinic and the most sold product") func quickEntryPrefills() async throws {
        let test = try await TestApp()
        let harbor = try await test.store.createClinic(ClinicDraft(name: "Harbor", schedule: .semimonthly))
        _ = try await test.store.createTerms(
            TermsDraft(
                clinicID: harbor.id,
                share: try Share(parsing: "50"),
                effectiveFrom: try Day(parsing: "2020-01-01")
            )
        )
        let cream = try await test.store.createProduct(
            ProductDraft(name: "Cream", unitPrice: Money(minorUnits: 3000), unitCost: .zero)
        )
        for _ in 0..<3 {
            _ = try await test.store.createSale(
                SaleDraft(clinicID: test.glow.id, productID: cream.id, date: try Day(parsing: "2026-03-01")),
                idempotencyKey: nil
            )
        }
        _ = try await test.store.createSale(
            SaleDraft(clinicID: harbor.id, productID: test.serum.id, date: try Day(parsing: "2026-03-02")),
            idempotencyKey: nil
        )
        try await test.app.test(.router) { client in
            let (session, _) = try await signUp(client)
            let html = try await client.execute(
                uri: "/",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            #expect(html.contains("<option value=\"\(harbor.id)\" selected>Harbor</option>"))
            #expect(
                html.contains(
                    "value=\"\(cream.id)\" data-price=\"30.00\" data-prices=\"{&quot;own&quot;:[&quot;30.00&quot;,&quot;$30.00&quot;]}\" checked"
                )
            )
            #expect(html.contains("inputmode=\"decimal\""))
            #expect(html.contains("value=\"30.00\""))  // the price field, prefilled as typed: 30.00, never 3000
        }
    }
}

@Suite struct TermsPageTests {
    @Test func backdatedTermsSayHowManySalesTheyRecomputed() async throws {
        let test = try await TestApp()
        _ = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: try Day(parsing: "2026-03-02")),
            idempotencyKey: nil
        )
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(session)"
            let response = try await client.execute(
                uri: "/terms",
                method: .post,
                headers: headers,
                body: form(
                    [
                        "csrf": csrf, "clinic": "\(test.glow.id)", "product": "", "share": "50", "basis": "profit",
                        "from": "2026-03-01",
                    ])
            )
            #expect(response.status == .seeOther)
            let location = try #require(response.headers[.location])
            let terms = try #require(
                try await test.store.terms(TermsQuery(clinicID: test.glow.id)).first { $0.share.percentText == "50.00" }
            )
            #expect(location == "/book?kind=terms&added=\(terms.id)&recomputed=1&closed=0#terms")
            // Said in the Terms section, where the form was: what was added, and what it changed.
            let page = try await client.execute(
                uri: location,
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            )
            #expect(
                page.text.contains(
                    #"<p class="notice" role="status" id="added">Added Glow&#39;s terms: 50% of profit from 03/01/2026. 1 sale recomputed.</p>"#
                ),
                "\(page.text)"
            )
            // A clinic and a product added say so in their own sections, with the next step.
            let clinic = try await client.execute(
                uri: "/clinics",
                method: .post,
                headers: headers,
                body: form(
                    ["csrf": csrf, "name": "Harbor Skin", "scheduleKind": "weekly", "weekday": "tuesday"])
            )
            let harbor = try await test.store.clinic(named: "Harbor Skin")
            #expect(clinic.headers[.location] == "/book?kind=clinic&added=\(harbor.id)#clinics")
            let clinicPage = try await client.execute(
                uri: clinic.headers[.location] ?? "",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            #expect(
                clinicPage.contains(
                    "Added Harbor Skin, paid weekly, from Tuesday. Next: your split there, under Terms below."
                ),
                "\(clinicPage)"
            )
            let product = try await client.execute(
                uri: "/products",
                method: .post,
                headers: headers,
                body: form(
                    ["csrf": csrf, "name": "Eye Cream", "price": "24.00", "cost": "9.50"])
            )
            let productPage = try await client.execute(
                uri: product.headers[.location] ?? "",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            #expect(productPage.contains("Added Eye Cream at $24.00, your cost $9.50."), "\(productPage)")
        }
        // 1 × 30.00 profit × 50% = 15.00 now.
        #expect(try await test.store.sales(SaleQuery()).map(\.figures.commission) == [Money(minorUnits: 1500)])
    }
}

@Suite struct OpenAPITests {
    @Test func theDocumentAndTheRoutesAgree() async throws {
        let test = try await TestApp()
        let document = try #require(try JSONSerialization.jsonObject(with: try OpenAPI.document()) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var documented = Set<String>()
        for (path, operations) in paths {
            for method in operations.keys { documented.insert("\(method.uppercased()) \(path)") }
        }
        let served = Set(
            test.routes.routes.filter { $0.path.hasPrefix("/api/") }.map {
                "\($0.method) \($0.path.replacing(/:(\w+)/) { "{\($0.1)}" })"
            }
        )
        #expect(
            served.subtracting(documented).isEmpty,
            "served but not documented: \(served.subtracting(documented).sorted())"
        )
        #expect(
            documented.subtracting(served).isEmpty,
            "documented but not served: \(documented.subtracting(served).sorted())"
        )

        // Every $ref points at a schema the document defines.
        let text = String(decoding: try OpenAPI.document(), as: UTF8.self)
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        for match in text.matches(of: /"#\/components\/schemas\/([A-Za-z]+)"/) {
            #expect(schemas[String(match.1)] != nil, "undefined schema \(match.1)")
        }
    }

    @Test func theDocumentIsServed() async throws {
        let test = try await TestApp()
        let owner = try await test.store.createOwner(username: "ana", passwordHash: "x")
        _ = try await test.store.createToken(
            account: owner.id,
            name: "t",
            tokenDigest: WebSecrets.digest("cm_s"),
            now: Date()
        )
        try await test.app.test(.router) { client in
            let response = try await client.execute(
                uri: "/api/v1/openapi.json",
                method: .get,
                headers: [.authorization: "Bearer cm_s"]
            )
            #expect(response.status == .ok)
            #expect(try response.json()["openapi"] as? String == "3.1.0")
        }
    }
}

@Suite struct BankStatementPageTests {
    @Test func depositsAreMatchedShownAndRecordedOnlyWhenTicked() async throws {
        let test = try await TestApp()
        // Glow owes $24.00 for September and $12.00 for October.
        for (date, quantity) in [("2026-09-10", 2), ("2026-10-03", 1)] {
            _ = try await test.store.createSale(
                SaleDraft(
                    clinicID: test.glow.id,
                    productID: test.serum.id,
                    date: try Day(parsing: date),
                    quantity: Int64(quantity)
                ),
                idempotencyKey: nil
            )
        }
        let statement =
            "Date;Description;Amount\n05.11.2026;GLOW SPA SEPT+OCT;36,00\n06.11.2026;Refund;5,00\n07.11.2026;Rent;-400,00\n"
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(session)"
            let checked = try await client.execute(
                uri: "/payouts/bank",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "bank": statement, "action": "check"])
            )
            let page = checked.text
            #expect(checked.status == .ok, "\(page)")
            #expect(
                page.contains("2 deposits; 1 row of money out passed over; dates read as day/month/year"),
                "\(page)"
            )
            // The deposit that pays two periods, ticked; the one that fits nothing, without a box.
            #expect(page.contains("<td class=\"wide\" data-label=\"Pays\">Glow: "), "\(page)")
            #expect(page.contains("the unpaid balances of"), "\(page)")
            let key = try #require(page.firstMatch(of: /name="accept2" value="([^"]+)"[^>]*checked/)?.1)
            // The one nothing fits: not ticked, and hers to say what it pays.
            #expect(page.contains("Nothing fits") && page.contains("name=\"assign3\""))
            #expect(page.firstMatch(of: /name="accept3" value="[^"]+"[^>]*checked/) == nil)
            #expect(try await test.store.payouts(PayoutQuery()).isEmpty)

            // A box for a proposal the book no longer makes: refused, nothing recorded.
            let stale = try await client.execute(
                uri: "/payouts/bank",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "bank": statement, "action": "record", "accept2": "2:1:2026-09-01+100"])
            )
            #expect(
                stale.status == .conflict && stale.text.contains("The book changed since the deposits were matched"),
                "\(stale.text)"
            )
            #expect(try await test.store.payouts(PayoutQuery()).isEmpty)

            let recorded = try await client.execute(
                uri: "/payouts/bank",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "bank": statement, "action": "record", "accept2": String(key)])
            )
            #expect(
                recorded.status == .ok
                    && recorded.text.contains(
                        "Recorded 2 payouts from 1 deposit of the bank statement: $36.00 from Glow."
                    ),
                "\(recorded.text)"
            )
            // Matched again: recognised.
            let again = try await client.execute(
                uri: "/payouts/bank",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "bank": statement, "action": "check"])
            )
            #expect(
                again.text.contains("Recorded already") && !again.text.contains("name=\"accept2\""),
                "\(again.text)"
            )
        }
        let payouts = try await test.store.payouts(PayoutQuery())
        #expect(payouts.map(\.amount) == [Money(minorUnits: 2400), Money(minorUnits: 1200)])
        #expect(payouts.map(\.receivedOn.description) == ["2026-11-05", "2026-11-05"])
    }

    /// A deposit no clinic's name or balance fits is hers to assign by hand: ticked with a clinic
    /// and period chosen, it is recorded for them; ticked without, it is refused and nothing is.
    @Test func aDepositNothingFitsIsAssignedByHand() async throws {
        let test = try await TestApp()
        _ = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: try Day(parsing: "2026-10-03")),
            idempotencyKey: nil
        )
        let statement = "Date;Description;Amount\n06.11.2026;SEPA 88172;5,00\n"
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(session)"
            let checked = try await client.execute(
                uri: "/payouts/bank",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "bank": statement, "action": "check"])
            ).text
            let key = try #require(checked.firstMatch(of: /name="accept2" value="([^"]+)"/)?.1)
            #expect(
                checked.contains("<option value=\"\(test.glow.id)/2026-10-01\">Glow · Oct 2026 · owes $12.00</option>"),
                "\(checked)"
            )
            let unsaid = try await client.execute(
                uri: "/payouts/bank",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "bank": statement, "action": "record", "accept2": String(key)])
            )
            #expect(unsaid.status.code == 422 && unsaid.text.contains("Choose what the deposit of"), "\(unsaid.text)")
            #expect(try await test.store.payouts(PayoutQuery()).isEmpty)
            let assigned = try await client.execute(
                uri: "/payouts/bank",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "bank": statement, "action": "record", "accept2": String(key),
                    "assign2": "\(test.glow.id)/2026-10-01",
                ])
            )
            #expect(assigned.text.contains("Recorded 1 payout from 1 deposit"), "\(assigned.text)")
        }
        let payouts = try await test.store.payouts(PayoutQuery())
        #expect(
            payouts.map(\.amount) == [Money(minorUnits: 500)] && payouts.first?.period.start.description == "2026-10-01"
        )
        #expect(payouts.first?.reference == "Bank: SEPA 88172")
    }

    /// Her bank's CAMT.053 on the bank form: read as its content says, its deposits first on the
    /// page (the statement's form folded under them), recorded with the bank's id of each, and known
    /// as recorded when the same file comes again.
    @Test func herBanksOwnFileOnThePayoutsPage() async throws {
        let test = try await TestApp()
        _ = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: try Day(parsing: "2026-10-03")),
            idempotencyKey: nil
        )
        let statement = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>
            <Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>USD</Ccy></Acct>
            <Ntry><Amt Ccy="USD">12.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>
            <BookgDt><Dt>2026-11-06</Dt></BookgDt><AcctSvcrRef>K-881</AcctSvcrRef>
            <NtryDtls><TxDtls><RltdPties><Dbtr><Nm>GLOW AESTHETICS</Nm></Dbtr></RltdPties>
            <RmtInf><Ustrd>Provision Oktober</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
            <Ntry><Amt Ccy="USD">40.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts>
            <BookgDt><Dt>2026-11-07</Dt></BookgDt></Ntry>
            </Stmt></BkToCstmrStmt></Document>
            """
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(session)"
            let checked = try await client.execute(
                uri: "/payouts/bank",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "bank": statement, "action": "check"])
            ).text
            #expect(
                checked.contains("1 deposit; 1 row of money out passed over; read as CAMT.053 (camt.053.001.02)."),
                "\(checked)"
            )
            // The answer first: the deposits before the reconciliations, the statement's form folded under them.
            let deposits = try #require(checked.range(of: #"id="deposits""#)),
                reconciliations = try #require(checked.range(of: #"class="reconciliations""#)),
                input = try #require(checked.range(of: #"<details class="options" id="bank-input">"#))
            #expect(deposits.lowerBound < reconciliations.lowerBound && deposits.lowerBound < input.lowerBound)
            let key = try #require(checked.firstMatch(of: /name="accept4" value="([^"]+)"/)?.1)
            let recorded = try await client.execute(
                uri: "/payouts/bank",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "bank": statement, "action": "record", "accept4": String(key)])
            )
            #expect(recorded.text.contains("Recorded 1 payout from 1 deposit"), "\(recorded.text)")
            let again = try await client.execute(
                uri: "/payouts/bank",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "bank": statement, "action": "check"])
            ).text
            // In the page's dates, as the rest of the page writes them.
            #expect(again.contains("already recorded on 11/06/2026 (AcctSvcrRef K-881)"), "\(again)")
            #expect(!again.contains(#"name="accept4""#), "\(again)")
            // A notice of single payments is not a statement: said, in her words, nothing recorded.
            let notice = try await client.execute(
                uri: "/payouts/bank",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "bank": statement.replacingOccurrences(of: "camt.053", with: "camt.054"),
                    "action": "check",
                ])
            )
            #expect(
                notice.status.code == 422
                    && notice.text.contains("The statement is a camt.054 file (a notice of single payments)"),
                "\(notice.text)"
            )
        }
        let payouts = try await test.store.payouts(PayoutQuery())
        #expect(payouts.map(\.reference) == ["Bank: GLOW AESTHETICS Provision Oktober [AcctSvcrRef K-881]"])
    }

    /// A statement whose headers are not known is read with a saved mapping she picks, on the bank
    /// form and on the Compare page alike.
    @Test("A saved mapping is picked on the bank form and the Compare page") func savedMappingPicked() async throws {
        let test = try await TestApp()
        _ = try await test.store.createSale(
            SaleDraft(
                clinicID: test.glow.id,
                productID: test.serum.id,
                date: try Day(parsing: "2026-09-10"),
                quantity: 2
            ),
            idempotencyKey: nil
        )
        try await test.store.saveMapping(
            ImportMapping(
                name: "Sparkasse",
                headers: ["Tag", "Text", "Zugang"],
                fields: ["Zugang": "amount", "Tag": "date"]
            )
        )
        try await test.store.saveMapping(
            ImportMapping(
                name: "Glow statements",
                headers: ["Tag", "Item", "Qty", "Cut"],
                fields: ["Cut": "commission", "Tag": "date"]
            )
        )
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(session)"
            // Other headers than the mapping's: it is not used by itself, and is offered to pick.
            let statement = "Tag,Text,Zugang,Saldo\n2026-11-05,GLOW SPA,24.00,100.00\n"
            let unknown = try await client.execute(
                uri: "/payouts/bank",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "bank": statement, "action": "check"])
            )
            #expect(
                unknown.status.code == 422
                    && unknown.text.contains(#"<option value="Sparkasse">the mapping “Sparkasse”</option>"#),
                "\(unknown.text)"
            )
            let picked = try await client.execute(
                uri: "/payouts/bank",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "bank": statement, "mapping": "Sparkasse", "action": "check"])
            )
            #expect(
                picked.status == .ok && picked.text.contains("1 deposit")
                    && picked.text.contains("columns as mapped in “Sparkasse”"),
                "\(picked.text)"
            )
            let theirs = "Tag,Item,Qty,Cut,Note\n2026-09-10,Serum 30ml,2,24.00,x\n"
            let compared = try await client.execute(
                uri: "/compare",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "clinic": "\(test.glow.id)", "date": "2026-09-10", "statement": theirs,
                    "mapping": "Glow statements", "action": "compare",
                ])
            )
            #expect(compared.status == .ok && compared.text.contains("Every line agrees"), "\(compared.text)")

            // A statement no saved mapping reads: its columns beside the fields, and her choices kept under a name and used.
            let other = "Wann,Wer,Eingang\n2026-11-05,GLOW SPA,24.00\n"
            let shown = try await client.execute(
                uri: "/payouts/bank",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "bank": other, "action": "check"])
            )
            #expect(
                shown.status.code == 422 && shown.text.contains(#"id="column-mapping""#)
                    && shown.text.contains("<td>Wann</td><td>2026-11-05</td>")
                    && shown.text.contains("Keep the mapping and match the deposits"),
                "\(shown.text)"
            )
            let kept = try await client.execute(
                uri: "/payouts/bank",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "bank": other, "action": "map", "map0": "date", "map1": "description",
                    "map2": "amount", "mappingName": "Volksbank",
                ])
            )
            #expect(
                kept.status == .ok && kept.text.contains("1 deposit")
                    && kept.text.contains("columns as mapped in “Volksbank”"),
                "\(kept.text)"
            )
            #expect(
                try await test.store.mapping(named: "volksbank").fields == [
                    "Wann": "date", "Wer": "description", "Eingang": "amount",
                ]
            )
            let lines = "When,What,How many,Ours\n2026-09-10,Serum 30ml,2,24.00\n"
            let asked = try await client.execute(
                uri: "/compare",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "clinic": "\(test.glow.id)", "date": "2026-09-10", "statement": lines,
                    "action": "compare",
                ])
            )
            #expect(
                asked.status.code == 422 && asked.text.contains(#"id="column-mapping""#)
                    && asked.text.contains("Keep the mapping and compare"),
                "\(asked.text)"
            )
            let mapped = try await client.execute(
                uri: "/compare",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "clinic": "\(test.glow.id)", "date": "2026-09-10", "statement": lines,
                    "action": "map",
                    "map0": "date", "map1": "product", "map2": "quantity", "map3": "commission",
                    "mappingName": "Glow's own",
                ])
            )
            #expect(mapped.status == .ok && mapped.text.contains("Every line agrees"), "\(mapped.text)")
        }
    }
}

/// An operator's probes: alive while the process runs, ready while the database answers; a
/// database away is a 503 with `Retry-After`, never a 500.
@Suite struct HealthTests {
    /// A team server's directory whose database does not answer.
    struct AwayDirectory: BookDirectory {
        static let away = StoreError.storage("the database does not answer")
        func defaultBook() async throws -> Int64 { throw Self.away }
        func setupIsOpen(book: Int64) async throws -> Bool { throw Self.away }
        func book(sessionDigest: String, now: Date) async throws -> Int64? { throw Self.away }
        func book(tokenDigest: String) async throws -> Int64? { throw Self.away }
        func book(username: String) async throws -> Int64? { throw Self.away }
        func book(invitationDigest: String, now: Date) async throws -> Int64? { throw Self.away }
        func book(calendarDigest: String) async throws -> Int64? { throw Self.away }
        func store(book: Int64) async throws -> any ServerBookStore { throw Self.away }
    }

    @Test("Alive while the process runs, and ready while the database answers") func aliveAndReady() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            for (path, body) in [
                ("/health", "ok\n"), ("/health/live", "ok\n"),
                ("/health/ready", "ready\nrelease: \(CommissionRelease.version)\n"),
            ] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok && response.text == body, "\(path)")
                // Every answer says the server's release, pages and the API alike.
                #expect(response.headers[.commissionRelease] == ServedRelease.stamp, "\(path)")
            }
        }
        let away = buildApplication(configuration: WebConfiguration(bcryptCost: 4), books: AwayDirectory())
        try await away.test(.router) { client in
            #expect(try await client.execute(uri: "/health/live", method: .get).status == .ok)
            let ready = try await client.execute(uri: "/health/ready", method: .get)
            #expect(ready.status == .serviceUnavailable && ready.headers[.retryAfter] == "5", "\(ready.status)")
            // What a caller gets meanwhile: a 503 that says when to try again, on the API and on a page.
            let api = try await client.execute(
                uri: "/api/v1/dashboard",
                method: .get,
                headers: [.authorization: "Bearer cm_x"]
            )
            #expect(api.status == .serviceUnavailable && api.headers[.retryAfter] == "5", "\(api.status) \(api.text)")
            #expect(api.headers[.contentType] == "application/problem+json")
            let page = try await client.execute(uri: "/dashboard", method: .get)
            #expect(page.status == .serviceUnavailable && page.headers[.retryAfter] == "5", "\(page.status)")
        }
    }
}

/// The server's log as JSON for a collector: a line an object, the request's id on every line
/// written while answering it.
@Suite struct JSONLogTests {
    @Test func everyLineOfARequestCarriesItsId() async throws {
        let lines = Mutex<[String]>([])
        let logger = Logger(label: "commission") { label in
            JSONLogHandler(label: label) { line in lines.withLock { $0.append(line) } }
        }
        let store = try SQLiteStore(.inMemory, defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"))
        let app = Application(
            router: buildRouter(configuration: WebConfiguration(bcryptCost: 4), store: store),
            logger: logger
        )
        try await app.test(.live) { client in
            _ = try await client.execute(uri: "/health", method: .get)
            _ = try await client.execute(
                uri: "/api/v1/dashboard",
                method: .get,
                headers: [.authorization: "Bearer cm_nobody"]
            )
        }
        let objects = try lines.withLock { $0 }.map { line -> [String: String] in
            #expect(line.hasSuffix("}\n") && !line.dropLast().contains("\n"), "one object a line: \(line)")
            return try JSONDecoder().decode([String: String].self, from: Data(line.utf8))
        }
        let requests = objects.filter { $0["message"]?.hasPrefix("GET /") == true }
        #expect(
            requests.map { $0["message"]?.split(separator: " ").prefix(3).joined(separator: " ") } == [
                "GET /health 200", "GET /api/v1/dashboard 401",
            ],
            "\(objects)"
        )
        #expect(
            requests.allSatisfy {
                $0["level"] == "info" && $0["label"] == "commission" && $0["time"]?.hasSuffix("Z") == true
            }
        )
        let ids = requests.compactMap { $0["request"] }
        #expect(ids.count == 2 && Set(ids).count == 2, "each request its own id: \(requests)")
    }
}

/// The server's log as text (the default): `StreamLogHandler`'s lines exactly, though the logger's
/// metadata is formatted only when a line is written.
@Suite struct TextLogTests {
    final class Lines: TextOutputStream, Sendable {
        let lines = Mutex<[String]>([])
        func write(_ string: String) { lines.withLock { $0.append(string) } }
    }

    @Test func itsLinesAreStreamLogHandlersLines() throws {
        struct Failure: Error, CustomStringConvertible { var description: String { "the disk is full" } }
        let (ours, theirs) = (Lines(), Lines())
        // A provider's metadata comes between the logger's and the line's own.
        let provider = Logger.MetadataProvider { ["book": "provided", "trace": "t1"] }
        var loggers = [
            Logger(label: "commission") { TextLogHandler(label: $0, stream: ours, metadataProvider: provider) },
            Logger(label: "commission") { StreamLogHandler(label: $0, stream: theirs, metadataProvider: provider) },
        ]
        for index in loggers.indices {
            loggers[index].logLevel = .info
            loggers[index].info("no metadata yet")
            loggers[index][metadataKey: "hb.request.id"] = "7f3a"
            loggers[index][metadataKey: "book"] = "main"
            loggers[index].debug("below the level: not written")
            loggers[index].info("with the logger's metadata")
            loggers[index].warning("the line's own wins", metadata: ["book": "east", "attempt": "2"])
            loggers[index].error("with an error", error: Failure())
            loggers[index][metadataKey: "book"] = nil
            loggers[index].info("a key taken away")
        }
        // The time to the second may tick between the two: compare what follows it.
        func withoutTime(_ lines: Lines) -> [String] {
            lines.lines.withLock { $0 }.map { String($0.drop { $0 != " " }) }
        }
        #expect(withoutTime(ours).count == 5)
        #expect(withoutTime(ours) == withoutTime(theirs))
        #expect(
            withoutTime(ours)[1].hasPrefix(" info commission: book=provided hb.request.id=7f3a trace=t1 ["),
            "\(withoutTime(ours))"
        )
        #expect(
            withoutTime(ours)[2].hasPrefix(" warning commission: attempt=2 book=east hb.request.id=7f3a trace=t1 ["),
            "\(withoutTime(ours))"
        )
    }
}

/// `/metrics` for Prometheus: only to the operator's token, counting what the server did.
@Suite struct MetricsTests {
    @Test func theOperatorsTokenReadsWhatTheServerCounted() async throws {
        let metrics = ServerMetrics(token: "operator-secret-0123456789")
        let store = try SQLiteStore(.inMemory, defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"))
        let glow = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        let serum = try await store.createProduct(
            ProductDraft(name: "Serum", unitPrice: Money(minorUnits: 5000), unitCost: Money(minorUnits: 2000))
        )
        _ = try await store.createTerms(
            TermsDraft(
                clinicID: glow.id,
                share: try Share(parsing: "40"),
                effectiveFrom: try Day(parsing: "2020-01-01")
            )
        )
        let owner = try await store.createOwner(username: "ana", passwordHash: "x")
        _ = try await store.createToken(
            account: owner.id,
            name: "t",
            tokenDigest: WebSecrets.digest("cm_secret"),
            now: Date()
        )
        var configuration = WebConfiguration(bcryptCost: 4)
        configuration.metrics = metrics
        let app = Application(router: buildRouter(configuration: configuration, store: store))
        try await app.test(.router) { client in
            // Refused without the token, or with another (the book's API token is not the operator's).
            for headers: HTTPFields in [
                [:], [.authorization: "Bearer cm_secret"], [.authorization: "Bearer operator-secret-0123456788"],
            ] {
                let refused = try await client.execute(uri: "/metrics", method: .get, headers: headers)
                #expect(refused.status == .unauthorized && !refused.text.contains("commission_"), "\(headers)")
            }
            let body =
                #"{"clinicId": \#(glow.id.rawValue), "productId": \#(serum.id.rawValue), "date": "2026-03-02", "quantity": 2}"#
            for key in ["k1", "k2"] {
                let created = try await client.execute(
                    uri: "/api/v1/sales",
                    method: .post,
                    headers: [
                        .authorization: "Bearer cm_secret", .contentType: "application/json",
                        HTTPField.Name("Idempotency-Key")!: key,
                    ],
                    body: ByteBuffer(string: body)
                )
                #expect(created.status == .created, "\(created.text)")
            }
            _ = try await client.execute(
                uri: "/api/v1/clinics/999",
                method: .get,
                headers: [.authorization: "Bearer cm_secret"]
            )
            let scraped = try await client.execute(
                uri: "/metrics",
                method: .get,
                headers: [.authorization: "Bearer operator-secret-0123456789"]
            )
            #expect(
                scraped.status == .ok && scraped.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true
            )
            let text = scraped.text
            #expect(text.contains("commission_sales_recorded_total 2"), "\(text)")
            #expect(
                text.contains(#"commission_http_requests_total{route="/api/v1/sales",method="POST",status="201"} 2"#),
                "\(text)"
            )
            #expect(
                text.contains(
                    #"commission_http_requests_total{route="/api/v1/clinics/{id}",method="GET",status="404"} 1"#
                ),
                "\(text)"
            )
            #expect(
                text.contains(
                    #"commission_http_request_duration_seconds_count{route="/api/v1/sales",method="POST"} 2"#
                ),
                "\(text)"
            )
            // The requests' time in the database, reads and writes apart: the two sales were two writes at least.
            for operation in ["read", "write"] {
                let count =
                    text.firstMatch(
                        of: try Regex(#"commission_database_duration_seconds_count\{operation="\#(operation)"\} (\d+)"#)
                    )
                    .flatMap { Int($0.output[1].substring ?? "") } ?? 0
                #expect(count >= 2, "\(operation): \(text)")
            }
            #expect(
                text.contains("# HELP commission_event_streams") && text.contains("commission_event_streams 0"),
                "\(text)"
            )
            #expect(
                text.contains(#"commission_http_requests_total{route="/metrics",method="GET",status="401"} 3"#),
                "\(text)"
            )  // refusals counted too
        }
        // A server that keeps no metrics has no /metrics.
        let plain = try await TestApp()
        try await plain.app.test(.router) { client in
            let response = try await client.execute(
                uri: "/metrics",
                method: .get,
                headers: [.authorization: "Bearer x"]
            )
            #expect(response.status == .notFound)
        }
    }
}

/// The server's settings: a flag, else an environment variable, else the configuration file, else the default.
@Suite struct ServerSettingsTests {
    @Test func flagsThenEnvironmentThenFileThenDefaults() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("commission-\(UUID().uuidString).json")
            .path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try
            #"{"host": "0.0.0.0", "port": 8443, "secureCookies": true, "logFormat": "json", "backupEvery": "24h", "backupKeep": 7, "metricsToken": "from-the-file-0123", "booksKept": 500}"#
            .write(toFile: file, atomically: true, encoding: .utf8)

        // Nothing given: the defaults.
        let none = try await ServerSettings.resolve(ServerSettings.Flags(), environment: [:])
        #expect(none == ServerSettings())
        #expect(
            none.host == "127.0.0.1" && none.port == 8080 && !none.secureCookies && none.logFormat == .text
                && none.backupKeep == 14
        )
        #expect(none.booksKept == 100 && none.releaseBooksAfter == "10m")

        // The file alone.
        let fromFile = try await ServerSettings.resolve(ServerSettings.Flags(), environment: [:], file: file)
        #expect(
            fromFile.host == "0.0.0.0" && fromFile.port == 8443 && fromFile.secureCookies && fromFile.logFormat == .json
        )
        #expect(
            fromFile.backupEvery == "24h" && fromFile.backupKeep == 7 && fromFile.metricsToken == "from-the-file-0123"
        )
        #expect(fromFile.booksKept == 500)

        // The environment over the file (the file named by COMMISSION_CONFIG), a flag over both.
        let environment = [
            "COMMISSION_CONFIG": file, "COMMISSION_PORT": "9000", "COMMISSION_SECURE_COOKIES": "false",
            "COMMISSION_DATABASE_URL": "postgres://db/commission", "COMMISSION_HOST": "",
            "COMMISSION_RELEASE_BOOKS_AFTER": "1h",
        ]
        let fromEnvironment = try await ServerSettings.resolve(ServerSettings.Flags(), environment: environment)
        #expect(
            fromEnvironment.port == 9000 && !fromEnvironment.secureCookies
                && fromEnvironment.databaseUrl == "postgres://db/commission"
        )
        #expect(fromEnvironment.host == "0.0.0.0")  // an empty variable is none: the file's
        #expect(fromEnvironment.releaseBooksAfter == "1h" && fromEnvironment.booksKept == 500)
        var flags = ServerSettings.Flags()
        flags.port = 7000
        flags.secureCookies = true
        flags.logFormat = "text"
        let fromFlags = try await ServerSettings.resolve(flags, environment: environment)
        #expect(
            try await ServerSettings.resolve(ServerSettings.Flags(), environment: ["COMMISSION_MAX_BODY_SIZE": "16M"])
                .maxBodySize == 16 << 20
        )
        #expect(try await ServerSettings.resolve(ServerSettings.Flags(), environment: [:]).maxBodySize == 8 << 20)
        await #expect(throws: SettingsError.self) {
            _ = try await ServerSettings.resolve(
                ServerSettings.Flags(),
                environment: ["COMMISSION_MAX_BODY_SIZE": "lots"]
            )
        }
        await #expect(throws: SettingsError.self) {
            _ = try await ServerSettings.resolve(
                ServerSettings.Flags(),
                environment: ["COMMISSION_MAX_BODY_SIZE": "4G"]
            )
        }
        #expect(
            fromFlags.port == 7000 && fromFlags.secureCookies && fromFlags.logFormat == .text
                && fromFlags.backupKeep == 7
        )

        // What cannot be taken is said, naming the setting or the file.
        await #expect(
            throws: SettingsError.invalid(
                "port",
                "Config value for key 'COMMISSION_PORT' failed to convert to type int"
            )
        ) {
            _ = try await ServerSettings.resolve(ServerSettings.Flags(), environment: ["COMMISSION_PORT": "eighty"])
        }
        await #expect(throws: SettingsError.invalid("logFormat", "\"xml\" is text or json")) {
            _ = try await ServerSettings.resolve(ServerSettings.Flags(), environment: ["COMMISSION_LOG_FORMAT": "xml"])
        }
        // The log level: info by default, from any of the three places, named in any case; one that is none is refused, naming them.
        #expect(none.logLevel == .info)
        #expect(
            try await ServerSettings.resolve(ServerSettings.Flags(), environment: ["COMMISSION_LOG_LEVEL": "Warning"])
                .logLevel == .warning
        )
        var quiet = ServerSettings.Flags()
        quiet.logLevel = "notice"
        #expect(
            try await ServerSettings.resolve(quiet, environment: ["COMMISSION_LOG_LEVEL": "error"]).logLevel == .notice
        )
        await #expect(
            throws: SettingsError.invalid(
                "logLevel",
                "\"loud\" is one of trace, debug, info, notice, warning, error, critical"
            )
        ) {
            _ = try await ServerSettings.resolve(ServerSettings.Flags(), environment: ["COMMISSION_LOG_LEVEL": "loud"])
        }
        await #expect(throws: SettingsError.self) {
            _ = try await ServerSettings.resolve(ServerSettings.Flags(), environment: [:], file: file + ".missing")
        }
        try "port = 8443".write(toFile: file, atomically: true, encoding: .utf8)
        await #expect(throws: SettingsError.self) {
            _ = try await ServerSettings.resolve(ServerSettings.Flags(), environment: [:], file: file)
        }

        // The public address: an http(s) URL with a host, kept without its trailing slash.
        let address = try await ServerSettings.resolve(
            ServerSettings.Flags(),
            environment: ["COMMISSION_PUBLIC_URL": "https://commission.example.com/"]
        )
        #expect(address.publicUrl.flatMap(PublicAddress.init)?.text == "https://commission.example.com")
        #expect(PublicAddress("http://10.0.0.5:8080")?.text == "http://10.0.0.5:8080")
        for refused in [
            "commission.example.com", "ftp://example.com", "https://example.com/commission", "https://u:p@example.com",
            "https://example.com/?a=1",
        ] {
            await #expect(throws: SettingsError.self, "\(refused)") {
                _ = try await ServerSettings.resolve(
                    ServerSettings.Flags(),
                    environment: ["COMMISSION_PUBLIC_URL": refused]
                )
            }
        }
    }
}

@Suite struct ComparePageTests {
    @Test("The clinic's statement is set beside her book, and nothing changes until she adds a line")
    func compareWithTheirStatement() async throws {
        let test = try await TestApp()
        for (date, quantity) in [("2026-10-05", 2), ("2026-10-12", 1)] {
            _ = try await test.store.createSale(
                SaleDraft(
                    clinicID: test.glow.id,
                    productID: test.serum.id,
                    date: try Day(parsing: date),
                    quantity: Int64(quantity)
                ),
                idempotencyKey: nil
            )
        }
        // Glow's October: the 10/5 serums under Glow's own name; 10/12 missing; a serum on 10/20 she does not have.
        let theirs =
            "Date,Item,Qty,Price,Commission\n2026-10-05,SERUM RETAIL,2,50.00,24.00\n2026-10-20,Serum 30ml,1,50.00,12.00\n"
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(session)"
            let statement = try await client.execute(
                uri: "/statements?clinic=\(test.glow.id)&date=2026-10-01",
                method: .get,
                headers: headers
            )
            #expect(
                statement.text.contains(
                    "href=\"/compare?clinic=\(test.glow.id)&amp;date=2026-10-01\" id=\"compare-link\""
                ),
                "\(statement.text)"
            )
            // The periods either side, named; none after the one running today.
            #expect(
                statement.text.contains(">‹ Sep 2026</a>") && statement.text.contains(">Nov 2026 ›</a>"),
                "\(statement.text)"
            )
            let running = try await client.execute(
                uri: "/statements?clinic=\(test.glow.id)",
                method: .get,
                headers: headers
            ).text
            #expect(
                running.contains("aria-label=\"The previous period")
                    && !running.contains("aria-label=\"The next period"),
                "\(running)"
            )
            // Compare names its periods in a list (each clinic's, the running one first): the statement's link picks its period.
            let picker = try await client.execute(
                uri: "/compare?clinic=\(test.glow.id)&date=2026-10-01",
                method: .get,
                headers: headers
            ).text
            #expect(
                picker.contains(#"<option value="\#(test.glow.id)/2026-10-01" selected>Glow · Oct 2026</option>"#)
                    && picker.contains(" (running)</option>") && !picker.contains(#"type="date""#),
                "\(picker)"
            )
            // An archived clinic's statement leads to its own period, its clinic said archived.
            let harbor = try await test.store.createClinic(ClinicDraft(name: "Harbor", schedule: .monthly))
            var archived = harbor
            archived.isArchived = true
            _ = try await test.store.updateClinic(archived)
            let harborPicker = try await client.execute(
                uri: "/compare?clinic=\(harbor.id)&date=2026-10-01",
                method: .get,
                headers: headers
            ).text
            #expect(
                harborPicker.contains(
                    #"<option value="\#(harbor.id)/2026-10-01" selected>Harbor (archived) · Oct 2026</option>"#
                )
                    && !harborPicker.contains(#"/2026-10-01" selected>Glow"#),
                "\(harborPicker)"
            )
            // The picker's choice is a clinic and a day of its period.
            let picked = try await client.execute(
                uri: "/compare",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "period": "\(test.glow.id)/2026-10-01", "statement": theirs, "action": "compare",
                ])
            )
            #expect(picked.text.contains("Glow · 10/01/2026 – 10/31/2026"), "\(picked.text)")
            let fields = ["csrf": csrf, "clinic": "\(test.glow.id)", "date": "2026-10-01", "statement": theirs]
            let first = try await client.execute(
                uri: "/compare",
                method: .post,
                headers: headers,
                body: form(fields.merging(["action": "compare"]) { $1 })
            )
            #expect(first.status == .ok, "\(first.text)")
            #expect(first.text.contains("<label for=\"alias0\">“SERUM RETAIL” is</label>"), "\(first.text)")
            #expect(first.text.contains("their product “SERUM RETAIL” is not one of yours"), "\(first.text)")

            // She says which product it is: remembered, and the lines line up.
            let told = try await client.execute(
                uri: "/compare",
                method: .post,
                headers: headers,
                body: form(
                    fields.merging([
                        "action": "compare", "aliasName0": "SERUM RETAIL", "aliasProduct0": "\(test.serum.id)",
                    ]) { $1 }
                )
            )
            #expect(
                !told.text.contains("alias0")
                    && told.text.contains("<dd class=\"amount\" id=\"compare-difference\">$0.00</dd>"),
                "\(told.text)"
            )
            #expect(try await test.store.aliases(clinic: test.glow.id).map(\.name) == ["SERUM RETAIL"])
            #expect(told.text.contains("not on their statement") && told.text.contains("not in your book"))
            // only theirs can be added
            #expect(told.text.contains("name=\"accept2\"") && !told.text.contains("name=\"accept1\""), "\(told.text)")
            #expect(try await test.store.countSales(SaleQuery()) == 2)

            // Disputed: a printable page, and a CSV, addressed to the clinic.
            let dispute = try await client.execute(
                uri: "/compare",
                method: .post,
                headers: headers,
                body: form(fields.merging(["action": "dispute", "dispute1": "1"]) { $1 })
            )
            #expect(
                dispute.text.contains("Statement queries: Glow") && dispute.text.contains("not on your statement"),
                "\(dispute.text)"
            )
            #expect(
                dispute.text.contains("<td class=\"num\" id=\"dispute-total\">\u{2212}$12.00</td>"),
                "\(dispute.text)"
            )
            let csv = try await client.execute(
                uri: "/compare",
                method: .post,
                headers: headers,
                body: form(fields.merging(["action": "dispute-csv", "dispute1": "1"]) { $1 })
            )
            #expect(
                csv.headers[.contentType]?.hasPrefix("text/csv") == true
                    && csv.text.contains(",-12.00,not on your statement\r\n"),
                "\(csv.text)"
            )

            // Their 10/20 line added to her book; the comparison shown again agrees on it.
            let added = try await client.execute(
                uri: "/compare",
                method: .post,
                headers: headers,
                body: form(fields.merging(["action": "accept", "accept2": "1"]) { $1 })
            )
            #expect(added.text.contains("Added 1 sale from their statement to your book."), "\(added.text)")
            #expect(!added.text.contains("not in your book"), "\(added.text)")
            let twice = try await client.execute(
                uri: "/compare",
                method: .post,
                headers: headers,
                body: form(fields.merging(["action": "accept", "accept2": "1"]) { $1 })
            )
            #expect(twice.status.code == 422, "\(twice.text)")
        }
        #expect(try await test.store.countSales(SaleQuery()) == 3)
    }
}

@Suite struct TransferPageTests {
    @Test func importChecksThenImportsAndListsBadRows() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(session)"
            let bad = "date,clinic,product,quantity\n2026-03-02,Glow,Serum 30ml,1\n2026-03-03,Glow,Serum 30ml,0\n"
            let refused = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "csv": bad, "action": "commit"])
            )
            #expect(refused.status.code == 422)
            #expect(refused.text.contains("<td>line 3</td><td>quantity</td>"), "\(refused.text)")
            // The rows to correct come first, the forms under them open, to send the file again.
            let table = try #require(refused.text.range(of: "id=\"import-problems\""))
            #expect(table.lowerBound < refused.text.range(of: "id=\"import-form\"")!.lowerBound)
            #expect(refused.text.contains("<details class=\"fold\" id=\"import-forms\" open>"))
            let good = "date,clinic,product,quantity\n2026-03-02,Glow,Serum 30ml,2\n"
            let checked = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "csv": good, "action": "preview"])
            )
            #expect(checked.text.contains("1 sales row would be imported"))
            #expect(try await test.store.countSales(SaleQuery()) == 0)
            let imported = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "csv": good, "action": "commit"])
            )
            #expect(imported.text.contains("Imported 1 sales row."))
        }
        #expect(try await test.store.sales(SaleQuery()).map(\.figures.commission) == [Money(minorUnits: 2400)])
    }

    /// Her history in one pass: a file naming clinics and products the book does not have asks
    /// for them (filled from the file), and makes them with every sale in one step.
    @Test func aFileNamingWhatTheBookLacksMakesItAndImportsInOneStep() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(session)"
            // Her sheet as she keeps it: a title above the header, a totals row below the sales.
            let history = """
                My sales in March
                date,clinic,product,quantity,unit price,unit cost
                2026-03-02,Praxis Mitte,Hyaluron Serum,2,89.00,31.00
                2026-03-03,Praxis Mitte,Serum 30ml,1,,
                2026-03-09,Haut & Co,Hyaluron Serum,1,,
                2026-03-10,Glow,Peeling Set,3,45.50,12.00
                Total,,,7,,

                """
            let asked = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "csv": history, "action": "preview"])
            )
            #expect(asked.status.code == 422)
            let page = asked.text
            #expect(page.contains("Your file names 2 clinics and 2 products your book does not have yet."), "\(page)")
            #expect(
                page.contains("name=\"clinic0\" value=\"Praxis Mitte\"")
                    && page.contains("name=\"from0\" type=\"date\" value=\"2026-03-02\"")
            )
            #expect(page.contains("name=\"clinic1\" value=\"Haut &amp; Co\"") && page.contains("value=\"2026-03-09\""))
            #expect(page.contains("name=\"price0\" value=\"89.00\"") && page.contains("name=\"cost1\" value=\"12.00\""))
            #expect(page.contains("Create them and import 4 sales"))
            // What she must answer stands first; no command anywhere.
            #expect(
                page.range(of: "id=\"additions-form\"")!.lowerBound < page.range(of: "id=\"import-form\"")!.lowerBound
            )
            #expect(!page.contains("commission clinic") && !page.contains("commission product"))

            var answers = [
                "csrf": csrf, "csv": history, "clinic0": "Praxis Mitte", "kind0": "monthly", "share0": "50",
                "basis0": "profit", "from0": "2026-03-02", "clinic1": "Haut & Co", "kind1": "weekly",
                "weekday1": "monday", "share1": "", "basis1": "revenue", "from1": "2026-03-09",
                "product0": "Hyaluron Serum", "price0": "89.00", "cost0": "31.00", "product1": "Peeling Set",
                "price1": "45.50", "cost1": "12.00",
            ]
            // A share left out: nothing made, and every answer she gave still there.
            let refused = try await client.execute(
                uri: "/import/additions",
                method: .post,
                headers: headers,
                body: form(answers)
            )
            #expect(refused.status.code == 422)
            #expect(refused.text.contains("Your share at Haut &amp; Co"), "\(refused.text)")
            #expect(refused.text.contains("name=\"share0\" value=\"50\""))
            #expect(refused.text.contains("<option value=\"weekly\" selected>"))
            #expect(try await test.store.clinics(ClinicQuery()).count == 1)

            answers["share1"] = "10"
            let imported = try await client.execute(
                uri: "/import/additions",
                method: .post,
                headers: headers,
                body: form(answers)
            )
            #expect(imported.status.code == 200)
            // What was passed over, said: not records, and nothing she must find out for herself.
            #expect(
                imported.text.contains(
                    "Imported 2 clinics, 2 products, 2 terms, 4 sales (passed over the title on line 1, passed over the totals row on line 7)."
                ),
                "\(imported.text)"
            )
            // And where to go next: her figures.
            #expect(
                imported.text.contains(#"<a href="/dashboard">See what each clinic owes you ›</a>"#),
                "\(imported.text)"
            )
        }
        let clinics = try await test.store.clinics(ClinicQuery())
        #expect(Set(clinics.map(\.name)) == ["Glow", "Praxis Mitte", "Haut & Co"])
        #expect(clinics.first { $0.name == "Haut & Co" }?.schedule == .weekly(startingOn: .monday))
        let sales = try await test.store.sales(SaleQuery())
        #expect(sales.count == 4)
        // Praxis Mitte: 2 × 89.00 − 2 × 31.00 = 116.00 of profit, half hers (58.00), and the serum's
        // 50.00 − 20.00, half hers (15.00); 10% of Haut & Co's revenue of 89.00 (8.90); Glow's
        // 3 × (45.50 − 12.00) = 100.50 at its own 40% (40.20).
        #expect(sales.map(\.figures.commission.minorUnits).sorted() == [890, 1500, 4020, 5800])
    }

    /// Her history as a workbook: what it lacks is asked with the workbook kept on the server; an
    /// answer refused keeps it staged again (under a new token: the old one is spent), so her next
    /// answer imports it without her choosing the file again. A discount on a line of a product
    /// whose price she has yet to give (PEEL, 5.25 off) is no problem of the file.
    @Test func aWorkbookNamingWhatTheBookLacksIsKeptThroughARefusedAnswer() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            let (upload, body) = try workbookUpload("sales-titled.xlsx", csrf: csrf, cookie: session, dates: "mdy")
            let asked = try await client.execute(uri: "/import/workbook", method: .post, headers: upload, body: body)
            #expect(asked.status.code == 422 && asked.text.contains("id=\"additions-form\""), "\(asked.text)")
            func token(_ page: String) throws -> String {
                String(
                    try #require(page.firstMatch(of: /id="additions-form"[^§]*?name="token" value="([0-9a-f]{64})"/)?.1)
                )
            }
            func named(_ field: String, in page: String) -> [String] {
                page.matches(of: try! Regex(#"name="\#(field)\d+" value="([^"]*)""#)).compactMap {
                    $0.output[1].substring.map(String.init)
                }
            }
            let first = try token(asked.text)
            let clinics = named("clinic", in: asked.text), products = named("product", in: asked.text)
            #expect(clinics == ["Glow Aesthetics", "Harbor Dental"], "\(asked.text)")
            #expect(products == ["PEEL", "Peel kit"], "the serum is the book's already: \(products)")
            var answers = ["csrf": csrf, "token": first, "dates": "mdy"]
            for (index, clinic) in clinics.enumerated() {
                answers["clinic\(index)"] = clinic
                answers["kind\(index)"] = "monthly"
                answers["share\(index)"] = index == 0 ? "40" : ""
                answers["basis\(index)"] = "profit"
                answers["from\(index)"] = "2026-03-02"
            }
            for (index, product) in products.enumerated() {
                answers["product\(index)"] = product
                answers["price\(index)"] = "50.00"
                answers["cost\(index)"] = "20.00"
            }
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(session)"
            // Harbor's share left out: refused, nothing made, the workbook staged again, her answers kept.
            let refused = try await client.execute(
                uri: "/import/additions",
                method: .post,
                headers: headers,
                body: form(answers)
            )
            #expect(refused.status.code == 422)
            #expect(refused.text.contains("Your share at Harbor Dental"), "\(refused.text)")
            #expect(refused.text.contains(#"name="share0" value="40""#))
            let second = try token(refused.text)
            #expect(second != first)
            #expect(try await test.store.clinics(ClinicQuery()).count == 1)
            #expect(try await test.store.countSales(SaleQuery()) == 0)
            // The spent token finds nothing; the new one imports it all.
            answers["share1"] = "30"
            let spent = try await client.execute(
                uri: "/import/additions",
                method: .post,
                headers: headers,
                body: form(answers)
            )
            #expect(spent.status.code == 409 && spent.text.contains("choose the workbook again"), "\(spent.text)")
            answers["token"] = second
            let imported = try await client.execute(
                uri: "/import/additions",
                method: .post,
                headers: headers,
                body: form(answers)
            )
            #expect(imported.status.code == 200, "\(imported.text)")
            #expect(imported.text.contains("6 sales"), "\(imported.text)")
        }
        #expect(try await test.store.countSales(SaleQuery()) == 6)
        #expect(
            Set(try await test.store.clinics(ClinicQuery()).map(\.name)) == [
                "Glow", "Glow Aesthetics", "Harbor Dental",
            ]
        )
    }

    /// A clinic she has, whose split starts after the file's first sale there: the check offers its
    /// split from that sale (a row of its own), and her answer imports the terms and every sale at once.
    @Test func aClinicWithoutTermsForTheFilesDatesIsAskedItsSplit() async throws {
        let test = try await TestApp()
        let harbor = try await test.store.createClinic(ClinicDraft(name: "Harbor", schedule: .monthly))
        _ = try await test.store.createTerms(
            TermsDraft(
                clinicID: harbor.id,
                share: try Share(parsing: "55"),
                effectiveFrom: try Day(parsing: "2026-06-01")
            )
        )
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(session)"
            let history =
                "date,clinic,product,quantity\n2026-03-04,Harbor,Serum 30ml,2\n2026-07-01,Harbor,Serum 30ml,1\n"
            let asked = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "csv": history, "action": "preview"])
            )
            #expect(asked.status.code == 422)
            #expect(
                asked.text.contains("name=\"terms0\" value=\"Harbor\"")
                    && asked.text.contains("name=\"tfrom0\" type=\"date\" value=\"2026-03-04\""),
                "\(asked.text)"
            )
            #expect(!asked.text.contains("commission terms"))
            #expect(try await test.store.countSales(SaleQuery()) == 0)
            let imported = try await client.execute(
                uri: "/import/additions",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "csv": history, "terms0": "Harbor", "tshare0": "30", "tbasis0": "profit",
                    "tfrom0": "2026-03-04",
                ])
            )
            #expect(imported.status.code == 200, "\(imported.text)")
            #expect(imported.text.contains("2 sales"), "\(imported.text)")
        }
        let sales = try await test.store.sales(SaleQuery(clinicID: harbor.id))
        // March at her answer's 30 % of (50 − 20) × 2, July at the 55 % she had: 18.00 and 16.50.
        #expect(sales.map(\.figures.commission.minorUnits).sorted() == [1650, 1800])
    }

    @Test("Columns she maps on the page are kept and read the next file by themselves") func mappedColumnsAreKept()
        async throws
    {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(session)"
            let january = "Booked,Place,Item,Units,Ref\n2026-03-02,Glow,Serum 30ml,2,A-1\n"
            // Unknown headers: her columns beside the fields, each with its first value; what Commission knows chosen already.
            let asked = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "csv": january, "kind": "sales", "action": "preview"])
            )
            #expect(asked.status.code == 422)
            #expect(
                asked.text.contains("id=\"column-mapping\"")
                    && asked.text.contains("<td>Booked</td><td>2026-03-02</td>"),
                "\(asked.text)"
            )
            // What it holds not told by its headers: the page says where to choose it, never a flag.
            let untold = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "csv": "Place,Booked\nGlow,2026-03-02\n", "action": "preview"])
            )
            #expect(
                untold.status.code == 422 && untold.text.contains("choose it under “It holds”")
                    && !untold.text.contains("--kind"),
                "\(untold.text)"
            )
            var api: HTTPFields = [
                .cookie: "commission_session=\(session)", .contentType: "text/csv", .csrfToken: csrf,
            ]
            api[.accept] = "application/json"
            let untoldAPI = try await client.execute(
                uri: "/api/v1/import?dryRun=true",
                method: .post,
                headers: api,
                body: ByteBuffer(string: "Place,Booked\nGlow,2026-03-02\n")
            )
            #expect(
                untoldAPI.status.code == 422 && untoldAPI.text.contains("add kind=")
                    && !untoldAPI.text.contains("--kind"),
                "\(untoldAPI.text)"
            )
            #expect(asked.text.contains("<select name=\"map3\" aria-label=\"Units is read as\">"))
            // Units: Commission's own synonym
            #expect(asked.text.contains("<option value=\"quantity\" selected>quantity</option>"))
            #expect(asked.text.contains("<option value=\"date\">date (required)</option>"))
            // Her choices, kept under a name and used at once: the file is checked, nothing imported.
            let fields = [
                "csrf": csrf, "csv": january, "kind": "sales", "action": "map", "mappingName": "Glow's export",
                "map0": "date", "map1": "clinic", "map2": "product", "map3": "quantity", "map4": "",
            ]
            let mapped = try await client.execute(uri: "/import", method: .post, headers: headers, body: form(fields))
            #expect(
                mapped.status == .ok
                    && mapped.text.contains(
                        "1 sales row (columns as mapped in “Glow&#39;s export”) (passed over: Ref) would be imported"
                    ),
                "\(mapped.text)"
            )
            #expect(try await test.store.countSales(SaleQuery()) == 0)
            #expect(
                try await test.store.mapping(named: "glow's export").fields == [
                    "Booked": "date", "Place": "clinic", "Item": "product", "Units": "quantity", "Ref": "",
                ]
            )
            // The next file with those headers: read with it by itself, and imported.
            let february = "Booked,Place,Item,Units,Ref\n2026-03-09,Glow,Serum 30ml,1,A-2\n"
            let imported = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "csv": february, "action": "commit"])
            )
            #expect(
                imported.status == .ok && imported.text.contains("Imported 1 sales row (columns as mapped in"),
                "\(imported.text)"
            )
            // A name left empty: said beside the columns, nothing kept.
            let unnamed = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(
                    fields.merging([
                        "csv": "When,Where,What\n2026-03-02,Glow,Serum 30ml\n", "mappingName": "",
                        "map0": "date", "map1": "clinic", "map2": "product",
                    ]) { $1 }
                )
            )
            #expect(
                unnamed.status.code == 422 && unnamed.text.contains("mapping name")
                    && unnamed.text.contains("id=\"column-mapping\""),
                "\(unnamed.text)"
            )
            #expect(try await test.store.mappings().count == 1)
        }
        #expect(try await test.store.sales(SaleQuery(order: .oldestFirst)).map(\.date.description) == ["2026-03-09"])
    }

    @Test("The same file twice is recognised and imported again only when she says so") func sameFileTwice()
        async throws
    {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(session)"
            let sales = "date,clinic,product,quantity\n2026-03-02,Glow,Serum 30ml,2\n"
            let first = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "csv": sales, "action": "commit"])
            )
            #expect(first.status == .ok && !first.text.contains("id=\"import-again\""))
            // Pasted again: refused with a sentence, the text kept, and a box to say "again".
            let twice = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "csv": sales, "action": "commit"])
            )
            #expect(
                twice.status == .conflict && twice.text.contains("was imported before")
                    && twice.text.contains("id=\"import-again\""),
                "\(twice.text)"
            )
            #expect(try await test.store.countSales(SaleQuery()) == 1)
            let again = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "csv": sales, "action": "commit", "again": "1"])
            )
            #expect(again.status == .ok && again.text.contains("Imported 1 sales row."))
            #expect(try await test.store.countSales(SaleQuery()) == 2)
        }
    }

    @Test("A workbook imports over the API, and the same body twice is refused") func workbookOverAPI() async throws {
        // A book of her own, empty: the workbook brings her clinics and products.
        let store = try SQLiteStore(.inMemory, defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"))
        let owner = try await store.createOwner(username: "ana", passwordHash: "x")
        _ = try await store.createToken(
            account: owner.id,
            name: "t",
            tokenDigest: WebSecrets.digest("cm_secret"),
            now: Date()
        )
        let headers: HTTPFields = [.authorization: "Bearer cm_secret"]
        let app = Application(
            router: buildRouter(configuration: WebConfiguration(bcryptCost: 4), store: store, routes: RouteLog())
        )
        let workbook = try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../CommissionKitTests/Fixtures/workbook/her-book.xlsx").standardizedFileURL
        )
        try await app.test(.router) { client in
            var xlsx = headers
            xlsx[.contentType] = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            let imported = try await client.execute(
                uri: "/api/v1/import",
                method: .post,
                headers: xlsx,
                body: ByteBuffer(bytes: workbook)
            )
            #expect(imported.status == .created, "\(imported.text)")
            let json = try imported.json()
            #expect(
                json["kind"] as? String == "workbook" && json["clinics"] as? Int == 2 && json["sales"] as? Int == 6
                    && json["prices"] as? Int == 1
            )
            let twice = try await client.execute(
                uri: "/api/v1/import",
                method: .post,
                headers: xlsx,
                body: ByteBuffer(bytes: workbook)
            )
            let detail = try twice.json()["detail"] as? String
            #expect(
                twice.status == .conflict && detail?.contains("add again=true to the request") == true,
                "\(twice.text)"
            )
            // Sales naming what the book lacks: said in the API's words, with what in `missing`;
            // createMissing makes it with them in one step.
            var csv = headers
            csv[.contentType] = "text/csv"
            let history =
                "date,clinic,product,quantity,unit price,unit cost\n2026-03-09,Lumen,Night Cream,2,30.00,10.00\n"
            let asked = try await client.execute(
                uri: "/api/v1/import",
                method: .post,
                headers: csv,
                body: ByteBuffer(string: history)
            )
            #expect(asked.status == .unprocessableContent, "\(asked.text)")
            let missing = try asked.json()["missing"] as? [String: Any]
            #expect((missing?["clinics"] as? [[String: Any]])?.first?["firstSale"] as? String == "2026-03-09")
            #expect((missing?["products"] as? [[String: Any]])?.first?["unitPrice"] as? String == "30.00")
            #expect((try asked.json()["detail"] as? String)?.contains("createMissing=true&share=PERCENT") == true)
            #expect(!asked.text.contains("commission clinic") && !asked.text.contains("--create-missing"))
            let noShare = try await client.execute(
                uri: "/api/v1/import?createMissing=true",
                method: .post,
                headers: csv,
                body: ByteBuffer(string: history)
            )
            #expect(
                noShare.status == .unprocessableContent && noShare.text.contains("add share=PERCENT"),
                "\(noShare.text)"
            )
            let made = try await client.execute(
                uri: "/api/v1/import?createMissing=true&share=50&basis=revenue",
                method: .post,
                headers: csv,
                body: ByteBuffer(string: history)
            )
            #expect(made.status == .created, "\(made.text)")
            #expect(
                try made.json()["clinics"] as? Int == 1 && made.json()["products"] as? Int == 1
                    && made.json()["sales"] as? Int == 1
            )
            let forced = try await client.execute(
                uri: "/api/v1/import?again=true&dryRun=true",
                method: .post,
                headers: xlsx,
                body: ByteBuffer(bytes: workbook)
            )
            // her clinics are there now
            #expect(forced.status.code == 422 && forced.text.contains("already"), "\(forced.text)")
            let junk = try await client.execute(
                uri: "/api/v1/import",
                method: .post,
                headers: xlsx,
                body: ByteBuffer(string: "date,clinic\n")
            )
            #expect(junk.status.code == 422 && junk.text.contains("Cannot read the workbook"), "\(junk.text)")
        }
        // The workbook's six, and the sale made with its clinic and product.
        #expect(try await store.countSales(SaleQuery()) == 7)
    }

    /// A ZIP bomb (Fixtures/workbook/shared-strings-bomb.xlsx: 160 KB whose shared strings unpack to
    /// 64 MiB, written by Python's zipfile) is refused with a sentence before it is inflated, and
    /// uploads are unpacked one at a time, however many arrive together.
    @Test func aWorkbookBombIsRefusedBeforeItIsInflated() async throws {
        let store = try SQLiteStore(.inMemory, defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"))
        let owner = try await store.createOwner(username: "ana", passwordHash: "x")
        _ = try await store.createToken(
            account: owner.id,
            name: "t",
            tokenDigest: WebSecrets.digest("cm_secret"),
            now: Date()
        )
        let app = Application(
            router: buildRouter(configuration: WebConfiguration(bcryptCost: 4), store: store, routes: RouteLog())
        )
        let bomb = try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../CommissionKitTests/Fixtures/workbook/shared-strings-bomb.xlsx")
                .standardizedFileURL
        )
        try await app.test(.router) { client in
            let headers: HTTPFields = [
                .authorization: "Bearer cm_secret",
                .contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            ]
            let statuses = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let refused = try await client.execute(
                            uri: "/api/v1/import?dryRun=true",
                            method: .post,
                            headers: headers,
                            body: ByteBuffer(bytes: bomb)
                        )
                        return (Int(refused.status.code), (try refused.json()["detail"] as? String) ?? "")
                    }
                }
                return try await group.reduce(into: [(Int, String)]()) { $0.append($1) }
            }
            for (status, detail) in statuses {
                #expect(
                    status == 422
                        && detail.contains(
                            "its part xl/sharedStrings.xml unpacks to more than 32 MiB, more than this server unpacks for an upload"
                        ),
                    "\(status) \(detail)"
                )
            }
        }
        #expect(try await store.countSales(SaleQuery()) == 0)
    }

    /// Work through the gate runs one at a time, in turn.
    @Test func aGateLetsOneThroughAtATime() async throws {
        final class Inside: Sendable { let count = Mutex((now: 0, most: 0, done: 0)) }
        let gate = WorkGate(permits: 1), inside = Inside()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await gate.run {
                        inside.count.withLock {
                            $0.now += 1
                            $0.most = max($0.most, $0.now)
                        }
                        try await Task.sleep(for: .milliseconds(5))
                        inside.count.withLock {
                            $0.now -= 1
                            $0.done += 1
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let seen = inside.count.withLock { $0 }
        #expect(seen.most == 1 && seen.now == 0 && seen.done == 8)
    }

    @Test func aWorkbookIsCheckedThenImportedFromThePage() async throws {
        let store = try SQLiteStore(.inMemory, defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"))
        let app = Application(
            router: buildRouter(configuration: WebConfiguration(bcryptCost: 4), store: store, routes: RouteLog())
        )
        let workbook = Array(
            try Data(
                contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                    .appendingPathComponent("../CommissionKitTests/Fixtures/workbook/her-book.xlsx").standardizedFileURL
            )
        )
        @Sendable func upload(_ csrf: String, _ cookie: String, again: Bool = false) -> (HTTPFields, ByteBuffer) {
            let boundary = "----commission-test"
            var body = ByteBuffer()
            body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(csrf)\r\n")
            body.writeString(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"workbook\"; filename=\"her-book.xlsx\"\r\n"
            )
            body.writeString("Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n")
            body.writeBytes(workbook)
            body.writeString("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"dates\"\r\n\r\n\r\n")
            if again {
                body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"again\"\r\n\r\n1\r\n")
            }
            body.writeString("--\(boundary)--\r\n")
            return (
                [.contentType: "multipart/form-data; boundary=\(boundary)", .cookie: "commission_session=\(cookie)"],
                body
            )
        }
        try await app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            let transfer = try await client.execute(
                uri: "/transfer",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            )
            #expect(transfer.text.contains("id=\"workbook-form\"") && transfer.text.contains("name=\"workbook\""))
            // A forged upload is refused before the file is kept.
            var (headers, body) = upload("forged", session)
            #expect(
                try await client.execute(uri: "/import/workbook", method: .post, headers: headers, body: body).status
                    == .forbidden
            )
            // Checked: what it would import is said, nothing is written yet.
            (headers, body) = upload(csrf, session)
            let checked = try await client.execute(uri: "/import/workbook", method: .post, headers: headers, body: body)
            #expect(
                checked.status == .ok
                    && checked.text.contains(
                        "2 clinics, 2 products, 2 terms, 1 price, 6 sales from the sheets “Clinics”"
                    ),
                "\(checked.text)"
            )
            #expect(try await store.countSales(SaleQuery()) == 0)
            let token = try #require(
                checked.text.firstMatch(of: /id="workbook-confirm">[^§]*?name="token" value="([0-9a-f]{64})"/)?.1
            )
            var confirm: HTTPFields = formHeaders
            confirm[.cookie] = "commission_session=\(session)"
            let imported = try await client.execute(
                uri: "/import/workbook/confirm",
                method: .post,
                headers: confirm,
                body: form(["csrf": csrf, "token": String(token), "action": "commit"])
            )
            #expect(imported.status == .ok && imported.text.contains("Imported 2 clinics"), "\(imported.text)")
            #expect(try await store.countSales(SaleQuery()) == 6)
            // The same workbook again: refused as imported before, by its digest.
            (headers, body) = upload(csrf, session)
            let twice = try await client.execute(uri: "/import/workbook", method: .post, headers: headers, body: body)
            #expect(twice.status == .conflict && twice.text.contains("was imported before"), "\(twice.text)")
        }
    }

    @Test("The page and the API say how they read dates, and take a forced reading") func datesReadAndForced()
        async throws
    {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(session)"
            // US dates: the preview says how they are read.
            let us = "date,clinic,product\n3/16/2026,Glow,Serum 30ml\n"
            let checked = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "csv": us, "action": "preview"])
            )
            #expect(
                checked.text.contains("dates read as month/day/year: 3/16/2026 can only be read so"),
                "\(checked.text)"
            )
            // Every day 12 or less: refused until she chooses; chosen, imported so.
            let ambiguous = "date,clinic,product\n3/2/2026,Glow,Serum 30ml\n"
            let asked = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "csv": ambiguous, "action": "commit"])
            )
            #expect(asked.status.code == 422 && asked.text.contains("every day in it is 12 or less"), "\(asked.text)")
            let chosen = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "csv": ambiguous, "action": "commit", "dates": "dmy"])
            )
            #expect(chosen.status == .ok, "\(chosen.text)")
            #expect(try await test.store.sales(SaleQuery()).map(\.date) == [try Day(parsing: "2026-02-03")])
            // The API: dates= forces the reading too.
            var csv: HTTPFields = [
                .cookie: "commission_session=\(session)", .contentType: "text/csv", .csrfToken: csrf,
            ]
            csv[.accept] = "application/json"
            let api = try await client.execute(
                uri: "/api/v1/import?dates=mdy",
                method: .post,
                headers: csv,
                body: ByteBuffer(string: "date,clinic,product\n4/1/2026,Glow,Serum 30ml\n")
            )
            #expect(api.status == .created, "\(api.text)")
            #expect(
                try await test.store.sales(SaleQuery()).map(\.date).sorted() == [
                    try Day(parsing: "2026-02-03"), try Day(parsing: "2026-04-01"),
                ]
            )
            // Her clinic's German headers are read, and a column no field reads is said, on the page and by the API.
            // A title above the header and a totals row below the sales: found, passed over and said.
            let german =
                "Verkäufe April\n\nDatum;Klinik;Produkt;Menge;Preis;Lieferant\n2026-04-02;Glow;Serum 30ml;3;45,00;Lab Co\nSumme;;;3;;\n"
            let page = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "csv": german, "action": "preview"])
            )
            #expect(
                page.text.contains("1 sales row") && page.text.contains("passed over: Lieferant")
                    && page.text.contains("passed over the totals row on line 5"),
                "\(page.text)"
            )
            let dry = try await client.execute(
                uri: "/api/v1/import?dryRun=true",
                method: .post,
                headers: csv,
                body: ByteBuffer(string: german)
            ).json()
            #expect(
                dry["sales"] as? Int == 1 && dry["passedOver"] as? [String] == ["Lieferant", "line 5: totals"],
                "\(dry)"
            )
            // The first sales as read, to check before importing: on the page and in the API's dry run.
            #expect(
                page.text.contains(
                    #"<td>4</td><td class="date">04/02/2026</td><td>Glow</td><td>3 × Serum 30ml</td><td class="num">$45.00</td><td class="num">the product&#39;s</td>"#
                ),
                "\(page.text)"
            )
            let first = try #require((dry["preview"] as? [[String: Any]])?.first)
            #expect(
                first["line"] as? Int == 4 && first["quantity"] as? Int == 3 && first["unitPrice"] as? String == "45.00"
                    && first["unitCost"] == nil,
                "\(first)"
            )
        }
    }

    /// Overdue is said one way on every page that shows money owed: the same word on the same chip.
    @Test("One status vocabulary: a clinic overdue is an Overdue chip on the dashboard, Payouts, its page and the year")
    func overdueIsOneChipEverywhere() async throws {
        let test = try await TestApp()
        let today = try await test.store.settings().today()
        // Paid weekly: a sale five weeks ago, never paid, is past the two weeks a clinic is given.
        let weekly = try await test.store.createClinic(
            ClinicDraft(name: "Weekly Spa", schedule: .weekly(startingOn: today.weekday))
        )
        _ = try await test.store.createTerms(
            TermsDraft(
                clinicID: weekly.id,
                share: try Share(parsing: "50"),
                effectiveFrom: try Day(parsing: "2020-01-01")
            )
        )
        _ = try await test.store.createSale(
            SaleDraft(clinicID: weekly.id, productID: test.serum.id, date: today.adding(days: -35)),
            idempotencyKey: nil
        )
        _ = try await test.store.createSale(
            SaleDraft(clinicID: weekly.id, productID: test.serum.id, date: today),
            idempotencyKey: nil
        )
        let chip = #"<span class="chip tone-overdue">Overdue</span>"#
        try await test.app.test(.router) { client in
            let (session, _) = try await signUp(client)
            // Her sales from before the set-up are history she answered for: "I'll record them".
            try await test.store.setHistoryQuestion(nil)
            let cookie: HTTPFields = [.cookie: "commission_session=\(session)"]
            for uri in ["/dashboard", "/payouts", "/book/clinics/\(weekly.id)", "/year?year=\(today.year)"] {
                let page = try await client.execute(uri: uri, method: .get, headers: cookie).text
                #expect(page.contains(chip), "\(uri) says it with the Overdue chip")
                for other in ["⚠", "unpaid", "underpaid", " overdue ·"] {
                    #expect(!page.contains(other), "\(uri) says overdue another way: \(other)")
                }
            }
            // The running week is "This period" wherever its figure shows.
            for uri in ["/dashboard", "/payouts", "/book/clinics/\(weekly.id)"] {
                #expect(
                    try await client.execute(uri: uri, method: .get, headers: cookie).text.contains(
                        #"<span class="chip tone-running">This period</span>"#
                    ),
                    "\(uri)"
                )
            }
        }
    }

    /// A clinic's card adds up: what is overdue, what periods that ended owe but are not yet due,
    /// and this period make what it owes.
    @Test func aClinicsCardSaysWhatIsDueSoon() async throws {
        let test = try await TestApp()
        let today = try await test.store.settings().today()
        // Paid weekly, its weeks starting today: last week ended yesterday, due two weeks after.
        let weekly = try await test.store.createClinic(
            ClinicDraft(name: "Weekly Spa", schedule: .weekly(startingOn: today.weekday))
        )
        _ = try await test.store.createTerms(
            TermsDraft(
                clinicID: weekly.id,
                share: try Share(parsing: "50"),
                effectiveFrom: try Day(parsing: "2020-01-01")
            )
        )
        for date in [today.adding(days: -3), today] {
            _ = try await test.store.createSale(
                SaleDraft(clinicID: weekly.id, productID: test.serum.id, date: date),
                idempotencyKey: nil
            )
        }
        try await test.app.test(.router) { client in
            let (session, _) = try await signUp(client)
            // Last week is not her history here (HistoryQuestionTests holds that): the question is answered.
            try await test.store.setHistoryQuestion(nil)
            let page = try await client.execute(
                uri: "/dashboard",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            // 50.00 − 20.00 = 30.00 × 50% = 15.00 a sale: 30.00 owed, 15.00 of last week due soon, 15.00 this week.
            #expect(
                page.contains(#"data-owed title="owed to you">$30.00</span>"#)
                    && page.contains(
                        #"<li><span class="chip tone-due">Due</span> <span class="amount">$15.00</span></li>"#
                    )
                    && page.contains(
                        #"<li><span class="chip tone-running">This period</span> <span class="amount">$15.00</span></li>"#
                    ),
                "\(page)"
            )
            // Last week paid 10.00 beyond what it owed: the parts still add up, its credit among them.
            _ = try await test.store.createPayout(
                PayoutDraft(
                    clinicID: weekly.id,
                    period: weekly.calendar.period(containing: today.adding(days: -3)),
                    amount: Money(minorUnits: 2500),
                    receivedOn: today
                )
            )
            let credit = try await client.execute(
                uri: "/dashboard",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            #expect(
                credit.contains(#"data-owed title="owed to you">$5.00</span>"#)
                    && credit.contains(
                        #"<li><span class="chip tone-credit">Credit</span> <span class="amount">$10.00</span> <span class="muted">on ended periods</span></li>"#
                    )
                    && credit.contains(
                        #"<li><span class="chip tone-running">This period</span> <span class="amount">$15.00</span></li>"#
                    ),
                "\(credit)"
            )
        }
    }

    @Test func herYearAsAPageACSVAndJSON() async throws {
        let test = try await TestApp()
        // 2 serums at Glow on 2 March: revenue 100.00, profit 60.00, 40% = 24.00; 10.00 paid for March.
        _ = try await test.store.createSale(
            SaleDraft(
                clinicID: test.glow.id,
                productID: test.serum.id,
                date: try Day(parsing: "2026-03-02"),
                quantity: 2
            ),
            idempotencyKey: nil
        )
        _ = try await test.store.createPayout(
            PayoutDraft(
                clinicID: test.glow.id,
                period: PayPeriod(start: try Day(parsing: "2026-03-01"), end: try Day(parsing: "2026-03-31")),
                amount: Money(minorUnits: 1000),
                receivedOn: try Day(parsing: "2026-04-02")
            )
        )
        try await test.app.test(.router) { client in
            let (session, _) = try await signUp(client)
            let cookie: HTTPFields = [.cookie: "commission_session=\(session)"]
            let page = try await client.execute(uri: "/year?year=2026", method: .get, headers: cookie)
            #expect(
                page.status == .ok && page.text.contains(#"<h2 id="year-shown">2026</h2>"#)
                    && page.text.contains("<td class=\"lead\">March</td>"),
                "\(page.text)"
            )
            #expect(
                page.text.contains("id=\"year-owed\">$14.00<") && page.text.contains("id=\"year-earned\">$24.00<"),
                "\(page.text)"
            )
            let csv = try await client.execute(uri: "/year.csv?year=2026", method: .get, headers: cookie)
            #expect(csv.headers[.contentDisposition] == "attachment; filename=\"commission-2026.csv\"")
            #expect(csv.text.contains("Glow,March 2026,1,100.00,24.00,"), "\(csv.text)")
            #expect(
                csv.text.contains("All clinics,Year 2026,1,100.00,24.00,1,24.00,0.00,0.00,24.00,10.00,14.00"),
                "\(csv.text)"
            )
            #expect(try await client.execute(uri: "/year?year=1066", method: .get, headers: cookie).status.code == 422)
            #expect(try await client.execute(uri: "/year?year=soon", method: .get, headers: cookie).status.code == 400)
            // Paid beyond what it owes: a credit, said so and in its colour, never a negative amount.
            let extra = try await test.store.createPayout(
                PayoutDraft(
                    clinicID: test.glow.id,
                    period: PayPeriod(start: try Day(parsing: "2026-03-01"), end: try Day(parsing: "2026-03-31")),
                    amount: Money(minorUnits: 2000),
                    receivedOn: try Day(parsing: "2026-04-03")
                )
            )
            let credit = try await client.execute(uri: "/year?year=2026", method: .get, headers: cookie).text
            #expect(
                credit.contains(
                    #"<h3>Paid you beyond what they owe</h3><p class="big amount credit" id="year-owed">$6.00</p>"#
                )
                    && credit.contains("<td class=\"num amount year-balance credit\">\u{2212}$6.00</td>")
                    && credit.contains(#"Glow <span class="chip tone-credit">Credit</span></th>"#)
                    && !credit.contains("-$6.00"),
                "\(credit)"
            )
            try await test.store.deletePayout(extra.id)
            let json = try await client.execute(uri: "/api/v1/year/2026", method: .get, headers: cookie).json()
            let clinics = try #require(json["clinics"] as? [[String: Any]])
            let year = try #require(clinics.first?["year"] as? [String: Any])
            #expect(json["year"] as? Int == 2026 && clinics.first?["clinic"] as? String == "Glow")
            #expect(
                year["netPayable"] as? String == "24.00" && year["received"] as? String == "10.00"
                    && year["balance"] as? String == "14.00"
            )
            #expect(
                ((clinics.first?["months"] as? [[String: Any]])?[2]["totals"] as? [String: Any])?["revenue"] as? String
                    == "100.00"
            )
        }
    }

    @Test func exportsAndABackupDownload() async throws {
        let test = try await TestApp()
        _ = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: try Day(parsing: "2026-03-02")),
            idempotencyKey: nil
        )
        try await test.app.test(.router) { client in
            let (session, _) = try await signUp(client)
            let cookie: HTTPFields = [.cookie: "commission_session=\(session)"]
            let csv = try await client.execute(uri: "/export/sales.csv", method: .get, headers: cookie)
            #expect(csv.text.hasPrefix("id,date,clinic,product,quantity,unit price"))
            #expect(
                csv.text.contains(
                    ",2026-03-02,Glow,Serum 30ml,1,50.00,20.00,0.00,no,40.00,profit,50.00,30.00,12.00,no,"
                )
            )
            let backup = try await client.execute(uri: "/export/backup.sqlite", method: .get, headers: cookie)
            #expect(backup.status == .ok)
            #expect(backup.text.hasPrefix("SQLite format 3"))
            #expect(
                try await client.execute(uri: "/export/secrets.txt", method: .get, headers: cookie).status == .notFound
            )
        }
    }

    @Test func editingASaleRecomputesIt() async throws {
        let test = try await TestApp()
        let sale = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: try Day(parsing: "2026-03-02")),
            idempotencyKey: nil
        )
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(session)"
            let page = try await client.execute(uri: "/sales/\(sale.id)/edit", method: .get, headers: headers)
            #expect(page.text.contains("value=\"50.00\""))
            let saved = try await client.execute(
                uri: "/sales/\(sale.id)",
                method: .post,
                headers: headers,
                body: form(
                    [
                        "csrf": csrf, "clinic": "\(test.glow.id)", "product": "\(test.serum.id)", "date": "2026-03-02",
                        "quantity": "3",
                        "price": "50.00", "cost": "20.00", "discount": "6.00",
                        // Three units where she never sold more than one asks once (EntryTests): said yes.
                        "confirmed": "1",
                    ])
            )
            #expect(saved.status == .seeOther)
        }
        // 3 × 50.00 − 6.00 = 144.00 revenue, 60.00 cost, 84.00 profit × 40% = 33.60.
        #expect(try await test.store.sale(sale.id).figures.commission == Money(minorUnits: 3360))
    }
}

@Suite struct MissedDaysTests {
    @Test func daysSheUsuallyWorksButEnteredNothingArePointedOut() async throws {
        let test = try await TestApp()
        let today = try await test.store.settings().today()
        // She sold on the same weekday for four weeks, 3 to 6 weeks ago, then entered nothing.
        for weeks in 3...6 {
            _ = try await test.store.createSale(
                SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: today.adding(days: -7 * weeks)),
                idempotencyKey: nil
            )
        }
        try await test.app.test(.router) { client in
            let (session, _) = try await signUp(client)
            let html = try await client.execute(
                uri: "/",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            // One line, its link the oldest day missed.
            #expect(html.contains("id=\"missed\""))
            #expect(
                html.contains("href=\"/?date=\(today.adding(days: -14))\">No sales on 2 days you usually work"),
                "\(html)"
            )
            #expect(!html.contains("href=\"/?date=\(today.adding(days: -8))\""))
            // "Not today" puts it away until tomorrow.
            let dismissed = try await client.execute(
                uri: "/missed/dismiss",
                method: .post,
                headers: [.cookie: "commission_session=\(session)", .contentType: "application/x-www-form-urlencoded"],
                body: form(["csrf": try #require(csrfField(html))])
            )
            #expect(dismissed.status == .seeOther)
            let kept = try #require(dismissed.cookies["commission_missed"])
            let later = try await client.execute(
                uri: "/",
                method: .get,
                headers: [.cookie: "commission_session=\(session); commission_missed=\(kept)"]
            ).text
            #expect(!later.contains("id=\"missed\""))
        }
    }
}

@Suite struct SettingsPageTests {
    @Test("Book settings change from the web, but the currency stays once amounts exist") func bookSettingsFromTheWeb()
        async throws
    {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(session)"
            let saved = try await client.execute(
                uri: "/settings/book",
                method: .post,
                headers: headers,
                body: form(
                    [
                        "csrf": csrf, "currency": "USD", "timeZone": "Europe/Paris", "rule": "half-to-even",
                        "scope": "per-statement",
                    ])
            )
            #expect(saved.text.contains("Settings saved."))
            let refused = try await client.execute(
                uri: "/settings/book",
                method: .post,
                headers: headers,
                body: form(
                    [
                        "csrf": csrf, "currency": "EUR", "timeZone": "Europe/Paris", "rule": "half-to-even",
                        "scope": "per-statement",
                    ])
            )
            #expect(refused.status.code == 422 && refused.text.contains("cannot change"))
            let badZone = try await client.execute(
                uri: "/settings/book",
                method: .post,
                headers: headers,
                body: form(
                    [
                        "csrf": csrf, "currency": "USD", "timeZone": "Mars/Olympus", "rule": "half-to-even",
                        "scope": "per-line",
                    ])
            )
            #expect(badZone.status.code == 422 && badZone.text.contains("not an IANA time zone"))
        }
        let settings = try await test.store.settings()
        #expect(settings.timeZoneIdentifier == "Europe/Paris")
        #expect(settings.rounding == RoundingPolicy(rule: .halfToEven, scope: .perStatement))
    }
}

@Suite struct MoreAPITests {
    func bearer(_ test: TestApp) async throws -> HTTPFields {
        let owner = try await test.store.createOwner(username: "ana", passwordHash: "x")
        _ = try await test.store.createToken(
            account: owner.id,
            name: "t",
            tokenDigest: WebSecrets.digest("cm_secret"),
            now: Date()
        )
        return [.authorization: "Bearer cm_secret", .contentType: "application/json"]
    }

    @Test func editCloseImportExportAndTokensOverTheAPI() async throws {
        let test = try await TestApp()
        let headers = try await bearer(test)
        try await test.app.test(.router) { client in
            let created = try await client.execute(
                uri: "/api/v1/sales",
                method: .post,
                headers: headers,
                body: ByteBuffer(string: #"{"clinic": "Glow", "product": "SER-30", "date": "2026-03-02"}"#)
            )
            let id = try created.json()["id"] as? Int ?? -1
            // 2 × 30.00 profit × 40% = 24.00 once the quantity is 2.
            let edited = try await client.execute(
                uri: "/api/v1/sales/\(id)",
                method: .post,
                headers: headers,
                body: ByteBuffer(string: #"{"quantity": 2}"#)
            )
            #expect(try edited.json()["commission"] as? String == "24.00")
            let closed = try await client.execute(
                uri: "/api/v1/clinics/1/close?date=2026-03-10",
                method: .post,
                headers: headers
            )
            #expect(try closed.json()["periodEnd"] as? String == "2026-03-31")
            let locked = try await client.execute(uri: "/api/v1/sales/\(id)/void", method: .post, headers: headers)
            #expect(locked.status == .conflict)
            #expect(
                try await client.execute(
                    uri: "/api/v1/clinics/1/reopen?date=2026-03-10",
                    method: .post,
                    headers: headers
                ).status == .ok
            )

            var csv = headers
            csv[.contentType] = "text/csv"
            let rejected = try await client.execute(
                uri: "/api/v1/import",
                method: .post,
                headers: csv,
                body: ByteBuffer(string: "date,clinic,product\n2026-03-03,Glow,Nothing\n")
            )
            #expect(rejected.status.code == 422)
            let errors = try rejected.json()["errors"] as? [[String: Any]]
            #expect(errors?.first?["line"] as? Int == 2 && errors?.first?["column"] as? String == "product")
            let imported = try await client.execute(
                uri: "/api/v1/import",
                method: .post,
                headers: csv,
                body: ByteBuffer(string: "date,clinic,product\n2026-03-03,Glow,Serum 30ml\n")
            )
            let importedSales = try imported.json()["sales"] as? Int
            #expect(imported.status == .created && importedSales == 1)

            let export = try await client.execute(uri: "/api/v1/export/sales.csv", method: .get, headers: headers)
            #expect(export.text.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == 3)  // header + 2 sales

            let token = try await client.execute(
                uri: "/api/v1/tokens",
                method: .post,
                headers: headers,
                body: ByteBuffer(string: #"{"name": "second"}"#)
            )
            let secret = try #require(try token.json()["token"] as? String)
            let tokenID = try #require(try token.json()["id"] as? Int)
            #expect(
                try await client.execute(
                    uri: "/api/v1/settings",
                    method: .get,
                    headers: [.authorization: "Bearer \(secret)"]
                ).status == .ok
            )
            #expect(
                try await client.execute(uri: "/api/v1/tokens/\(tokenID)/revoke", method: .post, headers: headers)
                    .status == .noContent
            )
            #expect(
                try await client.execute(
                    uri: "/api/v1/settings",
                    method: .get,
                    headers: [.authorization: "Bearer \(secret)"]
                ).status == .unauthorized
            )
        }
    }

    @Test func secureCookiesWhenServedOverTLS() async throws {
        let store = try SQLiteStore(.inMemory)
        let app = Application(
            router: buildRouter(configuration: WebConfiguration(secureCookies: true, bcryptCost: 4), store: store)
        )
        try await app.test(.router) { client in
            let page = try await client.execute(uri: "/setup", method: .get)
            #expect(page.headers[values: .setCookie].allSatisfy { $0.contains("Secure") })
            #expect(page.headers[HTTPField.Name("Strict-Transport-Security")!] == "max-age=31536000; includeSubDomains")
            // And a sign-in form posted without its CSRF cookie is refused.
            let forged = try await client.execute(
                uri: "/setup",
                method: .post,
                headers: formHeaders,
                body: form(["csrf": "x", "username": "eve", "password": "0123456789ab"])
            )
            #expect(forged.status == .forbidden)
        }
        #expect(try await store.accountCount() == 0)
    }
}

@Suite struct SalesPageTests {
    @Test func salesFilterByProduct() async throws {
        let test = try await TestApp()
        let cream = try await test.store.createProduct(
            ProductDraft(name: "Cream", unitPrice: Money(minorUnits: 3000), unitCost: .zero)
        )
        for product in [test.serum.id, cream.id] {
            _ = try await test.store.createSale(
                SaleDraft(clinicID: test.glow.id, productID: product, date: try Day(parsing: "2026-03-02")),
                idempotencyKey: nil
            )
        }
        try await test.app.test(.router) { client in
            let (session, _) = try await signUp(client)
            let html = try await client.execute(
                uri: "/sales?product=\(cream.id)",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            #expect(html.contains("<span>1 sale</span>"), "\(html)")
            #expect(html.contains(#"<span class="what">1 × Cream</span>"#), "\(html)")
            #expect(!html.contains("× Serum 30ml"))
        }
    }
}

@Suite struct PublicAddressTests {
    /// An invitation link leads to the server's public address (or its own), whatever `Host` the
    /// request that made it carried: a link sent to a new member cannot be pointed elsewhere.
    @Test(
        "An invitation link leads to the public address, not the request's host",
        arguments: [
            ("https://commission.example.com", "https://commission.example.com/invite/"),
            (nil, "http://127.0.0.1:8080/invite/"),
        ]
    )
    func invitationLinkAddress(_ configured: String?, _ expected: String) async throws {
        let store = try SQLiteStore(.inMemory)
        _ = try await store.createOwner(username: "ana", passwordHash: "x")
        let owner = try #require(try await store.ownerAccount())
        let token = "cm_host_\(UUID().uuidString)"
        _ = try await store.createToken(
            account: owner.id,
            name: "t",
            tokenDigest: WebSecrets.digest(token),
            now: Date()
        )
        // Without a public address the link names the server's own (its configured port; the test listens on another).
        var configuration = WebConfiguration(port: 8080, bcryptCost: 4)
        configuration.publicAddress = configured.flatMap(PublicAddress.init)
        let app = Application(
            router: buildRouter(configuration: configuration, store: store),
            configuration: .init(address: .hostname("127.0.0.1", port: 0))
        )
        try await app.test(.live) { client in
            // Over a real socket, as a browser or a forger sends it: HTTP/1's Host header is the request's authority.
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(try #require(client.port))/api/v1/invitations")
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.replaceOrAdd(name: "Host", value: "evil.example")
            request.body = .bytes(ByteBuffer(string: "{}"))
            let made = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            let body = try await made.body.collect(upTo: 1 << 16)
            let url = try #require(
                (try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])?["url"] as? String
            )
            #expect(made.status == .created && url.hasPrefix(expected) && !url.contains("evil"), "\(url)")
        }
    }
}
