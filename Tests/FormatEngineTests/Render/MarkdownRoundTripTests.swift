import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// A small GFM table reader for the tests: splits rows on unescaped `|`, trims cell edges as GFM
/// does, then undoes tablefmt's escapes — backslash before ASCII punctuation, `<br>` for a line
/// break, `&#32;` for an edge space.
enum GFMTable {
    static func cells(of line: String) -> [String] {
        var cells: [String] = []
        var raw = ""
        var chars = Array(line)
        if chars.first == "|" { chars.removeFirst() }
        if chars.last == "|" { chars.removeLast() }
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count, chars[i + 1].isASCII, chars[i + 1].isPunctuation || chars[i + 1].isSymbol {
                raw.append(c)
                raw.append(chars[i + 1])
                i += 2
                continue
            }
            if c == "|" {
                cells.append(raw)
                raw = ""
            } else {
                raw.append(c)
            }
            i += 1
        }
        cells.append(raw)
        return cells.map { decode($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Undoes the escapes in one left-to-right pass (so `\<br\>` stays literal text).
    static func decode(_ text: String) -> String {
        var out = ""
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            if chars[i] == "\\", i + 1 < chars.count, chars[i + 1].isASCII, chars[i + 1].isPunctuation || chars[i + 1].isSymbol {
                out.append(chars[i + 1])
                i += 2
            } else if String(chars[i..<min(chars.count, i + 4)]) == "<br>" {
                out.append("\n")
                i += 4
            } else if String(chars[i..<min(chars.count, i + 5)]) == "&#32;" {
                out.append(" ")
                i += 5
            } else {
                out.append(chars[i])
                i += 1
            }
        }
        return out
    }

    /// The table's rows (heading row first), skipping the alignment row.
    static func rows(of markdown: String) -> [[String]] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { $0.hasPrefix("|") }
        return lines.enumerated().filter { $0.offset != 1 }.map { cells(of: $0.element) }
    }
}

/// Writes rows as RFC 4180 CSV, every field quoted.
func csvText(_ rows: [[String]]) -> String {
    rows.map { row in row.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",") }.joined(separator: "\n") + "\n"
}

struct MarkdownRoundTripTests {
    func markdown(_ csv: String, width: Int? = nil) throws -> String {
        var options = FormatOptions()
        options.format = .markdown
        options.moveUnits = false
        options.titleHeadings = false
        options.width = width
        let sink = MemorySink()
        let result = try TableFormatter.run(MemoryInput(csv), options: options, output: sink)
        #expect(result.error == nil)
        return sink.text
    }

    @Test("O4: Markdown cells parse back to exactly the input cells (seeded random tables)")
    func roundTrip() throws {
        var rng = SplitMix64(seed: 0x6D61_726B)
        let pieces = ["a", "Z", "7", "3.50", "-", " ", "|", "\\", "*", "_", "`", "[", "]", "<", ">", "&", "#", "!", "~", "\n", "<br>",
                      "&#32;", "é", "日本", "🙂", "e\u{301}", "\"", ",", "x|y", "**", "\\|", "  "]
        for _ in 0..<300 {
            let columns = Int.random(in: 1...5, using: &rng)
            let rowCount = Int.random(in: 1...6, using: &rng)
            var rows: [[String]] = []
            for r in 0...rowCount {
                rows.append((0..<columns).map { c in
                    if r == 0 { return "h\(c)" + (Bool.random(using: &rng) ? pieces.randomElement(using: &rng) ?? "" : "") }
                    return (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined()
                })
            }
            // Blank-only rows would be skipped as blank lines only if unquoted; ours are quoted.
            let text = try markdown(csvText(rows))
            let parsed = GFMTable.rows(of: text)
            #expect(parsed == rows, "markdown:\n\(text)")
            if parsed != rows { return }
        }
    }

    @Test("O4: alignment row follows the column types")
    func alignmentRow() throws {
        let text = try markdown("name,qty,price\nTea,3,4.50\nCoffee,10,12.00\n")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[1] == "| :--- | ---: | ---: |")
    }

    @Test("O4: no width limit and no truncation unless --width is given")
    func noTruncation() throws {
        let long = String(repeating: "word ", count: 60)
        let text = try markdown("a,b\n\"\(long)\",1\n")
        #expect(GFMTable.rows(of: text)[1][0] == long)
        let cut = try markdown("a,b\n\"\(long)\",1\n", width: 40)
        #expect(GFMTable.rows(of: cut)[1][0].hasSuffix("…"))
    }
}
