import ArgumentParser
import CommissionCore
import CommissionKit
import CommissionStore

struct DeductionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deduction",
        abstract: "Add, list, end or remove the fees a clinic deducts from what it pays.",
        discussion: """
            A deduction is a fixed amount per pay period (room rent) or a share of the period's \
            revenue (a card fee), from a date on and optionally until a last day. It applies to a \
            period whose first day lies within its dates and in which she sold at the clinic; every \
            one in force applies. Statements show the commission, each deduction and the net \
            payable; reconciliation and the dashboard use the net payable. A deduction whose dates \
            take in a closed period cannot be added, changed or removed.

            Example:
              commission deduction add "Glow" "Room rent" --amount 150.00 --from 2026-01-01
              commission deduction add "Glow" "Card fees" --share 2.5 --from 2026-03-01
              commission deduction end 2 --on 2026-12-31
            """,
        subcommands: [Add.self, List.self, End.self, Remove.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a deduction.",
            discussion: """
                Example:
                  commission deduction add "Glow" "Room rent" --amount 150.00 --from 2026-01-01 --until 2026-06-30
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The clinic's name.") var clinic: String
        @Argument(help: "What the statement calls it (Room rent, Card fees).") var name: String
        @Option(help: "A fixed amount per pay period (150.00).") var amount: String?
        @Option(help: "A share of the period's revenue, as a percentage (2.5).") var share: String?
        @Option(help: "First day (YYYY-MM-DD; default today).") var from: String?
        @Option(help: "Last day (optional).") var until: String?

        func run() async throws {
            let store = try book.open()
            let settings = try await store.settings()
            let clinic = try await store.clinic(named: self.clinic)
            let kind: DeductionAmount
            switch (amount, share) {
            case (let amount?, nil): kind = .fixed(try settings.money(amount, "amount"))
            case (nil, let share?): kind = .shareOfRevenue(try parseShare(share))
            default:
                throw Failure(
                    "Give either --amount (a fixed amount per period) or --share (a share of the period's revenue)."
                )
            }
            let deduction = try await store.createDeduction(
                Deduction(
                    id: Deduction.ID(0),
                    clinicID: clinic.id,
                    name: name,
                    amount: kind,
                    effectiveFrom: try from.map { try parseDay($0, "first day") } ?? settings.today(),
                    lastDay: try until.map { try parseDay($0, "last day") }
                )
            )
            output(
                "Deduction \(deduction.id): \(describe(deduction, currency: settings.currency)) at \(clinic.name).\n"
            )
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List deductions.",
            discussion: """
                Example:
                  commission deduction list --clinic "Glow"
                """
        )
        @OptionGroup var book: BookOptions
        @Option(help: "Only this clinic's deductions.") var clinic: String?

        func run() async throws {
            let store = try book.open()
            let currency = try await store.settings().currency
            let names = try await Presenter.Names(store: store)
            let clinicID = try await clinic.asyncMap { try await store.clinic(named: $0).id }
            let deductions = try await store.deductions(clinic: clinicID)
            output(
                deductions.isEmpty
                    ? "No deductions.\n"
                    : deductions.map {
                        "\($0.id)  \(names.clinics[$0.clinicID] ?? "")  \(describe($0, currency: currency))\n"
                    }.joined()
            )
        }
    }

    struct End: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give a deduction its last day.",
            discussion: """
                Example:
                  commission deduction end 2 --on 2026-12-31
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The deduction's id (see `commission deduction list`).") var id: Int64
        @Option(help: "Its last day (YYYY-MM-DD; default today).") var on: String?

        func run() async throws {
            let store = try book.open()
            let settings = try await store.settings()
            var deduction = try await store.deduction(Deduction.ID(id))
            deduction.lastDay = try on.map { try parseDay($0, "last day") } ?? settings.today()
            deduction = try await store.updateDeduction(deduction)
            output("Deduction \(deduction.id): \(describe(deduction, currency: settings.currency)).\n")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a deduction entered by mistake.",
            discussion: """
                Example:
                  commission deduction remove 2
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The deduction's id.") var id: Int64

        func run() async throws {
            let store = try book.open()
            try await store.deleteDeduction(Deduction.ID(id))
            output("Removed deduction \(id).\n")
        }
    }

    static func describe(_ deduction: Deduction, currency: Currency) -> String {
        "\(deduction.name), \(deduction.amount.text(currency.format)), from \(deduction.effectiveFrom)"
            + (deduction.lastDay.map { " through \($0)" } ?? "")
    }
}

private func describe(_ deduction: Deduction, currency: Currency) -> String {
    DeductionCommand.describe(deduction, currency: currency)
}
