import CommissionCore
import CommissionStore
import Foundation
import Logging
import PostgresNIO

/// What a move of the book between databases needs of its store (``PostgresBooks/move(book:to:settle:prove:)``).
extension PostgresStore {
    /// Writes a book's own row under the id the directory gave it, on a database other than the directory's.
    static func insertBookRow(
        _ connection: PostgresConnection,
        id: Int64,
        name: String,
        settings: BookSettings,
        logger: Logger
    ) async throws {
        try await connection.query(
            """
            INSERT INTO book (id, name, currencyCode, currencyMinorDigits, timeZone, roundingRule, roundingScope, locale)
            VALUES (\(id), \(name), \(settings.currency.code), \(settings.currency.minorDigits), \(settings.timeZoneIdentifier),
                    \(settings.rounding.rule.rawValue), \(settings.rounding.scope.rawValue), \(settings.localeIdentifier))
            """,
            logger: logger
        )
    }

    /// Marks the book as leaving for the database `place` (nil: staying after all), under the
    /// book's exclusive lock: the writes under way end first, and every write after it is refused
    /// here (``PostgresBookDatabase/write(book:tables:lock:_:)`` reads the mark as it takes its lock).
    func markLeaving(to place: String?) async throws {
        try await plainWrite { [book, logger] connection in
            try await connection.query("SELECT \(unescaped: bookLock(.exclusive).sql)", logger: logger)
            try await connection.query("UPDATE book SET leaving = \(place) WHERE id = \(book)", logger: logger)
        }
    }

    /// The book's name.
    func bookName() async throws -> String {
        try await read { [book, logger] connection in
            try await connection.query("SELECT name FROM book WHERE id = \(book)", logger: logger).decode(String.self)
                .all().first ?? "Commission"
        }
    }

    /// An answer kept for a request's idempotency key, as stored.
    struct KeptAnswer: Sendable {
        var key: String, fingerprint: String
        var status: Int?, contentType: String?
        var body: ByteBuffer
        var createdAt: Int64
    }

    /// The answers kept for the book's requests' idempotency keys: a move takes them along, so that
    /// a request sent again after it is answered as before, not done twice.
    func keptAnswers() async throws -> [KeptAnswer] {
        try await read { [book, logger] connection in
            try await connection.query(
                """
                SELECT key, fingerprint, status, contentType, body, createdAt FROM idempotencyKey WHERE bookId = \(book)
                """,
                logger: logger
            ).decode((String, String, Int?, String?, ByteBuffer, Int64).self).all().map {
                KeptAnswer(key: $0.0, fingerprint: $0.1, status: $0.2, contentType: $0.3, body: $0.4, createdAt: $0.5)
            }
        }
    }

    /// Writes kept answers to the book `book` on the connection's database.
    static func insert(
        _ answers: [KeptAnswer],
        book: Int64,
        _ connection: PostgresConnection,
        logger: Logger
    ) async throws {
        for answer in answers {
            try await connection.query(
                """
                INSERT INTO idempotencyKey (bookId, key, fingerprint, status, contentType, body, createdAt)
                VALUES (\(book), \(answer.key), \(answer.fingerprint), \(answer.status), \(answer.contentType), \(answer.body), \(answer.createdAt))
                """,
                logger: logger
            )
        }
    }

    /// Writes the answers kept on the old copy since it was copied (a request answered just as
    /// the move marked its book) to the book `book` on `database`, where the copy has none yet.
    static func catchUp(_ answers: [KeptAnswer], book: Int64, on database: PostgresBookDatabase) async throws {
        let answered = answers.filter { $0.status != nil }
        guard !answered.isEmpty else { return }
        let logger = database.logger
        try await database.run("copy the answers kept meanwhile") { connection in
            for answer in answered {
                try await connection.query(
                    """
                    UPDATE idempotencyKey SET status = \(answer.status), contentType = \(answer.contentType), body = \(answer.body)
                    WHERE bookId = \(book) AND key = \(answer.key) AND fingerprint = \(answer.fingerprint) AND status IS NULL
                    """,
                    logger: logger
                )
            }
        }
    }

    /// What an import of the book reads besides its records (the archive does not carry them):
    /// its saved column mappings, and what each clinic calls its products.
    struct ImportAids: Sendable, Equatable {
        var mappings: [Mapping]
        var aliases: [Alias]
        struct Mapping: Sendable, Equatable { var name: String, body: String }
        struct Alias: Sendable, Equatable { var clinic: Int64, name: String, product: Int64 }
    }

    /// The book's import mappings and product aliases, in a stable order.
    func importAids() async throws -> ImportAids {
        try await read { [book, logger] connection in
            let mappings = try await connection.query(
                "SELECT name, body FROM columnMapping WHERE bookId = \(book) ORDER BY name, body",
                logger: logger
            )
            .decode((String, String).self).all().map { ImportAids.Mapping(name: $0.0, body: $0.1) }
            let aliases = try await connection.query(
                """
                SELECT clinicId, name, productId FROM productAlias WHERE bookId = \(book) ORDER BY clinicId, name, productId
                """,
                logger: logger
            ).decode((Int64, String, Int64).self).all().map {
                ImportAids.Alias(clinic: $0.0, name: $0.1, product: $0.2)
            }
            return ImportAids(mappings: mappings, aliases: aliases)
        }
    }

    /// Writes import mappings and aliases to the book `book` on the connection's database (its
    /// clinics and products under the same ids).
    static func insert(_ aids: ImportAids, book: Int64, _ connection: PostgresConnection, logger: Logger) async throws {
        for mapping in aids.mappings {
            try await connection.query(
                "INSERT INTO columnMapping (bookId, name, body) VALUES (\(book), \(mapping.name), \(mapping.body))",
                logger: logger
            )
        }
        for alias in aids.aliases {
            try await connection.query(
                """
                INSERT INTO productAlias (bookId, clinicId, name, productId) VALUES (\(book), \(alias.clinic), \(alias.name), \(alias.product))
                """,
                logger: logger
            )
        }
    }

    /// Marks every clinic of `book` for its kept period figures to be summed again (a copy's
    /// clinics took their ids after their marks were made): the store settles them when opened.
    static func markEveryClinic(of book: Int64, _ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            DELETE FROM clinicPeriodDirty WHERE bookId = \(book) AND clinicId NOT IN (SELECT id FROM clinic WHERE bookId = \(book))
            """,
            logger: logger
        )
        try await connection.query(
            """
            INSERT INTO clinicPeriodDirty (bookId, clinicId, day) SELECT \(book), id, '-infinity'::date FROM clinic WHERE bookId = \(book)
            ON CONFLICT DO NOTHING
            """,
            logger: logger
        )
    }

    /// The tables of a book's records, children before parents (accounts and members aside: they
    /// are the directory's).
    static let recordTables =
        [
            "sale", "payout", "closedPeriod", "priceListEntry", "deduction", "productAlias", "columnMapping", "terms",
            "idempotencyKey",
        ]
        + PostgresSchema.summaries.map(\.table) + [
            "clinicPeriodTotal", "clinicPeriodKept", "clinicPeriodDirty", "auditEntry", "clinic", "product",
        ]

    /// Removes every record of `book` from `database` in one transaction, and its row too unless
    /// `keepingRow` (the directory's row, which its accounts and its place hang on). The audit
    /// log's deletion is let through for this book alone (`commission.removing_book`, v15).
    static func removeRecords(of book: Int64, on database: PostgresBookDatabase, keepingRow: Bool) async throws {
        let logger = database.logger
        try await database.run("remove the book's old copy") { connection in
            try await connection.query(
                "SELECT set_config('commission.removing_book', \(String(book)), true)",
                logger: logger
            )
            for table in recordTables {
                try await connection.query("DELETE FROM \(unescaped: table) WHERE bookId = \(book)", logger: logger)
            }
            if !keepingRow {
                try await connection.query("DELETE FROM book WHERE id = \(book)", logger: logger)
            }
        }
    }
}

extension PostgresBookDatabase {
    /// Books moved away from this database's books from now on, by any instance
    /// (``PostgresBooks/move(book:to:settle:prove:)``); nil: any book may have moved (listening was lost meanwhile).
    public func moves() async throws -> AsyncStream<Int64?> {
        try await startListening()
        return changeFeed.moves()
    }
}
