import Foundation
import Testing
import FormatEngine

/// The front door's rows, sources and errors (issue 28, item 5), used as a caller outside the
/// module would (no `@testable`).
@Suite("Front door: rows in memory, byte spans, one error type")
struct FrontDoorRowsTests {
    /// Cells CSV has to quote or could misread, and plain ones.
    static let cells: [String?] = [
        "Müller, Anna", "say \"hi\"", "\"quoted\"", "two\nlines", "cr\rlf", "crlf\r\nend", " lead", "trail ", "\t", "",
        nil, "1,234.5", "42", "-3.25", "日本語", "=x", "#", ",", "\"", "a\"\"b", "x,\"y\"",
    ]

    /// Writes rows as RFC 4180 CSV, every field quoted (the test's own writer, not the engine's).
    static func csv(_ headings: [String], _ rows: [[String?]]) -> String {
        func line(_ fields: [String?]) -> String {
            fields.map { "\"" + ($0 ?? "").replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",") + "\r\n"
        }
        return line(headings) + rows.map(line).joined()
    }

    static func generatedCell(_ random: inout SplitMix64) -> String? {
        if random.below(3) > 0 { return cells[random.below(cells.count)] }
        let alphabet: [Character] = ["a", "Z", "7", ".", ",", "\"", " ", "\n", "\r", "é", "-", "0"]
        return String((0..<random.below(9)).map { _ in alphabet[random.below(alphabet.count)] })
    }

    @Test("rows in memory: on 400 generated row sets (commas, quotes, CR, LF, spaces, nil, short and long rows; sorted, chosen, grouped) the table is the one the same rows give written as CSV and read back")
    func rowsMatchTheirCSV() throws {
        var random = SplitMix64(seed: 0x28_05)
        for round in 0..<400 {
            let width = 1 + random.below(4)
            // Headings: never one CSV cannot say (a leading U+FEFF, see below); an empty one is `Column N`.
            let headings = (0..<width).map { k in random.below(6) == 0 ? "" : "h\(k)" + (random.below(4) == 0 ? ", \"x\"" : "") }
            let rows: [[String?]] = (0..<random.below(12)).map { _ in
                // Short and long rows too; never an empty one (CSV cannot say it, see below).
                let count = random.below(5) == 0 ? 1 + random.below(width + 2) : width
                return (0..<count).map { _ in Self.generatedCell(&random) }
            }
            var options = FormatOptions()
            options.width = [nil, 30, 60][random.below(3)]
            options.format = [.plain, .markdown, .html][random.below(3)]
            options.layout = [.auto, .table, .list][random.below(3)]
            switch random.below(4) {
            case 0: options.sort = [SortKey(random.below(2) == 0 ? "1" : "-1")]
            case 1: options.columns = ColumnSelection(["\(width)"])
            case 2: options.groupBy = ColumnReference("1")
            default: break
            }
            let text = try TableFormatter.string(rows: rows, headings: headings, options: options)
            var csvOptions = options
            csvOptions.inputFormat = .csv
            csvOptions.header = true
            let sink = MemorySink()
            try TableFormatter.write(MemoryInput(Self.csv(headings, rows)), options: csvOptions, to: sink)
            #expect(text == sink.text, "round \(round): \(headings) \(rows)\n\(text)\n---\n\(sink.text)")
        }
    }

    @Test("rows in memory: nil is an empty cell, the same as \"\"; a value is shown as given, never read as CSV")
    func nilIsEmptyAndValuesAreText() throws {
        var options = FormatOptions()
        options.width = 0
        let withNil = try TableFormatter.string(rows: [["a", nil, "c"], [nil, nil, nil]], headings: ["x", "y", "z"], options: options)
        let withEmpty = try TableFormatter.string(rows: [["a", "", "c"], ["", "", ""]], headings: ["x", "y", "z"], options: options)
        #expect(withNil == withEmpty)
        // A cell that looks like quoted CSV keeps its quotes and its comma; it is one cell.
        let quoted = try TableFormatter.string(rows: [["\"p,q\""]], headings: ["v"], options: options)
        #expect(quoted.split(separator: "\n").last.map(String.init)?.trimmingCharacters(in: .whitespaces) == "\"p,q\"", "\(quoted)")
    }

    @Test("rows in memory: what CSV cannot say is kept: an empty row is a row of empty cells, a heading's leading U+FEFF stays")
    func whatCSVCannotSay() throws {
        var options = FormatOptions()
        options.width = 0
        // An empty row is a line of nothing in CSV, which a reader skips as blank; here it is a row.
        let empty = try TableFormatter.string(rows: [["a"], [], ["b"]], headings: ["x"], options: options)
        let padded = try TableFormatter.string(rows: [["a"], [nil], ["b"]], headings: ["x"], options: options)
        #expect(empty == padded)
        let csvSink = MemorySink()
        try TableFormatter.write(MemoryInput("x\na\n\nb\n"), to: csvSink)
        #expect(csvSink.text != empty, "CSV skips the blank line: the two paths differ here")
        // A first heading starting with U+FEFF: CSV takes it for a byte-order mark and drops it.
        let marked = try TableFormatter.string(rows: [["1"]], headings: ["\u{FEFF}id"], options: options)
        let plain = try TableFormatter.string(rows: [["1"]], headings: ["id"], options: options)
        #expect(marked != plain, "\(marked)")
    }

    /// A caller's source: hands out a few bytes a read, appending them one at a time to the span
    /// it is lent (no pointer anywhere).
    final class TrickleSource: ByteSource {
        let bytes: [UInt8]
        var offset = 0
        var random: SplitMix64
        init(_ bytes: [UInt8], seed: UInt64) {
            self.bytes = bytes
            random = SplitMix64(seed: seed)
        }
        func read(into buffer: inout OutputRawSpan) throws(InputError) {
            let n = min(buffer.freeCapacity, bytes.count - offset, 1 + random.below(9))
            for k in offset..<(offset + n) { buffer.append(bytes[k]) }
            offset += n
        }
    }

    struct TrickleInput: InputProvider {
        let bytes: [UInt8]
        let seed: UInt64
        var name: String { "<trickle>" }
        var path: String? { nil }
        var isRereadable: Bool { true }
        func open() throws(InputError) -> any ByteSource { TrickleSource(bytes, seed: seed) }
    }

    @Test("a caller's ByteSource appends to an OutputRawSpan, a few bytes a read: on 100 generated CSV inputs (UTF-8, UTF-16) its table is the one the same bytes give from memory, and the one their rows give")
    func callersSourceFillsSpans() throws {
        var random = SplitMix64(seed: 0x5A4)
        for round in 0..<100 {
            let headings = ["name", "n"]
            let rows: [[String?]] = (0..<random.below(40)).map { _ in [Self.generatedCell(&random), "\(random.below(1000))"] }
            let text = Self.csv(headings, rows)
            let bytes: [UInt8] = round % 3 == 1 ? [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } : Array(text.utf8)
            var options = FormatOptions()
            options.inputFormat = .csv
            options.header = true
            let fromSpans = MemorySink()
            try TableFormatter.write(TrickleInput(bytes: bytes, seed: UInt64(round)), options: options, to: fromSpans)
            let fromMemory = MemorySink()
            try TableFormatter.write(MemoryInput(bytes), options: options, to: fromMemory)
            #expect(fromSpans.bytes == fromMemory.bytes, "round \(round)")
            #expect(fromSpans.text == (try TableFormatter.string(rows: rows, headings: headings)), "round \(round)")
        }
    }

    @Test("no public declaration in Sources exposes an unsafe pointer")
    func noPublicUnsafe() throws {
        let sources = TestPaths.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 50)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where (line.contains("public ") || line.contains("open ")) && line.contains("Unsafe") {
                Issue.record("\(file.lastPathComponent):\(k + 1): \(line)")
            }
        }
    }

    /// A sink that fails as told after `after` writes.
    final class FailingSink: OutputSink {
        let failure: OutputError
        var after: Int
        init(_ failure: OutputError, after: Int) {
            self.failure = failure
            self.after = after
        }
        func write(_ bytes: RawSpan) throws(OutputError) {
            if after == 0 { throw failure }
            after -= 1
        }
    }

    @Test("one error type: run throws FormatError as string and write do: a closed output is .outputClosed (write stops quietly), a failed write .ioFailed with the system's reason (E3)")
    func oneErrorType() throws {
        let input = MemoryInput("a,b\n" + String(repeating: "1,2\n", count: 50_000), name: "big.csv")
        do {
            _ = try TableFormatter.run(input, options: FormatOptions(), output: FailingSink(.closed, after: 1))
            Issue.record("no error thrown")
        } catch {
            #expect(error.kind == .outputClosed && error.rule == "E3" && error.source == "big.csv", "\(error)")
        }
        do {
            _ = try TableFormatter.run(input, options: FormatOptions(), output: FailingSink(.failed("disk full"), after: 0))
            Issue.record("no error thrown")
        } catch {
            #expect(error.kind == .ioFailed && error.rule == "E3" && error.message == "write error: disk full", "\(error)")
            #expect(error.description == "big.csv: write error: disk full (E3)")
        }
        // write: a reader that went away ends it quietly; a failed write is thrown as run throws it.
        #expect(try TableFormatter.write(input, to: FailingSink(.closed, after: 1)) == [])
        do {
            try TableFormatter.write(input, to: FailingSink(.failed("disk full"), after: 0))
            Issue.record("no error thrown")
        } catch {
            #expect(error.kind == .ioFailed && error.rule == "E3" && error.message == "write error: disk full", "\(error)")
        }
    }
}
