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

/// Following in the view, end to end on a pseudo-terminal (V9, I10): the release binary follows a
/// file or a pipe that a writer here appends to, pauses on and rotates.
@Suite("Viewer: following on a pseudo-terminal", .serialized)
struct ViewFollowTerminalTests {
    typealias Session = ViewTerminalTests.Session
    typealias P = FollowPrintTests

    /// The row's token is on the screen (true), waiting up to `seconds`; the milliseconds it took.
    static func shows(_ session: Session, _ token: String, seconds: Double = 5) -> (Bool, Int) {
        let start = ViewLoader.milliseconds()
        let found = session.read(until: token, seconds: seconds)
        return (found, ViewLoader.milliseconds() - start)
    }

    @Test("V9/I10: --follow FILE opens following: appended rows show within 100 ms (median); k stops (+N new rows), G follows again; a rotation is said")
    func followFile() throws {
        let dir = try P.folder()
        let path = dir.appendingPathComponent("app.csv").path
        var text = "id,event\n"
        for k in 1...40 { text += "\(k),start \(k)\n" }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let session = try Session(["--follow", path], width: 200, height: 12)
        #expect(session.read(until: "row 40 of 40+"))
        #expect(session.read(until: "following"))
        var latencies: [Int] = []
        for k in 0..<15 {
            P.append("\(41 + k),zq\(k)x\n", to: path)
            let (found, took) = Self.shows(session, "zq\(k)x")
            #expect(found, "row \(k)")
            latencies.append(took)
            usleep(20_000)
        }
        latencies.sort()
        // Drawn when the row is published (the loop is woken), not at the loop's next 100 ms
        // timeout, which alone would give a median near 50 ms.
        #expect(latencies[latencies.count / 2] < 30, "\(latencies)")
        #expect(session.read(until: "following · 15 new"))
        session.send("k")
        P.append("56,late one\n57,late two\n", to: path)
        #expect(session.read(until: "+2 new rows"))
        #expect(!session.screen.hasSuffix("late two"))
        session.send("G")
        #expect(session.read(until: "row 57 of 57+"))
        // Rotated: renamed away and created again, its header written again.
        rename(path, path + ".1")
        try "id,event\n58,after rotation\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(session.read(until: "app.csv was replaced"))
        #expect(session.read(until: "after rotation"))
        #expect(session.read(until: "row 58 of 58+"))
        session.send("q")
        #expect(session.wait() == 0)
        #expect(session.modesRestored)
        try? FileManager.default.removeItem(at: dir)
    }

    @Test("V9/I10: --follow of a file ending in a line without its line feed: the view opens at once with the rows before it; that line shows once its line feed comes")
    func followFileEndingUnended() throws {
        let dir = try P.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("pt.csv").path
        // Read 6 bytes first (the check for compression), then 6 more: a row whole and, after
        // it, only the unended line left unread.
        try "id,msg\n1,zq\n2,part".write(toFile: path, atomically: false, encoding: .utf8)
        let session = try Session(["--follow", path], width: 120, height: 12)
        #expect(session.read(until: "zq", seconds: 1.5))
        #expect(session.read(until: "following", seconds: 1.5))
        #expect(!session.screen.contains("part"))
        P.append("Z\n", to: path)
        #expect(session.read(until: "partZ"))
        #expect(session.read(until: "row 2 of 2+"))
        session.send("q")
        #expect(session.wait() == 0)
    }

    @Test("V9/I10: --follow of a file of many rows: the rows it held when opened are not counted as new; a row appended after is")
    func followBigFileCountsOnlyNew() throws {
        let dir = try P.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("big.csv").path
        try ("id,event\n" + (1...300_000).map { "\($0),e\($0)\n" }.joined()).write(toFile: path, atomically: false, encoding: .utf8)
        let session = try Session(["--follow", path], width: 120, height: 12)
        #expect(session.read(until: "row 300,000 of 300,000+", seconds: 20))
        #expect(session.read(until: "following"))
        session.drain(milliseconds: 400)
        #expect(!session.screen.contains(" new"), "\(session.screen.suffix(300))")
        P.append("300001,zqlate\n", to: path)
        #expect(session.read(until: "zqlate"))
        #expect(session.read(until: "following · 1 new"))
        session.send("q")
        #expect(session.wait() == 0)
    }

    @Test("P5: printed to a terminal (--view never), a followed table draws its headings again every screenful")
    func headingsEveryScreenful() throws {
        let dir = try P.folder()
        let path = dir.appendingPathComponent("app.csv").path
        try "id,event\n1,one\n".write(toFile: path, atomically: false, encoding: .utf8)
        let session = try Session(["--follow", "--view", "never", path], height: 8)
        #expect(session.read(until: "one"))
        for k in 2...12 { P.append("\(k),e\(k)\n", to: path) }
        #expect(session.read(until: "e12"))
        session.send("\u{03}")  // Ctrl-C: SIGINT from the terminal
        #expect(session.wait() == 0)
        let plain = session.screen.replacing(/\x{1B}\[[0-9;]*m/, with: "")
        let lines = plain.split(separator: "\r\n").map(String.init)
        // 8 lines: the headings before every 5 rows (the screen less the headings, their rule and a line).
        let headings = lines.indices.filter { lines[$0].hasPrefix("ID  Event") }
        #expect(headings == [0, 7, 14], "\(lines)")
        #expect(lines.filter { $0.hasPrefix("─") }.count == 3)
        #expect(lines[16] == "11  e11" && lines[17] == "12  e12", "\(lines)")
        try? FileManager.default.removeItem(at: dir)
    }

    @Test("P5: --wrap 2 printed to a terminal: the headings come again by lines, not rows, so each screenful of wrapped rows shows them")
    func headingsEveryScreenfulWrapped() throws {
        let dir = try P.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("app.csv").path
        try "id,event\n1,one\n".write(toFile: path, atomically: false, encoding: .utf8)
        let session = try Session(["--follow", "--view", "never", "--wrap", "2", path], height: 8)
        #expect(session.read(until: "one"))
        for k in 2...13 { P.append("\(k),ev\(k) zz\n", to: path) }  // wider than the column: two lines each
        #expect(session.read(until: "ev13"))
        session.send("\u{03}")
        #expect(session.wait() == 0)
        let plain = session.screen.replacing(/\x{1B}\[[0-9;]*m/, with: "")
        let lines = plain.split(separator: "\r\n").map(String.init)
        #expect(lines.filter { $0.hasSuffix("zz") }.count == 12, "\(lines)")  // wrapped, not cut
        // 8 lines: at most 5 lines of rows under each headings and rule, and no fewer than 4 (a
        // wrapped row that might not fit goes under the next headings).
        let headings = lines.indices.filter { lines[$0].hasPrefix("ID  Event") }
        let gaps = zip(headings, headings.dropFirst()).map { $1 - $0 }
        #expect(headings.count >= 4 && gaps.allSatisfy { (6...7).contains($0) }, "\(headings) \(lines)")
    }

    @Test("V9: tail -f … | tablefmt: G at the end of a pipe follows its new rows, the status says following")
    func followPipe() throws {
        let dir = try P.folder()
        let fifo = dir.appendingPathComponent("rows").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let session = try Session(["-c", "exec '\(TestPaths.binary.path)' --view always < '\(fifo)'"], height: 12, program: "/bin/sh")
        let writer = open(fifo, O_WRONLY)
        defer { close(writer) }
        func send(_ text: String) { _ = text.withCString { write(writer, $0, strlen($0)) } }
        send("id,word\n" + (1...30).map { "\($0),w\($0)\n" }.joined())
        #expect(session.read(until: "row 1 of 30+"))
        session.send("G")
        #expect(session.read(until: "following"))
        send("31,pq31x\n")
        #expect(Self.shows(session, "pq31x").0)
        #expect(session.read(until: "row 31 of 31+"))
        session.send("q")
        #expect(session.wait() == 0)
        try? FileManager.default.removeItem(at: dir)
    }

    @Test("V7/V9: a fast writer of 10M rows into a followed view keeps its memory within the view's budget (8 bytes a row)")
    func fastWriterMemory() throws {
        let dir = try P.folder()
        let fifo = dir.appendingPathComponent("rows").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let awk = "BEGIN { print \"id,name,amount\"; for (i = 0; i < 10000000; i++) print i \",name \" i \",\" i \".5\" }"
        let script = "{ awk '\(awk)'; sleep 60; } > '\(fifo)' & exec '\(TestPaths.binary.path)' --follow --view always < '\(fifo)'"
        let session = try Session(["-c", script], height: 12, program: "/bin/sh")
        #expect(session.read(until: "following"))
        #expect(session.read(until: "row 10,000,000 of 10,000,000+", seconds: 120))
        let peak = ReliabilityKit.residentHighWater(session.pid)
        // 10M rows: an index of 80 MB; the rows themselves are spooled to disk.
        #expect(peak > 0 && peak < 160_000, "VmHWM \(peak) KiB")
        session.send("q")
        #expect(session.wait() == 0)
        try? FileManager.default.removeItem(at: dir)
    }

    /// The bytes of the view's spool (Linux: read through /proc) (its unlinked temporary files, still open in `pid`).
    static func spooled(_ pid: pid_t) -> Int {
        let folder = "/proc/\(pid)/fd"
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return fds.reduce(0) { total, fd in
            let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + fd)) ?? ""
            var info = stat()
            guard link.contains("tablefmt-view"), stat(folder + "/" + fd, &info) == 0 else { return total }
            return total + Int(info.st_size)
        }
    }

    /// Whether `text` is written after the first `mark` characters of the screen, waiting up to 10 s.
    static func drawn(_ session: Session, _ text: String, after mark: Int) -> Bool {
        let deadline = ViewLoader.milliseconds() + 10_000
        while ViewLoader.milliseconds() < deadline {
            if session.screen.dropFirst(mark).contains(text) { return true }
            session.drain(milliseconds: 50)
        }
        return false
    }

    #if os(Linux)
    @Test("V9/V7: --follow FILE spools the file's 200,000 rows and its appended ones as they are read; after a rotation the old file's rows still show")
    func followedSpooled() throws {
        let dir = try P.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, session) = try Self.followed(200_000, in: dir)
        #expect(session.read(until: "row 200,000 of 200,000+", seconds: 20))
        let held = Self.spooled(session.pid)
        #expect(held > 200_000 * 8, "\(held) bytes spooled")
        P.append("200001,zr200001x\n200002,zr200002x\n", to: path)
        #expect(session.read(until: "zr200002x"))
        #expect(Self.spooled(session.pid) > held)
        // Every row is read back: a filter scans them all and finds the one in the middle.
        var mark = session.screen.count
        session.send("&zr123457x\r")
        #expect(Self.drawn(session, "zr123457x", after: mark))
        session.send("&\r")
        session.send("G")
        rename(path, path + ".1")
        try "id,event\n200003,after rotation\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(session.read(until: "app.csv was replaced"))
        #expect(session.read(until: "after rotation"))
        // The renamed file's rows are still there, as read.
        mark = session.screen.count
        session.send("g")
        #expect(Self.drawn(session, "zr3x", after: mark))
        session.send("q")
        #expect(session.wait() == 0)
    }

    #endif

    /// A followed CSV file of `count` rows `k,zr<k>x`, and the view following it with its own TMPDIR.
    static func followed(_ count: Int, in dir: URL, tmpdir: String? = nil, stdout: String? = nil) throws -> (path: String, session: Session) {
        let path = dir.appendingPathComponent("app.csv").path
        let tmp = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        try ("id,event\n" + (1...count).map { "\($0),zr\($0)x\n" }.joined()).write(toFile: path, atomically: false, encoding: .utf8)
        let session = try Session(["--follow", "--view", "always", path], width: 250, height: 12, stdout: stdout, environment: ["TMPDIR": tmpdir ?? tmp.path])
        return (path, session)
    }

    @Test("V9: the followed file truncated: the rows read before it are kept as read, where it was cut said; rows after it show as written; select-all q writes every row")
    func followedTruncated() throws {
        let dir = try P.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("picked.csv").path
        let (path, session) = try Self.followed(1000, in: dir, stdout: out)
        #expect(session.read(until: "row 1,000 of 1,000+"))
        try "id,event\n1001,after cut\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(session.read(until: "app.csv was truncated: read from its start · rows 1–1,000 are as read before it"))
        #expect(session.read(until: "after cut"))
        P.append("1002,later one\n", to: path)
        #expect(session.read(until: "later one"))
        let mark = session.screen.count
        session.send("g")
        #expect(Self.drawn(session, "row 1 of 1,002+", after: mark))
        session.drain(milliseconds: 300)
        let after = session.screen.dropFirst(mark)
        #expect(after.contains("zr1x") && after.contains("zr2x"), "\(after)")
        session.send("a")
        session.drain(milliseconds: 200)
        session.send("q")
        #expect(session.wait() == 0)
        let expected = "id,event\r\n" + (1...1000).map { "\($0),zr\($0)x\r\n" }.joined() + "1001,after cut\r\n1002,later one\r\n"
        #expect(try String(contentsOfFile: out, encoding: .utf8) == expected)
    }

    @Test("V9/V7: a followed file is spooled from its first row: a TMPDIR that cannot take it is said before the view opens, status 74")
    func followedWithoutTemporaryFolder() throws {
        let dir = try P.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, session) = try Self.followed(5000, in: dir, tmpdir: "/nonexistent-tablefmt-tmp")
        #expect(session.read(until: "cannot make a temporary file in /nonexistent-tablefmt-tmp"))
        session.send("q")
        #expect(session.wait() == 74)
    }
}
