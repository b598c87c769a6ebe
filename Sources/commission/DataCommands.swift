import ArgumentParser
import CommissionCore
import CommissionKit
import CommissionSQLite
import CommissionStore
import Foundation

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Import clinics, products, terms, sales, prices, schedules or deductions from CSV files or workbooks — all of it, or nothing.",
        discussion: """
            The kind of file is told from its headers (or --kind). Headers match loosely: case, spaces \
            and underscores do not matter, and common names work (Qty, Price, Split…). The file may be \
            UTF-8 with or without a byte-order mark, with CRLF line ends, quoted fields with commas or \
            newlines, and `,` `;` or tab delimiters. Columns Commission does not know are ignored.

            Dates may be written YYYY-MM-DD, or as her locale writes them — 2/25/2026, 25/02/2026, \
            25.02.26, with or without a time — and amounts with a currency sign before or after, \
            grouping (1,234.50  1.234,50  1 234,50  1'234.50) and a minus or parentheses for a \
            negative. The order of the dates and the decimal mark are told from the whole file and \
            said in what the import prints ("dates read as month/day/year: 2/25/2026 can only be read \
            so"); when the file cannot tell (every day 12 or less), nothing is imported and it asks \
            for --dates. --dates and --decimal-comma force a reading.

            A workbook (.xlsx, as Excel, LibreOffice or Google Sheets save it, or LibreOffice's .ods) is read \
            directly: one sheet of sales, or sheets of clinics, products, terms, prices and sales \
            together, each recognised by its name (Sales, Clinics, Price list…) or its headers, and \
            imported in the order they need. Dates, percentages and amounts are read as the cells \
            hold them; sheets that hold nothing to import are passed over and named.

            Headers it does not know can be mapped: --map "Share %=share" reads that column as the \
            share (a field as listed below; --map "Internal ref=ignore" leaves a column out), and \
            --save-mapping NAME keeps the mapping in the book. The next file with the same headers is \
            read with it by itself (and says so); --mapping NAME reads any file with it. \
            `commission mapping list` shows the saved ones.

            Any bad row means nothing is imported, from any of the files given together: every bad row \
            is listed with its file, line, column and reason (one reason of many rows once, with its \
            lines). A file imported before, byte for byte, is refused (so that no sale is recorded \
            twice) unless --again.

            Her history in one pass: when the sales name clinics or products the book does not have \
            (or a clinic's sales before its split began), the import says which, with what the file \
            says of each, and --create-missing makes them and imports everything in one step — each \
            new clinic paid on --schedule at --share of its --basis from its first sale in the file, \
            each product at its first line's price and cost, a clinic's earlier sales at its own \
            split. --write-missing DIR writes them as clinics.csv, products.csv and terms.csv instead, \
            to fill in and import with the file.

              clinics:  name, schedule                 (anchor)
              products: name, unit price               (sku, unit cost)
              terms:    clinic, share, effective from  (product, basis)
              terms may also have tiers, accelerators as `5000.00:50% 10000.00:60%`
              sales:    date, clinic, product          (quantity, unit price, unit cost, discount, no commission, note)
              prices:   clinic, product, unit price, effective from  (unit cost: the product's when empty)
              schedules: clinic, schedule, effective from  (a schedule change from that day)
              deductions: clinic, name, amount or share, effective from  (last day)

            Examples:
              commission import clinics.csv products.csv terms.csv sales.csv   # all four, or nothing
              commission import her-book.xlsx                                   # every sheet it can, or nothing
              commission import her-book.ods                                    # LibreOffice's own, the same way
              commission import sales.csv --dry-run
              commission import ventes.csv --delimiter ";" --decimal-comma
              commission import us-export.csv --dates mdy
              commission import clinic-a.csv --map "Share %=share" --map "Start=effective from" --save-mapping "Clinic A"
              commission import clinic-a-2027.csv --mapping "Clinic A"
              commission import history.xlsx --create-missing --schedule monthly --share 40
              commission import history.xlsx --write-missing additions   # then fill them in, and:
              commission import additions/clinics.csv additions/products.csv additions/terms.csv history.xlsx
              commission export prices --format csv > prices.csv && commission import prices.csv --db other.sqlite
            """
    )
    @OptionGroup var book: BookOptions
    @Argument(help: "CSV files or .xlsx/.ods workbooks, imported in order as one import: all of them, or nothing.")
    var files: [String]
    @Option(
        help:
            "What the files hold: clinics, products, terms, sales, prices, schedules or deductions (default: told from the headers)."
    ) var kind: ImportKind?
    @OptionGroup var reading: ReadingOptions
    @Flag(name: .customLong("dry-run"), help: "Check everything and report, but write nothing.") var dryRun = false
    @Flag(
        name: .customLong("again"),
        help: "Import a file even though the same file (byte for byte) was imported before."
    ) var again = false
    @Flag(
        name: .customLong("create-missing"),
        help: "Make the clinics, products and splits the sales need that the book lacks, with the sales (one step)."
    ) var createMissing = false
    @Option(
        help: ArgumentHelp(
            "With --create-missing: how the new clinics pay (monthly, semimonthly, weekly:WEEKDAY, biweekly:YYYY-MM-DD).",
            valueName: "schedule"
        )
    ) var schedule: String = "monthly"
    @Option(
        help: ArgumentHelp(
            "With --create-missing: your share at the new clinics, from their first sale (37.5 for 37.50%).",
            valueName: "percent"
        )
    ) var share: String?
    @Option(help: "With --create-missing: what the new clinics' share is of, profit or revenue.")
    var basis: CommissionBasis = .profit
    @Option(
        name: .customLong("write-missing"),
        help: ArgumentHelp(
            "Write what the sales need that the book lacks as CSV files to fill in, in this directory.",
            valueName: "directory"
        )
    ) var writeMissing: String?

    func validate() throws {
        if files.isEmpty { throw ValidationError("Give at least one CSV file to import.") }
        if createMissing && writeMissing != nil {
            throw ValidationError(
                "--create-missing makes what is missing, --write-missing writes it to fill in: give one."
            )
        }
        if reading.saveMapping != nil && (files.count != 1 || files.contains(where: Workbook.isWorkbook(atPath:))) {
            throw ValidationError("--save-mapping keeps the mapping of one CSV file: give that one file.")
        }
    }

    func run() async throws {
        let store = try book.open()
        let settings = try await store.settings()
        let showProgress = isatty(2) != 0
        // Every file is opened and its header checked before anything is written.
        var sources: [(name: String, source: any ImportSource)] = []
        var kinds: [String] = []
        let format = try await reading.format(store, name: reading.saveMapping, kind: kind)
        var toSave: ImportMapping?
        for file in files {
            do {
                if Workbook.isWorkbook(atPath: file) {
                    let (sheets, skipped) = try Workbook(path: file).importSources(
                        kind: kind,
                        format: format,
                        currency: settings.currency
                    )
                    sources += sheets.map { ($0.name, $0.source) }
                    let names = sheets.map { "\"\($0.source.sheetName ?? $0.name)\"" + $0.source.passedOverSaid }
                    kinds.append("\(file) (\(sheets.count == 1 ? "sheet" : "sheets") \(names.joined(separator: ", ")))")
                    if !skipped.isEmpty { note("\(file): passed over \(skipped.joined(separator: "; ")).") }
                } else {
                    let source = try CSVImportSource(
                        path: file,
                        kind: kind,
                        format: format,
                        currency: settings.currency
                    )
                    sources.append((file, source))
                    kinds.append("\(file) (\(source.said.joined(separator: "; ")))")
                    if let name = reading.saveMapping, var mapping = source.mapping {
                        mapping.name = name
                        mapping.headers = source.headers
                        mapping.kind = source.kind.rawValue
                        toSave = mapping
                    }
                }
            } catch let error as CSVFileError {
                throw Failure(
                    error.description + Self.hint(for: error)
                        + (files.count > 1 || sources.count > 0 ? " Nothing was imported." : "")
                )
            }
        }
        let source = ImportSources.combining(sources)
        // Each file's digest is kept with the import: the same file a second time is refused (--again).
        var options = ImportOptions(
            dryRun: dryRun,
            digests: try files.map { try ImportDigest.ofFile(atPath: $0) },
            again: again
        )
        let what = files.count == 1 ? files[0] : "\(files.count) files"
        if showProgress {
            options.progress = { rows in FileHandle.standardError.write(Data("\r\(what): \(rows) rows read…".utf8)) }
        }
        do {
            // What the sales need that the book lacks: made with them (--create-missing), written to
            // fill in (--write-missing), or said when the import refuses them.
            var additions = Additions()
            if createMissing || writeMissing != nil,
                let missing = try await MissingRecords.find(importing: source, into: store, options: options)
            {
                if let writeMissing {
                    try output(Self.write(missing, to: writeMissing, files: files, currency: settings.currency))
                    return
                }
                do {
                    additions = try Additions(
                        missing,
                        schedule: try parseSchedule(schedule),
                        share: try share.map { try Share(parsing: $0) },
                        basis: basis
                    )
                } catch StoreError.invalid(let field, let reason) {
                    let said =
                        field == "share"
                        ? "Give your share at the new clinics with --share PERCENT."
                        : "\(reason.prefix(1).uppercased())\(reason.dropFirst()) Or write them to fill in with --write-missing DIRECTORY."
                    throw Failure(
                        "\(what): \(Self.needs(missing, currency: settings.currency)) \(said) Nothing was imported."
                    )
                }
            } else if writeMissing != nil {
                output("The files need nothing the book lacks: nothing was written. Import them as they are.\n")
                return
            }
            let summary = try await store.importRows(from: additions.importing(source), options: options)
            if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            // Her history, brought into a book without sales: asked about on her first visit to its pages.
            try await UnconfirmedHistory.askAfterImport(summary, into: store)
            // A title above the header and totals rows are not records: passed over, and said, per file.
            let totals = sources.flatMap { named in
                ((named.source as? CSVImportSource)?.rowsPassedOverSaid ?? []).map { "\(named.name): \($0)" }
            }
            output(
                "\(kinds.joined(separator: ", ")): \(dryRun ? "would import" : "imported") \(summary.counted)\(dryRun ? " (dry run: nothing written)" : "")"
                    + totals.map { "; \($0)" }.joined() + ".\n"
            )
            // A dry run shows the first sales as read, for her to check the columns were understood.
            if dryRun {
                for named in sources {
                    guard let csv = named.source as? CSVImportSource, case let rows = try csv.preview(), !rows.isEmpty
                    else { continue }
                    output(
                        "First sales of \(csv.sheetName.map { "the sheet \"\($0)\"" } ?? named.name) as read:\n"
                            + rows.map { "  " + Self.previewed($0, currency: settings.currency) + "\n" }.joined()
                    )
                }
            }
            if let toSave {
                try await store.saveMapping(toSave)
                output("Saved the column mapping “\(toSave.name)”: the next file with these headers is read with it.\n")
            }
        } catch let error as StoreError {
            if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            // Refused for what the book lacks: say what, and how to make it in the same step.
            if case .importRejected = error, !createMissing,
                let missing = try await MissingRecords.find(importing: source, into: store, options: options)
            {
                let rest =
                    missing.otherProblems.isEmpty
                    ? ""
                    : "\n"
                        + StoreError.importRejected(missing.otherProblems, total: missing.otherProblems.count)
                        .description
                throw Failure(
                    "\(what): \(Self.needs(missing, currency: settings.currency)) Nothing was imported. "
                        + "Make them with the sales in one step: add --create-missing --schedule monthly --share PERCENT "
                        + "(the new clinics' pay schedule and your share there), or write them to fill in with --write-missing DIRECTORY."
                        + rest
                )
            }
            throw Failure("\(what): \(error.description)")
        }
    }
}

extension Import {
    /// What the files need that the book lacks, said in a few lines.
    static func needs(_ missing: MissingRecords, currency: Currency) -> String {
        var lines: [String] = []
        if !missing.clinics.isEmpty {
            lines.append(
                "clinics the book does not have: "
                    + missing.clinics.map { "\($0.name) (first sale \($0.firstSale), \($0.firstLine))" }.joined(
                        separator: ", "
                    )
            )
        }
        if !missing.products.isEmpty {
            lines.append(
                "products the book does not have: "
                    + missing.products.map { product in
                        product.name
                            + (product.unitPrice.map { price in
                                " (\(currency.format(price))"
                                    + (product.unitCost.map { ", cost \(currency.format($0))" } ?? "")
                                    + ", \(product.firstLine))"
                            } ?? " (no price in the file, \(product.firstLine))")
                    }.joined(separator: ", ")
            )
        }
        if !missing.terms.isEmpty {
            lines.append(
                "sales before a clinic's split begins: "
                    + missing.terms.map { "\($0.clinic) from \($0.from)\($0.share.map { " (its own \($0))" } ?? "")" }
                    .joined(separator: ", ")
            )
        }
        return "The sales need what the book lacks —\n  " + lines.joined(separator: ";\n  ") + "."
    }

    /// Writes what is missing as files `commission import` reads, for her to fill in (the shares
    /// left blank where nothing proposes one), and says how to import them.
    static func write(
        _ missing: MissingRecords,
        to directory: String,
        files: [String],
        currency: Currency
    ) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        func cell(_ text: String) -> String {
            text.contains(where: { ",\"\n\r".contains($0) })
                ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        var written: [String] = []
        func write(_ name: String, _ header: String, _ rows: [[String]]) throws {
            guard !rows.isEmpty else { return }
            let path = (directory as NSString).appendingPathComponent(name)
            guard !FileManager.default.fileExists(atPath: path) else {
                throw Failure("\(path) exists already: give another directory to --write-missing.")
            }
            let text = header + "\n" + rows.map { $0.map(cell).joined(separator: ",") + "\n" }.joined()
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            written.append(path)
        }
        try write("clinics.csv", "name,schedule", missing.clinics.map { [$0.name, "monthly"] })
        try write(
            "products.csv",
            "name,unit price,unit cost",
            missing.products.map {
                [
                    $0.name, $0.unitPrice.map { currency.format($0) } ?? "",
                    $0.unitCost.map { currency.format($0) } ?? "",
                ]
            }
        )
        try write(
            "terms.csv",
            "clinic,share,basis,effective from",
            missing.clinics.map { [$0.name, "", "profit", $0.firstSale.description] }
                + missing.terms.map {
                    [$0.clinic, $0.share?.percentText ?? "", $0.basis.rawValue, $0.from.description]
                }
        )
        return "Wrote " + written.joined(separator: ", ")
            + ": fill in each clinic's schedule and your share (and a product's price where it is blank), then import them with the sales in one step:\n"
            + "  commission import "
            + (written + files).map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: " ") + "\n"
    }
}

extension Import {
    /// A sale as read from a file, in a line: `line 2  2026-03-02  Glow Aesthetics  2 × Serum 30ml at 45.00, cost 20.00`.
    static func previewed(_ row: ImportRow, currency: Currency) -> String {
        guard case .sale(let sale) = row.record else { return "line \(row.line)" }
        return "line \(row.line)  \(sale.date)  \(sale.clinic)  \(sale.quantity) × \(sale.product)"
            + " at \(sale.unitPrice.map(currency.format) ?? "the product's price"), cost \(sale.unitCost.map(currency.format) ?? "the product's")"
            + (sale.discount.isZero ? "" : ", discount \(currency.format(sale.discount))")
    }

    /// What would have helped a file whose columns were not understood: the flag, with an example
    /// made of its own first unknown header and the first field it lacks.
    static func hint(for error: CSVFileError) -> String {
        let (has, missing): ([String], [String])
        switch error {
        case .missingColumns(_, let columns, let headers): (has, missing) = (headers, columns)
        case .unknownKind(_, let headers): (has, missing) = (headers.map { $0.trimmingWhitespace() }, [])
        default: return ""
        }
        // Never a bank's money-out column as the amount of its deposits.
        let unknown = has.first {
            !$0.isEmpty && CSVImportSource.fieldName(for: $0) == nil
                && !(missing.first == "amount" && CSVImportSource.isDebitColumn($0))
        }
        guard let unknown else {
            return missing.isEmpty ? "" : " Or map a column to \"\(missing[0])\" with --map \"HEADER=\(missing[0])\"."
        }
        return
            " To read a column as a field, map it (for instance --map \"\(unknown)=\(missing.first ?? "date")\"); add --save-mapping NAME to keep the mapping for the next file."
    }
}

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Export the book's clinics, products, terms, prices, schedules, deductions, sales, payouts or audit log as CSV or JSON.",
        discussion: """
            CSV exports of clinics, products, terms (with their tiers), prices, schedules (changes of \
            a clinic's pay schedule), deductions and sales import again with `commission import`, in \
            that order. \
            The audit log is every change to sales, terms, payouts, periods and settings: when, who \
            (an account, or cli:USER), what, and the record before and after as JSON. Cells that a \
            spreadsheet would run as a formula are written with a leading '.

            Examples:
              commission export sales --format csv --output sales.csv
              commission export clinics --format json
              commission export deductions --output deductions.csv
              commission export audit --output audit.csv
              commission export all --output-directory backup-2026-11
            """
    )
    enum What: String, ExpressibleByArgument, CaseIterable {
        case clinics, products, terms, prices, schedules, deductions, sales, payouts, audit, all
    }

    @OptionGroup var book: BookOptions
    @Argument(help: "clinics, products, terms, prices, schedules, deductions, sales, payouts, audit, or all.") var what:
        What
    @Option(help: "csv or json.") var format: OutputFormat = .csv
    @Option(name: .customLong("output"), help: "Write to this file instead of standard output.") var outputPath: String?
    @Option(name: .customLong("output-directory"), help: "With `all`: the directory for one file per kind.")
    var directory: String?
    @Flag(name: .long, help: "Include voided sales.") var voided = false

    func validate() throws {
        if format == .table { throw ValidationError("Export writes csv or json.") }
        if what == .all && directory == nil { throw ValidationError("`export all` needs --output-directory.") }
    }

    func run() async throws {
        let store = try book.open()
        let renderer = Renderer(currency: try await store.settings().currency)
        let kinds = what == .all ? What.allCases.filter { $0 != .all } : [what]
        if let directory {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        for kind in kinds {
            let listing = try await renderer.export(
                ExportKind(rawValue: kind.rawValue) ?? .payouts,
                from: store,
                includeVoided: voided
            )
            let text = renderer.render(listing, as: format)
            if let directory {
                let path = "\(directory)/\(kind.rawValue).\(format.rawValue)"
                try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                note("Wrote \(listing.count) \(kind.rawValue) to \(path)")
            } else if let outputPath {
                try Data(text.utf8).write(to: URL(fileURLWithPath: outputPath), options: .atomic)
                note("Wrote \(listing.count) \(kind.rawValue) to \(outputPath)")
            } else {
                output(text)
            }
        }
    }
}

struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the whole book to a file, safely, even while it is in use.",
        discussion: """
            By default an SQLite file, made with SQLite's online backup: sales recorded meanwhile are \
            either in the copy or not, never half. With --archive (or a path ending in .jsonl), a book \
            archive instead: JSON Lines, one record per line, which any store restores (`commission \
            restore`, `commission books restore` on PostgreSQL) and any tool reads. Both hold the \
            accounts' password hashes: keep them as safe as the book.

            Examples:
              commission backup ~/commission-2026-11-22.sqlite
              commission backup ~/commission-2026-11-22.jsonl
            """
    )
    @OptionGroup var book: BookOptions
    @Argument(help: "The backup file to write.") var path: String
    @Flag(help: "Write a book archive (JSON Lines) rather than an SQLite file.") var archive = false
    @Flag(help: "Replace the file if it exists.") var force = false

    func run() async throws {
        let store = try book.open()
        if archive || path.hasSuffix(".jsonl") {
            let counts = try await ArchiveFile.write(store, to: path, replacing: force)
            output("Archived \(book.path) to \(path): \(counts).\n")
        } else {
            try await store.backup(to: path, replacing: force)
            output(
                "Backed up \(book.path) to \(path) (\(try await store.countSales(SaleQuery(includeVoided: true))) sales).\n"
            )
        }
    }
}

struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replace the book with a backup (an SQLite file or a book archive).",
        discussion: """
            The backup is checked first; the current book is replaced only when it is sound, in one \
            step — its records, audit log, accounts and API tokens (browsers sign in again). Refused \
            when the current book holds sales, unless --force. A book archive (`commission backup \
            --archive`, or one made on PostgreSQL with `commission books backup`) is read to its end \
            line before anything changes.

            Examples:
              commission restore ~/commission-2026-11-22.sqlite --force
              commission restore ~/maya-from-the-server.jsonl
            """
    )
    @OptionGroup var book: BookOptions
    @Argument(help: "The backup file to restore.") var path: String
    @Flag(help: "Replace a book that already holds sales.") var force = false

    func run() async throws {
        let store = try book.open()
        let existing = try await store.countSales(SaleQuery(includeVoided: true))
        if existing > 0 && !force {
            throw Failure(
                "\(book.path) holds \(existing) sales: pass --force to replace them with the backup (take a backup of it first)."
            )
        }
        if ArchiveFile.isArchive(atPath: path) {
            let progress = Progress()
            let counts = try await store.restoreArchive { sink in
                try await ArchiveFile.read(path) { record in
                    try await sink(record)
                    progress.saw(record)
                }
            }
            output("Restored \(path) into \(book.path): \(counts).\n")
        } else {
            try await store.restore(from: path)
            output(
                "Restored \(path) into \(book.path) (\(try await store.countSales(SaleQuery(includeVoided: true))) sales).\n"
            )
        }
    }
}

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build a sample book and show its dashboard.",
        discussion: """
            Four clinics on different schedules and splits, a dozen products, a year of sales up to \
            today with returns, discounts and samples, and payouts (one short, one missing, one over). \
            The demo lives in its own file, replaced on every run, so your own book is never touched.

            Example:
              commission demo
              commission statement "Harbor Skin Clinic" --previous --db "$(commission demo --print-path)"
            """
    )
    @Option(help: ArgumentHelp("Where to build the demo book.", valueName: "path")) var db: String?
    @Flag(name: .customLong("print-path"), help: "Only print where the demo book is.") var printPath = false
    @OptionGroup var format: FormatOption

    var path: String {
        db
            ?? (SQLiteStore.defaultPath(
                environment: ProcessInfo.processInfo.environment.filter { $0.key != "COMMISSION_DB" }
            ) as NSString)
            .deletingLastPathComponent + "/demo.sqlite"
    }

    func run() async throws {
        if printPath {
            output(path + "\n")
            return
        }
        // try?: the last demo's files, absent the first time; a demo book holds nothing of hers
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let store = try SQLiteStore(
            .file(path),
            defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: TimeZone.current.identifier)
        )
        let settings = try await store.settings()
        let today = settings.today()
        let summary = try await DemoBook(today: today).build(in: store)
        note(
            "Built a demo book of \(summary.clinics) clinics, \(summary.products) products and \(summary.sales) sales in \(path)"
        )
        output(Renderer(currency: settings.currency).render(try await store.dashboard(today: today), as: format.format))
        if format.format == .table {
            output(
                "\nExplore it:\n  commission statement \"Harbor Skin Clinic\" --previous --db \(path)\n  commission reconcile --db \(path)\n"
            )
        }
    }
}
