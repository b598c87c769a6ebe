import CommissionCore
import CommissionKit
import CommissionSQLite
import CommissionStore
import Foundation
import Testing
import ZIPFoundation

/// Workbooks (.xlsx) read directly: cells to text exactly, sheets recognised and imported in the
/// order they need, as one import; the fixtures were written by LibreOffice
/// (`Fixtures/workbook/make-workbooks.sh`) and must give the same book as the same data in ISO CSV.
@Suite struct WorkbookTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/workbook"
    )
    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    // MARK: Cells, worked by hand

    @Test func numbersAreReadAsDecimalTextRoundedAsExcelShowsThem() {
        #expect(Workbook.decimal("12.5") == "12.5")
        #expect(Workbook.decimal("1234.5") == "1234.5")
        #expect(Workbook.decimal("-0.30000000000000004") == "-0.3")  // 17 digits as stored, 15 as shown
        #expect(Workbook.decimal("0.1") == "0.1")
        #expect(Workbook.decimal("65.900000000000006") == "65.9")
        #expect(Workbook.decimal("19.994999999999997") == "19.995")  // rounds up at the 15th digit
        // sixteen nines and a five: carried through
        #expect(Workbook.decimal("99999999999999.95") == "100000000000000")
        #expect(Workbook.decimal("1.2E-3") == "0.0012")
        #expect(Workbook.decimal("1E+20") == "100000000000000000000")
        #expect(Workbook.decimal("46083") == "46083")
        #expect(Workbook.decimal("007") == "7")
        #expect(Workbook.decimal("-0") == "0")
        #expect(
            Workbook.decimal("") == nil && Workbook.decimal("#N/A") == nil && Workbook.decimal("1.2.3") == nil
                && Workbook.decimal("1e999") == nil
        )
        #expect(Workbook.shifted("0.375", by: 2) == "37.5")
        #expect(Workbook.shifted("0.4", by: 2) == "40")
        #expect(Workbook.shifted("-0.005", by: 2) == "-0.5")
        #expect(Workbook.shifted("2", by: 2) == "200")
    }

    @Test func aNumberAlreadyWrittenPlainlyIsItsOwnReading() {
        // The quick path agrees with the long way wherever it is taken, and is not taken where the long way changes the text.
        let samples = [
            "0", "-0", "1", "-1", "10", "100", "0.5", "0.50", "00.5", "007", "12.5", "-12.5", "12.", ".5", "1.0",
            "45658", "0.000123",
            "123456789012345", "1234567890123456", "100000000000000000000", "1000000000000000.5", "0.30000000000000004",
            "999999999999999.9", "-0.0", "1e3", "1.5E-2", "+3", " 4", "4 ", "1.2.3", "", "-", "0.1234567890123456",
        ]
        for sample in samples {
            if Workbook.isCanonical(sample) { #expect(Workbook.rounded(sample) == sample, "\(sample)") }
            #expect(Workbook.decimal(sample) == Workbook.rounded(sample), "\(sample)")
        }
        #expect(Workbook.isCanonical("45658") && Workbook.isCanonical("-12.5") && Workbook.isCanonical("0.000123"))
        #expect(
            !Workbook.isCanonical("0.50") && !Workbook.isCanonical("007") && !Workbook.isCanonical("-0")
                && !Workbook.isCanonical("1234567890123456")
        )
    }

    @Test func aPartMustBeUTF8BeforeTheXMLParserSeesIt() {
        func valid(_ pieces: [[UInt8]]) -> Bool {
            var check = UTF8Check()
            return pieces.allSatisfy { check.feed($0) } && check.isComplete
        }
        #expect(valid([Array("é € 𝄞 plain".utf8)]))
        #expect(valid([[0xE2, 0x82], [0xAC]]))  // € cut between two pieces
        #expect(!valid([[0xE2, 0x82]]))  // … and never finished
        #expect(
            !valid([[0xFF]]) && !valid([[0xC0, 0x80]]) && !valid([[0xED, 0xA0, 0x80]])
                && !valid([[0xF4, 0x90, 0x80, 0x80]])
        )
        // Long ASCII runs (read eight bytes at a time) with a bad byte or a sequence at every place around them.
        for offset in 0..<20 {
            let ascii = Array(repeating: UInt8(ascii: "a"), count: offset)
            #expect(
                !valid([ascii + [0xFF] + ascii]) && valid([ascii + Array("€".utf8) + ascii])
                    && !valid([ascii + [0xE2, 0x82]])
            )
            #expect(valid([ascii + [0xE2], [0x82, 0xAC] + ascii]))
        }
        // The fuzzer's finding: an attribute name of 0xFF bytes trapped inside Foundation's parser.
        // (FuzzRegressionTests replays it through the whole reader.)
    }

    @Test func dateSerialsAreDaysInEitherDateSystem() throws {
        #expect(
            Workbook.column(of: "A1") == 0 && Workbook.column(of: "Z9") == 25 && Workbook.column(of: "AA10") == 26
                && Workbook.column(of: "XFD1") == 16_383
        )
        #expect(Workbook.column(of: "12") == nil)
        // Built-in date formats by id, custom ones by their code; percent formats; the rest plain.
        #expect(Workbook.numberStyle(id: 14, code: nil) == .date && Workbook.numberStyle(id: 22, code: nil) == .date)
        #expect(
            Workbook.numberStyle(id: 9, code: nil) == .percent && Workbook.numberStyle(id: 10, code: nil) == .percent
        )
        #expect(
            Workbook.numberStyle(id: 165, code: "yyyy\\-mm\\-dd") == .date
                && Workbook.numberStyle(id: 168, code: "m/d/yyyy") == .date
        )
        #expect(
            Workbook.numberStyle(id: 166, code: "[$$]#,##0.00") == .plain
                && Workbook.numberStyle(id: 164, code: "General") == .plain
        )
        #expect(
            Workbook.numberStyle(id: 170, code: "0.0%") == .percent
                && Workbook.numberStyle(id: 171, code: "\"day\" 0") == .plain
        )
        #expect(Workbook.numberStyle(id: 172, code: "[h]:mm:ss") == .plain)

        let workbook = try Workbook(path: Self.fixture("her-book.xlsx"))
        // 1900 system: serial 1 is 1900-01-01, 59 is 1900-02-28, 61 is 1900-03-01 (60 is Lotus' 1900-02-29).
        #expect(workbook.day(serial: "1") == day("1900-01-01"))
        #expect(workbook.day(serial: "59") == day("1900-02-28"))
        #expect(workbook.day(serial: "61") == day("1900-03-01"))
        #expect(workbook.day(serial: "45658") == day("2025-01-01"))
        #expect(workbook.day(serial: "46083.6041666667") == day("2026-03-02"))  // 14:30 that day
        #expect(workbook.day(serial: "-3") == nil)
        let old = try Workbook(path: Self.fixture("her-book-1904.xlsx"))
        #expect(old.day(serial: "0") == day("1904-01-01"))
        #expect(old.day(serial: "44621") == day("2026-03-02"))
    }

    // MARK: The workbooks LibreOffice wrote

    @Test(arguments: ["her-book.xlsx", "her-book-1904.xlsx", "her-book.ods", "her-book-1904.ods"])
    func aWorkbookIsReadCellByCell(_ name: String) throws {
        let workbook = try Workbook(path: Self.fixture(name))
        #expect(workbook.sheets.map(\.name) == ["Notes", "Sales", "Clinics", "Products", "Terms", "Price list"])
        var sales: [[String]] = []
        try workbook.rows(of: workbook.sheets[1]) { cells, row in
            sales.append(["\(row)"] + cells)
            return true
        }
        #expect(sales.count == 7)
        #expect(sales[1] == ["2", "2026-03-02", "Glow Aesthetics", "Serum 30ml", "2"])
        #expect(sales[2] == ["3", "2026-03-02", "Harbor Dental", "PEEL", "1", "", "5.25", "after the peel"])
        #expect(sales[4] == ["5", "2026-03-17", "Glow Aesthetics", "Peel kit", "4", "65.9", "", "price typed over"])
        #expect(sales[5][4] == "-1")
        var products: [[String]] = []
        try workbook.rows(of: workbook.sheets[3]) { cells, _ in
            products.append(cells)
            return true
        }
        // A currency cell, a formula's cached value, a plain number.
        #expect(products[1] == ["Serum 30ml", "SER-30", "1234.5", "20"])
        #expect(products[2] == ["Peel kit", "PEEL", "70.2", "0.3"])
        var terms: [[String]] = []
        try workbook.rows(of: workbook.sheets[4]) { cells, _ in
            terms.append(cells)
            return true
        }
        #expect(
            terms[1] == ["Glow Aesthetics", "37.5%", "2026-01-01"]
                && terms[2] == ["Harbor Dental", "40%", "2026-01-01"]
        )

        let (sources, skipped) = try workbook.importSources(currency: .usd)
        #expect(sources.map(\.source.kind) == [.clinics, .products, .terms, .prices, .sales])
        #expect(sources.last?.name == "\(Self.fixture(name)), sheet \"Sales\"")
        #expect(
            skipped == [
                "the sheet \"Notes\" (its first row, Maya's book, as she keeps it, names no column Commission reads)"
            ]
        )
    }

    @Test func aWorkbookImportsIntoTheSameBookAsItsCSVFiles() async throws {
        let directory = temporaryDirectory()
        let fromCSV = directory.appendingPathComponent("csv.sqlite").path
        let csv = try commission(
            ["import"] + ["clinics", "products", "terms", "prices", "sales"].map { Self.fixture("\($0).csv") } + [
                "--db", fromCSV,
            ]
        )
        #expect(csv.status == 0, "\(csv.stderr)")
        for name in ["her-book.xlsx", "her-book-1904.xlsx", "her-book.ods", "her-book-1904.ods"] {
            let fromWorkbook = directory.appendingPathComponent("\(name).sqlite").path
            let run = try commission(["import", Self.fixture(name), "--db", fromWorkbook])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("imported 2 clinics, 2 products, 2 terms, 1 price, 6 sales."), "\(run.stdout)")
            #expect(run.stderr.contains("passed over the sheet \"Notes\""), "\(run.stderr)")
            let checked = try await BookComparison(
                source: try SQLiteStore(.file(fromCSV)),
                target: try SQLiteStore(.file(fromWorkbook))
            ).run(auditLog: false)
            #expect(checked.statements >= 4)
            // To the cent: March at Glow, and the price list's price at Harbor from the 15th.
            let store = try SQLiteStore(.file(fromWorkbook))
            let glow = try await store.clinic(named: "Glow Aesthetics")
            let march = try await store.statement(
                clinic: glow.id,
                period: PayPeriod(start: day("2026-03-01"), end: day("2026-03-31"))
            )
            #expect(march.lines.map(\.sale.line.unitPrice) == [cents(123_450), cents(6590), cents(123_450)])
            let harbor = try await store.clinic(named: "Harbor Dental")
            let week = try await store.statement(
                clinic: harbor.id,
                period: PayPeriod(start: day("2026-03-16"), end: day("2026-03-22"))
            )
            #expect(week.lines.map(\.sale.line.unitPrice) == [cents(119_900)])
            // The same workbook again is recognised, not imported twice.
            let again = try commission(["import", Self.fixture(name), "--db", fromWorkbook])
            #expect(again.status == 1 && again.stderr.contains("was imported before"), "\(again.stderr)")
        }
    }

    /// A workbook of one sheet named `name`, its sheet XML's rows given, built with ZIPFoundation.
    static func workbook(at url: URL, sheet name: String, rows: String) throws {
        let archive = try Archive(url: url, accessMode: .create)
        func add(_ path: String, _ text: String) throws {
            let data = Data(text.utf8)
            try archive.addEntry(
                with: path,
                type: .file,
                uncompressedSize: Int64(data.count),
                compressionMethod: .deflate
            ) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        try add(
            "xl/workbook.xml",
            """
            <workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">\
            <sheets><sheet name="\(name)" sheetId="1" r:id="rId1"/></sheets></workbook>
            """
        )
        try add(
            "xl/_rels/workbook.xml.rels",
            """
            <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Target="worksheets/sheet1.xml" \
            Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"/></Relationships>
            """
        )
        try add(
            "xl/worksheets/sheet1.xml",
            #"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#
                + rows + "</sheetData></worksheet>"
        )
    }

    /// A workbook whose parts are `prefix`, then `unit` `count` times, then `suffix` — written as
    /// they deflate (never whole in memory): a few kilobytes that unpack to as much as asked.
    static func repetitive(at url: URL, sharedStrings: Int, sheetRows: Int) throws {
        let archive = try Archive(url: url, accessMode: .create)
        func add(_ path: String, prefix: String, unit: String = "", count: Int = 0, suffix: String = "") throws {
            let (head, body, tail) = (Array(prefix.utf8), Array(unit.utf8), Array(suffix.utf8))
            let total = head.count + body.count * count + tail.count
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(total), compressionMethod: .deflate) {
                position,
                size in
                var chunk = [UInt8]()
                chunk.reserveCapacity(size)
                for offset in Int(position)..<Int(position) + size {
                    if offset < head.count {
                        chunk.append(head[offset])
                    } else if offset < total - tail.count {
                        chunk.append(body[(offset - head.count) % body.count])
                    } else {
                        chunk.append(tail[offset - (total - tail.count)])
                    }
                }
                return Data(chunk)
            }
        }
        try add(
            "xl/workbook.xml",
            prefix: """
                <workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">\
                <sheets><sheet name="Sales" sheetId="1" r:id="rId1"/></sheets></workbook>
                """
        )
        try add(
            "xl/_rels/workbook.xml.rels",
            prefix: """
                <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Target="worksheets/sheet1.xml" \
                Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"/></Relationships>
                """
        )
        try add(
            "xl/sharedStrings.xml",
            prefix: #"<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">"#,
            unit: "<si><t>Glow Aesthetics</t></si>",
            count: sharedStrings / 31,
            suffix: "</sst>"
        )
        try add(
            "xl/worksheets/sheet1.xml",
            prefix:
                #"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row><c t="inlineStr"><is><t>Date</t></is></c>"#
                + #"<c t="inlineStr"><is><t>Clinic</t></is></c><c t="inlineStr"><is><t>Product</t></is></c></row>"#,
            unit:
                #"<row><c t="inlineStr"><is><t>2026-03-02</t></is></c><c t="s"><v>0</v></c><c t="inlineStr"><is><t>Serum</t></is></c></row>"#,
            count: sheetRows,
            suffix: "</sheetData></worksheet>"
        )
    }

    /// A ZIP bomb uploaded to a server is refused as it inflates, within bounds that follow the
    /// server's largest body: its shared strings beyond 4 times that, or the whole workbook beyond
    /// 64 times — with a sentence, not after the work (a 640 KB file once cost 818 MiB and 11.5 s).
    @Test("A workbook that unpacks beyond its bounds is refused as it inflates") func workbookBeyondItsBounds() throws {
        let directory = temporaryDirectory()
        let limits = WorkbookLimits.upload(maxBodySize: 64 << 10)
        #expect(limits.part == 4 << 20 && limits.total == 64 << 20)
        #expect(
            WorkbookLimits.upload(maxBodySize: 8 << 20)
                == WorkbookLimits(part: 32 << 20, total: 512 << 20, refusal: limits.refusal)
        )

        let strings = directory.appendingPathComponent("strings.xlsx")
        try Self.repetitive(at: strings, sharedStrings: 8 << 20, sheetRows: 10)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: strings.path)[.size] as? Int)
        #expect(size < 100 << 10, "a bomb is small: \(size) bytes")
        #expect(
            throws: CSVFileError.unreadableWorkbook(
                strings.path,
                reason: "its part xl/sharedStrings.xml unpacks to more than 4 MiB\(limits.refusal)."
            )
        ) {
            try Workbook(path: strings.path, limits: limits)
        }
        // The same file from her own disk is read: the bounds of an upload are the server's.
        #expect(try Workbook(path: strings.path).sheets.count == 1)

        // Rows that go on and on: the sheet is refused once the workbook has unpacked 64 MiB.
        let rows = directory.appendingPathComponent("rows.xlsx")
        try Self.repetitive(at: rows, sharedStrings: 100, sheetRows: 700_000)  // some 80 MB of XML
        let workbook = try Workbook(path: rows.path, limits: limits)
        let source = try #require(try workbook.importSources(currency: .usd).sources.first?.source)
        let refusal = #expect(throws: CSVFileError.self) { _ = try source.read { _ in } }
        #expect(
            refusal?.description.contains("it unpacks to more than 64 MiB, more than this server unpacks for an upload")
                == true,
            "\(refusal.map(String.init(describing:)) ?? "")"
        )
    }

    @Test func aLargeSheetIsReadWholeAndAHeaderFarDownIsFound() throws {
        let directory = temporaryDirectory()
        // 60,000 sales: some 12 MB of sheet XML, beyond what libxml2 takes in one piece (10 MB).
        var rows =
            #"<row r="1"><c r="A1" t="inlineStr"><is><t>Date</t></is></c><c r="B1" t="inlineStr"><is><t>Clinic</t></is></c>"#
            + #"<c r="C1" t="inlineStr"><is><t>Product</t></is></c></row>"#
        for row in 2...60_001 {
            rows +=
                #"<row r="\#(row)"><c r="A\#(row)" t="inlineStr"><is><t>2026-03-02</t></is></c><c r="B\#(row)" t="inlineStr"><is><t>Glow</t></is></c>"#
                + #"<c r="C\#(row)" t="inlineStr"><is><t xml:space="preserve">Serum &amp; co</t></is></c></row>"#
        }
        let large = directory.appendingPathComponent("large.xlsx")
        try Self.workbook(at: large, sheet: "Sales", rows: rows)
        let source = try #require(try Workbook(path: large.path).importSources(currency: .usd).sources.first?.source)
        var count = 0, product = ""
        let problems = try source.read { row in
            count += 1
            if case .sale(let draft) = row.record { product = draft.product }
        }
        #expect(problems.isEmpty && count == 60_000 && product == "Serum & co")

        // A header below more than a megabyte of rows holding only spaces: found by reading on.
        var spaced = ""
        for row in 1...20_000 {
            spaced +=
                #"<row r="\#(row)"><c r="A\#(row)" t="inlineStr"><is><t xml:space="preserve">   </t></is></c></row>"#
        }
        spaced +=
            #"<row r="20001"><c r="A20001" t="inlineStr"><is><t>Name</t></is></c><c r="B20001" t="inlineStr"><is><t>Schedule</t></is></c></row>"#
        spaced +=
            #"<row r="20002"><c r="A20002" t="inlineStr"><is><t>Glow</t></is></c><c r="B20002" t="inlineStr"><is><t>monthly</t></is></c></row>"#
        #expect(spaced.utf8.count > 1 << 20)
        let far = directory.appendingPathComponent("far.xlsx")
        try Self.workbook(at: far, sheet: "Sheet1", rows: spaced)
        let clinics = try #require(try Workbook(path: far.path).importSources(currency: .usd).sources.first?.source)
        #expect(clinics.kind == .clinics && clinics.table.headerRow == 20_001)
    }

    @Test func aBadRowInAnySheetImportsNothingAndNamesItsSheet() async throws {
        let directory = temporaryDirectory()
        // The fixture with the quantity of its second sale (row 3 of Sales) typed as "one", an inline string.
        let broken = directory.appendingPathComponent("broken.xlsx")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("her-book.xlsx"), to: broken)
        let archive = try Archive(url: broken, accessMode: .update)
        let entry = try #require(archive["xl/worksheets/sheet2.xml"])
        var sheet = Data()
        _ = try archive.extract(entry) { sheet.append($0) }
        let edited = String(decoding: sheet, as: UTF8.self)
            .replacingOccurrences(
                of: #"<c r="D3" s="0" t="n"><v>1</v></c>"#,
                with: #"<c r="D3" t="inlineStr"><is><t>one</t></is></c>"#
            )
        #expect(edited.contains(">one<"))
        try archive.remove(entry)
        try archive.addEntry(with: "xl/worksheets/sheet2.xml", type: .file, uncompressedSize: Int64(edited.utf8.count))
        { position, size in
            Data(edited.utf8).subdata(in: Int(position)..<Int(position) + size)
        }
        let path = directory.appendingPathComponent("book.sqlite").path
        let run = try commission(["import", broken.path, "--db", path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("sheet \"Sales\", line 3, column \"Qty\""), "\(run.stderr)")
        let store = try SQLiteStore(.file(path))
        #expect(try await store.clinics(ClinicQuery(includeArchived: true)).isEmpty)

        // Not a workbook at all, though it starts like a ZIP file.
        let junk = file("junk.xlsx", [0x50, 0x4B, 0x03, 0x04] + Array("not really".utf8), in: directory)
        let refused = try commission(["import", junk, "--db", path])
        #expect(refused.status == 1 && refused.stderr.contains("Cannot read the workbook"), "\(refused.stderr)")
    }
}
