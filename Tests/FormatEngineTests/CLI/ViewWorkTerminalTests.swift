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

/// The binary's view on a pseudo-terminal while a sort of a million rows runs (V3, V8, #28): the
/// keys keep working, the status line counts the sort's progress, `Esc` stops it, `q` ends the
/// view at once.
@Suite("Viewer: keys while a sort runs, on a pseudo-terminal", .serialized)
struct ViewWorkTerminalTests {
    typealias Session = ViewTerminalTests.Session

    /// 1,000,000 rows (29 MB) whose names sort as text out of their order.
    static func millionRows() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-work-\(getpid())-1m.csv")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        var bytes: [UInt8] = Array("id,name,amount\n".utf8)
        bytes.reserveCapacity(32_000_000)
        for k in 1...1_000_000 {
            bytes.append(contentsOf: "\(k),name \((k &* 7919) % 1_000_003),\(k % 977).50\n".utf8)
        }
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
        return url
    }

    /// The status lines written after `mark` characters of the screen, without styles.
    static func statuses(_ session: Session, after mark: String.Index) -> [String] {
        let text = session.screen[mark...].replacing(/\x{1B}\[[0-9;]*m/, with: "")
        return text.split(separator: "\u{1B}").filter { $0.contains(" of 1,000,000") }.map(String.init)
    }

    @Test("V8: s on a million rows: j moves the rows while the status counts the sort; Esc stops it and the order stays; q ends a sort at once")
    func keysWhileSorting() throws {
        let file = try Self.millionRows()
        defer { try? FileManager.default.removeItem(at: file) }
        let session = try Session(["--view", "always", file.path], width: 80, height: 20)
        #expect(session.read(until: "row 1 of 1,000,000 ", seconds: 20))
        session.send("l")  // the Name column
        #expect(session.read(until: "· Name ·"))
        var mark = session.screen.endIndex
        session.send("s")
        session.send("jjj")
        #expect(session.read(until: "row 4 of 1,000,000", seconds: 5))
        // The rows moved while the sort ran: the status said so with its progress, and the old
        // order (row 4 is id 4).
        let during = Self.statuses(session, after: mark)
        #expect(during.contains { $0.contains(/sorting by Name… \d+% · row 4 of 1,000,000/) }, "\(during)")
        #expect(session.screen[mark...].contains("4  name 31676"))
        mark = session.screen.endIndex
        session.send("\u{1B}")  // Esc
        var after: [String] = []
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline && after.last?.contains("sorting") != false {
            session.drain(milliseconds: 20)
            after = Self.statuses(session, after: mark)
        }
        #expect(after.last?.hasPrefix("[2Krow 4 of 1,000,000 · Name · ") == true, "\(after)")
        #expect(!session.screen[mark...].contains("▲"))
        // A new sort, then q while it runs: the view ends at once, the terminal as it was.
        session.send("s")
        #expect(session.read(until: "sorting by Name…"))
        let start = Date()
        session.send("q")
        #expect(session.wait(seconds: 5) == 0)
        #expect(Date().timeIntervalSince(start) < 1)
        #expect(session.screen.hasSuffix("\u{1B}[?1049l"))
        #expect(session.modesRestored)
    }
}
