import Foundation
import Testing

/// O1 through a real pseudo-terminal: `script` runs tablefmt with a terminal as its stdout.
struct TerminalDefaultTests {
    static var scriptAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/script") }

    func runInTerminal(_ environment: [String: String]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-pty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("t.csv")
        try Data("a,b\n1,2\n".utf8).write(to: file)
        let command = "'\(TestPaths.binary.path)' -w 40 '\(file.path)'"
        let run = try runTool(["-qec", command, "/dev/null"], environment: environment, program: "/usr/bin/script")
        #expect(run.status == 0)
        return run.out
    }

    @Test("O1: on a terminal the default format is ANSI", .enabled(if: scriptAvailable))
    func terminalIsANSI() throws {
        let out = try runInTerminal(["PATH": "/usr/bin:/bin", "TERM": "xterm"])
        #expect(out.contains("\u{1B}[1m"))
    }

    @Test("O1: NO_COLOR and TERM=dumb make the terminal default plain", .enabled(if: scriptAvailable), arguments: [
        ["NO_COLOR": "1", "TERM": "xterm"], ["TERM": "dumb"],
    ])
    func noColor(_ extra: [String: String]) throws {
        let out = try runInTerminal(extra.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a })
        #expect(!out.contains("\u{1B}["))
        #expect(out.contains("A  B"))
    }

    @Test("O1: in a pipe the default is plain; FORCE_COLOR and --color always make it ANSI")
    func pipe() throws {
        let plain = try runTool(["-w", "0"], stdin: Data("a,b\n1,2\n".utf8))
        #expect(!plain.out.contains("\u{1B}"))
        let forced = try runTool(["-w", "0"], stdin: Data("a,b\n1,2\n".utf8), environment: ["PATH": "/usr/bin:/bin", "FORCE_COLOR": "1"])
        #expect(forced.out.contains("\u{1B}[1m"))
        let always = try runTool(["-w", "0", "--color", "always"], stdin: Data("a,b\n1,2\n".utf8))
        #expect(always.out.contains("\u{1B}[1m"))
        let never = try runTool(["-w", "0", "--color", "never"], stdin: Data("a,b\n1,2\n".utf8), environment: ["PATH": "/usr/bin:/bin", "FORCE_COLOR": "1"])
        #expect(!never.out.contains("\u{1B}"))
    }
}
