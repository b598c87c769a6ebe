import CommissionCore
import CommissionPostgres
import CommissionStore
import Foundation
import Testing

/// The dashboard is one statement, its clinics' periods worked out from the inputs the book's last
/// dashboard read; the statement's own row of inputs says whether they still hold.
@Suite struct PostgresDashboardTests {
    /// Two servers on one book: what the second changes (a clinic's name and schedule, a payout,
    /// the book's rounding) the first's next dashboard shows, exactly as a store that never read
    /// a dashboard before sees it. Without the check of the inputs, the first server would keep
    /// the old name and work out the old schedule's period.
    @Test func aDashboardFollowsWhatAnotherServerChanged() async throws {
        let scratch = try await ScratchDatabase.create()
        defer { Task { await scratch.drop() } }
        let first = try await PostgresBookDatabase(url: scratch.url),
            second = try await PostgresBookDatabase(url: scratch.url)
        defer {
            first.shutdown()
            second.shutdown()
        }
        let store = try await PostgresStore.createBook(
            in: first,
            name: "Two servers",
            settings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        )
        let other = try await PostgresStore(database: second, book: store.book)
        func fresh() async throws -> PostgresStore { try await PostgresStore(database: second, book: store.book) }

        var glow = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        let serum = try await store.createProduct(
            ProductDraft(name: "Serum", unitPrice: Money(minorUnits: 5001), unitCost: Money(minorUnits: 2000))
        )
        _ = try await store.createTerms(
            TermsDraft(
                clinicID: glow.id,
                share: try Share(parsing: "33.33"),
                effectiveFrom: try Day(parsing: "2026-01-01")
            )
        )
        for date in ["2026-10-20", "2026-11-02", "2026-11-20"] {
            _ = try await store.createSale(
                SaleDraft(clinicID: glow.id, productID: serum.id, date: try Day(parsing: date)),
                idempotencyKey: nil
            )
        }
        let today = try Day(parsing: "2026-11-25")
        #expect(try await store.dashboard(today: today).clinics.map(\.clinic.name) == ["Glow"])

        glow.name = "Glow Spa"
        glow = try await other.updateClinic(glow)
        #expect(try await store.dashboard(today: today).clinics.map(\.clinic.name) == ["Glow Spa"])
        #expect(try await store.dashboard(today: today) == fresh().dashboard(today: today))

        glow.schedule = .semimonthly
        glow = try await other.updateClinic(glow)
        let standing = try #require(try await store.dashboard(today: today).clinics.first)
        #expect(standing.period == PaySchedule.semimonthly.period(containing: today))
        #expect(standing.periodTotals.saleCount == 1)
        #expect(try await store.dashboard(today: today) == fresh().dashboard(today: today))

        let october = PaySchedule.semimonthly.period(containing: try Day(parsing: "2026-10-20"))
        _ = try await other.createPayout(
            PayoutDraft(
                clinicID: glow.id,
                period: october,
                amount: Money(minorUnits: 1000),
                receivedOn: try Day(parsing: "2026-11-10")
            )
        )
        #expect(try await store.dashboard(today: today).clinics.first?.arrears.dueAfterDays == 10)
        #expect(try await store.dashboard(today: today) == fresh().dashboard(today: today))

        var settings = try await other.settings()
        settings.rounding = RoundingPolicy(rule: .halfAwayFromZero, scope: .perStatement)
        try await other.updateSettings(settings)
        #expect(try await store.dashboard(today: today) == fresh().dashboard(today: today))
    }
}
