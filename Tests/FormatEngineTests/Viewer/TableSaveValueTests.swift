import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10: what a save keeps of a changed row and of values not typed over: JSON Lines blank lines
/// after a changed line, values left as they were when `Enter` changed nothing, a number typed
/// into a column of numbers written bare, and a field of bytes that are not text not editable.
@Suite("Viewer: values kept as they were")
struct TableSaveValueTests {
    @Test("V10: JSON Lines: the blank lines after a changed line stay, its own line break too; the last line keeps having none")
    func blankLinesAfterChangedLine() throws {
        let text = "{\"id\":1}\n\n   \n{\"id\":2}\r\n\n{\"id\":3}"
        let url = try TableSaveCaseTests.file(Array(text.utf8), "blank.jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        var edits = RowEdits()
        edits.set(0, field: 0, to: Array("10".utf8))
        edits.set(1, field: 0, to: Array("20".utf8))
        edits.set(2, field: 0, to: Array("30".utf8))
        try TableSaveCaseTests.save(url, edits, rows: 3, columns: ["id"])
        #expect(try String(contentsOf: url, encoding: .utf8) == "{\"id\":10}\n\n   \n{\"id\":20}\r\n\n{\"id\":30}")
        // Moved last, a row that had blank lines after it ends where the file ended: without a break.
        var moved = RowEdits()
        moved.move(from: 0, to: 2)
        moved.set(0, field: 0, to: Array("1".utf8) + [0x31])
        try TableSaveCaseTests.save(url, moved, rows: 3, columns: ["id"])
        #expect(try String(contentsOf: url, encoding: .utf8) == "{\"id\":20}\r\n\n{\"id\":30}\n{\"id\":11}\n\n   ")
    }

    @Test("V10: e then Enter with nothing changed records nothing (no mark, no count, unsaved stays false), in CSV and on JSON Lines null, array, object and escaped values; w then leaves the bytes as they were")
    func enterWithoutChange() throws {
        let csv = try ViewEditTests.view()
        ViewEditTests.type(csv, "e")
        csv.handle(.enter)
        #expect(!csv.unsaved)
        #expect(csv.state.editing.edits.isEmpty)
        #expect(ViewEditTests.plain(csv)[2].hasPrefix("Apple"))  // no ~ mark column
        let text = "{\"n\":null,\"arr\":[1,2],\"o\":{\"p\":1},\"s\":\"a\\u00e9\",\"x\":5}\n{\"n\":1,\"arr\":[],\"o\":{\"p\":2},\"s\":\"b\",\"x\":6}\n"
        let url = try TableSaveCaseTests.file(Array(text.utf8), "same.jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        let model = try ViewEditTests.saving(FileInput(path: url.path))
        for _ in 0..<5 {
            ViewEditTests.type(model, "e")
            model.handle(.enter)
            model.handle(.right)
        }
        #expect(!model.unsaved)
        #expect(model.state.editing.edits.counts == RowEdits.Counts())
        // Typed over and back again: no change either.
        ViewEditTests.type(model, "0llle")
        model.handle(.backspace)
        ViewEditTests.type(model, "é")
        model.handle(.enter)
        #expect(!model.unsaved)
        ViewEditTests.type(model, "w")
        #expect(try String(contentsOf: url, encoding: .utf8) == text)
    }

    @Test("V10: JSON Lines: a number typed over a null is written bare in a column of numbers, as a string in a column of text; a key the line lacks takes a number bare; a null not typed over stays")
    func numberIntoNull() throws {
        let text = "{\"id\":\"a\",\"qty\":null,\"note\":null}\n{\"id\":\"b\",\"qty\":3}\n{\"id\":\"c\",\"qty\":4,\"note\":\"x\"}\n"
        let url = try TableSaveCaseTests.file(Array(text.utf8), "null.jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        var edits = RowEdits()
        edits.set(0, field: 1, to: Array("5".utf8))
        edits.set(0, field: 2, to: Array("7".utf8))
        edits.set(1, field: 1, to: Array("many".utf8))
        edits.set(1, field: 2, to: Array("8".utf8))
        let input = try FileInput(path: url.path)
        _ = try TableSave.save(input, options: FormatOptions(), to: url.path, expected: SaveFile.identity(path: url.path), edits: edits, rows: nil, loaded: 3, columns: ["id", "qty", "note"], numbers: [1])
        #expect(try String(contentsOf: url, encoding: .utf8) == "{\"id\":\"a\",\"qty\":5,\"note\":\"7\"}\n{\"id\":\"b\",\"qty\":\"many\",\"note\":8}\n{\"id\":\"c\",\"qty\":4,\"note\":\"x\"}\n")
    }

    @Test("V10: a field of bytes that are not UTF-8 text (read without --encoding, shown as �) cannot be edited: e says why and opens nothing")
    func undecodableField() throws {
        let bytes: [UInt8] = Array("name;v\nJos".utf8) + [0xE9] + Array(";1\n".utf8)
        let url = try TableSaveCaseTests.file(bytes, "latin.csv")
        defer { try? FileManager.default.removeItem(at: url) }
        let model = try ViewEditTests.saving(FileInput(path: url.path))
        ViewEditTests.type(model, "e")
        #expect(model.state.mode == .table)
        #expect(model.state.message?.contains("cannot be edited") == true)
        #expect(!model.unsaved)
        // Its other field can be.
        model.handle(.right)
        ViewEditTests.type(model, "e2")
        model.handle(.enter)
        ViewEditTests.type(model, "w")
        #expect(Array(try Data(contentsOf: url)) == Array("name;v\nJos".utf8) + [0xE9] + Array(";12\n".utf8))
    }

    @Test("V10: JSON Lines: a key twice, a dotted name both a key and a path, or a dotted name the line lacks: the save is refused, naming the row and column, and the file is left as it was; a clear nested path is written in its object")
    func unclearMembers() throws {
        let cases: [(line: String, column: String)] = [
            ("{\"a\":1,\"a\":2}", "a"),
            ("{\"b.c\":1,\"b\":{\"c\":2}}", "b.c"),
            ("{\"id\":1}", "o.p"),
            ("{\"o\":{\"p\":1},\"o\":{\"p\":2}}", "o.p"),
        ]
        for (k, c) in cases.enumerated() {
            let text = "{\"id\":0}\n" + c.line + "\n"
            let url = try TableSaveCaseTests.file(Array(text.utf8), "unclear-\(k).jsonl")
            defer { try? FileManager.default.removeItem(at: url) }
            var edits = RowEdits()
            edits.set(1, field: 1, to: Array("4".utf8))
            do {
                try TableSaveCaseTests.save(url, edits, rows: 2, columns: ["id", c.column])
                Issue.record("\(c.line): saved")
            } catch {
                #expect(error.message.contains("row 2, column \(c.column):"), "\(error.message)")
                #expect(error.message.contains("read-only"), "\(error.message)")
            }
            #expect(try String(contentsOf: url, encoding: .utf8) == text, "\(c.line)")
        }
        let url = try TableSaveCaseTests.file(Array("{\"o\":{\"p\":1, \"q\":2}}\n".utf8), "nested.jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        var edits = RowEdits()
        edits.set(0, field: 0, to: Array("5".utf8))
        try TableSaveCaseTests.save(url, edits, rows: 1, columns: ["o.p", "o.q"])
        #expect(try String(contentsOf: url, encoding: .utf8) == "{\"o\":{\"p\":5, \"q\":2}}\n")
    }
}
