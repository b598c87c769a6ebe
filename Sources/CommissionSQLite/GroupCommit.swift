import GRDB
import Synchronization

/// Write transactions asked for while the writer is busy share its next commit (group commit).
///
/// A server taking sales from several phones at once asks for many small writes, and each of them
/// alone pays for a whole transaction: SQLite's `BEGIN` and `COMMIT`, the pages it dirtied written to
/// the WAL (a sale touches a dozen: its row and indexes, four summaries, the audit log, the book's
/// revision), and a hop to the writer's thread and back. Here the writes that wait while one runs are
/// run together in the next transaction, and those that come while a transaction runs its writes join
/// it before its commit (they would wait for that commit anyway); each in a savepoint of its own, in
/// the order they came:
///
/// - a write that throws rolls back its savepoint alone, and its caller gets the error: the others
///   are not touched by it, as if each had had its own transaction;
/// - one that succeeded is answered only once the transaction committed; if the commit fails, or
///   SQLite ends the transaction itself (a full disk), every write of it fails with that error
///   (none was told it was stored);
/// - each sees what the ones before it wrote, as it would had they committed first.
///
/// Nothing waits for a batch to fill: a write that comes while the writer is idle starts at once.
/// Under load the batches grow by themselves: with 16 clients posting sales, 8.5–9 sales a commit
/// rather than 4.5 when only those waiting at its start were taken, and a fifth less CPU a sale.
/// The transaction is run with GRDB's callback API, which a cancelled caller does not interrupt: one
/// request dropped by its client does not fail the writes of the others in its batch.
package final class GroupCommit: Sendable {
    /// A write waiting for its turn.
    struct Entry: Sendable {
        /// The write, run in its savepoint; it keeps its result itself.
        let run: @Sendable (Database) throws -> Void
        /// Run once in the transaction after the batch's writes, when this one succeeded (the first
        /// such of the batch): what marks the transaction as a whole (the book's revision).
        let finish: (@Sendable (Database) throws -> Void)?
        /// Resumed once the write committed (nil) or failed (its error).
        let done: CheckedContinuation<(any Error)?, Never>
    }

    private struct State {
        var waiting: [Entry] = []
        var isWriting = false
    }

    /// The most writes in one transaction: beyond it, the rest wait for the next (a commit's latency
    /// stays bounded whatever the load).
    static let batchLimit = 64

    private let writer: any DatabaseWriter
    private let state = Mutex(State())

    package init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// Runs `run` in a savepoint of the next write transaction, and returns once that transaction
    /// ended: nil when it committed with the write, or the error that the write threw (it changed
    /// nothing) or that failed the whole transaction. `finish`, when given, runs after the batch's
    /// writes if this one stood, once for the transaction whichever of its writes gave it.
    package func write(
        _ run: @escaping @Sendable (Database) throws -> Void,
        finish: (@Sendable (Database) throws -> Void)? = nil
    ) async -> (any Error)? {
        await withCheckedContinuation { done in
            let start = state.withLock { state in
                state.waiting.append(Entry(run: run, finish: finish, done: done))
                defer { state.isWriting = true }
                return !state.isWriting
            }
            if start { commitNext() }
        }
    }

    /// One transaction for the writes waiting when the writer takes it and those that come while
    /// they run (up to ``batchLimit``); another after it while more wait.
    private func commitNext() {
        let taken = Slot<[Entry]>()
        writer.asyncWriteWithoutTransaction { [self] db in
            let result = Result { try Self.inTransaction(db) { try runBatch(db, taken: taken) } }
            finish(result, taken: taken)
        }
    }

    /// Runs `body` in an immediate transaction, as GRDB's `inTransaction` does, with the
    /// connection's cached `BEGIN` and `COMMIT` (GRDB compiles them again for every transaction):
    /// committed if it returns, rolled back if it or the commit throws.
    private static func inTransaction<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try statement(.begin, db)
        do {
            let value = try body()
            try statement(.commit, db)
            return value
        } catch {
            if db.isInsideTransaction {
                // try?: on the way out with the body's or the commit's error, which is thrown
                try? db.rollback()
            } else {
                // SQLite ended the transaction itself (a full disk, an I/O error), perhaps inside a
                // statement run through its C API (FastStatement), which GRDB did not see end it:
                // GRDB would keep the savepoint it saw begin, and hold the next transaction's changes
                // from its observers until that commit (a sale would read a context kept from
                // before a price changed in the same transaction). An empty transaction rolled back
                // through GRDB lets it see a rollback: it forgets them and tells its observers.
                // try?: the same, through GRDB so that it sees the transaction end; the error is thrown just after
                try? db.inTransaction { .rollback }
            }
            throw error
        }
    }

    /// The writes of one transaction, each in its savepoint: those waiting, then those that came
    /// while they ran. Each one's outcome; throws when the whole transaction failed.
    private func runBatch(_ db: Database, taken: Slot<[Entry]>) throws -> [(Entry, (any Error)?)] {
        var batch = takeBatch(upTo: Self.batchLimit)
        taken.set(batch)
        var outcomes: [(Entry, (any Error)?)] = []
        outcomes.reserveCapacity(batch.count)
        var next = 0
        while next < batch.count {
            let entry = batch[next]
            next += 1
            try Self.statement(.savepoint, db)
            do {
                try entry.run(db)
                try Self.statement(.release, db)
                outcomes.append((entry, nil))
            } catch {
                // SQLite rolls a whole transaction back on some errors (a full disk, an I/O error):
                // then nothing of the batch stands, and the transaction ends with the error.
                guard db.isInsideTransaction else { throw error }
                try Self.statement(.rollbackToSavepoint, db)
                try Self.statement(.release, db)
                outcomes.append((entry, error))
            }
            // The writes that came while these ran join them before the commit: they would
            // wait for it anyway, and are answered with it rather than after another.
            if next == batch.count && batch.count < Self.batchLimit {
                let late = takeBatch(upTo: Self.batchLimit - batch.count)
                if !late.isEmpty {
                    batch += late
                    taken.set(batch)
                }
            }
        }
        if let finish = outcomes.first(where: { $0.0.finish != nil && $0.1 == nil })?.0.finish { try finish(db) }
        return outcomes
    }

    /// Answers the writes of a transaction that ended, then starts the next while more wait.
    private func finish(_ result: Result<[(Entry, (any Error)?)], any Error>, taken: Slot<[Entry]>) {
        switch result {
        case .success(let outcomes):
            for (entry, error) in outcomes { entry.done.resume(returning: error) }
        case .failure(let error):
            // The batch as taken, or, when the transaction could not even begin, what was waiting.
            let batch = taken.value ?? takeBatch(upTo: Self.batchLimit)
            for entry in batch { entry.done.resume(returning: error) }
        }
        let more = state.withLock { state in
            if state.waiting.isEmpty { state.isWriting = false }
            return state.isWriting
        }
        if more { commitNext() }
    }

    /// The statements of the transaction and of each write's savepoint, run as the connection's
    /// cached statements: GRDB's `inTransaction` and `inSavepoint` compile theirs again each time,
    /// which cost the writer a tenth of a sale's transaction. GRDB still sees them for what they
    /// are (its transaction observers are told of the commit, and of a savepoint's changes at its
    /// release; those of a savepoint rolled back are dropped).
    enum Step: String {
        case begin = "BEGIN IMMEDIATE TRANSACTION"
        case commit = "COMMIT TRANSACTION"
        case savepoint = "SAVEPOINT commissionWrite"
        case release = "RELEASE SAVEPOINT commissionWrite"
        case rollbackToSavepoint = "ROLLBACK TRANSACTION TO SAVEPOINT commissionWrite"
    }

    private static func statement(_ step: Step, _ db: Database) throws {
        try db.cachedStatement(sql: step.rawValue).execute()
    }

    /// How many writes wait for the writer (those of the transaction running are no longer waiting).
    package var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// The writes waiting, oldest first, up to `limit`.
    private func takeBatch(upTo limit: Int) -> [Entry] {
        state.withLock { state in
            let batch = Array(state.waiting.prefix(limit))
            state.waiting.removeFirst(batch.count)
            return batch
        }
    }
}

/// A value set once on one thread and read on another.
final class Slot<Value: Sendable>: Sendable {
    private let stored = Mutex<Value?>(nil)

    init() {}

    var value: Value? { stored.withLock { $0 } }

    func set(_ value: Value) { stored.withLock { $0 = value } }
}
