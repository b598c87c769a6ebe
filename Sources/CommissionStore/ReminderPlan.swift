import CommissionCore
import Foundation

/// A notification to send her: what it says, where its tap leads, and how the push service keeps
/// it (its topic: a newer one of the same topic replaces the older on her phone).
public struct Reminder: Sendable, Hashable {
    /// Claimed once per account (``ReminderStore/claimReminder(_:of:at:)``).
    public var key: String
    public var title: String
    public var body: String
    /// The page a tap opens (a path of the app).
    public var url: String
    /// At most 32 characters of the URL-safe alphabet (RFC 8030 §5.4).
    public var topic: String
    public var urgency: String
    /// How long the push service keeps it for a device that is off, in seconds.
    public var ttl: Int

    public init(
        key: String,
        title: String,
        body: String,
        url: String,
        topic: String,
        urgency: String = "normal",
        ttl: Int
    ) {
        (self.key, self.title, self.body, self.url, self.topic, self.urgency, self.ttl) = (
            key, title, body, url, topic, urgency, ttl
        )
    }

    /// The message's JSON, as the service worker reads it.
    public var payload: [UInt8] {
        let object: [String: String] = ["title": title, "body": body, "url": url, "tag": topic]
        // try?: a dictionary of strings always encodes
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8))
    }
}

/// What reminds her now, worked out from what the book says (no I/O): the end of a working day
/// without sales, a clinic that has become late. The scheduler of `serve` asks it every minute,
/// claims each reminder once and sends it to her devices.
public enum ReminderPlan {
    /// "No sales recorded today": on a day she usually works (the missed days' rule,
    /// ``EntryForm/usualWeekdays(today:soldOn:)``), once it is past the end of her working day in
    /// the book's time zone, while no sale of today is recorded. Kept until midnight.
    public static func endOfDay(
        now: Date,
        timeZone: TimeZone,
        settings: ReminderSettings,
        soldOn: Set<Day>
    ) -> Reminder? {
        guard settings.endOfDay else { return nil }
        let minute = minute(of: now, in: timeZone)
        let today = Day(now, in: timeZone)
        guard minute >= settings.endOfDayMinute, !soldOn.contains(today),
            EntryForm.usualWeekdays(today: today, soldOn: soldOn).contains(today.weekday)
        else { return nil }
        return Reminder(
            key: "end-of-day \(today)",
            title: "No sales recorded today",
            body: "Add them now?",
            url: "/?date=\(today)",
            topic: "end-of-day",
            ttl: max(60, (24 * 60 - minute) * 60)
        )
    }

    /// From when in her day a clinic's lateness is said (9:00 in the book's time zone): a clinic
    /// becomes late at midnight, and she hears of it in the morning, never in the night.
    public static let lateFromMinute = 9 * 60

    /// Whether it is a time of her day to say a clinic is late (from ``lateFromMinute`` to midnight).
    public static func saysLate(now: Date, timeZone: TimeZone) -> Bool {
        minute(of: now, in: timeZone) >= lateFromMinute
    }

    /// The minutes after midnight of `now` in `timeZone`.
    static func minute(of now: Date, in timeZone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: now)
        return (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }

    /// "Glow Aesthetics is late": when a clinic's oldest unpaid period becomes overdue (past its
    /// usual day of payment, as the dashboard says it), once, and once more a week after that first
    /// reminder went out (`sent`: the day each reminder was sent, by key) if it is still unpaid;
    /// never for a period paid or closed, nor one of her history she has not confirmed
    /// (``ClinicPeriods/unconfirmed``). Its tap opens Payouts with the payment prefilled.
    public static func late(
        clinics: [ClinicPeriods],
        today: Day,
        settings: ReminderSettings,
        style: LocaleStyle,
        sent: [String: Day] = [:]
    ) -> [Reminder] {
        guard settings.lateClinics else { return [] }
        var reminders: [Reminder] = []
        for entry in clinics {
            let overdue = entry.overdue(today: today)
            guard let oldest = overdue.first else { continue }
            // try?: an overdue sum beyond 64 bits is said as the oldest period's alone
            let owed = (try? overdue.reduce(Money.zero) { try $0.adding($1.difference) }) ?? oldest.difference
            // The first when it is late (however long ago it became so: a server down, reminders
            // turned on later); the second a week after the first went out.
            let first = "late \(entry.clinic.id) \(oldest.period.start)"
            let again = sent[first].map { today >= $0.adding(days: 7) } ?? false
            let amount =
                style.formatInput(oldest.difference).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            reminders.append(
                Reminder(
                    key: first + (again ? " again" : ""),
                    title: "\(entry.clinic.name) is late",
                    body:
                        "It owes you \(style.format(owed)) for \(overdue.count == 1 ? style.format(oldest.period) : "\(overdue.count) pay periods"), past the day it usually pays. Record its payment when it comes.",
                    url:
                        "/payouts?clinic=\(entry.clinic.id)&period=\(oldest.period.start)&amount=\(amount)#payout-form",
                    topic: "late-\(entry.clinic.id.rawValue)",
                    urgency: "normal",
                    ttl: 24 * 3600
                )
            )
        }
        return reminders
    }
}

/// One clinic's periods as its reminders and her pay dates calendar read them: its reconciliation,
/// its usual time to pay, and the periods of her history she has not said were paid (never said
/// overdue).
public struct ClinicPeriods: Sendable {
    public var clinic: Clinic
    public var reconciliation: Reconciliation
    /// The days from a period's end its payment is expected (`Arrears.dueAfterDays`).
    public var dueAfterDays: Int
    public var unconfirmed: Set<PayPeriod>

    public init(clinic: Clinic, reconciliation: Reconciliation, dueAfterDays: Int, unconfirmed: Set<PayPeriod> = []) {
        (self.clinic, self.reconciliation, self.dueAfterDays, self.unconfirmed) = (
            clinic, reconciliation, dueAfterDays, unconfirmed
        )
    }

    /// A clinic's periods, `history` (when her question is open) marking what is unconfirmed.
    public init(clinic: Clinic, reconciliation: Reconciliation, dueAfterDays: Int, history: UnconfirmedHistory?) {
        self.init(
            clinic: clinic,
            reconciliation: reconciliation,
            dueAfterDays: dueAfterDays,
            unconfirmed: Set(
                reconciliation.periods.map(\.period).filter { history?.asks(about: $0, of: clinic.id) ?? false }
            )
        )
    }

    /// The periods overdue `today` (past their usual day of payment), oldest first: never one
    /// closed, nor one of her history she has not confirmed.
    public func overdue(today: Day) -> [PeriodReconciliation] {
        let notDue = Arrears.notDueFrom(clinic.calendar, today: today, dueAfterDays: dueAfterDays)
        return reconciliation.periods.filter {
            Arrears.isOverdue($0, today: today, notDue: notDue) && !$0.isClosed && !unconfirmed.contains($0.period)
        }
    }

    /// The periods of the dashboard's clinics that `including` keeps, each clinic's reconciliation
    /// read once, `history` (when her question is open) marking what is unconfirmed.
    public static func read(
        from store: any CommissionStore,
        dashboard: Dashboard,
        today: Day,
        history: UnconfirmedHistory?,
        including: (ClinicStanding) -> Bool = { _ in true }
    ) async throws -> [ClinicPeriods] {
        var clinics: [ClinicPeriods] = []
        let standings = dashboard.clinics.filter(including)
        let reconciliations = try await store.reconciliations(clinics: standings.map(\.clinic.id), today: today)
        for (standing, reconciliation) in zip(standings, reconciliations) {
            clinics.append(
                ClinicPeriods(
                    clinic: standing.clinic,
                    reconciliation: reconciliation,
                    dueAfterDays: standing.arrears.dueAfterDays,
                    history: history
                )
            )
        }
        return clinics
    }
}
