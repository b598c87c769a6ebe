import Foundation

/// Compact JSON with sorted keys, written in plain Swift: what Foundation's `JSONEncoder` writes
/// with `.sortedKeys` (and `.withoutEscapingSlashes` when slashes are not escaped), byte for byte,
/// in less time.
///
/// On Linux, `JSONEncoder` boxes every value into a tree of its own, through layers of generic
/// containers and a dynamic cast per value, and every `POST /api/v1/sales` encodes two sales (its
/// audit entry and its answer). A sale's answer takes 4.73 µs here against 6.74 µs (benchmarks/README.md,
/// "a sale's API answer as JSON (SortedJSON, any Encodable)"); in a server, among the rest of the
/// request, the two cost more: the POST used 6.5% less CPU with this encoder (an interleaved A/B,
/// three rounds each). Those two are now written member by member (``FlatObject``), in less time
/// again ("a sale's API answer as JSON (member by member)").
///
/// It takes what the API's answers and the audit entries are made of — objects, arrays, strings,
/// integers, booleans and nulls — and gives up (`nil`) on anything whose bytes it could not
/// promise to be `JSONEncoder`'s: a `Double`, a `Date`, `Data`, a `URL`, a `Decimal` or a 128-bit
/// integer (each has a strategy or a format there), a key outside ASCII (sorted here by String's
/// order, which is byte order for ASCII only), a control character other than `\n`, `\r`, `\t`, `\b`
/// and `\f` in a string, a super encoder, a nested container asked for again under its key, a value
/// written after another on one encoder, nesting 512 deep, and an error thrown by the value itself
/// (JSONEncoder then encodes it again). The caller then uses `JSONEncoder`, so the output does not
/// depend on which path wrote it (shown against `JSONEncoder` on random documents and on each of
/// these cases in `SortedJSONTests`).
public enum SortedJSON {
    /// The value as compact JSON with sorted keys, or nil where only `JSONEncoder` would do.
    public static func encode(_ value: some Encodable, escapingSlashes: Bool) -> [UInt8]? {
        do {
            let node = try ValueEncoder.node(for: value, at: .root)
            var output: [UInt8] = []
            output.reserveCapacity(512)
            try node.write(to: &output, escapingSlashes: escapingSlashes, depth: 0)
            return output
        } catch {
            return nil
        }
    }

    /// A flat object written member by member, for a hot path whose members are known: what
    /// ``encode(_:escapingSlashes:)`` writes for a struct of such fields, without building a tree
    /// and sorting it. The caller adds the members in the order of their keys' bytes (checked in
    /// debug builds) and leaves a nil one out, as `JSONEncoder` does; ``json()`` is nil where a
    /// string has what only `JSONEncoder` writes (a control character), and the caller then encodes
    /// the struct. (A sale's audit entry is written on every sale entered, in the writer's
    /// transaction, which every other write waits for.)
    public struct FlatObject {
        private var bytes: [UInt8] = [UInt8(ascii: "{")]
        private let escapingSlashes: Bool
        private var isUnsupported = false
        #if DEBUG
        private var lastKey: String?
        #endif

        public init(escapingSlashes: Bool, capacity: Int = 384) {
            self.escapingSlashes = escapingSlashes
            bytes.reserveCapacity(capacity)
        }

        private mutating func key(_ key: StaticString) {
            #if DEBUG
            let name = key.description
            assert(
                lastKey.map { Array($0.utf8).lexicographicallyPrecedes(Array(name.utf8)) } ?? true,
                "\(name) added after \(lastKey ?? "")"
            )
            lastKey = name
            #endif
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
            bytes.append(contentsOf: #"":"#.utf8)
        }

        public mutating func add(_ key: StaticString, _ value: Int64?) {
            guard let value else { return }
            self.key(key)
            bytes.append(contentsOf: String(value).utf8)
        }

        public mutating func add(_ key: StaticString, _ value: Bool) {
            self.key(key)
            bytes.append(contentsOf: (value ? "true" : "false").utf8)
        }

        public mutating func add(_ key: StaticString, _ value: String?) {
            guard let value else { return }
            self.key(key)
            do { try SortedJSON.write(value, to: &bytes, escapingSlashes: escapingSlashes) } catch {
                isUnsupported = true
            }
        }

        /// The object's bytes, or nil where only `JSONEncoder` would do.
        public func json() -> [UInt8]? {
            isUnsupported ? nil : bytes + [UInt8(ascii: "}")]
        }
    }

    /// Thrown inside to fall back on `JSONEncoder`; never leaves this type.
    struct Unsupported: Error {}

    /// The nesting JSONEncoder's writer refuses (it throws at 512 levels).
    static let maximumDepth = 512

    /// An encoded value: a scalar (a string still to escape, or the bytes of a number, boolean or
    /// null), or a container that nested encoders may still add to.
    enum Node {
        case string(String)
        case literal(String)
        case object(ObjectNode)
        case array(ArrayNode)

        func write(to output: inout [UInt8], escapingSlashes: Bool, depth: Int) throws {
            guard depth < SortedJSON.maximumDepth else { throw Unsupported() }  // JSONEncoder refuses it
            switch self {
            case .string(let text): try SortedJSON.write(text, to: &output, escapingSlashes: escapingSlashes)
            case .literal(let text): output.append(contentsOf: text.utf8)
            case .array(let array):
                if array.isUnsupported { throw Unsupported() }
                output.append(UInt8(ascii: "["))
                for (index, item) in array.items.enumerated() {
                    if index > 0 { output.append(UInt8(ascii: ",")) }
                    try item.write(to: &output, escapingSlashes: escapingSlashes, depth: depth + 1)
                }
                output.append(UInt8(ascii: "]"))
            case .object(let object):
                output.append(UInt8(ascii: "{"))
                for (index, entry) in try object.sortedEntries().enumerated() {
                    if index > 0 { output.append(UInt8(ascii: ",")) }
                    try SortedJSON.write(entry.key, to: &output, escapingSlashes: escapingSlashes)
                    output.append(UInt8(ascii: ":"))
                    try entry.node.write(to: &output, escapingSlashes: escapingSlashes, depth: depth + 1)
                }
                output.append(UInt8(ascii: "}"))
            }
        }
    }

    final class ObjectNode {
        var entries: [(key: String, node: Node)] = []
        /// Something JSONEncoder does its own way was asked for (a nested container under a key
        /// this type cannot sort or that is already there, a super encoder): the write gives up.
        var isUnsupported = false

        func set(_ key: String, _ node: Node) throws {
            // JSONEncoder sorts keys by their bytes; String's order (used here) is theirs for ASCII only.
            guard
                key.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy { $0 < 0x80 } })
                    ?? key.utf8.allSatisfy({ $0 < 0x80 })
            else {
                throw Unsupported()
            }
            // A key encoded again replaces its value, as in JSONEncoder. A small object is searched
            // (the API's are), a large one (a dictionary) indexed.
            if entries.count >= 32 && positions == nil {
                positions = Dictionary(
                    entries.enumerated().map { ($0.element.key, $0.offset) },
                    uniquingKeysWith: { $1 }
                )
            }
            if let index = positions != nil ? positions?[key] : entries.firstIndex(where: { $0.key == key }) {
                entries[index].node = node
            } else {
                positions?[key] = entries.count
                entries.append((key, node))
            }
        }
        private var positions: [String: Int]?

        /// A nested container under `key`: JSONEncoder merges one asked for again into the first, so that is left to it.
        func setNested(_ key: String, _ node: Node) {
            if isUnsupported { return }
            if entries.contains(where: { $0.key == key }) {
                isUnsupported = true
            } else {
                do { try set(key, node) } catch { isUnsupported = true }
            }
        }

        func sortedEntries() throws -> [(key: String, node: Node)] {
            if isUnsupported { throw Unsupported() }
            return entries.sorted { $0.key < $1.key }  // ASCII: String's order is the bytes'
        }
    }

    final class ArrayNode {
        var items: [Node] = []
        /// A super encoder was asked for: the write gives up.
        var isUnsupported = false
    }

    /// `"text"`, escaped as `JSONEncoder` escapes it.
    static func write(_ text: String, to output: inout [UInt8], escapingSlashes: Bool) throws {
        output.append(UInt8(ascii: "\""))
        var text = text
        try text.withUTF8 { bytes in
            // Most strings need no escape: copied at once.
            guard
                bytes.contains(where: {
                    $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
                        || ($0 == UInt8(ascii: "/") && escapingSlashes)
                })
            else {
                output.append(contentsOf: bytes)
                return
            }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""):
                    output.append(UInt8(ascii: "\\"))
                    output.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"):
                    output.append(UInt8(ascii: "\\"))
                    output.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/") where escapingSlashes:
                    output.append(UInt8(ascii: "\\"))
                    output.append(UInt8(ascii: "/"))
                case 0x0A:
                    output.append(UInt8(ascii: "\\"))
                    output.append(UInt8(ascii: "n"))
                case 0x0D:
                    output.append(UInt8(ascii: "\\"))
                    output.append(UInt8(ascii: "r"))
                case 0x09:
                    output.append(UInt8(ascii: "\\"))
                    output.append(UInt8(ascii: "t"))
                case 0x08:
                    output.append(UInt8(ascii: "\\"))
                    output.append(UInt8(ascii: "b"))
                case 0x0C:
                    output.append(UInt8(ascii: "\\"))
                    output.append(UInt8(ascii: "f"))
                case 0x00..<0x20: throw Unsupported()
                default: output.append(byte)
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// An array element's key in a coding path, as JSONEncoder names it.
    struct IndexKey: CodingKey {
        var index: Int
        init(index: Int) { self.index = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { index = intValue }
        var stringValue: String { "Index \(index)" }
        var intValue: Int? { index }
    }

    /// Where a value is, for `codingPath`: made into an array only when someone asks.
    final class Path: Sendable {
        let parent: Path?
        let key: (any CodingKey)?
        init(parent: Path?, key: (any CodingKey)?) { (self.parent, self.key) = (parent, key) }
        static let root = Path(parent: nil, key: nil)

        func appending(_ key: any CodingKey) -> Path { Path(parent: self, key: key) }
        var keys: [any CodingKey] {
            var keys: [any CodingKey] = []
            var path: Path? = self
            while let current = path {
                if let key = current.key { keys.append(key) }
                path = current.parent
            }
            return keys.reversed()
        }
    }

    /// A scalar's node, by its type (cheaper than a cast per type), or nil for anything else.
    static func scalar<T>(_ value: T) throws -> Node? {
        switch ObjectIdentifier(T.self) {
        case ObjectIdentifier(String.self): return .string(value as! String)
        case ObjectIdentifier(Bool.self): return .literal(value as! Bool ? "true" : "false")
        case ObjectIdentifier(Int.self): return .literal(String(value as! Int))
        case ObjectIdentifier(Int64.self): return .literal(String(value as! Int64))
        case ObjectIdentifier(Int32.self): return .literal(String(value as! Int32))
        case ObjectIdentifier(Int16.self): return .literal(String(value as! Int16))
        case ObjectIdentifier(Int8.self): return .literal(String(value as! Int8))
        case ObjectIdentifier(UInt.self): return .literal(String(value as! UInt))
        case ObjectIdentifier(UInt64.self): return .literal(String(value as! UInt64))
        case ObjectIdentifier(UInt32.self): return .literal(String(value as! UInt32))
        case ObjectIdentifier(UInt16.self): return .literal(String(value as! UInt16))
        case ObjectIdentifier(UInt8.self): return .literal(String(value as! UInt8))
        case ObjectIdentifier(Double.self), ObjectIdentifier(Float.self), ObjectIdentifier(Date.self),
            ObjectIdentifier(Data.self),
            ObjectIdentifier(URL.self), ObjectIdentifier(Decimal.self), ObjectIdentifier(Int128.self),
            ObjectIdentifier(UInt128.self):
            throw Unsupported()
        default: return nil
        }
    }

    /// The `Encoder` a value encodes itself into: it keeps the one container the value asked for.
    final class ValueEncoder: Encoder {
        let path: Path
        var codingPath: [any CodingKey] { path.keys }
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        var node: Node?

        init(path: Path) { self.path = path }

        /// The node of `value`: scalars directly, anything else through its `encode(to:)`.
        static func node<T: Encodable>(for value: T, at path: Path) throws -> Node {
            if let scalar = try SortedJSON.scalar(value) { return scalar }
            let encoder = ValueEncoder(path: path)
            try value.encode(to: encoder)
            // A value that encodes nothing: JSONEncoder's answer depends on where it is.
            guard let node = encoder.node else { throw Unsupported() }
            return node
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let object: ObjectNode
            if case .object(let existing) = node {
                object = existing
            } else {
                object = ObjectNode()
                // After another kind of value JSONEncoder stops the process: not for this type to say what it writes.
                object.isUnsupported = node != nil
                node = .object(object)
            }
            return KeyedEncodingContainer(KeyedContainer<Key>(path: path, object: object))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            let array: ArrayNode
            if case .array(let existing) = node {
                array = existing
            } else {
                array = ArrayNode()
                array.isUnsupported = node != nil
                node = .array(array)
            }
            return UnkeyedContainer(path: path, array: array)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let path: Path
        let object: ObjectNode
        var codingPath: [any CodingKey] { path.keys }

        mutating func encodeNil(forKey key: Key) throws { try object.set(key.stringValue, .literal("null")) }
        mutating func encode(_ value: String, forKey key: Key) throws {
            try object.set(key.stringValue, .string(value))
        }
        mutating func encode(_ value: Bool, forKey key: Key) throws {
            try object.set(key.stringValue, .literal(value ? "true" : "false"))
        }
        mutating func encode(_ value: Int, forKey key: Key) throws {
            try object.set(key.stringValue, .literal(String(value)))
        }
        mutating func encode(_ value: Int64, forKey key: Key) throws {
            try object.set(key.stringValue, .literal(String(value)))
        }
        mutating func encode(_ value: Double, forKey key: Key) throws { throw Unsupported() }
        mutating func encode(_ value: Float, forKey key: Key) throws { throw Unsupported() }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try object.set(key.stringValue, try ValueEncoder.node(for: value, at: path.appending(key)))
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type,
            forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let nested = ObjectNode()
            object.setNested(key.stringValue, .object(nested))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(path: path.appending(key), object: nested))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = ArrayNode()
            object.setNested(key.stringValue, .array(nested))
            return UnkeyedContainer(path: path.appending(key), array: nested)
        }
        // JSONEncoder writes a super encoder's value (`{}` when it is left empty) its own way: the
        // object gives up, and what the super encoder is given is thrown away.
        mutating func superEncoder() -> any Encoder {
            object.isUnsupported = true
            return ValueEncoder(path: path)
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            object.isUnsupported = true
            return ValueEncoder(path: path.appending(key))
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let path: Path
        let array: ArrayNode
        var codingPath: [any CodingKey] { path.keys }
        var count: Int { array.items.count }

        mutating func encodeNil() throws { array.items.append(.literal("null")) }
        mutating func encode(_ value: String) throws { array.items.append(.string(value)) }
        mutating func encode(_ value: Double) throws { throw Unsupported() }
        mutating func encode(_ value: Float) throws { throw Unsupported() }
        mutating func encode<T: Encodable>(_ value: T) throws {
            array.items.append(
                try ValueEncoder.node(for: value, at: path.appending(IndexKey(index: array.items.count)))
            )
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            let nested = ObjectNode()
            let index = IndexKey(index: array.items.count)
            array.items.append(.object(nested))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(path: path.appending(index), object: nested))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = ArrayNode()
            let index = IndexKey(index: array.items.count)
            array.items.append(.array(nested))
            return UnkeyedContainer(path: path.appending(index), array: nested)
        }
        mutating func superEncoder() -> any Encoder {
            array.isUnsupported = true
            return ValueEncoder(path: path)
        }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: ValueEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        // A second value, or one after a container: JSONEncoder keeps the container, or stops the process.
        mutating func encodeNil() throws { try take(.literal("null")) }
        mutating func encode(_ value: String) throws { try take(.string(value)) }
        mutating func encode(_ value: Double) throws { throw Unsupported() }
        mutating func encode(_ value: Float) throws { throw Unsupported() }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try take(try ValueEncoder.node(for: value, at: encoder.path))
        }

        private func take(_ node: Node) throws {
            guard encoder.node == nil else { throw Unsupported() }
            encoder.node = node
        }
    }
}
