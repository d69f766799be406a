import Foundation
@testable import FormatEngine
@testable import Run
@testable import Viewer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reliability suites (`swift test --filter Reliability`): pathological inputs, I/O faults and
/// the fuzzers' regressions.
enum Reliability {}

/// Helpers for the reliability tests (E1–E5, I5, O5): the library run into memory, and a
/// process runner with a deadline and a memory measurement, so a hang or a blow-up fails a test
/// instead of stalling the suite.
enum ReliabilityKit {
    /// Options for a library run: plain, the given width (nil: unlimited).
    static func options(width: Int?, _ change: (inout FormatOptions) -> Void = { _ in }) -> FormatOptions {
        var options = FormatOptions()
        options.width = width
        options.format = .plain
        change(&options)
        return options
    }

    /// What a library run produced.
    struct Output {
        var bytes: [UInt8]
        var result: RunResult
        var text: String { String(decoding: bytes, as: UTF8.self) }
        var lines: [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0) }
    }

    /// Runs the whole pipeline on bytes in memory.
    /// - Parameters:
    ///   - chunkSize: bytes the source hands out per read.
    ///   - rereadable: a regular file (sized from every row) or a pipe (sized from the window).
    static func format(_ bytes: [UInt8], name: String = "<stdin>", path: String? = nil, options: FormatOptions,
                       chunkSize: Int = 1 << 16, rereadable: Bool = true) throws -> Output {
        let sink = MemorySink()
        let input = MemoryInput(bytes, name: name, path: path, isRereadable: rereadable, chunkSize: chunkSize)
        let result = try TableFormatter.run(input, options: options, output: sink)
        return Output(bytes: sink.bytes, result: result)
    }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-reliability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes bytes to a new file in a fresh temporary folder.
    static func temporaryFile(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let url = try temporaryFolder().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// Whether `tablefmt -i json` reads `[]` (the JSON reader is wired into the tool).
    static let jsonWired: Bool = {
        guard let run = try? runTool(["-i", "json", "-w", "0"], stdin: Data("[{\"a\":1}]".utf8)) else { return false }
        return run.status == 0 && run.out.contains("1")
    }()

    /// Whether this process can read a file whose mode is 000 (root can: such a test is skipped).
    static let canReadUnreadable: Bool = {
        guard let url = try? temporaryFile("probe.csv", Array("a\n".utf8)) else { return true }
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        chmod(url.path, 0)
        let fd = open(url.path, O_RDONLY)
        if fd >= 0 { close(fd) }
        return fd >= 0
    }()

    /// A file's bytes (empty if it cannot be read). Not `Data(contentsOf:)`: in Swift 6.3.1 on Linux
    /// it leaks a 4 KiB buffer for every empty file, which LeakSanitizer reports.
    static func readFile(_ path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return out }
            out.append(contentsOf: buffer[0..<n])
        }
    }

    /// Whether this test process (and so the `tablefmt` built beside it) runs under a sanitizer,
    /// whose shadow memory and quarantine multiply peak memory: memory bounds are then relaxed.
    static let sanitized: Bool = {
        let runtimes: [String] = ["__asan_init", "__tsan_init"]
        return runtimes.contains { dlsym(UnsafeMutableRawPointer(bitPattern: 0), $0) != nil }
    }()

    /// A memory bound in KiB: `mebibytes` normally, four times that under a sanitizer.
    static func memoryBound(mebibytes: Int) -> Int { (sanitized ? 4 : 1) * mebibytes * 1024 }

    /// A deadline in seconds: `seconds` normally, four times that under a sanitizer (ASan runs
    /// the tool two to four times slower).
    static func deadline(_ seconds: Double) -> Double { (sanitized ? 4 : 1) * seconds }

    // MARK: - A process with a deadline

    /// What a bounded run of a program did.
    struct Bounded: CustomStringConvertible {
        /// The exit status, or nil when a signal ended it (see `signal`).
        var status: Int32?
        var signal: Int32?
        /// It was still running at the deadline and was killed.
        var timedOut: Bool
        var stdout: [UInt8]
        var stderr: String
        /// Peak resident memory in KiB (ru_maxrss of this child alone).
        var maxRSSKiB: Int
        var seconds: Double
        /// CPU time, user and system (less moved by a busy machine than `seconds`).
        var cpuSeconds: Double = 0
        var out: String { String(decoding: stdout, as: UTF8.self) }

        /// Short, so that a failed expectation does not print megabytes of output.
        var description: String {
            let end = timedOut ? "killed at the deadline" : status.map { "exit \($0)" } ?? "signal \(signal ?? 0)"
            return "\(end) after \(Int(seconds * 1000)) ms, \(stdout.count) bytes out, peak \(maxRSSKiB / 1024) MiB, stderr \(stderr.prefix(200).debugDescription)"
        }
    }

    /// Runs `program` (default: the built `tablefmt`) with standard input from a file (or
    /// /dev/null), standard output and error to files, and kills it (its process group) at the
    /// deadline, four times later under a sanitizer.
    /// - Parameter stdoutPath: where standard output goes (default a temporary file, read back);
    ///   `/dev/full` makes every write fail.
    static func runBounded(_ arguments: [String], stdinPath: String = "/dev/null", stdoutPath: String? = nil,
                           seconds deadline: Double, program: String? = nil, directory: URL? = nil) throws -> Bounded {
        let folder = try temporaryFolder()
        let outPath = stdoutPath ?? folder.appendingPathComponent("stdout").path
        let errPath = folder.appendingPathComponent("stderr").path
        var executable = program ?? TestPaths.binary.path
        var arguments = arguments
        if let directory {  // a working directory: through sh, as posix_spawn has no portable chdir
            arguments = ["-c", "cd \"$0\" || exit 127; exec \"$@\"", directory.path, executable] + arguments
            executable = "/bin/sh"
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        // No inherited environment (COLUMNS, NO_COLOR…); no Swift backtracer on a trap (it only
        // adds noise, and trips AddressSanitizer when the suite runs under it).
        let envp: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), strdup("SWIFT_BACKTRACE=enable=no"), nil]
        defer { for p in argv + envp { free(p) } }
        // Its own process group (so the deadline kills a whole pipeline), default signal actions
        // (so SIGPIPE is not inherited as ignored), no blocked signals.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        signalsAtDefault(&attributes, flags: Int16(POSIX_SPAWN_SETPGROUP))
        var pid: pid_t = 0
        let started = Date()
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        let deadline = Self.deadline(deadline)
        var highWater = 0
        while true {
            highWater = max(highWater, Self.residentHighWater(pid))
            let done = wait4(pid, &status, WNOHANG, &usage)
            if done == pid { break }
            if done < 0 && errno != EINTR { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            if Date().timeIntervalSince(started) > deadline && !timedOut {
                timedOut = true
                kill(-pid, SIGKILL)  // the group: a shell and everything it started
            }
            usleep(1_000)
        }
        if timedOut { kill(-pid, SIGKILL) }
        let signal = status & 0x7F
        let stdout = stdoutPath == nil ? readFile(outPath) : []
        let stderr = String(decoding: readFile(errPath), as: UTF8.self)
        try? FileManager.default.removeItem(at: folder)
        return Bounded(status: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal, timedOut: timedOut,
                       stdout: stdout, stderr: stderr, maxRSSKiB: highWater > 0 ? highWater : Int(usage.ru_maxrss),
                       seconds: Date().timeIntervalSince(started),
                       cpuSeconds: Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6)
    }

    /// Spawn attributes giving the program every signal at its default action and none blocked
    /// (this process's own dispositions and mask are not the program's), with `flags` besides.
    static func signalsAtDefault(_ attributes: inout posix_spawnattr_t, flags: Int16 = 0) {
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, flags | Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    }

    /// An exit status as a shell gives it: the program's own, or 128 + the signal that ended it.
    static func shellStatus(_ status: Int32) -> Int32 {
        status & 0x7F != 0 ? 128 + (status & 0x7F) : (status >> 8) & 0xFF
    }

    /// The peak resident memory of a running process in KiB (`VmHWM` in Linux's
    /// `/proc/PID/status`), 0 where it cannot be read. `ru_maxrss` alone is not the child's: a
    /// child started by `posix_spawn` shares this process's memory until it calls `exec`, and Linux
    /// keeps that memory's peak as the child's, so a test process grown large by other tests would
    /// be measured instead of the tool.
    static func residentHighWater(_ pid: pid_t) -> Int {
        let fd = open("/proc/\(pid)/status", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return 0 }
        let text = String(decoding: buffer[0..<n], as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.dropFirst(6).filter(\.isNumber)) ?? 0
    }
}
