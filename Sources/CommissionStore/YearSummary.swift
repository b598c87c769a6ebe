import CommissionCore

/// Her year, per clinic: what she hands to her accountant.
///
/// Two views of the same year, each exact: the **sales** made in each month (revenue and the
/// commission they earn, from the month summaries), and the **pay periods that end in the year**
/// (what the clinic was to pay for them — accelerators added, deductions taken off — what it paid,
/// and what it still owes for them).
public struct YearSummary: Sendable, Hashable {
    public var year: Int
    public var currency: Currency
    public var clinics: [ClinicYear]
    /// The year of every clinic: the months' sums, and the periods' figures added up.
    public var total: ClinicYear.Figures

    public init(year: Int, currency: Currency, clinics: [ClinicYear], total: ClinicYear.Figures) {
        self.year = year
        self.currency = currency
        self.clinics = clinics
        self.total = total
    }
}

/// One clinic's year.
public struct ClinicYear: Sendable, Hashable {
    public var clinic: Clinic
    /// January to December: the sales made in each month.
    public var months: [Totals]
    public var figures: Figures

    /// The year's sums.
    public struct Figures: Sendable, Hashable {
        /// The sales made in the year.
        public var sales: Totals
        /// How many pay periods end in the year.
        public var periods: Int
        /// Their lines' commission, their accelerators and their deductions: `netPayable` is
        /// `commission + accelerators − deductions`.
        public var commission: Money
        public var accelerators: Money
        public var deductions: Money
        public var netPayable: Money
        /// What was received for those periods, and what they still owe (negative: paid more).
        public var received: Money
        public var balance: Money

        public init(
            sales: Totals = .zero,
            periods: Int = 0,
            commission: Money = .zero,
            accelerators: Money = .zero,
            deductions: Money = .zero,
            netPayable: Money = .zero,
            received: Money = .zero,
            balance: Money = .zero
        ) {
            self.sales = sales
            self.periods = periods
            self.commission = commission
            self.accelerators = accelerators
            self.deductions = deductions
            self.netPayable = netPayable
            self.received = received
            self.balance = balance
        }

        mutating func add(_ other: Figures) throws(MoneyError) {
            sales = try sales.adding(other.sales)
            periods += other.periods
            commission = try commission.adding(other.commission)
            accelerators = try accelerators.adding(other.accelerators)
            deductions = try deductions.adding(other.deductions)
            netPayable = try netPayable.adding(other.netPayable)
            received = try received.adding(other.received)
            balance = try balance.adding(other.balance)
        }
    }

    public init(clinic: Clinic, months: [Totals], figures: Figures) {
        self.clinic = clinic
        self.months = months
        self.figures = figures
    }
}

extension Totals {
    /// The sum of two totals, each already rounded (a year made of months, a book of clinics).
    func adding(_ other: Totals) throws(MoneyError) -> Totals {
        let (quantity, overflow) = self.quantity.addingReportingOverflow(other.quantity)
        if overflow { throw .overflow("quantity") }
        return Totals(
            saleCount: saleCount + other.saleCount,
            quantity: quantity,
            revenue: try revenue.adding(other.revenue),
            cost: try cost.adding(other.cost),
            profit: try profit.adding(other.profit),
            commission: try commission.adding(other.commission)
        )
    }
}

extension CommissionStore {
    /// One reconciliation after another: a store that can read them together does.
    public func reconciliations(clinics: [Clinic.ID], today: Day) async throws -> [Reconciliation] {
        var all: [Reconciliation] = []
        for clinic in clinics { all.append(try await reconciliation(clinic: clinic, today: today)) }
        return all
    }

    /// The year `year` of every clinic with a sale or a pay period in it (archived ones too), from
    /// the store's summaries and reconciliations; a statement is read only for the periods of
    /// clinics with tiers or deductions, whose accelerators and deductions it shows.
    public func yearSummary(_ year: Int, today: Day) async throws -> YearSummary {
        let first = try Day(year: year, month: 1, day: 1), last = try Day(year: year, month: 12, day: 31)
        let settings = try await settings()
        var months: [Clinic.ID: [Totals]] = [:]
        for month in try await clinicMonths(from: first, through: last) {
            months[month.clinicID, default: Array(repeating: .zero, count: 12)][month.month.month - 1] = month.totals
        }
        let tiered = Set(
            try await terms(TermsQuery(includeArchived: true)).filter { !$0.tiers.isEmpty }.map(\.clinicID)
        )
        let deducting = Set(try await deductions(clinic: nil).map(\.clinicID))
        var clinics: [ClinicYear] = []
        var total = ClinicYear.Figures()
        do {
            let every = try await self.clinics(ClinicQuery(includeArchived: true))
            let reconciliations = try await reconciliations(clinics: every.map(\.id), today: today)
            for (clinic, reconciliation) in zip(every, reconciliations) {
                let periods = reconciliation.periods.filter { $0.period.end >= first && $0.period.end <= last }
                let clinicMonths = months[clinic.id] ?? Array(repeating: .zero, count: 12)
                guard !periods.isEmpty || months[clinic.id] != nil else { continue }
                var figures = ClinicYear.Figures(periods: periods.count)
                for month in clinicMonths { figures.sales = try figures.sales.adding(month) }
                for entry in periods {
                    figures.netPayable = try figures.netPayable.adding(entry.expected)
                    figures.received = try figures.received.adding(entry.received)
                    figures.balance = try figures.balance.adding(entry.difference)
                    if tiered.contains(clinic.id) || deducting.contains(clinic.id) {
                        let statement = try await statement(clinic: clinic.id, period: entry.period)
                        figures.commission = try figures.commission.adding(statement.totals.commission)
                        for line in statement.accelerators {
                            figures.accelerators = try figures.accelerators.adding(line.amount)
                        }
                        for line in statement.deductions {
                            figures.deductions = try figures.deductions.adding(line.amount)
                        }
                    } else {
                        figures.commission = try figures.commission.adding(entry.expected)
                    }
                }
                try total.add(figures)
                clinics.append(ClinicYear(clinic: clinic, months: clinicMonths, figures: figures))
            }
        } catch let error as MoneyError {
            throw StoreError.invalid(field: "amount", reason: error.description)
        }
        return YearSummary(year: year, currency: settings.currency, clinics: clinics, total: total)
    }
}
