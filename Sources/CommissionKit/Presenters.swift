import CommissionAPI
import CommissionCore
import CommissionStore
import Foundation

// The JSON shape of every value Commission shows is defined once, by the server's OpenAPI document
// (Sources/CommissionWeb/Resources/openapi.json), and generated into CommissionAPI as
// `Components.Schemas` (here `API`): the API answers with these, the CLI's `--format json` prints
// them, the client reads them. Everywhere: ids and counts are numbers, flags are booleans, amounts
// are decimal strings with the currency's minor digits (`"1234.50"`, never a binary float), dates
// are `YYYY-MM-DD`, shares are percentage strings (`"37.50"`), keys are camelCase and sorted, and
// an absent optional is left out. What is here is what the document cannot say: how a store's
// value becomes its shape.

/// The API's JSON shapes, as generated from its OpenAPI document.
public typealias API = Components.Schemas

extension API {
    /// The case of one enum spelt as `value` of another is: a domain's enum (a basis, a rounding
    /// rule, a role…) as the document's, or back. The document lists the same cases as the domain
    /// (`APIShapesTests` holds every case of each to it), so a case missing is a document out of
    /// step with the code, found by the tests, never by a user.
    public static func spelt<Other: RawRepresentable>(_ value: some RawRepresentable<String>) -> Other
    where Other.RawValue == String {
        guard let other = Other(rawValue: value.rawValue) else {
            preconditionFailure("\(Other.self) has no case \"\(value.rawValue)\"")
        }
        return other
    }
}

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

    public func totals(_ totals: Totals) -> API.Totals {
        API.Totals(
            sales: totals.saleCount,
            quantity: totals.quantity,
            revenue: m(totals.revenue),
            cost: m(totals.cost),
            profit: m(totals.profit),
            commission: m(totals.commission)
        )
    }

    public func clinic(_ clinic: Clinic) -> API.Clinic {
        API.Clinic(
            id: clinic.id.rawValue,
            name: clinic.name,
            schedule: clinic.schedule.description,
            archived: clinic.isArchived,
            scheduleChanges: clinic.scheduleChanges.map {
                API.ScheduleChange(effectiveFrom: $0.effectiveFrom.description, schedule: $0.schedule.description)
            }
        )
    }

    public func product(_ product: Product) -> API.Product {
        API.Product(
            id: product.id.rawValue,
            name: product.name,
            sku: product.sku,
            unitPrice: m(product.unitPrice),
            unitCost: m(product.unitCost),
            archived: product.isArchived
        )
    }

    public func terms(_ terms: Terms) -> API.Terms {
        API.Terms(
            id: terms.id.rawValue,
            clinicId: terms.clinicID.rawValue,
            productId: terms.productID.map { $0.rawValue },
            basis: API.spelt(terms.basis),
            share: terms.share.percentText,
            effectiveFrom: terms.effectiveFrom.description,
            archived: terms.isArchived,
            clinic: names.clinics[terms.clinicID],
            product: terms.productID.flatMap { names.products[$0] },
            tiers: terms.tiers.map { $0.text(currency) }
        )
    }

    public func deduction(_ deduction: Deduction) -> API.Deduction {
        var amount: String?, share: String?
        switch deduction.amount {
        case .fixed(let money): amount = m(money)
        case .shareOfRevenue(let value): share = value.percentText
        }
        return API.Deduction(
            id: deduction.id.rawValue,
            clinicId: deduction.clinicID.rawValue,
            clinic: names.clinics[deduction.clinicID],
            name: deduction.name,
            amount: amount,
            share: share,
            effectiveFrom: deduction.effectiveFrom.description,
            lastDay: deduction.lastDay?.description
        )
    }

    public func price(_ entry: PriceListEntry) -> API.Price {
        API.Price(
            id: entry.id.rawValue,
            clinicId: entry.clinicID.rawValue,
            productId: entry.productID.rawValue,
            unitPrice: m(entry.unitPrice),
            unitCost: entry.unitCost.map(m),
            effectiveFrom: entry.effectiveFrom.description,
            clinic: names.clinics[entry.clinicID],
            product: names.products[entry.productID]
        )
    }

    public func sale(_ sale: Sale) -> API.Sale {
        API.Sale(
            id: sale.id.rawValue,
            clinicId: sale.clinicID.rawValue,
            productId: sale.productID.rawValue,
            date: sale.date.description,
            quantity: sale.quantity,
            unitPrice: m(sale.line.unitPrice),
            unitCost: m(sale.line.unitCost),
            discount: m(sale.line.discount),
            noCommission: sale.isNoCommission,
            share: sale.line.rate?.share.percentText,
            basis: sale.line.rate.map { API.spelt($0.basis) },
            revenue: m(sale.figures.revenue),
            cost: m(sale.figures.cost),
            profit: m(sale.figures.profit),
            commission: m(sale.figures.commission),
            note: sale.note,
            voided: sale.isVoided,
            clinic: names.clinics[sale.clinicID],
            product: names.products[sale.productID],
            termsId: sale.termsID?.rawValue
        )
    }

    public func payout(_ payout: Payout) -> API.Payout {
        API.Payout(
            id: payout.id.rawValue,
            clinicId: payout.clinicID.rawValue,
            periodStart: payout.period.start.description,
            periodEnd: payout.period.end.description,
            amount: m(payout.amount),
            receivedOn: payout.receivedOn.description,
            reference: payout.reference,
            clinic: names.clinics[payout.clinicID]
        )
    }

    public func audit(_ entry: AuditEntry) -> API.AuditEntry {
        API.AuditEntry(
            id: entry.id.rawValue,
            at: entry.at,
            actor: entry.actor,
            subject: API.spelt(entry.subject),
            subjectId: entry.subjectID,
            lastSubjectId: entry.lastSubjectID,
            action: entry.action,
            before: entry.before,
            after: entry.after,
            changes: entry.changes(currency: currency, names: names)
        )
    }

    public func settings(_ settings: BookSettings) -> API.Settings {
        API.Settings(
            currency: settings.currency.code,
            timeZone: settings.timeZoneIdentifier,
            rounding: API.spelt(settings.rounding.rule),
            roundingScope: API.spelt(settings.rounding.scope),
            locale: settings.localeIdentifier
        )
    }

    /// The dashboard; `history` (while the book asks about her history) takes its unconfirmed
    /// part out of each clinic's overdue figure and says it apart, as the pages do.
    public func dashboard(_ dashboard: Dashboard, history: UnconfirmedHistory? = nil) -> API.Dashboard {
        API.Dashboard(
            today: dashboard.today.description,
            currency: dashboard.currency.code,
            todayTotals: totals(dashboard.todayTotals),
            month: totals(dashboard.monthTotals),
            yearToDate: totals(dashboard.yearTotals),
            clinics: dashboard.clinics.map {
                .init(
                    id: $0.clinic.id.rawValue,
                    name: $0.clinic.name,
                    schedule: $0.clinic.calendar.schedule(on: $0.period.start).description,
                    periodStart: $0.period.start.description,
                    periodEnd: $0.period.end.description,
                    period: totals($0.periodTotals),
                    expected: m($0.periodPayable),
                    received: m($0.periodReceived),
                    balance: m($0.periodBalance),
                    owed: m($0.arrears.owed),
                    overdue: m(Self.overdue(of: $0, history)),
                    unconfirmed: Self.unconfirmed(of: $0, history).map(m),
                    month: totals($0.monthTotals),
                    yearToDate: totals($0.yearTotals),
                    dueAfterDays: $0.arrears.dueAfterDays
                )
            },
            products: dashboard.products.map {
                .init(
                    id: $0.product.id.rawValue,
                    name: $0.product.name,
                    month: totals($0.monthTotals),
                    yearToDate: totals($0.yearTotals)
                )
            }
        )
    }

    /// What her history makes of what a clinic owes while the book asks about it (nil when it
    /// does not ask, or a sum beyond range).
    static func unconfirmed(of standing: ClinicStanding, _ history: UnconfirmedHistory?) -> Money? {
        // try?: both parts are within figures that fit; a sum beyond range is left out
        history.flatMap { try? $0.amount(for: standing.clinic.id) }
    }

    /// What a clinic owes past its usual day, less the part of it her history makes while the
    /// book asks about it (never below zero: that part is never more than it).
    package static func overdue(of standing: ClinicStanding, _ history: UnconfirmedHistory?) -> Money {
        let part = history?.overduePart(of: standing.clinic.id) ?? .zero
        // try?: cannot overflow: both are at least zero and the part is never more than overdue
        return (try? standing.arrears.overdue.subtracting(part)) ?? standing.arrears.overdue
    }

    /// Her bank's statement matched: each deposit's proposal, and the payouts recorded of them.
    public func bankMatching(
        _ statement: BankStatement,
        proposals: [DepositProposal],
        recorded: [Payout]
    ) -> API.BankMatching {
        API.BankMatching(
            deposits: statement.deposits.count,
            passedOver: statement.passedOver,
            said: statement.said,
            proposals: proposals.map { proposal in
                let deposit = proposal.deposit
                var outcome = API.BankProposal.OutcomePayload.unmatched
                var clinic: Clinic?, parts: [DepositProposal.Part] = [], payouts: [Payout] = []
                switch proposal.outcome {
                case .pays(let paid, let paying): (outcome, clinic, parts) = (.pays, paid, paying)
                case .recorded(let held): (outcome, payouts) = (.recorded, held)
                case .unmatched: break
                }
                return API.BankProposal(
                    line: deposit.line,
                    date: deposit.date.description,
                    amount: m(deposit.amount),
                    description: deposit.description,
                    bankId: deposit.id?.description,
                    outcome: outcome,
                    exact: proposal.isExact,
                    why: proposal.why,
                    clinicId: clinic?.id.rawValue,
                    clinic: clinic?.name,
                    periods: parts.map {
                        .init(start: $0.period.start.description, end: $0.period.end.description, amount: m($0.amount))
                    },
                    payoutIds: payouts.map(\.id.rawValue)
                )
            },
            recorded: recorded.map(payout)
        )
    }

    /// The clinic's statement beside her book: the lines that differ, how, and the totals; `said`
    /// how their statement was read.
    public func comparison(_ comparison: StatementComparison, said: [String]) -> API.Comparison {
        API.Comparison(
            clinicId: comparison.clinic.id.rawValue,
            clinic: comparison.clinic.name,
            periodStart: comparison.period.start.description,
            periodEnd: comparison.period.end.description,
            theirTotal: m(comparison.theirTotal),
            herTotal: m(comparison.herTotal),
            difference: m(comparison.difference),
            agreeing: comparison.lines.count - comparison.differing.count,
            said: said,
            differing: comparison.differing.map { line in
                API.ComparedLine(
                    date: line.date.description,
                    product: line.product,
                    theirLine: line.theirs?.line,
                    theirQuantity: line.theirs?.quantity,
                    theirPrice: line.theirs?.price.map(m),
                    theirCommission: line.theirs.map { m($0.commission) },
                    saleId: line.hers?.id.rawValue,
                    differences: line.differences.map {
                        switch $0 {
                        case .missingOnHers: .missingOnHers
                        case .missingOnTheirs: .missingOnTheirs
                        case .unknownProduct: .unknownProduct
                        case .shifted: .shifted
                        case .quantity: .quantity
                        case .price: .price
                        case .commission: .commission
                        }
                    },
                    explained: line.explained(m),
                    commissionDifference: m(line.commissionDifference),
                    canAdd: line.canAccept
                )
            }
        )
    }

    public func statement(_ statement: Statement) -> API.Statement {
        API.Statement(
            clinic: statement.clinic.name,
            periodStart: statement.period.start.description,
            periodEnd: statement.period.end.description,
            closed: statement.isClosed,
            lines: statement.lines.map { line in
                let s = line.sale
                return .init(
                    saleId: s.id.rawValue,
                    date: s.date.description,
                    product: line.productName,
                    quantity: Int(s.quantity),
                    unitPrice: m(s.line.unitPrice),
                    unitCost: m(s.line.unitCost),
                    discount: m(s.line.discount),
                    revenue: m(s.figures.revenue),
                    cost: m(s.figures.cost),
                    profit: m(s.figures.profit),
                    share: s.line.rate?.share.percentText,
                    basis: s.line.rate?.basis.rawValue,
                    commission: m(s.figures.commission),
                    note: s.note,
                    productId: s.productID.rawValue,
                    termsId: s.termsID?.rawValue
                )
            },
            totals: totals(statement.totals),
            payouts: statement.payouts.map {
                .init(
                    id: $0.id.rawValue,
                    amount: m($0.amount),
                    receivedOn: $0.receivedOn.description,
                    reference: $0.reference
                )
            },
            received: m(statement.received),
            balance: m(statement.balance),
            accelerators: statement.accelerators.map {
                .init(
                    termsId: $0.terms.id.rawValue,
                    basisTotal: m($0.basisTotal),
                    tiers: $0.terms.tiers.map { $0.text(currency) },
                    amount: m($0.amount)
                )
            },
            commission: m(statement.commission),
            deductions: statement.deductions.map {
                .init(deductionId: $0.deduction.id.rawValue, name: $0.deduction.name, amount: m($0.amount))
            },
            netPayable: m(statement.netPayable)
        )
    }

    public func reconciliation(_ r: Reconciliation) -> API.Reconciliation {
        API.Reconciliation(
            clinic: r.clinic.name,
            balance: m(r.balance),
            periods: r.periods.map {
                .init(
                    periodStart: $0.period.start.description,
                    periodEnd: $0.period.end.description,
                    expected: m($0.expected),
                    received: m($0.received),
                    difference: m($0.difference),
                    balance: m($0.balance),
                    status: API.spelt($0.status),
                    closed: $0.isClosed
                )
            }
        )
    }

    public func year(_ summary: YearSummary) -> API.Year {
        func figures(_ f: ClinicYear.Figures) -> API.YearFigures {
            API.YearFigures(
                sales: totals(f.sales),
                periods: f.periods,
                commission: m(f.commission),
                accelerators: m(f.accelerators),
                deductions: m(f.deductions),
                netPayable: m(f.netPayable),
                received: m(f.received),
                balance: m(f.balance)
            )
        }
        return API.Year(
            year: summary.year,
            currency: summary.currency.code,
            clinics: summary.clinics.map { clinic in
                .init(
                    clinic: clinic.clinic.name,
                    months: clinic.months.enumerated().map { index, month in
                        .init(month: String(format: "%04d-%02d", summary.year, index + 1), totals: totals(month))
                    },
                    year: figures(clinic.figures)
                )
            },
            total: figures(summary.total)
        )
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
            clinics = Dictionary(
                uniqueKeysWithValues: try await store.clinics(ClinicQuery(includeArchived: true)).map {
                    ($0.id, $0.name)
                }
            )
            products = Dictionary(
                uniqueKeysWithValues: try await store.products(ProductQuery(includeArchived: true)).map {
                    ($0.id, $0.name)
                }
            )
        }
    }

    /// A sale's answer as compact JSON, written member by member (the keys in their order): the
    /// bytes ``encode(_:pretty:)`` writes for it, without the tree it builds and sorts. Every
    /// sale entered over the API is answered with one (`FlatBodiesTests` holds the two equal).
    public static func json(_ sale: API.Sale) -> [UInt8] {
        var object = SortedJSON.FlatObject(escapingSlashes: true, capacity: 512)
        object.add("basis", sale.basis?.rawValue)
        object.add("clinic", sale.clinic)
        object.add("clinicId", sale.clinicId)
        object.add("commission", sale.commission)
        object.add("cost", sale.cost)
        object.add("date", sale.date)
        object.add("discount", sale.discount)
        object.add("id", sale.id)
        object.add("noCommission", sale.noCommission)
        object.add("note", sale.note)
        object.add("product", sale.product)
        object.add("productId", sale.productId)
        object.add("profit", sale.profit)
        object.add("quantity", sale.quantity)
        object.add("revenue", sale.revenue)
        object.add("share", sale.share)
        object.add("termsId", sale.termsId)
        object.add("unitCost", sale.unitCost)
        object.add("unitPrice", sale.unitPrice)
        object.add("voided", sale.voided)
        return object.json() ?? Array(encode(sale, pretty: false).utf8)
    }

    /// A value as JSON text, keys sorted, pretty-printed for a person or compact for the wire.
    public static func encode(_ value: some Encodable, pretty: Bool = true) -> String {
        // Compact is what the API answers: written without JSONEncoder where the same bytes can be (SortedJSON).
        if !pretty, let bytes = SortedJSON.encode(value, escapingSlashes: true) {
            return String(decoding: bytes, as: UTF8.self)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        // try?: the shapes shown hold no floating-point value: JSONEncoder cannot fail on them
        guard let data = try? encoder.encode(value) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + (pretty ? "\n" : "")
    }
}

/// A schedule change with its clinic's name: a row of `export schedules` (a file's row, which
/// `import` reads back; the API's import takes the same three fields).
public struct ScheduleChangeRowJSON: Codable, Sendable, Hashable {
    public var clinic: String
    public var schedule: String
    public var effectiveFrom: String
}
