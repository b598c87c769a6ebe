import AsyncAlgorithms
import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// The reminders that reach her when she is not looking, sent by `serve` itself: once a minute
/// (``tick(now:)``), for every book with a device to reach, each account's end-of-day reminder
/// and late clinics, each claimed in the database before it is sent — so that a reminder due
/// while the server was down goes out when it starts (if still true), never twice, and once only
/// with several servers on one database. What is due at her day's end is known from each book's
/// glance alone; a book's store is opened only to read its clinics' lateness, once a day.
package struct ReminderService: Service {
    /// A book to look at: its glance (read with the other books of its database on a team
    /// server), where its reminders are kept, and the way to open its store — opened only when a
    /// clinic's lateness must be read, and let go after.
    package struct Book: Sendable {
        /// Its name in the log and in what the pass remembers ("book 12").
        package var name: String
        package var glance: ReminderGlance
        package var reminders: any ReminderStore
        package var open: @Sendable () async throws -> any WebStore

        package init(
            name: String,
            glance: ReminderGlance,
            reminders: any ReminderStore,
            open: @escaping @Sendable () async throws -> any WebStore
        ) {
            (self.name, self.glance, self.reminders, self.open) = (name, glance, reminders, open)
        }

        /// The book of a single-book server, glanced at through its own store.
        package static func reading(_ store: any WebStore, now: Date, name: String = "the book") async throws -> Book {
            Book(name: name, glance: try await ReminderGlance.read(from: store, now: now), reminders: store) { store }
        }
    }

    /// The books to look at at `now`: the one of a single-book server, or those of a directory with a device.
    package let books: @Sendable (_ now: Date) async throws -> [Book]
    package let sender: PushSender
    package let clock: any WallClock
    package let logger: Logger
    /// The day each book's late clinics were last looked at, and for which accounts.
    let lateLookedAt = LateLookedAt()
    /// How many books a pass looks at together.
    static let booksAtOnce = 8

    package init(
        books: @escaping @Sendable (_ now: Date) async throws -> [Book],
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
        let books: [Book]
        do { books = try await self.books(now) } catch {
            logger.warning("reminders: the books could not be read: \(String(reflecting: error))")
            return 0
        }
        // A few books at once (each a claim and a message or two; a store opened only for a late
        // clinic), not every book together.
        await withTaskGroup(of: Int.self) { group in
            var next = books.makeIterator()
            for _ in 0..<Self.booksAtOnce {
                guard let book = next.next() else { break }
                group.addTask { await self.tick(book, now: now) }
            }
            for await count in group {
                sent += count
                if let book = next.next() { group.addTask { await self.tick(book, now: now) } }
            }
        }
        return sent
    }

    /// One book's pass.
    func tick(_ book: Book, now: Date) async -> Int {
        let glance = book.glance
        guard !glance.devices.isEmpty else { return 0 }
        let reminders = book.reminders
        do {
            let today = glance.today(now)
            let soldOn = glance.soldOn(before: now)
            let accounts = Dictionary(grouping: glance.devices, by: \.account)
            // A clinic's lateness is looked at once a day (from the morning of her day, never in
            // the night), for the accounts that asked to hear of it: its store opened for that.
            let hearLate = Set(accounts.keys.filter { (glance.settings[$0] ?? .default).lateClinics })
            var late: [ClinicPeriods] = []
            var style = LocaleStyle(identifier: "en_US", currency: .usd)
            let looksAtLate =
                !hearLate.isEmpty && ReminderPlan.saysLate(now: now, timeZone: glance.timeZone)
                && !lateLookedAt.done(book.name, on: today, for: hearLate)
            if looksAtLate {
                let store = try await book.open()
                style = try await store.settings().style
                let dashboard = try await store.dashboard(today: today)
                let history = try await UnconfirmedHistory.asked(of: store, dashboard: dashboard)
                late = try await ClinicPeriods.read(from: store, dashboard: dashboard, today: today, history: history) {
                    $0.overdue(history).isPositive
                }
            }
            var sent = 0
            var tryAgain = false
            for (account, devices) in accounts {
                let chosen = glance.settings[account] ?? .default
                // When each late reminder first went out: its second comes a week after.
                let lateSent =
                    late.isEmpty || !chosen.lateClinics
                    ? [:]
                    : try await reminders.remindersSent(of: account, prefix: "late ").mapValues {
                        Day($0, in: glance.timeZone)
                    }
                var due = ReminderPlan.late(
                    clinics: late,
                    today: today,
                    settings: chosen,
                    style: style,
                    sent: lateSent
                )
                if let endOfDay = ReminderPlan.endOfDay(
                    now: now,
                    timeZone: glance.timeZone,
                    settings: chosen,
                    soldOn: soldOn
                ) {
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
                        tryAgain = true
                        logger.warning("reminders: \(reminder.key) reached no device; tried again at the next pass")
                    }
                }
            }
            // Its late clinics looked at for today, unless a reminder is to be tried again.
            if looksAtLate && !tryAgain { lateLookedAt.mark(book.name, on: today, for: hearLate) }
            return sent
        } catch {
            logger.warning("reminders: \(book.name)'s pass failed: \(String(reflecting: error))")
            return 0
        }
    }

    /// The day each book's late clinics were last looked at, and for whom: a clinic becomes late
    /// from one day to the next, so a pass every minute reads each book's clinics once a day.
    final class LateLookedAt: Sendable {
        private let looked = Mutex<[String: (day: Day, accounts: Set<Account.ID>)]>([:])

        func done(_ book: String, on day: Day, for accounts: Set<Account.ID>) -> Bool {
            looked.withLock { $0[book].map { $0.day == day && accounts.isSubset(of: $0.accounts) } ?? false }
        }

        func mark(_ book: String, on day: Day, for accounts: Set<Account.ID>) {
            looked.withLock { $0[book] = (day, accounts) }
        }
    }
}
