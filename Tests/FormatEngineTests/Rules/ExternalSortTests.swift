import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer
@testable import Transform

/// P2/W11: `--sort` beyond memory prints exactly what the sort in memory prints.
@Suite("Rules: sorting beyond memory")
struct ExternalSortTests {
    /// Rows with a column of numbers that may turn to text late (so runs sorted as numbers are
    /// sorted again), a text column with duplicates, empty cells and null words.
    static func csv(seed: UInt64) -> String {
        var rng = SplitMix64(seed: seed)
        let count = rng.below(400) + 1
        let lateText = rng.below(3) == 0 ? rng.below(count) : -1
        var text = "n,word,amount\n"
        let words = ["pear", "apple", "Apple", "kiwi", "", "NA", "zürich", "Zoë", "東京", "10", "9"]
        for k in 0..<count {
            let n = k == lateText ? "many" : rng.below(9) == 0 ? "" : String(rng.below(50) - 10) + (rng.below(2) == 0 ? ".5" : "")
            let amount = rng.below(7) == 0 ? "-" : "\(rng.below(1000)).\(rng.below(100))"
            text += "\(n),\(words[rng.below(words.count)]),\(amount)\n"
        }
        return text
    }

    static func output(_ csv: String, _ options: FormatOptions, rereadable: Bool) throws -> (String, RunResult) {
        let sink = MemorySink()
        let result = try TableFormatter.run(MemoryInput(csv, name: "t.csv", isRereadable: rereadable), options: options, output: sink)
        return (sink.text, result)
    }

    @Test("300 generated tables sorted by one or two keys, either direction, some with --limit: in runs of a row or a few, the same output as in memory")
    func sameAsInMemory() throws {
        let keys = ["n", "-n", "word", "-word", "amount", "word,-amount", "-n,word", "3,1"]
        for seed in 0..<300 as Range<UInt64> {
            let text = Self.csv(seed: seed)
            var options = FormatOptions()
            options.width = seed % 2 == 0 ? nil : 70
            options.sort = keys[Int(seed % UInt64(keys.count))].split(separator: ",").map { SortKey(String($0)) }
            if seed % 5 == 0 { options.limit = Int(seed % 17) + 1 }
            let (memory, inMemory) = try Self.output(text, options, rereadable: seed % 3 != 0)
            options.memoryLimit = Int(seed % 4) * 600  // runs of one row (0), or of a few hundred bytes
            let (disk, onDisk) = try Self.output(text, options, rereadable: seed % 3 != 0)
            #expect(disk == memory, "seed \(seed) \(options.sort)")
            #expect(onDisk.error == nil && inMemory.error == nil && onDisk.warnings == inMemory.warnings, "seed \(seed)")
        }
    }

    @Test("runs of thousands of rows, sorted by 8-byte keys: texts sharing long prefixes (NFC and not), numbers in every form, the same output as in memory")
    func longRunsSameAsInMemory() throws {
        let stems = ["customer-account-", "customer-account-", "Zoë Müller ", "Zoe\u{308} Müller ", "東京都千代田区", "x"]
        let numbers = ["12", "-3.5", "1,234.50", "$7", "12,5", "1e3", "", "NA", "0", "-0", "123456789012345678"]
        for seed in 0..<12 as Range<UInt64> {
            var rng = SplitMix64(seed: 900 + seed)
            var text = "name,value\n"
            for _ in 0..<6000 {
                let name = rng.below(20) == 0 ? "" : stems[rng.below(stems.count)] + String(rng.below(seed % 2 == 0 ? 40 : 4000))
                text += "\"\(name)\",\"\(numbers[rng.below(numbers.count)])\"\n"
            }
            for key in ["name", "-name", "value", "-value"] {
                var options = FormatOptions()
                options.sort = [SortKey(key)]
                let (memory, _) = try Self.output(text, options, rereadable: true)
                options.memoryLimit = 150_000 + Int(seed) * 20_000  // runs of about a thousand rows
                let (disk, onDisk) = try Self.output(text, options, rereadable: true)
                #expect(disk == memory, "seed \(seed) \(key)")
                #expect(onDisk.error == nil)
            }
        }
    }

    @Test("the run files are sorted as runs and merged: rows in order by an independent sort, ties in input order")
    func mergeOrder() throws {
        var rng = SplitMix64(seed: 42)
        let values = (0..<2000).map { _ in rng.below(100) }
        let sort = ExternalSort(keys: [(0, false)], budget: 3 * 4096)
        for (k, v) in values.enumerated() { try sort.add(Record(["\(v)", "\(k)"]), numeric: [true, true]) }
        try sort.finish(numeric: [true, true])
        #expect(sort.runs.count > 5)
        var merged: [(Int, Int)] = []
        var numbers: [Int] = []
        try sort.merge(numeric: [true, true]) { fields, number in
            merged.append((Int(String(decoding: fields[0], as: UTF8.self))!, Int(String(decoding: fields[1], as: UTF8.self))!))
            numbers.append(number)
            return true
        }
        let expected = values.enumerated().sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }.map { ($0.element, $0.offset) }
        #expect(merged.map(\.0) == expected.map(\.0) && merged.map(\.1) == expected.map(\.1))
        // Each row comes with the number it was added with (its place in the input here).
        #expect(numbers == expected.map(\.1))
    }

    /// A CSV of about 3 MB: more than `--memory-limit 1M` holds.
    static func bigCSV() -> String {
        var rng = SplitMix64(seed: 7)
        var text = "id,name,amount\n"
        for k in 0..<40_000 { text += "\(k),name \(rng.below(5000)) with some words to fill,\(rng.below(100_000)).\(rng.below(100))\n" }
        return text
    }

    @Test("the binary: --memory-limit 1M sorts in runs under TMPDIR, prints what the sort in memory prints, and leaves no file")
    func binaryLeavesNoFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-sort-test-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = Data(Self.bigCSV().utf8)
        let small = try runTool(["-w", "0", "--sort", "-amount,name", "--memory-limit", "1M"], stdin: input, environment: ["PATH": "/usr/bin:/bin", "TMPDIR": dir.path])
        let large = try runTool(["-w", "0", "--sort", "-amount,name", "--memory-limit", "1G"], stdin: input)
        #expect(small.status == 0 && large.status == 0)
        #expect(small.stdout == large.stdout)
        #expect(small.out.split(separator: "\n").count == 40_002)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        // More runs than a low soft limit on open files allows: tablefmt raises it to the hard limit.
        let file = dir.appendingPathComponent("big.csv")
        try input.write(to: file)
        let limited = try runTool(["-c", "ulimit -Sn 12 && exec \"$0\" -w 0 --sort -amount,name --memory-limit 1M \"$1\"", TestPaths.binary.path, file.path],
                                  environment: ["PATH": "/usr/bin:/bin", "TMPDIR": dir.path], program: "/bin/sh")
        #expect(limited.status == 0 && limited.stdout == large.stdout, "\(limited.err)")
    }

    @Test("E1: a bad --memory-limit is a usage error; a TMPDIR that cannot be written ends the sort with status 74 and says where")
    func errors() throws {
        for bad in ["10", "lots", "0M", "-5M", "1.5G"] {
            let run = try runTool(["--memory-limit", bad])
            #expect(run.status == 64, "\(bad)")
            #expect(run.err.contains("invalid value '\(bad)' for --memory-limit"), "\(bad)")
        }
        // From a file: the run ends before it has read all of its input.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-sort-big-\(getpid()).csv")
        try Data(Self.bigCSV().utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try runTool(["--sort", "amount", "--memory-limit", "1M", file.path], environment: ["PATH": "/usr/bin:/bin", "TMPDIR": "/nonexistent-dir"])
        #expect(run.status == 74)
        #expect(run.err.contains("cannot make a temporary file to sort in") && run.err.contains("/nonexistent-dir"))
    }

    /// Rows in a few or many groups, numbers of any span (some past the exact limit), a number
    /// column with text in some groups, empty cells and null words.
    static func groupedCSV(seed: UInt64) -> String {
        var rng = SplitMix64(seed: seed)
        let groups = [2, 5, 40][rng.below(3)]
        var text = "region,qty,price,mixed\n"
        for _ in 0..<(rng.below(300) + 1) {
            let region = rng.below(10) == 0 ? "" : "r\(rng.below(groups))"
            let qty = rng.below(8) == 0 ? "NA" : String(rng.below(1000) - 100)
            let price = rng.below(40) == 0 ? "1e\(rng.below(300))" : rng.below(9) == 0 ? "" : "\(rng.below(10_000)).\(rng.below(100))"
            let mixed = rng.below(30) == 0 ? "n/a here" : String(rng.below(50))
            text += "\(region),\(qty),\(price),\(mixed)\n"
        }
        return text
    }

    @Test("W12/P2: 300 generated tables grouped (a third sorted first), with footers, --limit, --columns and list reports: in runs on disk, the same output as in memory")
    func groupsSameAsInMemory() throws {
        for seed in 0..<300 as Range<UInt64> {
            let text = Self.groupedCSV(seed: seed)
            var options = FormatOptions()
            options.groupBy = ColumnReference(seed % 2 == 0 ? "region" : "1")
            options.width = [nil, 80, 40][Int(seed % 3)]
            if seed % 4 == 0 { options.limit = Int(seed % 23) + 1 }
            if seed % 5 == 0 { options.groupFooter = false }
            if seed % 7 == 0 { options.columns = ColumnSelection(["price", "region", "mixed"]) }
            if seed % 11 == 0 { options.layout = .list }
            if seed % 3 == 1 { options.sort = [SortKey(seed % 2 == 0 ? "-qty" : "price")] }  // grouped after sorting
            let (memory, inMemory) = try Self.output(text, options, rereadable: seed % 3 != 0)
            options.memoryLimit = Int(seed % 3) * 900
            let (disk, onDisk) = try Self.output(text, options, rereadable: seed % 3 != 0)
            #expect(disk == memory, "seed \(seed)")
            #expect(onDisk.error == nil && inMemory.error == nil && onDisk.warnings == inMemory.warnings, "seed \(seed)")
        }
    }
}
