import CommissionCore
import CommissionStore
import Foundation
import GRDB
import Synchronization

/// What a new sale reads of its clinic and product (``SaleContext``: the clinic, the product, the
/// clinic's terms, the book's settings, its closed periods, the clinic's prices of the product), kept
/// between writes: a server taking sales one after another reads it once per clinic and product,
/// not six statements per sale.
///
/// What is kept is always what the database holds, within the write transaction that uses it:
/// - a change by another connection or process: SQLite's `data_version`, read in the transaction,
///   moves, and everything kept is dropped;
/// - a change by this connection to a table the context comes from (`clinic`, `product`, `terms`,
///   `closedPeriod`, `priceListEntry`, the book's settings): GRDB tells this observer of it before
///   any later write of the transaction runs (at the end of the savepoint that made it, see
///   ``GroupCommit``); everything kept is dropped, and nothing is kept until the transaction ends;
/// - a whole book put in place (a restore copies pages, which no observer sees): the store reads
///   around the cache while it replaces the book, and drops it after (``replacing(_:)``).
///
/// Only ``SQLiteStore/createSale(_:idempotencyKey:)`` reads through it: its write does nothing
/// else, so no change of the same savepoint can precede its read.
final class SaleContextCache: TransactionObserver, Sendable {
    /// The context without its entry rules, which depend on the day (``EntryRules/init(_:now:)``).
    struct Parts: Sendable {
        var clinic: Clinic
        var product: Product
        var candidates: [Terms]
        var settings: BookSettings
        var closed: ClosedPeriods
        var prices: [PriceListEntry]

        /// The context with the book's entry rules as of now.
        func context(now: Date = Date()) -> SaleContext {
            SaleContext(
                clinic: clinic,
                product: product,
                candidates: candidates,
                rules: EntryRules(settings, now: now),
                closed: closed,
                prices: prices
            )
        }
    }

    private struct Key: Hashable {
        let clinic: Int64
        let product: Int64
    }

    private struct State {
        var dataVersion: Int64?
        var kept: [Key: Parts] = [:]
        /// A table the context comes from changed in the transaction under way.
        var changed = false
        /// Restores under way: the book may change underneath without a word.
        var replacing = 0
    }

    static let tables: Set<String> = ["clinic", "product", "terms", "closedPeriod", "priceListEntry"]

    private let state = Mutex(State())

    init() {}

    /// The context of a sale at `clinic` of `product`, kept or read with `read` (in the caller's transaction).
    func context(
        _ db: Database,
        clinic: Clinic.ID,
        product: Product.ID,
        read: (Database) throws -> Parts
    ) throws -> SaleContext {
        // Read through SQLite's C API (``FastStatement``): once a sale, in the writer's transaction.
        let version = try FastStatement.int64(db.cachedStatement(sql: "PRAGMA data_version"))
        let key = Key(clinic: clinic.rawValue, product: product.rawValue)
        let kept = state.withLock { state -> Parts? in
            if state.dataVersion != version {
                state.kept = [:]
                state.dataVersion = version
            }
            return state.changed || state.replacing > 0 ? nil : state.kept[key]
        }
        if let kept { return kept.context() }
        let parts = try read(db)
        state.withLock { state in
            if !state.changed && state.replacing == 0 && state.dataVersion == version { state.kept[key] = parts }
        }
        return parts.context()
    }

    /// Runs `body`, which replaces the book underneath (a restore): meanwhile a sale reads its
    /// context from the database, and what was kept before is dropped.
    func replacing<T>(_ body: () async throws -> T) async rethrows -> T {
        state.withLock { state in
            state.replacing += 1
            state.kept = [:]
        }
        defer {
            state.withLock { state in
                state.replacing -= 1
                state.kept = [:]
            }
        }
        return try await body()
    }

    // MARK: TransactionObserver

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        switch eventKind {
        case .insert(let table), .delete(let table):
            return Self.tables.contains(table) || table == "book"
        case .update(let table, let columns):
            // The book's revision moves at every write: only its settings matter here.
            return Self.tables.contains(table) || (table == "book" && !columns.isSubset(of: ["revision"]))
        }
    }

    func databaseDidChange(with event: DatabaseEvent) {
        state.withLock { state in
            state.kept = [:]
            state.changed = true
        }
    }

    func databaseDidCommit(_ db: Database) {
        state.withLock { $0.changed = false }
    }

    func databaseDidRollback(_ db: Database) {
        state.withLock { state in
            state.kept = [:]
            state.changed = false
        }
    }
}
