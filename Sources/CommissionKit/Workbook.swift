import CommissionCore
import Foundation
import Synchronization
import ZIPFoundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// A workbook read for an import — Excel's (`.xlsx`, Office Open XML) or LibreOffice's own
/// (`.ods`, OpenDocument): its sheets, and each sheet's rows as the text of their cells, the way a
/// CSV export of the sheet would have them.
///
/// An `.ods` keeps every sheet in its `content.xml`, each cell's value typed beside its shown text
/// (`office:value`, `office:date-value`); it is read as the same text: numbers as their decimal
/// text, percentages as percentages, dates as their day, strings as their paragraphs, repeated
/// rows and cells as often as they repeat.
///
/// The ZIP container is read with ZIPFoundation, the XML with Foundation's `XMLParser`. Cells are
/// turned into text exactly, without a floating-point value in between:
/// - shared strings, inline strings and formulas' cached text, as they are;
/// - numbers as the decimal text Excel stores, rounded to the 15 significant digits Excel shows
///   (so `0.30000000000000004` reads `0.3`); a percent-formatted cell as its percentage (`0.4` → `40%`);
/// - a number formatted as a date (a built-in date format or a custom one with days or years) as
///   the day `YYYY-MM-DD` it stands for, in the workbook's date system (1900, with Lotus' phantom
///   1900-02-29, or 1904); a time of day is dropped;
/// - booleans as `TRUE` / `FALSE`; an error value (`#N/A`) as its text, which no field accepts.
public struct Workbook: Sendable {
    /// One sheet, by its name as the workbook's tab shows it.
    public struct Sheet: Sendable, Hashable {
        public let name: String
        /// The sheet's part inside the ZIP container (`xl/worksheets/sheet1.xml`; an `.ods`'s `content.xml`).
        let part: String
        /// Its place among an `.ods`'s tables (all in one part); 0 in an `.xlsx`.
        var table = 0
    }

    /// Excel's container or LibreOffice's.
    enum Format: Sendable { case xlsx, ods }

    /// How a cell's number is to be read, from its style's number format.
    package enum NumberStyle: Sendable, Equatable { case plain, date, percent }

    /// The workbook as messages name it (its path, or "the upload").
    public let name: String
    /// The file the workbook is read from (a scratch copy of one given in memory).
    let path: String
    public let sheets: [Sheet]
    let format: Format
    let sharedStrings: [String]
    let styles: [NumberStyle]
    /// The 1904 date system (old Mac workbooks): day 0 is 1904-01-01 rather than 1899-12-31.
    let date1904: Bool
    /// The scratch copy of a workbook given in memory, kept while this value lives.
    let scratch: ScratchFile?
    /// What it may unpack to (a ZIP bomb is refused, not inflated), and what it unpacked so far.
    public let limits: WorkbookLimits
    let unpacked: UnpackedBytes

    /// True when the file at `path` is a ZIP container (an `.xlsx` is one), by its first bytes.
    public static func isWorkbook(atPath path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        // try?: closing a file only read
        defer { try? handle.close() }
        // try?: a probe of four bytes: a file that cannot be read is not taken for a workbook
        return isWorkbook((try? handle.read(upToCount: 4)) ?? Data())
    }

    /// True when `data` starts as a ZIP container does.
    public static func isWorkbook(_ data: Data) -> Bool {
        data.prefix(4).elementsEqual([0x50, 0x4B, 0x03, 0x04])
    }

    public init(path: String, limits: WorkbookLimits = .local) throws(CSVFileError) {
        try self.init(path: path, name: path, limits: limits)
    }

    /// A workbook in memory (an upload). It is read from a scratch file of its own, removed when
    /// the last copy of this value goes: ZIPFoundation's in-memory archives trap on a damaged
    /// container (a seek past the end; found by the fuzzer), its file-backed ones do not.
    public init(data: Data, name: String, limits: WorkbookLimits = .local) throws(CSVFileError) {
        let scratch = ScratchFile()
        guard FileManager.default.createFile(atPath: scratch.path, contents: data) else {
            throw .unreadableWorkbook(name, reason: "there is no room to keep it (\(scratch.path)).")
        }
        try self.init(path: scratch.path, name: name, scratch: scratch, limits: limits)
    }

    init(path: String, name: String, scratch: ScratchFile? = nil, limits: WorkbookLimits = .local) throws(CSVFileError)
    {
        self.path = path
        self.name = name
        self.scratch = scratch
        self.limits = limits
        let unpacked = UnpackedBytes()
        self.unpacked = unpacked
        let archive = try Self.open(path, name: name)
        func part(_ path: String, required: Bool) throws(CSVFileError) -> Data? {
            try Self.part(path, of: archive, name: name, required: required, limits: limits, unpacked: unpacked)
        }
        if archive["xl/workbook.xml"] == nil, archive["content.xml"] != nil {
            // LibreOffice's own: every sheet in content.xml, its dates as days already.
            format = .ods
            date1904 = false
            sharedStrings = []
            styles = []
            var names: [String] = []
            do {
                _ = try Self.parse(
                    "content.xml",
                    of: archive,
                    name: name,
                    what: "its part content.xml",
                    limits: limits,
                    unpacked: unpacked,
                    firstBytes: nil
                ) { scratch in
                    guard let stream = InputStream(url: scratch) else { throw CSVFileError.cannotOpen(scratch.path) }
                    let reader = TableNames()
                    let parser = XMLParser(stream: stream)
                    parser.delegate = reader
                    let parsed = parser.parse()
                    names = reader.names
                    return (
                        false,
                        parsed
                            ? nil
                            : "its part content.xml is not well-formed XML (\(parser.parserError.map { "\($0)" } ?? "no reason given"))."
                    )
                }
            } catch let error as CSVFileError {
                throw error
            } catch {
                throw .unreadableWorkbook(name, reason: "its part content.xml cannot be read (\(error)).")
            }
            sheets = names.enumerated().map { Sheet(name: $0.element, part: "content.xml", table: $0.offset) }
            guard !sheets.isEmpty else { throw .unreadableWorkbook(name, reason: "it has no sheets.") }
            return
        }
        format = .xlsx
        let workbook = try part("xl/workbook.xml", required: true) ?? Data()
        let relations = try part("xl/_rels/workbook.xml.rels", required: true) ?? Data()
        let book = WorkbookPart(workbook)
        let targets = RelationsPart(relations).targets
        date1904 = book.date1904
        sheets = book.sheets.compactMap { sheet in
            guard let target = targets[sheet.relation] else { return nil }
            // Targets are relative to xl/, or absolute from the container's root.
            let part = target.hasPrefix("/") ? String(target.dropFirst()) : "xl/" + target
            return Sheet(name: sheet.name, part: part)
        }
        guard !sheets.isEmpty else { throw .unreadableWorkbook(name, reason: "it has no sheets.") }
        sharedStrings = try part("xl/sharedStrings.xml", required: false).map { SharedStringsPart($0).strings } ?? []
        styles = try part("xl/styles.xml", required: false).map { StylesPart($0).styles } ?? []
    }

    /// Thrown to stop unpacking a sheet at `firstBytes`.
    private struct Cut: Error {}

    static func open(_ path: String, name: String) throws(CSVFileError) -> Archive {
        guard FileManager.default.isReadableFile(atPath: path) else { throw .cannotOpen(name) }
        do {
            return try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw .unreadableWorkbook(
                name,
                reason: "it is not a ZIP container, so not an .xlsx or .ods workbook (save it again as .xlsx or .ods)."
            )
        }
    }

    /// The bytes of one part of the container, unpacked: refused beyond `limits.part` (what it
    /// says it holds, then what it does), or when the workbook as a whole would unpack beyond
    /// `limits.total`.
    static func part(
        _ path: String,
        of archive: Archive,
        name: String,
        required: Bool,
        limits: WorkbookLimits,
        unpacked: UnpackedBytes
    ) throws(CSVFileError) -> Data? {
        guard let entry = archive[path] else {
            if required {
                throw .unreadableWorkbook(
                    name,
                    reason: "it has no \(path): it is a ZIP file, but not an .xlsx or .ods workbook."
                )
            }
            return nil
        }
        let tooLarge = CSVFileError.unreadableWorkbook(
            name,
            reason: "its part \(path) unpacks to more than \(WorkbookLimits.size(limits.part))\(limits.refusal)."
        )
        guard entry.uncompressedSize <= UInt64(limits.part) else { throw tooLarge }
        var data = Data()
        data.reserveCapacity(Int(entry.uncompressedSize))
        do {
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                guard data.count + chunk.count <= limits.part else { throw tooLarge }
                try unpacked.add(chunk.count, limits: limits, name: name)
                data.append(chunk)
            }
        } catch let error as CSVFileError {
            throw error
        } catch {
            throw .unreadableWorkbook(name, reason: "its part \(path) is damaged (\(error)).")
        }
        var utf8 = UTF8Check()
        guard utf8.feed(data), utf8.isComplete else { throw .unreadableWorkbook(name, reason: notUTF8(path)) }
        return data
    }

    static func notUTF8(_ path: String) -> String {
        "its part \(path) is not UTF-8 text (save the workbook again from a spreadsheet program)."
    }

    /// Calls `body` with each row of `sheet` that has a cell, in order: the cells' text by column
    /// (a cell left empty is ""), and the row's number as the sheet shows it. `body` returns false
    /// to stop.
    ///
    /// With `firstBytes`, only the start of the sheet is unpacked (a header's check needs its
    /// first rows, not a million): the rows it holds whole are read, and the result is false when
    /// the sheet went on beyond it before `body` stopped.
    @discardableResult
    public func rows(
        of sheet: Sheet,
        firstBytes: Int? = nil,
        _ body: (_ cells: [String], _ row: Int) throws -> Bool
    ) throws -> Bool {
        let archive = try Self.open(path, name: name)
        return try Self.parse(
            sheet.part,
            of: archive,
            name: name,
            what: "its sheet \"\(sheet.name)\"",
            limits: limits,
            unpacked: unpacked,
            firstBytes: firstBytes
        ) { scratch in
            switch format {
            case .xlsx:
                return try scanRows(of: sheet, in: scratch, body)
            case .ods:
                guard let stream = InputStream(url: scratch) else { throw CSVFileError.cannotOpen(scratch.path) }
                return try withoutActuallyEscaping(body) { body in
                    let parser = XMLParser(stream: stream)
                    let reader = OpenDocumentTableReader(table: sheet.table, body: body)
                    parser.delegate = reader
                    let parsed = parser.parse()
                    if let failure = reader.failure { throw failure }
                    if !parsed, !reader.stopped {
                        return (
                            false,
                            "its sheet \"\(sheet.name)\" is not well-formed XML (\(parser.parserError.map { "\($0)" } ?? "no reason given"))."
                        )
                    }
                    return (reader.stopped, nil)
                }
            }
        }
    }

    /// The rows of an `.xlsx` sheet as Foundation's `XMLParser` reads them: the reference the
    /// scanner is held to (`SheetScannerTests`), cell for cell, on every shape of sheet.
    package func referenceRows(of sheet: Sheet) throws -> [(cells: [String], row: Int)] {
        var rows: [(cells: [String], row: Int)] = []
        let archive = try Self.open(path, name: name)
        _ = try Self.parse(
            sheet.part,
            of: archive,
            name: name,
            what: "its sheet \"\(sheet.name)\"",
            limits: limits,
            unpacked: unpacked,
            firstBytes: nil
        ) { scratch in
            guard let stream = InputStream(url: scratch) else { throw CSVFileError.cannotOpen(scratch.path) }
            let reader = SheetReader(workbook: self) { cells, row in
                rows.append((cells, row))
                return true
            }
            let parser = XMLParser(stream: stream)
            parser.delegate = reader
            let parsed = parser.parse()
            if let failure = reader.failure { throw failure }
            return (
                false,
                parsed
                    ? nil
                    : "its sheet \"\(sheet.name)\" is not well-formed XML (\(parser.parserError.map { "\($0)" } ?? "no reason given"))."
            )
        }
        return rows
    }

    /// An `.xlsx` sheet's rows, read from its unpacked XML (mapped, not copied) by ``SheetScanner``.
    /// Rows come in order, numbered from 1 to Excel's last (1,048,576): a number out of order or
    /// range is taken as the next row's, a cell's reference out of order as the next cell's, and a
    /// cell beyond Excel's last column is no cell.
    private func scanRows(
        of sheet: Sheet,
        in scratch: URL,
        _ body: (_ cells: [String], _ row: Int) throws -> Bool
    ) throws -> (stopped: Bool, broken: String?) {
        let data: Data
        do {
            data = try Data(contentsOf: scratch, options: .alwaysMapped)
        } catch {
            throw CSVFileError.cannotOpen(scratch.path)
        }
        return try data.withUnsafeBytes { raw in
            var scanner = SheetScanner(raw.bindMemory(to: UInt8.self))
            var cells: [String] = []
            var rowNumber = 0, nextRow = 1, lastRow = 0, nextColumn = 0
            do {
                while let event = try scanner.next() {
                    switch event {
                    case .rowStart(let given):
                        let number = given ?? nextRow
                        rowNumber = number >= nextRow && number <= 1_048_576 ? number : nextRow
                        nextRow = rowNumber + 1
                        cells.removeAll(keepingCapacity: true)
                        nextColumn = 0
                    case .cell(let cell):
                        let given = cell.reference.flatMap(Workbook.column(of:)) ?? nextColumn
                        let column = given >= nextColumn ? given : nextColumn
                        nextColumn = column + 1
                        guard column < 16_384 else { continue }
                        let text = text(type: cell.type, style: cell.style, value: cell.value)
                        guard !text.isEmpty else { continue }
                        if cells.count <= column {
                            cells.append(contentsOf: repeatElement("", count: column + 1 - cells.count))
                        }
                        cells[column] = text
                    case .rowEnd:
                        guard !cells.isEmpty else { continue }
                        // Each row once, in order.
                        let number = max(rowNumber, lastRow + 1)
                        lastRow = number
                        nextRow = max(nextRow, number + 1)
                        let row = cells
                        cells.removeAll(keepingCapacity: true)
                        if try !body(row, number) { return (true, nil) }
                    }
                }
            } catch let broken as SheetScanner.Broken {
                return (false, "its sheet \"\(sheet.name)\" is not well-formed XML (\(broken)).")
            }
            return (false, nil)
        }
    }

    /// Unpacks `part` to a scratch file (a sheet of a million rows is some 300 MB of XML, more
    /// than memory should hold and than libxml2 takes in one piece; with `firstBytes`, only its
    /// start) and hands it to `read` as a stream. `read` says whether it stopped on purpose, or
    /// why the XML is broken — which is only an error when the part was read whole. Returns
    /// whether the part was read to its end or `read` stopped.
    /// `what` is how messages name it ("its sheet \"Sales\"").
    static func parse(
        _ part: String,
        of archive: Archive,
        name: String,
        what: String,
        limits: WorkbookLimits,
        unpacked: UnpackedBytes,
        firstBytes: Int?,
        _ read: (URL) throws -> (stopped: Bool, broken: String?)
    ) throws -> Bool {
        guard let entry = archive[part] else {
            throw CSVFileError.unreadableWorkbook(name, reason: "\(what) is missing from the file.")
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "commission-sheet-\(UUID().uuidString).xml"
        )
        // try?: the scratch XML, read by now (or the read failed); the OS cleans its temporary directory
        defer { try? FileManager.default.removeItem(at: scratch) }
        guard FileManager.default.createFile(atPath: scratch.path, contents: nil),
            let file = FileHandle(forWritingAtPath: scratch.path)
        else {
            throw CSVFileError.unreadableWorkbook(
                name,
                reason: "there is no room to unpack \(what) (\(scratch.deletingLastPathComponent().path))."
            )
        }
        var cut = false
        do {
            var written = 0
            var utf8 = UTF8Check()
            _ = try archive.extract(entry) { chunk in
                if let firstBytes, written >= firstBytes {
                    cut = true
                    throw Cut()
                }
                // Foundation's XML parser traps on a name that is not UTF-8: such a part never reaches it.
                guard utf8.feed(chunk) else { throw CSVFileError.unreadableWorkbook(name, reason: Self.notUTF8(part)) }
                written += chunk.count
                try unpacked.add(chunk.count, limits: limits, name: name)
                try file.write(contentsOf: chunk)
            }
            guard utf8.isComplete else { throw CSVFileError.unreadableWorkbook(name, reason: Self.notUTF8(part)) }
            try file.close()
        } catch is Cut {
            // try?: a scratch cut short on purpose, read only for its first rows
            try? file.close()
        } catch let error as CSVFileError {
            // try?: closing on the way out with the workbook's error, which is thrown
            try? file.close()
            throw error
        } catch {
            // try?: closing on the way out with the damaged part's error, which is thrown
            try? file.close()
            throw CSVFileError.unreadableWorkbook(name, reason: "\(what) is damaged (\(error)).")
        }
        let (stopped, broken) = try read(scratch)
        if let broken, !cut { throw CSVFileError.unreadableWorkbook(name, reason: broken) }
        return stopped || !cut
    }

    // MARK: Cells

    /// The text of a cell of type `type` (the `t` attribute), style `style` and value `value`
    /// (the `<v>` element's text, or an inline string's).
    func text(type: String?, style: Int?, value: String) -> String {
        switch type {
        case "s":
            guard let index = Int(value), sharedStrings.indices.contains(index) else { return "" }
            return sharedStrings[index]
        case "inlineStr", "str", "e":
            return value
        case "b":
            return value == "1" ? "TRUE" : "FALSE"
        case "d":
            return String(value.prefix(10))  // ISO 8601: its day
        default:
            guard !value.isEmpty, let decimal = Self.decimal(value) else { return value }
            switch style.flatMap({ styles.indices.contains($0) ? styles[$0] : nil }) ?? .plain {
            case .plain: return decimal
            case .percent: return Self.shifted(decimal, by: 2) + "%"
            case .date: return day(serial: decimal)?.description ?? value
            }
        }
    }

    /// The day a date serial number stands for (its whole days: a time of day is dropped).
    package func day(serial decimal: String) -> Day? {
        guard !decimal.hasPrefix("-"), let days = Int(decimal.prefix { $0 != "." }) else { return nil }
        if date1904 { return Day(ordinal: Self.ordinal1904 + days) }
        // Serial 60 is Lotus' 1900-02-29, which never was: after it, days are one off.
        return days < 60 ? Day(ordinal: Self.ordinal1899_12_31 + days) : Day(ordinal: Self.ordinal1899_12_31 + days - 1)
    }

    // try?: a valid constant date: it cannot throw
    static let ordinal1899_12_31 = (try? Day(year: 1899, month: 12, day: 31))?.ordinal ?? 0
    // try?: a valid constant date: it cannot throw
    static let ordinal1904 = (try? Day(year: 1904, month: 1, day: 1))?.ordinal ?? 0

    /// The number an XML Schema double's text (`12.5`, `-1.2E-3`, `0.30000000000000004`) stands
    /// for, as plain decimal text rounded to 15 significant digits (half away from zero), without
    /// trailing zeros: decimal arithmetic on the digits, never a `Double`. Nil when it is no number.
    public static func decimal(_ text: String) -> String? {
        // What spreadsheets write for a sale's figures (45658, 12.5, -3) is its own reading already.
        if isCanonical(text) { return text }
        return rounded(text)
    }

    /// Whether `text` is the plain decimal text ``decimal(_:)`` would make of it: an optional minus
    /// (not of zero), a whole part without leading zeros, a fraction without trailing ones, and at
    /// most 15 digits from the first significant one to the last.
    package static func isCanonical(_ text: String) -> Bool {
        var utf8 = text.utf8[...]
        var negative = false
        if utf8.first == UInt8(ascii: "-") {
            negative = true
            utf8 = utf8.dropFirst()
        }
        guard let first = utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"), utf8.count <= 40 else {
            return false
        }
        var position = 0, pointAt: Int?, firstSignificant: Int?, lastSignificant = 0, last = first
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if byte != UInt8(ascii: "0") {
                    if firstSignificant == nil { firstSignificant = position }
                    lastSignificant = position
                }
                position += 1
            case UInt8(ascii: ".") where pointAt == nil:
                pointAt = position
            default:
                return false
            }
            last = byte
        }
        let whole = pointAt ?? position
        guard whole == 1 || first != UInt8(ascii: "0") else { return false }  // no leading zero
        // a fraction, without trailing zeros
        if let pointAt { guard position > pointAt, last != UInt8(ascii: "0") else { return false } }
        guard let firstSignificant else { return !negative && pointAt == nil && position == 1 }  // zero is "0"
        return lastSignificant - firstSignificant < 15
    }

    /// ``decimal(_:)`` the long way: the digits read, rounded to 15 significant ones, written again.
    package static func rounded(_ text: String) -> String? {
        var bytes = Array(text.utf8)[...]
        while let first = bytes.first, first == 0x20 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 { bytes = bytes.dropLast() }
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var digits: [UInt8] = [], pointAt: Int?, exponent = 0
        while let byte = bytes.popFirst() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits.append(byte - UInt8(ascii: "0"))
            case UInt8(ascii: ".") where pointAt == nil:
                pointAt = digits.count
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard let value = Int(String(decoding: bytes, as: UTF8.self)), abs(value) < 400 else { return nil }
                exponent = value
                bytes = bytes.suffix(0)
            default:
                return nil
            }
        }
        guard !digits.isEmpty else { return nil }
        // value = 0.digits × 10^point
        var point = (pointAt ?? digits.count) + exponent
        while let first = digits.first, first == 0, digits.count > 1 {
            digits.removeFirst()
            point -= 1
        }
        if digits == [0] { return "0" }
        if digits.count > 15 {
            let roundUp = digits[15] >= 5
            digits.removeLast(digits.count - 15)
            if roundUp {
                var index = digits.count - 1
                while index >= 0 {
                    if digits[index] == 9 {
                        digits[index] = 0
                        index -= 1
                    } else {
                        digits[index] += 1
                        break
                    }
                }
                if index < 0 {
                    digits.insert(1, at: 0)
                    point += 1
                }
            }
        }
        while digits.count > max(point, 1), digits.last == 0 { digits.removeLast() }
        let text: String
        if point <= 0 {
            text = "0." + String(repeating: "0", count: -point) + digits.map(String.init).joined()
        } else if point >= digits.count {
            text = digits.map(String.init).joined() + String(repeating: "0", count: point - digits.count)
        } else {
            text = digits[..<point].map(String.init).joined() + "." + digits[point...].map(String.init).joined()
        }
        return text == "0" || !negative ? text : "-" + text
    }

    /// Plain decimal text with its point moved `places` to the right (× 10^places), trailing
    /// zeros of the fraction dropped.
    package static func shifted(_ decimal: String, by places: Int) -> String {
        var text = decimal
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        var whole = String(parts[0]), fraction = parts.count > 1 ? String(parts[1]) : ""
        fraction += String(repeating: "0", count: max(0, places - fraction.count))
        whole += fraction.prefix(places)
        fraction = String(fraction.dropFirst(places))
        while fraction.hasSuffix("0") { fraction.removeLast() }
        while whole.count > 1, whole.hasPrefix("0") { whole.removeFirst() }
        let result = fraction.isEmpty ? whole : whole + "." + fraction
        return negative && result != "0" ? "-" + result : result
    }

    /// The column index of a cell reference (`A1` → 0, `AB7` → 27).
    package static func column(of reference: String) -> Int? {
        var column = 0, letters = 0
        for scalar in reference.unicodeScalars {
            guard scalar.value >= 65 && scalar.value <= 90 else { break }
            column = column * 26 + Int(scalar.value - 64)
            letters += 1
            if letters > 3 { return nil }
        }
        return letters == 0 ? nil : column - 1
    }

    /// Whether a number format shows a date, a percentage, or a plain number: the built-in
    /// formats by id, custom ones by their code (quoted text, escapes and `[…]` sections aside).
    package static func numberStyle(id: Int, code: String?) -> NumberStyle {
        switch id {
        case 9, 10: return .percent
        case 14...17, 22, 27...36, 45...47, 50...58, 71...76, 78...81: return .date
        default: break
        }
        guard let code else { return .plain }
        var plain = "", quoted = false, bracketed = false, escaped = false
        for character in code {
            if escaped {
                escaped = false
                continue
            }
            switch character {
            case "\\": escaped = true
            case "\"": quoted.toggle()
            case "[" where !quoted: bracketed = true
            case "]" where !quoted: bracketed = false
            default: if !quoted && !bracketed { plain.append(character) }
            }
        }
        let lowered = plain.lowercased()
        if lowered.contains("%") { return .percent }
        if lowered.contains("y") || lowered.contains("d") { return .date }
        return .plain
    }
}

extension Workbook {
    /// The sheets that hold something to import, each as a source named after its workbook and
    /// sheet, in the order one import needs them (clinics, products, terms, prices, schedules,
    /// deductions, then sales), whatever their order in the workbook.
    ///
    /// A sheet is recognised by its name (`Sales`, `Clinics`, `Price list`…) or, failing that, by
    /// its headers, as a CSV file is; `kind` forces one reading for every sheet. Empty sheets and
    /// sheets whose headers say nothing Commission knows are passed over (`skipped` names them);
    /// a sheet that is recognised but broken (a required column missing) is an error, unless `kind`
    /// was given: then the sheets that do not hold that kind are passed over.
    /// - Throws: ``CSVFileError`` for a sheet that cannot be imported, or when no sheet can.
    public func importSources(
        kind: ImportKind? = nil,
        format: CSVFormat = CSVFormat(),
        currency: Currency
    ) throws
        -> (sources: [(name: String, source: CSVImportSource)], skipped: [String])
    {
        var found: [(name: String, source: CSVImportSource)] = [], skipped: [String] = []
        for sheet in sheets {
            do {
                let source = try CSVImportSource(
                    origin: .sheet(self, sheet),
                    kind: kind ?? Self.kind(named: sheet.name),
                    format: format,
                    currency: currency
                )
                found.append((source.origin.name, source))
            } catch CSVFileError.empty {
                skipped.append("the sheet \"\(sheet.name)\" (empty)")
            } catch CSVFileError.unknownKind(_, let headers) {
                skipped.append(
                    "the sheet \"\(sheet.name)\" (its first row, \(headers.filter { !$0.isEmpty }.joined(separator: ", ")), names no column Commission reads)"
                )
            } catch CSVFileError.noRows {
                skipped.append("the sheet \"\(sheet.name)\" (headers, but no rows)")
            } catch CSVFileError.missingColumns(_, let columns, _) where kind != nil {
                // A kind given for the workbook reads the sheets that hold it, and passes over the others.
                skipped.append(
                    "the sheet \"\(sheet.name)\" (no \(columns.map { "\"\($0)\"" }.joined(separator: ", ")) column)"
                )
            }
        }
        guard !found.isEmpty else { throw CSVFileError.noImportableSheet(name, sheets: skipped) }
        let order: [ImportKind] = [.clinics, .products, .terms, .prices, .schedules, .deductions, .sales]
        let sorted = found.enumerated().sorted {
            (order.firstIndex(of: $0.element.source.kind) ?? 0, $0.offset) < (
                order.firstIndex(of: $1.element.source.kind) ?? 0, $1.offset
            )
        }.map(\.element)
        return (sorted, skipped)
    }

    /// A file to read as a table: a workbook's first sheet, or a CSV file.
    /// - Throws: ``CSVFileError`` for a workbook that cannot be read or has no sheet.
    public static func firstSheetOrFile(_ path: String) throws -> CSVImportSource.Origin {
        guard isWorkbook(atPath: path) else { return .file(path: path) }
        let workbook = try Workbook(path: path)
        guard let sheet = workbook.sheets.first else { throw CSVFileError.empty(path) }
        return .sheet(workbook, sheet)
    }

    /// The kind a sheet's name says it holds (`Sales`, `clinic`, `Price lists`, `Schedule changes`).
    static func kind(named name: String) -> ImportKind? {
        let key = String(name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
        switch key {
        case "clinics", "clinic": return .clinics
        case "products", "product": return .products
        case "terms": return .terms
        case "sales", "sale": return .sales
        case "prices", "price", "pricelist", "pricelists": return .prices
        case "schedules", "schedule", "schedulechanges": return .schedules
        case "deductions", "deduction": return .deductions
        default: return nil
        }
    }
}

/// What a workbook may unpack to: each part held in memory (its shared strings, its styles), and
/// everything read from it (its sheets unpacked to scratch files included, a sheet read twice
/// counted twice). A ZIP bomb — a few hundred kilobytes that inflate to gigabytes — is refused as it
/// inflates, before it costs more than this.
public struct WorkbookLimits: Sendable, Equatable {
    public var part: Int
    public var total: Int
    /// Said after a refusal (why this reader has the bound, what to do).
    public var refusal: String

    public init(part: Int, total: Int, refusal: String = "") {
        self.part = part
        self.total = total
        self.refusal = refusal
    }

    /// For a file of her own on this machine: bounds only a bomb reaches (a sheet of a million
    /// rows is some 300 MB of XML).
    public static let local = WorkbookLimits(part: 256 << 20, total: 16 << 30)

    /// For an upload to a server that takes bodies of at most `maxBodySize` bytes: a part in memory
    /// up to 4 times that (32 MiB at the default 8 MiB), the whole workbook up to 64 times (512 MiB)
    /// — an .xlsx is XML compressed some 5 to 20 times.
    public static func upload(maxBodySize: Int) -> WorkbookLimits {
        let total = max(64 << 20, maxBodySize.multipliedReportingOverflow(by: 64).overflow ? Int.max : maxBodySize * 64)
        return WorkbookLimits(
            part: max(
                4 << 20,
                min(total, maxBodySize.multipliedReportingOverflow(by: 4).overflow ? Int.max : maxBodySize * 4)
            ),
            total: total,
            refusal:
                ", more than this server unpacks for an upload: save it as several smaller workbooks, or its sheets as CSV files"
        )
    }

    /// `512 MiB`, `64 KiB`.
    static func size(_ bytes: Int) -> String {
        bytes >= 1 << 30 && bytes % (1 << 30) == 0
            ? "\(bytes >> 30) GiB" : bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
    }
}

/// The bytes a workbook unpacked so far, against its ``WorkbookLimits/total``.
final class UnpackedBytes: Sendable {
    private let count = Mutex(0)

    func add(_ bytes: Int, limits: WorkbookLimits, name: String) throws(CSVFileError) {
        let total = count.withLock { count in
            count += bytes
            return count
        }
        guard total <= limits.total else {
            throw .unreadableWorkbook(
                name,
                reason: "it unpacks to more than \(WorkbookLimits.size(limits.total))\(limits.refusal)."
            )
        }
    }
}

// MARK: The parts of a workbook

/// Runs `delegate` over a part held in memory, through a stream: libxml2 takes at most 10 MB in
/// one piece, and a workbook's shared strings may be more.
private func parsePart(_ data: Data, with delegate: any XMLParserDelegate, namespaces: Bool = false) {
    let parser = XMLParser(stream: InputStream(data: data))
    parser.shouldProcessNamespaces = namespaces
    parser.delegate = delegate
    _ = parser.parse()
}

/// `xl/workbook.xml`: the sheets in tab order, and the date system.
private final class WorkbookPart: NSObject, XMLParserDelegate {
    var sheets: [(name: String, relation: String)] = []
    var date1904 = false

    init(_ data: Data) {
        super.init()
        parsePart(data, with: self, namespaces: true)
    }

    func parser(
        _ parser: XMLParser,
        didStartElement element: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch element {
        case "sheet":
            // The relation id is r:id, in the relationships namespace.
            let relation = attributes.first { $0.key == "id" || $0.key.hasSuffix(":id") }?.value
            if let name = attributes["name"], let relation { sheets.append((name, relation)) }
        case "workbookPr":
            date1904 = ["1", "true"].contains(attributes["date1904"] ?? "")
        default:
            break
        }
    }
}

/// `xl/_rels/workbook.xml.rels`: where each relation id's part is.
private final class RelationsPart: NSObject, XMLParserDelegate {
    var targets: [String: String] = [:]

    init(_ data: Data) {
        super.init()
        parsePart(data, with: self)
    }

    func parser(
        _ parser: XMLParser,
        didStartElement element: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if element == "Relationship", let id = attributes["Id"], let target = attributes["Target"] {
            targets[id] = target
        }
    }
}

/// `xl/sharedStrings.xml`: the strings cells point at, each the text of its runs.
private final class SharedStringsPart: NSObject, XMLParserDelegate {
    var strings: [String] = []
    private var current = "", inText = false, inPhonetic = false

    init(_ data: Data) {
        super.init()
        parsePart(data, with: self)
    }

    func parser(
        _ parser: XMLParser,
        didStartElement element: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch element {
        case "si": current = ""
        case "t": inText = !inPhonetic
        case "rPh": inPhonetic = true  // a phonetic guide (furigana) is not the text
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inText { current += string }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        switch element {
        case "t": inText = false
        case "rPh": inPhonetic = false
        case "si": strings.append(current)
        default: break
        }
    }
}

/// `xl/styles.xml`: for each cell style (`cellXfs`), how its number format shows a number.
private final class StylesPart: NSObject, XMLParserDelegate {
    var styles: [Workbook.NumberStyle] = []
    private var codes: [Int: String] = [:]
    private var inCellStyles = false

    init(_ data: Data) {
        super.init()
        parsePart(data, with: self)
    }

    func parser(
        _ parser: XMLParser,
        didStartElement element: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch element {
        case "numFmt":
            if let id = attributes["numFmtId"].flatMap(Int.init), let code = attributes["formatCode"] {
                codes[id] = code
            }
        case "cellXfs":
            inCellStyles = true
        case "xf" where inCellStyles:
            let id = attributes["numFmtId"].flatMap(Int.init) ?? 0
            styles.append(Workbook.numberStyle(id: id, code: codes[id]))
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        if element == "cellXfs" { inCellStyles = false }
    }
}

/// The names of an `.ods`'s tables, in order.
private final class TableNames: NSObject, XMLParserDelegate {
    var names: [String] = []

    func parser(
        _ parser: XMLParser,
        didStartElement element: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if element == "table:table" { names.append(attributes["table:name"] ?? "Sheet\(names.count + 1)") }
    }
}

/// One table of an `.ods`'s content.xml, its rows handed on one at a time as the parser reads
/// them, each cell's text from its typed value (see ``Workbook``). Rows and cells repeat as they
/// say (`table:number-rows-repeated`); a run of empty ones is only a count.
private final class OpenDocumentTableReader: NSObject, XMLParserDelegate {
    let table: Int
    let body: ([String], Int) throws -> Bool
    var failure: (any Error)?
    var stopped = false
    private var tables = -1, inTable = false
    private var cells: [String] = [], rowNumber = 0, rowRepeat = 1, column = 0
    private var cellRepeat = 1, type: String?, value: String?, text = "", inCell = false, paragraphs = 0,
        capturing = false, notes = 0

    init(table: Int, body: @escaping ([String], Int) throws -> Bool) {
        self.table = table
        self.body = body
    }

    func parser(
        _ parser: XMLParser,
        didStartElement element: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch element {
        case "table:table":
            tables += 1
            inTable = tables == table
        case "table:table-row" where inTable:
            rowRepeat = min(max(attributes["table:number-rows-repeated"].flatMap(Int.init) ?? 1, 1), 1_048_576)
            cells.removeAll(keepingCapacity: true)
            column = 0
        case "table:table-cell", "table:covered-table-cell":
            guard inTable else { return }
            inCell = true
            cellRepeat = min(max(attributes["table:number-columns-repeated"].flatMap(Int.init) ?? 1, 1), 16_384)
            type = attributes["office:value-type"]
            switch type {
            case "float", "currency": value = attributes["office:value"].flatMap(Workbook.decimal)
            case "percentage":
                value = attributes["office:value"].flatMap(Workbook.decimal).map { Workbook.shifted($0, by: 2) + "%" }
            case "date": value = attributes["office:date-value"].map { String($0.prefix(10)) }
            case "boolean": value = attributes["office:boolean-value"] == "true" ? "TRUE" : "FALSE"
            case "time": value = ""  // a time of day alone is no field's
            default: value = nil
            }
            text = ""
            paragraphs = 0
        case "office:annotation":
            notes += 1  // a comment on a cell is not its text
        case "text:p" where inCell && notes == 0:
            if paragraphs > 0 { text += "\n" }
            paragraphs += 1
            capturing = true
        case "text:s" where capturing:
            text += String(repeating: " ", count: min(max(attributes["text:c"].flatMap(Int.init) ?? 1, 1), 1000))
        case "text:tab" where capturing:
            text += "\t"
        case "text:line-break" where capturing:
            text += "\n"
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if capturing && notes == 0 { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        switch element {
        case "text:p":
            capturing = false
        case "office:annotation":
            notes -= 1
        case "table:table-cell", "table:covered-table-cell":
            guard inCell else { return }
            inCell = false
            let shown = value ?? text
            if !shown.isEmpty, column < 16_384 {
                let end = min(column + cellRepeat, 16_384)
                if cells.count < end { cells.append(contentsOf: repeatElement("", count: end - cells.count)) }
                for index in column..<end { cells[index] = shown }
            }
            column += cellRepeat
        case "table:table-row":
            guard inTable else { return }
            let first = rowNumber + 1
            rowNumber += rowRepeat
            guard !cells.isEmpty else { return }
            do {
                for number in first...rowNumber where !stopped {
                    if try !body(cells, number) {
                        stopped = true
                        parser.abortParsing()
                    }
                }
            } catch {
                failure = error
                parser.abortParsing()
            }
        case "table:table" where inTable:
            // The table read: the rest of the document is other sheets.
            inTable = false
            stopped = true
            parser.abortParsing()
        default:
            break
        }
    }
}

/// A sheet's rows, handed on one at a time as Foundation's parser reads them: the reference
/// reading (``Workbook/referenceRows(of:)``) that ``SheetScanner`` is held to.
private final class SheetReader: NSObject, XMLParserDelegate {
    let workbook: Workbook
    let body: ([String], Int) throws -> Bool
    var failure: (any Error)?
    var stopped = false
    private var cells: [String] = []
    private var rowNumber = 0, nextRow = 1, lastRow = 0
    private var column = 0, nextColumn = 0
    private var type: String?, style: Int?
    private var value = "", capturing = false, inCell = false

    init(workbook: Workbook, body: @escaping ([String], Int) throws -> Bool) {
        self.workbook = workbook
        self.body = body
    }

    func parser(
        _ parser: XMLParser,
        didStartElement element: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch element {
        case "row":
            // Rows come in order, numbered from 1 to Excel's last (1,048,576): a number out of
            // order or range is taken as the next row's.
            let given = attributes["r"].flatMap(Int.init) ?? nextRow
            rowNumber = given >= nextRow && given <= 1_048_576 ? given : nextRow
            nextRow = rowNumber + 1
            cells.removeAll(keepingCapacity: true)
            nextColumn = 0
        case "c":
            inCell = true
            // One pass over the attributes rather than a lookup of each: hashing their names was a
            // tenth of reading a sheet.
            var reference: String?
            type = nil
            style = nil
            for (name, text) in attributes {
                switch name {
                case "r": reference = text
                case "t": type = text
                case "s": style = Int(text)
                default: break
                }
            }
            // Cells come left to right: a reference out of order is taken as the next cell's.
            let given = reference.flatMap(Workbook.column(of:)) ?? nextColumn
            column = given >= nextColumn ? given : nextColumn
            nextColumn = column + 1
            value = ""
        case "v", "t":
            capturing = inCell
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard capturing else { return }
        if value.isEmpty { value = string } else { value += string }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        switch element {
        case "v", "t":
            capturing = false
        case "c":
            inCell = false
            guard column < 16_384 else { return }  // beyond Excel's last column: not a cell
            let text = workbook.text(type: type, style: style, value: value)
            guard !text.isEmpty else { return }
            if cells.count <= column { cells.append(contentsOf: repeatElement("", count: column + 1 - cells.count)) }
            cells[column] = text
        case "row":
            guard !cells.isEmpty else { return }
            // Each row once, in order, even where rows are nested in a broken sheet.
            let number = max(rowNumber, lastRow + 1)
            lastRow = number
            nextRow = max(nextRow, number + 1)
            let row = cells
            cells.removeAll(keepingCapacity: true)
            do {
                if try !body(row, number) {
                    stopped = true
                    parser.abortParsing()
                }
            } catch {
                failure = error
                parser.abortParsing()
            }
        default:
            break
        }
    }
}

/// Checks that bytes given piece by piece are UTF-8 (RFC 3629: no overlong forms, no surrogates,
/// nothing past U+10FFFF), a sequence cut between two pieces included.
package struct UTF8Check {
    package init() {}
    /// Continuation bytes still expected, and the range the next one must be in.
    private var pending = 0
    private var low: UInt8 = 0x80, high: UInt8 = 0xBF

    /// False as soon as the bytes cannot be UTF-8.
    package mutating func feed(_ bytes: some Sequence<UInt8>) -> Bool {
        Array(bytes).withUnsafeBytes { feed($0) }
    }

    mutating func feed(_ data: Data) -> Bool {
        data.withUnsafeBytes { feed($0) }
    }

    /// A sheet is mostly ASCII: runs of it pass eight bytes at a time (a 300 MB sheet was a
    /// twentieth of its import, byte by byte through `Data`'s iterator).
    mutating func feed(_ raw: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = raw.count
        while index < count {
            if pending == 0 {
                while index + 8 <= count,
                    raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                { index += 8 }
                guard index < count else { break }
            }
            let byte = raw[index]
            index += 1
            if pending > 0 {
                guard byte >= low && byte <= high else { return false }
                pending -= 1
                (low, high) = (0x80, 0xBF)
                continue
            }
            switch byte {
            case 0x00...0x7F: continue
            case 0xC2...0xDF: pending = 1
            case 0xE0: (pending, low) = (2, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: pending = 2
            case 0xED: (pending, high) = (2, 0x9F)
            case 0xF0: (pending, low) = (3, 0x90)
            case 0xF1...0xF3: pending = 3
            case 0xF4: (pending, high) = (3, 0x8F)
            default: return false
            }
        }
        return true
    }

    /// True when no sequence is left unfinished.
    package var isComplete: Bool { pending == 0 }
}

/// A file of its own in the temporary directory, removed when the last reference goes.
final class ScratchFile: Sendable {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "commission-workbook-\(UUID().uuidString).xlsx"
    ).path

    // try?: a scratch copy in the OS's temporary directory, which the OS cleans
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
