import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// C5–C8 through `TableFormatter.run` with explicit widths: heading lines, cell lines, truncation, empty cells.
extension WidthRuleTests {
    // MARK: - C5 heading lines

    @Test("C5: with a width limit a heading takes two lines rather than widen its column")
    func headingTwoLines() {
        // Cells 12 wide, heading "Long Heading Name" 17: the column stays 12, the heading wraps.
        let csv = "long_heading_name,amount\nabcdefghijkl,1234567\n"
        let lines = RuleKit.outputLines(csv, width: 40)
        #expect(lines == [
            "Long Heading",
            "Name           Amount",
            "────────────  ───────",
            "abcdefghijkl  1234567",
        ])
        #expect(!lines.joined().contains("…"))
    }

    @Test("C5: a heading is cut only when two lines at its column's width cannot hold it")
    func headingCutOnlyWhenTwoLinesCannot() {
        // Container 20: the text column is capped at 8 (W3); "Long Heading Name" needs three lines
        // at 8, so the second line ends in "…". The 7-digit number is never cut.
        let csv = "long_heading_name,amount\nabcdefghijkl,1234567\n"
        let lines = RuleKit.outputLines(csv, width: 20)
        #expect(lines.count == 4)
        #expect(lines[0] == "Long")
        #expect(lines[1].hasPrefix("Heading…"))
        #expect(lines[1].hasSuffix(" Amount"))
        #expect(lines[3] == "abcdefg…  1234567")
    }

    @Test("C5: with no width limit headings stay on one line")
    func headingOneLineUnlimited() {
        let csv = "long_heading_name,amount\nabcdefghijkl,1234567\n"
        let lines = RuleKit.outputLines(csv, width: nil)
        #expect(lines == [
            "Long Heading Name   Amount",
            "─────────────────  ───────",
            "abcdefghijkl       1234567",
        ])
        #expect(RuleKit.plan(csv, width: nil).headingLines == 1)
        #expect(RuleKit.plan(csv, width: 0).headingLines == 1)
    }

    @Test("C7: printable ASCII wider than its column is cut at its end, its first bytes and `…` filling the column, a column narrower than `…` its first bytes alone; what fits is whole (generated, `…` one and two columns wide)")
    func asciiCutAtEnd() {
        var rng = SplitMix64(seed: 0xC7C7)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let inner = letters + Array("0123456789 !#$%&'()*+-./:;<=>?@[]^_{|}~`\"")
        var narrowest = 0
        for trial in 0..<200 {
            let ambiguousWide = trial % 2 == 1
            let notes = (0..<(1 + rng.below(12))).map { _ -> String in
                let length = 1 + [rng.below(8), rng.below(40), rng.below(200)][rng.below(3)]
                // A letter first and last: neither a number nor a null word, no edge spaces.
                let middle = (0..<max(0, length - 2)).map { _ in inner[rng.below(inner.count)] }
                return String(letters[rng.below(letters.count)]) + String(middle) + (length > 1 ? String(letters[rng.below(letters.count)]) : "")
            }
            let csv = "id,note\n" + notes.enumerated().map { "\($0.offset + 1),\"\($0.element.replacingOccurrences(of: "\"", with: "\"\""))\"" }.joined(separator: "\n") + "\n"
            // Now and then a width that leaves the notes one or two columns (`--min-width 1`).
            let narrow = trial % 4 >= 2
            let lines = RuleKit.outputLines(csv, width: narrow ? 5 + rng.below(2) : 12 + rng.below(50)) {
                $0.layout = .table
                $0.ambiguousWide = ambiguousWide
                if narrow { $0.minWidth = .cells(1) }
            }
            // The rule under the headings: a run of rule characters per column.
            guard let ruleAt = lines.firstIndex(where: { $0.hasPrefix("─") || $0.hasPrefix("-") }) else {
                Issue.record("no heading rule: \(lines)")
                continue
            }
            let runs = lines[ruleAt].split(separator: " ", omittingEmptySubsequences: true)
            guard runs.count == 2 else {
                Issue.record("two columns expected: \(lines)")
                continue
            }
            let noteStart = lines[ruleAt].count - runs[1].count
            let noteWidth = runs[1].count
            let ellipsisWidth = ambiguousWide ? 2 : 1
            for (row, note) in zip(lines[(ruleAt + 1)...], notes) {
                let cell = String(row.dropFirst(noteStart))
                let expected = note.count <= noteWidth ? note
                    : noteWidth < ellipsisWidth ? String(note.prefix(noteWidth)) : String(note.prefix(noteWidth - ellipsisWidth)) + "…"
                #expect(cell == expected, "trial \(trial), column \(noteWidth)")
            }
            if noteWidth < ellipsisWidth { narrowest += 1 }
        }
        // The column narrower than `…` was met.
        #expect(narrowest > 5, "\(narrowest) tables with a column narrower than …")
    }

    // MARK: - C6 cell lines

    @Test("C6: one line per cell by default")
    func oneLineDefault() {
        let lines = RuleKit.outputLines("note\nalpha beta gamma\n", width: 12)
        #expect(lines == ["Note", "────────────", "alpha beta …"])
    }

    @Test("C6: --wrap 2 wraps a cell at a space onto a second line")
    func wrapAtSpaces() {
        let lines = RuleKit.outputLines("note\nalpha beta gamma\n", width: 12) { $0.cellLines = 2 }
        #expect(lines == ["Note", "────────────", "alpha beta", "gamma"])
    }

    @Test("C6: --wrap 2 breaks a word longer than the column")
    func wrapBreaksLongWord() {
        let lines = RuleKit.outputLines("note\nabcdefghijklmnop\n", width: 12) { $0.cellLines = 2 }
        #expect(lines == ["Note", "────────────", "abcdefghijkl", "mnop"])
    }

    @Test("C6: never more than two lines; what does not fit is truncated")
    func wrapThenTruncate() {
        let lines = RuleKit.outputLines("note\nalpha beta gamma delta epsilon\n", width: 12) { $0.cellLines = 2 }
        #expect(lines.count == 4)
        #expect(lines[2] == "alpha beta")
        #expect(lines[3].hasPrefix("gamma"))
        #expect(lines[3].hasSuffix("…"))
        #expect(RuleKit.width(lines[3]) <= 12)
    }

    @Test("C6: a line break in a cell is a wrap point under --wrap 2 and ↵ on a one-line cell")
    func lineBreakInCell() {
        let csv = "note,n\n\"first\nsecond\",1\n"
        let one = RuleKit.outputLines(csv, width: 40)
        #expect(one == ["Note          N", "────────────  ─", "first↵second  1"])
        let two = RuleKit.outputLines(csv, width: 40) { $0.cellLines = 2 }
        #expect(two.count == 4)
        #expect(two[2].hasPrefix("first "))
        #expect(two[2].hasSuffix("1"))
        #expect(two[3] == "second")
    }

    @Test("C6: under --wrap 2 a line break is a wrap point with no width limit too")
    func lineBreakUnlimited() {
        let two = RuleKit.outputLines("note,n\n\"first\nsecond\",1\n", width: nil) { $0.cellLines = 2 }
        #expect(two.contains("second"), "\(two)")
        #expect(!two.joined().contains("↵"), "\(two)")
    }

    // MARK: - C7 truncation

    @Test("C7: numbers are never truncated; text columns give way")
    func numbersNeverCut() {
        // Container 20: text capped at 8 (W3), minimum 5 (W4); the number is 12 wide, so the
        // text column gets 20 - 2 - 12 = 6: five characters and the ellipsis.
        let csv = "name,amount\nA very long product description here,123456789.25\n"
        let lines = RuleKit.outputLines(csv, width: 20)
        #expect(lines == [
            "Name          Amount",
            "──────  ────────────",
            "A ver…  123456789.25",
        ])
    }

    @Test("C7: a number read after a pipe's window, wider than its column, is written whole while the line fits the container")
    func streamedNumberWhole() throws {
        let csv = "name,amount,note\n" + (1...3).map { "item\($0),12,ok" }.joined(separator: "\n") + "\nbig,123456789012,ok\n"
        func lines(_ width: Int, _ configure: (inout FormatOptions) -> Void = { _ in }) throws -> [String] {
            var options = RuleKit.options(width: width, configure)
            options.window = 3
            let sink = MemorySink()
            _ = try TableFormatter.run(MemoryInput(csv, name: "t.csv", path: "t.csv", isRereadable: false), options: options, output: sink)
            return RuleKit.lines(sink.text)
        }
        // The table is 19 wide: at 40 the number's 6 extra columns fit; the note column moves right.
        let wide = try lines(40)
        #expect(wide == ["Name   Amount  Note", "─────  ──────  ────", "item1      12  ok", "item2      12  ok", "item3      12  ok", "big    123456789012  ok",
                         "1 cell was wider than the first 3 rows", "and drawn whole: its row is wider"])
        for style in [TableStyle.box, .ascii, .compact] {
            let boxed = try lines(40) { $0.style = style }
            #expect(boxed.contains { $0.contains("123456789012") }, "\(style): \(boxed)")
            for line in boxed { #expect(RuleKit.width(line) <= 40, "\(style): \(line)") }
        }
        let wrapped = try lines(40) { $0.cellLines = 2 }
        #expect(wrapped.contains("big    123456789012  ok"), "\(wrapped)")
        // In a two-line row the columns after the number move right on both lines alike.
        var options = RuleKit.options(width: nil) { $0.cellLines = 2; $0.window = 2 }
        options.layout = .table
        let sink = MemorySink()
        _ = try TableFormatter.run(MemoryInput("n,note,x\n1,short text,a\n2,tiny,b\n123456789,alpha beta gamma delta,c\n", name: "t.csv", isRereadable: false),
                                   options: options, output: sink)
        let rows = RuleKit.lines(sink.text)
        #expect(rows.suffix(3) == ["123456789  alpha beta  c", "           gamma del…",
                                   "1 cell was cut to the widths of the first 2 rows; use --window all to size from every row"], "\(sink.text)")
        // At 20 there is one spare column: the number is cut (W1) to its column and that spare
        // one (the room the line has left), and a note says so.
        let narrow = try lines(20)
        #expect(narrow.contains("big    123456…  ok"), "\(narrow)")
        #expect(narrow.contains { $0.hasPrefix("1 cell was cut") })
        for line in narrow { #expect(RuleKit.width(line) <= 20, "\(line)") }
    }

    @Test("C7: a number column keeps its full width next to several text columns")
    func numbersNeverCutManyText() {
        // The number first, so it is never the column left out (W5 omits from the right).
        let csv = "total,a,b,c\n-1234567.891," + String(repeating: "word ", count: 10) + "," + String(repeating: "long ", count: 10) + ",x\n"
        for width in [20, 24, 30, 40, 60] {
            let lines = RuleKit.outputLines(csv, width: width)
            #expect(lines.contains { $0.hasPrefix("-1234567.891  word") }, "width \(width): \(lines)")
            for line in lines { #expect(RuleKit.width(line) <= width) }
        }
    }

    @Test("C7: --ellipsis middle keeps the beginning and the end")
    func middleEllipsis() {
        let path = "/usr/local/lib/python3/bin/tool"
        let lines = RuleKit.outputLines("path\n\(path)\n", width: 21) { $0.ellipsis = .middle }
        #expect(lines.count == 3)
        let cell = lines[2]
        #expect(RuleKit.width(cell) == 21)
        let parts = cell.split(separator: "…", omittingEmptySubsequences: false)
        #expect(parts.count == 2)
        if parts.count == 2 {
            #expect(!parts[0].isEmpty && path.hasPrefix(parts[0]))
            #expect(!parts[1].isEmpty && path.hasSuffix(parts[1]))
        }
        let end = RuleKit.outputLines("path\n\(path)\n", width: 21)
        #expect(end[2] == String(path.prefix(20)) + "…")
    }

    @Test("C7: the middle ellipsis in a table with a number column")
    func middleEllipsisWithNumber() {
        let csv = "name,amount\nA very long product description here,123456789.25\n"
        let lines = RuleKit.outputLines(csv, width: 20) { $0.ellipsis = .middle }
        #expect(lines.count == 3)
        #expect(lines[2].hasSuffix("  123456789.25"))
        let cell = String(lines[2].dropLast("  123456789.25".count))
        #expect(RuleKit.width(cell) == 6)
        let parts = cell.split(separator: "…", omittingEmptySubsequences: false)
        #expect(parts.count == 2 && "A very long product description here".hasPrefix(parts[0]) && "A very long product description here".hasSuffix(parts[1]))
        #expect(parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty)
    }

    @Test("C7: truncation never splits a double-width character or a grapheme cluster")
    func truncationKeepsClusters() {
        let lines = RuleKit.outputLines("name\n中文中文中文中文中文\n", width: 7)
        // 7 columns: three ideographs (6) and "…" would be 7.
        #expect(lines[2] == "中文中…")
        let family = "👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧"
        let cut = RuleKit.outputLines("name\n\(family)\n", width: 5)
        #expect(cut[2] == "👨‍👩‍👧👨‍👩‍👧…")
    }

    // MARK: - C8 empty cells

    @Test("C8: empty cells print as nothing by default")
    func emptyCellsNothing() {
        let lines = RuleKit.outputLines("name,score\na,\nb,3\n", width: nil)
        #expect(lines == ["Name  Score", "────  ─────", "a", "b         3"])
    }

    @Test("C8: --null TEXT sets what an empty cell shows")
    func nullText() {
        let lines = RuleKit.outputLines("name,score,note\na,,\nb,3,ok\n", width: nil) { $0.nullText = "n/a" }
        // Score: numbers right-aligned, "n/a" too; Note: text, left-aligned, its width is at least "n/a".
        #expect(lines == [
            "Name  Score  Note",
            "────  ─────  ────",
            "a       n/a  n/a",
            "b         3  ok",
        ])
        // A placeholder written in the data is data: it is shown as written, not replaced.
        let written = RuleKit.outputLines("name,score\na,NA\nb,3\n", width: nil) { $0.nullText = "—" }
        #expect(written[2] == "a        NA")
    }

    @Test("C8: the --null text is taken into the column's width")
    func nullTextWidth() {
        let lines = RuleKit.outputLines("n,x\n1,\n2,5\n", width: nil) { $0.nullText = "(missing)" }
        #expect(lines == ["N          X", "─  ─────────", "1  (missing)", "2          5"])
    }
}
