import Foundation

/// Reads an `.xlsx` sheet's XML byte by byte, as ``CSVScanner`` reads a CSV: the `<row>`s of its
/// `<sheetData>`, each `<c>`ell's reference, type and style, and its value (`<v>`) or inline string
/// (`<is>`, its `<t>` runs joined), entities and character references decoded, line ends as an XML
/// parser gives them. Formulas (`<f>`), comments, processing instructions and every other element
/// are passed over; an element may carry a namespace prefix (`<x:row>`).
///
/// A sheet is the one large part of a workbook (a million sales is some 300 MB of XML): Foundation's
/// `XMLParser` made a `String` of every element's name and a dictionary of every cell's attributes,
/// most of a workbook import's time. What the cells mean stays ``Workbook/text(type:style:value:)``'s.
struct SheetScanner {
    /// A cell as the sheet writes it.
    struct Cell {
        var reference: String?
        var type: String?
        var style: Int?
        var value: String
    }

    enum Event {
        case rowStart(number: Int?)
        case cell(Cell)
        case rowEnd
    }

    /// The XML is broken where it was expected to go on (a tag never closed, text after the end).
    struct Broken: Error, CustomStringConvertible {
        let offset: Int
        let reason: String
        var description: String { "\(reason) at byte \(offset)" }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var inSheetData = false
    private var done = false

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The next row start, cell or row end; nil at the end of the sheet's data (or of the bytes).
    mutating func next() throws(Broken) -> Event? {
        while !done {
            guard let open = find(UInt8(ascii: "<"), from: position) else {
                done = true
                return nil
            }
            position = open
            guard open + 1 < bytes.count else { throw Broken(offset: open, reason: "a tag is cut short") }
            switch bytes[open + 1] {
            case UInt8(ascii: "?"):
                try skip(past: "?>")
                continue
            case UInt8(ascii: "!"):
                if starts(with: "<!--", at: open) {
                    try skip(past: "-->")
                } else if starts(with: "<![CDATA[", at: open) {
                    try skip(past: "]]>")
                } else {
                    try skip(past: ">")
                }
                continue
            case UInt8(ascii: "/"):
                let (name, end) = try tagName(at: open + 2)
                position = try closing(from: end)
                if equals(name, "sheetData") {
                    done = true
                    return nil
                }
                if inSheetData && equals(name, "row") { return .rowEnd }
                continue
            default:
                let (name, end) = try tagName(at: open + 1)
                if equals(name, "sheetData") {
                    let close = try attributes(from: end)
                    position = close.end
                    inSheetData = !close.selfClosing
                    if close.selfClosing {
                        done = true
                        return nil
                    }
                    continue
                }
                guard inSheetData else {
                    position = try closing(from: end)
                    continue
                }
                if equals(name, "row") {
                    var number: Int?
                    let close = try attributes(from: end) { attribute, value in
                        if attribute == "r" { number = Self.integer(value) }
                    }
                    position = close.end
                    // An empty row (<row r="5"/>) has no end to tell: the next row's start ends it.
                    return .rowStart(number: number)
                }
                if equals(name, "c") {
                    var cell = Cell(reference: nil, type: nil, style: nil, value: "")
                    let close = try attributes(from: end) { attribute, value in
                        switch attribute {
                        case "r": cell.reference = String(decoding: value, as: UTF8.self)
                        case "t": cell.type = String(decoding: value, as: UTF8.self)
                        case "s": cell.style = Self.integer(value)
                        default: break
                        }
                    }
                    position = close.end
                    if !close.selfClosing { cell.value = try cellValue() }
                    return .cell(cell)
                }
                // Anything else inside the sheet's data (an extension list): passed over whole.
                let close = try attributes(from: end)
                position = close.end
                if !close.selfClosing { try skipElement(named: name) }
            }
        }
        return nil
    }

    // MARK: Cells

    /// The text of a cell's `<v>`, or of its inline string's `<t>`s, up to its `</c>`.
    private mutating func cellValue() throws(Broken) -> String {
        var value = ""
        while true {
            guard let open = find(UInt8(ascii: "<"), from: position) else {
                throw Broken(offset: position, reason: "a cell is never closed")
            }
            position = open
            guard open + 1 < bytes.count else { throw Broken(offset: open, reason: "a tag is cut short") }
            if bytes[open + 1] == UInt8(ascii: "/") {
                let (name, end) = try tagName(at: open + 2)
                position = try closing(from: end)
                if equals(name, "c") { return value }
                continue  // </is>, </r>
            }
            if bytes[open + 1] == UInt8(ascii: "!") || bytes[open + 1] == UInt8(ascii: "?") {
                if starts(with: "<!--", at: open) { try skip(past: "-->") } else { try skip(past: ">") }
                continue
            }
            let (name, end) = try tagName(at: open + 1)
            let close = try attributes(from: end)
            position = close.end
            if close.selfClosing { continue }
            if equals(name, "v") || equals(name, "t") {
                value += try text(until: name)
            } else if equals(name, "is") || equals(name, "r") {
                continue  // their <t>s are the text
            } else {
                try skipElement(named: name)  // a formula, a run's properties, an extension
            }
        }
    }

    /// The character data up to the element's end tag, decoded.
    private mutating func text(until name: Slice<UnsafeBufferPointer<UInt8>>) throws(Broken) -> String {
        var result = [UInt8]()
        while true {
            guard let open = find(UInt8(ascii: "<"), from: position) else {
                throw Broken(offset: position, reason: "a value is never closed")
            }
            try decode(position..<open, into: &result)
            position = open
            if starts(with: "<![CDATA[", at: open) {
                guard let end = find("]]>", from: open + 9) else {
                    throw Broken(offset: open, reason: "a CDATA section is never closed")
                }
                result.append(contentsOf: bytes[(open + 9)..<end])
                position = end + 3
                continue
            }
            if starts(with: "<!--", at: open) {
                try skip(past: "-->")
                continue
            }
            guard open + 1 < bytes.count, bytes[open + 1] == UInt8(ascii: "/") else {
                throw Broken(offset: open, reason: "an element inside a value")
            }
            let (closing, end) = try tagName(at: open + 2)
            guard equals(closing, name) else { throw Broken(offset: open, reason: "a value closed by another element") }
            position = try self.closing(from: end)
            return String(decoding: Self.normalizedLineEnds(result), as: UTF8.self)
        }
    }

    /// Appends `range`'s bytes with their entities and character references decoded.
    private func decode(_ range: Range<Int>, into result: inout [UInt8]) throws(Broken) {
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "&") else {
                result.append(byte)
                index += 1
                continue
            }
            guard let semicolon = find(UInt8(ascii: ";"), from: index), semicolon < range.upperBound,
                semicolon - index <= 12
            else {
                throw Broken(offset: index, reason: "an & that starts no entity")
            }
            let entity = bytes[(index + 1)..<semicolon]
            switch String(decoding: entity, as: UTF8.self) {
            case "lt": result.append(UInt8(ascii: "<"))
            case "gt": result.append(UInt8(ascii: ">"))
            case "amp": result.append(UInt8(ascii: "&"))
            case "quot": result.append(UInt8(ascii: "\""))
            case "apos": result.append(UInt8(ascii: "'"))
            case let reference where reference.hasPrefix("#"):
                let digits = reference.dropFirst()
                let code =
                    digits.hasPrefix("x") || digits.hasPrefix("X")
                    ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
                guard let code, let scalar = Unicode.Scalar(code), code != 0 else {
                    throw Broken(offset: index, reason: "a character reference to no character")
                }
                result.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw Broken(offset: index, reason: "an unknown entity")
            }
            index = semicolon + 1
        }
    }

    /// Line ends as XML hands them on: CR LF and a lone CR are LF.
    static func normalizedLineEnds(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(0x0D) else { return bytes }
        var result = [UInt8]()
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D {
                result.append(0x0A)
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
            } else {
                result.append(bytes[index])
            }
            index += 1
        }
        return result
    }

    // MARK: Tags

    /// The tag's local name (without a namespace prefix) starting at `index`, and where it ends.
    private func tagName(at index: Int) throws(Broken) -> (Slice<UnsafeBufferPointer<UInt8>>, Int) {
        var end = index, start = index
        while end < bytes.count, !Self.endsName(bytes[end]) {
            if bytes[end] == UInt8(ascii: ":") { start = end + 1 }
            end += 1
        }
        guard end < bytes.count, end > index else { throw Broken(offset: index, reason: "a tag without a name") }
        return (bytes[start..<end], end)
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == 0x09
            || byte == 0x0A || byte == 0x0D
    }

    /// Reads a start tag's attributes from `index` to its `>` (handing each to `each`, its name
    /// without a prefix); returns where the tag ends and whether it closes itself (`/>`).
    private func attributes(
        from index: Int,
        _ each: (String, Slice<UnsafeBufferPointer<UInt8>>) -> Void = { _, _ in }
    )
        throws(Broken) -> (end: Int, selfClosing: Bool)
    {
        var index = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") { return (index + 1, false) }
            if byte == UInt8(ascii: "/") {
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") else {
                    throw Broken(offset: index, reason: "a / inside a tag")
                }
                return (index + 2, true)
            }
            if byte == UInt8(ascii: " ") || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                index += 1
                continue
            }
            // name="value" (or 'value')
            var nameStart = index, nameEnd = index
            while nameEnd < bytes.count, bytes[nameEnd] != UInt8(ascii: "="), !Self.endsName(bytes[nameEnd]) {
                if bytes[nameEnd] == UInt8(ascii: ":") { nameStart = nameEnd + 1 }
                nameEnd += 1
            }
            var equals = nameEnd
            while equals < bytes.count, bytes[equals] == UInt8(ascii: " ") { equals += 1 }
            guard equals + 1 < bytes.count, bytes[equals] == UInt8(ascii: "=") else {
                throw Broken(offset: index, reason: "an attribute without a value")
            }
            var quote = equals + 1
            while quote < bytes.count, bytes[quote] == UInt8(ascii: " ") { quote += 1 }
            guard quote < bytes.count, bytes[quote] == UInt8(ascii: "\"") || bytes[quote] == UInt8(ascii: "'"),
                let close = find(bytes[quote], from: quote + 1)
            else { throw Broken(offset: index, reason: "an attribute's value is not quoted") }
            each(String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self), bytes[(quote + 1)..<close])
            index = close + 1
        }
        throw Broken(offset: index, reason: "a tag is never closed")
    }

    /// Past the `>` of an end tag (or of a tag whose attributes do not matter).
    private func closing(from index: Int) throws(Broken) -> Int {
        guard let close = find(UInt8(ascii: ">"), from: index) else {
            throw Broken(offset: index, reason: "a tag is never closed")
        }
        return close + 1
    }

    /// Past the end of the element named `name` whose start tag was just read (elements of the
    /// same name inside it counted).
    private mutating func skipElement(named name: Slice<UnsafeBufferPointer<UInt8>>) throws(Broken) {
        var depth = 1
        while depth > 0 {
            guard let open = find(UInt8(ascii: "<"), from: position), open + 1 < bytes.count else {
                throw Broken(offset: position, reason: "an element is never closed")
            }
            if bytes[open + 1] == UInt8(ascii: "/") {
                let (closing, end) = try tagName(at: open + 2)
                position = try self.closing(from: end)
                if equals(closing, name) { depth -= 1 }
            } else if bytes[open + 1] == UInt8(ascii: "!") || bytes[open + 1] == UInt8(ascii: "?") {
                position = open
                if starts(with: "<!--", at: open) {
                    try skip(past: "-->")
                } else if starts(with: "<![CDATA[", at: open) {
                    try skip(past: "]]>")
                } else {
                    try skip(past: ">")
                }
            } else {
                let (inner, end) = try tagName(at: open + 1)
                let close = try attributes(from: end)
                position = close.end
                if !close.selfClosing, equals(inner, name) { depth += 1 }
            }
        }
    }

    private mutating func skip(past marker: StaticString) throws(Broken) {
        guard let found = find(marker, from: position + 1) else {
            throw Broken(offset: position, reason: "a comment or declaration is never closed")
        }
        position = found + marker.utf8CodeUnitCount
    }

    // MARK: Bytes

    private func find(_ byte: UInt8, from index: Int) -> Int? {
        guard index < bytes.count, let base = bytes.baseAddress else { return nil }
        guard let found = memchr(base + index, Int32(byte), bytes.count - index) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    private func find(_ marker: StaticString, from index: Int) -> Int? {
        let first = marker.utf8Start.pointee
        var index = index
        while let at = find(first, from: index) {
            if starts(with: marker, at: at) { return at }
            index = at + 1
        }
        return nil
    }

    private func starts(with marker: StaticString, at index: Int) -> Bool {
        let count = marker.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pointer = marker.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] { return false }
        return true
    }

    private func equals(_ name: Slice<UnsafeBufferPointer<UInt8>>, _ expected: StaticString) -> Bool {
        guard name.count == expected.utf8CodeUnitCount else { return false }
        let pointer = expected.utf8Start
        var offset = 0
        for byte in name {
            if byte != pointer[offset] { return false }
            offset += 1
        }
        return true
    }

    private func equals(_ name: Slice<UnsafeBufferPointer<UInt8>>, _ other: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        name.elementsEqual(other)
    }

    /// A whole number's digits, or nil.
    static func integer(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
