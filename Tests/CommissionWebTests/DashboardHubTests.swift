import CommissionCore
import CommissionSQLite
import CommissionStore
@testable import CommissionWeb
import Foundation
import Testing

@Suite struct DashboardHubTests {
    @Test func oneChangeReachesEveryStream() async throws {
        let test = try await TestApp()
        let hub = DashboardHub(store: test.store)
        let streams = (0..<100).map { _ in hub.subscribe() }
        #expect(hub.subscriberCount == 100)
        let today = try await test.store.settings().today()
        // Each stream first gets the dashboard as it is, then the one after the sale: 2 × 30.00 × 40% = 24.00 today.
        _ = try await test.store.createSale(SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: today, quantity: 2), idempotencyKey: nil)
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for stream in streams {
                group.addTask {
                    for await event in stream where event.contains(#""todayTotals":{"commission":"24.00""#) { return true }
                    return false
                }
            }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                throw CancellationError()
            }
            var received = 0
            while received < streams.count, let got = try await group.next() {
                #expect(got)
                received += 1
            }
            group.cancelAll()
            #expect(received == streams.count)
        }
    }

    @Test func streamsThatEndLeaveTheHub() async throws {
        let test = try await TestApp()
        let hub = DashboardHub(store: test.store)
        do {
            var iterator = hub.subscribe().makeAsyncIterator()
            _ = await iterator.next()
            #expect(hub.subscriberCount == 1)
        }
        // The stream is gone with its last reference.
        #expect(hub.subscriberCount == 0)
    }
}
