import CommissionCore

extension ScheduleChange {
    /// How a store keeps a clinic's schedule changes, in one column of the clinic's row:
    /// `2026-11-17 weekly:tuesday;2026-12-03 monthly`, in date order; nil when there are none.
    public static func stored(_ changes: [ScheduleChange]) -> String? {
        guard !changes.isEmpty else { return nil }
        return PayCalendar(.monthly, changes: changes).changes.map { "\($0.effectiveFrom) \($0.schedule)" }.joined(
            separator: ";"
        )
    }

    /// The changes ``stored(_:)`` wrote; a value it cannot have written is an error naming the clinic.
    public static func reading(stored text: String?, clinic: Int64) throws -> [ScheduleChange] {
        guard let text, !text.isEmpty else { return [] }
        return try text.split(separator: ";").map { item in
            let parts = item.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let day = Day.reading(stored: String(parts[0])),
                // try?: a schedule it cannot read is thrown just after, naming the clinic
                let schedule = try? PaySchedule(parsing: String(parts[1]))
            else {
                throw StoreError.unreadable("Clinic \(clinic)'s schedule change \"\(item)\"")
            }
            return ScheduleChange(effectiveFrom: day, schedule: schedule)
        }
    }
}

extension Tier {
    /// How a store keeps terms' tiers, in one column of the terms' row: thresholds in minor units
    /// and shares in basis points, `500000:5000;1000000:6000`; nil for plain terms.
    public static func stored(_ tiers: [Tier]) -> String? {
        guard !tiers.isEmpty else { return nil }
        return tiers.map { "\($0.threshold.minorUnits):\($0.share.basisPoints)" }.joined(separator: ";")
    }

    /// The tiers ``stored(_:)`` wrote; a value it cannot have written is an error naming the terms.
    public static func reading(stored text: String?, terms: Int64) throws -> [Tier] {
        guard let text, !text.isEmpty else { return [] }
        return try text.split(separator: ";").map { item in
            let parts = item.split(separator: ":")
            guard parts.count == 2, let threshold = Int64(parts[0]), let points = Int(parts[1]),
                // try?: a share out of range is thrown just after, naming the terms
                let share = try? Share(basisPoints: points)
            else {
                throw StoreError.unreadable("Terms \(terms)'s tier \"\(item)\"")
            }
            return Tier(threshold: Money(minorUnits: threshold), share: share)
        }
    }
}

extension DeductionAmount {
    /// The columns a store keeps it in: its kind, a fixed amount in minor units or a share in basis points.
    public var stored: (kind: String, amountMinor: Int64?, shareBasisPoints: Int?) {
        switch self {
        case .fixed(let money): (kind, money.minorUnits, nil)
        case .shareOfRevenue(let share): (kind, nil, share.basisPoints)
        }
    }

    /// The amount those columns hold; anything else is an error naming the deduction.
    public init(kind: String, amountMinor: Int64?, shareBasisPoints: Int?, deduction: Int64) throws {
        switch (kind, amountMinor, shareBasisPoints) {
        case ("fixed", let amount?, nil): self = .fixed(Money(minorUnits: amount))
        case ("revenue-share", nil, let points?):
            // try?: a share out of range is thrown just after, naming the deduction
            guard let share = try? Share(basisPoints: points) else {
                throw StoreError.unreadable("Deduction \(deduction)'s share (\(points) basis points)")
            }
            self = .shareOfRevenue(share)
        default: throw StoreError.unreadable("Deduction \(deduction)'s amount (kind \(kind))")
        }
    }
}
