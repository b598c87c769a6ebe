import Foundation
import Testing

/// Every bad input gets a clear error and leaves the database unchanged, byte for byte in content
/// (a checksum of `sqlite3 .dump` before and after), through the real `commission` executable.
@Suite(.serialized) struct BadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        /// Files to create in the test's directory first: name → bytes.
        var files: [String: [UInt8]] = [:]
        /// Words the error must contain.
        var expected: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "unknown clinic",
            arguments: ["sale", "add", "Nowhere", "Serum 30ml"],
            expected: "no clinic named \"Nowhere\""
        ),
        Case(
            name: "unknown product",
            arguments: ["sale", "add", "Glow", "Elixir"],
            expected: "no product named \"Elixir\""
        ),
        Case(
            name: "no terms in force",
            arguments: ["sale", "add", "Glow", "Serum 30ml", "--date", "2025-12-31"],
            expected: "No commission terms for Glow on 2025-12-31"
        ),
        Case(name: "quantity 0", arguments: ["sale", "add", "Glow", "Serum 30ml", "0"], expected: "quantity is 0"),
        Case(
            name: "negative price",
            arguments: ["sale", "add", "Glow", "Serum 30ml", "--price=-5.00"],
            expected: "unit price is negative"
        ),
        Case(
            name: "negative cost",
            arguments: ["product", "add", "Balm", "--price", "5.00", "--cost=-1.00"],
            expected: "unit cost is negative"
        ),
        Case(
            name: "too many decimals",
            arguments: ["sale", "add", "Glow", "Serum 30ml", "--price", "12.345"],
            expected: "at most 2 decimal places"
        ),
        Case(
            name: "grouping commas",
            arguments: ["sale", "add", "Glow", "Serum 30ml", "--price", "1,2,3"],
            expected: "\"1,2,3\" is not an amount"
        ),
        Case(
            name: "letters",
            arguments: ["sale", "add", "Glow", "Serum 30ml", "--price", "abc"],
            expected: "\"abc\" is not an amount"
        ),
        Case(
            name: "exponent",
            arguments: ["sale", "add", "Glow", "Serum 30ml", "--price", "1e5"],
            expected: "\"1e5\" is not an amount"
        ),
        Case(
            name: "impossible date",
            arguments: ["sale", "add", "Glow", "Serum 30ml", "--date", "2026-02-30"],
            expected: "2026-02-30"
        ),
        Case(
            name: "a year typed wrong",
            arguments: ["sale", "add", "Glow", "Serum 30ml", "--date", "2062-03-02"],
            expected: "2062-03-02 is more than a year from today"
        ),
        Case(
            name: "the calendar's first day",
            arguments: ["sale", "add", "Glow", "Serum 30ml", "--date", "0001-01-01"],
            expected: "0001-01-01 is before 1900-01-01"
        ),
        Case(
            name: "amount beyond range",
            arguments: ["sale", "add", "Glow", "Serum 30ml", "--price", "999999999999999999999"],
            expected: "too large"
        ),
        Case(
            name: "a price beyond what a sale takes",
            arguments: ["sale", "add", "Glow", "Serum 30ml", "2", "--price", "92233720368547758.07"],
            expected: "is more than Commission takes: at most 10000000.00"
        ),
        Case(name: "unknown clinic in a statement", arguments: ["statement", "Nowhere"], expected: "no clinic named"),
        Case(
            name: "payout for an impossible date",
            arguments: ["payout", "add", "Glow", "10.00", "--period", "2026-13-01"],
            expected: "2026-13-01"
        ),
        Case(name: "empty CSV", arguments: ["import", "empty.csv"], files: ["empty.csv": []], expected: "is empty"),
        Case(
            name: "binary CSV",
            arguments: ["import", "image.csv"],
            files: ["image.csv": [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48]],
            expected: "binary"
        ),
        Case(
            name: "ragged CSV",
            arguments: ["import", "ragged.csv"],
            files: [
                "ragged.csv": Array(
                    "date,clinic,product,quantity\n2026-03-02,Glow,Serum 30ml,1\n2026-03-03,Glow\n".utf8
                )
            ],
            expected: "line 3: the row has 2 fields but the header has 4"
        ),
        Case(
            name: "CSV missing a required column",
            arguments: ["import", "missing.csv"],
            files: ["missing.csv": Array("date,clinic,quantity\n2026-03-02,Glow,1\n".utf8)],
            expected: "lacks the required column \"product\""
        ),
        Case(
            name: "CSV with duplicate headers",
            arguments: ["import", "twice.csv"],
            files: ["twice.csv": Array("date,clinic,product,Date\n2026-03-02,Glow,Serum 30ml,2026-03-02\n".utf8)],
            expected: "same column more than once"
        ),
        Case(
            name: "CSV with one bad row among good ones",
            arguments: ["import", "mixed.csv"],
            files: [
                "mixed.csv": Array(
                    "date,clinic,product,quantity\n2026-03-02,Glow,Serum 30ml,1\n2026-03-03,Glow,Serum 30ml,abc\n".utf8
                )
            ],
            expected: "line 3, column \"quantity\""
        ),
        Case(
            name: "deleting a clinic with sales",
            arguments: ["clinic", "delete", "Glow"],
            expected: "cannot be deleted: archive it instead"
        ),
    ]

    /// A book with Glow (monthly, 40% from 2026-01-01), a serum and one sale.
    static func makeBook() throws -> (directory: URL, database: String) {
        let directory = temporaryDirectory()
        let database = directory.appendingPathComponent("book.sqlite").path
        for arguments in [
            ["clinic", "add", "Glow", "--schedule", "monthly"],
            ["product", "add", "Serum 30ml", "--price", "50.00", "--cost", "20.00"],
            ["terms", "add", "Glow", "--share", "40", "--from", "2026-01-01"],
            ["sale", "add", "Glow", "Serum 30ml", "2", "--date", "2026-03-02"],
        ] {
            let run = try commission(arguments + ["--db", database])
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
        }
        return (directory, database)
    }

    @Test(arguments: cases)
    func badInputIsRefusedClearlyAndChangesNothing(_ bad: Case) throws {
        let (directory, database) = try Self.makeBook()
        for (name, bytes) in bad.files { _ = file(name, bytes, in: directory) }
        let before = try contentChecksum(database)
        let arguments = bad.arguments.map { bad.files[$0] != nil ? directory.appendingPathComponent($0).path : $0 }
        let run = try commission(arguments + ["--db", database])
        #expect(run.status == 1, "exit status \(run.status)")
        #expect(run.stderr.contains(bad.expected), "stderr: \(run.stderr)")
        #expect(!run.stderr.contains("Fatal error") && !run.stderr.contains("SQLite error"), "\(run.stderr)")
        #expect(try contentChecksum(database) == before, "the database changed")
    }

    @Test func theChecksumDoesSeeAChange() throws {
        // The guard above is only worth something if a real write changes the checksum.
        let (_, database) = try Self.makeBook()
        let before = try contentChecksum(database)
        #expect(
            try commission(["sale", "add", "Glow", "Serum 30ml", "--date", "2026-03-03", "--db", database]).status == 0
        )
        #expect(try contentChecksum(database) != before)
    }
}
