// swift-tools-version:6.1
// Coverage-guided fuzz targets (libFuzzer), built apart from the main package because every module
// they reach is compiled with `-sanitize=fuzzer`: run them with scripts/fuzz.
import PackageDescription

// lld links the libFuzzer runtime where gold (the default here) fails with an internal error.
let linker: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld"])]

let package = Package(
    name: "CommissionFuzz",
    dependencies: [.package(name: "Commission", path: "..")],
    targets: [
        .executableTarget(
            name: "fuzz-csv-import",
            dependencies: [.product(name: "CommissionFuzzing", package: "Commission")],
            linkerSettings: linker
        ),
        .executableTarget(
            name: "fuzz-parsers",
            dependencies: [.product(name: "CommissionFuzzing", package: "Commission")],
            linkerSettings: linker
        ),
        .executableTarget(
            name: "fuzz-bank-files",
            dependencies: [.product(name: "CommissionFuzzing", package: "Commission")],
            linkerSettings: linker
        ),
        .executableTarget(
            name: "fuzz-workbook",
            dependencies: [.product(name: "CommissionFuzzing", package: "Commission")],
            linkerSettings: linker
        ),
    ]
)
