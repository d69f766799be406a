import Foundation
@testable import FormatEngine
@testable import Run
@testable import Viewer
@testable import Input

/// Helpers shared by the input tests (CSV reader, input stream, conformance, real-world files).
enum InputTestKit {
    /// What one parse produced: the records, the line each started on, and the error that stopped it.
    struct Parse: Equatable {
        var records: [[String]] = []
        var lines: [Int] = []
        var error: InputError?
    }

    /// Parses `bytes` with a `CSVReader`, the source handing out `chunkSize` bytes per read.
    ///
    /// Like `readCSV` in TestSupport, and also keeps each record's `line`.
    static func parse(_ bytes: [UInt8], dialect: Dialect = .csv(), chunkSize: Int, name: String = "test.csv") -> Parse {
        let stream = InputStream(MemorySource(bytes, chunkSize: chunkSize), chunkSize: 16)
        var reader = CSVReader(stream: stream, dialect: dialect, sourceName: name)
        var record = Record()
        var out = Parse()
        do {
            while try reader.read(into: &record) {
                out.records.append(record.strings)
                out.lines.append(record.line)
            }
        } catch {
            out.error = error
        }
        return out
    }

    /// Every chunk size from 1 byte to the whole input, then one far larger than any test input:
    /// a resumable reader must give the same answer at every split point.
    static func everyChunkSize(_ count: Int) -> [Int] {
        Array(1...max(1, count)) + [1 << 16]
    }

    /// A few chunk sizes for large inputs (every size would be quadratic).
    static let someChunkSizes = [1, 2, 3, 7, 1 << 16]

    /// What an `InputStream` turned the input into.
    struct Decoded {
        var bytes: [UInt8] = []
        var encoding: TextEncoding = .utf8
        var replacements = 0
        var firstReplacementLine = 0
        var error: InputError?
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// Reads an `InputStream` to its end, the source handing out `chunkSize` bytes per read.
    static func decode(_ bytes: [UInt8], encoding: TextEncoding? = nil, chunkSize: Int, streamChunkSize: Int = 16) -> Decoded {
        let stream = InputStream(MemorySource(bytes, chunkSize: chunkSize), encoding: encoding, chunkSize: streamChunkSize)
        var out = Decoded()
        do {
            while try stream.refill() {
                out.bytes.append(contentsOf: stream.available)
                stream.pos = stream.end
            }
        } catch {
            out.error = error
        }
        out.encoding = stream.encoding
        out.replacements = stream.replacements
        // The line of the first replacement: line breaks (LF, or CR in a CR-only text) before its
        // offset in the decoded bytes, plus one.
        if let offset = stream.firstReplacementOffset {
            let before = out.bytes[0..<min(offset, out.bytes.count)]
            let lf = before.filter { $0 == 0x0A }.count
            let cr = before.filter { $0 == 0x0D }.count
            out.firstReplacementLine = (lf > 0 ? lf : cr) + 1
        }
        return out
    }

    /// `text` as UTF-16 code units in the given byte order, with a byte-order mark first when asked.
    static func utf16(_ text: String, littleEndian: Bool, bom: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        let units = (bom ? [UInt16(0xFEFF)] : []) + Array(text.utf16)
        for unit in units {
            let high = UInt8(unit >> 8), low = UInt8(unit & 0xFF)
            out += littleEndian ? [low, high] : [high, low]
        }
        return out
    }

    /// Reads a whole table through `TableInput`, as the engine's first pass does.
    struct Table {
        var columns: [String] = []
        var rows = 0
        /// Rows whose field count, after padding, was not the column count at the time.
        var misfits = 0
        var warnings: [String] = []
        var choice: TableInput.Choice?
        var error: InputError?
        /// The first few rows, for spot checks.
        var head: [[String]] = []
        /// Rows by the line they started on, for the lines a test asks about.
        var byLine: [Int: [String]] = [:]
    }

    static func table(_ bytes: [UInt8], name: String, options: FormatOptions, keepLines: Set<Int> = []) -> Table {
        var out = Table()
        do {
            var table = try TableInput(MemoryInput(bytes, name: name, path: name), options: options.input)
            out.choice = table.choice
            var record = Record()
            while try table.next(into: &record) {
                out.rows += 1
                if record.count != table.columns.count { out.misfits += 1 }
                if out.head.count < 3 { out.head.append(record.strings) }
                if keepLines.contains(record.line) { out.byLine[record.line] = record.strings }
            }
            out.columns = table.columns
            out.warnings = table.warnings
        } catch {
            out.error = error
        }
        return out
    }
}

/// The subset of YAML that the FastCSV specification files use: top-level `name`, folded
/// `description: >-` blocks (skipped), a `settings` map of scalars, and `checks`, a list of maps
/// with `id`, `input`, an optional folded `description` and `records` (a block list of flow
/// sequences, or `[]`). Scalars are plain, 'single-quoted' (`''` is a quote) or "double-quoted".
enum FastCSVSpec {
    struct Check: Sendable {
        var id = ""
        var input = ""
        var records: [[String]] = []
    }

    struct File: Sendable {
        var name = ""
        var settings: [String: String] = [:]
        var checks: [Check] = []
    }

    enum ParseError: Error, CustomStringConvertible {
        case syntax(line: Int, String)
        var description: String {
            switch self {
            case .syntax(let line, let message): return "line \(line): \(message)"
            }
        }
    }

    static func parse(_ text: String) throws -> File {
        var file = File()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0.hasSuffix("\r") ? $0.dropLast() : $0) }
        enum Section { case top, settings, checks }
        var section = Section.top
        var current: Check?
        var index = 0
        func indent(_ line: String) -> Int { line.prefix { $0 == " " }.count }
        while index < lines.count {
            let line = lines[index]
            let depth = indent(line)
            var body = line.trimmingCharacters(in: .whitespaces)
            index += 1
            if body.isEmpty || body.hasPrefix("#") { continue }
            if depth == 0 { section = .top }
            if body.hasPrefix("- ") && section == .checks && body.dropFirst(2).hasPrefix("id:") {
                if let current { file.checks.append(current) }
                current = Check()
                body = String(body.dropFirst(2))
            } else if body.hasPrefix("- [") {
                guard current != nil else { throw ParseError.syntax(line: index, "record outside a check") }
                var rest = Substring(body.dropFirst(2))
                current?.records.append(try flowSequence(&rest, line: index))
                continue
            }
            guard let colon = body.firstIndex(of: ":") else { throw ParseError.syntax(line: index, "expected key: value") }
            let key = String(body[..<colon])
            let value = body[body.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if value == ">-" || value == ">" || value == "|" || value == "|-" {
                // A block scalar: its lines are indented deeper than its key (or blank).
                while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces).isEmpty || indent(lines[index]) > depth { index += 1 }
                continue
            }
            switch (section, key) {
            case (.top, "name"): file.name = try scalar(value, line: index)
            case (.top, "settings"): section = .settings
            case (.top, "checks"): section = .checks
            case (.settings, _): file.settings[key] = try scalar(value, line: index)
            case (.checks, "id"): current?.id = try scalar(value, line: index)
            case (.checks, "input"): current?.input = try scalar(value, line: index)
            case (.checks, "records"):
                if !value.isEmpty {
                    var rest = Substring(value)
                    let inline = try flowSequence(&rest, line: index)
                    guard inline.isEmpty else { throw ParseError.syntax(line: index, "only [] is expected inline") }
                }
                current?.records = []
            default:
                throw ParseError.syntax(line: index, "unexpected key \(key)")
            }
        }
        if let current { file.checks.append(current) }
        return file
    }

    /// A plain or quoted scalar standing alone.
    static func scalar(_ text: String, line: Int) throws -> String {
        guard let first = text.first, first == "'" || first == "\"" else { return text }
        var rest = Substring(text)
        let value = try quoted(&rest, line: line)
        guard rest.trimmingCharacters(in: .whitespaces).isEmpty else { throw ParseError.syntax(line: line, "text after a quoted scalar") }
        return value
    }

    /// A quoted scalar at the start of `text`, consumed.
    static func quoted(_ text: inout Substring, line: Int) throws -> String {
        guard let quote = text.first else { throw ParseError.syntax(line: line, "expected a scalar") }
        text = text.dropFirst()
        var out = ""
        while let c = text.first {
            text = text.dropFirst()
            if c == quote {
                if quote == "'" && text.first == "'" {  // '' is one quote
                    out.append("'")
                    text = text.dropFirst()
                    continue
                }
                return out
            }
            if quote == "\"" && c == "\\", let e = text.first {
                text = text.dropFirst()
                switch e {
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "t": out.append("\t")
                case "0": out.append("\0")
                case "\\", "\"", "/": out.append(e)
                case "u":
                    let hex = text.prefix(4)
                    guard hex.count == 4, let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
                        throw ParseError.syntax(line: line, "bad \\u escape")
                    }
                    out.unicodeScalars.append(scalar)
                    text = text.dropFirst(4)
                default: throw ParseError.syntax(line: line, "unknown escape \\\(e)")
                }
                continue
            }
            out.append(c)
        }
        throw ParseError.syntax(line: line, "unterminated quoted scalar")
    }

    /// `[ 'A', "B", C ]` at the start of `text`, consumed.
    static func flowSequence(_ text: inout Substring, line: Int) throws -> [String] {
        func skipSpaces() { while text.first == " " { text = text.dropFirst() } }
        skipSpaces()
        guard text.first == "[" else { throw ParseError.syntax(line: line, "expected [") }
        text = text.dropFirst()
        var items: [String] = []
        skipSpaces()
        if text.first == "]" { text = text.dropFirst(); return items }
        while true {
            skipSpaces()
            if text.first == "'" || text.first == "\"" {
                items.append(try quoted(&text, line: line))
            } else {
                let plain = text.prefix { $0 != "," && $0 != "]" }
                items.append(plain.trimmingCharacters(in: .whitespaces))
                text = text.dropFirst(plain.count)
            }
            skipSpaces()
            guard let c = text.first else { throw ParseError.syntax(line: line, "unterminated [") }
            text = text.dropFirst()
            if c == "]" { return items }
            guard c == "," else { throw ParseError.syntax(line: line, "expected , or ]") }
        }
    }

    /// One runnable form of a check: placeholders expanded as upstream's reader does (conformance README §3).
    struct Variant: Sendable {
        var id: String
        var input: [UInt8]
        var records: [[String]]
    }

    /// `␊ ␍ ␤` are replaced in the input only; `⏎` makes three variants (LF, CRLF, CR), replaced
    /// in the input and in the expected field values alike.
    static func variants(of check: Check) -> [Variant] {
        func expand(_ s: String) -> String {
            s.replacingOccurrences(of: "␤", with: "\r\n")
                .replacingOccurrences(of: "␊", with: "\n")
                .replacingOccurrences(of: "␍", with: "\r")
        }
        guard check.input.contains("⏎") else {
            return [Variant(id: check.id, input: Array(expand(check.input).utf8), records: check.records)]
        }
        return [("LF", "\n"), ("CRLF", "\r\n"), ("CR", "\r")].map { name, ending in
            Variant(
                id: "\(check.id)[\(name)]",
                input: Array(expand(check.input.replacingOccurrences(of: "⏎", with: ending)).utf8),
                records: check.records.map { $0.map { $0.replacingOccurrences(of: "⏎", with: ending) } })
        }
    }
}
