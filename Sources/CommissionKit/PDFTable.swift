import CommissionStore
import Foundation

/// A PDF that cannot be read as a statement's table, in a sentence that says what to do instead.
public struct PDFTableError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// `pdftotext` (Debian's poppler-utils) is not installed where this runs.
        case noReader
        /// A PDF without a text layer: a scan, or a photo.
        case noText
        /// No line of it reads as the header of a statement's table; the first words of the page read.
        case noTable(page: Int, reads: String)
        /// pdftotext could not read it (a damaged or encrypted PDF), as it said.
        case unreadable(String)
    }

    public var name: String
    public var reason: Reason

    public init(name: String, reason: Reason) { (self.name, self.reason) = (name, reason) }

    public var description: String { said(on: .commandLine) }

    /// The sentence as `surface` says it: what to install where she runs the command; on a page or
    /// through the API, who can install it (the server is not hers to change).
    public func said(on surface: Surface) -> String {
        switch reason {
        case .noReader:
            surface.say(
                commandLine:
                    "\(name) is a PDF, and reading one needs pdftotext (Debian's poppler-utils), which is not installed here: install poppler-utils, or give the statement as CSV or a spreadsheet.",
                page:
                    "\(name) is a PDF, and this server cannot read PDFs yet (it lacks poppler-utils): ask whoever runs it to install that, or paste the statement's lines, or choose it as CSV.",
                api:
                    "\(name) is a PDF, and this server cannot read PDFs (poppler-utils is not installed on it): send the statement as CSV, or ask whoever runs the server to install poppler-utils."
            )
        case .noText:
            "\(name) is a PDF without text (a scan or a photo): ask the clinic for the statement as CSV or a spreadsheet, or as a PDF printed from one."
        case .noTable(let page, let reads):
            "\(name) is a PDF, but no table with a date, a product and a commission was found in it (its page \(page) reads “\(reads)”): give the statement as CSV or a spreadsheet."
        case .unreadable(let said):
            "\(name) is a PDF that cannot be read (\(said)): download it again, or give the statement as CSV or a spreadsheet."
        }
    }
}

/// A clinic's statement printed to PDF (what accounting software and spreadsheets print), read as
/// the table it shows: its text laid out by `pdftotext -layout` (poppler, a real, maintained PDF
/// reader — no PDF parser of ours), the header line found by its column names (those an import
/// knows, in her clinics' languages), each line cut where the header's words stand; the header a
/// table repeats on every page, the lines above it (a title, the page's head) and page footers
/// ("Page 2", "Seite 2 von 3") passed over, a product name wrapped over two lines joined. The
/// table comes out as CSV text, read from there as any statement is (locale, mapping, totals row).
public enum PDFTable {
    /// Whether a file's first bytes are a PDF's.
    public static func isPDF(_ head: Data) -> Bool { head.starts(with: Array("%PDF-".utf8)) }

    /// The statement's table of `origin` when it is a PDF (its CSV and what was passed over, in
    /// words); nil for anything else.
    /// - Throws: ``PDFTableError``.
    public static func read(_ origin: CSVImportSource.Origin) throws -> (csv: String, said: [String])? {
        switch origin {
        case .sheet: return nil
        case .file(let path):
            // try?: a file that cannot be opened here is the CSV reader's to refuse, in its words
            guard let handle = FileHandle(forReadingAtPath: path), let head = try? handle.read(upToCount: 5) else {
                return nil
            }
            try? handle.close()  // try?: a file only read from loses nothing on close
            return isPDF(head) ? try csv(ofPDFAt: path, name: origin.name) : nil
        case .data(let data, let name):
            guard isPDF(data) else { return nil }
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
                "commission-\(UUID().uuidString).pdf"
            )
            try data.write(to: scratch)
            defer { try? FileManager.default.removeItem(at: scratch) }  // try?: a scratch copy the OS cleans anyway
            return try csv(ofPDFAt: scratch.path, name: name)
        }
    }

    /// The statement's table in the PDF at `path` as CSV, and what was passed over, in words.
    /// - Throws: ``PDFTableError``.
    public static func csv(ofPDFAt path: String, name: String) throws -> (csv: String, said: [String]) {
        try table(fromLayout: try layoutText(path, name: name), name: name)
    }

    /// `pdftotext -layout FILE -`: the text of every page, pages apart by a form feed.
    static func layoutText(_ path: String, name: String) throws -> String {
        let searched = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard
            let reader = (searched.map { "\($0)/pdftotext" } + ["/usr/bin/pdftotext"]).first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { throw PDFTableError(name: name, reason: .noReader) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: reader)
        process.arguments = ["-layout", "-enc", "UTF-8", path, "-"]
        // Its complaints go to a file, not a second pipe: a pipe unread while the text is read
        // would stop pdftotext once it fills (a damaged PDF says a lot), and both would wait forever.
        let complaints = FileManager.default.temporaryDirectory.appendingPathComponent(
            "commission-pdftotext-\(UUID().uuidString).txt"
        )
        guard FileManager.default.createFile(atPath: complaints.path, contents: nil) else {
            throw PDFTableError(name: name, reason: .unreadable("no scratch file for pdftotext's messages"))
        }
        // try?: a scratch file the OS cleans anyway
        defer { try? FileManager.default.removeItem(at: complaints) }
        let errors = try FileHandle(forWritingTo: complaints)
        let output = Pipe()
        (process.standardOutput, process.standardError) = (output, errors)
        try process.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errors.close()  // try?: written by pdftotext, which has ended; read back below
        // try?: messages that cannot be read back leave the exit status to say what went wrong
        let said = (try? Data(contentsOf: complaints)) ?? Data()
        guard process.terminationStatus == 0 else {
            let reason = String(decoding: said, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init)
            throw PDFTableError(
                name: name,
                reason: .unreadable(reason ?? "pdftotext ended with \(process.terminationStatus)")
            )
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A run of text on a line and where it stands (in characters).
    struct Cell {
        var text: String
        var start: Int
        var end: Int
    }

    /// A line cut into its runs of text: two spaces or more end a run (one is a space within it).
    static func cells(_ line: Substring) -> [Cell] {
        var cells: [Cell] = [], current = "", start = 0, spaces = 0, position = 0
        for character in line {
            if character == " " || character == "\t" {
                spaces += 1
            } else {
                if !current.isEmpty && spaces >= 2 {
                    cells.append(Cell(text: current, start: start, end: position - spaces))
                    current = ""
                }
                if current.isEmpty {
                    start = position
                } else if spaces > 0 {
                    current += String(repeating: " ", count: spaces)
                }
                current.append(character)
                spaces = 0
            }
            position += 1
        }
        if !current.isEmpty { cells.append(Cell(text: current, start: start, end: position - spaces)) }
        return cells
    }

    /// Whether a line reads as a statement's header: a date column and at least two more an import knows.
    static func isHeader(_ cells: [Cell]) -> Bool {
        // A data row starts with its date or a number; a header with a word (checked first: cheap).
        guard cells.count >= 3, let first = cells.first?.text.first, !first.isNumber else { return false }
        let fields = cells.compactMap { CSVImportSource.field(for: $0.text) }
        return fields.contains(.date) && Set(fields).count >= 3
    }

    /// "Page 2", "Seite 2 von 3", "2 / 3", "Página 2 de 3": a page's footer.
    static func isFooter(_ line: String) -> Bool {
        let line = line.trimmingCharacters(in: .whitespaces)
        // Short, with a digit, and no second run of text: only then worth the pattern.
        guard line.count <= 24, line.contains(where: \.isNumber), !line.contains("  ") else { return false }
        return line.lowercased().wholeMatch(
            of: /((page|seite|página|pagina|pag\.|blatt|side|sida)\s*)?\d+(\s*(\/|of|von|de|di|sur|af|av)\s*\d+)?/
        ) != nil
    }

    package static func table(fromLayout text: String, name: String) throws -> (csv: String, said: [String]) {
        let pages = text.split(separator: "\u{0C}", omittingEmptySubsequences: false)
        guard text.contains(where: { !$0.isWhitespace }) else { throw PDFTableError(name: name, reason: .noText) }
        var header: [Cell]?, placed: [Cell]?
        var rows: [[String]] = []
        var fragments: [(column: Int, text: String)] = []
        var footers = 0, repeated = 0, wrapped = 0, pagesRead = 0
        /// The column a run of text belongs to: the header word it overlaps most, else the nearest.
        func column(of cell: Cell, in header: [Cell]) -> Int {
            let overlaps = header.map { max(0, min($0.end, cell.end) - max($0.start, cell.start)) }
            if let best = overlaps.indices.max(by: { overlaps[$0] < overlaps[$1] }), overlaps[best] > 0 { return best }
            let distances = header.map { abs(($0.start + $0.end) / 2 - (cell.start + cell.end) / 2) }
            return distances.indices.min(by: { distances[$0] < distances[$1] }) ?? 0
        }
        for page in pages {
            var lines = page.split(separator: "\n", omittingEmptySubsequences: false).map { $0 }
            guard lines.contains(where: { $0.contains(where: { !$0.isWhitespace }) }) else { continue }
            pagesRead += 1
            // The page's own header line: what stands above it is the page's head (a title, the sheet's name).
            // Each page lays its columns out its own way: its header's words say where they stand there.
            if let at = lines.firstIndex(where: { isHeader(cells($0)) }) {
                let here = cells(lines[at])
                if header == nil || here.count != header?.count { header = here } else { repeated += 1 }
                placed = here
                lines.removeFirst(at + 1)
            } else if header == nil {
                continue
            }
            guard let header = placed else { continue }
            let dateColumn = header.firstIndex { CSVImportSource.field(for: $0.text) == .date } ?? 0
            for line in lines {
                let runs = cells(line)
                guard !runs.isEmpty else { continue }
                if isFooter(String(line)) {
                    footers += 1
                    continue
                }
                var row = Array(repeating: "", count: header.count)
                for run in runs {
                    let index = column(of: run, in: header)
                    row[index] = row[index].isEmpty ? run.text : row[index] + " " + run.text
                }
                let filled = row.indices.filter { !row[$0].isEmpty }
                if filled.count == 1, filled[0] != dateColumn {
                    // A cell wrapped over lines: its first part stands above its row's line (the row's
                    // cells centred on it), or below the row when the row came last on the page.
                    fragments.append((filled[0], row[filled[0]]))
                    continue
                }
                for fragment in fragments.reversed() {
                    row[fragment.column] =
                        row[fragment.column].isEmpty ? fragment.text : fragment.text + " " + row[fragment.column]
                    wrapped += 1
                }
                fragments = []
                rows.append(row)
            }
            // What wrapped at the end of a page belongs to the row above it.
            if !fragments.isEmpty, !rows.isEmpty {
                for fragment in fragments {
                    let last = rows.count - 1
                    rows[last][fragment.column] += (rows[last][fragment.column].isEmpty ? "" : " ") + fragment.text
                    wrapped += 1
                }
                fragments = []
            }
        }
        guard let header else {
            let first = pages.first { $0.contains(where: { !$0.isWhitespace }) } ?? ""
            let reads = first.split(whereSeparator: \.isWhitespace).prefix(12).joined(separator: " ")
            throw PDFTableError(name: name, reason: .noTable(page: 1, reads: String(reads.prefix(80))))
        }
        func quoted(_ value: String) -> String {
            value.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline })
                ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
        }
        let csv = ([header.map(\.text)] + rows).map { $0.map(quoted).joined(separator: ",") }.joined(separator: "\n")
        var said = ["read from the PDF's text (\(pagesRead) page\(pagesRead == 1 ? "" : "s"))"]
        if repeated > 0 {
            said.append("its header repeated on \(repeated) page\(repeated == 1 ? "" : "s") passed over")
        }
        if footers > 0 { said.append("\(footers) page footer\(footers == 1 ? "" : "s") passed over") }
        if wrapped > 0 {
            said.append(
                "\(wrapped) wrapped line\(wrapped == 1 ? "" : "s") joined to \(wrapped == 1 ? "its row" : "their rows")"
            )
        }
        return (csv + "\n", said)
    }
}
