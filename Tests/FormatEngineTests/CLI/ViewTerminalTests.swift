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

/// The release binary's view on a pseudo-terminal, end to end (V1, V6, V8): it draws, takes keys,
/// quits, writes the selection, and leaves the terminal as it found it.
@Suite("Viewer: the binary on a pseudo-terminal", .serialized)
struct ViewTerminalTests {
    /// The binary running with a pseudo-terminal as its controlling terminal.
    final class Session: WatchedChild {
        /// The terminal's master side; -1 once `closeMaster()` closed it.
        private(set) var master: Int32
        let slave: Int32
        let pid: pid_t
        /// Set once the program was waited for: its pid is no longer its own.
        var reaped = false
        private(set) var screen = ""
        let before: termios

        /// Starts `tablefmt arguments` on a `width` × `height` terminal; standard output goes to
        /// the terminal, or to the file `stdout` when given.
        init(_ arguments: [String], width: Int = 80, height: Int = 20, stdout: String? = nil, environment: [String: String] = [:], program: String? = nil) throws {
            var m: Int32 = 0, s: Int32 = 0
            var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
            guard openpty(&m, &s, nil, nil, &size) == 0 else { throw POSIXError(.EIO) }
            // Not inherited by programs other tests start meanwhile: closing the master must
            // hang the terminal up.
            _ = fcntl(m, F_SETFD, FD_CLOEXEC)
            _ = fcntl(s, F_SETFD, FD_CLOEXEC)
            master = m
            slave = s
            var modes = termios()
            tcgetattr(s, &modes)
            before = modes
            // `ttyname_r`: `ttyname`'s one static buffer is shared by the tests that start
            // terminals at the same time (a name cut short there was once a directory, EISDIR).
            var name = [CChar](repeating: 0, count: 256)
            guard ttyname_r(s, &name, name.count) == 0 else { throw POSIXError(.EIO) }
            let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            // In a new session, the first terminal opened becomes the controlling one (/dev/tty).
            posix_spawn_file_actions_addopen(&actions, 0, path, O_RDWR, 0)
            if let stdout {
                posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            } else {
                posix_spawn_file_actions_adddup2(&actions, 0, 1)
            }
            posix_spawn_file_actions_adddup2(&actions, 0, 2)
            posix_spawn_file_actions_addclose(&actions, m)
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            #if os(Linux)
            let setsid: Int16 = 0x80  // POSIX_SPAWN_SETSID (glibc)
            #else
            let setsid: Int16 = 0x0400  // POSIX_SPAWN_SETSID (Darwin)
            #endif
            // A new session, every signal unblocked and at its default (the test runner's own
            // mask and dispositions are not the program's).
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            var all = sigset_t()
            sigfillset(&all)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setflags(&attributes, setsid | Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            let binary = program ?? TestPaths.binary.path
            let argv = ([binary] + arguments).map { strdup($0) } + [nil]
            let env = ["PATH": "/usr/bin:/bin", "TERM": "xterm-256color"].merging(environment) { $1 }.map { "\($0)=\($1)" }
            let envp = env.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
            var child: pid_t = 0
            let status = posix_spawn(&child, binary, &actions, &attributes, argv, envp)
            guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
            pid = child
            _ = fcntl(m, F_SETFL, fcntl(m, F_GETFL) | O_NONBLOCK)
        }

        deinit {
            if !reaped {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                waitpid(pid, &status, WNOHANG)
            }
            closeMaster()
            close(slave)
        }

        /// Closes the master side, as a terminal window closing does: the terminal hangs up.
        func closeMaster() {
            guard master >= 0 else { return }
            close(master)
            master = -1
        }

        /// Reads what the program wrote until `text` appears (true) or `seconds` pass (false);
        /// with `after`, only in what came after the first `after` bytes (`received` then).
        @discardableResult
        func read(until text: String, after: Int = 0, seconds: Double = 10) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            func seen() -> Bool { String(decoding: screen.utf8.dropFirst(after), as: UTF8.self).contains(text) }
            while Date() < deadline {
                if seen() { return true }
                drain(milliseconds: 50)
            }
            return seen()
        }

        func drain(milliseconds: Int32) {
            var request = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, milliseconds) > 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let n = systemRead(master, into: &buffer)
            if n > 0 { screen += String(decoding: buffer[0..<n], as: UTF8.self) }
        }

        func send(_ text: String) {
            _ = Array(text.utf8).withUnsafeBytes { systemWrite(master, from: $0) }
            usleep(60_000)
        }

        /// Bytes read so far (`WatchedChild.wait` reads until no more come).
        var received: Int { screen.utf8.count }

        /// Whether the terminal's modes are as they were before the program started.
        var modesRestored: Bool {
            var now = termios()
            tcgetattr(slave, &now)
            return now.c_lflag == before.c_lflag && now.c_iflag == before.c_iflag && now.c_oflag == before.c_oflag
        }
    }

    /// A table taller than the screen: 200 rows.
    static func tallFile() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-view-\(getpid())-tall.csv")
        var text = "id,name,amount\n"
        for k in 1...200 { text += "\(k),name \(k),\(k * 3).50\n" }
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test("V1/V8: auto opens the view for a table taller than the screen; q leaves the alternate screen and the modes as they were")
    func opensAndQuits() throws {
        let file = try Self.tallFile()
        let session = try Session([file.path])
        #expect(session.read(until: "row 1 of 200"))
        #expect(session.screen.contains("\u{1B}[?1049h"))  // the alternate screen
        #expect(session.screen.contains("\u{1B}[?25l"))  // no cursor
        #expect(session.screen.contains("Amount"))
        #expect(!session.modesRestored)  // raw mode while it runs
        session.send("G")
        #expect(session.read(until: "row 200 of 200"))
        session.send("q")
        #expect(session.wait() == 0)
        #expect(session.screen.contains("\u{1B}[?1049l"))
        #expect(session.screen.hasSuffix("\u{1B}[?1049l"))  // nothing written after: nothing was selected
        #expect(session.modesRestored)
    }

    @Test("V6: the selected rows are printed as a table after the screen is restored")
    func selectionPrinted() throws {
        let file = try Self.tallFile()
        let session = try Session([file.path])
        #expect(session.read(until: "row 1 of 200"))
        session.send("jj ")  // row 3 checked, the cursor on row 4
        session.send(" ")  // row 4 checked
        #expect(session.read(until: "2 selected"))
        session.send("q")
        #expect(session.wait() == 0)
        let after = session.screen.components(separatedBy: "\u{1B}[?1049l").last ?? ""
        let lines = after.replacing(/\x{1B}\[[0-9;]*m/, with: "").split(separator: "\r\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.first?.contains("Name") == true)
        #expect(lines.last?.hasSuffix("name 4   12.50") == true, "\(lines)")
        #expect(session.modesRestored)
    }

    @Test("V1/V6: --view always with standard output redirected draws on the terminal and writes the selection as CSV")
    func alwaysWritesCSV() throws {
        let file = try Self.tallFile()
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-view-\(getpid())-picked.csv")
        let session = try Session(["--view", "always", file.path], stdout: out.path)
        #expect(session.read(until: "row 1 of 200"))
        session.send("/name 150\r")
        #expect(session.read(until: "row 150 of 200"))
        session.send(" ")
        session.send("g ")
        #expect(session.read(until: "2 selected"))
        session.send("q")
        #expect(session.wait() == 0)
        #expect(try String(contentsOf: out, encoding: .utf8) == "id,name,amount\r\n1,name 1,3.50\r\n150,name 150,450.50\r\n")
        #expect(session.modesRestored)
    }

    @Test("V6/V8: Ctrl-C leaves without writing, exit 130; a signal or a crash restores the terminal too")
    func interrupted() throws {
        let file = try Self.tallFile()
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-view-\(getpid())-none.csv")
        let session = try Session(["--view", "always", file.path], stdout: out.path)
        #expect(session.read(until: "row 1 of 200"))
        session.send(" ")
        session.send("\u{03}")
        #expect(session.wait() == 130)
        #expect(try String(contentsOf: out, encoding: .utf8).isEmpty)
        #expect(session.modesRestored)

        // Ended by a signal — asked to (TERM, HUP) or crashing (SEGV, ABRT, ILL: what a Swift trap
        // raises) — it puts the terminal back first, then ends by that signal.
        for number in [SIGTERM, SIGHUP, SIGSEGV, SIGABRT, SIGILL] {
            let killed = try Session([file.path])
            #expect(killed.read(until: "row 1 of 200"))
            kill(killed.pid, number)
            #expect(killed.wait() == 128 + number, "signal \(number)")
            #expect(killed.screen.hasSuffix("\u{1B}[?1049l"), "signal \(number)")
            #expect(killed.modesRestored, "signal \(number)")
        }
    }

    @Test("V1: a table that fits the screen is printed as without the view; --view never, TABLEFMT_VIEW=never and TERM=dumb print")
    func fitsIsPrinted() throws {
        // At 120 columns every column of orders.csv fits (at 80 one is left out: the view opens).
        let small = try runTool(["--view", "never", "-w", "120", "--color", "always", TestPaths.fixtures.appendingPathComponent("examples/orders.csv").path])
        let session = try Session([TestPaths.fixtures.appendingPathComponent("examples/orders.csv").path], width: 120, height: 40)
        #expect(session.wait() == 0)
        #expect(!session.screen.contains("\u{1B}[?1049h"))
        #expect(session.screen.replacing("\r\n", with: "\n") == small.out)
        let file = try Self.tallFile()
        let never = try Session([file.path], environment: ["TABLEFMT_VIEW": "never"])
        #expect(never.wait() == 0)
        #expect(!never.screen.contains("\u{1B}[?1049h") && never.screen.contains("name 200"))
        // A terminal that cannot place the cursor gets the printed table.
        let dumb = try Session([file.path], environment: ["TERM": "dumb"])
        #expect(dumb.wait() == 0)
        #expect(!dumb.screen.contains("\u{1B}[?1049h") && dumb.screen.contains("name 200"))
    }

    @Test("V1: curl … | tablefmt — rows from a pipe, keys from the terminal")
    func pipeInput() throws {
        let file = try Self.tallFile()
        let session = try Session(["-c", "cat '\(file.path)' | '\(TestPaths.binary.path)'"], program: "/bin/sh")
        #expect(session.read(until: "row 1 of 200"))
        session.send("G")
        #expect(session.read(until: "row 200 of 200"))
        session.send("q")
        #expect(session.wait() == 0)
        #expect(session.modesRestored)
    }

    @Test("V8: a new terminal size lays the view out again")
    func resize() throws {
        let file = try Self.tallFile()
        let session = try Session([file.path], width: 80, height: 20)
        #expect(session.read(until: "row 1 of 200"))
        var size = winsize(ws_row: 10, ws_col: 50, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(session.master, UInt(TIOCSWINSZ), &size)
        kill(session.pid, SIGWINCH)
        // The status line is drawn on line 10 now, and fits 50 columns.
        #expect(session.read(until: "\u{1B}[10;1H\u{1B}[0m\u{1B}[2K\u{1B}[7mrow 1 of 200"))
        session.send("q")
        #expect(session.wait() == 0)
        #expect(session.modesRestored)
    }

    /// An interactive bash on an 80 × 20 terminal, at its first prompt (`prompt$ `): job control,
    /// and keys typed the way a person types them at a shell.
    static func interactiveShell() throws -> Session {
        let shell = try Session(["--norc", "--noprofile", "-i"], width: 80, height: 20, environment: ["PS1": "prompt$ "], program: "/bin/bash")
        #expect(shell.read(until: "prompt$ "))
        return shell
    }

    /// Ctrl-Z needs a shell with job control (a process group that is not orphaned): an
    /// interactive bash on the terminal runs the view, then `stty -g` compares the modes.
    @Test("V8: Ctrl-Z restores the terminal and stops the view; fg draws it again and takes a key typed right after it; the modes are the same throughout",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
    func suspend() throws {
        let file = try Self.tallFile()
        let shell = try Self.interactiveShell()
        shell.send("stty -g > /tmp/tablefmt-stty-\(getpid()).a; '\(TestPaths.binary.path)' '\(file.path)'\r")
        #expect(shell.read(until: "row 1 of 200"))
        var mark = shell.received
        shell.send("\u{1A}")
        #expect(shell.read(until: "Stopped", after: mark))
        mark = shell.received
        // `G` typed right after `fg`, before the view has raw mode back: kept for the view, which
        // draws its screen again (not the one from before Ctrl-Z) and goes to the last row.
        shell.send("stty -g > /tmp/tablefmt-stty-\(getpid()).b; fg\rG")
        #expect(shell.read(until: "\u{1B}[?1049h", after: mark, seconds: 5))
        #expect(shell.read(until: "row 200 of 200", after: mark))
        shell.send("q")
        shell.send("echo status=$?; stty -g | cmp -s - /tmp/tablefmt-stty-\(getpid()).a && cmp -s /tmp/tablefmt-stty-\(getpid()).a /tmp/tablefmt-stty-\(getpid()).b && echo modes-same; exit\r")
        #expect(shell.read(until: "modes-same"))
        #expect(shell.screen.contains("status=0"))
        _ = shell.wait()
        for suffix in ["a", "b"] { try? FileManager.default.removeItem(atPath: "/tmp/tablefmt-stty-\(getpid()).\(suffix)") }
    }

    /// A key typed in the same write as the command, before the view has taken the terminal.
    @Test("V8: a key typed before the view has the terminal is kept for it: its first key",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
    func typedBeforeStart() throws {
        let file = try Self.tallFile()
        let shell = try Self.interactiveShell()
        let mark = shell.received
        shell.send("'\(TestPaths.binary.path)' '\(file.path)'\rG")
        #expect(shell.read(until: "row 200 of 200", after: mark))
        shell.send("q")
        shell.send("echo status=$?; exit\r")
        #expect(shell.read(until: "status=0"))
        _ = shell.wait()
    }

    /// Keys typed while a slow pipe has not yet given its rows: not echoed, and the view's.
    @Test("V8/V1: a key typed while the rows are still coming (a pipe that starts late) is not echoed onto the screen, and is the view's first key",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
    func typedWhileWaiting() throws {
        let shell = try Self.interactiveShell()
        let mark = shell.received
        shell.send("(sleep 1.5; echo id,name; seq 1 100 | sed 's/.*/&,zq&x/'; sleep 3) | '\(TestPaths.binary.path)'\r")
        for _ in 0..<12 { shell.drain(milliseconds: 50) }  // the command's own echo read
        let typed = shell.received
        shell.send("G")  // the last row: kept there (following) however many rows are read by then
        for _ in 0..<8 { shell.drain(milliseconds: 50) }
        // Nothing of the key on the screen while the view gets ready.
        let meanwhile = String(decoding: Array(shell.screen.utf8).dropFirst(typed), as: UTF8.self)
        #expect(!meanwhile.contains("G"), "\(meanwhile)")
        #expect(shell.read(until: "row 100 of 100", after: mark))
        shell.send("q")
        shell.send("echo status=$?; exit\r")  // once the writer's last sleep is over
        #expect(shell.read(until: "status=0", seconds: 15))
        _ = shell.wait()
    }

    @Test("V8: every fixture opens in the view, takes every kind of key, and leaves the terminal as it found it")
    func everyFixture() throws {
        let inputs = TestPaths.files(in: TestPaths.fixtures.appendingPathComponent("cases")).filter { $0.lastPathComponent.hasPrefix("input.") }
            + TestPaths.files(in: TestPaths.fixtures.appendingPathComponent("examples"))
        #expect(inputs.count > 30)
        let keys = ["j", "l", "$", "0", "G", "g", "s", "s", ">", "<", "=", "\r", "\u{1B}[B", "\u{1B}", "/a\r", "n", "N", "&e\r", "&\r", " ", "a", "A", "F2", "?", "x", "\u{1B}[<0;3;1M", "\u{1B}[6~"]
        for input in inputs {
            let session = try Session(["--view", "always", input.path], width: 70, height: 15)
            // A file with a data error still opens on the rows before it; an empty one prints nothing.
            // The status line ends in "? keys", or, when a message fills it, "M: all of it".
            _ = session.read(until: "? keys", seconds: 3)
            if session.screen.contains("? keys") || session.screen.contains("M: all of it") {
                // In three bursts, as a fast typist or a paste sends them.
                for part in 0..<3 { session.send(keys[(part * keys.count / 3)..<((part + 1) * keys.count / 3)].joined()) }
                session.send("q")
            }
            let status = session.wait()
            #expect(status.map { [0, 65, 74].contains($0) } == true, "\(input.path): \(String(describing: status))")
            #expect(session.modesRestored, "\(input.path)")
            if session.screen.contains("\u{1B}[?1049h") { #expect(session.screen.contains("\u{1B}[?1049l"), "\(input.path)") }
        }
    }

    @Test("V1: with rows typed at the terminal, auto prints as it comes and always is refused (its keys come from there too)")
    func terminalInput() throws {
        let typed = try Session([], width: 80, height: 20)
        typed.send("a,b\r1,2\r\u{04}")
        #expect(typed.wait() == 0)
        #expect(!typed.screen.contains("\u{1B}[?1049h"))
        #expect(typed.screen.replacing(/\x{1B}\[[0-9;]*m/, with: "").contains("A  B\r\n─  ─\r\n1  2"))
        let always = try Session(["--view", "always"], width: 80, height: 20)
        #expect(always.wait() == 64)
        #expect(always.screen.contains("--view always reads its keys from the terminal"))
        #expect(always.modesRestored)
    }

    @Test("V3/P2: a text sort past --memory-limit that cannot make its temporary files says so in the status line and leaves the order as it was")
    func textSortWithoutTemporarySpace() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-view-sort-\(getpid()).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        // About 2 MB of names: their sort values pass a 1 MB budget.
        var text = "id,name\n"
        for k in 1...20_000 { text += "\(k),customer name number \(20_000 - k) of many\n" }
        try text.write(to: url, atomically: true, encoding: .utf8)
        // The folder is there when the view opens and gone by the sort.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-view-sort-tmp-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let session = try Session(["--memory-limit", "1M", url.path], width: 200, environment: ["TMPDIR": dir.path])
        #expect(session.read(until: "row 1 of 20,000 "))
        try FileManager.default.removeItem(at: dir)
        session.send("l")
        session.send("s")
        // The folder named, as the command line names it, and what to do.
        #expect(session.read(until: "cannot sort: \(dir.path): cannot make a temporary file"))
        #expect(session.read(until: "(set TMPDIR"))
        #expect(!session.screen.contains("sort: Name"))
        session.send("q")
        #expect(session.wait() == 0)
    }

    @Test("V7: a CSV file read in place needs no temporary file (it opens with TMPDIR unwritable); a pipe or a JSON file, spooled, ends with status 74 and says where")
    func temporaryFileOnlyWhenSpooled() throws {
        let missing = ["TMPDIR": "/nonexistent-tablefmt-tmp"]
        let file = try Self.tallFile()
        let inPlace = try Session([file.path], environment: missing)
        #expect(inPlace.read(until: "row 1 of 200"))
        inPlace.send("q")
        #expect(inPlace.wait() == 0)
        #expect(!inPlace.screen.contains("temporary file"))
        let piped = try Session(["-c", "cat '\(file.path)' | '\(TestPaths.binary.path)'"], environment: missing, program: "/bin/sh")
        #expect(piped.wait() == 74)
        #expect(piped.screen.contains("cannot make a temporary file in /nonexistent-tablefmt-tmp"))
        #expect(!piped.screen.contains("\u{1B}[?1049h"))  // the view never opened
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-view-\(getpid())-tall.json")
        defer { try? FileManager.default.removeItem(at: json) }
        try (1...200).map { "{\"id\": \($0), \"name\": \"name \($0)\"}" }.joined(separator: "\n").write(to: json, atomically: true, encoding: .utf8)
        let spooled = try Session([json.path], environment: missing)
        #expect(spooled.wait() == 74)
        #expect(spooled.screen.contains("cannot make a temporary file in /nonexistent-tablefmt-tmp"))
        #expect(!spooled.screen.contains("\u{1B}[?1049h"))
        // Rows that stop coming before a screen is full (the writer holds the pipe open): the spool
        // is made before the first row is waited for, so the run still ends at once.
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-view-\(getpid())-fifo").path
        defer { unlink(fifo) }
        let script = "'\(TestPaths.binary.path)' --view always < '\(fifo)' & pid=$!; exec 3>'\(fifo)'; printf 'a,b\\n1,2\\n3,4\\n' >&3; wait $pid; status=$?; exec 3>&-; exit $status"
        #expect(mkfifo(fifo, 0o600) == 0)
        let paused = try Session(["-c", script], environment: missing, program: "/bin/sh")
        #expect(paused.wait(seconds: 15) == 74)
        #expect(paused.screen.contains("cannot make a temporary file in /nonexistent-tablefmt-tmp"))
        #expect(!paused.screen.contains("\u{1B}[?1049h"))
    }

    @Test("V7: the spool leaves no file in TMPDIR")
    func noTemporaryFileLeft() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-view-tmp-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = try Self.tallFile()
        let session = try Session([file.path], environment: ["TMPDIR": dir.path])
        #expect(session.read(until: "row 1 of 200"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        session.send("q")
        #expect(session.wait() == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
