import Synchronization

/// Hands every committed change to all current listeners. For store implementations.
///
/// Each listener keeps only the union of the changes it has not consumed yet, so a slow listener
/// never holds up a writer, never piles up a backlog, and never misses that a table changed.
public final class ChangeBroadcaster: Sendable {
    private struct WeakListener: Sendable {
        weak var listener: StoreChanges.Listener?
    }

    // Weak: a sequence its consumer dropped goes away and unregisters itself.
    private let listeners = Mutex<[Int: WeakListener]>([:])
    private let nextID = Atomic<Int>(0)

    public init() {}

    /// The number of streams currently listening.
    public var listenerCount: Int { listeners.withLock { $0.count } }

    /// A new sequence of changes from now on.
    public func stream() -> StoreChanges {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let listener = StoreChanges.Listener { [weak self] in
            _ = self?.listeners.withLock { $0.removeValue(forKey: id) }
        }
        listeners.withLock { $0[id] = WeakListener(listener: listener) }
        return StoreChanges(listener: listener)
    }

    /// Announces a committed change to every listener.
    public func send(_ tables: Set<StoreTable>) {
        guard !tables.isEmpty else { return }
        let current = listeners.withLock { $0.values.compactMap(\.listener) }
        for listener in current { listener.send(tables) }
    }

    /// Ends every sequence.
    public func finish() {
        let current = listeners.withLock { listeners in
            defer { listeners.removeAll() }
            return listeners.values.compactMap(\.listener)
        }
        for listener in current { listener.finish() }
    }
}

/// The changes committed to a store: each element is the set of tables written since the previous
/// element was taken (several commits in between are merged into one element).
public struct StoreChanges: AsyncSequence, Sendable {
    public typealias Element = Set<StoreTable>
    public typealias Failure = Never

    fileprivate let listener: Listener

    public func makeAsyncIterator() -> Iterator { Iterator(listener: listener) }

    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let listener: Listener
        public mutating func next() async -> Set<StoreTable>? { await listener.next() }
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Set<StoreTable>? {
            await listener.next()
        }
    }

    fileprivate final class Listener: Sendable {
        private struct State {
            var pending: Set<StoreTable> = []
            var waiter: CheckedContinuation<Set<StoreTable>?, Never>?
            var finished = false
        }

        private let state = Mutex(State())
        private let onEnd: @Sendable () -> Void

        init(onEnd: @escaping @Sendable () -> Void) { self.onEnd = onEnd }

        deinit { onEnd() }

        func send(_ tables: Set<StoreTable>) {
            let waiter = state.withLock { state -> CheckedContinuation<Set<StoreTable>?, Never>? in
                guard !state.finished else { return nil }
                if let waiter = state.waiter {
                    state.waiter = nil
                    return waiter
                }
                state.pending.formUnion(tables)
                return nil
            }
            waiter?.resume(returning: tables)
        }

        func finish() {
            let waiter = state.withLock { state -> CheckedContinuation<Set<StoreTable>?, Never>? in
                state.finished = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }

        func next() async -> Set<StoreTable>? {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Set<StoreTable>?, Never>) in
                    let ready = state.withLock { state -> Set<StoreTable>?? in
                        if !state.pending.isEmpty {
                            defer { state.pending = [] }
                            return .some(state.pending)
                        }
                        if state.finished || Task.isCancelled { return .some(nil) }
                        state.waiter = continuation
                        return .none
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<Set<StoreTable>?, Never>? in
                    state.finished = true
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume(returning: nil)
            }
        }
    }
}
