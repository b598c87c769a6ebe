// swift-tools-version:6.2
// Builds swift-openapi-generator's command for scripts/generate-client (not part of the project's
// own build: the code it generates is committed).
import PackageDescription

let package = Package(
    name: "openapi-generator",
    dependencies: [.package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")]
)
