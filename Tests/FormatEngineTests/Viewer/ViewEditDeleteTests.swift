import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10: `d` deletes what the view shows: the checked rows it shows (a filter may hide some), else
/// the current row; only `y` confirms; after a save the rows it dropped are no longer checked.
@Suite("Viewer: which rows d deletes")
struct ViewEditDeleteTests {
    static func prompt(_ model: ViewModel) -> String { ViewEditTests.plain(model).last ?? "" }

    @Test("V10: a row checked but hidden by the filter is not deleted: d deletes the current row, saying so")
    func hiddenCheckedRowKept() throws {
        let model = try ViewEditTests.view()
        model.handle(.character(" "))  // Apple checked
        ViewEditTests.type(model, "&cherry")
        model.handle(.enter)
        #expect(model.state.count == 1)
        ViewEditTests.type(model, "d")
        #expect(Self.prompt(model).hasPrefix("delete this row? y deletes"))
        ViewEditTests.type(model, "y")
        #expect(model.state.editing.edits.deleted == [2])
    }

    @Test("V10: d on checked rows asks with their count; Enter keeps them, only y deletes")
    func checkedRowsCountedAndOnlyY() throws {
        let model = try ViewEditTests.view()
        model.handle(.character(" "))
        model.handle(.character(" "))
        ViewEditTests.type(model, "d")
        #expect(Self.prompt(model).hasPrefix("delete 2 checked rows? y deletes"))
        model.handle(.enter)
        #expect(model.state.editing.edits.deleted.isEmpty)
        #expect(model.state.mode == .table)
        ViewEditTests.type(model, "dy")
        #expect(model.state.editing.edits.deleted == [0, 1])
    }

    @Test("V10: after a save the deleted rows are no longer checked; d then asks about the current row and deletes it")
    func selectionClearedAfterSave() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-delsel-\(getpid()).csv")
        try Data("a,b\n1,x\n2,y\n3,z\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let model = try ViewEditTests.saving(FileInput(path: url.path))
        model.handle(.character(" "))  // row 1 checked, row 2 current
        ViewEditTests.type(model, "kdyw")
        #expect(try String(contentsOf: url, encoding: .utf8) == "a,b\n2,y\n3,z\n")
        #expect(model.state.selected.isEmpty)
        ViewEditTests.type(model, "d")
        #expect(Self.prompt(model).hasPrefix("delete this row? y deletes"))
        ViewEditTests.type(model, "yw")
        #expect(try String(contentsOf: url, encoding: .utf8) == "a,b\n3,z\n")
    }
}
