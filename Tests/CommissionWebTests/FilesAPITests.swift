import CommissionCore
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Her files through the API, as they came: her bank's own format matched and recorded (never
/// twice), a clinic's statement — a CSV or a PDF — set beside her book; each refusal in the API's
/// words.
@Suite struct FilesAPITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../CommissionKitTests/Fixtures").standardizedFileURL

    static func bearer(_ test: TestApp, type: String) async throws -> HTTPFields {
        let owner = try await test.store.createOwner(username: "ana", passwordHash: "x")
        _ = try await test.store.createToken(
            account: owner.id,
            name: "t",
            tokenDigest: WebSecrets.digest("cm_files"),
            now: Date()
        )
        return [.authorization: "Bearer cm_files", .contentType: type]
    }

    /// October's sale at Glow (40% of 30.00 profit: 12.00), paid by the CAMT.053 entry K-881.
    static let camt = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt>
        <Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>USD</Ccy></Acct>
        <Ntry><Amt Ccy="USD">12.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>2026-11-06</Dt></BookgDt><AcctSvcrRef>K-881</AcctSvcrRef>
        <NtryDtls><TxDtls><RltdPties><Dbtr><Pty><Nm>GLOW AESTHETICS</Nm></Pty></Dbtr></RltdPties>
        <RmtInf><Ustrd>Provision Oktober</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
        <Ntry><Amt Ccy="USD">40.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>2026-11-07</Dt></BookgDt></Ntry>
        <Ntry><Amt Ccy="USD">99.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>2026-11-08</Dt></BookgDt><AcctSvcrRef>K-882</AcctSvcrRef></Ntry>
        </Stmt></BkToCstmrStmt></Document>
        """

    @Test func herBanksFileIsMatchedRecordedOnceAndNeverTwice() async throws {
        let test = try await TestApp()
        _ = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: try Day(parsing: "2026-10-03")),
            idempotencyKey: nil
        )
        let headers = try await Self.bearer(test, type: "application/xml")
        try await test.app.test(.router) { client in
            func match(_ query: String) async throws -> TestResponse {
                try await client.execute(
                    uri: "/api/v1/payouts/bank\(query)",
                    method: .post,
                    headers: headers,
                    body: ByteBuffer(string: Self.camt)
                )
            }
            // Proposed, nothing recorded.
            let proposed = try await match("")
            #expect(proposed.status == .ok, "\(proposed.text)")
            let body = try proposed.json()
            #expect(body["deposits"] as? Int == 2 && body["passedOver"] as? Int == 1, "\(body)")
            let proposals = try #require(body["proposals"] as? [[String: Any]])
            let glow = try #require(proposals.first { $0["bankId"] as? String == "AcctSvcrRef K-881" })
            #expect(glow["outcome"] as? String == "pays" && glow["exact"] as? Bool == true, "\(glow)")
            #expect(
                glow["clinicId"] as? Int64 == test.glow.id.rawValue
                    || glow["clinicId"] as? Int == Int(test.glow.id.rawValue)
            )
            let periods = try #require(glow["periods"] as? [[String: Any]])
            #expect(
                periods.first?["start"] as? String == "2026-10-01" && periods.first?["amount"] as? String == "12.00"
            )
            let other = try #require(proposals.first { $0["bankId"] as? String == "AcctSvcrRef K-882" })
            #expect(other["outcome"] as? String == "unmatched")
            #expect(try await test.store.payouts(PayoutQuery()).isEmpty)

            // A line with nothing to record: refused whole, nothing recorded.
            let unmatchedLine = try #require(other["line"] as? Int)
            let refused = try await match("?lines=\(unmatchedLine)")
            #expect(refused.status.code == 422 && refused.text.contains("has no proposal to record"), "\(refused.text)")
            #expect(try await match("?accept=true&lines=1").status == .badRequest)
            #expect(try await test.store.payouts(PayoutQuery()).isEmpty)

            // Its line given twice: the deposit recorded once, with the bank's id on it.
            let line = try #require(glow["line"] as? Int)
            let accepted = try await match("?lines=\(line),\(line)")
            #expect(accepted.status == .created, "\(accepted.text)")
            let recorded = try #require(try accepted.json()["recorded"] as? [[String: Any]])
            #expect(
                recorded.count == 1 && (recorded[0]["reference"] as? String)?.contains("[AcctSvcrRef K-881]") == true
            )

            // The same file again: known as recorded, nothing twice.
            let again = try await match("?accept=true")
            #expect(again.status == .ok, "\(again.text)")
            let seen = try #require(try again.json()["proposals"] as? [[String: Any]])
            #expect(
                seen.contains {
                    $0["outcome"] as? String == "recorded"
                        && ($0["why"] as? String)?.contains("already recorded on 2026-11-06") == true
                }
            )
            #expect(try await test.store.payouts(PayoutQuery()).count == 1)

            // Not a bank file at all: said in the API's words.
            let garbage = try await client.execute(
                uri: "/api/v1/payouts/bank",
                method: .post,
                headers: headers,
                body: ByteBuffer(string: "<Document><BkToCstmrStmt>")
            )
            #expect(garbage.status.code == 422, "\(garbage.text)")
            #expect(!garbage.text.contains("commission ") && !garbage.text.contains("page"), "\(garbage.text)")
        }
    }

    @Test func theirPDFIsComparedThroughTheAPIAsItsCSVIs() async throws {
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
        let pdf = try Data(contentsOf: Self.fixtures.appendingPathComponent("pdf/glow-march.pdf"))
        let csv = """
            Date,Item,Qty,Price,Your commission
            2026-03-05,Serum,3,50.00,36.00
            2026-03-10,Serum,1,50.00,12.00
            2026-03-12,PEEL KIT (RETAIL),1,70.00,24.00
            2026-03-20,Serum,2,45.00,8.00
            2026-03-28,Serum,1,50.00,12.00

            """
        let pdfHeaders = try await Self.bearer(test, type: "application/pdf")
        try await test.app.test(.router) { client in
            var headers = pdfHeaders
            let uri = "/api/v1/clinics/\(test.glow.id)/compare?date=2026-03-15"
            let fromPDF = try await client.execute(
                uri: uri,
                method: .post,
                headers: headers,
                body: ByteBuffer(data: pdf)
            )
            #expect(fromPDF.status == .ok, "\(fromPDF.text)")
            headers[.contentType] = "text/csv"
            let fromCSV = try await client.execute(
                uri: uri,
                method: .post,
                headers: headers,
                body: ByteBuffer(string: csv)
            )
            #expect(fromCSV.status == .ok, "\(fromCSV.text)")
            let (a, b) = (try fromPDF.json(), try fromCSV.json())
            #expect(a["theirTotal"] as? String == "92.00" && b["theirTotal"] as? String == "92.00", "\(a)")
            #expect(a["herTotal"] as? String == "36.00" && a["difference"] as? String == b["difference"] as? String)
            let kinds = { (json: [String: Any]) in
                (json["differing"] as? [[String: Any]] ?? []).map { "\($0["date"] ?? "") \($0["differences"] ?? "")" }
            }
            #expect(kinds(a) == kinds(b) && !kinds(a).isEmpty, "\(kinds(a)) \(kinds(b))")
            #expect((a["said"] as? [String])?.first == "read from the PDF's text (1 page)", "\(a)")

            // A scan: refused in a sentence, nothing compared.
            headers[.contentType] = "application/pdf"
            let scan = try await client.execute(
                uri: uri,
                method: .post,
                headers: headers,
                body: ByteBuffer(data: try Data(contentsOf: Self.fixtures.appendingPathComponent("pdf/scan.pdf")))
            )
            #expect(scan.status.code == 422 && scan.text.contains("a PDF without text"), "\(scan.text)")
        }
    }
}
