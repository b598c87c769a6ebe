import CSV
import Foundation

/// How a report is printed.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// Aligned columns for a terminal.
    case table
    /// RFC 4180 CSV with a header row.
    case csv
    /// JSON with amounts as decimal strings; see docs/json.md.
    case json
}

/// Rows of text under titled columns, printable as an aligned table or as CSV.
public struct TextTable: Sendable {
    public enum Alignment: Sendable { case left, right }

    public struct Column: Sendable {
        public var title: String
        public var alignment: Alignment
        public init(_ title: String, _ alignment: Alignment = .left) {
            self.title = title
            self.alignment = alignment
        }
    }

    public var columns: [Column]
    public var rows: [[String]]

    public init(_ columns: [Column], rows: [[String]] = []) {
        self.columns = columns
        self.rows = rows
    }

    /// Aligned columns separated by two spaces, a rule under the titles.
    public func rendered() -> String {
        var widths = columns.map { $0.title.count }
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (index, column) in columns.enumerated() {
                let cell = index < cells.count ? cells[index] : ""
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                parts.append(column.alignment == .right ? pad + cell : cell + pad)
            }
            return parts.joined(separator: "  ").replacingOccurrences(
                of: "\\s+$",
                with: "",
                options: .regularExpression
            )
        }
        var out = [
            line(columns.map(\.title)), widths.map { String(repeating: "─", count: $0) }.joined(separator: "  "),
        ]
        out += rows.map(line)
        return out.joined(separator: "\n") + "\n"
    }

    /// RFC 4180 CSV: a header row, CRLF line ends, fields quoted when they need it.
    public func csv() -> String {
        CSVText.encode([columns.map(\.title)] + rows)
    }
}

/// Writes CSV with CSV.swift's writer.
enum CSVText {
    static func encode(_ rows: [[String]]) -> String {
        let stream = OutputStream(toMemory: ())
        // try?: a stream to memory opens: its writer cannot fail to be made
        guard let writer = try? CSVWriter(stream: stream, newline: .crlf) else { return "" }
        // try?: writes to a memory stream do not fail
        for row in rows { try? writer.write(row: row.map(SpreadsheetSafety.inert)) }
        writer.stream.close()
        guard let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data else { return "" }
        return String(decoding: data, as: UTF8.self) + "\r\n"
    }
}

/// Keeps a CSV cell from being run as a formula when a spreadsheet opens the file (CSV injection):
/// text that begins with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, which
/// spreadsheets show as text. Plain numbers such as `-12.50` stay numbers. The importer takes the
/// `'` off again, so an export imports back as it was.
public enum SpreadsheetSafety {
    static let triggers: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    public static func inert(_ cell: String) -> String {
        guard let first = cell.first, triggers.contains(first), !isPlainNumber(cell) else { return cell }
        return "'" + cell
    }

    /// The cell as it was before ``inert(_:)``.
    public static func restored(_ cell: String) -> String {
        guard cell.hasPrefix("'"), let second = cell.dropFirst().first, triggers.contains(second),
            !isPlainNumber(String(cell.dropFirst()))
        else {
            return cell
        }
        return String(cell.dropFirst())
    }

    /// An optional sign, digits, and an optional decimal part: what the exports write for amounts.
    static func isPlainNumber(_ cell: String) -> Bool {
        cell.wholeMatch(of: /[+-]?[0-9]+([.,][0-9]+)?/) != nil
    }
}
