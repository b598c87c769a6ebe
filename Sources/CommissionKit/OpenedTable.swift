import CommissionCore
import CommissionStore
import Foundation

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
    /// The column mapping the file was read with: the one given, or a saved one made for its headers.
    let mapping: ImportMapping?
    /// Whether a row with a cell follows the header.
    let hasRows: Bool

    var headerCount: Int { rawHeaders.count }

    /// Opens `origin` and reads its header.
    /// - Throws: ``CSVFileError`` for a file that cannot be read at all, or has no rows.
    init(origin: CSVImportSource.Origin, format: CSVFormat) throws {
        self.origin = origin
        let path = origin.name
        let header: [String]
        var hasRows = false
        if case .sheet(let workbook, let sheet) = origin {
            // The first row with a cell is the header; the check that rows follow it stops at the next.
            var found: (cells: [String], row: Int)?
            func look(firstBytes: Int?) throws -> Bool {
                found = nil
                return try workbook.rows(of: sheet, firstBytes: firstBytes) { cells, row in
                    guard found != nil else {
                        if !cells.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { found = (cells, row) }
                        return true
                    }
                    hasRows = !cells.allSatisfy(\.isBlank)
                    return !hasRows
                }
            }
            // The first megabyte holds the header and a row, but for a sheet of giant cells or blank rows.
            if try !look(firstBytes: 1 << 20) { _ = try look(firstBytes: nil) }
            guard let found else { throw CSVFileError.empty(path) }
            header = found.cells
            headerRow = found.row
            delimiter = 0
        } else {
            let (delimiter, first, headerScanner) = try Self.csvHeader(of: origin, format: format)
            self.delimiter = delimiter
            var scanner = headerScanner
            header = first
            headerRow = 1
            hasRows = try CSVImportSource.next(&scanner, path: path) != nil
        }
        rawHeaders = header

        let spelledHeader = header.map { $0.trimmingCharacters(in: .whitespaces) }
        headers = spelledHeader
        var mapping = format.mapping
        if let given = mapping, let absent = given.fields.keys.sorted().first(where: { header in
            !spelledHeader.contains { ImportMapping.key($0) == ImportMapping.key(header) }
        }) {
            // A workbook's sheets are read with the mapping that fits them; a file must have its columns.
            guard case .sheet = origin else {
                throw CSVFileError.unmappedColumn(path, absent, mapping: given.name, has: spelledHeader.filter { !$0.isEmpty })
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
            if columns[field] != nil { duplicates.append(spelled); continue }
            columns[field] = (index, spelled)
        }
        for (index, spelled) in spelledHeader.enumerated() where mapping?.field(for: spelled) == nil {
            guard let field = CSVImportSource.field(for: spelled) else { continue }
            if columns[field] != nil {
                // Banks write several texts of a transaction (Description, Reference): the first is read.
                if field != .description, mapping?.fields.values.contains(field.rawValue) != true { duplicates.append(spelled) }
                continue
            }
            columns[field] = (index, spelled)
        }
        if !duplicates.isEmpty { throw CSVFileError.duplicateHeaders(path, duplicates) }
        self.columns = columns
        self.hasRows = hasRows
    }

    /// Reads a whole file from elsewhere (a bank's, a clinic's) that must have `needs`: every row
    /// through `body`; a row that cannot be read refuses the file. Returns how it was read, in words.
    /// - Throws: ``CSVFileError``; ``StoreError/importRejected(_:total:)`` listing the rows' problems.
    /// `reads` are the fields `body` reads: the file's other columns are said to be passed over.
    static func readWhole(_ origin: CSVImportSource.Origin, format: CSVFormat, currency: Currency, needs: [Field], reads: Set<Field>,
                          _ body: (inout RowReader) throws -> Void) throws -> [String] {
        let table = try OpenedTable(origin: origin, format: format)
        try table.require(needs.filter { table.columns[$0] == nil })
        let reading = try table.reading(format: format)
        let problems = try table.rows(currency: currency, reading: reading, body)
        if !problems.isEmpty { throw StoreError.importRejected(Array(problems.prefix(100)), total: problems.count) }
        return table.said(reading, reads: reads.union(needs))
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

    /// A CSV file's delimiter (given, or sniffed from its first line), its header row, and the
    /// scanner just past it.
    /// - Throws: ``CSVFileError`` for a file that is empty, binary or not UTF-8, or a delimiter that is not ASCII.
    static func csvHeader(of origin: CSVImportSource.Origin, format: CSVFormat) throws -> (delimiter: UInt8, header: [String], scanner: CSVScanner) {
        let path = origin.name
        let head = try origin.head()
        guard !head.isEmpty, !head.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { throw CSVFileError.empty(path) }
        if head.contains(0) { throw CSVFileError.binary(path) }
        let delimiter: UInt8
        if let given = format.delimiter {
            guard let ascii = given.asciiValue else { throw CSVFileError.delimiterNotASCII(String(given)) }
            delimiter = ascii
        } else {
            delimiter = CSVImportSource.sniffDelimiter(head)
        }
        var scanner = try origin.scanner(delimiter: delimiter)
        guard let header = try CSVImportSource.next(&scanner, path: path)?.fields,
              !header.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw CSVFileError.empty(path)
        }
        return (delimiter, header, scanner)
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
        let dates = dateFields.compactMap { columns[$0]?.index }, amounts = amountFields.compactMap { columns[$0]?.index }
        var evidence = ReadingEvidence()
        if case .sheet = origin {
        } else if (format.dates == nil && !dates.isEmpty) || (!format.decimalComma && !amounts.isEmpty) {
            var scanner = try origin.scanner(delimiter: delimiter)
            _ = try? scanner.next()
            var rows = 0
            while let record = try? scanner.next() {
                let fields = record.fields
                for index in dates where index < fields.count && !fields[index].isEmpty { evidence.date(fields[index].trimmed) }
                for index in amounts where index < fields.count && !fields[index].isEmpty { evidence.amount(fields[index]) }
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
    func rows(currency: Currency, reading: ImportReading, _ body: (inout RowReader) throws -> Void) throws -> [ImportProblem] {
        var problems: [ImportProblem] = []
        let (dates, decimalComma) = (reading.dates, reading.decimalComma)
        let (columns, headerCount, headerRow) = (columns, headerCount, headerRow)
        if case .sheet(let workbook, let sheet) = origin {
            // A sheet's row has a cell for each column up to its last filled one: the rest are empty.
            try workbook.rows(of: sheet) { cells, line in
                guard line > headerRow, !cells.allSatisfy(\.isBlank) else { return true }
                let fields = cells.count >= headerCount ? Array(cells.prefix(headerCount))
                    : cells + repeatElement("", count: headerCount - cells.count)
                var row = RowReader(fields: fields, columns: columns, line: line, currency: currency, dates: dates, decimalComma: decimalComma)
                try body(&row)
                problems += row.problems
                return true
            }
            return problems
        }
        var scanner = try origin.scanner(delimiter: delimiter)
        do {
            _ = try scanner.next()  // the header
            while let record = try scanner.next() {
                let fields = record.fields
                if fields.allSatisfy({ $0.isBlank }) { continue }  // a blank line
                if fields.count != headerCount {
                    problems.append(ImportProblem(line: record.line, column: nil,
                                                  reason: "the row has \(fields.count) field\(fields.count == 1 ? "" : "s") but the header has \(headerCount)."))
                    continue
                }
                var row = RowReader(fields: fields, columns: columns, line: record.line, currency: currency, dates: dates, decimalComma: decimalComma)
                try body(&row)
                problems += row.problems
            }
        } catch let failure as CSVScanner.Failure {
            switch failure {
            case .notUTF8(let line):
                problems.append(ImportProblem(line: line, column: nil, reason: "the file stops being UTF-8 text here: export the sheet as \"CSV UTF-8\"."))
            case .unterminatedQuote(let line):
                problems.append(ImportProblem(line: line, column: nil,
                                              reason: "a quoted field opened here is never closed; check for a stray \" (nothing after it was read)."))
            }
        }
        return problems
    }
}
