import Foundation
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// Where things are, found from this file's path so tests run from any directory.
enum TestPaths {
    /// The package root (the folder holding Package.swift).
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }  // Support, FormatEngineTests, Tests, root
        return url
    }()

    /// The conformance suites in the repository (`Tests/Conformance`, see its README.md).
    static let conformance = root.appendingPathComponent("Tests/Conformance")
    static let fixtures = root.appendingPathComponent("Fixtures")

    /// The `tablefmt` binary built beside the test bundle, or `$TABLEFMT_BIN`.
    static let binary: URL = {
        if let override = ProcessInfo.processInfo.environment["TABLEFMT_BIN"] { return URL(fileURLWithPath: override) }
        #if os(Linux)
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return me.deletingLastPathComponent().appendingPathComponent("tablefmt")
        #else
        let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") } ?? Bundle.main
        return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("tablefmt")
        #endif
    }()

    /// Files below a folder, sorted, with one of the given extensions (all when empty).
    static func files(in folder: URL, extensions: Set<String> = []) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var out: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if extensions.isEmpty || extensions.contains(url.pathExtension.lowercased()) {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue { out.append(url) }
            }
        }
        return out.sorted { $0.path < $1.path }
    }
}

/// What a run of the binary did.
struct ToolRun {
    var status: Int32
    var stdout: Data
    var stderr: Data
    var out: String { String(decoding: stdout, as: UTF8.self) }
    var err: String { String(decoding: stderr, as: UTF8.self) }
}

/// Runs the built `tablefmt` with arguments, optional standard input and environment.
/// - Parameters:
///   - environment: replaces the inherited one entirely (so `COLUMNS`, `NO_COLOR` etc. never leak in).
///   - directory: the working directory.
///   - program: another program to run instead (a shell that runs the binary in a pipeline).
func runTool(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = ["PATH": "/usr/bin:/bin"], directory: URL? = nil, program: String? = nil) throws -> ToolRun {
    let process = Process()
    process.executableURL = program.map { URL(fileURLWithPath: $0) } ?? TestPaths.binary
    process.arguments = arguments
    process.environment = environment
    if let directory { process.currentDirectoryURL = directory }
    let outPipe = Pipe(), errPipe = Pipe()
    process.standardOutput = outPipe
    process.standardError = errPipe
    let inPipe = Pipe()
    process.standardInput = stdin == nil ? FileHandle.nullDevice : inPipe
    try process.run()
    if let stdin {
        // Feed from another thread so a large input cannot deadlock against a full stdout pipe.
        let writer = inPipe.fileHandleForWriting
        Thread.detachNewThread {
            try? writer.write(contentsOf: stdin)
            try? writer.close()
        }
    }
    // Read both pipes fully before waiting.
    let errBox = DataBox()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        errBox.data = errPipe.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ToolRun(status: process.terminationStatus, stdout: outData, stderr: errBox.data)
}

/// Data written by one thread and read by another after a `DispatchGroup.wait()`.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}

/// Parses text with the CSV reader, fed `chunkSize` bytes at a time.
/// - Returns: the records as strings, or the error that stopped reading.
func readCSV(_ bytes: [UInt8], dialect: Dialect = .csv(), chunkSize: Int = 1 << 16) -> (records: [[String]], error: InputError?) {
    let stream = InputStream(MemorySource(bytes, chunkSize: chunkSize), chunkSize: 64)
    var reader = CSVReader(stream: stream, dialect: dialect, sourceName: "test.csv")
    var record = Record()
    var out: [[String]] = []
    do {
        while try reader.read(into: &record) { out.append(record.strings) }
    } catch {
        return (out, error)
    }
    return (out, nil)
}

/// A small deterministic PRNG (SplitMix64) for seeded property tests.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (bound > 0).
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}

/// `body` with `bytes` lying in a larger buffer between `before` and `after`: bytes a scan must not
/// read, chosen so that reading them would change its answer.
func withinBuffer<T>(_ bytes: [UInt8], before: [UInt8] = [], after: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
    let buffer = before + bytes + after
    return buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[before.count..<(before.count + bytes.count)])) }
}
