import CommissionCore
import CommissionPostgres
import CommissionStore
import Foundation
import Testing

/// New sales are written side by side (a shared lock of the book); every other write alone.
@Suite struct PostgresWritersTests {
    /// Sales recorded by eight tasks while the period they fall in is closed: each one either
    /// committed before the close (its audit entry comes first) or was refused as closed; none
    /// slipped in after. Audit ids follow the commits, and every acknowledged sale is there once.
    @Test func salesRacingAPeriodCloseLandBeforeItOrAreRefused() async throws {
        let scratch = try await ScratchDatabase.create()
        defer { Task { await scratch.drop() } }
        let database = try await PostgresBookDatabase(url: scratch.url)
        defer { database.shutdown() }
        let store = try await PostgresStore.createBook(
            in: database,
            name: "Race",
            settings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        )
        let glow = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        let serum = try await store.createProduct(
            ProductDraft(name: "Serum", unitPrice: Money(minorUnits: 5000), unitCost: Money(minorUnits: 2000))
        )
        _ = try await store.createTerms(
            TermsDraft(
                clinicID: glow.id,
                share: try Share(parsing: "40"),
                effectiveFrom: try Day(parsing: "2026-01-01")
            )
        )
        let day = try Day(parsing: "2026-03-02")
        let period = glow.calendar.period(containing: day)

        let (made, refused) = try await withThrowingTaskGroup(of: (made: [Sale.ID], refused: Int).self) { group in
            for writer in 0..<8 {
                group.addTask {
                    var made: [Sale.ID] = [], refused = 0
                    for count in 0..<15 {
                        do {
                            made.append(
                                try await store.createSale(
                                    SaleDraft(clinicID: glow.id, productID: serum.id, date: day),
                                    idempotencyKey: "writer-\(writer)-\(count)"
                                ).id
                            )
                        } catch StoreError.periodClosed {
                            refused += 1
                        }
                    }
                    return (made, refused)
                }
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(50))
                try await store.closePeriod(clinic: glow.id, period: period)
                return ([], 0)
            }
            return try await group.reduce(([Sale.ID](), 0)) { ($0.0 + $1.made, $0.1 + $1.refused) }
        }
        #expect(made.count + refused == 8 * 15)
        let log = try await store.auditLog(AuditQuery(page: Page(limit: 1000)))
        guard let close = log.first(where: { $0.subject == .period && $0.action == "close" }) else {
            Issue.record("the period was not closed")
            return
        }
        let created = log.filter { $0.subject == .sale && $0.action == "create" }
        #expect(created.count == made.count)
        #expect(
            created.allSatisfy { $0.id.rawValue < close.id.rawValue },
            "a sale was recorded in the period after it closed"
        )
        #expect(Set(created.compactMap(\.subjectID)) == Set(made.map(\.rawValue)))
        #expect(try await store.countSales(SaleQuery()) == made.count)
        let dashboard = try await store.dashboard(today: day)
        #expect(dashboard.todayTotals.saleCount == made.count)
        #expect(dashboard.todayTotals.revenue == Money(minorUnits: Int64(made.count) * 5000))
    }

    /// Sign-in attempts counted and withdrawn at once on the same names and addresses (a burst
    /// refused at two servers) never wait for each other in a circle: every count and every
    /// withdrawal takes its keys' locks in one order, so PostgreSQL never ends one as a deadlock
    /// (which the attempt would have met as a 503). The rows start in the reverse of that order.
    @Test func signInCountsAndWithdrawalsAtOnceNeverDeadlock() async throws {
        let scratch = try await ScratchDatabase.create()
        defer { Task { await scratch.drop() } }
        let database = try await PostgresBookDatabase(url: scratch.url)
        defer { database.shutdown() }
        let store = try await PostgresStore.createBook(
            in: database,
            name: "Burst",
            settings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC")
        )
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let keys = ["pair:ana|10.9.9.9", "name:ana", "address:10.9.9.9"]
        for key in keys {
            _ = try await store.countSignInAttempt([key], now: now, forgetBefore: now.addingTimeInterval(-3600))
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for round in 0..<10 {
                        // Some bursts name only two of the keys, in another order, as a success's withdrawal does.
                        let some = (task + round) % 3 == 0 ? [keys[2], keys[1]] : keys
                        _ = try await store.countSignInAttempt(
                            some,
                            now: now,
                            forgetBefore: now.addingTimeInterval(-3600)
                        )
                        try await store.withdrawSignInAttempt(some)
                    }
                }
            }
            try await group.waitForAll()
        }
        let counts = try await store.signInFailures(keys)
        #expect(keys.map { counts[$0]?.failures } == [1, 1, 1])
    }
}
