import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10: which files can be edited. A `.json` file holding JSON Lines is JSON Lines; JSON Lines a
/// save could not write (UTF-16, lines ended by CR alone) say read-only at `e`, before any edit.
@Suite("Viewer: what can be edited")
struct ViewEditReadOnlyTests {
    @Test("V10: a .json file holding JSON Lines is edited and saved as JSON Lines")
    func jsonNamedLines() throws {
        let url = try TableSaveCaseTests.file(Array("{\"a\":1,\"b\":\"x\"}\n{\"a\":2,\"b\":\"y\"}\n".utf8), "lines.json")
        defer { try? FileManager.default.removeItem(at: url) }
        let model = try ViewEditTests.saving(FileInput(path: url.path))
        model.handle(.right)
        ViewEditTests.type(model, "eQ")
        model.handle(.enter)
        #expect(model.unsaved)
        ViewEditTests.type(model, "w")
        #expect(model.state.message == "saved to \(url.path)")
        #expect(try String(contentsOf: url, encoding: .utf8) == "{\"a\":1,\"b\":\"xQ\"}\n{\"a\":2,\"b\":\"y\"}\n")
    }

    @Test("V10: UTF-16 JSON Lines and JSON Lines with CR-only line ends say read-only at e; nothing is edited")
    func readOnlyLines() throws {
        let text = "{\"a\":1}\n{\"a\":2}\n"
        let utf16: [UInt8] = [0xFF, 0xFE] + Array(text.data(using: .utf16LittleEndian) ?? Data())
        let cr = Array(text.replacingOccurrences(of: "\n", with: "\r").utf8)
        for (bytes, name) in [(utf16, "utf16.jsonl"), (cr, "cr.jsonl")] {
            let url = try TableSaveCaseTests.file(bytes, name)
            defer { try? FileManager.default.removeItem(at: url) }
            let model = try ViewEditTests.saving(FileInput(path: url.path))
            #expect(model.state.count == 2, "\(name)")
            ViewEditTests.type(model, "e")
            #expect(model.state.mode == .table, "\(name)")
            #expect(model.state.message?.contains("read-only") == true, "\(name): \(model.state.message ?? "")")
            ViewEditTests.type(model, "+")
            #expect(!model.unsaved, "\(name)")
        }
    }

    @Test("V10, V9: a file followed (--follow) says read-only at e and at +: its rows are never all read, so no save could take the edits")
    func followedReadOnly() throws {
        let url = try TableSaveCaseTests.file(Array("id,msg\n1,a\n2,b\n".utf8), "followed.csv")
        defer { try? FileManager.default.removeItem(at: url) }
        var options = FormatOptions()
        options.follow = true
        let loader = ViewLoader(store: RowStore())
        let input = try FileInput(path: url.path)
        loader.load(input, options: FormatOptions())
        let model = ViewModel(loader: loader, options: options, source: input.name, color: false, width: 64, height: 8)
        model.enableSaving(input, options: options)
        model.saving?.lineFinder?.wait()  // JSON Lines: its lines found, as they are a moment after the view opens
        ViewEditTests.type(model, "e")
        #expect(model.state.mode == .table)
        #expect(model.state.message?.contains("followed file is read-only") == true, "\(model.state.message ?? "")")
        ViewEditTests.type(model, "+")
        #expect(!model.unsaved)
        // The same file opened without --follow can be edited.
        let plain = ViewEditTests.saving(try FileInput(path: url.path))
        ViewEditTests.type(plain, "eZ")
        plain.handle(.enter)
        #expect(plain.unsaved)
    }
}
