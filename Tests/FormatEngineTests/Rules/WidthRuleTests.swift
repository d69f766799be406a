import Foundation
import Testing
@testable import FormatEngine

/// Helpers shared by the rule tests in `Rules/`: run the whole pipeline on CSV text, read the
/// same text the way the formatter sizes it, and take output apart again.
enum RuleKit {
    static let measure = DisplayWidth()

    /// Options for CSV text with `,` as the delimiter (never sniffed), an explicit width and the
    /// table layout.
    static func options(width: Int?, _ configure: (inout FormatOptions) -> Void = { _ in }) -> FormatOptions {
        var options = FormatOptions()
        options.inputFormat = .csv
        options.delimiter = UInt8(ascii: ",")
        options.width = width
        options.layout = .table  // W5's table, with omission; W7's auto would switch to a list report
        configure(&options)
        return options
    }

    /// The formatter's whole output for CSV text.
    static func format(_ csv: String, width: Int?, _ configure: (inout FormatOptions) -> Void = { _ in }) -> String {
        format(Array(csv.utf8), path: "rules.csv", options: options(width: width, configure))
    }

    /// The formatter's whole output for bytes read as the file at `path`; a data error is an issue.
    static func format(_ bytes: [UInt8], path: String, options: FormatOptions,
                       sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let sink = MemorySink()
        do {
            let result = try TableFormatter.run(MemoryInput(bytes, name: path, path: path), options: options, output: sink)
            #expect(result.error == nil, "data error: \(String(describing: result.error))", sourceLocation: sourceLocation)
        } catch {
            Issue.record("output error: \(error)", sourceLocation: sourceLocation)
        }
        return sink.text
    }

    /// The output lines (split at LF only, the last empty piece dropped).
    static func lines(_ text: String) -> [String] {
        var out: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                out.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        if !current.isEmpty { out.append(String(current)) }
        return out
    }

    /// Output lines for CSV text.
    static func outputLines(_ csv: String, width: Int?, _ configure: (inout FormatOptions) -> Void = { _ in }) -> [String] {
        lines(format(csv, width: width, configure))
    }

    /// The column names and records the formatter sees for CSV text.
    static func read(_ csv: String, options: FormatOptions) -> (columns: [String], records: [Record]) {
        read(Array(csv.utf8), path: "rules.csv", options: options)
    }

    static func read(_ bytes: [UInt8], path: String, options: FormatOptions) -> (columns: [String], records: [Record]) {
        do {
            var table = try TableInput(MemoryInput(bytes, name: path, path: path), options: options.input)
            var records: [Record] = []
            var record = Record()
            while try table.next(into: &record) { records.append(record) }
            return (table.columns, records)
        } catch {
            Issue.record("input error: \(error)")
            return ([], [])
        }
    }

    /// Profiles of columns given as a header and rows of strings.
    static func profiles(_ header: [String], _ rows: [[String]], trackWords: Bool = false) -> [ColumnProfile] {
        profiles(header, rows.map { Record($0) }, trackWords: trackWords)
    }

    static func profiles(_ header: [String], _ records: [Record], trackWords: Bool = false) -> [ColumnProfile] {
        var profiler = ColumnProfiler(columns: header, measure: measure, trackWords: trackWords)
        for record in records {
            profiler.sync(columns: header)
            profiler.add(record)
        }
        return profiler.profiles
    }

    /// The plan the formatter makes for CSV text (sized from all of its rows).
    static func plan(_ csv: String, width: Int?, _ configure: (inout FormatOptions) -> Void = { _ in }) -> LayoutPlan {
        let options = options(width: width, configure)
        let (columns, records) = read(csv, options: options)
        return Layout.plan(profiles(columns, records, trackWords: options.cellLines > 1), options: options)
    }

    /// A plan for a header and rows of strings.
    static func plan(_ header: [String], _ rows: [[String]], options: FormatOptions) -> LayoutPlan {
        Layout.plan(profiles(header, rows, trackWords: options.cellLines > 1), options: options)
    }

    /// The pieces of a line separated by two or more spaces (cells of a table of simple cells).
    static func tokens(_ line: String) -> [String] {
        var out: [String] = []
        var current = ""
        var spaces = 0
        for ch in line {
            if ch == " " {
                spaces += 1
                continue
            }
            if spaces >= 2, !current.isEmpty {
                out.append(current)
                current = ""
            } else if spaces == 1, !current.isEmpty {
                current += " "
            }
            spaces = 0
            current.append(ch)
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    static func width(_ text: String) -> Int { measure.width(of: text) }

    /// Whether a line is the rule under the headings (O2 `rule` style).
    static func isRule(_ line: String) -> Bool {
        line.contains("─") && line.allSatisfy { $0 == "─" || $0 == " " }
    }
}

/// W2–W6 on `WidthAllocator` and `Layout.plan`, and C5–C8 through `TableFormatter.run` with
/// explicit widths. Expected widths and lines are worked out by hand from the rules, in comments.
@Suite("Width rules")
struct WidthRuleTests {
    typealias Column = WidthAllocator.Column

    static func text(_ natural: Int, min: Int) -> Column { Column(natural: natural, minimum: min, flexible: true) }
    static func number(_ natural: Int) -> Column { Column(natural: natural, minimum: natural, flexible: false) }

    // MARK: - W2 natural width

    @Test("W2: with no width limit every column takes its natural width")
    func naturalUnlimited() {
        let columns = [Self.text(40, min: 1), Self.number(12), Self.text(3, min: 1)]
        let result = WidthAllocator.fit(columns, available: nil, gap: 2, maximum: nil)
        #expect(result == .init(widths: [40, 12, 3], kept: 3))
    }

    @Test("W2: natural widths are kept when they fit")
    func naturalFits() {
        // 10 + 2 + 12 + 2 + 3 = 29 ≤ 100, and nothing is over the 48-column cap.
        let columns = [Self.text(10, min: 25), Self.number(12), Self.text(3, min: 25)]
        let result = WidthAllocator.fit(columns, available: 100, gap: 2, maximum: 48)
        #expect(result == .init(widths: [10, 12, 3], kept: 3))
    }

    @Test("W2: the natural width is the widest cell, or the heading if wider")
    func naturalFromCellsAndHeading() {
        // "Name": cells up to 11 wide ("Hello World" / "中文字" is 6); "Qty": heading 3 wider than 1-digit cells.
        let plan = RuleKit.plan(["name", "qty"], [["Hello World", "7"], ["中文字", "1"]], options: RuleKit.options(width: nil))
        #expect(plan.columns.map(\.width) == [11, 3])
        #expect(plan.columns.map(\.heading) == ["Name", "Qty"])
    }

    // MARK: - W3 maximum

    @Test("W3: with two or more columns no column is wider than 50% of the container, padding included")
    func maximumHalf() {
        // Container 40: 50% is 20 columns, of which 2 are the padding: the text column gets 18.
        let plan = RuleKit.plan(["description", "code"], [[String(repeating: "x", count: 30), "ab"]], options: RuleKit.options(width: 40))
        #expect(plan.columns.map(\.width) == [18, 4])
        #expect(plan.columns[0].width + plan.gap <= 40 / 2)
    }

    @Test("W3: a single column is not capped at 50%")
    func maximumOnlyWithTwoColumns() {
        let plan = RuleKit.plan(["description"], [[String(repeating: "x", count: 30)]], options: RuleKit.options(width: 40))
        #expect(plan.columns.map(\.width) == [30])
        let result = WidthAllocator.fit([Self.text(30, min: 10)], available: 40, gap: 2, maximum: 18)
        #expect(result == .init(widths: [30], kept: 1))
    }

    @Test("W3: --max-width N and --max-width P% override the cap")
    func maximumOverride() {
        let rows = [[String(repeating: "x", count: 60), "ab"]]
        let cells = RuleKit.plan(["description", "code"], rows, options: RuleKit.options(width: 100) { $0.maxWidth = .cells(10) })
        #expect(cells.columns.map(\.width) == [10, 4])
        // 30% of 100 is 30 columns, padding included: 28.
        let percent = RuleKit.plan(["description", "code"], rows, options: RuleKit.options(width: 100) { $0.maxWidth = .percent(30) })
        #expect(percent.columns.map(\.width) == [28, 4])
        // Without an override the cap is 50% of 100 minus the padding: 48.
        let plain = RuleKit.plan(["description", "code"], rows, options: RuleKit.options(width: 100))
        #expect(plain.columns.map(\.width) == [48, 4])
    }

    // MARK: - W4 minimum

    @Test("W4: a text column gives way down to 25% of the container and no further")
    func minimumQuarter() {
        // Container 40, 25% = 10. Text natural 30 (capped 18), a 28-digit number that never gives way:
        // 40 - 2 - 28 = 10 left for the text column: exactly its minimum, so both stay.
        let text = String(repeating: "t", count: 30)
        let plan28 = RuleKit.plan(["a", "b"], [[text, String(repeating: "9", count: 28)]], options: RuleKit.options(width: 40))
        #expect(plan28.columns.map(\.width) == [10, 28])
        #expect(plan28.omitted.isEmpty)
        // A 29-digit number would leave 9 < 10: the text column keeps its minimum and the number
        // column is left out; alone, the text column takes its natural width again (W5 re-adjust).
        let plan29 = RuleKit.plan(["a", "b"], [[text, String(repeating: "9", count: 29)]], options: RuleKit.options(width: 40))
        #expect(plan29.columns.map(\.width) == [30])
        #expect(plan29.omitted == ["B"])
    }

    @Test("W4: the minimum is the natural width when that is less than 25%")
    func minimumNaturalIfLess() {
        let column = Column(natural: 6, minimum: 10, flexible: true)
        #expect(column.minimum == 6)
        // Natural 6 < 10 (25% of 40): the column is never made wider to reach the minimum.
        let plan = RuleKit.plan(["a", "b"], [["abcdef", String(repeating: "9", count: 32)]], options: RuleKit.options(width: 40))
        #expect(plan.columns.map(\.width) == [6, 32])
        // 6 + 2 + 33 = 41 > 40 and a 6-wide column cannot give way: the number column goes.
        let over = RuleKit.plan(["a", "b"], [["abcdef", String(repeating: "9", count: 33)]], options: RuleKit.options(width: 40))
        #expect(over.columns.map(\.width) == [6])
        #expect(over.omitted == ["B"])
    }

    @Test("W4: --min-width N and --min-width P% override the minimum")
    func minimumOverride() {
        let text = String(repeating: "t", count: 30)
        let cells = RuleKit.plan(["a", "b"], [[text, String(repeating: "9", count: 33)]], options: RuleKit.options(width: 40) { $0.minWidth = .cells(5) })
        #expect(cells.columns.map(\.width) == [5, 33])
        // 10% of 40 = 4.
        let percent = RuleKit.plan(["a", "b"], [[text, String(repeating: "9", count: 34)]], options: RuleKit.options(width: 40) { $0.minWidth = .percent(10) })
        #expect(percent.columns.map(\.width) == [4, 34])
    }

    // MARK: - W5 fit

    @Test("W5: the widest text column gives way first")
    func widestFirst() {
        // Container 40, gaps 4, cap 18: 18 + 12 + 10 = 40 > 36. Four columns must go, all from the
        // widest (18 → 14, still not narrower than the next one), the others keep their width.
        let plan = RuleKit.plan(["alpha", "beta", "n"], [[String(repeating: "a", count: 30), String(repeating: "b", count: 12), "1234567890"]],
                                options: RuleKit.options(width: 40))
        #expect(plan.columns.map(\.width) == [14, 12, 10])
        #expect(plan.lineWidth == 40)
    }

    @Test("W5: text columns that give way share the space so the widths sum exactly to it")
    func givesWayToExactSum() {
        // Container 40: two text columns capped at 18, a 10-wide number; 18 + 18 + 10 + 4 = 50.
        // 40 - 4 - 10 = 26 for the two text columns, 13 each, both above the minimum 10.
        let plan = RuleKit.plan(["alpha", "beta", "n"], [[String(repeating: "a", count: 30), String(repeating: "b", count: 30), "1234567890"]],
                                options: RuleKit.options(width: 40))
        #expect(plan.columns.map(\.width) == [13, 13, 10])
        #expect(plan.lineWidth == 40)
        // Odd space: 27 for the two columns; one gets 14, the other 13, the sum is still exact.
        let odd = RuleKit.plan(["alpha", "beta", "n"], [[String(repeating: "a", count: 30), String(repeating: "b", count: 30), "1234567890"]],
                               options: RuleKit.options(width: 41))
        #expect(odd.lineWidth == 41)
        #expect(odd.columns.map(\.width).sorted() == [10, 13, 14])
        #expect(odd.columns[2].width == 10)
    }

    @Test("W5: numbers keep their width while text gives way (allocator)")
    func allocatorNumbersFixed() {
        // Cap 13: 13 + 2 + 12 = 27 ≤ 30, so the capped widths stand.
        let result = WidthAllocator.fit([Self.text(30, min: 7), Self.number(12)], available: 30, gap: 2, maximum: 13)
        #expect(result == .init(widths: [13, 12], kept: 2))
        // The number first: text capped at 13, 12 + 2 + 13 = 27 ≤ 30.
        let swapped = WidthAllocator.fit([Self.number(12), Self.text(30, min: 7)], available: 30, gap: 2, maximum: 13)
        #expect(swapped == .init(widths: [12, 13], kept: 2))
        // Tighter: available 24, text capped at 10: 10 + 2 + 12 = 24 fits exactly.
        let tight = WidthAllocator.fit([Self.text(30, min: 6), Self.number(12)], available: 24, gap: 2, maximum: 10)
        #expect(tight == .init(widths: [10, 12], kept: 2))
        // Available 22, cap 9: 9 + 2 + 12 = 23 > 22: text gives way to 8 (≥ 5).
        let tighter = WidthAllocator.fit([Self.text(30, min: 5), Self.number(12)], available: 22, gap: 2, maximum: 9)
        #expect(tighter == .init(widths: [8, 12], kept: 2))
    }

    @Test("W5: columns are left out from the right, never the first")
    func omissionFromTheRight() {
        // Container 30. Name 6, four 8-digit numbers. All five: 6 + 32 + 8 = 46; four: 6 + 24 + 6 = 36;
        // three: 6 + 16 + 4 = 26 ≤ 30. Gamma and Delta are left out.
        let csv = "name,alpha,beta,gamma,delta\nWidget,11111111,22222222,33333333,44444444\n"
        let plan = RuleKit.plan(csv, width: 30)
        #expect(plan.columns.map(\.heading) == ["Name", "Alpha", "Beta"])
        #expect(plan.columns.map(\.width) == [6, 8, 8])
        #expect(plan.omitted == ["Gamma", "Delta"])
        // The first column is kept even when nothing else fits.
        let first = WidthAllocator.fit([Self.number(50), Self.text(10, min: 5)], available: 30, gap: 2, maximum: 13)
        #expect(first.kept == 1)
        let many = WidthAllocator.fit([Self.text(100, min: 25), Self.number(90), Self.number(90)], available: 100, gap: 2, maximum: 48)
        #expect(many.kept == 1)
        #expect(many.widths == [100])
    }

    @Test("W5: the note under the table names the columns left out")
    func omissionNote() {
        let csv = "name,alpha,beta,gamma,delta\nWidget,11111111,22222222,33333333,44444444\n"
        let lines = RuleKit.outputLines(csv, width: 30)
        #expect(lines == [
            "Name       Alpha      Beta",
            "──────  ────────  ────────",
            "Widget  11111111  22222222",
            "2 more columns: Gamma, Delta",
        ])
        for line in lines { #expect(RuleKit.width(line) <= 30, "\(line)") }
    }

    @Test("W5: the note line itself fits the container")
    func omissionNoteFits() {
        // Many long column names left out: the note must not run past the 30 columns either (W1).
        let names = ["name"] + (1...12).map { "measurement_number_\($0)" }
        let csv = names.joined(separator: ",") + "\n" + (["Widget"] + (1...12).map { _ in "12345678901234567890" }).joined(separator: ",") + "\n"
        let lines = RuleKit.outputLines(csv, width: 30)
        #expect(lines.contains { $0.hasPrefix("12 more columns: ") || $0.hasPrefix("11 more columns: ") })
        for line in lines { #expect(RuleKit.width(line) <= 30, "line of width \(RuleKit.width(line)): \(line)") }
    }

    // MARK: - W1 in the table

    @Test("W1: a cell that starts with a spacing mark is shown on ◌ and does not make its line wider")
    func leadingSpacingMark() {
        // U+093E and U+0903 (spacing marks, Mc) first in a cell: printed bare after the padding
        // they would join the space before them, a cluster the width function counts 2 (rule 6).
        // Shown on U+25CC, as a mark without its base is written, they are measured as printed.
        for mark in ["\u{093E}", "\u{0903}"] {
            // The cell is wider than its heading, so it sets the column's width.
            let csv = "name,note\nx,\(mark)bcdefgh\n"
            let plan = RuleKit.plan(csv, width: nil)
            let lines = RuleKit.outputLines(csv, width: nil)
            #expect(lines.contains { $0.contains("\u{25CC}\(mark)bcdefgh") }, "\(lines)")
            for line in lines {
                #expect(RuleKit.width(line) <= plan.lineWidth, "\(line.debugDescription) is wider than the rule (\(plan.lineWidth))")
            }
            for line in RuleKit.outputLines(csv, width: 20, { $0.fill = true }) {
                #expect(RuleKit.width(line) <= 20, "\(line.debugDescription) is \(RuleKit.width(line)) columns")
            }
            // Cut, and in a list report, the mark keeps its base.
            for line in RuleKit.outputLines("name,note\nx,\(mark)bcdefghijklmnopqrstuvwxyz\n", width: 12, { $0.layout = .table }) {
                #expect(RuleKit.width(line) <= 12, "\(line.debugDescription) is \(RuleKit.width(line)) columns")
            }
            // Where a mark has a base, nothing is added.
            #expect(!RuleKit.outputLines("name,note\nx,a\(mark)b\n", width: nil).contains { $0.contains("\u{25CC}") })
            // The one width function agrees with what is shown.
            let text = "\(mark)bc"
            #expect(DisplayWidth().width(of: text) == DisplayWidth().width(of: Sanitize.visible(text)))
            #expect(Sanitize.visible(text) == "\u{25CC}" + text)
        }
    }

    @Test("W1: ◌ is shown exactly where text would join what precedes it: a spacing mark or virama first, also after zero-width scalars and on each wrapped line")
    func markBaseWhereNeeded() {
        let measure = DisplayWidth()
        let based: [String] = ["\u{93E}bc", "\u{301}\u{93E}bc", "\u{200B}\u{903}x", "\u{94D}\u{915}"]
        let plain: [String] = ["\u{301}abc", "\u{200B}abc", "\u{200E}abc", "\u{FE0F}x", "a\u{93E}", "\u{915}\u{94D}\u{937}"]
        for text in based {
            #expect(Sanitize.visible(text) == "\u{25CC}" + text, "\(text.debugDescription)")
            #expect(measure.width(of: text) == measure.width(of: "\u{25CC}" + text))
            // The line it starts is as wide as measured: after a space it measures the same.
            #expect(measure.width(of: " " + Sanitize.visible(text)) == 1 + measure.width(of: text))
        }
        for text in plain {
            #expect(Sanitize.visible(text) == text, "\(text.debugDescription)")
            #expect(measure.width(of: " " + text) == 1 + measure.width(of: text), "\(text.debugDescription)")
        }
        // Wrapped: each line after a line break gets its base; one line shows ↵, a base already.
        let lines = measure.fit("ab\n\u{93E}cd", width: 10, maxLines: 2, ellipsis: .end)
        #expect(lines.map(\.text) == ["ab", "\u{25CC}\u{93E}cd"])
        #expect(lines.map(\.width) == lines.map { measure.width(of: $0.text) })
        #expect(measure.fit("ab\n\u{93E}cd", width: 10, maxLines: 1, ellipsis: .end).map(\.text) == ["ab\u{21B5}\u{93E}cd"])
    }

    // MARK: - W6 fill

    @Test("W6: --fill grows the first column to the container; off by default")
    func fill() {
        let csv = "name,code\nWidget,ab\n"
        let plain = RuleKit.plan(csv, width: 40)
        #expect(plain.columns.map(\.width) == [6, 4])
        let filled = RuleKit.plan(csv, width: 40) { $0.fill = true }
        // 40 - 2 - 4 = 34 for the first column.
        #expect(filled.columns.map(\.width) == [34, 4])
        #expect(filled.lineWidth == 40)
        let lines = RuleKit.outputLines(csv, width: 40) { $0.fill = true }
        #expect(lines.first { RuleKit.isRule($0) }.map(RuleKit.width) == 40)
        #expect(lines.contains("Widget" + String(repeating: " ", count: 30) + "ab"))
        // No width limit: nothing to fill.
        let unlimited = RuleKit.plan(csv, width: nil) { $0.fill = true }
        #expect(unlimited.columns.map(\.width) == [6, 4])
    }

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
        #expect(wide == ["Name   Amount  Note", "─────  ──────  ────", "item1      12  ok", "item2      12  ok", "item3      12  ok", "big    123456789012  ok"])
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
        // At 20 there is one spare column: the number is cut (W1), and a note says so.
        let narrow = try lines(20)
        #expect(narrow.contains("big    12345…  ok"), "\(narrow)")
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
