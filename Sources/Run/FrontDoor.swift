import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a table could not be made: what went wrong, the rule it concerns (see docs/RULES.md),
/// and where in the input, when that is known.
public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Kind: Sendable, Equatable {
        /// The input does not follow its format (a CLI exit status of 65).
        case malformedInput
        /// The input could not be opened (66).
        case cannotOpen
        /// Reading or writing failed part way (74).
        case ioFailed
        /// The reader of the output went away (a closed pipe, EPIPE): nothing more can be written,
        /// and the command line stops quietly (E3).
        case outputClosed
        /// A `columns`, `sort` or `groupBy` reference names no column, or several (64).
        case noSuchColumn
    }

    /// What kind of failure it is.
    public var kind: Kind
    /// What went wrong, in plain words.
    public var message: String
    /// The rule id: `I2` for CSV, `I3` TSV, `I4` JSON, `I8` compressed input, `W9` columns, `E1`
    /// reading, `E3` writing.
    public var rule: String
    /// The line and column in the input, for malformed input.
    public var position: SourcePosition?
    /// The input's name (`data.csv`, `<stdin>`, `<rows>`).
    public var source: String

    /// `bad.csv:3:1: unterminated quoted field (I2)`.
    public var description: String {
        let place = position.map { "\(source):\($0.line):\($0.column)" } ?? source
        return "\(place): \(message) (\(rule))"
    }

    init(_ error: InputError, format: InputFormat?) {
        switch error.kind {
        case .malformed: kind = .malformedInput
        case .cannotOpen: kind = .cannotOpen
        case .readFailed: kind = .ioFailed
        }
        message = error.message
        position = error.position
        source = error.source
        if error.compressed {
            rule = "I8"
        } else if error.kind != .malformed {
            rule = "E1"
        } else {
            switch format {
            case .tsv?: rule = "I3"
            case .json?, .jsonl?: rule = "I4"
            default: rule = "I2"
            }
        }
    }

    /// Output that could not be written: the reader went away, or the write failed
    /// (`write error: <the system's reason>`).
    init(_ error: OutputError, source: String) {
        switch error {
        case .closed: self.init(kind: .outputClosed, message: "output closed", rule: "E3", source: source)
        case .failed(let reason): self.init(kind: .ioFailed, message: "write error: \(reason)", rule: "E3", source: source)
        }
    }

    init(kind: Kind, message: String, rule: String, source: String) {
        self.kind = kind
        self.message = message
        self.rule = rule
        self.position = nil
        self.source = source
    }
}

/// Writes to a file descriptor (a `FileHandle`'s `fileDescriptor`, or 1 for standard output).
/// A reader that went away (EPIPE) is `OutputError.closed`.
public final class DescriptorSink: OutputSink {
    /// The descriptor written to.
    public let fd: Int32
    /// A sink writing to `fd` (not closed by the sink).
    public init(fd: Int32) { self.fd = fd }

    /// Writes all of `bytes`, retrying after interruptions.
    public func write(_ bytes: RawSpan) throws(OutputError) {
        try bytes.withUnsafeBytes { (buffer) throws(OutputError) in try write(all: buffer) }
    }

    /// Copies the file's bytes in the kernel (`sendfile`), on Linux, unless `fd` is one it
    /// cannot write that way (a terminal, a file opened to append): then false, nothing written.
    /// A source that ends before `count` bytes is a write error.
    public func copy(fromFile source: Int32, offset: Int64, count: Int) throws(OutputError) -> Bool {
        #if os(Linux)
        var from = off_t(offset)
        let end = off_t(offset) + off_t(count)
        while from < end {
            let n = sendfile(fd, source, &from, Int(min(end - from, 1 << 30)))
            if n > 0 { continue }  // `from` has moved on
            if n < 0 && errno == EINTR { continue }
            if n < 0 && from == off_t(offset) && [EINVAL, ENOSYS, EOPNOTSUPP].contains(errno) { return false }
            if n < 0 && errno == EPIPE { throw .closed }
            throw .failed(n < 0 ? systemMessage(errno) : "the file copied from ended early")
        }
        return true
        #else
        return false
        #endif
    }

    private func write(all bytes: UnsafeRawBufferPointer) throws(OutputError) {
        var done = 0
        while done < bytes.count {
            let n = systemWrite(fd, from: UnsafeRawBufferPointer(rebasing: bytes[done...]))
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { throw .closed }
                throw .failed(systemMessage(errno))
            }
            done += n
        }
    }
}

/// The front door: a table from rows in memory, from any `Encodable` values, or from a file or
/// standard input, as a `String` or written to any `OutputSink`, with the options the command
/// line has (`FormatOptions`). Input errors are thrown, with the rule and the position.
///
///     var options = FormatOptions()
///     options.width = 60
///     let text = try TableFormatter.string(rows: [["Ada", "36"], ["Grace", nil]],
///                                          headings: ["name", "age"], options: options)
///     print(text, terminator: "")
extension TableFormatter {
    /// A table of rows given as text under headings. Each value is shown exactly as given (the
    /// rows are not written out as CSV and read back: commas, quotes and line breaks are only
    /// text); `nil` is an empty cell, the same as `""`. A row shorter than the headings is padded
    /// with empty cells; a longer one adds columns named `Column N`, as an empty heading is.
    ///
    ///     let text = try TableFormatter.string(rows: [["a", "1.5"]], headings: ["item", "price_usd"])
    ///
    /// - Throws: `FormatError` when a `columns`, `sort` or `groupBy` reference names no column.
    public static func string(rows: some Sequence<[String?]>, headings: [String], options: FormatOptions = FormatOptions()) throws(FormatError) -> String {
        var options = options
        options.header = true
        return try string(RowsInput(headings: headings, rows: Array(rows)), options: options)
    }

    /// A table of `Encodable` values, one row each: their properties become the columns (nested
    /// values as dotted names, `address.city`), in the order they are first encoded; a `nil`
    /// optional is an empty cell.
    ///
    ///     struct Run: Encodable { var name: String; var seconds: Double; var note: String? }
    ///     let text = try TableFormatter.string(encoding: runs)
    ///
    /// - Throws: `FormatError` when a value cannot be encoded as a row, or a column reference
    ///   names no column.
    public static func string<Row: Encodable>(encoding rows: some Sequence<Row>, options: FormatOptions = FormatOptions()) throws(FormatError) -> String {
        var names: [String] = []
        var index: [String: Int] = [:]
        var table: [[String?]] = []
        for row in rows {
            let fields: [(String, String?)]
            do { fields = try RowEncoder.fields(of: row) } catch {
                throw FormatError(kind: .malformedInput, message: "cannot encode row \(table.count + 1): \(error)", rule: "I6", source: "<rows>")
            }
            var cells = [String?](repeating: nil, count: names.count)
            for (name, value) in fields {
                if index[name] == nil {
                    index[name] = names.count
                    names.append(name)
                    cells.append(nil)
                }
                cells[index[name] ?? 0] = value
            }
            table.append(cells)
        }
        let padded = table.map { $0 + [String?](repeating: nil, count: names.count - $0.count) }
        return try string(rows: padded, headings: names, options: options)
    }

    /// A table of a file (CSV, TSV, JSON or JSON Lines, gzip too), chosen and read as the command
    /// line does.
    ///
    ///     let text = try TableFormatter.string(file: "results.csv")
    ///
    /// - Throws: `FormatError`: the file cannot be opened or read, or is malformed.
    public static func string(file path: String, options: FormatOptions = FormatOptions()) throws(FormatError) -> String {
        let input: FileInput
        do { input = try FileInput(path: path) } catch { throw FormatError(error, format: options.inputFormat) }
        return try string(input, options: options)
    }

    /// A table of any input into `sink`, as it is read (a file or standard input streams, in
    /// bounded memory).
    ///
    ///     let warnings = try TableFormatter.write(file: "big.csv", to: DescriptorSink(fd: 1))
    ///
    /// - Returns: warnings about the input (ragged rows, replaced bytes, duplicate keys).
    /// - Throws: `FormatError`, after the rows before a malformed one were written.
    @discardableResult
    public static func write(_ input: some InputProvider, options: FormatOptions = FormatOptions(), to sink: some OutputSink) throws(FormatError) -> [String] {
        let result: RunResult
        do {
            result = try run(input, options: options, output: sink)
        } catch where error.kind == .outputClosed {
            return []
        }
        if let usage = result.usageError { throw FormatError(kind: .noSuchColumn, message: usage, rule: "W9", source: input.name) }
        if let error = result.error { throw FormatError(error, format: options.inputFormat ?? input.path.map(Compression.strippingSuffix).flatMap(InputFormat.init(path:))) }
        return result.warnings
    }

    /// Formats `input` into `output` as the command line does, leaving what the input said to
    /// the caller: a data error stops the rows but is returned, after the rows before it were
    /// written (E2), as are warnings and a column reference that names no column.
    ///
    ///     let result = try TableFormatter.run(FileInput(path: "data.csv"), options: options, output: DescriptorSink(fd: 1))
    ///
    /// - Returns: warnings, the data error if any, a usage error (nothing written).
    /// - Throws: `FormatError` when the output cannot be written: kind `.outputClosed` when its
    ///   reader went away, `.ioFailed` when a write failed (both rule E3).
    public static func run(_ input: some InputProvider, options: FormatOptions, output: any OutputSink) throws(FormatError) -> RunResult {
        do {
            return try runDrawing(input, options: options, output: output)
        } catch {
            throw FormatError(error, source: input.name)
        }
    }

    /// A table of a file into `sink` (see `write(_:options:to:)`).
    @discardableResult
    public static func write(file path: String, options: FormatOptions = FormatOptions(), to sink: some OutputSink) throws(FormatError) -> [String] {
        let input: FileInput
        do { input = try FileInput(path: path) } catch { throw FormatError(error, format: options.inputFormat) }
        return try write(input, options: options, to: sink)
    }

    /// A table of standard input into `sink` (see `write(_:options:to:)`).
    @discardableResult
    public static func writeStandardInput(options: FormatOptions = FormatOptions(), to sink: some OutputSink) throws(FormatError) -> [String] {
        try write(StandardInput(), options: options, to: sink)
    }

    static func string(_ input: some InputProvider, options: FormatOptions) throws(FormatError) -> String {
        let sink = MemorySink()
        try write(input, options: options, to: sink)
        return sink.text
    }
}
