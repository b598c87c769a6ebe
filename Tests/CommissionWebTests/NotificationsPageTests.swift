import CommissionCore
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Settings → Notifications, as her browser uses it: a device subscribed (only a push service the
/// server may call), her choices, a test notification read as her phone reads it, a device
/// removed; her pay dates calendar by its secret alone, renewed and turned off; and a note to a
/// late clinic on Payouts.
@Suite struct NotificationsPageTests {
    let store: SQLiteStore
    let push = FakePushService()

    init() throws {
        store = try SQLiteStore(.inMemory, defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"))
    }

    func app(unsafe: Bool = true, transport: Bool = true, published: Bool = true) -> some ApplicationProtocol {
        var configuration = WebConfiguration(bcryptCost: 4)
        configuration.pushTransport = transport ? push : nil
        configuration.unsafePushEndpoints = unsafe
        configuration.publicAddress = published ? PublicAddress("https://commission.example.net") : nil
        return Application(router: buildRouter(configuration: configuration, store: store))
    }

    /// Glow (monthly, 40% of profit) and a serum (50.00, cost 20.00); today in the book.
    func glowAndSerum() async throws -> (glow: Clinic, serum: Product, today: Day) {
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
        return (glow, serum, try await store.settings().today())
    }

    func post(
        _ client: some TestClientProtocol,
        _ uri: String,
        _ fields: [String: String],
        session: (cookie: String, csrf: String),
        agent: String = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36"
    ) async throws -> TestResponse {
        var headers = formHeaders
        headers[.cookie] = "commission_session=\(session.cookie)"
        headers[.userAgent] = agent
        return try await client.execute(
            uri: uri,
            method: .post,
            headers: headers,
            body: form(fields.merging(["csrf": session.csrf]) { a, _ in a })
        )
    }

    /// Signed out on her phone: the page's script sends the browser's subscription with the form
    /// (and unsubscribes it); the server forgets that device, and only that one.
    @Test func signingOutForgetsThisBrowsersSubscription() async throws {
        let (phone, laptop) = (TestSubscription(), TestSubscription())
        try await app().test(.router) { client in
            let session = try await signUp(client)
            let owner = try #require(try await store.credentials(username: "ana")).account
            for device in [phone, laptop] {
                let added = try await post(
                    client,
                    "/settings/notifications/devices",
                    ["endpoint": device.endpoint, "p256dh": device.p256dh, "auth": device.authText],
                    session: session
                )
                #expect(added.status == .ok)
            }
            #expect(try await store.pushDevices(of: owner.id).count == 2)
            let out = try await post(client, "/logout", ["pushEndpoint": phone.endpoint], session: session)
            #expect(out.status == .seeOther || out.status == .found, "\(out.status)")
            #expect(try await store.pushDevices(of: owner.id).map(\.endpoint) == [laptop.endpoint])
        }
    }

    @Test func aDeviceIsSubscribedTestedAndRemovedAndHerChoicesKept() async throws {
        let phone = TestSubscription()
        try await app().test(.router) { client in
            let session = try await signUp(client)
            let owner = try #require(try await store.credentials(username: "ana")).account
            let page = try await client.execute(
                uri: "/settings/notifications",
                method: .get,
                headers: [.cookie: "commission_session=\(session.cookie)"]
            )
            #expect(
                page.status == .ok && page.text.contains("Turn on notifications here")
                    && page.text.contains("None yet.")
            )
            let identity = try await WebPush.Identity.kept(in: store)
            #expect(
                page.text.contains("data-key=\"\(identity.publicKey)\""),
                "the browser subscribes to this server's key"
            )

            let added = try await post(
                client,
                "/settings/notifications/devices",
                ["endpoint": phone.endpoint, "p256dh": phone.p256dh, "auth": phone.authText],
                session: session
            )
            #expect(added.status == .ok && added.text.contains("Notifications are on for this device."))
            #expect(added.text.contains("Chrome on Android"))
            let devices = try await store.pushDevices(of: owner.id)
            #expect(devices.map(\.label) == ["Chrome on Android"] && devices.first?.endpoint == phone.endpoint)

            let tested = try await post(client, "/settings/notifications/test", [:], session: session)
            #expect(tested.status == .ok && tested.text.contains("Sent"))
            #expect(try phone.messages(push).map { $0["title"] } == ["Commission"])

            let saved = try await post(
                client,
                "/settings/notifications",
                ["lateClinics": "on", "time": "20:30"],
                session: session
            )
            #expect(saved.status == .ok && saved.text.contains("Notifications saved."))
            #expect(
                try await store.reminderSettings(of: owner.id)
                    == ReminderSettings(endOfDay: false, lateClinics: true, endOfDayMinute: 20 * 60 + 30)
            )
            let refused = try await post(
                client,
                "/settings/notifications",
                ["endOfDay": "on", "time": "25:00"],
                session: session
            )
            #expect(refused.status.code == 422 && refused.text.contains("a time of day"))
            #expect(
                try await store.reminderSettings(of: owner.id).endOfDayMinute == 20 * 60 + 30,
                "a refusal changes nothing"
            )

            let id = try #require(devices.first?.id.rawValue)
            let removed = try await post(client, "/settings/notifications/devices/\(id)/remove", [:], session: session)
            #expect(removed.status == .ok && removed.text.contains("None yet."))
            let none = try await post(client, "/settings/notifications/test", [:], session: session)
            #expect(none.status == .conflict && none.text.contains("turn them on above"))
            #expect(!none.text.contains("commission "), "no terminal command on the page")
        }
    }

    @Test func aPushServiceInsideTheServersNetworkIsRefusedAndNothingKept() async throws {
        let phone = TestSubscription()
        try await app(unsafe: false).test(.router) { client in
            let session = try await signUp(client)
            for endpoint in ["http://127.0.0.1:9/push", "https://127.0.0.1/push", "https://[::1]/push"] {
                let refused = try await post(
                    client,
                    "/settings/notifications/devices",
                    ["endpoint": endpoint, "p256dh": phone.p256dh, "auth": phone.authText],
                    session: session
                )
                #expect(
                    refused.status.code == 422 && refused.text.contains("cannot be reached from the server"),
                    "\(endpoint)"
                )
            }
            #expect(try await store.pushDevices(of: nil).isEmpty)
        }
    }

    @Test func aServerThatSendsNoneSaysSoAndALinkOnlyThisComputerReachesIsSaid() async throws {
        try await app(transport: false, published: false).test(.router) { client in
            let session = try await signUp(client)
            let page = try await client.execute(
                uri: "/settings/notifications",
                method: .get,
                headers: [.cookie: "commission_session=\(session.cookie)"]
            )
            #expect(page.text.contains("This server sends no notifications") && !page.text.contains("push-on"))
            let made = try await post(client, "/settings/calendar", ["action": "new"], session: session)
            #expect(made.text.contains("http://127.0.0.1:8080/calendar/") && made.text.contains("own address"))
        }
    }

    @Test func herCalendarIsReadByItsSecretAloneUntilRenewedOrTurnedOff() async throws {
        let (glow, serum, today) = try await glowAndSerum()
        try await app().test(.router) { client in
            let session = try await signUp(client)
            // A sale of her history (dated before the set-up): unconfirmed until she answers.
            _ = try await store.createSale(
                SaleDraft(clinicID: glow.id, productID: serum.id, date: today.adding(days: -40), quantity: 2),
                idempotencyKey: nil
            )
            let made = try await post(client, "/settings/calendar", ["action": "new"], session: session)
            let link = try #require(
                made.text.firstMatch(of: /https:\/\/commission\.example\.net(\/calendar\/[A-Za-z0-9_-]+\.ics)/)
            )
            #expect(made.text.contains("href=\"webcal://commission.example.net/calendar/"))
            #expect(!made.text.contains("own address"), "a public address reaches her phone")
            let path = String(link.1)
            let feed = try await client.execute(uri: path, method: .get)
            #expect(feed.status == .ok && feed.headers[.contentType]?.hasPrefix("text/calendar") == true)
            #expect(
                feed.text.hasPrefix("BEGIN:VCALENDAR\r\n")
                    && feed.text.contains("SUMMARY:Unconfirmed: Glow\\, $24.00 — was it paid?")
            )
            // She says it was not paid: it is overdue, and the feed says so (a new ETag).
            try await store.setHistoryQuestion(nil)
            let answered = try await client.execute(
                uri: path,
                method: .get,
                headers: [.ifNoneMatch: try #require(feed.headers[.eTag])]
            )
            #expect(answered.status == .ok && answered.text.contains("SUMMARY:Overdue: Glow owes $24.00"))
            let tag = try #require(answered.headers[.eTag])
            let same = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: tag])
            #expect(same.status == .notModified && same.body.readableBytes == 0)

            let renewed = try await post(client, "/settings/calendar", ["action": "new"], session: session)
            let newPath = String(
                try #require(
                    renewed.text.firstMatch(of: /https:\/\/commission\.example\.net(\/calendar\/[A-Za-z0-9_-]+\.ics)/)
                ).1
            )
            #expect(try await client.execute(uri: path, method: .get).status == .notFound, "the old link stops")
            #expect(try await client.execute(uri: newPath, method: .get).status == .ok)
            #expect(renewed.text.contains("Make a new link (the old one stops)"))
            let off = try await post(client, "/settings/calendar", ["action": "off"], session: session)
            #expect(off.text.contains("Your calendar link is off"))
            let gone = try await client.execute(uri: newPath, method: .get)
            #expect(gone.status == .notFound && gone.text.contains("Settings → Notifications"))
        }
    }

    @Test func anOverdueClinicIsRemindedInOneTapFromPayouts() async throws {
        let (glow, serum, today) = try await glowAndSerum()
        try await app().test(.router) { client in
            let session = try await signUp(client)
            // A sale of her history, which she says was not paid: overdue.
            _ = try await store.createSale(
                SaleDraft(clinicID: glow.id, productID: serum.id, date: today.adding(days: -75), quantity: 2),
                idempotencyKey: nil
            )
            try await store.setHistoryQuestion(nil)
            let page = try await client.execute(
                uri: "/payouts",
                method: .get,
                headers: [.cookie: "commission_session=\(session.cookie)"]
            )
            // Its few periods are named as she would say them, not "All 1 period".
            #expect(
                (page.text.contains("Its one period, to close") || page.text.contains("Both periods, to close"))
                    && !page.text.contains("All 1 period") && !page.text.contains("All 2 periods")
            )
            let link = try #require(
                page.text.firstMatch(
                    of:
                        /href="(mailto:\?subject=[^"]+)" data-share-title="([^"]+)" data-share-text="([^"]+)" data-share-files="([^"]+)">Remind Glow</
                )
            )
            let text = String(link.1).removingPercentEncoding ?? ""
            #expect(
                text.contains("subject=Commission for ") && text.contains("$24.00") && text.contains("it was due by")
            )
            // The same note for her share sheet, the period's statement to attach with it.
            #expect(link.2.hasPrefix("Commission for "))
            #expect(link.3.contains("$24.00, has not reached me yet; it was due by"))
            let statement = try await client.execute(
                uri: String(link.4).replacingOccurrences(of: "&amp;", with: "&"),
                method: .get,
                headers: [.cookie: "commission_session=\(session.cookie)"]
            )
            #expect(statement.status == .ok && statement.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(statement.text.contains("Serum") && statement.text.contains("24.00"))
        }
    }

    @Test func aClinicLateForTwoPeriodsIsRemindedOfBothFromItsPage() async throws {
        let (glow, serum, today) = try await glowAndSerum()
        try await app().test(.router) { client in
            let session = try await signUp(client)
            // Two months of her history, unpaid (she says so): both overdue, by their own days.
            let months = [today.adding(days: -100), today.adding(days: -65)].map(\.firstOfMonth)
            for (month, quantity) in zip(months, [2, 3] as [Int64]) {
                _ = try await store.createSale(
                    SaleDraft(clinicID: glow.id, productID: serum.id, date: month, quantity: quantity),
                    idempotencyKey: nil
                )
            }
            try await store.setHistoryQuestion(nil)
            let page = try await client.execute(
                uri: "/book/clinics/\(glow.id)",
                method: .get,
                headers: [.cookie: "commission_session=\(session.cookie)"]
            )
            let link = try #require(
                page.text.firstMatch(
                    of:
                        /href="mailto:[^"]+" data-share-title="([^"]+)" data-share-text="([^"]+)" data-share-files="([^"]+)">Remind Glow</
                )
            )
            let style = try await store.settings().style
            #expect(link.1 == "Commission for 2 periods, from \(style.format(months[0]))")
            let body = String(link.2).replacingOccurrences(of: "&#10;", with: "\n")
            #expect(
                body.contains("$24.00, due by") && body.contains("$36.00, due by")
                    && body.contains("That is $60.00 in all.")
            )
            #expect(link.3.split(separator: " ").count == 2)
        }
    }
}
