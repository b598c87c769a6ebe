import CommissionCore
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// No false alarm on her first day: the history she brings in is asked about once ("Were these
/// paid?"), and until she answers its unpaid periods are Unconfirmed, never Overdue.
@Suite struct HistoryQuestionTests {
    /// Her history: three months of Glow's sales before she set the book up, nothing paid.
    static func history(_ store: SQLiteStore, glow: Clinic, serum: Product) async throws -> Day {
        let today = try await store.settings().today()
        for months in 1...3 {
            _ = try await store.createSale(
                SaleDraft(
                    clinicID: glow.id,
                    productID: serum.id,
                    date: today.firstOfMonth.adding(days: -1).firstOfMonth.adding(days: -31 * (months - 1)),
                    quantity: 2
                ),
                idempotencyKey: nil
            )
        }
        return today
    }

    @Test func herHistoryIsUnconfirmedUntilSheSaysItWasPaid() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let owner = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(owner.cookie)"
            let today = try await Self.history(test.store, glow: test.glow, serum: test.serum)
            #expect(try await test.store.historyQuestion() == today)

            let dashboard = try await client.execute(uri: "/dashboard", method: .get, headers: headers).text
            #expect(
                dashboard.contains("id=\"history-question\"") && dashboard.contains("Were they paid?"),
                "\(dashboard)"
            )
            #expect(dashboard.contains(">Unconfirmed</span>") && !dashboard.contains(">Overdue</span>"), "\(dashboard)")
            let payouts = try await client.execute(uri: "/payouts", method: .get, headers: headers).text
            #expect(payouts.contains("id=\"history-question\"") && payouts.contains(">Unconfirmed</span>"))
            #expect(!payouts.contains(">Overdue</span>"))

            // "Yes": every unpaid period of her history marked paid, in one step.
            let answered = try await client.execute(
                uri: "/history",
                method: .post,
                headers: headers,
                body: form([
                    "csrf": owner.csrf, "back": "dashboard", "action": "paid",
                    "through": today.adding(days: -1).description,
                ])
            )
            #expect(answered.status == .ok)
            #expect(
                answered.text.contains("Marked 3 periods paid ($72.00, “Paid before Commission”)"),
                "\(answered.text)"
            )
            #expect(
                !answered.text.contains("id=\"history-question\"") && !answered.text.contains(">Unconfirmed</span>")
            )
        }
        #expect(try await test.store.historyQuestion() == nil)
        let payouts = try await test.store.payouts(PayoutQuery())
        #expect(payouts.count == 3 && payouts.allSatisfy { $0.reference == UnconfirmedHistory.reference })
        #expect(
            try await test.store.dashboard(today: try await test.store.settings().today()).clinics[0].arrears.owed
                .isZero
        )
    }

    /// A book made without the first visit's question (`commission init`, a restore) asks it when
    /// an import brings in its first sales — her history, up to the day after its last sale; an
    /// import into a book that already has sales asks nothing, so her weekly sheet never turns a
    /// late clinic quiet.
    @Test func theFirstImportIntoABookAsksAboutItsHistory() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let owner = try await signUp(client)
            try await test.store.setHistoryQuestion(nil)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(owner.cookie)"
            let today = try await test.store.settings().today()
            let last = today.firstOfMonth.adding(days: -1).firstOfMonth
            let first = last.adding(days: -31)
            func csv(_ days: [Day]) -> String {
                "date,clinic,product,quantity\n" + days.map { "\($0),Glow,Serum 30ml,2\n" }.joined()
            }
            let imported = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": owner.csrf, "csv": csv([first, last]), "action": "commit"])
            )
            #expect(imported.text.contains("Imported 2 sales rows."), "\(imported.text)")
            #expect(try await test.store.historyQuestion() == last.adding(days: 1))
            let dashboard = try await client.execute(uri: "/dashboard", method: .get, headers: headers).text
            #expect(dashboard.contains("id=\"history-question\"") && !dashboard.contains(">Overdue</span>"))

            // She says she will record them; the next file asks nothing again.
            _ = try await client.execute(
                uri: "/history",
                method: .post,
                headers: headers,
                body: form(["csrf": owner.csrf, "back": "dashboard", "action": "record"])
            )
            #expect(try await test.store.historyQuestion() == nil)
            let again = try await client.execute(
                uri: "/import",
                method: .post,
                headers: headers,
                body: form(["csrf": owner.csrf, "csv": csv([first.adding(days: 1)]), "action": "commit"])
            )
            #expect(again.text.contains("Imported 1 sales row."), "\(again.text)")
            #expect(try await test.store.historyQuestion() == nil)
        }
    }

    /// The same money says the same word everywhere: a period of her history that ended days
    /// before she began (not yet past the clinic's usual day) is Unconfirmed on its row, on its
    /// clinic's card and in the question's total — never Due beside an Unconfirmed row — and the
    /// API's overdue leaves her history out, saying it apart; a payment for one period moves no
    /// other from one word to another.
    @Test func herHistorysFiguresAgreeOnTheCardTheRowsTheQuestionAndTheAPI() async throws {
        let test = try await TestApp()
        let weekly = try await test.store.createClinic(
            ClinicDraft(name: "Weekly", schedule: .weekly(startingOn: .monday))
        )
        _ = try await test.store.createTerms(
            TermsDraft(
                clinicID: weekly.id,
                share: try Share(parsing: "40"),
                effectiveFrom: try Day(parsing: "2020-01-01")
            )
        )
        try await test.app.test(.router) { client in
            let owner = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(owner.cookie)"
            let today = try await test.store.settings().today()
            // Last week ended one to seven days ago (Due, were it not her history); the other long past.
            let lastWeek = weekly.calendar.period(containing: today).start.adding(days: -1)
            let longAgo = weekly.calendar.period(containing: today.adding(days: -60))
            for (date, quantity) in [(lastWeek, Int64(2)), (longAgo.start, 1)] {
                _ = try await test.store.createSale(
                    SaleDraft(clinicID: weekly.id, productID: test.serum.id, date: date, quantity: quantity),
                    idempotencyKey: nil
                )
            }
            func card(_ page: String) throws -> Substring {
                let start = try #require(page.range(of: "Weekly")).lowerBound
                return page[start...].prefix(1500)
            }
            let dashboard = try await client.execute(uri: "/dashboard", method: .get, headers: headers).text
            #expect(dashboard.contains("with $36.00 unpaid in your book"), "\(dashboard)")
            let weeklyCard = try card(dashboard)
            #expect(weeklyCard.contains(">Unconfirmed</span> <span class=\"amount\">$36.00</span>"), "\(weeklyCard)")
            #expect(!dashboard.contains(">Due</span>") && !dashboard.contains(">Overdue</span>"), "\(dashboard)")

            _ = try await test.store.createToken(
                account: try #require(try await test.store.credentials(username: "ana")).account.id,
                name: "t",
                tokenDigest: WebSecrets.digest("cm_history"),
                now: Date()
            )
            let api = try await client.execute(
                uri: "/api/v1/dashboard",
                method: .get,
                headers: [.authorization: "Bearer cm_history"]
            )
            let clinics = try #require(try api.json()["clinics"] as? [[String: Any]])
            let inAPI = try #require(clinics.first { $0["name"] as? String == "Weekly" })
            #expect(inAPI["overdue"] as? String == "0.00" && inAPI["unconfirmed"] as? String == "36.00", "\(inAPI)")
            #expect(inAPI["owed"] as? String == "36.00")

            // Paid the old week: last week is still Unconfirmed, on its card as on its row.
            _ = try await test.store.createPayout(
                PayoutDraft(clinicID: weekly.id, period: longAgo, amount: Money(minorUnits: 1200), receivedOn: today)
            )
            let after = try await client.execute(uri: "/dashboard", method: .get, headers: headers).text
            #expect(after.contains("with $24.00 unpaid in your book"), "\(after)")
            #expect(try card(after).contains(">Unconfirmed</span> <span class=\"amount\">$24.00</span>"))
            #expect(!after.contains(">Due</span>") && !after.contains(">Overdue</span>"))
            let payouts = try await client.execute(uri: "/payouts", method: .get, headers: headers).text
            #expect(!payouts.contains(">Due</span>") && !payouts.contains(">Overdue</span>"), "\(payouts)")
        }
    }

    /// Marked paid up to a day: what becomes of the later periods is said, not left to be found.
    @Test func paidUpToADaySaysWhatBecomesOfTheLaterPeriods() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let owner = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(owner.cookie)"
            _ = try await Self.history(test.store, glow: test.glow, serum: test.serum)
            let oldest = try #require(try await test.store.sales(SaleQuery()).map(\.date).min())
            let through = test.glow.calendar.period(containing: oldest).end
            let answered = try await client.execute(
                uri: "/history",
                method: .post,
                headers: headers,
                body: form(["csrf": owner.csrf, "back": "payouts", "action": "paid", "through": through.description])
            )
            #expect(answered.status == .ok)
            #expect(
                answered.text.contains("Marked 1 period paid ($24.00")
                    && answered.text.contains(
                        "The 2 later periods of your history ($48.00) now count as usual: past its usual day, a period unpaid shows as Overdue"
                    ),
                "\(answered.text)"
            )
        }
    }

    @Test func whenSheWillRecordThemTheyAreOverdueAsTheRulesSay() async throws {
        let test = try await TestApp()
        try await test.app.test(.router) { client in
            let owner = try await signUp(client)
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(owner.cookie)"
            _ = try await Self.history(test.store, glow: test.glow, serum: test.serum)
            let answered = try await client.execute(
                uri: "/history",
                method: .post,
                headers: headers,
                body: form(["csrf": owner.csrf, "back": "payouts", "action": "later"])
            )
            #expect(answered.status == .ok && answered.text.contains("now shows as Overdue"), "\(answered.text)")
            #expect(answered.text.contains(">Overdue</span>") && !answered.text.contains(">Unconfirmed</span>"))
            #expect(!answered.text.contains("id=\"history-question\""))
        }
        #expect(try await test.store.payouts(PayoutQuery()).isEmpty)
    }

    /// A book that was not set up through her first visit (the sample, a test) asks nothing.
    @Test func aBookWithoutTheQuestionShowsWhatTheRulesSay() async throws {
        let test = try await TestApp()
        _ = try await Self.history(test.store, glow: test.glow, serum: test.serum)
        let today = try await test.store.settings().today()
        let dashboard = try await test.store.dashboard(today: today)
        #expect(try await test.store.historyQuestion() == nil)
        #expect(dashboard.clinics[0].arrears.overdue.isPositive)
    }
}
