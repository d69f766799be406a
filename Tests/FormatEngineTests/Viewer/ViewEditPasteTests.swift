import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10: text pasted into the field editor is text. A pasted line break is a line break in the
/// value, never Enter, so the rest of a paste is never run as keys; outside the editor a paste
/// does nothing.
@Suite("Viewer: pasting into the field editor")
struct ViewEditPasteTests {
    @Test("V10: e, then a paste of x⏎dyw: the value holds it with a line break, no row is deleted, nothing saved; Enter then keeps it")
    func pasteIsText() throws {
        let model = try ViewEditTests.view()
        ViewEditTests.type(model, "e")
        model.handle(.paste("x\rdyw"))
        #expect(model.state.editing.edits.deleted.isEmpty)
        #expect(model.state.editing.request == nil)
        guard case .edit(.field(let editor)) = model.state.mode else {
            Issue.record("the editor closed: \(model.state.mode)")
            return
        }
        #expect(String(editor.text) == "Applex\ndyw")
        model.handle(.enter)
        #expect(ViewEditTests.fields(model, 0) == ["Applex\ndyw", "3"])
        #expect(model.state.mode == .table)
        #expect(model.state.count == 3)
    }

    @Test("V10: a paste outside the editor does nothing: no delete asked, no row moved, no prompt")
    func pasteOutside() throws {
        let model = try ViewEditTests.view()
        model.handle(.paste("dyjjj&x\r"))
        #expect(model.state.mode == .table)
        #expect(model.state.current == 0)
        #expect(model.state.editing.edits.deleted.isEmpty)
    }
}
