import CommissionCore
import Foundation

/// A browser where her reminders reach her: its push subscription (the push service's URL and
/// the keys a message is encrypted for), and what she calls it.
public struct PushDevice: Sendable, Hashable, Identifiable {
    public typealias ID = EntityID<PushDevice>
    public var id: ID
    public var account: Account.ID
    /// The push service's URL for this subscription.
    public var endpoint: String
    /// The subscription's P-256 public key and auth secret, base64url, as the browser gives them.
    public var p256dh: String
    public var auth: String
    /// "Chrome on Android", from the browser that subscribed.
    public var label: String
    public var createdAt: Date

    public init(
        id: ID,
        account: Account.ID,
        endpoint: String,
        p256dh: String,
        auth: String,
        label: String,
        createdAt: Date
    ) {
        (self.id, self.account, self.endpoint, self.p256dh, self.auth, self.label, self.createdAt) = (
            id, account, endpoint, p256dh, auth, label, createdAt
        )
    }
}

/// What reminds her, and when: an account's own.
public struct ReminderSettings: Sendable, Hashable {
    /// At the end of a day she usually works with no sale recorded.
    public var endOfDay: Bool
    /// When a clinic's period becomes overdue (and a week later if still unpaid).
    public var lateClinics: Bool
    /// The end of her working day, in minutes after midnight in the book's time zone (19:00 by default).
    public var endOfDayMinute: Int

    public init(endOfDay: Bool = true, lateClinics: Bool = true, endOfDayMinute: Int = 19 * 60) {
        (self.endOfDay, self.lateClinics, self.endOfDayMinute) = (endOfDay, lateClinics, endOfDayMinute)
    }

    public static let `default` = ReminderSettings()
}

/// Where a server keeps what reaches her when she is not looking: her devices' push
/// subscriptions, what reminds her and when, the reminders sent (claimed once, so that several
/// servers on one database send each once, and a restart never twice), and her calendar feed's
/// secret (its digest).
public protocol ReminderStore: Sendable {
    /// The devices of `account`, or of every account of the book (nil), oldest first.
    func pushDevices(of account: Account.ID?) async throws -> [PushDevice]
    /// Adds a device, or renews the one with the same endpoint (a browser subscribes again).
    @discardableResult
    func addPushDevice(
        account: Account.ID,
        endpoint: String,
        p256dh: String,
        auth: String,
        label: String,
        now: Date
    ) async throws -> PushDevice
    /// Removes a device of `account` (nil: of any account); false when there is none.
    @discardableResult
    func removePushDevice(_ id: PushDevice.ID, of account: Account.ID?) async throws -> Bool
    /// Removes the device of this endpoint (its push service said it is gone).
    func removePushDevice(endpoint: String) async throws
    /// What reminds `account` (the defaults until it chose).
    func reminderSettings(of account: Account.ID) async throws -> ReminderSettings
    func setReminderSettings(_ settings: ReminderSettings, of account: Account.ID) async throws
    /// Claims the reminder `key` ("end-of-day 2026-12-01") of `account`: true for the one caller
    /// that claims it first, false for every other (another server, a restart).
    func claimReminder(_ key: String, of account: Account.ID, at: Date) async throws -> Bool
    /// When each reminder of `account` whose key starts with `prefix` ("late ") was claimed: what
    /// the late reminders count their week from.
    func remindersSent(of account: Account.ID, prefix: String) async throws -> [String: Date]
    /// Gives back a claim that reached none of `account`'s devices (their push services did not
    /// answer), so that the next pass tries it again.
    func releaseReminder(_ key: String, of account: Account.ID) async throws
    /// The SHA-256 digest of `account`'s calendar feed secret, or nil when it has none.
    func calendarDigest(of account: Account.ID) async throws -> String?
    /// Sets (or, with nil, revokes) the digest of `account`'s calendar feed secret.
    func setCalendarDigest(_ digest: String?, of account: Account.ID) async throws
    /// The account whose calendar feed secret has this digest.
    func account(calendarDigest: String) async throws -> Account.ID?
}

/// What the reminders' pass reads of a book first — enough to know what is due at the end of
/// her day, without opening the book: its devices, what each of their accounts chose, its time
/// zone and the days it has sales on. A team server reads it for every book of a database in a
/// few statements (the days of ``ReminderGlance/days(around:)``).
public struct ReminderGlance: Sendable {
    public var devices: [PushDevice]
    /// What each account with a device chose (the defaults for one that did not).
    public var settings: [Account.ID: ReminderSettings]
    public var timeZone: TimeZone
    /// The days with a sale among those asked for.
    public var soldOn: Set<Day>

    public init(
        devices: [PushDevice],
        settings: [Account.ID: ReminderSettings],
        timeZone: TimeZone,
        soldOn: Set<Day>
    ) {
        (self.devices, self.settings, self.timeZone, self.soldOn) = (devices, settings, timeZone, soldOn)
    }

    /// How many days before today the end-of-day rule looks at (the missed days' rule's weeks).
    public static let daysBack = 70

    /// The days whose sales a glance at `now` needs, in every time zone: from `daysBack` days
    /// before the earliest today on Earth to the latest one.
    public static func days(around now: Date) -> ClosedRange<Day> {
        let utc = TimeZone(identifier: "UTC")!
        let today = Day(now, in: utc)
        return today.adding(days: -daysBack - 1)...today.adding(days: 1)
    }

    /// Today in the book's time zone, at `now`.
    public func today(_ now: Date) -> Day { Day(now, in: timeZone) }

    /// The days with a sale the end-of-day rule looks at, for its today at `now`.
    public func soldOn(before now: Date) -> Set<Day> {
        let today = today(now)
        return soldOn.filter { $0 >= today.adding(days: -Self.daysBack) && $0 <= today }
    }

    /// A book's glance read from its own store (a single book served; a test).
    public static func read(
        from store: some CommissionStore & ReminderStore,
        now: Date
    ) async throws -> ReminderGlance {
        let devices = try await store.pushDevices(of: nil)
        var settings: [Account.ID: ReminderSettings] = [:]
        for account in Set(devices.map(\.account)) {
            settings[account] = try await store.reminderSettings(of: account)
        }
        let zone = TimeZone(identifier: try await store.settings().timeZoneIdentifier) ?? TimeZone(identifier: "UTC")!
        let around = Self.days(around: now)
        let days =
            devices.isEmpty ? [] : try await store.daysWithSales(from: around.lowerBound, through: around.upperBound)
        return ReminderGlance(devices: devices, settings: settings, timeZone: zone, soldOn: days)
    }
}
