/// A change of a clinic's pay schedule from a day on.
public struct ScheduleChange: Sendable, Hashable {
    /// The first day the new schedule is in force.
    public var effectiveFrom: Day
    public var schedule: PaySchedule

    public init(effectiveFrom: Day, schedule: PaySchedule) {
        self.effectiveFrom = effectiveFrom
        self.schedule = schedule
    }
}

/// A clinic's pay periods when its schedule changes over time.
///
/// The first schedule holds from the start of the book; each change holds from its day until the
/// next change. A day belongs to the period that the schedule in force on that day gives it, **cut
/// to the days that schedule is in force**: the old schedule's last period ends the day before a
/// change, the new one's first period starts on the day of the change. A change therefore never
/// moves a past day into another period, and the periods still tile the calendar without gaps or
/// overlaps. With no change it is exactly its first schedule.
public struct PayCalendar: PayPeriods, Sendable, Hashable, CustomStringConvertible {
    /// The schedule in force before the first change.
    public let first: PaySchedule
    /// The changes in date order, one per day (of two on the same day, the later in the list wins).
    public let changes: [ScheduleChange]

    public init(_ first: PaySchedule, changes: [ScheduleChange] = []) {
        self.first = first
        guard !changes.isEmpty else {
            self.changes = []
            return
        }
        var byDay: [Day: ScheduleChange] = [:]
        for change in changes { byDay[change.effectiveFrom] = change }
        self.changes = byDay.values.sorted { $0.effectiveFrom < $1.effectiveFrom }
    }

    /// The schedule in force on `day`.
    public func schedule(on day: Day) -> PaySchedule {
        guard let index = segment(of: day) else { return first }
        return changes[index].schedule
    }

    /// The index in ``changes`` of the change in force on `day`; nil before the first change.
    private func segment(of day: Day) -> Int? {
        // Few changes per clinic: a backwards scan beats a search.
        var index = changes.count - 1
        while index >= 0, changes[index].effectiveFrom > day { index -= 1 }
        return index >= 0 ? index : nil
    }

    /// The period that contains `day`.
    public func period(containing day: Day) -> PayPeriod {
        guard !changes.isEmpty else { return first.period(containing: day) }
        let index = segment(of: day)
        let schedule = index.map { changes[$0].schedule } ?? first
        let period = schedule.period(containing: day)
        var start = period.start, end = period.end
        if let index, changes[index].effectiveFrom > start { start = changes[index].effectiveFrom }
        let next = (index ?? -1) + 1
        if next < changes.count, changes[next].effectiveFrom <= end {
            end = changes[next].effectiveFrom.adding(days: -1)
        }
        return PayPeriod(start: start, end: end)
    }

    /// `monthly`, or `monthly, then weekly:tuesday from 2026-11-17`.
    public var description: String {
        ([first.description] + changes.map { "then \($0.schedule) from \($0.effectiveFrom)" }).joined(separator: ", ")
    }
}
