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
import Support

/// V10, issue 44: a save stopped by a signal leaves nothing behind. The temporary file a save
/// writes beside the user's file is named to `RemovedOnSignal` for as long as it exists by that
/// name; the signal handlers remove what it names before the program ends.
@Suite("Viewer: a save ended by a signal", .serialized)
struct SaveSignalTests {
    static func directory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-savesignal-\(getpid())-\(name)")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func leftovers(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tablefmt-") }
    }

    @Test("Issue 44: while a save writes, its temporary file is what a signal removes; after the rename nothing is named, and the saved file stays")
    func temporaryNamedWhileWriting() throws {
        let dir = try Self.directory("named")
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("big.csv").path
        try Data("a,b\n1,x\n".utf8).write(to: URL(fileURLWithPath: target))
        let expected = SaveFile.identity(path: target)
        var seen: [String] = []
        _ = try? SaveFile.replace(target, expected: expected) { (fd) throws(SaveError) in
            _ = writeFully(fd, from: Array("a,b\n1,y\n".utf8), count: 8, at: 0)
            seen = (try? Self.leftovers(dir)) ?? []
            // What a handler does: the temporary file goes, the user's file stays.
            RemovedOnSignal.removeAll()
            throw SaveError("stopped")
        }
        #expect(seen.count == 1 && seen[0].hasPrefix(".big.csv.tablefmt-"), "\(seen)")
        #expect(try Self.leftovers(dir).isEmpty)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "a,b\n1,x\n")
        // A save that completes leaves no name behind to remove: the new file stays.
        _ = try SaveFile.replace(target, expected: SaveFile.identity(path: target)) { (fd) throws(SaveError) in
            _ = writeFully(fd, from: Array("a,b\n1,z\n".utf8), count: 8, at: 0)
        }
        RemovedOnSignal.removeAll()
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "a,b\n1,z\n")
        #expect(try Self.leftovers(dir).isEmpty)
    }

    @Test("Issue 44: SIGTERM and SIGHUP during w on a pseudo-terminal: the program ends by the signal, no temporary copy is left beside the file, and the file is as it was", arguments: [SIGTERM, SIGHUP])
    func signalDuringSave(signal: Int32) throws {
        let dir = try Self.directory("pty-\(signal)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("big.csv")
        // 1.2M rows (about 40 MB): a save takes long enough to be caught while it writes.
        var text = [UInt8]()
        text.reserveCapacity(42 << 20)
        text += Array("id,name,qty\n".utf8)
        for k in 1...1_200_000 { text += Array("\(k),item number \(k),\(k % 997)\n".utf8) }
        try Data(text).write(to: url)
        var caught = false
        for _ in 0..<3 where !caught {
            let session = try ViewTerminalTests.Session([url.path], width: 200, height: 12)
            #expect(session.read(until: "row 1 of 1,200,000 ", seconds: 60))
            session.send("l")
            session.send("e")
            session.send("\u{15}Z\r")
            #expect(session.read(until: "1 changed", seconds: 30))
            // As soon as the temporary copy is there, the signal: a thread of its own watches the
            // folder, so that reading the screen never hides the save (some 40 ms) from it.
            let sent = Locked(false), over = Locked(false)
            let pid = session.pid
            let watcher = Thread {
                while !over.current {
                    if (try? Self.leftovers(dir))?.isEmpty == false {
                        kill(pid, signal)
                        sent.withLock { $0 = true }
                        return
                    }
                    usleep(100)
                }
            }
            watcher.start()
            session.send("w")
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, !sent.current, !session.screen.contains("saved to") {
                session.drain(milliseconds: 20)
            }
            over.withLock { $0 = true }
            if sent.current {
                caught = true
                #expect(session.wait(seconds: 20) == 128 + signal)
                #expect(try Self.leftovers(dir).isEmpty, "the temporary copy is removed")
                #expect(try Data(contentsOf: url) == Data(text), "the file is as it was")
            } else {
                session.send("q")
                _ = session.wait()
                try Data(text).write(to: url)
            }
        }
        #expect(caught, "the save was never caught while it wrote")
    }
}
