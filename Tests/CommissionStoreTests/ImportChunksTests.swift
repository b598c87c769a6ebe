import CommissionCore
import CommissionStore
import Foundation
import Synchronization
import Testing

/// The bridge from a source's synchronous reading to an asynchronous import (PostgreSQL's):
/// every row in order, then the source's problems; a reader that stays a few chunks ahead; a reader
/// that stops when the consumer does.
@Suite struct ImportChunksTests {
    @Test func everyRowComesInOrderInChunksThenTheSourcesProblems() async throws {
        let source = CountedRows(rows: 10_000, problems: [ImportProblem(line: 7, column: "date", reason: "not a date")])
        var lines: [Int] = []
        var ends: [[ImportProblem]] = []
        for try await chunk in source.chunks(of: 300, ahead: 2) {
            switch chunk {
            case .rows(let rows):
                #expect(!rows.isEmpty && rows.count <= 300)
                #expect(ends.isEmpty, "rows after the end")
                lines += rows.map(\.line)
            case .end(let problems):
                ends.append(problems)
            }
        }
        #expect(lines == Array(2..<10_002))
        #expect(ends == [[ImportProblem(line: 7, column: "date", reason: "not a date")]])
    }

    @Test func whatTheSourceThrowsComesAfterTheRowsReadBeforeIt() async throws {
        struct Unreadable: Error {}
        let source = CountedRows(rows: 1_000, failure: Unreadable())
        var count = 0
        await #expect(throws: Unreadable.self) {
            for try await chunk in source.chunks(of: 64) {
                if case .rows(let rows) = chunk { count += rows.count }
            }
        }
        #expect(count == 1_000)
    }

    /// The reader waits for the consumer: a slow consumer holds a few chunks in memory, not the file.
    @Test func theReaderStaysAFewChunksAheadOfASlowConsumer() async throws {
        let source = CountedRows(rows: 1_000_000)
        var taken = 0
        for try await chunk in source.chunks(of: 100, ahead: 3) {
            guard case .rows(let rows) = chunk else { continue }
            taken += rows.count
            // Time for a reader that did not wait to run far ahead (it reads a million rows in well
            // under a second); this one is at most the chunks in hand, the 3 ahead and the one it is filling.
            try await Task.sleep(for: .milliseconds(50))
            let produced = source.produced.load(ordering: .acquiring)
            #expect(produced <= taken + 100 * 5)
            if taken >= 500 { break }
        }
    }

    /// A consumer that stops (an import that fails half way) stops the reader at its next chunk,
    /// instead of leaving it waiting for room forever, or reading the rest of the file.
    @Test(.hangLimit) func aConsumerThatStopsStopsTheReader() async throws {
        let source = CountedRows(rows: 1_000_000)
        do {
            for try await _ in source.chunks(of: 10, ahead: 2) { break }
        }
        // However long a busy machine takes (the time limit ends a reader left waiting for room).
        while !source.finished.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(source.produced.load(ordering: .acquiring) <= 10 * 5)
    }
}

/// Clinic rows counted as they are produced; the source says when its `read` has returned.
final class CountedRows: ImportSource {
    let rows: Int
    let problems: [ImportProblem]
    let failure: (any Error & Sendable)?
    let produced = Atomic<Int>(0)
    let finished = Atomic<Bool>(false)

    init(rows: Int, problems: [ImportProblem] = [], failure: (any Error & Sendable)? = nil) {
        self.rows = rows
        self.problems = problems
        self.failure = failure
    }

    func column(for field: String) -> String? { field }

    func read(_ body: (ImportRow) throws -> Void) throws -> [ImportProblem] {
        defer { finished.store(true, ordering: .releasing) }
        for index in 0..<rows {
            produced.add(1, ordering: .releasing)
            try body(ImportRow(line: index + 2, record: .clinic(ClinicDraft(name: "C\(index)", schedule: .monthly))))
        }
        if let failure { throw failure }
        return problems
    }
}
