import CommissionCore
import CommissionStore
import Foundation
import Synchronization

/// A CSV file or a workbook's sheet opened for reading: its header row found, each field's column
/// resolved (her mapping first, then the headers Commission knows) and rows known to follow it.
/// What the rows are read as is the reader's: the book's records (``CSVImportSource``), a bank
/// statement's deposits (``BankStatement``), a clinic's statement lines (``TheirStatement``).
package struct OpenedTable: Sendable {
    typealias Field = CSVImportSource.Field

    let origin: CSVImportSource.Origin
    let delimiter: UInt8
    /// Each field's column, and its header as the file spells it.
    let columns: CSVImportSource.Columns
    /// The header row as read, and as spelled (spaces around each header trimmed).
    let rawHeaders: [String], headers: [String]
    /// A sheet's header row (its first row with a cell): the rows after it are read.
    package let headerRow: Int
    /// The lines of the rows with a cell above the header (a title, a date, a note): not records,
    /// passed over, and said so.
    package let titleRows: [Int]
    /// The column mapping the file was read with: the one given, or a saved one made for its headers.
    let mapping: ImportMapping?
    /// Whether a row with a cell follows the header.
    let hasRows: Bool
    /// The lines of the totals rows the last reading passed over (``isTotals(_:)``).
    let totalRows = Lines()

    /// Lines noted while the rows are read, for what is said after.
    final class Lines: Sendable {
        private let lines = Mutex<[Int]>([])
        func set(_ new: [Int]) { lines.withLock { $0 = new } }
        var all: [Int] { lines.withLock { $0 } }
    }

    /// The words of a totals row's label, folded ("Total", "Summe", "Totale", "Gesamt", "Totaal"…).
    static let totalWords: Set<String> = [
        "total", "totals", "subtotal", "grandtotal", "sum", "summe", "zwischensumme", "gesamt", "gesamtsumme",
        "totale", "subtotale", "totaal", "subtotaal", "totaux", "soustotal", "somme", "suma", "totales",
        "somma", "som",
    ]

    /// A row of totals, not a record: its clinic and product (where the file has them) are empty,
    /// and it says it is a total, or (in a file of dated rows) it has no date either — what a
    /// spreadsheet's SUM row below the sales looks like.
    func isTotals(_ fields: [String]) -> Bool {
        func empty(_ field: Field) -> Bool? {
            columns[field].map { $0.index >= fields.count || fields[$0.index].isBlank }
        }
        guard empty(.clinic) != false, empty(.product) != false else { return false }
        if fields.contains(where: { Self.totalWords.contains(Self.key($0)) }) { return true }
        return columns[.clinic] != nil && columns[.product] != nil && empty(.date) == true
    }

    /// The rows above the header passed over, in words: "passed over the title on line 1",
    /// "… the 2 rows above the header, on lines 1, 3" (a blank line between them is no row).
    static func titleSaid(_ lines: [Int]) -> String? {
        guard let first = lines.first else { return nil }
        return lines.count == 1
            ? "passed over the title on line \(first)"
            : "passed over the \(lines.count) rows above the header, on lines "
                + lines.map(String.init).joined(separator: ", ")
    }

    /// What the last reading passed over that was not a record: the rows above the header and the
    /// totals rows, in words.
    var rowsPassedOverSaid: [String] {
        [Self.titleSaid(titleRows), Self.totalsSaid(totalRows.all)].compactMap { $0 }
    }

    /// Totals rows passed over, in words: "passed over the totals row on line 9", "… the 2 totals rows on lines 9, 14".
    static func totalsSaid(_ lines: [Int]) -> String? {
        switch lines.count {
        case 0: nil
        case 1: "passed over the totals row on line \(lines[0])"
        default:
            "passed over the \(lines.count) totals rows on lines "
                + lines.prefix(10).map(String.init).joined(separator: ", ") + (lines.count > 10 ? "…" : "")
        }
    }

    /// A cell as a word to compare: folded, letters only.
    static func key(_ text: String) -> String {
        String(CSVImportSource.folded(text).unicodeScalars.filter { CharacterSet.letters.contains($0) })
    }

    var headerCount: Int { rawHeaders.count }

    /// Opens `origin` and reads its header.
    /// - Throws: ``CSVFileError`` for a file that cannot be read at all, or has no rows.
    init(origin: CSVImportSource.Origin, format: CSVFormat) throws {
        self.origin = origin
        let path = origin.name
        let header: [String]
        var hasRows = false
        if case .sheet(let workbook, let sheet) = origin {
            // The first rows with a cell (a title may come before the header): the header among
            // them, and whether a row follows it.
            var candidates: [(cells: [String], row: Int)] = []
            func look(firstBytes: Int?) throws -> Bool {
                candidates = []
                return try workbook.rows(of: sheet, firstBytes: firstBytes) { cells, row in
                    guard !cells.allSatisfy(\.isBlank) else { return true }
                    candidates.append((cells, row))
                    return candidates.count <= Self.headerSearch
                }
            }
            // The first megabyte holds the header and a row, but for a sheet of giant cells or blank rows.
            if try !look(firstBytes: 1 << 20) { _ = try look(firstBytes: nil) }
            guard !candidates.isEmpty else { throw CSVFileError.empty(path) }
            let chosen = Self.headerIndex(among: candidates.prefix(Self.headerSearch).map(\.cells), format: format)
            header = candidates[chosen].cells
            headerRow = candidates[chosen].row
            titleRows = candidates.prefix(chosen).map(\.row)
            hasRows = candidates.count > chosen + 1
            delimiter = 0
        } else {
            let (delimiter, first, headerScanner, line, above) = try Self.csvHeader(of: origin, format: format)
            self.delimiter = delimiter
            var scanner = headerScanner
            header = first
            headerRow = line
            titleRows = above
            hasRows = try CSVImportSource.next(&scanner, path: path) != nil
        }
        rawHeaders = header

        let spelledHeader = header.map { $0.trimmingWhitespace() }
        headers = spelledHeader
        var mapping = format.mapping
        if let given = mapping,
            let absent = given.fields.keys.sorted().first(where: { header in
                !spelledHeader.contains { ImportMapping.key($0) == ImportMapping.key(header) }
            })
        {
            // A workbook's sheets are read with the mapping that fits them; a file must have its columns.
            guard case .sheet = origin else {
                throw CSVFileError.unmappedColumn(
                    path,
                    absent,
                    mapping: given.name,
                    has: spelledHeader.filter { !$0.isEmpty }
                )
            }
            mapping = nil
        }
        mapping = mapping ?? format.saved.first { $0.fits(spelledHeader) }
        self.mapping = mapping
        var columns = CSVImportSource.Columns()
        var duplicates: [String] = []
        // The columns she mapped first; then the headers Commission knows, for the fields still free.
        for (index, spelled) in spelledHeader.enumerated() {
            guard let mapped = mapping?.field(for: spelled) else { continue }
            guard let field = Field(rawValue: mapped) else { continue }  // mapped to nothing: ignored
            if columns[field] != nil {
                duplicates.append(spelled)
                continue
            }
            columns[field] = (index, spelled)
        }
        for (index, spelled) in spelledHeader.enumerated() where mapping?.field(for: spelled) == nil {
            guard let field = CSVImportSource.field(for: spelled) else { continue }
            if columns[field] != nil {
                // Banks write several texts of a transaction (Description, Reference): the first is read.
                if field != .description, mapping?.fields.values.contains(field.rawValue) != true {
                    duplicates.append(spelled)
                }
                continue
            }
            columns[field] = (index, spelled)
        }
        if !duplicates.isEmpty { throw CSVFileError.duplicateHeaders(path, duplicates) }
        self.columns = columns
        self.hasRows = hasRows
    }

    /// Reads a whole file from elsewhere (a bank's, a clinic's) that must have `needs`: every row
    /// through `body`; a row that cannot be read refuses the file.
    /// - Throws: ``CSVFileError``; ``StoreError/importRejected(_:total:)`` listing the rows' problems.
    /// `reads` are the fields `body` reads: the file's other columns are said to be passed over.
    /// Returns how it was read, and the mapping it was read with and its headers (to keep them).
    static func readWhole(
        _ origin: CSVImportSource.Origin,
        format: CSVFormat,
        currency: Currency,
        needs: [Field],
        reads: Set<Field>,
        _ body: (inout RowReader) throws -> Void
    ) throws -> (said: [String], mapping: ImportMapping?, headers: [String]) {
        let table = try OpenedTable(origin: origin, format: format)
        try table.require(needs.filter { table.columns[$0] == nil })
        let reading = try table.reading(format: format)
        let problems = try table.rows(currency: currency, reading: reading, body)
        if !problems.isEmpty { throw StoreError.importRejected(Array(problems.prefix(100)), total: problems.count) }
        return (
            table.said(reading, reads: reads.union(needs)) + table.rowsPassedOverSaid,
            table.mapping, table.headers
        )
    }

    /// How the file is read, in words: the mapping it was read with, how its dates and amounts are
    /// read, and the columns no field in `reads` is read from ("passed over: Bemerkung, Saldo"),
    /// so that no column holding data is dropped without a word.
    func said(_ reading: ImportReading, reads: Set<Field>) -> [String] {
        let passed = passedOver(reads: reads)
        return (mapping.map { ["columns as mapped in “\($0.name)”"] } ?? []) + reading.said
            + (passed.isEmpty ? [] : ["passed over: " + passed.joined(separator: ", ")])
    }

    /// The columns with a header that no field in `reads` is read from: one Commission does not
    /// know, one she mapped to nothing, or a field this reader has no use for.
    func passedOver(reads: Set<Field>) -> [String] {
        let read = Set(reads.compactMap { columns[$0]?.index })
        return headers.enumerated().filter { !$0.element.isEmpty && !read.contains($0.offset) }.map(\.element)
    }

    /// How many rows with a cell are looked at for the header: a title and notes may come first.
    static let headerSearch = 20

    /// Her sheet as it is: a title, a date and blank rows may come before the header. Of `rows`
    /// (the first rows with a cell), the header is the first that names two columns Commission
    /// knows (or her mappings do); failing that, the first of those with the most cells.
    static func headerIndex(among rows: [[String]], format: CSVFormat) -> Int {
        func known(_ cell: String) -> Bool {
            let text = cell.trimmingWhitespace()
            guard !text.isEmpty else { return false }
            return CSVImportSource.field(for: text) != nil || format.mapping?.field(for: text) != nil
                || format.saved.contains { $0.field(for: text) != nil }
        }
        if let index = rows.firstIndex(where: { $0.filter(known).count >= 2 }) { return index }
        let filled = rows.map { $0.filter { !$0.isBlank }.count }
        return filled.firstIndex(of: filled.max() ?? 0) ?? 0
    }

    /// A CSV file's delimiter (given, or sniffed from its first lines), its header row (found
    /// among its first rows, ``headerIndex(among:format:)``), the scanner just past it, and the
    /// header's line.
    /// - Throws: ``CSVFileError`` for a file that is empty, binary or not UTF-8, or a delimiter that is not ASCII.
    static func csvHeader(
        of origin: CSVImportSource.Origin,
        format: CSVFormat
    ) throws -> (delimiter: UInt8, header: [String], scanner: CSVScanner, line: Int, above: [Int]) {
        let path = origin.name
        let head = try origin.head()
        guard !head.isEmpty, !head.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
            throw CSVFileError.empty(path)
        }
        if head.contains(0) { throw CSVFileError.binary(path) }
        let delimiter: UInt8
        if let given = format.delimiter {
            guard let ascii = given.asciiValue else { throw CSVFileError.delimiterNotASCII(String(given)) }
            delimiter = ascii
        } else {
            delimiter = CSVImportSource.sniffDelimiter(head)
        }
        var scanner = try origin.scanner(delimiter: delimiter)
        var candidates: [CSVScanner.Record] = []
        while candidates.count < headerSearch {
            let record: CSVScanner.Record?
            do {
                record = try CSVImportSource.next(&scanner, path: path)
            } catch {
                // A row the header search cannot read is the rows' problem, reported with its line.
                if candidates.isEmpty { throw error }
                break
            }
            guard let record else { break }
            if !record.fields.allSatisfy(\.isBlank) { candidates.append(record) }
        }
        guard !candidates.isEmpty else { throw CSVFileError.empty(path) }
        let chosen = headerIndex(among: candidates.map(\.fields), format: format)
        let header = candidates[chosen]
        // Read again from the start, to just past the header.
        var after = try origin.scanner(delimiter: delimiter)
        try skipThroughHeader(&after, line: header.line, path: path)
        return (delimiter, header.fields, after, header.line, candidates.prefix(chosen).map(\.line))
    }

    /// Moves `scanner` past the record that starts on `line` (the header) and every one before it.
    static func skipThroughHeader(_ scanner: inout CSVScanner, line: Int, path: String) throws {
        while let record = try CSVImportSource.next(&scanner, path: path), record.line < line {}
    }

    /// Refuses a file that lacks some of the fields its reader needs, saying what it has, or
    /// that has no rows.
    func require(_ missing: [Field]) throws {
        if !missing.isEmpty { throw CSVFileError.missingColumns(origin.name, missing.map(\.rawValue), has: headers) }
        guard hasRows else { throw CSVFileError.noRows(origin.name) }
    }

    /// How the file's dates and amounts are written, from all of them (a CSV file is read once
    /// more for it, its date and amount columns only): a date with a day over 12 says which part
    /// is the day; a `12,50` says the decimal mark is a comma. A sheet's cells are dates and
    /// numbers already: it is read as given.
    func reading(format: CSVFormat) throws -> ImportReading {
        let dateFields = CSVImportSource.dateFields, amountFields = CSVImportSource.amountFields
        let dates = dateFields.compactMap { columns[$0]?.index },
            amounts = amountFields.compactMap { columns[$0]?.index }
        var evidence = ReadingEvidence()
        if case .sheet(let workbook, let sheet) = origin {
            // A sheet's date and number cells are read as they are; its text cells ("3/16/2026"
            // typed as text, "$234.32") tell how they are written, as a CSV's do: from its first
            // rows (4 MB of sheet, some ten thousand), so that a large sheet is not unpacked twice.
            if (format.dates == nil && !dates.isEmpty) || (!format.decimalComma && !amounts.isEmpty) {
                let headerRow = headerRow
                _ = try workbook.rows(of: sheet, firstBytes: 4 << 20) { cells, line in
                    guard line > headerRow, !cells.allSatisfy(\.isBlank), !isTotals(cells) else { return true }
                    for index in dates where index < cells.count && !cells[index].isEmpty {
                        evidence.date(cells[index].trimmed)
                    }
                    for index in amounts where index < cells.count && !cells[index].isEmpty {
                        evidence.amount(cells[index])
                    }
                    return true
                }
            }
        } else if (format.dates == nil && !dates.isEmpty) || (!format.decimalComma && !amounts.isEmpty) {
            var scanner = try origin.scanner(delimiter: delimiter)
            // try?: the header was read once already; this read only samples dates and amounts
            try? Self.skipThroughHeader(&scanner, line: headerRow, path: origin.name)
            var rows = 0
            // try?: a record that cannot be read ends the sample; the import's own read reports it
            while let record = try? scanner.next() {
                let fields = record.fields
                if fields.count == headerCount, isTotals(fields) { continue }
                for index in dates where index < fields.count && !fields[index].isEmpty {
                    evidence.date(fields[index].trimmed)
                }
                for index in amounts where index < fields.count && !fields[index].isEmpty {
                    evidence.amount(fields[index])
                }
                rows += 1
                // Ten thousand rows of ISO dates and plain amounts: a file exported so is read so
                // (a later date written otherwise is its row's error, which says to pass --dates).
                if rows == 10_000, !evidence.sawLocale { break }
            }
        }
        do {
            return try evidence.reading(given: format.dates, decimalComma: format.decimalComma ? true : nil)
        } catch let error as ReadingError {
            throw CSVFileError.reading(origin.name, error)
        }
    }

    /// Reads every row after the header (blank ones passed over) with a ``RowReader`` of the
    /// file's reading; returns the problems of every row, and those of the file from where it
    /// stops being readable.
    func rows(
        currency: Currency,
        reading: ImportReading,
        _ body: (inout RowReader) throws -> Void
    ) throws -> [ImportProblem] {
        var problems: [ImportProblem] = [], totals: [Int] = []
        defer { totalRows.set(totals) }
        let (dates, decimalComma) = (reading.dates, reading.decimalComma)
        let (columns, headerCount, headerRow) = (columns, headerCount, headerRow)
        if case .sheet(let workbook, let sheet) = origin {
            // A sheet's row has a cell for each column up to its last filled one: the rest are empty.
            try workbook.rows(of: sheet) { cells, line in
                guard line > headerRow, !cells.allSatisfy(\.isBlank) else { return true }
                let fields =
                    cells.count >= headerCount
                    ? Array(cells.prefix(headerCount))
                    : cells + repeatElement("", count: headerCount - cells.count)
                if isTotals(fields) {
                    totals.append(line)
                    return true
                }
                var row = RowReader(
                    fields: fields,
                    columns: columns,
                    line: line,
                    currency: currency,
                    dates: dates,
                    decimalComma: decimalComma
                )
                try body(&row)
                problems += row.problems
                return true
            }
            return problems
        }
        var scanner = try origin.scanner(delimiter: delimiter)
        do {
            while let record = try scanner.next(), record.line < headerRow {}  // the header, and any title before it
            while let record = try scanner.next() {
                let fields = record.fields
                if fields.allSatisfy({ $0.isBlank }) { continue }  // a blank line
                if fields.count == headerCount, isTotals(fields) {
                    totals.append(record.line)
                    continue
                }
                if fields.count != headerCount {
                    problems.append(
                        ImportProblem(
                            line: record.line,
                            column: nil,
                            reason:
                                "the row has \(fields.count) field\(fields.count == 1 ? "" : "s") but the header has \(headerCount)."
                        )
                    )
                    continue
                }
                var row = RowReader(
                    fields: fields,
                    columns: columns,
                    line: record.line,
                    currency: currency,
                    dates: dates,
                    decimalComma: decimalComma
                )
                try body(&row)
                problems += row.problems
            }
        } catch let failure as CSVScanner.Failure {
            switch failure {
            case .notUTF8(let line):
                problems.append(
                    ImportProblem(
                        line: line,
                        column: nil,
                        reason: "the file stops being UTF-8 text here: export the sheet as \"CSV UTF-8\"."
                    )
                )
            case .unterminatedQuote(let line):
                problems.append(
                    ImportProblem(
                        line: line,
                        column: nil,
                        reason:
                            "a quoted field opened here is never closed; check for a stray \" (nothing after it was read)."
                    )
                )
            case .unreadable(let line):
                problems.append(
                    ImportProblem(
                        line: line,
                        column: nil,
                        reason: "the file could not be read on from here (nothing after it was read): try it again."
                    )
                )
            }
        }
        return problems
    }
}
