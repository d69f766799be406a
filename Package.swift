// swift-tools-version:6.0
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
        .target(name: "FormatEngine", dependencies: ["CZlib"]),
        .executableTarget(name: "tablefmt", dependencies: ["FormatEngine"]),
        .testTarget(name: "FormatEngineTests", dependencies: ["FormatEngine", "tablefmt", "CZlib"], exclude: ["Resources"]),
    ],
    swiftLanguageModes: [.v6]
)
