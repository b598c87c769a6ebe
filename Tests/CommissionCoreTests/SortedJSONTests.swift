import CommissionCore
import Foundation
import Testing

/// `SortedJSON` writes JSONEncoder's bytes (with `.sortedKeys`) or gives up: never other bytes.
struct SortedJSONTests {
    /// What JSONEncoder writes for `value`, compact, keys sorted.
    static func reference(_ value: some Encodable, escapingSlashes: Bool) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = escapingSlashes ? [.sortedKeys] : [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    struct Line: Codable {
        enum Kind: String, Codable { case sale, refund }
        var id: Int64
        var name: String
        var note: String?
        var quantity: Int
        var voided: Bool
        var kind: Kind
        var tags: [String]
        var nested: Nested?
        struct Nested: Codable {
            var zeta: String
            var Alpha: Int
            var beta: [Int]
        }
    }

    /// A flat object written member by member is what the struct of its members encodes to, and
    /// gives up (nil, for the caller to encode the struct) on what only JSONEncoder writes.
    @Test func aFlatObjectIsItsStructEncoded() throws {
        struct Flat: Encodable {
            var amount: Int64?
            var name: String?
            var note: String?
            var voided: Bool
        }
        for (escaping, flat) in [
            (true, Flat(amount: -12, name: "Glow / Paris \"VIP\"", note: nil, voided: true)),
            (false, Flat(amount: nil, name: "é\n🧴", note: "", voided: false)),
        ] {
            var object = SortedJSON.FlatObject(escapingSlashes: escaping)
            object.add("amount", flat.amount)
            object.add("name", flat.name)
            object.add("note", flat.note)
            object.add("voided", flat.voided)
            #expect(try #require(object.json()) == (try Self.reference(flat, escapingSlashes: escaping)))
        }
        var bell = SortedJSON.FlatObject(escapingSlashes: true)
        bell.add("name", "a bell \u{07}")
        #expect(bell.json() == nil)
    }

    @Test func keysAreInTheOrderOfTheirBytes() throws {
        let value = ["a10": 1, "a2": 2, "B": 3, "b": 4, "_x": 5, "Z": 6, "a-b": 7, "a b": 8, "~": 9, "A": 10]
        let fast = try #require(SortedJSON.encode(value, escapingSlashes: true))
        #expect(fast == (try Self.reference(value, escapingSlashes: true)))
        #expect(
            String(decoding: fast, as: UTF8.self)
                == #"{"A":10,"B":3,"Z":6,"_x":5,"a b":8,"a-b":7,"a10":1,"a2":2,"b":4,"~":9}"#
        )
    }

    /// A key encoded twice keeps its last value, in a small object and in a large one (indexed).
    @Test func aKeyEncodedAgainReplacesItsValue() throws {
        struct Twice: Encodable {
            var size: Int
            struct Key: CodingKey {
                var stringValue: String
                var intValue: Int? { nil }
                init(stringValue: String) { self.stringValue = stringValue }
                init?(intValue: Int) { nil }
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                for index in 0..<size { try container.encode(index, forKey: Key(stringValue: "k\(index)")) }
                for index in stride(from: 0, to: size, by: 3) {
                    try container.encode("again", forKey: Key(stringValue: "k\(index)"))
                }
            }
        }
        for size in [3, 40] {
            let fast = try #require(SortedJSON.encode(Twice(size: size), escapingSlashes: true))
            #expect(fast == (try Self.reference(Twice(size: size), escapingSlashes: true)))
        }
    }

    @Test func aStructIsWrittenAsJSONEncoderWritesIt() throws {
        let values = [
            Line(
                id: 1,
                name: "Serum 30ml",
                note: nil,
                quantity: -2,
                voided: false,
                kind: .refund,
                tags: [],
                nested: nil
            ),
            Line(
                id: Int64.max,
                name: "Glow \"Aesthetics\" / Paris\\Lyon",
                note: "a\nb\rc\td\u{08}e\u{0C}f",
                quantity: Int.min,
                voided: true,
                kind: .sale,
                tags: ["é", "🧴", "\u{2028}\u{2029}", "\u{7F}", "e\u{301}", ""],
                nested: .init(zeta: "z", Alpha: 0, beta: [1, -1])
            ),
        ]
        for value in values {
            for slashes in [true, false] {
                let fast = try #require(SortedJSON.encode(value, escapingSlashes: slashes))
                #expect(
                    fast == (try Self.reference(value, escapingSlashes: slashes)),
                    "\(String(decoding: fast, as: UTF8.self))"
                )
            }
        }
    }

    /// Anything whose bytes depend on JSONEncoder's strategies or the locale's order is left to it.
    @Test func whatOnlyJSONEncoderWouldWriteIsGivenUp() {
        #expect(SortedJSON.encode(["price": 1.5], escapingSlashes: true) == nil)
        #expect(SortedJSON.encode(["at": Date(timeIntervalSince1970: 0)], escapingSlashes: true) == nil)
        #expect(SortedJSON.encode(["été": 1], escapingSlashes: true) == nil)
        #expect(SortedJSON.encode(["text": "bell\u{07}"], escapingSlashes: true) == nil)
        #expect(SortedJSON.encode(["text": "nul\u{00}"], escapingSlashes: true) == nil)
    }

    /// A value that encodes itself as `body` says.
    struct Custom: Encodable {
        let body: (any Encoder) throws -> Void
        func encode(to encoder: any Encoder) throws { try body(encoder) }
    }

    /// What JSONEncoder does its own way (a super encoder, a nested container asked for again, a
    /// value after a container, deep nesting) is left to it: gives up, and where JSONEncoder writes
    /// something, it is not what this type would have written.
    @Test func whatJSONEncoderDoesItsOwnWayIsGivenUp() throws {
        typealias Key = Tree.Key
        let cases: [(String, Custom)] = [
            (
                "an empty super encoder",
                Custom { encoder in
                    var container = encoder.container(keyedBy: Key.self)
                    try container.encode(1, forKey: Key(stringValue: "a"))
                    _ = container.superEncoder()
                }
            ),
            (
                "a nested container asked for twice",
                Custom { encoder in
                    var container = encoder.container(keyedBy: Key.self)
                    var first = container.nestedContainer(keyedBy: Key.self, forKey: Key(stringValue: "m"))
                    try first.encode(1, forKey: Key(stringValue: "x"))
                    var second = container.nestedContainer(keyedBy: Key.self, forKey: Key(stringValue: "m"))
                    try second.encode(2, forKey: Key(stringValue: "y"))
                }
            ),
            (
                "a nested container under an encoded value",
                Custom { encoder in
                    var container = encoder.container(keyedBy: Key.self)
                    try container.encode(["x": 1], forKey: Key(stringValue: "m"))
                    var nested = container.nestedContainer(keyedBy: Key.self, forKey: Key(stringValue: "m"))
                    try nested.encode(2, forKey: Key(stringValue: "y"))
                }
            ),
            (
                "a value after a container",
                Custom { encoder in
                    var container = encoder.container(keyedBy: Key.self)
                    try container.encode(1, forKey: Key(stringValue: "a"))
                    var single = encoder.singleValueContainer()
                    try single.encode("x")
                }
            ),
        ]
        for (name, value) in cases {
            #expect(SortedJSON.encode(value, escapingSlashes: true) == nil, "\(name)")
            #expect((try? Self.reference(value, escapingSlashes: true)) != nil, "JSONEncoder writes \(name)")
        }
        // 600 arrays deep: JSONEncoder refuses it, and so does this type.
        let deep = (0..<600).reduce(Tree.null) { inner, _ in Tree.array([inner]) }
        #expect(SortedJSON.encode(deep, escapingSlashes: true) == nil)
        #expect((try? Self.reference(deep, escapingSlashes: true)) == nil)
        // 128-bit integers have JSONEncoder's own format.
        #expect(SortedJSON.encode(["big": Int128(1) << 100], escapingSlashes: true) == nil)
    }

    /// A JSON document of random shape: objects with letter keys, arrays, strings of tricky
    /// characters, integers, booleans and nulls.
    indirect enum Tree: Encodable {
        case object([String: Tree]), array([Tree]), text(String), number(Int64), flag(Bool), null

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .object(let members):
                var container = encoder.container(keyedBy: Key.self)
                for (key, value) in members { try container.encode(value, forKey: Key(stringValue: key)) }
            case .array(let items):
                var container = encoder.unkeyedContainer()
                for item in items { try container.encode(item) }
            case .text(let text):
                var container = encoder.singleValueContainer()
                try container.encode(text)
            case .number(let number):
                var container = encoder.singleValueContainer()
                try container.encode(number)
            case .flag(let flag):
                var container = encoder.singleValueContainer()
                try container.encode(flag)
            case .null:
                var container = encoder.singleValueContainer()
                try container.encodeNil()
            }
        }

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        static func random(depth: Int, using generator: inout SplitMix64) -> Tree {
            let pieces = [
                "a", "Z", "\"", "\\", "/", "\n", "\t", "é", "€", "🧴", "\u{2028}", "\u{7F}", " ", "0", "e\u{301}",
                "\u{08}", "\u{0C}", "\r",
            ]
            let letters = Array("abcxyzABCXYZ019_- ~\"\\/")
            switch Int(generator.next() % (depth > 0 ? 6 : 4)) {
            case 0:
                return .text(
                    String(
                        (0..<Int(generator.next() % 6)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))]
                        }.joined()
                    )
                )
            case 1: return .number(Int64(bitPattern: generator.next()) >> Int64(generator.next() % 64))
            case 2: return .flag(generator.next() % 2 == 0)
            case 3: return .null
            case 4:
                var members: [String: Tree] = [:]
                for _ in 0..<Int(generator.next() % 6) {
                    let key = String(
                        (0..<(1 + Int(generator.next() % 4))).map { _ in
                            letters[Int(generator.next() % UInt64(letters.count))]
                        }
                    )
                    members[key] = random(depth: depth - 1, using: &generator)
                }
                return .object(members)
            default:
                return .array((0..<Int(generator.next() % 4)).map { _ in random(depth: depth - 1, using: &generator) })
            }
        }
    }

    @Test func randomDocumentsAreJSONEncodersBytesOrGivenUp() throws {
        var generator = SplitMix64(seed: 20_261_126)
        var written = 0
        for _ in 0..<3000 {
            let tree = Tree.object(["root": Tree.random(depth: 4, using: &generator)])
            let slashes = generator.next() % 2 == 0
            guard let fast = SortedJSON.encode(tree, escapingSlashes: slashes) else { continue }
            written += 1
            let reference = try Self.reference(tree, escapingSlashes: slashes)
            #expect(
                fast == reference,
                "\(String(decoding: fast, as: UTF8.self)) ≠ \(String(decoding: reference, as: UTF8.self))"
            )
        }
        #expect(written > 1000)  // most documents take the fast path
    }
}
