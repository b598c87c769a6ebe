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

/// Several people's books on one PostgreSQL server: every API route, called by every account
/// against the other book's records, reads and changes nothing of it — with both books in one
/// database, and with the second on a database of its own (`--more-database`).
@Suite struct BookIsolationTests {
    /// A book of the shared database with one record of each kind, and the words that would show
    /// it in a response.
    struct Fixture {
        let name: String
        let store: PostgresStore
        let clinic: Clinic
        let product: Product
        let sale: Sale
        let terms: Terms
        let price: PriceListEntry
        let deduction: Deduction
        let payout: Payout
        /// Names and amounts found only in this book (its product's price and its commission today).
        let markers: [String]
        var ownerToken: APIToken.ID?

        init(
            in database: PostgresBookDatabase,
            store: PostgresStore,
            tag: String,
            price: Int64,
            cost: Int64,
            markers: [String]
        ) async throws {
            name = tag
            self.store = store
            clinic = try await store.createClinic(ClinicDraft(name: "\(tag) Clinic", schedule: .monthly))
            product = try await store.createProduct(
                ProductDraft(
                    name: "\(tag) Product",
                    unitPrice: Money(minorUnits: price),
                    unitCost: Money(minorUnits: cost)
                )
            )
            terms = try await store.createTerms(
                TermsDraft(
                    clinicID: clinic.id,
                    share: try Share(parsing: "50"),
                    effectiveFrom: try Day(parsing: "2000-01-01")
                )
            ).terms
            self.price = try await store.setPrice(
                PriceDraft(
                    clinicID: clinic.id,
                    productID: product.id,
                    unitPrice: Money(minorUnits: price),
                    effectiveFrom: try Day(parsing: "2000-01-01")
                )
            )
            deduction = try await store.createDeduction(
                Deduction(
                    id: Deduction.ID(0),
                    clinicID: clinic.id,
                    name: "\(tag) fee",
                    amount: .fixed(Money(minorUnits: 1)),
                    effectiveFrom: try Day(parsing: "2000-01-01")
                )
            )
            let today = try await store.settings().today()
            sale = try await store.createSale(
                SaleDraft(clinicID: clinic.id, productID: product.id, date: today, quantity: 1, note: "\(tag) note"),
                idempotencyKey: nil
            )
            payout = try await store.createPayout(
                PayoutDraft(
                    clinicID: clinic.id,
                    period: PaySchedule.monthly.period(containing: today),
                    amount: Money(minorUnits: 100),
                    receivedOn: today,
                    reference: "\(tag) ref"
                )
            )
            self.markers = [tag] + markers
        }

        /// Everything the book holds, as text: equal before and after means nothing changed.
        func fingerprint() async throws -> String {
            let today = try await store.settings().today()
            var parts = [
                "\(try await store.settings())",
                "\(try await store.clinics(ClinicQuery(includeArchived: true)))",
                "\(try await store.products(ProductQuery(includeArchived: true)))",
                "\(try await store.terms(TermsQuery(includeArchived: true)))",
                "\(try await store.sales(SaleQuery(includeVoided: true)))",
                "\(try await store.payouts(PayoutQuery()))",
                "\(try await store.prices(PriceQuery()))",
                "\(try await store.deductions(clinic: nil))",
                "\(try await store.dashboard(today: today))",
                "\(try await store.reconciliation(clinic: clinic.id, today: today))",
            ]
            for member in try await store.members() {
                parts.append("\(member) \(try await store.tokens(account: member.account.id))")
            }
            return parts.joined(separator: "\n")
        }
    }

    struct Caller {
        let username: String
        let token: String
        let book: Fixture
    }

    /// A request of the sweep and what it must get.
    struct Probe {
        enum Expectation { case refused, answeredWithoutTheOtherBook, ownRecordShown }
        var uri: String
        var body: String = ""
        var contentType = "application/json"
        var expectation: Expectation
    }

    @Test(arguments: [false, true])
    func noAccountReadsOrChangesAnotherBookThroughAnyRoute(secondDatabase: Bool) async throws {
        guard let server = ProcessInfo.processInfo.environment["COMMISSION_TEST_POSTGRES_URL"], !server.isEmpty else {
            throw StoreError.storage(
                "COMMISSION_TEST_POSTGRES_URL is not set: run the tests with scripts/test, which starts a throw-away PostgreSQL"
            )
        }
        let url = try await PostgresBookDatabase.createDatabase(prefix: "commission_teams", onServer: server)
        let database = try await PostgresBookDatabase(url: url)
        defer { database.shutdown() }
        let eastURL =
            secondDatabase
            ? try await PostgresBookDatabase.createDatabase(prefix: "commission_east", onServer: server) : nil
        let east = if let eastURL { try await PostgresBookDatabase(url: eastURL) } else { nil as PostgresBookDatabase? }
        defer { east?.shutdown() }
        let settings = BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        let books = PostgresBooks(
            database: database,
            defaultSettings: settings,
            others: east.map { ["east": $0] } ?? [:]
        )
        // B's records are numbered from east's own block, never as A's: a probe naming A's record
        // is not B's own of the same number.
        try await books.prepare()
        // Book A is the server's first book (its owner signs up at /setup); B is added as `commission books add` does.
        let alphaSeed = try await Fixture(
            in: database,
            store: try await PostgresStore.firstBook(in: database, creatingWith: settings),
            tag: "Alphaqx",
            price: 12345,
            cost: 2345,
            markers: ["annqx", "amyqx", "123.45"]
        )
        let bravoSeed = try await Fixture(
            in: database,
            store: try await books.addBook(name: "Bravoqx", settings: settings, on: secondDatabase ? "east" : "main"),
            tag: "Bravoqx",
            price: 99900,
            cost: 0,
            markers: ["bobqx", "999.00", "499.50"]
        )
        if let east {
            // B's records are on its own database, its accounts (none yet) with the directory's.
            #expect(try await books.place(of: bravoSeed.store.book) == "east" && bravoSeed.store.database === east)
            #expect(try await books.books().map(\.database) == ["main", "east"])
        }
        let bravoOwnerLink = WebSecrets.invitationPath + String(repeating: "b0", count: 32)
        try await bravoSeed.store.createInvitation(
            tokenDigest: WebSecrets.digest(String(bravoOwnerLink.dropFirst(WebSecrets.invitationPath.count))),
            role: .owner,
            invitedBy: nil,
            expiresAt: Date().addingTimeInterval(600)
        )

        let routes = RouteLog()
        let app = buildApplication(configuration: WebConfiguration(bcryptCost: 4), books: books, routes: routes)
        try await app.test(.live) { client in
            var (alpha, bravo) = (alphaSeed, bravoSeed)  // each gets its owner's token id below
            // The people, through the pages: ann sets up the first book and invites amy; bob takes B's owner link.
            let ann = try await signUp(client, username: "annqx")
            let invited = try await client.execute(
                uri: "/api/v1/invitations",
                method: .post,
                headers: [
                    .cookie: "commission_session=\(ann.cookie)", .csrfToken: ann.csrf, .contentType: "application/json",
                ],
                body: ByteBuffer(string: "{}")
            )
            let amyLink = try #require(try invited.json()["path"] as? String)
            _ = try await accept(client, path: amyLink, username: "amyqx")
            _ = try await accept(client, path: bravoOwnerLink, username: "bobqx")
            #expect(
                try await alpha.store.members().map { "\($0.account.username):\($0.role)" } == [
                    "annqx:owner", "amyqx:member",
                ]
            )
            #expect(try await bravo.store.members().map { "\($0.account.username):\($0.role)" } == ["bobqx:owner"])

            // Signing in finds each person's own book.
            let login = try await client.execute(uri: "/login", method: .get)
            var loginHeaders = formHeaders
            loginHeaders[.cookie] = "commission_csrf=\(try #require(login.cookies["commission_csrf"]))"
            let signedIn = try await client.execute(
                uri: "/login",
                method: .post,
                headers: loginHeaders,
                body: form([
                    "csrf": try #require(csrfField(login.text)), "username": "BOBQX",
                    "password": "a long enough password",
                ])
            )
            let bob = try #require(signedIn.cookies["commission_session"])
            let bobsClinics = try await client.execute(
                uri: "/api/v1/clinics",
                method: .get,
                headers: [.cookie: "commission_session=\(bob)"]
            )
            #expect(bobsClinics.text.contains("Bravoqx Clinic") && !bobsClinics.text.contains("Alphaqx"))

            // A bearer token for each account.
            var secrets: [String: String] = [:]
            for (fixture, username) in [(alpha, "annqx"), (alpha, "amyqx"), (bravo, "bobqx")] {
                let account = try #require(try await fixture.store.credentials(username: username)).account
                let secret = "cm_\(username)_\(UUID().uuidString)"
                let token = try await fixture.store.createToken(
                    account: account.id,
                    name: "sweep",
                    tokenDigest: WebSecrets.digest(secret),
                    now: Date()
                )
                if username == "annqx" { alpha.ownerToken = token.id }
                if username == "bobqx" { bravo.ownerToken = token.id }
                secrets[username] = secret
            }
            let callers = [
                Caller(username: "annqx", token: secrets["annqx"]!, book: alpha),
                Caller(username: "amyqx", token: secrets["amyqx"]!, book: alpha),
                Caller(username: "bobqx", token: secrets["bobqx"]!, book: bravo),
            ]

            // Each live dashboard stream shows its own book's figures only (A: 100.00 profit × 50%; B: 999.00 × 50%).
            let port = try #require(client.port)
            for caller in callers {
                let event = try await firstEvent(port: port, token: caller.token)
                #expect(
                    event.contains(
                        caller.book.name == "Alphaqx" ? #""commission":"50.00""# : #""commission":"499.50""#
                    ),
                    "\(caller.username): \(event)"
                )
                #expect(
                    !event.contains(caller.book.name == "Alphaqx" ? "499.50" : "50.00"),
                    "\(caller.username): \(event)"
                )
            }

            // The change stream of a book tells its own changes only: a payout recorded in B while
            // A's stream is open, then a clinic added in A — A's first change is the clinic.
            var changesRequest = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/v1/changes")
            changesRequest.headers.add(name: "Authorization", value: "Bearer \(secrets["annqx"]!)")
            let changes = try await HTTPClient.shared.execute(changesRequest, timeout: .seconds(120))
            #expect(changes.status == .ok)
            var chunks = changes.body.makeAsyncIterator()
            var stream = String(buffer: try #require(try await chunks.next()))
            #expect(stream.hasPrefix(": open"))
            _ = try await bravo.store.createPayout(
                PayoutDraft(
                    clinicID: bravo.clinic.id,
                    period: PaySchedule.monthly.period(containing: bravo.sale.date),
                    amount: Money(minorUnits: 1),
                    receivedOn: bravo.sale.date
                )
            )
            _ = try await alpha.store.createClinic(ClinicDraft(name: "Alphaqx Second", schedule: .monthly))
            while !(stream.contains("event: change") && stream.hasSuffix("\n\n")), let chunk = try await chunks.next() {
                stream += String(buffer: chunk)
            }
            #expect(stream.contains(#"event: change\#ndata: ["clinics"]"#), "\(stream)")
            #expect(!stream.contains("payouts"), "\(stream)")

            // The sweep: every API route, by every account, aimed at the other book.
            let apiRoutes = routes.routes.filter { $0.path.hasPrefix("/api/v1/") }
            #expect(apiRoutes.count >= 27)
            var probed = Set<String>()
            for caller in callers {
                let victim = caller.book.name == "Alphaqx" ? bravo : alpha
                let before = try await victim.fingerprint()
                for route in apiRoutes {
                    // Streamed: checked above (the dashboard) and in changesStayInTheirBook (the change stream).
                    if ["/api/v1/events", "/api/v1/changes"].contains(route.path) {
                        probed.insert(route.description)
                        continue
                    }
                    for probe in probes(route, own: caller.book, victim: victim) {
                        probed.insert(route.description)
                        let response = try await client.execute(
                            uri: probe.uri,
                            method: route.method,
                            headers: [
                                .authorization: "Bearer \(caller.token)", .contentType: probe.contentType,
                            ],
                            body: ByteBuffer(string: probe.body)
                        )
                        let what =
                            "\(caller.username) \(route.method) \(probe.uri) \(probe.body) → \(response.status.code)"
                        #expect(response.status.code < 500, "\(what): \(response.text)")
                        // Words the caller sent may come back in an error; any other word of the other book is a leak.
                        for marker in victim.markers where !probe.body.contains(marker) {
                            #expect(!response.text.contains(marker), "\(what) shows \(marker): \(response.text)")
                        }
                        switch probe.expectation {
                        case .refused:
                            #expect(
                                response.status == .notFound || response.status.code == 422,
                                "\(what): \(response.text)"
                            )
                        case .answeredWithoutTheOtherBook:
                            break
                        case .ownRecordShown:
                            #expect(
                                response.status == .ok && caller.book.markers.contains { response.text.contains($0) },
                                "\(what): \(response.text)"
                            )
                        }
                    }
                }
                #expect(try await victim.fingerprint() == before, "\(caller.username) changed the other book")
            }
            #expect(
                probed == Set(apiRoutes.map(\.description)),
                "routes the sweep does not know: \(Set(apiRoutes.map(\.description)).subtracting(probed))"
            )
        }
        database.shutdown()  // its listener first, or it reports the dropped database
        east?.shutdown()
        try await PostgresBookDatabase.dropDatabase(url, onServer: server)
        if let eastURL { try await PostgresBookDatabase.dropDatabase(eastURL, onServer: server) }
    }

    /// The requests that aim a route at the other book: its ids, its names; and, where a route
    /// reads, the caller's own record as a control that the route works at all.
    func probes(_ route: RouteInfo, own: Fixture, victim: Fixture) -> [Probe] {
        let path = route.path
        let date = "?date=\(victim.sale.date)"
        func at(_ id: Int64) -> String { path.replacing(/:id/, with: "\(id)") }
        switch (route.method, path) {
        case (_, let path) where path.hasPrefix("/api/v1/sales/:id"):
            var list = [Probe(uri: at(victim.sale.id.rawValue), body: #"{"quantity": 2}"#, expectation: .refused)]
            if route.method == .get { list.append(Probe(uri: at(own.sale.id.rawValue), expectation: .ownRecordShown)) }
            return list
        case (_, let path) where path.hasPrefix("/api/v1/clinics/:id/"):
            var list = [Probe(uri: at(victim.clinic.id.rawValue) + date, expectation: .refused)]
            if route.method == .get {
                list.append(Probe(uri: at(own.clinic.id.rawValue) + date, expectation: .ownRecordShown))
            }
            return list
        case (_, "/api/v1/clinics/:id"), (_, "/api/v1/products/:id"), (_, "/api/v1/terms/:id"):
            // Read, changed in part, archived: each aimed at the other book's record, with a body that would change it.
            let (theirs, mine): (Int64, Int64) =
                switch path {
                case "/api/v1/clinics/:id": (victim.clinic.id.rawValue, own.clinic.id.rawValue)
                case "/api/v1/products/:id": (victim.product.id.rawValue, own.product.id.rawValue)
                default: (victim.terms.id.rawValue, own.terms.id.rawValue)
                }
            var list = [
                Probe(
                    uri: at(theirs),
                    body: #"{"name": "Taken", "share": "1", "unitPrice": "0.01", "archived": true}"#,
                    expectation: .refused
                )
            ]
            if route.method == .get { list.append(Probe(uri: at(mine), expectation: .answeredWithoutTheOtherBook)) }
            return list
        case (_, "/api/v1/tokens/:id/revoke"):
            return [Probe(uri: at(victim.ownerToken!.rawValue), expectation: .refused)]
        case (_, "/api/v1/export/:file"):
            return ["sales.csv", "clinics.json", "products.csv", "terms.json", "payouts.csv"].map {
                Probe(uri: path.replacing(":file", with: $0), expectation: .answeredWithoutTheOtherBook)
            }
        case (.post, "/api/v1/sales"):
            return [
                Probe(
                    uri: path,
                    body:
                        #"{"clinicId": \#(victim.clinic.id.rawValue), "productId": \#(victim.product.id.rawValue), "quantity": 1}"#,
                    expectation: .refused
                ),
                Probe(
                    uri: path,
                    body:
                        #"{"clinicId": \#(own.clinic.id.rawValue), "productId": \#(victim.product.id.rawValue), "quantity": 1}"#,
                    expectation: .refused
                ),
                Probe(
                    uri: path,
                    body: #"{"clinic": "\#(victim.clinic.name)", "product": "\#(victim.product.name)", "quantity": 1}"#,
                    expectation: .refused
                ),
            ]
        case (.post, "/api/v1/terms"):
            return [
                Probe(
                    uri: path,
                    body: #"{"clinicId": \#(victim.clinic.id.rawValue), "share": "10", "effectiveFrom": "2001-01-01"}"#,
                    expectation: .refused
                ),
                Probe(
                    uri: path,
                    body: #"{"clinic": "\#(victim.clinic.name)", "share": "10", "effectiveFrom": "2001-01-01"}"#,
                    expectation: .refused
                ),
            ]
        case (.post, "/api/v1/prices"):
            return [
                Probe(
                    uri: path,
                    body:
                        #"{"clinicId": \#(victim.clinic.id.rawValue), "productId": \#(victim.product.id.rawValue), "unitPrice": "1.00"}"#,
                    expectation: .refused
                ),
                Probe(
                    uri: path,
                    body:
                        #"{"clinicId": \#(own.clinic.id.rawValue), "productId": \#(victim.product.id.rawValue), "unitPrice": "1.00"}"#,
                    expectation: .refused
                ),
                Probe(
                    uri: path,
                    body:
                        #"{"clinic": "\#(victim.clinic.name)", "product": "\#(victim.product.name)", "unitPrice": "1.00"}"#,
                    expectation: .refused
                ),
            ]
        case (.delete, "/api/v1/prices/:id"):
            return [Probe(uri: at(victim.price.id.rawValue), expectation: .refused)]
        case (.post, "/api/v1/deductions"):
            return [
                Probe(
                    uri: path,
                    body: #"{"clinicId": \#(victim.clinic.id.rawValue), "name": "Taken", "amount": "1.00"}"#,
                    expectation: .refused
                ),
                Probe(
                    uri: path,
                    body: #"{"clinic": "\#(victim.clinic.name)", "name": "Taken", "amount": "1.00"}"#,
                    expectation: .refused
                ),
            ]
        case (_, "/api/v1/deductions/:id"):
            return [
                Probe(
                    uri: at(victim.deduction.id.rawValue),
                    body: #"{"name": "Taken", "amount": "9.00"}"#,
                    expectation: .refused
                )
            ]
        case (.get, "/api/v1/deductions"):
            return [
                Probe(uri: path + "?clinicId=\(victim.clinic.id.rawValue)", expectation: .answeredWithoutTheOtherBook),
                Probe(uri: path, expectation: .answeredWithoutTheOtherBook),
            ]
        case (.get, "/api/v1/prices"):
            return [
                Probe(uri: path + "?clinicId=\(victim.clinic.id.rawValue)", expectation: .answeredWithoutTheOtherBook),
                Probe(uri: path, expectation: .answeredWithoutTheOtherBook),
            ]
        case (.post, "/api/v1/payouts"):
            return [
                Probe(
                    uri: path,
                    body:
                        #"{"clinicId": \#(victim.clinic.id.rawValue), "period": "\#(victim.sale.date)", "amount": "1.00"}"#,
                    expectation: .refused
                )
            ]
        case (.post, "/api/v1/payouts/bank"):
            // A deposit of what the other book's sale earns, accepted: matched (and recorded) in her own book only.
            return [
                Probe(
                    uri: path + "?accept=true",
                    body:
                        "Date,Amount,Description\n\(victim.sale.date.adding(days: 20)),\(Currency.usd.format(victim.sale.figures.commission)),Payment\n",
                    contentType: "text/csv",
                    expectation: .answeredWithoutTheOtherBook
                )
            ]
        case (.delete, "/api/v1/payouts/:id"):
            return [Probe(uri: at(victim.payout.id.rawValue), expectation: .refused)]
        case (.post, "/api/v1/batch"):
            // Each kind of write aimed at the other book's records, alone and behind one of its own.
            let theirs = [
                #"{"sale": {"clinicId": \#(victim.clinic.id.rawValue), "productId": \#(victim.product.id.rawValue), "quantity": 1}}"#,
                #"{"sale": {"clinic": "\#(victim.clinic.name)", "product": "\#(victim.product.name)", "quantity": 1}}"#,
                #"{"voidSale": \#(victim.sale.id.rawValue)}"#,
                #"{"terms": {"clinicId": \#(victim.clinic.id.rawValue), "share": "10", "effectiveFrom": "2001-01-01"}}"#,
                #"{"payout": {"clinicId": \#(victim.clinic.id.rawValue), "period": "\#(victim.sale.date)", "amount": "1.00"}}"#,
                #"{"price": {"clinicId": \#(victim.clinic.id.rawValue), "productId": \#(victim.product.id.rawValue), "unitPrice": "1.00"}}"#,
                #"{"deduction": {"clinicId": \#(victim.clinic.id.rawValue), "name": "Taken", "amount": "1.00"}}"#,
            ]
            return theirs.flatMap { write in
                [
                    Probe(uri: path, body: #"{"writes": [\#(write)]}"#, expectation: .refused),
                    Probe(
                        uri: path,
                        body: #"{"writes": [{"clinic": {"name": "Batch intruder"}}, \#(write)]}"#,
                        expectation: .refused
                    ),
                ]
            }
        case (.post, "/api/v1/import/rows"):
            return [
                Probe(
                    uri: path,
                    body:
                        #"{"rows": [{"line": 2, "sale": {"clinic": "\#(victim.clinic.name)", "product": "\#(victim.product.name)", "date": "\#(victim.sale.date)"}}]}"#,
                    expectation: .refused
                ),
                Probe(
                    uri: path,
                    body:
                        #"{"rows": [{"line": 2, "price": {"clinic": "\#(victim.clinic.name)", "product": "\#(victim.product.name)", "unitPrice": "1.00"}}]}"#,
                    expectation: .refused
                ),
            ]
        case (.post, "/api/v1/import"):
            return [
                Probe(
                    uri: path + "?kind=sales",
                    body: "date,clinic,product\n\(victim.sale.date),\(victim.clinic.name),\(victim.product.name)\n",
                    contentType: "text/csv",
                    expectation: .refused
                )
            ]
        case (.post, "/api/v1/clinics"):
            return [Probe(uri: path, body: #"{"name": "Intruder clinic"}"#, expectation: .answeredWithoutTheOtherBook)]
        case (.post, "/api/v1/products"):
            return [
                Probe(
                    uri: path,
                    body: #"{"name": "Intruder product", "unitPrice": "1.00"}"#,
                    expectation: .answeredWithoutTheOtherBook
                )
            ]
        case (.post, "/api/v1/settings"):
            return [Probe(uri: path, body: #"{"timeZone": "Europe/Paris"}"#, expectation: .answeredWithoutTheOtherBook)]
        case (.post, "/api/v1/tokens"):
            return [Probe(uri: path, body: #"{"name": "another"}"#, expectation: .answeredWithoutTheOtherBook)]
        case (.post, "/api/v1/invitations"):
            return [Probe(uri: path, body: "{}", expectation: .answeredWithoutTheOtherBook)]
        // Her reminders and calendar are her account's: nothing of the other book's to reach.
        case (.post, "/api/v1/notifications/settings"):
            return [Probe(uri: path, body: #"{"time": "18:00"}"#, expectation: .answeredWithoutTheOtherBook)]
        case (.post, "/api/v1/notifications/devices"):
            let keys = #"{"p256dh": "\#(ReminderStoreKeys.p256dh)", "auth": "\#(ReminderStoreKeys.auth)"}"#
            return [
                Probe(
                    uri: path,
                    body: #"{"endpoint": "https://93.184.215.14/push/\#(UUID().uuidString)", "keys": \#(keys)}"#,
                    expectation: .answeredWithoutTheOtherBook
                )
            ]
        case (.post, "/api/v1/notifications/devices/:id/remove"):
            return [Probe(uri: path.replacing(":id", with: "999999"), expectation: .refused)]
        case (.post, "/api/v1/notifications/test"), (.post, "/api/v1/calendar"), (.post, "/api/v1/calendar/revoke"):
            return [Probe(uri: path, expectation: .answeredWithoutTheOtherBook)]
        case (.get, "/api/v1/changes/since/:revision"):
            // With no epoch, or one that is not the book's: where the caller's own book stands (410).
            return ["/api/v1/changes/since/0", "/api/v1/changes/since/0?epoch=another"].map {
                Probe(uri: $0, expectation: .answeredWithoutTheOtherBook)
            }
        case (.get, "/api/v1/year/:year"):
            return ["", "?format=csv"].map {
                Probe(uri: "/api/v1/year/\(own.sale.date.year)" + $0, expectation: .ownRecordShown)
            }
        case (.get, "/api/v1/statements"):
            return ["", "&format=csv"].map {
                Probe(uri: path + "?from=\(own.sale.date.firstOfMonth)" + $0, expectation: .ownRecordShown)
            }
        case (.get, _) where !path.contains(":"):
            return [Probe(uri: path, expectation: .answeredWithoutTheOtherBook)]
        default:
            Issue.record("the sweep has no probe for \(route): add one")
            return []
        }
    }

    /// The first event of a live dashboard stream (a comment before it, the heartbeat on a busy
    /// machine, skipped as a browser's EventSource does).
    func firstEvent(port: Int, token: String) async throws -> String {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/v1/events")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        #expect(response.status == .ok)
        var text = ""
        for try await chunk in response.body {
            text += String(buffer: chunk)
            while text.hasPrefix(":"), let end = text.range(of: "\n\n") { text.removeSubrange(..<end.upperBound) }
            if text.contains("\n\n") { break }
        }
        return text
    }
}
