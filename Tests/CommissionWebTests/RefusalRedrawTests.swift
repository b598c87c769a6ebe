import CommissionCore
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Nothing she typed is lost: a refused form of any page comes back with every field as she typed
/// it, its fold open, the field the sentence is about marked beside the sentence at the top; and
/// nothing was saved.
@Suite struct RefusalRedrawTests {
    static let mark = #"aria-invalid="true" aria-describedby="refusal" autofocus"#

    static func signedIn(_ client: some TestClientProtocol) async throws -> (headers: HTTPFields, csrf: String) {
        let owner = try await signUp(client)
        var headers = formHeaders
        headers[.cookie] = "commission_session=\(owner.cookie)"
        return (headers, owner.csrf)
    }

    /// The sentence is at the top, before the form it is about.
    static func sentenceFirst(_ page: String, before form: String) -> Bool {
        guard let refusal = page.range(of: #"id="refusal""#), let form = page.range(of: form) else { return false }
        return refusal.lowerBound < form.lowerBound
    }

    @Test func aRefusedEditOfASaleKeepsEveryFieldAsTyped() async throws {
        let test = try await TestApp()
        let other = try await test.store.createProduct(
            ProductDraft(name: "Toner", unitPrice: Money(minorUnits: 2000), unitCost: Money(minorUnits: 500))
        )
        let sale = try await test.store.createSale(
            SaleDraft(
                clinicID: test.glow.id,
                productID: test.serum.id,
                date: try Day(parsing: "2026-03-02"),
                quantity: 2
            ),
            idempotencyKey: nil
        )
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let typed = [
                "csrf": csrf, "clinic": "\(test.glow.id)", "product": "\(other.id)", "date": "2026-03-04",
                "quantity": "7", "price": "twelve", "cost": "3.50", "discount": "1.25", "note": "for Mrs. Berger",
                "noCommission": "1",
            ]
            let refused = try await client.execute(
                uri: "/sales/\(sale.id)",
                method: .post,
                headers: headers,
                body: form(typed)
            )
            #expect(refused.status.code == 422)
            let page = refused.text
            #expect(page.contains(#"id="refusal""#) && page.contains("twelve"), "\(page)")
            #expect(
                page.contains(
                    #"name="price" inputmode="decimal" value="twelve" autocomplete="off" required \#(Self.mark)"#
                )
            )
            #expect(page.contains(#"<option value="\#(other.id)" selected>Toner</option>"#))
            #expect(page.contains(#"value="2026-03-04""#) && page.contains(#"value="7""#))
            #expect(page.contains(#"value="3.50""#) && page.contains(#"value="1.25""#))
            #expect(page.contains(#"value="for Mrs. Berger""#))
            #expect(page.contains(#"name="noCommission" value="1" checked"#))
            #expect(page.contains("<details open>"))
            #expect(Self.sentenceFirst(page, before: #"id="sale-edit-form""#))
        }
        let kept = try await test.store.sale(sale.id)
        #expect(kept.quantity == 2 && kept.productID == test.serum.id && kept.note == nil)
    }
}
