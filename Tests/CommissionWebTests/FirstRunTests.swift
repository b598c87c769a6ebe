import CommissionCore
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Her first minutes on an empty book: the set-up form makes her account and the book's currency,
/// time zone and locale, and (if she fills it in) her first clinic with its split and products —
/// whose terms count from the start of her records, so a sale of yesterday is taken.
@Suite struct FirstRunTests {
    /// An empty book's app.
    static func emptyBook() throws -> (SQLiteStore, Application<RouterResponder<AppRequestContext>>) {
        let store = try SQLiteStore(.inMemory, defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"))
        var configuration = WebConfiguration(bcryptCost: 4)
        configuration.sampleStore = { try SQLiteStore(.inMemory) }
        return (store, Application(router: buildRouter(configuration: configuration, store: store)))
    }

    /// The set-up form, as a browser that asks for `language` draws it: its text, and the headers
    /// and token to post it with.
    static func setupForm(
        _ client: some TestClientProtocol,
        language: String
    ) async throws -> (page: String, headers: HTTPFields, csrf: String) {
        let page = try await client.execute(uri: "/setup", method: .get, headers: [.acceptLanguage: language])
        var headers = formHeaders
        headers[.cookie] = "commission_csrf=\(try #require(page.cookies["commission_csrf"]))"
        headers[.acceptLanguage] = language
        return (page.text, headers, try #require(csrfField(page.text)))
    }

    @Test("Set-up proposes from her browser and makes the book and her first clinic") func setUpFromHerBrowser()
        async throws
    {
        let (store, app) = try Self.emptyBook()
        try await app.test(.router) { client in
            let (page, headers, csrf) = try await Self.setupForm(client, language: "de-DE,de;q=0.9,en;q=0.5")
            // Her history in a spreadsheet: she is told to leave the first clinic for the import.
            #expect(page.contains("Your sales already in a spreadsheet? Leave this empty"))
            // Proposed from her browser: German locale, euros; the time zone is the phone's (app.js).
            #expect(
                page.contains(#"<option value="EUR" selected>"#) && page.contains(#"<option value="de_DE" selected>"#),
                "\(page)"
            )
            #expect(page.contains("data-propose-time-zone") && page.contains(#"id="c-name""#))
            let made = try await client.execute(
                uri: "/setup",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "username": "ana", "password": "a long enough password",
                    "currency": "EUR", "timeZone": "Europe/Berlin", "locale": "de_DE",
                    "name": "Bella Skin", "scheduleKind": "monthly", "share": "40", "basis": "profit",
                    "product0": "Hydra Serum", "price0": "38,00", "cost0": "12,50", "product1": "Eye Cream",
                    "price1": "24", "cost1": "",
                ])
            )
            #expect(made.status == .seeOther, "\(made.text)")
            let settings = try await store.settings()
            #expect(
                settings.currency.code == "EUR" && settings.timeZoneIdentifier == "Europe/Berlin"
                    && settings.localeIdentifier == "de_DE"
            )
            let clinic = try await store.clinic(named: "Bella Skin")
            #expect(made.headers[.location] == "/?clinic=\(clinic.id)&added=\(clinic.id)")
            let terms = try await store.terms(TermsQuery(clinicID: clinic.id))
            #expect(terms.map(\.share.percentText) == ["40.00"] && terms.first?.effectiveFrom == AcceptedDays.earliest)
            let products = try await store.products(ProductQuery())
            #expect(products.map(\.name).sorted() == ["Eye Cream", "Hydra Serum"])
            #expect(products.first { $0.name == "Hydra Serum" }?.unitCost == Money(minorUnits: 1250))

            // The Sale page says what was added, in her words, and what to do next.
            let session = try #require(made.cookies["commission_session"])
            let sale = try await client.execute(
                uri: made.headers[.location] ?? "",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            #expect(
                sale.contains("Added Bella Skin, paid monthly, 40% of profit. Record a sale there below."),
                "\(sale)"
            )
            // Her first clinic's split counts from the start of her records, said so (never "from 01.01.1900").
            let book = try await client.execute(
                uri: "/book",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            #expect(book.contains("40% of profit · from the start") && !book.contains("01.01.1900"), "\(book)")
            // Its own form is the step left: no checklist above it (the dashboard keeps one until the first sale).
            #expect(!sale.contains(#"id="first-steps""#) && sale.contains(#"id="yesterday""#))

            // Her dashboard before a sale says what will show there, and the one action that fills it; no empty chart.
            let empty = try await client.execute(
                uri: "/dashboard",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            #expect(
                empty.contains("No sales yet this year")
                    && empty.contains(#"<a class="button primary" href="/">Record a sale</a>"#)
                    && !empty.contains(#"<svg class="chart"#),
                "\(empty)"
            )
            // And for her whose history is in a spreadsheet: one import instead of the steps, offered.
            #expect(
                empty.contains(#"id="first-steps-import""#) && empty.contains(#"<a href="/transfer">Import it</a>"#),
                "\(empty)"
            )

            // A sale of yesterday is taken: the terms count from the start of her records.
            var signedIn = formHeaders
            signedIn[.cookie] = "commission_session=\(session)"
            let yesterday = settings.today().adding(days: -1)
            let saved = try await client.execute(
                uri: "/sales",
                method: .post,
                headers: signedIn,
                body: form([
                    "csrf": try #require(csrfField(sale)), "key": "first", "clinic": "\(clinic.id)",
                    "product": "\(try #require(products.first { $0.name == "Hydra Serum" }).id)", "quantity": "1",
                    "date": yesterday.description,
                ])
            )
            #expect(saved.status == .seeOther, "\(saved.text)")
            let recorded = try await store.sales(SaleQuery())
            #expect(
                recorded.map(\.date) == [yesterday] && recorded.first?.figures.commission == Money(minorUnits: 1020)
            )
            // Done: the first steps are gone from the dashboard.
            let dashboard = try await client.execute(
                uri: "/dashboard",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            #expect(!dashboard.contains(#"id="first-steps""#) && dashboard.contains("Bella Skin"), "\(dashboard)")
            #expect(
                dashboard.contains(#"<svg class="chart chart-narrow""#)
                    && dashboard.contains(#"<svg class="chart chart-wide""#)
                    && !dashboard.contains("No sales yet this year")
            )

            // Paid beyond what she earned there: a credit, said in words and in the credit's colour, never a negative amount.
            _ = try await store.createPayout(
                PayoutDraft(
                    clinicID: clinic.id,
                    period: clinic.calendar.period(containing: yesterday),
                    amount: Money(minorUnits: 2000),
                    receivedOn: settings.today()
                )
            )
            let credit = try await client.execute(
                uri: "/dashboard",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            let over = settings.style.format(Money(minorUnits: 980))
            #expect(
                credit.contains(
                    #"<span class="owed amount credit" data-owed title="paid beyond what it owes">\#(over)</span>"#
                )
                    && credit.contains(
                        #"<li><span class="chip tone-credit">Credit</span> <span class="amount">\#(over)</span></li>"#
                    )
                    && !credit.contains("-\(over)"),
                "\(credit)"
            )
        }
    }

    /// Try it first: the empty book's first screen opens a sample book (the demo book), marked on
    /// every page, in another store than hers; one tap leaves it, and once her book is set up the
    /// sample is gone from that browser too.
    @Test func aSampleBookToLookAroundInNeverTouchesHerBook() async throws {
        let (store, app) = try Self.emptyBook()
        try await app.test(.router) { client in
            let (page, headers, csrf) = try await Self.setupForm(client, language: "en-US")
            // Offered above the set-up form, where her first screen is.
            #expect(
                page.contains(#"<form method="post" action="/sample" class="try-first" id="sample-form">"#)
                    && page.range(of: "sample-form")!.lowerBound < page.range(of: "setup-form")!.lowerBound,
                "\(page)"
            )
            let opened = try await client.execute(
                uri: "/sample",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf])
            )
            #expect(opened.status == .seeOther && opened.headers[.location] == "/dashboard", "\(opened.text)")
            let session = try #require(opened.cookies["commission_session"])
            #expect(opened.cookies["commission_sample"] == "1")
            let inSample: HTTPFields = [.cookie: "commission_session=\(session); commission_sample=1"]

            // Every page of the sample says what it is, with the way out.
            for path in ["/dashboard", "/sales", "/book"] {
                let shown = try await client.execute(uri: path, method: .get, headers: inSample)
                #expect(
                    shown.status == .ok && shown.text.contains(#"<div class="sample-banner" role="note">"#)
                        && shown.text.contains(
                            #"<a class="button primary" href="/sample/leave">Set up your own book</a>"#
                        ),
                    "\(path): \(shown.text)"
                )
            }
            #expect(
                try await client.execute(uri: "/dashboard", method: .get, headers: inSample).text.contains(
                    "Glow Aesthetics"
                )
            )
            // Entering it clears what the browser kept of the site (offline pages, sales waiting to send).
            #expect(opened.headers[HTTPField.Name("Clear-Site-Data")!] == #""cache", "storage""#)
            // It is for looking around: no API, imports, restores, settings or tokens.
            for (uri, method) in [
                ("/api/v1/dashboard", HTTPRequest.Method.get), ("/settings/tokens", .post),
                ("/transfer/restore", .post), ("/import", .post),
            ] {
                let refused = try await client.execute(uri: uri, method: method, headers: inSample)
                #expect(
                    refused.status == .forbidden && refused.text.contains("The sample book is for looking around"),
                    "\(uri): \(refused.text)"
                )
            }
            // Her book is as it was: empty, awaiting set-up.
            #expect(try await store.clinics(ClinicQuery(includeArchived: true)).isEmpty)
            #expect(try await store.awaitsSetup())

            // One tap leaves it: both cookies cleared, back to set-up.
            let left = try await client.execute(uri: "/sample/leave", method: .get, headers: inSample)
            #expect(left.status == .seeOther && left.headers[.location] == "/setup")
            let cleared = left.headers[values: .setCookie]
            #expect(
                cleared.contains { $0.hasPrefix("commission_sample=;") && $0.contains("Max-Age=0") }
                    && cleared.contains { $0.hasPrefix("commission_session=;") && $0.contains("Max-Age=0") },
                "\(cleared)"
            )
            #expect(left.headers[HTTPField.Name("Clear-Site-Data")!] == #""cache", "storage""#)
            // Its session ended: the cookies, sent again, lead out of the sample to set-up (not to a sign-in nobody can pass).
            let stale = try await client.execute(uri: "/dashboard", method: .get, headers: inSample)
            #expect(stale.status == .seeOther && stale.headers[.location] == "/setup", "\(stale.status)")
            // Reached without the sample's cookie (a link from anywhere), it clears only that cookie, never her session.
            let elsewhere = try await client.execute(uri: "/sample/leave", method: .get)
            #expect(
                elsewhere.status == .seeOther
                    && !elsewhere.headers[values: .setCookie].contains { $0.hasPrefix("commission_session=") }
            )

            // A browser still in the sample once her book is set up is sent to her book's sign-in, the sample forgotten.
            _ = try await store.createOwner(username: "ana", passwordHash: "x")
            let after = try await client.execute(uri: "/dashboard", method: .get, headers: inSample)
            #expect(after.status == .seeOther && after.headers[.location] == "/login")
            #expect(after.headers[values: .setCookie].contains { $0.hasPrefix("commission_sample=;") })
            // And nobody opens it any more.
            let late = try await client.execute(
                uri: "/sample",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf])
            )
            #expect(
                late.status == .seeOther && late.headers[.location] == "/login"
                    && late.cookies["commission_sample"] == nil
            )
        }
    }

    /// A refusal anywhere in the form makes nothing: no account, no clinic; the form comes back
    /// with what she typed and the sentence.
    @Test func aRefusedSetUpMakesNothingAndKeepsWhatSheTyped() async throws {
        let (store, app) = try Self.emptyBook()
        try await app.test(.router) { client in
            let (_, headers, csrf) = try await Self.setupForm(client, language: "en-GB")
            let refused = try await client.execute(
                uri: "/setup",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "username": "ana", "password": "a long enough password", "currency": "GBP",
                    "timeZone": "Europe/London",
                    "locale": "en_GB", "name": "Bella Skin", "share": "140", "product0": "Hydra Serum",
                    "price0": "38.00",
                ])
            )
            #expect(refused.status == .unprocessableContent)
            #expect(
                refused.text.contains("Your share:") && refused.text.contains(#"value="Bella Skin""#)
                    && refused.text.contains(#"value="Hydra Serum""#),
                "\(refused.text)"
            )
            let (members, clinics, products) = (
                try await store.members(), try await store.clinics(ClinicQuery()),
                try await store.products(ProductQuery())
            )
            #expect(members.isEmpty && clinics.isEmpty && products.isEmpty)
            let zone = try await client.execute(
                uri: "/setup",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "username": "ana", "password": "a long enough password", "currency": "GBP",
                    "timeZone": "Mars/Olympus", "locale": "en_GB",
                ])
            )
            #expect(
                zone.status == .unprocessableContent && zone.text.contains("is not an IANA time zone"),
                "\(zone.text)"
            )
            #expect(try await store.members().isEmpty)
        }
    }

    /// Her first clinic may wait: without it, set-up leads to the Sale page and its first steps.
    @Test func theFirstClinicMayWaitAndTheFirstStepsLeadToIt() async throws {
        let (store, app) = try Self.emptyBook()
        try await app.test(.router) { client in
            let (_, headers, csrf) = try await Self.setupForm(client, language: "en-US")
            let made = try await client.execute(
                uri: "/setup",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "username": "ana", "password": "a long enough password", "currency": "USD",
                    "timeZone": "America/New_York", "locale": "en_US",
                ])
            )
            #expect(made.status == .seeOther && made.headers[.location] == "/")
            #expect(try await store.clinics(ClinicQuery()).isEmpty)
            let session = try #require(made.cookies["commission_session"])
            let sale = try await client.execute(
                uri: "/",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            #expect(sale.contains(#"<a href="/welcome">Add a clinic and your split</a>"#), "\(sale)")
            let welcome = try await client.execute(
                uri: "/welcome",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            #expect(
                welcome.contains(#"<form method="post" action="/welcome""#)
                    && welcome.contains(#"name="name" value="" required"#),
                "\(welcome)"
            )
        }
    }

    /// A book that already holds amounts (imported before its first visit) keeps its currency:
    /// the form offers only that one, and says why.
    @Test func aBookWithAmountsKeepsItsCurrencyAtSetUp() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (page, headers, csrf) = try await Self.setupForm(client, language: "de-DE")
            #expect(
                page.contains("The book already holds amounts in USD") && !page.contains(#"value="EUR""#)
                    && !page.contains(#"id="c-name""#),
                "\(page)"
            )
            let made = try await client.execute(
                uri: "/setup",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "username": "ana", "password": "a long enough password", "currency": "EUR",
                    "timeZone": "Europe/Berlin", "locale": "de_DE",
                ])
            )
            #expect(made.status == .seeOther && made.headers[.location] == "/")
            #expect(try await test.store.settings().currency.code == "USD")
        }
    }
}
