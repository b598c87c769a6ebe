/// How long a store spends in its database, told to whoever listens in the current task: the
/// server measures each request's database time this way (`/metrics`), without the stores knowing
/// of metrics. Nothing listens by default, and then nothing is measured.
public enum StoreTiming {
    /// What the database was asked to do.
    public enum Operation: String, Sendable, CaseIterable {
        case read, write
    }

    /// Told of every read and write the current task makes, and of how long it took (waiting for
    /// the writer included).
    @TaskLocal public static var observer: (@Sendable (Operation, Duration) -> Void)?

    /// Runs `body`, telling the observer how long it took (also when it throws).
    public static func measure<T>(_ operation: Operation, _ body: () async throws -> T) async rethrows -> T {
        guard let observer else { return try await body() }
        let start = ContinuousClock.now
        defer { observer(operation, .now - start) }
        return try await body()
    }
}
