/// How long a store spends in its database, told to whoever listens in the current task: the
/// server measures each request's database time this way (`/metrics`), without the stores knowing
/// of metrics. Nothing listens by default, and then nothing is measured.
public enum StoreTiming {
    /// What the database was asked to do.
    public enum Operation: String, Sendable, CaseIterable {
        case read, write
    }

    /// Who is told of the reads and writes: made once and kept (a server's metrics make one for
    /// the life of the process), then bound to each request's task.
    ///
    /// Why an object and not a closure: the task-local value was once an optional closure, and the
    /// optimized build (Swift 6.3.1 on Linux) crashed with SIGSEGV in `swift_task_localValuePush`
    /// on every bind of it — a closure is two words (function and context), built as a temporary
    /// at each `withValue`, while a class reference is one word that outlives the bind. The debug
    /// build did not crash (nor do the Swift suites, which run it): the serve smoke test on the
    /// release binary (scripts/test) keeps it that way.
    public final class Observer: Sendable {
        private let tell: @Sendable (Operation, Duration) -> Void

        /// `tell` is called after each read or write with how long it took.
        public init(_ tell: @escaping @Sendable (Operation, Duration) -> Void) {
            self.tell = tell
        }

        func told(_ operation: Operation, _ duration: Duration) { tell(operation, duration) }
    }

    /// Told of every read and write the current task makes, and of how long it took (waiting for
    /// the writer included). Bind a kept ``Observer`` with `StoreTiming.$observer.withValue(observer)`.
    @TaskLocal public static var observer: Observer?

    /// Runs `body`, telling the observer how long it took (also when it throws).
    public static func measure<T>(_ operation: Operation, _ body: () async throws -> T) async rethrows -> T {
        guard let observer else { return try await body() }
        let start = ContinuousClock.now
        defer { observer.told(operation, .now - start) }
        return try await body()
    }
}
