import CZlib
import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// Files that arrive by mistake or by malice (E5, `--max-row-size`): a heading or a JSON key as
/// long as a file, a row past the limit, a gzip bomb of one unbroken line, two million columns.
/// Each shape is grown and run as the user would run it, in a child process whose time and peak
/// memory are read back: they must grow with the input by small constants, and a row past the
/// limit must end with one line and exit 65, never a trap.
@Suite("Reliability: hostile shapes", .serialized)
struct HostileShapeTests {
    typealias Kit = ReliabilityKit

    /// The one line a row past the limit ends with.
    static func tooLong(_ name: String, line: Int, limit: String) -> String {
        "tablefmt: \(name):\(line):1: row longer than the limit of \(limit) (--max-row-size)\n"
    }

    /// Writes `parts` to a file one after another, so a file of hundreds of megabytes is never
    /// held whole by the test.
    static func file(_ name: String, _ parts: [(byte: UInt8, count: Int)], around text: (String, String)) throws -> URL {
        let url = try Kit.temporaryFile(name, Array(text.0.utf8))
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        for part in parts {
            var left = part.count
            let block = Data(repeating: part.byte, count: min(left, 1 << 20))
            while left > 0 {
                let n = min(left, block.count)
                try handle.write(contentsOf: block.prefix(n))
                left -= n
            }
        }
        try handle.write(contentsOf: Data(text.1.utf8))
        return url
    }

    // MARK: - The limit

    @Test("E5: a row longer than --max-row-size ends with exit 65 and one line naming the file, the line, the limit and the option; a row at the limit is read")
    func rowLimitIsExact() throws {
        var random = SplitMix64(seed: 0x5EED_32)
        for round in 0..<24 {
            let limit = 1024 << random.below(4)  // 1, 2, 4 or 8 KiB
            let rowsBefore = random.below(4)
            let over = random.below(2) == 0
            // A data row (or, with no rows before, the header) of exactly `length` bytes before
            // its line break: `x…x,1` in CSV, tab-separated in TSV; its two fields count 64 bytes
            // each more (`Record.fieldCost`).
            let length = (over ? limit + 1 + random.below(3000) : limit - random.below(2)) - 2 * Record.fieldCost
            let tsv = random.below(3) == 0
            let separator = tsv ? "\t" : ","
            // The long row is the header (no header row before it), or a data row; or it starts
            // just before the end of the first read (256 KiB), so the check at the refill meets it.
            let header = rowsBefore == 0 && random.below(2) == 0
            let acrossRead = !header && random.below(3) == 0
            var text = header ? "" : "name\(separator)n\n"
            for k in 0..<rowsBefore { text += "row\(k)\(separator)\(k)\n" }
            var filler = 0
            if acrossRead {
                let target = (1 << 18) - 1 - random.below(length)
                while text.utf8.count + 12 <= target {
                    text += "f\(String(filler % 100_000).leftPadded(to: 6))\(separator)\(filler % 10)\n"  // 11 bytes a row
                    filler += 1
                }
                text += String(repeating: "f", count: max(0, target - text.utf8.count - 3)) + separator + "0\n"
                filler += 1
            }
            let longLine = (header ? 1 : 2) + rowsBefore + filler
            text += String(repeating: "x", count: length - 2) + separator + "1"
            // A row after it, or the long row last, with or without its line break.
            let after = random.below(2) == 0
            if after || random.below(2) == 0 { text += random.below(2) == 0 ? "\r\n" : "\n" }
            if after { text += "last\(separator)9\n" }
            let name = "shape\(round).\(tsv ? "tsv" : "csv")"
            let url = try Kit.temporaryFile(name, Array(text.utf8))
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            let run = try Kit.runBounded(["-w", "0", "--max-row-size", random.below(2) == 0 ? "\(limit >> 10)K" : "\(limit)", name],
                                         seconds: 20, directory: url.deletingLastPathComponent())
            #expect(!run.timedOut && run.signal == nil, "\(run)")
            let limitText = "\(limit >> 10) KiB"
            if over {
                #expect(run.status == 65, "round \(round): \(run)")
                #expect(run.stderr == Self.tooLong(name, line: longLine, limit: limitText), "round \(round) (header \(header), across a read \(acrossRead))")
                // E2: the rows before it are printed, and the table finished.
                for k in 0..<rowsBefore { #expect(run.out.contains("row\(k)"), "round \(round): row \(k) before the long row is printed") }
            } else {
                #expect(run.status == 0, "round \(round): a row of \(length) bytes and 2 fields under a limit of \(limit): \(run)")
                #expect(!after || run.out.contains("last"))
                #expect(run.out.contains("xxxx"))
            }
        }
    }

    @Test("E5: a heading past --max-row-size, a JSON key, a JSON string, a JSON Lines row and rows of many fields end the same way (65, one line)")
    func everyReaderHasTheLimit() throws {
        let long = String(repeating: "k", count: 400_000)
        let cases: [(name: String, text: String, line: Int)] = [
            ("head.csv", long + ",b\n1,2\n", 1),
            ("key.json", "[{\"a\": 1},\n{\"" + long + "\": 1}]", 2),
            ("value.json", "[{\"a\": 1},\n {\"a\": \"" + long + "\"}]", 2),
            ("rows.jsonl", "{\"a\": 1}\n{\"a\": 2}\n{\"a\": \"" + long + "\"}\n", 3),
            ("nested.jsonl", "{\"a\": 1}\n{\"a\": [\"" + long + "\", 2]}\n", 2),
            // Many fields, each counted 64 bytes (`Record.fieldCost`): 20,001 empty fields, 5,000 keys.
            ("commas.csv", "a" + String(repeating: ",", count: 20_000) + "\n", 1),
            ("keys.jsonl", "{\"a\": 1}\n{" + (0..<5000).map { "\"k\($0)\":1" }.joined(separator: ",") + "}\n", 2),
        ]
        for item in cases {
            let url = try Kit.temporaryFile(item.name, Array(item.text.utf8))
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            let run = try Kit.runBounded(["-w", "80", "--max-row-size", "64K", item.name], seconds: 20, directory: url.deletingLastPathComponent())
            #expect(run.status == 65, "\(item.name): \(run)")
            #expect(run.stderr == Self.tooLong(item.name, line: item.line, limit: "64 KiB"), "\(item.name)")
            // Under the default limit the same file is a table.
            let whole = try Kit.runBounded(["-w", "80", item.name], seconds: 20, directory: url.deletingLastPathComponent())
            #expect(whole.status == 0, "\(item.name) under the default limit: \(whole)")
        }
    }

    @Test("E5: a JSON row over --max-row-size within one read is refused when it ends, not printed (array and JSON Lines, in the middle and last)",
          arguments: ["json", "jsonl"])
    func jsonRowEnd(_ format: String) throws {
        for last in [false, true] {
            let rows = ["{\"a\": 1}", "{\"a\": \"" + String(repeating: "v", count: 5000) + "\"}"] + (last ? [] : ["{\"a\": 3}"])
            let text = format == "json" ? "[" + rows.joined(separator: ",\n") + "]" : rows.joined(separator: "\n") + "\n"
            let name = "rows.\(format)"
            let url = try Kit.temporaryFile(name, Array(text.utf8))
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            let run = try Kit.runBounded(["-w", "40", "--max-row-size", "1K", name], seconds: 20, directory: url.deletingLastPathComponent())
            #expect(run.status == 65, "\(name), long row last: \(last): \(run)")
            #expect(run.stderr == Self.tooLong(name, line: 2, limit: "1 KiB"))
            #expect(!run.out.contains("vvvv"), "the long row is not printed")
            #expect(run.out.contains("1"), "the row before it is (E2)")
        }
    }

    @Test("E1: --max-row-size takes a size of at least 1K, else a usage error (64)",
          arguments: ["0", "1000", "abc", "-5", "1023"])
    func rowLimitValues(_ value: String) throws {
        let run = try Kit.runBounded(["--max-row-size", value, "/dev/null"], seconds: 10)
        #expect(run.status == 64, "\(value): \(run)")
        #expect(run.stderr.hasPrefix("tablefmt: invalid value '\(value)' for --max-row-size"))
    }

    // MARK: - A gzip bomb

    /// A gzip member of `count` bytes of `byte` with no line break, deflated a megabyte at a time.
    static func bomb(count: Int, byte: UInt8) -> [UInt8] {
        var stream = z_stream()
        _ = deflateInit2_(&stream, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var block = [UInt8](repeating: byte, count: 1 << 20)
        var out = [UInt8](repeating: 0, count: 1 << 16)
        var result: [UInt8] = []
        var left = count
        repeat {
            let n = min(left, block.count)
            left -= n
            block.withUnsafeMutableBufferPointer { input in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(n)
                repeat {
                    out.withUnsafeMutableBufferPointer { output in
                        stream.next_out = output.baseAddress
                        stream.avail_out = uInt(output.count)
                        _ = deflate(&stream, left == 0 ? Z_FINISH : Z_NO_FLUSH)
                        result.append(contentsOf: output[0..<(output.count - Int(stream.avail_out))])
                    }
                } while stream.avail_out == 0 || (left == 0 && stream.avail_in > 0)
            }
        } while left > 0
        return result
    }

    @Test("E5, I8: a gzip bomb of one unbroken 2 GB line ends at the limit with one line and exit 65, in seconds and bounded memory")
    func gzipBomb() throws {
        let compressed = Self.bomb(count: 2_000_000_000, byte: UInt8(ascii: "a"))
        #expect(compressed.count < 4_000_000, "a bomb: \(compressed.count) bytes for 2 GB")
        let url = try Kit.temporaryFile("bomb.gz", compressed)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let small = try Kit.runBounded(["-w", "80", "--max-row-size", "16M", "bomb.gz"], seconds: 30, directory: url.deletingLastPathComponent())
        #expect(small.status == 65, "\(small)")
        #expect(small.stderr == Self.tooLong("bomb.gz", line: 1, limit: "16 MiB"))
        #expect(small.maxRSSKiB < Kit.memoryBound(mebibytes: 64), "\(small)")
        // The default limit (256 MiB): the same line, the memory it allows and no more.
        let whole = try Kit.runBounded(["-w", "80", "bomb.gz"], seconds: 60, directory: url.deletingLastPathComponent())
        #expect(whole.status == 65, "\(whole)")
        #expect(whole.stderr == Self.tooLong("bomb.gz", line: 1, limit: "256 MiB"))
        #expect(whole.maxRSSKiB < Kit.memoryBound(mebibytes: 400), "\(whole)")
        #expect(!whole.stderr.contains("Fatal error"))
    }

    // MARK: - Shapes grown

    /// Runs `arguments` on inputs of sizes `n`, `2n` and `4n` (made by `make`) and checks that
    /// peak memory and time grow linearly: memory from `n` to `4n` by at most `bytesPerUnit` for
    /// each unit of size (a cost that grows faster passes any constant as the size grows); CPU time
    /// from `2n` to `4n` at most 3 times plus 0.3 s (linear is 2 times; the machine is shared).
    static func growsLinearly(_ label: String, sizes n: Int, bytesPerUnit: Double, arguments: [String],
                              make: (Int) throws -> URL) throws -> (small: Kit.Bounded, large: Kit.Bounded) {
        var runs: [Kit.Bounded] = []
        for size in [n, 2 * n, 4 * n] {
            let url = try make(size)
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            let run = try Kit.runBounded(arguments + [url.lastPathComponent], stdoutPath: "/dev/null", seconds: 120,
                                         directory: url.deletingLastPathComponent())
            #expect(run.status == 0 && !run.timedOut, "\(label) at \(size): \(run)")
            runs.append(run)
        }
        let grown = Double(runs[2].maxRSSKiB - runs[0].maxRSSKiB) * 1024 / Double(3 * n)
        #expect(grown <= bytesPerUnit, "\(label): \(grown) bytes of memory per unit (\(runs[0]) → \(runs[2]))")
        #expect(runs[2].cpuSeconds <= 3 * runs[1].cpuSeconds + 0.3, "\(label): CPU time grew from \(runs[1].cpuSeconds) s to \(runs[2].cpuSeconds) s for twice the input")
        return (runs[0], runs[2])
    }

    @Test("E5, C4: a heading as long as a file costs what a value of that length costs: linear, and within 2× its memory")
    func longHeading() throws {
        let n = 6_000_000
        for width in ["80", "0"] {
            let heading = try Self.growsLinearly("heading -w \(width)", sizes: n, bytesPerUnit: 6, arguments: ["-w", width]) { size in
                try Self.file("head.csv", [(UInt8(ascii: "h"), size)], around: ("", ",b\n1,2\n"))
            }
            // A value is held once: not as a String too, nor as a rule three times its width (-w 0).
            let value = try Self.growsLinearly("value -w \(width)", sizes: n, bytesPerUnit: 2, arguments: ["-w", width]) { size in
                try Self.file("value.csv", [(UInt8(ascii: "v"), size)], around: ("a,b\n", ",2\n"))
            }
            #expect(heading.large.maxRSSKiB <= 2 * value.large.maxRSSKiB + 16 * 1024,
                    "-w \(width): a 24 MB heading peaks at \(heading.large.maxRSSKiB / 1024) MiB, a 24 MB value at \(value.large.maxRSSKiB / 1024) MiB")
        }
        // In Markdown, a long value is written from its record, and a long heading once.
        let markdownValue = try Self.growsLinearly("value -f markdown", sizes: n, bytesPerUnit: 3, arguments: ["-f", "markdown"]) { size in
            try Self.file("value.csv", [(UInt8(ascii: "v"), size)], around: ("a,b\n", ",2\n"))
        }
        let markdownHeading = try Self.growsLinearly("heading -f markdown", sizes: n, bytesPerUnit: 4, arguments: ["-f", "markdown"]) { size in
            try Self.file("head.csv", [(UInt8(ascii: "h"), size)], around: ("", ",b\n1,2\n"))
        }
        #expect(markdownHeading.large.maxRSSKiB <= 3 * markdownValue.large.maxRSSKiB, "\(markdownHeading.large), \(markdownValue.large)")
        // The heading is shown whole where the output shows headings whole (Markdown, -w 0).
        let url = try Self.file("head.csv", [(UInt8(ascii: "h"), 300_000)], around: ("", " cost,b\n1,2\n"))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let markdown = try Kit.runBounded(["-f", "markdown", "head.csv"], seconds: 20, directory: url.deletingLastPathComponent())
        #expect(markdown.status == 0)
        #expect(markdown.out.hasPrefix("| " + String(repeating: "h", count: 300_000) + " cost | B |\n"), "a name over 1,024 bytes is shown as written (C4)")
    }

    @Test("E5, C4: a JSON key as long as a file costs about what a value of that length costs")
    func longKey() throws {
        let key = try Self.growsLinearly("key", sizes: 4_000_000, bytesPerUnit: 9, arguments: ["-w", "80"]) { size in
            try Self.file("key.json", [(UInt8(ascii: "k"), size)], around: ("[{\"", "\": 1}, {\"a\": 2}]"))
        }
        let value = try Self.growsLinearly("value", sizes: 4_000_000, bytesPerUnit: 9, arguments: ["-w", "80"]) { size in
            try Self.file("value.json", [(UInt8(ascii: "v"), size)], around: ("[{\"k\": \"", "\"}, {\"a\": 2}]"))
        }
        #expect(key.large.maxRSSKiB <= 3 * value.large.maxRSSKiB + 16 * 1024, "key \(key.large), value \(value.large)")
    }

    @Test("E5: a long line of many fields and a wide table grow linearly, a column a small record; 2 million columns in under 300 MB")
    func manyColumns() throws {
        let columns = try Self.growsLinearly("columns", sizes: 100_000, bytesPerUnit: 250, arguments: ["-w", "80"]) { size in
            let header = (0..<size).map { "col_\($0)_min" }.joined(separator: ",")
            let row = (0..<size).map { String($0 % 97) }.joined(separator: ",")
            return try Kit.temporaryFile("wide.csv", Array((header + "\n" + row + "\n" + row + "\n").utf8))
        }
        #expect(columns.large.maxRSSKiB < Kit.memoryBound(mebibytes: 300), "\(columns.large)")
        _ = try Self.growsLinearly("fields", sizes: 250_000, bytesPerUnit: 250, arguments: ["-w", "80"]) { size in
            try Self.file("line.csv", [(UInt8(ascii: ","), size)], around: ("a", "\n"))
        }
        // A column's sizes are a small record.
        #expect(MemoryLayout<ColumnProfile>.stride <= 72, "a column profile takes \(MemoryLayout<ColumnProfile>.stride) bytes")
        // The issue's shape: 2 million named columns and a row, at -w 80.
        let names = (0..<2_000_000).map { "c\($0)" }.joined(separator: ",")
        let url = try Kit.temporaryFile("wide.csv", Array((names + "\n" + String(repeating: "1,", count: 1_999_999) + "1\n").utf8))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let wide = try Kit.runBounded(["-w", "80", "wide.csv"], seconds: 60, directory: url.deletingLastPathComponent())
        #expect(wide.status == 0, "\(wide)")
        #expect(wide.out.hasSuffix("and 1,999,932 more\n"), "the note names 50 of the columns left out and counts the rest")
        #expect(wide.maxRSSKiB < Kit.memoryBound(mebibytes: 300), "\(wide)")
    }
}

extension String {
    /// The string with zeros before it to `width` characters (for rows of one length).
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
