import CommissionCore
import Foundation

/// Where she stands: today, each clinic's current pay period, this month and the year to date,
/// per clinic and per product.
///
/// With per-statement rounding, every total here rounds the exact sum of its lines once, as a
/// statement of the same sales would.
public struct Dashboard: Sendable, Hashable {
    public var today: Day
    public var currency: Currency
    public var todayTotals: Totals
    public var monthTotals: Totals
    public var yearTotals: Totals
    /// Active clinics in name order (and archived ones that sold this year).
    public var clinics: [ClinicStanding]
    /// Products sold this year, most commission first.
    public var products: [ProductStanding]

    public init(
        today: Day,
        currency: Currency,
        todayTotals: Totals,
        monthTotals: Totals,
        yearTotals: Totals,
        clinics: [ClinicStanding],
        products: [ProductStanding]
    ) {
        self.today = today
        self.currency = currency
        self.todayTotals = todayTotals
        self.monthTotals = monthTotals
        self.yearTotals = yearTotals
        self.clinics = clinics
        self.products = products
    }
}

/// The dashboard's headline figures: see ``CommissionStore/headline(today:)``.
public struct Headline: Sendable, Hashable {
    public var today: Day
    public var currency: Currency
    public var todayTotals: Totals
    public var monthTotals: Totals
    public var yearTotals: Totals

    public init(today: Day, currency: Currency, todayTotals: Totals, monthTotals: Totals, yearTotals: Totals) {
        self.today = today
        self.currency = currency
        self.todayTotals = todayTotals
        self.monthTotals = monthTotals
        self.yearTotals = yearTotals
    }

    /// The headline of a whole dashboard.
    public init(_ dashboard: Dashboard) {
        self.init(
            today: dashboard.today,
            currency: dashboard.currency,
            todayTotals: dashboard.todayTotals,
            monthTotals: dashboard.monthTotals,
            yearTotals: dashboard.yearTotals
        )
    }
}

/// One clinic on the dashboard.
public struct ClinicStanding: Sendable, Hashable {
    public var clinic: Clinic
    /// The pay period that contains today.
    public var period: PayPeriod
    public var periodTotals: Totals
    /// What the clinic is expected to pay for the current period: the lines' commission, with its
    /// accelerators and less its deductions (`PeriodPayable`).
    public var periodPayable: Money
    /// Paid so far for the current period.
    public var periodReceived: Money
    /// Expected for the current period minus received.
    public var periodBalance: Money
    public var monthTotals: Totals
    public var yearTotals: Totals
    /// What the clinic owes her over every period through the current one, and how much of it is
    /// overdue (see `Arrears`).
    public var arrears: Arrears

    public init(
        clinic: Clinic,
        period: PayPeriod,
        periodTotals: Totals,
        periodPayable: Money? = nil,
        periodReceived: Money,
        periodBalance: Money,
        monthTotals: Totals,
        yearTotals: Totals,
        arrears: Arrears
    ) {
        self.clinic = clinic
        self.period = period
        self.periodTotals = periodTotals
        self.periodPayable = periodPayable ?? periodTotals.commission
        self.periodReceived = periodReceived
        self.periodBalance = periodBalance
        self.monthTotals = monthTotals
        self.yearTotals = yearTotals
        self.arrears = arrears
    }
}

/// One product on the dashboard.
public struct ProductStanding: Sendable, Hashable {
    public var product: Product
    public var monthTotals: Totals
    public var yearTotals: Totals

    public init(product: Product, monthTotals: Totals, yearTotals: Totals) {
        self.product = product
        self.monthTotals = monthTotals
        self.yearTotals = yearTotals
    }
}

extension BookSettings {
    /// Today in the book's time zone.
    public func today(now: Date = Date()) -> Day {
        Day(now, in: TimeZone(identifier: timeZoneIdentifier) ?? .current)
    }
}

/// One clinic's totals for one calendar month.
public struct ClinicMonth: Sendable, Hashable {
    public var clinicID: Clinic.ID
    /// The first day of the month.
    public var month: Day
    public var totals: Totals

    public init(clinicID: Clinic.ID, month: Day, totals: Totals) {
        self.clinicID = clinicID
        self.month = month
        self.totals = totals
    }
}

/// Every statement of a range of days: for each clinic (archived ones too), each pay period that
/// overlaps the range and has a sale or a payout, whole, in clinic name then period order. What
/// `commission statement --all` and `GET /api/v1/statements` answer, for the accountant's month end.
public struct StatementsRequest: StoreRequest {
    public var from: Day
    public var through: Day

    /// The longest range asked for at once, in days (ten years).
    public static let longestRange = 3_660

    public init(from: Day, through: Day) {
        self.from = from
        self.through = through
    }

    public var tables: Set<StoreTable> { [.book, .clinics, .products, .sales, .payouts, .periods] }

    public func fetch(from store: any CommissionStore) async throws -> [Statement] {
        guard from <= through else {
            throw StoreError.invalid(field: "range", reason: "it starts on \(from), after its end on \(through).")
        }
        guard through.ordinal - from.ordinal < Self.longestRange else {
            throw StoreError.invalid(
                field: "range",
                reason: "\(from) to \(through) is longer than ten years: ask for fewer at a time."
            )
        }
        let months = try await store.clinicMonths(from: from.firstOfMonth, through: through)
        let payouts = try await store.payouts(PayoutQuery())
        var statements: [Statement] = []
        for clinic in try await store.clinics(ClinicQuery(includeArchived: true)) {
            var periods = Set<PayPeriod>()
            for month in months where month.clinicID == clinic.id {
                var day = max(month.month, from)
                while day.month == month.month.month && day <= through {
                    let period = clinic.calendar.period(containing: day)
                    periods.insert(period)
                    day = period.end.adding(days: 1)
                }
            }
            for payout in payouts
            where payout.clinicID == clinic.id && payout.period.start <= through && payout.period.end >= from {
                periods.insert(payout.period)
            }
            for period in periods.sorted() {
                let statement = try await store.statement(clinic: clinic.id, period: period)
                if !statement.lines.isEmpty || !statement.payouts.isEmpty { statements.append(statement) }
            }
        }
        return statements
    }
}
