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

/// `/setup` creates the owner of a server's own book, before any account exists; a book made by
/// `commission books add` is claimed through its owner's one-time link alone.
@Suite struct SetupTests {
    /// The owner's link of a new book, as `commission books add` makes it.
    static func ownersLink() -> (path: String, digest: String) {
        let secret = WebSecrets.make()
        return (WebSecrets.invitationPath + secret, WebSecrets.digest(secret))
    }

    /// Tries `/setup` as a stranger: the page and the form both send to sign-in, and nobody is made.
    static func strangerIsTurnedAway(_ client: some TestClientProtocol) async throws {
        let page = try await client.execute(uri: "/setup", method: .get)
        #expect(page.status == .seeOther && page.headers[.location] == "/login")
        let home = try await client.execute(uri: "/", method: .get)
        #expect(home.headers[.location] == "/login")
        // A form posted anyway, with a matching double-submit token.
        var headers = formHeaders
        headers[.cookie] = "commission_csrf=tok"
        let posted = try await client.execute(
            uri: "/setup",
            method: .post,
            headers: headers,
            body: form(["csrf": "tok", "username": "stranger", "password": "a long enough password"])
        )
        #expect(posted.status == .seeOther && posted.headers[.location] == "/login")
        #expect(posted.cookies["commission_session"] == nil)
    }

    @Test("An SQLite book waiting for its owner's link is not offered at setup") func waitingBookNotOffered()
        async throws
    {
        let test = try await TestApp()
        let link = Self.ownersLink()
        try await test.store.createInvitation(
            tokenDigest: link.digest,
            role: .owner,
            invitedBy: nil,
            expiresAt: Date().addingTimeInterval(600)
        )
        try await test.app.test(.router) { client in
            try await Self.strangerIsTurnedAway(client)
            #expect(try await test.store.members().isEmpty)

            _ = try await accept(client, path: link.path, username: "maya")
            #expect(try await test.store.members().map { "\($0.account.username):\($0.role)" } == ["maya:owner"])

            // Another such link for the same book is spent: it says so and adds nobody.
            let late = Self.ownersLink()
            try await test.store.createInvitation(
                tokenDigest: late.digest,
                role: .owner,
                invitedBy: nil,
                expiresAt: Date().addingTimeInterval(600)
            )
            let spent = try await client.execute(uri: late.path, method: .get)
            #expect(spent.status == .gone && spent.text.contains("This link is spent"), "\(spent.text)")
            var headers = formHeaders
            headers[.cookie] = "commission_csrf=tok"
            let posted = try await client.execute(
                uri: late.path,
                method: .post,
                headers: headers,
                body: form(["csrf": "tok", "username": "mallory", "password": "a long enough password"])
            )
            #expect(posted.status == .gone)
            #expect(try await test.store.members().count == 1)
        }
    }

    @Test("A book added to an empty PostgreSQL server is claimed only through its link")
    func bookClaimedThroughItsLink() async throws {
        guard let server = ProcessInfo.processInfo.environment["COMMISSION_TEST_POSTGRES_URL"], !server.isEmpty else {
            throw StoreError.storage(
                "COMMISSION_TEST_POSTGRES_URL is not set: run the tests with scripts/test, which starts a throw-away PostgreSQL"
            )
        }
        let database = try await PostgresBookDatabase(
            url: try await PostgresBookDatabase.createDatabase(prefix: "commission_setup", onServer: server)
        )
        defer { database.shutdown() }
        let settings = BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        // `commission books add` on an empty database: the new book is the server's first.
        let link = Self.ownersLink()
        let added = try await PostgresStore.createBook(
            in: database,
            name: "Maya's book",
            settings: settings,
            ownersLink: (link.digest, Date().addingTimeInterval(600))
        )
        let books = PostgresBooks(database: database, defaultSettings: settings)
        #expect(try await books.defaultBook() == added.book)
        #expect(try await !books.setupIsOpen(book: added.book))

        let app = buildApplication(configuration: WebConfiguration(bcryptCost: 4), books: books)
        try await app.test(.router) { client in
            try await Self.strangerIsTurnedAway(client)
            #expect(try await added.members().isEmpty)

            _ = try await accept(client, path: link.path, username: "maya")
            #expect(try await added.members().map { "\($0.account.username):\($0.role)" } == ["maya:owner"])
            // Used: the link now leads nowhere.
            #expect(try await client.execute(uri: link.path, method: .get).status == .notFound)
        }
    }

    @Test("Setup is closed on a server once any of its books has an account") func setupClosedOnceAnAccount()
        async throws
    {
        guard let server = ProcessInfo.processInfo.environment["COMMISSION_TEST_POSTGRES_URL"], !server.isEmpty else {
            throw StoreError.storage(
                "COMMISSION_TEST_POSTGRES_URL is not set: run the tests with scripts/test, which starts a throw-away PostgreSQL"
            )
        }
        let database = try await PostgresBookDatabase(
            url: try await PostgresBookDatabase.createDatabase(prefix: "commission_setup", onServer: server)
        )
        defer { database.shutdown() }
        let settings = BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        // The server's own first book (made by `serve`), then a book added for Maya, who claims it.
        let first = try await PostgresStore.firstBook(in: database, creatingWith: settings)
        let books = PostgresBooks(database: database, defaultSettings: settings)
        #expect(try await books.setupIsOpen(book: first.book))
        let link = Self.ownersLink()
        let added = try await PostgresStore.createBook(
            in: database,
            name: "Maya's book",
            settings: settings,
            ownersLink: (link.digest, Date().addingTimeInterval(600))
        )
        #expect(try await !books.setupIsOpen(book: added.book))

        let app = buildApplication(configuration: WebConfiguration(bcryptCost: 4), books: books)
        try await app.test(.router) { client in
            // Before any account: the first book is offered at /setup, as a server's own book is.
            #expect(try await client.execute(uri: "/setup", method: .get).status == .ok)
            _ = try await accept(client, path: link.path, username: "maya")
            // Now an account exists on the server: /setup is closed, the first book stays unowned.
            #expect(try await !books.setupIsOpen(book: first.book))
            try await Self.strangerIsTurnedAway(client)
            #expect(try await first.members().isEmpty)
        }
    }
}
