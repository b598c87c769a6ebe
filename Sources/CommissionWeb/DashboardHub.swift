import CommissionKit
import CommissionStore
import Synchronization

/// One live dashboard shared by every event stream of the server.
///
/// The store's live query runs once (not once per connected browser); each new value is rendered
/// to an event once and handed to every stream, each of which keeps only the latest event it has
/// not sent yet. A hundred open dashboards cost one query per change, and a slow client never
/// holds up the others or the writer.
final class DashboardHub: Sendable {
    private struct State {
        var latest: String?
        var subscribers: [Int: AsyncStream<String>.Continuation] = [:]
        var nextID = 0
        var task: Task<Void, Never>?
    }

    private let store: any WebStore
    private let state = Mutex(State())

    init(store: any WebStore) { self.store = store }

    deinit { state.withLock { $0.task?.cancel() } }

    /// Events from now on, starting with the latest one.
    func subscribe() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1))
        let id: Int = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = continuation
            if let latest = state.latest { continuation.yield(latest) }
            if state.task == nil { state.task = startObserving() }
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    private func startObserving() -> Task<Void, Never> {
        let updates = store.observe(DashboardRequest())
        return Task { [weak self] in
            do {
                for try await dashboard in updates {
                    guard let self else { return }
                    self.publish(Self.event(dashboard))
                }
            } catch {
                // The store failed: end every stream; browsers reconnect and start a new observation.
                self?.finishAll()
            }
        }
    }

    private func publish(_ event: String) {
        let subscribers = state.withLock { state in
            state.latest = event
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.yield(event) }
    }

    private func finishAll() {
        let subscribers = state.withLock { state in
            defer { state.subscribers = [:]; state.task = nil; state.latest = nil }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }

    /// The dashboard as one Server-Sent Event.
    static func event(_ dashboard: Dashboard) -> String {
        let json = Renderer(currency: dashboard.currency).render(dashboard, as: .json)
        let data = json.split(separator: "\n").map { "data: \($0)" }.joined(separator: "\n")
        return "event: dashboard\n\(data)\n\n"
    }
}
