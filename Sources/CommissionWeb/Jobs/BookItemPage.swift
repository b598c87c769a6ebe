import CommissionCore
import CommissionKit
import CommissionStore
import Hummingbird

extension BookJob {
    /// The page of one clinic, product or set of terms (`book-item.mustache`). A clinic's leads with
    /// what it owes her and her split there; its name and schedule fold away, as do its Add forms.
    /// Archiving is a deliberate step on every kind: it is unfolded and confirmed.
    ///
    /// - Parameters:
    ///   - open: the clinic's form to show open (`deductions`, `prices`): the one a refusal came from.
    ///     A refusal without one is the page's own form's, which then shows open.
    ///   - said: what a form of the clinic's page just did, for its section (`deductions`, `prices`).
    ///   - typed: the refused form (`open`'s, else the page's own) as she sent it: drawn again as
    ///     she typed it, the field `refusal` is about marked.
    func itemPage(
        _ item: Item,
        context: AppRequestContext,
        error: String? = nil,
        errorLink: PageLink? = nil,
        status: HTTPResponse.Status = .ok,
        open: String? = nil,
        said: (section: String, text: String)? = nil,
        typed: Form? = nil,
        refusal: Problem? = nil
    ) async throws -> Response {
        let settings = try await app.store.settings()
        let style = settings.style
        let today = settings.today()
        let csrf = context.csrfToken ?? ""
        // The refused form's fields as she typed them, the field its refusal is about marked.
        func kept(_ form: String?) -> Form? { open == form ? typed : nil }
        func marks(_ form: String?, renaming renamed: [String: String] = [:]) -> FieldMarks {
            FieldMarks(open == form ? refusal?.field(renaming: renamed) : nil)
        }
        func field(_ form: Form?, _ name: String, _ stored: String) -> String {
            form.map { $0.values[name] ?? "" } ?? stored
        }
        let own = kept(nil)
        var view = BookItemView(
            heading: "",
            archived: item.isArchived,
            action: "",
            kindName: "",
            editOpen: error != nil && open == nil,
            earliest: AcceptedDays.earliest.description,
            latest: AcceptedDays(today: today).latest.description,
            csrf: csrf
        )
        switch item {
        case .clinic(let clinic):
            let action = "/book/clinics/\(clinic.id)"
            (view.heading, view.action, view.kindName) = (clinic.name, action, "this clinic")
            // The picker shows the schedule in force today; a day in "from" makes it a change from that day.
            let current = clinic.calendar.schedule(on: today)
            var weekday: Weekday = .monday, anchor = today
            if case .weekly(let day) = current { weekday = day }
            if case .biweekly(let day) = current { anchor = day }
            if let own { weekday = own["weekday"].flatMap(PageChoice.weekday(named:)) ?? weekday }
            let names = try await Presenter.Names(store: app.store)
            let terms = try await app.store.terms(TermsQuery(clinicID: clinic.id))
            view.clinic = .init(
                name: field(own, "name", clinic.name),
                scheduleNow: Self.describe(current, style: style),
                kind: own?["scheduleKind"] ?? current.kind,
                anchor: field(own, "anchor", anchor.description),
                scheduleFrom: field(own, "scheduleFrom", ""),
                // A change's first day, as the store names it.
                invalid: marks(nil, renaming: ["from": "scheduleFrom"]),
                weekdays: PageChoice.weekdays(selected: weekday),
                first: Self.describe(clinic.schedule, style: style),
                changes: clinic.scheduleChanges.map {
                    .init(
                        iso: $0.effectiveFrom.description,
                        from: style.format($0.effectiveFrom),
                        schedule: Self.describe($0.schedule, style: style)
                    )
                }
            )
            let dashboard = try await app.store.dashboard(today: today)
            if let standing = dashboard.clinics.first(where: { $0.clinic.id == clinic.id }) {
                let history = try await UnconfirmedHistory.asked(of: app.store, dashboard: dashboard)
                view.standing = .of(standing, clinic: clinic.id, style: style, history: history)
                // Late: a note to the clinic about every period overdue, in one tap.
                if standing.arrears.overdue.isPositive {
                    let periods = ClinicPeriods(
                        clinic: clinic,
                        reconciliation: try await app.store.reconciliation(clinic: clinic.id, today: today),
                        dueAfterDays: standing.arrears.dueAfterDays,
                        history: history
                    )
                    view.standing?.remind = ReminderNote(
                        to: clinic,
                        overdue: periods.overdue(today: today),
                        dueAfterDays: periods.dueAfterDays,
                        style: style
                    )
                }
            }
            // Her split here, in words: each set of the clinic's terms with its page, the clinic's own first; in each
            // scope (the clinic's, a product's) the set in force today first, then one to come, then those it replaced.
            view.split = .init(
                clinicID: clinic.id.rawValue,
                terms: terms.map { (terms: $0, standing: Chip.of($0, among: terms, today: today)) }.sorted {
                    ($0.terms.productID == nil ? 0 : 1, $0.standing.rank, $1.terms.effectiveFrom) < (
                        $1.terms.productID == nil ? 0 : 1, $1.standing.rank, $0.terms.effectiveFrom
                    )
                }.map { terms, standing in
                    .init(
                        href: "/book/terms/\(terms.id)",
                        text: (terms.productID.flatMap { names.products[$0] }.map { "\($0) only: " } ?? "")
                            + Self.split(terms, style: style),
                        from: Self.from(terms, style: style),
                        chip: standing.chip
                    )
                }
            )
            let deductions = try await app.store.deductions(clinic: clinic.id)
            let deduction = kept("deductions")
            view.deductions = .init(
                clinicName: clinic.name,
                today: today.description,
                open: open == "deductions",
                fields: .init(
                    name: field(deduction, "name", ""),
                    revenueShare: deduction?["kind"] == "revenue-share",
                    value: field(deduction, "value", ""),
                    from: field(deduction, "from", today.description),
                    until: field(deduction, "until", ""),
                    // The store's name for the amount or share she gave.
                    invalid: marks("deductions", renaming: ["amount": "value", "share": "value"])
                ),
                said: said?.section == "deductions" ? said?.text : nil,
                entries: deductions.map {
                    .init(
                        id: $0.id.rawValue,
                        name: $0.name,
                        amount: $0.amount.text { style.format($0) },
                        from: style.format($0.effectiveFrom),
                        until: $0.lastDay.map { style.format($0) }
                    )
                }
            )
            let products = try await app.store.products(ProductQuery())
            let price = kept("prices")
            let pricedProduct = price?["product"].flatMap(Int64.init)
            view.prices = .init(
                clinicName: clinic.name,
                today: today.description,
                open: open == "prices",
                fields: .init(
                    price: field(price, "price", ""),
                    cost: field(price, "cost", ""),
                    from: field(price, "from", today.description),
                    invalid: marks("prices")
                ),
                said: said?.section == "prices" ? said?.text : nil,
                entries: try await app.store.prices(PriceQuery(clinicID: clinic.id)).map {
                    .init(
                        id: $0.id.rawValue,
                        product: names.products[$0.productID] ?? "",
                        from: style.format($0.effectiveFrom),
                        price: style.format($0.unitPrice),
                        cost: $0.unitCost.map { style.format($0) } ?? "the product's"
                    )
                },
                products: products.map {
                    .init(
                        id: $0.id.rawValue,
                        name: $0.name,
                        price: style.format($0.unitPrice),
                        selected: $0.id.rawValue == pricedProduct
                    )
                }
            )
        case .product(let product):
            (view.heading, view.action, view.kindName) = (product.name, "/book/products/\(product.id)", "this product")
            view.product = .init(
                name: field(own, "name", product.name),
                sku: field(own, "sku", product.sku ?? ""),
                price: field(own, "price", style.formatInput(product.unitPrice)),
                cost: field(own, "cost", style.formatInput(product.unitCost)),
                invalid: marks(nil)
            )
        case .terms(let terms):
            let names = try await Presenter.Names(store: app.store)
            let clinic = names.clinics[terms.clinicID] ?? "a clinic"
            (view.heading, view.action, view.kindName) = (
                "Terms of \(clinic)", "/book/terms/\(terms.id)", "these terms"
            )
            view.back = PageLink(label: clinic, href: "/book/clinics/\(terms.clinicID)#split")
            let basis = own.map { $0["basis"] == "revenue" ? CommissionBasis.revenue : .profit } ?? terms.basis
            view.terms = .init(
                clinic: clinic,
                product: terms.productID.flatMap { names.products[$0] },
                share: field(own, "share", terms.share.shortPercentText),
                profit: basis == .profit,
                revenue: basis == .revenue,
                from: field(own, "from", terms.effectiveFrom.description),
                tierRows: own.map { TierRow.rows(typed: $0, field: refusal?.field, style: style) }
                    ?? TierRow.rows(terms.tiers, style: style),
                invalid: marks(nil)
            )
        }
        return try await app.page(
            "book-item",
            view: view,
            title: view.heading,
            nav: "book",
            context: context,
            status: status,
            error: error,
            errorLink: errorLink
        )
    }

    /// Her share under a set of terms, in words: "40% of profit", "30% of profit, 35% beyond $1,000.00".
    static func split(_ terms: Terms, style: LocaleStyle) -> String { SplitText.split(terms, amount: style.format) }

    /// "from 01.10.2026", or "from the start" for terms that count from the start of her records
    /// (her first clinic's, made at set-up), never the book's earliest day as a date.
    static func from(_ terms: Terms, style: LocaleStyle) -> String {
        terms.effectiveFrom == AcceptedDays.earliest ? "from the start" : "from \(style.format(terms.effectiveFrom))"
    }
}

/// What the page of a clinic, product or set of terms shows (`book-item.mustache`): one of
/// `clinic`, `product` and `terms` is set, and with a clinic its standing, split, deductions and prices.
package struct BookItemView: PageView {
    /// What the clinic owes her now, in a sentence and a figure, with its statement and payouts.
    package struct Standing: Sendable, TemplateValues {
        /// "Owes you", "Paid you beyond what it owes", "Owes you nothing".
        let label: String
        let amount: String
        let credit: Bool
        /// What it owes in parts that add up: overdue, due, this period.
        let parts: [ChipFigure]
        let statement: String
        let payouts: String
        /// Overdue: a note to the clinic about every period late, her share sheet or her mail app.
        var remind: ReminderNote?

        package init(
            label: String,
            amount: String,
            credit: Bool,
            parts: [ChipFigure],
            statement: String,
            payouts: String,
            remind: ReminderNote? = nil
        ) {
            (self.label, self.amount, self.credit, self.parts, self.statement, self.payouts) = (
                label, amount, credit, parts, statement, payouts
            )
            self.remind = remind
        }

        static func of(
            _ standing: ClinicStanding,
            clinic: Clinic.ID,
            style: LocaleStyle,
            history: UnconfirmedHistory? = nil
        ) -> Standing {
            let owed = standing.arrears.owed
            let label = owed.isZero ? "Owes you nothing" : owed.isNegative ? "Paid you beyond what it owes" : "Owes you"
            return Standing(
                label: label,
                amount: style.format(owed.magnitudeOrSelf),
                credit: owed.isNegative,
                parts: owed.isZero ? [] : standing.owedParts(style: style, history: history),
                statement: "/statements?clinic=\(clinic)",
                payouts: "/payouts#clinic-\(clinic)"
            )
        }
    }

    package struct ScheduleChangeRow: Sendable, TemplateValues {
        let iso: String
        let from: String
        let schedule: String
        package init(iso: String, from: String, schedule: String) {
            (self.iso, self.from, self.schedule) = (iso, from, schedule)
        }
    }

    /// A clinic's name and pay schedule, and the schedule's changes.
    package struct ClinicPart: Sendable, TemplateValues {
        let name: String
        /// The schedule in force today, in words: what the folded form says it holds.
        let scheduleNow: String
        let monthly: Bool, semimonthly: Bool, weekly: Bool, biweekly: Bool
        let anchor: String
        /// The day a change of schedule starts: empty, or as she typed it.
        let scheduleFrom: String
        /// The field of the form a refusal is about.
        let invalid: FieldMarks
        let weekdays: [PageChoice]
        /// The schedule it had from the start, in words.
        let first: String
        let changes: [ScheduleChangeRow]
        let hasChanges: Bool

        /// The form's fields (`name`, `kind`, `anchor`, `scheduleFrom`, `weekdays`) are the clinic's, or
        /// what she typed when the form comes back to her.
        package init(
            name: String,
            scheduleNow: String,
            kind: String,
            anchor: String,
            scheduleFrom: String = "",
            invalid: FieldMarks = FieldMarks(),
            weekdays: [PageChoice],
            first: String,
            changes: [ScheduleChangeRow]
        ) {
            (self.name, self.scheduleNow, self.anchor, self.weekdays, self.first, self.changes, self.hasChanges) =
                (name, scheduleNow, anchor, weekdays, first, changes, !changes.isEmpty)
            (self.scheduleFrom, self.invalid) = (scheduleFrom, invalid)
            (monthly, semimonthly, weekly, biweekly) = (
                kind == "monthly", kind == "semimonthly", kind == "weekly", kind == "biweekly"
            )
        }
    }

    package struct SplitRow: Sendable, TemplateValues {
        let href: String
        let text: String
        /// "from 11/27/2025", "from the start".
        let from: String
        /// In force, upcoming, or ended (replaced by a later set).
        let chip: Chip
        package init(href: String, text: String, from: String, chip: Chip = .inForce) {
            (self.href, self.text, self.from, self.chip) = (href, text, from, chip)
        }
    }

    /// Her split at a clinic: each of its sets of terms, a row each; those later sets replaced folded apart.
    package struct Split: Sendable, TemplateValues {
        let clinicID: Int64
        /// In force, and to come.
        let terms: [SplitRow]
        let hasTerms: Bool
        /// Ended: replaced by a later set.
        let past: [SplitRow]
        let hasPast: Bool, pastCount: Int
        package init(clinicID: Int64, terms: [SplitRow]) {
            self.clinicID = clinicID
            self.terms = terms.filter { $0.chip != .ended }
            past = terms.filter { $0.chip == .ended }
            (hasTerms, hasPast, pastCount) = (!terms.isEmpty, !past.isEmpty, past.count)
        }
    }

    package struct DeductionRow: Sendable, TemplateValues {
        let id: Int64
        let name: String
        let amount: String
        let from: String
        let until: String?
        package init(id: Int64, name: String, amount: String, from: String, until: String?) {
            (self.id, self.name, self.amount, self.from, self.until) = (id, name, amount, from, until)
        }
    }

    /// The Add a deduction form's fields: as it starts, or as she typed them when it comes back
    /// to her refused (the refusal's field marked).
    package struct DeductionFields: Sendable, TemplateValues {
        let name: String
        /// A share of the period's revenue, rather than a fixed amount.
        let revenueShare: Bool
        let value: String, from: String, until: String
        let invalid: FieldMarks
        package init(
            name: String = "",
            revenueShare: Bool = false,
            value: String = "",
            from: String,
            until: String = "",
            invalid: FieldMarks = FieldMarks()
        ) {
            (self.name, self.revenueShare, self.value, self.from, self.until, self.invalid) = (
                name, revenueShare, value, from, until, invalid
            )
        }
    }

    package struct Deductions: Sendable, TemplateValues {
        let clinicName: String
        let today: String
        let open: Bool
        let fields: DeductionFields
        let said: String?
        let entries: [DeductionRow]
        let hasEntries: Bool
        package init(
            clinicName: String,
            today: String,
            open: Bool,
            fields: DeductionFields? = nil,
            said: String?,
            entries: [DeductionRow]
        ) {
            (self.clinicName, self.today, self.open, self.said, self.entries, self.hasEntries) = (
                clinicName, today, open, said, entries, !entries.isEmpty
            )
            self.fields = fields ?? DeductionFields(from: today)
        }
    }

    package struct PriceRow: Sendable, TemplateValues {
        let id: Int64
        let product: String
        let from: String
        let price: String
        let cost: String
        package init(id: Int64, product: String, from: String, price: String, cost: String) {
            (self.id, self.product, self.from, self.price, self.cost) = (id, product, from, price, cost)
        }
    }

    package struct ProductChoice: Sendable, TemplateValues {
        let id: Int64
        let name: String
        let price: String
        /// The one she chose, when the form comes back to her.
        let selected: Bool
        package init(id: Int64, name: String, price: String, selected: Bool = false) {
            (self.id, self.name, self.price, self.selected) = (id, name, price, selected)
        }
    }

    /// The Set a price form's fields (its product is `products`' choice), as ``DeductionFields``.
    package struct PriceFields: Sendable, TemplateValues {
        let price: String, cost: String, from: String
        let invalid: FieldMarks
        package init(price: String = "", cost: String = "", from: String, invalid: FieldMarks = FieldMarks()) {
            (self.price, self.cost, self.from, self.invalid) = (price, cost, from, invalid)
        }
    }

    package struct Prices: Sendable, TemplateValues {
        let clinicName: String
        let today: String
        let open: Bool
        let fields: PriceFields
        let said: String?
        let entries: [PriceRow]
        let hasEntries: Bool
        let products: [ProductChoice]
        package init(
            clinicName: String,
            today: String,
            open: Bool,
            fields: PriceFields? = nil,
            said: String?,
            entries: [PriceRow],
            products: [ProductChoice]
        ) {
            (self.clinicName, self.today, self.open, self.said, self.entries, self.hasEntries, self.products) =
                (clinicName, today, open, said, entries, !entries.isEmpty, products)
            self.fields = fields ?? PriceFields(from: today)
        }
    }

    /// A product's fields: its own, or what she typed when the form comes back to her.
    package struct ProductPart: Sendable, TemplateValues {
        let name: String
        let sku: String
        let price: String
        let cost: String
        let invalid: FieldMarks
        package init(name: String, sku: String, price: String, cost: String, invalid: FieldMarks = FieldMarks()) {
            (self.name, self.sku, self.price, self.cost, self.invalid) = (name, sku, price, cost, invalid)
        }
    }

    /// A set of terms' fields (`share`, the basis, `from`, `tierRows`): theirs, or what she typed
    /// when the form comes back to her.
    package struct TermsPart: Sendable, TemplateValues {
        let clinic: String
        /// The product they are for alone, if any.
        let product: String?
        let share: String
        let profit: Bool
        let revenue: Bool
        let from: String
        let tierRows: [TierRow]
        let invalid: FieldMarks
        package init(
            clinic: String,
            product: String?,
            share: String,
            profit: Bool,
            revenue: Bool,
            from: String,
            tierRows: [TierRow],
            invalid: FieldMarks = FieldMarks()
        ) {
            (self.clinic, self.product, self.share, self.profit, self.revenue, self.from, self.tierRows) = (
                clinic, product, share, profit, revenue, from, tierRows
            )
            self.invalid = invalid
        }
    }

    var heading: String
    /// Where the back link goes: a set of terms' clinic, else the book's lists.
    var back = PageLink(label: "Clinics, products & terms", href: "/book")
    let archived: Bool
    /// Where the page's forms post (`/book/clinics/1`).
    var action: String
    /// "this clinic", "this product", "these terms": what the Archive step names.
    var kindName: String
    /// The name-and-schedule form shows open: a refusal came from it.
    let editOpen: Bool
    var clinic: ClinicPart?
    var standing: Standing?
    var split: Split?
    var deductions: Deductions?
    var prices: Prices?
    var product: ProductPart?
    var terms: TermsPart?
    let earliest: String
    let latest: String
    let csrf: String

    package init(
        heading: String,
        archived: Bool,
        action: String,
        kindName: String,
        editOpen: Bool,
        clinic: ClinicPart? = nil,
        standing: Standing? = nil,
        split: Split? = nil,
        deductions: Deductions? = nil,
        prices: Prices? = nil,
        product: ProductPart? = nil,
        terms: TermsPart? = nil,
        earliest: String,
        latest: String,
        csrf: String
    ) {
        (self.heading, self.archived, self.action, self.kindName, self.editOpen) = (
            heading, archived, action, kindName, editOpen
        )
        (self.clinic, self.standing, self.split, self.deductions, self.prices, self.product, self.terms) = (
            clinic, standing, split, deductions, prices, product, terms
        )
        (self.earliest, self.latest, self.csrf) = (earliest, latest, csrf)
    }
}
