import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer
@testable import Transform

/// P2/W11: `--sort` beyond memory stays within `--memory-limit` and within the limit on open files.
@Suite("Rules: sorting within the memory and file limits")
struct ExternalSortLimitsTests {
    /// A number column that turns to text after `lateText` rows (so runs sorted as numbers are
    /// sorted again), and a text column with many ties.
    static func rows(_ count: Int, lateText: Int, seed: UInt64) -> [(String, String)] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { k in
            let n = k == lateText ? "many" : String(rng.below(500))
            return (n, ["ab", "cd", "e", "f", "gh"][rng.below(5)])
        }
    }

    @Test("W11, P2: staged merge: runs never reach the cap while rows are added or at the end, and the merge gives an independent sort's order")
    func stagedMergeCapsRuns() throws {
        for (seed, lateText) in [(1, -1), (2, 2500), (3, 3900)] as [(UInt64, Int)] {
            let rows = Self.rows(4000, lateText: lateText, seed: seed)
            let sort = ExternalSort(keys: [(0, false), (1, true)], budget: 3 * 2048, openRuns: 4)
            var most = 0
            var stages = 0
            for (k, row) in rows.enumerated() {
                let before = sort.runs.count
                try sort.add(Record([row.0, row.1]), numeric: [lateText < 0 || k < lateText, false])
                most = max(most, sort.runs.count)
                stages += sort.runs.count < before ? 1 : 0
            }
            let numeric = [lateText < 0]
            try sort.finish(numeric: numeric + [false])
            most = max(most, sort.runs.count)
            #expect(most < 4, "seed \(seed): \(most) runs open at once")
            #expect(stages > 5, "seed \(seed): runs were not merged in stages")
            var merged: [Int] = []
            try sort.merge(numeric: numeric + [false]) { _, number in
                merged.append(number)
                return true
            }
            // The independent order: numbers by value (or all as text once one is text), the
            // second key descending, ties in input order.
            let expected = rows.indices.sorted { a, b in
                let (x, y) = (rows[a], rows[b])
                if x.0 != y.0 {
                    if lateText < 0 { return Int(x.0)! < Int(y.0)! }
                    return Array(x.0.utf8).lexicographicallyPrecedes(Array(y.0.utf8))
                }
                if x.1 != y.1 { return Array(y.1.utf8).lexicographicallyPrecedes(Array(x.1.utf8)) }
                return a < b
            }
            let same = merged == expected
            #expect(same, "seed \(seed)")
        }
    }

    /// About 8 MB of CSV: some 25 runs at `--memory-limit 1M`.
    static func runsCSV() -> String {
        var rng = SplitMix64(seed: 11)
        var text = "id,text\n"
        for k in 0..<160_000 { text += "\(k),word \(rng.below(100_000)) and a few more words\n" }
        return text
    }

    @Test("W11, P2: the binary under ulimit -n 32 (hard): more runs than files it may open, merged in stages, the same bytes as the sort in memory")
    func binaryUnderLowFileLimit() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-sort-files-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("runs.csv")
        try Data(Self.runsCSV().utf8).write(to: file)
        let memory = try runTool(["-w", "0", "--sort", "text", "--memory-limit", "1G", file.path])
        let limited = try runTool(["-c", "ulimit -n 32 && exec \"$0\" -w 0 --sort text --memory-limit 1M \"$1\"", TestPaths.binary.path, file.path],
                                  environment: ["PATH": "/usr/bin:/bin", "TMPDIR": dir.path], program: "/bin/sh")
        #expect(memory.status == 0 && limited.status == 0, "\(limited.err)")
        let same = limited.stdout == memory.stdout  // (a failed `==` of 8 MB would be diffed for ages)
        #expect(same)
        #expect(memory.out.split(separator: "\n").count == 160_002)
    }

    @Test("W11, P2: held rows counted at their in-memory cost: 640,000 short rows sorted at 16M, 32M and 64M stay under the limit and a fixed 24 MB",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time")))
    func peakMemory() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-sort-peak-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var rng = SplitMix64(seed: 1)
        var text = "w\n"
        var words: [String] = []
        for _ in 0..<640_000 {
            words.append(["ab", "cd", "e", "f", "gh"][rng.below(5)])
            text += words[words.count - 1] + "\n"
        }
        let file = dir.appendingPathComponent("short.csv")
        try Data(text.utf8).write(to: file)
        var outputs: [Data] = []
        for megabytes in [16, 32, 64] {
            let report = dir.appendingPathComponent("peak-\(megabytes)")
            let run = try runTool(["-f", "%M", "-o", report.path, TestPaths.binary.path, "-w0", "-f", "plain", "--sort", "w", "--memory-limit", "\(megabytes)M", file.path],
                                  environment: ["PATH": "/usr/bin:/bin", "TMPDIR": dir.path], program: "/usr/bin/time")
            #expect(run.status == 0, "\(run.err)")
            let kilobytes = Int(try String(contentsOf: report, encoding: .utf8).split(separator: "\n").last.map(String.init) ?? "") ?? .max
            #expect(kilobytes < (megabytes + 24) * 1024, "--memory-limit \(megabytes)M: peak \(kilobytes) KB")
            outputs.append(run.stdout)
        }
        // The plain table: the heading, its rule, then the words in order (no padding at the end).
        let expected = "W\n\u{2500}\u{2500}\n" + words.sorted().map { $0 + "\n" }.joined()
        for (k, output) in outputs.enumerated() {
            let same = output == Data(expected.utf8)
            #expect(same, "--memory-limit \([16, 32, 64][k])M")
        }
    }
}
