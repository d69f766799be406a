import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// A file's rows are read on a second thread, which also sizes and draws some batches itself
/// when the main thread is behind (RowPipeline's `help`). Which batches it takes depends on
/// timing; these tests make it take every batch, or none, and require the same output (P1 may not
/// change a byte of what the rules say).
@Suite("Row pipeline")
struct RowPipelineTests {
    static let words = ["Tea", "Müller, Anna", "株式会社サンプル", "café", "a \"quoted\" word", "two\nlines", "Ünïcödé",
                        "/usr/local/share/tablefmt/examples", "x", "NA", "", "Größe 配送 très, the größe."]

    /// A seeded table with a column of each kind, columns that turn out to be text late (after
    /// many numbers), units that agree or not, empty cells, null words and ragged rows.
    static func table(_ rng: inout SplitMix64, rows: Int) -> String {
        func quoted(_ field: String) -> String {
            field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
        }
        let lateText = rng.below(rows)
        let otherUnit = rng.below(2) == 0 ? rng.below(rows) : -1
        var lines = ["id,price,discount,weight,shipped,paid,note,count,extra"]
        for r in 0..<rows {
            var fields = [
                String(r + 1),
                (r == otherUnit ? "€" : "$") + String(rng.below(100_000)) + "." + String(rng.below(100)),
                String(rng.below(100)) + "." + String(rng.below(10)) + "%",
                String(rng.below(5000)) + (rng.below(3) == 0 ? ".5" : "") + " g",
                rng.below(10) == 0 ? "NA" : "20\(10 + rng.below(15))-0\(1 + rng.below(9))-1\(rng.below(10))",
                rng.below(2) == 0 ? "true" : "false",
                words[rng.below(words.count)],
                r == lateText ? "many" : String(rng.below(1 << rng.below(40))),
                rng.below(4) == 0 ? words[rng.below(words.count)] : "",
            ]
            switch rng.below(60) {
            case 0: fields.removeLast(1 + rng.below(3))  // short row
            case 1: fields.append("surplus \(r)")  // long row
            default: break
            }
            lines.append(fields.map(quoted).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func format(_ csv: String, tuning: PipelineTuning, _ configure: (inout FormatOptions) -> Void) throws -> (text: String, warnings: [String]) {
        var options = FormatOptions()
        options.pipeline = tuning
        configure(&options)
        let sink = MemorySink()
        let result = try TableFormatter.run(MemoryInput(csv, name: "t.csv", path: "t.csv"), options: options, output: sink)
        return (sink.text, result.warnings)
    }

    static let configurations: [(name: String, configure: @Sendable (inout FormatOptions) -> Void)] = [
        ("plain table", { _ in }),
        ("ANSI with zebra stripes", { $0.format = .ansi; $0.zebra = true }),
        ("box", { $0.style = .box }),
        ("Markdown", { $0.format = .markdown }),
        ("Markdown list report", { $0.format = .markdown; $0.layout = .list }),
        ("list report at 40", { $0.width = 40; $0.layout = .list }),
        ("pages at 50", { $0.width = 50; $0.layout = .pages }),
        ("two-line cells at 90", { $0.width = 90; $0.cellLines = 2 }),
        ("cut to 70", { $0.width = 70; $0.layout = .table }),
        ("limit 700", { $0.limit = 700 }),
    ]

    @Test("P1 keeps every rule: rows the reader thread sized and drew come out as if this thread had done it all", arguments: 0..<configurations.count)
    func helpedBatchesAreInvisible(_ index: Int) throws {
        let (name, configure) = Self.configurations[index]
        var rng = SplitMix64(seed: 0x7AB1E + UInt64(index))
        let csv = Self.table(&rng, rows: 1500)
        let alone = try Self.format(csv, tuning: PipelineTuning(batchSize: 7, helpPattern: [false]), configure)
        #expect(alone.text.count > 10_000, "\(name): a real table")
        for pattern in [[true], [false, true], [true, false, false], [false, true, true]] {
            let helped = try Self.format(csv, tuning: PipelineTuning(batchSize: 7, helpPattern: pattern), configure)
            #expect(helped.text == alone.text, "\(name): batches helped \(pattern)")
            #expect(helped.warnings == alone.warnings, "\(name): batches helped \(pattern)")
        }
        let usual = try Self.format(csv, tuning: PipelineTuning(), configure)
        #expect(usual.text == alone.text && usual.warnings == alone.warnings, "\(name): helped when behind")
    }

    @Test("C1, W2: two profiles of a table's rows, merged, type and size every column as one profile of all of them (seeded)")
    func mergedProfiles() throws {
        var rng = SplitMix64(seed: 0x5EED)
        for trial in 0..<60 {
            let csv = Self.table(&rng, rows: 50 + rng.below(400))
            let input = MemoryInput(csv, name: "t.csv", path: "t.csv")
            var table = try TableInput(input, options: InputOptions())
            var rows: [Record] = []
            var record = Record()
            while try table.next(into: &record) { rows.append(record) }
            let trackWords = trial % 2 == 0
            var one = ColumnProfiler(columns: table.columns, measure: DisplayWidth(), trackWords: trackWords)
            var first = ColumnProfiler(columns: table.columns, measure: DisplayWidth(), trackWords: trackWords)
            var second = ColumnProfiler(columns: [], measure: DisplayWidth(), trackWords: trackWords)
            // Runs of rows go to one share or the other, as batches do.
            var r = 0
            while r < rows.count {
                let run = 1 + rng.below(40)
                let toSecond = rng.below(2) == 0
                for row in rows[r..<min(r + run, rows.count)] {
                    one.add(row)
                    if toSecond {
                        second.sync(columns: table.columns)
                        second.add(row)
                    } else {
                        first.add(row)
                    }
                }
                r += run
            }
            first.merge(second)
            #expect(first.rows == one.rows)
            #expect(first.profiles.count == one.profiles.count)
            for (merged, whole) in zip(first.profiles, one.profiles) {
                let what = "trial \(trial), column \(whole.name)"
                #expect(merged.kind == whole.kind, "\(what)")
                #expect(merged.commonUnit == whole.commonUnit, "\(what)")
                #expect(merged.cellWidth(stripped: false) == whole.cellWidth(stripped: false), "\(what)")
                #expect(merged.cellWidth(stripped: true) == whole.cellWidth(stripped: true), "\(what)")
                #expect(merged.width == whole.width && merged.longestWord == whole.longestWord, "\(what)")
                #expect(merged.hasEmpties == whole.hasEmpties, "\(what)")
            }
        }
    }

    @Test("C3: merged profiles keep a unit only when both shares carried the same one, in the same place")
    func mergedUnits() {
        func profile(_ cells: [String]) -> ColumnProfiler {
            var profiler = ColumnProfiler(columns: ["price"], measure: DisplayWidth())
            for cell in cells { profiler.add(Record([cell])) }
            return profiler
        }
        func merged(_ a: [String], _ b: [String]) -> ColumnProfile {
            var first = profile(a)
            first.merge(profile(b))
            return first.profiles[0]
        }
        #expect(merged(["$1.50", "$2"], ["$30"]).commonUnit == "$")
        #expect(merged(["$1.50"], ["€2"]).commonUnit == nil)
        #expect(merged(["12 kg"], ["kg 12"]).commonUnit == nil)
        #expect(merged(["", "NA"], ["5 kg"]).commonUnit == "kg")
        #expect(merged(["5 kg"], ["", "NA"]).commonUnit == "kg")
        #expect(merged(["5 kg", "6 g"], ["7 kg"]).commonUnit == nil)
        #expect(merged(["5 kg"], ["7 kg", "8"]).commonUnit == nil)  // not every cell carries it
        #expect(merged(["5 kg"], ["7 kg", "8"]).kind == .decimal)
    }
}
