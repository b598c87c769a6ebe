import CommissionCore
import CommissionStore
import Foundation
import GRDB

/// A row as the reading thread hands it over: parsed, or already a sale.
package enum StagedRow: Sendable {
    /// A row for the writer to apply (a clinic, a product, terms, or a sale to compute).
    case row(ImportRow)
    /// A sale computed by the reading thread, ready to insert.
    case sale(Sale)
    /// A sale row the reading thread found wrong.
    case problem(ImportProblem)
}

/// The rows of an import source, read on a thread of their own a few thousand rows ahead of the
/// writer that applies them.
///
/// Reading a CSV file (scanning, splitting fields, parsing dates and amounts) is about a fifth of an
/// import's work, and computing its sales another fifth; on their own thread they run beside
/// SQLite's work, on the second core, instead of before it. The reader stays at most `capacity`
/// chunks ahead, so memory does not grow with the file, and stops at its next chunk once the stream
/// is released: a writer that gives up half way leaves no thread behind.
package final class ImportRowStream {
    private let shared: Shared
    /// The chunk the writer is taking rows from, and where it is in it.
    private var current: [StagedRow] = []
    private var index = 0

    /// What the reading thread does with each row.
    package enum Reading: Sendable {
        /// Parse it, and hand it over.
        case parsing
        /// Every row is a sale: compute it (``SaleResolver``) in a read transaction of `pool`, and
        /// add it up in the summaries, handed over at the end (``end``).
        case computingSales(DatabasePool, EntryRules)
    }

    /// What the reading thread found besides the rows, once ``next()`` has returned nil.
    package struct End: Sendable {
        /// Rows it could not parse, or whose sale it could not compute.
        package var problems: [ImportProblem] = []
        /// The summaries of the sales it computed.
        var deltas: SummaryDeltas?
    }

    package init(_ source: any ImportSource, _ reading: Reading = .parsing, chunkSize: Int = 2048, capacity: Int = 8) {
        let shared = Shared(capacity: capacity)
        self.shared = shared
        let thread = Thread { shared.read(source, reading, chunkSize: chunkSize) }
        thread.name = "commission-import-reader"
        thread.start()
    }

    deinit {
        shared.cancel()
    }

    /// The next row, or nil after the last one.
    /// - Throws: what the source threw while reading (a file that cannot be read).
    package func next() throws -> StagedRow? {
        if index == current.count {
            guard let chunk = try shared.take() else { return nil }
            current = chunk
            index = 0
        }
        defer { index += 1 }
        return current[index]
    }

    /// What the reading thread found besides the rows: complete once ``next()`` has returned nil.
    package var end: End { shared.endValue }

    /// What the reader and the writer share, guarded by `condition`.
    private final class Shared: @unchecked Sendable {
        private let condition = NSCondition()
        private var chunks: [[StagedRow]] = []
        /// Set by the reader when it is done: what it found besides the rows, or what it threw.
        private var end: Result<End, any Error>?
        private var cancelled = false
        private let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
        }

        /// The next chunk, waiting for the reader; nil after the last.
        func take() throws -> [StagedRow]? {
            condition.lock()
            defer { condition.unlock() }
            while chunks.isEmpty && end == nil {
                condition.wait()
            }
            if !chunks.isEmpty {
                condition.broadcast()
                return chunks.removeFirst()  // at most `capacity` chunks: the shift costs nothing
            }
            if case .failure(let error) = end { throw error }
            return nil
        }

        var endValue: End {
            condition.lock()
            defer { condition.unlock() }
            if case .success(let value) = end { return value }
            return End()
        }

        func cancel() {
            condition.lock()
            cancelled = true
            condition.broadcast()
            condition.unlock()
        }

        private struct Cancelled: Error {}

        func read(_ source: any ImportSource, _ reading: Reading, chunkSize: Int) {
            var chunk: [StagedRow] = []
            chunk.reserveCapacity(chunkSize)
            func add(_ row: StagedRow) throws {
                chunk.append(row)
                if chunk.count == chunkSize {
                    try put(chunk)
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            let result = Result<End, any Error> {
                var end = End()
                switch reading {
                case .parsing:
                    end.problems = try source.read { try add(.row($0)) }
                case .computingSales(let pool, let rules):
                    try pool.read { db in
                        var resolver = SaleResolver(db: db, rules: rules)
                        var deltas = SummaryDeltas()
                        end.problems = try source.read { row in
                            guard case .sale(let named) = row.record else { return try add(.row(row)) }
                            try add(try resolver.stage(row, named, into: &deltas, source: source))
                        }
                        end.deltas = deltas
                    }
                }
                return end
            }
            // The rows read before the end, or before what the source threw.
            // try?: put throws only when the writer cancelled: nobody will take these rows
            if !chunk.isEmpty { try? put(chunk) }
            condition.lock()
            end = result
            condition.broadcast()
            condition.unlock()
        }

        /// Hands a chunk to the writer, waiting while it is `capacity` chunks behind.
        private func put(_ chunk: [StagedRow]) throws {
            condition.lock()
            defer { condition.unlock() }
            while chunks.count >= capacity && !cancelled {
                condition.wait()
            }
            if cancelled { throw Cancelled() }
            chunks.append(chunk)
            condition.broadcast()
        }
    }
}
