import CommissionCore
import CommissionKit
import CommissionWeb
import Foundation
import Testing

/// The API's hot path reads a sale's body and writes its answer without Foundation's coders: the
/// body is read as `JSONDecoder` reads it or handed to it, the answer is the bytes the encoder
/// writes.
@Suite struct FlatBodiesTests {
    static func decoded(_ body: String) -> API.SaleInput? {
        try? JSONDecoder().decode(API.SaleInput.self, from: Data(body.utf8))
    }

    static func flat(_ body: String) -> API.SaleInput? {
        var body = body
        return body.withUTF8 { FlatJSON.members(UnsafeRawBufferPointer($0)).flatMap(API.SaleInput.init(members:)) }
    }

    @Test func whatTheAPIsClientsSendIsReadWithoutJSONDecoder() throws {
        let bodies = [
            #"{"clinicId": 1, "productId": 1, "quantity": 1, "date": "2026-11-27"}"#,
            #"{"clinic":"Glow","product":"SER-30","quantity":-2,"date":"2026-03-02","unitPrice":"50.00","discount":"5","note":"été 🧴"}"#,
            " \n{ \"clinicId\" : 9223372036854775807 , \"noCommission\" : true, \"note\": null, \"unitCost\": \"\" }\r\n\t",
            #"{"productId": -9223372036854775808, "quantity": -0, "noCommission": false, "someday": 3, "also": "left aside"}"#,
            "{}",
        ]
        for body in bodies {
            let fast = try #require(Self.flat(body), "\(body)")
            #expect(fast == Self.decoded(body), "\(body)")
        }
    }

    @Test func whatItCannotPromiseGoesToJSONDecoder() {
        let bodies = [
            // escapes, a control character
            #"{"note": "a \"quoted\" word"}"#, #"{"note": "caf\u00e9"}"#, "{\"note\": \"tab\tinside\"}",
            #"{"quantity": 1.0}"#, #"{"quantity": 1e2}"#, #"{"quantity": 01}"#, #"{"quantity": 9223372036854775808}"#,
            #"{"quantity": -}"#,
            #"{"quantity": "2"}"#, #"{"clinic": 1}"#, #"{"noCommission": 1}"#, #"{"clinicId": true}"#,  // another type
            #"{"clinicId": 1, "clinicId": 2}"#, #"{"extra": {"nested": 1}}"#, #"{"extra": [1]}"#,  // twice, nested
            #"[{"clinicId": 1}]"#, #"{"clinicId": 1,}"#, #"{"clinicId": 1} x"#, #"{"clinicId" 1}"#, "{\"clinicId\": 1",
            "", "null",
            #"{"clinicId": tru}"#, #"{"clinicId": nul}"#, "\u{FEFF}{}",
        ]
        for body in bodies { #expect(Self.flat(body) == nil, "\(body)") }
        // Many members (a key given twice is looked for among them all) go to JSONDecoder.
        let members = (0..<FlatJSON.memberLimit).map { #""k\#($0)": \#($0)"# }
        #expect(Self.flat("{" + members.joined(separator: ",") + "}") != nil)
        let many = "{" + (members + [#""clinicId": 1"#]).joined(separator: ",") + "}"
        #expect(Self.flat(many) == nil && Self.decoded(many)?.clinicId == 1)
        var invalid = Array(#"{"note": "x"}"#.utf8)
        invalid[10] = 0xFF  // not UTF-8
        #expect(invalid.withUnsafeBytes { FlatJSON.members($0) } == nil)
    }

    /// Random bodies built from pieces a client might send, good and bad: where the flat reader
    /// reads one, `JSONDecoder` reads the same sale.
    @Test func randomBodiesAreReadAsJSONDecoderReadsThemOrGivenUp() {
        let keys = [
            "clinicId", "clinic", "productId", "product", "date", "quantity", "unitPrice", "unitCost", "discount",
            "noCommission",
            "note", "other", "clinicid", "",
        ]
        let values = [
            "1", "-1", "0", "-0", "42", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "1.5",
            "2e3", "007",
            "true", "false", "null", #""""#, #""2026-03-02""#, #""50.00""#, #""Glow""#, #""é""#, #""a\"b""#,
            #""\u0041""#,
            "{}", "[]", "tru", #""unterminated"#,
        ]
        let spaces = ["", " ", "\n", "\t", "\r\n", "  "]
        var generator = SplitMix64(seed: 2026_1127)
        var read = 0
        for _ in 0..<3000 {
            var body = spaces.randomElement(using: &generator)! + "{"
            for index in 0..<Int.random(in: 0...6, using: &generator) {
                if index > 0 { body += "," + spaces.randomElement(using: &generator)! }
                body += "\"\(keys.randomElement(using: &generator)!)\"" + spaces.randomElement(using: &generator)! + ":"
                body += spaces.randomElement(using: &generator)! + values.randomElement(using: &generator)!
            }
            body +=
                spaces.randomElement(using: &generator)! + "}"
                + (Int.random(in: 0..<20, using: &generator) == 0 ? "," : "")
            guard let fast = Self.flat(body) else { continue }
            read += 1
            #expect(fast == Self.decoded(body), "\(body)")
        }
        #expect(
            read > 300,
            "most bodies with several members hold something the flat reader gives up on; enough are read"
        )
    }

    /// A sale's answer, member by member, is the encoder's bytes for it: for every field set and
    /// left out, and strings that need escaping (slashes too: the API escapes them): JSONEncoder's.
    @Test func aSalesAnswerIsTheEncodersBytes() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]  // as the API's answers: compact, slashes escaped
        let texts: [String?] = [nil, "", "Glow", "Glow / Paris", "\"VIP\"\\", "line\nbreak", "é 🧴", "a bell \u{07}"]
        var generator = SplitMix64(seed: 20_261_127)
        func text() -> String? { texts.randomElement(using: &generator)! }
        func amount() -> String {
            "\(Int.random(in: -99_999...99_999, using: &generator)).\(Int.random(in: 10...99, using: &generator))"
        }
        for _ in 0..<500 {
            let sale = API.Sale(
                id: Int64.random(in: 1...Int64.max, using: &generator),
                clinicId: Int64.random(in: 1...50, using: &generator),
                productId: Int64.random(in: 1...50, using: &generator),
                date: "2026-03-02",
                quantity: Int64.random(in: -5...5, using: &generator),
                unitPrice: amount(),
                unitCost: amount(),
                discount: amount(),
                noCommission: Bool.random(using: &generator),
                share: Bool.random(using: &generator) ? "40" : nil,
                basis: [nil, .profit, .revenue].randomElement(using: &generator)!,
                revenue: amount(),
                cost: amount(),
                profit: amount(),
                commission: amount(),
                note: text(),
                voided: Bool.random(using: &generator),
                clinic: text(),
                product: text(),
                termsId: Bool.random(using: &generator) ? Int64.random(in: 1...9, using: &generator) : nil
            )
            #expect(Presenter.json(sale) == Array(try encoder.encode(sale)), "\(sale)")
        }
        // A field added to the answer must be added to its writer too.
        #expect(
            Mirror(
                reflecting: API.Sale(
                    id: 1,
                    clinicId: 1,
                    productId: 1,
                    date: "",
                    quantity: 1,
                    unitPrice: "",
                    unitCost: "",
                    discount: "",
                    noCommission: false,
                    revenue: "",
                    cost: "",
                    profit: "",
                    commission: "",
                    voided: false
                )
            ).children.count == 20
        )
    }
}
