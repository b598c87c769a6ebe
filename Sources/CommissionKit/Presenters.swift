import CommissionCore
import CommissionStore
import Foundation

// The JSON shape of every value Commission shows, written once: the API answers with these, the
// CLI's `--format json` prints them, and `docs/json.md` describes them. Everywhere: ids and counts
// are numbers, flags are booleans, amounts are decimal strings with the currency's minor digits
// (`"1234.50"`, never a binary float), dates are `YYYY-MM-DD`, shares are percentage strings
// (`"37.50"`), keys are camelCase and sorted, and an absent optional is left out.

/// Turns store values into their JSON shapes, with amounts in the book's currency.
public struct Presenter: Sendable {
    public let currency: Currency
    /// Names by id, for the shapes that show a clinic's or product's name beside its id.
    public var names: Names

    public init(currency: Currency, names: Names = Names()) {
        self.currency = currency
        self.names = names
    }

    func m(_ money: Money) -> String { currency.format(money) }

    public func totals(_ totals: Totals) -> TotalsJSON {
        TotalsJSON(sales: totals.saleCount, quantity: totals.quantity, revenue: m(totals.revenue), cost: m(totals.cost),
                   profit: m(totals.profit), commission: m(totals.commission))
    }

    public func clinic(_ clinic: Clinic) -> ClinicJSON {
        ClinicJSON(id: clinic.id.rawValue, name: clinic.name, schedule: clinic.schedule.description,
                   scheduleChanges: clinic.scheduleChanges.map { ScheduleChangeJSON(effectiveFrom: $0.effectiveFrom.description, schedule: $0.schedule.description) },
                   archived: clinic.isArchived)
    }

    public func product(_ product: Product) -> ProductJSON {
        ProductJSON(id: product.id.rawValue, name: product.name, sku: product.sku, unitPrice: m(product.unitPrice),
                    unitCost: m(product.unitCost), archived: product.isArchived)
    }

    public func terms(_ terms: Terms) -> TermsJSON {
        TermsJSON(id: terms.id.rawValue, clinicId: terms.clinicID.rawValue, clinic: names.clinics[terms.clinicID],
                  productId: terms.productID?.rawValue, product: terms.productID.flatMap { names.products[$0] },
                  basis: terms.basis.rawValue, share: terms.share.percentText, tiers: terms.tiers.map { $0.text(currency) },
                  effectiveFrom: terms.effectiveFrom.description,
                  archived: terms.isArchived)
    }

    public func deduction(_ deduction: Deduction) -> DeductionJSON {
        var amount: String?, share: String?
        switch deduction.amount {
        case .fixed(let money): amount = m(money)
        case .shareOfRevenue(let value): share = value.percentText
        }
        return DeductionJSON(id: deduction.id.rawValue, clinicId: deduction.clinicID.rawValue, clinic: names.clinics[deduction.clinicID],
                             name: deduction.name, amount: amount, share: share, effectiveFrom: deduction.effectiveFrom.description,
                             lastDay: deduction.lastDay?.description)
    }

    public func price(_ entry: PriceListEntry) -> PriceJSON {
        PriceJSON(id: entry.id.rawValue, clinicId: entry.clinicID.rawValue, clinic: names.clinics[entry.clinicID],
                  productId: entry.productID.rawValue, product: names.products[entry.productID], unitPrice: m(entry.unitPrice),
                  unitCost: entry.unitCost.map(m), effectiveFrom: entry.effectiveFrom.description)
    }

    public func sale(_ sale: Sale) -> SaleJSON {
        SaleJSON(id: sale.id.rawValue, clinicId: sale.clinicID.rawValue, clinic: names.clinics[sale.clinicID],
                 productId: sale.productID.rawValue, product: names.products[sale.productID], date: sale.date.description,
                 quantity: sale.quantity, unitPrice: m(sale.line.unitPrice), unitCost: m(sale.line.unitCost), discount: m(sale.line.discount),
                 noCommission: sale.isNoCommission, share: sale.line.rate?.share.percentText, basis: sale.line.rate?.basis.rawValue,
                 termsId: sale.termsID?.rawValue, revenue: m(sale.figures.revenue), cost: m(sale.figures.cost), profit: m(sale.figures.profit),
                 commission: m(sale.figures.commission), note: sale.note, voided: sale.isVoided)
    }

    public func payout(_ payout: Payout) -> PayoutJSON {
        PayoutJSON(id: payout.id.rawValue, clinicId: payout.clinicID.rawValue, clinic: names.clinics[payout.clinicID],
                   periodStart: payout.period.start.description, periodEnd: payout.period.end.description, amount: m(payout.amount),
                   receivedOn: payout.receivedOn.description, reference: payout.reference)
    }

    public func audit(_ entry: AuditEntry) -> AuditJSON {
        AuditJSON(id: entry.id.rawValue, at: entry.at, actor: entry.actor, subject: entry.subject.rawValue, subjectId: entry.subjectID,
                  lastSubjectId: entry.lastSubjectID, action: entry.action, before: entry.before, after: entry.after,
                  changes: entry.changes(currency: currency, names: names))
    }

    public func settings(_ settings: BookSettings) -> SettingsJSON {
        SettingsJSON(currency: settings.currency.code, timeZone: settings.timeZoneIdentifier, rounding: settings.rounding.rule.rawValue,
                     roundingScope: settings.rounding.scope.rawValue, locale: settings.localeIdentifier)
    }

    public func dashboard(_ dashboard: Dashboard) -> DashboardJSON {
        DashboardJSON(
            today: dashboard.today.description, currency: dashboard.currency.code,
            todayTotals: totals(dashboard.todayTotals), month: totals(dashboard.monthTotals), yearToDate: totals(dashboard.yearTotals),
            clinics: dashboard.clinics.map {
                .init(id: $0.clinic.id.rawValue, name: $0.clinic.name, schedule: $0.clinic.calendar.schedule(on: $0.period.start).description,
                      periodStart: $0.period.start.description, periodEnd: $0.period.end.description, period: totals($0.periodTotals),
                      expected: m($0.periodPayable), received: m($0.periodReceived), balance: m($0.periodBalance),
                      owed: m($0.arrears.owed), overdue: m($0.arrears.overdue), dueAfterDays: $0.arrears.dueAfterDays, month: totals($0.monthTotals),
                      yearToDate: totals($0.yearTotals))
            },
            products: dashboard.products.map {
                .init(id: $0.product.id.rawValue, name: $0.product.name, month: totals($0.monthTotals), yearToDate: totals($0.yearTotals))
            })
    }

    public func statement(_ statement: Statement) -> StatementJSON {
        StatementJSON(
            clinic: statement.clinic.name, periodStart: statement.period.start.description, periodEnd: statement.period.end.description,
            closed: statement.isClosed,
            lines: statement.lines.map { line in
                let s = line.sale
                return .init(saleId: s.id.rawValue, date: s.date.description, productId: s.productID.rawValue, product: line.productName, quantity: s.quantity,
                             unitPrice: m(s.line.unitPrice), unitCost: m(s.line.unitCost), discount: m(s.line.discount),
                             revenue: m(s.figures.revenue), cost: m(s.figures.cost), profit: m(s.figures.profit),
                             share: s.line.rate?.share.percentText, basis: s.line.rate?.basis.rawValue, termsId: s.termsID?.rawValue,
                             commission: m(s.figures.commission), note: s.note)
            },
            totals: totals(statement.totals),
            accelerators: statement.accelerators.map {
                .init(termsId: $0.terms.id.rawValue, basisTotal: m($0.basisTotal), tiers: $0.terms.tiers.map { $0.text(currency) }, amount: m($0.amount))
            },
            commission: m(statement.commission),
            deductions: statement.deductions.map {
                .init(deductionId: $0.deduction.id.rawValue, name: $0.deduction.name, amount: m($0.amount))
            },
            netPayable: m(statement.netPayable),
            payouts: statement.payouts.map { .init(id: $0.id.rawValue, amount: m($0.amount), receivedOn: $0.receivedOn.description, reference: $0.reference) },
            received: m(statement.received), balance: m(statement.balance))
    }

    public func reconciliation(_ r: Reconciliation) -> ReconciliationJSON {
        ReconciliationJSON(clinic: r.clinic.name, periods: r.periods.map {
            .init(periodStart: $0.period.start.description, periodEnd: $0.period.end.description, expected: m($0.expected),
                  received: m($0.received), difference: m($0.difference), balance: m($0.balance), status: $0.status.rawValue,
                  closed: $0.isClosed)
        }, balance: m(r.balance))
    }

    public func year(_ summary: YearSummary) -> YearJSON {
        func figures(_ f: ClinicYear.Figures) -> YearJSON.Figures {
            YearJSON.Figures(sales: totals(f.sales), periods: f.periods, commission: m(f.commission), accelerators: m(f.accelerators),
                             deductions: m(f.deductions), netPayable: m(f.netPayable), received: m(f.received), balance: m(f.balance))
        }
        return YearJSON(year: summary.year, currency: summary.currency.code, clinics: summary.clinics.map { clinic in
            YearJSON.Clinic(clinic: clinic.clinic.name, months: clinic.months.enumerated().map { index, month in
                YearJSON.Month(month: String(format: "%04d-%02d", summary.year, index + 1), totals: totals(month))
            }, year: figures(clinic.figures))
        }, total: figures(summary.total))
    }

    /// Clinic and product names by id.
    public struct Names: Sendable {
        public var clinics: [Clinic.ID: String]
        public var products: [Product.ID: String]

        public init(clinics: [Clinic.ID: String] = [:], products: [Product.ID: String] = [:]) {
            self.clinics = clinics
            self.products = products
        }

        /// Every clinic's and product's name, archived ones included.
        public init(store: any CommissionStore) async throws {
            clinics = Dictionary(uniqueKeysWithValues: try await store.clinics(ClinicQuery(includeArchived: true)).map { ($0.id, $0.name) })
            products = Dictionary(uniqueKeysWithValues: try await store.products(ProductQuery(includeArchived: true)).map { ($0.id, $0.name) })
        }
    }

    /// A value as JSON text, keys sorted, pretty-printed for a person or compact for the wire.
    public static func encode(_ value: some Encodable, pretty: Bool = true) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(value) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + (pretty ? "\n" : "")
    }
}

public struct TotalsJSON: Codable, Sendable, Hashable {
    public var sales: Int
    public var quantity: Int64
    public var revenue: String
    public var cost: String
    public var profit: String
    public var commission: String
}

public struct ClinicJSON: Codable, Sendable, Hashable {
    public var id: Int64
    public var name: String
    /// The schedule from the start of the book (until its first change).
    public var schedule: String
    /// Later schedules, each from its day on, in date order.
    public var scheduleChanges: [ScheduleChangeJSON]
    public var archived: Bool
}

/// A schedule change with its clinic's name: a row of `export schedules`.
public struct ScheduleChangeRowJSON: Codable, Sendable, Hashable {
    public var clinic: String
    public var schedule: String
    public var effectiveFrom: String
}

public struct ScheduleChangeJSON: Codable, Sendable, Hashable {
    public var effectiveFrom: String
    public var schedule: String
}

public struct ProductJSON: Codable, Sendable, Hashable {
    public var id: Int64
    public var name: String
    public var sku: String?
    public var unitPrice: String
    public var unitCost: String
    public var archived: Bool
}

public struct TermsJSON: Codable, Sendable, Hashable {
    public var id: Int64
    public var clinicId: Int64
    /// The clinic's name, when the presenter knows it.
    public var clinic: String?
    public var productId: Int64?
    public var product: String?
    public var basis: String
    public var share: String
    /// Accelerators, each `threshold:share` (`5000.00:50.00%`); empty for plain terms.
    public var tiers: [String]
    public var effectiveFrom: String
    public var archived: Bool
}

/// A fee a clinic deducts: `amount` for a fixed one, `share` for a share of revenue.
public struct DeductionJSON: Codable, Sendable, Hashable {
    public var id: Int64
    public var clinicId: Int64
    public var clinic: String?
    public var name: String
    public var amount: String?
    public var share: String?
    public var effectiveFrom: String
    public var lastDay: String?
}

/// A clinic's price of a product from a day on; no `unitCost` when the product's own applies.
public struct PriceJSON: Codable, Sendable, Hashable {
    public var id: Int64
    public var clinicId: Int64
    public var clinic: String?
    public var productId: Int64
    public var product: String?
    public var unitPrice: String
    public var unitCost: String?
    public var effectiveFrom: String
}

public struct SaleJSON: Codable, Sendable, Hashable {
    public var id: Int64
    public var clinicId: Int64
    /// The clinic's and the product's names, when the presenter knows them.
    public var clinic: String?
    public var productId: Int64
    public var product: String?
    public var date: String
    public var quantity: Int64
    public var unitPrice: String
    public var unitCost: String
    public var discount: String
    public var noCommission: Bool
    /// Both absent for a no-commission sale.
    public var share: String?
    public var basis: String?
    /// The terms the sale's share came from; absent for a no-commission sale.
    public var termsId: Int64?
    public var revenue: String
    public var cost: String
    public var profit: String
    public var commission: String
    public var note: String?
    public var voided: Bool
}

public struct PayoutJSON: Codable, Sendable, Hashable {
    public var id: Int64
    public var clinicId: Int64
    public var clinic: String?
    public var periodStart: String
    public var periodEnd: String
    public var amount: String
    public var receivedOn: String
    public var reference: String?
}

public struct AuditJSON: Codable, Sendable, Hashable {
    public var id: Int64
    public var at: Date
    public var actor: String
    public var subject: String
    public var subjectId: Int64?
    public var lastSubjectId: Int64?
    public var action: String
    public var before: String?
    public var after: String?
    /// What changed, for a person (`quantity 1 → 2`).
    public var changes: String
}

public struct SettingsJSON: Codable, Sendable, Hashable {
    public var currency: String
    public var timeZone: String
    public var rounding: String
    public var roundingScope: String
    /// How the web pages write amounts and dates (`de_DE`).
    public var locale: String
}

public struct DashboardJSON: Codable, Sendable, Hashable {
    public struct ClinicStanding: Codable, Sendable, Hashable {
        public var id: Int64
        public var name: String
        public var schedule: String
        public var periodStart: String
        public var periodEnd: String
        public var period: TotalsJSON
        /// What the clinic is expected to pay for the current period: its net payable (the
        /// lines' commission, accelerators included, less deductions).
        public var expected: String
        public var received: String
        public var balance: String
        /// Every period through the current one, net of payouts (``Arrears``), and the part overdue.
        public var owed: String
        public var overdue: String
        /// How many days after a period ends its payment is due (what the clinic's own payments
        /// show, else 14): what `overdue` counts from.
        public var dueAfterDays: Int
        public var month: TotalsJSON
        public var yearToDate: TotalsJSON
    }
    public struct ProductStanding: Codable, Sendable, Hashable {
        public var id: Int64
        public var name: String
        public var month: TotalsJSON
        public var yearToDate: TotalsJSON
    }
    public var today: String
    public var currency: String
    public var todayTotals: TotalsJSON
    public var month: TotalsJSON
    public var yearToDate: TotalsJSON
    public var clinics: [ClinicStanding]
    public var products: [ProductStanding]
}

public struct StatementJSON: Codable, Sendable, Hashable {
    public struct Line: Codable, Sendable, Hashable {
        public var saleId: Int64
        public var date: String
        public var productId: Int64
        public var product: String
        public var quantity: Int64
        public var unitPrice: String
        public var unitCost: String
        public var discount: String
        public var revenue: String
        public var cost: String
        public var profit: String
        public var share: String?
        public var basis: String?
        public var termsId: Int64?
        public var commission: String
        public var note: String?
    }
    public struct Payment: Codable, Sendable, Hashable {
        public var id: Int64
        public var amount: String
        public var receivedOn: String
        public var reference: String?
    }
    public var clinic: String
    public var periodStart: String
    public var periodEnd: String
    public var closed: Bool
    public var lines: [Line]
    public var totals: TotalsJSON
    /// One per set of terms with tiers the lines were computed under: what its tiers add.
    public var accelerators: [Accelerator]
    /// The lines' commission with the accelerators.
    public var commission: String
    public var deductions: [DeductionItem]
    /// Commission less deductions: what the clinic is expected to pay.
    public var netPayable: String
    public var payouts: [Payment]
    public var received: String
    /// The net payable less what was received.
    public var balance: String

    public struct Accelerator: Codable, Sendable, Hashable {
        public var termsId: Int64
        public var basisTotal: String
        /// `5000.00:50.00%`, each tier.
        public var tiers: [String]
        public var amount: String
    }
    public struct DeductionItem: Codable, Sendable, Hashable {
        public var deductionId: Int64
        public var name: String
        public var amount: String
    }
}

/// A year per clinic (`commission year`, `GET /api/v1/year/{year}`): see docs/json.md.
public struct YearJSON: Codable, Sendable, Hashable {
    public struct Month: Codable, Sendable, Hashable {
        /// `2026-03`.
        public var month: String
        public var totals: TotalsJSON
    }
    public struct Figures: Codable, Sendable, Hashable {
        /// The sales made in the year.
        public var sales: TotalsJSON
        /// The pay periods that end in the year, and what they come to.
        public var periods: Int
        public var commission: String
        public var accelerators: String
        public var deductions: String
        public var netPayable: String
        public var received: String
        public var balance: String
    }
    public struct Clinic: Codable, Sendable, Hashable {
        public var clinic: String
        public var months: [Month]
        public var year: Figures
    }
    public var year: Int
    public var currency: String
    public var clinics: [Clinic]
    public var total: Figures
}

public struct ReconciliationJSON: Codable, Sendable, Hashable {
    public struct Period: Codable, Sendable, Hashable {
        public var periodStart: String
        public var periodEnd: String
        public var expected: String
        public var received: String
        public var difference: String
        public var balance: String
        public var status: String
        public var closed: Bool
    }
    public var clinic: String
    public var periods: [Period]
    public var balance: String
}
