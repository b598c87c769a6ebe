import CommissionCore
import CommissionStore
import Foundation
import Testing

/// The question about her history, kept by every store that keeps a book: open on a day, closed;
/// what is unconfirmed of it, and the payouts that mark it paid.
@Suite struct HistoryQuestionStoreTests {
    @Test(arguments: StoreKind.local)
    func theQuestionIsKeptAndItsPayoutsMarkHerHistoryPaid(_ kind: StoreKind) async throws {
        let store = try await kind.makeStore()
        let question = try #require(store as? any HistoryQuestionStore)
        #expect(try await question.historyQuestion() == nil)
        let glow = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        let serum = try await store.createProduct(
            ProductDraft(name: "Serum", unitPrice: cents(5000), unitCost: cents(2000))
        )
        _ = try await store.createTerms(
            TermsDraft(clinicID: glow.id, share: share("40"), effectiveFrom: day("2026-01-01"))
        )
        // Two months of history, one paid in part, then the book set up on 2026-11-10.
        for date in ["2026-09-03", "2026-10-07", "2026-11-04"] {
            _ = try await store.createSale(
                SaleDraft(clinicID: glow.id, productID: serum.id, date: day(date), quantity: 2),
                idempotencyKey: nil
            )
        }
        let september = PayPeriod(start: day("2026-09-01"), end: day("2026-09-30"))
        _ = try await store.createPayout(
            PayoutDraft(clinicID: glow.id, period: september, amount: cents(1000), receivedOn: day("2026-10-10"))
        )
        try await question.setHistoryQuestion(day("2026-11-10"))
        #expect(try await question.historyQuestion() == day("2026-11-10"))

        let today = day("2026-12-20")
        let dashboard = try await store.dashboard(today: today)
        let history = try await UnconfirmedHistory.read(
            from: store,
            before: day("2026-11-10"),
            today: today,
            standings: dashboard.clinics
        )
        // September lacks 24.00 − 10.00, October 24.00: November began after the set-up.
        #expect(history.periods[glow.id]?.map(\.period.start) == [day("2026-09-01"), day("2026-10-01")])
        #expect(try history.amount(for: glow.id) == cents(3800))
        let payouts = history.payouts(through: day("2026-09-30"), today: today)
        #expect(payouts.map(\.amount) == [cents(1400)] && payouts[0].receivedOn == day("2026-10-14"))
        _ = try await store.apply(payouts.map { .createPayout($0) })
        try await question.setHistoryQuestion(nil)
        #expect(try await question.historyQuestion() == nil)
        let after = try await store.reconciliation(clinic: glow.id, today: today)
        #expect(after.periods.first?.difference == .zero && after.balance == cents(4800))
    }
}
