import CommissionCore
import CommissionStore
import Crypto
import Foundation

/// What a CSV file holds. Each kind has its columns; see ``CSVImportSource``.
public enum ImportKind: String, Sendable, CaseIterable {
    case clinics, products, terms, sales, prices, schedules, deductions
}

/// How to read a CSV file.
public struct CSVFormat: Sendable, Hashable {
    /// The field delimiter; nil to detect `,`, `;` or a tab from the header line.
    public var delimiter: Character?
    /// Read amounts with a decimal comma (`12,50`), as spreadsheets in many locales export them;
    /// when false, the file's amounts say which mark they use (a `12,50` anywhere and no `12.50`).
    public var decimalComma: Bool
    /// The order of dates not written as ISO 8601 (`2/25/2026`); nil to tell it from the file's
    /// dates (a day over 12 says which is which).
    public var dates: DateOrder?
    /// The columns' fields as she mapped them (`--mapping`): its headers are read as it says, before
    /// any header Commission would recognise; nil for none.
    public var mapping: ImportMapping?
    /// Her saved mappings: with no `mapping` given, one made for a file with the same headers is
    /// used (``ImportMapping/fits(_:)``), and said.
    public var saved: [ImportMapping]

    public init(
        delimiter: Character? = nil,
        decimalComma: Bool = false,
        dates: DateOrder? = nil,
        mapping: ImportMapping? = nil,
        saved: [ImportMapping] = []
    ) {
        self.delimiter = delimiter
        self.decimalComma = decimalComma
        self.dates = dates
        self.mapping = mapping
        self.saved = saved
    }
}

/// A problem with a CSV file as a whole (rather than with some of its rows).
public enum CSVFileError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotOpen(String)
    case empty(String)
    case binary(String)
    case notUTF8(String)
    case unknownKind(String, headers: [String])
    /// The file lacks required columns: their names, and the headers the file has.
    case missingColumns(String, [String], has: [String] = [])
    case duplicateHeaders(String, [String])
    case noRows(String)
    case unterminatedQuote(String, line: Int)
    case delimiterNotASCII(String)
    /// A workbook (.xlsx) that cannot be read at all, and why.
    case unreadableWorkbook(String, reason: String)
    /// A workbook none of whose sheets holds something to import: each sheet's name and headers.
    case noImportableSheet(String, sheets: [String])
    /// A file whose dates or amounts cannot be read one way (ambiguous or contradictory).
    case reading(String, ReadingError)
    /// A column the mapping given for the file names, which the file lacks.
    case unmappedColumn(String, String, mapping: String, has: [String])

    public var description: String {
        switch self {
        case .cannotOpen(let path):
            return "Cannot open \(path): check that the file exists and can be read."
        case .empty(let path):
            return "\(path) is empty: a CSV import needs a header row and at least one row."
        case .binary(let path):
            return "\(path) is not a text file (it holds binary data): export the sheet as CSV (UTF-8) and import that."
        case .notUTF8(let path):
            return "\(path) is not UTF-8 text: export the sheet as \"CSV UTF-8\"."
        case .unknownKind(let path, let headers):
            return
                "Cannot tell what \(path) holds from its headers (\(headers.joined(separator: ", "))): pass --kind \(ImportKind.allCases.map(\.rawValue).joined(separator: "|"))."
        case .missingColumns(let path, let columns, let headers):
            let accepted = columns.map { column in
                let names = CSVImportSource.Field(rawValue: column).map(CSVImportSource.headers(for:)) ?? [column]
                return "\(column): \(names.joined(separator: ", "))"
            }
            let has = headers.filter { !$0.isEmpty }
            return
                "\(path) lacks the required column\(columns.count == 1 ? "" : "s") \(columns.map { "\"\($0)\"" }.joined(separator: ", "))"
                + (has.isEmpty ? "" : ". Its columns are \(has.map { "\"\($0)\"" }.joined(separator: ", "))")
                + "; headers accepted for \(accepted.joined(separator: "; "))."
        case .duplicateHeaders(let path, let headers):
            return "\(path) has the same column more than once: \(headers.map { "\"\($0)\"" }.joined(separator: ", "))."
        case .noRows(let path):
            return "\(path) has a header row but no rows to import."
        case .unterminatedQuote(let path, let line):
            return "\(path): a quoted field opened on line \(line) is never closed; check for a stray \"."
        case .delimiterNotASCII(let delimiter):
            return "The delimiter \"\(delimiter)\" is not a plain ASCII character: use , ; or a tab."
        case .unreadableWorkbook(let path, let reason):
            return "Cannot read the workbook \(path): \(reason)"
        case .reading(let path, let error):
            return "\(path): \(error.description)"
        case .unmappedColumn(let path, let header, let mapping, let has):
            return
                "\(path) has no column \"\(header)\", which the mapping “\(mapping)” reads; its columns are \(has.map { "\"\($0)\"" }.joined(separator: ", ")). Is it the file the mapping was made for?"
        case .noImportableSheet(let path, let sheets):
            return """
                None of the sheets of \(path) holds clinics, products, terms, sales, prices, schedules or deductions that Commission \
                recognises (\(sheets.joined(separator: "; "))): name a sheet after what it holds (Sales, Clinics…) or give its columns \
                headers such as Date, Clinic, Product.
                """
        }
    }
}

/// Reads a CSV file of clinics, products, terms or sales as an ``ImportSource``, row by row.
///
/// Header names match loosely: case, spaces, underscores, hyphens and dots are ignored, and common
/// synonyms are understood (`Qty` for quantity, `Price` for unit price). Columns it does not know are
/// ignored, so a file exported by `commission export` imports again. It reads UTF-8 with or without a
/// byte-order mark, CRLF or LF line ends, quoted fields with embedded delimiters, quotes and newlines,
/// and `,` `;` or tab delimiters.
///
/// | kind | required | optional |
/// |---|---|---|
/// | clinics | name, schedule (`monthly`, `semimonthly`, `weekly:monday`, `biweekly:2026-01-02`) | anchor |
/// | products | name, unit price | sku, unit cost (default 0) |
/// | terms | clinic, share (`40`, `37.5%`), effective from | product, basis (`profit` or `revenue`) |
/// | sales | date, clinic, product (name or SKU) | quantity (default 1), unit price, unit cost, discount, no commission, note |
/// | prices | clinic, product (name or SKU), unit price, effective from | unit cost (default: the product's) |
/// | schedules | clinic, schedule, effective from | anchor |
/// | deductions | clinic, name, amount (fixed per period) or share (of revenue), effective from | last day |
///
/// A terms file may have a `tiers` column: accelerators as `5000.00:50% 10000.00:60%` (threshold,
/// then share; several separated by spaces or `;`).
public struct CSVImportSource: ImportSource {
    /// A column Commission reads; the raw value is how messages name it.
    enum Field: String, CaseIterable {
        case name, clinic, product, sku, schedule, anchor
        case unitPrice = "unit price", unitCost = "unit cost"
        case share, basis
        case effectiveFrom = "effective from"
        case date, quantity, discount
        case noCommission = "no commission"
        case note
        case tiers
        case lastDay = "last day"
        case amount
        /// A bank statement's text of a transaction; a clinic statement's commission of a line.
        case description, commission

        /// The field's place in `allCases`, where ``Columns`` keeps its column.
        var ordinal: Int {
            switch self {
            case .name: 0
            case .clinic: 1
            case .product: 2
            case .sku: 3
            case .schedule: 4
            case .anchor: 5
            case .unitPrice: 6
            case .unitCost: 7
            case .share: 8
            case .basis: 9
            case .effectiveFrom: 10
            case .date: 11
            case .quantity: 12
            case .discount: 13
            case .noCommission: 14
            case .note: 15
            case .tiers: 16
            case .lastDay: 17
            case .amount: 18
            case .description: 19
            case .commission: 20
            }
        }
    }

    /// Where each field is in a row, and its header as the file spells it, by ``Field/ordinal``:
    /// every row looks up each of its fields, and hashing them into a dictionary was a tenth of
    /// reading a row.
    struct Columns {
        private var slots = [(index: Int, header: String)?](repeating: nil, count: Field.allCases.count)

        init() {
            assert(
                Field.allCases.enumerated().allSatisfy { $0.offset == $0.element.ordinal },
                "Field.ordinal is not each field's place in allCases"
            )
        }

        subscript(field: Field) -> (index: Int, header: String)? {
            get { slots[field.ordinal] }
            set { slots[field.ordinal] = newValue }
        }

        var fields: Set<Field> { Set(Field.allCases.filter { self[$0] != nil }) }
    }

    /// Where the rows come from: a CSV file, CSV bytes already in memory (an upload), or a sheet
    /// of a workbook (``Workbook``).
    public enum Origin: Sendable {
        case file(path: String)
        /// `name` is how messages refer to the bytes ("the upload").
        case data(Data, name: String)
        case sheet(Workbook, Workbook.Sheet)

        var name: String {
            switch self {
            case .file(let path): path
            case .data(_, let name): name
            case .sheet(let workbook, let sheet): "\(workbook.name), sheet \"\(sheet.name)\""
            }
        }

        func scanner(delimiter: UInt8) throws -> CSVScanner {
            switch self {
            case .file(let path):
                guard let scanner = CSVScanner(path: path, delimiter: delimiter) else {
                    throw CSVFileError.cannotOpen(path)
                }
                return scanner
            case .data(let data, _):
                return CSVScanner(data: data, delimiter: delimiter)
            case .sheet(let workbook, let sheet):
                // A sheet is read by its workbook (`Workbook.rows`), never scanned as CSV.
                throw CSVFileError.unreadableWorkbook(
                    workbook.name,
                    reason: "its sheet \"\(sheet.name)\" is not a CSV file."
                )
            }
        }

        /// The first 64 KiB, to sniff the delimiter and spot binary data.
        func head() throws -> Data {
            switch self {
            case .file(let path):
                guard let handle = FileHandle(forReadingAtPath: path) else { throw CSVFileError.cannotOpen(path) }
                // try?: closing a file only read
                defer { try? handle.close() }
                // try?: only a sniff of the delimiter; the file's rows are read separately
                return (try? handle.read(upToCount: 64 * 1024)) ?? Data()
            case .data(let data, _):
                return data.prefix(64 * 1024)
            case .sheet:
                return Data()
            }
        }
    }

    public var origin: Origin { table.origin }
    public let kind: ImportKind

    public var holdsOnlySales: Bool { kind == .sales }
    public let format: CSVFormat
    let currency: Currency
    /// The file opened: its header, each field's column, the mapping it was read with.
    package let table: OpenedTable
    var columns: Columns { table.columns }
    /// How the file's dates and amounts are read: as given, or as its values say.
    public let reading: ImportReading
    /// The column mapping the file was read with: the one given, or a saved one made for its headers.
    public var mapping: ImportMapping? { table.mapping }
    /// The file's headers as it spells them (spaces around them trimmed).
    public var headers: [String] { table.headers }

    /// How the file is read, in words: its kind, the mapping it was read with, how its dates and
    /// amounts are read, and the columns passed over ("sales; columns as mapped in “Clinic A”;
    /// dates read as month/day/year…; passed over: Bemerkung").
    public var said: [String] {
        [kind.rawValue] + table.said(reading, reads: Self.reads(kind))
    }

    /// The columns of the file no field of its kind is read from, as it spells them.
    public var passedOver: [String] { table.passedOver(reads: Self.reads(kind)) }

    /// The lines of the totals rows the last reading passed over (a "Total" row, or a SUM row
    /// with no date, clinic or product): not records, and said so.
    public var totalRows: [Int] { table.totalRows.all }

    /// The totals rows passed over, in words ("passed over the totals row on line 9"), or nil.
    public var totalsSaid: String? { OpenedTable.totalsSaid(totalRows) }

    /// What the last reading passed over that was not a record, in words: the title above the
    /// header ("passed over the title on line 1") and the totals rows.
    public var rowsPassedOverSaid: [String] { table.rowsPassedOverSaid }

    /// The columns passed over, as a message adds them after a sheet's name: ` (passed over: Bemerkung)`, or nothing.
    public var passedOverSaid: String {
        passedOver.isEmpty ? "" : " (passed over: \(passedOver.joined(separator: ", ")))"
    }

    /// Opens the file and checks its header.
    /// - Throws: ``CSVFileError`` for a file that cannot be imported at all.
    public init(path: String, kind: ImportKind? = nil, format: CSVFormat = CSVFormat(), currency: Currency) throws {
        try self.init(origin: .file(path: path), kind: kind, format: format, currency: currency)
    }

    /// Reads a CSV from `origin` and checks its header.
    /// - Throws: ``CSVFileError`` for a file that cannot be imported at all.
    public init(origin: Origin, kind: ImportKind? = nil, format: CSVFormat = CSVFormat(), currency: Currency) throws {
        self.format = format
        self.currency = currency
        let table = try OpenedTable(origin: origin, format: format)
        self.table = table
        let columns = table.columns
        let resolvedKind =
            kind ?? table.mapping?.kind.flatMap(ImportKind.init(rawValue:)) ?? Self.guessKind(columns.fields)
        guard let resolvedKind else { throw CSVFileError.unknownKind(origin.name, headers: table.rawHeaders) }
        self.kind = resolvedKind
        var missing = Self.required[resolvedKind]!.filter { columns[$0] == nil }
        // A clinics file may name its clinics under "Clinic", a products file its products under "Product".
        if missing.first == .name, columns[resolvedKind == .clinics ? .clinic : .product] != nil,
            resolvedKind == .clinics || resolvedKind == .products
        {
            missing.removeFirst()
        }
        try table.require(missing)
        reading = try table.reading(format: format)
    }

    static let dateFields: [Field] = [.date, .effectiveFrom, .lastDay]
    static let amountFields: [Field] = [.unitPrice, .unitCost, .discount, .amount, .commission]

    /// The next record, for the header and the check that rows follow it.
    static func next(_ scanner: inout CSVScanner, path: String) throws -> CSVScanner.Record? {
        do {
            return try scanner.next()
        } catch .notUTF8 {
            throw CSVFileError.notUTF8(path)
        } catch .unterminatedQuote(let line) {
            throw CSVFileError.unterminatedQuote(path, line: line)
        } catch .unreadable {
            throw CSVFileError.cannotOpen(path)
        }
    }

    /// The delimiter of the header: the most frequent of `,` `;` and tab outside quotes in the
    /// line that has the most of them among the first twenty (a title line before the header
    /// has none).
    static func sniffDelimiter(_ head: Data) -> UInt8 {
        var best: (count: Int, delimiter: UInt8) = (0, 0x2C)
        var counts: [UInt8: Int] = [0x2C: 0, 0x3B: 0, 0x09: 0]
        var quoted = false, lines = 0
        func endLine() {
            if let top = counts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), top.value > best.count {
                best = (top.value, top.key)
            }
            counts = [0x2C: 0, 0x3B: 0, 0x09: 0]
            lines += 1
        }
        for byte in head {
            if byte == 0x22 { quoted.toggle() }
            if !quoted && byte == 0x0A {
                endLine()
                if lines == 20 { break }
            }
            if !quoted, counts[byte] != nil { counts[byte]! += 1 }
        }
        if lines < 20 { endLine() }
        return best.delimiter
    }

    /// The field Commission reads a column of this header as without a mapping (`unit price` for
    /// `Price`), or nil for a header it does not know.
    public static func fieldName(for header: String) -> String? { field(for: header)?.rawValue }

    /// A CSV file's header row and the row after it (empty when none), to show her its columns
    /// beside the fields when she maps them.
    /// - Throws: ``CSVFileError`` for a file that cannot be read at all.
    public static func firstRows(
        of origin: Origin,
        format: CSVFormat = CSVFormat()
    ) throws -> (headers: [String], first: [String]) {
        var (_, header, scanner, _, _) = try OpenedTable.csvHeader(of: origin, format: format)
        // try?: only a preview of the first row beside the mapping; none shows as empty
        let first = (try? scanner.next())??.fields ?? []
        return (header.map { $0.trimmingWhitespace() }, first)
    }

    /// The canonical field a header names, or nil for a column Commission ignores.
    /// Accents and case do not count (`Quantité`, `QUANTITE`), nor spaces and punctuation (`Unit-Price`).
    static func field(for header: String) -> Field? { synonyms[headerKey(header)] }

    /// A header as the tables of headers spell it: folded (``folded(_:)``), its letters, digits and `%` only.
    static func headerKey(_ header: String) -> String {
        String(folded(header).unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "%" })
    }

    /// Text with accents, case and width set aside (`Quantité` → `quantite`): how headers, a totals
    /// row's label and a bank's text are compared.
    static func folded(_ text: String) -> String {
        text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil).lowercased()
    }

    /// Whether a header names a bank's money-out column (Soll, Debit, Withdrawals, Cargo…): never
    /// to be proposed as the amount of deposits.
    public static func isDebitColumn(_ header: String) -> Bool { debitHeaders.contains(headerKey(header)) }

    static let debitHeaders: Set<String> = [
        "soll", "sollbetrag", "debit", "debits", "debitamount", "withdrawal", "withdrawals", "moneyout", "paidout",
        "out", "charge", "charges",
        "belastung", "belastungen", "ausgang", "ausgange", "lastschrift", "lastschriften", "cargo", "cargos", "debito",
        "debitos", "uscite", "uscita",
        "addebito", "addebiti", "af", "afschrijving", "afschrijvingen", "saida", "saidas", "sortie", "sorties",
    ]

    /// The fields a kind's rows are read from: a column of any other field is passed over, and said so.
    static func reads(_ kind: ImportKind) -> Set<Field> {
        switch kind {
        case .clinics: [.name, .clinic, .schedule, .anchor]
        case .products: [.name, .product, .sku, .unitPrice, .unitCost]
        case .terms: [.clinic, .product, .share, .basis, .tiers, .effectiveFrom]
        case .prices: [.clinic, .product, .unitPrice, .unitCost, .effectiveFrom]
        case .schedules: [.clinic, .schedule, .anchor, .effectiveFrom]
        case .deductions: [.clinic, .name, .amount, .share, .effectiveFrom, .lastDay]
        case .sales: [.date, .clinic, .product, .quantity, .unitPrice, .unitCost, .discount, .noCommission, .note]
        }
    }

    /// The headers each field is read from without a mapping, folded (no accents, no case, no
    /// spaces): as written in English (and a bank's own words), and as her clinics write them in
    /// German, French, Spanish, Italian, Dutch and Portuguese.
    static let written: [Field: [String]] = [
        .name: ["name"],
        .clinic: ["clinic", "clinicname", "location", "business"],
        .product: ["product", "productname", "item", "productsku"],
        .sku: ["sku", "code", "productcode"],
        .schedule: ["schedule", "payschedule", "paid", "payfrequency", "frequency"],
        .anchor: ["anchor", "scheduleanchor", "anchordate", "weekday"],
        .unitPrice: ["unitprice", "price", "saleprice", "priceeach", "unitpriceminor"],
        .unitCost: ["unitcost", "cost", "costeach", "unitcostminor"],
        .share: [
            "share", "split", "percent", "percentage", "%", "commission%", "rate", "commissionrate", "share%",
            "sharepercent", "sharepct",
            "commissionpercent", "pct",
        ],
        .basis: ["basis", "commissionbasis"],
        .effectiveFrom: ["effectivefrom", "effective", "from", "startdate", "start", "effectivedate"],
        .date: [
            "date", "saledate", "day", "bookingdate", "valuedate", "transactiondate", "posted", "posteddate",
            "postingdate", "datum",
            "buchungstag", "valuta",
        ],
        .quantity: ["quantity", "qty", "units", "count"],
        .discount: ["discount"],
        .noCommission: ["nocommission", "nocomm", "sample"],
        .note: ["note", "notes", "comment", "comments", "memo"],
        .tiers: ["tiers", "tier", "accelerators"],
        .lastDay: ["lastday", "until", "enddate", "end", "through"],
        .amount: [
            "amount", "fixedamount", "perperiod", "credit", "credits", "deposit", "deposits", "moneyin", "paidin",
            "betrag",
        ],
        .description: [
            "description", "details", "payee", "reference", "ref", "text", "purpose", "narrative",
            "transactiondescription",
            "bookingtext", "buchungstext", "verwendungszweck", "counterparty",
        ],
        .commission: ["commission", "commissionamount", "yourcommission", "earned", "commissiondue", "payable"],
    ]
    static let translated: [Field: [String]] = [
        .name: ["nombre", "nom", "nome", "naam"],
        .clinic: ["klinik", "praxis", "clinica", "clinique", "kliniek", "standort"],
        .product: [
            "produkt", "artikel", "producto", "articulo", "produit", "article", "prodotto", "articolo", "produto",
            "artigo",
        ],
        .sku: ["artikelnummer", "artnr", "codigo", "codice", "referenceproduit"],
        .unitPrice: [
            "preis", "einzelpreis", "stuckpreis", "verkaufspreis", "precio", "preciounitario", "preciodeventa", "prix",
            "prixunitaire",
            "prixdevente", "prezzo", "prezzounitario", "prezzodivendita", "prijs", "stukprijs", "verkoopprijs", "preco",
            "precounitario",
            "precodevenda",
        ],
        .unitCost: [
            "kosten", "einkaufspreis", "einstandspreis", "stuckkosten", "coste", "costo", "costounitario", "cout",
            "coutunitaire",
            "prixdachat", "kostprijs", "inkoopprijs", "custo", "custounitario",
        ],
        .date: [
            "verkaufsdatum", "fecha", "fechadeventa", "datedevente", "data", "datadivendita", "verkoopdatum",
            "datadevenda",
        ],
        .quantity: [
            "menge", "anzahl", "stuck", "stuckzahl", "stk", "cantidad", "unidades", "quantite", "qte", "quantita",
            "pezzi", "aantal",
            "stuks", "quantidade", "qtd",
        ],
        .discount: ["rabatt", "nachlass", "descuento", "remise", "sconto", "korting", "desconto"],
        .note: [
            "bemerkung", "notiz", "kommentar", "nota", "notas", "observaciones", "remarque", "commentaire",
            "osservazioni", "opmerking",
            "opmerkingen", "observacoes",
        ],
        .amount: [
            "haben", "habenbetrag", "gutschriften", "eingange", "credito", "creditos", "entrate", "entrada", "entradas",
            "abonos", "ingresos",
            "bij",
        ],
        .commission: ["provision", "comision", "commissione", "provvigione", "commissie", "provisie", "comissao"],
    ]
    static let synonyms: [String: Field] = {
        var result: [String: Field] = [:]
        for (field, names) in written.merging(translated, uniquingKeysWith: +) {
            for name in names { result[name] = field }
        }
        return result
    }()

    /// The headers read as `field`, as a person would write them ("Unit price", "Qty").
    static func headers(for field: Field) -> [String] {
        let spelled = [
            "unitprice": "Unit price", "unitcost": "Unit cost", "effectivefrom": "Effective from",
            "lastday": "Last day",
            "nocommission": "No commission", "commission%": "Commission %", "commissionrate": "Commission rate",
            "share%": "Share %",
            "sharepercent": "Share percent", "sharepct": "Share pct", "commissionpercent": "Commission percent",
            "saledate": "Sale date", "bookingdate": "Booking date", "valuedate": "Value date",
            "transactiondate": "Transaction date",
            "posteddate": "Posted date", "postingdate": "Posting date", "clinicname": "Clinic name",
            "productname": "Product name",
            "moneyin": "Money in", "paidin": "Paid in", "bookingtext": "Booking text",
            "transactiondescription": "Transaction description",
            "commissionamount": "Commission amount", "yourcommission": "Your commission",
            "commissiondue": "Commission due",
        ]
        return (written[field] ?? []).sorted().map { spelled[$0] ?? $0.prefix(1).uppercased() + $0.dropFirst() }
    }

    static let required: [ImportKind: [Field]] = [
        .clinics: [.name, .schedule],
        .products: [.name, .unitPrice],
        .terms: [.clinic, .share, .effectiveFrom],
        .sales: [.date, .clinic, .product],
        .prices: [.clinic, .product, .unitPrice, .effectiveFrom],
        .schedules: [.clinic, .schedule, .effectiveFrom],
        .deductions: [.clinic, .name, .effectiveFrom],
    ]

    static func guessKind(_ fields: Set<Field>) -> ImportKind? {
        if fields.contains(.date) { return .sales }
        if fields.contains(.clinic)
            && (fields.contains(.amount) || fields.contains(.lastDay)
                || fields.contains(.name) && fields.contains(.share))
        {
            return .deductions
        }
        if fields.contains(.share) { return .terms }
        if fields.contains(.schedule) {
            return fields.contains(.effectiveFrom) && fields.contains(.clinic) ? .schedules : .clinics
        }
        if fields.contains(.clinic) && fields.contains(.product) && fields.contains(.unitPrice) { return .prices }
        if (fields.contains(.name) || fields.contains(.product)) && fields.contains(.unitPrice) { return .products }
        return nil
    }

    public func column(for field: String) -> String? { Field(rawValue: field).flatMap { columns[$0]?.header } }

    /// The sheet's name, for rows read from a workbook.
    public var sheetName: String? {
        if case .sheet(_, let sheet) = origin { return sheet.name }
        return nil
    }

    /// The first sales of a sales file as they are read (date, clinic, product, quantity, price and
    /// cost; no price or cost: the product's), for her to check before she imports; empty for
    /// another kind. Reading stops after `count` sales.
    public func preview(_ count: Int = 5) throws -> [ImportRow] {
        guard kind == .sales, count > 0 else { return [] }
        struct Enough: Error {}
        var rows: [ImportRow] = []
        do {
            _ = try read { row in
                rows.append(row)
                if rows.count == count { throw Enough() }
            }
        } catch is Enough {}
        return rows
    }

    public func read(_ body: (ImportRow) throws -> Void) throws -> [ImportProblem] {
        let kind = kind
        return try table.rows(currency: currency, reading: reading) { row in
            if let record = row.record(kind) { try body(ImportRow(line: row.line, record: record)) }
        }
    }
}

/// Reads the fields of one row, collecting every problem rather than stopping at the first.
struct RowReader {
    let fields: [String]
    let columns: CSVImportSource.Columns
    let line: Int
    let currency: Currency
    /// The file's reading (``ImportReading``): two scalars, as a reader is made for every row.
    let dates: DateOrder?
    let decimalComma: Bool
    var problems: [ImportProblem] = []

    init(
        fields: [String],
        columns: CSVImportSource.Columns,
        line: Int,
        currency: Currency,
        dates: DateOrder?,
        decimalComma: Bool
    ) {
        self.fields = fields
        self.columns = columns
        self.line = line
        self.currency = currency
        self.dates = dates
        self.decimalComma = decimalComma
    }

    func text(_ field: CSVImportSource.Field) -> String? {
        guard let column = columns[field] else { return nil }
        var value = fields[column.index].trimmed
        if value.utf8.first == UInt8(ascii: "'") { value = SpreadsheetSafety.restored(value) }  // as an export wrote it
        return value.isEmpty ? nil : value
    }

    mutating func problem(_ field: CSVImportSource.Field, _ reason: String) {
        problems.append(ImportProblem(line: line, column: columns[field]?.header ?? field.rawValue, reason: reason))
    }

    mutating func required(_ field: CSVImportSource.Field) -> String? {
        guard let value = text(field) else {
            problem(field, "it is empty, and it is required.")
            return nil
        }
        return value
    }

    mutating func parse<T>(_ field: CSVImportSource.Field, optional: Bool = false, _ parse: (String) throws -> T) -> T??
    {
        guard let value = optional ? text(field) : required(field) else { return optional ? .some(nil) : nil }
        do {
            return .some(try parse(value))
        } catch {
            problem(field, String(describing: error))
            return nil
        }
    }

    mutating func money(_ field: CSVImportSource.Field, optional: Bool = false) -> Money?? {
        let (currency, decimalComma) = (self.currency, self.decimalComma)
        return parse(field, optional: optional) { text in
            // Plain amounts (what exports write) skip the locale's signs and grouping.
            if !decimalComma && LocaleText.isPlain(text) {
                return try currency.parse(text, decimalSeparator: ".")
            }
            do {
                return try currency.parse(
                    try LocaleText.plainAmount(text, currency: currency, decimalComma: decimalComma),
                    decimalSeparator: "."
                )
            } catch is MoneyError {
                // The sentence about the text as written, not as made plain.
                return try currency.parse(text, decimalSeparator: decimalComma ? "," : ".")
            }
        }
    }

    /// The quantity column, a whole number of units (nil inside when empty).
    mutating func quantity() -> Int64?? {
        parse(.quantity, optional: true) { text -> Int64 in
            guard let quantity = Int64(text) else {
                throw StoreError.invalid(field: "quantity", reason: "\"\(text)\" is not a whole number of units.")
            }
            return quantity
        }
    }

    /// A date field: ISO 8601, or in the file's order of dates.
    mutating func day(_ field: CSVImportSource.Field, optional: Bool = false) -> Day?? {
        let order = dates
        return parse(field, optional: optional) { try LocaleText.day($0, order: order) }
    }

    /// The schedule column (`weekly:monday`), or its kind with the anchor column beside it.
    mutating func schedule() -> PaySchedule?? {
        let anchor = text(.anchor)
        return parse(.schedule) { text -> PaySchedule in
            if let anchor, !text.contains(":") { return try PaySchedule(kind: text.lowercased(), anchor: anchor) }
            return try PaySchedule(parsing: text)
        }
    }

    mutating func record(_ kind: ImportKind) -> ImportRecord? {
        switch kind {
        case .clinics:
            let name = required(columns[.name] != nil ? CSVImportSource.Field.name : .clinic)
            let schedule = schedule()
            guard let name, let schedule = schedule.flatMap({ $0 }), problems.isEmpty else { return nil }
            return .clinic(ClinicDraft(name: name, schedule: schedule))
        case .products:
            let name = required(columns[.name] != nil ? CSVImportSource.Field.name : .product)
            let price = money(.unitPrice)
            let cost = money(.unitCost, optional: true)
            guard let name, let price = price.flatMap({ $0 }), let cost, problems.isEmpty else { return nil }
            return .product(ProductDraft(name: name, sku: text(.sku), unitPrice: price, unitCost: cost ?? .zero))
        case .terms:
            let clinic = required(.clinic)
            let share = parse(.share) { try Share(parsing: $0) }
            let from = day(.effectiveFrom)
            let basis = parse(.basis, optional: true) { text -> CommissionBasis in
                guard let basis = CommissionBasis(rawValue: text.lowercased()) else {
                    throw StoreError.invalid(field: "basis", reason: "\"\(text)\" is neither profit nor revenue.")
                }
                return basis
            }
            let currency = self.currency
            let tiers = parse(.tiers, optional: true) { text -> [Tier] in
                try text.split(whereSeparator: { $0 == " " || $0 == ";" || $0 == "|" }).map { part throws -> Tier in
                    do {
                        return try Tier(parsing: String(part), currency: currency)
                    } catch {
                        throw StoreError.invalid(
                            field: "tiers",
                            reason: "\"\(part)\" is not a tier: write a threshold and a share, as 5000.00:50%."
                        )
                    }
                }
            }
            guard let clinic, let share = share.flatMap({ $0 }), let from = from.flatMap({ $0 }), let basis, let tiers,
                problems.isEmpty
            else { return nil }
            return .terms(
                NamedTermsDraft(
                    clinic: clinic,
                    product: text(.product),
                    basis: basis ?? .profit,
                    share: share,
                    effectiveFrom: from,
                    tiers: tiers ?? []
                )
            )
        case .prices:
            let clinic = required(.clinic)
            let product = required(.product)
            let price = money(.unitPrice)
            let cost = money(.unitCost, optional: true)
            let from = day(.effectiveFrom)
            guard let clinic, let product, let price = price.flatMap({ $0 }), let cost, let from = from.flatMap({ $0 }),
                problems.isEmpty
            else { return nil }
            return .price(
                NamedPriceDraft(clinic: clinic, product: product, unitPrice: price, unitCost: cost, effectiveFrom: from)
            )
        case .schedules:
            let clinic = required(.clinic)
            let schedule = schedule()
            let from = day(.effectiveFrom)
            guard let clinic, let schedule = schedule.flatMap({ $0 }), let from = from.flatMap({ $0 }), problems.isEmpty
            else { return nil }
            return .scheduleChange(NamedScheduleChange(clinic: clinic, schedule: schedule, effectiveFrom: from))
        case .deductions:
            let clinic = required(.clinic)
            let name = required(.name)
            let fixed = money(.amount, optional: true)
            let share = parse(.share, optional: true) { try Share(parsing: $0) }
            let from = day(.effectiveFrom)
            let last = day(.lastDay, optional: true)
            guard let clinic, let name, let fixed, let share, let from = from.flatMap({ $0 }), let last,
                problems.isEmpty
            else { return nil }
            let amount: DeductionAmount
            switch (fixed, share) {
            case (let fixed?, nil): amount = .fixed(fixed)
            case (nil, let share?): amount = .shareOfRevenue(share)
            default:
                problem(
                    columns[.amount] != nil ? .amount : .share,
                    "a deduction is either an amount per period or a share of revenue: fill in one of the two."
                )
                return nil
            }
            return .deduction(
                NamedDeductionDraft(clinic: clinic, name: name, amount: amount, effectiveFrom: from, lastDay: last)
            )
        case .sales:
            let date = day(.date)
            let clinic = required(.clinic)
            let product = required(.product)
            let quantity = quantity()
            let price = money(.unitPrice, optional: true)
            let cost = money(.unitCost, optional: true)
            let discount = money(.discount, optional: true)
            let noCommission = parse(.noCommission, optional: true) { text -> Bool in
                switch text.lowercased() {
                case "yes", "y", "true", "1", "x": return true
                case "no", "n", "false", "0": return false
                default: throw StoreError.invalid(field: "no commission", reason: "\"\(text)\" is not yes or no.")
                }
            }
            guard let date = date.flatMap({ $0 }), let clinic, let product, let quantity, let price, let cost,
                let discount,
                let noCommission, problems.isEmpty
            else { return nil }
            return .sale(
                NamedSaleDraft(
                    clinic: clinic,
                    product: product,
                    date: date,
                    quantity: quantity ?? 1,
                    unitPrice: price,
                    unitCost: cost,
                    discount: discount ?? .zero,
                    noCommission: noCommission ?? false,
                    note: text(.note)
                )
            )
        }
    }
}

extension String {
    /// True when the text is empty or white space only.
    var isBlank: Bool { allSatisfy(\.isWhitespace) }

    /// Without leading and trailing white space and line breaks. Most fields have none, and are
    /// returned as they are without Foundation's slower scan.
    var trimmed: String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return self }
        func isPlain(_ scalar: Unicode.Scalar) -> Bool { scalar.value > 0x20 && scalar.value < 0x7F }
        if isPlain(first) && isPlain(last) { return self }
        return trimmingWhitespaceAndNewlines()
    }
}

extension ImportSummary {
    /// What an import brought, as a sentence's object: "2 clinics, 1 price, 6 sales", or "nothing".
    public var counted: String {
        let counts = [
            (clinics, "clinic"), (products, "product"), (terms, "terms"), (prices, "price"),
            (scheduleChanges, "schedule change"), (deductions, "deduction"), (sales, "sale"),
        ]
        .filter { $0.0 > 0 }
        .map { count, noun in "\(count) \(noun)\(count == 1 || noun == "terms" ? "" : "s")" }
        return counts.isEmpty ? "nothing" : counts.joined(separator: ", ")
    }
}

extension ImportDigest {
    /// The SHA-256 of the file at `path`, read a megabyte at a time.
    /// - Throws: ``CSVFileError/cannotOpen(_:)`` when it cannot be read.
    public static func ofFile(atPath path: String, name: String? = nil) throws -> ImportDigest {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CSVFileError.cannotOpen(path) }
        // try?: closing a file only read
        defer { try? handle.close() }
        var hash = SHA256()
        // A file that fails to read is refused: the digest of part of it would not recognise it again.
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hash.update(data: chunk) }
        } catch {
            throw CSVFileError.cannotOpen(path)
        }
        return ImportDigest(name: name ?? path, sha256: hash.finalize().hexadecimal)
    }

    /// The SHA-256 of bytes already in memory (an upload), named as messages should name them.
    public init(name: String, data: Data) {
        self.init(name: name, sha256: SHA256.hash(data: data).hexadecimal)
    }
}
