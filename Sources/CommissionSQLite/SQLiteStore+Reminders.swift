import CommissionCore
import CommissionStore
import Foundation
import GRDB

extension SQLiteStore: ReminderStore {
    static func pushDevice(_ row: Row) -> PushDevice {
        PushDevice(
            id: PushDevice.ID(row["id"] as Int64),
            account: Account.ID(row["accountId"] as Int64),
            endpoint: row["endpoint"],
            p256dh: row["p256dh"],
            auth: row["auth"],
            label: row["label"],
            createdAt: Date(timeIntervalSince1970: TimeInterval(row["createdAt"] as Int64))
        )
    }

    public func pushDevices(of account: Account.ID?) async throws -> [PushDevice] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT * FROM pushDevice WHERE ? IS NULL OR accountId = ? ORDER BY id",
                arguments: [account?.rawValue, account?.rawValue]
            ).map(Self.pushDevice)
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
        return try await write([], bump: false) { db in
            try db.execute(
                sql: """
                    INSERT INTO pushDevice (accountId, endpoint, p256dh, auth, label, createdAt) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (endpoint) DO UPDATE SET accountId = excluded.accountId, p256dh = excluded.p256dh,
                        auth = excluded.auth, label = excluded.label
                    """,
                arguments: [
                    account.rawValue, checked.endpoint, checked.p256dh, checked.auth, checked.label,
                    Int64(now.timeIntervalSince1970),
                ]
            )
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: "SELECT * FROM pushDevice WHERE endpoint = ?",
                    arguments: [checked.endpoint]
                )
            else { throw StoreError.storage("the device was not kept") }
            return Self.pushDevice(row)
        }
    }

    public func removePushDevice(_ id: PushDevice.ID, of account: Account.ID?) async throws -> Bool {
        try await write([], bump: false) { db in
            try db.execute(
                sql: "DELETE FROM pushDevice WHERE id = ? AND (? IS NULL OR accountId = ?)",
                arguments: [id.rawValue, account?.rawValue, account?.rawValue]
            )
            return db.changesCount > 0
        }
    }

    public func removePushDevice(endpoint: String) async throws {
        try await write([], bump: false) { db in
            try db.execute(sql: "DELETE FROM pushDevice WHERE endpoint = ?", arguments: [endpoint])
        }
    }

    public func reminderSettings(of account: Account.ID) async throws -> ReminderSettings {
        try await read { db in
            try Row.fetchOne(
                db,
                sql: "SELECT endOfDay, lateClinics, endOfDayMinute FROM reminderSetting WHERE accountId = ?",
                arguments: [account.rawValue]
            ).map { ReminderSettings(endOfDay: $0[0], lateClinics: $0[1], endOfDayMinute: $0[2]) } ?? .default
        }
    }

    public func setReminderSettings(_ settings: ReminderSettings, of account: Account.ID) async throws {
        let checked = try StoreInput.reminderSettings(settings)
        try await write([], bump: false) { db in
            try db.execute(
                sql: """
                    INSERT INTO reminderSetting (accountId, endOfDay, lateClinics, endOfDayMinute) VALUES (?, ?, ?, ?)
                    ON CONFLICT (accountId) DO UPDATE SET endOfDay = excluded.endOfDay, lateClinics = excluded.lateClinics,
                        endOfDayMinute = excluded.endOfDayMinute
                    """,
                arguments: [account.rawValue, checked.endOfDay, checked.lateClinics, checked.endOfDayMinute]
            )
        }
    }

    public func claimReminder(_ key: String, of account: Account.ID, at: Date) async throws -> Bool {
        try await write([], bump: false) { db in
            try db.execute(
                sql: "INSERT INTO reminderSent (accountId, key, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [account.rawValue, key, Int64(at.timeIntervalSince1970)]
            )
            return db.changesCount > 0
        }
    }

    public func remindersSent(of account: Account.ID, prefix: String) async throws -> [String: Date] {
        try await read { db in
            var sent: [String: Date] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: "SELECT key, at FROM reminderSent WHERE accountId = ? AND substr(key, 1, length(?)) = ?",
                arguments: [account.rawValue, prefix, prefix]
            )
            while let row = try rows.next() {
                sent[row["key"]] = Date(timeIntervalSince1970: TimeInterval(row["at"] as Int64))
            }
            return sent
        }
    }

    public func releaseReminder(_ key: String, of account: Account.ID) async throws {
        try await write([], bump: false) { db in
            try db.execute(
                sql: "DELETE FROM reminderSent WHERE accountId = ? AND key = ?",
                arguments: [account.rawValue, key]
            )
        }
    }

    public func calendarDigest(of account: Account.ID) async throws -> String? {
        try await read { db in
            try String.fetchOne(
                db,
                sql: "SELECT calendarDigest FROM reminderSetting WHERE accountId = ?",
                arguments: [account.rawValue]
            )
        }
    }

    public func setCalendarDigest(_ digest: String?, of account: Account.ID) async throws {
        try await write([], bump: false) { db in
            try db.execute(
                sql: """
                    INSERT INTO reminderSetting (accountId, endOfDay, lateClinics, endOfDayMinute, calendarDigest)
                    VALUES (?, 1, 1, \(ReminderSettings.default.endOfDayMinute), ?)
                    ON CONFLICT (accountId) DO UPDATE SET calendarDigest = excluded.calendarDigest
                    """,
                arguments: [account.rawValue, digest]
            )
        }
    }

    public func account(calendarDigest: String) async throws -> Account.ID? {
        try await read { db in
            try Int64.fetchOne(
                db,
                sql: "SELECT accountId FROM reminderSetting WHERE calendarDigest = ?",
                arguments: [calendarDigest]
            ).map { Account.ID($0) }
        }
    }
}
