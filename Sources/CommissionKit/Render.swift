import CommissionCore
import CommissionStore
import Foundation

/// Turns store values into text: aligned tables, CSV, or JSON whose amounts are decimal strings.
///
/// The JSON shapes are documented in `docs/json.md`; every amount is a string with the currency's
/// minor digits (`"1234.50"`), every date `YYYY-MM-DD`, every share a percentage string (`"37.50"`).
public struct Renderer: Sendable {
    public let currency: Currency

    public init(currency: Currency) { self.currency = currency }

    func m(_ money: Money) -> String { currency.format(money) }

    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    // MARK: Totals

    struct TotalsJSON: Encodable {
        var sales: Int
        var quantity: Int64
        var revenue: String
        var cost: String
        var profit: String
        var commission: String
    }

    func json(_ totals: Totals) -> TotalsJSON {
        TotalsJSON(sales: totals.saleCount, quantity: totals.quantity, revenue: m(totals.revenue), cost: m(totals.cost),
                   profit: m(totals.profit), commission: m(totals.commission))
    }

    // MARK: Dashboard

    struct DashboardJSON: Encodable {
        struct ClinicJSON: Encodable {
            var id: Int64
            var name: String
            var schedule: String
            var periodStart: String
            var periodEnd: String
            var period: TotalsJSON
            var received: String
            var balance: String
            var month: TotalsJSON
            var yearToDate: TotalsJSON
        }
        struct ProductJSON: Encodable {
            var id: Int64
            var name: String
            var month: TotalsJSON
            var yearToDate: TotalsJSON
        }
        var today: String
        var currency: String
        var todayTotals: TotalsJSON
        var month: TotalsJSON
        var yearToDate: TotalsJSON
        var clinics: [ClinicJSON]
        var products: [ProductJSON]
    }

    public func render(_ dashboard: Dashboard, as format: OutputFormat) -> String {
        switch format {
        case .json:
            return Self.encode(DashboardJSON(
                today: dashboard.today.description, currency: dashboard.currency.code,
                todayTotals: json(dashboard.todayTotals), month: json(dashboard.monthTotals), yearToDate: json(dashboard.yearTotals),
                clinics: dashboard.clinics.map {
                    .init(id: $0.clinic.id.rawValue, name: $0.clinic.name, schedule: $0.clinic.schedule.description,
                          periodStart: $0.period.start.description, periodEnd: $0.period.end.description, period: json($0.periodTotals),
                          received: m($0.periodReceived), balance: m($0.periodBalance), month: json($0.monthTotals),
                          yearToDate: json($0.yearTotals))
                },
                products: dashboard.products.map {
                    .init(id: $0.product.id.rawValue, name: $0.product.name, month: json($0.monthTotals), yearToDate: json($0.yearTotals))
                }))
        case .csv:
            return dashboardTable(dashboard).csv()
        case .table:
            var out = "Commission — \(dashboard.today) (\(dashboard.currency.code))\n\n"
            out += TextTable([.init(""), .init("Sales", .right), .init("Revenue", .right), .init("Profit", .right), .init("Commission", .right)], rows: [
                ["Today"] + summary(dashboard.todayTotals),
                ["This month"] + summary(dashboard.monthTotals),
                ["Year to date"] + summary(dashboard.yearTotals),
            ]).rendered()
            out += "\nCurrent pay periods\n"
            out += TextTable([.init("Clinic"), .init("Period"), .init("Sales", .right), .init("Expected", .right),
                              .init("Received", .right), .init("Balance", .right), .init("Year to date", .right)],
                             rows: dashboard.clinics.map {
                                 [$0.clinic.name, "\($0.period.start) – \($0.period.end)", String($0.periodTotals.saleCount),
                                  m($0.periodTotals.commission), m($0.periodReceived), m($0.periodBalance), m($0.yearTotals.commission)]
                             }).rendered()
            if !dashboard.products.isEmpty {
                out += "\nTop products this year\n"
                out += TextTable([.init("Product"), .init("Units", .right), .init("Revenue", .right), .init("Commission", .right),
                                  .init("This month", .right)],
                                 rows: dashboard.products.prefix(10).map {
                                     [$0.product.name, String($0.yearTotals.quantity), m($0.yearTotals.revenue),
                                      m($0.yearTotals.commission), m($0.monthTotals.commission)]
                                 }).rendered()
            }
            return out
        }
    }

    func summary(_ totals: Totals) -> [String] {
        [String(totals.saleCount), m(totals.revenue), m(totals.profit), m(totals.commission)]
    }

    /// The dashboard as one flat table: a row per scope.
    func dashboardTable(_ dashboard: Dashboard) -> TextTable {
        var table = TextTable([.init("scope"), .init("name"), .init("from"), .init("through"), .init("sales"), .init("quantity"),
                               .init("revenue"), .init("cost"), .init("profit"), .init("commission"), .init("received"), .init("balance")])
        func row(_ scope: String, _ name: String, _ from: Day, _ through: Day, _ t: Totals, received: Money? = nil, balance: Money? = nil) {
            table.rows.append([scope, name, from.description, through.description, String(t.saleCount), String(t.quantity),
                               m(t.revenue), m(t.cost), m(t.profit), m(t.commission), received.map(m) ?? "", balance.map(m) ?? ""])
        }
        let today = dashboard.today
        row("today", "", today, today, dashboard.todayTotals)
        row("month", "", today.firstOfMonth, today, dashboard.monthTotals)
        row("year", "", today.firstOfYear, today, dashboard.yearTotals)
        for c in dashboard.clinics {
            row("clinic-period", c.clinic.name, c.period.start, c.period.end, c.periodTotals, received: c.periodReceived, balance: c.periodBalance)
            row("clinic-year", c.clinic.name, today.firstOfYear, today, c.yearTotals)
        }
        for p in dashboard.products { row("product-year", p.product.name, today.firstOfYear, today, p.yearTotals) }
        return table
    }

    // MARK: Statement

    struct StatementJSON: Encodable {
        struct LineJSON: Encodable {
            var saleId: Int64
            var date: String
            var product: String
            var quantity: Int64
            var unitPrice: String
            var unitCost: String
            var discount: String
            var revenue: String
            var cost: String
            var profit: String
            var share: String?
            var basis: String?
            var commission: String
            var note: String?
        }
        struct PayoutJSON: Encodable {
            var id: Int64
            var amount: String
            var receivedOn: String
            var reference: String?
        }
        var clinic: String
        var periodStart: String
        var periodEnd: String
        var closed: Bool
        var lines: [LineJSON]
        var totals: TotalsJSON
        var payouts: [PayoutJSON]
        var received: String
        var balance: String
    }

    public func render(_ statement: Statement, as format: OutputFormat) -> String {
        switch format {
        case .json:
            return Self.encode(StatementJSON(
                clinic: statement.clinic.name, periodStart: statement.period.start.description, periodEnd: statement.period.end.description,
                closed: statement.isClosed,
                lines: statement.lines.map { line in
                    let s = line.sale
                    return .init(saleId: s.id.rawValue, date: s.date.description, product: line.productName, quantity: s.quantity,
                                 unitPrice: m(s.line.unitPrice), unitCost: m(s.line.unitCost), discount: m(s.line.discount),
                                 revenue: m(s.figures.revenue), cost: m(s.figures.cost), profit: m(s.figures.profit),
                                 share: s.line.rate?.share.percentText, basis: s.line.rate?.basis.rawValue,
                                 commission: m(s.figures.commission), note: s.note)
                },
                totals: json(statement.totals),
                payouts: statement.payouts.map { .init(id: $0.id.rawValue, amount: m($0.amount), receivedOn: $0.receivedOn.description, reference: $0.reference) },
                received: m(statement.received), balance: m(statement.balance)))
        case .csv:
            return statementTable(statement).csv()
        case .table:
            var out = "Statement — \(statement.clinic.name), \(statement.period.start) – \(statement.period.end)\(statement.isClosed ? " (closed)" : "")\n\n"
            var table = statementTable(statement)
            table.columns.remove(at: 0)
            table.rows = table.rows.map { Array($0.dropFirst()) }
            out += table.rendered()
            out += "\n"
            out += TextTable([.init(""), .init("Amount", .right)], rows: [
                ["Sales", String(statement.totals.saleCount)],
                ["Revenue", m(statement.totals.revenue)],
                ["Profit", m(statement.totals.profit)],
                ["Commission due", m(statement.totals.commission)],
                ["Received", m(statement.received)],
                ["Balance", m(statement.balance)],
            ]).rendered()
            return out
        }
    }

    func statementTable(_ statement: Statement) -> TextTable {
        TextTable([.init("Sale", .right), .init("Date"), .init("Product"), .init("Qty", .right), .init("Price", .right),
                   .init("Discount", .right), .init("Revenue", .right), .init("Profit", .right), .init("Share", .right),
                   .init("Commission", .right)],
                  rows: statement.lines.map { line in
                      let s = line.sale
                      return [String(s.id.rawValue), s.date.description, line.productName, String(s.quantity), m(s.line.unitPrice),
                              m(s.line.discount), m(s.figures.revenue), m(s.figures.profit),
                              s.line.rate.map { "\($0.share.percentText)%\($0.basis == .revenue ? " rev" : "")" } ?? "none",
                              m(s.figures.commission)]
                  })
    }

    // MARK: Reconciliation

    struct ReconciliationJSON: Encodable {
        struct PeriodJSON: Encodable {
            var periodStart: String
            var periodEnd: String
            var expected: String
            var received: String
            var difference: String
            var balance: String
            var status: String
            var closed: Bool
        }
        var clinic: String
        var periods: [PeriodJSON]
        var balance: String
    }

    func reconciliationJSON(_ r: Reconciliation) -> ReconciliationJSON {
        ReconciliationJSON(clinic: r.clinic.name, periods: r.periods.map {
            .init(periodStart: $0.period.start.description, periodEnd: $0.period.end.description, expected: m($0.expected),
                  received: m($0.received), difference: m($0.difference), balance: m($0.balance), status: $0.status.rawValue,
                  closed: $0.isClosed)
        }, balance: m(r.balance))
    }

    /// One clinic's reconciliation as a JSON object (the shape of one element of the list form).
    public func json(_ reconciliation: Reconciliation) -> String {
        Self.encode(reconciliationJSON(reconciliation))
    }

    public func render(_ reconciliations: [Reconciliation], as format: OutputFormat) -> String {
        switch format {
        case .json:
            return Self.encode(reconciliations.map(reconciliationJSON))
        case .csv, .table:
            let table = TextTable([.init("Clinic"), .init("Period"), .init("Expected", .right), .init("Received", .right),
                                   .init("Difference", .right), .init("Balance", .right), .init("Status")],
                                  rows: reconciliations.flatMap { r in
                                      r.periods.map {
                                          [r.clinic.name, "\($0.period.start) – \($0.period.end)", m($0.expected), m($0.received),
                                           m($0.difference), m($0.balance),
                                           $0.status.rawValue + ($0.isClosed ? " (closed)" : "") + ($0.status.needsAttention ? " ⚠" : "")]
                                      }
                                  })
            if format == .csv { return table.csv() }
            var out = table.rendered()
            for r in reconciliations {
                if r.balance.isNegative {
                    out += "\n\(r.clinic.name) has paid \(m((try? r.balance.negated()) ?? r.balance)) more than it owes in all."
                } else {
                    out += "\n\(r.clinic.name) owes \(m(r.balance)) in all."
                }
            }
            return out + "\n"
        }
    }

    // MARK: Lists

    public func sales(_ sales: [Sale], clinics: [Clinic.ID: String], products: [Product.ID: String]) -> TextTable {
        TextTable([.init("id"), .init("date"), .init("clinic"), .init("product"), .init("quantity", .right), .init("unit price", .right),
                   .init("unit cost", .right), .init("discount", .right), .init("no commission"), .init("share", .right), .init("basis"),
                   .init("revenue", .right), .init("profit", .right), .init("commission", .right), .init("voided"), .init("note")],
                  rows: sales.map { s in
                      [String(s.id.rawValue), s.date.description, clinics[s.clinicID] ?? "", products[s.productID] ?? "", String(s.quantity),
                       m(s.line.unitPrice), m(s.line.unitCost), m(s.line.discount), s.isNoCommission ? "yes" : "no",
                       s.line.rate?.share.percentText ?? "", s.line.rate?.basis.rawValue ?? "", m(s.figures.revenue), m(s.figures.profit),
                       m(s.figures.commission), s.isVoided ? "yes" : "no", s.note ?? ""]
                  })
    }

    public func clinics(_ clinics: [Clinic]) -> TextTable {
        TextTable([.init("id"), .init("name"), .init("schedule"), .init("archived")],
                  rows: clinics.map { [String($0.id.rawValue), $0.name, $0.schedule.description, $0.isArchived ? "yes" : "no"] })
    }

    public func products(_ products: [Product]) -> TextTable {
        TextTable([.init("id"), .init("name"), .init("sku"), .init("unit price", .right), .init("unit cost", .right), .init("archived")],
                  rows: products.map { [String($0.id.rawValue), $0.name, $0.sku ?? "", m($0.unitPrice), m($0.unitCost), $0.isArchived ? "yes" : "no"] })
    }

    public func terms(_ terms: [Terms], clinics: [Clinic.ID: String], products: [Product.ID: String]) -> TextTable {
        TextTable([.init("id"), .init("clinic"), .init("product"), .init("share", .right), .init("basis"), .init("effective from"), .init("archived")],
                  rows: terms.map { t in
                      [String(t.id.rawValue), clinics[t.clinicID] ?? "", t.productID.flatMap { products[$0] } ?? "", t.share.percentText,
                       t.basis.rawValue, t.effectiveFrom.description, t.isArchived ? "yes" : "no"]
                  })
    }

    public func payouts(_ payouts: [Payout], clinics: [Clinic.ID: String]) -> TextTable {
        TextTable([.init("id"), .init("clinic"), .init("period start"), .init("period end"), .init("amount", .right), .init("received on"),
                   .init("reference")],
                  rows: payouts.map { p in
                      [String(p.id.rawValue), clinics[p.clinicID] ?? "", p.period.start.description, p.period.end.description, m(p.amount),
                       p.receivedOn.description, p.reference ?? ""]
                  })
    }

    /// A list as a table, CSV, or JSON (an array of objects keyed by the column titles).
    public func render(_ table: TextTable, as format: OutputFormat) -> String {
        switch format {
        case .table: return table.rendered()
        case .csv: return table.csv()
        case .json:
            let keys = table.columns.map { $0.title.replacingOccurrences(of: " ", with: "_") }
            let objects = table.rows.map { row in Dictionary(uniqueKeysWithValues: zip(keys, row)) }
            return Self.encode(objects)
        }
    }
}
