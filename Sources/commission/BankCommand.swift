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
                The statement is the file her bank gives, told by its content (not its name): OFX or QFX \
                (1.x SGML or 2.x XML), CAMT.053 (ISO 20022 XML, versions 001.02 to 001.08 and later), \
                MT940, or a CSV file (or the first sheet of an .xlsx or .ods workbook): a date, an amount \
                (or a credit column) and a description, read as `commission import` reads files — dates \
                and amounts in her locale, headers matched loosely, --map and --mapping for headers it does \
                not know. Money out is passed over; so is a transaction in another currency than the \
                book's, and one an OFX, CAMT.053 or MT940 file gives twice, each said with its line.

                For each deposit it proposes the clinic and pay period it most likely pays: a period's \
                unpaid balance of that amount (or the balances of periods in a row adding up to it: one \
                deposit for two periods), ended by the deposit's day, the nearest first; the description \
                decides between clinics (the clinic's name, or a word the bank wrote on the clinic's earlier \
                payouts, such as the payer's reference), and a deposit whose amount fits nothing but \
                names a clinic is proposed for its oldest unpaid period, marked for her to check. A deposit \
                the book holds already is recognised: a payout received that day for that amount, or one \
                whose reference carries the bank's id of the transaction (an OFX FITID, a CAMT.053 \
                AcctSvcrRef or NtryRef, an MT940 bank reference), so that the same file again, or next \
                month's overlapping it, records nothing twice.

                Nothing is recorded until she says so: --accept records every proposal whose amount fits \
                exactly, --line N (repeatable) the deposits of those lines, guesses included — all in one \
                go, or none. Each payout's reference is the bank's text, and the bank's id in brackets.

                Examples:
                  commission payout bank statement.csv
                  commission payout bank statement.csv --accept
                  commission payout bank kontoauszug.csv --dates dmy --line 4 --line 9
                  commission payout bank download.qfx --accept
                  commission payout bank camt053_2026-03.xml
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(
            help: "The bank statement: OFX/QFX, CAMT.053, MT940, CSV, or an .xlsx or .ods workbook (its first sheet)."
        )
        var file: String
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
                do {
                    chosen = try DepositMatching.proposals(proposals, onLines: lines)
                } catch {
                    throw Failure(error.said(file: file))
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
