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

/// Removes `ViewHangupTests`' inputs (28 MB) once all of its tests have run.
struct RemovesHangupInputs: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        defer { try? FileManager.default.removeItem(at: ViewHangupTests.folder) }
        try await function()
    }
}

/// V8, issue #33: a view whose terminal goes away ends at once, in every state, and spins
/// nowhere. The binary runs on a pseudo-terminal whose master side is then closed, as a terminal
/// window closing or an ssh connection dropping does: the terminal hangs up. The process must be
/// gone within a second, having used little CPU meanwhile (its CPU time is read from
/// `/proc/<pid>/stat` at the close and from the rusage of the reaped child).
@Suite("Viewer: a terminal that goes away ends the view at once (V8)", .serialized,
       .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/stat")), RemovesHangupInputs())
struct ViewHangupTests {
    typealias Session = ViewTerminalTests.Session

    /// Where this suite's inputs live, until its tests have run.
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-hangup-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// 200 rows: taller than the screen, read at once.
    static let tall: URL = {
        let url = folder.appendingPathComponent("tall.csv")
        var text = "id,name,amount\n"
        for k in 1...200 { text += "\(k),name \(k),\(k * 3).50\n" }
        try? text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }()

    /// 1,000,000 rows (28 MB): a sort, a filter, a search or a selection of every row takes a
    /// while: a sort, a filter or a search on the runner's thread while the key loop waits, the
    /// selection written with no key loop (V3, V5, V6, V8).
    static let big: URL = {
        let url = folder.appendingPathComponent("big.csv")
        var bytes: [UInt8] = Array("id,name,amount\n".utf8)
        bytes.reserveCapacity(30_000_000)
        func digits(_ value: Int) {
            var v = value, reversed: [UInt8] = []
            repeat { reversed.append(UInt8(48 + v % 10)); v /= 10 } while v > 0
            bytes.append(contentsOf: reversed.reversed())
        }
        let name = Array(",name ".utf8)
        for k in 1...1_000_000 {
            digits(k)
            bytes.append(contentsOf: name)
            digits(k)
            bytes.append(UInt8(ascii: ","))
            digits((k &* 7919) % 1_000_003)  // amounts out of order
            bytes.append(contentsOf: [UInt8(ascii: "."), UInt8(ascii: "5"), UInt8(ascii: "0"), 0x0A])
        }
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
        return url
    }()

    /// The view's states the terminal is lost in.
    enum State: String, CaseIterable, CustomTestStringConvertible {
        /// Rows still coming (a pipe held open): the loop wakes every 100 ms.
        case loading
        /// Waiting for a key.
        case idle
        /// A row's sheet (V4).
        case sheet
        /// The list of keys.
        case help
        /// Half a search typed (V5).
        case prompt
        /// `s` on a number column of 1M rows: the sort runs on the runner's thread.
        case sorting
        /// `&` on 1M rows: the filter runs on the runner's thread.
        case filtering
        /// `/` on 1M rows: the search runs on the runner's thread.
        case searching
        /// `a` then `q` on 1M rows, printed to the terminal: the selection being written (V6).
        case writingSelection
        /// The same with standard output redirected to a file: written as CSV.
        case writingFile

        var testDescription: String { rawValue }

        /// Work that runs on the runner's thread while the key loop waits for keys: the view
        /// ends at once all the same, the work with it (before #28 it ran in the key loop, and
        /// without SIGHUP the view ended only once it was done).
        var working: Bool { [.sorting, .filtering, .searching].contains(self) }
        /// What the status line says while that work runs.
        var workNote: String? {
            switch self {
            case .sorting: "sorting by Amount… "
            case .filtering: "filtering name 99… "
            case .searching: "searching name 999999… "
            default: nil
            }
        }
        /// Work on a million rows is running when the terminal is lost.
        var busy: Bool { working || writing }
        var writing: Bool { self == .writingSelection || self == .writingFile }
    }

    /// An input for `state`: the file, and a pipe's writer held open while rows are loading.
    final class Input {
        let path: String
        let writer: Int32
        let temporary: URL
        /// Where standard output goes (the terminal when nil).
        let stdout: String?

        init(_ state: State) throws {
            temporary = ViewHangupTests.folder.appendingPathComponent("tmp-\(state.rawValue)-\(UInt32.random(in: 0...UInt32.max))")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            stdout = state == .writingFile ? temporary.path + ".csv" : nil
            guard state == .loading else {
                path = (state.busy ? ViewHangupTests.big : ViewHangupTests.tall).path
                writer = -1
                return
            }
            // A named pipe open at both ends here (Linux opens a FIFO read-write without
            // waiting): the view reads 50 rows, then waits for more.
            path = ViewHangupTests.folder.appendingPathComponent("rows-\(UInt32.random(in: 0...UInt32.max)).fifo").path
            guard mkfifo(path, 0o600) == 0 else { throw POSIXError(.EIO) }
            writer = open(path, O_RDWR | O_NONBLOCK)
            guard writer >= 0 else { throw POSIXError(.EIO) }
            var text = "id,name,amount\n"
            for k in 1...50 { text += "\(k),name \(k),\(k * 3).50\n" }
            _ = text.withCString { write(writer, $0, strlen($0)) }
        }

        /// What is left in the view's TMPDIR (the spool and the selection's copy must be gone).
        var leftovers: [String] { (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? ["?"] }

        deinit {
            if writer >= 0 {
                close(writer)
                unlink(path)
            }
            try? FileManager.default.removeItem(at: temporary)
            if let stdout { unlink(stdout) }
        }
    }

    /// Brings a view on `session` into `state`, up to the last key; `last` sends that key (the
    /// work it starts is then running when the terminal is lost).
    static func enter(_ state: State, _ session: Session, last: Bool = true) {
        switch state {
        case .loading:
            #expect(session.read(until: "reading"))
        case .idle:
            #expect(session.read(until: "row 1 of 200"))
            session.send("G")
            #expect(session.read(until: "row 200 of 200"))
        case .sheet:
            #expect(session.read(until: "row 1 of 200"))
            session.send("jj\r")
            #expect(session.read(until: "Esc back"))
        case .help:
            #expect(session.read(until: "row 1 of 200"))
            session.send("?")
            #expect(session.read(until: "tablefmt view — keys"))
        case .prompt:
            #expect(session.read(until: "row 1 of 200"))
            session.send("/nam")
            #expect(session.read(until: "/nam"))
        case .sorting, .filtering, .searching, .writingSelection, .writingFile:
            #expect(session.read(until: "row 1 of 1,000,000 ", seconds: ReliabilityKit.deadline(20)))  // longer under a sanitizer
            switch state {
            case .sorting:
                session.send("Gll")  // the last row, the Amount column
                #expect(session.read(until: "Amount"))
                if last { press("s", session) }
            case .filtering:
                session.send("&name 99")
                if last { press("\r", session) }
            case .searching:
                session.send("/name 999999")
                if last { press("\r", session) }
            default:
                session.send("a")
                #expect(session.read(until: "1,000,000 selected", seconds: ReliabilityKit.deadline(10)))
                if last { press("q", session) }
            }
        }
    }

    /// Types `key` and returns at once (`send` waits a while after), so the work it starts is
    /// still running when the terminal goes: a sort takes about 0.6 s here, a filter or a search
    /// of a million rows 0.15 s.
    static func press(_ key: String, _ session: Session) {
        _ = key.withCString { write(session.master, $0, strlen($0)) }
        usleep(20_000)
    }

    /// How a program ended.
    struct Ending: CustomStringConvertible {
        /// Its exit status, or 128 + the signal that ended it.
        var status: Int32
        /// Whether a signal ended it (rather than `exit`).
        var signalled: Bool
        /// Seconds from the terminal's loss to its end.
        var seconds: Double
        /// CPU seconds it used in that time.
        var cpu: Double

        var description: String { "status \(status)\(signalled ? " (signal)" : ""), \(String(format: "%.3f", seconds)) s, \(String(format: "%.3f", cpu)) s CPU" }
    }

    /// The CPU seconds (user and system) `pid` has used so far, from `/proc/<pid>/stat`.
    static func cpuSeconds(_ pid: pid_t) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // After the name: state, ppid, … utime is the 12th field and stime the 13th.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Ends the terminal of `session`'s program (`lose`), then waits for the program, up to
    /// `seconds` and another 4 for a report; the CPU it used meanwhile from its reaped rusage.
    /// - Returns: nil when it is still running then (it is killed).
    static func lose(_ session: Session, seconds: Double = 1, by lose: (Session) -> Void = { $0.closeMaster() }) -> Ending? {
        let before = cpuSeconds(session.pid) ?? 0
        let start = Date()
        lose(session)
        let deadline = start.addingTimeInterval(seconds + 4)
        var status: Int32 = 0
        var usage = rusage()
        while Date() < deadline {
            session.drain(milliseconds: 5)  // a terminal still there is read, so no write waits on it
            if wait4(session.pid, &status, WNOHANG, &usage) == session.pid {
                session.reaped = true
                let elapsed = Date().timeIntervalSince(start)
                // What it wrote between the last read and its end is still in the terminal: read it.
                session.drain(milliseconds: 50)
                let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
                    + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
                let signal = status & 0x7F
                return Ending(status: signal != 0 ? 128 + signal : (status >> 8) & 0xFF, signalled: signal != 0, seconds: elapsed, cpu: max(0, cpu - before))
            }
        }
        let spent = (cpuSeconds(session.pid) ?? 0) - before
        Issue.record("still running \(seconds + 4) s after the terminal was lost, having used \(spent) s of CPU since")
        return nil
    }

    // MARK: - The terminal hangs up: SIGHUP reaches the view

    @Test("Closed in every state, the view (the session leader, sent SIGHUP by the hang-up) is gone within a second", arguments: State.allCases)
    func closed(_ state: State) throws {
        let input = try Input(state)
        let session = try Session(["--view", "always", input.path], stdout: input.stdout, environment: ["TMPDIR": input.temporary.path])
        Self.enter(state, session)
        let ending = try #require(Self.lose(session))
        #expect(ending.seconds < 1, "\(state): \(ending)")
        #expect(ending.cpu < 0.25, "\(state): \(ending)")
        #expect(ending.status == 128 + SIGHUP, "\(state): \(ending)")
        #expect(input.leftovers.isEmpty, "\(state): \(input.leftovers)")
    }

    @Test("SIGHUP sent while the terminal is still there ends a busy view at once; the terminal is put back and the selection's copy removed",
          arguments: [State.sorting, .filtering, .searching, .writingSelection, .writingFile])
    func hangupSignal(_ state: State) throws {
        let input = try Input(state)
        let session = try Session(["--view", "always", input.path], stdout: input.stdout, environment: ["TMPDIR": input.temporary.path])
        Self.enter(state, session)
        let ending = try #require(Self.lose(session) { kill($0.pid, SIGHUP) })
        #expect(ending.seconds < 1, "\(state): \(ending)")
        #expect(ending.cpu < 0.25, "\(state): \(ending)")
        #expect(ending.status == 128 + SIGHUP, "\(state): \(ending)")
        #expect(input.leftovers.isEmpty, "\(state): \(input.leftovers)")
        #expect(session.modesRestored, "\(state)")
        #expect(session.screen.contains("\u{1B}[?1049l"), "\(state)")
    }

    // MARK: - The terminal hangs up: no SIGHUP reaches the view

    /// The view under a shell that leads the session and ignores SIGHUP: when the terminal hangs
    /// up only the session leader is sent SIGHUP, so the view hears of it only from its reads,
    /// polls and writes.
    final class Orphan {
        let session: Session
        let pid: pid_t
        let status: URL

        init(_ arguments: [String], temporary: URL, stdout: String? = nil) throws {
            let pidFile = temporary.appendingPathComponent("pid")
            status = temporary.deletingLastPathComponent().appendingPathComponent(temporary.lastPathComponent + ".status")
            let quoted = ([TestPaths.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
            // In the subshell SIGHUP is back at its default, so the view installs its handler.
            let script = "trap '' HUP; (trap - HUP; exec \(quoted)) & echo $! > '\(pidFile.path)'; wait $!; echo $? > '\(status.path)'"
            session = try Session(["-c", script], stdout: stdout, environment: ["TMPDIR": temporary.path], program: "/bin/sh")
            var found: pid_t = 0
            for _ in 0..<200 where found == 0 {
                found = (try? String(contentsOf: pidFile, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
                if found == 0 { usleep(10_000) }
            }
            pid = found
            try? FileManager.default.removeItem(at: pidFile)
        }

        deinit {
            if pid > 0 && !gone { kill(pid, SIGKILL) }
            try? FileManager.default.removeItem(at: status)
        }

        /// Whether the view is gone (or a zombie its shell is about to reap).
        var gone: Bool {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = text.lastIndex(of: ")") else { return true }
            return text[text.index(after: close)...].split(separator: " ").first == "Z"
        }

        /// Whether SIGHUP is ignored in the view (`SigIgn` in `/proc/<pid>/status`).
        var ignoresHangup: Bool {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = text.split(separator: "\n").first(where: { $0.hasPrefix("SigIgn:") }),
                  let mask = UInt64(line.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
            return mask & 1 != 0
        }

        /// Closes the master, then watches the view end: its exit status as its shell saw it.
        func lose(seconds: Double = 1) -> Ending? {
            let before = ViewHangupTests.cpuSeconds(pid) ?? 0
            var last = before
            let start = Date()
            session.closeMaster()
            let deadline = start.addingTimeInterval(seconds + 4)
            while Date() < deadline {
                if let now = ViewHangupTests.cpuSeconds(pid) { last = now }
                if gone {
                    let elapsed = Date().timeIntervalSince(start)
                    _ = session.wait(seconds: 5)
                    let code = (try? String(contentsOf: status, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? -1
                    return Ending(status: code, signalled: code > 128 && code != 129, seconds: elapsed, cpu: last - before)
                }
                usleep(5_000)
            }
            Issue.record("still running \(seconds + 4) s after the terminal was lost, having used \(last - before) s of CPU since")
            return nil
        }
    }

    @Test("Closed in every state with no SIGHUP sent to the view, its reads, polls and writes end it, exit 129; a resize just before (errno left at EINTR) changes nothing",
          arguments: State.allCases)
    func closedWithoutSignal(_ state: State) throws {
        let input = try Input(state)
        let orphan = try Orphan(["--view", "always", input.path], temporary: input.temporary, stdout: input.stdout)
        #expect(orphan.pid > 0)
        Self.enter(orphan.session, state)
        #expect(!orphan.ignoresHangup)  // so the view's handler is installed, as for the others
        // A resize: the poll it interrupts leaves errno at EINTR, what a read of 0 then found.
        kill(orphan.pid, SIGWINCH)
        if !state.busy { usleep(150_000) }
        // A sort, filter or search runs on the runner's thread while the key loop watches the
        // terminal: the view ends at once, the work with it. The selection being written is
        // watched, and ends at once.
        if let note = state.workNote { #expect(orphan.session.read(until: note, seconds: 2), "\(state): the work's progress shows") }
        let ending = try #require(orphan.lose())
        #expect(ending.seconds < 1, "\(state): \(ending)")
        #expect(ending.cpu < 0.25, "\(state): \(ending)")
        #expect(ending.status == 129, "\(state): \(ending)")
        #expect(input.leftovers.isEmpty, "\(state): \(input.leftovers)")
    }

    @Test("Started with SIGHUP ignored (nohup), the view keeps it ignored and ends by the terminal's loss instead: exit 129, not the signal",
          arguments: [State.idle, .prompt, .loading])
    func hangupIgnored(_ state: State) throws {
        let input = try Input(state)
        let quoted = "'\(TestPaths.binary.path)' --view always '\(input.path)'"
        let session = try Session(["-c", "trap '' HUP; exec \(quoted)"], environment: ["TMPDIR": input.temporary.path], program: "/bin/sh")
        Self.enter(state, session)
        let ending = try #require(Self.lose(session))
        #expect(ending.seconds < 1, "\(state): \(ending)")
        #expect(ending.cpu < 0.25, "\(state): \(ending)")
        #expect(ending.status == 129 && !ending.signalled, "\(state): \(ending)")
    }
}

extension ViewHangupTests {
    static func enter(_ session: Session, _ state: State) { enter(state, session) }

    @Test("V1/V8: SIGHUP ignored, waiting for a pipe whose writer has not begun (the view not yet open): the terminal's loss ends it, exit 129")
    func hangupIgnoredBeforeFirstRow() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-hup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("rows").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // The writer holds the pipe open and writes nothing; tablefmt waits for its first byte.
        let script = "trap '' HUP; '\(TestPaths.binary.path)' < '\(fifo)' & pid=$!; exec 3>'\(fifo)'; wait $pid"
        let session = try Session(["-c", script], program: "/bin/sh")
        usleep(800_000)
        let ending = try #require(Self.lose(session))
        #expect(ending.seconds < 1, "\(ending)")
        #expect(ending.status == 129 && !ending.signalled, "\(ending)")
    }
}
