import CommissionCore

extension ScheduleChange {
    /// How a store keeps a clinic's schedule changes, in one column of the clinic's row:
    /// `2026-11-17 weekly:tuesday;2026-12-03 monthly`, in date order; nil when there are none.
    public static func stored(_ changes: [ScheduleChange]) -> String? {
        guard !changes.isEmpty else { return nil }
        return PayCalendar(.monthly, changes: changes).changes.map { "\($0.effectiveFrom) \($0.schedule)" }.joined(separator: ";")
    }

    /// The changes ``stored(_:)`` wrote; a value it cannot have written is an error naming the clinic.
    public static func reading(stored text: String?, clinic: Int64) throws -> [ScheduleChange] {
        guard let text, !text.isEmpty else { return [] }
        return try text.split(separator: ";").map { item in
            let parts = item.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let day = Day.reading(stored: String(parts[0])),
                  let schedule = try? PaySchedule(parsing: String(parts[1])) else {
                throw StoreError.unreadable("Clinic \(clinic)'s schedule change \"\(item)\"")
            }
            return ScheduleChange(effectiveFrom: day, schedule: schedule)
        }
    }
}
