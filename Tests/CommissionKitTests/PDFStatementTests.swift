import CommissionCore
import CommissionKit
import CommissionSQLite
import CommissionStore
import Foundation
import Testing

/// A clinic's statement as a PDF, printed by LibreOffice from the sheets beside it
/// (`Fixtures/pdf/make-statement-pdfs.py`) and read through poppler's `pdftotext -layout`.
@Suite struct PDFStatementTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/pdf")
    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    @Test("Compare on the PDF finds exactly the differences it finds on the same statement as CSV")
    func thePDFComparesAsItsCSV() async throws {
        let directory = temporaryDirectory()
        let path = try ComparisonTests.book(in: directory)
        let store = try SQLiteStore(.file(path))
        let glow = try await store.clinic(named: "Glow Aesthetics")
        let march = glow.calendar.period(containing: day("2026-03-01"))
        let csv = try TheirStatement(origin: .data(Data(ComparisonTests.theirs.utf8), name: "csv"), currency: .usd)
        let pdf = try TheirStatement(origin: .file(path: Self.fixture("glow-march.pdf")), currency: .usd)
        #expect(pdf.said.first == "read from the PDF's text (1 page)", "\(pdf.said)")
        #expect(pdf.said.contains("1 page footer passed over"), "\(pdf.said)")
        #expect(pdf.lines.map(\.product) == csv.lines.map(\.product))
        let fromCSV = try await StatementComparison.compare(csv, clinic: glow, period: march, store: store)
        let fromPDF = try await StatementComparison.compare(pdf, clinic: glow, period: march, store: store)
        #expect(fromPDF.differing.map(\.differences) == fromCSV.differing.map(\.differences))
        #expect(fromPDF.theirTotal == fromCSV.theirTotal && fromPDF.difference == cents(-2800))

        let run = try commission(["compare", "Glow Aesthetics", Self.fixture("glow-march.pdf"), "--db", path])
        #expect(run.status == 0 && run.stdout.contains("they credit you 28.00 less"), "\(run.stdout)\(run.stderr)")
    }

    @Test("A statement over many pages: its header repeated, a product name wrapped, the totals row")
    func manyPagesAreOneTable() throws {
        let pdf = try TheirStatement(origin: .file(path: Self.fixture("glow-long.pdf")), currency: .usd)
        #expect(pdf.lines.count == 3000)
        #expect(
            pdf.said.contains { $0.hasPrefix("its header repeated on ") && $0.hasSuffix(" pages passed over") },
            "\(pdf.said)"
        )
        #expect(pdf.lines[7].product == "Hydrating Serum with Hyaluronic Acid, 30 ml", "\(pdf.lines[7])")
        #expect(try Money.sum(pdf.lines.map(\.commission)) == cents(4_800_000))
        #expect(pdf.said.contains { $0.lowercased().contains("total") }, "\(pdf.said)")
    }

    @Test func aScanAndAPDFWithoutATableAreRefusedInASentence() throws {
        let directory = temporaryDirectory()
        #expect {
            try TheirStatement(origin: .file(path: Self.fixture("scan.pdf")), currency: .usd)
        } throws: { "\($0)".contains("is a PDF without text (a scan or a photo)") }
        let path = try ComparisonTests.book(in: directory)
        let run = try commission(["compare", "Glow Aesthetics", Self.fixture("scan.pdf"), "--db", path])
        #expect(run.status != 0 && run.stderr.contains("a PDF without text"), "\(run.stderr)")
        // Text, but no table: the first words of what it read, said.
        #expect {
            try PDFTable.table(fromLayout: "Dear Lena,\n\nplease find our payment enclosed.\n", name: "letter.pdf")
        } throws: {
            "\($0)".contains(
                "no table with a date, a product and a commission was found in it (its page 1 reads “Dear Lena, please find our payment enclosed.”)"
            )
        }
    }
}
