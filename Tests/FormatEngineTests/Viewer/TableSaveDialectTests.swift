import Foundation
import Testing
@testable import FormatEngine

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
        #expect(out == "a\tb\tc\nx\\ty\ttwo\\nlines\\tand \\\\ one\tC:\\\\dir\n")
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
