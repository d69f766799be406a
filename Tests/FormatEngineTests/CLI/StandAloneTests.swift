import CZlib
import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// Files as users have them (I8 compressed input, I9 several files, W9 column ranges and
/// exclusions) and a tool that installs like one (`-h`, `--help`, the man page, completions).
@Suite("Stand alone")
struct StandAloneTests {
    typealias Kit = ReliabilityKit

    // MARK: - Generated inputs

    /// A random table as CSV or JSON Lines: quoted fields, line breaks, commas, non-ASCII, numbers.
    static func table(_ random: inout SplitMix64) -> (bytes: [UInt8], json: Bool) {
        let pieces = ["a", "42", "-3.5", "x,y", "say \"hi\"", "two\nlines", "Müller", "株式会社", "", "1e3", "2024-03-01", " lead"]
        let columns = 1 + random.below(5)
        let rows = random.below(40)
        let json = random.below(3) == 0
        var text = ""
        func cell(_ random: inout SplitMix64) -> String { pieces[random.below(pieces.count)] + (random.below(4) == 0 ? String(random.below(1000)) : "") }
        if json {
            for _ in 0..<max(1, rows) {
                let fields = (0..<columns).map { c -> String in
                    let value = cell(&random).replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n")
                    return "\"k\(c)\":\"\(value)\""
                }
                text += "{" + fields.joined(separator: ",") + "}\n"
            }
        } else {
            text += (0..<columns).map { "col\($0)" }.joined(separator: ",") + "\n"
            for _ in 0..<rows {
                text += (0..<columns).map { _ -> String in
                    let value = cell(&random)
                    return value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == " " }) ? "\"" + value.replacing("\"", with: "\"\"") + "\"" : value
                }.joined(separator: ",") + "\n"
            }
        }
        return (Array(text.utf8), json)
    }

    /// One gzip member of `bytes` made by zlib's deflate at `level` (0 stores, 9 compresses most).
    static func gzipMember(_ bytes: [UInt8], level: Int32) -> [UInt8] {
        var stream = z_stream()
        #expect(deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 64)
        let produced = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                let status = deflate(&stream, Z_FINISH)
                #expect(status == Z_STREAM_END)
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        return Array(output[0..<produced])
    }

    // MARK: - I8: compressed input

    @Test("I8: gzip of 300 generated tables formats exactly as the plain bytes, in one member or several, at any read size")
    func gzipRoundTrip() throws {
        var random = SplitMix64(seed: 0x9A1B)
        for round in 0..<300 {
            let (plain, _) = Self.table(&random)
            // Split the input into 1-3 members (as `cat a.gz b.gz` makes), each at its own level.
            var cuts = [0, plain.count]
            for _ in 0..<random.below(3) { cuts.append(random.below(plain.count + 1)) }
            cuts.sort()
            var compressed: [UInt8] = []
            for (from, to) in zip(cuts, cuts.dropFirst()) {
                compressed += Self.gzipMember(Array(plain[from..<to]), level: Int32(random.below(10)))
            }
            let width = [nil, 30, 80][random.below(3)]
            let options = Kit.options(width: width)
            let chunk = [1, 2, 3, 7, 64, 4096, 1 << 16][random.below(7)]
            let rereadable = random.below(2) == 0
            let expected = try Kit.format(plain, options: options, rereadable: rereadable)
            let got = try Kit.format(compressed, options: options, chunkSize: chunk, rereadable: rereadable)
            #expect(got.bytes == expected.bytes, "round \(round), read size \(chunk)")
            #expect(got.result.error == expected.result.error, "round \(round)")
            #expect(got.result.warnings == expected.result.warnings, "round \(round)")
        }
    }

    @Test("I8: gzip(1)'s own output, under any file name and from a pipe, formats as the plain file")
    func gzipToolOutput() throws {
        guard FileManager.default.isExecutableFile(atPath: "/bin/gzip") || FileManager.default.isExecutableFile(atPath: "/usr/bin/gzip") else { return }
        var random = SplitMix64(seed: 77)
        let folder = try Kit.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for round in 0..<12 {
            let (plain, json) = Self.table(&random)
            let name = json ? "t\(round).jsonl" : "t\(round).csv"
            let plainURL = folder.appendingPathComponent(name)
            try Data(plain).write(to: plainURL)
            let zipped = try runTool(["-c", "gzip -c -\(1 + round % 9) \"$0\"", plainURL.path], program: "/bin/sh")
            #expect(zipped.status == 0)
            let odd = folder.appendingPathComponent("t\(round) data.bin")
            let named = folder.appendingPathComponent(name + ".gz")
            try zipped.stdout.write(to: odd)
            try zipped.stdout.write(to: named)
            let expected = try runTool(["-w", "60", plainURL.path])
            #expect(expected.status == 0)
            let byExtension = try runTool(["-w", "60", named.path])
            #expect(byExtension.stdout == expected.stdout, "\(named.lastPathComponent)")
            #expect(byExtension.status == expected.status)
            // No extension to go by: the format is sniffed from the decompressed bytes.
            let sniffed = try runTool(["-w", "60", odd.path])
            let plainSniffed = try runTool(["-w", "60", "-"], stdin: Data(plain))
            #expect(sniffed.stdout == plainSniffed.stdout, "\(odd.lastPathComponent)")
            let piped = try runTool(["-w", "60"], stdin: zipped.stdout)
            #expect(piped.stdout == plainSniffed.stdout)
            #expect(piped.status == 0)
        }
    }

    @Test("I8: the extension under .gz chooses the format as the uncompressed name would (x.tsv.gz is TSV)")
    func extensionUnderGzip() throws {
        let text = Array("a,b,c\td\n1,2,3\t4\n".utf8)
        let options = Kit.options(width: nil)
        for name in ["x.tsv", "x.csv", "x.json", "x"] {
            let plain = try Kit.format(text, path: name, options: options)
            for suffix in [".gz", ".GZ", ".gzip"] {
                let zipped = try Kit.format(Self.gzipMember(text, level: 6), path: name + suffix, options: options)
                #expect(zipped.bytes == plain.bytes, "\(name + suffix)")
                #expect(zipped.result.error == plain.result.error, "\(name + suffix)")
            }
        }
        #expect(try Kit.format(Self.gzipMember(text, level: 6), path: "x.tsv.gz", options: options).lines.first == "A,b,c  D")
    }

    @Test("I8: truncated, corrupt or trailing-garbage gzip stops with exit 65 and the compressed byte")
    func brokenGzip() throws {
        var text = "id,name\n"
        for i in 0..<2000 { text += "\(i),name \(i * 7919 % 1000)\n" }
        let good = Self.gzipMember(Array(text.utf8), level: 6)
        for cut in [2, 5, 10, good.count / 2, good.count - 4, good.count - 1] {
            let out = try Kit.format(Array(good[0..<cut]), options: Kit.options(width: nil))
            #expect(out.result.error?.kind == .malformed, "cut at \(cut)")
            #expect(out.result.error?.message.contains("gzip data ends early") == true, "cut at \(cut): \(String(describing: out.result.error))")
        }
        var corrupt = good
        corrupt[good.count / 2] ^= 0x55
        corrupt[good.count / 2 + 1] ^= 0xAA
        let bad = try Kit.format(corrupt, options: Kit.options(width: nil))
        #expect(bad.result.error?.kind == .malformed)
        #expect(bad.result.error?.message.hasPrefix("gzip data") == true)
        let trailing = try Kit.format(good + Array("not gzip".utf8), options: Kit.options(width: nil))
        #expect(trailing.result.error?.message == "gzip data is followed by bytes that are not gzip (compressed byte \(good.count))")
        // Through the binary: exit 65.
        let url = try Kit.temporaryFile("cut.csv.gz", Array(good[0..<(good.count / 2)]))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let run = try runTool([url.path])
        #expect(run.status == 65)
        #expect(run.err.contains("cut.csv.gz: gzip data ends early: the file is truncated (compressed byte "))
    }

    @Test("I8: zstd, bzip2 and xz are named with the command that reads them (exit 65, nothing printed)")
    func otherCompression() throws {
        let cases: [(magic: [UInt8], tool: String)] = [
            ([0x28, 0xB5, 0x2F, 0xFD], "zstd -dc"), (Array("BZh9".utf8), "bzip2 -dc"), ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "xz -dc"),
        ]
        let folder = try Kit.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (magic, tool) in cases {
            let url = folder.appendingPathComponent("my data.csv")
            try Data(magic + [0x01, 0x02, 0x03, 0x00, 0x10]).write(to: url)
            let run = try runTool([url.path])
            #expect(run.status == 65)
            #expect(run.stdout.isEmpty)
            #expect(run.err.contains("try: \(tool) '\(url.path)' | tablefmt"), "\(run.err)")
            let piped = try runTool([], stdin: Data(magic + [1, 2, 3]))
            #expect(piped.status == 65)
            #expect(piped.err.contains("try: \(tool) FILE | tablefmt"), "\(piped.err)")
        }
        // A prefix of a magic that ends the input is data, not an error: `BZ` is a one-cell CSV.
        let short = try runTool(["-w", "0"], stdin: Data("BZ\n".utf8))
        #expect(short.status == 0)
        #expect(short.out.hasPrefix("BZ\n"))
    }

    // MARK: - I9: several files

    @Test("I9: several files print one table each, titled by the file, in order; the exit status is the worst")
    func severalFiles() throws {
        let folder = try Kit.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.csv"), b = folder.appendingPathComponent("b.json")
        let bad = folder.appendingPathComponent("bad.csv")
        try Data("x,y\n1,2\n3,4\n".utf8).write(to: a)
        try Data(#"[{"k":"v","n":1.5},{"k":"w","n":2}]"#.utf8).write(to: b)
        try Data("x,y\n5,6\n\"open,7\n".utf8).write(to: bad)
        // Each file's part is what that file alone prints with its name as the title.
        func tool(_ arguments: [String]) throws -> ToolRun { try runTool(["-w", "60"] + arguments, directory: folder) }
        let all = try tool(["a.csv", "missing.csv", "b.json", "bad.csv"])
        let parts = try ["a.csv", "b.json", "bad.csv"].map { try tool(["--title", $0, $0]) }
        #expect(all.out == parts.map(\.out).joined(separator: "\n"))
        #expect(all.out.hasPrefix("a.csv\nX  Y\n"))
        #expect(all.status == 66, "the worst of 0, 66, 0, 65")
        #expect(all.err.contains("missing.csv: cannot open"))
        #expect(all.err.contains("bad.csv:3:"), "\(all.err)")
        #expect(parts[2].status == 65)
        // A usage error in one file (no such column) is 64 there; the others still print.
        let columns = try tool(["--columns", "x", "a.csv", "b.json"])
        #expect(columns.status == 64)
        #expect(columns.out.hasPrefix("a.csv\nX\n"))
        #expect(columns.err.contains("no column 'x'"))
        // --title goes before each file's name.
        let titled = try tool(["--title", "Run 7", "a.csv", "b.json"])
        #expect(titled.out.hasPrefix("Run 7 — a.csv\n"))
        #expect(titled.out.contains("\n\nRun 7 — b.json\n"))
        // One file prints no title, as before.
        let one = try tool(["a.csv"])
        #expect(one.out.hasPrefix("X  Y\n"))
    }

    // MARK: - W9: ranges and exclusions

    @Test("W9: ranges, numbers, names and exclusions pick the columns an independent model picks (2,000 selections)")
    func selectionModel() throws {
        var random = SplitMix64(seed: 4242)
        for round in 0..<2000 {
            let count = 1 + random.below(9)
            let columns = (0..<count).map { "c\($0)" }
            var items: [String] = []
            var excluded: [String] = []
            var model: [Int] = []
            var modelExcluded = Set<Int>()
            var valid = true
            var anyIncluded = false
            for _ in 0..<random.below(4) {
                let kind = random.below(4)
                anyIncluded = anyIncluded || kind < 3
                switch kind {
                case 0:
                    let i = random.below(count + 1)
                    items.append("c\(i)")
                    if i < count { model.append(i) } else { valid = false }
                case 1:
                    let n = 1 + random.below(count + 1)
                    items.append(String(n))
                    if n <= count { model.append(n - 1) } else { valid = false }
                case 2:
                    let from = 1 + random.below(count + 1), to = from + random.below(3)
                    let open = random.below(3) == 0
                    items.append(open ? "\(from)-" : "\(from)-\(to)")
                    let last = open ? count : to
                    if from <= count && last <= count { model += Array((from - 1)..<last) } else { valid = false }
                default:
                    let i = random.below(count)
                    if random.below(2) == 0 { items.append("!c\(i)") } else { excluded.append(String(i + 1)) }
                    modelExcluded.insert(i)
                }
            }
            let selection = ColumnSelection(items, excluding: excluded.map(ColumnSelection.Item.init))
            let base = anyIncluded ? model : Array(0..<count)
            let expected = base.filter { !modelExcluded.contains($0) }
            do {
                let got = try selection.resolve(in: columns)
                #expect(valid && !expected.isEmpty, "round \(round): \(items) \(excluded) resolved to \(got)")
                #expect(got == expected, "round \(round): \(items) excluding \(excluded)")
            } catch {
                #expect(!valid || expected.isEmpty, "round \(round): \(items) \(excluded): \(error)")
            }
        }
    }

    @Test("W9: a column really called 2-3 or 4 is found by its name first; --exclude and ! through the binary")
    func selectionNames() throws {
        let columns = ["a", "2-3", "b", "4", "c"]
        #expect(try ColumnSelection(["2-3"]).resolve(in: columns) == [1])
        #expect(try ColumnSelection(["3-4"]).resolve(in: columns) == [2, 3])
        #expect(try ColumnSelection(["4"]).resolve(in: columns) == [3])
        #expect(throws: SelectionError.self) { try ColumnSelection(["6-"]).resolve(in: columns) }
        #expect(throws: SelectionError.self) { try ColumnSelection(["!1-"]).resolve(in: columns) }
        let orders = TestPaths.fixtures.appendingPathComponent("examples/orders.csv").path
        let picked = try runTool(["-w", "0", "--columns", "1,3-5,!region", orders])
        let excluded = try runTool(["-w", "0", "--exclude", "customer,region,6-", orders])
        let named = try runTool(["-w", "0", "--columns", "order_id,qty,unit_price", orders])
        #expect(picked.status == 0 && excluded.status == 0)
        #expect(picked.out == named.out)
        #expect(excluded.out == named.out)
        let none = try runTool(["-w", "0", "--exclude", "1-", orders])
        #expect(none.status == 64)
        #expect(none.err.contains("every column is excluded"))
    }

    // MARK: - Help, man page, completions

    @Test("-h is a short usage (at most 25 lines); --help in a pipe keeps every line within 80 columns and lists every option")
    func help() throws {
        let short = try runTool(["-h"])
        #expect(short.status == 0)
        #expect(short.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().count <= 25)
        let full = try runTool(["--help"])
        #expect(full.status == 0)
        let measure = DisplayWidth()
        for line in full.out.split(separator: "\n") {
            #expect(measure.width(of: line) <= 80, "\(line)")
        }
        #expect(full.out != short.out)
        let man = try runTool(["--generate", "man"]).out
        let bash = try runTool(["--generate", "bash"]).out
        let zsh = try runTool(["--generate", "zsh"]).out
        let fish = try runTool(["--generate", "fish"]).out
        for option in ["input-format", "delimiter", "no-header", "encoding", "window", "units", "headers", "wrap", "ellipsis", "null",
                       "width", "max-width", "min-width", "fill", "layout", "list-report", "columns", "exclude", "limit", "sort",
                       "group-by", "footer", "title", "ambiguous-wide", "format", "color", "no-color", "style", "zebra", "help", "version", "generate"] {
            #expect(full.out.contains("--\(option)"), "--help lacks --\(option)")
            #expect(man.contains("\\-\\-" + option.replacing("-", with: "\\-")), "man page lacks --\(option)")
            #expect(bash.contains("--\(option)"), "bash completion lacks --\(option)")
            #expect(zsh.contains("--\(option)"), "zsh completion lacks --\(option)")
            #expect(fish.contains("-l \(option)"), "fish completion lacks --\(option)")
        }
        // Every exit status the tool can return is documented, in --help and in the man page.
        for status in ["0", "64", "65", "66", "70", "74"] {
            #expect(full.out.contains("\n  \(status) "), "--help lacks exit status \(status)")
            #expect(man.contains(".TP\n\\fB\(status)\\fR"), "man page lacks exit status \(status)")
        }
        #expect(try runTool(["--generate", "pdf"]).status == 64)
    }

    @Test("O1: --no-color is --color never, even when FORCE_COLOR asks for colour")
    func noColor() throws {
        let orders = TestPaths.fixtures.appendingPathComponent("examples/orders.csv").path
        let environment = ["PATH": "/usr/bin:/bin", "FORCE_COLOR": "1"]
        let never = try runTool(["-w", "0", "--color", "never", orders], environment: environment)
        let noColor = try runTool(["-w", "0", "--no-color", orders], environment: environment)
        let forced = try runTool(["-w", "0", orders], environment: environment)
        #expect(noColor.out == never.out)
        #expect(!noColor.out.contains("\u{1B}["))
        #expect(forced.out.contains("\u{1B}["))
    }
}

extension StandAloneTests {
    @Test("--version names the newest release in CHANGELOG.md")
    func versionMatchesChangelog() throws {
        let changelog = try String(contentsOf: TestPaths.root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let release = changelog.split(separator: "\n").first { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        let version = release.flatMap { $0.split(separator: "]").first?.dropFirst(4) }
        #expect(version != nil)
        #expect(try runTool(["--version"]).out == "tablefmt \(version ?? "?")\n")
    }
}
