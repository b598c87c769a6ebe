import ArgumentParser
import AsyncHTTPClient
import CSV
import CommissionCore
import CommissionKit
import CommissionPostgres
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import GRDB
import Hummingbird
import NIOCore

@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "commission-bench",
        abstract: "Measure Commission's performance targets, each beside its baseline in the same run.",
        discussion: """
            Generates books of 10k, 100k and 1M sales (50 clinics with mixed schedules and splits, one \
            of them busy, 500 products, five years), then measures the import, the dashboard, a \
            statement, the sales page of one product, sale entry over HTTP with 100 live streams, \
            live-update latency, and the small things a user feels. Prints a \
            table and writes the figures as JSON. It asserts nothing: the machine is shared and noisy, so \
            read the ratios.

            The HTTP load comes from wrk when it is installed (else from this process). \
            `benchmarks/run` installs sqlite3 and wrk, builds both executables in release, and runs it \
            with your arguments:
              benchmarks/run
              benchmarks/run --sizes 10000,100000 --http-seconds 3
            """
    )

    @Option(help: "Book sizes, in sales, comma-separated.") var sizes: String = "10000,100000,1000000"
    @Option(help: "Where to write the figures.") var output: String = "benchmarks/results/latest.json"
    @Option(name: .customLong("http-seconds"), help: "How long each HTTP load runs.") var httpSeconds: Double = 5
    @Option(help: "Dashboard and statement repetitions.") var repetitions: Int = 200
    @Option(help: "The commission executable (default: next to this one).") var commission: String?
    @Option(help: "Build the books in this directory and keep them (default: a temporary one, removed).") var keep:
        String?
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A PostgreSQL server to measure the PostgreSQL store on too, beside SQLite (default: COMMISSION_TEST_POSTGRES_URL, which benchmarks/run sets).",
            valueName: "postgres-url"
        )
    )
    var postgres: String?
    @Option(
        name: .customLong("dashboard-of"),
        help: ArgumentHelp(
            "Only time the dashboard of this existing book (one kept with --keep), on the day of its last sale: to compare two builds on one book.",
            valueName: "book.sqlite"
        )
    )
    var dashboardOf: String?
    @Option(
        name: .customLong("postgres-dashboard-of"),
        help: ArgumentHelp(
            "Only time the dashboard and a statement of the first book of this PostgreSQL database (one `commission migrate` made), on the day of its last sale.",
            valueName: "postgres-url"
        )
    )
    var postgresDashboardOf: String?
    @Option(
        name: .customLong("only-http"),
        help: ArgumentHelp(
            "Only measure sale entry over HTTP (with and without 100 live streams, beside GET /health) and live updates on this existing book (one kept with --keep; a copy is used): to compare two builds on one book.",
            valueName: "book.sqlite"
        )
    )
    var onlyHTTP: String?
    @Option(
        name: .customLong("only-books"),
        help: ArgumentHelp(
            "Only measure a team server of this many books over two databases of the PostgreSQL server (memory, a cold book's first answer).",
            valueName: "count"
        )
    )
    var onlyBooks: Int?
    @Option(
        name: .customLong("only-pages"),
        help: ArgumentHelp(
            "Only time every page of the web app on this existing book (one kept with --keep), signed in as a browser is: to compare two builds on one book.",
            valueName: "book.sqlite"
        )
    )
    var onlyPages: String?
    @Option(
        name: .customLong("page"),
        help: ArgumentHelp(
            "With --only-pages: only this page, by its name in the table (`/ (Sale)`, `/year`; repeat for more), timed 200 times: to profile one page.",
            valueName: "name"
        )
    )
    var page: [String] = []
    @Flag(
        name: .customLong("only-postgres"),
        help: ArgumentHelp(
            "Only what PostgreSQL is measured beside: each book imported into SQLite, its dashboard and statement, then the PostgreSQL rows, no HTTP, sync or 1,000-book parts."
        )
    )
    var onlyPostgres = false
    @Flag(
        name: .customLong("only-files"),
        help: ArgumentHelp(
            "Only her bank's and clinics' own files: a CAMT.053 of 10,000 entries and a 3,000-line statement as PDF, each beside the same as CSV."
        )
    )
    var onlyFiles = false

    func run() async throws {
        if onlyFiles {
            let work = FileManager.default.temporaryDirectory.appendingPathComponent(
                "commission-bench-\(UUID().uuidString)"
            )
            // try?: the bench's temporary work directory; the OS cleans its temporary directory
            defer { try? FileManager.default.removeItem(at: work) }
            var report = Report(machine: machine(), date: ISO8601DateFormatter().string(from: Date()), rows: [])
            try await BankFileBench(directory: work).run(report: &report)
            print(report.table())
            return
        }
        if let count = onlyBooks {
            guard
                let server = postgres
                    ?? ProcessInfo.processInfo.environment["COMMISSION_TEST_POSTGRES_URL"].flatMap({
                        $0.isEmpty ? nil : $0
                    })
            else {
                throw ValidationError(
                    "--only-books needs a PostgreSQL server: --postgres, or COMMISSION_TEST_POSTGRES_URL (benchmarks/run sets it)."
                )
            }
            var report = Report(machine: machine(), date: ISO8601DateFormatter().string(from: Date()), rows: [])
            try await ManyBooksBench(
                server: server,
                binary: commission
                    ?? Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("commission").path,
                books: count
            ).run(report: &report)
            print(report.table())
            return
        }
        if let path = onlyPages {
            let store = try SQLiteStore(.file(path))
            store.cacheHotReads()  // as `commission serve` does
            let today = try await store.settings().today()
            let size = try await store.countSales(SaleQuery())
            var report = Report(machine: machine(), date: ISO8601DateFormatter().string(from: Date()), rows: [])
            let pages = try await PageBench.measure(
                store,
                clinic: try await busiestClinic(path, today: today),
                repetitions: page.isEmpty ? 20 : 200,
                budget: page.isEmpty ? 10 : 60,
                only: page.isEmpty ? nil : page
            )
            PageBench.report(pages, size: size, store: "SQLite", small: nil, into: &report)
            print(report.table())
            return
        }
        if let path = onlyHTTP {
            // On a copy: the load adds tens of thousands of sales to the book it runs on.
            let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
                "commission-bench-\(UUID().uuidString).sqlite"
            )
            try FileManager.default.copyItem(atPath: path, toPath: copy.path)
            // try?: a temporary copy of the book; the OS cleans its temporary directory
            defer { try? FileManager.default.removeItem(at: copy) }
            var report = Report(machine: machine(), date: ISO8601DateFormatter().string(from: Date()), rows: [])
            try await HTTPBench(path: copy.path, seconds: httpSeconds).run(report: &report)
            print(report.table())
            return
        }
        if let url = postgresDashboardOf {
            let database = try await PostgresBookDatabase(url: url)
            defer { database.shutdown() }
            let store = try await PostgresStore.firstBook(in: database, creatingWith: SQLiteStore.systemDefaultSettings)
            guard let last = try await store.sales(SaleQuery(page: Page(limit: 1))).first?.date else {
                throw ValidationError("The book has no sales.")
            }
            _ = try await store.dashboard(today: last)
            let dashboard = try await timed(repetitions) { _ = try await store.dashboard(today: last) }
            print(
                String(
                    format: "dashboard on PostgreSQL on %@: p50 %.2f ms, p99 %.2f ms (%d runs)",
                    last.description,
                    dashboard.p50,
                    dashboard.p99,
                    repetitions
                )
            )
            if let clinic = try await store.clinics(ClinicQuery()).first {
                let period = clinic.calendar.period(before: clinic.calendar.period(containing: last))
                let statement = try await timed(repetitions) {
                    _ = try await store.statement(clinic: clinic.id, period: period)
                }
                print(
                    String(
                        format: "statement of %@ for %@: p50 %.2f ms, p99 %.2f ms",
                        clinic.name,
                        period.start.description,
                        statement.p50,
                        statement.p99
                    )
                )
            }
            return
        }
        if let path = dashboardOf {
            let store = try SQLiteStore(.file(path))
            guard let last = try await store.sales(SaleQuery(page: Page(limit: 1))).first?.date else {
                throw ValidationError("\(path) has no sales.")
            }
            _ = try await store.dashboard(today: last)
            let dashboard = try await timed(repetitions) { _ = try await store.dashboard(today: last) }
            print(
                String(
                    format: "dashboard of %@ on %@: p50 %.2f ms, p99 %.2f ms (%d runs)",
                    path,
                    last.description,
                    dashboard.p50,
                    dashboard.p99,
                    repetitions
                )
            )
            return
        }
        let sizes = try self.sizes.split(separator: ",").map {
            guard let n = Int($0.trimmingWhitespace()), n >= 1000 else {
                throw ValidationError("Sizes are whole numbers of at least 1000.")
            }
            return n
        }
        let binary =
            commission
            ?? Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("commission").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw ValidationError(
                "\(binary) is missing: build it first with `swift build -c release --product commission`."
            )
        }
        guard let sqlite3 = which("sqlite3") else {
            throw ValidationError("The sqlite3 shell is missing: apt-get install sqlite3.")
        }
        let work =
            keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("commission-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        // try?: the bench's temporary work directory; the OS cleans its temporary directory
        defer { if keep == nil { try? FileManager.default.removeItem(at: work) } }

        var report = Report(machine: machine(), date: ISO8601DateFormatter().string(from: Date()), rows: [])
        let started = ContinuousClock.now
        var dashboardP50: [Int: Double] = [:]
        var largest: (size: Int, path: String, today: Day)?
        var sideBySide: [SideBySide] = []
        var pagesAtSmallest: [String: Double]?

        if !onlyPostgres {
            note("== her bank's files")
            try await BankFileBench(directory: work.appendingPathComponent("bank")).run(report: &report)
        }
        for size in sizes {
            note("== \(size) sales")
            let book = try BookGenerator(sales: size, directory: work.appendingPathComponent("\(size)"))
            try book.write()
            let db = book.directory.appendingPathComponent("book.sqlite").path

            // 1. Import, against sqlite3 .import of the same file into a bare table.
            let setup = try runProcess(
                binary,
                ["import", book.clinicsCSV, book.productsCSV, book.termsCSV, "--db", db]
            )
            guard setup.status == 0 else { throw ValidationError("setting up the book failed: \(setup.output)") }
            for command in book.realTermsCommands {
                let run = try runProcess(binary, command + ["--db", db])
                guard run.status == 0 else {
                    throw ValidationError("\(command.joined(separator: " ")) failed: \(run.output)")
                }
            }
            let imported = try runProcess(binary, ["import", book.salesCSV, "--db", db])
            guard imported.status == 0 else { throw ValidationError("the import failed: \(imported.output)") }
            if onlyPostgres {
                let store = try SQLiteStore(.file(db))
                let today = book.lastDay
                _ = try await store.dashboard(today: today)
                let dashboard = try await timed(repetitions) { _ = try await store.dashboard(today: today) }
                sideBySide.append(
                    SideBySide(
                        size: size,
                        path: db,
                        today: today,
                        imported: imported.seconds,
                        dashboard: dashboard.p50,
                        busiestClinic: try await busiestClinic(db, today: today)
                    )
                )
                continue
            }
            let bare = book.directory.appendingPathComponent("bare.sqlite").path
            let baseline = try runProcess(sqlite3, [bare], input: ".mode csv\n.import \(book.salesCSV) sales\n")
            report.add(
                "import \(size) sales",
                measured: imported.seconds * 1000,
                unit: "ms",
                baseline: baseline.seconds * 1000,
                baselineName: "sqlite3 .import",
                target: "≤ 3× baseline",
                met: imported.seconds <= 3 * baseline.seconds
            )
            // The same .import into a table indexed as `sale` is (by clinic and date; by date, then
            // product): how much of the gap is SQLite keeping indexes.
            let indexed = book.directory.appendingPathComponent("indexed.sqlite").path
            let withIndexes = try runProcess(
                sqlite3,
                [indexed],
                input: """
                    CREATE TABLE sales (date TEXT, clinic TEXT, product TEXT, quantity TEXT, unitPrice TEXT, discount TEXT, noCommission TEXT, note TEXT);
                    CREATE INDEX sales_clinic_date ON sales(clinic, date);
                    CREATE INDEX sales_date ON sales(date, product);
                    .import --csv --skip 1 \(book.salesCSV) sales

                    """
            )
            guard withIndexes.status == 0 else {
                throw ValidationError("sqlite3 .import into an indexed table failed: \(withIndexes.output)")
            }
            report.add(
                "import \(size) sales, against an indexed table",
                measured: imported.seconds * 1000,
                unit: "ms",
                baseline: withIndexes.seconds * 1000,
                baselineName: "sqlite3 .import, 2 indexes",
                target: nil,
                met: nil
            )
            // SQLite's floor for `sale` itself: the sales just imported, already computed, copied by
            // one INSERT … SELECT into an empty table with sale's columns, checks and indexes (the
            // summaries' triggers left out, as an import leaves them), with the import's settings.
            // What the import costs beyond it is reading, computing and handing over the rows.
            let floor = book.directory.appendingPathComponent("floor.sqlite").path
            let saleSchema = try await DatabaseQueue(path: db).read { db in
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT sql || ';' FROM sqlite_master WHERE tbl_name = 'sale' AND type IN ('table', 'index') AND sql IS NOT NULL
                        ORDER BY type = 'index', name
                        """
                )
            }.joined(separator: "\n")
            let copied = try runProcess(
                sqlite3,
                [floor],
                input: """
                    PRAGMA journal_mode = WAL;
                    \(saleSchema)
                    PRAGMA cache_size = -65536;
                    PRAGMA temp_store = MEMORY;
                    ATTACH '\(db)' AS book;
                    BEGIN;
                    INSERT INTO main.sale SELECT * FROM book.sale ORDER BY id;
                    COMMIT;

                    """
            )
            guard copied.status == 0 else {
                throw ValidationError("copying the sales with sqlite3 failed: \(copied.output)")
            }
            report.add(
                "import \(size) sales, against SQLite's own copy into sale",
                measured: imported.seconds * 1000,
                unit: "ms",
                baseline: copied.seconds * 1000,
                baselineName: "sqlite3 INSERT … SELECT",
                target: nil,
                met: nil
            )
            if size == sizes.last {
                // The same sales as a workbook (one sheet, as a spreadsheet saves it), into a book set up the same way.
                let workbook = book.directory.appendingPathComponent("sales.xlsx").path
                try WorkbookWriter.write(csv: book.salesCSV, to: workbook)
                let fromWorkbook = book.directory.appendingPathComponent("workbook.sqlite").path
                for command in [["import", book.clinicsCSV, book.productsCSV, book.termsCSV]] + book.realTermsCommands {
                    let run = try runProcess(binary, command + ["--db", fromWorkbook])
                    guard run.status == 0 else {
                        throw ValidationError("\(command.joined(separator: " ")) failed: \(run.output)")
                    }
                }
                let xlsx = try runProcess(binary, ["import", workbook, "--db", fromWorkbook])
                guard xlsx.status == 0 else { throw ValidationError("the workbook import failed: \(xlsx.output)") }
                report.add(
                    "import \(size) sales from .xlsx",
                    measured: xlsx.seconds * 1000,
                    unit: "ms",
                    baseline: imported.seconds * 1000,
                    baselineName: "the same sales from CSV",
                    target: "≤ 2× baseline",
                    met: xlsx.seconds <= 2 * imported.seconds
                )
                report.add(
                    "import \(size) sales from .xlsx: CPU time",
                    measured: xlsx.cpuSeconds * 1000,
                    unit: "ms",
                    baseline: imported.cpuSeconds * 1000,
                    baselineName: "the same sales from CSV",
                    target: nil,
                    met: nil
                )
                let (ours, library) = try readCSV(book.salesCSV)
                report.add(
                    "read the \(size)-line CSV (every field)",
                    measured: ours * 1000,
                    unit: "ms",
                    baseline: library * 1000,
                    baselineName: "CSV.swift",
                    target: nil,
                    met: nil
                )
            }
            report.add(
                "import \(size) sales: peak memory",
                measured: Double(imported.maxRSSKiB) / 1024,
                unit: "MB",
                baseline: nil,
                baselineName: nil,
                target: "< 150 MB",
                met: imported.maxRSSKiB < 150 * 1024
            )

            // 2. The whole dashboard, against the naive GROUP BY over every sale.
            let store = try SQLiteStore(.file(db))
            let today = book.lastDay
            _ = try await store.dashboard(today: today)
            let dashboard = try await timed(repetitions) { _ = try await store.dashboard(today: today) }
            let pool = try DatabasePool(path: db)
            let naive = try await timed(3) {
                _ = try pool.read { db in
                    try Row.fetchAll(
                        db,
                        sql:
                            "SELECT clinicId, substr(date, 1, 7), sum(revenueMinor), sum(commissionMinor) FROM sale WHERE isVoided = 0 GROUP BY 1, 2"
                    )
                }
            }
            dashboardP50[size] = dashboard.p50
            report.add(
                "dashboard at \(size): p50",
                measured: dashboard.p50,
                unit: "ms",
                baseline: naive.p50,
                baselineName: "naive GROUP BY",
                target: "≤ 5 ms",
                met: dashboard.p50 <= 5
            )
            report.add(
                "dashboard at \(size): p99",
                measured: dashboard.p99,
                unit: "ms",
                baseline: nil,
                baselineName: nil,
                target: nil,
                met: nil
            )

            // 3. The statement of the busiest clinic-period of the last month.
            let busiest = try await busiestClinic(db, today: today)
            if let busiest {
                let clinic = try await store.clinic(busiest)
                let period = clinic.calendar.period(before: clinic.calendar.period(containing: today))
                let lines = try await store.statement(clinic: clinic.id, period: period).lines.count
                let statement = try await timed(max(10, repetitions / 4)) {
                    _ = try await store.statement(clinic: clinic.id, period: period)
                }
                report.add(
                    "statement at \(size) (\(lines) lines): p50",
                    measured: statement.p50,
                    unit: "ms",
                    baseline: nil,
                    baselineName: nil,
                    target: "≤ 20 ms",
                    met: statement.p50 <= 20
                )
            }

            // 4. The web app's sales page filtered by one product (its newest 50 sales and their
            // count), beside the same page unfiltered: a product's sales are found by scanning the
            // date index, which carries the product (see the v7 migration).
            let product = try await pool.read { db in
                try Int64.fetchOne(db, sql: "SELECT productId FROM sale ORDER BY id DESC LIMIT 1")
            }
            if let product {
                func page(_ query: SaleQuery) async throws -> Timing {
                    try await timed(max(10, repetitions / 4)) {
                        _ = try await store.sales(query)
                        _ = try await store.countSales(query)
                    }
                }
                let filtered = try await page(SaleQuery(productID: Product.ID(product), page: Page(limit: 50)))
                let unfiltered = try await page(SaleQuery(page: Page(limit: 50)))
                report.add(
                    "sales page of one product at \(size): p50",
                    measured: filtered.p50,
                    unit: "ms",
                    baseline: unfiltered.p50,
                    baselineName: "the page unfiltered",
                    target: nil,
                    met: nil
                )
            }
            try pool.close()
            largest = (size, db, today)

            // Every page as her browser asks for it (issue 51), each beside itself on the smallest book.
            note("== every page at \(size) sales")
            let served = try SQLiteStore(.file(db))
            served.cacheHotReads()  // as `commission serve` does
            let pages = try await PageBench.measure(served, clinic: busiest)
            PageBench.report(pages, size: size, store: "SQLite", small: pagesAtSmallest, into: &report)
            if pagesAtSmallest == nil {
                pagesAtSmallest = Dictionary(uniqueKeysWithValues: pages.map { ($0.name, $0.figure.timing.p50) })
            }

            sideBySide.append(
                SideBySide(
                    size: size,
                    path: db,
                    today: today,
                    imported: imported.seconds,
                    dashboard: dashboard.p50,
                    busiestClinic: busiest
                )
            )
        }
        if let small = sizes.first, let large = sizes.last, small != large, let a = dashboardP50[small],
            let b = dashboardP50[large]
        {
            report.add(
                "dashboard p50 at \(large) ÷ p50 at \(small)",
                measured: b / a,
                unit: "×",
                baseline: nil,
                baselineName: nil,
                target: "≤ 2×",
                met: b / a <= 2
            )
        }

        if let largest, !onlyPostgres {
            note("== HTTP and live updates on the \(largest.size)-sale book")
            try await HTTPBench(path: largest.path, seconds: httpSeconds).run(report: &report)
            if let smallest = sideBySide.first {
                note("== local-first sync on the \(smallest.size)-sale book")
                try await SyncBench(path: smallest.path, offlineSales: 10_000).run(report: &report)
            }
            // The everyday sync on the book nearest 100,000 sales.
            if let book = sideBySide.min(by: { abs($0.size - 100_000) < abs($1.size - 100_000) }) {
                note("== the everyday sync on the \(book.size)-sale book")
                try await SyncBench.everyday(path: book.path, report: &report)
            }
            note("== the small things")
            try await smallThings(binary: binary, db: largest.path, report: &report)
        }

        // The same books on PostgreSQL, last: its background writes after a big copy would disturb the
        // SQLite and HTTP figures.
        if let server = postgres
            ?? ProcessInfo.processInfo.environment["COMMISSION_TEST_POSTGRES_URL"].flatMap({ $0.isEmpty ? nil : $0 })
        {
            note("== the same books on PostgreSQL")
            for book in sideBySide {
                try await postgresFigures(
                    book,
                    server: server,
                    binary: binary,
                    measureWriters: book.size == sideBySide.last?.size,
                    report: &report
                )
            }
            if !onlyPostgres {
                note("== a team server of 10,000 books over two databases")
                try await ManyBooksBench(server: server, binary: binary, books: 10_000).run(report: &report)
            }
        }

        report.totalSeconds = (ContinuousClock.now - started).seconds
        print(report.table())
        // Out before the note on standard error: the two can share a file (benchmarks/run > log).
        fflush(nil)
        let url = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(report).write(to: url)
        note("Wrote \(output) (\(String(format: "%.0f", report.totalSeconds)) s in all).")
    }

    /// The clinic with the most sales since the first of last month: the statement measured.
    func busiestClinic(_ path: String, today: Day) async throws -> Clinic.ID? {
        try await DatabaseQueue(path: path).read { db in
            try Int64.fetchOne(
                db,
                sql: "SELECT clinicId FROM sale WHERE date >= ? GROUP BY 1 ORDER BY count(*) DESC LIMIT 1",
                arguments: [today.firstOfMonth.adding(days: -1).firstOfMonth.description]
            )
        }.map { Clinic.ID($0) }
    }

    /// A SQLite book measured, to measure again on PostgreSQL.
    struct SideBySide {
        var size: Int
        var path: String
        var today: Day
        var imported: Double
        var dashboard: Double
        var busiestClinic: Clinic.ID?
    }

    /// The book migrated to a scratch database of `server` (`commission migrate`), its dashboard and
    /// statement timed on PostgreSQL beside SQLite, and (`measureWriters`) eight writers on each; the
    /// database is dropped afterwards.
    func postgresFigures(
        _ book: SideBySide,
        server: String,
        binary: String,
        measureWriters: Bool,
        report: inout Report
    ) async throws {
        let size = book.size, today = book.today
        let url = try await PostgresBookDatabase.createDatabase(prefix: "commission_bench", onServer: server)
        let copied = try runProcess(binary, ["migrate", "--from", "sqlite:\(book.path)", "--to", url, "--skip-proof"])
        guard copied.status == 0 else { throw ValidationError("migrating to PostgreSQL failed: \(copied.output)") }
        report.add(
            "migrate \(size) sales to PostgreSQL",
            measured: copied.seconds * 1000,
            unit: "ms",
            baseline: book.imported * 1000,
            baselineName: "import into SQLite",
            target: nil,
            met: nil
        )
        // Reads are timed on the database as autovacuum leaves it after a big copy (visibility map
        // and hint bits set, and written out), not while it works through the new rows, or writes
        // them out, beside the measurement.
        if let psql = which("psql") {
            let settled = try runProcess(psql, [url, "-q", "-c", "VACUUM (ANALYZE)", "-c", "CHECKPOINT"])
            guard settled.status == 0 else { throw ValidationError("VACUUM failed: \(settled.output)") }
        }
        let database = try await PostgresBookDatabase(url: url)
        let onPostgres = try await PostgresStore.firstBook(
            in: database,
            creatingWith: SQLiteStore.systemDefaultSettings
        )
        _ = try await onPostgres.dashboard(today: today)
        let dashboard = try await timed(repetitions) { _ = try await onPostgres.dashboard(today: today) }
        // Issue 34's target is at a million sales; the smaller books' rows stand beside it.
        let heldToTarget = size >= 1_000_000
        report.add(
            "dashboard at \(size), PostgreSQL: p50",
            measured: dashboard.p50,
            unit: "ms",
            baseline: book.dashboard,
            baselineName: "SQLite",
            target: heldToTarget ? "≤ 1.5× baseline" : nil,
            met: heldToTarget ? dashboard.p50 <= 1.5 * book.dashboard : nil
        )
        if let busiest = book.busiestClinic {
            let store = try SQLiteStore(.file(book.path))
            let name = try await store.clinic(busiest).name
            let clinic = try await onPostgres.clinic(named: name)
            let period = clinic.calendar.period(before: clinic.calendar.period(containing: today))
            let onSQLite = try await timed(max(10, repetitions / 4)) {
                _ = try await store.statement(clinic: busiest, period: period)
            }
            let statement = try await timed(max(10, repetitions / 4)) {
                _ = try await onPostgres.statement(clinic: clinic.id, period: period)
            }
            report.add(
                "statement at \(size), PostgreSQL: p50",
                measured: statement.p50,
                unit: "ms",
                baseline: onSQLite.p50,
                baselineName: "SQLite",
                target: nil,
                met: nil
            )
            if measureWriters {
                // Eight writers recording sales into one book at once, as fast as they can.
                let product = try await store.sales(SaleQuery(clinicID: busiest, page: Page(limit: 1))).first?.productID
                if let product {
                    let productName = try await store.product(product).name
                    let onSQLite = try await writers(store, clinic: busiest, product: product, today: today)
                    let onPostgres = try await writers(
                        onPostgres,
                        clinic: clinic.id,
                        product: try await onPostgres.product(named: productName).id,
                        today: today
                    )
                    report.add(
                        "8 writers on one book, PostgreSQL",
                        measured: onPostgres,
                        unit: "sales/s",
                        baseline: onSQLite,
                        baselineName: "SQLite",
                        target: "≥ 500",
                        met: onPostgres >= 500
                    )
                }
            }
        }
        database.shutdown()
        try await PostgresBookDatabase.dropDatabase(url, onServer: server)
    }

    /// Sales a second that eight tasks record into one book together, each as fast as its sales are
    /// acknowledged, for three seconds.
    func writers(
        _ store: any CommissionStore,
        clinic: Clinic.ID,
        product: Product.ID,
        today: Day
    ) async throws -> Double {
        let deadline = ContinuousClock.now + .seconds(3), start = ContinuousClock.now
        let run = UUID().uuidString
        let made = try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    var count = 0
                    while ContinuousClock.now < deadline {
                        _ = try await store.createSale(
                            SaleDraft(
                                clinicID: clinic,
                                productID: product,
                                date: today,
                                quantity: Int64(count % 3 + 1)
                            ),
                            idempotencyKey: "\(run)-\(writer)-\(count)"
                        )
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(made) / (ContinuousClock.now - start).seconds
    }

    /// Seconds to read every field of a CSV file with `CSVScanner` (what the import uses) and with CSV.swift.
    func readCSV(_ path: String) throws -> (ours: Double, library: Double) {
        let clock = ContinuousClock()
        var ourFields = 0, libraryFields = 0
        let ours = try clock.measure {
            guard var scanner = CSVScanner(path: path, delimiter: UInt8(ascii: ",")) else {
                throw ValidationError("cannot open \(path)")
            }
            while let record = try scanner.next() { ourFields += record.fields.count }
        }
        let library = try clock.measure {
            guard let stream = InputStream(fileAtPath: path) else { throw ValidationError("cannot open \(path)") }
            let reader = try CSVReader(stream: stream)
            while let row = reader.next() { libraryFields += row.count }
        }
        guard ourFields == libraryFields else {
            throw ValidationError("the two CSV readers disagree: \(ourFields) and \(libraryFields) fields")
        }
        return (ours.seconds, library.seconds)
    }

    /// `commission sale add` from process start to exit; `commission serve` until its first answer; server memory.
    func smallThings(binary: String, db: String, report: inout Report) async throws {
        var saleTimes: [Double] = []
        for _ in 0..<20 {
            let run = try runProcess(binary, ["sale", "add", "Clinic 001", "Product 001", "--db", db])
            guard run.status == 0 else { throw ValidationError("sale add failed: \(run.output)") }
            saleTimes.append(run.seconds * 1000)
        }
        let trueRun = try (0..<20).map { _ in try runProcess("/bin/true", []).seconds * 1000 }
        report.add(
            "commission sale add, start to exit: p50",
            measured: percentile(saleTimes, 50),
            unit: "ms",
            baseline: percentile(trueRun, 50),
            baselineName: "/bin/true",
            target: "≤ 100 ms",
            met: percentile(saleTimes, 50) <= 100
        )

        let start = ContinuousClock.now
        let (process, port) = try startServer(binary, ["--db", db])
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        var firstAnswer: Double?
        while (ContinuousClock.now - start) < .seconds(10) {
            // try?: polling until the server answers; one that never does is reported as an infinite start
            if let (status, _) = try? await get("http://127.0.0.1:\(port)/health"), status == 200 {
                firstAnswer = (ContinuousClock.now - start).seconds * 1000
                break
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        report.add(
            "commission serve, start to first answer",
            measured: firstAnswer ?? .infinity,
            unit: "ms",
            baseline: nil,
            baselineName: nil,
            target: "≤ 500 ms",
            met: (firstAnswer ?? .infinity) <= 500
        )
        try await Task.sleep(for: .seconds(1))
        let idle = memory(of: process.processIdentifier).rss
        report.add(
            "server memory, idle",
            measured: idle,
            unit: "MB",
            baseline: nil,
            baselineName: nil,
            target: "≤ 60 MB",
            met: idle <= 60
        )

        // Serve dashboards of the big book for a while (through a token made for the purpose).
        let store = try SQLiteStore(.file(db))
        let owner: Account
        if let existing = try await store.ownerAccount() {
            owner = existing
        } else {
            owner = try await store.createOwner(username: "bench", passwordHash: "x")
        }
        let secret = "cm_bench_\(UUID().uuidString)"
        _ = try await store.createToken(
            account: owner.id,
            name: "bench",
            tokenDigest: WebSecrets.digest(secret),
            now: Date()
        )
        for _ in 0..<200 {
            _ = try await get("http://127.0.0.1:\(port)/api/v1/dashboard", token: secret)
        }
        let serving = memory(of: process.processIdentifier).peak
        report.add(
            "server memory, peak serving dashboards",
            measured: serving,
            unit: "MB",
            baseline: nil,
            baselineName: nil,
            target: "≤ 150 MB",
            met: serving <= 150
        )
    }
}

// MARK: Measuring

struct Timing {
    var samples: [Double]
    var p50: Double { percentile(samples, 50) }
    var p99: Double { percentile(samples, 99) }
}

/// Runs `body` `count` times and returns the durations in milliseconds.
func timed(_ count: Int, _ body: () async throws -> Void) async throws -> Timing {
    var samples: [Double] = []
    samples.reserveCapacity(count)
    for _ in 0..<count {
        let start = ContinuousClock.now
        try await body()
        samples.append((ContinuousClock.now - start).seconds * 1000)
    }
    return Timing(samples: samples)
}

func percentile(_ samples: [Double], _ p: Double) -> Double {
    guard !samples.isEmpty else { return .nan }
    let sorted = samples.sorted()
    let index = min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))
    return sorted[index]
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

struct ProcessResult {
    var status: Int32
    var seconds: Double
    var maxRSSKiB: Int
    var output: String
    /// The CPU time it used, user and system.
    var cpuSeconds: Double = 0
}

/// Runs a program to its end, timing it and reading its peak memory from the kernel (`wait4`).
/// Spawned directly rather than through `Process`, which reaps its children itself.
func runProcess(_ path: String, _ arguments: [String], input: String? = nil) throws -> ProcessResult {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("bench-out-\(UUID().uuidString)").path
    let inputPath = FileManager.default.temporaryDirectory.appendingPathComponent("bench-in-\(UUID().uuidString)").path
    try Data((input ?? "").utf8).write(to: URL(fileURLWithPath: inputPath))
    defer {
        // try?: the child's captured output, a temporary file; the OS cleans its temporary directory
        try? FileManager.default.removeItem(atPath: output)
        // try?: the child's input, a temporary file; the OS cleans its temporary directory
        try? FileManager.default.removeItem(atPath: inputPath)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
    guard spawned == 0 else { throw ValidationError("cannot run \(path): error \(spawned)") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let seconds = (ContinuousClock.now - start).seconds
    // try?: output unread is empty: it only goes into failure messages, and wrk's parse throws on it
    let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    let cpu =
        Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
        / 1_000_000
    return ProcessResult(
        status: (status >> 8) & 0xFF,
        seconds: seconds,
        maxRSSKiB: Int(usage.ru_maxrss),
        output: text,
        cpuSeconds: cpu
    )
}

/// ``runProcess(_:_:input:)`` waited for on a thread of its own, not on one of Swift concurrency's:
/// for a load generator run against a server in this process (`wrk`), whose wait would otherwise
/// hold one of the cooperative pool's threads (as many as the cores) and leave the server the rest.
func runProcessAside(_ path: String, _ arguments: [String]) async throws -> ProcessResult {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try runProcess(path, arguments) })
        }
    }
}

/// Resident and peak resident memory of a process, in MB, from /proc.
func memory(of pid: Int32) -> (rss: Double, peak: Double) {
    // try?: the memory of a process gone or unreadable shows as NaN, never as a figure
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return (.nan, .nan) }
    func field(_ name: String) -> Double {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }),
            let kib = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return .nan }
        return kib / 1024
    }
    return (field("VmRSS"), field("VmHWM"))
}

/// `commission serve` with `arguments` on a free port of 127.0.0.1, started (not yet answering).
func startServer(_ binary: String, _ arguments: [String]) throws -> (Process, port: Int) {
    let port = try freePort()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["serve"] + arguments + ["--port", "\(port)"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return (process, port)
}

func which(_ name: String) -> String? {
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let path = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

func get(_ url: String, token: String? = nil) async throws -> (Int, ByteBuffer) {
    var request = HTTPClientRequest(url: url)
    if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
    return (Int(response.status.code), try await response.body.collect(upTo: 16 * 1024 * 1024))
}

func machine() -> String {
    let cpu =
        // try?: the CPU's name for the report's header; "unknown CPU" when /proc cannot be read
        (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?.split(separator: "\n")
        .first { $0.hasPrefix("model name") }.map {
            $0.split(separator: ":").last.map { $0.trimmingWhitespace() } ?? ""
        } ?? "unknown CPU"
    let sqlite =
        // try?: SQLite's version for the report's header; "?" when sqlite3 does not run
        (try? runProcess(which("sqlite3") ?? "/usr/bin/sqlite3", ["--version"]).output.split(separator: " ").first.map(
            String.init
        )) ?? "?"
    return "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(cpu), SQLite \(sqlite)"
}

func note(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

// MARK: The report

struct Report: Encodable {
    struct Row: Encodable {
        var name: String
        var measured: Double
        var unit: String
        var baseline: Double?
        var baselineName: String?
        var ratio: Double?
        var target: String?
        var met: Bool?
    }

    var machine: String
    var date: String
    var rows: [Row]
    var totalSeconds: Double = 0

    mutating func add(
        _ name: String,
        measured: Double,
        unit: String,
        baseline: Double?,
        baselineName: String?,
        target: String?,
        met: Bool?
    ) {
        rows.append(
            Row(
                name: name,
                measured: measured,
                unit: unit,
                baseline: baseline,
                baselineName: baselineName,
                ratio: baseline.map { measured / $0 },
                target: target,
                met: met
            )
        )
        note(
            "  \(name): \(Self.format(measured)) \(unit)"
                + (baseline.map { " (baseline \(Self.format($0)) \(unit))" } ?? "")
        )
    }

    static func format(_ value: Double) -> String {
        if value.isNaN || value.isInfinite { return "—" }
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    /// A Markdown table, as the README shows it.
    func table() -> String {
        var lines = [
            "Machine: \(machine). Run: \(date), \(Self.format(totalSeconds)) s.", "",
            "| measurement | measured | baseline | ratio | target | met |", "|---|---|---|---|---|---|",
        ]
        for row in rows {
            let baseline = row.baseline.map { "\(Self.format($0)) \(row.unit) (\(row.baselineName ?? ""))" } ?? ""
            let ratio = row.ratio.map { Self.format($0) + "×" } ?? ""
            let met = row.met.map { $0 ? "yes" : "**no**" } ?? ""
            lines.append(
                "| \(row.name) | \(Self.format(row.measured)) \(row.unit) | \(baseline) | \(ratio) | \(row.target ?? "") | \(met) |"
            )
        }
        return lines.joined(separator: "\n")
    }
}
