import AsyncAlgorithms
import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Logging
import ServiceLifecycle

/// The reminders that reach her when she is not looking, sent by `serve` itself: once a minute
/// (``tick(now:)``), for every book with a device to reach, each account's end-of-day reminder
/// and late clinics, each claimed in the database before it is sent — so that a reminder due
/// while the server was down goes out when it starts (if still true), never twice, and once only
/// with several servers on one database.
package struct ReminderService: Service {
    /// A book to look at, as the way to open its store: opened in its turn and let go after, so
    /// that a pass over ten thousand books holds a few of them at a time.
    package typealias Book = @Sendable () async throws -> any WebStore
    /// The books to look at: the one of a single-book server, or those of a directory with a device.
    package let books: @Sendable () async throws -> [Book]
    package let sender: PushSender
    package let clock: any WallClock
    package let logger: Logger
    /// How many books a pass looks at together.
    static let booksAtOnce = 8

    package init(
        books: @escaping @Sendable () async throws -> [Book],
        sender: PushSender,
        clock: any WallClock,
        logger: Logger
    ) {
        (self.books, self.sender, self.clock, self.logger) = (books, sender, clock, logger)
    }

    package func run() async throws {
        await run(every: .seconds(60))
    }

    /// At start (a reminder due while the server was down goes out now, if still true), then
    /// every `interval`, until the task is cancelled.
    package func run(every interval: Duration) async {
        let sent = await tick(now: clock.now)
        // Said once: what was due while the server was down, sent now.
        logger.info("reminders: the pass at start sent \(sent) notification\(sent == 1 ? "" : "s")")
        for await _ in AsyncTimerSequence(interval: interval, clock: .continuous) {
            if Task.isCancelled { return }
            await tick(now: clock.now)
        }
    }

    /// One pass: what is due now, claimed and sent. Says what it sent (for the tests and the log).
    @discardableResult
    package func tick(now: Date) async -> Int {
        var sent = 0
        let stores: [Book]
        do { stores = try await books() } catch {
            logger.warning("reminders: the books could not be listed: \(String(reflecting: error))")
            return 0
        }
        // A few books at once (each opened, a few reads and requests, let go), not every book together.
        await withTaskGroup(of: Int.self) { group in
            var next = stores.makeIterator()
            for _ in 0..<Self.booksAtOnce {
                guard let book = next.next() else { break }
                group.addTask { await self.tick(opening: book, now: now) }
            }
            for await count in group {
                sent += count
                if let book = next.next() { group.addTask { await self.tick(opening: book, now: now) } }
            }
        }
        return sent
    }

    /// One book's pass, its store opened for it.
    func tick(opening book: Book, now: Date) async -> Int {
        let store: any WebStore
        do { store = try await book() } catch {
            logger.warning("reminders: a book could not be opened: \(String(reflecting: error))")
            return 0
        }
        return await tick(store, now: now)
    }

    /// One book's pass.
    func tick(_ store: any WebStore, now: Date) async -> Int {
        let reminders = store
        do {
            let devices = try await reminders.pushDevices(of: nil)
            guard !devices.isEmpty else { return 0 }
            let settings = try await store.settings()
            let zone = TimeZone(identifier: settings.timeZoneIdentifier) ?? TimeZone(identifier: "UTC")!
            let today = Day(now, in: zone)
            let soldOn = try await store.daysWithSales(from: today.adding(days: -70), through: today)
            let accounts = Dictionary(grouping: devices, by: \.account)
            var chosen: [Account.ID: ReminderSettings] = [:]
            for account in accounts.keys { chosen[account] = try await reminders.reminderSettings(of: account) }
            // The clinics' periods are read only when an account asks to hear of a late one.
            var late: [ClinicPeriods] = []
            if chosen.values.contains(where: \.lateClinics) {
                let dashboard = try await store.dashboard(today: today)
                let history = try await UnconfirmedHistory.asked(of: store, dashboard: dashboard)
                late = try await ClinicPeriods.read(from: store, dashboard: dashboard, today: today, history: history) {
                    $0.overdue(history).isPositive
                }
            }
            var sent = 0
            for (account, devices) in accounts {
                let chosen = chosen[account] ?? .default
                // When each late reminder first went out: its second comes a week after.
                let lateSent =
                    late.isEmpty || !chosen.lateClinics
                    ? [:]
                    : try await reminders.remindersSent(of: account, prefix: "late ").mapValues { Day($0, in: zone) }
                var due = ReminderPlan.late(
                    clinics: late,
                    today: today,
                    settings: chosen,
                    style: settings.style,
                    sent: lateSent
                )
                if let endOfDay = ReminderPlan.endOfDay(now: now, timeZone: zone, settings: chosen, soldOn: soldOn) {
                    due.append(endOfDay)
                }
                var gone: Set<PushDevice.ID> = []
                for reminder in due where try await reminders.claimReminder(reminder.key, of: account, at: now) {
                    // Whether a device has it, or will never (gone, refused): else it is tried again.
                    var settled = false
                    for device in devices where !gone.contains(device.id) {
                        switch await sender.send(reminder, to: device, store: reminders) {
                        case .sent:
                            sent += 1
                            settled = true
                        case .gone:
                            gone.insert(device.id)
                            settled = true
                            logger.info("reminders: a device's push service no longer knows it; removed")
                        case .refused(let why):
                            settled = true
                            logger.warning("reminders: \(reminder.key) not sent to a device: \(why)")
                        case .failed(let why):
                            logger.warning("reminders: \(reminder.key) not sent to a device: \(why)")
                        }
                    }
                    // No push service answered (down, or out of reach): the claim is given back, so
                    // that the next pass sends it if it is still true — a reminder is never lost to
                    // a push service's bad minute, nor sent twice to a device that has it.
                    if !settled {
                        try await reminders.releaseReminder(reminder.key, of: account)
                        logger.warning("reminders: \(reminder.key) reached no device; tried again at the next pass")
                    }
                }
            }
            return sent
        } catch {
            logger.warning("reminders: a book's pass failed: \(String(reflecting: error))")
            return 0
        }
    }
}
