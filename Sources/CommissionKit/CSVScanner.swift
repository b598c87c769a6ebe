import Foundation

/// Reads the records of a CSV file, streaming it in 1 MiB chunks and working on its bytes.
///
/// CSV.swift decodes its input one Unicode scalar at a time and builds every field a scalar at a
/// time; on a 1M-line sales file that alone takes longer than the rest of the import together
/// (`commission-bench` prints both readers side by side). This reader splits on bytes (the
/// delimiter, quote, CR and LF are ASCII, so they never occur inside a multi-byte UTF-8 sequence)
/// and validates each field once as it becomes a `String`.
///
/// It reads RFC 4180 and what spreadsheets make of it: an optional UTF-8 byte-order mark, LF, CRLF
/// or CR line ends, quoted fields with delimiters, doubled quotes and line breaks inside. Being
/// lenient where a spreadsheet user would expect it, a quote inside an unquoted field is kept as
/// text, as is text after a closing quote. A quote never closed is an error, and so are bytes that
/// are not UTF-8.
public struct CSVScanner {
    public enum Failure: Error, Equatable {
        /// The record starting on `line` holds bytes that are not UTF-8.
        case notUTF8(line: Int)
        /// A quoted field opened in the record starting on `line` is never closed.
        case unterminatedQuote(line: Int)
        /// The file could not be read on from the record starting on `line` (a disk error, a file
        /// cut off under the reader): what was read is not the whole file.
        case unreadable(line: Int)
    }

    /// One record: its fields and the 1-based line of the file it starts on.
    public struct Record {
        public var fields: [String]
        public var line: Int
    }

    private let input: FileHandle?
    private var buffer: [UInt8]
    /// Where the next record starts in `buffer`.
    private var position = 0
    private var atEnd: Bool
    /// The file failed to read on: the end reached is not its end.
    private var failed = false
    private let delimiter: UInt8
    /// The line the next record starts on.
    private var line = 1
    /// Fields in the previous record: a good guess for the next one's capacity.
    private var width = 8

    static let chunkSize = 1 << 20

    /// Reads the file at `path`.
    public init?(path: String, delimiter: UInt8) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        input = handle
        buffer = []
        atEnd = false
        self.delimiter = delimiter
        fill()
        skipByteOrderMark()
    }

    /// Reads bytes already in memory.
    public init(data: Data, delimiter: UInt8) {
        input = nil
        buffer = Array(data)
        atEnd = true
        self.delimiter = delimiter
        skipByteOrderMark()
    }

    private mutating func skipByteOrderMark() {
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    /// Drops the bytes already read and appends the next chunk of the file.
    private mutating func fill() {
        guard let input, !atEnd else { return }
        let chunk: Data
        do {
            chunk = try input.read(upToCount: Self.chunkSize) ?? Data()
        } catch {
            (atEnd, failed) = (true, true)  // said by `next()` where the reading stops
            // try?: closing a file that failed to read; the failure is what is told
            try? input.close()
            return
        }
        if chunk.isEmpty {
            atEnd = true
            // try?: closing a file read to its end
            try? input.close()
            return
        }
        buffer.removeSubrange(0..<position)
        position = 0
        buffer.append(contentsOf: chunk)
    }

    /// The next record, or nil at the end of the file.
    public mutating func next() throws(Failure) -> Record? {
        while true {
            if position == buffer.count {
                if atEnd {
                    if failed { throw .unreadable(line: line) }
                    return nil
                }
                fill()
                continue
            }
            switch try parseRecord() {
            case .record(let fields, let end, let lines):
                let record = Record(fields: fields, line: line)
                position = end
                line += lines
                width = fields.count
                return record
            case .needMore:
                fill()
            }
        }
    }

    private enum Outcome {
        /// The fields, where the next record starts, and how many lines the record spans.
        case record([String], end: Int, lines: Int)
        /// The buffer ends inside the record and more of the file is to come.
        case needMore
    }

    /// The bytes as a `String`, when they are UTF-8. Plain ASCII, by far the most common, skips the
    /// standard library's general validation, which is several times slower on short fields.
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws(Failure) -> String {
        var union: UInt8 = 0
        for byte in bytes { union |= byte }
        if union < 0x80 { return String(decoding: bytes, as: UTF8.self) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notUTF8(line: line) }
        return text
    }

    private func parseRecord() throws(Failure) -> Outcome {
        let quote: UInt8 = 0x22, cr: UInt8 = 0x0D, lf: UInt8 = 0x0A
        let delimiter = self.delimiter, atEnd = self.atEnd, line = self.line
        var fields: [String] = []
        fields.reserveCapacity(width)
        return try buffer.withUnsafeBufferPointer { bytes throws(Failure) -> Outcome in
            let count = bytes.count
            var index = position
            var lines = 0
            func text(_ range: Range<Int>) throws(Failure) -> String {
                try Self.string(UnsafeBufferPointer(rebasing: bytes[range]), line: line)
            }
            while true {
                var field: String
                if index < count, bytes[index] == quote {
                    // A quoted field: up to the quote that is not doubled.
                    var unquoted: [UInt8] = []
                    var cursor = index + 1
                    var segment = cursor
                    while true {
                        guard cursor < count else {
                            if !atEnd { return .needMore }
                            throw .unterminatedQuote(line: line)
                        }
                        let byte = bytes[cursor]
                        if byte == quote {
                            guard cursor + 1 < count || atEnd else { return .needMore }
                            unquoted.append(contentsOf: bytes[segment..<cursor])
                            if cursor + 1 < count, bytes[cursor + 1] == quote {
                                unquoted.append(quote)
                                cursor += 2
                                segment = cursor
                                continue
                            }
                            cursor += 1
                            break
                        }
                        if byte == lf || (byte == cr && (cursor + 1 == count || bytes[cursor + 1] != lf)) { lines += 1 }
                        cursor += 1
                    }
                    // Text between the closing quote and the delimiter is kept as it is.
                    let rest = cursor
                    while cursor < count, bytes[cursor] != delimiter, bytes[cursor] != cr, bytes[cursor] != lf {
                        cursor += 1
                    }
                    if cursor == count && !atEnd { return .needMore }
                    unquoted.append(contentsOf: bytes[rest..<cursor])
                    field = try unquoted.withUnsafeBufferPointer { bytes throws(Failure) in
                        try Self.string(bytes, line: line)
                    }
                    index = cursor
                } else {
                    var cursor = index
                    while cursor < count, bytes[cursor] != delimiter, bytes[cursor] != cr, bytes[cursor] != lf {
                        cursor += 1
                    }
                    if cursor == count && !atEnd { return .needMore }
                    field = try text(index..<cursor)
                    index = cursor
                }
                fields.append(field)
                // The field ends at a delimiter, a line end, or the end of the file.
                if index == count {
                    return .record(fields, end: index, lines: lines + 1)
                }
                let byte = bytes[index]
                if byte == delimiter {
                    index += 1
                    continue
                }
                if byte == cr {
                    if index + 1 == count && !atEnd { return .needMore }
                    index += index + 1 < count && bytes[index + 1] == lf ? 2 : 1
                } else {
                    index += 1
                }
                return .record(fields, end: index, lines: lines + 1)
            }
        }
    }
}
