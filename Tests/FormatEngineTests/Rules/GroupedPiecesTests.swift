import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// `--group-by` of a CSV or TSV file grouped as it is read in pieces on both cores (W12, P1,
/// `PieceGroups`): the output must be the bytes the same file prints when its rows are grouped as
/// read whole (no pieces: every row held, or sorted on disk past the budget), in every format and
/// layout; and the running sums behind the footers must equal `ExactDecimal.sum` of the same cells.
@Suite("Grouped pieces")
struct GroupedPiecesTests {
    /// Group values: ASCII, CJK, empty, one with a comma (quoted), and "é" composed and decomposed
    /// (equal as text: one group, shown as first written).
    static let values = ["EMEA", "APAC", "東京", "", "North, east", "Café", "Cafe\u{301}", "a\"b"]

    /// Number-like cells of every form the sums read, and some that end a column's sum.
    static func number(_ rng: inout SplitMix64) -> String {
        switch rng.below(14) {
        case 0: return String(rng.below(100_000))
        case 1: return "-" + String(rng.below(1000))
        case 2: return "\(rng.below(1000)).\(rng.below(100))"
        case 3: return "\(rng.below(10)).\(String(rng.below(100_000)))"
        case 4: return "\"1,\(100 + rng.below(900)).5\""
        case 5: return "$\(rng.below(500))"
        case 6: return "\(rng.below(90)) kg"
        case 7: return "\(rng.below(9) + 1)e\(rng.below(6))"
        case 8: return "NA"
        case 9: return ""
        case 10: return String(repeating: "9", count: 10 + rng.below(20))  // past one word
        case 11: return "0.\(String(repeating: "0", count: rng.below(25)))\(rng.below(9) + 1)"
        case 12: return "0"
        default: return String(rng.below(1_000_000_000))
        }
    }

    /// One to eight bytes of digits, often with a point among them (first, not last); the digits
    /// often zeros.
    static func shortNumber(_ rng: inout SplitMix64) -> String {
        let length = 1 + rng.below(8)
        var text = (0..<length).map { _ in rng.below(3) == 0 ? "0" : String(rng.below(10)) }.joined()
        if length >= 2 && rng.below(3) > 0 {
            let point = rng.below(length - 1)
            text = String(text.prefix(point)) + "." + String(text.dropFirst(point + 1))
        }
        return text
    }

    /// A generated file: a group column, two number columns (one sometimes with text, or a
    /// percentage, so its sum ends), a text column; LF or CR LF; sometimes a short row.
    static func file(_ rng: inout SplitMix64, trial: Int, groups: Int) -> [UInt8] {
        var lines = ["id,grp,amount,mixed,note"]
        let rows = 150 + rng.below(500)
        for r in 0..<rows {
            let group = groups <= values.count ? values[rng.below(groups)] : "g\(rng.below(groups))"
            let quoted = group.contains(",") || group.contains("\"") ? "\"" + group.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : group
            var mixed = number(&rng)
            if trial % 3 == 1 && rng.below(200) == 0 { mixed = "n/a text" }
            if trial % 4 == 3 && rng.below(300) == 0 { mixed = "12.5%" }
            let note = ["ok", "late, again", "\"quoted\"", "naïve", "長い説明"][rng.below(5)]
            let noteCell = note.contains(",") || note.contains("\"") ? "\"" + note.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : note
            if trial % 5 == 4 && r % 97 == 5 {
                lines.append("\(r),\(quoted)")  // a short row: its other cells are empty
            } else {
                lines.append("\(r),\(quoted),\(number(&rng)),\(mixed),\(noteCell)")
            }
        }
        let ending = trial % 2 == 1 ? "\r\n" : "\n"
        return Array((lines.joined(separator: ending) + ending).utf8)
    }

    /// The output options tried, by name.
    static let shapes: [(String, @Sendable (inout FormatOptions) -> Void)] = [
        ("plain", { _ in }),
        ("ansi zebra", { $0.format = .ansi; $0.zebra = true }),
        ("box", { $0.style = .box }),
        ("markdown", { $0.format = .markdown }),
        ("list", { $0.layout = .list; $0.width = 60 }),
        ("two lines at 50", { $0.cellLines = 2; $0.width = 50 }),
        ("columns", { $0.columns = ColumnSelection(["note", "grp", "amount"]) }),
        ("no footer", { $0.groupFooter = false }),
    ]

    static func run(_ url: URL, pieceBytes: Int?, memory: Int = 64 << 20, _ configure: (inout FormatOptions) -> Void) throws -> (text: String, error: String?, pieces: Int) {
        var options = FormatOptions()
        options.width = 0
        options.groupBy = ColumnReference("grp")
        options.pipeline.pieceBytes = pieceBytes
        options.memoryLimit = memory
        configure(&options)
        let sink = MemorySink()
        let result = try TableFormatter.run(try FileInput(path: url.path), options: options, output: sink)
        return (sink.text, result.error?.description, result.pieces)
    }

    @Test("W12, P1: a file grouped as it is read in pieces prints what its rows grouped whole print (seeded)", arguments: 0..<shapes.count)
    func sameAsWhole(_ shape: Int) throws {
        var rng = SplitMix64(seed: 0x6A0 + UInt64(shape))
        var grouped = 0
        for trial in 0..<6 {
            let url = try FilePiecesTests.file(Self.file(&rng, trial: trial, groups: 1 + rng.below(Self.values.count)))
            let whole = try Self.run(url, pieceBytes: nil, Self.shapes[shape].1)
            #expect(whole.pieces == 0)
            for size in [97, 1000, 4096] {
                let pieced = try Self.run(url, pieceBytes: size, Self.shapes[shape].1)
                if pieced.pieces > 1 { grouped += 1 }
                #expect(pieced.text == whole.text, "\(Self.shapes[shape].0), trial \(trial), pieces of \(size)")
                #expect(pieced.error == whole.error)
            }
            // Chunks past a tiny budget are kept on disk: the same bytes.
            let spilled = try Self.run(url, pieceBytes: 500, memory: 4096, Self.shapes[shape].1)
            #expect(spilled.text == whole.text, "\(Self.shapes[shape].0), trial \(trial), chunks on disk")
        }
        #expect(grouped >= 12, "most runs must take the grouped-in-pieces path")
    }

    @Test("W12: more groups than PieceGroups holds, or sums past 100 digits, are grouped as before, with the same output")
    func fallsBack() throws {
        var rng = SplitMix64(seed: 0x6A1)
        let many = try FilePiecesTests.file(Self.file(&rng, trial: 0, groups: PieceGroups.maxGroups + 50))
        #expect(try Self.run(many, pieceBytes: 400) { _ in }.text == Self.run(many, pieceBytes: nil) { _ in }.text)
        var csv = "grp,x\n"
        for k in 0..<400 { csv += "a,\(k % 2 == 0 ? "1e-120" : "3e20")\n" }
        let wide = try FilePiecesTests.file(Array(csv.utf8))
        let pieced = try Self.run(wide, pieceBytes: 300) { _ in }
        #expect(try pieced.text == Self.run(wide, pieceBytes: nil) { _ in }.text)
        #expect(pieced.text.contains("≈"), "the rounded total is marked")
    }

    @Test("W12: a running sum, gathered in parts and merged, is ExactDecimal.sum of the same cells, short decimals among them (seeded)")
    func runningSums() {
        var rng = SplitMix64(seed: 0x6A2)
        for _ in 0..<2000 {
            // Short whole numbers and decimals of every length and point place, as
            // `NumberShape.shortWholeNumber` and `shortDecimal` take them (a point first, zeros
            // before and after the digits), which the sum reads as a word without the full parse;
            // some with leading zeros it leaves to the parse.
            let cells = (0..<(1 + rng.below(40))).map { _ in
                rng.below(2) == 0 ? Self.shortNumber(&rng) : Self.number(&rng).replacingOccurrences(of: "\"", with: "")
            }
            var parts = [ExactDecimal.Running(), ExactDecimal.Running(), ExactDecimal.Running()]
            for cell in cells {
                var bytes = Array(cell.utf8)
                bytes.withUnsafeMutableBufferPointer { parts[rng.below(3)].add(UnsafeBufferPointer($0)) }
            }
            var total = parts[0]
            total.merge(parts[1])
            total.merge(parts[2])
            let expected = NumberValue.sum(cells.map { Array($0.utf8) })
            let got = total.exactValue.map { NumberValue.Sum($0, exact: true) }
            if let expected, expected.exact {
                #expect(got == expected, "\(cells)")
            } else {
                #expect(got == nil, "\(cells)")
            }
        }
    }

    /// A sink whose writes fail after the first `after`, counting the writes tried.
    final class CountingSink: OutputSink {
        let failure: OutputError
        let after: Int
        var tried = 0
        init(_ failure: OutputError, after: Int) {
            self.failure = failure
            self.after = after
        }
        func write(_ bytes: RawSpan) throws(OutputError) {
            tried += 1
            if tried > after { throw failure }
        }
    }

    @Test("W12, P1: pieces drawn out of turn (one at a time, in a shuffled order) print what the rows grouped whole print, their chunks kept in memory or on disk (seeded)")
    func drawnOutOfTurn() throws {
        var rng = SplitMix64(seed: 0x6A7)
        for trial in 0..<12 {
            let url = try FilePiecesTests.file(Self.file(&rng, trial: trial, groups: 1 + rng.below(Self.values.count)))
            let whole = try Self.run(url, pieceBytes: nil) { _ in }
            let seed = rng.next()
            let shuffled: @Sendable (Int) -> [Int] = { count in
                var order = SplitMix64(seed: seed)
                return Array(0..<count).shuffled(using: &order)
            }
            for (size, memory) in [(97, 64 << 20), (400, 64 << 20), (300, 4096)] {
                let pieced = try Self.run(url, pieceBytes: size, memory: memory) { $0.pipeline.groupedDrawOrder = shuffled }
                #expect(pieced.pieces > 1)
                #expect(pieced.text == whole.text, "trial \(trial), pieces of \(size), memory \(memory)")
                #expect(pieced.error == whole.error)
            }
        }
    }

    @Test("W12, E3: an output that fails while the first group is written as it is drawn stops the run with its error (closed: quietly), writing no more")
    func outputFailsMidGroup() throws {
        var csv = "id,grp,amount\n"
        for r in 0..<40_000 { csv += "\(r),\(r % 3 == 0 ? "b" : "a"),\(r % 1000).25 padding padding padding\n" }
        let url = try FilePiecesTests.file(Array(csv.utf8))
        for failure in [OutputError.closed, .failed("disk full")] {
            var options = FormatOptions()
            options.width = 0
            options.groupBy = ColumnReference("grp")
            options.pipeline.pieceBytes = 20_000
            let sink = CountingSink(failure, after: 3)
            let input = try FileInput(path: url.path)
            do {
                _ = try TableFormatter.run(input, options: options, output: sink)
                Issue.record("no error thrown")
            } catch {
                #expect(error.kind == (failure == .closed ? .outputClosed : .ioFailed), "\(error)")
            }
            // About 2 MB of output in 64 KiB blocks: the drawing stopped at the failed write.
            #expect(sink.tried == 4, "\(failure)")
        }
    }

    /// A sink that, when the text it is given first holds `trigger`, cuts every file of
    /// `directory` this process holds open to nothing (found by `/proc/self/fd`: the files are
    /// unlinked as soon as they are made). Each is opened again through its link and checked
    /// there, so a descriptor closed and reused meanwhile by a test running beside this one is
    /// never cut.
    final class CuttingSink: OutputSink {
        let directory: String
        let trigger: String
        var text = ""
        var cut = 0
        init(directory: String, trigger: String) {
            self.directory = directory
            self.trigger = trigger
        }
        func write(_ bytes: RawSpan) throws(OutputError) {
            bytes.withUnsafeBytes { text += String(decoding: $0, as: UTF8.self) }
            guard cut == 0, text.contains(trigger) else { return }
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
                      target.hasPrefix(directory + "/") else { continue }
                let mine = open("/proc/self/fd/\(entry)", O_WRONLY)
                guard mine >= 0 else { continue }
                defer { close(mine) }
                guard let again = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(mine)"),
                      again.hasPrefix(directory + "/") else { continue }
                if ftruncate(mine, 0) == 0 { cut += 1 }
            }
        }
    }

    @Test("W12, E2, P2: a group's chunk kept on disk that can no longer be read back (its temporary file cut short) stops the output after the group's heading with `cannot read back a temporary file for --group-by`, no row of the chunk written",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd")))
    func chunkCannotBeReadBack() throws {
        var csv = "id,grp,amount\n"
        for r in 0..<30_000 { csv += "\(r),\(r % 3 == 1 ? "omega" : "alpha"),\(r % 1000).25\n" }
        let url = try FilePiecesTests.file(Array(csv.utf8))
        let made = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-chunks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        // As /proc/self/fd names its files: every link resolved.
        let directory = made.resolvingSymlinksInPath().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var options = FormatOptions()
        options.width = 0
        options.groupBy = ColumnReference("grp")
        options.pipeline.pieceBytes = 20_000
        options.pipeline.groupChunkDirectory = directory
        options.memoryLimit = 4096  // the second group's chunks on disk
        let sink = CuttingSink(directory: directory, trigger: "Grp: omega")
        let result = try TableFormatter.run(try FileInput(path: url.path), options: options, output: sink)
        #expect(result.pieces > 1)
        #expect(sink.cut > 0, "the chunks were kept in a file")
        #expect(result.error?.description == "\(directory): cannot read back a temporary file for --group-by")
        // The first group whole, then the second's heading and none of its rows (the run stopped
        // at its first chunk, which is on disk), but the count of those not shown.
        let lines = sink.text.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = try #require(lines.firstIndex { $0.hasPrefix("Grp: omega") })
        #expect(lines[..<heading].filter { $0.contains("alpha") && !$0.hasPrefix("Grp:") }.count == 20_000)
        #expect(Array(lines[(heading + 1)...]) == ["… 10,000 more rows", ""])
    }

    @Test("W12: a group sum reads a short number's one to eight digits, as TextBytes.upTo8 loads them, as their value (NumberShape.digitsValue; seeded)")
    func digitsValue() {
        var rng = SplitMix64(seed: 0x6A4)
        for trial in 0..<20_000 {
            let length = 1 + trial % 8
            let text = (0..<length).map { _ in String(rng.below(3) == 0 ? [0, 9][rng.below(2)] : rng.below(10)) }.joined()
            // Bytes after the digits that are not digits: the load must not take them in.
            let bytes = Array(text.utf8) + Array("x.9".utf8)
            let value = bytes.withUnsafeBufferPointer { NumberShape.digitsValue(TextBytes.upTo8($0.baseAddress!, at: 0, count: length), count: length) }
            #expect(value == UInt64(text), "\(text)")
        }
    }

    @Test("ByteKeys numbers keys in first-seen order and finds each by its bytes, short or long (seeded)")
    func byteKeys() {
        var rng = SplitMix64(seed: 0x6A3)
        var keys = ByteKeys()
        var model: [[UInt8]: Int] = [:]
        for _ in 0..<5000 {
            let length = [0, 1, 3, 7, 8, 9, 20][rng.below(7)]
            let key = (0..<length).map { _ in UInt8(97 + rng.below(3)) }
            let id = key.withUnsafeBufferPointer { keys.insert($0) }
            if let known = model[key] { #expect(id == known) } else {
                #expect(id == model.count)
                model[key] = id
            }
            #expect(Array(keys.key(id)) == key)
        }
        #expect(keys.count == model.count)
    }
}
