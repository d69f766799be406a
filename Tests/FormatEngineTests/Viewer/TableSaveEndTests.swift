import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10: the bytes after a file's last row (blank lines, spaces on them) stay at the file's end
/// whatever happens to the last row: moved up, deleted, a row added after it.
@Suite("Viewer: saving keeps the file's end")
struct TableSaveEndTests {
    /// A file of `rows` one-field rows under a header `h`, each line ended by `eol`, then `tail`.
    static func text(_ rows: [String], eol: String, tail: String, jsonl: Bool) -> String {
        let lines = rows.map { jsonl ? "{\"h\":\"\($0)\"}" : $0 }
        return (jsonl ? "" : "h" + eol) + lines.map { $0 + eol }.joined() + tail
    }

    @Test("V10: blank lines after the last row stay at the end when the last row moves up, is deleted, or a row is added after it (CSV, TSV, JSON Lines; LF and CR LF)", arguments: ["csv", "tsv", "jsonl"], ["\n", "\r\n"])
    func endKept(kind: String, eol: String) throws {
        let jsonl = kind == "jsonl"
        // A line holding a space is a row in CSV and TSV (one field, " "), blank in JSON Lines.
        for tail in [eol, eol + eol] + (jsonl ? [" " + eol + eol] : []) {
            let url = try TableSaveCaseTests.file(Array(Self.text(["a", "b", "c"], eol: eol, tail: tail, jsonl: jsonl).utf8), "end-\(eol.utf8.count)-\(tail.utf8.count).\(kind)")
            defer { try? FileManager.default.removeItem(at: url) }
            // The last row moved to the top.
            var moved = RowEdits()
            moved.move(from: 2, to: 0)
            try TableSaveCaseTests.save(url, moved, rows: 3, columns: ["h"])
            #expect(try Data(contentsOf: url) == Data(Self.text(["c", "a", "b"], eol: eol, tail: tail, jsonl: jsonl).utf8), "moved: \(kind) \(tail.debugDescription)")
            // A row added after the (new) last row.
            var added = RowEdits()
            let id = added.add(at: 3)
            added.set(id, field: 0, to: Array("d".utf8))
            try TableSaveCaseTests.save(url, added, rows: 3, columns: ["h"])
            #expect(try Data(contentsOf: url) == Data(Self.text(["c", "a", "b", "d"], eol: eol, tail: tail, jsonl: jsonl).utf8), "added: \(kind) \(tail.debugDescription) \(String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self).debugDescription)")
            // The last row deleted.
            var deleted = RowEdits()
            deleted.delete([3])
            try TableSaveCaseTests.save(url, deleted, rows: 4, columns: ["h"])
            #expect(try Data(contentsOf: url) == Data(Self.text(["c", "a", "b"], eol: eol, tail: tail, jsonl: jsonl).utf8), "deleted: \(kind) \(tail.debugDescription)")
        }
    }

    @Test("V10: in the view (a CSV file read in place, a JSON Lines file), K on the last row, then + after the new last row and w: the blank lines stay at the end", arguments: ["csv", "jsonl"])
    func endKeptInView(kind: String) throws {
        let jsonl = kind == "jsonl"
        let tail = jsonl ? "\n \n\n" : "\n\n\n"
        let url = try TableSaveCaseTests.file(Array(Self.text(["a", "b", "c"], eol: "\n", tail: tail, jsonl: jsonl).utf8), "end-view.\(kind)")
        defer { try? FileManager.default.removeItem(at: url) }
        let model = try ViewEditTests.saving(FileInput(path: url.path))
        ViewEditTests.type(model, "GKw")
        #expect(model.state.message == "saved to \(url.path)")
        #expect(try String(contentsOf: url, encoding: .utf8) == Self.text(["a", "c", "b"], eol: "\n", tail: tail, jsonl: jsonl), "\(((try? String(contentsOf: url, encoding: .utf8)) ?? "").debugDescription)")
        ViewEditTests.type(model, "G+")
        ViewEditTests.type(model, "ed")
        model.handle(.enter)
        model.handle(.escape)
        ViewEditTests.type(model, "w")
        #expect(model.state.message == "saved to \(url.path)")
        #expect(try String(contentsOf: url, encoding: .utf8) == Self.text(["a", "c", "b", "d"], eol: "\n", tail: tail, jsonl: jsonl))
    }
}
