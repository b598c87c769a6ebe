import CommissionCore
import Observation

/// A reusable read of the store that can be observed: the store's `Queryable`.
///
/// ```swift
/// struct TodayDashboard: StoreRequest {
///     var tables: Set<StoreTable> { [.sales, .payouts, .clinics, .products, .book] }
///     func fetch(from store: any CommissionStore) async throws -> Dashboard {
///         try await store.dashboard(today: try await store.settings().today())
///     }
/// }
/// for try await dashboard in store.observe(TodayDashboard()) { render(dashboard) }
/// ```
public protocol StoreRequest: Sendable {
    associatedtype Value: Sendable
    /// The tables the fetch reads: a committed write to any of them triggers a new fetch.
    var tables: Set<StoreTable> { get }
    func fetch(from store: any CommissionStore) async throws -> Value
}

/// The dashboard of today in the book's time zone.
public struct DashboardRequest: StoreRequest {
    public init() {}
    public var tables: Set<StoreTable> { Set(StoreTable.allCases) }
    public func fetch(from store: any CommissionStore) async throws -> Dashboard {
        try await store.dashboard(today: try await store.settings().today())
    }
}

/// The headline figures of today's dashboard, in the book's time zone, after any change that may
/// move the dashboard (so a live page also learns of changes the headline does not show).
public struct HeadlineRequest: StoreRequest {
    public init() {}
    public var tables: Set<StoreTable> { Set(StoreTable.allCases) }
    public func fetch(from store: any CommissionStore) async throws -> Headline {
        try await store.headline(today: try await store.settings().today())
    }
}

/// A page of sales.
public struct SalesRequest: StoreRequest {
    public var query: SaleQuery
    public init(_ query: SaleQuery = SaleQuery()) { self.query = query }
    public var tables: Set<StoreTable> { [.sales, .clinics, .products, .terms, .book] }
    public func fetch(from store: any CommissionStore) async throws -> [Sale] { try await store.sales(query) }
}

extension CommissionStore {
    /// The request's value now, then a fresh value after every committed write to a table it reads.
    ///
    /// Fetches happen when the consumer asks for the next value, never ahead of it: writes committed
    /// meanwhile are merged into one fetch, so a consumer that takes values at its own pace (the
    /// server's live dashboard, at most 20 a second) costs that many fetches and no more, however
    /// fast the writes come. The sequence ends when the store's changes end; a failed fetch ends it
    /// with the error.
    public func observe<Request: StoreRequest>(_ request: Request) -> StoreObservation<Request> {
        StoreObservation(store: self, request: request, changes: changes())
    }
}

/// The values of an observed ``StoreRequest``: see ``CommissionStore/observe(_:)``.
public struct StoreObservation<Request: StoreRequest>: AsyncSequence, Sendable {
    public typealias Element = Request.Value
    public typealias Failure = any Error

    let store: any CommissionStore
    let request: Request
    let changes: StoreChanges

    public func makeAsyncIterator() -> Iterator {
        Iterator(store: store, request: request, changes: changes.makeAsyncIterator())
    }

    public struct Iterator: AsyncIteratorProtocol {
        let store: any CommissionStore
        let request: Request
        var changes: StoreChanges.Iterator
        var isFirst = true

        public mutating func next() async throws -> Request.Value? {
            if isFirst {
                isFirst = false
            } else {
                // Wait for a change to a table the request reads (the changes since the last fetch, merged).
                while true {
                    guard let changed = await changes.next() else { return nil }
                    if !changed.isDisjoint(with: request.tables) { break }
                }
            }
            try Task.checkCancellation()
            return try await request.fetch(from: store)
        }
    }
}

/// An observed request as an `@Observable` object: what a view model holds (the seeds' `@Query`),
/// usable without any UI framework.
///
/// ```swift
/// let dashboard = LiveValue(store: store, request: DashboardRequest())
/// dashboard.start()
/// // dashboard.value is refreshed after every committed write that touches it.
/// ```
///
/// It never goes quiet while started: when the store's changes end (a server's change feed lost)
/// it observes again, its first fetch reading the book afresh; when a fetch fails (the database or
/// the network away), ``error`` says so and the fetch is tried again, until a value comes — then
/// ``error`` is nil again. Each time after a pause that grows from a quarter of a second to half a
/// minute, and is short again after an observation that lasted (so that a stream that keeps ending
/// at once is read every half minute, not in a loop). A view can show the last value beside a
/// word that it is not current while ``error`` is set.
@MainActor
@Observable
public final class LiveValue<Request: StoreRequest> {
    /// The latest value, nil until the first fetch completes.
    public private(set) var value: Request.Value?
    /// Why the latest fetch failed (it is tried again until ``stop()``); nil once a value arrives.
    public private(set) var error: (any Error)?
    /// How many values have arrived.
    public private(set) var updates = 0

    @ObservationIgnored private let store: any CommissionStore
    @ObservationIgnored private let request: Request
    @ObservationIgnored private var task: Task<Void, Never>?

    /// The pause before observing again after a failure or an end, doubled each time up to
    /// ``longestPause``, and short again after an observation that saw a change or lasted longer
    /// than the longest pause.
    nonisolated static var firstPause: Duration { .milliseconds(250) }
    nonisolated static var longestPause: Duration { .seconds(30) }

    public init(store: any CommissionStore, request: Request) {
        self.store = store
        self.request = request
    }

    /// Starts observing (again), until ``stop()``. Values are delivered on the main actor.
    public func start() {
        task?.cancel()
        task = Task { [weak self, store, request] in
            var pause = Self.firstPause
            while !Task.isCancelled {
                var received = 0
                let began = ContinuousClock.now
                do {
                    for try await value in store.observe(request) {
                        // Stopped or started again meanwhile (this task cancelled, on this actor):
                        // a fetch that ends now must not write over what came after it.
                        guard let self, !Task.isCancelled else { return }
                        self.value = value
                        if self.error != nil { self.error = nil }
                        self.updates += 1
                        received += 1
                    }
                } catch {
                    guard !Task.isCancelled, let self else { return }
                    self.error = error
                }
                // Its changes ended, or a fetch failed: observe again after the pause — short
                // again when the observation lived (a later end is news, not a loop).
                if received > 1 || ContinuousClock.now - began >= Self.longestPause { pause = Self.firstPause }
                do { try await Task.sleep(for: pause) } catch { return }
                pause = min(pause * 2, Self.longestPause)
            }
        }
    }

    /// Stops observing; the last value stays.
    public func stop() {
        task?.cancel()
        task = nil
    }

    isolated deinit {
        task?.cancel()
    }
}
