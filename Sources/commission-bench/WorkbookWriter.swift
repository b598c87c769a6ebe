import CommissionCore
import Foundation
import ZIPFoundation

/// Writes the benchmark's sales CSV as an `.xlsx` workbook of one sheet, the way spreadsheet
/// programs save one: text as shared strings, dates as serial numbers in a date-formatted style,
/// numbers as numbers, the sheet deflated in its ZIP container. What the "import from xlsx" row reads.
enum WorkbookWriter {
    static func write(csv: String, to path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        let sheetFile = directory.appendingPathComponent("sheet1.xml")
        _ = FileManager.default.createFile(atPath: sheetFile.path, contents: nil)
        let sheet = try FileHandle(forWritingTo: sheetFile)
        // try?: the scratch sheet XML, zipped into the workbook by then (or the write failed anyway)
        defer { try? FileManager.default.removeItem(at: sheetFile) }

        var strings: [String] = [], index: [String: Int] = [:]
        func shared(_ text: String) -> Int {
            if let known = index[text] { return known }
            index[text] = strings.count
            strings.append(text)
            return strings.count - 1
        }
        let columns = Array("ABCDEFGH")
        // try?: a valid constant date: it cannot throw
        let epoch = (try? Day(year: 1899, month: 12, day: 30))?.ordinal ?? 0
        var chunk =
            #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#
            + #"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#
        var row = 0
        for line in try String(contentsOfFile: csv, encoding: .utf8).split(
            separator: "\n",
            omittingEmptySubsequences: true
        ) {
            row += 1
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            chunk += #"<row r="\#(row)">"#
            for (column, field) in fields.enumerated() where !field.isEmpty && column < columns.count {
                let reference = "\(columns[column])\(row)"
                // try?: a field that is not a date is written as a number or as text below
                if row > 1, column == 0, let day = try? Day(parsing: field) {
                    chunk += #"<c r="\#(reference)" s="1"><v>\#(day.ordinal - epoch)</v></c>"#
                } else if row > 1, field.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }) {
                    chunk += #"<c r="\#(reference)"><v>\#(field)</v></c>"#
                } else {
                    chunk += #"<c r="\#(reference)" t="s"><v>\#(shared(field))</v></c>"#
                }
            }
            chunk += "</row>"
            if chunk.utf8.count > 1 << 20 {
                try sheet.write(contentsOf: Data(chunk.utf8))
                chunk = ""
            }
        }
        chunk += "</sheetData></worksheet>"
        try sheet.write(contentsOf: Data(chunk.utf8))
        try sheet.close()

        // try?: an old output, if any; one that stays makes Archive(.create) below throw
        try? FileManager.default.removeItem(atPath: path)
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        func add(_ name: String, _ text: String) throws {
            let data = Data(text.utf8)
            try archive.addEntry(
                with: name,
                type: .file,
                uncompressedSize: Int64(data.count),
                compressionMethod: .deflate
            ) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        try add(
            "[Content_Types].xml",
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">\
            <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>\
            <Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>\
            <Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>\
            <Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>\
            <Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>
            """
        )
        try add(
            "_rels/.rels",
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
            <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>
            """
        )
        try add(
            "xl/workbook.xml",
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" \
            xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sales" sheetId="1" r:id="rId1"/></sheets></workbook>
            """
        )
        try add(
            "xl/_rels/workbook.xml.rels",
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
            <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>\
            <Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>\
            <Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>
            """
        )
        try add(
            "xl/styles.xml",
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">\
            <cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>
            """
        )
        let escaped = strings.map {
            $0.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        }
        try add(
            "xl/sharedStrings.xml",
            #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">"#
                + escaped.map { "<si><t>\($0)</t></si>" }.joined() + "</sst>"
        )
        try archive.addEntry(with: "xl/worksheets/sheet1.xml", fileURL: sheetFile, compressionMethod: .deflate)
    }
}
