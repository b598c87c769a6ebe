import CommissionCore
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import Testing

@Suite struct LiveHubTests {
    /// The heartbeat interval of a hub whose timer never fires within a test (an hour, beyond every
    /// test's ten-minute limit): a test that reads its events one by one reads no heartbeat between
    /// them, however slow the machine (the real 15 s came between two events of a test on a busy one).
    static let noHeartbeat = Duration.seconds(3600)

    static func headlineHub(_ test: TestApp) -> LiveHub<HeadlineRequest> {
        LiveHub(store: test.store, request: HeadlineRequest(), heartbeatInterval: noHeartbeat) {
            LiveEvent.headline($0)
        }
    }

    static func pageHub(_ test: TestApp) -> LiveHub<DashboardPageRequest> {
        let pages = Pages.shared
        return LiveHub(store: test.store, request: DashboardPageRequest(), heartbeatInterval: noHeartbeat) {
            LiveEvent.body(DashboardJob.body($0, pages: pages))
        }
    }

    @Test(.timeLimit(.minutes(10))) func oneChangeReachesEveryStream() async throws {
        let test = try await TestApp()
        let hub = Self.headlineHub(test)
        let streams = (0..<100).map { _ in hub.subscribe() }
        #expect(hub.subscriberCount == 100)
        let today = try await test.store.settings().today()
        // Each stream first gets the dashboard as it is, then the one after the sale: 2 × 30.00 × 40% = 24.00 today.
        _ = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: today, quantity: 2),
            idempotencyKey: nil
        )
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for stream in streams {
                group.addTask {
                    for await event in stream where event.contains(#""todayTotals":{"commission":"24.00""#) {
                        return true
                    }
                    return false
                }
            }
            // However long a busy machine takes: the time limit ends a stream that is never told.
            var received = 0
            while received < streams.count, let got = try await group.next() {
                #expect(got)
                received += 1
            }
            group.cancelAll()
            #expect(received == streams.count)
        }
    }

    /// Every stream's heartbeat comes from the hub, through the stream's one sequence; one that
    /// comes while an event waits unread never hides it (a stream keeps only its newest beat).
    @Test(.timeLimit(.minutes(10))) func aHeartbeatNeverHidesAnEvent() async throws {
        let test = try await TestApp()
        // A timer that never fires within the test: the heartbeats are the test's own (beat()).
        let hub = LiveHub(
            store: test.store,
            request: HeadlineRequest(),
            heartbeat: "event: ping\ndata: \n\n",
            heartbeatInterval: Self.noHeartbeat
        ) { LiveEvent.headline($0) }
        var stream = hub.subscribe().makeAsyncIterator()
        #expect(await stream.next()?.hasPrefix("id: 1\nevent: dashboard") == true)
        hub.beat()
        #expect(await stream.next() == "event: ping\ndata: \n\n")
        // A sale's event, not read yet, then a heartbeat in its place: the event is what comes.
        let today = try await test.store.settings().today()
        _ = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: today),
            idempotencyKey: nil
        )
        while hub.renderCount < 2 { try await Task.sleep(for: .milliseconds(5)) }
        hub.beat()
        #expect(await stream.next()?.hasPrefix("id: 2\nevent: dashboard") == true)
        hub.beat()
        #expect(await stream.next() == "event: ping\ndata: \n\n")
    }

    /// The hub's one timer beats while it has streams, stops when the last is gone, and starts
    /// again with the next one.
    @Test(.timeLimit(.minutes(10))) func theHeartbeatRunsWhileTheHubHasStreams() async throws {
        let test = try await TestApp()
        let hub = LiveHub(
            store: test.store,
            request: HeadlineRequest(),
            heartbeat: ": ping\n\n",
            heartbeatInterval: .milliseconds(20)
        ) { LiveEvent.headline($0) }
        func aPingComes() async -> Bool {
            var stream = hub.subscribe().makeAsyncIterator()
            #expect(hub.isBeating)
            while let beat = await stream.next() {
                if beat == ": ping\n\n" { return true }
            }
            return false
        }
        #expect(await aPingComes())
        // Its stream gone, the timer stops at its next tick (waited for, however long it takes).
        while hub.isBeating { try await Task.sleep(for: .milliseconds(5)) }
        #expect(hub.subscriberCount == 0)
        #expect(await aPingComes())
    }

    /// A graceful shutdown ends a stream: its reader sees the end, and the hub lets it go.
    @Test(.timeLimit(.minutes(10))) func anEndedStreamEnds() async throws {
        let test = try await TestApp()
        let hub = Self.headlineHub(test)
        let stream = hub.subscribe()
        var events = stream.makeAsyncIterator()
        _ = await events.next()
        stream.end()
        #expect(await events.next() == nil)
        #expect(hub.subscriberCount == 0)
    }

    @Test(.timeLimit(.minutes(10))) func streamsThatEndLeaveTheHub() async throws {
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
    @Test(.timeLimit(.minutes(10))) func twentyPagesGetOneRenderOfTheNewBody() async throws {
        let test = try await TestApp()
        let hub = Self.pageHub(test)
        var iterators = (0..<20).map { _ in hub.subscribe().makeAsyncIterator() }
        for index in iterators.indices {
            let first = await iterators[index].next()
            #expect(first?.hasPrefix("id: 1\nevent: body\ndata: ") == true)
        }
        #expect(hub.renderCount == 1)
        let today = try await test.store.settings().today()
        // 2 × 30.00 × 40% = 24.00 today.
        _ = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: today, quantity: 2),
            idempotencyKey: nil
        )
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

    /// Her real terms on the live dashboard: each sale's event carries the current period's
    /// expected figure with its accelerator grown and the deduction taken off.
    @Test(.timeLimit(.minutes(10))) func aLiveUpdateMovesTheAccelerator() async throws {
        let test = try await TestApp()
        let today = try await test.store.settings().today()
        // From this month: 40% of profit, 60% of the part beyond 50.00; 5.00 a month for the room.
        _ = try await test.store.createTerms(
            TermsDraft(
                clinicID: test.glow.id,
                share: try Share(parsing: "40"),
                tiers: [Tier(threshold: Money(minorUnits: 5000), share: try Share(parsing: "60"))],
                effectiveFrom: today.firstOfMonth
            )
        )
        _ = try await test.store.createDeduction(
            Deduction(
                id: Deduction.ID(0),
                clinicID: test.glow.id,
                name: "Room",
                amount: .fixed(Money(minorUnits: 500)),
                effectiveFrom: try Day(parsing: "2020-01-01")
            )
        )
        let hub = Self.pageHub(test)
        var events = hub.subscribe().makeAsyncIterator()
        _ = await events.next()
        func expected(_ event: String?) -> String? {
            event?.firstMatch(of: /This period<\/span> <span class="amount">([^<]+)<\/span>/).map { String($0.1) }
        }
        // Two serums: profit 60.00, 24.00 on the lines, 10.00 beyond 50.00 at +20% = 2.00, less 5.00: 21.00.
        _ = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: today, quantity: 2),
            idempotencyKey: nil
        )
        #expect(expected(await events.next()) == "$21.00")
        // A third: profit 90.00, 36.00 on the lines, 40.00 beyond at +20% = 8.00, less 5.00: 39.00
        // (31.00 without the accelerator's growth).
        _ = try await test.store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: today, quantity: 1),
            idempotencyKey: nil
        )
        #expect(expected(await events.next()) == "$39.00")
    }
}
