// Shared by every fuzz target. Compiled into the same module as the FormatEngine sources (no
// `import FormatEngine`), so internal API is visible. See docs/FUZZING.md.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// FUZZ_STRICT=1 also checks the invariants of known, unfixed findings (docs/FUZZING.md); a target
/// skips a known finding only `if !strictChecks`, so a run keeps finding new things meanwhile.
let strictChecks = getenv("FUZZ_STRICT") != nil

/// Reads the fuzzer's leading control bytes; past the end it answers 0.
struct ControlBytes {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The next control byte (0 once the input is used up).
    mutating func next() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// What is left after the control bytes: the input proper.
    var rest: [UInt8] { index < bytes.count ? Array(bytes[index...]) : [] }
}

/// A broken invariant: prints what and why, then aborts so libFuzzer saves the input.
func violated(_ what: String, _ detail: @autoclosure () -> String = "") -> Never {
    let text = "FUZZ INVARIANT VIOLATED: \(what)\n\(detail())\n"
    _ = text.withCString { fputs($0, stderr) }
    abort()
}

/// Checks one invariant.
@inline(__always)
func require(_ condition: Bool, _ what: @autoclosure () -> String, _ detail: @autoclosure () -> String = "") {
    if !condition { violated(what(), detail()) }
}

/// Whether `bytes` is well-formed UTF-8 (decoding them replaces nothing).
func isValidUTF8<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while true {
        switch decoder.decode(&iterator) {
        case .scalarValue: continue
        case .emptyInput: return true
        case .error: return false
        }
    }
}

/// The chunk sizes a source may hand out, from one control byte: every size from 1 to 200,
/// then a few large ones; never less than 1/128 of the input, so that a large input is not read
/// a byte at a time (slow, and no new resume path: small inputs reach every one).
func chunkSize(_ b: UInt8, inputSize: Int) -> Int {
    let size: Int
    switch b {
    case 0..<200: size = Int(b) + 1
    case 200..<220: size = 4096
    case 220..<240: size = 1 << 16
    default: size = 1 << 20
    }
    return max(size, inputSize / 128)
}

/// Encodings an `InputStream` may be asked for, from a few bits (nil: UTF-8 or a BOM's).
func encoding(_ bits: UInt8) -> TextEncoding? {
    switch bits % 8 {
    case 1: return .utf8
    case 2: return .utf16le
    case 3: return .utf16be
    case 4: return .latin1
    case 5: return .cp1252
    default: return nil
    }
}

/// Everything a record reader produced, for comparing two runs over the same bytes.
struct ReadOutcome: Equatable {
    var records: [[[UInt8]]] = []
    var lines: [Int] = []
    var columns: [String] = []
    var error: String?
    var warnings: [String] = []

    /// A short description for a failure message.
    var summary: String {
        "\(records.count) records, lines \(lines.prefix(20)), columns \(columns.prefix(20)), error \(error ?? "none")"
    }
}

/// Reads every record, checking what holds for any reader; stops after `limit` records.
func readAll(_ reader: inout some RecordReader, limit: Int = 1 << 20) -> ReadOutcome {
    var outcome = ReadOutcome()
    var record = Record()
    var lastLine = 0
    do {
        while outcome.records.count < limit, try reader.read(into: &record) {
            require(record.ends.last ?? 0 == record.bytes.count || record.ends.isEmpty, "record ends past its bytes")
            var fields: [[UInt8]] = []
            var start = 0
            for end in record.ends {
                require(end >= start && end <= record.bytes.count, "field ends out of order: \(record.ends)")
                let field = Array(record.bytes[start..<end])
                require(isValidUTF8(field), "a field is not valid UTF-8", "\(field)")
                fields.append(field)
                start = end
            }
            require(record.line >= 1, "record line \(record.line) < 1")
            require(record.line >= lastLine, "record lines go backwards: \(lastLine) then \(record.line)")
            lastLine = record.line
            outcome.records.append(fields)
            outcome.lines.append(record.line)
        }
        // After the end, the reader stays at the end.
        if outcome.records.count < limit {
            require(try !reader.read(into: &record), "a reader returned a record after its end")
        }
    } catch {
        require(error.kind == .malformed, "a memory source gave a non-data error: \(error)")
        if let position = error.position {
            require(position.line >= 1 && position.column >= 1, "error position \(position) is not 1-based: \(error)")
        }
        outcome.error = error.description
    }
    outcome.columns = reader.columnNames ?? []
    outcome.warnings = reader.warnings
    return outcome
}
