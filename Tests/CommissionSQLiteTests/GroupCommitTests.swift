import CommissionCore
import CommissionSQLite
import CommissionStore
import Dispatch
import Foundation
import GRDB
import GRDBSQLite
import Synchronization
import Testing

/// The book's writes that come while the writer is busy share one transaction (group commit),
/// each as if it had had the transaction alone.
@Suite struct GroupCommitTests {
    /// Forty sales asked for while the writer is held: one commit for all, the book's revision
    /// moved once; the four that name no product are refused and leave nothing (no row, no audit
    /// entry, no summary), the others stand; two with the same idempotency key are one sale.
    @Test func writesThatWaitShareOneCommitAndARefusedOneChangesNothing() async throws {
        let store = try SQLiteStore(.file(temporaryPath()))
        let clinic = try await store.createClinic(ClinicDraft(name: "A", schedule: .monthly))
        let product = try await store.createProduct(
            ProductDraft(name: "P", unitPrice: cents(1000), unitCost: cents(100))
        )
        _ = try await store.createTerms(
            TermsDraft(clinicID: clinic.id, share: try Share(basisPoints: 5000), effectiveFrom: day("2026-01-01"))
        )
        let commits = CommitCounter()
        store.writer.add(transactionObserver: commits)
        let revisionBefore = try await store.writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT revision FROM book")
        }

        // The writer is held until every write below is waiting for it.
        let release = DispatchSemaphore(value: 0)
        store.writer.asyncWriteWithoutTransaction { _ in release.wait() }
        let missing = Product.ID(999)
        let sales = Task {
            await withTaskGroup(of: (Int, Result<Sale, any Error>).self) { group in
                for index in 0..<40 {
                    group.addTask {
                        // Two of them are one sale sent twice with its key: the second is answered with the first's sale.
                        let key = index == 5 || index == 6 ? "same-key" : "key-\(index)"
                        let draft = SaleDraft(
                            clinicID: clinic.id,
                            productID: index % 10 == 7 ? missing : product.id,
                            date: day("2026-02-02"),
                            quantity: key == "same-key" ? 2 : Int64(index % 3 + 1)
                        )
                        do { return (index, .success(try await store.createSale(draft, idempotencyKey: key))) } catch {
                            return (index, .failure(error))
                        }
                    }
                }
                var results: [Int: Result<Sale, any Error>] = [:]
                for await (index, result) in group { results[index] = result }
                return results
            }
        }
        while store.writesWaiting < 40 { try await Task.sleep(for: .milliseconds(5)) }
        release.signal()
        let results = await sales.value

        #expect(commits.count == 1, "forty writes waiting together commit once")
        let refused = results.filter { (try? $0.value.get()) == nil }.keys.sorted()
        #expect(refused == [7, 17, 27, 37])
        for index in refused {
            #expect(throws: StoreError.notFound(.products, id: 999)) { try results[index]!.get() }
        }
        let same = try [results[5]!.get(), results[6]!.get()]
        #expect(same[0].id == same[1].id)
        try await store.writer.read { db in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sale") == 35)
            #expect(
                try Int.fetchOne(
                    db,
                    sql: "SELECT count(*) FROM auditEntry WHERE subject = 'sale' AND action = 'create'"
                ) == 35
            )
            #expect(try Int64.fetchOne(db, sql: "SELECT revision FROM book") == revisionBefore.map { $0 + 1 })
            let summary = try Row.fetchAll(
                db,
                sql:
                    "SELECT saleCount, quantity, revenueMinor, commissionMinor FROM clinicMonthTotal WHERE saleCount > 0"
            ).map { Array($0.databaseValues) }
            let recount = try Row.fetchAll(
                db,
                sql:
                    "SELECT count(*), sum(quantity), sum(revenueMinor), sum(commissionMinor) FROM sale WHERE isVoided = 0"
            ).map { Array($0.databaseValues) }
            #expect(summary == recount)
        }
        let stored = try await store.sales(SaleQuery())
        let expected = results.filter { $0.key != 6 }.compactMap { try? $0.value.get().id }
        #expect(Set(stored.map(\.id)) == Set(expected))
    }

    /// Writes that come while a transaction runs join it before its commit, rather than wait for
    /// it and commit after: a first write (a product's) is held inside its transaction until ten
    /// sales wait; the eleven commit once, and the book's revision moves once.
    /// (It waits for the ten: its limit, far beyond the suite's run, fails a hang, never a slow machine.)
    @Test(.timeLimit(.minutes(10))) func writesThatComeWhileATransactionRunsJoinItBeforeItsCommit() async throws {
        let store = try SQLiteStore(.file(temporaryPath()))
        let clinic = try await store.createClinic(ClinicDraft(name: "A", schedule: .monthly))
        let product = try await store.createProduct(
            ProductDraft(name: "P", unitPrice: cents(1000), unitCost: cents(100))
        )
        let revisionBefore = try await store.writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT revision FROM book")
        }
        let hold = HoldAtFirstChange(of: "product")
        store.writer.add(transactionObserver: hold)
        let commits = CommitCounter()
        store.writer.add(transactionObserver: commits)
        let draft = SaleDraft(clinicID: clinic.id, productID: product.id, date: day("2026-02-02"), noCommission: true)

        // Released however the test ends: a failed one must not leave the writer's thread held.
        defer { hold.release() }
        let first = Task {
            try await store.createProduct(ProductDraft(name: "Q", unitPrice: cents(1000), unitCost: cents(100)))
        }
        while !hold.isHolding { try await Task.sleep(for: .milliseconds(5)) }
        let others = (0..<10).map { _ in Task { try await store.createSale(draft, idempotencyKey: nil) } }
        while store.writesWaiting < 10 { try await Task.sleep(for: .milliseconds(5)) }
        hold.release()
        _ = try await first.value
        for other in others { _ = try await other.value }

        #expect(commits.count == 1, "the ten that came while the first's transaction ran joined it")
        try await store.writer.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sale") == 10)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM product") == 2)
            #expect(try Int64.fetchOne(db, sql: "SELECT revision FROM book") == revisionBefore.map { $0 + 1 })
        }
    }

    /// A transaction SQLite ends by itself (a full disk, an I/O error), inside a statement GRDB did
    /// not run (a `FastStatement`), fails all its writes; and GRDB is left with nothing of it: its
    /// observers are told of the rollback, and in the next transaction a write's changes reach them
    /// at its savepoint's release, before the next write runs (a sale reading a context kept from
    /// before a price changed in the same transaction would be priced wrong).
    @Test(.timeLimit(.minutes(10))) func aTransactionSQLiteEndsItselfLeavesGRDBNothingOfIt() async throws {
        let queue = try DatabaseQueue()
        try await queue.write { db in try db.execute(sql: "CREATE TABLE price (amount INTEGER)") }
        let told = PriceChanges()
        queue.add(transactionObserver: told, extent: .observerLifetime)
        let group = GroupCommit(writer: queue)

        let failed = await group.write { db in
            try db.execute(sql: "INSERT INTO price VALUES (1)")
            // What SQLite does on SQLITE_FULL inside a statement run through its C API.
            sqlite3_exec(db.sqliteConnection, "ROLLBACK", nil, nil, nil)
            throw DatabaseError(resultCode: .SQLITE_FULL)
        }
        #expect((failed as? DatabaseError)?.resultCode == .SQLITE_FULL)
        #expect(told.rollbacks == 1, "GRDB saw the transaction end")

        // Two writes in one transaction: the first held until the second waits to join it.
        let gate = DispatchSemaphore(value: 0)
        let holding = Mutex(false)
        let seenBySecond = Mutex<Int?>(nil)
        async let first = group.write { db in
            try db.execute(sql: "INSERT INTO price VALUES (2)")
            holding.withLock { $0 = true }
            gate.wait()
        }
        while !holding.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        async let second = group.write { _ in seenBySecond.withLock { $0 = told.changes } }
        while group.waitingCount < 1 { try await Task.sleep(for: .milliseconds(5)) }
        gate.signal()
        let (one, two) = await (first, second)
        #expect(one == nil && two == nil)
        #expect(seenBySecond.withLock { $0 } == 1, "the first write's change reached the observer at its release")
        #expect(told.commits == 1)
        #expect(try await queue.read { db in try Int.fetchAll(db, sql: "SELECT amount FROM price") } == [2])
    }

    /// A write that comes while the writer is idle does not wait for others: alone, each of a row
    /// of writes is a commit of its own.
    @Test func aWriteAloneCommitsAtOnce() async throws {
        let store = try SQLiteStore(.file(temporaryPath()))
        let commits = CommitCounter()
        store.writer.add(transactionObserver: commits)
        for index in 0..<5 {
            _ = try await store.createClinic(ClinicDraft(name: "Clinic \(index)", schedule: .monthly))
            #expect(commits.count == index + 1)
        }
    }
}

/// What GRDB tells an observer of the `price` table.
final class PriceChanges: TransactionObserver, Sendable {
    private let counts = Mutex((changes: 0, commits: 0, rollbacks: 0))
    var changes: Int { counts.withLock { $0.changes } }
    var commits: Int { counts.withLock { $0.commits } }
    var rollbacks: Int { counts.withLock { $0.rollbacks } }
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == "price" }
    func databaseDidChange(with event: DatabaseEvent) { counts.withLock { $0.changes += 1 } }
    func databaseDidCommit(_ db: Database) { counts.withLock { $0.commits += 1 } }
    func databaseDidRollback(_ db: Database) { counts.withLock { $0.rollbacks += 1 } }
}

/// Holds the writer inside the transaction of the first change to `table`, until released. (The
/// table is one a write changes through GRDB's statements: a sale's insert and every audit entry
/// bypass them, and their observers.)
final class HoldAtFirstChange: TransactionObserver, Sendable {
    let table: String
    init(of table: String) { self.table = table }
    private let held = Mutex(false)
    private let gate = DispatchSemaphore(value: 0)
    var isHolding: Bool { held.withLock { $0 } }
    func release() { gate.signal() }
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == table }
    func databaseDidChange(with event: DatabaseEvent) {
        guard
            held.withLock({ first in
                defer { first = true }
                return !first
            })
        else { return }
        gate.wait()
    }
    func databaseDidCommit(_ db: Database) {}
    func databaseDidRollback(_ db: Database) {}
}

/// Counts the transactions committed on a connection.
final class CommitCounter: TransactionObserver, Sendable {
    private let commits = Mutex(0)
    var count: Int { commits.withLock { $0 } }
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) { commits.withLock { $0 += 1 } }
    func databaseDidRollback(_ db: Database) {}
}
