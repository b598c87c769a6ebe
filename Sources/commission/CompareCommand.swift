import ArgumentParser
import CommissionCore
import CommissionKit
import CommissionStore
import Foundation

struct Compare: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Set a clinic's own statement beside your book, line by line: what differs, and why the totals differ.",
        discussion: """
            The clinic's statement is a CSV file (or an .xlsx or .ods workbook's first sheet, or a PDF as \
            accounting software or a spreadsheet prints it) with a date, a product, a quantity, a price and \
            a commission per line — read as `commission import` reads files: any locale, headers matched \
            loosely, --map and --mapping for the clinic's own headers. A PDF is read through pdftotext \
            (Debian's poppler-utils): its table found by its header, over every page; a scan (no text) is \
            refused.

            Each of their lines is matched to a sale of yours in the pay period: the same day, \
            product and quantity; then a day apart; then the same product with another quantity. \
            What differs is listed, numbered: sales missing on their side, sales missing on yours, \
            another day, quantity, price or commission; each line's part of the difference adds up to \
            the difference of the totals. The clinic's names for your products are read through what \
            you told for that clinic (--product "THEIR NAME=YOUR PRODUCT", remembered), then your \
            products' names and SKUs.

            Nothing in your book changes until you say so: --accept N records their line N as a sale \
            (one or several, all or none); --dispute N (or all) with --dispute-csv FILE writes the \
            lines you dispute, both sides' figures and what differs, to send back. The Statements page \
            does the same with a printable dispute summary.

            Examples:
              commission compare "Glow Aesthetics" glow-march.csv --period 2026-03-01
              commission compare "Glow Aesthetics" Statement-Oct.pdf
              commission compare "Glow Aesthetics" glow-march.csv --product "SERUM 30 ML RETAIL=Serum 30ml"
              commission compare "Glow Aesthetics" glow-march.csv --accept 2
              commission compare "Glow Aesthetics" glow-march.csv --dispute all --dispute-csv dispute.csv
            """
    )
    @OptionGroup var book: BookOptions
    @Argument(help: "The clinic's name.") var clinic: String
    @Argument(help: "The clinic's statement: CSV, a PDF, or an .xlsx or .ods workbook (its first sheet).")
    var file: String
    @Option(help: "A day in the pay period the statement covers (default: the period of most of its lines).")
    var period: String?
    @Option(
        name: .customLong("product"),
        help: ArgumentHelp(
            "What the clinic calls one of your products: \"THEIR NAME=YOUR PRODUCT\" (repeatable; remembered for the clinic).",
            valueName: "their=yours"
        )
    )
    var products: [String] = []
    @Option(
        name: .customLong("accept"),
        help: ArgumentHelp(
            "Record the differing line N of theirs (missing from your book) as a sale (repeatable).",
            valueName: "n"
        )
    )
    var accept: [Int] = []
    @Option(
        name: .customLong("dispute"),
        help: ArgumentHelp("Dispute the differing line N (repeatable), or all of them.", valueName: "n|all")
    )
    var dispute: [String] = []
    @Option(
        name: .customLong("dispute-csv"),
        help: ArgumentHelp("Where to write the disputed lines as CSV.", valueName: "file")
    ) var disputeCSV: String?
    @OptionGroup var reading: ReadingOptions

    func validate() throws {
        if !dispute.isEmpty && disputeCSV == nil {
            throw ValidationError("--dispute writes the disputed lines to --dispute-csv FILE: give the file.")
        }
        if disputeCSV != nil && dispute.isEmpty {
            throw ValidationError("--dispute-csv writes the lines given with --dispute N (or --dispute all).")
        }
        for value in dispute where value != "all" && Int(value) == nil {
            throw ValidationError("--dispute takes a line's number or all, not \"\(value)\".")
        }
        for pair in products { do { _ = try ImportMapping.pair(pair) } catch { throw ValidationError("\(error)") } }
    }

    func run() async throws {
        let store = try book.open()
        let settings = try await store.settings()
        let clinic = try await store.clinic(named: self.clinic)
        for pair in try products.map(ImportMapping.pair) {
            let product = try await store.product(named: pair.field.trimmingWhitespace())
            try await store.setAlias(ProductAlias(clinicID: clinic.id, name: pair.header, productID: product.id))
        }
        let theirs = try await reading.read(file, store) {
            try TheirStatement(origin: $0, format: $1, currency: settings.currency)
        }
        if let kept = try await reading.keep(theirs.mapping, headers: theirs.headers, in: store) { output(kept) }
        guard !theirs.lines.isEmpty else { throw Failure("\(file) has no lines to compare.") }
        let payPeriod =
            try period.map { clinic.calendar.period(containing: try parseDay($0)) }
            ?? clinic.calendar.period(containing: theirs.lines.map(\.date).sorted()[theirs.lines.count / 2])
        let comparison = try await StatementComparison.compare(theirs, clinic: clinic, period: payPeriod, store: store)
        let renderer = Renderer(currency: settings.currency)
        let c = settings.currency
        let differing = comparison.differing
        var text =
            "\(clinic.name), \(payPeriod.start) – \(payPeriod.end): their statement (\(file), \(theirs.lines.count) line\(theirs.lines.count == 1 ? "" : "s")"
            + theirs.said.map { "; \($0)" }.joined() + ") against your book.\n"
        if differing.isEmpty {
            text +=
                "Every line agrees: their commission \(c.format(comparison.theirTotal)), yours \(c.format(comparison.herTotal)).\n"
        } else {
            let difference = comparison.difference
            text +=
                "Their commission \(c.format(comparison.theirTotal)), yours \(c.format(comparison.herTotal))"
                + (difference == .zero
                    ? ": the same total, but lines differ"
                    : ": they credit you \(c.format(difference.magnitudeOrSelf)) \(difference > .zero ? "more" : "less")")
                + ", line by line:\n\n" + (try renderer.differences(comparison)).rendered()
                + "\n\(comparison.lines.count - differing.count) line\(comparison.lines.count - differing.count == 1 ? " agrees" : "s agree").\n"
        }
        if !accept.isEmpty {
            var rows: [ImportRow] = []
            for number in accept {
                guard number >= 1, number <= differing.count else {
                    throw Failure("There is no differing line \(number); nothing was recorded.")
                }
                let line = differing[number - 1]
                guard line.canAccept, let their = line.theirs else {
                    throw Failure(
                        "Line \(number) is not a line of theirs missing from your book (\(line.explained(c.format))); nothing was recorded."
                    )
                }
                rows.append(
                    ImportRow(
                        line: their.line,
                        record: .sale(
                            NamedSaleDraft(
                                clinic: clinic.name,
                                product: line.product,
                                date: their.date,
                                quantity: their.quantity,
                                unitPrice: their.price,
                                note:
                                    "From \(clinic.name)'s statement (\((file as NSString).lastPathComponent), line \(their.line))"
                            )
                        )
                    )
                )
            }
            let summary = try await store.importRows(from: ArrayImportSource(rows), options: ImportOptions())
            text += "Recorded \(summary.sales) sale\(summary.sales == 1 ? "" : "s") from their statement.\n"
        }
        if let path = disputeCSV {
            let numbers = dispute.contains("all") ? Set(1...max(1, differing.count)) : Set(dispute.compactMap(Int.init))
            if let wrong = numbers.first(where: { $0 < 1 || $0 > differing.count }),
                !differing.isEmpty || !dispute.contains("all")
            {
                throw Failure("There is no differing line \(wrong); no dispute was written.")
            }
            guard !differing.isEmpty else { throw Failure("Every line agrees: there is nothing to dispute.") }
            do {
                try renderer.disputeCSV(comparison, lines: numbers).write(
                    toFile: path,
                    atomically: true,
                    encoding: .utf8
                )
            } catch {
                throw Failure("Cannot write \(path): \(error.localizedDescription)")
            }
            text += "Wrote the \(numbers.count) disputed line\(numbers.count == 1 ? "" : "s") to \(path).\n"
        }
        if accept.isEmpty && disputeCSV == nil && !differing.isEmpty {
            text +=
                "Nothing in your book changed: --accept N records a line of theirs, --dispute N --dispute-csv FILE writes a dispute.\n"
        }
        output(text)
    }
}
