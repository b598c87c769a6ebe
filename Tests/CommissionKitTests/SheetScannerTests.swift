import CommissionKit
import Foundation
import Testing

/// The byte-level reader of a sheet's XML reads every shape of sheet cell for cell as Foundation's
/// XML parser does (the reference, `Workbook.referenceRows(of:)`): the workbooks LibreOffice wrote,
/// and sheets written by hand with what other programs write — entities and character references,
/// CDATA, namespace prefixes, rich-text runs, formulas, comments, empty and self-closing rows and
/// cells, rows and cells out of order, line ends inside a cell, attributes in single quotes. Where
/// the reference reading was wrong (a CDATA section dropped, a prefixed sheet read as empty, a
/// phonetic guide or an extension's text added to the cell's), the right rows are written out.
@Suite struct SheetScannerTests {
    static let shapes: [(name: String, rows: String, expected: [[String]]?)] = [
        (
            "entities",
            #"<row r="1"><c r="A1" t="inlineStr"><is><t>Serum &amp; co &lt;30ml&gt; &quot;new&quot; &apos;26 &#233;t&#xE9;</t></is></c><c r="B1"><v>12.5</v></c></row>"#,
            nil
        ),
        (
            "cdata and comments",
            #"<!-- a comment --><row r="1"><c r="A1" t="inlineStr"><is><t><![CDATA[a <b> & c]]></t></is></c><!-- x --><c r="B1"><v>3</v></c></row>"#,
            [["1", "a <b> & c", "3"]]
        ),
        (
            "prefixes",
            #"<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>Glow</x:t></x:is></x:c><x:c r="C1"><x:v>7</x:v></x:c></x:row>"#,
            [["1", "Glow", "", "7"]]
        ),
        (
            "rich text",
            #"<row r="2"><c r="B2" t="inlineStr"><is><r><rPr><b/></rPr><t>Glow </t></r><r><t xml:space="preserve">Aesthetics </t></r><rPh sb="0" eb="1"><t>ignored</t></rPh></is></c></row>"#,
            [["2", "", "Glow Aesthetics "]]
        ),
        (
            "formulas",
            #"<row r="1"><c r="A1"><f>SUM(B1:B9)</f><v>45</v></c><c r="B1" t="str"><f>"a"&amp;"b"</f><v>ab</v></c><c r="C1" t="b"><v>1</v></c><c r="D1" t="e"><v>#N/A</v></c></row>"#,
            nil
        ),
        (
            "empty and self-closing",
            #"<row r="1"/><row r="2"><c r="A2"/><c r="B2" s="0"></c><c r="C2"><v>9</v></c></row><row r="3"></row><row r="4"><c r="A4"><v>1</v></c></row>"#,
            nil
        ),
        (
            "out of order",
            #"<row r="5"><c r="C5"><v>1</v></c><c r="A5"><v>2</v></c></row><row r="3"><c><v>3</v></c><c><v>4</v></c></row><row><c r="XFE9"><v>5</v></c><c r="B9"><v>6</v></c></row>"#,
            nil
        ),
        (
            "line ends", "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>one\r\ntwo\rthree\nfour</t></is></c></row>",
            nil
        ),
        (
            "single quotes and spaces",
            "<row  r='1' spans='1:2'  ><c r = 'A1'  t = 'inlineStr' ><is><t>x</t></is></c><c\n r='B1'><v>2.50</v></c></row>",
            nil
        ),
        (
            "numbers",
            #"<row r="1"><c r="A1"><v>0.30000000000000004</v></c><c r="B1"><v>1.2E-3</v></c><c r="C1"><v>-0</v></c><c r="D1"><v>46083.6041666667</v></c></row>"#,
            nil
        ),
        (
            "extension list",
            #"<row r="1"><c r="A1"><v>1</v><extLst><ext uri="x"><x14:thing><t>not text</t></x14:thing></ext></extLst></c></row>"#,
            [["1", "1"]]
        ),
    ]

    @Test(arguments: shapes.map(\.name))
    func aSheetIsReadAsAnXMLParserReadsIt(_ shape: String) throws {
        let (_, rows, expected) = try #require(Self.shapes.first { $0.name == shape })
        let url = temporaryDirectory().appendingPathComponent("\(UUID().uuidString).xlsx")
        try WorkbookTests.workbook(at: url, sheet: "Sales", rows: rows)
        let workbook = try Workbook(path: url.path)
        var scanned: [[String]] = []
        try workbook.rows(of: workbook.sheets[0]) { cells, row in
            scanned.append(["\(row)"] + cells)
            return true
        }
        let reference = try workbook.referenceRows(of: workbook.sheets[0]).map { ["\($0.row)"] + $0.cells }
        #expect(scanned == (expected ?? reference), "\(shape)")
        #expect(!scanned.isEmpty)
    }

    @Test(
        "The workbooks LibreOffice wrote are read as an XML parser reads them",
        arguments: ["her-book.xlsx", "her-book-1904.xlsx"]
    )
    func libreOfficeWorkbooks(_ name: String) throws {
        let workbook = try Workbook(path: WorkbookTests.fixture(name))
        for sheet in workbook.sheets {
            var scanned: [[String]] = []
            try workbook.rows(of: sheet) { cells, row in
                scanned.append(["\(row)"] + cells)
                return true
            }
            #expect(
                scanned == (try workbook.referenceRows(of: sheet).map { ["\($0.row)"] + $0.cells }),
                "\(name), \(sheet.name)"
            )
        }
    }

    /// What is broken is said, with the sheet's name: a tag never closed, an unknown entity.
    @Test(arguments: [
        #"<row r="1"><c r="A1"><v>1</v></c"#,
        #"<row r="1"><c r="A1" t="inlineStr"><is><t>a &nbsp; b</t></is></c></row>"#,
    ])
    func aBrokenSheetIsRefusedWithItsName(_ rows: String) throws {
        let url = temporaryDirectory().appendingPathComponent("\(UUID().uuidString).xlsx")
        try WorkbookTests.workbook(at: url, sheet: "Sales", rows: rows)
        let workbook = try Workbook(path: url.path)
        #expect {
            try workbook.rows(of: workbook.sheets[0]) { _, _ in true }
        } throws: { error in
            "\(error)".contains("its sheet \"Sales\" is not well-formed XML")
        }
    }
}
