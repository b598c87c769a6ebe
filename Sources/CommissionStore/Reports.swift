import Foundation
import CommissionCore

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

    public init(today: Day, currency: Currency, todayTotals: Totals, monthTotals: Totals, yearTotals: Totals,
                clinics: [ClinicStanding], products: [ProductStanding]) {
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
        self.init(today: dashboard.today, currency: dashboard.currency, todayTotals: dashboard.todayTotals,
                  monthTotals: dashboard.monthTotals, yearTotals: dashboard.yearTotals)
    }
}

/// One clinic on the dashboard.
public struct ClinicStanding: Sendable, Hashable {
    public var clinic: Clinic
    /// The pay period that contains today.
    public var period: PayPeriod
    public var periodTotals: Totals
    /// Paid so far for the current period.
    public var periodReceived: Money
    /// Expected for the current period minus received.
    public var periodBalance: Money
    public var monthTotals: Totals
    public var yearTotals: Totals
    /// What the clinic owes her over every period through the current one, and how much of it is
    /// overdue (see ``Arrears``).
    public var arrears: Arrears

    public init(clinic: Clinic, period: PayPeriod, periodTotals: Totals, periodReceived: Money, periodBalance: Money,
                monthTotals: Totals, yearTotals: Totals, arrears: Arrears) {
        self.clinic = clinic
        self.period = period
        self.periodTotals = periodTotals
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
