import CommissionCore
import CommissionKit
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Their statement as the file they sent, on the Compare page: a PDF (printed by their accounting
/// software, the fixtures LibreOffice made) read as its table, its text shown in the box for what she
/// does next; a scan refused in a sentence of the page's; a file that is neither, said so.
@Suite struct CompareFileTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../CommissionKitTests/Fixtures/pdf").standardizedFileURL

    /// The Compare form as the page's script sends it once a PDF is chosen: the csrf first, the
    /// period and reading choices, the file in `statementFile`.
    static func upload(
        _ file: [UInt8],
        name: String,
        csrf: String,
        cookie: String,
        period: String,
        more: [(String, String)] = [("action", "compare")]
    ) -> (HTTPFields, ByteBuffer) {
        let boundary = "----commission-compare"
        var body = ByteBuffer()
        func field(_ name: String, _ value: String) {
            body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n")
        }
        field("csrf", csrf)
        field("period", period)
        field("dates", "")
        body.writeString(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"statementFile\"; filename=\"\(name)\"\r\n"
        )
        body.writeString("Content-Type: application/pdf\r\n\r\n")
        body.writeBytes(file)
        body.writeString("\r\n")
        for (name, value) in more { field(name, value) }
        body.writeString("--\(boundary)--\r\n")
        return (
            [.contentType: "multipart/form-data; boundary=\(boundary)", .cookie: "commission_session=\(cookie)"], body
        )
    }

    @Test func theirPDFIsComparedAsItsTableAndItsTextStaysForWhatSheDoesNext() async throws {
        let test = try await TestApp()
        _ = try await test.store.createSale(
            SaleDraft(
                clinicID: test.glow.id,
                productID: test.serum.id,
                date: try Day(parsing: "2026-03-05"),
                quantity: 3
            ),
            idempotencyKey: nil
        )
        let pdf = Array(try Data(contentsOf: Self.fixtures.appendingPathComponent("glow-march.pdf")))
        try await test.app.test(.router) { client in
            let owner = try await signUp(client)
            let period = "\(test.glow.id)/2026-03-01"
            var (headers, body) = Self.upload(
                pdf,
                name: "Statement-March.pdf",
                csrf: owner.csrf,
                cookie: owner.cookie,
                period: period
            )
            let compared = try await client.execute(uri: "/compare/file", method: .post, headers: headers, body: body)
            #expect(compared.status == .ok, "\(compared.text)")
            let page = compared.text
            #expect(
                page.contains("Read from their PDF (its table") && page.contains("text is in the box below"),
                "\(page)"
            )
            #expect(page.contains("id=\"comparison\""))
            // Their five lines, to the cent: 36.00 + 12.00 + 24.00 + 8.00 + 12.00.
            #expect(page.contains("$92.00"), "\(page)")
            // The table's text in the box, so that a name told or a line ticked posts it as text.
            let box = try #require(
                page.firstMatch(of: /<textarea id="c-text" name="statement"[^>]*>([^<]*)<\/textarea>/)
            )
            #expect(box.1.contains("PEEL KIT (RETAIL)") && box.1.contains("36.00"), "\(box.1)")
            #expect(!page.contains("commission compare") && !page.contains("pdftotext"))

            // Chosen on a page that showed another statement, sent by its "Add the ticked lines":
            // the new statement is compared, and nothing of the old ticks is added from it.
            (headers, body) = Self.upload(
                pdf,
                name: "Statement-March.pdf",
                csrf: owner.csrf,
                cookie: owner.cookie,
                period: period,
                more: [("accept2", "1"), ("accept3", "1"), ("action", "accept")]
            )
            let stale = try await client.execute(uri: "/compare/file", method: .post, headers: headers, body: body)
            #expect(stale.status == .ok && stale.text.contains("id=\"comparison\""), "\(stale.text)")
            #expect(!stale.text.contains("Added "), "\(stale.text)")
            #expect(try await test.store.countSales(SaleQuery()) == 1)

            // A scan: refused in one sentence of the page's, her choice of period kept.
            let scan = Array(try Data(contentsOf: Self.fixtures.appendingPathComponent("scan.pdf")))
            (headers, body) = Self.upload(
                scan,
                name: "scan.pdf",
                csrf: owner.csrf,
                cookie: owner.cookie,
                period: period
            )
            let refused = try await client.execute(uri: "/compare/file", method: .post, headers: headers, body: body)
            #expect(refused.status.code == 422)
            #expect(refused.text.contains("is a PDF without text (a scan or a photo)"), "\(refused.text)")
            #expect(refused.text.contains("value=\"\(period)\" selected"), "\(refused.text)")

            // Neither a PDF nor text: said, nothing compared.
            (headers, body) = Self.upload(
                [0x50, 0x4B, 0x03, 0x04, 0, 0, 0],
                name: "x.zip",
                csrf: owner.csrf,
                cookie: owner.cookie,
                period: period
            )
            let neither = try await client.execute(uri: "/compare/file", method: .post, headers: headers, body: body)
            #expect(
                neither.status.code == 422 && neither.text.contains("neither a PDF nor a CSV file"),
                "\(neither.text)"
            )

            // A server without pdftotext: the page says who can mend it, not a command to run.
            let noReader = PDFTableError(name: "Their statement", reason: .noReader).said(on: .page)
            #expect(noReader.contains("ask whoever runs it to install that") && noReader.contains("poppler-utils"))
            #expect(!noReader.contains("install poppler-utils,"), "\(noReader)")

            // A forged upload is refused before the file is read.
            (headers, body) = Self.upload(pdf, name: "x.pdf", csrf: "forged", cookie: owner.cookie, period: period)
            let forged = try await client.execute(uri: "/compare/file", method: .post, headers: headers, body: body)
            #expect(forged.status == .forbidden)
        }
    }
}
