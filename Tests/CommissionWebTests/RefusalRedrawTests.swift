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

    /// The tag of the first field named `name` after `start` (`<input … name="share" …>`), or "".
    static func field(_ name: String, in page: String, after start: String = "") -> String {
        let from = start.isEmpty ? page.startIndex : page.range(of: start)?.upperBound ?? page.endIndex
        guard let found = page.range(of: #"name="\#(name)""#, range: from..<page.endIndex),
            let open = page[..<found.lowerBound].lastIndex(of: "<"),
            let close = page[found.upperBound...].firstIndex(of: ">")
        else { return "" }
        return String(page[open...close])
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

    @Test func refusedTermsKeepTheirClinicProductSplitTiersAndDay() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let typed = [
                "csrf": csrf, "clinic": "\(test.glow.id)", "product": "\(test.serum.id)", "basis": "revenue",
                "share": "45", "tierThreshold0": "1000.00", "tierShare0": "50", "tierThreshold1": "2000.00",
                "tierShare1": "", "from": "2026-05-01",
            ]
            let refused = try await client.execute(uri: "/terms", method: .post, headers: headers, body: form(typed))
            #expect(refused.status.code == 422)
            let page = refused.text
            #expect(page.contains("Tier 2: give both"), "\(page)")
            #expect(page.contains(#"<option value="\#(test.glow.id)" selected>Glow</option>"#))
            #expect(page.contains(#"<option value="\#(test.serum.id)" selected>Serum 30ml</option>"#))
            #expect(page.contains(#"<option value="revenue" selected>revenue</option>"#))
            #expect(page.contains(#"name="share" inputmode="decimal" value="45" required>"#))
            #expect(page.contains(#"name="tierThreshold0" inputmode="decimal" value="1000.00""#))
            #expect(page.contains(#"name="tierShare0" inputmode="decimal" value="50""#))
            #expect(page.contains(#"name="tierThreshold1" inputmode="decimal" value="2000.00""#))
            #expect(page.contains(#"name="tierShare1" inputmode="decimal" value="" autocomplete="off" \#(Self.mark)"#))
            #expect(page.contains(#"name="from" type="date" value="2026-05-01""#))
            #expect(page.contains("<details class=\"add\" open>\n  <summary>Add terms</summary>"))
            #expect(Self.sentenceFirst(page, before: #"action="/terms""#))

            // A share the store refuses marks the share.
            var high = typed
            (high["share"], high["tierShare1"]) = ("140", "60")
            let share = try await client.execute(uri: "/terms", method: .post, headers: headers, body: form(high))
            #expect(share.status.code == 422)
            #expect(share.text.contains(#"name="share" inputmode="decimal" value="140" required \#(Self.mark)"#))
        }
        #expect(try await test.store.terms(TermsQuery()).count == 1)
    }

    @Test func aRefusedClinicKeepsItsNameAndSchedule() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let weekly = ["csrf": csrf, "name": "Glow", "scheduleKind": "weekly", "weekday": "thursday"]
            let taken = try await client.execute(uri: "/clinics", method: .post, headers: headers, body: form(weekly))
            #expect(taken.status.code == 409)
            let page = taken.text
            #expect(page.contains(#"name="name" value="Glow" required \#(Self.mark)"#), "\(page)")
            #expect(page.contains(#"<option value="weekly" selected>"#))
            #expect(page.contains(#"<option value="thursday" selected>Thursday</option>"#))
            #expect(page.contains("<details class=\"add\" open>\n  <summary>Add a clinic</summary>"))
            #expect(Self.sentenceFirst(page, before: #"action="/clinics""#))

            let biweekly = ["csrf": csrf, "name": "Bloom", "scheduleKind": "biweekly", "anchor": "1800-01-05"]
            let early = try await client.execute(uri: "/clinics", method: .post, headers: headers, body: form(biweekly))
            #expect(early.status.code == 422)
            #expect(early.text.contains(#"name="name" value="Bloom""#))
            #expect(early.text.contains(#"<option value="biweekly" selected>"#))
            #expect(early.text.contains(#"name="anchor" type="date" value="1800-01-05""#), "\(early.text)")
            #expect(
                early.text.contains(
                    #"max="\#(AcceptedDays(today: try await test.store.settings().today()).latest)" \#(Self.mark)"#
                )
            )
        }
        #expect(try await test.store.clinics(ClinicQuery()).count == 1)
    }

    @Test func aRefusedProductKeepsItsNamePriceAndCost() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let typed = ["csrf": csrf, "name": "Toner", "price": "twelve", "cost": "3.00"]
            let refused = try await client.execute(uri: "/products", method: .post, headers: headers, body: form(typed))
            #expect(refused.status.code == 422)
            let page = refused.text
            #expect(page.contains(#"name="name" value="Toner" required>"#), "\(page)")
            #expect(
                page.contains(
                    #"name="price" inputmode="decimal" value="twelve" required autocomplete="off" \#(Self.mark)"#
                )
            )
            #expect(page.contains(#"value="3.00" autocomplete="off">"#))
            #expect(page.contains("<details class=\"add\" open>\n  <summary>Add a product</summary>"))

            let same = ["csrf": csrf, "name": "Serum 30ml", "price": "12.00", "cost": ""]
            let taken = try await client.execute(uri: "/products", method: .post, headers: headers, body: form(same))
            #expect(taken.status.code == 409)
            #expect(taken.text.contains(#"name="name" value="Serum 30ml" required \#(Self.mark)"#), "\(taken.text)")
        }
        #expect(try await test.store.products(ProductQuery()).count == 1)
    }

    @Test func aRefusedPaymentKeepsEveryFieldAsTypedInItsOpenFold() async throws {
        let test = try await TestApp()
        try await test.store.closePeriod(
            clinic: test.glow.id,
            period: PayPeriod(start: try Day(parsing: "2026-02-01"), end: try Day(parsing: "2026-02-28"))
        )
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let typed = [
                "csrf": csrf, "clinic": "\(test.glow.id)", "period": "2026-03-15", "amount": "abc",
                "received": "2026-04-02", "reference": "transfer 12",
            ]
            let refused = try await client.execute(uri: "/payouts", method: .post, headers: headers, body: form(typed))
            #expect(refused.status.code == 422)
            let page = refused.text
            #expect(page.contains(#"<details class="card" id="payout-form" open>"#), "\(page)")
            // Her clinic and period, chosen in the one picker as she sent them.
            #expect(page.contains(#"<option value="\#(test.glow.id)/2026-03-01" selected>"#), "\(page)")
            #expect(page.contains(#"value="abc" \#(Self.mark)"#))
            #expect(page.contains(#"name="received" type="date" value="2026-04-02""#))
            #expect(page.contains(#"name="reference" value="transfer 12">"#))
            #expect(Self.sentenceFirst(page, before: #"action="/payouts""#))

            // A closed period marks the period's day; a day out of range, the day it was received.
            var closed = typed
            (closed["period"], closed["amount"]) = ("2026-02-10", "24.00")
            let intoClosed = try await client.execute(
                uri: "/payouts",
                method: .post,
                headers: headers,
                body: form(closed)
            )
            #expect(intoClosed.status.code == 409)
            let period = Self.field("period", in: intoClosed.text)
            #expect(
                intoClosed.text.contains(#"<option value="\#(test.glow.id)/2026-02-01" selected>"#)
                    && period.contains(Self.mark),
                "\(period)"
            )
            #expect(!Self.field("amount", in: intoClosed.text).contains("aria-invalid"))
            var early = typed
            (early["amount"], early["received"]) = ("24.00", "1800-01-01")
            let tooEarly = try await client.execute(uri: "/payouts", method: .post, headers: headers, body: form(early))
            #expect(tooEarly.status.code == 422)
            let received = Self.field("received", in: tooEarly.text)
            #expect(received.contains(#"value="1800-01-01""#) && received.contains(Self.mark), "\(received)")
        }
        #expect(try await test.store.payouts(PayoutQuery()).isEmpty)
    }

    @Test func aRefusedRecordingOfDepositsKeepsTheTableAndHerTicks() async throws {
        let test = try await TestApp()
        _ = try await test.store.createSale(
            SaleDraft(
                clinicID: test.glow.id,
                productID: test.serum.id,
                date: try Day(parsing: "2026-03-02"),
                quantity: 2
            ),
            idempotencyKey: nil
        )
        _ = try await test.store.createSale(
            SaleDraft(
                clinicID: test.glow.id,
                productID: test.serum.id,
                date: try Day(parsing: "2026-04-02"),
                quantity: 2
            ),
            idempotencyKey: nil
        )
        let statement = "Date,Amount,Description\n2026-04-05,24.00,GLOW MARCH\n2026-05-05,24.00,GLOW APRIL\n"
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let base = ["csrf": csrf, "bank": statement, "dates": "ymd"]
            let checked = try await client.execute(
                uri: "/payouts/bank",
                method: .post,
                headers: headers,
                body: form(base.merging(["action": "check"]) { $1 })
            )
            #expect(checked.status == .ok)
            let keys = Dictionary(
                uniqueKeysWithValues: checked.text.matches(of: /name="accept(\d+)" value="([^"]+)"/).map {
                    (String($0.1), String($0.2))
                }
            )
            #expect(keys.count == 2, "\(checked.text)")
            #expect(Self.field("accept2", in: checked.text).contains("checked"))
            #expect(Self.field("accept3", in: checked.text).contains("checked"))
            // Both fit exactly: she unticks the first; a deposit the book no longer fits refuses all.
            let ticks = ["accept3": keys["3"] ?? "", "accept9": "stale-key", "action": "record"]
            let refused = try await client.execute(
                uri: "/payouts/bank",
                method: .post,
                headers: headers,
                body: form(base.merging(ticks) { $1 })
            )
            #expect(refused.status.code == 409)
            let page = refused.text
            #expect(page.contains(#"<details class="card" id="bank" open>"#), "\(page)")
            #expect(page.contains("GLOW MARCH") && page.contains("GLOW APRIL") && page.contains(#"id="deposits""#))
            #expect(!Self.field("accept2", in: page).contains("checked"), "\(Self.field("accept2", in: page))")
            #expect(Self.field("accept3", in: page).contains("checked"))
            #expect(page.contains(#"<option value="ymd" selected>"#))
            #expect(page.contains("2026-05-05,24.00,GLOW APRIL"))

            // A statement that cannot be read marks it, its fold open.
            let unreadable = try await client.execute(
                uri: "/payouts/bank",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "bank": "Date,Amount\nnot a date,12.00\n", "action": "check"])
            )
            #expect(unreadable.status.code == 422)
            #expect(unreadable.text.contains(#"<details class="card" id="bank" open>"#))
            #expect(Self.field("bank", in: unreadable.text).contains(Self.mark), "\(unreadable.text)")
        }
        #expect(try await test.store.payouts(PayoutQuery()).isEmpty)
    }

    @Test func aRefusedComparisonStepKeepsTheTableHerTicksAndHerNames() async throws {
        let test = try await TestApp()
        let theirs =
            "Date,Item,Qty,Price,Commission\n2026-10-05,SERUM RETAIL,2,50.00,24.00\n2026-10-08,TONER X,1,20.00,8.00\n"
            + "2026-10-20,Serum 30ml,1,50.00,12.00\n"
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let fields = [
                "csrf": csrf, "period": "\(test.glow.id)/2026-10-01", "statement": theirs, "dates": "ymd",
                "action": "compare",
            ]
            let first = try await client.execute(uri: "/compare", method: .post, headers: headers, body: form(fields))
            #expect(first.status == .ok && first.text.contains(#"name="accept3""#), "\(first.text)")

            // Lines ticked to add, one no longer there: refused, the table and every tick kept.
            let ticks = ["action": "accept", "accept3": "1", "accept7": "1", "dispute1": "1"]
            let accept = try await client.execute(
                uri: "/compare",
                method: .post,
                headers: headers,
                body: form(fields.merging(ticks) { $1 })
            )
            #expect(accept.status.code == 422)
            #expect(accept.text.contains(#"id="comparison""#), "\(accept.text)")
            #expect(Self.field("accept3", in: accept.text).contains("checked"))
            #expect(Self.field("dispute1", in: accept.text).contains("checked"))
            #expect(!Self.field("dispute2", in: accept.text).contains("checked"))
            #expect(accept.text.contains(#"<option value="ymd" selected>"#))
            #expect(accept.text.contains("2026-10-20,Serum 30ml,1,50.00,12.00"))
            #expect(Self.sentenceFirst(accept.text, before: #"id="comparison""#))

            // A name of theirs told as a product that is gone: refused, her other names kept as she chose them.
            let names = [
                "action": "compare", "aliasName0": "SERUM RETAIL", "aliasProduct0": "9999", "aliasName1": "TONER X",
                "aliasProduct1": "\(test.serum.id)", "dispute2": "1",
            ]
            let told = try await client.execute(
                uri: "/compare",
                method: .post,
                headers: headers,
                body: form(fields.merging(names) { $1 })
            )
            #expect(told.status.code == 404, "\(told.text)")
            #expect(told.text.contains(#"id="comparison""#) && told.text.contains(#"id="alias1""#), "\(told.text)")
            let toner = try #require(told.text.range(of: #"id="alias1""#))
            let picker = told.text[toner.lowerBound...].prefix { $0 != "\n" }
            #expect(picker.contains(#"<option value="\#(test.serum.id)" selected>Serum 30ml</option>"#), "\(picker)")
            #expect(Self.field("dispute2", in: told.text).contains("checked"))
        }
        #expect(try await test.store.countSales(SaleQuery()) == 0)
        #expect(try await test.store.aliases(clinic: test.glow.id).isEmpty)
    }

    @Test func aRefusedMappingOfTheirColumnsKeepsTheColumns() async throws {
        let test = try await TestApp()
        let theirs = "Wann,Was,Menge,Preis,Provision\n2026-10-05,Serum 30ml,2,50.00,24.00\n"
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let fields = ["csrf": csrf, "period": "\(test.glow.id)/2026-10-01", "statement": theirs]
            let unknown = try await client.execute(
                uri: "/compare",
                method: .post,
                headers: headers,
                body: form(fields.merging(["action": "compare"]) { $1 })
            )
            #expect(unknown.status.code == 422 && unknown.text.contains(#"id="column-mapping""#), "\(unknown.text)")
            let mapping = [
                "action": "map", "map0": "date", "map1": "product", "map2": "quantity", "map3": "unit price",
                "map4": "commission", "mappingName": "",
            ]
            let refused = try await client.execute(
                uri: "/compare",
                method: .post,
                headers: headers,
                body: form(fields.merging(mapping) { $1 })
            )
            #expect(refused.status.code == 422, "\(refused.text)")
            let page = refused.text
            #expect(page.contains(#"id="column-mapping""#), "\(page)")
            #expect(page.contains(#"<option value="unit price" selected>"#))
            #expect(Self.field("mappingName", in: page).contains(Self.mark), "\(Self.field("mappingName", in: page))")
        }
    }

    @Test func aRefusedEditOfAClinicProductOrTermsKeepsEveryFieldAsTyped() async throws {
        let test = try await TestApp()
        let terms = try #require(try await test.store.terms(TermsQuery()).first)
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let product = [
                "csrf": csrf, "action": "save", "name": "Serum 50ml", "sku": "SER-50", "price": "55.00", "cost": "lots",
            ]
            let refusedProduct = try await client.execute(
                uri: "/book/products/\(test.serum.id)",
                method: .post,
                headers: headers,
                body: form(product)
            )
            #expect(refusedProduct.status.code == 422)
            let page = refusedProduct.text
            #expect(Self.field("name", in: page, after: #"id="item-form""#).contains(#"value="Serum 50ml""#), "\(page)")
            #expect(Self.field("sku", in: page).contains(#"value="SER-50""#))
            #expect(Self.field("price", in: page).contains(#"value="55.00""#))
            let cost = Self.field("cost", in: page)
            #expect(cost.contains(#"value="lots""#) && cost.contains(Self.mark), "\(cost)")
            #expect(Self.sentenceFirst(page, before: #"id="item-form""#))

            let split = [
                "csrf": csrf, "action": "save", "share": "35", "basis": "revenue", "from": "2021-02-01",
                "tierThreshold0": "abc", "tierShare0": "50",
            ]
            let refusedTerms = try await client.execute(
                uri: "/book/terms/\(terms.id)",
                method: .post,
                headers: headers,
                body: form(split)
            )
            #expect(refusedTerms.status.code == 422)
            let termsPage = refusedTerms.text
            #expect(Self.field("share", in: termsPage).contains(#"value="35""#), "\(termsPage)")
            #expect(termsPage.contains(#"<option value="revenue" selected>revenue</option>"#))
            #expect(Self.field("from", in: termsPage).contains(#"value="2021-02-01""#))
            let threshold = Self.field("tierThreshold0", in: termsPage)
            #expect(threshold.contains(#"value="abc""#) && threshold.contains(Self.mark), "\(threshold)")
            #expect(Self.field("tierShare0", in: termsPage).contains(#"value="50""#))

            let schedule = [
                "csrf": csrf, "action": "save", "name": "Glow Aesthetics", "scheduleKind": "weekly",
                "weekday": "friday",
                "scheduleFrom": "1800-01-06",
            ]
            let refusedClinic = try await client.execute(
                uri: "/book/clinics/\(test.glow.id)",
                method: .post,
                headers: headers,
                body: form(schedule)
            )
            #expect(refusedClinic.status.code == 422)
            let clinicPage = refusedClinic.text
            #expect(clinicPage.contains("<details open>\n  <summary><span>Name and pay schedule"), "\(clinicPage)")
            #expect(Self.field("name", in: clinicPage, after: #"id="item-form""#).contains(#"value="Glow Aesthetics""#))
            #expect(clinicPage.contains(#"<option value="weekly" selected>"#))
            #expect(clinicPage.contains(#"<option value="friday" selected>Friday</option>"#))
            let from = Self.field("scheduleFrom", in: clinicPage)
            #expect(from.contains(#"value="1800-01-06""#) && from.contains(Self.mark), "\(from)")
        }
        #expect(try await test.store.product(test.serum.id).name == "Serum 30ml")
        #expect(try await test.store.terms(terms.id).share == terms.share)
        let glow = try await test.store.clinic(test.glow.id)
        #expect(glow.name == "Glow" && glow.scheduleChanges.isEmpty)
    }

    @Test func aRefusedDeductionKeepsEveryFieldAsTyped() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let typed = [
                "csrf": csrf, "name": "Room rent", "kind": "revenue-share", "value": "140", "from": "2026-01-01",
                "until": "2026-06-30",
            ]
            let uri = "/book/clinics/\(test.glow.id)/deductions"
            let refused = try await client.execute(uri: uri, method: .post, headers: headers, body: form(typed))
            #expect(refused.status.code == 422)
            let page = refused.text
            #expect(page.contains("<details class=\"add\" open>\n  <summary>Add a deduction</summary>"), "\(page)")
            #expect(Self.field("name", in: page, after: #"id="deduction-form""#).contains(#"value="Room rent""#))
            #expect(page.contains(#"<option value="revenue-share" selected>"#))
            let value = Self.field("value", in: page)
            #expect(value.contains(#"value="140""#) && value.contains(Self.mark), "\(value)")
            #expect(Self.field("from", in: page, after: #"id="deduction-form""#).contains(#"value="2026-01-01""#))
            #expect(Self.field("until", in: page).contains(#"value="2026-06-30""#))
            #expect(Self.sentenceFirst(page, before: #"id="deduction-form""#))

            // A last day before the first is the last day's.
            var backwards = typed
            (backwards["value"], backwards["until"]) = ("5", "2025-12-31")
            let before = try await client.execute(uri: uri, method: .post, headers: headers, body: form(backwards))
            #expect(before.status.code == 422)
            let until = Self.field("until", in: before.text)
            #expect(until.contains(#"value="2025-12-31""#) && until.contains(Self.mark), "\(before.text)")
        }
        #expect(try await test.store.deductions(clinic: test.glow.id).isEmpty)
    }

    @Test func aRefusedPriceKeepsEveryFieldAsTyped() async throws {
        let test = try await TestApp()
        let toner = try await test.store.createProduct(
            ProductDraft(name: "Toner", unitPrice: Money(minorUnits: 2000), unitCost: Money(minorUnits: 500))
        )
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let typed = ["csrf": csrf, "product": "\(toner.id)", "price": "abc", "cost": "4.00", "from": "2026-02-01"]
            let uri = "/book/clinics/\(test.glow.id)/prices"
            let refused = try await client.execute(uri: uri, method: .post, headers: headers, body: form(typed))
            #expect(refused.status.code == 422)
            let page = refused.text
            #expect(page.contains("<details class=\"add\" open>\n  <summary>Set a price here</summary>"), "\(page)")
            #expect(page.contains(#"<option value="\#(toner.id)" selected>Toner ($20.00)</option>"#))
            let price = Self.field("price", in: page, after: #"id="price-form""#)
            #expect(price.contains(#"value="abc""#) && price.contains(Self.mark), "\(price)")
            #expect(Self.field("cost", in: page, after: #"id="price-form""#).contains(#"value="4.00""#))
            #expect(Self.field("from", in: page, after: #"id="price-form""#).contains(#"value="2026-02-01""#))

            var early = typed
            (early["price"], early["from"]) = ("18.00", "1800-01-01")
            let tooEarly = try await client.execute(uri: uri, method: .post, headers: headers, body: form(early))
            #expect(tooEarly.status.code == 422)
            let from = Self.field("from", in: tooEarly.text, after: #"id="price-form""#)
            #expect(from.contains(#"value="1800-01-01""#) && from.contains(Self.mark), "\(from)")
        }
        #expect(try await test.store.prices(PriceQuery(clinicID: test.glow.id)).isEmpty)
    }

    @Test func refusedBookSettingsKeepHerChoices() async throws {
        let test = try await TestApp()
        _ = try await test.store.createSale(
            SaleDraft(
                clinicID: test.glow.id,
                productID: test.serum.id,
                date: try Day(parsing: "2026-03-02"),
                quantity: 1
            ),
            idempotencyKey: nil
        )
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let typed = [
                "csrf": csrf, "currency": "USD", "timeZone": "Mars/Olympus", "locale": "de_DE", "rule": "half-to-even",
                "scope": "per-statement",
            ]
            let refused = try await client.execute(
                uri: "/settings/book",
                method: .post,
                headers: headers,
                body: form(typed)
            )
            #expect(refused.status.code == 422)
            let page = refused.text
            #expect(page.contains(#"<option value="Mars/Olympus" selected>"#), "\(page)")
            let zone = Self.field("timeZone", in: page)
            #expect(
                zone.contains(#"aria-invalid="true""#) && zone.contains(#"aria-describedby="refusal time-zone-hint""#)
            )
            #expect(page.contains(#"<option value="de_DE" selected>"#))
            #expect(page.contains(#"<option value="half-to-even" selected>"#))
            #expect(page.contains(#"<option value="per-statement" selected>"#))
            #expect(Self.sentenceFirst(page, before: #"id="book-settings""#))

            // A currency the book's amounts hold it to marks the currency, her choice kept.
            var euro = typed
            (euro["currency"], euro["timeZone"]) = ("EUR", "Europe/Berlin")
            let locked = try await client.execute(
                uri: "/settings/book",
                method: .post,
                headers: headers,
                body: form(euro)
            )
            #expect(locked.status.code == 422, "\(locked.text)")
            #expect(locked.text.contains(#"<option value="EUR" selected>"#))
            #expect(locked.text.contains(#"<option value="Europe/Berlin" selected>"#))
            #expect(Self.field("currency", in: locked.text).contains(#"aria-invalid="true""#))
        }
        let settings = try await test.store.settings()
        #expect(
            settings.timeZoneIdentifier == "UTC" && settings.currency == .usd && settings.localeIdentifier != "de_DE"
        )
    }

    @Test func aRefusedTokenKeepsItsNameInItsOpenSection() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let name = "lap\u{200B}top"
            let refused = try await client.execute(
                uri: "/settings/tokens",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "name": name])
            )
            #expect(refused.status.code == 422)
            let page = refused.text
            #expect(page.contains(#"<details open id="tokens">"#), "\(page)")
            let field = Self.field("name", in: page, after: #"action="/settings/tokens""#)
            #expect(field.contains(#"value="\#(name)""#) && field.contains(Self.mark), "\(field)")
            #expect(page.contains(#"id="refusal""#) && !page.contains(#"id="new-token""#))
        }
    }

    @Test func aRefusedImportKeepsHerReadingChoicesInItsOpenFold() async throws {
        let test = try await TestApp()
        try await test.store.saveMapping(
            ImportMapping(name: "Praxis", kind: "sales", headers: ["Wann"], fields: ["Wann": "date"])
        )
        try await test.app.test(.router) { client in
            let (headers, csrf) = try await Self.signedIn(client)
            let bad = "date,clinic,product,quantity,unit price\n02/03/2026,Glow,Serum 30ml,0,\"45,00\"\n"
            let typed = [
                "csrf": csrf, "csv": bad, "kind": "sales", "dates": "dmy", "decimalComma": "1", "again": "1",
                "action": "commit",
            ]
            let refused = try await client.execute(uri: "/import", method: .post, headers: headers, body: form(typed))
            #expect(refused.status.code == 422)
            let page = refused.text
            #expect(page.contains(#"id="import-problems""#), "\(page)")
            // Her file is refused and nothing stands above to answer: the forms show open.
            #expect(page.contains(#"<details class="fold" id="import-forms" open>"#))
            #expect(page.contains(#"<option value="sales" selected>"#))
            #expect(page.contains(#"<option value="dmy" selected>day/month/year (25.02.2026, 25/02/2026)</option>"#))
            #expect(page.contains(#"<input type="checkbox" name="decimalComma" value="1" checked>"#))
            #expect(Self.field("again", in: page, after: #"id="import-form""#).contains("checked"))
            #expect(page.contains("02/03/2026,Glow,Serum 30ml,0"))

            // Her saved mapping, chosen, stays chosen.
            var mapped = typed
            mapped["mapping"] = "Praxis"
            let withMapping = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(mapped)
            )
            #expect(withMapping.text.contains(#"<option value="Praxis" selected>the mapping “Praxis”</option>"#))

            // Imported before: the box to say "again" is marked, her text kept.
            let good = "date,clinic,product,quantity\n2026-03-02,Glow,Serum 30ml,2\n"
            _ = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "csv": good, "action": "commit"])
            )
            let twice = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "csv": good, "action": "commit"])
            )
            #expect(twice.status == .conflict)
            #expect(
                Self.field("again", in: twice.text, after: #"id="import-form""#).contains(Self.mark),
                "\(twice.text)"
            )

            // What the file lacks is an answer that stands above the forms: they stay folded.
            let unknown = "date,clinic,product,quantity\n2026-03-02,Bloom,Serum 30ml,1\n"
            let needs = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "csv": unknown, "action": "preview"])
            )
            #expect(needs.text.contains(#"id="import-needs""#), "\(needs.text)")
            #expect(needs.text.contains(#"<details class="fold" id="import-forms">"#))
        }
        #expect(try await test.store.countSales(SaleQuery()) == 1)
    }

    @Test func theImportFormsStartFromHowHerLocaleWrites() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let (headers, _) = try await Self.signedIn(client)
            let us = try await client.execute(uri: "/transfer", method: .get, headers: headers).text
            #expect(!us.contains(#"<option value="dmy" selected>"#) && !us.contains(#"value="1" checked>"#), "\(us)")
            var settings = try await test.store.settings()
            settings.localeIdentifier = "de_DE"
            try await test.store.updateSettings(settings)
            let german = try await client.execute(uri: "/transfer", method: .get, headers: headers).text
            #expect(
                german.contains(#"<option value="dmy" selected>day/month/year (25.02.2026, 25/02/2026)</option>"#),
                "\(german)"
            )
            #expect(german.contains(#"<input type="checkbox" name="decimalComma" value="1" checked>"#))
            #expect(german.contains(#"<option value="dmy" selected>day/month/year</option>"#))
            // The bank statement's form on Payouts too: a German book's amounts have a decimal comma.
            let payouts = try await client.execute(uri: "/payouts", method: .get, headers: headers).text
            #expect(payouts.contains(#"<input type="checkbox" name="decimalComma" value="1" checked>"#), "\(payouts)")
        }
    }

    @Test func aWorkbookImportedBeforeOpensItsFormWithHerChoices() async throws {
        let store = try SQLiteStore(.inMemory, defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"))
        let app = Application(
            router: buildRouter(configuration: WebConfiguration(bcryptCost: 4), store: store, routes: RouteLog())
        )
        @Sendable func upload(_ csrf: String, _ cookie: String) throws -> (HTTPFields, ByteBuffer) {
            try workbookUpload("her-book.xlsx", csrf: csrf, cookie: cookie, dates: "dmy")
        }
        try await app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            var (headers, body) = try upload(csrf, session)
            let checked = try await client.execute(uri: "/import/workbook", method: .post, headers: headers, body: body)
            let token = try #require(
                checked.text.firstMatch(of: /id="workbook-confirm">[^§]*?name="token" value="([0-9a-f]{64})"/)?.1
            )
            var confirm: HTTPFields = formHeaders
            confirm[.cookie] = "commission_session=\(session)"
            let imported = try await client.execute(
                uri: "/import/workbook/confirm",
                method: .post,
                headers: confirm,
                body: form(["csrf": csrf, "token": String(token), "action": "commit", "dates": "dmy"])
            )
            #expect(imported.status == .ok, "\(imported.text)")
            (headers, body) = try upload(csrf, session)
            let twice = try await client.execute(uri: "/import/workbook", method: .post, headers: headers, body: body)
            #expect(twice.status == .conflict && twice.text.contains("was imported before"), "\(twice.text)")
            // The box the sentence asks her to tick is in sight, marked; her order of dates kept.
            let page = twice.text
            #expect(page.contains(#"<details class="options" open>"#))
            #expect(page.contains(#"<option value="dmy" selected>day/month/year</option>"#))
            #expect(Self.field("again", in: page, after: #"id="workbook-form""#).contains(Self.mark), "\(page)")
        }
    }
}
