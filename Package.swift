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
        // Transform: choosing columns, sorting (in memory and in runs on disk), grouping and exact sums.
        .target(name: "Transform", dependencies: ["Profile", "Input", "Text", "Support"]),
        // Schedule: work on both cores: a file cut into pieces, rows read on a second thread, rows spooled to disk.
        .target(name: "Schedule", dependencies: ["Input", "Support"]),
        // Options: what the person asked for (FormatOptions and the formats, modes, bounds and styles it names).
        .target(name: "Options", dependencies: ["Transform", "Schedule", "Input", "Text"]),
        // Layout: the plan (W2–W8): each column's width, alignment and heading, the mode, the notes' words.
        .target(name: "Layout", dependencies: ["Options", "Transform", "Profile", "Text"]),
        // Render: a plan and rows to bytes: plain or ANSI in every style, Markdown, HTML; the output buffer.
        .target(name: "Render", dependencies: ["Layout", "Options", "Transform", "Profile", "Input", "Text", "Support"]),
        // Save: a view's edits held beside its rows, the rows where they lie in their file, and the
        // byte-exact save (beside the file, renamed over it).
        .target(name: "Save", dependencies: ["Options", "Schedule", "Transform", "Input", "Text", "Support"]),
        // Run: one printed table, step by step (read and size, arrange, plan, draw), and the library's entry (TableFormatter).
        .target(name: "Run", dependencies: ["Render", "Layout", "Options", "Schedule", "Transform", "Profile", "Input", "Text", "Support", "CZlib", "CSystem"]),
        // Viewer: the live view: its state, keys, frames, the work it starts off the key thread, its loader.
        .target(name: "Viewer", dependencies: ["Save", "Render", "Layout", "Options", "Schedule", "Transform", "Profile", "Input", "Text", "Support", "CSystem"]),
        // The one library product: every layer above, re-exported as one module.
        .target(name: "FormatEngine", dependencies: ["Viewer", "Run", "Save", "Render", "Layout", "Options", "Schedule", "Transform", "Profile", "Input", "Text", "Support"]),
        .executableTarget(name: "tablefmt", dependencies: ["FormatEngine"]),
        .testTarget(name: "FormatEngineTests", dependencies: ["FormatEngine", "Run", "Viewer", "Transform", "Input", "Support", "tablefmt", "CZlib", "CSystem"], exclude: ["Resources"]),
    ],
    swiftLanguageModes: [.v6]
)
