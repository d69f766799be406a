import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10, issue 44: what the view shows and offers after its file changes underneath. Rows appended
/// by another process leave the rows read readable (shown, opened, edited); a change in place
/// makes them unreadable, and then no sheet or editor opens on values the view cannot show, and
/// `w` says at once that nothing can be saved. A deleted file is written anew under its own name
/// however the name is typed; a save-as name is taken as a shell would (`~`), a dangling link
/// is followed, a name with a space at either end is refused.
@Suite("Viewer: the file changed under the view")
struct ViewFileChangedTests {
    static func url(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-changed-\(getpid())-\(name)")
    }

    static func append(_ url: URL, _ text: String) throws {
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    /// A view of a file holding `text`, every row read, that can save.
    static func opened(_ url: URL, _ text: String) throws -> ViewModel {
        try Data(text.utf8).write(to: url)
        return try ViewEditTests.saving(FileInput(path: url.path))
    }

    @Test("V10: rows appended by another process leave the rows read shown; Enter opens the row's values, e edits the value the file holds")
    func appendedKeepsRows() throws {
        let file = Self.url("app.csv")
        defer { try? FileManager.default.removeItem(at: file) }
        let model = try Self.opened(file, "n,v\n1,a\n2,b\n")
        #expect(model.rows.record(0).strings == ["1", "a"])
        try Self.append(file, "3,c\n")
        let lines = ViewEditTests.plain(model)
        #expect(lines.contains("1  a") && lines.contains("2  b"), "\(lines)")
        #expect(!lines.joined().contains("no rows"))
        #expect(model.rows.record(1).strings == ["2", "b"])
        model.handle(.enter)
        #expect(model.state.mode == .detail(scroll: 0))
        #expect(ViewEditTests.plain(model).contains("V  a"))
        model.handle(.escape)
        model.handle(.right)
        ViewEditTests.type(model, "e")
        guard case .edit(.field(let editor)) = model.state.mode else {
            Issue.record("no editor: \(model.state.message ?? "")")
            return
        }
        #expect(String(editor.text) == "a")
        // Appended again: still the same rows.
        model.handle(.escape)
        try Self.append(file, "4,d\n")
        #expect(model.rows.record(0).strings == ["1", "a"])
        #expect(model.state.loadError == nil)
    }

    @Test("V10: after a change in place the rows are not shown, and Enter and e say so instead of opening empty fields; w says at once it cannot be saved, offering no name")
    func changedInPlaceRefusesToOpen() throws {
        let file = Self.url("inplace.csv")
        defer { try? FileManager.default.removeItem(at: file) }
        let model = try Self.opened(file, "n,v\n1,a\n2,b\n")
        model.handle(.right)
        ViewEditSaveAsTests.edit(model, "Z")
        #expect(model.unsaved)
        try ViewEditSaveChangedTests.overwrite(file, at: 6, "q")
        _ = ViewEditTests.plain(model)  // a draw reads the rows, and finds the change
        _ = model.refresh()
        let lines = ViewEditTests.plain(model)
        #expect(lines.contains { $0.contains("the file changed on disk") }, "\(lines)")
        // The status line names the problem, cut on this narrow screen; M shows it whole.
        #expect(lines.last?.contains("file cha") == true && lines.last?.hasSuffix("M: all of it") == true, "\(lines.last ?? "")")
        ViewEditTests.type(model, "M")
        #expect(ViewEditTests.plain(model).joined(separator: " ").contains("changed"), "\(ViewEditTests.plain(model))")
        model.handle(.escape)
        #expect(model.state.mode == .table)
        model.handle(.enter)
        #expect(model.state.mode == .table)
        #expect((model.state.message ?? "").contains("cannot be opened or edited"))
        ViewEditTests.type(model, "e")
        #expect(model.state.mode == .table)
        #expect((model.state.message ?? "").contains("cannot be opened or edited"))
        ViewEditTests.type(model, "w")
        #expect((model.state.message ?? "").contains("changed in place"), "\(model.state.message ?? "")")
        #expect(model.state.mode == .table, "no name asked for: no name would save the rows")
        #expect(try String(contentsOf: file, encoding: .utf8) == "n,v\n1,q\n2,b\n")
    }

    @Test("V10: a deleted file: w says it was deleted and asks for a name; its own name, typed as opened or through ./ or a folder's link, writes it anew")
    func deletedWrittenAnew() throws {
        let directory = Self.url("deleted")
        let link = Self.url("deleted-link")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: directory.path)
        defer { try? FileManager.default.removeItem(at: directory); try? FileManager.default.removeItem(at: link) }
        let file = directory.appendingPathComponent("rm.csv")
        for typed in [file.path, directory.path + "/./rm.csv", link.path + "/rm.csv"] {
            let model = try Self.opened(file, "n,v\n1,a\n2,b\n")
            model.handle(.right)
            ViewEditSaveAsTests.edit(model, "Z")
            try FileManager.default.removeItem(at: file)
            ViewEditTests.type(model, "w")
            #expect((model.state.message ?? "").contains("deleted since it was opened"), "\(model.state.message ?? "")")
            #expect(model.state.mode == .edit(.saveAs([], quit: false)))
            ViewEditTests.type(model, typed)
            model.handle(.enter)
            #expect(model.state.message == "saved to \(typed)", "\(typed)")
            #expect(try String(contentsOf: file, encoding: .utf8) == "n,v\n1,aZ\n2,b\n", "\(typed)")
            #expect(!model.unsaved)
        }
    }

    @Test("V10: a save-as name: ~ and ~/… are the home folder, ~user/… that user's; a space at either end, or an unknown user, is refused with the name kept in the prompt")
    func saveNames() throws {
        let home = try #require(SaveFile.home(of: nil))
        #expect(home == ProcessInfo.processInfo.environment["HOME"] ?? home)
        #expect(try ViewModel.saveName("~/x.csv").get() == home + "/x.csv")
        #expect(try ViewModel.saveName("~").get() == home)
        #expect(try ViewModel.saveName("a~/x.csv").get() == "a~/x.csv")
        #expect(try ViewModel.saveName("data.csv").get() == "data.csv")
        let root = try #require(getpwnam("root")).pointee
        #expect(try ViewModel.saveName("~root/x.csv").get() == String(cString: root.pw_dir) + "/x.csv")
        for refused in [" x.csv", "x.csv ", "\tx.csv", "~no-such-user-tablefmt/x.csv"] {
            guard case .failure(let error) = ViewModel.saveName(refused) else {
                Issue.record("\(refused.debugDescription) taken")
                continue
            }
            #expect(!error.message.contains("\n"))
        }
        // Through the view: refused, the name typed stays in the prompt to be corrected.
        let file = Self.url("space.csv")
        defer { try? FileManager.default.removeItem(at: file) }
        let model = try Self.opened(file, "n,v\n1,a\n")
        model.handle(.right)
        ViewEditSaveAsTests.edit(model, "Z")
        ViewEditTests.type(model, "W x.csv")
        model.handle(.enter)
        #expect((model.state.message ?? "").contains("starts or ends with a space"))
        #expect(model.state.mode == .edit(.saveAs(Array(" x.csv"), quit: false)))
    }

    @Test("V10: save-as to a dangling symbolic link makes the file it names; the link stays a link")
    func danglingLinkFollowed() throws {
        let file = Self.url("dl.csv"), target = Self.url("dl-target.csv"), link = Self.url("dl-link.csv")
        defer { for u in [file, target, link] { try? FileManager.default.removeItem(at: u) } }
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.lastPathComponent)
        let model = try Self.opened(file, "n,v\n1,a\n")
        model.handle(.right)
        ViewEditSaveAsTests.edit(model, "Z")
        ViewEditSaveAsTests.saveAs(model, link)
        #expect(model.state.message == "saved to \(link.path)")
        let kind = try FileManager.default.attributesOfItem(atPath: link.path)[.type] as? FileAttributeType
        #expect(kind == .typeSymbolicLink)
        #expect(try String(contentsOf: target, encoding: .utf8) == "n,v\n1,aZ\n")
    }
}
