import CommissionCore
import CommissionStore
import Foundation

/// The API's JSON shapes (as the generated client reads and writes them) to and from the store's
/// values. Amounts travel as decimal strings in the book's currency and are read back exactly; a
/// value the server should never send is ``RemoteStoreError/unexpectedAnswer(_:)``.
enum Wire {
    static func unexpected(_ what: String) -> RemoteStoreError { .unexpectedAnswer(what) }

    static func day(_ text: String) throws -> Day {
        do { return try Day(parsing: text) } catch { throw unexpected("the day \"\(text)\"") }
    }

    static func money(_ text: String, _ currency: Currency) throws -> Money {
        do { return try currency.parse(text) } catch { throw unexpected("the amount \"\(text)\"") }
    }

    static func share(_ text: String) throws -> Share {
        do { return try Share(parsing: text) } catch { throw unexpected("the share \"\(text)\"") }
    }

    static func schedule(_ text: String) throws -> PaySchedule {
        do { return try PaySchedule(parsing: text) } catch { throw unexpected("the schedule \"\(text)\"") }
    }

    static func basis(_ text: String?) throws -> CommissionBasis {
        guard let text else { return .profit }
        guard let basis = CommissionBasis(rawValue: text) else { throw unexpected("the basis \"\(text)\"") }
        return basis
    }

    static func period(_ start: String, _ end: String) throws -> PayPeriod {
        let first = try day(start), last = try day(end)
        guard first <= last else { throw unexpected("the period \(start)…\(end)") }
        return PayPeriod(start: first, end: last)
    }

    // MARK: Book

    static func settings(_ s: Components.Schemas.Settings) throws -> BookSettings {
        let currency: Currency
        do { currency = try Currency(code: s.currency) } catch { throw unexpected("the currency \"\(s.currency)\"") }
        guard let rule = RoundingRule(rawValue: s.rounding.rawValue),
            let scope = RoundingScope(rawValue: s.roundingScope.rawValue)
        else {
            throw unexpected("the rounding \(s.rounding.rawValue), \(s.roundingScope.rawValue)")
        }
        return BookSettings(
            currency: currency,
            timeZoneIdentifier: s.timeZone,
            rounding: RoundingPolicy(rule: rule, scope: scope),
            localeIdentifier: s.locale
        )
    }

    static func clinic(_ c: Components.Schemas.Clinic) throws -> Clinic {
        Clinic(
            id: Clinic.ID(Int64(c.id)),
            name: c.name,
            schedule: try schedule(c.schedule),
            scheduleChanges: try c.scheduleChanges.map {
                ScheduleChange(effectiveFrom: try day($0.effectiveFrom), schedule: try schedule($0.schedule))
            },
            isArchived: c.archived
        )
    }

    static func clinicInput(_ draft: ClinicDraft) -> Components.Schemas.ClinicInput {
        .init(name: draft.name, schedule: draft.schedule.description)
    }

    static func productInput(_ draft: ProductDraft, currency: Currency) -> Components.Schemas.ProductInput {
        .init(
            name: draft.name,
            sku: draft.sku,
            unitPrice: currency.format(draft.unitPrice),
            unitCost: currency.format(draft.unitCost)
        )
    }

    static func product(_ p: Components.Schemas.Product, currency: Currency) throws -> Product {
        Product(
            id: Product.ID(Int64(p.id)),
            name: p.name,
            sku: p.sku,
            unitPrice: try money(p.unitPrice, currency),
            unitCost: try money(p.unitCost, currency),
            isArchived: p.archived
        )
    }

    static func tiers(_ texts: [String], currency: Currency) throws -> [Tier] {
        try texts.map { text in
            do { return try Tier(parsing: text, currency: currency) } catch { throw unexpected("the tier \"\(text)\"") }
        }
    }

    static func terms(_ t: Components.Schemas.Terms, currency: Currency) throws -> Terms {
        Terms(
            id: Terms.ID(Int64(t.id)),
            clinicID: Clinic.ID(Int64(t.clinicId)),
            productID: t.productId.map { Product.ID(Int64($0)) },
            basis: try basis(t.basis.rawValue),
            share: try share(t.share),
            tiers: try tiers(t.tiers, currency: currency),
            effectiveFrom: try day(t.effectiveFrom),
            isArchived: t.archived
        )
    }

    static func termsChange(_ c: Components.Schemas.TermsChange, currency: Currency) throws -> TermsChange {
        TermsChange(
            terms: try terms(c.terms, currency: currency),
            recomputedSales: c.recomputedSales,
            salesInClosedPeriods: c.salesInClosedPeriods
        )
    }

    static func termsInput(_ draft: TermsDraft, currency: Currency) -> Components.Schemas.TermsInput {
        .init(
            clinicId: draft.clinicID.rawValue,
            productId: draft.productID.map { $0.rawValue },
            basis: .init(rawValue: draft.basis.rawValue),
            share: draft.share.percentText,
            effectiveFrom: draft.effectiveFrom.description,
            tiers: draft.tiers.map { $0.text(currency) }
        )
    }

    static func price(_ p: Components.Schemas.Price, currency: Currency) throws -> PriceListEntry {
        PriceListEntry(
            id: PriceListEntry.ID(Int64(p.id)),
            clinicID: Clinic.ID(Int64(p.clinicId)),
            productID: Product.ID(Int64(p.productId)),
            unitPrice: try money(p.unitPrice, currency),
            unitCost: try p.unitCost.map { try money($0, currency) },
            effectiveFrom: try day(p.effectiveFrom)
        )
    }

    static func priceInput(_ draft: PriceDraft, currency: Currency) -> Components.Schemas.PriceInput {
        .init(
            clinicId: draft.clinicID.rawValue,
            productId: draft.productID.rawValue,
            unitPrice: currency.format(draft.unitPrice),
            unitCost: draft.unitCost.map(currency.format),
            effectiveFrom: draft.effectiveFrom.description
        )
    }

    /// A deduction's amount as the API writes it: `amount` for a fixed one, `share` for a share of revenue.
    static func amount(_ amount: DeductionAmount, currency: Currency) -> (amount: String?, share: String?) {
        switch amount {
        case .fixed(let money): (currency.format(money), nil)
        case .shareOfRevenue(let share): (nil, share.percentText)
        }
    }

    static func deduction(_ d: Components.Schemas.Deduction, currency: Currency) throws -> Deduction {
        let amount: DeductionAmount
        switch (d.amount, d.share) {
        case (let fixed?, nil): amount = .fixed(try money(fixed, currency))
        case (nil, let part?): amount = .shareOfRevenue(try share(part))
        default: throw unexpected("a deduction with both or neither of an amount and a share")
        }
        return Deduction(
            id: Deduction.ID(Int64(d.id)),
            clinicID: Clinic.ID(Int64(d.clinicId)),
            name: d.name,
            amount: amount,
            effectiveFrom: try day(d.effectiveFrom),
            lastDay: try d.lastDay.map(day)
        )
    }

    static func deductionInput(_ deduction: Deduction, currency: Currency) -> Components.Schemas.DeductionInput {
        let (amount, share) = amount(deduction.amount, currency: currency)
        return .init(
            clinicId: deduction.clinicID.rawValue,
            name: deduction.name,
            amount: amount,
            share: share,
            effectiveFrom: deduction.effectiveFrom.description,
            lastDay: deduction.lastDay?.description
        )
    }

    // MARK: Sales

    static func saleInput(_ draft: SaleDraft, currency: Currency) -> Components.Schemas.SaleInput {
        .init(
            clinicId: draft.clinicID.rawValue,
            productId: draft.productID.rawValue,
            date: draft.date.description,
            quantity: draft.quantity,
            unitPrice: draft.unitPrice.map(currency.format),
            unitCost: draft.unitCost.map(currency.format),
            discount: currency.format(draft.discount),
            noCommission: draft.noCommission,
            note: draft.note
        )
    }

    /// A sale line's figures: the server's amounts, and the exact commission computed again from
    /// the line (what per-statement rounding adds up).
    static func figures(
        _ line: SaleLine,
        revenue: String,
        cost: String,
        profit: String,
        commission: String,
        settings: BookSettings
    ) throws -> SaleFigures {
        let currency = settings.currency
        let exact: ExactCommission
        do { exact = try line.figures(rounding: settings.rounding.rule).exactCommission } catch {
            throw unexpected("a sale line: \(error)")
        }
        return SaleFigures(
            revenue: try money(revenue, currency),
            cost: try money(cost, currency),
            profit: try money(profit, currency),
            exactCommission: exact,
            commission: try money(commission, currency)
        )
    }

    static func rate(share text: String?, basis name: String?) throws -> CommissionRate? {
        guard let text else { return nil }
        return CommissionRate(share: try share(text), basis: try basis(name))
    }

    static func sale(_ s: Components.Schemas.Sale, settings: BookSettings) throws -> Sale {
        let currency = settings.currency
        let line = SaleLine(
            quantity: s.quantity,
            unitPrice: try money(s.unitPrice, currency),
            unitCost: try money(s.unitCost, currency),
            discount: try money(s.discount, currency),
            rate: try rate(share: s.share, basis: s.basis?.rawValue)
        )
        return Sale(
            id: Sale.ID(Int64(s.id)),
            clinicID: Clinic.ID(Int64(s.clinicId)),
            productID: Product.ID(Int64(s.productId)),
            date: try day(s.date),
            line: line,
            termsID: s.termsId.map { Terms.ID($0) },
            figures: try figures(
                line,
                revenue: s.revenue,
                cost: s.cost,
                profit: s.profit,
                commission: s.commission,
                settings: settings
            ),
            note: s.note,
            isVoided: s.voided
        )
    }

    /// A row read for an import, as `POST /api/v1/import/rows` takes it (clinics and products by name).
    static func importRow(_ row: ImportRow, currency: Currency) -> Components.Schemas.ImportRowInput {
        var input = Components.Schemas.ImportRowInput(line: row.line, file: row.file?.name, fileIndex: row.file?.index)
        switch row.record {
        case .clinic(let draft): input.clinic = clinicInput(draft)
        case .product(let draft): input.product = productInput(draft, currency: currency)
        case .terms(let draft):
            input.terms = .init(
                clinic: draft.clinic,
                product: draft.product,
                basis: .init(rawValue: draft.basis.rawValue),
                share: draft.share.percentText,
                effectiveFrom: draft.effectiveFrom.description,
                tiers: draft.tiers.map { $0.text(currency) }
            )
        case .sale(let draft):
            input.sale = .init(
                clinic: draft.clinic,
                product: draft.product,
                date: draft.date.description,
                quantity: draft.quantity,
                unitPrice: draft.unitPrice.map(currency.format),
                unitCost: draft.unitCost.map(currency.format),
                discount: currency.format(draft.discount),
                noCommission: draft.noCommission,
                note: draft.note
            )
        case .price(let draft):
            input.price = .init(
                clinic: draft.clinic,
                product: draft.product,
                unitPrice: currency.format(draft.unitPrice),
                unitCost: draft.unitCost.map(currency.format),
                effectiveFrom: draft.effectiveFrom.description
            )
        case .scheduleChange(let change):
            input.scheduleChange = .init(
                clinic: change.clinic,
                schedule: change.schedule.description,
                effectiveFrom: change.effectiveFrom.description
            )
        case .deduction(let draft):
            let (amount, share) = amount(draft.amount, currency: currency)
            input.deduction = .init(
                clinic: draft.clinic,
                name: draft.name,
                amount: amount,
                share: share,
                effectiveFrom: draft.effectiveFrom.description,
                lastDay: draft.lastDay?.description
            )
        }
        return input
    }

    // MARK: Payouts

    static func payout(_ p: Components.Schemas.Payout, currency: Currency) throws -> Payout {
        Payout(
            id: Payout.ID(Int64(p.id)),
            clinicID: Clinic.ID(Int64(p.clinicId)),
            period: try period(p.periodStart, p.periodEnd),
            amount: try money(p.amount, currency),
            receivedOn: try day(p.receivedOn),
            reference: p.reference
        )
    }

    static func payoutInput(_ draft: PayoutDraft, currency: Currency) -> Components.Schemas.PayoutInput {
        .init(
            clinicId: draft.clinicID.rawValue,
            period: draft.period.start.description,
            amount: currency.format(draft.amount),
            receivedOn: draft.receivedOn.description,
            reference: draft.reference,
            periodEnd: draft.period.end.description
        )
    }

    // MARK: Reports

    static func totals(_ t: Components.Schemas.Totals, currency: Currency) throws -> Totals {
        Totals(
            saleCount: t.sales,
            quantity: t.quantity,
            revenue: try money(t.revenue, currency),
            cost: try money(t.cost, currency),
            profit: try money(t.profit, currency),
            commission: try money(t.commission, currency)
        )
    }

    static func dashboard(
        _ d: Components.Schemas.Dashboard,
        currency: Currency,
        clinics: [Clinic.ID: Clinic],
        products: [Product.ID: Product]
    ) throws -> Dashboard {
        Dashboard(
            today: try day(d.today),
            currency: currency,
            todayTotals: try totals(d.todayTotals, currency: currency),
            monthTotals: try totals(d.month, currency: currency),
            yearTotals: try totals(d.yearToDate, currency: currency),
            clinics: try d.clinics.map { c in
                guard let clinic = clinics[Clinic.ID(Int64(c.id))] else {
                    throw unexpected("the dashboard's clinic \(c.id)")
                }
                return ClinicStanding(
                    clinic: clinic,
                    period: try period(c.periodStart, c.periodEnd),
                    periodTotals: try totals(c.period, currency: currency),
                    periodPayable: try money(c.expected, currency),
                    periodReceived: try money(c.received, currency),
                    periodBalance: try money(c.balance, currency),
                    monthTotals: try totals(c.month, currency: currency),
                    yearTotals: try totals(c.yearToDate, currency: currency),
                    arrears: Arrears(
                        owed: try money(c.owed, currency),
                        overdue: try money(c.overdue, currency),
                        dueAfterDays: c.dueAfterDays
                    )
                )
            },
            products: try d.products.map { p in
                guard let product = products[Product.ID(Int64(p.id))] else {
                    throw unexpected("the dashboard's product \(p.id)")
                }
                return ProductStanding(
                    product: product,
                    monthTotals: try totals(p.month, currency: currency),
                    yearTotals: try totals(p.yearToDate, currency: currency)
                )
            }
        )
    }

    /// A statement built again from its lines with the core's own arithmetic (so that its exact
    /// commission and accelerators are the local store's), checked against the server's totals.
    static func statement(
        _ s: Components.Schemas.Statement,
        clinic: Clinic,
        period: PayPeriod,
        settings: BookSettings,
        terms: [Terms],
        deductions: [Deduction]
    ) throws -> Statement {
        let currency = settings.currency
        let lines = try s.lines.map { l in
            let line = SaleLine(
                quantity: Int64(l.quantity),
                unitPrice: try money(l.unitPrice, currency),
                unitCost: try money(l.unitCost, currency),
                discount: try money(l.discount, currency),
                rate: try rate(share: l.share, basis: l.basis)
            )
            let sale = Sale(
                id: Sale.ID(Int64(l.saleId)),
                clinicID: clinic.id,
                productID: Product.ID(l.productId),
                date: try day(l.date),
                line: line,
                termsID: l.termsId.map { Terms.ID($0) },
                figures: try figures(
                    line,
                    revenue: l.revenue,
                    cost: l.cost,
                    profit: l.profit,
                    commission: l.commission,
                    settings: settings
                ),
                note: l.note
            )
            return StatementLine(sale: sale, productName: l.product)
        }
        let payouts = try s.payouts.map { p in
            Payout(
                id: Payout.ID(Int64(p.id)),
                clinicID: clinic.id,
                period: period,
                amount: try money(p.amount, currency),
                receivedOn: try day(p.receivedOn),
                reference: p.reference
            )
        }
        let statement: Statement
        do {
            statement = try Statement(
                clinic: clinic,
                period: period,
                lines: lines,
                payouts: payouts,
                rounding: settings.rounding,
                isClosed: s.closed,
                terms: terms,
                deductions: deductions
            )
        } catch { throw unexpected("the statement's figures: \(error)") }
        guard statement.netPayable == (try money(s.netPayable, currency)),
            statement.balance == (try money(s.balance, currency))
        else {
            throw unexpected("the statement's totals differ from the server's (\(s.netPayable), \(s.balance))")
        }
        return statement
    }

    static func reconciliation(
        _ r: Components.Schemas.Reconciliation,
        clinic: Clinic,
        currency: Currency,
        today: Day
    ) throws -> Reconciliation {
        var reconciliation: Reconciliation
        do { reconciliation = try Reconciliation(clinic: clinic, entries: [], today: today) } catch {
            throw unexpected("\(error)")
        }
        reconciliation.periods = try r.periods.map { p in
            guard let status = ReconciliationStatus(rawValue: p.status.rawValue) else {
                throw unexpected("the status \(p.status.rawValue)")
            }
            return PeriodReconciliation(
                period: try period(p.periodStart, p.periodEnd),
                expected: try money(p.expected, currency),
                received: try money(p.received, currency),
                difference: try money(p.difference, currency),
                balance: try money(p.balance, currency),
                status: status,
                isClosed: p.closed
            )
        }
        reconciliation.balance = try money(r.balance, currency)
        return reconciliation
    }

    static func audit(_ a: Components.Schemas.AuditEntry) throws -> AuditEntry {
        guard let subject = AuditSubject(rawValue: a.subject.rawValue) else {
            throw unexpected("the audit subject \(a.subject.rawValue)")
        }
        return AuditEntry(
            id: AuditEntry.ID(Int64(a.id)),
            at: a.at,
            actor: a.actor,
            subject: subject,
            subjectID: a.subjectId,
            lastSubjectID: a.lastSubjectId,
            action: a.action,
            before: a.before,
            after: a.after
        )
    }
}
