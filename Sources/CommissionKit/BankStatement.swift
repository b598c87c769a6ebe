import CommissionCore
import CommissionStore
import Foundation

/// A deposit on her bank statement: money in.
public struct Deposit: Sendable, Hashable {
    /// Where it is in the file (its line, or its sheet's row).
    public var line: Int
    public var date: Day
    public var amount: Money
    /// The bank's text of the transaction (payer, reference), as written.
    public var description: String
    /// The bank's own id of it, when its file gives one (OFX, CAMT.053, MT940; never a CSV's).
    public var id: BankTransactionID?

    public init(line: Int, date: Day, amount: Money, description: String, id: BankTransactionID? = nil) {
        self.line = line
        self.date = date
        self.amount = amount
        self.description = description
        self.id = id
    }
}

/// Her bank statement as her bank exports it: its deposits. A file in one of the banks' own
/// formats (OFX or QFX, CAMT.053, MT940: ``BankFile``, told by its content) is read as its format
/// says; anything else as CSV or a sheet (a date, an amount and a description; columns, mappings
/// and locale read as an import reads them). Money out (a negative amount, a debit, or a row with
/// only a debit) is passed over and counted; a transaction in another currency than the book's is
/// passed over and said, as is one the same file gives twice.
public struct BankStatement: Sendable {
    public let name: String
    public let deposits: [Deposit]
    /// Rows that are not deposits: withdrawals and zero amounts.
    public let passedOver: Int
    /// How the file is read, in words ("dates read as day/month/year…", the mapping).
    public let said: [String]
    /// The column mapping it was read with (given, or saved for its headers), and its headers as spelled.
    public let mapping: ImportMapping?
    public let headers: [String]

    /// Reads every row of `origin`.
    /// - Throws: ``CSVFileError`` for a file that cannot be read at all, or lacks a date or an
    ///   amount column; ``StoreError/importRejected(_:total:)`` listing the rows that cannot be read.
    /// - Throws: ``BankFileError`` for a file in a bank's format that cannot be read.
    public init(origin: CSVImportSource.Origin, format: CSVFormat = CSVFormat(), currency: Currency) throws {
        var deposits: [Deposit] = [], passedOver = 0
        if let file = try BankFile.read(origin) {
            var said = ["read as \(file.format)"], seen: [BankTransactionID: Int] = [:]
            for transaction in file.transactions {
                guard transaction.currency == currency.code else {
                    said.append(
                        "line \(transaction.line) passed over: it is in \(transaction.currency.isEmpty ? "no currency" : transaction.currency), the book in \(currency.code)"
                    )
                    continue
                }
                guard transaction.amount > .zero else {
                    passedOver += 1
                    continue
                }
                if let id = transaction.id {
                    if let first = seen[id] {
                        said.append(
                            "line \(transaction.line) passed over: the same transaction as line \(first) (\(id))"
                        )
                        continue
                    }
                    seen[id] = transaction.line
                }
                deposits.append(
                    Deposit(
                        line: transaction.line,
                        date: transaction.date,
                        amount: transaction.amount,
                        description: transaction.text,
                        id: transaction.id
                    )
                )
            }
            if file.notBooked > 0 {
                said.append("\(file.notBooked) entr\(file.notBooked == 1 ? "y" : "ies") not yet booked passed over")
            }
            (self.said, mapping, headers) = (said, nil, [])
            name = origin.name
            self.deposits = deposits
            self.passedOver = passedOver
            return
        }
        (said, mapping, headers) = try OpenedTable.readWhole(
            origin,
            format: format,
            currency: currency,
            needs: [.date, .amount],
            reads: [.description, .note]
        ) { row in
            let date = row.day(.date), amount = row.money(.amount, optional: true)
            guard let date = date.flatMap({ $0 }), let amount else { return }
            guard let amount, amount > .zero else {
                passedOver += 1
                return
            }
            deposits.append(
                Deposit(
                    line: row.line,
                    date: date,
                    amount: amount,
                    description: row.text(.description) ?? row.text(.note) ?? ""
                )
            )
        }
        name = origin.name
        self.deposits = deposits
        self.passedOver = passedOver
    }
}

/// What a deposit most likely pays, as proposed to her: nothing is recorded until she confirms.
public struct DepositProposal: Sendable, Hashable {
    /// A period a deposit pays, and how much of the deposit goes to it.
    public struct Part: Sendable, Hashable {
        public var period: PayPeriod
        public var amount: Money
    }

    public enum Outcome: Sendable, Hashable {
        /// The deposit pays these periods of the clinic (one, or several in a row).
        case pays(Clinic, [Part])
        /// The book holds it already: payouts received that day for that amount.
        case recorded([Payout])
        /// Nothing in the book fits it.
        case unmatched
    }

    public var deposit: Deposit
    public var outcome: Outcome
    /// True when it pays the periods' whole unpaid balances; false for a guess by the clinic's name
    /// (and for what it does not pay).
    public var isExact = false
    /// Why, in a sentence: "the balance of 2026-02 at Glow; “GLOW AESTHETICS” in the description".
    public var why: String

    /// The payouts that confirming it records, each with the bank's text as its reference.
    public var payouts: [PayoutDraft] {
        guard case .pays(let clinic, let parts) = outcome else { return [] }
        let reference = Self.reference(deposit)
        return parts.map {
            PayoutDraft(
                clinicID: clinic.id,
                period: $0.period,
                amount: $0.amount,
                receivedOn: deposit.date,
                reference: reference
            )
        }
    }

    /// The reference of the payouts a deposit becomes: the bank's text, so that it is recognised
    /// later, and the bank's id of the transaction when its file gives one, in brackets at the end
    /// ("Bank: GLOW AESTHETICS [FITID 20260312001]"), so that the same transaction in another file
    /// (the same one again, or next month's overlapping it) is known as recorded.
    public static func reference(_ deposit: Deposit) -> String {
        let id = deposit.id.map { " [\($0)]" } ?? ""
        let text = String(("Bank: " + deposit.description).unicodeScalars.prefix(1000 - id.unicodeScalars.count))
        return text.trimmingWhitespace() + id
    }

    /// The bank's id a payout's reference ends with ("FITID 20260312001"), if it came from a
    /// bank file that gives one.
    public static func bankID(of reference: String?) -> String? {
        guard let reference, reference.hasPrefix("Bank: "), reference.hasSuffix("]"),
            let open = reference.range(of: " [", options: .backwards)
        else { return nil }
        return String(reference[open.upperBound..<reference.index(before: reference.endIndex)])
    }

    /// What identifies this proposal between the page that shows it and the one that confirms it:
    /// the deposit's line, and what it would record.
    public var key: String {
        guard case .pays(let clinic, let parts) = outcome else { return "\(deposit.line)" }
        return "\(deposit.line):\(clinic.id.rawValue):"
            + parts.map { "\($0.period.start)+\($0.amount.minorUnits)" }.joined(separator: ",")
    }
}

/// Why the deposits of the lines she named cannot be recorded (and so none is).
public enum DepositChoiceError: Error, Sendable, Equatable {
    case noDeposit(line: Int)
    case nothingToRecord(line: Int, why: String)

    /// The sentence, `file` naming where the lines are ("statement.csv", "the body").
    public func said(file: String) -> String {
        switch self {
        case .noDeposit(let line): "There is no deposit on line \(line) of \(file); nothing was recorded."
        case .nothingToRecord(let line, let why):
            "The deposit on line \(line) has no proposal to record (\(why)); nothing was recorded."
        }
    }
}

extension DepositMatching {
    /// The proposals of the deposits on `lines`, guesses included, each once however often its
    /// line is named — every one a proposal to record, or none.
    public static func proposals(
        _ proposals: [DepositProposal],
        onLines lines: [Int]
    ) throws(DepositChoiceError) -> [DepositProposal] {
        let byLine = Dictionary(proposals.map { ($0.deposit.line, $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<Int>(), chosen: [DepositProposal] = []
        for line in lines where seen.insert(line).inserted {
            guard let proposal = byLine[line] else { throw .noDeposit(line: line) }
            guard case .pays = proposal.outcome else { throw .nothingToRecord(line: line, why: proposal.why) }
            chosen.append(proposal)
        }
        return chosen
    }
}

/// How a proposal's reason writes its dates: in a page's style, or as `YYYY-MM-DD` (the command line's).
struct DateWords {
    let style: LocaleStyle?
    func day(_ day: Day) -> String { style?.format(day) ?? day.description }
    func period(_ period: PayPeriod) -> String { style?.formatShort(period) ?? period.description }
}

/// Proposes, for each deposit of a statement, the clinic and periods it most likely pays: by its
/// amount (a period's unpaid balance, or the balances of periods in a row), its date (after the
/// periods end; the nearest first) and its description (the clinic's name, or a word of the bank's
/// text on the clinic's earlier payouts, such as the payer's reference). A deposit the book
/// holds already (payouts received that day for the same amount) is recognised.
public enum DepositMatching {
    /// The most periods one deposit is taken to pay at once.
    static let mostPeriods = 6

    /// The proposals for `deposits`, each said with its dates and periods as `style` writes them
    /// (a page's, in the book's language), or as `YYYY-MM-DD` (nil: the command line's).
    public static func propose(
        _ deposits: [Deposit],
        store: any CommissionStore,
        today: Day,
        style: LocaleStyle? = nil
    ) async throws -> [DepositProposal] {
        let clinics = try await store.clinics(ClinicQuery())
        var owed: [Clinic.ID: [DepositProposal.Part]] = [:]
        for clinic in clinics {
            let reconciliation = try await store.reconciliation(clinic: clinic.id, today: today)
            owed[clinic.id] = reconciliation.periods.filter { $0.difference > .zero }.map {
                DepositProposal.Part(period: $0.period, amount: $0.difference)
            }
        }
        let payouts = try await store.payouts(PayoutQuery())
        let known = learned(from: payouts, deposits: deposits)
        var proposals: [DepositProposal] = [], accounted = Set<Payout.ID>()
        // In date order, each taking what it pays out of what is owed, so that two deposits never pay one period twice,
        // and each payout in the book accounting for one deposit only (two clinics may pay the same amount the same day).
        for deposit in deposits.sorted(by: { ($0.date, $0.line) < ($1.date, $1.line) }) {
            let proposal = propose(
                deposit,
                clinics: clinics,
                owed: owed,
                payouts: payouts.filter { !accounted.contains($0.id) },
                known: known,
                dates: DateWords(style: style)
            )
            if case .recorded(let recorded) = proposal.outcome { accounted.formUnion(recorded.map(\.id)) }
            if case .pays(let clinic, let parts) = proposal.outcome {
                owed[clinic.id] = owed[clinic.id]!.compactMap { part in
                    guard let paid = parts.first(where: { $0.period == part.period }) else { return part }
                    // try?: the paid part is one of these owed parts, so no overflow; were there one, none is left
                    let left = (try? part.amount.subtracting(paid.amount)) ?? .zero
                    return left > .zero ? DepositProposal.Part(period: part.period, amount: left) : nil
                }
            }
            proposals.append(proposal)
        }
        return proposals.sorted { $0.deposit.line < $1.deposit.line }
    }

    /// The words of the bank's text on each clinic's earlier payouts that tell it from the others
    /// ("GLOWAES LTD REF 0312"): never the bank's own boilerplate, nor a word on more than one
    /// clinic's payouts, nor one on most deposits of this statement (every row says it).
    static func learned(from payouts: [Payout], deposits: [Deposit]) -> [Clinic.ID: Set<Substring>] {
        var known: [Clinic.ID: Set<Substring>] = [:]
        for payout in payouts {
            guard let reference = payout.reference else { continue }
            known[payout.clinicID, default: []].formUnion(words(normalized(reference)))
        }
        var clinicsSaying: [Substring: Int] = [:]
        for words in known.values { for word in words { clinicsSaying[word, default: 0] += 1 } }
        var common = Set(clinicsSaying.filter { $0.value > 1 }.keys)
        if deposits.count >= 4 {
            var rowsSaying: [Substring: Int] = [:]
            for deposit in deposits {
                for word in words(normalized(deposit.description)) { rowsSaying[word, default: 0] += 1 }
            }
            common.formUnion(rowsSaying.filter { $0.value * 2 > deposits.count }.keys)
        }
        return known.mapValues { $0.subtracting(common) }
    }

    /// Words on every kind of bank row, in the languages of her banks: they never tell one payer
    /// from another (words of three letters or less, "ACH", never count either).
    static let boilerplate: Set<Substring> = [
        "bank", "payment", "payments", "transfer", "deposit", "deposits", "payout", "payouts", "credit", "incoming",
        "wire", "reference",
        "refund", "invoice", "commission", "from", "sepa", "gmbh", "gutschrift", "provision", "uberweisung",
        "ueberweisung", "lastschrift",
        "zahlung", "eingang", "dauerauftrag", "erstattung", "rechnung", "virement", "remboursement", "facture",
        "transferencia", "abono",
        "ingreso", "pago", "factura", "comision", "bonifico", "accredito", "fattura", "provvigione", "overboeking",
        "betaling", "storting",
        "pagamento", "transferencia", "fatura", "comissao",
    ]

    static func propose(
        _ deposit: Deposit,
        clinics: [Clinic],
        owed: [Clinic.ID: [DepositProposal.Part]],
        payouts: [Payout],
        known: [Clinic.ID: Set<Substring>],
        dates: DateWords = DateWords(style: nil)
    ) -> DepositProposal {
        // Recorded already: the payouts its bank's id is on (whatever their day), one payout of that day and amount,
        // or that day's payouts with its reference adding up to it.
        if let id = deposit.id?.description {
            let marked = payouts.filter { DepositProposal.bankID(of: $0.reference) == id }
            if let first = marked.first {
                return DepositProposal(
                    deposit: deposit,
                    outcome: .recorded(marked),
                    why: "already recorded on \(dates.day(first.receivedOn)) (\(id))"
                )
            }
        }
        let reference = DepositProposal.reference(deposit)
        let sameDay = payouts.filter { $0.receivedOn == deposit.date }
        if let one = sameDay.first(where: { $0.amount == deposit.amount }) {
            return DepositProposal(
                deposit: deposit,
                outcome: .recorded([one]),
                why: "a payout of this amount received on \(dates.day(deposit.date)) is in the book"
            )
        }
        let referenced = sameDay.filter { $0.reference == reference }
        // try?: a sum past Int64 matches no deposit
        if !referenced.isEmpty, (try? Money.sum(referenced.map(\.amount))) == deposit.amount {
            return DepositProposal(
                deposit: deposit,
                outcome: .recorded(referenced),
                why: "its payouts, received on \(dates.day(deposit.date)), are in the book"
            )
        }

        let text = normalized(deposit.description), textWords = words(text)
        /// `exact`: the parts are the periods' whole unpaid balances; otherwise a guess by name.
        /// `byName`: the clinic's name is in the text; `byWord`: a word of its earlier payouts is.
        struct Candidate {
            var clinic: Clinic
            var parts: [DepositProposal.Part]
            var byName: Bool
            var byWord: Bool
            var exact: Bool
            var named: Bool { byName || byWord }
            /// The payer's own words first: a whole balance of the clinic the text names, or of the
            /// one its earlier payouts' words name; then the clinic it names, whatever the amount (a
            /// name beats a learned word, and a balance of a clinic it does not name); then a whole
            /// balance; last a learned word alone.
            var rank: Int { exact ? (byName ? 6 : byWord ? 5 : 3) : (byName ? 4 : 2) }
        }
        var candidates: [Candidate] = []
        for clinic in clinics {
            let byName = mentions(text, clinic.name), byWord = !textWords.isDisjoint(with: known[clinic.id] ?? [])
            let named = byName || byWord
            // The periods that ended by the deposit's day, oldest first; runs of them ending with the nearest.
            let due = (owed[clinic.id] ?? []).filter { $0.period.end <= deposit.date }
            for end in due.indices.reversed() {
                var total = Money.zero
                for start in stride(from: end, through: max(0, end - mostPeriods + 1), by: -1) {
                    // try?: a run whose sum passes Int64 matches no deposit, nor does any longer one
                    guard let sum = try? total.adding(due[start].amount) else { break }
                    total = sum
                    if total == deposit.amount {
                        candidates.append(
                            Candidate(
                                clinic: clinic,
                                parts: Array(due[start...end]),
                                byName: byName,
                                byWord: byWord,
                                exact: true
                            )
                        )
                    }
                    if total > deposit.amount { break }
                }
            }
            if named && !candidates.contains(where: { $0.clinic.id == clinic.id }), let oldest = due.first {
                // Her clinic by name, but the amount fits no balance: the oldest unpaid period, part paid or overpaid.
                candidates.append(
                    Candidate(
                        clinic: clinic,
                        parts: [DepositProposal.Part(period: oldest.period, amount: deposit.amount)],
                        byName: byName,
                        byWord: byWord,
                        exact: false
                    )
                )
            }
        }
        // Named and fitting first; then fitting; the later the periods (nearest the deposit), the likelier.
        let ranked = candidates.sorted { a, b in
            if a.rank != b.rank { return a.rank > b.rank }
            return (a.parts.last!.period.end, -a.parts.count) > (b.parts.last!.period.end, -b.parts.count)
        }
        guard let best = ranked.first else {
            return DepositProposal(
                deposit: deposit,
                outcome: .unmatched,
                why:
                    "no clinic is owed this amount for periods ended by \(dates.day(deposit.date)), and no clinic's name is in its description"
            )
        }
        var reasons: [String] = []
        let periods = best.parts.map { dates.period($0.period) }.joined(separator: " and ")
        if best.exact {
            reasons.append(
                best.parts.count == 1
                    ? "the unpaid balance of \(periods) at \(best.clinic.name)"
                    : "the unpaid balances of \(periods) at \(best.clinic.name), together"
            )
        } else {
            let owedThere = (owed[best.clinic.id] ?? []).first { $0.period == best.parts[0].period }?.amount ?? .zero
            reasons.append(
                "\(periods) is the oldest unpaid period at \(best.clinic.name), but \(owedThere.minorUnits > deposit.amount.minorUnits ? "more" : "less") is owed for it: check the amount"
            )
        }
        if best.named {
            reasons.append(
                best.byName
                    ? "“\(best.clinic.name)” in the description"
                    : "its description is like that of earlier payouts from \(best.clinic.name)"
            )
        }
        if let other = ranked.dropFirst().first(where: { $0.clinic.id != best.clinic.id && $0.rank == best.rank }) {
            reasons.append("it would fit \(other.clinic.name) as well")
        }
        return DepositProposal(
            deposit: deposit,
            outcome: .pays(best.clinic, best.parts),
            isExact: best.exact,
            why: reasons.joined(separator: "; ")
        )
    }

    /// Letters and digits, lower case, words separated by one space.
    /// Accents and case do not count: "CLINICA SOL" names "Clínica Sol".
    static func normalized(_ text: String) -> String {
        String(CSVImportSource.folded(text).map { $0.isLetter || $0.isNumber ? $0 : " " })
            .split(separator: " ").joined(separator: " ")
    }

    /// The words of a text that can tell one payer from another: four characters or more, with a
    /// letter (not an amount, a date or "bank").
    static func words(_ normalized: String) -> Set<Substring> {
        Set(
            normalized.split(separator: " ").filter {
                $0.count >= 4 && $0.contains(where: \.isLetter) && !boilerplate.contains($0)
            }
        )
    }

    /// Whether the bank's text names the clinic: its whole name, or one of its words of four letters or more.
    static func mentions(_ text: String, _ name: String) -> Bool {
        let name = normalized(name)
        guard !name.isEmpty else { return false }
        let padded = " \(text) "
        if padded.contains(" \(name) ") { return true }
        return name.split(separator: " ").contains { $0.count >= 4 && padded.contains(" \($0) ") }
    }
}
