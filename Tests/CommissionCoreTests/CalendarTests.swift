import CommissionCore
import Foundation
import Testing

@Suite struct DayTests {
    /// A moment's day in a time zone, by the zone's offset, is the Gregorian calendar's, around
    /// every change of offset too (zones ahead and behind, half and quarter hours, a day skipped).
    @Test(arguments: [
        "UTC", "Europe/London", "America/Los_Angeles", "America/St_Johns", "Asia/Kathmandu", "Pacific/Apia",
        "Australia/Lord_Howe",
    ])
    func aMomentsDayIsTheCalendars(zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var moments: [Date] = stride(from: 631_152_000.0, to: 2_240_611_200, by: 7_919).map {
            Date(timeIntervalSince1970: $0)
        }  // 1990–2041
        var transition = Date(timeIntervalSince1970: 631_152_000)
        while let next = timeZone.nextDaylightSavingTimeTransition(after: transition),
            next.timeIntervalSince1970 < 2_240_611_200
        {
            moments += [-1, 0, 1].map { next.addingTimeInterval($0) }
            transition = next
        }
        // Outside years 1 to 9999, their first or last day.
        #expect(Day(Date(timeIntervalSince1970: -1e13), in: timeZone) == day("0001-01-01"))
        #expect(Day(Date(timeIntervalSince1970: 1e13), in: timeZone) == day("9999-12-31"))
        for moment in moments {
            let parts = calendar.dateComponents([.year, .month, .day], from: moment)
            #expect(
                Day(moment, in: timeZone) == (try Day(year: parts.year!, month: parts.month!, day: parts.day!)),
                "\(moment) in \(zone)"
            )
        }
    }

    @Test func leapYears() throws {
        #expect(throws: DayError.impossible("2025-02-29")) { try Day(year: 2025, month: 2, day: 29) }
        #expect(try Day(year: 2028, month: 2, day: 29).description == "2028-02-29")
        #expect(throws: DayError.self) { try Day(parsing: "1900-02-29") }  // divisible by 100, not by 400
        #expect(try Day(parsing: "2000-02-29").day == 29)  // divisible by 400
    }

    @Test(arguments: [
        "2026-02-30", "2026-13-01", "2026-04-31", "2026-00-10", "26-01-01", "2026/01/01", "2026-1-1", "tomorrow", "",
    ])
    func refusesImpossibleOrMalformedDates(text: String) {
        #expect(throws: DayError.self) { try Day(parsing: text) }
    }

    @Test func knownWeekdaysAndOrdinals() {
        // Checked against Python's datetime: 1970-01-01 was a Thursday, 2000-01-01 a Saturday,
        // 2026-11-22 a Sunday, 20779 days after the epoch.
        #expect(day("1970-01-01").weekday == .thursday && day("1970-01-01").ordinal == 0)
        #expect(day("2000-01-01").weekday == .saturday && day("2000-01-01").ordinal == 10957)
        #expect(day("2026-11-22").weekday == .sunday && day("2026-11-22").ordinal == 20779)
        #expect(day("1969-12-31").ordinal == -1)
    }

    @Test func ordinalsRoundTripAndCountUp() {
        var previous = Day(ordinal: -800_000)
        for ordinal in stride(from: -799_999, through: 2_900_000, by: 1) {
            let current = Day(ordinal: ordinal)
            #expect(current.ordinal == ordinal)
            #expect(previous < current)
            if previous.days(to: current) != 1 {
                Issue.record("gap at \(ordinal)")
                break
            }
            previous = current
        }
    }
}

@Suite struct PayScheduleTests {
    @Test func weeklyPeriodsStartOnTheirWeekday() {
        // 2026-11-22 is a Sunday; the Monday-anchored week containing it runs 11-16 … 11-22.
        let schedule = PaySchedule.weekly(startingOn: .monday)
        #expect(
            schedule.period(containing: day("2026-11-22"))
                == PayPeriod(start: day("2026-11-16"), end: day("2026-11-22"))
        )
        #expect(schedule.period(containing: day("2026-11-23")).start == day("2026-11-23"))
        // A Friday-anchored week: Sunday 11-22 belongs to the week that began on Friday 11-20.
        #expect(
            PaySchedule.weekly(startingOn: .friday).period(containing: day("2026-11-22")).start == day("2026-11-20")
        )
    }

    @Test func biweeklyPeriodsBeforeAndAfterTheAnchor() {
        // Anchor Monday 2026-01-05: periods are 01-05…01-18, 01-19…02-01 and, before it, 2025-12-22…2026-01-04.
        let schedule = PaySchedule.biweekly(anchor: day("2026-01-05"))
        #expect(
            schedule.period(containing: day("2026-01-05"))
                == PayPeriod(start: day("2026-01-05"), end: day("2026-01-18"))
        )
        #expect(schedule.period(containing: day("2026-01-18")).start == day("2026-01-05"))
        #expect(
            schedule.period(containing: day("2026-01-19"))
                == PayPeriod(start: day("2026-01-19"), end: day("2026-02-01"))
        )
        #expect(
            schedule.period(containing: day("2026-01-04"))
                == PayPeriod(start: day("2025-12-22"), end: day("2026-01-04"))
        )
        #expect(schedule.period(containing: day("2025-12-22")).start == day("2025-12-22"))
        #expect(
            schedule.period(containing: day("2025-12-21"))
                == PayPeriod(start: day("2025-12-08"), end: day("2025-12-21"))
        )
    }

    @Test func semimonthlyPeriodsEndOnTheFifteenthAndTheMonthsEnd() {
        let schedule = PaySchedule.semimonthly
        #expect(
            schedule.period(containing: day("2026-02-15"))
                == PayPeriod(start: day("2026-02-01"), end: day("2026-02-15"))
        )
        #expect(
            schedule.period(containing: day("2026-02-16"))
                == PayPeriod(start: day("2026-02-16"), end: day("2026-02-28"))
        )
        #expect(
            schedule.period(containing: day("2028-02-29"))
                == PayPeriod(start: day("2028-02-16"), end: day("2028-02-29"))
        )
        #expect(
            schedule.period(containing: day("2026-01-31"))
                == PayPeriod(start: day("2026-01-16"), end: day("2026-01-31"))
        )
        #expect(schedule.period(containing: day("2026-04-30")).end == day("2026-04-30"))
        #expect(
            schedule.period(after: schedule.period(containing: day("2026-12-20")))
                == PayPeriod(start: day("2027-01-01"), end: day("2027-01-15"))
        )
    }

    @Test func monthlyPeriodsAreCalendarMonths() {
        #expect(
            PaySchedule.monthly.period(containing: day("2028-02-29"))
                == PayPeriod(start: day("2028-02-01"), end: day("2028-02-29"))
        )
        #expect(PaySchedule.monthly.period(containing: day("2026-02-10")).end == day("2026-02-28"))
        #expect(
            PaySchedule.monthly.period(before: PaySchedule.monthly.period(containing: day("2026-01-10")))
                == PayPeriod(start: day("2025-12-01"), end: day("2025-12-31"))
        )
    }

    static let schedules: [PaySchedule] = [
        .weekly(startingOn: .monday), .weekly(startingOn: .sunday), .biweekly(anchor: day("2026-01-05")),
        .biweekly(anchor: day("1999-07-15")), .semimonthly, .monthly,
    ]

    @Test(arguments: schedules)
    func everyDayFallsInExactlyOnePeriodAndPeriodsTile(schedule: PaySchedule) {
        var random = SeededRandom(seed: 7)
        for _ in 0..<2_000 {
            let d = Day(ordinal: Int.random(in: 0...40_000, using: &random))
            let period = schedule.period(containing: d)
            #expect(period.contains(d))
            // The neighbours are disjoint and adjacent: no gap, no overlap.
            #expect(schedule.period(after: period).start == period.end.adding(days: 1))
            #expect(schedule.period(before: period).end == period.start.adding(days: -1))
            // Every day of the period maps back to the same period.
            #expect(
                schedule.period(containing: period.start) == period && schedule.period(containing: period.end) == period
            )
        }
        // Over three years the periods cover each day exactly once.
        let periods = schedule.periods(from: day("2025-01-01"), through: day("2027-12-31"))
        let covered = periods.reduce(0) { $0 + $1.dayCount }
        #expect(periods.first!.start <= day("2025-01-01") && periods.last!.end >= day("2027-12-31"))
        #expect(covered == periods.first!.start.days(to: periods.last!.end) + 1)
    }

    @Test(arguments: schedules)
    func describesItselfInAFormItReads(schedule: PaySchedule) throws {
        #expect(try PaySchedule(parsing: schedule.description) == schedule)
        #expect(try PaySchedule(kind: schedule.kind, anchor: schedule.anchor) == schedule)
    }

    @Test func refusesUnknownSchedules() {
        #expect(throws: PayScheduleError.missingAnchor("weekly")) { try PaySchedule(parsing: "weekly") }
        #expect(throws: PayScheduleError.self) { try PaySchedule(parsing: "weekly:funday") }
        #expect(throws: PayScheduleError.self) { try PaySchedule(parsing: "biweekly:2026-02-30") }
        #expect(throws: PayScheduleError.unknown("fortnightly")) { try PaySchedule(parsing: "fortnightly") }
    }
}
