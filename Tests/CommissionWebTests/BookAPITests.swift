import CommissionCore
import CommissionStore
import CommissionWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Her whole book through the API's verbs: PATCH changes in part, DELETE archives (or voids a
/// sale), PATCH {"archived": false} restores; archived things keep their sales and figures.
@Suite struct BookAPITests {
    static func bearer(_ test: TestApp) async throws -> HTTPFields {
        let owner = try await test.store.createOwner(username: "ana", passwordHash: "x")
        _ = try await test.store.createToken(
            account: owner.id,
            name: "t",
            tokenDigest: WebSecrets.digest("cm_secret"),
            now: Date()
        )
        return [.authorization: "Bearer cm_secret", .contentType: "application/json"]
    }

    static func array(_ response: TestResponse) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]])
    }

    @Test("Clinics are changed, archived and restored, and keep their sales") func clinicsLifecycle() async throws {
        let test = try await TestApp()
        let headers = try await Self.bearer(test)
        let sale = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: try Day(parsing: "2026-03-02")),
            idempotencyKey: nil
        )
        let march = PaySchedule.monthly.period(containing: try Day(parsing: "2026-03-02"))
        try await test.app.test(.router) { client in
            let path = "/api/v1/clinics/\(test.glow.id)"
            let renamed = try await client.execute(
                uri: path,
                method: .patch,
                headers: headers,
                body: ByteBuffer(string: #"{"name": "Glow Aesthetics"}"#)
            )
            #expect(renamed.status == .ok)
            #expect(try renamed.json()["name"] as? String == "Glow Aesthetics")
            #expect(try renamed.json()["schedule"] as? String == "monthly")

            let archived = try await client.execute(uri: path, method: .delete, headers: headers)
            #expect(archived.status == .ok)
            #expect(try archived.json()["archived"] as? Bool == true)
            #expect(
                try Self.array(try await client.execute(uri: "/api/v1/clinics", method: .get, headers: headers)).isEmpty
            )
            let all = try Self.array(
                try await client.execute(uri: "/api/v1/clinics?includeArchived=true", method: .get, headers: headers)
            )
            #expect(all.map { $0["name"] as? String } == ["Glow Aesthetics"])
            // Archived, it keeps its sale and its statement; no new sale is taken there.
            let statement = try await client.execute(
                uri: "\(path)/statement?date=2026-03-02",
                method: .get,
                headers: headers
            )
            #expect(
                try statement.json()["totals"].flatMap { $0 as? [String: Any] }?["commission"] as? String == "12.00"
            )
            let refused = try await client.execute(
                uri: "/api/v1/sales",
                method: .post,
                headers: headers,
                body: ByteBuffer(
                    string: """
                        {"clinicId": \(test.glow.id), "productId": \(test.serum.id), "date": "2026-03-03"}
                        """
                )
            )
            #expect(refused.status.code == 409 || refused.status.code == 422, "\(refused.text)")

            let restored = try await client.execute(
                uri: path,
                method: .patch,
                headers: headers,
                body: ByteBuffer(string: #"{"archived": false}"#)
            )
            #expect(try restored.json()["archived"] as? Bool == false)
            // Bad input: a malformed schedule, an empty name, a clinic that is not there.
            let badSchedule = try await client.execute(
                uri: path,
                method: .patch,
                headers: headers,
                body: ByteBuffer(string: #"{"schedule": "fortnightly"}"#)
            )
            #expect(badSchedule.status.code == 422, "\(badSchedule.text)")
            #expect(
                try await client.execute(
                    uri: path,
                    method: .patch,
                    headers: headers,
                    body: ByteBuffer(string: #"{"name": " "}"#)
                ).status.code == 422
            )
            #expect(
                try await client.execute(uri: "/api/v1/clinics/999", method: .delete, headers: headers).status
                    == .notFound
            )
            #expect(
                try await client.execute(uri: "/api/v1/clinics?includeArchived=maybe", method: .get, headers: headers)
                    .status == .badRequest
            )
            // A verb the path does not take.
            #expect(try await client.execute(uri: path, method: .put, headers: headers).status == .methodNotAllowed)
        }
        #expect(try await test.store.statement(clinic: test.glow.id, period: march).lines.map(\.sale.id) == [sale.id])
        #expect(try await test.store.clinic(test.glow.id).name == "Glow Aesthetics")
    }

    @Test("Products and terms change in part and terms say what they recomputed") func productsAndTermsPatched()
        async throws
    {
        let test = try await TestApp()
        let headers = try await Self.bearer(test)
        _ = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: try Day(parsing: "2026-03-02")),
            idempotencyKey: nil
        )
        let terms = try #require(try await test.store.terms(TermsQuery()).first)
        try await test.app.test(.router) { client in
            let product = "/api/v1/products/\(test.serum.id)"
            let repriced = try await client.execute(
                uri: product,
                method: .patch,
                headers: headers,
                body: ByteBuffer(string: #"{"unitPrice": "55.00", "sku": ""}"#)
            )
            #expect(repriced.status == .ok)
            #expect(try repriced.json()["unitPrice"] as? String == "55.00")
            #expect(try repriced.json()["unitCost"] as? String == "20.00")
            #expect(try repriced.json()["sku"] as? String == nil)
            #expect(
                try await client.execute(
                    uri: product,
                    method: .patch,
                    headers: headers,
                    body: ByteBuffer(string: #"{"unitPrice": "55.001"}"#)
                ).status.code == 422
            )
            #expect(try await client.execute(uri: product, method: .delete, headers: headers).status == .ok)
            #expect(
                try Self.array(try await client.execute(uri: "/api/v1/products", method: .get, headers: headers))
                    .isEmpty
            )
            #expect(
                try await client.execute(
                    uri: product,
                    method: .patch,
                    headers: headers,
                    body: ByteBuffer(string: #"{"archived": false}"#)
                ).status == .ok
            )

            // 40% → 50% from the same day: the March sale is recomputed (50.00 − 20.00 = 30.00; 50% = 15.00).
            let path = "/api/v1/terms/\(terms.id)"
            let changed = try await client.execute(
                uri: path,
                method: .patch,
                headers: headers,
                body: ByteBuffer(string: #"{"share": "50"}"#)
            )
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(try changed.json()["recomputedSales"] as? Int == 1)
            #expect(try (changed.json()["terms"] as? [String: Any])?["share"] as? String == "50.00")
            // Archiving the only terms would leave the sale without any: refused, nothing changes.
            let orphaning = try await client.execute(uri: path, method: .delete, headers: headers)
            #expect(orphaning.status.code == 409 || orphaning.status.code == 422, "\(orphaning.text)")
            // A basis the document does not list is not the JSON the endpoint takes: 400, saying which are.
            let gross = try await client.execute(
                uri: path,
                method: .patch,
                headers: headers,
                body: ByteBuffer(string: #"{"basis": "gross"}"#)
            )
            #expect(gross.status == .badRequest)
            #expect(
                try gross.json()["detail"] as? String
                    == #"The request body is not the JSON this endpoint expects: the field "basis" is "profit" or "revenue"."#
            )
            #expect(try await client.execute(uri: path, method: .get, headers: headers).status == .ok)
        }
        #expect(try await test.store.sales(SaleQuery()).map(\.figures.commission) == [Money(minorUnits: 1500)])
        #expect(try await test.store.product(test.serum.id).sku == nil)
    }

    @Test func salesArePatchedAndDeletedAsTheyWerePostedAndVoided() async throws {
        let test = try await TestApp()
        let headers = try await Self.bearer(test)
        let sale = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: try Day(parsing: "2026-03-02")),
            idempotencyKey: nil
        )
        try await test.app.test(.router) { client in
            let path = "/api/v1/sales/\(sale.id)"
            let patched = try await client.execute(
                uri: path,
                method: .patch,
                headers: headers,
                body: ByteBuffer(string: #"{"quantity": 3}"#)
            )
            #expect(patched.status == .ok)
            #expect(try patched.json()["quantity"] as? Int == 3)
            #expect(try patched.json()["commission"] as? String == "36.00")
            let voided = try await client.execute(uri: path, method: .delete, headers: headers)
            #expect(voided.status == .ok)
            #expect(try voided.json()["voided"] as? Bool == true)
            // DELETE is idempotent: again, the same voided sale, and nothing more on record.
            let again = try await client.execute(uri: path, method: .delete, headers: headers)
            #expect(again.status == .ok)
            #expect(try again.json()["voided"] as? Bool == true)
        }
        #expect(try await test.store.countSales(SaleQuery()) == 0)
        #expect(
            try await test.store.auditLog(AuditQuery(subject: .sale, subjectID: sale.id.rawValue)).map(\.action) == [
                "void", "update", "create",
            ]
        )
    }

    @Test func everyStatementOfARangeInOneCall() async throws {
        let test = try await TestApp()
        let headers = try await Self.bearer(test)
        let harbor = try await test.store.createClinic(ClinicDraft(name: "Harbor", schedule: .semimonthly))
        _ = try await test.store.createTerms(
            TermsDraft(
                clinicID: harbor.id,
                share: try Share(parsing: "50"),
                effectiveFrom: try Day(parsing: "2020-01-01")
            )
        )
        for (clinic, date) in [
            (test.glow.id, "2026-10-03"), (harbor.id, "2026-10-05"), (harbor.id, "2026-10-20"),
            (test.glow.id, "2026-11-02"),
        ] {
            _ = try await test.store.createSale(
                SaleDraft(clinicID: clinic, productID: test.serum.id, date: try Day(parsing: date)),
                idempotencyKey: nil
            )
        }
        try await test.app.test(.router) { client in
            let october = try await client.execute(
                uri: "/api/v1/statements?from=2026-10-01&to=2026-10-31",
                method: .get,
                headers: headers
            )
            #expect(october.status == .ok)
            let statements = try Self.array(october)
            // Glow's October, Harbor's two halves; Glow's November is outside the range.
            #expect(
                statements.map { "\($0["clinic"]!) \($0["periodStart"]!)" } == [
                    "Glow 2026-10-01", "Harbor 2026-10-01", "Harbor 2026-10-16",
                ]
            )
            #expect(
                statements.map { ($0["totals"] as? [String: Any])?["commission"] as? String } == [
                    "12.00", "15.00", "15.00",
                ]
            )
            let csv = try await client.execute(
                uri: "/api/v1/statements?from=2026-10-01&to=2026-10-31&format=csv",
                method: .get,
                headers: headers
            )
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            let lines = csv.text.split(whereSeparator: \.isNewline)
            #expect(lines.first?.hasPrefix("Clinic,Period start,Period end,Closed,Sale,Date") == true)
            #expect(lines.count == 4 && lines[2].hasPrefix("Harbor,2026-10-01,2026-10-15,no,"), "\(csv.text)")
            // By default, this month to today.
            #expect(try await client.execute(uri: "/api/v1/statements", method: .get, headers: headers).status == .ok)
            #expect(
                try Self.array(
                    try await client.execute(uri: "/api/v1/statements?to=2026-10-31", method: .get, headers: headers)
                ).count == 3
            )
            #expect(
                try await client.execute(
                    uri: "/api/v1/statements?from=2026-10-31&to=2026-10-01",
                    method: .get,
                    headers: headers
                ).status.code == 422
            )
            #expect(
                try await client.execute(
                    uri: "/api/v1/statements?from=2026-10-01&format=xml",
                    method: .get,
                    headers: headers
                ).status == .badRequest
            )
        }
    }

    /// `Idempotency-Key` on any write: sent again, the request changes nothing more and gets the
    /// first answer (marked replayed); the key with another request is refused; a refused request
    /// spends no key; a request still being answered asks the retry to wait.
    @Test("A write sent again with its key is made once and answered the same") func writeSentAgain() async throws {
        let test = try await TestApp()
        let headers = try await Self.bearer(test)
        @Sendable func keyed(_ key: String) -> HTTPFields {
            var fields = headers
            fields[HTTPField.Name("Idempotency-Key")!] = key
            return fields
        }
        let harbor = #"{"name": "Harbor", "schedule": "monthly"}"#
        try await test.app.test(.router) { client in
            let first = try await client.execute(
                uri: "/api/v1/clinics",
                method: .post,
                headers: keyed("k-a"),
                body: ByteBuffer(string: harbor)
            )
            #expect(
                first.status == .created && first.headers[HTTPField.Name("Idempotent-Replayed")!] == nil,
                "\(first.text)"
            )
            let again = try await client.execute(
                uri: "/api/v1/clinics",
                method: .post,
                headers: keyed("k-a"),
                body: ByteBuffer(string: harbor)
            )
            #expect(again.status == .created && again.text == first.text)
            #expect(again.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(try await test.store.clinics(ClinicQuery()).map(\.name) == ["Glow", "Harbor"])

            // The key with another request: refused, nothing made.
            let other = try await client.execute(
                uri: "/api/v1/clinics",
                method: .post,
                headers: keyed("k-a"),
                body: ByteBuffer(string: #"{"name": "Bay", "schedule": "monthly"}"#)
            )
            #expect(other.status.code == 422 && other.text.contains("another request"), "\(other.text)")
            #expect(try await test.store.clinics(ClinicQuery()).count == 2)

            // Refused by the book, the key is not spent: corrected, the request goes through under it.
            let refused = try await client.execute(
                uri: "/api/v1/clinics",
                method: .post,
                headers: keyed("k-c"),
                body: ByteBuffer(string: #"{"name": "glow", "schedule": "monthly"}"#)
            )
            #expect(refused.status == .conflict)
            let corrected = try await client.execute(
                uri: "/api/v1/clinics",
                method: .post,
                headers: keyed("k-c"),
                body: ByteBuffer(string: #"{"name": "Bay", "schedule": "monthly"}"#)
            )
            #expect(corrected.status == .created, "\(corrected.text)")

            // A removal and a change alike.
            let harborID = try #require(try first.json()["id"] as? Int)
            for method in [HTTPRequest.Method.patch, .delete] {
                let body = method == .patch ? ByteBuffer(string: #"{"name": "Harbor Spa"}"#) : nil
                let once = try await client.execute(
                    uri: "/api/v1/clinics/\(harborID)",
                    method: method,
                    headers: keyed("k-\(method)"),
                    body: body
                )
                let twice = try await client.execute(
                    uri: "/api/v1/clinics/\(harborID)",
                    method: method,
                    headers: keyed("k-\(method)"),
                    body: body
                )
                #expect(
                    once.status == .ok && twice.text == once.text
                        && twice.headers[HTTPField.Name("Idempotent-Replayed")!] == "true",
                    "\(method)"
                )
            }

            // A request whose change committed but whose answer is not kept yet (still being
            // answered): its retry is asked to wait a second.
            let fingerprint = try #require(try await test.store.idempotentAnswer(for: "k-a")).fingerprint
            _ = try await IdempotencyClaim.$current.withValue(IdempotencyClaim(key: "k-b", fingerprint: fingerprint)) {
                try await test.store.createProduct(ProductDraft(name: "Cream", unitPrice: .zero, unitCost: .zero))
            }
            let waiting = try await client.execute(
                uri: "/api/v1/clinics",
                method: .post,
                headers: keyed("k-b"),
                body: ByteBuffer(string: harbor)
            )
            #expect(waiting.status == .conflict && waiting.headers[.retryAfter] == "1", "\(waiting.text)")

            let tooLong = try await client.execute(
                uri: "/api/v1/clinics",
                method: .post,
                headers: keyed(String(repeating: "k", count: 201)),
                body: ByteBuffer(string: #"{"name": "Cove", "schedule": "monthly"}"#)
            )
            #expect(tooLong.status.code == 422)
            #expect(
                try await test.store.clinics(ClinicQuery(includeArchived: true)).map(\.name) == [
                    "Bay", "Glow", "Harbor Spa",
                ]
            )
        }
    }
}
