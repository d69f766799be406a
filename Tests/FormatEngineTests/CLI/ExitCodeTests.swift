import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// E1–E4 through the real binary.
struct ExitCodeTests {
    func temp(_ name: String, _ contents: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try Data(contents.utf8).write(to: url)
        return url
    }

    @Test("E1: the exit statuses are one list: docs/RULES.md's Exit status table, --help's list and ExitStatus name the same codes, and --help says each one's meaning")
    func statusesAgree() throws {
        // The documented codes, read from the table under "## Exit status" (rows "| 64 | …").
        let rules = try String(contentsOf: TestPaths.root.appendingPathComponent("docs/RULES.md"), encoding: .utf8)
        let section = try #require(rules.components(separatedBy: "\n## Exit status\n").dropFirst().first)
        let table = section.components(separatedBy: "\n## ").first ?? section
        let documented = table.split(separator: "\n").compactMap { line -> Int32? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) }
            return cells.first.flatMap { Int32($0) }
        }
        // The codes --help prints, read from the binary's output: lines "  64   meaning" after "Exit status:".
        let help = try runTool(["--help"])
        #expect(help.status == 0)
        let afterHeading = try #require(help.out.components(separatedBy: "\nExit status:\n").dropFirst().first)
        var printed: [Int32: String] = [:]
        var current: Int32?
        for line in afterHeading.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("  ") else { break }
            let words = line.split(separator: " ", maxSplits: 1)
            if let code = words.first.flatMap({ Int32($0) }), line.dropFirst(2).first != " " {
                current = code
                printed[code] = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : ""
            } else if let code = current {
                printed[code, default: ""] += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        let listed = ExitStatus.allCases.map(\.code)
        #expect(!documented.isEmpty && documented == documented.sorted())
        #expect(Set(documented) == Set(listed), "RULES.md \(documented) against ExitStatus \(listed)")
        #expect(Set(printed.keys) == Set(listed), "--help \(printed.keys.sorted()) against ExitStatus \(listed)")
        for status in ExitStatus.allCases {
            #expect(printed[status.code] == status.meaning, "--help's words for \(status.code)")
        }
    }

    @Test("E1: success exits 0 and prints the table")
    func success() throws {
        let run = try runTool(["-w", "0"], stdin: Data("a,b\n1,2\n".utf8))
        #expect(run.status == 0)
        #expect(run.out == "A  B\n─  ─\n1  2\n")
        #expect(run.err.isEmpty)
    }

    @Test("E1: an unknown option exits 64, names it, suggests the nearest and points to --help")
    func unknownOption() throws {
        let run = try runTool(["--widht", "40"])
        #expect(run.status == 64)
        #expect(run.err == "tablefmt: unknown option '--widht' (did you mean --width?)\ntry 'tablefmt --help'\n")
        #expect(run.out.isEmpty)
    }

    @Test("E1: a bad option value exits 64 naming the option and the value", arguments: [
        (["-w", "wide"], "--width"), (["--encoding", "ebcdic"], "--encoding"), (["-i", "xml"], "--input-format"),
        (["-d", "ab"], "--delimiter"), (["--window", "0"], "--window"),
    ])
    func badValue(args: [String], option: String) throws {
        let run = try runTool(args)
        #expect(run.status == 64)
        #expect(run.err.hasPrefix("tablefmt: invalid value '\(args[1])' for \(option)"))
        #expect(run.err.hasSuffix("try 'tablefmt --help'\n"))
    }

    @Test("E1: a missing value and standard input named twice are usage errors")
    func missingValue() throws {
        #expect(try runTool(["--width"]).status == 64)
        let twice = try runTool(["-", "a.csv", "-"])
        #expect(twice.status == 64)
        #expect(twice.err.hasPrefix("tablefmt: standard input ('-') named twice\n"))
    }

    @Test("E1/E2: malformed data exits 65 with file:line:col after printing the rows before it")
    func malformed() throws {
        let url = try temp("bad.csv", "a,b\n1,2\n\"x,1\n")
        let run = try runTool(["-w", "0", "bad.csv"], directory: url.deletingLastPathComponent())
        #expect(run.status == 65)
        #expect(run.out == "A  B\n─  ─\n1  2\n")
        #expect(run.err == "tablefmt: bad.csv:3:1: unterminated quoted field\n")
    }

    @Test("E2: from a pipe too, the rows before the error are printed and the table closed")
    func malformedPipe() throws {
        let run = try runTool(["-w", "0"], stdin: Data("a,b\n1,2\n3,4\n\"x,1\n".utf8))
        #expect(run.status == 65)
        #expect(run.out == "A  B\n─  ─\n1  2\n3  4\n")
        #expect(run.err == "tablefmt: <stdin>:4:1: unterminated quoted field\n")
    }

    @Test("E1: an input that cannot be opened exits 66", arguments: ["missing.csv", "/"])
    func cannotOpen(path: String) throws {
        let run = try runTool([path])
        #expect(run.status == 66)
        #expect(run.err.hasPrefix("tablefmt: \(path): cannot open: "))
        #expect(run.out.isEmpty)
    }

    @Test("E1: a write error exits 74 with a message")
    func writeError() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let url = try temp("t.csv", "a,b\n1,2\n")
        let run = try runTool(["-c", "\"$0\" \"$1\" > /dev/full", TestPaths.binary.path, url.path], program: "/bin/sh")
        #expect(run.status == 74)
        #expect(run.err.hasPrefix("tablefmt: write error: "))
    }

    @Test("E3: a reader that goes away stops the tool quietly with status 0")
    func brokenPipe() throws {
        var text = "id,name,note\n"
        for i in 0..<200_000 { text += "\(i),name \(i),some note text for row \(i)\n" }
        let url = try temp("big.csv", text)
        let script = "\"$0\" -w 0 \"$1\" | head -1; echo \"status=${PIPESTATUS[0]}\" >&2"
        let run = try runTool(["-c", script, TestPaths.binary.path, url.path], program: "/bin/bash")
        // `head -1` took the heading line and closed the pipe long before 200,000 rows were written.
        #expect(run.out.split(separator: "\n").count == 1)
        #expect(run.out.contains("Name"))
        #expect(run.err == "status=0\n")
    }

    @Test("E4: empty input prints nothing and exits 0")
    func emptyInput() throws {
        for input in ["", "\n", "\n\n"] {
            let run = try runTool([], stdin: Data(input.utf8))
            #expect(run.status == 0)
            #expect(run.out.isEmpty)
            #expect(run.err.isEmpty)
        }
    }

    @Test("E4: a header with no rows prints the headings and (no rows)")
    func headerOnly() throws {
        let run = try runTool(["-w", "0"], stdin: Data("name,qty\n".utf8))
        #expect(run.status == 0)
        #expect(run.out == "Name  Qty\n────  ───\n(no rows)\n")
    }

    @Test("--help and --version exit 0 on stdout")
    func helpAndVersion() throws {
        let help = try runTool(["--help"])
        #expect(help.status == 0)
        #expect(help.out.contains("Usage: tablefmt [OPTIONS] [FILE...]"))
        #expect(help.out.contains("Examples:"))
        let version = try runTool(["--version"])
        #expect(version.status == 0)
        #expect(version.out.hasPrefix("tablefmt "))
    }
}
