import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// V10 end to end: the release binary's view on a pseudo-terminal edits a file and saves it; the
/// file on disk is what the edits make of it, and a file changed underneath is not written over.
@Suite("Viewer: editing on a pseudo-terminal", .serialized)
struct ViewEditTerminalTests {
    typealias Session = ViewTerminalTests.Session

    /// 40 rows, CR LF line ends, a quoted field, no line break after the last row.
    static func rows() -> [[String]] { (1...40).map { ["\($0)", "item \($0)", "\($0 * 5)"] } }

    static func text(_ rows: [[String]], header: String = "id,name,qty") -> String {
        ([header] + rows.map { r in r.map { $0.contains(",") ? "\"\($0)\"" : $0 }.joined(separator: ",") }).joined(separator: "\r\n")
    }

    static func file(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-edit-\(getpid())-\(name).csv")
        try Self.text(Self.rows()).write(to: url, atomically: false, encoding: .utf8)
        return url
    }

    @Test("V10: open, edit a field, add a row, delete a row, move a row, save, quit: the file is what the model says, untouched lines as they were")
    func editAndSave() throws {
        let url = try Self.file("save")
        defer { try? FileManager.default.removeItem(at: url) }
        let session = try Session([url.path], width: 200, height: 12)
        #expect(session.read(until: "row 1 of 40"))
        var model = Self.rows()
        // Row 1's quantity: 999.
        session.send("ll")
        session.send("e")
        session.send("\u{15}999\r")  // Ctrl-U, then the new value
        model[0][2] = "999"
        #expect(session.read(until: "1 changed"))
        // A row after row 2, its name given in its sheet.
        session.send("j+")
        #expect(session.read(until: "row 3 of 41"))
        session.send("\t")
        session.send("e")
        session.send("new, row\r")
        session.send("\u{1B}")
        model.insert(["", "new, row", ""], at: 2)
        #expect(session.read(until: "1 added"))
        // Row 3 deleted (asked), row 4 moved below row 5.
        session.send("j")
        session.send("d")
        #expect(session.read(until: "delete this row?"))
        session.send("y")
        #expect(session.read(until: "1 deleted"))
        model.remove(at: 3)
        session.send("jJ")
        #expect(session.read(until: "1 moved"))
        model.swapAt(3, 4)
        session.send("w")
        #expect(session.read(until: "saved to"))
        session.send("q")
        #expect(session.wait() == 0)
        #expect(session.modesRestored)
        let saved = try String(contentsOf: url, encoding: .utf8)
        #expect(saved == Self.text(model), "\(saved.debugDescription)")
        // Lines not edited are as they were.
        let before = Set(Self.text(Self.rows()).components(separatedBy: "\r\n"))
        let after = saved.components(separatedBy: "\r\n")
        #expect(after.filter { !before.contains($0) } == ["1,item 1,999", ",\"new, row\","])
    }

    @Test("V10: a file replaced on disk under the view is not written over: w says so and offers another name, where the edits are saved")
    func changedUnderneath() throws {
        let url = try Self.file("changed")
        let other = url.deletingPathExtension().appendingPathExtension("mine.csv")
        defer {
            try? FileManager.default.removeItem(at: url)
            try? FileManager.default.removeItem(at: other)
        }
        let session = try Session([url.path], width: 80, height: 12)
        #expect(session.read(until: "row 1 of 40"))
        session.send("e")
        session.send("\u{15}one\r")
        #expect(session.read(until: "1 changed"))
        // Someone else saves the file meanwhile (a new file renamed over it, as editors do).
        let theirs = "id,name,qty\r\n1,theirs,1\r\n"
        try theirs.write(to: url, atomically: true, encoding: .utf8)
        session.send("w")
        #expect(session.read(until: "changed on disk"))
        #expect(session.read(until: "save as:"))
        session.send(other.path + "\r")
        #expect(session.read(until: "saved to"))
        session.send("q")
        #expect(session.wait() == 0)
        #expect(try String(contentsOf: url, encoding: .utf8) == theirs)
        var mine = Self.rows()
        mine[0][0] = "one"
        #expect(try String(contentsOf: other, encoding: .utf8) == Self.text(mine))
    }

    @Test("V10 (#29): rows appended under the view: w refuses and asks a name, where the rows read are saved with the edit, not the appended ones; then a byte changed in place: W refuses in one line, nothing written")
    func appendedThenChangedUnderneath() throws {
        let url = try Self.file("appended")
        let other = url.deletingPathExtension().appendingPathExtension("saved.csv")
        let third = url.deletingPathExtension().appendingPathExtension("out.csv")
        defer { for u in [url, other, third] { try? FileManager.default.removeItem(at: u) } }
        let session = try Session([url.path], width: 80, height: 12)
        #expect(session.read(until: "row 1 of 40"))
        session.send("e")
        session.send("\u{15}one\r")
        #expect(session.read(until: "1 changed"))
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\r\n41,appended,0".utf8))
        try handle.close()
        session.send("w")
        #expect(session.read(until: "save as:"))
        session.send(other.path + "\r")
        #expect(session.read(until: "saved to"))
        var mine = Self.rows()
        mine[0][0] = "one"
        #expect(try String(contentsOf: other, encoding: .utf8) == Self.text(mine))
        // Now the file read is changed in place, its size and time kept: its rows are gone.
        session.send("e")
        session.send("\u{15}two\r")
        let date = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate]
        let change = try FileHandle(forWritingTo: url)
        try change.seek(toOffset: 14)
        try change.write(contentsOf: Data("X".utf8))
        try change.close()
        try FileManager.default.setAttributes([.modificationDate: try #require(date)], ofItemAtPath: url.path)
        session.send("W")
        session.send(third.path + "\r")
        #expect(session.read(until: "changed in place"))
        session.send("\u{03}")
        session.send("\u{03}")
        #expect(session.wait() == 130)
        #expect(!FileManager.default.fileExists(atPath: third.path))
        #expect(try String(contentsOf: other, encoding: .utf8) == Self.text(mine))
    }

    @Test("V10: q with unsaved edits asks, and Ctrl-C twice leaves without saving (exit 130), the file untouched")
    func unsavedAsks() throws {
        let url = try Self.file("unsaved")
        defer { try? FileManager.default.removeItem(at: url) }
        let session = try Session([url.path], width: 80, height: 12)
        #expect(session.read(until: "row 1 of 40"))
        session.send("e")
        session.send("x\r")
        session.send("q")
        #expect(session.read(until: "quit without saving?"))
        session.send("\u{1B}")
        session.send("\u{03}")
        #expect(session.read(until: "Ctrl-C again"))
        session.send("\u{03}")
        #expect(session.wait() == 130)
        #expect(try String(contentsOf: url, encoding: .utf8) == Self.text(Self.rows()))
    }

    @Test("V10: the view turns bracketed paste on and off; a paste of x⏎dyw into the editor is the field's text, no row deleted, nothing saved by it")
    func bracketedPaste() throws {
        let url = try Self.file("paste")
        defer { try? FileManager.default.removeItem(at: url) }
        let session = try Session([url.path], width: 80, height: 12)
        #expect(session.read(until: "row 1 of 40"))
        #expect(session.screen.contains("\u{1B}[?2004h"))
        session.send("e")
        session.send("\u{15}\u{1B}[200~x\rdyw\u{1B}[201~")
        session.send("\r")
        #expect(session.read(until: "1 changed"))
        session.send("w")
        #expect(session.read(until: "saved to"))
        session.send("q")
        #expect(session.wait() == 0)
        #expect(session.screen.contains("\u{1B}[?2004l"))
        var rows = Self.rows()
        rows[0][0] = "x\ndyw"
        let saved = try String(contentsOf: url, encoding: .utf8)
        #expect(saved == Self.text(rows).replacingOccurrences(of: "x\ndyw", with: "\"x\ndyw\""), "\(saved.debugDescription)")
    }

    @Test("V10: a value typed, Ctrl-C, Esc: the text is still there; Enter and w save it, the row keeping its quotes and CR LF in an LF file: git diff shows that line alone")
    func typedTextKeptAndDialect() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-edit-\(getpid())-dialect.csv")
        let text = "id,name,qty\n1,\"apple\",3\r\n2,\"pear\",4\n"
        try text.write(to: url, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let session = try Session(["--view", "always", url.path], width: 120, height: 10)
        #expect(session.read(until: "row 1 of 2"))
        session.send("ll")
        session.send("e")
        session.send("\u{15}30")
        session.send("\u{03}")
        #expect(session.read(until: "the value being typed: Ctrl-C again"))
        session.send("\u{1B}")
        session.send("\r")
        #expect(session.read(until: "1 changed"))
        session.send("w")
        #expect(session.read(until: "saved to"))
        session.send("q")
        #expect(session.wait() == 0)
        #expect(try String(contentsOf: url, encoding: .utf8) == "id,name,qty\n1,\"apple\",30\r\n2,\"pear\",4\n")
    }
}
