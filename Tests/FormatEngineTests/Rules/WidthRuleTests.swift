import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

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
}
