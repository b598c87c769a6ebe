import AsyncHTTPClient
import CommissionCore
import CommissionPostgres
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Inviting people into a book, through the pages and the API (on an SQLite book).
@Suite struct InvitationTests {
    @Test func anOwnerInvitesAMemberByAOneTimeLink() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let owner = try await signUp(client)
            let ownerHeaders: HTTPFields = [
                .cookie: "commission_session=\(owner.cookie)", .contentType: "application/x-www-form-urlencoded",
            ]
            let created = try await client.execute(
                uri: "/settings/invitations",
                method: .post,
                headers: ownerHeaders,
                body: form(["csrf": owner.csrf, "role": "member"])
            )
            #expect(created.status == .ok)
            let link = try #require(
                created.text.firstMatch(of: /id="new-invitation">http:\/\/[^<]*(\/invite\/[0-9a-f]{64})</)?.1
            )
            let path = String(link)

            // Someone without an account opens the link and chooses a name and a password.
            let member = try await accept(client, path: path, username: "bea")
            let home = try await client.execute(
                uri: "/",
                method: .get,
                headers: [.cookie: "commission_session=\(member)"]
            )
            #expect(home.status == .ok && home.text.contains("Save sale"))
            let members = try await test.store.members()
            #expect(members.map(\.account.username) == ["ana", "bea"] && members.map(\.role) == [.owner, .member])

            // The link worked once.
            #expect(try await client.execute(uri: path, method: .get).status == .notFound)
            let again = try await client.execute(
                uri: path,
                method: .post,
                headers: formHeaders,
                body: form(["username": "cy"])
            )
            #expect(again.status == .forbidden || again.status == .notFound)
            #expect(try await test.store.members().count == 2)

            // A member works in the book but neither invites nor changes the settings.
            let memberPage = try await client.execute(
                uri: "/settings",
                method: .get,
                headers: [.cookie: "commission_session=\(member)"]
            )
            #expect(
                memberPage.status == .ok && !memberPage.text.contains("/settings/invitations")
                    && memberPage.text.contains("ana")
            )
            let csrf = try #require(csrfField(memberPage.text))
            let api: HTTPFields = [
                .cookie: "commission_session=\(member)", .csrfToken: csrf, .contentType: "application/json",
            ]
            #expect(
                try await client.execute(
                    uri: "/api/v1/invitations",
                    method: .post,
                    headers: api,
                    body: ByteBuffer(string: "{}")
                ).status == .forbidden
            )
            #expect(
                try await client.execute(
                    uri: "/api/v1/settings",
                    method: .post,
                    headers: api,
                    body: ByteBuffer(string: #"{"timeZone": "Asia/Tokyo"}"#)
                ).status == .forbidden
            )
            #expect(try await test.store.settings().timeZoneIdentifier == "UTC")
            let sale = try await client.execute(
                uri: "/api/v1/sales",
                method: .post,
                headers: api,
                body: ByteBuffer(
                    string:
                        #"{"clinicId": \#(test.glow.id.rawValue), "productId": \#(test.serum.id.rawValue), "quantity": 1}"#
                )
            )
            #expect(sale.status == .created)

            // The API makes links too, for owners: an owner's invitation makes another owner.
            let ownerAPI: HTTPFields = [
                .cookie: "commission_session=\(owner.cookie)", .csrfToken: owner.csrf, .contentType: "application/json",
            ]
            let made = try await client.execute(
                uri: "/api/v1/invitations",
                method: .post,
                headers: ownerAPI,
                body: ByteBuffer(string: #"{"role": "owner"}"#)
            )
            #expect(made.status == .created)
            let json = try made.json()
            let apiPath = try #require(json["path"] as? String)
            #expect((json["url"] as? String)?.hasSuffix(apiPath) == true && json["role"] as? String == "owner")
            #expect(
                try await client.execute(
                    uri: "/api/v1/invitations",
                    method: .post,
                    headers: ownerAPI,
                    body: ByteBuffer(string: #"{"role": "admin"}"#)
                ).status == .badRequest
            )
            _ = try await accept(client, path: apiPath, username: "dee")
            let listed = try await client.execute(uri: "/api/v1/members", method: .get, headers: ownerAPI)
            let roles = try #require(
                try JSONSerialization.jsonObject(with: Data(buffer: listed.body)) as? [[String: Any]]
            )
            #expect(roles.map { "\($0["username"]!):\($0["role"]!)" } == ["ana:owner", "dee:owner", "bea:member"])
        }
    }

    @Test func aWrongOrTakenNameKeepsTheLinkUsable() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            _ = try await signUp(client, username: "ana")
            let owner = try #require(try await test.store.ownerAccount())
            let secret = String(repeating: "ab", count: 32)
            try await test.store.createInvitation(
                tokenDigest: WebSecrets.digest(secret),
                role: .member,
                invitedBy: owner.id,
                expiresAt: Date().addingTimeInterval(600)
            )
            let path = WebSecrets.invitationPath + secret
            let page = try await client.execute(uri: path, method: .get)
            #expect(page.status == .ok && page.text.contains("ana invites you"))
            let anonymous = try #require(page.cookies["commission_csrf"])
            var headers = formHeaders
            headers[.cookie] = "commission_csrf=\(anonymous)"
            let taken = try await client.execute(
                uri: path,
                method: .post,
                headers: headers,
                body: form([
                    "csrf": try #require(csrfField(page.text)), "username": "ANA", "password": "long enough password",
                ])
            )
            #expect(taken.status == .unprocessableContent && taken.text.contains("is taken"))
            let short = try await client.execute(
                uri: path,
                method: .post,
                headers: headers,
                body: form(["csrf": try #require(csrfField(page.text)), "username": "bea", "password": "short"])
            )
            #expect(short.status == .unprocessableContent && short.text.contains("at least 10 characters"))
            #expect(try await test.store.members().count == 1)
            _ = try await accept(client, path: path, username: "bea")
            #expect(try await test.store.members().count == 2)
        }
    }
}

/// Opens an invitation link, creates the account, and returns its session cookie.
func accept(
    _ client: some TestClientProtocol,
    path: String,
    username: String,
    password: String = "a long enough password"
) async throws -> String {
    let page = try await client.execute(uri: path, method: .get)
    #expect(page.status == .ok, "\(page.text)")
    let anonymous = try #require(page.cookies["commission_csrf"])
    var headers = formHeaders
    headers[.cookie] = "commission_csrf=\(anonymous)"
    let accepted = try await client.execute(
        uri: path,
        method: .post,
        headers: headers,
        body: form(["csrf": try #require(csrfField(page.text)), "username": username, "password": password])
    )
    #expect(accepted.status == .seeOther, "\(accepted.text)")
    return try #require(accepted.cookies["commission_session"])
}

extension HTTPField.Name {
    static let csrfToken = Self("X-CSRF-Token")!
}

/// The audit log in the app: each sale's history on its page and in the API, and the whole log as an export.
@Suite struct AuditWebTests {
    @Test func aSalesHistoryShowsWhoChangedWhatAndTheLogExports() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let ana = try await signUp(client, username: "ana")
            let api: HTTPFields = [
                .cookie: "commission_session=\(ana.cookie)", .csrfToken: ana.csrf, .contentType: "application/json",
            ]
            let created = try await client.execute(
                uri: "/api/v1/sales",
                method: .post,
                headers: api,
                body: ByteBuffer(
                    string:
                        #"{"clinicId": \#(test.glow.id.rawValue), "productId": \#(test.serum.id.rawValue), "quantity": 1, "date": "2026-03-02"}"#
                )
            )
            let id = try #require(try created.json()["id"] as? Int)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(ana.cookie)"
            let edited = try await client.execute(
                uri: "/sales/\(id)",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": ana.csrf, "clinic": "\(test.glow.id.rawValue)", "product": "\(test.serum.id.rawValue)",
                    "date": "2026-03-02",
                    "quantity": "2", "price": "45.00", "cost": "20.00",
                ])
            )
            #expect(edited.status == .seeOther, "\(edited.text)")

            let page = try await client.execute(
                uri: "/sales/\(id)/edit",
                method: .get,
                headers: [.cookie: "commission_session=\(ana.cookie)"]
            )
            let history = try #require(page.text.firstMatch(of: /<ol id="history"[^>]*>(.*?)<\/ol>/)?.1)
            let items = history.components(separatedBy: "<li>").dropFirst()
            #expect(items.count == 2)
            // Newest first: the edit (by her, "you" to her), then the creation (through the API, by the same account).
            #expect(
                page.text.contains("<h1>2 × Serum 30ml</h1>") && page.text.contains("Glow · Mon 03/02/2026"),
                "\(page.text)"
            )
            #expect(items.first?.contains("you</span> <strong>update</strong>") == true, "\(history)")
            #expect(
                items.first?.contains("quantity 1 → 2") == true
                    && items.first?.contains("unit price 50.00 → 45.00") == true,
                "\(history)"
            )
            #expect(items.last?.contains("<strong>create</strong>") == true, "\(history)")

            let json = try await client.execute(uri: "/api/v1/sales/\(id)/history", method: .get, headers: api)
            let entries = try #require(
                try JSONSerialization.jsonObject(with: Data(buffer: json.body)) as? [[String: Any]]
            )
            #expect(entries.map { $0["action"] as? String } == ["update", "create"])
            #expect(entries.map { $0["actor"] as? String } == ["ana", "ana"])

            let export = try await client.execute(
                uri: "/export/audit.csv",
                method: .get,
                headers: [.cookie: "commission_session=\(ana.cookie)"]
            )
            #expect(export.status == .ok)
            let lines = export.text.split(whereSeparator: \.isNewline)
            #expect(lines.first == "id,at,actor,subject,record,action,before,after")
            // Oldest first: the book's clinics, products and terms (set up without an account:
            // "system"), then the sale's two changes.
            let setUp = lines.dropFirst().prefix { $0.contains(",system,clinic,") || $0.contains(",system,product,") }
            let rest = Array(lines.dropFirst(1 + setUp.count))
            #expect(
                !setUp.isEmpty && rest.count == 3 && rest[0].contains(",system,terms,")
                    && rest[1].contains(",ana,sale,\(id),create,")
                    && rest[2].contains(",ana,sale,\(id),update,"),
                "\(export.text)"
            )
            // A sale the command line recorded says so in words, not as its actor's code.
            let fromTerminal = try await Audit.$actor.withValue("cli:root") {
                try await test.store.createSale(
                    SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: try Day(parsing: "2026-03-03")),
                    idempotencyKey: nil
                )
            }
            let terminalPage = try await client.execute(
                uri: "/sales/\(fromTerminal.id)/edit",
                method: .get,
                headers: [.cookie: "commission_session=\(ana.cookie)"]
            ).text
            #expect(
                terminalPage.contains("from the command line</span> <strong>create</strong>")
                    && !terminalPage.contains("cli:root"),
                "\(terminalPage)"
            )
        }
    }
}
