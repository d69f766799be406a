// swift-tools-version:6.0
// A consumer of FormatEngine, as a separate package depending on it by path: `make test` builds and
// runs it, so the library's front door cannot break unnoticed.
import PackageDescription

let package = Package(
    name: "Examples",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "tablefmt", path: "..")],
    targets: [
        .executableTarget(name: "Examples", dependencies: [.product(name: "FormatEngine", package: "tablefmt")]),
    ],
    swiftLanguageModes: [.v6]
)
