import CommissionCore
import CommissionStore
import Foundation
import PostgresNIO

/// What the reminders' pass of a team server reads of its books: every book with a device
/// glanced at in a few statements per database, and each book's reminders kept on the directory
/// — so that a pass over ten thousand books opens the store of none of them to send her
/// end-of-day reminder.
extension PostgresBooks {
    /// The reminders of `book` (its devices, claims, settings), on the directory's database:
    /// made without a round trip.
    public func reminders(of book: Int64) -> PostgresReminders {
        PostgresReminders(accounts: database, book: book)
    }

    /// Every book with a device, by id: its devices and their accounts' choices (three statements
    /// on the directory), and its time zone and days with sales around `now` (two on each database
    /// holding some of them). A database that does not answer is left out of this pass and said
    /// in `unread`; the pass looks at its books again a minute later.
    public func reminderGlances(
        now: Date,
        unread: @Sendable (String, any Error) -> Void = { _, _ in }
    ) async throws -> [Int64: ReminderGlance] {
        let logger = database.logger
        let (devices, chosen, places) = try await lookup("read the devices to remind") { connection in
            let devices = try await connection.query(
                "SELECT bookId, \(unescaped: PostgresReminders.deviceColumns) FROM pushDevice ORDER BY bookId, id",
                logger: logger
            ).decode((Int64, Int64, Int64, String, String, String, String, Int64).self).all().map {
                (book: $0.0, device: PostgresReminders.pushDevice(($0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7)))
            }
            let chosen = try await connection.query(
                """
                SELECT bookId, accountId, endOfDay, lateClinics, endOfDayMinute FROM reminderSetting
                WHERE bookId IN (SELECT bookId FROM pushDevice)
                """,
                logger: logger
            ).decode((Int64, Int64, Bool, Bool, Int64).self).all()
            let places = try await connection.query(
                "SELECT id, place FROM book WHERE id IN (SELECT bookId FROM pushDevice)",
                logger: logger
            ).decode((Int64, String?).self).all()
            return (devices, chosen, places)
        }
        var settings: [Int64: [Account.ID: ReminderSettings]] = [:]
        for (book, account, endOfDay, late, minute) in chosen {
            settings[book, default: [:]][Account.ID(account)] = ReminderSettings(
                endOfDay: endOfDay,
                lateClinics: late,
                endOfDayMinute: Int(minute)
            )
        }
        let byBook = Dictionary(grouping: devices, by: \.book).mapValues { $0.map(\.device) }
        let days = ReminderGlance.days(around: now)
        var glances: [Int64: ReminderGlance] = [:]
        var zones: [String: TimeZone] = [:]
        for (place, books) in Dictionary(grouping: places, by: { $0.1 ?? Self.mainName }) {
            let ids = books.map(\.0).filter { byBook[$0] != nil }
            let read: (zones: [(Int64, String)], sold: [(Int64, String)])
            do {
                read = try await database(named: place).withConnection { connection in
                    let zones = try await connection.query(
                        "SELECT id, timeZone FROM book WHERE id = ANY(\(ids))",
                        logger: logger
                    ).decode((Int64, String).self).all()
                    let sold = try await connection.query(
                        """
                        SELECT t.bookId, t.date::text FROM clinicDayTotal t
                        JOIN clinic c ON c.id = t.clinicId AND c.bookId = t.bookId
                        WHERE t.bookId = ANY(\(ids)) AND t.date BETWEEN \(days.lowerBound.description)::date
                            AND \(days.upperBound.description)::date AND t.saleCount > 0
                        GROUP BY t.bookId, t.date
                        """,
                        logger: logger
                    ).decode((Int64, String).self).all()
                    return (zones, sold)
                }
            } catch {
                unread(place, error)
                continue
            }
            var soldOn: [Int64: Set<Day>] = [:]
            for (book, day) in read.sold {
                if let day = Day.reading(stored: day) { soldOn[book, default: []].insert(day) }
            }
            for (book, identifier) in read.zones {
                guard let devices = byBook[book] else { continue }
                let zone = zones[identifier] ?? TimeZone(identifier: identifier) ?? TimeZone(identifier: "UTC")!
                zones[identifier] = zone
                var chosen: [Account.ID: ReminderSettings] = [:]
                for account in Set(devices.map(\.account)) { chosen[account] = settings[book]?[account] ?? .default }
                glances[book] = ReminderGlance(
                    devices: devices,
                    settings: chosen,
                    timeZone: zone,
                    soldOn: soldOn[book] ?? []
                )
            }
        }
        return glances
    }
}
