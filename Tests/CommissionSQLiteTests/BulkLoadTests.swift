import CommissionCore
import CommissionSQLite
import CommissionStore
import Foundation
import GRDB
import Synchronization
import Testing

/// The parts of a bulk import: the reading thread (`ImportRowStream`), the one-statement insert
/// (`SaleFeed`), and the two places a sale can be computed, which must agree.
@Suite struct BulkLoadTests {
    /// Sales computed on the reading thread, against a reader of the pool, are the sales the writer
    /// computes itself: same rows, same summaries, same problems.
    @Test("Sales computed beside the writer are the sales the writer computes") func salesComputedBesideTheWriter()
        async throws
    {
        let beside = try await Self.book()
        let onWriter = try await Self.book()
        var rows: [ImportRow] = []
        for index in 0..<3_000 {  // more than a chunk of the stream, so several cross over
            rows.append(
                ImportRow(
                    line: index + 2,
                    record: .sale(
                        NamedSaleDraft(
                            clinic: index.isMultiple(of: 3) ? "north" : "South",  // names match whatever their case
                            product: index.isMultiple(of: 5) ? "SKU-Q" : "P",  // and a product by its SKU
                            date: day("2026-02-01").adding(days: index % 120),
                            quantity: index % 11 == 0 ? -1 : Int64(1 + index % 4),
                            unitPrice: index.isMultiple(of: 7) ? cents(1500) : nil,
                            discount: index.isMultiple(of: 13) ? cents(99) : .zero,
                            noCommission: index % 17 == 0,
                            note: index.isMultiple(of: 19) ? "line \(index)" : nil
                        )
                    )
                )
            )
        }
        for store in [beside, onWriter] {
            let summary = try await store.importRows(
                from: SalesSource(rows: rows, onlySales: store === beside),
                options: ImportOptions()
            )
            #expect(summary.sales == rows.count)
        }
        let sales = "SELECT * FROM sale ORDER BY id"
        let summaries = ["clinicDayTotal", "clinicMonthTotal", "productMonthTotal", "productYearTotal"].map {
            "SELECT * FROM \($0) ORDER BY 1, 2"
        }
        for sql in [sales] + summaries {
            let expected = try onWriter.writer.read { db in try Row.fetchAll(db, sql: sql) }
            #expect(!expected.isEmpty)
            #expect(try beside.writer.read { db in try Row.fetchAll(db, sql: sql) } == expected, "\(sql)")
        }

        // Rows the book refuses, each for its own reason, are refused alike, with the same line and column.
        let bad = [
            ImportRow(
                line: 2,
                record: .sale(NamedSaleDraft(clinic: "Nowhere", product: "P", date: day("2026-03-02"), quantity: 1))
            ),
            ImportRow(
                line: 3,
                record: .sale(NamedSaleDraft(clinic: "North", product: "Old", date: day("2026-03-02"), quantity: 1))
            ),
            ImportRow(
                line: 4,
                record: .sale(NamedSaleDraft(clinic: "North", product: "P", date: day("2026-01-10"), quantity: 1))
            ),
            ImportRow(
                line: 5,
                record: .sale(NamedSaleDraft(clinic: "North", product: "P", date: day("2024-01-10"), quantity: 1))
            ),
            ImportRow(
                line: 6,
                record: .sale(NamedSaleDraft(clinic: "North", product: "P", date: day("2026-03-02"), quantity: 1))
            ),
        ]
        var refusals: [[ImportProblem]] = []
        for store in [beside, onWriter] {
            let before = try await store.countSales(SaleQuery())
            do {
                _ = try await store.importRows(
                    from: SalesSource(rows: bad, onlySales: store === beside),
                    options: ImportOptions()
                )
                Issue.record("an import with bad rows was accepted")
            } catch StoreError.importRejected(let problems, _) {
                refusals.append(problems)
            }
            #expect(try await store.countSales(SaleQuery()) == before)
        }
        #expect(refusals.count == 2 && refusals[0] == refusals[1])
        #expect(refusals.first?.map(\.line) == [2, 3, 4, 5])
        #expect(refusals.first?.first?.column == "clinic")
    }

    /// A stream the writer lets go of half way stops its reading thread: nothing reads on.
    @Test(.timeLimit(.minutes(10))) func aStreamLeftHalfReadStopsItsReader() async throws {
        let source = CountingSource(rows: 1_000_000)
        do {
            let stream = ImportRowStream(source, chunkSize: 10, capacity: 2)
            for _ in 0..<25 { _ = try stream.next() }
        }
        // The reader returns from the source's `read` at its next chunk; without the stop it would
        // wait for the writer forever, or read the whole million.
        // However long a busy machine takes (the time limit ends a reader left waiting forever).
        while !source.finished.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(source.produced.load(ordering: .acquiring) <= 25 + 10 * 4)
    }

    /// What the source throws reaches the writer after the rows read before it, and a source's
    /// own problems come at the end.
    @Test func aStreamHandsOverRowsThenWhatTheSourceThrew() throws {
        struct Broken: Error {}
        let rows = (0..<5_000).map {
            ImportRow(line: $0 + 2, record: .clinic(ClinicDraft(name: "C\($0)", schedule: .monthly)))
        }
        let failing = ImportRowStream(SalesSource(rows: rows, onlySales: false, failure: Broken()), chunkSize: 64)
        var lines: [Int] = []
        #expect(throws: Broken.self) {
            while let staged = try failing.next() {
                if case .row(let row) = staged { lines.append(row.line) }
            }
        }
        #expect(lines.count == rows.count)
        #expect(zip(lines, rows).first { $0 != $1.line }.map(\.0) == nil)

        let problem = ImportProblem(line: 9, column: "date", reason: "not a date")
        let stream = ImportRowStream(SalesSource(rows: rows, onlySales: false, problems: [problem]), chunkSize: 64)
        var count = 0
        while try stream.next() != nil { count += 1 }
        #expect(count == rows.count)
        #expect(stream.end.problems == [problem])
    }

    /// The feed inserts its sales in order, in one statement, and leaves nothing in the schema.
    @Test func theFeedInsertsInOrderAndLeavesNothingBehind() async throws {
        let store = try await Self.book()
        let clinic = try await store.clinics(ClinicQuery())[0], product = try await store.products(ProductQuery())[0]
        let terms = try await store.terms(TermsQuery(clinicID: clinic.id))[0]
        let schema = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
        let schemaBefore = try store.writer.read { db in try Row.fetchAll(db, sql: schema) }
        let quantities: [Int64] = [3, 1, -2, 7, 5]
        let inserted = try await store.writer.write { db in
            var pending = quantities[...]
            return try SaleFeed.insert(db) {
                guard let quantity = pending.popFirst() else { return nil }
                return Self.sale(
                    clinic: clinic,
                    product: product,
                    terms: terms,
                    quantity: quantity,
                    note: quantity == 7 ? "séance 7" : nil
                )
            }
        }
        #expect(inserted == quantities.count)
        let stored = try store.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT id, quantity, note, revenueMinor FROM sale ORDER BY id")
        }
        #expect(stored.map { $0["quantity"] as Int64 } == quantities)
        #expect(stored.map { $0["id"] as Int64 } == Array(1...Int64(quantities.count)))
        #expect(stored.map { $0["revenueMinor"] as Int64 } == quantities.map { $0 * 2000 })
        #expect(stored[3]["note"] as String? == "séance 7")
        #expect(stored[0]["note"] as String? == nil)
        let basisAndDate = try await store.writer.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT basis || ' ' || date FROM sale")
        }
        #expect(basisAndDate == ["profit 2026-03-02"])
        #expect(try store.writer.read { db in try Row.fetchAll(db, sql: schema) } == schemaBefore)
        // The module is gone from the connection too: the next statement cannot read it.
        #expect(throws: DatabaseError.self) {
            try store.writer.write { db in try Row.fetchAll(db, sql: "SELECT * FROM \(SaleFeed.table)") }
        }
    }

    /// What the feed's source throws ends the statement, undoes its rows, and comes back as it was thrown.
    @Test func aFeedThatThrowsUndoesItsStatementAndRethrows() async throws {
        struct Stop: Error, Equatable { var after: Int }
        let store = try await Self.book()
        let clinic = try await store.clinics(ClinicQuery())[0], product = try await store.products(ProductQuery())[0]
        let terms = try await store.terms(TermsQuery(clinicID: clinic.id))[0]
        let outcome = try await store.writer.write { db -> (any Error)? in
            var given = 0
            do {
                _ = try SaleFeed.insert(db) {
                    given += 1
                    if given == 4 { throw Stop(after: 3) }
                    return Self.sale(clinic: clinic, product: product, terms: terms, quantity: 1, note: nil)
                }
                return nil
            } catch {
                // Inside the same transaction the three rows given before the failure are undone.
                let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM sale")
                #expect(count == 0)
                return error
            }
        }
        #expect(outcome as? Stop == Stop(after: 3))
        // A row SQLite refuses (a check) is SQLite's error, and it too leaves nothing.
        #expect(throws: DatabaseError.self) {
            try store.writer.write { db in
                var given = 0
                _ = try SaleFeed.insert(db) {
                    given += 1
                    guard given <= 2 else { return nil }
                    var sale = Self.sale(clinic: clinic, product: product, terms: terms, quantity: 1, note: nil)
                    if given == 2 { sale.line.unitPrice = cents(-1) }  // unitPriceMinor >= 0
                    return sale
                }
            }
        }
        #expect(try await store.countSales(SaleQuery()) == 0)
    }

    // MARK: Helpers

    /// A file book (a pool, so an import can compute beside the writer) with two clinics, two
    /// products (one archived), terms from 2025, and January 2026 closed at North.
    /// Names match as the book compares them (SQLite's NOCASE: ASCII letters folded, nothing else):
    /// "Émile" and "émile" are two clinics, and each imported sale goes to the one it names, on
    /// either path, however the rows alternate; "ÉMILE" is "Émile", and "EMILE" neither.
    @Test("Names that differ beyond ASCII case are different clinics and products") func namesBeyondASCIICase()
        async throws
    {
        for onlySales in [true, false] {
            let store = try SQLiteStore(.file(temporaryPath()))
            let upper = try await store.createClinic(ClinicDraft(name: "Émile", schedule: .monthly))
            let lower = try await store.createClinic(ClinicDraft(name: "émile", schedule: .monthly))
            let big = try await store.createProduct(
                ProductDraft(name: "Ölbad", unitPrice: cents(1000), unitCost: cents(100))
            )
            let small = try await store.createProduct(
                ProductDraft(name: "ölbad", unitPrice: cents(3000), unitCost: cents(100))
            )
            for clinic in [upper, lower] {
                _ = try await store.createTerms(
                    TermsDraft(
                        clinicID: clinic.id,
                        share: try Share(basisPoints: 5000),
                        effectiveFrom: day("2026-01-01")
                    )
                )
            }
            let names = [
                ("émile", "Ölbad"), ("Émile", "ölbad"), ("ÉMILE", "ölbad"), ("émile", "ÖLBAD"), ("émile", "ölbad"),
                ("Émile", "Ölbad"),
            ]
            func rows(_ names: [(String, String)]) -> [ImportRow] {
                names.enumerated().map { index, name in
                    ImportRow(
                        line: index + 2,
                        record: .sale(
                            NamedSaleDraft(clinic: name.0, product: name.1, date: day("2026-02-02"), quantity: 1)
                        )
                    )
                }
            }
            do {
                _ = try await store.importRows(
                    from: SalesSource(
                        rows: rows(names + [("EMILE", "Ölbad"), ("émile", "OLBAD")]),
                        onlySales: onlySales
                    ),
                    options: ImportOptions()
                )
                Issue.record("names no clinic or product is called were accepted")
            } catch StoreError.importRejected(let problems, _) {
                #expect(problems.map(\.line) == [8, 9], "\(problems)")
            }
            _ = try await store.importRows(
                from: SalesSource(rows: rows(names), onlySales: onlySales),
                options: ImportOptions()
            )
            let sales = try await store.sales(SaleQuery(order: .oldestFirst))
            #expect(sales.map(\.clinicID) == [lower.id, upper.id, upper.id, lower.id, lower.id, upper.id])
            #expect(sales.map(\.productID) == [big.id, small.id, small.id, big.id, small.id, big.id])
        }
    }

    static func book() async throws -> SQLiteStore {
        let store = try SQLiteStore(.file(temporaryPath()))
        let north = try await store.createClinic(ClinicDraft(name: "North", schedule: .monthly))
        let south = try await store.createClinic(ClinicDraft(name: "South", schedule: .weekly(startingOn: .monday)))
        let product = try await store.createProduct(
            ProductDraft(name: "P", unitPrice: cents(2000), unitCost: cents(700))
        )
        _ = try await store.createProduct(
            ProductDraft(name: "Q", sku: "SKU-Q", unitPrice: cents(505), unitCost: cents(10))
        )
        var old = try await store.createProduct(ProductDraft(name: "Old", unitPrice: cents(100), unitCost: cents(1)))
        old.isArchived = true
        _ = try await store.updateProduct(old)
        _ = try await store.createTerms(
            TermsDraft(clinicID: north.id, share: try Share(basisPoints: 3333), effectiveFrom: day("2025-01-01"))
        )
        _ = try await store.createTerms(
            TermsDraft(
                clinicID: north.id,
                productID: product.id,
                basis: .revenue,
                share: try Share(basisPoints: 1250),
                effectiveFrom: day("2026-03-01")
            )
        )
        _ = try await store.createTerms(
            TermsDraft(clinicID: south.id, share: try Share(basisPoints: 4000), effectiveFrom: day("2025-01-01"))
        )
        try await store.closePeriod(
            clinic: north.id,
            period: PayPeriod(start: day("2026-01-01"), end: day("2026-01-31"))
        )
        return store
    }

    static func sale(clinic: Clinic, product: Product, terms: Terms, quantity: Int64, note: String?) -> Sale {
        let line = SaleLine(
            quantity: quantity,
            unitPrice: product.unitPrice,
            unitCost: product.unitCost,
            discount: .zero,
            rate: CommissionRate(share: terms.share, basis: terms.basis)
        )
        let figures = try! line.figures(rounding: .halfAwayFromZero)
        return Sale(
            id: Sale.ID(0),
            clinicID: clinic.id,
            productID: product.id,
            date: day("2026-03-02"),
            line: line,
            termsID: terms.id,
            figures: figures,
            note: note
        )
    }
}

/// Rows from memory, saying whether they are all sales; optionally with problems of its own, or
/// failing after the last row.
struct SalesSource: ImportSource {
    var rows: [ImportRow]
    var onlySales: Bool
    var problems: [ImportProblem] = []
    var failure: (any Error & Sendable)?

    var holdsOnlySales: Bool { onlySales }
    func column(for field: String) -> String? { field }
    func read(_ body: (ImportRow) throws -> Void) throws -> [ImportProblem] {
        for row in rows { try body(row) }
        if let failure { throw failure }
        return problems
    }
}

/// A long source that counts the rows it produced and says when its `read` returned.
final class CountingSource: ImportSource {
    let rows: Int
    let produced = Atomic<Int>(0)
    let finished = Atomic<Bool>(false)

    init(rows: Int) {
        self.rows = rows
    }

    func column(for field: String) -> String? { field }
    func read(_ body: (ImportRow) throws -> Void) throws -> [ImportProblem] {
        defer { finished.store(true, ordering: .releasing) }
        for index in 0..<rows {
            produced.add(1, ordering: .relaxed)
            try body(ImportRow(line: index + 2, record: .clinic(ClinicDraft(name: "C\(index)", schedule: .monthly))))
        }
        return []
    }
}
