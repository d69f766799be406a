import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// O5: the bidirectional controls (U+202A–U+202E, U+2066–U+2069) and U+FEFF never reach the output
/// as themselves, in a cell, a heading, a title or a group heading, in any format or layout; and
/// standard error carries no control from the input or the command line.
@Suite("O5 hidden controls and standard error")
struct HiddenControlTests {
    static let hidden: [Unicode.Scalar] = [
        "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{FEFF}",
    ]
    /// Neighbours that must still print as themselves (same lead bytes, other scalars).
    static let harmless: [Unicode.Scalar] = ["\u{2014}", "\u{2026}", "\u{2029}", "\u{2070}", "\u{200F}", "\u{FF01}", "\u{FEFE}", "\u{E9}", "\u{4E2D}"]

    static func escape(_ scalar: Unicode.Scalar) -> String { "\\u" + String(format: "%04x", scalar.value) }

    @Test("O5: 400 generated tables with hidden controls in cells, headings and titles: each shows as \\uHHHH, in every format and layout")
    func generated() throws {
        var random = SplitMix64(seed: 0xB1D1)
        let pieces: [String] = (Self.hidden + Self.harmless).map { String($0) } + ["a", "b c", "12", "ab", "日本", "x,y"]
        for round in 0..<400 {
            func text(_ random: inout SplitMix64) -> String { (0..<(1 + random.below(5))).map { _ in pieces[random.below(pieces.count)] }.joined() }
            let columns = 1 + random.below(4)
            var rows = [(0..<columns).map { _ in text(&random) }]
            for _ in 0..<random.below(6) { rows.append((0..<columns).map { _ in text(&random) }) }
            let csv = rows.map { $0.map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }.joined(separator: ",") }.joined(separator: "\n") + "\n"
            var options = FormatOptions()
            options.format = [OutputFormat.plain, .ansi, .markdown][random.below(3)]
            options.layout = [LayoutMode.table, .list, .pages, .auto][random.below(4)]
            options.width = [nil, 30, 80][random.below(3)]
            options.title = random.below(2) == 0 ? text(&random) : nil
            if random.below(3) == 0 && columns > 1 { options.groupBy = .number(1) }
            let out = try ReliabilityKit.format(Array(csv.utf8), options: options).text
            let shown = Set(out.unicodeScalars)
            for scalar in Self.hidden {
                #expect(!shown.contains(scalar), "round \(round): U+\(String(scalar.value, radix: 16)) reached the output")
            }
            // Every hidden control in a data cell is accounted for by an escape, and its harmless
            // neighbours print as themselves: in a full-width Markdown table nothing is cut and no
            // cell is retitled (headings and titles are title-cased, so they are left out here).
            if options.format == .markdown && options.width == nil && options.layout == .table && options.groupBy == nil {
                let cells = rows.dropFirst().flatMap { $0 }.joined()
                for scalar in Self.hidden where cells.unicodeScalars.contains(scalar) {
                    #expect(out.contains(Self.escape(scalar)), "round \(round): no \(Self.escape(scalar)) in\n\(out)")
                }
                for scalar in Self.harmless where cells.unicodeScalars.contains(scalar) {
                    #expect(shown.contains(scalar), "round \(round): U+\(String(scalar.value, radix: 16)) was escaped")
                }
            }
        }
    }

    @Test("O5: widths count the escape (\\u202e is six columns), so lines stay within the width")
    func widths() {
        let measure = DisplayWidth()
        #expect(measure.width(of: "a\u{202E}b") == 8)
        #expect(measure.width(of: "\u{FEFF}") == 6)
        #expect(measure.width(of: "\u{200F}") == 0)  // RLM is a mark, not an embedding: left as it is
        #expect(Sanitize.visible("x\u{2067}y\u{2069}") == "x\\u2067y\\u2069")
        for scalar in Self.hidden {
            let bytes = Array(String(scalar).utf8)
            #expect(bytes.withUnsafeBufferPointer { Sanitize.needsEscaping(utf8: $0) }, "U+\(String(scalar.value, radix: 16))")
        }
        for scalar in Self.harmless {
            let bytes = Array(String(scalar).utf8)
            #expect(!bytes.withUnsafeBufferPointer { Sanitize.needsEscaping(utf8: $0) }, "U+\(String(scalar.value, radix: 16))")
        }
    }

    /// Standard error bytes that are controls (other than the line feeds ending messages) or hidden.
    static func unsafe(_ stderr: String) -> [Unicode.Scalar] {
        stderr.unicodeScalars.filter { $0 != "\n" && (Sanitize.isControl($0.value)) }
    }

    @Test("O5: messages quote hostile file names, headings, keys and arguments with visible escapes")
    func standardError() throws {
        let evil = "\u{1B}]0;pwned\u{07}\u{202E}\u{9B}2J"
        let folder = try ReliabilityKit.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = folder.appendingPathComponent("data.csv")
        try Data("\(evil)x,b\n1,2\n3\n".utf8).write(to: csv)
        let named = folder.appendingPathComponent("short\(evil).csv")
        try Data("a,b\n1,2\n3\n".utf8).write(to: named)
        let json = folder.appendingPathComponent("late.json")
        let key = #"k\u001b]0;pwned\u0007\u202e"#  // JSON escapes: the key holds ESC, BEL and RLO
        try Data(("{\"a\":1}\n{\"" + key + "\":2}\n").utf8).write(to: json)
        let runs: [(String, ToolRun)] = [
            ("missing file", try runTool([folder.appendingPathComponent("no\(evil).csv").path])),
            ("--columns", try runTool(["--columns", "zz\(evil)", csv.path])),
            ("--sort", try runTool(["--sort", "-zz\(evil)", csv.path])),
            ("--group-by", try runTool(["--group-by", "zz\(evil)", csv.path])),
            ("--width", try runTool(["-w", evil, csv.path])),
            ("--delimiter", try runTool(["-d", "ab\(evil)", csv.path])),
            ("--layout", try runTool(["--layout", evil, csv.path])),
            ("unknown option", try runTool(["--\(evil)"])),
            ("bundled option", try runTool(["-x\(evil)"])),
            ("late JSON key", try runTool(["--window", "1", "-"], stdin: try Data(contentsOf: json))),
            ("short row warning", try runTool(["-w", "0", named.path])),
            ("layout debug", try runTool(["-w", "20", csv.path], environment: ["PATH": "/usr/bin:/bin", "TABLEFMT_DEBUG": "layout"])),
        ]
        for (what, run) in runs {
            #expect(!run.err.isEmpty, "\(what): no message")
            #expect(Self.unsafe(run.err).isEmpty, "\(what): \(run.err.debugDescription)")
            #expect(run.err.contains("\\x1b]0;pwned\\x07") || run.err.contains("\\x1b"), "\(what): \(run.err.debugDescription)")
        }
    }
}
