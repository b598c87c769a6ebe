// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Commission",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CommissionCore", targets: ["CommissionCore"]),
        .library(name: "CommissionStore", targets: ["CommissionStore"]),
        .library(name: "CommissionSQLite", targets: ["CommissionSQLite"]),
        .library(name: "CommissionKit", targets: ["CommissionKit"]),
        .executable(name: "commission", targets: ["commission"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
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
            dependencies: ["CommissionStore", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict
        ),

        // What the command-line tool (and later the web server) do with a store: CSV import and
        // export, report rendering, the demo book. Tests reach it without the executable.
        .target(
            name: "CommissionKit",
            dependencies: ["CommissionStore", .product(name: "CSV", package: "CSV.swift")],
            swiftSettings: strict
        ),

        // The thin `commission` executable: parses arguments and calls the libraries.
        .executableTarget(
            name: "commission",
            dependencies: [
                "CommissionKit",
                "CommissionSQLite",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),

        .testTarget(name: "CommissionCoreTests", dependencies: ["CommissionCore"], swiftSettings: strict),
        // The store conformance suite: one body of tests, run against every store implementation.
        .testTarget(
            name: "CommissionStoreTests",
            dependencies: ["CommissionStore", "CommissionSQLite"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CommissionSQLiteTests",
            dependencies: ["CommissionSQLite", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CommissionKitTests",
            dependencies: ["CommissionKit", "CommissionSQLite", "commission"],
            swiftSettings: strict
        ),
    ]
)
