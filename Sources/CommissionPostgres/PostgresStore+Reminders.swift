import CommissionCore
import CommissionStore
import Foundation
import Logging
import PostgresNIO

/// A book's devices, reminder settings, reminders sent and calendar secret, kept beside the
/// accounts (on the database that keeps them, the directory's): a book moved to another database
/// keeps them. Made without a round trip, so that the reminders' pass claims and sends a book's
/// reminders without opening its store (``PostgresBooks/reminders(of:)``).
public struct PostgresReminders: ReminderStore {
    let accounts: PostgresBookDatabase
    let book: Int64
    var logger: Logger { accounts.logger }

    init(accounts: PostgresBookDatabase, book: Int64) {
        (self.accounts, self.book) = (accounts, book)
    }

    @discardableResult
    func accountWrite<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T
    {
        try await accounts.run("write", body)
    }

    func readAccounts<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T
    {
        try await accounts.readAccounts(body)
    }

    typealias DeviceRow = (Int64, Int64, String, String, String, String, Int64)
    static let deviceColumns = "id, accountId, endpoint, p256dh, auth, label, createdAt"

    static func pushDevice(_ row: DeviceRow) -> PushDevice {
        PushDevice(
            id: PushDevice.ID(row.0),
            account: Account.ID(row.1),
            endpoint: row.2,
            p256dh: row.3,
            auth: row.4,
            label: row.5,
            createdAt: Date(timeIntervalSince1970: TimeInterval(row.6))
        )
    }

    public func pushDevices(of account: Account.ID?) async throws -> [PushDevice] {
        try await readAccounts { connection in
            try await connection.query(
                """
                SELECT \(unescaped: Self.deviceColumns) FROM pushDevice
                WHERE bookId = \(book) AND (\(account?.rawValue)::bigint IS NULL OR accountId = \(account?.rawValue))
                ORDER BY id
                """,
                logger: logger
            ).decode(DeviceRow.self).all().map(Self.pushDevice)
        }
    }

    @discardableResult
    public func addPushDevice(
        account: Account.ID,
        endpoint: String,
        p256dh: String,
        auth: String,
        label: String,
        now: Date
    ) async throws -> PushDevice {
        let checked = try StoreInput.pushDevice(endpoint: endpoint, p256dh: p256dh, auth: auth, label: label)
        return try await accountWrite { connection in
            let rows = try await connection.query(
                """
                INSERT INTO pushDevice (bookId, accountId, endpoint, p256dh, auth, label, createdAt)
                VALUES (\(book), \(account.rawValue), \(checked.endpoint), \(checked.p256dh), \(checked.auth), \(checked.label),
                    \(Int64(now.timeIntervalSince1970)))
                ON CONFLICT (bookId, endpoint) DO UPDATE SET accountId = excluded.accountId,
                    p256dh = excluded.p256dh, auth = excluded.auth, label = excluded.label
                RETURNING \(unescaped: Self.deviceColumns)
                """,
                logger: logger
            ).decode(DeviceRow.self).all()
            guard let row = rows.first else { throw StoreError.storage("the device was not kept") }
            return Self.pushDevice(row)
        }
    }

    public func removePushDevice(_ id: PushDevice.ID, of account: Account.ID?) async throws -> Bool {
        try await accountWrite { connection in
            try await connection.query(
                """
                DELETE FROM pushDevice WHERE bookId = \(book) AND id = \(id.rawValue)
                  AND (\(account?.rawValue)::bigint IS NULL OR accountId = \(account?.rawValue))
                RETURNING id
                """,
                logger: logger
            ).decode(Int64.self).all().count > 0
        }
    }

    public func removePushDevice(endpoint: String) async throws {
        try await accountWrite { connection in
            try await connection.query(
                "DELETE FROM pushDevice WHERE bookId = \(book) AND endpoint = \(endpoint)",
                logger: logger
            )
        }
    }

    public func reminderSettings(of account: Account.ID) async throws -> ReminderSettings {
        try await readAccounts { connection in
            try await connection.query(
                """
                SELECT endOfDay, lateClinics, endOfDayMinute FROM reminderSetting
                WHERE bookId = \(book) AND accountId = \(account.rawValue)
                """,
                logger: logger
            ).decode((Bool, Bool, Int64).self).all().first.map {
                ReminderSettings(endOfDay: $0.0, lateClinics: $0.1, endOfDayMinute: Int($0.2))
            } ?? .default
        }
    }

    public func setReminderSettings(_ settings: ReminderSettings, of account: Account.ID) async throws {
        let checked = try StoreInput.reminderSettings(settings)
        try await accountWrite { connection in
            try await connection.query(
                """
                INSERT INTO reminderSetting (bookId, accountId, endOfDay, lateClinics, endOfDayMinute)
                VALUES (\(book), \(account.rawValue), \(checked.endOfDay), \(checked.lateClinics), \(Int64(checked.endOfDayMinute)))
                ON CONFLICT (bookId, accountId) DO UPDATE SET endOfDay = excluded.endOfDay,
                    lateClinics = excluded.lateClinics, endOfDayMinute = excluded.endOfDayMinute
                """,
                logger: logger
            )
        }
    }

    public func claimReminder(_ key: String, of account: Account.ID, at: Date) async throws -> Bool {
        try await accountWrite { connection in
            try await connection.query(
                """
                INSERT INTO reminderSent (bookId, accountId, key, at)
                VALUES (\(book), \(account.rawValue), \(key), \(Int64(at.timeIntervalSince1970)))
                ON CONFLICT DO NOTHING RETURNING accountId
                """,
                logger: logger
            ).decode(Int64.self).all().count > 0
        }
    }

    public func remindersSent(of account: Account.ID, prefix: String) async throws -> [String: Date] {
        try await readAccounts { connection in
            var sent: [String: Date] = [:]
            for (key, at) in try await connection.query(
                """
                SELECT key, at FROM reminderSent
                WHERE bookId = \(book) AND accountId = \(account.rawValue) AND left(key, length(\(prefix))) = \(prefix)
                """,
                logger: logger
            ).decode((String, Int64).self).all() {
                sent[key] = Date(timeIntervalSince1970: TimeInterval(at))
            }
            return sent
        }
    }

    public func releaseReminder(_ key: String, of account: Account.ID) async throws {
        try await accountWrite { connection in
            try await connection.query(
                "DELETE FROM reminderSent WHERE bookId = \(book) AND accountId = \(account.rawValue) AND key = \(key)",
                logger: logger
            )
        }
    }

    public func calendarDigest(of account: Account.ID) async throws -> String? {
        try await readAccounts { connection in
            try await connection.query(
                "SELECT calendarDigest FROM reminderSetting WHERE bookId = \(book) AND accountId = \(account.rawValue)",
                logger: logger
            ).decode(String?.self).all().first ?? nil
        }
    }

    public func setCalendarDigest(_ digest: String?, of account: Account.ID) async throws {
        try await accountWrite { connection in
            try await connection.query(
                """
                INSERT INTO reminderSetting (bookId, accountId, endOfDay, lateClinics, endOfDayMinute, calendarDigest)
                VALUES (\(book), \(account.rawValue), true, true, \(Int64(ReminderSettings.default.endOfDayMinute)), \(digest))
                ON CONFLICT (bookId, accountId) DO UPDATE SET calendarDigest = excluded.calendarDigest
                """,
                logger: logger
            )
        }
    }

    public func account(calendarDigest: String) async throws -> Account.ID? {
        try await readAccounts { connection in
            try await connection.query(
                "SELECT accountId FROM reminderSetting WHERE bookId = \(book) AND calendarDigest = \(calendarDigest)",
                logger: logger
            ).decode(Int64.self).all().first.map { Account.ID($0) }
        }
    }
}

/// A book's store keeps its reminders as ``PostgresReminders`` does, beside the accounts.
extension PostgresStore: ReminderStore {
    var reminders: PostgresReminders { PostgresReminders(accounts: accounts, book: book) }

    public func pushDevices(of account: Account.ID?) async throws -> [PushDevice] {
        try await reminders.pushDevices(of: account)
    }

    @discardableResult
    public func addPushDevice(
        account: Account.ID,
        endpoint: String,
        p256dh: String,
        auth: String,
        label: String,
        now: Date
    ) async throws -> PushDevice {
        try await reminders.addPushDevice(
            account: account,
            endpoint: endpoint,
            p256dh: p256dh,
            auth: auth,
            label: label,
            now: now
        )
    }

    public func removePushDevice(_ id: PushDevice.ID, of account: Account.ID?) async throws -> Bool {
        try await reminders.removePushDevice(id, of: account)
    }

    public func removePushDevice(endpoint: String) async throws {
        try await reminders.removePushDevice(endpoint: endpoint)
    }

    public func reminderSettings(of account: Account.ID) async throws -> ReminderSettings {
        try await reminders.reminderSettings(of: account)
    }

    public func setReminderSettings(_ settings: ReminderSettings, of account: Account.ID) async throws {
        try await reminders.setReminderSettings(settings, of: account)
    }

    public func claimReminder(_ key: String, of account: Account.ID, at: Date) async throws -> Bool {
        try await reminders.claimReminder(key, of: account, at: at)
    }

    public func remindersSent(of account: Account.ID, prefix: String) async throws -> [String: Date] {
        try await reminders.remindersSent(of: account, prefix: prefix)
    }

    public func releaseReminder(_ key: String, of account: Account.ID) async throws {
        try await reminders.releaseReminder(key, of: account)
    }

    public func calendarDigest(of account: Account.ID) async throws -> String? {
        try await reminders.calendarDigest(of: account)
    }

    public func setCalendarDigest(_ digest: String?, of account: Account.ID) async throws {
        try await reminders.setCalendarDigest(digest, of: account)
    }

    public func account(calendarDigest: String) async throws -> Account.ID? {
        try await reminders.account(calendarDigest: calendarDigest)
    }
}
