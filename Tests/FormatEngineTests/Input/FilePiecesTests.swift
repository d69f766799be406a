import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer
@testable import Input

/// A regular CSV or TSV file is read in pieces on both cores (P1): each thread sizes, then draws,
/// whole pieces cut after line feeds. These tests write generated tables to files and require the
/// same bytes, warnings and error as reading each file whole, with pieces of many sizes (down to
/// a few bytes, so that cuts fall everywhere: after CR LF, inside quoted fields that span lines,
/// before blank lines, in the last row).
@Suite("File pieces")
struct FilePiecesTests {
    struct Run: Equatable {
        var text: String
        var warnings: [String]
        var error: String?
    }

    static func run(_ url: URL, pieceBytes: Int?, cap: Int? = nil, notesBudget: Int? = nil,
                    _ configure: (inout FormatOptions) -> Void) throws -> (run: Run, pieces: Int, rowsByNotes: Int) {
        var options = FormatOptions()
        options.pipeline.pieceBytes = pieceBytes
        options.pipeline.pieceCap = cap
        options.pipeline.notesBudget = notesBudget
        configure(&options)
        let sink = MemorySink()
        let result = try TableFormatter.run(try FileInput(path: url.path), options: options, output: sink)
        return (Run(text: sink.text, warnings: result.warnings, error: result.error?.description), result.pieces, result.rowsByNotes)
    }

    static func file(_ bytes: [UInt8], _ name: String = "t.csv") throws -> URL {
        try ReliabilityKit.temporaryFile(name, bytes)
    }

    /// A generated table in one of several shapes: LF or CR LF, a BOM, blank lines, rows that
    /// span lines in quotes or not, a last row without its line feed.
    static func shaped(_ rng: inout SplitMix64, trial: Int, multiline: Bool) -> [UInt8] {
        var csv = RowPipelineTests.table(&rng, rows: 200 + rng.below(700))
        if !multiline { csv = csv.replacingOccurrences(of: "two\nlines", with: "two lines") }
        if trial % 3 == 1 { csv = csv.replacingOccurrences(of: "\n", with: "\r\n") }
        if trial % 4 == 2 { csv = csv.replacingOccurrences(of: "\n1", with: "\n\n1") }
        if trial % 5 == 3 { csv.removeLast() }
        var bytes = Array(csv.utf8)
        if trial % 3 == 2 { bytes = [0xEF, 0xBB, 0xBF] + bytes }
        return bytes
    }

    /// Writes eight files made by `make` (odd trials with rows over several lines) and requires
    /// each read in pieces of three sizes, two of them with a small cap on pieces drawn ahead, to
    /// print what it prints read whole; small pieces must cut a file without such rows. With
    /// `noted`, the drawing pass must have taken `byNotesAtLeast` rows by the sizing pass's notes, and
    /// the file is read once more with every note written to disk (P1, P2).
    static func requireSameAsWhole(_ index: Int, seed: UInt64, fileName: String, noted: Bool = false, byNotesAtLeast: Int = 1000,
                                   make: (inout SplitMix64, _ trial: Int, _ multiline: Bool) -> [UInt8]) throws {
        let (name, configure) = RowPipelineTests.configurations[index]
        var rng = SplitMix64(seed: seed + UInt64(index))
        var pieced = 0
        var byNotes = 0
        for trial in 0..<8 {
            let multiline = trial % 2 == 1
            let url = try Self.file(make(&rng, trial, multiline), fileName)
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            let whole = try Self.run(url, pieceBytes: nil, configure)
            #expect(whole.pieces == 0 && !whole.run.text.isEmpty, "\(name), trial \(trial)")
            for size in [1 + rng.below(60), 100 + rng.below(3000), 1 << 20] {
                // A small cap on what a piece drawn ahead may hold: many are drawn again, straight
                // (below 64 bytes too, the least an output buffer holds).
                let got = try Self.run(url, pieceBytes: size, cap: size == 1 << 20 ? nil : 1 + rng.below(4063), configure)
                #expect(got.run == whole.run, "\(name), trial \(trial), pieces of \(size) bytes (\(got.pieces) pieces)")
                if got.pieces > 1 { pieced += 1 }
                byNotes += got.rowsByNotes
                if noted && got.pieces > 1 {
                    let spilled = try Self.run(url, pieceBytes: size, notesBudget: 0, configure)
                    #expect(spilled.run == whole.run, "\(name), trial \(trial), pieces of \(size) bytes, notes on disk")
                    // A piece that starts inside a JSON value over lines fails, and the pieces not
                    // sized yet by then are not sized: whether the file is then read whole depends
                    // on which thread got there first. Read in the same pieces, the same rows.
                    if spilled.pieces == got.pieces {
                        #expect(spilled.rowsByNotes == got.rowsByNotes, "\(name), trial \(trial): the notes on disk are the notes")
                    }
                }
                if !multiline && size < 1000 && name != "limit 700" {
                    #expect(got.pieces > 1, "\(name), trial \(trial): read in pieces of \(size) bytes")
                }
            }
        }
        if name != "limit 700" { #expect(pieced > 4, "\(name): the pieces were used") }
        if noted && name != "limit 700" { #expect(byNotes >= byNotesAtLeast, "\(name): rows were taken by the notes") }
    }

    @Test("P1 keeps every rule: a file read in pieces prints what it prints read whole (seeded)", arguments: 0..<RowPipelineTests.configurations.count)
    func piecesAreInvisible(_ index: Int) throws {
        try Self.requireSameAsWhole(index, seed: 0x9_1ECE, fileName: "t.csv", noted: true) { rng, trial, multiline in
            Self.shaped(&rng, trial: trial, multiline: multiline)
        }
    }

    /// A generated JSON Lines file: objects with keys in varying order, nested objects and
    /// arrays, keys first seen late, dotted keys, duplicate keys, lone surrogates, one-letter
    /// escapes, blank space around colons, literals, arrays and scalars as rows, empty objects and
    /// blank lines; values over several lines when `multiline`.
    static func ndjson(_ rng: inout SplitMix64, trial: Int, multiline: Bool) -> [UInt8] {
        let names = ["Tea", "Müller, Anna", "株式会社サンプル", "a \\\"quoted\\\" word", "Ünïcödé", "NA", "", "x"]
        let rows = 200 + rng.below(600)
        var lines: [String] = []
        for r in 0..<rows {
            switch rng.below(50) {
            case 0: lines.append("[\(r), \"pos\", null]")
            case 1: lines.append("\"scalar \(r)\"")
            case 2: lines.append("{}")
            case 3: lines.append("")
            case 4: lines.append("{\"id\":\(r),\"id\":\(r + 1),\"name\":\"dup\"}")
            case 5: lines.append("{\"id\":\(r),\"name\":\"\\ud800 lone\"}")
            default:
                var members = ["\"id\":\(r)"]
                if rng.below(2) == 0 { members.append("\"name\":\"\(names[rng.below(names.count)])\"") }
                if rng.below(3) == 0 { members.append("\"price\":\(rng.below(100_000)).\(rng.below(100))") }
                if rng.below(4) == 0 { members.append("\"tags\":[\"a\",\"b, c\",\(rng.below(9))]") }
                if rng.below(5) == 0 { members.append("\"address\":{\"city\":\"\(names[rng.below(names.count)])\",\"zip\":\(rng.below(99_999))}") }
                if rng.below(9) == 0 { members.append("\"address.city\":\"dotted\"") }
                // One-letter escapes, blank space around the colon, literals and exponents (the flat rows
                // `readFlatLine` reads from the buffer).
                if rng.below(4) == 0 { members.append("\"note\" : \"tab\\there\\n\\/\\\\ \(r)\"") }
                if rng.below(5) == 0 { members.append("\"ok\":\t\(["true", "false", "null", "-1.5e3", "0"][rng.below(5)])") }
                if r > rows / 2 && rng.below(6) == 0 { members.append("\"late\(rng.below(4))\":true") }
                if rng.below(3) == 0 { members.shuffle(using: &rng) }
                lines.append("{" + members.joined(separator: multiline && rng.below(4) == 0 ? ",\n  " : ",") + "}")
            }
        }
        var text = lines.joined(separator: "\n") + "\n"
        if trial % 3 == 1 { text = text.replacingOccurrences(of: "\n", with: "\r\n") }
        if trial % 5 == 3 { text.removeLast() }
        return (trial % 3 == 2 ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
    }

    @Test("P1 keeps every rule: a JSON Lines file read in pieces prints what it prints read whole (seeded)", arguments: 0..<RowPipelineTests.configurations.count)
    func jsonPiecesAreInvisible(_ index: Int) throws {
        // Nested values, arrays and `\u` escapes in about half the rows: those are read again.
        try Self.requireSameAsWhole(index, seed: 0x150_1ECE, fileName: "t.ndjson", noted: true, byNotesAtLeast: 500) { rng, trial, multiline in
            Self.ndjson(&rng, trial: trial, multiline: multiline)
        }
    }

    @Test("P1, E2: JSON Lines with a bad or cut-off value late in the file says what whole reading says")
    func jsonLateTrouble() throws {
        let body = (0..<2000).map { "{\"id\":\($0),\"v\":\"w\($0)\"}" }.joined(separator: "\n") + "\n"
        for (what, text) in [("a bad value in the last row", body + "{\"id\":1,}\n"), ("a cut-off last row", body + "{\"id\":2,\"v\":[1,"),
                             ("a bad row far in", body.replacingOccurrences(of: "{\"id\":1500,", with: "{\"id\":1500,,"))] {
            let url = try Self.file(Array(text.utf8), "t.ndjson")
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            let whole = try Self.run(url, pieceBytes: nil) { _ in }
            #expect(whole.run.error != nil, "\(what)")
            for size in [50, 4096] {
                let got = try Self.run(url, pieceBytes: size) { _ in }
                #expect(got.run == whole.run, "\(what), pieces of \(size)")
            }
        }
    }

    @Test("P1, P2: a piece with a cell of megabytes is drawn straight in its turn, not held; the output is as whole")
    func bigCell() throws {
        var lines = ["id,text,n"]
        for r in 0..<3000 { lines.append("\(r),\(r == 1700 ? String(repeating: "word ", count: 300_000) : "w\(r)"),\(r * 7)") }
        let url = try Self.file(Array((lines.joined(separator: "\n") + "\n").utf8))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let configurations: [(String, (inout FormatOptions) -> Void)] = [
            ("list report", { $0.layout = .list; $0.width = 60 }),
            ("table cut to 50", { $0.layout = .table; $0.width = 50 }),
        ]
        for (name, configure) in configurations {
            let whole = try Self.run(url, pieceBytes: nil, configure)
            for size in [500, 1 << 16] {
                let got = try Self.run(url, pieceBytes: size, configure)
                #expect(got.pieces > 1, "\(name), pieces of \(size)")
                #expect(got.run == whole.run, "\(name), pieces of \(size)")
            }
        }
    }

    @Test("P1: a piece whose last row runs on past the cut (a quoted field over lines) is read again joined with the next; the file is still read in pieces")
    func joinedPieces() throws {
        var rng = SplitMix64(seed: 0x101_1ED)
        var lines = ["id,name,qty,note"]
        for r in 0..<4000 {
            let note = rng.below(8) == 0 ? "\"line one\nline two\"" : "\"plain note\""
            lines.append("\(r),name \(rng.below(977)),\(rng.below(10_000)),\(note)")
        }
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        let url = try Self.file(bytes)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let input = try FileInput(path: url.path)
        let file = try #require(input.randomAccess)
        let size = 3000
        let nominal = try #require(FilePieces.cut(file, from: Int64(lines[0].utf8.count + 1), size: size))
        withExtendedLifetime(input) {}
        for (name, configure) in RowPipelineTests.configurations.prefix(4) {
            let whole = try Self.run(url, pieceBytes: nil, configure)
            let got = try Self.run(url, pieceBytes: size, configure)
            #expect(got.run == whole.run, "\(name)")
            // Some cuts fell inside a quoted field: those pieces were joined, the rest kept.
            #expect(got.pieces > 1 && got.pieces < nominal.count, "\(name): \(got.pieces) of \(nominal.count) pieces")
        }
    }

    @Test("P2: pieces read and kept until the sizing ends hold their counts, not their buffers (memory does not grow with the pieces)")
    func sizedPiecesHoldNoBuffer() throws {
        let text = "a,b\n" + (0..<20_000).map { "\($0),word \($0)\n" }.joined()
        let url = try Self.file(Array(text.utf8))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let input = try FileInput(path: url.path)
        let table = try TableInput(input, options: InputOptions())
        let file = try #require(input.randomAccess)
        let pieces = try #require(FilePieces.cut(file, from: 4, size: 2000))
        let job = PieceSizing(like: table, name: input.name, measure: DisplayWidth(), trackWords: false, checkpointEvery: 500, notes: RowNotes())
        let outcomes = job.size(pieces, Array(0..<pieces.count))
        #expect(pieces.count > 100)
        var rows = 0
        for outcome in outcomes {
            guard case .sized(let piece) = outcome else {
                Issue.record("a piece cut at rows did not size")
                continue
            }
            rows += piece.rows
            #expect(piece.table.stream.capacity <= 16, "a sized piece keeps a buffer of \(piece.table.stream.capacity) bytes")
            #expect(piece.notes != nil, "a piece of plain rows keeps notes of where its fields are")
        }
        #expect(rows == 20_000)
        withExtendedLifetime(input) {}
    }

    @Test("P1: TSV with backslash escapes, and a semicolon dialect, read in pieces as whole")
    func otherDialects() throws {
        var rng = SplitMix64(seed: 0x757)
        for (name, separator) in [("t.tsv", "\t"), ("t.csv", ";")] {
            var lines = ["id\(separator)name\(separator)amount"]
            for r in 0..<600 {
                let words = ["plain", "tab\\tinside", "line\\nbreak", "back\\\\slash", "trailing\\", "é日", ""]
                lines.append("\(r)\(separator)\(words[rng.below(words.count)])\(separator)\(rng.below(100_000)).\(rng.below(100))")
            }
            let url = try Self.file(Array((lines.joined(separator: "\n") + "\n").utf8), name)
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            let whole = try Self.run(url, pieceBytes: nil) { _ in }
            for size in [7, 64, 999] {
                let got = try Self.run(url, pieceBytes: size) { _ in }
                #expect(got.pieces > 1, "\(name) in pieces of \(size)")
                #expect(got.run == whole.run, "\(name) in pieces of \(size)")
            }
        }
    }

    @Test("P1, E2, I5: an error, a ragged row or an invalid byte late in a file is said as when it is read whole, at its line")
    func lateTrouble() throws {
        var rows = ["a,b,c"]
        for r in 0..<2000 { rows.append("\(r),x\(r),\(r * 3)") }
        let body = rows.joined(separator: "\n") + "\n"
        let cases: [(String, [UInt8])] = [
            ("an unterminated quote in the last row", Array((body + "9,\"open,1\n").utf8)),
            ("a short and a long row far in", Array(body.replacingOccurrences(of: "\n1500,x1500,4500\n", with: "\n1500,x1500\n").replacingOccurrences(of: "\n1700,", with: "\n1700,extra,").utf8)),
            ("invalid UTF-8 far in", Array(body.utf8.prefix(20_000)) + [0xFF, 0xFE] + Array(body.utf8.dropFirst(20_000))),
            ("a quoted field over a thousand lines", Array((body + "1,\"" + String(repeating: "line\n", count: 1000) + "\",3\n" + body.dropFirst(6)).utf8)),
            ("U+FEFF starting a row far in", Array(body.replacingOccurrences(of: "\n12", with: "\n\u{FEFF}12").utf8)),
        ]
        for (what, bytes) in cases {
            let url = try Self.file(bytes)
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            let whole = try Self.run(url, pieceBytes: nil) { _ in }
            for size in [50, 4096] {
                let got = try Self.run(url, pieceBytes: size) { _ in }
                #expect(got.run == whole.run, "\(what), pieces of \(size)")
            }
        }
    }

    @Test("I7: a piece of a file cut or rewritten since it was opened stops the read (exit 74)")
    func changedUnderAPiece() throws {
        let text = Array(String(repeating: "1,2,3\n", count: 1000).utf8)
        for change in ["truncate", "rewrite"] {
            let url = try Self.file(text)
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            let input = try FileInput(path: url.path)
            let file = try #require(input.randomAccess)
            let handle = try FileHandle(forWritingTo: url)
            if change == "truncate" {
                try handle.truncate(atOffset: 3000)
            } else {
                try handle.write(contentsOf: Data("9".utf8))
                try handle.synchronize()
                var times = [timespec(tv_sec: 1, tv_nsec: 0), timespec(tv_sec: 1, tv_nsec: 0)]
                _ = futimens(handle.fileDescriptor, &times)
            }
            try handle.close()
            let source = RangeSource(file, name: "t.csv", from: 2000, to: 5000)
            var buffer = [UInt8](repeating: 0, count: 8192)
            var failure: InputError?
            do {
                while try buffer.withUnsafeMutableBytes({ try source.read(into: $0) }) > 0 {}
            } catch {
                failure = error as? InputError
            }
            #expect(failure?.exitCode == 74, "\(change)")
            #expect(failure?.message.hasPrefix("file changed while reading") == true, "\(change): \(String(describing: failure))")
        }
    }
}
