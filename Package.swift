// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "tablefmt",
    platforms: [.macOS(.v15)],  // Synchronization's Atomic
    products: [
        .executable(name: "tablefmt", targets: ["tablefmt"]),
        .library(name: "FormatEngine", targets: ["FormatEngine"]),
    ],
    targets: [
        .target(name: "FormatEngine"),
        .executableTarget(name: "tablefmt", dependencies: ["FormatEngine"]),
        .testTarget(name: "FormatEngineTests", dependencies: ["FormatEngine", "tablefmt"], exclude: ["Resources"]),
    ],
    swiftLanguageModes: [.v6]
)
