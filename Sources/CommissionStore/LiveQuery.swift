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
    /// Writes that arrive while a fetch runs are coalesced into one more fetch, so a slow consumer
    /// sees the latest value, not every intermediate one. The sequence ends when the consumer stops
    /// iterating; a failed fetch ends it with the error.
    public func observe<Request: StoreRequest>(_ request: Request) -> AsyncThrowingStream<Request.Value, any Error> {
        let changes = self.changes()
        let tables = request.tables
        return AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let task = Task {
                do {
                    continuation.yield(try await request.fetch(from: self))
                    for await changed in changes where !changed.isDisjoint(with: tables) {
                        continuation.yield(try await request.fetch(from: self))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
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
@MainActor
@Observable
public final class LiveValue<Request: StoreRequest> {
    /// The latest value, nil until the first fetch completes.
    public private(set) var value: Request.Value?
    /// The error that ended observation, if any.
    public private(set) var error: (any Error)?
    /// How many values have arrived.
    public private(set) var updates = 0

    @ObservationIgnored private let store: any CommissionStore
    @ObservationIgnored private let request: Request
    @ObservationIgnored private var task: Task<Void, Never>?

    public init(store: any CommissionStore, request: Request) {
        self.store = store
        self.request = request
    }

    /// Starts observing (again). Values are delivered on the main actor.
    public func start() {
        task?.cancel()
        let stream = store.observe(request)
        task = Task { [weak self] in
            do {
                for try await value in stream {
                    guard let self else { return }
                    self.value = value
                    self.updates += 1
                }
            } catch {
                self?.error = error
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
