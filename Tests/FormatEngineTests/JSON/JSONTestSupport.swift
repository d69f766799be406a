#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// Everything a `JSONReader` produced from one input, for comparing runs.
struct JSONOutcome: Equatable, CustomStringConvertible {
    /// The reader's columns at the end.
    var columns: [String] = []
    /// Every row, padded to the final columns (as `TableInput` pads them).
    var rows: [[String]] = []
    /// `record.line` of each row.
    var lines: [Int] = []
    /// `line:column: message` of the error that ended the input, if any.
    var error: String?
    var warnings: [String] = []
    /// Rows whose field count was not the column count known when they were returned.
    var misshapenRows = 0

    var description: String {
        "columns \(columns), rows \(rows), lines \(lines), error \(error ?? "none"), warnings \(warnings), misshapen \(misshapenRows)"
    }
}

/// Reads `bytes` to the end with a `JSONReader`, the source handing out at most `chunkSize` bytes
/// per read, so every resume path of the scanner is exercised. The stream reads `streamChunkSize`
/// bytes at a time; `flat` lets `readFlatLine` read rows, and `flatRows` is told how many it read.
func readJSON(_ bytes: [UInt8], linesMode: Bool? = nil, chunkSize: Int = 1 << 16, maxDepth: Int = 512, streamChunkSize: Int = 16,
              flat: Bool = true, maxRowBytes: Int = Int.max, flatRows: (Int) -> Void = { _ in }) -> JSONOutcome {
    let stream = InputStream(MemorySource(bytes, chunkSize: chunkSize), chunkSize: streamChunkSize)
    var reader = JSONReader(stream: stream, linesMode: linesMode, sourceName: "t.json", maxDepth: maxDepth)
    reader.readsFlatLines = flat
    reader.maxRowBytes = maxRowBytes
    defer { flatRows(reader.flatRowsRead) }
    var outcome = JSONOutcome()
    var record = Record()
    do {
        while try reader.read(into: &record) {
            if record.count != reader.columnNames?.count { outcome.misshapenRows += 1 }
            outcome.rows.append(record.strings)
            outcome.lines.append(record.line)
        }
        // After the end, the reader stays at the end.
        if try reader.read(into: &record) { outcome.misshapenRows += 1 }
    } catch {
        let kind = error.kind == .malformed ? "" : "[\(error.kind)] "
        outcome.error = "\(error.position?.description ?? "?"): \(kind)\(error.message)"
    }
    outcome.columns = reader.columnNames ?? []
    for i in outcome.rows.indices where outcome.rows[i].count < outcome.columns.count {
        outcome.rows[i] += Array(repeating: "", count: outcome.columns.count - outcome.rows[i].count)
    }
    outcome.warnings = reader.warnings
    return outcome
}

func readJSON(_ text: String, linesMode: Bool? = nil, chunkSize: Int = 1 << 16, maxDepth: Int = 512) -> JSONOutcome {
    readJSON(Array(text.utf8), linesMode: linesMode, chunkSize: chunkSize, maxDepth: maxDepth)
}

/// File system access for the conformance tests (no Foundation: its `InputStream` would clash).
enum TestFiles {
    /// `Tests/Conformance/JSONTestSuite`, below `TestPaths.conformance`.
    static let jsonTestSuite = TestPaths.conformance.appendingPathComponent("JSONTestSuite").path

    /// The names in a folder, sorted (nil when it cannot be opened).
    static func list(_ folder: String) -> [String]? {
        guard let dir = opendir(folder) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// A file's bytes (nil when it cannot be read).
    static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }
}
