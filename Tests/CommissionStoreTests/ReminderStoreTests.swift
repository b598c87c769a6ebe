import CommissionCore
import CommissionStore
import Foundation
import Testing

/// What reaches her when she is not looking, kept by every store a server keeps a book in: her
/// devices (per account, a subscription renewed rather than doubled), what reminds her and when,
/// each reminder claimed once, and her calendar feed's secret.
@Suite struct ReminderStoreTests {
    typealias Book = any ServerBookStore

    /// A book with its owner and one member, user names unique on the shared PostgreSQL server.
    func makeBook(_ kind: StoreKind) async throws -> (store: Book, owner: Account, member: Account) {
        let store = try #require(try await kind.makeStore() as? Book)
        let owner = try await store.createOwner(username: "owner-\(UUID().uuidString.prefix(8))", passwordHash: "x")
        let digest = "invitation-\(UUID().uuidString)"
        try await store.createInvitation(
            tokenDigest: digest,
            role: .member,
            invitedBy: owner.id,
            expiresAt: Date().addingTimeInterval(3600)
        )
        let member = try await store.acceptInvitation(
            tokenDigest: digest,
            username: "member-\(UUID().uuidString.prefix(8))".lowercased(),
            passwordHash: "y",
            now: Date()
        )
        return (store, owner, member)
    }

    static let key = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
    static let auth = "tBHItJI5svbpez7KI4CCXg"

    @Test(arguments: StoreKind.local)
    func devicesAreEachAccountsAndASubscriptionIsRenewedNotDoubled(_ kind: StoreKind) async throws {
        let (store, owner, member) = try await makeBook(kind)
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let endpoint = "https://push.example.net/\(UUID().uuidString)"
        let phone = try await store.addPushDevice(
            account: owner.id,
            endpoint: endpoint,
            p256dh: Self.key,
            auth: Self.auth,
            label: "Chrome on Android",
            now: now
        )
        _ = try await store.addPushDevice(
            account: member.id,
            endpoint: endpoint + "-member",
            p256dh: Self.key,
            auth: Self.auth,
            label: "",
            now: now
        )
        // The same browser subscribing again renews its device: one row, the new keys.
        let renewed = try await store.addPushDevice(
            account: owner.id,
            endpoint: endpoint,
            p256dh: Self.key,
            auth: "AAAAAAAAAAAAAAAAAAAAAA",
            label: "Chrome on Android",
            now: now.addingTimeInterval(60)
        )
        #expect(renewed.id == phone.id && renewed.auth == "AAAAAAAAAAAAAAAAAAAAAA")
        #expect(try await store.pushDevices(of: owner.id).map(\.endpoint) == [endpoint])
        #expect(try await store.pushDevices(of: member.id).map(\.label) == ["A browser"])
        #expect(try await store.pushDevices(of: nil).count == 2)
        // A member cannot remove the owner's device; the owner can; a gone endpoint removes its own.
        #expect(try await store.removePushDevice(phone.id, of: member.id) == false)
        #expect(try await store.removePushDevice(phone.id, of: owner.id) == true)
        try await store.removePushDevice(endpoint: endpoint + "-member")
        #expect(try await store.pushDevices(of: nil).isEmpty)
    }

    @Test(arguments: StoreKind.local)
    func aSubscriptionThatIsNoneIsRefusedAndNothingKept(_ kind: StoreKind) async throws {
        let (store, owner, _) = try await makeBook(kind)
        for (endpoint, key, auth) in [
            ("", Self.key, Self.auth), ("mailto:her@example.net", Self.key, Self.auth),
            ("https://push.example.net/1", "short", Self.auth), ("https://push.example.net/1", Self.key, "not base64!"),
            ("https://push.example.net/" + String(repeating: "x", count: 2048), Self.key, Self.auth),
        ] {
            await #expect(throws: StoreError.self) {
                try await store.addPushDevice(
                    account: owner.id,
                    endpoint: endpoint,
                    p256dh: key,
                    auth: auth,
                    label: "",
                    now: Date()
                )
            }
        }
        #expect(try await store.pushDevices(of: nil).isEmpty)
    }

    @Test(arguments: StoreKind.local)
    func settingsAreEachAccountsWithDefaultsAndACheckedTime(_ kind: StoreKind) async throws {
        let (store, owner, member) = try await makeBook(kind)
        #expect(try await store.reminderSettings(of: owner.id) == .default)
        #expect(ReminderSettings.default.endOfDayMinute == 19 * 60)
        let chosen = ReminderSettings(endOfDay: false, lateClinics: true, endOfDayMinute: 17 * 60 + 30)
        try await store.setReminderSettings(chosen, of: owner.id)
        #expect(try await store.reminderSettings(of: owner.id) == chosen)
        #expect(try await store.reminderSettings(of: member.id) == .default)
        await #expect(throws: StoreError.self) {
            try await store.setReminderSettings(.init(endOfDayMinute: 24 * 60), of: owner.id)
        }
        #expect(try await store.reminderSettings(of: owner.id) == chosen)
    }

    /// Two servers on one database (or a restart) claim the same reminder: one of them sends it.
    @Test(arguments: StoreKind.local)
    func aReminderIsClaimedOnceEvenByClaimsAtOnce(_ kind: StoreKind) async throws {
        let (store, owner, member) = try await makeBook(kind)
        let now = Date()
        let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask { try await store.claimReminder("end-of-day 2026-12-01", of: owner.id, at: now) }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(wins == 1)
        #expect(try await store.claimReminder("end-of-day 2026-12-01", of: owner.id, at: now) == false)
        // Another account's reminder of the same name is its own; another day's is another.
        #expect(try await store.claimReminder("end-of-day 2026-12-01", of: member.id, at: now) == true)
        #expect(try await store.claimReminder("end-of-day 2026-12-02", of: owner.id, at: now) == true)
        // A claim that reached no device is given back: the next claim wins it again, once; the
        // other account's claim of the same name stays.
        try await store.releaseReminder("end-of-day 2026-12-01", of: owner.id)
        #expect(try await store.claimReminder("end-of-day 2026-12-01", of: owner.id, at: now) == true)
        #expect(try await store.claimReminder("end-of-day 2026-12-01", of: owner.id, at: now) == false)
        #expect(try await store.claimReminder("end-of-day 2026-12-01", of: member.id, at: now) == false)
        // When each was sent, by its key's start: what a late clinic's second reminder counts from.
        let first = Date(timeIntervalSince1970: 1_795_000_000)
        #expect(try await store.claimReminder("late 3 2026-10-01", of: owner.id, at: first))
        #expect(try await store.claimReminder("late 3 2026-10-01", of: owner.id, at: now) == false)
        #expect(try await store.remindersSent(of: owner.id, prefix: "late ") == ["late 3 2026-10-01": first])
        #expect(try await store.remindersSent(of: member.id, prefix: "late ").isEmpty)
        #expect(try await store.remindersSent(of: owner.id, prefix: "end-of-day ").count == 2)
    }

    @Test(arguments: StoreKind.local)
    func aCalendarSecretFindsItsAccountUntilRevoked(_ kind: StoreKind) async throws {
        let (store, owner, member) = try await makeBook(kind)
        let digest = "digest-\(UUID().uuidString)"
        #expect(try await store.calendarDigest(of: owner.id) == nil)
        try await store.setCalendarDigest(digest, of: owner.id)
        #expect(try await store.calendarDigest(of: owner.id) == digest)
        #expect(try await store.account(calendarDigest: digest) == owner.id)
        #expect(try await store.account(calendarDigest: "digest-of-nothing") == nil)
        #expect(try await store.calendarDigest(of: member.id) == nil)
        // Her settings are untouched by her calendar's secret, and the other way round.
        try await store.setReminderSettings(.init(lateClinics: false), of: owner.id)
        #expect(try await store.calendarDigest(of: owner.id) == digest)
        try await store.setCalendarDigest(nil, of: owner.id)
        #expect(try await store.account(calendarDigest: digest) == nil)
        #expect(try await store.reminderSettings(of: owner.id).lateClinics == false)
    }
}
