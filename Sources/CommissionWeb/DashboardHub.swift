import CommissionCore
import CommissionKit
import Foundation
import CommissionStore
import Synchronization

/// One live dashboard shared by every event stream of the server.
///
/// The store's live query runs once (not once per connected browser); each new value is rendered
/// to an event once and handed to every stream, each of which keeps only the latest event it has
/// not sent yet. A hundred open dashboards cost one query per change, and a slow client never
/// holds up the others or the writer. Under a burst of writes the dashboard is computed at most
/// once per ``minimumInterval`` (the changes in between are merged), so live streams never take
/// more than a bounded share of the machine from the writers.
final class DashboardHub: Sendable {
    private struct State {
        var latest: String?
        var subscribers: [Int: AsyncStream<String>.Continuation] = [:]
        var nextID = 0
        var task: Task<Void, Never>?
    }

    private let store: any WebStore
    private let state = Mutex(State())
    /// At most 20 events a second: a person sees no difference, and a burst of writes keeps its pace.
    static let minimumInterval = Duration.milliseconds(50)

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
        let updates = store.observe(HeadlineRequest())
        return Task { [weak self] in
            do {
                for try await headline in updates {
                    let started = ContinuousClock.now
                    guard let self else { return }
                    self.publish(Self.event(headline))
                    try await Task.sleep(until: started + Self.minimumInterval)
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

    /// The dashboard's headline figures as one Server-Sent Event, on one line of compact JSON:
    /// a few hundred bytes whatever the number of clinics, since every open stream receives it up to
    /// 20 times a second. It comes after any change that may move the dashboard; clients fetch the
    /// whole dashboard (or the page's fragment) when it comes. Only the headline is read for it
    /// (``CommissionStore/headline(today:)``), not the whole dashboard: the commit-to-event time
    /// of every live page.
    static func event(_ headline: Headline) -> String {
        let c = headline.currency
        func totals(_ t: Totals) -> EventTotals {
            EventTotals(sales: t.saleCount, revenue: c.format(t.revenue), commission: c.format(t.commission))
        }
        let summary = EventSummary(
            today: headline.today.description, currency: c.code, todayTotals: totals(headline.todayTotals),
            month: totals(headline.monthTotals), yearToDate: totals(headline.yearTotals))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = (try? encoder.encode(summary)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return "event: dashboard\ndata: \(json)\n\n"
    }
}

struct EventTotals: Encodable { var sales: Int; var revenue: String; var commission: String }
struct EventSummary: Encodable {
    var today: String
    var currency: String
    var todayTotals: EventTotals
    var month: EventTotals
    var yearToDate: EventTotals
}
