import AsyncHTTPClient
import CommissionClient
import CommissionCore
import CommissionPostgres
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import Hummingbird
import Logging
import OpenAPIAsyncHTTPClient
import Testing

extension Trait where Self == TimeLimitTrait {
    /// The limit of a test that waits for something to happen (a value, a change): far beyond the
    /// whole suite's run on a busy machine, so that it fails a hang and never a slow moment — in a
    /// full run a PostgreSQL case can wait a minute for the shared pool before its first query.
    static var hangLimit: Self { .timeLimit(.minutes(10)) }
}

/// Every store implementation the conformance suite runs against.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqliteFile = "SQLite file"
    case sqliteMemory = "SQLite in memory"
    /// A new book in one database of the test server (books share the database, as a team's do).
    case postgres = "PostgreSQL"
    /// A remote store (`CommissionClient`) on a live server the test starts on a throw-away
    /// SQLite book.
    case http = "HTTP store"

    var testDescription: String { rawValue }

    /// A new, empty store with the given settings.
    func makeStore(settings: BookSettings = .test) async throws -> any CommissionStore {
        switch self {
        case .sqliteFile:
            return try SQLiteStore(.file(temporaryDatabasePath()), defaultSettings: settings)
        case .sqliteMemory:
            return try SQLiteStore(.inMemory, defaultSettings: settings)
        case .postgres:
            return try await PostgresStore.createBook(
                in: try await ConformanceDatabase.shared.database(),
                name: "Test book",
                settings: settings
            )
        case .http:
            return try await LiveServer.start(settings: settings).store
        }
    }

    /// The stores that keep a book themselves: a remote store reaches a book through a server,
    /// so what only a server does (accounts, team members, saved mappings) is not asked of it.
    static let local: [StoreKind] = [.sqliteFile, .sqliteMemory, .postgres]

    /// Who the audit log says made a change the test made as `actor`: over HTTP, the server records
    /// the account whose token made the request, whatever the caller claims.
    func actor(_ actor: String) -> String { self == .http ? "owner (API)" : actor }
}

/// A Commission server on 127.0.0.1 (a port of its own) serving a new SQLite book, and a remote
/// store on it with an API token of the book's owner. The server runs until the test process ends.
struct LiveServer {
    let store: HTTPStore
    let book: SQLiteStore
    let url: URL
    let token: String

    static func start(settings: BookSettings) async throws -> LiveServer {
        let book = try SQLiteStore(.file(temporaryDatabasePath()), defaultSettings: settings)
        let owner = try await book.createOwner(username: "owner", passwordHash: "x")
        let token = "cm_" + UUID().uuidString
        _ = try await book.createToken(
            account: owner.id,
            name: "tests",
            tokenDigest: WebSecrets.digest(token),
            now: Date()
        )
        let (port, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "commission-test-server")
        logger.logLevel = .warning
        let app = Application(
            router: buildRouter(configuration: WebConfiguration(bcryptCost: 4), store: book),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger
        )
        Task { try await app.runService() }
        var iterator = port.makeAsyncIterator()
        guard let bound = await iterator.next(), bound > 0 else {
            throw StoreError.storage("the test server did not start")
        }
        let url = URL(string: "http://127.0.0.1:\(bound)")!
        let store = HTTPStore(url: url, token: token, transport: AsyncHTTPClientTransport())
        return LiveServer(store: store, book: book, url: url, token: token)
    }
}

/// One database on the throw-away server `scripts/test` starts, created for this test run.
actor ConformanceDatabase {
    static let shared = ConformanceDatabase()
    /// Made once, however many tests ask while it is being made (the actor is reentrant).
    private var opening: Task<PostgresBookDatabase, any Error>?

    func database() async throws -> PostgresBookDatabase {
        let opening = self.opening ?? Task { try await Self.make(prefix: "commission_conformance") }
        self.opening = opening
        do {
            return try await opening.value
        } catch {
            // Not kept: the next test tries again.
            if self.opening == opening { self.opening = nil }
            throw error
        }
    }

    /// A new database of the test server, migrated.
    static func make(prefix: String) async throws -> PostgresBookDatabase {
        guard let server = ProcessInfo.processInfo.environment["COMMISSION_TEST_POSTGRES_URL"], !server.isEmpty else {
            throw StoreError.storage(
                "COMMISSION_TEST_POSTGRES_URL is not set: run the tests with scripts/test, which starts a throw-away PostgreSQL"
            )
        }
        return try await PostgresBookDatabase(
            url: try await PostgresBookDatabase.createDatabase(prefix: prefix, onServer: server)
        )
    }
}

func temporaryDatabasePath() -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "commission-tests-\(UUID().uuidString)"
    )
    return directory.appendingPathComponent("book.sqlite").path
}

extension BookSettings {
    static let test = BookSettings(currency: .usd, timeZoneIdentifier: "Europe/London")
}

func day(_ text: String) -> Day { try! Day(parsing: text) }
func cents(_ minor: Int64) -> Money { Money(minorUnits: minor) }
func share(_ text: String) -> Share { try! Share(parsing: text) }

/// A small book: Glow (monthly, 40% of profit from 2026-01-01) and Harbor (semimonthly, 55% of
/// profit), a serum (50.00, cost 20.00) and a cream (30.00, cost 12.00).
struct Book {
    let store: any CommissionStore
    let glow: Clinic
    let harbor: Clinic
    let serum: Product
    let cream: Product

    init(_ kind: StoreKind, settings: BookSettings = .test) async throws {
        try await self.init(store: try await kind.makeStore(settings: settings))
    }

    /// Two clinics, two products and their terms, in `store`.
    init(store: any CommissionStore) async throws {
        self.store = store
        glow = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        harbor = try await store.createClinic(ClinicDraft(name: "Harbor", schedule: .semimonthly))
        serum = try await store.createProduct(
            ProductDraft(name: "Serum 30ml", sku: "SER-30", unitPrice: cents(5000), unitCost: cents(2000))
        )
        cream = try await store.createProduct(
            ProductDraft(name: "Cream", unitPrice: cents(3000), unitCost: cents(1200))
        )
        _ = try await store.createTerms(
            TermsDraft(clinicID: glow.id, share: share("40%"), effectiveFrom: day("2026-01-01"))
        )
        _ = try await store.createTerms(
            TermsDraft(clinicID: harbor.id, share: share("55%"), effectiveFrom: day("2026-01-01"))
        )
    }

    @discardableResult
    func sell(
        _ product: Product,
        at clinic: Clinic,
        on date: String,
        quantity: Int64 = 1,
        discount: Int64 = 0,
        noCommission: Bool = false,
        key: String? = nil
    ) async throws -> Sale {
        try await store.createSale(
            SaleDraft(
                clinicID: clinic.id,
                productID: product.id,
                date: day(date),
                quantity: quantity,
                discount: cents(discount),
                noCommission: noCommission
            ),
            idempotencyKey: key
        )
    }
}

/// Import rows handed over from memory.
struct RowsSource: ImportSource {
    var rows: [ImportRow]
    var problems: [ImportProblem] = []
    func column(for field: String) -> String? { field }
    func read(_ body: (ImportRow) throws -> Void) throws -> [ImportProblem] {
        for row in rows { try body(row) }
        return problems
    }
}

enum SQLiteStoreFactory {
    static func open(_ path: String) throws -> any CommissionStore {
        try SQLiteStore(.file(path), defaultSettings: .test)
    }
}
