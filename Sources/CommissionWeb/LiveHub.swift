import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Synchronization

/// One live view shared by every event stream of a book: the dashboard's headline for the API's
/// streams, the dashboard page's body for the pages'.
///
/// The store's live query runs once (not once per connected browser); each new value is rendered
/// to an event once — numbered, `id: N`, so that a client can tell — and handed to every stream,
/// each of which keeps only the latest event it has not sent yet. A hundred open dashboards cost
/// one query and one render per change, a page applies what it receives without asking for
/// anything, and a slow client never holds up the others or the writer. Under a burst of writes
/// the value is computed at most once per ``minimumInterval`` (the changes in between are
/// merged), so live streams never take more than a bounded share of the machine from the writers.
package final class LiveHub<Request: StoreRequest>: Sendable {
    /// What the hub hands a stream: a numbered event, or the heartbeat.
    enum Beat: Sendable {
        case event(id: Int, text: String)
        case heartbeat
    }

    private struct State {
        var latest: (id: Int, text: String)?
        var subscribers: [Int: AsyncStream<Beat>.Continuation] = [:]
        var nextID = 0
        var renders = 0
        var task: Task<Void, Never>?
        var heartbeat: Task<Void, Never>?
    }

    private let store: any WebStore
    private let request: Request
    /// The value as the payload of a Server-Sent Event (`event:` and `data:` lines).
    private let render: @Sendable (Request.Value) async throws -> String
    /// What a stream with nothing to tell writes every ``heartbeatInterval``, to say it is still there.
    private let heartbeat: String
    private let heartbeatInterval: Duration
    private let state = Mutex(State())
    /// At most 20 events a second: a person sees no difference, and a burst of writes keeps its pace.
    static var minimumInterval: Duration { .milliseconds(50) }

    /// - Parameters:
    ///   - heartbeat: written to every stream every `heartbeatInterval` (one timer for all the
    ///     hub's streams, running while it has any): a comment for API clients, which skip it; an
    ///     event for a page, whose script takes a stream that hears nothing for long for lost.
    package init(
        store: any WebStore,
        request: Request,
        heartbeat: String = DashboardJob.comment,
        heartbeatInterval: Duration = DashboardJob.heartbeatInterval,
        render: @escaping @Sendable (Request.Value) async throws -> String
    ) {
        self.store = store
        self.request = request
        self.heartbeat = heartbeat
        self.heartbeatInterval = heartbeatInterval
        self.render = render
    }

    // No stream is open by then: each holds its hub (``subscribe()``).
    deinit {
        state.withLock { state in
            state.task?.cancel()
            state.heartbeat?.cancel()
        }
    }

    /// Events from now on, starting with the latest one, and the heartbeat. The stream holds the
    /// hub — its store and its observation — for as long as it is open: a book's app released
    /// meanwhile (idle, or beyond the books kept) does not leave it open and silent.
    package func subscribe() -> LiveStream {
        let (stream, continuation) = AsyncStream.makeStream(of: Beat.self, bufferingPolicy: .bufferingNewest(1))
        let id: Int = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = continuation
            if let latest = state.latest { continuation.yield(.event(id: latest.id, text: latest.text)) }
            if state.task == nil { state.task = startObserving() }
            if state.heartbeat == nil { state.heartbeat = beatingHeart() }
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return LiveStream(beats: stream, hub: self, subscriber: id)
    }

    /// A hub's events for one stream, holding the hub while it is open.
    ///
    /// Each stream is one sequence read by its response's own task: no timer of its own and no
    /// merge (a per-stream heartbeat timer merged with the events, and the graceful shutdown merged
    /// with that, cost three task switches an event on every stream; measured with 100 streams).
    package struct LiveStream: AsyncSequence, Sendable {
        package typealias Element = String
        package typealias Failure = Never
        let beats: AsyncStream<Beat>
        let hub: LiveHub
        let subscriber: Int

        package func makeAsyncIterator() -> Iterator { Iterator(beats: beats.makeAsyncIterator(), hub: hub) }

        /// Ends the stream (a graceful shutdown): its reader sees its end.
        package func end() { hub.end(subscriber) }

        package struct Iterator: AsyncIteratorProtocol {
            var beats: AsyncStream<Beat>.Iterator
            let hub: LiveHub
            /// The number of the last event handed out.
            var told = 0

            package mutating func next() async -> String? { await next(isolation: nil) }

            package mutating func next(isolation actor: isolated (any Actor)?) async -> String? {
                while true {
                    guard let beat = await beats.next(isolation: actor) else { return nil }
                    if let text = take(beat) { return text }
                }
            }

            /// What `beat` writes: nil for an event handed out already (a heartbeat read just
            /// before it handed it out as the latest).
            private mutating func take(_ beat: Beat) -> String? {
                switch beat {
                case .event(let id, let text):
                    guard id > told else { return nil }
                    told = id
                    return text
                case .heartbeat:
                    // The stream keeps one beat: a heartbeat may have taken the place of an event
                    // not read yet. The latest event then goes instead.
                    if let latest = hub.latestEvent, latest.id > told {
                        told = latest.id
                        return latest.text
                    }
                    return hub.heartbeat
                }
            }
        }
    }

    package var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// How many events were rendered so far: one per change seen, whatever the number of streams.
    package var renderCount: Int { state.withLock { $0.renders } }

    private var latestEvent: (id: Int, text: String)? { state.withLock { $0.latest } }

    private func end(_ subscriber: Int) {
        state.withLock { $0.subscribers.removeValue(forKey: subscriber) }?.finish()
    }

    /// Hands every open stream its heartbeat now (what the hub's timer does).
    package func beat() {
        for subscriber in state.withLock({ Array($0.subscribers.values) }) { subscriber.yield(.heartbeat) }
    }

    /// The timer of every stream's heartbeat, while the hub has streams (a new stream's first
    /// heartbeat comes within one interval).
    private func beatingHeart() -> Task<Void, Never> {
        Task { [weak self, heartbeatInterval] in
            while true {
                do { try await Task.sleep(for: heartbeatInterval) } catch { return }
                guard let self else { return }
                // Stopped in the same lock that a new stream would start it in: none is left without.
                let subscribers = self.state.withLock { state -> [AsyncStream<Beat>.Continuation]? in
                    if state.subscribers.isEmpty {
                        state.heartbeat = nil
                        return nil
                    }
                    return Array(state.subscribers.values)
                }
                guard let subscribers else { return }
                for subscriber in subscribers { subscriber.yield(.heartbeat) }
            }
        }
    }

    /// Whether the heartbeat's timer runs (while the hub has streams).
    package var isBeating: Bool { state.withLock { $0.heartbeat != nil } }

    /// Observes the store until its changes end or a fetch fails; then every stream ends (its
    /// client reconnects, and the next one starts a new observation), so that no stream stays open
    /// on an observation that is over.
    private func startObserving() -> Task<Void, Never> {
        let updates = store.observe(request)
        return Task { [weak self] in
            do {
                for try await value in updates {
                    let started = ContinuousClock.now
                    guard let self else { return }
                    let payload = try await self.render(value)
                    self.publish(payload)
                    try await Task.sleep(until: started + Self.minimumInterval)
                }
            } catch {}
            self?.finishAll()
        }
    }

    private func publish(_ payload: String) {
        let (id, event, subscribers) = state.withLock { state in
            state.renders += 1
            let event = "id: \(state.renders)\n" + payload
            state.latest = (state.renders, event)
            return (state.renders, event, Array(state.subscribers.values))
        }
        for subscriber in subscribers { subscriber.yield(.event(id: id, text: event)) }
    }

    private func finishAll() {
        let subscribers = state.withLock { state in
            defer {
                state.subscribers = [:]
                state.task = nil
                state.latest = nil
            }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}

/// The events the hubs render.
package enum LiveEvent {
    /// The dashboard's headline figures as one Server-Sent Event, on one line of compact JSON:
    /// a few hundred bytes whatever the number of clinics, since every open stream receives it up to
    /// 20 times a second. It comes after any change that may move the dashboard; clients fetch the
    /// whole dashboard (or the page's fragment) when it comes. Only the headline is read for it
    /// (``CommissionStore/headline(today:)``), not the whole dashboard: the commit-to-event time
    /// of every live page.
    package static func headline(_ headline: Headline) -> String {
        let c = headline.currency
        func totals(_ t: Totals) -> EventTotals {
            EventTotals(sales: t.saleCount, revenue: c.format(t.revenue), commission: c.format(t.commission))
        }
        let summary = EventSummary(
            today: headline.today.description,
            currency: c.code,
            todayTotals: totals(headline.todayTotals),
            month: totals(headline.monthTotals),
            yearToDate: totals(headline.yearTotals)
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // try?: strings and whole numbers only: encoding them cannot throw
        let json = (try? encoder.encode(summary)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return "event: dashboard\ndata: \(json)\n\n"
    }

    /// A page's new body as one Server-Sent Event (`event: body`), each line of its HTML a `data:`
    /// line: the browser joins them again with newlines.
    package static func body(_ html: String) -> String {
        var event = "event: body\n"
        for line in html.split(separator: "\n", omittingEmptySubsequences: false) {
            event += "data: "
            event += line.last == "\r" ? line.dropLast() : line
            event += "\n"
        }
        return event + "\n"
    }
}

struct EventTotals: Encodable {
    var sales: Int
    var revenue: String
    var commission: String
}
struct EventSummary: Encodable {
    var today: String
    var currency: String
    var todayTotals: EventTotals
    var month: EventTotals
    var yearToDate: EventTotals
}
