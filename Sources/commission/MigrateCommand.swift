import ArgumentParser
import CommissionCore
import CommissionPostgres
import CommissionSQLite
import CommissionStore
import Foundation
import GRDB
import Logging
import NIOCore
import PostgresNIO

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy a whole book from its SQLite file to a PostgreSQL database, then prove the copy.",
        discussion: """
            Copies the book's settings, clinics, products, terms, every sale (voided ones too, with \
            their snapshots), payouts, closed periods, the audit log, and its accounts and API tokens (browsers sign \
            in again), in one transaction on the target: an interrupted copy leaves nothing behind. \
            Then it proves the copy: the count of every kind of record, and the totals of every \
            statement of every clinic (expected, received, balance), must be equal on both sides.

            It refuses a database that holds a book already, unless --into-nonempty says to add this \
            one beside the others (ids then differ from the file's). The SQLite file is only read.

            Example:
              commission migrate --from sqlite:~/.local/share/commission/commission.sqlite \\
                                 --to postgres://commission@127.0.0.1/commission
            """)

    @Option(help: ArgumentHelp("The book to copy: sqlite:PATH (or just PATH).", valueName: "sqlite:path"))
    var from: String
    @Option(help: ArgumentHelp("The PostgreSQL database to copy it to.", valueName: "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"))
    var to: String
    @Flag(name: .customLong("into-nonempty"), help: "Add the book to a database that holds other books already.")
    var intoNonEmpty = false
    @Flag(name: .customLong("skip-proof"), help: "Copy without comparing the two sides afterwards (the benchmark does; a person should not).")
    var skipProof = false

    func run() async throws {
        let path = NSString(string: from.hasPrefix("sqlite:") ? String(from.dropFirst("sqlite:".count)) : from).expandingTildeInPath
        guard FileManager.default.fileExists(atPath: path) else { throw Failure("\(path) does not exist: give the book's SQLite file.") }
        var logger = Logger(label: "commission")
        logger.logLevel = .error
        let source = try SQLiteStore(.file(path))
        let target = try await PostgresBookDatabase(url: to, logger: logger)
        defer { target.shutdown() }
        let books = try await target.client.query("SELECT count(*) FROM book", logger: logger).decode(Int64.self).firstValue() ?? 0
        if books > 0 && !intoNonEmpty {
            throw Failure("""
                \(PostgresBookDatabase.redacted(to)) already holds \(books) book\(books == 1 ? "" : "s"): \
                pass --into-nonempty to add this one beside \(books == 1 ? "it" : "them").
                """)
        }
        let started = ContinuousClock.now
        let copy = try await BookCopier(path: path, target: target, logger: logger).copy()
        output("Copied \(path) to book \(copy.book) of \(PostgresBookDatabase.redacted(to)) in \(copy.seconds(since: started)): "
               + "\(copy.counts.map { "\($0.value) \($0.key)" }.sorted().joined(separator: ", ")).\n")

        if skipProof { return }
        let copied = try await PostgresStore(database: target, book: copy.book)
        let checked = try await BookComparison(source: source, target: copied, clinicIDs: copy.clinicIDs).run()
        output("Checked: the counts are equal, and the totals of all \(checked) statements are equal on both sides.\n")
    }
}

/// Copies one SQLite book into a new book of a PostgreSQL database, in one transaction.
struct BookCopier {
    let path: String
    let target: PostgresBookDatabase
    let logger: Logger

    struct Result {
        var book: Int64
        /// Old clinic id → new clinic id.
        var clinicIDs: [Int64: Int64]
        var counts: [String: Int]

        func seconds(since start: ContinuousClock.Instant) -> String {
            let elapsed = (ContinuousClock.now - start).components
            return String(format: "%.1f s", Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
        }
    }

    static let salesPerRead = 20_000

    func copy() async throws -> Result {
        var configuration = Configuration()
        configuration.readonly = true
        let source = try DatabaseQueue(path: path, configuration: configuration)
        let small = try source.read { db in
            (book: try Row.fetchOne(db, sql: "SELECT currencyCode, currencyMinorDigits, timeZone, roundingRule, roundingScope, locale FROM book")!,
             clinics: try Row.fetchAll(db, sql: "SELECT id, name, scheduleKind, scheduleAnchor, isArchived FROM clinic ORDER BY id"),
             products: try Row.fetchAll(db, sql: "SELECT id, name, sku, unitPriceMinor, unitCostMinor, isArchived FROM product ORDER BY id"),
             terms: try Row.fetchAll(db, sql: "SELECT id, clinicId, productId, basis, shareBasisPoints, effectiveFrom, isArchived FROM terms ORDER BY id"),
             payouts: try Row.fetchAll(db, sql: "SELECT clinicId, periodStart, periodEnd, amountMinor, receivedOn, reference, id FROM payout ORDER BY id"),
             audit: try Row.fetchAll(db, sql: """
                SELECT at, actor, subject, subjectId, lastSubjectId, action, before, after FROM auditEntry ORDER BY id
                """),
             closed: try Row.fetchAll(db, sql: "SELECT clinicId, periodStart, periodEnd FROM closedPeriod"),
             accounts: try Row.fetchAll(db, sql: "SELECT id, username, passwordHash, createdAt, role FROM account ORDER BY id"),
             tokens: try Row.fetchAll(db, sql: "SELECT accountId, name, tokenDigest, createdAt, lastUsedAt, revokedAt FROM apiToken ORDER BY id"))
        }
        let logger = self.logger
        do {
            return try await target.client.withTransaction(logger: logger) { connection -> Result in
                func insert(_ query: PostgresQuery) async throws -> Int64 {
                    guard let id = try await connection.query(query, logger: logger).decode(Int64.self).firstValue() else {
                        throw Failure("an insert returned no id")
                    }
                    return id
                }
                let b = small.book
                let book = try await insert("""
                    INSERT INTO book (name, currencyCode, currencyMinorDigits, timeZone, roundingRule, roundingScope, locale)
                    VALUES (\(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent), \(b[0] as String), \(b[1] as Int),
                            \(b[2] as String), \(b[3] as String), \(b[4] as String), \(b[5] as String))
                    RETURNING id
                    """)
                var clinics: [Int64: Int64] = [:], products: [Int64: Int64] = [:], terms: [Int64: Int64] = [:]
                for row in small.clinics {
                    clinics[row[0]] = try await insert("""
                        INSERT INTO clinic (bookId, name, scheduleKind, scheduleAnchor, isArchived)
                        VALUES (\(book), \(row[1] as String), \(row[2] as String), \(row[3] as String?), \(row[4] as Bool)) RETURNING id
                        """)
                }
                for row in small.products {
                    products[row[0]] = try await insert("""
                        INSERT INTO product (bookId, name, sku, unitPriceMinor, unitCostMinor, isArchived)
                        VALUES (\(book), \(row[1] as String), \(row[2] as String?), \(row[3] as Int64), \(row[4] as Int64), \(row[5] as Bool))
                        RETURNING id
                        """)
                }
                for row in small.terms {
                    terms[row[0]] = try await insert("""
                        INSERT INTO terms (bookId, clinicId, productId, basis, shareBasisPoints, effectiveFrom, isArchived)
                        VALUES (\(book), \(clinics[row[1]]!), \((row[2] as Int64?).map { products[$0]! }), \(row[3] as String),
                                \(row[4] as Int), \(row[5] as String)::date, \(row[6] as Bool))
                        RETURNING id
                        """)
                }
                // Sales stream through COPY, read from the file a page at a time.
                var sales = 0
                try await connection.copyFrom(table: "sale", columns: [
                    "bookId", "clinicId", "productId", "date", "quantity", "unitPriceMinor", "unitCostMinor", "discountMinor", "termsId",
                    "shareBasisPoints", "basis", "revenueMinor", "costMinor", "profitMinor", "commissionExact", "commissionMinor",
                    "note", "isVoided", "idempotencyKey",
                ].map { $0.lowercased() }, logger: logger) { writer in  // COPY quotes the names: PostgreSQL folded ours to lower case
                    var last: Int64 = 0
                    while true {
                        let page: [Row] = try source.read { db in
                            try Row.fetchAll(db, sql: """
                                SELECT id, clinicId, productId, date, quantity, unitPriceMinor, unitCostMinor, discountMinor, termsId,
                                       shareBasisPoints, basis, revenueMinor, costMinor, profitMinor, commissionExact, commissionMinor,
                                       note, isVoided, idempotencyKey
                                FROM sale WHERE id > ? ORDER BY id LIMIT ?
                                """, arguments: [last, Self.salesPerRead])
                        }
                        guard let end = page.last else { break }
                        last = end[0]
                        var buffer = ByteBuffer()
                        for row in page {
                            var fields = [String(book), String(clinics[row[1]]!), String(products[row[2]]!)]
                            fields.append(row[3] as String)
                            for index in 4...7 { fields.append(String(row[index] as Int64)) }
                            fields.append((row[8] as Int64?).map { String(terms[$0]!) } ?? "\\N")
                            fields.append((row[9] as Int64?).map(String.init) ?? "\\N")
                            fields.append((row[10] as String?) ?? "\\N")
                            for index in 11...15 { fields.append(String(row[index] as Int64)) }
                            fields.append((row[16] as String?).map(Self.copyText) ?? "\\N")
                            fields.append((row[17] as Bool) ? "t" : "f")
                            fields.append((row[18] as String?).map(Self.copyText) ?? "\\N")
                            buffer.writeString(fields.joined(separator: "\t") + "\n")
                        }
                        try await writer.write(buffer)
                        sales += page.count
                    }
                }
                var payouts: [Int64: Int64] = [:]
                for row in small.payouts {
                    payouts[row[6]] = try await insert("""
                        INSERT INTO payout (bookId, clinicId, periodStart, periodEnd, amountMinor, receivedOn, reference)
                        VALUES (\(book), \(clinics[row[0]]!), \(row[1] as String)::date, \(row[2] as String)::date, \(row[3] as Int64),
                                \(row[4] as String)::date, \(row[5] as String?))
                        RETURNING id
                        """)
                }
                // The audit log, its record ids mapped to the copy's (the JSON in each entry stays as recorded).
                // COPY gave the sales ids in the file's order, so the n-th sale by id here is the n-th there.
                if !small.audit.isEmpty {
                    let fileSales = try await source.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM sale ORDER BY id") }
                    var copiedSales: [Int64] = []
                    copiedSales.reserveCapacity(fileSales.count)
                    for try await id in try await connection.query("SELECT id FROM sale WHERE bookId = \(book) ORDER BY id", logger: logger)
                        .decode(Int64.self) { copiedSales.append(id) }
                    let saleIDs = Dictionary(uniqueKeysWithValues: zip(fileSales, copiedSales))
                    try await connection.copyFrom(table: "auditentry", columns: [
                        "bookid", "at", "actor", "subject", "subjectid", "lastsubjectid", "action", "before", "after",
                    ], logger: logger) { writer in
                        var buffer = ByteBuffer()
                        for row in small.audit {
                            let subject = row[2] as String
                            let map: [Int64: Int64] = switch subject {
                            case "sale": saleIDs
                            case "terms": terms
                            case "payout": payouts
                            case "period": clinics
                            default: [:]
                            }
                            // A deleted payout has no copy: its entry keeps the file's id.
                            let subjectID = (row[3] as Int64?).map { String(map[$0] ?? $0) } ?? "\\N"
                            let lastSubjectID = (row[4] as Int64?).map { String(map[$0] ?? $0) } ?? "\\N"
                            let fields = [String(book), String(row[0] as Int64), Self.copyText(row[1]), subject, subjectID, lastSubjectID,
                                          Self.copyText(row[5]), (row[6] as String?).map(Self.copyText) ?? "\\N",
                                          (row[7] as String?).map(Self.copyText) ?? "\\N"]
                            buffer.writeString(fields.joined(separator: "\t") + "\n")
                        }
                        try await writer.write(buffer)
                    }
                }
                for row in small.closed {
                    try await connection.query("""
                        INSERT INTO closedPeriod (bookId, clinicId, periodStart, periodEnd)
                        VALUES (\(book), \(clinics[row[0]]!), \(row[1] as String)::date, \(row[2] as String)::date)
                        """, logger: logger)
                }
                var accounts: [Int64: Int64] = [:]
                for row in small.accounts {
                    let name = row[1] as String
                    if try await connection.query("SELECT id FROM account WHERE lower(username) = lower(\(name))", logger: logger)
                        .decode(Int64.self).firstValue() != nil {
                        throw Failure("the account \"\(name)\" exists in the target database already: rename one of them first.")
                    }
                    let id = try await insert("""
                        INSERT INTO account (username, passwordHash, createdAt) VALUES (\(name), \(row[2] as String), \(row[3] as Int64)) RETURNING id
                        """)
                    accounts[row[0]] = id
                    try await connection.query("INSERT INTO member (bookId, accountId, role) VALUES (\(book), \(id), \(row[4] as String))",
                                               logger: logger)
                }
                for row in small.tokens {
                    guard let account = accounts[row[0]] else { continue }
                    try await connection.query("""
                        INSERT INTO apiToken (accountId, name, tokenDigest, createdAt, lastUsedAt, revokedAt)
                        VALUES (\(account), \(row[1] as String), \(row[2] as String), \(row[3] as Int64), \(row[4] as Int64?), \(row[5] as Int64?))
                        """, logger: logger)
                }
                let counts = ["clinics": small.clinics.count, "products": small.products.count, "terms": small.terms.count,
                              "sales": sales, "payouts": small.payouts.count, "closed periods": small.closed.count,
                              "accounts": small.accounts.count, "audit entries": small.audit.count]
                return Result(book: book, clinicIDs: clinics, counts: counts)
            }
        } catch let error as PostgresTransactionError {
            if let failure = error.closureError as? Failure { throw failure }
            throw Failure("The copy failed and nothing was written to the target: \(String(reflecting: error.closureError ?? error.commitError ?? error))")
        }
    }

    /// A text value in COPY's text format: backslash, tab, newline and carriage return escaped.
    static func copyText(_ text: String) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\t": escaped += "\\t"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}

/// Proves a copy: counts, and the totals of every statement of every clinic, on both sides.
struct BookComparison {
    let source: any CommissionStore
    let target: any CommissionStore
    let clinicIDs: [Int64: Int64]

    /// The number of statements compared.
    func run() async throws -> Int {
        var differences: [String] = []
        func compare<T: Equatable>(_ what: String, _ a: T, _ b: T) {
            if a != b { differences.append("\(what): \(a) in the file, \(b) in the copy") }
        }
        compare("sales (voided ones too)", try await source.countSales(SaleQuery(includeVoided: true)),
                try await target.countSales(SaleQuery(includeVoided: true)))
        compare("clinics", try await source.clinics(ClinicQuery(includeArchived: true)).count,
                try await target.clinics(ClinicQuery(includeArchived: true)).count)
        compare("products", try await source.products(ProductQuery(includeArchived: true)).count,
                try await target.products(ProductQuery(includeArchived: true)).count)
        compare("terms", try await source.terms(TermsQuery(includeArchived: true)).count, try await target.terms(TermsQuery(includeArchived: true)).count)
        compare("payouts", try await source.payouts(PayoutQuery()).count, try await target.payouts(PayoutQuery()).count)

        var statements = 0
        for clinic in try await source.clinics(ClinicQuery(includeArchived: true)) {
            guard let copyID = clinicIDs[clinic.id.rawValue] else { continue }
            // Every period with a sale or a payout: the days that sold, and the payouts' periods.
            var periods = Set(try await source.payouts(PayoutQuery(clinicID: clinic.id)).map(\.period))
            for month in try await source.clinicMonths(from: try Day(year: 1, month: 1, day: 1), through: try Day(year: 9999, month: 12, day: 31))
            where month.clinicID == clinic.id {
                var day = month.month
                while day.month == month.month.month {
                    let period = clinic.schedule.period(containing: day)
                    periods.insert(period)
                    day = period.end.adding(days: 1)
                }
            }
            for period in periods {
                let a = try await source.statement(clinic: clinic.id, period: period)
                let b = try await target.statement(clinic: Clinic.ID(copyID), period: period)
                let name = "\(clinic.name) \(period.start)–\(period.end)"
                compare("\(name) totals", a.totals, b.totals)
                compare("\(name) received", a.received, b.received)
                compare("\(name) balance", a.balance, b.balance)
                compare("\(name) lines", a.lines.count, b.lines.count)
                statements += 1
            }
        }
        if !differences.isEmpty {
            throw Failure("The copy differs from the file (\(differences.count) difference\(differences.count == 1 ? "" : "s")):\n  "
                          + differences.prefix(20).joined(separator: "\n  "))
        }
        return statements
    }
}

extension AsyncSequence {
    /// The first element, reading the sequence to its end (a connection runs its next statement only then).
    fileprivate func firstValue() async throws -> Element? {
        var first: Element?
        for try await element in self where first == nil { first = element }
        return first
    }
}
