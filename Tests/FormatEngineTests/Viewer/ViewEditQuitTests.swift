import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10: nothing typed is lost on the way out. `Ctrl-C` with a value typed in the editor (and no
/// edit before it) asks, and `Esc` goes back to the editor with the text as typed; the quit
/// question says that `y` quits without saving. A JSON Lines field whose member is not clear is
/// read-only at `e`, before anything is typed.
@Suite("Viewer: leaving with edits, and fields that cannot be edited")
struct ViewEditQuitTests {
    @Test("V10: Ctrl-C in the editor with text typed and no edit before asks; Esc goes back to the editor, the text as typed; Enter keeps it")
    func interruptWhileTyping() throws {
        let model = try ViewEditTests.view()
        ViewEditTests.type(model, "eXY")
        model.handle(.control("c"))
        #expect(model.exit == nil, "typed text is not dropped at once")
        #expect(ViewEditTests.plain(model).last?.hasPrefix("the value being typed: Ctrl-C again quits without saving") == true, "\(ViewEditTests.plain(model).last ?? "")")
        model.handle(.escape)
        #expect(model.state.mode == .edit(.field(FieldEditor(id: 0, field: 0, name: "Name", text: Array("AppleXY"), original: Array("Apple"), cursor: 7, sheet: nil, read: Array("Apple".utf8)))))
        ViewEditTests.type(model, "Z")
        model.handle(.enter)
        #expect(ViewEditTests.fields(model, 0) == ["AppleXYZ", "3"])
        // Asked, then Ctrl-C again: it quits (exit 130).
        ViewEditTests.type(model, "eQ")
        model.handle(.control("c"))
        #expect(model.exit == nil)
        #expect(ViewEditTests.plain(model).last?.hasPrefix("the value being typed and unsaved changes: Ctrl-C again") == true)
        model.handle(.control("c"))
        #expect(model.exit == .interrupt)
    }

    @Test("V10: Ctrl-C with the editor open and nothing typed, nothing edited, leaves at once")
    func interruptNothingTyped() throws {
        let model = try ViewEditTests.view()
        ViewEditTests.type(model, "e")
        model.handle(.control("c"))
        #expect(model.exit == .interrupt)
    }

    @Test("V10: w at the Ctrl-C question keeps the text being typed, then saves it")
    func interruptThenSave() throws {
        let url = try TableSaveCaseTests.file(Array("a,b\n1,x\n2,y\n".utf8), "interrupt-save.csv")
        defer { try? FileManager.default.removeItem(at: url) }
        let model = try ViewEditTests.saving(FileInput(path: url.path))
        ViewEditTests.type(model, "e9")
        model.handle(.control("c"))
        ViewEditTests.type(model, "w")
        #expect(model.exit == nil)
        #expect(model.state.message == "saved to \(url.path)")
        #expect(try String(contentsOf: url, encoding: .utf8) == "a,b\n19,x\n2,y\n")
    }

    @Test("V10: the quit question says y quits without saving; n (or Esc) stays, with the edits")
    func quitQuestion() throws {
        let model = try ViewEditTests.view()
        ViewEditTests.type(model, "e!")
        model.handle(.enter)
        ViewEditTests.type(model, "q")
        #expect(ViewEditTests.plain(model).last?.hasPrefix("unsaved changes: quit without saving? y quits without saving") == true)
        ViewEditTests.type(model, "n")
        #expect(model.exit == nil)
        #expect(model.unsaved)
        ViewEditTests.type(model, "qy")
        #expect(model.exit == .quit)
    }

    @Test("V10: JSON Lines: a field whose key is in its line twice is read-only at e, saying why; its other fields and other lines are edited")
    func duplicateKeyAtE() throws {
        let text = "{\"a\":1,\"a\":2,\"b\":3}\n{\"a\":4,\"b\":5}\n"
        let url = try TableSaveCaseTests.file(Array(text.utf8), "dup.jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        let model = try ViewEditTests.saving(FileInput(path: url.path))
        ViewEditTests.type(model, "e")
        #expect(model.state.mode == .table)
        #expect(model.state.message == "this field is read-only: a: the key \"a\" is in the line 2 times, so which value it is, is not clear (a save could not write it)")
        model.handle(.right)
        ViewEditTests.type(model, "e7")
        model.handle(.enter)
        model.handle(.left)
        model.handle(.down)
        ViewEditTests.type(model, "e0")
        model.handle(.enter)
        ViewEditTests.type(model, "w")
        #expect(model.state.message == "saved to \(url.path)")
        #expect(try String(contentsOf: url, encoding: .utf8) == "{\"a\":1,\"a\":2,\"b\":37}\n{\"a\":40,\"b\":5}\n")
    }

    @Test("V10, V4: in a row's sheet, e on a field that cannot be edited says why in the sheet's status line")
    func sheetSaysReadOnly() throws {
        let text = "{\"a\":1,\"b\":2}\n{\"a\":3,\"a\":4,\"b\":5}\n"
        let url = try TableSaveCaseTests.file(Array(text.utf8), "dup-sheet.jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        let model = try ViewEditTests.saving(FileInput(path: url.path))
        model.handle(.down)
        model.handle(.enter)
        guard case .detail = model.state.mode else {
            Issue.record("no sheet: \(model.state.mode)")
            return
        }
        ViewEditTests.type(model, "e")
        let status = ViewEditTests.plain(model).last ?? ""
        // Cut to the width, the status line says where to read it whole; M shows all of it.
        #expect(status.hasPrefix("this field is read-only: a: the key \"a\" is in"), "\(status)")
        #expect(status.hasSuffix("M: all of it"), "\(status)")
        ViewEditTests.type(model, "M")
        let said = ViewEditTests.plain(model).joined(separator: " ")
        #expect(said.contains("the key \"a\" is in the line 2 times"), "\(said)")
    }
}
