import ArgumentParser
import CommissionCore
import CommissionKit
import CommissionSQLite
import CommissionStore
import Foundation

struct Report: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the dashboard: today, each clinic's current pay period, this month, the year to date.",
        discussion: """
            Example:
              commission report
              commission report --date 2026-06-30 --format json
            """
    )
    @OptionGroup var book: BookOptions
    @OptionGroup var format: FormatOption
    @Option(help: "Show the dashboard as of this day (default today).") var date: String?

    func run() async throws {
        let store = try book.open()
        let settings = try await store.settings()
        let dashboard = try await store.dashboard(today: try date.map { try parseDay($0) } ?? settings.today())
        let history = try await UnconfirmedHistory.asked(of: store, dashboard: dashboard)
        output(Renderer(currency: settings.currency).render(dashboard, as: format.format, history: history))
    }
}

struct StatementCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statement",
        abstract:
            "Show what a clinic owes for one pay period, sale by sale (or every statement of a range, with --all).",
        discussion: """
            The period is the one containing --period DATE (default today), or the one before with --previous.

            With --all, every clinic's statements of the pay periods that overlap --from … --to (default: \
            this month to today) and have a sale or a payout, whole: one JSON array, one CSV with the clinic and the \
            period on every line, or one table after the other.

            Examples:
              commission statement "Glow" --previous
              commission statement "Harbor" --period 2026-03-10 --format csv > harbor-march.csv
              commission statement --all --from 2026-10-01 --to 2026-10-31 --format csv > october.csv
            """
    )
    @OptionGroup var book: BookOptions
    @OptionGroup var format: FormatOption
    @Argument(help: "The clinic's name (not with --all).") var clinic: String?
    @Option(help: "A date in the period (default today).") var period: String?
    @Flag(help: "The period before.") var previous = false
    @Flag(help: "Every clinic's statements of a range (--from, --to).") var all = false
    @Option(help: "With --all: the range's first day (default the first of --to's month).") var from: String?
    @Option(help: "With --all: the range's last day (default today).") var to: String?

    func validate() throws {
        if all {
            guard clinic == nil else {
                throw ValidationError("--all covers every clinic: leave out the clinic's name.")
            }
            guard period == nil && !previous else {
                throw ValidationError("--all takes a range (--from, --to), not --period or --previous.")
            }
        } else {
            guard clinic != nil else {
                throw ValidationError("Name the clinic, or pass --all --from DATE for every clinic's statements.")
            }
            guard from == nil && to == nil else { throw ValidationError("--from and --to go with --all.") }
        }
    }

    func run() async throws {
        let store = try book.open()
        let settings = try await store.settings()
        let renderer = Renderer(currency: settings.currency)
        if all {
            let through = try to.map { try parseDay($0) } ?? settings.today()
            let request = StatementsRequest(
                from: try from.map { try parseDay($0) } ?? through.firstOfMonth,
                through: through
            )
            output(renderer.render(try await request.fetch(from: store), as: format.format))
            return
        }
        let clinic = try await store.clinic(named: self.clinic ?? "")
        let statement = try await store.statement(
            clinic: clinic.id,
            period: try payPeriod(
                of: clinic,
                containing: period,
                previous: previous,
                settings: settings
            )
        )
        output(renderer.render(statement, as: format.format))
    }
}

struct Reconcile: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare what clinics paid with what they owed, period by period.",
        discussion: """
            Periods that are unpaid, underpaid or overpaid are marked ⚠. The balance runs over all periods.

            Example:
              commission reconcile "Harbor"
              commission reconcile --format json
            """
    )
    @OptionGroup var book: BookOptions
    @OptionGroup var format: FormatOption
    @Argument(help: "One clinic (default all).") var clinic: String?
    @Option(help: "As of this day (default today).") var date: String?

    func run() async throws {
        let store = try book.open()
        let settings = try await store.settings()
        let today = try date.map { try parseDay($0) } ?? settings.today()
        let clinics: [Clinic]
        if let clinic {
            clinics = [try await store.clinic(named: clinic)]
        } else {
            clinics = try await store.clinics(ClinicQuery())
        }
        var reconciliations: [Reconciliation] = []
        for clinic in clinics {
            reconciliations.append(try await store.reconciliation(clinic: clinic.id, today: today))
        }
        output(Renderer(currency: settings.currency).render(reconciliations, as: format.format))
    }
}

struct YearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "year",
        abstract: "Her year per clinic, for her accountant: sales by month, and the pay periods that end in the year.",
        discussion: """
            For each clinic, a row per month with sales (their count, revenue and the commission they \
            earn), then the year: the pay periods that end in it, with their commission, accelerators, \
            deductions, net payable, what was received for them and what they still owe. The last row \
            adds up every clinic. As a table, CSV (for a spreadsheet) or JSON (docs/json.md).

            Every statement of the year in one file: commission statement --all --from 2026-01-01 --to 2026-12-31 --format csv

            Examples:
              commission year 2026
              commission year 2026 --format csv > commission-2026.csv
            """
    )
    @OptionGroup var book: BookOptions
    @OptionGroup var format: FormatOption
    @Argument(help: "The year (default this year).") var year: Int?

    func run() async throws {
        let store = try book.open()
        let settings = try await store.settings()
        let today = settings.today()
        let year = self.year ?? today.year
        guard (1900...9999).contains(year) else {
            throw Failure("\(year) is not a year this book can hold (1900 to 9999).")
        }
        output(
            Renderer(currency: settings.currency).render(
                try await store.yearSummary(year, today: today),
                as: format.format
            )
        )
    }
}

struct PayoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "payout",
        abstract: "Record and list what clinics paid.",
        discussion: """
            Examples:
              commission payout add "Glow" 412.50 --previous --reference "BACS 7781"
              commission payout bank statement.csv --accept     # deposits matched to periods
            """,
        subcommands: [Add.self, List.self, Delete.self, Bank.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record a payment from a clinic for one of its periods.",
            discussion: """
                The period is the one containing --period DATE (default today), or the one before with --previous.

                Example:
                  commission payout add "Harbor" 230.10 --period 2026-03-01 --received 2026-03-20
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The clinic's name.") var clinic: String
        @Argument(help: "The amount received.") var amount: String
        @Option(help: "A date in the period paid for (default today).") var period: String?
        @Flag(help: "For the period before.") var previous = false
        @Option(help: "When the money arrived (default today).") var received: String?
        @Option(help: "The payment's reference.") var reference: String?

        func run() async throws {
            let store = try book.open()
            let settings = try await store.settings()
            let clinic = try await store.clinic(named: self.clinic)
            let payPeriod = try payPeriod(of: clinic, containing: period, previous: previous, settings: settings)
            let payout = try await store.createPayout(
                PayoutDraft(
                    clinicID: clinic.id,
                    period: payPeriod,
                    amount: try settings.money(amount, "amount"),
                    receivedOn: try received.map { try parseDay($0) } ?? settings.today(),
                    reference: reference
                )
            )
            let statement = try await store.statement(clinic: clinic.id, period: payPeriod)
            let c = settings.currency
            output(
                "Payout \(payout.id): \(c.format(payout.amount)) from \(clinic.name) for \(payPeriod.start) – \(payPeriod.end). Expected \(c.format(statement.totals.commission)), received \(c.format(statement.received)), balance \(c.format(statement.balance)).\n"
            )
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List payouts.",
            discussion: """
                Example:
                  commission payout list --clinic "Glow" --format csv
                """
        )
        @OptionGroup var book: BookOptions
        @OptionGroup var format: FormatOption
        @Option(help: "Only this clinic's payouts.") var clinic: String?

        func run() async throws {
            let store = try book.open()
            let renderer = Renderer(
                currency: try await store.settings().currency,
                names: try await Presenter.Names(store: store)
            )
            let payouts = try await store.payouts(
                PayoutQuery(clinicID: try await clinic.asyncMap { try await store.clinic(named: $0).id })
            )
            output(renderer.render(renderer.payouts(payouts), as: format.format))
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a payout recorded by mistake.",
            discussion: """
                Example:
                  commission payout delete 7
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The payout's id.") var id: Int64

        func run() async throws {
            try await book.open().deletePayout(Payout.ID(id))
            output("Deleted payout \(id).\n")
        }
    }
}

struct PeriodCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "period",
        abstract: "Close a reconciled pay period (locking its sales and payouts) or reopen it.",
        discussion: """
            Example:
              commission period close "Glow" --period 2026-02-01
              commission period reopen "Glow" --period 2026-02-01
            """,
        subcommands: [Close.self, Reopen.self]
    )

    /// Which clinic period a close or reopen is about.
    struct Target: ParsableArguments {
        @OptionGroup var book: BookOptions
        @Argument(help: "The clinic's name.") var clinic: String
        @Option(help: "A date in the period (default today).") var period: String?
        @Flag(help: "The period before.") var previous = false

        /// Opens the book, finds the period, and applies `change` to it.
        func apply(_ verb: String, _ change: (SQLiteStore, Clinic.ID, PayPeriod) async throws -> Void) async throws {
            let store = try book.open()
            let clinic = try await store.clinic(named: self.clinic)
            let payPeriod = try payPeriod(
                of: clinic,
                containing: period,
                previous: previous,
                settings: try await store.settings()
            )
            try await change(store, clinic.id, payPeriod)
            output("\(verb) \(clinic.name)'s period \(payPeriod.start) – \(payPeriod.end).\n")
        }
    }

    struct Close: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Close a clinic's pay period.",
            discussion: """
                Example:
                  commission period close "Glow" --previous
                """
        )
        @OptionGroup var target: Target

        func run() async throws {
            try await target.apply("Closed") { store, clinic, period in
                try await store.closePeriod(clinic: clinic, period: period)
            }
        }
    }

    struct Reopen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reopen a closed pay period.",
            discussion: """
                Example:
                  commission period reopen "Glow" --period 2026-02-01
                """
        )
        @OptionGroup var target: Target

        func run() async throws {
            try await target.apply("Reopened") { store, clinic, period in
                try await store.reopenPeriod(clinic: clinic, period: period)
            }
        }
    }
}

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A live dashboard: redrawn whenever a sale or payout is recorded, from any process.",
        discussion: """
            Leave it running in one terminal and record sales in another (or from the web app): it \
            redraws within a quarter of a second. Stop it with Ctrl-C.

            Example:
              commission watch
            """
    )
    @OptionGroup var book: BookOptions
    @Option(help: "Stop after this many redraws (default: run until interrupted).") var count: Int?

    func run() async throws {
        let store = try book.open()
        let renderer = Renderer(currency: try await store.settings().currency)
        var drawn = 0
        for try await dashboard in store.observe(DashboardRequest()) {
            output(
                "\u{1B}[H\u{1B}[2J" + renderer.render(dashboard, as: .table)
                    + "\nWatching \(book.path) — Ctrl-C to stop.\n"
            )
            drawn += 1
            if let count, drawn >= count { break }
        }
    }
}
