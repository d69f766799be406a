import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10: edits are saved from the bytes the view read. A file changed in place since it was
/// opened (even to the same size, its modification time set back) no longer holds them: a save
/// under a name is refused, saying so, and nothing is written. A file only appended to still
/// holds them at its start: a save under a name writes the rows the view read, with the edits,
/// and not the rows appended since.
@Suite("Viewer: saving after the file changed on disk")
struct ViewEditSaveChangedTests {
    static func url(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-savechanged-\(getpid())-\(name)")
    }

    /// Writes `bytes` at `offset` of the file at `url`, in place (the same inode).
    static func overwrite(_ url: URL, at offset: UInt64, _ bytes: String) throws {
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data(bytes.utf8))
        try handle.close()
    }

    /// A view of `original` (holding `text`), row 1's second field edited to end in `Z`.
    static func edited(_ original: URL, _ text: String) throws -> ViewModel {
        try Data(text.utf8).write(to: original)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_577_836_800)], ofItemAtPath: original.path)
        let model = try ViewEditTests.saving(FileInput(path: original.path))
        model.handle(.right)
        ViewEditSaveAsTests.edit(model, "Z")
        return model
    }

    @Test("V10: W after the file was changed in place to the same size, its time set back, refuses (the rows read are no longer on disk) and writes nothing")
    func changedInPlaceRefused() throws {
        let original = Self.url("d1.csv"), out = Self.url("d1.out.csv")
        defer { try? FileManager.default.removeItem(at: original); try? FileManager.default.removeItem(at: out) }
        let model = try Self.edited(original, "a,b\n1,x\n2,y\n3,z\n")
        try Self.overwrite(original, at: 13, "Y")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_577_836_800)], ofItemAtPath: original.path)
        ViewEditSaveAsTests.saveAs(model, out)
        #expect((model.state.message ?? "").contains("the rows the view read are no longer on disk"))
        #expect(!(model.state.message ?? "").contains("\n"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(model.unsaved)
    }

    @Test("V10: W after rows were appended to the file saves the rows the view read with the edits (not the appended rows); w over the file is still refused")
    func appendedSavedUnderName() throws {
        let original = Self.url("gr.csv"), out = Self.url("gr.saved.csv")
        defer { try? FileManager.default.removeItem(at: original); try? FileManager.default.removeItem(at: out) }
        let model = try Self.edited(original, "a,b\n1,x\n2,y\n")
        let handle = try FileHandle(forWritingTo: original)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("3,appended\n".utf8))
        try handle.close()
        ViewEditTests.type(model, "w")
        #expect((model.state.message ?? "").contains("changed on disk"))
        #expect(try String(contentsOf: original, encoding: .utf8) == "a,b\n1,x\n2,y\n3,appended\n")
        // The refusal asks for a name at once.
        ViewEditTests.type(model, out.path)
        model.handle(.enter)
        // The appended row is not in the save, and the message says so.
        #expect(model.state.message == "saved to \(out.path) (without the 11 bytes added to \(original.path) since it was opened)")
        #expect(try String(contentsOf: out, encoding: .utf8) == "a,b\n1,xZ\n2,y\n")
        #expect(try String(contentsOf: original, encoding: .utf8) == "a,b\n1,x\n2,y\n3,appended\n")
    }

    @Test("V10: W after the file was rewritten in place and grew (its start changed too) refuses, writing nothing")
    func rewrittenAndGrownRefused() throws {
        let original = Self.url("rw.csv"), out = Self.url("rw.out.csv")
        defer { try? FileManager.default.removeItem(at: original); try? FileManager.default.removeItem(at: out) }
        let model = try Self.edited(original, "a,b\n1,x\n2,y\n")
        try Self.overwrite(original, at: 4, "9,q\n2,y\n3,more\n")
        ViewEditSaveAsTests.saveAs(model, out)
        #expect((model.state.message ?? "").contains("the rows the view read are no longer on disk"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("V10: the bytes the view read are found intact exactly when the file is unchanged or only appended to (generated files and changes)")
    func intactPrefixGenerated() throws {
        var generator = SystemRandomNumberGenerator()
        let url = Self.url("gen.bin")
        defer { try? FileManager.default.removeItem(at: url) }
        for round in 0..<200 {
            let size = Int.random(in: 1...3000, using: &generator)
            let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try Data(bytes).write(to: url)
            let fd = open(url.path, O_RDONLY)
            defer { close(fd) }
            let read = try #require(SaveFile.identity(fd: fd))
            // 0: nothing, 1: append, 2: one byte changed, 3: cut, 4: one byte changed and appended.
            let change = round % 5
            let at = UInt64.random(in: 0..<UInt64(size), using: &generator)
            let handle = try FileHandle(forWritingTo: url)
            if change == 2 || change == 4 {
                try handle.seek(toOffset: at)
                try handle.write(contentsOf: Data([bytes[Int(at)] ^ 0x5A]))
            }
            if change == 1 || change == 4 {
                try handle.seekToEnd()
                try handle.write(contentsOf: Data("more\n".utf8))
            }
            if change == 3 { try handle.truncate(atOffset: at) }
            try handle.close()
            let intact = change == 0 || change == 1
            #expect((SaveFile.bytesRead(fd, read: read) == Int64(size)) == intact, "change \(change) at \(at) of \(size)")
        }
    }
}
