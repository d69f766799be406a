import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// A CSV or TSV file's sizing pass in pieces does not check UTF-8 as the stream reads: each cell
/// is checked where it is sized (`ColumnProfile.checksUTF8`), and a piece holding a sequence that
/// is not valid UTF-8 is not used: the file is read whole, where the stream replaces the sequence
/// with U+FFFD and says where (I5). These tests put wrong sequences anywhere in generated files and
/// require the bytes, warnings and error of reading the file whole, and that the pieces were given
/// up for it (the same file without the sequence is read in pieces).
@Suite("P1, I5, I7: UTF-8 checked in the cells of a file read in pieces; a piece with a wrong sequence reads the file whole")
struct PieceUTF8Tests {
    /// Sequences that are not UTF-8, each wrong in its own way (RFC 3629).
    static let wrong: [[UInt8]] = [
        [0xFF], [0xFE, 0xFE], [0x80], [0xBF, 0x80],  // no lead; continuation bytes alone
        [0xC0, 0x80], [0xC1, 0xBF],                  // two bytes, overlong
        [0xC3], [0xE6, 0x97], [0xF0, 0x9F, 0x98],    // cut short
        [0xC3, 0x41], [0xE9, 0x80, 0x41],            // a continuation byte missing
        [0xE0, 0x80, 0x80], [0xF0, 0x80, 0x80, 0x80], // three and four bytes, overlong
        [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],      // surrogates
        [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], // past U+10FFFF
    ]

    /// Where a wrong sequence may go: past what the reader of the header reads and checks itself
    /// (its stream's first read), so that only the pieces meet it.
    static let pastHeaderRead = InputStream.defaultChunkSize + 1024

    /// `bytes` with a wrong sequence put in at a random place past `pastHeaderRead`: inside a
    /// field of any kind, at its start or end, inside quotes, between a multibyte sequence's bytes,
    /// or after a closing quote (kept, joined to the field's text).
    static func spoiled(_ bytes: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var spoiled = bytes
        spoiled.insert(contentsOf: wrong[rng.below(wrong.count)], at: pastHeaderRead + rng.below(bytes.count - pastHeaderRead + 1))
        return spoiled
    }

    static func run(_ url: URL, pieceBytes: Int?) throws -> (bytes: [UInt8], warnings: [String], error: String?, pieces: Int) {
        var options = FormatOptions()
        options.pipeline.pieceBytes = pieceBytes
        let sink = MemorySink()
        let result = try TableFormatter.run(try FileInput(path: url.path), options: options, output: sink)
        return (sink.bytes, result.warnings, result.error?.description, result.pieces)
    }

    /// Requires each of `trials` spoiled copies of `clean` to print in pieces of each size what it
    /// prints whole; with `cut`, also `clean` to be read in pieces, and each copy to have given
    /// them up. (A file with rows over lines may be read whole for those rows alone.)
    static func requireChecked(_ clean: [UInt8], name: String, sizes: [Int], trials: Int, cut: Bool = true, _ rng: inout SplitMix64,
                               _ what: String) throws {
        #expect(clean.count > pastHeaderRead + 50_000, "\(what): a file long enough")
        let url = try ReliabilityKit.temporaryFile(name, clean)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        if cut { try requireReadInPieces(url, sizes: sizes, what) }
        for trial in 0..<trials {
            try Data(spoiled(clean, &rng)).write(to: url)
            try requireAsWhole(url, sizes: sizes, givenUp: cut, "\(what), trial \(trial)")
        }
    }

    /// Requires the file at `url` to be read in pieces of each size.
    static func requireReadInPieces(_ url: URL, sizes: [Int], _ what: String) throws {
        for size in sizes {
            #expect(try run(url, pieceBytes: size).pieces > 1, "\(what): the clean file is read in pieces of \(size)")
        }
    }

    /// Requires the file at `url`, which holds a wrong sequence, to print in pieces of each size
    /// the bytes, warnings and error it prints whole; with `givenUp`, the pieces given up for it.
    static func requireAsWhole(_ url: URL, sizes: [Int], givenUp: Bool, _ what: String) throws {
        let whole = try run(url, pieceBytes: nil)
        #expect(whole.warnings.contains { $0.contains("invalid UTF-8 replaced with U+FFFD") }, "\(what): the whole read says it")
        for size in sizes {
            let got = try run(url, pieceBytes: size)
            #expect(got.bytes == whole.bytes && got.warnings == whole.warnings && got.error == whole.error,
                    "\(what), pieces of \(size): as read whole")
            #expect(!givenUp || got.pieces == 0, "\(what), pieces of \(size): the pieces were given up")
        }
    }

    @Test("CSV: a wrong sequence in a cell of any kind (numbers, units, dates, booleans, text met again or not, long text, quoted) gives the pieces up (seeded)")
    func csvCells() throws {
        var rng = SplitMix64(seed: 0x0_F8F8)
        for table in 0..<4 {
            var csv = RowPipelineTests.table(&rng, rows: 4500 + rng.below(1000))
            // Rows over lines are read by the reader, not in place: kept in every other table.
            let cut = table % 2 == 0
            if cut { csv = csv.replacingOccurrences(of: "two\nlines", with: "two lines") }
            try Self.requireChecked(Array(csv.utf8), name: "t.csv", sizes: [1 + rng.below(200), 1000 + rng.below(3000)],
                                    trials: 10, cut: cut, &rng, "table \(table)")
        }
    }

    @Test("CSV: a sequence split by a closing quote (the text after it is kept, joined to the field's) gives the pieces up (seeded)")
    func sequenceSplitByClosingQuote() throws {
        var rng = SplitMix64(seed: 0x22_F8)
        let clean = Array(RowPipelineTests.table(&rng, rows: 5000).replacingOccurrences(of: "two\nlines", with: "two lines").utf8)
        let url = try ReliabilityKit.temporaryFile("t.csv", clean)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let sizes = [1 + rng.below(200), 1000 + rng.below(3000)]
        try Self.requireReadInPieces(url, sizes: sizes, "CSV")
        // Each valid sequence cut after one, two or three bytes, the rest after the quote.
        for text in ["é", "東", "😀"] {
            let bytes = Array(text.utf8)
            for cut in 1..<bytes.count {
                // A row of its own, at a line start past the header's read.
                var at = Self.pastHeaderRead + rng.below(clean.count - Self.pastHeaderRead - 1000)
                while clean[at - 1] != 0x0A { at += 1 }
                let row = Array("77777,x,\"".utf8) + bytes[..<cut] + [0x22] + bytes[cut...] + [0x0A]
                try Data(Array(clean[..<at]) + row + Array(clean[at...])).write(to: url)
                try Self.requireAsWhole(url, sizes: sizes, givenUp: true, "\(text) cut after \(cut)")
            }
        }
    }

    @Test("TSV, with backslash escapes: a wrong sequence anywhere gives the pieces up (seeded)")
    func tsvCells() throws {
        var rng = SplitMix64(seed: 0x75_F8)
        let words = ["Tea", "Müller", "株式会社", "café\\tbar", "x", "", "Größe 配送 très the größe and more", "line\\nbreak"]
        var lines = ["id\tname\tqty\tnote"]
        for r in 0..<12_000 {
            lines.append("\(r)\t\(words[rng.below(words.count)])\t\(rng.below(1000))\t\(words[rng.below(words.count)])")
        }
        try Self.requireChecked(Array((lines.joined(separator: "\n") + "\n").utf8), name: "t.tsv", sizes: [1 + rng.below(200), 2000],
                                trials: 20, &rng, "TSV")
    }

    @Test("I5: the cell check takes a byte string as valid exactly when Swift's own UTF-8 decoding does (seeded, 40,000 strings)")
    func cellCheckAgreesWithSwift() {
        var rng = SplitMix64(seed: 0xC0_FFEE)
        // Valid text, and leads followed by zero to three continuation bytes, both taken from the
        // edges of the ranges RFC 3629 allows (E0 A0, ED 9F, F0 90, F4 8F …), with ASCII runs.
        let pieces: [[UInt8]] = [[0x41], [0x7F], Array("ab".utf8), Array("é".utf8), Array("東".utf8), Array("😀".utf8),
                                 Array("\u{D7FF}".utf8), Array("\u{E000}".utf8), Array("\u{10FFFF}".utf8), Array("0123456789abcdef".utf8)]
        let leads: [UInt8] = [0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xE5, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]
        let continuations: [UInt8] = [0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0]
        var valid = 0
        for _ in 0..<40_000 {
            var bytes: [UInt8] = []
            for _ in 0..<rng.below(12) {
                if rng.below(2) == 0 {
                    bytes += pieces[rng.below(pieces.count)]
                } else {
                    bytes.append(leads[rng.below(leads.count)])
                    for _ in 0..<rng.below(4) { bytes.append(continuations[rng.below(continuations.count)]) }
                }
            }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            if expected { valid += 1 }
            // In a larger buffer whose bytes around it would change the answer if read.
            let got = withinBuffer(bytes, before: [0xE6], after: [0x97, 0x80]) { UTF8Check.isValid($0) }
            #expect(got == expected, "\(bytes.map { String($0, radix: 16) })")
        }
        #expect(valid > 4000 && valid < 36_000, "both answers are tried often (\(valid) valid)")
    }

    @Test("What commonWidth measures is valid UTF-8 (the pieces' cell check takes it as checked; seeded, 40,000 strings)")
    func commonWidthTakesOnlyValid() {
        var rng = SplitMix64(seed: 0xC0_3307)
        let measure = DisplayWidth()
        var measured = 0
        for _ in 0..<40_000 {
            var bytes: [UInt8] = []
            for _ in 0..<(1 + rng.below(6)) {
                switch rng.below(4) {
                case 0: bytes += Array("ab".utf8)
                case 1: bytes.append(UInt8(0xC0 + rng.below(0x40)))  // a lead of two, three, four bytes or none
                default: bytes.append(UInt8(0x80 + rng.below(0x40)))  // a continuation byte
                }
            }
            let width = withinBuffer(bytes, after: [0x80, 0x80]) { measure.commonWidth($0) }
            if width != nil { measured += 1 }
            #expect(width == nil || String(validating: bytes, as: UTF8.self) != nil, "\(bytes.map { String($0, radix: 16) })")
        }
        #expect(measured > 1000, "the strings include common text")
    }
}
