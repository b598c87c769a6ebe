import CommissionStore
import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// A connection pool to one PostgreSQL database, running for as long as this value lives, with the
/// Commission schema migrated.
///
/// ```swift
/// let database = try await PostgresBookDatabase(url: "postgres://commission@127.0.0.1/commission")
/// defer { database.shutdown() }
/// ```
public final class PostgresBookDatabase: Sendable {
    public let client: PostgresClient
    let logger: Logger
    private let running: Task<Void, Never>
    private let changeFeed: PostgresChanges

    /// Connects to the database `url` names and applies the migrations it lacks.
    ///
    /// `url` is `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, optionally with
    /// `?sslmode=require` (TLS, the server's certificate verified) or `?sslmode=prefer`.
    /// - Throws: ``StoreError/invalid(field:reason:)`` for a URL it cannot use, ``StoreError/storage(_:)``
    ///   when the server cannot be reached or a migration fails.
    public init(url: String, logger: Logger = Logger(label: "commission.postgres")) async throws {
        let configuration = try Self.configuration(url)
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
        let client = self.client
        running = Task { await client.run() }
        changeFeed = PostgresChanges(client: client, logger: logger)
        do {
            try await PostgresSchema.migrate(client, logger: logger)
        } catch {
            running.cancel()
            throw Self.storeError(error, doing: "migrate the database at \(Self.redacted(url))")
        }
    }

    deinit {
        changeFeed.stop()
        running.cancel()
    }

    /// Runs `body` in one transaction that writes to `book`: the book's revision grows, and when the
    /// transaction commits every instance on the database learns which of its tables changed
    /// (LISTEN/NOTIFY). Nothing is announced when `body` throws: the transaction rolls back.
    public func write<Result: Sendable>(book: Int64, tables: Set<StoreTable>,
                                        _ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                let result = try await body(connection)
                try await connection.query("UPDATE book SET revision = revision + 1 WHERE id = \(book)", logger: logger)
                try await PostgresChanges.notify(connection, book: book, tables: tables, logger: logger)
                return result
            }
        } catch {
            throw Self.storeError(error, doing: "write")
        }
    }

    /// The changes committed to `book` by any instance on the database from now on.
    public func changes(book: Int64) async throws -> StoreChanges {
        try await startListening()
        return changeFeed.stream(book: book)
    }

    /// Opens the connection that listens for every instance's changes (once); returns when it listens.
    public func startListening() async throws {
        do {
            try await changeFeed.start()
        } catch {
            throw Self.storeError(error, doing: "listen for changes")
        }
    }

    /// The changes of `book` from now on, for a caller that has called ``startListening()``.
    func changeStream(book: Int64) -> StoreChanges {
        changeFeed.stream(book: book)
    }

    /// Closes every connection.
    public func shutdown() {
        changeFeed.stop()
        running.cancel()
    }

    /// Creates a new, empty database named `prefix` and a random suffix on the server `serverURL`
    /// reaches, and returns its URL: a scratch database for a test or a trial.
    public static func createDatabase(prefix: String, onServer serverURL: String) async throws -> String {
        guard var components = URLComponents(string: serverURL) else { throw StoreError.invalid(field: "database URL", reason: "\(redacted(serverURL)) is not a URL.") }
        let name = "\(prefix)_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased())"
        guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw StoreError.invalid(field: "database name", reason: "\"\(name)\" is not made of letters, digits and underscores.")
        }
        let admin = PostgresClient(configuration: try configuration(serverURL))
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await admin.run() }
                defer { group.cancelAll() }
                try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
            }
        } catch {
            throw storeError(error, doing: "create the database \(name)")
        }
        components.path = "/\(name)"
        return components.string ?? serverURL
    }

    /// Drops the database `url` names (one ``createDatabase(prefix:onServer:)`` made), through the
    /// server `serverURL` reaches, closing its connections first.
    public static func dropDatabase(_ url: String, onServer serverURL: String) async throws {
        guard let name = URLComponents(string: url).map({ String($0.path.drop { $0 == "/" }) }),
              !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw StoreError.invalid(field: "database URL", reason: "\(redacted(url)) names no database that can be dropped.")
        }
        let admin = PostgresClient(configuration: try configuration(serverURL))
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await admin.run() }
                defer { group.cancelAll() }
                try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"))
            }
        } catch {
            throw storeError(error, doing: "drop the database \(name)")
        }
    }

    /// The pool's configuration from a `postgres://` URL.
    static func configuration(_ url: String) throws -> PostgresClient.Configuration {
        func invalid(_ reason: String) -> StoreError {
            .invalid(field: "database URL", reason: "\(redacted(url)) \(reason) Use postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.")
        }
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? "") else {
            throw invalid("is not a postgres:// URL.")
        }
        guard let host = components.host, !host.isEmpty else { throw invalid("names no host.") }
        guard let user = components.user, !user.isEmpty else { throw invalid("names no user.") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty else { throw invalid("names no database.") }
        let tls: PostgresClient.Configuration.TLS
        switch components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "disable" {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-full": tls = .require(.makeClientConfiguration())
        case let other: throw invalid("has sslmode=\(other), which is not one of disable, prefer, require.")
        }
        var configuration = PostgresClient.Configuration(host: host, port: components.port ?? 5432, username: user,
                                                         password: components.password, database: database, tls: tls)
        configuration.options.minimumConnections = 0
        configuration.options.maximumConnections = 10
        return configuration
    }

    /// The URL without its password, for messages and logs.
    public static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }

    /// A database error as the store reports it: a generic sentence, the details in the log.
    /// Errors that are not the database's (a ``StoreError``, a domain error) pass through unchanged;
    /// a failed transaction reports what failed in it (what its body threw, first).
    static func storeError(_ error: any Error, doing action: String) -> any Error {
        if let failed = error as? PostgresTransactionError,
           let cause = failed.closureError ?? failed.commitError ?? failed.beginError ?? failed.rollbackError {
            return storeError(cause, doing: action)
        }
        if !(error is PSQLError || error is PostgresTransactionError) { return error }
        let message = (error as? PSQLError)?.serverInfo?[.message] ?? "\(error)"
        return StoreError.storage("could not \(action): \(message)")
    }
}
