// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "tablefmt",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "tablefmt", targets: ["tablefmt"]),
        .library(name: "FormatEngine", targets: ["FormatEngine"]),
    ],
    targets: [
        // The system's zlib, for gzip input (I8). Headers: zlib1g-dev on Debian, the SDK on macOS.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // What the system has and Swift's Glibc and Darwin modules leave out (a new thread's CPU), in a header.
        .systemLibrary(name: "CSystem", path: "Sources/CSystem"),
        // The layers, each a target that depends only on those below it (docs/ARCHITECTURE.md).
        // Support: threads, locks, temporary files, reads and writes at an offset.
        .target(name: "Support", dependencies: ["CSystem"], swiftSettings: [.strictMemorySafety()]),
        // Text: display width, sanitizing, cutting and wrapping text to a width.
        .target(name: "Text"),
        // Input: bytes to rows (CSV, TSV, JSON, JSON Lines; gzip; encodings), and where each row's fields lie.
        .target(name: "Input", dependencies: ["Text", "Support", "CZlib", "CSystem"]),
        // Profile: each column's kind, unit, widths and words (C1–C5), from its cells.
        .target(name: "Profile", dependencies: ["Input", "Text"]),
        .target(name: "FormatEngine", dependencies: ["Profile", "Input", "Text", "Support", "CZlib", "CSystem"]),
        .executableTarget(name: "tablefmt", dependencies: ["FormatEngine"]),
        .testTarget(name: "FormatEngineTests", dependencies: ["FormatEngine", "Support", "tablefmt", "CZlib", "CSystem"], exclude: ["Resources"]),
    ],
    swiftLanguageModes: [.v6]
)
