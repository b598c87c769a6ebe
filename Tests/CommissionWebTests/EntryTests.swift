import CommissionCore
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Entry that never surprises: keys on every form that records a sale, Undo, prefilled links,
/// her locale's amounts; the JSON answers the offline queue gets.
@Suite struct EntryTests {
    static func signedIn(_ client: some TestClientProtocol) async throws -> (headers: HTTPFields, csrf: String) {
        let owner = try await signUp(client)
        var headers = formHeaders
        headers[.cookie] = "commission_session=\(owner.cookie)"
        return (headers, owner.csrf)
    }

    /// Nothing she typed is lost: a refused sale comes back with every field as she typed it and
    /// the field it is about marked, its sentence at the top; nothing is saved.
    @Test func aRefusedSaleKeepsEveryFieldAsTyped() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let typed = [
                "csrf": csrf, "key": "k-refused", "clinic": "\(test.glow.id)", "product": "\(test.serum.id)",
                "quantity": "3", "price": "50.00", "priceDefault": "50.00", "discount": "999.00",
                "note": "for Mrs. Berger", "noCommission": "1", "date": "2026-03-04",
            ]
            let refused = try await client.execute(uri: "/sales", method: .post, headers: headers, body: form(typed))
            #expect(refused.status.code == 422)
            let page = refused.text
            #expect(page.contains("id=\"refusal\"") && page.contains("discount"), "\(page)")
            #expect(page.contains("name=\"quantity\" type=\"number\" inputmode=\"numeric\" value=\"3\""))
            #expect(page.contains("value=\"999.00\" aria-invalid=\"true\" aria-describedby=\"refusal\" autofocus"))
            #expect(page.contains("value=\"for Mrs. Berger\"") && page.contains("value=\"2026-03-04\""))
            #expect(page.contains("name=\"noCommission\" value=\"1\" checked"))
            #expect(page.contains("<details id=\"more-fields\" open>"))
            // The sentence comes before the form, on her first screen.
            #expect(page.range(of: "id=\"refusal\"")!.lowerBound < page.range(of: "id=\"sale-form\"")!.lowerBound)

            // The page's script gets the field with the sentence.
            var json = headers
            json[.accept] = "application/json"
            let answered = try await client.execute(uri: "/sales", method: .post, headers: json, body: form(typed))
            #expect(answered.status.code == 422)
            #expect(answered.text.contains("\"field\":\"discount\""), "\(answered.text)")
        }
        #expect(try await test.store.countSales(SaleQuery()) == 0)
    }

    /// A figure far from what the book knows asks once instead of saving silently: a price thirty
    /// times the clinic's, a day still to come, more units than she ever sold at once.
    @Test func anUnusualFigureAsksOnce() async throws {
        let test = try await TestApp()
        let today = try await test.store.settings().today()
        _ = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: today, quantity: 2),
            idempotencyKey: nil
        )
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            func sale(_ fields: [String: String]) -> [String: String] {
                [
                    "csrf": csrf, "clinic": "\(test.glow.id)", "product": "\(test.serum.id)", "quantity": "1",
                    "price": "50.00", "priceDefault": "50.00", "date": today.description,
                ].merging(fields) { $1 }
            }
            let dear = try await client.execute(
                uri: "/sales",
                method: .post,
                headers: headers,
                body: form(sale(["key": "k1", "price": "1500.00"]))
            )
            #expect(dear.status.code == 409)
            #expect(
                dear.text.contains(
                    "$1,500.00 is more than five times Serum 30ml&#39;s price at Glow ($50.00). Save anyway?"
                )
                    || dear.text.contains(
                        "$1,500.00 is more than five times Serum 30ml&#x27;s price at Glow ($50.00). Save anyway?"
                    ),
                "\(dear.text)"
            )
            #expect(
                dear.text.contains("id=\"save-anyway\" name=\"confirmed\" value=\"1\"")
                    && dear.text.contains("value=\"1500.00\"")
            )
            #expect(try await test.store.countSales(SaleQuery()) == 1)
            // Taken when she says so, under the same key.
            let taken = try await client.execute(
                uri: "/sales",
                method: .post,
                headers: headers,
                body: form(sale(["key": "k1", "price": "1500.00", "confirmed": "1"]))
            )
            #expect(taken.status == .seeOther)
            #expect(try await test.store.countSales(SaleQuery()) == 2)

            let ahead = try await client.execute(
                uri: "/sales",
                method: .post,
                headers: headers,
                body: form(sale(["key": "k2", "date": today.adding(days: 20).description]))
            )
            #expect(
                ahead.status.code == 409 && ahead.text.contains("a day still to come. Save anyway?"),
                "\(ahead.text)"
            )
            let many = try await client.execute(
                uri: "/sales",
                method: .post,
                headers: headers,
                body: form(sale(["key": "k3", "quantity": "12"]))
            )
            #expect(
                many.status.code == 409
                    && many.text.contains("12 units at once is more than you have sold at once before (2 at most)"),
                "\(many.text)"
            )
            // Under a fifth of the clinic's price asks too.
            let cheap = try await client.execute(
                uri: "/sales",
                method: .post,
                headers: headers,
                body: form(sale(["key": "k5", "price": "9.00"]))
            )
            #expect(
                cheap.status.code == 409
                    && cheap.text.contains("$9.00 is under a fifth of Serum 30ml")
                    && cheap.text.contains("price at Glow ($50.00). Save anyway?"),
                "\(cheap.text)"
            )
            // A usual sale asks nothing.
            let usual = try await client.execute(
                uri: "/sales",
                method: .post,
                headers: headers,
                body: form(sale(["key": "k4", "quantity": "2"]))
            )
            #expect(usual.status == .seeOther)
            #expect(try await test.store.countSales(SaleQuery()) == 3)
        }
    }

    /// Her sale's page asks the same once, about what she changed only: a price changed to thirty
    /// times the clinic's, a date moved ahead; the sale saved again as it was asks nothing, even when
    /// its old price is far from today's list.
    @Test func anEditToAnUnusualFigureAsksOnce() async throws {
        let test = try await TestApp()
        let today = try await test.store.settings().today()
        let odd = try await test.store.createSale(
            SaleDraft(
                clinicID: test.glow.id,
                productID: test.serum.id,
                date: today,
                unitPrice: Money(minorUnits: 50),
                unitCost: Money(minorUnits: 20)
            ),
            idempotencyKey: nil
        )
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            func edit(_ fields: [String: String]) async throws -> TestResponse {
                let typed = [
                    "csrf": csrf, "clinic": "\(test.glow.id)", "product": "\(test.serum.id)", "quantity": "1",
                    "price": "0.50", "cost": "0.20", "discount": "0.00", "note": "",
                    "date": today.description,
                ].merging(fields) { $1 }
                return try await client.execute(
                    uri: "/sales/\(odd.id)",
                    method: .post,
                    headers: headers,
                    body: form(typed)
                )
            }
            // Unchanged, its odd old price is hers: nothing asked.
            #expect(try await edit([:]).status == .seeOther)
            let dear = try await edit(["price": "1500.00", "note": "for Mrs. Berger"])
            #expect(dear.status.code == 409)
            #expect(dear.text.contains("more than five times Serum 30ml") && dear.text.contains("Save anyway?"))
            #expect(
                dear.text.contains("id=\"save-anyway\" name=\"confirmed\" value=\"1\"")
                    && dear.text.contains("value=\"1500.00\"") && dear.text.contains("value=\"for Mrs. Berger\""),
                "\(dear.text)"
            )
            #expect(try await test.store.sale(odd.id).line.unitPrice == Money(minorUnits: 50))
            let ahead = try await edit(["date": today.adding(days: 20).description])
            #expect(
                ahead.status.code == 409 && ahead.text.contains("a day still to come. Save anyway?"),
                "\(ahead.text)"
            )
            let many = try await edit(["quantity": "12"])
            #expect(
                many.status.code == 409
                    && many.text.contains("12 units at once is more than you have sold at once before"),
                "\(many.text)"
            )
            // Taken when she says so.
            #expect(try await edit(["price": "1500.00", "confirmed": "1"]).status == .seeOther)
            #expect(try await test.store.sale(odd.id).line.unitPrice == Money(minorUnits: 150_000))
        }
    }

    /// A return is a named choice on the Sale page: ticked, the quantity she types is the goods
    /// that came back, and the sale counts against her; the form says so and comes back ticked.
    @Test func aReturnIsANamedChoice() async throws {
        let test = try await TestApp()
        let today = try await test.store.settings().today()
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let page = try await client.execute(uri: "/", method: .get, headers: headers)
            #expect(page.text.contains(#"name="return" value="1" id="return""#), "\(page.text)")
            #expect(page.text.contains("A return: the goods come back, and the sale counts against"))
            let fields = [
                "csrf": csrf, "clinic": "\(test.glow.id)", "product": "\(test.serum.id)", "quantity": "2",
                "price": "50.00", "priceDefault": "50.00", "date": today.description, "key": "r1", "return": "1",
            ]
            let saved = try await client.execute(uri: "/sales", method: .post, headers: headers, body: form(fields))
            #expect(saved.status == .seeOther, "\(saved.text)")
            let sales = try await test.store.sales(SaleQuery())
            #expect(sales.map(\.quantity) == [-2])
            // Refused for another field, it comes back still a return.
            var refused = fields
            (refused["key"], refused["price"]) = ("r2", "fifty")
            let back = try await client.execute(uri: "/sales", method: .post, headers: headers, body: form(refused))
            #expect(back.status.code == 422 || back.status.code == 400, "\(back.status)")
            #expect(back.text.contains(#"id="return" checked"#), "\(back.text)")
            #expect(try await test.store.countSales(SaleQuery()) == 1)
        }
    }

    @Test func aSecondTapOnRepeatRecordsNothingMoreAndUndoVoids() async throws {
        let test = try await TestApp()
        let first = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: try Day(parsing: "2026-03-02")),
            idempotencyKey: nil
        )
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let page = try await client.execute(uri: "/", method: .get, headers: headers).text
            let key = try #require(
                page.firstMatch(
                    of:
                        /action="\/sales\/\d+\/repeat"><input type="hidden" name="csrf" value="[0-9a-f]+"><input type="hidden" name="key" value="([0-9a-f]+)"/
                )?.1
            )
            var repeated: [String] = []
            for _ in 0..<2 {
                let response = try await client.execute(
                    uri: "/sales/\(first.id)/repeat",
                    method: .post,
                    headers: headers,
                    body: form(["csrf": csrf, "key": String(key)])
                )
                #expect(response.status == .seeOther)
                repeated.append(response.headers[.location] ?? "")
            }
            #expect(repeated[0] == repeated[1] && repeated[0].hasPrefix("/?saved="))
            #expect(try await test.store.countSales(SaleQuery()) == 2)

            // The saved notice offers Undo, which voids the sale and says so.
            let saved = try await client.execute(uri: repeated[0], method: .get, headers: headers).text
            #expect(
                saved.contains("id=\"saved\"") && saved.contains("id=\"undo\"") && saved.contains("$12.00"),
                "\(saved)"
            )
            let id = try #require(Int64(repeated[0].dropFirst("/?saved=".count)))
            let undone = try await client.execute(
                uri: "/sales/\(id)/void",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "back": "entry"])
            )
            #expect(undone.headers[.location] == "/?voided=\(id)")
            #expect(try await test.store.sale(Sale.ID(id)).isVoided)
            #expect(
                try await client.execute(uri: "/?voided=\(id)", method: .get, headers: headers).text.contains(
                    "Undone: sale \(id) is voided"
                )
            )
        }
    }

    /// A sale refused for want of terms says what to do on the page, and links to the terms form
    /// for that clinic from that day, which the link fills in.
    @Test("A sale without terms links to the terms form for its clinic and day") func saleWithoutTermsLinks()
        async throws
    {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let refused = try await client.execute(
                uri: "/sales",
                method: .post,
                headers: headers,
                body: form(
                    [
                        "csrf": csrf, "key": "k-1", "clinic": "\(test.glow.id)", "product": "\(test.serum.id)",
                        "quantity": "1", "date": "2019-01-01",
                    ])
            )
            #expect(refused.status.code == 422)
            let page = refused.text
            #expect(
                page.contains("No commission terms for Glow on 2019-01-01")
                    && page.contains("Add Glow&#39;s terms from that day on")
                    && !page.contains("commission terms add"),
                "\(page)"
            )
            #expect(
                page.contains(
                    #"<a class="button" href="/book?clinic=Glow&amp;from=2019-01-01#terms">Add Glow&#39;s terms</a>"#
                ),
                "\(page)"
            )
            let terms = try await client.execute(
                uri: "/book?clinic=Glow&from=2019-01-01",
                method: .get,
                headers: headers
            ).text
            #expect(terms.contains(#"<option value="\#(test.glow.id)" selected>Glow</option>"#), "\(terms)")
            #expect(terms.contains(#"<input id="t-from" name="from" type="date" value="2019-01-01""#), "\(terms)")
        }
    }

    @Test func theQueueGetsJSONAndARetryWithItsKeyIsTheSameSale() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            var (headers, csrf) = try await Self.signedIn(client)
            headers[.accept] = "application/json"
            let sale = [
                "csrf": csrf, "key": "tap-7f3a", "clinic": "\(test.glow.id)", "product": "\(test.serum.id)",
                "quantity": "2",
                "price": "50.00", "date": "2026-03-02",
            ]
            let first = try await client.execute(uri: "/sales", method: .post, headers: headers, body: form(sale))
            #expect(first.status == .created, "\(first.text)")
            let json = try first.json()
            #expect(
                json["commission"] as? String == "$24.00"
                    && (json["saved"] as? String)?.contains("2 × Serum 30ml at Glow") == true
            )
            // The answer was lost: the queue sends again under the same key.
            let again = try await client.execute(uri: "/sales", method: .post, headers: headers, body: form(sale))
            #expect(try again.json()["id"] as? Int == json["id"] as? Int)
            #expect(try await test.store.countSales(SaleQuery()) == 1)
            // The same key with another sale is refused with a sentence, as JSON.
            var other = sale
            other["quantity"] = "1"
            let refused = try await client.execute(uri: "/sales", method: .post, headers: headers, body: form(other))
            #expect(refused.status.code == 422 && refused.headers[.contentType] == "application/problem+json")
            let reason = try refused.json()["detail"] as? String
            #expect(reason?.contains("already recorded sale") == true)
            // A refusal the queue must keep: no terms on that date.
            var early = sale
            (early["key"], early["date"]) = ("tap-8", "2019-01-01")
            let noTerms = try await client.execute(uri: "/sales", method: .post, headers: headers, body: form(early))
            let detail = try noTerms.json()["detail"] as? String
            #expect(noTerms.status.code == 422 && detail?.contains("No commission terms") == true)
            // Said in the page's words: what to do there, no command.
            #expect(
                detail?.contains("Add Glow's terms from that day on") == true
                    && detail?.contains("commission terms add") == false,
                "\(detail ?? "")"
            )
            #expect(try await test.store.countSales(SaleQuery()) == 1)
        }
    }

    @Test func theAPIRefusesAKeyReusedWithAnotherBody() async throws {
        let test = try await TestApp()
        let owner = try await test.store.createOwner(username: "ana", passwordHash: "x")
        _ = try await test.store.createToken(
            account: owner.id,
            name: "t",
            tokenDigest: WebSecrets.digest("cm_secret"),
            now: Date()
        )
        let headers: HTTPFields = [
            .authorization: "Bearer cm_secret", .contentType: "application/json",
            HTTPField.Name("Idempotency-Key")!: "k-1",
        ]
        try await test.app.test(.router) { client in
            let first = try await client.execute(
                uri: "/api/v1/sales",
                method: .post,
                headers: headers,
                body: ByteBuffer(
                    string:
                        #"{"clinic": "Glow", "product": "SER-30", "quantity": 1, "date": "2026-03-02"}"#
                )
            )
            #expect(first.status == .created)
            let other = try await client.execute(
                uri: "/api/v1/sales",
                method: .post,
                headers: headers,
                body: ByteBuffer(
                    string:
                        #"{"clinic": "Glow", "product": "SER-30", "quantity": 5, "date": "2026-03-02"}"#
                )
            )
            #expect(other.status.code == 422, "\(other.text)")
            let reason = try other.json()["detail"] as? String
            #expect(reason?.contains("quantity 5 instead of 1") == true)
        }
        #expect(try await test.store.countSales(SaleQuery()) == 1)
    }

    /// A clinic's own price: on the entry form (and for the script, at every clinic), on the clinic's
    /// page, through the API; a price left as the page put it is the clinic's price of the sale's day.
    @Test("The entry form starts from the clinic's price, and a backdated sale takes the price of its day")
    func entryFormStartsFromClinicPrice() async throws {
        let test = try await TestApp()
        let today = try await test.store.settings().today()
        let harbor = try await test.store.createClinic(ClinicDraft(name: "Harbor", schedule: .monthly))
        _ = try await test.store.createTerms(
            TermsDraft(
                clinicID: harbor.id,
                share: try Share(parsing: "50"),
                effectiveFrom: try Day(parsing: "2020-01-01")
            )
        )
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            // Set on the clinic's page: 45.00 from ten days ago, 48.00 (cost 21.00) from today.
            for (price, cost, from) in [("45.00", "", today.adding(days: -10)), ("48.00", "21.00", today)] {
                let set = try await client.execute(
                    uri: "/book/clinics/\(test.glow.id)/prices",
                    method: .post,
                    headers: headers,
                    body: form([
                        "csrf": csrf, "product": "\(test.serum.id)", "price": price, "cost": cost,
                        "from": from.description,
                    ])
                )
                #expect(
                    set.status == .seeOther
                        && set.headers[.location]?.hasPrefix("/book/clinics/\(test.glow.id)?done=price-set&entry=")
                            == true
                        && set.headers[.location]?.hasSuffix("#prices") == true
                )
                // What was set is said in the prices' section, where the page opens.
                let told = try await client.execute(uri: set.headers[.location] ?? "", method: .get, headers: headers)
                    .text
                let style = try await test.store.settings().style
                #expect(
                    told.contains(
                        #"<p class="notice" role="status" id="prices-said">Set Serum 30ml at $\#(price) here from \#(style.format(from)): your sales here start from it.</p>"#
                    ),
                    "\(told)"
                )
            }
            let clinicPage = try await client.execute(
                uri: "/book/clinics/\(test.glow.id)",
                method: .get,
                headers: headers
            ).text
            #expect(
                clinicPage.contains("Prices at Glow")
                    && clinicPage.contains(
                        "<span class=\"amount\">$48.00</span> <span class=\"muted\">cost $21.00</span>"
                    )
            )
            #expect(clinicPage.contains("<span class=\"amount\">$45.00</span> <span class=\"muted\">cost the product"))
            // A refused entry redraws the page with its sentence.
            let refused = try await client.execute(
                uri: "/book/clinics/\(test.glow.id)/prices",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "product": "\(test.serum.id)", "price": "-1", "from": today.description])
            )
            #expect(
                refused.status.code == 422
                    && refused.text.contains(
                        "<summary>Set a price here</summary>\n  <form method=\"post\" action=\"/book/clinics/\(test.glow.id)/prices\" id=\"price-form\">"
                    )
                    && refused.text.contains("<details class=\"add\" open>\n  <summary>Set a price here"),
                "\(refused.text)"
            )

            // The entry form at Glow: 48.00 in the field and as the default; Harbor's (the product's 50.00) for the script.
            let page = try await client.execute(
                uri: "/?clinic=Glow&product=\(test.serum.id)",
                method: .get,
                headers: headers
            ).text
            #expect(page.contains("data-price=\"48.00\""))
            #expect(
                page.contains("id=\"price\" name=\"price\" inputmode=\"decimal\" autocomplete=\"off\" value=\"48.00\"")
            )
            #expect(page.contains("name=\"priceDefault\" value=\"48.00\""))
            #expect(
                page.contains("&quot;\(test.glow.id)&quot;:[&quot;48.00&quot;,&quot;$48.00&quot;]")
                    && page.contains("&quot;own&quot;:[&quot;50.00&quot;")
            )

            // Saved as the page put it, five days ago: the price of that day, 45.00 with the product's cost.
            let backdated = try await client.execute(
                uri: "/sales",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "key": "b1", "clinic": "\(test.glow.id)", "product": "\(test.serum.id)",
                    "quantity": "1",
                    "price": "48.00", "priceDefault": "48.00", "date": today.adding(days: -5).description,
                ])
            )
            #expect(backdated.status == .seeOther)
            // Typed (another price than the page's): what she typed.
            _ = try await client.execute(
                uri: "/sales",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "key": "t1", "clinic": "\(test.glow.id)", "product": "\(test.serum.id)",
                    "quantity": "1",
                    "price": "47.00", "priceDefault": "48.00", "date": today.description,
                ])
            )
            // Today at Harbor, price left as put (the page switched to Harbor's 50.00): the product's.
            _ = try await client.execute(
                uri: "/sales",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "key": "h1", "clinic": "\(harbor.id)", "product": "\(test.serum.id)", "quantity": "1",
                    "price": "50.00", "priceDefault": "50.00", "date": today.description,
                ])
            )
            let sales = try await test.store.sales(SaleQuery(order: .latestRecorded))
            #expect(sales.map(\.line.unitPrice.minorUnits) == [5000, 4700, 4500])
            #expect(sales.map(\.line.unitCost.minorUnits) == [2000, 2100, 2000])

            // The API lists, sets and removes entries.
            let owner = try #require(try await test.store.members().first).account
            _ = try await test.store.createToken(
                account: owner.id,
                name: "t",
                tokenDigest: WebSecrets.digest("cm_prices"),
                now: Date()
            )
            let api: HTTPFields = [.authorization: "Bearer cm_prices", .contentType: "application/json"]
            let listed = try await client.execute(
                uri: "/api/v1/prices?clinicId=\(test.glow.id)",
                method: .get,
                headers: api
            ).text
            #expect(listed.contains("\"unitPrice\":\"45.00\"") && listed.contains("\"unitCost\":\"21.00\""))
            let created = try await client.execute(
                uri: "/api/v1/prices",
                method: .post,
                headers: api,
                body: ByteBuffer(string: #"{"clinic": "Harbor", "product": "SER-30", "unitPrice": "52.50"}"#)
            )
            #expect(
                created.status == .created && created.text.contains("\"unitPrice\":\"52.50\"")
                    && !created.text.contains("unitCost")
            )
            let id = try #require(try await test.store.prices(PriceQuery(clinicID: harbor.id)).first?.id)
            #expect(
                try await client.execute(uri: "/api/v1/prices/\(id)", method: .delete, headers: api).status
                    == .noContent
            )
            #expect(
                try await client.execute(uri: "/api/v1/prices/\(id)", method: .delete, headers: api).status == .notFound
            )
        }
    }

    /// Tiers from the terms forms, deductions from the clinic's page and the API, and the
    /// statement page's net payable.
    @Test func tiersAndDeductionsFromThePagesAndTheAPI() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let added = try await client.execute(
                uri: "/terms",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "clinic": "\(test.glow.id)", "share": "40", "basis": "profit", "from": "2026-06-01",
                    "tierThreshold0": "100.00", "tierShare0": "50", "tierThreshold1": "", "tierShare1": "",
                ])
            )
            #expect(added.status == .seeOther)
            let terms = try #require(try await test.store.terms(TermsQuery(clinicID: test.glow.id)).last)
            #expect(terms.tiers == [Tier(threshold: Money(minorUnits: 10_000), share: try Share(parsing: "50"))])
            // A tier is a row: half a row is refused, saying what is missing, and the form stays open to fix it.
            let badTiers = try await client.execute(
                uri: "/terms",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "clinic": "\(test.glow.id)", "share": "40", "from": "2026-06-01",
                    "tierThreshold0": "100.00", "tierShare0": "",
                ])
            )
            #expect(
                badTiers.status.code == 422
                    && badTiers.text.contains("Tier 1: give both the period&#39;s total it starts beyond and its share")
                    && badTiers.text.contains(#"<details class="add" open>"#)
                    && badTiers.text.contains(#"id="t-beyond-0""#),
                "\(badTiers.text)"
            )
            #expect(try await test.store.terms(TermsQuery(clinicID: test.glow.id)).count == 2)
            let book = try await client.execute(uri: "/book", method: .get, headers: headers).text
            #expect(
                book.contains("<strong>Glow</strong>")
                    && book.contains("40% of profit, 50% beyond $100.00 · from 06/01/2026"),
                "\(book)"
            )
            // The terms' page shows the tier as its row, and an empty one to add another.
            let termsPage = try await client.execute(uri: "/book/terms/\(terms.id)", method: .get, headers: headers)
                .text
            #expect(
                termsPage.contains(#"name="tierThreshold0" inputmode="decimal" value="100.00""#)
                    && termsPage.contains(#"name="tierShare0" inputmode="decimal" value="50""#)
                    && termsPage.contains(#"name="tierThreshold1" inputmode="decimal" value="""#)
                    && termsPage.contains(#"name="tierShare1" inputmode="decimal" value="""#),
                "\(termsPage)"
            )

            let rent = try await client.execute(
                uri: "/book/clinics/\(test.glow.id)/deductions",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "name": "Room rent", "kind": "fixed", "value": "10.00", "from": "2026-06-01",
                ])
            )
            let rentID = try #require(try await test.store.deductions(clinic: test.glow.id).last?.id)
            #expect(
                rent.status == .seeOther
                    && rent.headers[.location]
                        == "/book/clinics/\(test.glow.id)?done=deduction-added&deduction=\(rentID)#deductions"
            )
            let rentSaid = try await client.execute(uri: rent.headers[.location] ?? "", method: .get, headers: headers)
                .text
            #expect(
                rentSaid.contains(
                    "Added Room rent: $10.00 a period from 06/01/2026. Statements take it off what Glow pays."
                ),
                "\(rentSaid)"
            )
            let page = try await client.execute(uri: "/book/clinics/\(test.glow.id)", method: .get, headers: headers)
                .text
            #expect(
                page.contains("Deductions by Glow") && page.contains("Room rent · $10.00 a period · from 06/01/2026")
            )

            // Five serums in June: 60.00 on the lines, 5.00 accelerator, less 10.00 rent: 55.00.
            _ = try await test.store.createSale(
                SaleDraft(
                    clinicID: test.glow.id,
                    productID: test.serum.id,
                    date: try Day(parsing: "2026-06-10"),
                    quantity: 5
                ),
                idempotencyKey: nil
            )
            let statement = try await client.execute(
                uri: "/statements?clinic=\(test.glow.id)&date=2026-06-10",
                method: .get,
                headers: headers
            ).text
            #expect(
                statement.contains("Accelerator") && statement.contains("Less Room rent")
                    && statement.contains("Net payable")
            )
            #expect(statement.contains("id=\"statement-commission\">$55.00<"))
            // The lines' table ends on its totals row: how many sales, and their commission.
            #expect(
                statement.contains(#"<tfoot><tr><th scope="row" colspan="2">1 sale</th>"#)
                    && statement.contains(#"id="statement-lines-total">$60.00</td>"#),
                "\(statement)"
            )
            // A deduction is written with the minus every negative amount of the page has.
            #expect(
                statement.contains("<dt>Less Room rent</dt><dd class=\"amount\">\u{2212}$10.00</dd>"),
                "\(statement)"
            )
            // Its balance in a sentence, first: Glow owes her the 55.00.
            #expect(
                statement.contains(
                    #"<p class="standing owed" id="statement-standing">Glow owes you $55.00 for this period.</p>"#
                ),
                "\(statement)"
            )
            // Deductions beyond her commission: she owes Glow, said so.
            #expect(
                StatementPageView.Standing.of(
                    clinic: "Glow",
                    netPayable: Money(minorUnits: -2600),
                    received: .zero,
                    balance: Money(minorUnits: -2600),
                    style: try await test.store.settings().style
                ).sentence
                    == "You owe Glow $26.00 for this period: its deductions are more than your commission."
            )
            // …and, when it paid her besides, that too: she owes it back with the deductions' excess.
            #expect(
                StatementPageView.Standing.of(
                    clinic: "Glow",
                    netPayable: Money(minorUnits: -7475),
                    received: Money(minorUnits: 4000),
                    balance: Money(minorUnits: -11475),
                    style: try await test.store.settings().style
                ).sentence
                    == "You owe Glow $114.75 for this period: its deductions are more than your commission, and it paid you $40.00 besides."
            )
            #expect(
                StatementPageView.Standing.of(
                    clinic: "Glow",
                    netPayable: Money(minorUnits: 3000),
                    received: Money(minorUnits: 4000),
                    balance: Money(minorUnits: -1000),
                    style: try await test.store.settings().style
                ).sentence
                    == "Glow paid you $10.00 beyond this period."
            )

            let owner = try #require(try await test.store.members().first).account
            _ = try await test.store.createToken(
                account: owner.id,
                name: "t",
                tokenDigest: WebSecrets.digest("cm_terms"),
                now: Date()
            )
            let api: HTTPFields = [.authorization: "Bearer cm_terms", .contentType: "application/json"]
            let fee = try await client.execute(
                uri: "/api/v1/deductions",
                method: .post,
                headers: api,
                body: ByteBuffer(
                    string: #"{"clinic": "Glow", "name": "Card fees", "share": "2.5", "effectiveFrom": "2026-07-01"}"#
                )
            )
            #expect(fee.status == .created && fee.text.contains("\"share\":\"2.50\""), "\(fee.text)")
            let id = try #require(try await test.store.deductions(clinic: test.glow.id).last?.id)
            let ended = try await client.execute(
                uri: "/api/v1/deductions/\(id)",
                method: .patch,
                headers: api,
                body: ByteBuffer(string: #"{"lastDay": "2026-12-31"}"#)
            )
            #expect(ended.status == .ok && ended.text.contains("\"lastDay\":\"2026-12-31\""))
            let neither = try await client.execute(
                uri: "/api/v1/deductions",
                method: .post,
                headers: api,
                body: ByteBuffer(string: #"{"clinic": "Glow", "name": "X"}"#)
            )
            #expect(neither.status.code == 422)
            #expect(
                try await client.execute(uri: "/api/v1/deductions/\(id)", method: .delete, headers: api).status
                    == .noContent
            )
            let listed = try await client.execute(uri: "/api/v1/terms", method: .get, headers: api).text
            #expect(listed.contains("\"tiers\":[\"100.00:50.00%\"]"), "\(listed)")
        }
    }

    @Test("A prefilled link opens a ready form and a missed day opens the form on that day")
    func prefilledLinksAndMissedDays() async throws {
        let test = try await TestApp()
        let cream = try await test.store.createProduct(
            ProductDraft(name: "Cream", unitPrice: Money(minorUnits: 3000), unitCost: .zero)
        )
        try await test.app.test(.router) { client in
            let (headers, _) = try await Self.signedIn(client)
            let today = try await test.store.settings().today()
            let day = today.adding(days: -3)
            let page = try await client.execute(
                uri: "/?clinic=Glow&product=\(cream.id)&quantity=3&date=\(day)",
                method: .get,
                headers: headers
            ).text
            #expect(
                page.contains(
                    "value=\"\(cream.id)\" data-price=\"30.00\" data-prices=\"{&quot;own&quot;:[&quot;30.00&quot;,&quot;$30.00&quot;]}\" checked"
                ),
                "\(page)"
            )
            #expect(
                page.contains("id=\"price\" name=\"price\" inputmode=\"decimal\" autocomplete=\"off\" value=\"30.00\"")
            )
            #expect(
                page.contains("id=\"quantity\" name=\"quantity\" type=\"number\" inputmode=\"numeric\" value=\"3\"")
            )
            // The day is visible: said above the form, and the form's date section open on it.
            #expect(
                page.contains("id=\"dateline\"") && page.contains("<details id=\"more-fields\" open>")
                    && page.contains("value=\"\(day)\"")
            )
            // Dates the book does not take are refused in the field itself too.
            #expect(page.contains("min=\"1900-01-01\" max=\"\(today.adding(years: 1))\""))
        }
    }

    @Test func aCommaPriceInACommaLocaleIsSavedExactly() async throws {
        let test = try await TestApp()
        var settings = try await test.store.settings()
        settings.localeIdentifier = "de_DE"
        try await test.store.updateSettings(settings)
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let page = try await client.execute(uri: "/", method: .get, headers: headers).text
            #expect(
                page.contains("<html lang=\"de-DE\">") && page.contains("data-price=\"50,00\"")
                    && page.contains("50,00\u{00A0}$"),
                "\(page)"
            )
            let saved = try await client.execute(
                uri: "/sales",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "key": "k", "clinic": "\(test.glow.id)", "product": "\(test.serum.id)",
                    "quantity": "1", "price": "1,50",
                    "date": "2026-03-02",
                ])
            )
            #expect(saved.status == .seeOther, "\(saved.text)")
            let sale = try #require(try await test.store.sales(SaleQuery()).first)
            #expect(sale.line.unitPrice == Money(minorUnits: 150))
            // "1,500" in German could be 1.5 or 1500: refused with the reason, nothing recorded.
            let ambiguous = try await client.execute(
                uri: "/sales",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": csrf, "key": "k2", "clinic": "\(test.glow.id)", "product": "\(test.serum.id)",
                    "price": "1,500", "date": "2026-03-02",
                ])
            )
            #expect(ambiguous.status.code == 422 && ambiguous.text.contains("could be"))
        }
        #expect(try await test.store.countSales(SaleQuery()) == 1)
    }

    @Test func theInstallableAppsFilesAreServedToAnyone() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let manifest = try await client.execute(uri: "/manifest.webmanifest", method: .get)
            #expect(manifest.status == .ok && manifest.headers[.contentType] == "application/manifest+json")
            let json = try manifest.json()
            #expect(json["start_url"] as? String == "/" && json["display"] as? String == "standalone")
            #expect((json["icons"] as? [[String: Any]])?.contains { $0["sizes"] as? String == "512x512" } == true)
            let worker = try await client.execute(uri: "/sw.js", method: .get)
            #expect(
                worker.status == .ok && worker.headers[.contentType] == "text/javascript; charset=utf-8"
                    && worker.headers[.cacheControl] == "no-cache"
            )
            #expect(!worker.text.contains("__VERSION__") && worker.text.contains("commission-shell-"))
            #expect(try await client.execute(uri: "/favicon.ico", method: .get).status == .ok)
            let icon = try await client.execute(uri: "/static/icon-192.png", method: .get)
            #expect(icon.status == .ok && icon.headers[.contentType] == "image/png")
            // Revalidation answers 304.
            let etag = try #require(icon.headers[.eTag])
            #expect(
                try await client.execute(uri: "/static/icon-192.png", method: .get, headers: [.ifNoneMatch: etag])
                    .status == .notModified
            )
        }
    }
}
