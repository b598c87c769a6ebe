import CommissionCore
import CommissionSQLite
import CommissionStore
@testable import CommissionWeb
import Foundation
import Testing

@Suite struct LiveHubTests {
    static func headlineHub(_ test: TestApp) -> LiveHub<HeadlineRequest> {
        LiveHub(store: test.store, request: HeadlineRequest()) { LiveEvent.headline($0) }
    }

    @Test func oneChangeReachesEveryStream() async throws {
        let test = try await TestApp()
        let hub = Self.headlineHub(test)
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
        let hub = Self.headlineHub(test)
        do {
            var iterator = hub.subscribe().makeAsyncIterator()
            _ = await iterator.next()
            #expect(hub.subscriberCount == 1)
        }
        // The stream is gone with its last reference.
        #expect(hub.subscriberCount == 0)
    }

    /// Twenty open dashboard pages and one sale: one render, the same numbered event to every page,
    /// carrying the page's new body (nothing for a page to fetch).
    @Test func twentyPagesGetOneRenderOfTheNewBody() async throws {
        let test = try await TestApp()
        let pages = Pages.shared
        let hub = LiveHub(store: test.store, request: DashboardPageRequest()) { LiveEvent.body(DashboardJob.body($0, pages: pages)) }
        var iterators = (0..<20).map { _ in hub.subscribe().makeAsyncIterator() }
        for index in iterators.indices {
            let first = await iterators[index].next()
            #expect(first?.hasPrefix("id: 1\nevent: body\ndata: ") == true)
        }
        #expect(hub.renderCount == 1)
        let today = try await test.store.settings().today()
        // 2 × 30.00 × 40% = 24.00 today.
        _ = try await test.store.createSale(SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: today, quantity: 2), idempotencyKey: nil)
        var events = Set<String>()
        for index in iterators.indices {
            let event = try #require(await iterators[index].next())
            #expect(event.contains("id=\"today-commission\"") && event.contains("$24.00"), "\(event.prefix(400))")
            events.insert(event)
        }
        #expect(events.count == 1 && events.first?.hasPrefix("id: 2\n") == true)
        #expect(hub.renderCount == 2)
        // Every line of the body is a data line: an HTML line never ends the event early.
        let lines = try #require(events.first).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.dropFirst(2).dropLast(2).allSatisfy { $0.hasPrefix("data: ") } && lines.suffix(2) == ["", ""])
    }
}
