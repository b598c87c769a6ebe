import ArgumentParser
import CommissionCore
import CommissionKit
import CommissionStore
import Foundation

struct Init: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set the book's currency, time zone, rounding and locale.",
        discussion: """
            Creates the book when it does not exist yet. The currency cannot change once amounts are \
            recorded. Changing the rounding rule recomputes the commissions of open periods.

            Example:
              commission init --currency EUR --time-zone Europe/Paris --locale fr_FR --rounding half-to-even
            """
    )

    @OptionGroup var book: BookOptions
    @Option(help: "ISO 4217 currency code (USD, EUR, JPY…).") var currency: String?
    @Option(name: .customLong("time-zone"), help: "IANA time zone that decides which day a sale is on (Europe/London).")
    var timeZone: String?
    @Option(help: "Rounding rule: half-away-from-zero (a spreadsheet's ROUND) or half-to-even.") var rounding:
        RoundingRule?
    @Option(
        name: .customLong("rounding-scope"),
        help: "per-line (round each sale) or per-statement (round each period's total once)."
    ) var roundingScope: RoundingScope?
    @Option(
        help:
            "How the web pages write amounts and dates (en_US, en_GB, de_DE, fr_FR…); the command line and files keep 1234.50 and 2026-11-23."
    )
    var locale: String?

    func run() async throws {
        let store = try book.open()
        var settings = try await store.settings()
        if let currency {
            do { settings.currency = try Currency(code: currency) } catch { throw Failure("\(error)") }
        }
        if let timeZone { settings.timeZoneIdentifier = timeZone }
        if let rounding { settings.rounding.rule = rounding }
        if let roundingScope { settings.rounding.scope = roundingScope }
        if let locale { settings.localeIdentifier = locale.replacingOccurrences(of: "-", with: "_") }
        try await store.updateSettings(settings)
        let style = settings.style
        output(
            """
            Book: \(book.path)
            Currency: \(settings.currency.code) (\(settings.currency.minorDigits) decimals)
            Time zone: \(settings.timeZoneIdentifier) (today is \(settings.today()))
            Rounding: \(settings.rounding)
            Locale: \(settings.localeIdentifier) (pages show \(style.format(Money(minorUnits: 1_234 * settings.currency.scale + settings.currency.scale / 2))) and \(style.format(settings.today())))

            """
        )
    }
}

// MARK: Clinics

struct ClinicCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clinic",
        abstract: "Add, list, change, archive or delete clinics.",
        discussion: """
            A pay schedule is monthly, semimonthly (1st–15th and 16th–end), weekly:WEEKDAY (periods \
            start on that day) or biweekly:DATE (fortnights, one starting on DATE). When a clinic \
            changes how it pays, `clinic schedule` changes it from a date on: the old schedule's last \
            period ends the day before, past periods stay as they were.

            Example:
              commission clinic add "Glow Aesthetics" --schedule weekly:monday
              commission clinic schedule "Glow Aesthetics" weekly:tuesday --from 2026-11-17
            """,
        subcommands: [
            Add.self, List.self, Edit.self, ScheduleChangeCommand.self, Archive.self, Restore.self, Delete.self,
        ]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a clinic.",
            discussion: """
                Example:
                  commission clinic add "Harbor Skin Clinic" --schedule semimonthly
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The clinic's name.") var name: String
        @Option(help: "monthly, semimonthly, weekly:WEEKDAY or biweekly:YYYY-MM-DD.") var schedule: String = "monthly"

        func run() async throws {
            let store = try book.open()
            let clinic = try await store.createClinic(ClinicDraft(name: name, schedule: try parseSchedule(schedule)))
            output("Added clinic \(clinic.name) (id \(clinic.id)), paid \(clinic.schedule).\n")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List clinics.",
            discussion: """
                Example:
                  commission clinic list --all --format csv
                """
        )
        @OptionGroup var book: BookOptions
        @OptionGroup var format: FormatOption
        @Flag(name: .long, help: "Include archived clinics.") var all = false

        func run() async throws {
            let store = try book.open()
            let settings = try await store.settings()
            let clinics = try await store.clinics(ClinicQuery(includeArchived: all))
            let renderer = Renderer(currency: settings.currency)
            output(renderer.render(renderer.clinics(clinics), as: format.format))
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rename a clinic or correct its first pay schedule.",
            discussion: """
                --schedule replaces the schedule the clinic has had from the start (a correction: its \
                periods are grouped again), and is refused when that would alter a closed period or one \
                with a payout. When the clinic changes how it pays, use `clinic schedule … --from DATE`.

                Example:
                  commission clinic edit "Glow" --name "Glow Aesthetics" --schedule biweekly:2026-01-02
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The clinic's current name.") var clinic: String
        @Option(help: "A new name.") var name: String?
        @Option(help: "The schedule it has had from the start.") var schedule: String?

        func run() async throws {
            let store = try book.open()
            var clinic = try await store.clinic(named: self.clinic)
            if let name { clinic.name = name }
            if let schedule { clinic.schedule = try parseSchedule(schedule) }
            clinic = try await store.updateClinic(clinic)
            output("Clinic \(clinic.name) (id \(clinic.id)) is paid \(clinic.calendar).\n")
        }
    }

    struct ScheduleChangeCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schedule",
            abstract: "Change how a clinic pays, from a date on.",
            discussion: """
                From that date the new schedule gives the periods: the old schedule's last period ends \
                the day before (cut short), the new one's first period starts on that date. Past days \
                never move to another period. Refused when it would alter a closed period, or a period \
                with a payout. --remove takes a change away (the same checks apply).

                Example:
                  commission clinic schedule "Glow Aesthetics" weekly:tuesday --from 2026-11-17
                  commission clinic schedule "Glow Aesthetics" --remove 2026-11-17
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The clinic's name.") var clinic: String
        @Argument(help: "monthly, semimonthly, weekly:WEEKDAY or biweekly:YYYY-MM-DD.") var schedule: String?
        @Option(help: "The first day of the new schedule (YYYY-MM-DD; default today).") var from: String?
        @Option(help: "Take away the change that starts on this day.") var remove: String?

        func run() async throws {
            let store = try book.open()
            var clinic = try await store.clinic(named: self.clinic)
            if let remove {
                let day = try parseDay(remove, "day")
                guard clinic.scheduleChanges.contains(where: { $0.effectiveFrom == day }) else {
                    throw Failure("\(clinic.name) has no schedule change on \(day): it is paid \(clinic.calendar).")
                }
                clinic.scheduleChanges.removeAll { $0.effectiveFrom == day }
            } else {
                guard let schedule else {
                    throw Failure("Give the new schedule (weekly:tuesday, monthly…), or --remove DATE.")
                }
                let today = try await store.settings().today()
                let from = try from.map { try parseDay($0, "first day") } ?? today
                clinic.scheduleChanges.append(
                    ScheduleChange(effectiveFrom: from, schedule: try parseSchedule(schedule))
                )
            }
            clinic = try await store.updateClinic(clinic)
            output("Clinic \(clinic.name) (id \(clinic.id)) is paid \(clinic.calendar).\n")
        }
    }

    struct Archive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Archive a clinic: its history stays, new sales are refused.",
            discussion: """
                Example:
                  commission clinic archive "Glow"
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The clinic's name.") var clinic: String

        func run() async throws { try await ClinicCommand.setArchived(true, clinic: clinic, book: book) }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Bring an archived clinic back.",
            discussion: """
                Example:
                  commission clinic restore "Glow"
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The clinic's name.") var clinic: String

        func run() async throws { try await ClinicCommand.setArchived(false, clinic: clinic, book: book) }
    }

    static func setArchived(_ archived: Bool, clinic name: String, book: BookOptions) async throws {
        let store = try book.open()
        var clinic = try await store.clinic(named: name)
        clinic.isArchived = archived
        _ = try await store.updateClinic(clinic)
        output("\(archived ? "Archived" : "Restored") \(clinic.name).\n")
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a clinic that has never sold anything.",
            discussion: """
                A clinic with sales or payouts cannot be deleted: archive it instead.

                Example:
                  commission clinic delete "Test clinic"
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The clinic's name.") var clinic: String

        func run() async throws {
            let store = try book.open()
            let clinic = try await store.clinic(named: self.clinic)
            try await store.deleteClinic(clinic.id)
            output("Deleted \(clinic.name).\n")
        }
    }
}

func parseSchedule(_ text: String) throws -> PaySchedule {
    do { return try PaySchedule(parsing: text) } catch { throw Failure("\(error)") }
}

// MARK: Products

struct ProductCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "product",
        abstract: "Add, list, change, archive or delete products.",
        discussion: """
            A product's price and cost are the defaults of a new sale; changing them never changes past sales.

            Example:
              commission product add "Serum 30ml" --price 68.00 --cost 24.00 --sku SER-30
            """,
        subcommands: [Add.self, List.self, Edit.self, Archive.self, Delete.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a product.",
            discussion: """
                Example:
                  commission product add "Daily SPF 50" --price 38.00 --cost 12.00
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The product's name.") var name: String
        @Option(help: "Default unit sale price (50.00).") var price: String
        @Option(help: "Default unit cost.") var cost: String = "0"
        @Option(help: "A stock-keeping code, usable instead of the name.") var sku: String?

        func run() async throws {
            let store = try book.open()
            let settings = try await store.settings()
            let product = try await store.createProduct(
                ProductDraft(
                    name: name,
                    sku: sku,
                    unitPrice: try settings.money(price, "price"),
                    unitCost: try settings.money(cost, "cost")
                )
            )
            output(
                "Added product \(product.name) (id \(product.id)) at \(settings.currency.format(product.unitPrice)), cost \(settings.currency.format(product.unitCost)).\n"
            )
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List products.",
            discussion: """
                Example:
                  commission product list --search serum --most-sold
                """
        )
        @OptionGroup var book: BookOptions
        @OptionGroup var format: FormatOption
        @Flag(name: .long, help: "Include archived products.") var all = false
        @Flag(name: .long, help: "Most units sold first.") var mostSold = false
        @Option(help: "Only names or SKUs containing this text.") var search: String?

        func run() async throws {
            let store = try book.open()
            let renderer = Renderer(currency: try await store.settings().currency)
            let products = try await store.products(
                ProductQuery(text: search, includeArchived: all, order: mostSold ? .mostSold : .name)
            )
            output(renderer.render(renderer.products(products), as: format.format))
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a product's name, SKU, price or cost.",
            discussion: """
                Past sales keep the price and cost they were recorded with.

                Example:
                  commission product edit "Serum 30ml" --price 72.00
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The product's name or SKU.") var product: String
        @Option(help: "A new name.") var name: String?
        @Option(help: "A new default price.") var price: String?
        @Option(help: "A new default cost.") var cost: String?
        @Option(help: "A new SKU.") var sku: String?

        func run() async throws {
            let store = try book.open()
            let settings = try await store.settings()
            var product = try await store.product(named: self.product)
            if let name { product.name = name }
            if let price { product.unitPrice = try settings.money(price, "price") }
            if let cost { product.unitCost = try settings.money(cost, "cost") }
            if let sku { product.sku = sku }
            product = try await store.updateProduct(product)
            output(
                "Product \(product.name) (id \(product.id)): \(settings.currency.format(product.unitPrice)), cost \(settings.currency.format(product.unitCost)).\n"
            )
        }
    }

    struct Archive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Archive (or with --restore, bring back) a product.",
            discussion: """
                Example:
                  commission product archive "Travel Kit"
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The product's name or SKU.") var product: String
        @Flag(help: "Restore the product instead.") var restore = false

        func run() async throws {
            let store = try book.open()
            var product = try await store.product(named: self.product)
            product.isArchived = !restore
            _ = try await store.updateProduct(product)
            output("\(restore ? "Restored" : "Archived") \(product.name).\n")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a product that was never sold.",
            discussion: """
                Example:
                  commission product delete "Typo product"
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The product's name or SKU.") var product: String

        func run() async throws {
            let store = try book.open()
            let product = try await store.product(named: self.product)
            try await store.deleteProduct(product.id)
            output("Deleted \(product.name).\n")
        }
    }
}

// MARK: Terms

struct TermsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "terms",
        abstract: "Add, list, change or archive commission terms.",
        discussion: """
            Terms give a clinic's split (a share of profit, or of revenue) from a date on, for all its \
            products or one. The terms in force for a sale are those with the latest date on or before \
            it; a product's own terms beat the clinic-wide ones. Terms dated in the past recompute the \
            sales they affect, except in closed periods.

            Terms may carry tiers (accelerators) over the period's basis total, marginal like tax \
            brackets: --tier 5000.00:50% --tier 10000.00:60% on 40% terms pays 50% of the part beyond \
            5,000.00 in a period and 60% beyond 10,000.00. Each statement shows the accelerator.

            Example:
              commission terms add "Glow" --share 40 --from 2026-01-01
              commission terms add "Glow" --product "Serum 30ml" --share 45 --from 2026-03-01
              commission terms add "Glow" --share 40 --tier 5000.00:50% --tier 10000.00:60% --from 2026-07-01
            """,
        subcommands: [Add.self, List.self, Edit.self, Archive.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add terms for a clinic, or for one of its products.",
            discussion: """
                Example:
                  commission terms add "Lumen" --share 12.5 --basis revenue --from 2026-01-01
                  commission terms add "Glow" --share 40 --tier 5000.00:50% --from 2026-07-01
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The clinic's name.") var clinic: String
        @Option(help: "Her share, as a percentage with up to two decimals (40, 37.5).") var share: String
        @Option(
            name: .customLong("tier"),
            help:
                "An accelerator, THRESHOLD:SHARE (5000.00:50%): that share of the period's basis beyond the threshold. Repeat for more."
        )
        var tiers: [String] = []
        @Option(help: "profit (the default) or revenue.") var basis: CommissionBasis = .profit
        @Option(help: "First day the terms apply (YYYY-MM-DD; default today).") var from: String?
        @Option(help: "Only for this product (name or SKU).") var product: String?

        func run() async throws {
            let store = try book.open()
            let settings = try await store.settings()
            let clinic = try await store.clinic(named: self.clinic)
            let productID = try await product.asyncMap { try await store.product(named: $0).id }
            let change = try await store.createTerms(
                TermsDraft(
                    clinicID: clinic.id,
                    productID: productID,
                    basis: basis,
                    share: try parseShare(share),
                    tiers: try tiers.map { try parseTier($0, settings.currency) },
                    effectiveFrom: try from.map { try parseDay($0) } ?? settings.today()
                )
            )
            output(describe(change, clinic: clinic.name, product: product, currency: settings.currency))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List terms.",
            discussion: """
                Example:
                  commission terms list --clinic "Glow"
                """
        )
        @OptionGroup var book: BookOptions
        @OptionGroup var format: FormatOption
        @Option(help: "Only this clinic's terms.") var clinic: String?
        @Flag(name: .long, help: "Include archived terms.") var all = false

        func run() async throws {
            let store = try book.open()
            let renderer = Renderer(
                currency: try await store.settings().currency,
                names: try await Presenter.Names(store: store)
            )
            let clinicID = try await clinic.asyncMap { try await store.clinic(named: $0).id }
            let terms = try await store.terms(TermsQuery(clinicID: clinicID, includeArchived: all))
            output(renderer.render(renderer.terms(terms), as: format.format))
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change terms; affected sales in open periods are recomputed.",
            discussion: """
                Example:
                  commission terms edit 3 --share 42.5 --from 2026-02-01
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The terms' id (see `commission terms list`).") var id: Int64
        @Option(help: "A new share.") var share: String?
        @Option(help: "A new basis.") var basis: CommissionBasis?
        @Option(help: "A new effective date.") var from: String?
        @Option(name: .customLong("tier"), help: "The tiers, all of them (THRESHOLD:SHARE, repeated).") var tiers:
            [String] = []
        @Flag(name: .customLong("no-tiers"), help: "Take the tiers away.") var noTiers = false

        func run() async throws {
            let store = try book.open()
            var terms = try await store.terms(Terms.ID(id))
            let currency = try await store.settings().currency
            if !tiers.isEmpty { terms.tiers = try tiers.map { try parseTier($0, currency) } }
            if noTiers { terms.tiers = [] }
            if let share { terms.share = try parseShare(share) }
            if let basis { terms.basis = basis }
            if let from { terms.effectiveFrom = try parseDay(from) }
            let change = try await store.updateTerms(terms)
            output(
                describe(change, clinic: try await store.clinic(terms.clinicID).name, product: nil, currency: currency)
            )
        }
    }

    struct Archive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Archive terms; affected sales fall back to the terms still in force.",
            discussion: """
                Refused when a sale in an open period would be left without terms.

                Example:
                  commission terms archive 3
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The terms' id.") var id: Int64

        func run() async throws {
            let store = try book.open()
            var terms = try await store.terms(Terms.ID(id))
            terms.isArchived = true
            let change = try await store.updateTerms(terms)
            output(
                "Archived terms \(id). \(change.recomputedSales) sale\(change.recomputedSales == 1 ? "" : "s") recomputed.\n"
            )
        }
    }
}

func parseShare(_ text: String) throws -> Share {
    do { return try Share(parsing: text) } catch { throw Failure("\(error)") }
}

func parseTier(_ text: String, _ currency: Currency) throws -> Tier {
    do { return try Tier(parsing: text, currency: currency) } catch { throw Failure("\(error)") }
}

func describe(_ change: TermsChange, clinic: String, product: String?, currency: Currency = .usd) -> String {
    var text = "Terms \(change.terms.id): \(change.terms.share) of \(change.terms.basis.rawValue) at \(clinic)"
    if let product { text += " for \(product)" }
    if !change.terms.tiers.isEmpty {
        text += ", " + SplitText.tiers(change.terms.tiers, share: { "\($0)" }, amount: currency.format)
    }
    text += " from \(change.terms.effectiveFrom).\n"
    text += "\(change.recomputedSales) sale\(change.recomputedSales == 1 ? "" : "s") recomputed."
    if change.salesInClosedPeriods > 0 {
        text +=
            " \(change.salesInClosedPeriods) sale\(change.salesInClosedPeriods == 1 ? "" : "s") in closed periods left as they were (reopen a period to recompute it)."
    }
    return text + "\n"
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
