import Foundation
import Testing

/// Golden cases: `Fixtures/cases/<case>/` holds `args` (one argument per line), the input file(s)
/// it names, optionally `stdin` (fed on standard input), and `expected.stdout`,
/// `expected.stderr`, `expected.status` (0 when absent). The binary runs in the case's folder.
///
/// `TABLEFMT_RECORD=1` (`make fixtures`) rewrites the expected files from what the binary printed
/// and still fails, so a baseline never changes silently: read the diff, then commit it.
struct GoldenTests {
    static let casesFolder = TestPaths.fixtures.appendingPathComponent("cases")

    static var cases: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: casesFolder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test("Golden CLI cases", arguments: cases)
    func golden(_ name: String) throws {
        let folder = Self.casesFolder.appendingPathComponent(name)
        let argsText = try String(contentsOf: folder.appendingPathComponent("args"), encoding: .utf8)
        let args = argsText.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        let stdinURL = folder.appendingPathComponent("stdin")
        let stdin = FileManager.default.fileExists(atPath: stdinURL.path) ? try Data(contentsOf: stdinURL) : nil
        let run = try runTool(args, stdin: stdin, directory: folder)

        let outURL = folder.appendingPathComponent("expected.stdout")
        let errURL = folder.appendingPathComponent("expected.stderr")
        let statusURL = folder.appendingPathComponent("expected.status")
        if ProcessInfo.processInfo.environment["TABLEFMT_RECORD"] == "1" {
            try run.stdout.write(to: outURL)
            try run.stderr.write(to: errURL)
            try Data("\(run.status)\n".utf8).write(to: statusURL)
            Issue.record("recorded \(name): read the new expected files before committing")
            return
        }
        let expectedOut = (try? Data(contentsOf: outURL)) ?? Data()
        let expectedErr = (try? Data(contentsOf: errURL)) ?? Data()
        let expectedStatus = (try? String(contentsOf: statusURL, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
        #expect(run.status == expectedStatus, "\(name): exit status")
        #expect(run.out == String(decoding: expectedOut, as: UTF8.self), "\(name): stdout")
        // Any unexpected stderr line fails the case.
        #expect(run.err == String(decoding: expectedErr, as: UTF8.self), "\(name): stderr")
    }
}
