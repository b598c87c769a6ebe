// swift-tools-version:6.2
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]
/// The test targets are compiled without optimisation even in a release build (scripts/test builds
/// in release once, so that the binary the tests drive is the one that ships): optimising the tests'
/// own code buys nothing and costs a minute of the run. The modules under test are optimised as shipped.
let tests: [SwiftSetting] = strict + [.unsafeFlags(["-Onone"], .when(configuration: .release))]

let package = Package(
    name: "Commission",
    // What the code needs: `Mutex` and `Atomic` (Synchronization), `@Observable`, `Task.sleep(for:)`.
    // An app builds on the library targets (core, store, SQLite, and the remote store) on any of these; the tools
    // version is the one `isolated deinit` (LiveQuery.swift) needs.
    platforms: [.macOS(.v15), .iOS(.v18), .macCatalyst(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "CommissionCore", targets: ["CommissionCore"]),
        .library(name: "CommissionStore", targets: ["CommissionStore"]),
        .library(name: "CommissionSQLite", targets: ["CommissionSQLite"]),
        .library(name: "CommissionAPI", targets: ["CommissionAPI"]),
        .library(name: "CommissionClient", targets: ["CommissionClient"]),
        .library(name: "CommissionPostgres", targets: ["CommissionPostgres"]),
        .library(name: "CommissionKit", targets: ["CommissionKit"]),
        .library(name: "CommissionWeb", targets: ["CommissionWeb"]),
        // The entry points of the fuzz targets in fuzz/ (and of the replay of their findings).
        .library(name: "CommissionFuzzing", targets: ["CommissionFuzzing"]),
        .executable(name: "commission", targets: ["commission"]),
        .executable(name: "commission-bench", targets: ["commission-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // A live stream's events merged with its heartbeat (already in the graph through Hummingbird).
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // NIO's buffers, which a PostgreSQL archive's COPY and the benchmark's load speak.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // A file path, as swift-configuration's file provider takes it.
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        // The ZIP container of .xlsx workbooks (the XML inside is read with Foundation's parser).
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // /metrics in Prometheus' text format, the process's swift-metrics backend.
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // The server's settings: flags, then environment variables, then a JSON file.
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        // The remote store: a client generated from the server's own OpenAPI document (the code is
        // committed, see scripts/generate-client), over URLSession on an app or AsyncHTTPClient.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        // The library targets' documentation catalogs (scripts/test builds them, warnings as errors).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The commission domain: money, shares, schedules, terms, sale lines, statements.
        // Plain Swift, no I/O, nothing beyond Foundation.
        .target(name: "CommissionCore", swiftSettings: strict),

        // The store protocol (the Data Access Object), its query specifications, reports and
        // live queries. No database dependency.
        .target(name: "CommissionStore", dependencies: ["CommissionCore"], swiftSettings: strict),

        // The embedded default: the store on SQLite through GRDB.
        .target(
            name: "CommissionSQLite",
            dependencies: [
                "CommissionCore", "CommissionStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the few hot statements bound by hand (see FastStatement.swift).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),

        // The API's JSON shapes, generated from the server's OpenAPI document (Generated/,
        // committed): what the server takes and answers with, and the command line prints. The
        // client generates its own types from the same document (internal, beside its client).
        .target(
            name: "CommissionAPI",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            exclude: ["openapi-generator-config.yaml"],
            swiftSettings: strict
        ),

        // The store over HTTP: a book on a Commission server (`/api/v1`), for an app or a laptop.
        // Its HTTP code is generated from the server's OpenAPI document (Generated/, committed);
        // the transport is the caller's (URLSession by default, AsyncHTTPClient on a server).
        .target(
            name: "CommissionClient",
            dependencies: [
                "CommissionCore", "CommissionStore",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                // A client middleware speaks HTTPRequest and HTTPResponse.
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // The default transport on Apple's platforms. Elsewhere the caller gives one (the
                // command line: AsyncHTTPClient's), so that nothing links FoundationNetworking and
                // libcurl, which cost the command line ~25 ms at every start.
                .product(
                    name: "OpenAPIURLSession",
                    package: "swift-openapi-urlsession",
                    condition: .when(platforms: [.macOS, .iOS, .macCatalyst, .tvOS, .watchOS, .visionOS])
                ),
            ],
            exclude: ["openapi-generator-config.yaml"],
            swiftSettings: strict
        ),

        // The store on PostgreSQL, for a team sharing one server: every book of the server in one
        // database, each statement scoped by its book.
        .target(
            name: "CommissionPostgres",
            dependencies: [
                "CommissionCore", "CommissionStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // For its error type alone, in one file (PoolErrors.swift, which says why).
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                // The failovers it counts, in the process's metrics (`/metrics` when the server keeps them).
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: strict
        ),

        // What the command-line tool and the web server do with any store: CSV import and export,
        // report rendering, JSON shapes, the demo book, the proof of a moved book. Tests reach it
        // without the executable.
        .target(
            name: "CommissionKit",
            dependencies: [
                "CommissionCore", "CommissionStore", "CommissionAPI", .product(name: "CSV", package: "CSV.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                // The SHA-256 of an imported file, by which a second import of it is recognised.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),

        // The web app and JSON API on Hummingbird 2: pages, sessions, tokens, live updates.
        .target(
            name: "CommissionWeb",
            dependencies: [
                "CommissionCore", "CommissionStore", "CommissionKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // A backup uploaded from the transfer page, streamed to disk part by part.
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            // Page templates (.mustache), the browser's static files and the OpenAPI document.
            resources: [.copy("Resources/openapi.json"), .copy("Resources/templates"), .copy("Resources/static")],
            swiftSettings: strict
        ),

        // The thin `commission` executable: parses arguments and calls the libraries. It imports no
        // database driver: books move between stores through the stores' archives (docs/architecture.md).
        .executableTarget(
            name: "commission",
            dependencies: [
                "CommissionCore", "CommissionStore", "CommissionKit",
                "CommissionSQLite",
                "CommissionPostgres",
                "CommissionWeb",
                // `commission sync`: this book kept equal to a server's, over AsyncHTTPClient.
                "CommissionClient",
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),

        // The benchmark command: generates books, measures every performance target beside its
        // baseline in the same run, prints a table and writes JSON. Not a test.
        .executableTarget(
            name: "commission-bench",
            dependencies: [
                "CommissionCore", "CommissionStore", "CommissionKit",
                "CommissionSQLite",
                "CommissionPostgres",
                "CommissionWeb",
                "CommissionClient",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                // The CSV library, to show beside our own byte-level reader what each costs.
                .product(name: "CSV", package: "CSV.swift"),
                // To write the workbook the import from .xlsx is timed on.
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strict
        ),

        .target(
            name: "CommissionFuzzing",
            dependencies: [
                "CommissionCore", "CommissionStore", "CommissionKit",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strict
        ),

        .testTarget(name: "CommissionCoreTests", dependencies: ["CommissionCore"], swiftSettings: tests),
        // The store conformance suite: one body of tests, run against every store implementation.
        .testTarget(
            name: "CommissionStoreTests",
            dependencies: [
                "CommissionCore", "CommissionStore", "CommissionSQLite", "CommissionPostgres", "CommissionKit",
                // The HTTP store runs the same suite against a live server on a throw-away book.
                "CommissionClient", "CommissionWeb",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                // To cut a PostgreSQL store's listening connection.
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: tests
        ),
        .testTarget(
            name: "CommissionSQLiteTests",
            dependencies: [
                "CommissionCore", "CommissionSQLite", "CommissionStore",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: tests
        ),
        // Needs a PostgreSQL server: scripts/test starts a throw-away one (COMMISSION_TEST_POSTGRES_URL).
        .testTarget(
            name: "CommissionPostgresTests",
            dependencies: [
                "CommissionCore", "CommissionStore", "CommissionPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: tests
        ),
        .testTarget(
            name: "CommissionWebTests",
            dependencies: [
                "CommissionCore", "CommissionStore", "CommissionAPI", "CommissionWeb", "CommissionKit",
                "CommissionSQLite", "CommissionPostgres",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                // To make an account's hash at another cost than the server's.
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // To read a push message as her browser would (RFC 8291).
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: tests
        ),
        .testTarget(
            name: "CommissionKitTests",
            dependencies: [
                "CommissionCore", "CommissionStore", "CommissionKit", "CommissionSQLite", "CommissionPostgres",
                "CommissionWeb", "CommissionFuzzing", "commission",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // To make a damaged workbook from a fixture.
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            // Databases of every shipped schema version, read from the source tree by the upgrade tests.
            exclude: ["Fixtures"],
            swiftSettings: tests
        ),
    ]
)
