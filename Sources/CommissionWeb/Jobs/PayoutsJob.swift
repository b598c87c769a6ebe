import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Hummingbird

/// What clinics paid against what they owed: payouts, reconciliation, closing and reopening periods.
struct PayoutsJob: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {
        // `?clinic=ID&period=YYYY-MM-DD&amount=12.50`: the payout form prefilled (a period's Record payment).
        pages.get("/payouts") { request, context in
            let query = request.uri.queryParameters
            let prefill = PayoutPrefill(
                clinic: query["clinic"].flatMap { Int64(String($0)) }.map { Clinic.ID($0) },
                // try?: a day that is not one is no prefill; the form starts from its own.
                period: query["period"].flatMap { try? Day(parsing: String($0)) }?.description,
                amount: query["amount"].map(String.init)
            )
            return try await payoutsPage(context: context, prefill: prefill)
        }
        pages.post("/payouts") { request, context in try await recordPayout(request, context: context) }
        // A clinic's every period, newest first, a page at a time (`?page=2`).
        pages.get("/payouts/clinics/:id") { request, context in
            try await clinicPeriodsPage(request, context: context)
        }
        pages.post("/periods") { request, context in try await closeOrReopen(request, context: context) }
        pages.post("/payouts/bank") { request, context in try await bankStatement(request, context: context) }
        pages.post("/history") { request, context in try await answerHistory(request, context: context) }
    }

    func registerAPI<G>(on api: Registrar<G>) {
        // Of one clinic (`clinicId`), of one of its periods (with `periodStart` and `periodEnd`).
        api.get("/payouts") { request, _ in
            let presenter = try await app.presenter()
            let query = request.uri.queryParameters
            var period: PayPeriod?
            switch (query["periodStart"], query["periodEnd"]) {
            case (let start?, let end?):
                period = try app.span(
                    try app.day(String(start), field: "periodStart", default: .init(ordinal: 0)),
                    try app.day(String(end), field: "periodEnd", default: .init(ordinal: 0)),
                    "period"
                )
            case (nil, nil):
                break
            default:
                // One end alone (or an empty one) is no period: refused, never taken for "every period".
                throw Problem(
                    .badRequest,
                    "Give the period with both periodStart and periodEnd (YYYY-MM-DD), or neither for every period."
                )
            }
            return try app.json(
                try await app.store.payouts(
                    PayoutQuery(
                        clinicID: try QueryParameter.integer(request, "clinicId").map { Clinic.ID($0) },
                        period: period,
                        page: try QueryParameter.page(request)
                    )
                ).map(presenter.payout)
            )
        }
        api.post("/payouts") { request, context in try await createPayout(request, context: context) }
        api.post("/payouts/bank") { request, context in try await bankAPI(request, context: context) }
        api.get("/clinics/:id/reconciliation") { request, context in
            let settings = try await app.store.settings()
            let clinic = try await app.clinic(context)
            let today = try app.queryDay(request, "date", settings: settings) ?? settings.today()
            return try app.json(
                Presenter(currency: settings.currency).reconciliation(
                    try await app.store.reconciliation(clinic: clinic.id, today: today)
                )
            )
        }
        api.post("/clinics/:id/close") { request, context in
            try await closePeriod(request, context: context, close: true)
        }
        api.post("/clinics/:id/reopen") { request, context in
            try await closePeriod(request, context: context, close: false)
        }
    }

    /// `POST /history`: her answer to the question about her history — "paid" records a payout
    /// for every unpaid period of it that ended by `through` (one transaction) and closes the
    /// question; "later" closes it, and those periods are what the rules make them from then on.
    func answerHistory(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        let settings = try await app.store.settings()
        let today = settings.today()
        let back = form["back"] == "payouts" ? "payouts" : "dashboard"
        func page(message: String? = nil, error: String? = nil) async throws -> Response {
            back == "payouts"
                ? try await payoutsPage(context: context, error: error, message: message)
                : try await DashboardJob(app).dashboardPage(request, context: context, message: message ?? error)
        }
        guard let question = app.store as? any HistoryQuestionStore else {
            return try await page(error: "This book has no question about its history.")
        }
        guard form["action"] == "paid" else {
            try await question.setHistoryQuestion(nil)
            return try await page(
                message:
                    "As you say: record what each clinic paid when you find it. What is past its usual day now shows as Overdue."
            )
        }
        let dashboard = try await app.store.dashboard(today: today)
        guard let history = try await UnconfirmedHistory.asked(of: app.store, dashboard: dashboard) else {
            try await question.setHistoryQuestion(nil)
            return try await page(message: "Nothing from before you began is unpaid: there is nothing to mark.")
        }
        let through: Day
        do {
            through = min(try Day(parsing: form["through"] ?? ""), history.before.adding(days: -1))
        } catch {
            return try await page(error: "The last day to mark paid: \(error)")
        }
        let payouts = history.payouts(through: through, today: today)
        _ = try await app.store.createPayouts(payouts)
        // What is left of her history (periods after `through`) is hers to record.
        try await question.setHistoryQuestion(nil)
        let style = settings.style
        // try?: the payouts are kept by now; a total that does not fit is said so, never shown as 0.00
        let total = (try? payouts.reduce(Money.zero) { try $0.adding($1.amount) }).map { style.format($0) }
        // And what becomes of the rest, said: her later periods of history count as any other now.
        let later = history.periods.values.flatMap { $0 }.filter { $0.period.end > through && $0.difference.isPositive }
        // try?: a sum that does not fit is left unsaid; the count is still told
        let laterTotal = (try? later.reduce(Money.zero) { try $0.adding($1.difference) }).map {
            " (\(style.format($0)))"
        }
        let rest =
            later.isEmpty
            ? ""
            : " The \(later.count) later period\(later.count == 1 ? "" : "s") of your history\(laterTotal ?? "") now count\(later.count == 1 ? "s" : "") as usual: past its usual day, a period unpaid shows as Overdue; record what came on Payouts."
        return try await page(
            message:
                "Marked \(payouts.count) period\(payouts.count == 1 ? "" : "s") paid (\(total ?? "a total too large to work out"), “\(UnconfirmedHistory.reference)”), every one that ended by \(style.format(through)); each is dated \(Arrears.defaultDueAfterDays) days after its period ended (today at the latest), the time a clinic is given before it has paid anything, so that your history changes nothing of when Commission expects a payment."
                + rest
        )
    }

    // MARK: Pages

    /// A clinic's periods as Payouts lists them, newest first: each with its figures and chips,
    /// and its Record payment (a late clinic's Remind is on its card).
    /// `only`: those periods of it, in that order (every period, newest first, without).
    static func periodRows(
        _ periods: ClinicPeriods,
        only: [PeriodReconciliation]? = nil,
        today: Day,
        style: LocaleStyle
    ) -> [PayoutsPageView.Period] {
        let clinic = periods.clinic
        let notDue = Arrears.notDueFrom(clinic.calendar, today: today, dueAfterDays: periods.dueAfterDays)
        return (only ?? periods.reconciliation.periods.reversed()).map { p in
            return PayoutsPageView.Period(
                period: style.formatShort(p.period),
                expected: style.format(p.expected),
                received: style.format(p.received),
                difference: style.format(p.difference),
                chip: Chip.of(
                    p,
                    today: today,
                    notDue: notDue,
                    unconfirmed: periods.unconfirmed.contains(p.period)
                ),
                paid: !p.received.isZero && p.difference.isPositive
                    ? "\(style.format(p.received)) of \(style.format(p.expected)) paid" : nil,
                closed: p.isClosed,
                clinicID: clinic.id.rawValue,
                start: p.period.start.description,
                running: p.period.end >= today && p.difference.isPositive,
                // A payment for a period that has ended (the one running now is due once it ends).
                payLink: p.difference.isPositive && !p.isClosed && p.period.end < today
                    ? "/payouts?clinic=\(clinic.id)&period=\(p.period.start)&amount=\(style.formatInput(p.difference).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")#payout-form"
                    : nil,
                credit: p.difference.isNegative
            )
        }
    }

    /// A clinic's periods for the payment form, newest first: the running one and the twelve
    /// before it, and its oldest that still owe something (each saying what owes); `chosen` (a Record
    /// payment's prefill) selected, else its oldest ended period that owes. Each option's value is
    /// `clinic/start`.
    static func periodPicker(
        _ clinic: Clinic,
        reconciliation: Reconciliation,
        today: Day,
        chosen: (clinic: Clinic.ID, day: Day)?,
        style: LocaleStyle
    ) -> ComparePageView.Clinic {
        let owing = reconciliation.periods.filter { $0.difference.isPositive && !$0.isClosed }
        // The recent periods, and the oldest unpaid ones (a payment most often pays those): not
        // every unpaid period of years, which her Record payment on a row prefills anyway.
        var periods = Set(owing.prefix(Self.oldestOwingOffered).map(\.period))
        var period = clinic.calendar.period(containing: today)
        for _ in 0..<13 where period.start > AcceptedDays.earliest {
            periods.insert(period)
            period = clinic.calendar.period(containing: period.start.adding(days: -1))
        }
        let pick =
            chosen.flatMap { $0.clinic == clinic.id ? clinic.calendar.period(containing: $0.day) : nil }
            ?? (chosen == nil ? owing.first { $0.period.end < today }?.period : nil)
        if let pick { periods.insert(pick) }
        let owes = Dictionary(owing.map { ($0.period, $0.difference) }, uniquingKeysWith: { first, _ in first })
        return ComparePageView.Clinic(
            name: clinic.name,
            periods: periods.sorted { $0.start > $1.start }.map { period in
                PageChoice(
                    value: "\(clinic.id)/\(period.start)",
                    label: style.formatShort(period) + (period.end >= today ? " (running)" : "")
                        + (owes[period].map { " · owes \(style.format($0))" } ?? ""),
                    selected: period == pick
                )
            }
        )
    }

    /// What the payout form starts with: a clinic, a day of the period paid for, the amount (a
    /// period's Record payment); or, when the form comes back to her refused, every field as she
    /// typed it, the refusal's field marked.
    struct PayoutPrefill {
        var clinic: Clinic.ID?
        /// A day of the period paid for, as the form writes it (`2026-11-01`).
        var period: String?
        var amount: String?
        var received: String?
        var reference: String?
        /// The form was refused: it shows open, `field` marked.
        var refused = false
        var field: String?

        init(clinic: Clinic.ID? = nil, period: String? = nil, amount: String? = nil) {
            (self.clinic, self.period, self.amount) = (clinic, period, amount)
        }

        /// The form as she sent it, refused.
        init(typed form: Form, refusal: Problem) {
            // The picker's `clinic/start`, or a clinic and a day.
            let picked = (form.values["period"] ?? "").split(separator: "/", maxSplits: 1).map(String.init)
            clinic = (picked.count == 2 ? picked[0] : form["clinic"]).flatMap { Int64($0) }.map { Clinic.ID($0) }
            (period, amount) = (picked.last ?? "", form.values["amount"] ?? "")
            (received, reference) = (form.values["received"] ?? "", form.values["reference"] ?? "")
            refused = true
            // The store's names for the form's fields: a closed period's date, the reference's note.
            field = refusal.field(renaming: ["date": "period", "note": "reference"])
        }
    }

    func payoutsPage(
        context: AppRequestContext,
        bank: BankForm = BankForm(),
        prefill: PayoutPrefill = PayoutPrefill(),
        error: String? = nil,
        errorLink: PageLink? = nil,
        message: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let settings = try await app.store.settings()
        let style = settings.style
        let today = settings.today()
        let clinics = try await app.store.clinics(ClinicQuery())
        // Each clinic's standing (what it owes in parts, and its usual day of payment): the dashboard's figures.
        let dashboard = try await app.store.dashboard(today: today)
        let standings = Dictionary(
            dashboard.clinics.map { ($0.clinic.id, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        // Her history's unpaid periods, while she has not said whether they were paid.
        let history = try await UnconfirmedHistory.asked(of: app.store, dashboard: dashboard)
        var reconciliations: [PayoutsPageView.Clinic] = []
        // The payment form's picker: each clinic's periods, what each still owes beside it.
        var pickers: [ComparePageView.Clinic] = []
        // try?: a prefill's day that does not parse chooses nothing
        let chosenDay = prefill.period.flatMap { try? Day(parsing: $0) }
        let chosen = prefill.clinic.flatMap { clinic in chosenDay.map { (clinic: clinic, day: $0) } }
        let read = try await app.store.reconciliations(clinics: clinics.map(\.id), today: today)
        for (clinic, r) in zip(clinics, read) {
            pickers.append(Self.periodPicker(clinic, reconciliation: r, today: today, chosen: chosen, style: style))
            let periods = ClinicPeriods(
                clinic: clinic,
                reconciliation: r,
                dueAfterDays: standings[clinic.id]?.arrears.dueAfterDays ?? Arrears.defaultDueAfterDays,
                history: history
            )
            // What is open, newest first: money missing or too much, and the period running now — the
            // first few of it, each row drawn only when shown (a book of fifty clinics and five years
            // is thousands of periods; every one is on the clinic's own page of periods).
            let shown = r.periods.reversed().filter { $0.status.needsAttention || $0.status == .open }
            let open = Self.periodRows(periods, only: Array(shown.prefix(Self.openShown)), today: today, style: style)
            // One note to a late clinic, on its card, for every period it is late for — whether or
            // not those periods are among the rows shown (a weekly clinic's late weeks may not be).
            let remind = ReminderNote(
                to: clinic,
                overdue: periods.overdue(today: today),
                dueAfterDays: periods.dueAfterDays,
                style: style
            )
            reconciliations.append(
                .init(
                    id: clinic.id.rawValue,
                    clinic: clinic.name,
                    balance: style.format(r.balance.magnitudeOrSelf),
                    balanceLabel: r.balance.isNegative
                        ? "paid more than it owes" : r.balance.isZero ? "owes you nothing" : "owes you",
                    credit: r.balance.isNegative,
                    parts: r.balance.isZero
                        ? [] : standings[clinic.id]?.owedParts(style: style, history: history) ?? [],
                    open: open,
                    remind: remind,
                    periodCount: r.periods.count == 1
                        ? "Its one period"
                        : r.periods.count == 2 ? "Both periods" : "All \(r.periods.count) periods",
                    moreOpen: shown.count > Self.openShown
                        ? "\(shown.count - Self.openShown) more open period\(shown.count - Self.openShown == 1 ? "" : "s"): every period of \(clinic.name) ›"
                        : nil,
                    everyLink: "/payouts/clinics/\(clinic.id)"
                )
            )
        }
        let view = PayoutsPageView(
            question: HistoryQuestionView(history, settings: settings, back: "payouts", csrf: context.csrfToken ?? ""),
            reconciliations: reconciliations,
            clinics: clinics.map { .init(id: $0.id.rawValue, name: $0.name, selected: $0.id == prefill.clinic) },
            periodPickers: pickers,
            period: prefill.period ?? today.firstOfMonth.adding(days: -1).description,
            amount: prefill.amount ?? "",
            received: prefill.received ?? today.description,
            reference: prefill.reference ?? "",
            prefilled: prefill.clinic != nil || prefill.refused,
            invalid: FieldMarks(prefill.field),
            today: today.description,
            earliest: AcceptedDays.earliest.description,
            latest: AcceptedDays(today: today).latest.description,
            zero: style.formatInput(.zero),
            csrf: context.csrfToken ?? "",
            bank: bank.view(
                style: style,
                mappings: try await (app.store as? any ImportMappings)?.mappings().map(\.name) ?? [],
                pickers: pickers
            )
        )
        return try await app.page(
            "payouts",
            view: view,
            title: "Payouts",
            nav: "payouts",
            context: context,
            status: status,
            message: message,
            error: error,
            errorLink: errorLink
        )
    }

    func recordPayout(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        let settings = try await app.store.settings()
        return try await app.form {
            // The period as the picker gives it (`clinic/start`), or a clinic and a day of its period.
            let picked = (form["period"] ?? "").split(separator: "/", maxSplits: 1).map(String.init)
            guard let clinicID = (picked.count == 2 ? picked[0] : form["clinic"]).flatMap({ Int64($0) }) else {
                var problem = Problem(.unprocessableContent, "Choose the clinic and the period it paid for.")
                problem.field = "period"
                throw problem
            }
            let clinic = try await app.store.clinic(Clinic.ID(clinicID))
            let day = try Problem.about("period") { try Day(parsing: picked.last ?? "") }
            guard let amountText = form["amount"] else {
                var problem = Problem(.unprocessableContent, "Enter the amount received.")
                problem.field = "amount"
                throw problem
            }
            let payout = try await app.store.createPayout(
                PayoutDraft(
                    clinicID: clinic.id,
                    period: clinic.calendar.period(containing: day),
                    amount: try Problem.about("amount") { try settings.style.parse(amountText) },
                    receivedOn: try Problem.about("received") { try form["received"].map { try Day(parsing: $0) } }
                        ?? settings.today(),
                    reference: form["reference"]
                )
            )
            return try await payoutsPage(
                context: context,
                message:
                    "Recorded \(settings.style.format(payout.amount)) from \(clinic.name) for \(settings.style.format(payout.period))."
            )
        } refused: { refusal in
            try await payoutsPage(
                context: context,
                prefill: PayoutPrefill(typed: form, refusal: refusal),
                error: refusal.detail,
                errorLink: refusal.link,
                status: .init(code: refusal.status)
            )
        }
    }

    /// Her bank statement (`bank`, the CSV's text): `action=check` shows each deposit beside what it
    /// most likely pays, ticked when it fits exactly; `action=record` records the ticked ones
    /// (`accept<line>` holds each one's ``DepositProposal/key``) in one go, unless the book changed
    /// since they were shown.
    func bankStatement(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        let settings = try await app.store.settings()
        var bank = BankForm(
            text: form.values["bank"] ?? "",
            dates: form["dates"].flatMap(DateOrder.init(rawValue:)),
            decimalComma: form["decimalComma"] != nil,
            mapping: form["mapping"] ?? ""
        )
        for (name, value) in form.values where name.hasPrefix("assign") && !value.isEmpty {
            if let line = Int(name.dropFirst("assign".count)) { bank.assigned[line] = value }
        }
        let origin = CSVImportSource.Origin.data(Data(bank.text.utf8), name: "The statement")
        // The statement's columns beside the fields, for her to say which holds what.
        func columns() async throws -> ColumnMappingView {
            try await app.columnTable(
                origin,
                fields: ["date", "amount", "description"],
                required: ["date", "amount"],
                form: form,
                button: "Keep the mapping and match the deposits"
            )
        }
        return try await app.form {
            // Her mapping of the statement's columns, from the form that showed them: kept, then used.
            if form["action"] == "map" {
                bank.mapping = try await app.saveMapping(form, origin: origin, kind: nil).name
            }
            let statement: BankStatement
            do {
                statement = try await app.readPasted(
                    bank.text,
                    what: "The statement",
                    rows: "row",
                    dates: bank.dates,
                    decimalComma: bank.decimalComma ?? false,
                    mapping: bank.mapping
                ) {
                    try BankStatement(origin: $0, format: $1, currency: settings.currency)
                }
            } catch let unknown as UnknownColumns {
                // Columns it does not know: the statement's columns beside the fields, for her to say which holds what.
                bank.columnMapping = try await columns()
                return try await payoutsPage(
                    context: context,
                    bank: bank,
                    error: unknown.said + " Say which column holds what below.",
                    status: .unprocessableContent
                )
            } catch var problem as Problem {
                // A statement that cannot be read: the refusal is about her text (or the mapping she chose).
                problem.field = problem.field ?? "text"
                throw problem
            }
            let proposals = try await DepositMatching.propose(
                statement.deposits,
                store: app.store,
                today: settings.today(),
                style: settings.style
            )
            // The deposits stay on the page, should recording them be refused.
            bank.statement = statement
            bank.proposals = proposals
            if form["action"] == "record" {
                let wanted = Set(form.values.filter { $0.key.hasPrefix("accept") }.map(\.value))
                bank.accepted = wanted
                guard !wanted.isEmpty else { throw Problem(.unprocessableContent, "Tick the deposits to record.") }
                // A deposit nothing fits records what she chose it pays: the deposit's whole amount.
                var drafts: [PayoutDraft] = []
                var chosen = 0
                for proposal in proposals where wanted.contains(proposal.key) {
                    if case .unmatched = proposal.outcome {
                        let picked = (bank.assigned[proposal.deposit.line] ?? "").split(separator: "/", maxSplits: 1)
                        guard picked.count == 2, let id = Int64(picked[0]),
                            // try?: a value not of the picker's is refused below
                            let day = try? Day(parsing: String(picked[1]))
                        else {
                            var problem = Problem(
                                .unprocessableContent,
                                "Choose what the deposit of \(settings.style.format(proposal.deposit.date)) (\(settings.style.format(proposal.deposit.amount))) pays."
                            )
                            problem.field = "assign\(proposal.deposit.line)"
                            throw problem
                        }
                        let clinic = try await app.store.clinic(Clinic.ID(id))
                        drafts.append(
                            PayoutDraft(
                                clinicID: clinic.id,
                                period: clinic.calendar.period(containing: day),
                                amount: proposal.deposit.amount,
                                receivedOn: proposal.deposit.date,
                                reference: DepositProposal.reference(proposal.deposit)
                            )
                        )
                        chosen += 1
                    } else if !proposal.payouts.isEmpty {
                        drafts += proposal.payouts
                        chosen += 1
                    }
                }
                guard chosen == wanted.count else {
                    throw Problem(
                        .conflict,
                        "The book changed since the deposits were matched: match them again. Nothing was recorded."
                    )
                }
                let recorded = try await app.store.createPayouts(drafts)
                // What came from whom, in her words: "… of the bank statement: 127,38 € from Praxis Dr. Weber."
                let names = Dictionary(
                    uniqueKeysWithValues: try await app.store.clinics(ClinicQuery(includeArchived: true)).map {
                        ($0.id, $0.name)
                    }
                )
                var order: [Clinic.ID] = [], amounts: [Clinic.ID: [Money]] = [:]
                for payout in recorded {
                    if amounts[payout.clinicID] == nil { order.append(payout.clinicID) }
                    amounts[payout.clinicID, default: []].append(payout.amount)
                }
                let each = try order.map { clinic in
                    "\(settings.style.format(try Money.sum(amounts[clinic] ?? []))) from \(names[clinic] ?? "a clinic")"
                }
                return try await payoutsPage(
                    context: context,
                    message:
                        "Recorded \(recorded.count) payout\(recorded.count == 1 ? "" : "s") from \(chosen) deposit\(chosen == 1 ? "" : "s") of the bank statement: "
                        + each.joined(separator: ", ") + "."
                )
            }
            return try await payoutsPage(context: context, bank: bank)
        } refused: { refusal in
            // Her text, choices, ticks and mapping of its columns stay as she left them.
            bank.field = refusal.field
            bank.refused = true
            // try?: a statement whose columns cannot be read again is only not shown beside the fields.
            if form["action"] == "map", bank.columnMapping == nil { bank.columnMapping = try? await columns() }
            bank.columnMapping = bank.columnMapping?.marked(refusal.field)
            return try await payoutsPage(
                context: context,
                bank: bank,
                error: refusal.detail,
                errorLink: refusal.link,
                status: .init(code: refusal.status)
            )
        }
    }

    /// Closes or reopens the period of a clinic that starts on `start` (`action=close|reopen`).
    /// How many open periods of a clinic Payouts shows; the clinic's own page of periods has them
    /// all (to close or reopen), this many a page.
    static let openShown = 3
    /// How many of a clinic's oldest unpaid periods the payment form's picker offers beside its recent ones.
    static let oldestOwingOffered = 3
    static let periodsPerPage = 50

    func clinicPeriodsPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else {
            throw Problem(.notFound, "There is no such clinic.")
        }
        return try await clinicPeriods(
            try await app.store.clinic(Clinic.ID(id)),
            page: request.uri.queryParameters["page"],
            context: context
        )
    }

    /// A clinic's every period, newest first, a page at a time, to close or reopen them; `message`
    /// says what she just did, `error` why it was refused.
    func clinicPeriods(
        _ clinic: Clinic,
        page asked: Substring?,
        context: AppRequestContext,
        message: String? = nil,
        error: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let settings = try await app.store.settings()
        let (style, today) = (settings.style, settings.today())
        let dashboard = try await app.store.dashboard(today: today)
        let standing = dashboard.clinics.first { $0.clinic.id == clinic.id }
        let rows = Self.periodRows(
            ClinicPeriods(
                clinic: clinic,
                reconciliation: try await app.store.reconciliation(clinic: clinic.id, today: today),
                dueAfterDays: standing?.arrears.dueAfterDays ?? Arrears.defaultDueAfterDays,
                history: try await UnconfirmedHistory.asked(of: app.store, dashboard: dashboard)
            ),
            today: today,
            style: style
        )
        let page = ListPage(rows, size: Self.periodsPerPage, asked: asked)
        let link = { (page: Int) in "/payouts/clinics/\(clinic.id)?page=\(page)" }
        let view = ClinicPeriodsPageView(
            clinic: clinic.name,
            back: "/payouts#clinic-\(clinic.id)",
            range: page.isOnly
                ? "\(rows.count) period\(rows.count == 1 ? "" : "s")"
                : "Periods \(page.first)–\(page.last) of \(rows.count)",
            all: page.rows,
            newer: page.previous.map(link),
            older: page.next.map(link),
            csrf: context.csrfToken ?? ""
        )
        return try await app.page(
            "clinic-periods",
            view: view,
            title: "\(clinic.name): every period",
            nav: "payouts",
            context: context,
            status: status,
            message: message,
            error: error
        )
    }

    func closeOrReopen(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        return try await app.form {
            guard let clinicID = form["clinic"].flatMap(Int64.init) else {
                throw Problem(.unprocessableContent, "Choose a clinic.")
            }
            let clinic = try await app.store.clinic(Clinic.ID(clinicID))
            guard let start = form["start"].flatMap({ Day.reading(stored: $0) }) else {
                throw Problem(.unprocessableContent, "The period's first day is missing or not a date.")
            }
            let period = clinic.calendar.period(containing: start)
            let style = try await app.store.settings().style
            switch form["action"] {
            // Back to the clinic's periods, where she closed or reopened it.
            case "close":
                try await app.store.closePeriod(clinic: clinic.id, period: period)
                return try await clinicPeriods(
                    clinic,
                    page: nil,
                    context: context,
                    message:
                        "Closed \(clinic.name)'s \(style.format(period)): its sales and payouts can no longer change."
                )
            case "reopen":
                try await app.store.reopenPeriod(clinic: clinic.id, period: period)
                return try await clinicPeriods(
                    clinic,
                    page: nil,
                    context: context,
                    message: "Reopened \(clinic.name)'s \(style.format(period))."
                )
            default:
                throw Problem(.badRequest, "The action is close or reopen.")
            }
        } otherwise: { error, status in
            // Refused: said where she asked, among the clinic's periods when it is a clinic of hers.
            if let id = form["clinic"].flatMap(Int64.init),
                // try?: an id that is no clinic's is said on Payouts, with the refusal
                let clinic = try? await app.store.clinic(Clinic.ID(id))
            {
                return try await clinicPeriods(clinic, page: nil, context: context, error: error, status: status)
            }
            return try await payoutsPage(context: context, error: error, status: status)
        }
    }

    // MARK: API

    /// `POST /api/v1/payouts/bank`: her bank's file (the body, as the bank gave it) matched as the
    /// bank form and `commission payout bank` match it; recorded only as `accept` (every exact
    /// proposal) or `lines` (those deposits) say, all in one step or none.
    func bankAPI(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        let query = request.uri.queryParameters
        let settings = try await app.store.settings()
        let reading = try ReadingQuery(request)
        let accept = query["accept"] == "true"
        let lines: [Int] =
            try query["lines"].map { text in
                try text.split(separator: ",").map { part in
                    guard let line = Int(part), line > 0 else {
                        throw Problem(.badRequest, "The lines are line numbers of the file, comma-separated (4,9).")
                    }
                    return line
                }
            } ?? []
        if accept && !lines.isEmpty {
            throw Problem(.badRequest, "Give accept (every exact proposal) or lines (those deposits), not both.")
        }
        let statement = try await reading.read(Data(buffer: body), app: app, rows: "line") {
            try BankStatement(origin: $0, format: $1, currency: settings.currency)
        }
        let today = try app.queryDay(request, "date", settings: settings) ?? settings.today()
        let proposals = try await DepositMatching.propose(statement.deposits, store: app.store, today: today)
        let chosen: [DepositProposal]
        if accept {
            chosen = proposals.filter(\.isExact)
        } else {
            do {
                chosen = try DepositMatching.proposals(proposals, onLines: lines)
            } catch {
                throw Problem(.unprocessableContent, error.said(file: "the body"))
            }
        }
        let recorded = chosen.isEmpty ? [] : try await app.store.createPayouts(chosen.flatMap(\.payouts))
        return try app.json(
            Presenter(currency: settings.currency).bankMatching(statement, proposals: proposals, recorded: recorded),
            status: recorded.isEmpty ? .ok : .created
        )
    }

    func createPayout(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await app.body(API.PayoutInput.self, request, context: context)
        let settings = try await app.store.settings()
        let payout = try await app.store.createPayout(try await payoutDraft(input, settings: settings))
        return try app.json(Presenter(currency: settings.currency).payout(payout), status: .created)
    }

    /// A payout as the API's body asks for it: for a single write and for a batch alike.
    func payoutDraft(_ input: API.PayoutInput, settings: BookSettings) async throws -> PayoutDraft {
        let clinic = try await app.store.clinic(try await app.clinicID(input.clinicId, name: input.clinic))
        let day = try app.day(input.period, field: "period", default: settings.today())
        let period =
            try input.periodEnd.map { end in
                try app.span(
                    day,
                    try app.day(end, field: "periodEnd", default: day),
                    "period",
                    status: .unprocessableContent
                )
            } ?? clinic.calendar.period(containing: day)
        return PayoutDraft(
            clinicID: clinic.id,
            period: period,
            amount: try app.money(input.amount, field: "amount", currency: settings.currency) ?? .zero,
            receivedOn: try app.day(input.receivedOn, field: "receivedOn", default: settings.today()),
            reference: input.reference
        )
    }

    func closePeriod(_ request: Request, context: AppRequestContext, close: Bool) async throws -> Response {
        let clinic = try await app.clinic(context)
        let period = try await app.period(request, clinic: clinic, anyDate: !close)
        if close {
            try await app.store.closePeriod(clinic: clinic.id, period: period)
        } else {
            try await app.store.reopenPeriod(clinic: clinic.id, period: period)
        }
        return try app.json(
            API.PeriodState(
                clinicId: clinic.id.rawValue,
                periodStart: period.start.description,
                periodEnd: period.end.description,
                closed: close
            )
        )
    }
}

/// The bank statement's part of the payouts page: the text she gave, how it was read, and each
/// deposit beside what it most likely pays.
struct BankForm {
    var text = ""
    var dates: DateOrder?
    /// As she chose it; nil before she sends the form: then as her book's locale writes amounts.
    var decimalComma: Bool?
    /// The saved column mapping she chose, by name ("": the one saved for the file's headers, if any).
    var mapping = ""
    /// The statement's columns beside the fields, when they were not known.
    var columnMapping: ColumnMappingView?
    var statement: BankStatement?
    var proposals: [DepositProposal] = []
    /// The deposits she ticked (their keys), when she sent the table: drawn ticked again. Without
    /// them, those that fit exactly are ticked.
    var accepted: Set<String>?
    /// The form was refused (its fold shows open), about `field` (`text`, `mapping`…).
    var refused = false
    var field: String?
    /// What she said a deposit nothing fits pays, by its line: `clinic/start` of a period.
    var assigned: [Int: String] = [:]

    /// `mappings`: the names of her saved column mappings, to choose from; `pickers`: every
    /// clinic's periods, for a deposit nothing fits to be given one by hand.
    func view(style: LocaleStyle, mappings: [String], pickers: [ComparePageView.Clinic] = []) -> PayoutsPageView.Bank {
        PayoutsPageView.Bank(
            text: text,
            decimalComma: decimalComma ?? style.usesDecimalComma,
            hasDeposits: !proposals.isEmpty,
            open: !proposals.isEmpty || !text.isEmpty || refused,
            invalid: FieldMarks(field),
            mappings: mappings.map { .init(value: $0, label: "the mapping “\($0)”", selected: $0 == mapping) },
            columnMapping: columnMapping,
            dates: DateOrder.allCases.map { .init(value: $0.rawValue, label: $0.described, selected: $0 == dates) },
            read: statement.map { statement in
                "\(statement.deposits.count) deposit\(statement.deposits.count == 1 ? "" : "s")"
                    + (statement.passedOver > 0
                        ? "; \(statement.passedOver) row\(statement.passedOver == 1 ? "" : "s") of money out passed over"
                        : "")
                    + statement.said.map { "; \($0)" }.joined() + "."
            } ?? "",
            deposits: proposals.map { proposal in
                let deposit = proposal.deposit
                let pays: String
                switch proposal.outcome {
                case .pays(let clinic, let parts):
                    pays =
                        "\(clinic.name): "
                        + parts.map { "\(style.format($0.period)) \(style.format($0.amount))" }.joined(separator: ", ")
                case .recorded: pays = "Recorded already"
                case .unmatched: pays = "Nothing fits"
                }
                var canRecord = false
                var assign: [ComparePageView.Clinic] = []
                switch proposal.outcome {
                case .pays: canRecord = true
                case .unmatched:
                    // She knows what it pays: any clinic's period, by hand (the same picker as a payment's).
                    canRecord = true
                    let chosen = assigned[deposit.line] ?? ""
                    assign = pickers.map { picker in
                        .init(
                            name: picker.name,
                            periods: picker.periods.map {
                                PageChoice(value: $0.value, label: $0.label, selected: $0.value == chosen)
                            }
                        )
                    }
                case .recorded: break
                }
                return .init(
                    line: deposit.line,
                    date: style.format(deposit.date),
                    amount: style.format(deposit.amount),
                    description: deposit.description,
                    proposal: pays,
                    why: proposal.why,
                    key: proposal.key,
                    canRecord: canRecord,
                    exact: proposal.isExact,
                    attention: canRecord && !proposal.isExact,
                    checked: accepted.map { $0.contains(proposal.key) },
                    assign: assign
                )
            }
        )
    }
}

/// Payouts & reconciliation: per clinic, what it owes and what is open first (money missing or
/// too much, and the period running now), each with a payment prefilled; every period, and
/// closing one, folded into one line; then the payout form, and her bank statement.
/// A clinic's every period, newest first, a page at a time: to see the old ones, and close or reopen them.
package struct ClinicPeriodsPageView: PageView {
    let clinic: String, back: String
    /// "60 periods", "Periods 51–60 of 60".
    let range: String
    let all: [PayoutsPageView.Period]
    let newer: String?, older: String?
    let csrf: String

    package init(
        clinic: String,
        back: String,
        range: String,
        all: [PayoutsPageView.Period],
        newer: String?,
        older: String?,
        csrf: String
    ) {
        (self.clinic, self.back, self.range, self.all, self.newer, self.older, self.csrf) = (
            clinic, back, range, all, newer, older, csrf
        )
    }
}

package struct PayoutsPageView: PageView {
    package struct Period: Sendable, TemplateValues {
        let period: String, expected: String, received: String
        /// What is left to pay, or (with `credit`) what it paid beyond.
        let difference: String
        /// How it stands, in the words every page uses (``Chip``): one, or Overdue and Part-paid.
        let chips: [Chip]
        /// "$20.00 of $45.00 paid", when it paid part.
        let paid: String?
        let closed: Bool, clinicID: Int64, start: String
        /// The period running now: due once it ends.
        let running: Bool
        /// The payout form prefilled with what is unpaid, when an ended period still owes something.
        let payLink: String?
        /// Paid beyond what it owed: `difference` is then what it paid beyond, shown as a credit.
        let credit: Bool

        package init(
            period: String,
            expected: String,
            received: String,
            difference: String,
            chip: Chip,
            paid: String? = nil,
            closed: Bool,
            clinicID: Int64,
            start: String,
            running: Bool,
            payLink: String?,
            credit: Bool = false
        ) {
            (self.period, self.expected, self.received, self.difference, self.paid) = (
                period, expected, received, difference, paid
            )
            // Paid in part and past its day: both are said.
            chips = chip == .overdue && paid != nil ? [.overdue, .partPaid] : [chip]
            (self.closed, self.clinicID, self.start, self.running, self.payLink) = (
                closed, clinicID, start, running, payLink
            )
            self.credit = credit
        }
    }

    package struct Clinic: Sendable, TemplateValues {
        let id: Int64, clinic: String, balance: String, balanceLabel: String
        /// It paid more than it owes.
        let credit: Bool
        /// What it owes in parts that add up: overdue, due, this period (``ClinicStanding/owedParts(style:)``).
        let parts: [ChipFigure]
        /// Its open periods, newest first, the first ``PayoutsJob/openShown`` of them.
        let open: [Period]
        /// A note to the clinic about every period it is late for, when it is.
        let remind: ReminderNote?
        /// "All 60 periods", "Its one period": what its own page of periods holds.
        let periodCount: String
        /// "3 more open periods: every period of Glow ›", when more are open than the page shows.
        let moreOpen: String?
        /// The clinic's own page of every period (to close or reopen them).
        let everyLink: String

        package init(
            id: Int64,
            clinic: String,
            balance: String,
            balanceLabel: String,
            credit: Bool,
            parts: [ChipFigure] = [],
            open: [Period],
            remind: ReminderNote? = nil,
            periodCount: String,
            moreOpen: String? = nil,
            everyLink: String
        ) {
            (self.id, self.clinic, self.balance, self.balanceLabel, self.credit, self.parts) = (
                id, clinic, balance, balanceLabel, credit, parts
            )
            (self.open, self.remind, self.periodCount, self.moreOpen, self.everyLink) = (
                open, remind, periodCount, moreOpen, everyLink
            )
        }
    }

    package typealias Option = PageOption

    /// One choice of a picker of the bank form (an order of dates, a saved mapping).
    package typealias Choice = PageChoice

    package struct Deposit: Sendable, TemplateValues {
        let line: Int, date: String, amount: String, description: String, proposal: String, why: String, key: String
        let canRecord: Bool, exact: Bool, attention: Bool
        /// Its box is ticked: she ticked it, or (before she did) it fits exactly.
        let checked: Bool
        /// For a deposit nothing fits: every clinic's periods, for her to say which it pays.
        let assign: [ComparePageView.Clinic]
        let canAssign: Bool

        package init(
            line: Int,
            date: String,
            amount: String,
            description: String,
            proposal: String,
            why: String,
            key: String,
            canRecord: Bool,
            exact: Bool,
            attention: Bool,
            checked: Bool? = nil,
            assign: [ComparePageView.Clinic] = []
        ) {
            (self.line, self.date, self.amount, self.description, self.proposal, self.why, self.key) = (
                line, date, amount, description, proposal, why, key
            )
            (self.canRecord, self.exact, self.attention) = (canRecord, exact, attention)
            self.checked = checked ?? exact
            (self.assign, canAssign) = (assign, !assign.isEmpty)
        }
    }

    /// Her bank statement, read and matched (or not yet).
    package struct Bank: Sendable, TemplateValues {
        let text: String, decimalComma: Bool, hasDeposits: Bool
        /// Its fold shows open: there are deposits, text she gave, or a refusal.
        let open: Bool
        /// The field of the bank form a refusal is about (`text`, `dates`, `mapping`).
        let invalid: FieldMarks
        /// Under the deposits, the statement's form unfolded: a refusal is about it, or its columns need her.
        let inputOpen: Bool
        /// Her saved column mappings, to read a statement whose headers are not known with one.
        let mappings: [Choice]
        let hasMappings: Bool
        /// The statement's columns beside the fields, when they were not known.
        let columnMapping: ColumnMappingView?
        let dates: [Choice]
        let read: String
        let deposits: [Deposit]

        package init(
            text: String,
            decimalComma: Bool,
            hasDeposits: Bool,
            open: Bool? = nil,
            invalid: FieldMarks = FieldMarks(),
            mappings: [Choice] = [],
            columnMapping: ColumnMappingView? = nil,
            dates: [Choice],
            read: String,
            deposits: [Deposit]
        ) {
            (self.text, self.decimalComma, self.hasDeposits, self.dates, self.read, self.deposits) = (
                text, decimalComma, hasDeposits, dates, read, deposits
            )
            (self.mappings, self.hasMappings, self.columnMapping) = (mappings, !mappings.isEmpty, columnMapping)
            (self.open, self.invalid) = (open ?? hasDeposits, invalid)
            inputOpen = columnMapping != nil || invalid.text || invalid.dates || invalid.mapping
        }
    }

    /// The question about her history, while it is open and there is something to ask.
    let question: HistoryQuestionView?
    let reconciliations: [Clinic]
    let clinics: [Option]
    /// The payout form's clinic and period, one picker: each clinic's periods, what each owes.
    let periodPickers: [ComparePageView.Clinic]
    /// The payout form's fields: as it starts or as prefilled, or as she typed them.
    let period: String, amount: String, received: String, reference: String
    /// The form was opened for a period (Record payment), or comes back to her refused: it shows unfolded.
    let prefilled: Bool
    /// The field of the payout form a refusal is about.
    let invalid: FieldMarks
    let today: String, earliest: String, latest: String, zero: String, csrf: String
    let bank: Bank

    package init(
        question: HistoryQuestionView? = nil,
        reconciliations: [Clinic],
        clinics: [Option],
        periodPickers: [ComparePageView.Clinic] = [],
        period: String,
        amount: String,
        received: String,
        reference: String = "",
        prefilled: Bool,
        invalid: FieldMarks = FieldMarks(),
        today: String,
        earliest: String,
        latest: String,
        zero: String,
        csrf: String,
        bank: Bank
    ) {
        (self.question, self.reconciliations, self.clinics, self.period, self.amount, self.prefilled) = (
            question, reconciliations, clinics, period, amount, prefilled
        )
        (self.received, self.reference, self.invalid) = (received, reference, invalid)
        self.periodPickers = periodPickers
        (self.today, self.earliest, self.latest, self.zero, self.csrf, self.bank) = (
            today, earliest, latest, zero, csrf, bank
        )
    }
}
