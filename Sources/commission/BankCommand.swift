import ArgumentParser
import CommissionCore
import CommissionKit
import CommissionStore
import Foundation

extension PayoutCommand {
    struct Bank: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Read her bank statement and propose, for each deposit, the clinic and periods it pays; record them with --accept.",
            discussion: """
                The statement is a CSV file (or the first sheet of an .xlsx or .ods workbook) as her bank exports it: \
                a date, an amount (or a credit column) and a description, read as `commission import` reads \
                files — dates and amounts in her locale, headers matched loosely, --map and --mapping for \
                headers it does not know. Money out is passed over.

                For each deposit it proposes the clinic and pay period it most likely pays: a period's \
                unpaid balance of that amount (or the balances of periods in a row adding up to it: one \
                deposit for two periods), ended by the deposit's day, the nearest first; the description \
                decides between clinics (the clinic's name, or a word the bank wrote on the clinic's earlier \
                payouts, such as the payer's reference), and a deposit whose amount fits nothing but \
                names a clinic is proposed for its oldest unpaid period, marked for her to check. A deposit \
                the book holds already (a payout received that day for that amount) is recognised.

                Nothing is recorded until she says so: --accept records every proposal whose amount fits \
                exactly, --line N (repeatable) the deposits of those lines, guesses included — all in one \
                go, or none. Each payout's reference is the bank's text.

                Examples:
                  commission payout bank statement.csv
                  commission payout bank statement.csv --accept
                  commission payout bank kontoauszug.csv --dates dmy --line 4 --line 9
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The bank statement: CSV, or an .xlsx or .ods workbook (its first sheet).") var file: String
        @Flag(help: "Record every proposal whose amount fits exactly.") var accept = false
        @Option(
            name: .customLong("line"),
            help: ArgumentHelp("Record the proposal for the deposit on this line (repeatable).", valueName: "n")
        ) var lines: [Int] = []
        @OptionGroup var reading: ReadingOptions
        @Option(help: "What counts as today for the balances (default today).") var date: String?

        func validate() throws {
            if accept && !lines.isEmpty {
                throw ValidationError("Give --accept (every exact proposal) or --line (those lines), not both.")
            }
        }

        func run() async throws {
            let store = try book.open()
            let settings = try await store.settings()
            let statement = try await reading.read(file, store) {
                try BankStatement(origin: $0, format: $1, currency: settings.currency)
            }
            let kept = try await reading.keep(statement.mapping, headers: statement.headers, in: store)
            let today = try date.map { try parseDay($0) } ?? settings.today()
            let proposals = try await DepositMatching.propose(statement.deposits, store: store, today: today)
            let c = settings.currency
            let names = Dictionary(
                uniqueKeysWithValues: try await store.clinics(ClinicQuery(includeArchived: true)).map {
                    ($0.id, $0.name)
                }
            )
            var text =
                "\(file): \(statement.deposits.count) deposit\(statement.deposits.count == 1 ? "" : "s")"
                + (statement.passedOver > 0
                    ? ", \(statement.passedOver) other row\(statement.passedOver == 1 ? "" : "s") (money out) passed over"
                    : "")
                + statement.said.map { "; \($0)" }.joined() + ".\n" + (kept ?? "")
            for proposal in proposals {
                let deposit = proposal.deposit
                text +=
                    "  line \(deposit.line)  \(deposit.date)  \(c.format(deposit.amount))  \(deposit.description.isEmpty ? "(no description)" : "“\(deposit.description.prefix(40))”")\n"
                switch proposal.outcome {
                case .pays(let clinic, let parts):
                    text +=
                        "    → \(clinic.name), "
                        + parts.map { "\($0.period.start) – \($0.period.end): \(c.format($0.amount))" }.joined(
                            separator: "; "
                        )
                        + " (\(proposal.why))\n"
                case .recorded(let payouts):
                    text +=
                        "    → recorded already: "
                        + payouts.map { "payout \($0.id) from \(names[$0.clinicID] ?? "?")" }.joined(separator: ", ")
                        + "\n"
                case .unmatched:
                    text += "    → nothing fits: \(proposal.why)\n"
                }
            }
            let exact = proposals.filter(\.isExact)
            let chosen: [DepositProposal]
            if accept {
                chosen = exact
            } else if !lines.isEmpty {
                let byLine = Dictionary(
                    proposals.map { ($0.deposit.line, $0) },
                    uniquingKeysWith: { first, _ in first }
                )
                chosen = try lines.map { line in
                    guard let proposal = byLine[line] else {
                        throw Failure("There is no deposit on line \(line) of \(file); nothing was recorded.")
                    }
                    guard case .pays = proposal.outcome else {
                        throw Failure(
                            "The deposit on line \(line) has no proposal to record (\(proposal.why)); nothing was recorded."
                        )
                    }
                    return proposal
                }
            } else {
                output(
                    text
                        + (exact.isEmpty
                            ? "Nothing to record.\n"
                            : "Nothing recorded: --accept records the \(exact.count) exact proposal\(exact.count == 1 ? "" : "s"), --line N the one of a line.\n")
                )
                return
            }
            guard !chosen.isEmpty else {
                output(text + "Nothing to record.\n")
                return
            }
            let recorded = try await store.createPayouts(chosen.flatMap(\.payouts))
            output(
                text
                    + "Recorded \(recorded.count) payout\(recorded.count == 1 ? "" : "s") from \(chosen.count) deposit\(chosen.count == 1 ? "" : "s").\n"
            )
        }
    }
}
