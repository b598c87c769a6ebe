import Foundation
import Synchronization

/// What ``ImportSource/chunks(of:ahead:)`` hands over: rows, and last what the source found besides them.
public enum ImportChunk: Sendable {
    case rows([ImportRow])
    /// The last element: the rows the source could not read (malformed amounts, missing fields).
    case end(problems: [ImportProblem])
}

extension ImportSource {
    /// The source's rows, read on a thread of its own and handed to an asynchronous consumer a chunk
    /// at a time, at most `capacity` chunks ahead of it, so that memory does not grow with the file.
    ///
    /// A store whose writes are asynchronous (PostgreSQL) cannot call ``read(_:)``, which is
    /// synchronous, from inside its transaction: this is the bridge. The reading stops at its next
    /// chunk once the consumer stops iterating, or its task is cancelled.
    public func chunks(of size: Int = 2048, ahead capacity: Int = 4) -> ImportChunks {
        precondition(size > 0 && capacity > 0)
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ImportChunk.self, throwing: (any Error).self)
        // Made empty and then filled: libdispatch traps when a semaphore is released holding less
        // than it was made with, which a consumer that stops early would leave.
        let room = DispatchSemaphore(value: 0)
        for _ in 0..<capacity { room.signal() }
        let stop = StopFlag()
        continuation.onTermination = { _ in
            stop.raise()
            room.signal()  // a reader waiting for room wakes, sees the flag, and stops
        }
        let thread = Thread { [self] in
            func hand(_ rows: [ImportRow]) throws {
                room.wait()
                if stop.isRaised { throw ReadingStopped() }
                continuation.yield(.rows(rows))
            }
            var chunk: [ImportRow] = []
            chunk.reserveCapacity(size)
            let outcome = Result<[ImportProblem], any Error> {
                try read { row in
                    chunk.append(row)
                    if chunk.count == size {
                        try hand(chunk)
                        chunk.removeAll(keepingCapacity: true)
                    }
                }
            }
            // The rows read before the end, or before what the source threw; nobody to tell if the
            // consumer has gone.
            if case .failure(let error) = outcome, error is ReadingStopped { return }
            do {
                if !chunk.isEmpty { try hand(chunk) }
            } catch {
                return
            }
            switch outcome {
            case .success(let problems):
                continuation.yield(.end(problems: problems))
                continuation.finish()
            case .failure(let error):
                continuation.finish(throwing: error)
            }
        }
        thread.name = "commission-import-reader"
        thread.start()
        return ImportChunks(stream: stream, room: room)
    }
}

/// The chunks of an import source, read ahead on a thread of its own (``ImportSource/chunks(of:ahead:)``).
/// Iterate it once.
public struct ImportChunks: AsyncSequence, Sendable {
    public typealias Element = ImportChunk
    let stream: AsyncThrowingStream<ImportChunk, any Error>
    let room: DispatchSemaphore

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<ImportChunk, any Error>.AsyncIterator
        let room: DispatchSemaphore

        /// The next chunk; taking it makes room for the reader to read one more.
        /// - Throws: what the source threw while reading (a file that cannot be read).
        public mutating func next() async throws -> ImportChunk? {
            let chunk = try await base.next()
            if chunk != nil { room.signal() }
            return chunk
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), room: room)
    }
}

/// Thrown inside the reading thread to end the source's `read` once the consumer has gone.
private struct ReadingStopped: Error {}

/// Set once, by the consumer's end; read by the reading thread.
private final class StopFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .releasing) }
    var isRaised: Bool { raised.load(ordering: .acquiring) }
}
