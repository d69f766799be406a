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

extension Reliability {
    /// P4: rows from a pipe that pauses are on screen while it pauses, not when it closes.
    @Suite("Reliability: live rows from a pipe")
    struct LiveRowsTests {
        /// The tool reading a pipe this test writes, its output read as it comes.
        final class Live {
            let process = Process()
            let input = Pipe(), output = Pipe()
            var seen = Data()

            init(_ arguments: [String]) throws {
                process.executableURL = TestPaths.binary
                process.arguments = arguments
                process.environment = ["PATH": "/usr/bin:/bin"]
                process.standardInput = input
                process.standardOutput = output
                process.standardError = FileHandle.nullDevice
                try process.run()
            }

            func write(_ text: String) throws { try input.fileHandleForWriting.write(contentsOf: Data(text.utf8)) }

            /// Seconds until the output holds `marker`, or nil after `limit` seconds.
            func wait(for marker: String, limit: Double) -> Double? {
                let start = Date()
                let fd = output.fileHandleForReading.fileDescriptor
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                while Date().timeIntervalSince(start) < limit {
                    if String(decoding: seen, as: UTF8.self).contains(marker) { return Date().timeIntervalSince(start) }
                    var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&request, 1, 20) > 0 else { continue }
                    let n = read(fd, &buffer, buffer.count)
                    if n <= 0 { break }
                    seen.append(contentsOf: buffer[0..<n])
                }
                return String(decoding: seen, as: UTF8.self).contains(marker) ? Date().timeIntervalSince(start) : nil
            }

            func finish() throws {
                try input.fileHandleForWriting.close()
                _ = wait(for: "\u{0}never", limit: 5)
                process.waitUntilExit()
            }
        }

        @Test("P4: after the window, a row that arrives while the writer pauses is shown at once (measured)")
        func afterTheWindow() throws {
            let live = try Live(["-w", "60"])
            try live.write("id,name\n" + (0..<1001).map { "\($0),n\($0)\n" }.joined())
            #expect(live.wait(for: "999  n999\n", limit: 10) != nil, "the window was not shown")
            var delays: [Double] = []
            for k in 0..<5 {
                usleep(100_000)
                try live.write("\(2000 + k),l\(k)\n")
                let delay = live.wait(for: "  l\(k)\n", limit: 5)
                #expect(delay != nil, "row \(k) not shown within 5 s")
                delays.append(delay ?? 5)
            }
            try live.finish()
            #expect(live.process.terminationStatus == 0)
            // Typically well under 10 ms; the bound leaves room for a loaded 2-core machine.
            #expect((delays.max() ?? 5) < 1.0, "delays \(delays)")
            print("P4 live-row delays (s):", delays.map { String(format: "%.4f", $0) })
        }

        @Test("P4: a pipe that pauses before the window is full is shown from the rows that came (tail -f)")
        func shortLog() throws {
            let live = try Live(["-w", "60"])
            try live.write("id,name\n" + (0..<10).map { "\($0),n\($0)\n" }.joined())
            // Shown after the pause (200 ms), while the writer still holds the pipe open.
            let first = live.wait(for: " 9  n9\n", limit: 5)
            #expect(first != nil, "rows of a paused pipe were not shown")
            #expect((first ?? 5) < 2.0)
            try live.write("10,n10\n")
            #expect(live.wait(for: "10  n10", limit: 5) != nil)
            try live.finish()
            #expect(live.process.terminationStatus == 0)
        }

        @Test("P4: rows that flow without a pause are sized from the whole window, as before")
        func flowingInput() throws {
            let text = "id,name\n" + (0..<3000).map { "\($0 % 100),\(String(repeating: "x", count: $0 % 25))\n" }.joined()
            let piped = try runTool(["-w", "60"], stdin: Data(text.utf8))
            let url = try ReliabilityKit.temporaryFile("flow.csv", Array(text.utf8))
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            let file = try runTool(["-w", "60", url.path])
            #expect(piped.status == 0 && file.status == 0)
            // Every length of cell is in the first 1,000 rows: sized from the whole window, the
            // pipe's table is the file's, line for line.
            #expect(piped.out == file.out)
        }
    }
}
