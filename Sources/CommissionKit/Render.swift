import CommissionCore
import CommissionStore
import Foundation

/// Turns store values into text: aligned tables, CSV, or JSON in the shapes of ``Presenter``
/// (the API's; described in `docs/json.md`).
public struct Renderer: Sendable {
    public let currency: Currency
    let presenter: Presenter

    public init(currency: Currency, names: Presenter.Names = Presenter.Names()) {
        self.currency = currency
        self.presenter = Presenter(currency: currency, names: names)
    }

    func m(_ money: Money) -> String { currency.format(money) }

    // MARK: Dashboard

    /// The dashboard; `history` (while the book asks about her history) is said apart from what
    /// is overdue (in JSON, as the API says it).
    public func render(_ dashboard: Dashboard, as format: OutputFormat, history: UnconfirmedHistory? = nil) -> String {
        switch format {
        case .json:
            return Presenter.encode(presenter.dashboard(dashboard, history: history))
        case .csv:
            return dashboardTable(dashboard).csv()
        case .table:
            var out = "Commission — \(dashboard.today) (\(dashboard.currency.code))\n\n"
            out += TextTable(
                [
                    .init(""), .init("Sales", .right), .init("Revenue", .right), .init("Profit", .right),
                    .init("Commission", .right),
                ],
                rows: [
                    ["Today"] + summary(dashboard.todayTotals),
                    ["This month"] + summary(dashboard.monthTotals),
                    ["Year to date"] + summary(dashboard.yearTotals),
                ]
            ).rendered()
            out += "\nCurrent pay periods\n"
            out += TextTable(
                [
                    .init("Clinic"), .init("Period"), .init("Sales", .right), .init("Expected", .right),
                    .init("Received", .right), .init("Balance", .right), .init("Year to date", .right),
                ],
                rows: dashboard.clinics.map {
                    [
                        $0.clinic.name, "\($0.period.start) – \($0.period.end)", String($0.periodTotals.saleCount),
                        m($0.periodPayable), m($0.periodReceived), m($0.periodBalance), m($0.yearTotals.commission),
                    ]
                }
            ).rendered()
            if !dashboard.products.isEmpty {
                out += "\nTop products this year\n"
                out += TextTable(
                    [
                        .init("Product"), .init("Units", .right), .init("Revenue", .right), .init("Commission", .right),
                        .init("This month", .right),
                    ],
                    rows: dashboard.products.prefix(10).map {
                        [
                            $0.product.name, String($0.yearTotals.quantity), m($0.yearTotals.revenue),
                            m($0.yearTotals.commission), m($0.monthTotals.commission),
                        ]
                    }
                ).rendered()
            }
            return out
        }
    }

    func summary(_ totals: Totals) -> [String] {
        [String(totals.saleCount), m(totals.revenue), m(totals.profit), m(totals.commission)]
    }

    /// The dashboard as one flat table: a row per scope.
    func dashboardTable(_ dashboard: Dashboard) -> TextTable {
        var table = TextTable([
            .init("scope"), .init("name"), .init("from"), .init("through"), .init("sales"), .init("quantity"),
            .init("revenue"), .init("cost"), .init("profit"), .init("commission"), .init("received"), .init("balance"),
        ])
        func row(
            _ scope: String,
            _ name: String,
            _ from: Day,
            _ through: Day,
            _ t: Totals,
            received: Money? = nil,
            balance: Money? = nil
        ) {
            table.rows.append([
                scope, name, from.description, through.description, String(t.saleCount), String(t.quantity),
                m(t.revenue), m(t.cost), m(t.profit), m(t.commission), received.map(m) ?? "", balance.map(m) ?? "",
            ])
        }
        let today = dashboard.today
        row("today", "", today, today, dashboard.todayTotals)
        row("month", "", today.firstOfMonth, today, dashboard.monthTotals)
        row("year", "", today.firstOfYear, today, dashboard.yearTotals)
        for c in dashboard.clinics {
            row(
                "clinic-period",
                c.clinic.name,
                c.period.start,
                c.period.end,
                c.periodTotals,
                received: c.periodReceived,
                balance: c.periodBalance
            )
            row("clinic-year", c.clinic.name, today.firstOfYear, today, c.yearTotals)
        }
        for p in dashboard.products { row("product-year", p.product.name, today.firstOfYear, today, p.yearTotals) }
        return table
    }

    // MARK: Statement

    public func render(_ statement: Statement, as format: OutputFormat) -> String {
        switch format {
        case .json:
            return Presenter.encode(presenter.statement(statement))
        case .csv:
            var table = statementTable(statement)
            table.rows += adjustmentRows(statement)
            return table.csv()
        case .table:
            var out =
                "Statement — \(statement.clinic.name), \(statement.period.start) – \(statement.period.end)\(statement.isClosed ? " (closed)" : "")\n\n"
            var table = statementTable(statement)
            table.columns.remove(at: 0)
            table.rows = table.rows.map { Array($0.dropFirst()) }
            out += table.rendered()
            out += "\n"
            var rows = [
                ["Sales", String(statement.totals.saleCount)],
                ["Revenue", m(statement.totals.revenue)],
                ["Profit", m(statement.totals.profit)],
            ]
            let adjustments = adjustments(statement)
            rows += adjustments.isEmpty ? [["Commission due", m(statement.totals.commission)]] : adjustments
            rows += [["Received", m(statement.received)], ["Balance", m(statement.balance)]]
            out += TextTable([.init(""), .init("Amount", .right)], rows: rows).rendered()
            return out
        }
    }

    /// Several statements (``StatementsRequest``): JSON, an array of statements; CSV, their lines
    /// with the clinic and period first; a table, one statement after the other.
    public func render(_ statements: [Statement], as format: OutputFormat) -> String {
        switch format {
        case .json:
            return Presenter.encode(statements.map(presenter.statement))
        case .csv:
            var table = statementTable(nil)
            table.columns.insert(
                contentsOf: [.init("Clinic"), .init("Period start"), .init("Period end"), .init("Closed")],
                at: 0
            )
            for statement in statements {
                table.rows += (statementTable(statement).rows + adjustmentRows(statement)).map {
                    [
                        statement.clinic.name, statement.period.start.description, statement.period.end.description,
                        statement.isClosed ? "yes" : "no",
                    ] + $0
                }
            }
            return table.csv()
        case .table:
            guard !statements.isEmpty else { return "No sales or payouts in this range.\n" }
            return statements.map { render($0, as: .table) }.joined(separator: "\n")
        }
    }

    /// What a statement with accelerators or deductions adds to its lines' commission, as label and
    /// amount: the lines' commission, each accelerator, the commission, each deduction, the net
    /// payable. None for a statement without either.
    func adjustments(_ statement: Statement) -> [[String]] {
        guard !statement.accelerators.isEmpty || !statement.deductions.isEmpty else { return [] }
        var rows = [["Commission on the lines", m(statement.totals.commission)]]
        for line in statement.accelerators {
            rows.append([
                "Accelerator (terms \(line.terms.id), \(line.terms.tiers.map { $0.text(currency) }.joined(separator: ", ")) on \(m(line.basisTotal)))",
                m(line.amount),
            ])
        }
        rows.append(["Commission", m(statement.commission)])
        for line in statement.deductions { rows.append(["Less \(line.deduction.name)", m(line.amount)]) }
        rows.append(["Net payable", m(statement.netPayable)])
        return rows
    }

    /// ``adjustments(_:)`` as rows of the statement's CSV, below its lines: the label in the
    /// Product column, the amount in the Commission column.
    func adjustmentRows(_ statement: Statement) -> [[String]] {
        adjustments(statement).map { ["", "", $0[0], "", "", "", "", "", "", $0[1]] }
    }

    func statementTable(_ statement: Statement?) -> TextTable {
        TextTable(
            [
                .init("Sale", .right), .init("Date"), .init("Product"), .init("Qty", .right), .init("Price", .right),
                .init("Discount", .right), .init("Revenue", .right), .init("Profit", .right), .init("Share", .right),
                .init("Commission", .right),
            ],
            rows: (statement?.lines ?? []).map { line in
                let s = line.sale
                return [
                    String(s.id.rawValue), s.date.description, line.productName, String(s.quantity),
                    m(s.line.unitPrice),
                    m(s.line.discount), m(s.figures.revenue), m(s.figures.profit),
                    s.line.rate.map { "\($0.share.percentText)%\($0.basis == .revenue ? " rev" : "")" } ?? "none",
                    m(s.figures.commission),
                ]
            }
        )
    }

    // MARK: Reconciliation

    /// One clinic's reconciliation as a JSON object (the shape of one element of the list form).
    public func json(_ reconciliation: Reconciliation) -> String {
        Presenter.encode(presenter.reconciliation(reconciliation))
    }

    public func render(_ reconciliations: [Reconciliation], as format: OutputFormat) -> String {
        switch format {
        case .json:
            return Presenter.encode(reconciliations.map(presenter.reconciliation))
        case .csv, .table:
            let table = TextTable(
                [
                    .init("Clinic"), .init("Period"), .init("Expected", .right), .init("Received", .right),
                    .init("Difference", .right), .init("Balance", .right), .init("Status"),
                ],
                rows: reconciliations.flatMap { r in
                    r.periods.map {
                        [
                            r.clinic.name, "\($0.period.start) – \($0.period.end)", m($0.expected), m($0.received),
                            m($0.difference), m($0.balance),
                            $0.status.rawValue + ($0.isClosed ? " (closed)" : "")
                                + ($0.status.needsAttention ? " ⚠" : ""),
                        ]
                    }
                }
            )
            if format == .csv { return table.csv() }
            var out = table.rendered()
            for r in reconciliations {
                if r.balance.isNegative {
                    out += "\n\(r.clinic.name) has paid \(m(r.balance.magnitudeOrSelf)) more than it owes in all."
                } else {
                    out += "\n\(r.clinic.name) owes \(m(r.balance)) in all."
                }
            }
            return out + "\n"
        }
    }

    // MARK: Her year

    /// The months of a year's rows, January first.
    public static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// A year per clinic: JSON in its own shape; as a table or CSV, a row per clinic and month of
    /// sales (revenue, commission), then a row per clinic with the pay periods that end in the year
    /// (commission, accelerators, deductions, net payable, received, balance), then the book's.
    public func render(_ summary: YearSummary, as format: OutputFormat) -> String {
        if format == .json { return Presenter.encode(presenter.year(summary)) }
        var rows: [[String]] = []
        func figures(_ name: String, _ f: ClinicYear.Figures) -> [String] {
            [
                name, "Year \(summary.year)", String(f.sales.saleCount), m(f.sales.revenue), m(f.sales.commission),
                String(f.periods), m(f.commission),
                m(f.accelerators), m(f.deductions), m(f.netPayable), m(f.received), m(f.balance),
            ]
        }
        for clinic in summary.clinics {
            for (index, month) in clinic.months.enumerated() where month.saleCount > 0 {
                rows.append([
                    clinic.clinic.name, "\(Self.monthNames[index]) \(summary.year)", String(month.saleCount),
                    m(month.revenue), m(month.commission),
                    "", "", "", "", "", "", "",
                ])
            }
            rows.append(figures(clinic.clinic.name, clinic.figures))
        }
        rows.append(figures("All clinics", summary.total))
        let table = TextTable(
            [
                .init("Clinic"), .init("Month"), .init("Sales", .right), .init("Revenue", .right),
                .init("Commission earned", .right),
                .init("Periods", .right), .init("Periods' commission", .right), .init("Accelerators", .right),
                .init("Deductions", .right),
                .init("Net payable", .right), .init("Received", .right), .init("Balance", .right),
            ],
            rows: rows
        )
        return format == .csv ? table.csv() : table.rendered()
    }

    // MARK: Lists

    public func sales(_ sales: [Sale]) -> Listing {
        let names = presenter.names
        return Listing(
            TextTable(
                [
                    .init("id"), .init("date"), .init("clinic"), .init("product"), .init("quantity", .right),
                    .init("unit price", .right),
                    .init("unit cost", .right), .init("discount", .right), .init("no commission"),
                    .init("share", .right), .init("basis"),
                    .init("revenue", .right), .init("profit", .right), .init("commission", .right), .init("voided"),
                    .init("note"),
                ],
                rows: sales.map { s in
                    [
                        String(s.id.rawValue), s.date.description, names.clinics[s.clinicID] ?? "",
                        names.products[s.productID] ?? "",
                        String(s.quantity), m(s.line.unitPrice), m(s.line.unitCost), m(s.line.discount),
                        s.isNoCommission ? "yes" : "no",
                        s.line.rate?.share.percentText ?? "", s.line.rate?.basis.rawValue ?? "", m(s.figures.revenue),
                        m(s.figures.profit),
                        m(s.figures.commission), s.isVoided ? "yes" : "no", s.note ?? "",
                    ]
                }
            ),
            json: sales.map(presenter.sale)
        )
    }

    public func clinics(_ clinics: [Clinic]) -> Listing {
        Listing(
            TextTable(
                [.init("id"), .init("name"), .init("schedule"), .init("archived")],
                rows: clinics.map {
                    [String($0.id.rawValue), $0.name, $0.schedule.description, $0.isArchived ? "yes" : "no"]
                }
            ),
            json: clinics.map(presenter.clinic)
        )
    }

    public func products(_ products: [Product]) -> Listing {
        Listing(
            TextTable(
                [
                    .init("id"), .init("name"), .init("sku"), .init("unit price", .right), .init("unit cost", .right),
                    .init("archived"),
                ],
                rows: products.map {
                    [
                        String($0.id.rawValue), $0.name, $0.sku ?? "", m($0.unitPrice), m($0.unitCost),
                        $0.isArchived ? "yes" : "no",
                    ]
                }
            ),
            json: products.map(presenter.product)
        )
    }

    /// Terms; a `tiers` column when any has accelerators (`5000.00:50.00% 10000.00:60.00%`, as a
    /// terms file imports them).
    public func terms(_ terms: [Terms]) -> Listing {
        let names = presenter.names
        let tiered = terms.contains { !$0.tiers.isEmpty }
        return Listing(
            TextTable(
                [
                    .init("id"), .init("clinic"), .init("product"), .init("share", .right), .init("basis"),
                    .init("effective from"),
                    .init("archived"),
                ] + (tiered ? [.init("tiers")] : []),
                rows: terms.map { t in
                    [
                        String(t.id.rawValue), names.clinics[t.clinicID] ?? "",
                        t.productID.flatMap { names.products[$0] } ?? "",
                        t.share.percentText, t.basis.rawValue, t.effectiveFrom.description, t.isArchived ? "yes" : "no",
                    ]
                        + (tiered ? [t.tiers.map { $0.text(currency) }.joined(separator: " ")] : [])
                }
            ),
            json: terms.map(presenter.terms)
        )
    }

    /// Price-list entries; an entry without a cost of its own shows "(product's)", or nothing for an
    /// export (which imports again).
    public func prices(_ entries: [PriceListEntry], forExport: Bool = false) -> Listing {
        let names = presenter.names
        return Listing(
            TextTable(
                [
                    .init("id"), .init("clinic"), .init("product"), .init("unit price", .right),
                    .init("unit cost", .right),
                    .init("effective from"),
                ],
                rows: entries.map { e in
                    [
                        String(e.id.rawValue), names.clinics[e.clinicID] ?? "", names.products[e.productID] ?? "",
                        m(e.unitPrice),
                        e.unitCost.map(m) ?? (forExport ? "" : "(product's)"), e.effectiveFrom.description,
                    ]
                }
            ),
            json: entries.map(presenter.price)
        )
    }

    /// Every clinic's schedule changes, as a schedules file imports them (a clinic's first
    /// schedule is in the clinics file).
    public func scheduleChanges(_ clinics: [Clinic]) -> Listing {
        let changes = clinics.flatMap { clinic in clinic.scheduleChanges.map { (clinic, $0) } }
        return Listing(
            TextTable(
                [.init("clinic"), .init("schedule"), .init("effective from")],
                rows: changes.map { [$0.0.name, $0.1.schedule.description, $0.1.effectiveFrom.description] }
            ),
            json: changes.map {
                ScheduleChangeRowJSON(
                    clinic: $0.0.name,
                    schedule: $0.1.schedule.description,
                    effectiveFrom: $0.1.effectiveFrom.description
                )
            }
        )
    }

    /// Deductions, as a deductions file imports them: an amount per period or a share of revenue.
    public func deductions(_ deductions: [Deduction]) -> Listing {
        let names = presenter.names
        return Listing(
            TextTable(
                [
                    .init("id"), .init("clinic"), .init("name"), .init("amount", .right), .init("share", .right),
                    .init("effective from"), .init("last day"),
                ],
                rows: deductions.map { d in
                    let (amount, share): (String, String) =
                        switch d.amount {
                        case .fixed(let amount): (m(amount), "")
                        case .shareOfRevenue(let share): ("", share.percentText)
                        }
                    return [
                        String(d.id.rawValue), names.clinics[d.clinicID] ?? "", d.name, amount, share,
                        d.effectiveFrom.description,
                        d.lastDay?.description ?? "",
                    ]
                }
            ),
            json: deductions.map(presenter.deduction)
        )
    }

    public func payouts(_ payouts: [Payout]) -> Listing {
        let names = presenter.names
        return Listing(
            TextTable(
                [
                    .init("id"), .init("clinic"), .init("period start"), .init("period end"), .init("amount", .right),
                    .init("received on"), .init("reference"),
                ],
                rows: payouts.map { p in
                    [
                        String(p.id.rawValue), names.clinics[p.clinicID] ?? "", p.period.start.description,
                        p.period.end.description,
                        m(p.amount), p.receivedOn.description, p.reference ?? "",
                    ]
                }
            ),
            json: payouts.map(presenter.payout)
        )
    }

    /// A table of its own (a report's), as a table, CSV, or JSON (an array of objects keyed by the
    /// column titles, camelCased). Lists of records use their own shapes (``Listing``).
    public func render(_ table: TextTable, as format: OutputFormat) -> String {
        switch format {
        case .table: return table.rendered()
        case .csv: return table.csv()
        case .json:
            let keys = table.columns.map { Self.camelCase($0.title) }
            return Presenter.encode(table.rows.map { row in Dictionary(uniqueKeysWithValues: zip(keys, row)) })
        }
    }

    /// A list of records as a table, CSV, or JSON in the records' own shapes.
    public func render(_ listing: Listing, as format: OutputFormat) -> String {
        format == .json ? listing.json() : render(listing.table, as: format)
    }

    /// `"unit price"` → `"unitPrice"`.
    static func camelCase(_ title: String) -> String {
        let words = title.split(separator: " ")
        return words.enumerated().map { $0.offset == 0 ? $0.element.lowercased() : $0.element.capitalized }.joined()
    }
}

/// Records as a text table (for the terminal and CSV) and as their JSON shapes.
public struct Listing: Sendable {
    public let table: TextTable
    private let encode: @Sendable () -> String

    public init<Shape: Encodable & Sendable>(_ table: TextTable, json: [Shape]) {
        self.table = table
        self.encode = { Presenter.encode(json) }
    }

    /// The records in their JSON shapes, as text.
    public func json() -> String { encode() }
    public var count: Int { table.rows.count }
}
