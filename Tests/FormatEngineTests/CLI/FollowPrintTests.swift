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

/// A program a test started and reads the output of as it comes.
protocol WatchedChild: AnyObject {
    var pid: pid_t { get }
    var reaped: Bool { get set }
    /// Reads what came, waiting up to `milliseconds` for it.
    func drain(milliseconds: Int32)
    /// How much has been read so far.
    var received: Int { get }
}

extension WatchedChild {
    /// Waits for the program to end, reading its output meanwhile and then all it wrote before it
    /// ended. - Returns: its exit status, or 128 + the signal; nil when still running after `seconds`.
    func wait(seconds: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        var status: Int32 = 0
        while Date() < deadline {
            drain(milliseconds: 20)
            if waitpid(pid, &status, WNOHANG) == pid {
                reaped = true
                var last = -1
                while received != last {
                    last = received
                    drain(milliseconds: 50)
                }
                return ReliabilityKit.shellStatus(status)
            }
        }
        return nil
    }
}

/// `--follow` printed, end to end (I10, P5): the release binary follows a file or a pipe that a
/// writer here pauses on, appends to, truncates and rotates; its output is read as it comes.
@Suite("CLI: --follow printed", .serialized)
struct FollowPrintTests {
    /// The binary running with its standard output on a pipe this test reads as it comes.
    final class Follower: WatchedChild {
        let pid: pid_t
        private let out: Int32
        /// The input pipe's write end (-1: the input is a file).
        let input: Int32
        let errPath: String
        private(set) var output = ""
        /// When each output line was first read (`ViewLoader.milliseconds()`).
        private(set) var lineTimes: [(line: String, at: Int)] = []
        private var partial = ""
        var reaped = false

        /// Starts `tablefmt arguments`, its standard input a pipe when `pipeInput`, else the file
        /// `stdin` (/dev/null when nil).
        init(_ arguments: [String], pipeInput: Bool = false, stdin: String? = nil) throws {
            var outEnds: [Int32] = [-1, -1], inEnds: [Int32] = [-1, -1]
            guard pipe(&outEnds) == 0, !pipeInput || pipe(&inEnds) == 0 else { throw POSIXError(.EIO) }
            errPath = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-follow-err-\(UUID().uuidString)").path
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            if pipeInput {
                posix_spawn_file_actions_adddup2(&actions, inEnds[0], 0)
                posix_spawn_file_actions_addclose(&actions, inEnds[1])
            } else {
                posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
            }
            posix_spawn_file_actions_adddup2(&actions, outEnds[1], 1)
            posix_spawn_file_actions_addclose(&actions, outEnds[0])
            posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            ReliabilityKit.signalsAtDefault(&attributes)
            let binary = TestPaths.binary.path
            let argv = ([binary] + arguments).map { strdup($0) } + [nil]
            let envp = [strdup("PATH=/usr/bin:/bin"), strdup("SWIFT_BACKTRACE=enable=no"), nil]
            defer { (argv + envp).forEach { free($0) } }
            var child: pid_t = 0
            let status = posix_spawn(&child, binary, &actions, &attributes, argv, envp)
            close(outEnds[1])
            if pipeInput { close(inEnds[0]) }
            guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
            pid = child
            out = outEnds[0]
            input = pipeInput ? inEnds[1] : -1
            _ = fcntl(out, F_SETFL, fcntl(out, F_GETFL) | O_NONBLOCK)
        }

        deinit {
            if !reaped {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                waitpid(pid, &status, 0)
            }
            close(out)
            if input >= 0 { close(input) }
            unlink(errPath)
        }

        /// Reads what came, waiting up to `milliseconds` for the first byte.
        func drain(milliseconds: Int32) {
            var request = pollfd(fd: out, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, milliseconds) > 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(out, $0.baseAddress, $0.count) }
                guard n > 0 else { return }
                let text = String(decoding: buffer[0..<n], as: UTF8.self)
                output += text
                let now = ViewLoader.milliseconds()
                partial += text
                while let newline = partial.firstIndex(of: "\n") {
                    lineTimes.append((String(partial[..<newline]), now))
                    partial = String(partial[partial.index(after: newline)...])
                }
            }
        }

        /// Reads until `text` is in the output (true) or `seconds` pass.
        @discardableResult
        func read(until text: String, seconds: Double = 10) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline && !output.contains(text) { drain(milliseconds: 20) }
            return output.contains(text)
        }

        /// Reads until the table has `count` rows (true) or `seconds` pass.
        @discardableResult
        func read(rows count: Int, seconds: Double = 10) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline && FollowPrintTests.rows(output).count < count { drain(milliseconds: 20) }
            return FollowPrintTests.rows(output).count >= count
        }

        /// Forgets the output read so far but its last line (a fast writer's output is not kept).
        func clear() {
            if let last = output.split(separator: "\n").last { output = String(last) }
        }

        /// When the line starting `prefix` was read, if it was.
        func time(of prefix: String) -> Int? { lineTimes.first { $0.line.hasPrefix(prefix) }?.at }

        /// Writes `text` to the input pipe.
        func send(_ text: String) {
            _ = text.withCString { write(input, $0, strlen($0)) }
        }

        /// SIGINT, then the exit status (nil: still running after `seconds`).
        func interrupt(seconds: Double = 10) -> Int32? {
            kill(pid, SIGINT)
            return wait(seconds: seconds)
        }

        var received: Int { output.utf8.count }

        var errors: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

        /// CPU time used so far, in clock ticks (`/proc/PID/stat`: user + system).
        var cpuTicks: Int {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = text.lastIndex(of: ")") else { return 0 }
            let fields = text[text.index(after: close)...].split(separator: " ")
            // After the name: state is field 3, utime 14 and stime 15 (1-based) → 11 and 12 here.
            guard fields.count > 12 else { return 0 }
            return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
        }
    }

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-follow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func append(_ text: String, to path: String) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
    }

    /// The data lines of a printed table: the lines after the rule, spaces squeezed.
    static func rows(_ output: String) -> [String] {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let rule = lines.firstIndex(where: { $0.hasPrefix("─") }) else { return [] }
        return lines[(rule + 1)...].filter { !$0.isEmpty }.map { $0.split(separator: " ").joined(separator: " ") }
    }

    @Test("I10/P5: a file appended to, a partial line, truncated, rotated: every row once, in order; news on stderr; Ctrl-C ends it, exit 0")
    func fileAppendTruncateRotate() throws {
        let dir = try Self.folder()
        let path = dir.appendingPathComponent("log.csv").path
        try "name,qty\na,1\nb,22\n".write(toFile: path, atomically: false, encoding: .utf8)
        let run = try Follower(["--follow", "--view", "never", path])
        #expect(run.read(rows: 2))
        Self.append("c,333\n", to: path)
        #expect(run.read(rows: 3))
        Self.append("d,4", to: path)  // a line without its line feed waits for it
        run.drain(milliseconds: 400)
        #expect(!run.output.contains("d "))
        Self.append("4\n", to: path)
        #expect(run.read(rows: 4))
        // Rotated: renamed away (a last line left without its line feed), created again with
        // its header, which is not a row.
        Self.append("e,5", to: path)
        rename(path, path + ".1")
        try "name,qty\nf,6\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(run.read(rows: 6))
        // Truncated and written again from its start.
        truncate(path, 0)
        usleep(300_000)
        Self.append("g,7\n", to: path)
        #expect(run.read(rows: 7))
        #expect(run.interrupt() == 0)
        #expect(Self.rows(run.output) == ["a 1", "b 22", "c 333", "d 44", "e 5", "f 6", "g 7"])
        #expect(run.output.hasSuffix("\n"))
        #expect(run.errors.contains("log.csv was replaced: read from the new file's start"))
        #expect(run.errors.contains("log.csv was truncated: read from its start"))
        try? FileManager.default.removeItem(at: dir)
    }

    @Test("I10: a file that does not exist yet is waited for, as tail -F does (said on stderr), then followed; Ctrl-C before it comes: no rows, exit 0")
    func fileNotThereYet() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("later.csv").path
        let run = try Follower(["--follow", "--view", "never", path])
        run.drain(milliseconds: 600)
        #expect(run.output.isEmpty)
        try "name,qty\na,1\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(run.read(rows: 1))
        Self.append("b,2\n", to: path)
        #expect(run.read(rows: 2))
        #expect(run.interrupt() == 0)
        #expect(Self.rows(run.output) == ["a 1", "b 2"])
        #expect(run.errors.contains("later.csv does not exist yet: waiting for it to be created"))
        #expect(run.errors.contains("later.csv was created: read from its start"))

        let never = try Follower(["--follow", "--view", "never", dir.appendingPathComponent("never.csv").path])
        never.drain(milliseconds: 400)
        #expect(never.interrupt() == 0)
        #expect(never.errors.contains("never.csv does not exist yet"))
        // Only a missing file is waited for: one that cannot be read is an error at once.
        let denied = try Follower(["--follow", "--view", "never", dir.path + "/later.csv/x"])
        #expect(denied.wait() == 66)
    }

    @Test("P5: printed follow's notes: how many rows sized the columns, no --window all (it waits for an end a follow never has); a 1-wide column shows a cut value's first character; a wider number is drawn whole and said; extra fields said once, as not shown")
    func followNotes() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("notes.csv").path
        try "id,qty,f\n1,5,a\n2,7,b\n".write(toFile: path, atomically: false, encoding: .utf8)
        let run = try Follower(["--follow", "--view", "never", "--width", "100", path])
        #expect(run.read(rows: 2))
        usleep(400_000)
        Self.append("3,12345678,c\n4,1,abcdef\n5,2,x,extra\n", to: path)
        #expect(run.read(rows: 5))
        #expect(run.interrupt() == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix(" 4") && $0.hasSuffix("a…") }, "\(lines)")
        #expect(lines.contains { $0.contains("12345678") }, "\(lines)")
        #expect(run.output.contains("1 cell was cut to the widths of the first 2 rows\n"), "\(run.output)")
        #expect(run.output.contains("1 cell was wider than the first 2 rows and drawn whole: its row is wider"), "\(run.output)")
        #expect(!run.output.contains("--window") && !run.errors.contains("--window"), "\(run.output)\(run.errors)")
        #expect(run.errors.contains("1 row read after sizing had more fields than the columns shown (first on line 6); the extra fields are not shown"), "\(run.errors)")
        #expect(!run.errors.contains("shown as Column N"), "\(run.errors)")
    }

    /// What a generated writer does to the followed file before a row.
    enum WriterEvent: CaseIterable {
        /// Renamed away, created again with its header (logrotate's `create`).
        case rotate
        /// Copied aside, then cut to nothing (logrotate's `copytruncate`); the writer appends on.
        case copyTruncate
        /// Cut and written again from its start, its header first.
        case rewrite
        /// Renamed away and created again with its header, the writer writing its next rows to
        /// the old file still (it reopens the name later).
        case rotateLate
    }

    @Test("I10/P5: generated writers (1 to 1,000 rows a second, rotations, copytruncates and rewrites at random rows): every row printed once, in order", arguments: 0..<6)
    func generatedWriters(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(0xF011 + seed))
        let rate = [1000, 300, 50, 8, 600, 20][seed]
        let total = min(400, max(12, rate * 2))
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("gen.csv").path
        // Fixed-width values: the first rows' widths fit every later row (nothing cut).
        func row(_ k: Int) -> String { "\(k),v\(String(format: "%05d", k))\n" }
        try ("id,value\n" + row(1)).write(toFile: path, atomically: false, encoding: .utf8)
        let run = try Follower(["--follow", "--view", "never", path])
        #expect(run.read(rows: 1))
        var events: [Int: WriterEvent] = [:]
        for _ in 0..<(1 + random.below(3)) { events[2 + random.below(total - 2)] = WriterEvent.allCases[random.below(WriterEvent.allCases.count)] }
        // Every kind happens in some run, whatever the draws.
        events[total / 2] = WriterEvent.allCases[seed % WriterEvent.allCases.count]
        var old: Int32 = -1  // the writer's descriptor of the renamed file, while it still writes there
        var oldRows = 0
        for k in 2...total {
            switch events[k] {
            case .rotateLate?:
                if old < 0 { old = open(path, O_WRONLY | O_APPEND) }
                oldRows = 3
                rename(path, path + ".\(k)")
                Self.append("id,value\n", to: path)
            case .rotate?:
                rename(path, path + ".\(k)")
                Self.append("id,value\n", to: path)
            case .copyTruncate?, .rewrite?:
                if old >= 0 { close(old); old = -1 }
                // Rows written before the cut are read before it (else no reader can have them).
                #expect(run.read(rows: k - 1), "seed \(seed): before row \(k)")
                usleep(100_000)
                if events[k] == .copyTruncate {
                    _ = try? FileManager.default.copyItem(atPath: path, toPath: path + ".\(k)")
                    truncate(path, 0)
                } else {
                    truncate(path, 0)
                    usleep(50_000)
                    Self.append("id,value\n", to: path)
                }
            case nil: break
            }
            if old >= 0 && oldRows > 0 {
                _ = row(k).withCString { write(old, $0, strlen($0)) }
                oldRows -= 1
                if oldRows == 0 { close(old); old = -1 }
            } else {
                Self.append(row(k), to: path)
            }
            usleep(useconds_t(1_000_000 / rate))
        }
        #expect(run.read(rows: total, seconds: 15), "seed \(seed)")
        #expect(run.interrupt() == 0)
        let expected = (1...total).map { "\($0) v\(String(format: "%05d", $0))" }
        let printed = Self.rows(run.output).filter { $0.range(of: #"^\d+ v\d{5}$"#, options: .regularExpression) != nil }  // the notes left out
        let first = expected.indices.first { $0 >= printed.count || printed[$0] != expected[$0] }
        #expect(printed.count == total && first == nil,
                "seed \(seed) rate \(rate) events \(events): \(printed.count) rows, first wrong at \(first.map { "\($0): \($0 < printed.count ? printed[$0] : "none")" } ?? "-"); \(run.errors)")
    }

    @Test("I10: `--follow < file`: standard input that is a regular file is followed (appended rows read), not read to its end and left")
    func standardInputFile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("app.csv").path
        try "name,qty\na,1\n".write(toFile: path, atomically: false, encoding: .utf8)
        let run = try Follower(["--follow", "--view", "never"], stdin: path)
        #expect(run.read(rows: 1))
        usleep(300_000)
        Self.append("b,2\n", to: path)
        #expect(run.read(rows: 2))
        #expect(run.interrupt() == 0)
        #expect(Self.rows(run.output) == ["a 1", "b 2"])
    }

    @Test("P5: rows from a pipe that pauses are printed within 100 ms of their line (median), in the first rows' widths; Ctrl-C ends it, exit 0")
    func pipeLatency() throws {
        let run = try Follower(["--follow", "--view", "never"], pipeInput: true)
        run.send("name,note\nfirst,short\n")
        #expect(run.read(until: "first"))
        var latencies: [Int] = []
        for k in 0..<20 {
            let sent = ViewLoader.milliseconds()
            run.send("row\(k),\(k == 7 ? "a much longer note than the window had" : "n\(k)")\n")
            #expect(run.read(until: "row\(k) ", seconds: 5))
            if let at = run.time(of: "row\(k) ") { latencies.append(at - sent) }
            usleep(30_000)
        }
        latencies.sort()
        #expect(latencies.count == 20)
        #expect(latencies[latencies.count / 2] < 100, "latencies \(latencies)")
        #expect(run.interrupt() == 0)
        // The later wider note is cut to the column the first rows set, never breaking alignment.
        let lines = run.output.split(separator: "\n").map(String.init)
        let row7 = try #require(lines.first { $0.hasPrefix("row7 ") })
        let first = try #require(lines.first { $0.hasPrefix("first ") })
        #expect(row7 == "row7   a mu…" && row7.count == first.count)
        #expect(run.output.contains("cut to the widths of the first"))
    }

    @Test("P4/P5: JSON Lines from a pipe that pauses are printed as they come (the line break a value leaves is no row waiting)")
    func jsonLinesStream() throws {
        for arguments in [["--follow", "--view", "never"], ["--view", "never"]] {
            let run = try Follower(arguments, pipeInput: true)
            run.send("{\"name\":\"first\",\"qty\":1}\n")
            #expect(run.read(until: "first", seconds: 3), "\(arguments)")
            run.send("{\"name\":\"sec\",\"qty\":22}\n")
            #expect(run.read(until: "sec ", seconds: 3), "\(arguments)")
            #expect(run.interrupt() == (arguments.contains("--follow") ? 0 : 130))
        }
    }

    @Test("P5: a list report and Markdown follow too")
    func otherReports() throws {
        for (arguments, first, later) in [(["--list-report"], "a\nQty  1\n", "b\nQty  2\n"), (["-f", "markdown"], "| a | 1 |\n", "| b | 2 |\n")] {
            let run = try Follower(["--follow", "--view", "never"] + arguments, pipeInput: true)
            run.send("name,qty\na,1\n")
            #expect(run.read(until: first), "\(arguments)")
            run.send("b,2\n")
            #expect(run.read(until: later), "\(arguments)")
            #expect(run.interrupt() == 0)
        }
    }

    @Test("I10: following an idle file costs no CPU to speak of (under 1% over 3 s)")
    func idleCPU() throws {
        let dir = try Self.folder()
        let path = dir.appendingPathComponent("idle.csv").path
        try "a,b\n1,2\n".write(toFile: path, atomically: false, encoding: .utf8)
        let run = try Follower(["--follow", "--view", "never", path])
        #expect(run.read(until: "1"))
        usleep(300_000)
        let before = run.cpuTicks
        usleep(3_000_000)
        let used = run.cpuTicks - before
        #expect(used <= 3, "\(used) ticks in 3 s")  // 100 ticks a second: 3 is 1%
        #expect(run.interrupt() == 0)
        try? FileManager.default.removeItem(at: dir)
    }

    @Test("P2/P5: a fast writer of 1M rows through a printed follow keeps memory flat")
    func fastWriterFlatMemory() throws {
        let run = try Follower(["--follow", "--view", "never"], pipeInput: true)
        let writer = run.input
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var chunk = "id,name,amount\n"
            _ = chunk.withCString { write(writer, $0, strlen($0)) }
            for block in 0..<1000 {
                chunk = ""
                for k in 0..<1000 { chunk += "\(block * 1000 + k),name \(k),\(k).5\n" }
                _ = chunk.withCString { p in
                    var done = 0
                    let count = strlen(p)
                    while done < count {
                        let n = write(writer, p + done, count - done)
                        if n <= 0 { break }
                        done += n
                    }
                }
            }
            done.signal()
        }
        var peak = 0
        while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            run.drain(milliseconds: 10)
            peak = max(peak, ReliabilityKit.residentHighWater(run.pid))
            if run.output.count > 1 << 20 { run.clear() }
        }
        #expect(run.read(until: "999999 ", seconds: 30))
        peak = max(peak, ReliabilityKit.residentHighWater(run.pid))
        #expect(peak > 0 && peak < 40_000, "VmHWM \(peak) KiB")
        #expect(run.interrupt() == 0)
    }

    /// Files that end in a line without its line feed when the follow starts: name, first bytes,
    /// the rest of the last line, options, the rows before and after that line feed comes.
    static let unendedAtStart: [(file: String, initial: String, rest: String, options: [String], rows: [String])] = [
        // 6 bytes are read first (the check for compression), then 6 more: a row whole in them and
        // only the unended line after. The last row no wider than the heading (printed in the
        // widths of the rows before the first pause, P5).
        ("pt.csv", "id,msg\n1,ab\n2,x", "yZ\n", [], ["1 ab", "2 xyZ"]),
        ("pt.csv", "id,msg\n1,ab\n2,x", "yZ\n", ["-i", "csv"], ["1 ab", "2 xyZ"]),
        ("pt.csv", "id,msg\n1,ab\n2,x", "yZ\n", ["--window", "1"], ["1 ab", "2 xyZ"]),
        ("pt.jsonl", "{\"a\":1}\n{\"a\":", "2}\n", [], ["1", "2"]),
    ]

    @Test("I10/P5: a file ending in a line without its line feed when followed: the rows before it printed at once, that line once its line feed comes, nothing twice", arguments: 0..<4)
    func unendedLastLineAtStart(index: Int) throws {
        let example = Self.unendedAtStart[index]
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent(example.file).path
        try example.initial.write(toFile: path, atomically: false, encoding: .utf8)
        let run = try Follower(["--follow", "--view", "never"] + example.options + [path])
        #expect(run.read(rows: 1, seconds: 1.5), "no row within 1.5 s: \(run.output)")
        run.drain(milliseconds: 300)
        #expect(Self.rows(run.output) == [example.rows[0]])
        Self.append(example.rest, to: path)
        #expect(run.read(rows: 2))
        #expect(run.interrupt() == 0)
        #expect(Self.rows(run.output) == example.rows)
    }
}
