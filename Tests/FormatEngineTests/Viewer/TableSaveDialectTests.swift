import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10: a changed row keeps its own dialect — the fields not changed their bytes (their quotes),
/// TSV's backslash escapes, its own line ending — so a diff shows only what was typed.
@Suite("Viewer: a changed row keeps its dialect")
struct TableSaveDialectTests {
    static func saved(_ text: String, _ name: String, options: FormatOptions = FormatOptions(), columns: [String], rows: Int, _ change: (inout RowEdits) -> Void) throws -> String {
        let url = try TableSaveCaseTests.file(Array(text.utf8), name)
        defer { try? FileManager.default.removeItem(at: url) }
        var edits = RowEdits()
        change(&edits)
        try TableSaveCaseTests.save(url, edits, options: options, rows: rows, columns: columns)
        return String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    @Test("V10: a field not changed keeps its quotes; a changed field that was quoted stays quoted, one that was not is quoted only where it must be")
    func partialQuoting() throws {
        let text = "a,b,c\n1,\"x\",3\n\"4\",5,\"6\"\n"
        let out = try Self.saved(text, "partial.csv", columns: ["a", "b", "c"], rows: 2) { edits in
            edits.set(0, field: 0, to: Array("9".utf8))
            edits.set(1, field: 2, to: Array("7".utf8))
            edits.set(1, field: 1, to: Array("p,q".utf8))
        }
        #expect(out == "a,b,c\n9,\"x\",3\n\"4\",\"p,q\",\"7\"\n")
    }

    @Test("V10: TSV: a changed field is written with backslash escapes, as the file's are; the fields not changed keep theirs")
    func tsvEscapes() throws {
        var options = FormatOptions()
        options.inputFormat = .tsv
        let text = "a\tb\tc\nx\\ty\t1\tC:\\\\dir\n"
        let out = try Self.saved(text, "escapes.tsv", options: options, columns: ["a", "b", "c"], rows: 1) { edits in
            edits.set(0, field: 1, to: Array("two\nlines\tand \\ one".utf8))
        }
        // The backslash before a space is no escape the reader decodes: it is written as it is.
        #expect(out == "a\tb\tc\nx\\ty\ttwo\\nlines\\tand \\ one\tC:\\\\dir\n")
    }

    @Test("V10: TSV: a backslash is written as \\\\ only where the reader would otherwise decode it, so C:\\data\\x2 stays as typed")
    func tsvBackslashAsTyped() throws {
        var options = FormatOptions()
        options.inputFormat = .tsv
        let out = try Self.saved("a\tb\nold\t1\n", "backslash.tsv", options: options, columns: ["a", "b"], rows: 1) { edits in
            edits.set(0, field: 0, to: Array(#"C:\data\x2"#.utf8))
            edits.set(0, field: 1, to: Array(#"\t \\ \"#.utf8))
        }
        // Before `t` and before a backslash a backslash is doubled; before a space, at the end, or
        // anywhere else it is kept as it is.
        #expect(out == "a\tb\n" + #"C:\data\x2"# + "\t" + #"\\t \\\ \"# + "\n")
    }

    @Test("V10: TSV: a field as the save writes it reads back as its value with the TSV reader, first, between others and last (seeded random values of backslashes, t n r x, tabs and line breaks)")
    func tsvFieldRoundTrip() {
        var rng = SplitMix64(seed: 0x7473_765C)
        let pieces: [[UInt8]] = [[0x5C], [0x5C], [0x5C, 0x5C], Array("t".utf8), Array("n".utf8), Array("r".utf8), Array("x".utf8), [0x09], [0x0A], [0x0D]]
        for _ in 0..<3000 {
            let value = (0..<Int.random(in: 0...8, using: &rng)).flatMap { _ in pieces.randomElement(using: &rng) ?? [] }
            let field = SaveDialect.field(value, .tsv, quote: false, only: false)
            // The field first, between two others, and last in a file without a final line break.
            let row = field + Array("\tmid\t".utf8) + field + Array("\tend\n".utf8) + Array("first\t".utf8) + field
            let text = String(decoding: value, as: UTF8.self)
            for chunk in [1, 3, 1 << 16] {
                let back = InputTestKit.parse(row, dialect: .tsv, chunkSize: chunk)
                #expect(back.error == nil && back.records == [[text, "mid", text, "end"], ["first", text]],
                        "\(text.debugDescription) written \(String(decoding: field, as: UTF8.self).debugDescription), chunks of \(chunk)")
            }
        }
    }

    @Test("V10: a changed row keeps its own line ending: CR LF in a file whose header ends in LF, and LF in a CR LF file")
    func ownLineEnding() throws {
        let out = try Self.saved("a,b\n1,2\r\n3,4\n", "crlf-row.csv", columns: ["a", "b"], rows: 2) { edits in
            edits.set(0, field: 1, to: Array("5".utf8))
            edits.set(1, field: 1, to: Array("6".utf8))
        }
        #expect(out == "a,b\n1,5\r\n3,6\n")
        let other = try Self.saved("a,b\r\n1,2\n3,4\r\n", "lf-row.csv", columns: ["a", "b"], rows: 2) { edits in
            edits.set(0, field: 0, to: Array("7".utf8))
        }
        #expect(other == "a,b\r\n7,2\n3,4\r\n")
    }
}
