import CommissionCore
import CommissionStore
import Foundation

/// Making a ``ImportMapping`` for the import: from the CLI's `HEADER=FIELD` pairs or the page's
/// choices, each field checked against the fields the import reads.
extension ImportMapping {
    /// The fields a column may be mapped to, as the import names them (`date`, `unit price`…).
    public static var importFields: [String] { CSVImportSource.Field.allCases.map(\.rawValue) }

    /// The fields each kind of file must have, as the import names them.
    public static func requiredFields(of kind: ImportKind) -> [String] {
        CSVImportSource.required[kind]!.map(\.rawValue)
    }

    /// A mapping of a file with `headers`: each pair is a header of the file and the field it holds
    /// (a field as the import names it or as a header would, `Qty`; empty to ignore the column).
    /// - Throws: ``MappingError`` for a header the file lacks or a field the import does not read.
    public static func forImport(
        name: String,
        kind: ImportKind?,
        headers: [String],
        pairs: [(header: String, field: String)]
    ) throws -> ImportMapping {
        var fields: [String: String] = [:]
        let known = headers.map { $0.trimmingWhitespace() }
        for (header, field) in pairs {
            let header = header.trimmingWhitespace()
            guard
                let spelled = known.first(where: { Self.key($0) == Self.key(header) }) ?? (known.isEmpty ? header : nil)
            else {
                throw MappingError.noSuchColumn(header, has: known.filter { !$0.isEmpty })
            }
            let wanted = field.trimmingWhitespace()
            if wanted.isEmpty || ["ignore", "none", "-"].contains(wanted.lowercased()) {
                fields[spelled] = ""
            } else if let field = CSVImportSource.Field.allCases.first(where: {
                Self.key($0.rawValue) == Self.key(wanted)
            })
                ?? CSVImportSource.field(for: wanted)
            {
                fields[spelled] = field.rawValue
            } else {
                throw MappingError.noSuchField(wanted)
            }
        }
        return ImportMapping(name: name, kind: kind?.rawValue, headers: known, fields: fields)
    }

    /// A `HEADER=FIELD` pair as the CLI takes it (`"Share %=share"`); the last `=` divides them.
    public static func pair(_ text: String) throws -> (header: String, field: String) {
        guard let equals = text.lastIndex(of: "=") else { throw MappingError.notAPair(text) }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }
}

/// A mapping that cannot be made as asked.
public enum MappingError: Error, Sendable, Equatable, CustomStringConvertible {
    case noSuchColumn(String, has: [String])
    case noSuchField(String)
    case notAPair(String)

    public var description: String {
        switch self {
        case .noSuchColumn(let header, let has):
            return
                "The file has no column \"\(header)\"; its columns are \(has.map { "\"\($0)\"" }.joined(separator: ", "))."
        case .noSuchField(let field):
            return
                "\"\(field)\" is not a field Commission reads; the fields are \(ImportMapping.importFields.joined(separator: ", ")) (or ignore)."
        case .notAPair(let text):
            return "\"\(text)\" is not HEADER=FIELD, such as \"Share %=share\" or \"Retail=unit price\"."
        }
    }
}
