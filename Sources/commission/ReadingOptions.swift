import ArgumentParser
import CommissionKit
import CommissionSQLite
import CommissionStore

/// How a file from elsewhere is read — an import, a bank statement, a clinic's statement: its
/// delimiter, decimal mark and order of dates (told from the file unless given), and the column
/// mapping its headers are read with.
struct ReadingOptions: ParsableArguments {
    @Option(help: "Field delimiter (default: detected among , ; and tab).") var delimiter: String?
    @Flag(
        name: .customLong("decimal-comma"),
        help: "Amounts use a decimal comma (12,50); by default a file's amounts say so themselves."
    ) var decimalComma = false
    @Option(
        help: ArgumentHelp(
            "The order of dates not written YYYY-MM-DD: mdy (2/25/2026), dmy (25/2/2026 or 25.02.2026) or ymd; by default told from the file's dates.",
            valueName: "mdy|dmy|ymd"
        )
    )
    var dates: DateOrder?
    @Option(
        help: ArgumentHelp(
            "Read the files with the column mapping saved under this name (see commission mapping list).",
            valueName: "name"
        )
    )
    var mapping: String?
    @Option(
        name: .customLong("map"),
        help: ArgumentHelp(
            "Read a column as a field: \"Share %=share\", \"Retail=unit price\", \"Ref=ignore\" (repeatable; over --mapping's).",
            valueName: "header=field"
        )
    )
    var map: [String] = []
    @Option(
        name: .customLong("save-mapping"),
        help: ArgumentHelp(
            "Keep the file's mapping (--map, over --mapping's) under this name, once the file is read.",
            valueName: "name"
        )
    )
    var saveMapping: String?

    func validate() throws {
        for pair in map { do { _ = try ImportMapping.pair(pair) } catch { throw ValidationError("\(error)") } }
        if saveMapping != nil && map.isEmpty && mapping == nil {
            throw ValidationError("--save-mapping keeps what --map (or --mapping) says: map a column.")
        }
        if let delimiter, delimiter != "\\t", delimiter.count != 1 {
            throw ValidationError("The delimiter is one character, such as ; or \\t.")
        }
    }

    /// A file from elsewhere (CSV, or a workbook's first sheet) read by `make` with these options;
    /// a file that cannot be read, or rows that cannot, fail with the sentence and the flag that helps.
    func read<T>(
        _ file: String,
        _ store: SQLiteStore,
        _ make: (CSVImportSource.Origin, CSVFormat) throws -> T
    ) async throws -> T {
        let format = try await format(store, name: saveMapping)
        do {
            return try make(try Workbook.firstSheetOrFile(file), format)
        } catch let error as CSVFileError {
            throw Failure(error.description + Import.hint(for: error))
        } catch let error as BankFileError {
            throw Failure(error.description)
        } catch let error as PDFTableError {
            throw Failure(error.description)
        } catch let error as StoreError {
            throw Failure("\(file): \(error.description)")
        }
    }

    /// The reading these options ask for, with the book's saved mappings; `name` and `kind` are
    /// those of the mapping --map makes (what --save-mapping would keep).
    func format(_ store: SQLiteStore, name: String? = nil, kind: ImportKind? = nil) async throws -> CSVFormat {
        let saved = try await store.mappings()
        var given = try mapping.map { try saved.named($0) }
        if !map.isEmpty {
            var fields = given?.fields ?? [:]
            do {
                for (header, field) in try ImportMapping.forImport(
                    name: name ?? given?.name ?? "--map",
                    kind: nil,
                    headers: [],
                    pairs: try map.map(ImportMapping.pair)
                ).fields {
                    fields = fields.filter { ImportMapping.key($0.key) != ImportMapping.key(header) }
                    fields[header] = field
                }
            } catch let error as MappingError {
                throw Failure(error.description)
            }
            given = ImportMapping(
                name: name ?? given?.name ?? "--map",
                kind: kind?.rawValue ?? given?.kind,
                headers: given?.headers ?? [],
                fields: fields
            )
        }
        return CSVFormat(
            delimiter: delimiter.map { $0 == "\\t" ? "\t" : Character($0) },
            decimalComma: decimalComma,
            dates: dates,
            mapping: given,
            saved: saved
        )
    }

    /// Keeps the mapping a file was read with under --save-mapping's name, with the file's headers
    /// (so that the next file with them is read with it); returns what to say, or nil without
    /// --save-mapping.
    func keep(
        _ mapping: ImportMapping?,
        headers: [String],
        kind: ImportKind? = nil,
        in store: SQLiteStore
    ) async throws -> String? {
        guard let name = saveMapping, var mapping else { return nil }
        mapping.name = name
        mapping.headers = headers
        mapping.kind = kind?.rawValue
        try await store.saveMapping(mapping)
        return "Saved the column mapping “\(name)”: the next file with these headers is read with it.\n"
    }
}
