import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10: editing goes on after a save. The rows a save dropped stay out of the view (unsorted,
/// sorted, filtered), and an edit made after the save reaches the row shown and the file.
@Suite("Viewer: editing after a save")
struct ViewEditSaveAgainTests {
    static func file(_ text: String, _ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-again-\(getpid())-\(name).csv")
        try Data(text.utf8).write(to: url)
        return url
    }

    /// The view's rows, each as its fields as edited.
    static func shown(_ model: ViewModel) -> [[String]] {
        (0..<model.state.count).map { ViewEditTests.fields(model, $0) }
    }

    @Test("V10: the first row deleted and saved is gone from the view; a field edited then is the row shown, and saved there")
    func editAfterLeadingDelete() throws {
        let url = try Self.file("a,b\n1,x\n2,y\n3,z\n", "lead")
        defer { try? FileManager.default.removeItem(at: url) }
        let model = try ViewEditTests.saving(FileInput(path: url.path))
        ViewEditTests.type(model, "dyw")
        #expect(try String(contentsOf: url, encoding: .utf8) == "a,b\n2,y\n3,z\n")
        #expect(Self.shown(model) == [["2", "y"], ["3", "z"]])
        model.handle(.right)
        ViewEditTests.type(model, "e")
        model.handle(.backspace)
        ViewEditTests.type(model, "Q")
        model.handle(.enter)
        #expect(Self.shown(model) == [["2", "Q"], ["3", "z"]])
        ViewEditTests.type(model, "w")
        #expect(try String(contentsOf: url, encoding: .utf8) == "a,b\n2,Q\n3,z\n")
    }

    @Test("V10: after a saved delete, a sort and a filter leave the deleted row out; an edit under them is saved to the row shown")
    func sortAndFilterAfterSave() throws {
        let url = try Self.file("a,b\n1,x\n2,y\n3,z\n", "sort")
        defer { try? FileManager.default.removeItem(at: url) }
        let model = try ViewEditTests.saving(FileInput(path: url.path))
        ViewEditTests.type(model, "jdyw")
        #expect(try String(contentsOf: url, encoding: .utf8) == "a,b\n1,x\n3,z\n")
        ViewEditTests.type(model, "s")
        #expect(Self.shown(model).map { $0[0] }.sorted() == ["1", "3"])
        ViewEditTests.type(model, "&y")
        model.handle(.enter)
        #expect(model.state.count == 0)
        ViewEditTests.type(model, "&z")
        model.handle(.enter)
        #expect(Self.shown(model) == [["3", "z"]])
        model.handle(.right)
        ViewEditTests.type(model, "e")
        model.handle(.backspace)
        ViewEditTests.type(model, "Z")
        model.handle(.enter)
        ViewEditTests.type(model, "w")
        #expect(try String(contentsOf: url, encoding: .utf8) == "a,b\n1,x\n3,Z\n")
    }
}
