import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// The printer's steps as values (`FormatRun`): step 1 (`readAndSize`) says how the rows are held as
/// the input and the options call for (P1, P2, P4, W11, W12), and counts every row; step 2
/// (`transform`) puts held rows in the order `--sort` asks (W11) and finds the groups (W12) as an
/// independent sort and grouping of the same generated rows do; the four steps run by hand print
/// the bytes `TableFormatter.run` prints.
@Suite("Run steps")
struct RunStepsTests {
    /// A generated table: `id` (the row's number), `num` (integers, with repeats), `grp` (a few
    /// values), `txt`; its rows as the numbers and groups they hold.
    struct Generated {
        var csv: String
        var nums: [Int]
        var groups: [String]
    }

    static func generate(_ rng: inout SplitMix64, rows: Int) -> Generated {
        var lines = ["id,num,grp,txt"]
        var nums: [Int] = []
        var groups: [String] = []
        let spread = 1 + rng.below(50)  // a narrow spread gives many ties
        let names = ["north", "south", "east", "west", "mid"].prefix(1 + rng.below(5))
        for r in 0..<rows {
            let num = rng.below(2 * spread + 1) - spread
            let group = names[names.startIndex + rng.below(names.count)]
            nums.append(num)
            groups.append(group)
            lines.append("\(r),\(num),\(group),t\(rng.below(1000))")
        }
        return Generated(csv: lines.joined(separator: "\n") + "\n", nums: nums, groups: groups)
    }

    static func options(_ configure: (inout FormatOptions) -> Void) -> FormatOptions {
        var options = FormatOptions()
        options.width = 0
        configure(&options)
        return options
    }

    /// Step 1 for `input` with `options`.
    static func sized(_ input: some InputProvider, _ options: FormatOptions) throws -> (FormatRun, FormatRun.Sized) {
        let run = FormatRun(input, options: options, output: MemorySink())
        let table = try TableInput(input, options: options.input)
        return (run, run.readAndSize(table))
    }

    static func kind(_ rows: FormatRun.HeldRows) -> String {
        switch rows {
        case .all(_, let typing): return typing == nil ? "all" : "all typed"
        case .window(let rows): return "window \(rows.count)"
        case .file: return "file"
        case .pieces: return "pieces"
        case .pieceGroups: return "piece groups"
        case .sorted: return "sorted"
        case .externalGroups: return "external groups"
        }
    }

    static func file(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-steps-\(UUID().uuidString).csv")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test("Step 1 holds the rows as the input and the options call for, and counts them all")
    func heldAsAsked() throws {
        var rng = SplitMix64(seed: 28)
        let data = Self.generate(&rng, rows: 600)
        let url = try Self.file(data.csv)
        defer { try? FileManager.default.removeItem(at: url) }
        let pipe = MemoryInput(data.csv, isRereadable: false)
        let reread = MemoryInput(data.csv, isRereadable: true)
        let cases: [(String, any InputProvider, FormatOptions)] = [
            ("file", reread, Self.options { $0.pipeline.pieceBytes = nil }),
            ("pieces", try FileInput(path: url.path), Self.options { $0.pipeline.pieceBytes = 512 }),
            ("window 25", pipe, Self.options { $0.window = 25 }),
            ("window 600", pipe, Self.options { $0.window = nil }),
            ("all", pipe, Self.options { $0.layout = .pages }),
            ("all typed", pipe, Self.options { $0.sort = [SortKey("num")] }),
            ("sorted", pipe, Self.options { $0.sort = [SortKey("num")]; $0.memoryLimit = 2048 }),
            ("all", pipe, Self.options { $0.groupBy = ColumnReference("grp") }),
            ("external groups", pipe, Self.options { $0.groupBy = ColumnReference("grp"); $0.memoryLimit = 2048 }),
            ("piece groups", try FileInput(path: url.path), Self.options { $0.groupBy = ColumnReference("grp"); $0.pipeline.pieceBytes = 512 }),
        ]
        for (expected, input, options) in cases {
            let (_, sized) = try Self.sized(input, options)
            #expect(Self.kind(sized.rows) == expected, "\(expected)")
            let counted = expected.hasPrefix("window") ? min(options.window ?? .max, data.nums.count) : data.nums.count
            #expect(sized.count == counted, "\(expected)")
            #expect(sized.reader.error == nil, "\(expected)")
            #expect(sized.reader.table.columns == ["id", "num", "grp", "txt"], "\(expected)")
            #expect((sized.pieces > 0) == expected.hasPrefix("piece"), "\(expected)")
        }
    }

    @Test("Step 2 orders held rows as a stable sort by the key does, and groups them in first-seen order (W11, W12)")
    func arrangedAsIndependentSortAndGrouping() throws {
        var rng = SplitMix64(seed: 2811)
        for trial in 0..<60 {
            let data = Self.generate(&rng, rows: 1 + rng.below(300))
            let descending = trial % 2 == 1
            let grouped = trial % 3 == 0
            let options = Self.options {
                $0.sort = [SortKey(descending ? "-num" : "num")]
                if grouped { $0.groupBy = ColumnReference("grp") }
            }
            let (run, sized) = try Self.sized(MemoryInput(data.csv, isRereadable: trial % 4 == 0), options)
            let transforms = try TableFormatter.Transforms(options, columns: sized.reader.table.columns)
            let arranged = run.transform(sized, transforms)
            guard case .all(let rows, _) = arranged.rows else {
                Issue.record("trial \(trial): held as \(Self.kind(arranged.rows))")
                continue
            }
            // Independently: the row numbers stably sorted by their number.
            let expected = data.nums.indices.sorted { a, b in
                data.nums[a] != data.nums[b] ? (descending ? data.nums[a] > data.nums[b] : data.nums[a] < data.nums[b]) : a < b
            }
            #expect(rows.map { Int($0.string(at: 0)) } == expected, "trial \(trial)")
            guard grouped else {
                #expect(arranged.groups.members.isEmpty, "trial \(trial)")
                continue
            }
            // Groups in the order their values first appear in the sorted rows, each with its rows'
            // positions in that order, and the sum of its numbers.
            var order: [String] = []
            var members: [String: [Int]] = [:]
            for (position, row) in expected.enumerated() {
                let group = data.groups[row]
                if members[group] == nil { order.append(group) }
                members[group, default: []].append(position)
            }
            #expect(arranged.groups.members.map(\.value) == order, "trial \(trial)")
            #expect(arranged.groups.members.map(\.rows) == order.map { members[$0]! }, "trial \(trial)")
            // Footers per shown column (id, num, grp, txt): `num`'s is its exact sum.
            let sums = order.map { group in members[group]!.reduce(0) { $0 + data.nums[expected[$1]] } }
            #expect(arranged.groups.footers.map { $0[1] } == sums.map { String($0) }, "trial \(trial)")
        }
    }

    @Test("The four steps run by hand print what TableFormatter.run prints")
    func stepsByHandAsRun() throws {
        var rng = SplitMix64(seed: 284)
        let data = Self.generate(&rng, rows: 400)
        let shapes: [(inout FormatOptions) -> Void] = [
            { _ in },
            { $0.format = .markdown },
            { $0.layout = .list; $0.width = 40 },
            { $0.groupBy = ColumnReference("grp") },
            { $0.sort = [SortKey("txt")]; $0.limit = 30 },
            { $0.sort = [SortKey("num")]; $0.groupBy = ColumnReference("grp"); $0.memoryLimit = 2048 },
        ]
        for (k, shape) in shapes.enumerated() {
            for rereadable in [true, false] {
                let options = Self.options(shape)
                let input = MemoryInput(data.csv, isRereadable: rereadable)
                let whole = MemorySink()
                _ = try TableFormatter.run(input, options: options, output: whole)

                let byHand = MemorySink()
                let run = FormatRun(input, options: options, output: byHand)
                let sized = run.readAndSize(try TableInput(input, options: options.input))
                let transforms = try TableFormatter.Transforms(options, columns: sized.reader.table.columns)
                let arranged = run.transform(sized, transforms)
                let plan = run.planLayout(arranged.profiler.profiles, rows: arranged.count, selection: transforms.selection)
                let drawn = try run.draw(arranged, plan: plan, transforms: transforms)
                #expect(drawn.error == nil, "shape \(k)")
                #expect(!whole.text.isEmpty, "shape \(k)")
                #expect(byHand.text == whole.text, "shape \(k), rereadable \(rereadable)")
            }
        }
    }
}
