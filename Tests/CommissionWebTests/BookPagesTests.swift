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

/// Every job of the book on the pages: change, archive and restore a clinic, product or terms;
/// close and reopen a period; download an archive; restore a backup after a confirmation.
@Suite struct BookPagesTests {
    static func headers(_ session: String) -> HTTPFields {
        var headers = formHeaders
        headers[.cookie] = "commission_session=\(session)"
        return headers
    }

    @Test("A clinic's page lists the terms in force first, then those to come, then those they replaced, each said so")
    func theTermsInForceComeFirst() async throws {
        let test = try await TestApp()
        let today = try await test.store.settings().today()
        _ = try await test.store.createTerms(
            TermsDraft(
                clinicID: test.glow.id,
                share: try Share(parsing: "45"),
                effectiveFrom: try Day(parsing: "2021-01-01")
            )
        )
        // Corrected the same day: the set entered last is the one in force, as the ledger takes it.
        _ = try await test.store.createTerms(
            TermsDraft(
                clinicID: test.glow.id,
                share: try Share(parsing: "48"),
                effectiveFrom: try Day(parsing: "2021-01-01")
            )
        )
        _ = try await test.store.createTerms(
            TermsDraft(clinicID: test.glow.id, share: try Share(parsing: "50"), effectiveFrom: today.adding(days: 30))
        )
        try await test.app.test(.router) { client in
            let (session, _) = try await signUp(client)
            let page = try await client.execute(
                uri: "/book/clinics/\(test.glow.id)",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            let shown = page.matches(
                of: /<strong>(\d+)% of profit<\/strong><span class="meta"><span class="chip tone-\w+">([^<]+)<\/span>/
            ).map { "\($0.1) \($0.2)" }
            #expect(shown == ["48 In force", "50 Upcoming", "45 Ended", "40 Ended"], "\(shown)")
            // Those replaced are folded apart, under "Past terms".
            let past = try #require(page.range(of: #"<details class="past-terms"><summary>Past terms"#), "\(page)")
            #expect(
                page[past.upperBound...].contains("<strong>40% of profit</strong>")
                    && !page[..<past.lowerBound].contains("<strong>40% of profit</strong>")
            )
            // A set of terms' page leads back to its clinic.
            let first = try #require(try await test.store.terms(TermsQuery(clinicID: test.glow.id)).first)
            let termsPage = try await client.execute(
                uri: "/book/terms/\(first.id)",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            #expect(
                termsPage.contains(#"<a class="back" href="/book/clinics/\#(test.glow.id)#split">← Glow</a>"#),
                "\(termsPage)"
            )
        }
    }

    @Test("A clinic, product or terms is changed, archived and restored from its page")
    func itemPagesChangeArchiveRestore() async throws {
        let test = try await TestApp()
        _ = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: try Day(parsing: "2026-03-02")),
            idempotencyKey: nil
        )
        let terms = try #require(try await test.store.terms(TermsQuery()).first)
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            let headers = Self.headers(session)
            let book = try await client.execute(
                uri: "/book",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            )
            #expect(
                book.text.contains("href=\"/book/clinics/\(test.glow.id)\"")
                    && book.text.contains("href=\"/book/terms/\(terms.id)\"")
            )

            // The clinic's page, filled in; a new name and schedule.
            let page = try await client.execute(
                uri: "/book/clinics/\(test.glow.id)",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            )
            // The clinic's page leads with what it owes her, then her split there (each set of terms a
            // row to its page, and where to add more); its name and schedule fold away, and archiving
            // is a step of its own, behind a fold, on the danger button.
            #expect(
                page.text.contains(#"<span id="standing-label">Owes you</span> <span class="big amount" data-owed>$"#)
                    && page.text.contains(#"href="/statements?clinic=\#(test.glow.id)">Statement</a>"#),
                "\(page.text)"
            )
            #expect(
                page.text.contains(#"<a class="row" href="/book/terms/\#(terms.id)""#)
                    && page.text.contains(
                        #"<strong>40% of profit</strong><span class="meta"><span class="chip tone-paid">In force</span> from 01/01/2020</span>"#
                    )
                    && page.text.contains(#"href="/book?clinic=\#(test.glow.id)#terms">Add terms</a>"#),
                "\(page.text)"
            )
            #expect(
                page.text.contains(
                    "<details>\n  <summary><span>Name and pay schedule <span class=\"muted small\">· paid monthly</span></span></summary>"
                )
                    && page.text.contains(#"<summary>Archive this clinic</summary>"#)
                    && page.text.contains(#"value="archive" class="danger">Archive Glow</button>"#),
                "\(page.text)"
            )
            #expect(
                page.status == .ok && page.text.contains("value=\"Glow\"")
                    && page.text.contains("<option value=\"monthly\" selected>")
            )
            let saved = try await client.execute(
                uri: "/book/clinics/\(test.glow.id)",
                method: .post,
                headers: headers,
                body: form(
                    [
                        "csrf": csrf, "action": "save", "name": "Glow Aesthetics", "scheduleKind": "weekly",
                        "weekday": "friday",
                    ])
            )
            #expect(saved.status == .seeOther)
            #expect(try await test.store.clinic(test.glow.id).schedule == .weekly(startingOn: .friday))
            // What the save did is said in the clinics' section (where the page opens), the Add form left folded.
            #expect(saved.headers[.location] == "/book?kind=clinic&changed=\(test.glow.id)&how=save#clinics")
            let told = try await client.execute(
                uri: saved.headers[.location] ?? "",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            #expect(
                told.contains(
                    #"<p class="notice" role="status" id="added">Saved Glow Aesthetics: paid weekly, from Friday.</p>"#
                )
                    && told.contains("<details class=\"add\">\n  <summary>Add a clinic</summary>"),
                "\(told)"
            )
            // A refusal draws the page again, with the reason.
            let blank = try await client.execute(
                uri: "/book/clinics/\(test.glow.id)",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "action": "save", "name": " ", "scheduleKind": "monthly"])
            )
            #expect(
                blank.status.code == 422 && blank.text.contains("id=\"item-form\"")
                    && blank.text.contains("<details open>\n  <summary><span>Name and pay schedule"),
                "a refusal shows the form it came from open"
            )

            // Archived: out of the lists, in the archived section, its sale kept; then restored.
            let archived = try await client.execute(
                uri: "/book/products/\(test.serum.id)",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "action": "archive"])
            )
            #expect(archived.status == .seeOther)
            let after = try await client.execute(
                uri: archived.headers[.location] ?? "",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            )
            #expect(after.text.contains("Archived (1)") && after.text.contains("Product: Serum 30ml"))
            #expect(
                after.text.contains(
                    "Archived Serum 30ml: $50.00, your cost $20.00. It keeps its sales and figures; restore it under Archived, below."
                ),
                "\(after.text)"
            )
            #expect(try await test.store.product(test.serum.id).isArchived)
            #expect(try await test.store.countSales(SaleQuery()) == 1)
            let entry = try await client.execute(
                uri: "/",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            )
            #expect(!entry.text.contains("name=\"product\" value=\"\(test.serum.id)\""))  // not offered for a new sale
            let restored = try await client.execute(
                uri: "/book/products/\(test.serum.id)",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "action": "restore"])
            )
            #expect(restored.status == .seeOther)
            #expect(try await test.store.product(test.serum.id).isArchived == false)
            // A product's new price; past sales keep theirs.
            _ = try await client.execute(
                uri: "/book/products/\(test.serum.id)",
                method: .post,
                headers: headers,
                body: form(
                    [
                        "csrf": csrf, "action": "save", "name": "Serum 30ml", "sku": "", "price": "60.00",
                        "cost": "20.00",
                    ])
            )
            #expect(try await test.store.product(test.serum.id).unitPrice == Money(minorUnits: 6000))
            #expect(try await test.store.product(test.serum.id).sku == nil)

            // Terms: 40% → 45%, and the page says what was recomputed.
            let changed = try await client.execute(
                uri: "/book/terms/\(terms.id)",
                method: .post,
                headers: headers,
                body: form(
                    ["csrf": csrf, "action": "save", "share": "45", "basis": "profit", "from": "2020-01-01"])
            )
            let location = try #require(changed.headers[.location])
            #expect(location == "/book?kind=terms&changed=\(terms.id)&how=save&recomputed=1&closed=0#terms")
            let said = try await client.execute(
                uri: location,
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            )
            #expect(
                said.text.contains(
                    "Saved Glow Aesthetics&#39;s terms: 45% of profit from 01/01/2020. 1 sale recomputed."
                ),
                "\(said.text)"
            )
            // Archiving the only terms would leave the sale with none: refused on the page.
            let orphan = try await client.execute(
                uri: "/book/terms/\(terms.id)",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf, "action": "archive"])
            )
            #expect(orphan.status.code >= 400 && orphan.status.code < 500 && orphan.text.contains("id=\"item-form\""))
            #expect(
                try await client.execute(
                    uri: "/book/pets/1",
                    method: .get,
                    headers: [.cookie: "commission_session=\(session)"]
                ).status == .notFound
            )
        }
        #expect(try await test.store.sales(SaleQuery()).map(\.figures.commission) == [Money(minorUnits: 1350)])
    }

    @Test("A period is closed and reopened from the clinic's page of periods") func closeAndReopenPeriod() async throws
    {
        let test = try await TestApp()
        _ = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: try Day(parsing: "2026-03-02")),
            idempotencyKey: nil
        )
        let march = PaySchedule.monthly.period(containing: try Day(parsing: "2026-03-02"))
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            // A tap from Payouts: the clinic's every period, each to close or reopen.
            let payouts = try await client.execute(
                uri: "/payouts",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            )
            #expect(
                payouts.text.contains(
                    "class=\"every-periods\" href=\"/payouts/clinics/\(test.glow.id)\">"
                )
            )
            let page = try await client.execute(
                uri: "/payouts/clinics/\(test.glow.id)",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            )
            #expect(page.text.contains("value=\"2026-03-01\"") && page.text.contains("value=\"close\""))
            let closed = try await client.execute(
                uri: "/periods",
                method: .post,
                headers: Self.headers(session),
                body: form(["csrf": csrf, "clinic": "\(test.glow.id)", "start": "2026-03-01", "action": "close"])
            )
            // Back among the clinic's periods, the one closed to reopen.
            #expect(
                closed.status == .ok && closed.text.contains("Closed Glow") && closed.text.contains("value=\"reopen\"")
                    && closed.text.contains("id=\"clinic-periods\"")
            )
            #expect(try await test.store.statement(clinic: test.glow.id, period: march).isClosed)
            let reopened = try await client.execute(
                uri: "/periods",
                method: .post,
                headers: Self.headers(session),
                body: form(["csrf": csrf, "clinic": "\(test.glow.id)", "start": "2026-03-01", "action": "reopen"])
            )
            #expect(reopened.status == .ok && reopened.text.contains("Reopened Glow"))
            let bad = try await client.execute(
                uri: "/periods",
                method: .post,
                headers: Self.headers(session),
                body: form(["csrf": csrf, "clinic": "\(test.glow.id)", "start": "March", "action": "close"])
            )
            // Refused where she asked: among the clinic's periods, the sentence first.
            #expect(bad.status.code == 422 && bad.text.contains("id=\"clinic-periods\""), "\(bad.text)")
            #expect(bad.text.contains("not a date"))
        }
        #expect(try await test.store.statement(clinic: test.glow.id, period: march).isClosed == false)
    }

    /// A multipart upload as a browser sends the restore form: the CSRF field, then the file.
    static func upload(
        csrf: String,
        file: [UInt8],
        boundary: String = "----commission-test"
    ) -> (HTTPFields, ByteBuffer) {
        var body = ByteBuffer()
        body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(csrf)\r\n")
        body.writeString(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"backup\"; filename=\"book.sqlite\"\r\n"
        )
        body.writeString("Content-Type: application/octet-stream\r\n\r\n")
        body.writeBytes(file)
        body.writeString("\r\n--\(boundary)--\r\n")
        return ([.contentType: "multipart/form-data; boundary=\(boundary)"], body)
    }

    @Test(arguments: ["SQLite backup", "book archive"])
    func anOwnerRestoresABackupAfterSeeingWhatItReplaces(kind: String) async throws {
        let test = try await TestApp()
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "commission-restore-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let day = try Day(parsing: "2026-03-02")
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            _ = try await test.store.createSale(
                SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: day),
                idempotencyKey: nil
            )
            let path = directory.appendingPathComponent("backup").path
            if kind == "SQLite backup" {
                try await test.store.backup(to: path)
            } else {
                // The archive the transfer page downloads.
                let download = try await client.execute(
                    uri: "/export/backup.jsonl",
                    method: .get,
                    headers: [.cookie: "commission_session=\(session)"]
                )
                #expect(download.status == .ok && download.headers[.contentType] == "application/jsonl")
                try Data(buffer: download.body).write(to: URL(fileURLWithPath: path))
                #expect(ArchiveFile.isArchive(atPath: path))
            }
            // Work goes on after the backup.
            _ = try await test.store.createSale(
                SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: day),
                idempotencyKey: nil
            )
            let file = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            var cookie: HTTPFields = [.cookie: "commission_session=\(session)"]

            let transfer = try await client.execute(uri: "/transfer", method: .get, headers: cookie)
            #expect(
                transfer.text.contains("id=\"restore-form\"")
                    && transfer.text.contains("enctype=\"multipart/form-data\"")
            )
            // Her real terms import and export as files of their own.
            #expect(
                transfer.text.contains("<option value=\"deductions\">Deductions</option>")
                    && transfer.text.contains("<option value=\"schedules\">Pay schedule changes</option>"),
                "\(transfer.text)"
            )
            // One Export control: what, and as what; every kind is offered once.
            #expect(
                Set(ExportKind.shownOrder) == Set(ExportKind.allCases)
                    && ExportKind.shownOrder.count == ExportKind.allCases.count
            )
            let chosen = try await client.execute(
                uri: "/export?what=schedules&format=csv",
                method: .get,
                headers: cookie
            )
            #expect(
                chosen.status == .ok && chosen.headers[.contentType]?.hasPrefix("text/csv") == true
                    && chosen.headers[.contentDisposition]?.contains("schedules.csv") == true,
                "\(chosen.headers)"
            )
            let json = try await client.execute(uri: "/export?what=sales&format=json", method: .get, headers: cookie)
            #expect(json.status == .ok && json.headers[.contentType]?.hasPrefix("application/json") == true)
            for (query, said) in [
                ("what=everything&format=csv", "Choose what to export: Sales, Payouts"),
                ("what=sales&format=xml", "Choose CSV or JSON."),
            ] {
                let refused = try await client.execute(uri: "/export?\(query)", method: .get, headers: cookie)
                #expect(refused.status == .badRequest && refused.text.contains(said), "\(refused.text)")
            }

            // A forged upload (no matching CSRF part) is refused before the file is kept.
            var (headers, body) = Self.upload(csrf: "forged", file: file)
            headers[.cookie] = "commission_session=\(session)"
            #expect(
                try await client.execute(uri: "/transfer/restore", method: .post, headers: headers, body: body).status
                    == .forbidden
            )
            // A file that is no backup is refused with the reason.
            (headers, body) = Self.upload(csrf: csrf, file: Array("not a backup".utf8))
            headers[.cookie] = "commission_session=\(session)"
            let junk = try await client.execute(uri: "/transfer/restore", method: .post, headers: headers, body: body)
            #expect(junk.status.code == 422 && junk.text.contains("The backup was not restored"), "\(junk.text)")

            // The real one: the page says what it holds and what it replaces; nothing has changed yet.
            (headers, body) = Self.upload(csrf: csrf, file: file)
            headers[.cookie] = "commission_session=\(session)"
            let staged = try await client.execute(uri: "/transfer/restore", method: .post, headers: headers, body: body)
            #expect(staged.status == .ok, "\(staged.text)")
            #expect(
                staged.text.contains("<td>Sales</td><td class=\"num\">2</td><td class=\"num\">1</td>"),
                "\(staged.text)"
            )
            #expect(try await test.store.countSales(SaleQuery()) == 2)
            let token = try #require(staged.text.firstMatch(of: /name="token" value="([0-9a-f]{64})"/)?.1)

            // Confirmed: the book is the backup's, and everyone signs in again.
            cookie[.contentType] = "application/x-www-form-urlencoded"
            let confirmed = try await client.execute(
                uri: "/transfer/restore/confirm",
                method: .post,
                headers: cookie,
                body: form(["csrf": csrf, "token": String(token), "action": "restore"])
            )
            #expect(confirmed.status == .seeOther && confirmed.headers[.location] == "/login?restored=1")
            #expect(try await test.store.countSales(SaleQuery()) == 1)
            let login = try await client.execute(uri: "/login?restored=1", method: .get)
            #expect(login.text.contains("The book was restored from a backup"))
            // The token works once.
            let again = try await client.execute(
                uri: "/transfer/restore/confirm",
                method: .post,
                headers: cookie,
                body: form(["csrf": csrf, "token": String(token), "action": "restore"])
            )
            #expect(again.headers[.location] != "/login?restored=1")
        }
        #expect(try await test.store.credentials(username: "ana") != nil)
    }

    @Test("Only an owner restores, and a cancelled restore changes nothing") func onlyOwnerRestores() async throws {
        let test = try await TestApp()
        let path = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "commission-restore-\(UUID().uuidString).sqlite"
        ).path
        try await test.app.test(.router) { client in
            let owner = try await signUp(client)
            try await test.store.backup(to: path)
            _ = try await test.store.createSale(
                SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: try Day(parsing: "2026-03-02")),
                idempotencyKey: nil
            )
            let file = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            var (headers, body) = Self.upload(csrf: owner.csrf, file: file)
            headers[.cookie] = "commission_session=\(owner.cookie)"
            let staged = try await client.execute(uri: "/transfer/restore", method: .post, headers: headers, body: body)
            let token = try #require(staged.text.firstMatch(of: /name="token" value="([0-9a-f]{64})"/)?.1)
            let cancelled = try await client.execute(
                uri: "/transfer/restore/confirm",
                method: .post,
                headers: Self.headers(owner.cookie),
                body: form(["csrf": owner.csrf, "token": String(token), "action": "cancel"])
            )
            #expect(cancelled.status == .ok && cancelled.text.contains("Nothing was restored."))
            #expect(try await test.store.countSales(SaleQuery()) == 1)

            // A member sees no restore form and is refused one.
            let created = try await client.execute(
                uri: "/settings/invitations",
                method: .post,
                headers: Self.headers(owner.cookie),
                body: form(["csrf": owner.csrf, "role": "member"])
            )
            let link = try #require(
                created.text.firstMatch(of: /id="new-invitation">http:\/\/[^<]*(\/invite\/[0-9a-f]{64})</)?.1
            )
            let member = try await accept(client, path: String(link), username: "bea")
            let page = try await client.execute(
                uri: "/transfer",
                method: .get,
                headers: [.cookie: "commission_session=\(member)"]
            )
            #expect(page.status == .ok && !page.text.contains("id=\"restore-form\""))
            let memberCSRF = try #require(csrfField(page.text))
            (headers, body) = Self.upload(csrf: memberCSRF, file: file)
            headers[.cookie] = "commission_session=\(member)"
            #expect(
                try await client.execute(uri: "/transfer/restore", method: .post, headers: headers, body: body).status
                    == .forbidden
            )
        }
        #expect(try await test.store.countSales(SaleQuery()) == 1)
    }
}
