import CommissionCore
import CommissionKit
import CommissionPostgres
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Crypto
import Foundation
import Logging
import Synchronization
import Testing

/// Web Push as the standards say it: the RFC's own example, byte for byte.
@Suite struct WebPushTests {
    /// RFC 8291 §5: the application server's and the user agent's keys, the salt and auth secret,
    /// and the message they make.
    static let serverPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
    static let agentPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let agentPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
    static let auth = "BTBZMqHH6r4Tts7J_aSIgg"
    static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
    static let body =
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"

    @Test func theRFCsExampleIsEncryptedByteForByte() throws {
        let subscription = try WebPush.Subscription(
            endpoint: "https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV",
            p256dh: Self.agentPublic,
            auth: Self.auth
        )
        let serverKey = try #require(Base64URL.decode(Self.serverPrivate))
        let salt = try #require(Base64URL.decode(Self.salt))
        let ephemeral = try P256.KeyAgreement.PrivateKey(rawRepresentation: serverKey)
        let body = try WebPush.encrypt(
            Array("When I grow up, I want to be a watermelon".utf8),
            for: subscription,
            ephemeral: ephemeral,
            salt: salt
        )
        #expect(Base64URL.encode(body) == Self.body)
    }

    @Test func aNewMessageIsReadByItsSubscriptionAlone() throws {
        let agent = P256.KeyAgreement.PrivateKey()
        let auth = Array(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
        let subscription = WebPush.Subscription(
            endpoint: "https://push.example.net/1",
            p256dh: Array(agent.publicKey.x963Representation),
            auth: auth
        )
        let text = Array(#"{"title":"No sales recorded today"}"#.utf8)
        let one = try WebPush.encrypt(text, for: subscription)
        let two = try WebPush.encrypt(text, for: subscription)
        #expect(one != two, "a new salt and key for every message")
        #expect(try PushReceiver(key: agent, auth: auth).decrypt(one) == text)
        #expect(throws: (any Error).self) {
            try PushReceiver(key: P256.KeyAgreement.PrivateKey(), auth: auth).decrypt(one)
        }
        #expect(throws: WebPushError.tooLong) {
            try WebPush.encrypt(Array(repeating: 65, count: 4096), for: subscription)
        }
        #expect(throws: WebPushError.badKeys) {
            try WebPush.Subscription(endpoint: "https://push.example.net/1", p256dh: Self.agentPublic, auth: "c2hvcnQ")
        }
    }

    /// RFC 8292: a JWT for the push service's origin, signed with the server's key (ES256), and
    /// the key the browser subscribed with.
    @Test func theVAPIDHeaderIsAJWTThePublicKeyVerifies() throws {
        let identity = WebPush.Identity()
        let again = try #require(WebPush.Identity(stored: identity.stored))
        #expect(again.publicKey == identity.publicKey && identity.publicKey.count == 87)
        #expect(WebPush.Identity(stored: [1, 2, 3]) == nil)
        let expires = Date(timeIntervalSince1970: 1_790_000_000)
        let header = try identity.authorization(
            endpoint: try #require(URL(string: "https://fcm.googleapis.com:443/fcm/send/abc")),
            contact: "mailto:ops@example.net",
            expires: expires
        )
        let match = try #require(header.wholeMatch(of: /vapid t=([^.]+)\.([^.]+)\.([^,]+), k=(.+)/))
        #expect(String(match.4) == identity.publicKey)
        let claimsJSON = try #require(Base64URL.decode(String(match.2)))
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(claimsJSON)) as? [String: Any])
        #expect(claims["aud"] as? String == "https://fcm.googleapis.com:443")
        #expect(claims["sub"] as? String == "mailto:ops@example.net" && claims["exp"] as? Int == 1_790_000_000)
        let publicKey = try #require(Base64URL.decode(identity.publicKey))
        let signed = try #require(Base64URL.decode(String(match.3)))
        let key = try P256.Signing.PublicKey(x963Representation: publicKey)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: signed)
        #expect(key.isValidSignature(signature, for: Array("\(match.1).\(match.2)".utf8)))
        #expect(!key.isValidSignature(signature, for: Array("\(match.1).e30".utf8)))
    }
}

/// The receiving side of RFC 8188/8291, as a browser does it: for the tests to read what was sent.
struct PushReceiver {
    let key: P256.KeyAgreement.PrivateKey
    let auth: [UInt8]

    func decrypt(_ body: [UInt8]) throws -> [UInt8] {
        let salt = Array(body[0..<16])
        let idLength = Int(body[20])
        let sender = try P256.KeyAgreement.PublicKey(x963Representation: body[21..<(21 + idLength)])
        let shared = try key.sharedSecretFromKeyAgreement(with: sender)
        let ikm = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self,
            salt: auth,
            sharedInfo: Array("WebPush: info".utf8) + [0] + Array(key.publicKey.x963Representation)
                + Array(sender.x963Representation),
            outputByteCount: 32
        )
        let cek = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm,
            salt: salt,
            info: Array("Content-Encoding: aes128gcm".utf8) + [0],
            outputByteCount: 16
        )
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm,
            salt: salt,
            info: Array("Content-Encoding: nonce".utf8) + [0],
            outputByteCount: 12
        )
        let record = Array(body[(21 + idLength)...])
        let box = try AES.GCM.SealedBox(
            nonce: try AES.GCM.Nonce(data: nonce.withUnsafeBytes { Array($0) }),
            ciphertext: record.dropLast(16),
            tag: record.suffix(16)
        )
        let plain = Array(try AES.GCM.open(box, using: cek))
        // The last record's padding delimiter is 2, then zeros.
        guard let end = plain.lastIndex(of: 2), plain[(end + 1)...].allSatisfy({ $0 == 0 }) else {
            throw WebPushError.badKeys
        }
        return Array(plain[..<end])
    }
}

/// A push service that answers what it is told, and keeps what it was sent.
final class FakePushService: PushTransport {
    struct Request: Sendable {
        let url: URL
        let headers: [String: String]
        let body: [UInt8]
    }

    private let state = Mutex<(answers: [Int: [(Int, String?)]], requests: [Request])>(([:], []))

    /// The answers for an endpoint's next requests, in order (then 201).
    func answer(_ endpoint: String, with answers: [(Int, String?)]) {
        state.withLock { $0.answers[endpoint.hashValue] = answers }
    }

    var requests: [Request] { state.withLock { $0.requests } }

    func post(_ url: URL, headers: [(String, String)], body: [UInt8]) async throws -> (status: Int, retryAfter: String?)
    {
        state.withLock { state in
            state.requests.append(
                Request(url: url, headers: Dictionary(headers, uniquingKeysWith: { a, _ in a }), body: body)
            )
            guard var queued = state.answers[url.absoluteString.hashValue], !queued.isEmpty else { return (201, nil) }
            let next = queued.removeFirst()
            state.answers[url.absoluteString.hashValue] = queued
            return (next.0, next.1)
        }
    }
}

/// A subscription of the tests' own: its keys, and what its push service received, read as her
/// phone would.
struct TestSubscription: Sendable {
    /// Its private key's bytes (the key type itself is not `Sendable`).
    let rawKey = Array(P256.KeyAgreement.PrivateKey().rawRepresentation)
    var key: P256.KeyAgreement.PrivateKey { try! P256.KeyAgreement.PrivateKey(rawRepresentation: rawKey) }
    let auth = Array(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
    let endpoint = "https://push.example.net/send/\(UUID().uuidString)"

    var p256dh: String { Base64URL.encode(Array(key.publicKey.x963Representation)) }
    var authText: String { Base64URL.encode(auth) }

    func messages(_ service: FakePushService) throws -> [[String: String]] {
        try service.requests.filter { $0.url.absoluteString == endpoint }.map {
            let plain = try PushReceiver(key: key, auth: auth).decrypt($0.body)
            return try #require(try JSONSerialization.jsonObject(with: Data(plain)) as? [String: String])
        }
    }
}

@Suite struct PushSenderTests {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_790_000_000))
    let waits = Waits()

    final class Waits: Sendable {
        let list = Mutex<[Duration]>([])
        func append(_ duration: Duration) { list.withLock { $0.append(duration) } }
        var all: [Duration] { list.withLock { $0 } }
    }

    func sender(
        _ service: FakePushService,
        policy: PushEndpointPolicy = PushEndpointPolicy(allowUnsafe: true)
    ) -> PushSender {
        PushSender(
            identity: WebPush.Identity(),
            contact: "mailto:ops@example.net",
            transport: service,
            policy: policy,
            clock: clock,
            wait: { [waits, clock] duration in
                waits.append(duration)
                clock.advance(by: duration)
            },
            logger: Logger(label: "test")
        )
    }

    func device(_ subscription: TestSubscription) -> PushDevice {
        PushDevice(
            id: .init(1),
            account: .init(1),
            endpoint: subscription.endpoint,
            p256dh: subscription.p256dh,
            auth: subscription.authText,
            label: "phone",
            createdAt: clock.now
        )
    }

    static let reminder = Reminder(
        key: "end-of-day 2026-12-01",
        title: "No sales recorded today",
        body: "Add them now?",
        url: "/?date=2026-12-01",
        topic: "end-of-day",
        ttl: 18000
    )

    @Test func aMessageGoesWithItsHeadersAndReadsAsSent() async throws {
        let service = FakePushService()
        let subscription = TestSubscription()
        #expect(await sender(service).send(Self.reminder, to: device(subscription)) == .sent)
        let request = try #require(service.requests.first)
        #expect(
            request.headers["TTL"] == "18000" && request.headers["Urgency"] == "normal"
                && request.headers["Topic"] == "end-of-day"
        )
        #expect(request.headers["Content-Encoding"] == "aes128gcm")
        #expect(request.headers["Authorization"]?.hasPrefix("vapid t=") == true)
        #expect(
            try subscription.messages(service) == [
                [
                    "title": "No sales recorded today", "body": "Add them now?", "url": "/?date=2026-12-01",
                    "tag": "end-of-day",
                ]
            ]
        )
    }

    @Test func aBusyPushServiceIsWaitedForAsItAsksAndAGoneOneForgetsItsDevice() async throws {
        let service = FakePushService()
        let busy = TestSubscription(), gone = TestSubscription(), down = TestSubscription()
        service.answer(busy.endpoint, with: [(429, "7"), (503, nil)])
        service.answer(gone.endpoint, with: [(410, nil)])
        service.answer(down.endpoint, with: [(500, nil), (500, nil), (500, nil), (500, nil)])
        let sender = sender(service)
        #expect(await sender.send(Self.reminder, to: device(busy)) == .sent)
        // Its Retry-After, then a growing wait of its own.
        #expect(waits.all == [.seconds(7), .seconds(4)])
        #expect(await sender.send(Self.reminder, to: device(gone)) == .gone)
        #expect(await sender.send(Self.reminder, to: device(down)) == .failed("the push service answered 500"))
        #expect(service.requests.filter { $0.url.absoluteString == down.endpoint }.count == PushSender.attempts)
        #expect(
            PushSender.backoff(
                1,
                retryAfter: "Wed, 21 Oct 2026 07:28:30 GMT",
                now: Date(timeIntervalSince1970: 1_792_567_700)
            ) == .seconds(10)
        )
        #expect(PushSender.backoff(1, retryAfter: "3600", now: clock.now) == .seconds(60), "never more than a minute")
    }

    @Test func anEndpointInsideTheServersNetworkIsNeverCalled() async throws {
        let policy = PushEndpointPolicy(allowUnsafe: false) { host in
            [
                "fcm.googleapis.com": ["142.250.185.10"], "updates.push.services.mozilla.com": ["34.117.1.1"],
                "web.push.apple.com": ["10.1.2.3"], "wns2-par02p.notify.windows.com": ["fd00::1"],
                "push.example.net": ["93.184.215.14"],
            ][host] ?? []
        }
        #expect(await policy.refusal("https://fcm.googleapis.com/fcm/send/1") == nil)
        #expect(await policy.refusal("https://updates.push.services.mozilla.com/wpush/v2/1") == nil)
        #expect(await policy.refusal("http://fcm.googleapis.com/fcm/send/1")?.contains("https") == true)
        #expect(await policy.refusal("https://fcm.googleapis.com:8443/fcm/send/1")?.contains("port 443") == true)
        // A public name that is no push service's (it could resolve inside later: DNS rebinding).
        #expect(
            await policy.refusal("https://push.example.net/send/1")?.contains("not a browser's push service") == true
        )
        #expect(await policy.refusal("https://fcm.googleapis.com.example.net/send/1") != nil)
        // A push service's name that leads inside: refused, the address not told.
        let inside = await policy.refusal("https://web.push.apple.com/3/device/1")
        #expect(inside?.contains("private network") == true && inside?.contains("10.1.2.3") == false)
        #expect(await policy.refusal("https://wns2-par02p.notify.windows.com/w/1") != nil)
        #expect(await policy.refusal("https://nowhere.push.apple.com/1")?.contains("does not resolve") == true)
        for address in [
            "127.0.0.1", "169.254.169.254", "192.168.1.1", "172.16.0.1", "100.64.0.1", "0.0.0.0", "::1", "fe80::1",
            "::ffff:127.0.0.1", "224.0.0.1", "::10.0.0.1", "64:ff9b::a00:1", "2002:a00:1::", "2002:7f00:1::1",
        ] {
            #expect(!PushEndpointPolicy.isPublic(address), "\(address) is not public")
        }
        #expect(PushEndpointPolicy.isPublic("8.8.8.8") && PushEndpointPolicy.isPublic("2001:4860:4860::8888"))
        #expect(PushEndpointPolicy.isPublic("64:ff9b::808:808") && PushEndpointPolicy.isPublic("2002:808:808::"))
        let service = FakePushService()
        let subscription = TestSubscription()
        let insider = PushDevice(
            id: .init(1),
            account: .init(1),
            endpoint: "https://web.push.apple.com/3/device/1",
            p256dh: subscription.p256dh,
            auth: subscription.authText,
            label: "",
            createdAt: clock.now
        )
        #expect(await sender(service, policy: policy).send(Self.reminder, to: insider) != .sent)
        #expect(service.requests.isEmpty)
    }
}

/// What reminds her now, from what the book says.
@Suite struct ReminderPlanTests {
    let zone = TimeZone(identifier: "Europe/Berlin")!
    /// Tuesdays and Thursdays for ten weeks before Tuesday 2026-12-01: her usual days.
    var soldOn: Set<Day> {
        let today = try! Day(parsing: "2026-12-01")
        return Set((1...10).flatMap { week in [today.adding(days: -7 * week), today.adding(days: -7 * week + 2)] })
    }

    func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func theEndOfAWorkingDayWithoutSalesRemindsHerOnceItIsPastHerTime() throws {
        let settings = ReminderSettings()
        // 18:59 in Berlin: not yet; 19:00: the reminder, opening the Sale page dated today.
        #expect(
            ReminderPlan.endOfDay(now: at("2026-12-01T17:59:00Z"), timeZone: zone, settings: settings, soldOn: soldOn)
                == nil
        )
        let reminder = try #require(
            ReminderPlan.endOfDay(now: at("2026-12-01T18:00:00Z"), timeZone: zone, settings: settings, soldOn: soldOn)
        )
        #expect(
            reminder.key == "end-of-day 2026-12-01" && reminder.url == "/?date=2026-12-01"
                && reminder.topic == "end-of-day"
        )
        #expect(reminder.title == "No sales recorded today" && reminder.body == "Add them now?")
        #expect(reminder.ttl == 5 * 3600, "kept until her midnight")
        // Once a sale of today is recorded, none; none on a day off (Wednesday); none when turned off.
        let sold = soldOn.union([try Day(parsing: "2026-12-01")])
        #expect(
            ReminderPlan.endOfDay(now: at("2026-12-01T20:00:00Z"), timeZone: zone, settings: settings, soldOn: sold)
                == nil
        )
        #expect(
            ReminderPlan.endOfDay(now: at("2026-12-02T20:00:00Z"), timeZone: zone, settings: settings, soldOn: soldOn)
                == nil
        )
        #expect(
            ReminderPlan.endOfDay(
                now: at("2026-12-01T20:00:00Z"),
                timeZone: zone,
                settings: .init(endOfDay: false),
                soldOn: soldOn
            ) == nil
        )
        // Her own time: 17:30.
        #expect(
            ReminderPlan.endOfDay(
                now: at("2026-12-01T16:30:00Z"),
                timeZone: zone,
                settings: .init(endOfDayMinute: 17 * 60 + 30),
                soldOn: soldOn
            ) != nil
        )
        // A new book (no usual days yet) reminds her of nothing.
        #expect(
            ReminderPlan.endOfDay(now: at("2026-12-01T20:00:00Z"), timeZone: zone, settings: settings, soldOn: [])
                == nil
        )
    }

    func standing(_ expected: [(String, Int64, Int64)], closed: Set<String> = []) throws -> ClinicPeriods {
        let clinic = Clinic(id: .init(7), name: "Glow", schedule: .monthly)
        let entries = try expected.map { start, owed, paid in
            (
                period: clinic.calendar.period(containing: try Day(parsing: start)),
                expected: Money(minorUnits: owed), received: Money(minorUnits: paid), isClosed: closed.contains(start)
            )
        }
        let reconciliation = try Reconciliation(clinic: clinic, entries: entries, today: try Day(parsing: "2026-12-01"))
        return .init(clinic: clinic, reconciliation: reconciliation, dueAfterDays: 14)
    }

    /// A clinic late for years: the note lists its oldest four periods and says the rest in one
    /// line, with the whole — a note she can send, not a page of periods (nor a Payouts page of them).
    @Test func aNoteOfManyPeriodsListsTheOldestAndSaysTheRestInOneLine() throws {
        let style = LocaleStyle(identifier: "en_US", currency: .usd)
        let months = (1...10).map { String(format: "2026-%02d-01", $0) }
        let glow = try standing(months.map { ($0, 1000, 0) })
        let overdue = glow.reconciliation.periods.filter { $0.period.end < (try! Day(parsing: "2026-11-01")) }
        let note = try #require(ReminderNote(to: glow.clinic, overdue: overdue, dueAfterDays: 14, style: style))
        #expect(note.body.contains("- 01/01/2026 – 01/31/2026: $10.00, due by 02/14/2026"), "\(note.body)")
        #expect(note.body.contains("- 04/01/2026 – 04/30/2026") && !note.body.contains("- 05/01/2026"))
        #expect(note.body.contains("- and 6 later periods, 05/01/2026 to 10/31/2026: $60.00"), "\(note.body)")
        #expect(note.body.contains("That is $100.00 in all."))
        #expect(note.files.split(separator: " ").count == 4)
    }

    @Test func aLateClinicIsSaidOnceWhenLateAndOnceMoreAWeekAfterThat() throws {
        let style = LocaleStyle(identifier: "en_US", currency: .usd)
        let glow = try standing([("2026-10-01", 24000, 0), ("2026-11-01", 12000, 0)])
        // October ended on the 31st; its usual 14 days ran out on 14 November.
        #expect(
            ReminderPlan.late(clinics: [glow], today: try Day(parsing: "2026-11-14"), settings: .default, style: style)
                .isEmpty
        )
        let first = try #require(
            ReminderPlan.late(clinics: [glow], today: try Day(parsing: "2026-11-15"), settings: .default, style: style)
                .first
        )
        #expect(first.key == "late 7 2026-10-01" && first.title == "Glow is late" && first.topic == "late-7")
        #expect(
            first.body.contains("$240.00")
                && first.url == "/payouts?clinic=7&period=2026-10-01&amount=240%2E00#payout-form"
        )
        // The same again while the first is not a week old: its key is claimed, nothing new goes out.
        let sent = ["late 7 2026-10-01": try Day(parsing: "2026-11-15")]
        #expect(
            ReminderPlan.late(
                clinics: [glow],
                today: try Day(parsing: "2026-11-21"),
                settings: .default,
                style: style,
                sent: sent
            ).first?.key == "late 7 2026-10-01"
        )
        let week = try #require(
            ReminderPlan.late(
                clinics: [glow],
                today: try Day(parsing: "2026-11-22"),
                settings: .default,
                style: style,
                sent: sent
            ).first
        )
        #expect(week.key == "late 7 2026-10-01 again")
        // Late for weeks before she heard of it (the server down, reminders turned on later): the
        // first reminder first, and its second a week after it — never the second alone.
        #expect(
            ReminderPlan.late(clinics: [glow], today: try Day(parsing: "2026-11-30"), settings: .default, style: style)
                .first?.key == "late 7 2026-10-01"
        )
        #expect(
            ReminderPlan.late(
                clinics: [glow],
                today: try Day(parsing: "2026-12-06"),
                settings: .default,
                style: style,
                sent: ["late 7 2026-10-01": try Day(parsing: "2026-11-30")]
            ).first?.key == "late 7 2026-10-01"
        )
        // Paid, closed, still her history to confirm, or turned off: nothing.
        let today = try Day(parsing: "2026-11-22")
        #expect(
            ReminderPlan.late(
                clinics: [try standing([("2026-10-01", 24000, 24000)])],
                today: today,
                settings: .default,
                style: style
            ).isEmpty
        )
        #expect(
            ReminderPlan.late(
                clinics: [try standing([("2026-10-01", 24000, 0)], closed: ["2026-10-01"])],
                today: today,
                settings: .default,
                style: style
            ).isEmpty
        )
        var asked = glow
        asked.unconfirmed = Set(glow.reconciliation.periods.map(\.period))
        #expect(ReminderPlan.late(clinics: [asked], today: today, settings: .default, style: style).isEmpty)
        #expect(
            ReminderPlan.late(clinics: [glow], today: today, settings: .init(lateClinics: false), style: style).isEmpty
        )
    }
}

/// The scheduler of `serve`: what is due, claimed once in the book's database and sent to her
/// devices — once, whichever server (or restart) gets there first.
@Suite struct ReminderServiceTests {
    func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    /// A book whose owner sells at Glow on Tuesdays and Thursdays, from late September to last
    /// week, and has never recorded a payment; her phone subscribed.
    func book() async throws -> (store: SQLiteStore, owner: Account, phone: TestSubscription) {
        let store = try SQLiteStore(.inMemory, defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"))
        let (owner, phone) = try await seed(store, owner: "her")
        return (store, owner, phone)
    }

    /// Her owner account, Glow's Tuesdays and Thursdays from late September to last week (no
    /// payment) and her phone, in `store`.
    func seed(_ store: any WebStore, owner name: String) async throws -> (owner: Account, phone: TestSubscription) {
        let owner = try await store.createOwner(username: name, passwordHash: "x")
        let glow = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        let serum = try await store.createProduct(
            ProductDraft(name: "Serum", unitPrice: Money(minorUnits: 5000), unitCost: Money(minorUnits: 2000))
        )
        _ = try await store.createTerms(
            TermsDraft(
                clinicID: glow.id,
                share: try Share(parsing: "40"),
                effectiveFrom: try Day(parsing: "2026-01-01")
            )
        )
        let today = try Day(parsing: "2026-12-01")
        for week in 1...10 {
            for offset in [-7 * week, -7 * week + 2] {
                _ = try await store.createSale(
                    SaleDraft(clinicID: glow.id, productID: serum.id, date: today.adding(days: offset), quantity: 1),
                    idempotencyKey: nil
                )
            }
        }
        let phone = TestSubscription()
        _ = try await store.addPushDevice(
            account: owner.id,
            endpoint: phone.endpoint,
            p256dh: phone.p256dh,
            auth: phone.authText,
            label: "phone",
            now: at("2026-11-01T00:00:00Z")
        )
        return (owner, phone)
    }

    func service(_ store: SQLiteStore, _ push: FakePushService) -> ReminderService {
        service(push) { now in [try await ReminderService.Book.reading(store, now: now)] }
    }

    func service(
        _ push: FakePushService,
        books: @escaping @Sendable (Date) async throws -> [ReminderService.Book]
    ) -> ReminderService {
        let clock = ManualClock(at("2026-12-01T19:00:00Z"))
        let sender = PushSender(
            identity: WebPush.Identity(),
            contact: "mailto:ops@example.net",
            transport: push,
            policy: PushEndpointPolicy(allowUnsafe: true),
            clock: clock,
            wait: { _ in },
            logger: Logger(label: "test")
        )
        return ReminderService(
            books: books,
            sender: sender,
            clock: clock,
            logger: Logger(label: "test")
        )
    }

    @Test func aDayWithoutSalesAndALateClinicAreEachSentOnceAcrossTwoServers() async throws {
        let (store, _, phone) = try await book()
        let push = FakePushService()
        // Before her time: only the late clinic.
        #expect(await service(store, push).tick(now: at("2026-12-01T18:59:00Z")) == 1)
        #expect(try phone.messages(push).map { $0["title"] } == ["Glow is late"])
        let late = try #require(try phone.messages(push).first)
        #expect(late["url"]?.hasPrefix("/payouts?clinic=") == true && late["body"]?.contains("$") == true)
        // At 19:00, on two servers of the one database at once: the end of her day, sent once.
        async let one = service(store, push).tick(now: at("2026-12-01T19:00:00Z"))
        async let two = service(store, push).tick(now: at("2026-12-01T19:00:00Z"))
        #expect(await one + two == 1)
        #expect(try phone.messages(push).map { $0["title"] } == ["Glow is late", "No sales recorded today"])
        #expect(try phone.messages(push).last?["url"] == "/?date=2026-12-01")
        // Later that evening, or a restart: nothing again.
        #expect(await service(store, push).tick(now: at("2026-12-01T21:00:00Z")) == 0)
        // Thursday she works and sells: none; Friday is a day off: none.
        _ = try await store.createSale(
            SaleDraft(clinicID: .init(1), productID: .init(1), date: try Day(parsing: "2026-12-03"), quantity: 1),
            idempotencyKey: nil
        )
        #expect(await service(store, push).tick(now: at("2026-12-03T20:00:00Z")) == 0)
        #expect(await service(store, push).tick(now: at("2026-12-04T20:00:00Z")) == 0)
        #expect(push.requests.count == 2)
    }

    @Test func aDeviceItsPushServiceForgotIsRemovedAndABookWithoutDevicesIsLeftAlone() async throws {
        let (store, owner, phone) = try await book()
        let push = FakePushService()
        push.answer(phone.endpoint, with: [(410, nil)])
        #expect(await service(store, push).tick(now: at("2026-12-01T19:00:00Z")) == 0)
        #expect(try await store.pushDevices(of: owner.id).isEmpty)
        let before = push.requests.count
        #expect(await service(store, push).tick(now: at("2026-12-08T19:00:00Z")) == 0)
        #expect(push.requests.count == before, "no device, nothing read or sent")
    }

    @Test func aReminderNoPushServiceTookIsTriedAgainAtTheNextPassAndSentOnce() async throws {
        let (store, _, phone) = try await book()
        let push = FakePushService()
        // Her push service down for every attempt of both reminders (the late clinic, her day's end).
        push.answer(phone.endpoint, with: Array(repeating: (503, nil), count: 2 * PushSender.attempts))
        #expect(await service(store, push).tick(now: at("2026-12-01T19:00:00Z")) == 0)
        #expect(push.requests.count == 2 * PushSender.attempts)
        // A minute later it answers: both go, once; the pass after sends nothing more.
        #expect(await service(store, push).tick(now: at("2026-12-01T19:01:00Z")) == 2)
        #expect(await service(store, push).tick(now: at("2026-12-01T19:02:00Z")) == 0)
        #expect(push.requests.count == 2 * PushSender.attempts + 2)
        #expect(
            Set(try phone.messages(push).compactMap { $0["title"] }) == ["Glow is late", "No sales recorded today"]
        )
    }

    @Test func herChoicesAreHeld() async throws {
        let (store, owner, phone) = try await book()
        try await store.setReminderSettings(
            ReminderSettings(endOfDay: true, lateClinics: false, endOfDayMinute: 20 * 60),
            of: owner.id
        )
        let push = FakePushService()
        #expect(await service(store, push).tick(now: at("2026-12-01T19:30:00Z")) == 0)
        #expect(await service(store, push).tick(now: at("2026-12-01T20:00:00Z")) == 1)
        #expect(try phone.messages(push).map { $0["title"] } == ["No sales recorded today"])
    }

    /// How often a pass opened a book's store.
    final class Opens: Sendable {
        let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
    }

    /// One scheduler (its passes remember what they read) over `store`, counting its opens.
    func service(_ store: SQLiteStore, _ push: FakePushService, counting opens: Opens) -> ReminderService {
        service(push) { now in
            let glance = try await ReminderService.Book.reading(store, now: now).glance
            return [
                ReminderService.Book(name: "book", glance: glance, reminders: store) {
                    opens.count.withLock { $0 += 1 }
                    return store
                }
            ]
        }
    }

    @Test func aBooksClinicsAreReadOnceADayFromHerMorningAndHerDaysEndWithoutOpeningIt() async throws {
        let (store, _, phone) = try await book()
        let push = FakePushService()
        let opens = Opens()
        // One server's scheduler, every minute: the book's store is opened only to read its clinics.
        let scheduler = service(store, push, counting: opens)
        // In the night, nothing about Glow: she hears of it in the morning.
        #expect(await scheduler.tick(now: at("2026-12-01T08:59:00Z")) == 0)
        #expect(opens.value == 0)
        #expect(await scheduler.tick(now: at("2026-12-01T09:00:00Z")) == 1)
        #expect(try phone.messages(push).map { $0["title"] } == ["Glow is late"])
        // The passes after it that day read nothing more of the book; her day's end needs only its glance.
        #expect(await scheduler.tick(now: at("2026-12-01T09:01:00Z")) == 0)
        #expect(await scheduler.tick(now: at("2026-12-01T19:00:00Z")) == 1)
        #expect(opens.value == 1)
        // The next morning its clinics are read again (still late: nothing new), and a week after
        // the first, once more.
        #expect(await scheduler.tick(now: at("2026-12-02T09:00:00Z")) == 0)
        #expect(opens.value == 2)
        #expect(await scheduler.tick(now: at("2026-12-08T09:00:00Z")) == 1)
        #expect(try phone.messages(push).last?["title"] == "Glow is late")
        #expect(opens.value == 3)
    }

    @Test func aLateClinicNoPushServiceTookIsReadAgainAtTheNextPass() async throws {
        let (store, _, phone) = try await book()
        let push = FakePushService()
        push.answer(phone.endpoint, with: Array(repeating: (503, nil), count: PushSender.attempts))
        let opens = Opens()
        let scheduler = service(store, push, counting: opens)
        #expect(await scheduler.tick(now: at("2026-12-01T10:00:00Z")) == 0)
        #expect(await scheduler.tick(now: at("2026-12-01T10:01:00Z")) == 1)
        #expect(opens.value == 2)
        #expect(await scheduler.tick(now: at("2026-12-01T10:02:00Z")) == 0)
        #expect(opens.value == 2)
    }

    @Test func aTeamServersBooksAreGlancedAtTogetherAsEachBookSeesItself() async throws {
        guard let server = ProcessInfo.processInfo.environment["COMMISSION_TEST_POSTGRES_URL"], !server.isEmpty else {
            throw StoreError.storage(
                "COMMISSION_TEST_POSTGRES_URL is not set: run the tests with scripts/test, which starts a throw-away PostgreSQL"
            )
        }
        let url = try await PostgresBookDatabase.createDatabase(prefix: "commission_remind", onServer: server)
        let eastURL = try await PostgresBookDatabase.createDatabase(prefix: "commission_remind_east", onServer: server)
        let database = try await PostgresBookDatabase(url: url)
        let east = try await PostgresBookDatabase(url: eastURL)
        do {
            try await glanceAtATeam(database, east)
        } catch {
            database.shutdown()
            east.shutdown()
            throw error
        }
        database.shutdown()
        east.shutdown()
        try await PostgresBookDatabase.dropDatabase(url, onServer: server)
        try await PostgresBookDatabase.dropDatabase(eastURL, onServer: server)
    }

    func glanceAtATeam(_ database: PostgresBookDatabase, _ east: PostgresBookDatabase) async throws {
        let books = PostgresBooks(
            database: database,
            defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"),
            others: ["east": east]
        )
        try await books.prepare()
        // A book on each database, hers in UTC and his in Auckland (a day ahead at 19:00 UTC);
        // a third without a device, never looked at.
        let hers = try await PostgresStore.firstBook(
            in: database,
            creatingWith: BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        )
        let his = try await books.addBook(
            name: "His",
            settings: BookSettings(currency: .usd, timeZoneIdentifier: "Pacific/Auckland"),
            on: "east"
        )
        let none = try await books.addBook(
            name: "None",
            settings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"),
            on: "east"
        )
        let (her, _) = try await seed(hers, owner: "her")
        let (him, _) = try await seed(his, owner: "him")
        try await his.setReminderSettings(
            ReminderSettings(endOfDay: true, lateClinics: false, endOfDayMinute: 7 * 60),
            of: him.id
        )
        let now = at("2026-12-01T19:00:00Z")
        let glances = try await books.reminderGlances(now: now)
        #expect(Set(glances.keys) == [hers.book, his.book] && glances[none.book] == nil)
        for store in [hers, his] {
            let together = try #require(glances[store.book])
            let alone = try await ReminderGlance.read(from: store, now: now)
            #expect(together.devices == alone.devices && together.settings == alone.settings)
            #expect(together.timeZone == alone.timeZone && together.soldOn == alone.soldOn)
        }
        #expect(glances[hers.book]?.soldOn(before: now).count == 20, "ten weeks of Tuesdays and Thursdays")
        #expect(glances[his.book]?.settings[him.id]?.lateClinics == false)
        #expect(glances[hers.book]?.settings[her.id] == .default)
        #expect(glances[his.book]?.today(now) == (try Day(parsing: "2026-12-02")))

        // The pass over both, as `serve` makes it: her day's end and late clinic, his day's end
        // (Wednesday in Auckland, a day he does not work: none); his store never opened.
        let push = FakePushService()
        let opened = Mutex<[Int64]>([])
        let scheduler = service(push) { now in
            try await books.reminderGlances(now: now).map { id, glance in
                ReminderService.Book(name: "book \(id)", glance: glance, reminders: books.reminders(of: id)) {
                    opened.withLock { $0.append(id) }
                    return try await books.store(book: id)
                }
            }
        }
        #expect(await scheduler.tick(now: now) == 2)
        #expect(await scheduler.tick(now: now.addingTimeInterval(60)) == 0)
        #expect(opened.withLock { $0 } == [hers.book])
    }
}

/// Her pay dates as a calendar feed (RFC 5545).
@Suite struct PayDatesCalendarTests {
    @Test func eachPeriodsEndAndPayDayIsAnAllDayEventOfAStableUID() throws {
        let clinic = Clinic(id: .init(3), name: "Glow, Mitte", schedule: .monthly)
        let today = try Day(parsing: "2026-12-01")
        let entries = [
            (
                period: clinic.calendar.period(containing: try Day(parsing: "2026-09-10")),
                expected: Money(minorUnits: 24000), received: Money(minorUnits: 24000), isClosed: false
            ),
            (
                period: clinic.calendar.period(containing: try Day(parsing: "2026-10-10")),
                expected: Money(minorUnits: 12000), received: .zero, isClosed: false
            ),
            (
                period: clinic.calendar.period(containing: try Day(parsing: "2026-11-10")),
                expected: Money(minorUnits: 6000), received: .zero, isClosed: false
            ),
        ]
        let reconciliation = try Reconciliation(clinic: clinic, entries: entries, today: today)
        let feed = PayDatesCalendar(
            clinics: [.init(clinic: clinic, reconciliation: reconciliation, dueAfterDays: 14)],
            today: today,
            timeZone: "Europe/Berlin",
            style: LocaleStyle(identifier: "en_US", currency: .usd),
            host: "commission.example.net"
        ).text
        #expect(feed.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n") && feed.hasSuffix("END:VCALENDAR\r\n"))
        let lines = feed.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 75 }, "folded at 75 octets")
        let unfolded = feed.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains("UID:commission-3-2026-09-01-pay@commission.example.net"))
        #expect(unfolded.contains("SEQUENCE:2\r\nSUMMARY:Paid: Glow\\, Mitte paid $240.00"))
        #expect(unfolded.contains("SEQUENCE:1\r\nSUMMARY:Overdue: Glow\\, Mitte owes $120.00"))
        #expect(unfolded.contains("SEQUENCE:0\r\nSUMMARY:Expected: Glow\\, Mitte pays $60.00"))
        #expect(PayDatesCalendar.escape("a\r\nb;c,d\\") == "a\\nb\\;c\\,d\\\\", "CRLF, ; , and \\ escaped")
        #expect(unfolded.contains("DTSTART;VALUE=DATE:20261114\r\nDTEND;VALUE=DATE:20261115"))
        // The same book makes the same bytes (its ETag is stable).
        let again = PayDatesCalendar(
            clinics: [.init(clinic: clinic, reconciliation: reconciliation, dueAfterDays: 14)],
            today: today,
            timeZone: "Europe/Berlin",
            style: LocaleStyle(identifier: "en_US", currency: .usd),
            host: "commission.example.net"
        ).text
        #expect(again == feed)
    }
}

/// A subscription's keys as a browser writes them (RFC 8291's example user agent's).
enum ReminderStoreKeys {
    static let p256dh = WebPushTests.agentPublic
    static let auth = WebPushTests.auth
}
