import CommissionCore
import CommissionSQLite
import CommissionStore
import Dispatch
import Foundation
import GRDB
import Synchronization
import Testing

/// A new sale's clinic, product, terms, settings, closed periods and prices are read once and kept
/// between sales; every change, by this store, by another process or by a restore, is seen by the
/// next sale.
@Suite struct SaleContextCacheTests {
    /// A book with one clinic at 50% of profit and one product of profit $9.00 a unit.
    struct Book {
        let store: SQLiteStore
        let path: String
        let clinic: Clinic
        let product: Product
        let terms: Terms

        init() async throws {
            path = temporaryPath()
            store = try SQLiteStore(.file(path))
            clinic = try await store.createClinic(ClinicDraft(name: "A", schedule: .monthly))
            product = try await store.createProduct(
                ProductDraft(name: "P", unitPrice: cents(1000), unitCost: cents(100))
            )
            terms = try await store.createTerms(
                TermsDraft(clinicID: clinic.id, share: try Share(basisPoints: 5000), effectiveFrom: day("2026-01-01"))
            ).terms
        }

        func sale(_ date: String = "2026-02-02") async throws -> Sale {
            try await store.createSale(
                SaleDraft(clinicID: clinic.id, productID: product.id, date: day(date), quantity: 1),
                idempotencyKey: nil
            )
        }
    }

    /// Counts the statements run on the writer's connection that read the clinic's terms.
    final class TermsReads: Sendable {
        let count = Mutex(0)
        init(_ store: SQLiteStore) async throws {
            try await store.writer.writeWithoutTransaction { [self] db in
                db.trace { event in
                    if case .statement(let statement) = event, statement.sql.contains("FROM terms WHERE clinicId") {
                        self.count.withLock { $0 += 1 }
                    }
                }
            }
        }
        var value: Int { count.withLock { $0 } }
    }

    @Test func salesAfterTheFirstReadNothingOfTheirContextAgain() async throws {
        let book = try await Book()
        let reads = try await TermsReads(book.store)
        for _ in 0..<5 { #expect(try await book.sale().figures.commission == cents(450)) }
        #expect(reads.value == 1, "five sales at one clinic of one product read its terms once")
    }

    @Test func aChangeByThisStoreIsSeenByTheNextSale() async throws {
        let book = try await Book()
        #expect(try await book.sale().figures.commission == cents(450))
        var terms = book.terms
        terms.share = try Share(basisPoints: 2000)
        _ = try await book.store.updateTerms(terms)
        #expect(try await book.sale().figures.commission == cents(180))
        // A closed period refuses the next sale in it.
        try await book.store.closePeriod(
            clinic: book.clinic.id,
            period: PaySchedule.monthly.period(containing: day("2026-02-02"))
        )
        await #expect(throws: StoreError.self) { try await book.sale() }
        // Its price list gives the next sale its price.
        _ = try await book.store.setPrice(
            PriceDraft(
                clinicID: book.clinic.id,
                productID: book.product.id,
                unitPrice: cents(2000),
                effectiveFrom: day("2026-03-01")
            )
        )
        #expect(try await book.sale("2026-03-02").figures.revenue == cents(2000))
    }

    @Test func aChangeByAnotherProcessIsSeenByTheNextSale() async throws {
        let book = try await Book()
        #expect(try await book.sale().figures.commission == cents(450))
        // Another connection on the file, as the command line beside a server.
        let other = try SQLiteStore(.file(book.path))
        var terms = book.terms
        terms.share = try Share(basisPoints: 2000)
        _ = try await other.updateTerms(terms)
        #expect(try await book.sale().figures.commission == cents(180))
    }

    @Test func aRestoreIsSeenByTheNextSale() async throws {
        let book = try await Book()
        let backup = temporaryPath()
        var terms = book.terms
        terms.share = try Share(basisPoints: 2000)
        _ = try await book.store.updateTerms(terms)
        try await book.store.backup(to: backup)
        terms.share = try Share(basisPoints: 7000)
        _ = try await book.store.updateTerms(terms)
        #expect(try await book.sale().figures.commission == cents(630))
        try await book.store.restore(from: backup)
        #expect(try await book.sale().figures.commission == cents(180))
    }

    /// In one transaction of writes that waited together, a sale after a change of its terms
    /// sees the change.
    @Test func aChangeEarlierInTheSameTransactionIsSeen() async throws {
        let book = try await Book()
        #expect(try await book.sale().figures.commission == cents(450))
        let release = DispatchSemaphore(value: 0)
        book.store.writer.asyncWriteWithoutTransaction { _ in release.wait() }
        var terms = book.terms
        terms.share = try Share(basisPoints: 2000)
        let change = Task { [terms] in try await book.store.updateTerms(terms) }
        while book.store.writesWaiting < 1 { try await Task.sleep(for: .milliseconds(5)) }
        let sale = Task { try await book.sale() }
        while book.store.writesWaiting < 2 { try await Task.sleep(for: .milliseconds(5)) }
        release.signal()
        _ = try await change.value
        #expect(try await sale.value.figures.commission == cents(180))
    }
}
