import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// Seeded property tests over random tables of random Unicode: W1 (every line
/// fits the container), O2 (table lines as wide as the rule), C7 (text is cut only at its end with
/// `…`, numbers never), O5 (no control character reaches the output), and W2–W5 on the allocator.
@Suite("Table properties")
struct TablePropertyTests {
    // MARK: - Random tables

    static let ascii = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789     .,;:!?-_/()[]{}'\"@#%&*+=<>|~`^$").map(String.init)
    static let accented = ["é", "ü", "ñ", "Å", "ø", "ß", "ç", "e\u{301}", "a\u{308}\u{301}", "Ω", "±", "ı", "Ǆ"]
    static let cjk = ["中", "文", "日", "本", "語", "한", "글", "ｶ", "Ａ", "の", "。", "𠀋"]
    static let emoji = ["😀", "👍🏽", "👨‍👩‍👧", "🇯🇵", "❤️", "#️⃣", "☺", "✈︎", "🏳️‍🌈", "🇦"]
    /// Marks that may stand anywhere, even first in a cell (a spacing mark, Mc, is then shown on ◌).
    static let marks = ["\u{301}", "\u{308}", "\u{20DD}", "\u{200D}", "\u{FE0F}", "\u{FE0E}", "\u{200B}", "\u{1F3FD}", "\u{93E}", "\u{903}"]
    static let controls = ["\u{1B}", "\u{07}", "\u{08}", "\t", "\r", "\n", "\u{9B}", "\u{7F}", "\u{0}", "\u{1B}]0;title\u{07}", "\r\n", "\u{1B}[31m"]
    static let scripts = ["क्ष", "कि", "का", "कः", "مرحبا", "שלום", "ไทย", "ก้", "Ж"]
    static let numerals = ["0", "1", "42", "3.5", "-", "NA", "1,234"]

    static func pick<T>(_ items: [T], _ rng: inout SplitMix64) -> T { items[Int(rng.next() % UInt64(items.count))] }
    static func int(_ range: ClosedRange<Int>, _ rng: inout SplitMix64) -> Int { Int.random(in: range, using: &rng) }

    /// Random text: mostly ASCII, with accented letters, CJK, emoji, marks, controls, other scripts, digits.
    static func text(_ rng: inout SplitMix64, maxPieces: Int) -> String {
        var out = ""
        for _ in 0..<int(0...maxPieces, &rng) {
            let roll = int(0...99, &rng)
            switch roll {
            case 0..<46: out += pick(ascii, &rng)
            case 46..<56: out += pick(accented, &rng)
            case 56..<68: out += pick(cjk, &rng)
            case 68..<78: out += pick(emoji, &rng)
            case 78..<84: out += pick(marks, &rng)
            case 84..<90: out += pick(controls, &rng)
            case 90..<96: out += pick(scripts, &rng)
            default: out += pick(numerals, &rng)
            }
        }
        return out
    }

    /// A number at most 9 columns wide as written (10 with a currency sign), so that it always
    /// fits a container of 10 or more.
    static func number(_ rng: inout SplitMix64) -> String {
        var digits = String(int(1...9, &rng))
        for _ in 0..<int(0...3, &rng) { digits += String(int(0...9, &rng)) }
        if int(0...5, &rng) == 0 { digits = "0" }
        if digits.count == 4 && int(0...1, &rng) == 0 { digits.insert(",", at: digits.index(after: digits.startIndex)) }
        if int(0...1, &rng) == 0 { digits += "." + String(int(0...99, &rng)) }
        if int(0...3, &rng) == 0 { digits = "-" + digits }
        return digits
    }

    enum Kind: CaseIterable { case text, number, currency, percent }

    /// A CSV document (every field quoted) with random columns and rows.
    static func table(_ rng: inout SplitMix64) -> String {
        let columns = int(1...7, &rng)
        let rows = int(1...6, &rng)
        let kinds = (0..<columns).map { _ -> Kind in
            let roll = int(0...99, &rng)
            return roll < 55 ? .text : roll < 85 ? .number : roll < 95 ? .currency : .percent
        }
        func quoted(_ field: String) -> String { "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var lines = [(0..<columns).map { _ in quoted(text(&rng, maxPieces: 14)) }.joined(separator: ",")]
        for _ in 0..<rows {
            let fields = kinds.map { kind -> String in
                if int(0...9, &rng) == 0 { return pick(["", "", "NA", "-"], &rng) }
                switch kind {
                case .text: return text(&rng, maxPieces: int(0...1, &rng) == 0 ? 8 : 40)
                case .number: return number(&rng)
                case .currency: return "$" + number(&rng).filter { $0 != "-" }
                case .percent: return number(&rng).filter { $0 != "," } + "%"
                }
            }
            lines.append(fields.map(quoted).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Taking output apart

    /// The cells of a table line, by the plan's column positions in display columns. Zero-width
    /// scalars at a cell's edges go with the cell; trailing padding is part of the slice.
    static func slice(_ line: String, _ plan: LayoutPlan) -> [String.UnicodeScalarView]? {
        let scalars = Array(line.unicodeScalars)
        var totals = [0]
        var state = WidthAccumulator(ambiguousIsWide: false)
        for scalar in scalars {
            state.add(scalar.value)
            totals.append(state.total)
        }
        var out: [String.UnicodeScalarView] = []
        var start = 0
        var searchFrom = 0
        for column in plan.columns {
            let end = start + column.width
            defer { start = end + plan.gap }
            guard let from = totals[searchFrom...].firstIndex(of: start) else {
                // The line ended before this column: trailing blanks were dropped.
                if (totals.last ?? 0) > start { return nil }
                out.append(String.UnicodeScalarView())
                continue
            }
            var to = from
            var index = from
            // A wide emoji before VS15 may count one column more until the VS15 comes.
            while index < totals.count, totals[index] <= end + 1 {
                if totals[index] <= end { to = index }
                index += 1
            }
            out.append(String.UnicodeScalarView(scalars[from..<to]))
            searchFrom = to
        }
        return out
    }

    static func trimmingTrailingSpaces(_ s: String.UnicodeScalarView) -> [Unicode.Scalar] {
        var a = Array(s)
        while a.last == " " { a.removeLast() }
        return a
    }

    static func trimmingSpaces(_ s: String.UnicodeScalarView) -> [Unicode.Scalar] {
        Array(trimmingTrailingSpaces(s).drop { $0 == " " })
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
    }

    // MARK: - Properties of whole tables

    @Test("W1, O2, C7, O5: random tables fit the container; text is cut at its end with …; numbers are never cut",
          arguments: [UInt64(0x7AB1E), 0xC0FFEE, 0x5EED_0003])
    func randomTables(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var failures = 0
        for iteration in 0..<100 where failures < 5 {
            let csv = Self.table(&rng)
            let width = Self.int(10...120, &rng)
            let nullText = Self.pick(["", "", "∅"], &rng)
            let fill = Self.int(0...3, &rng) == 0
            let options = RuleKit.options(width: width) {
                $0.nullText = nullText
                $0.fill = fill
            }
            let output = RuleKit.format(Array(csv.utf8), path: "random.csv", options: options)
            let (names, records) = RuleKit.read(Array(csv.utf8), path: "random.csv", options: options)
            let plan = Layout.plan(RuleKit.profiles(names, records), options: options)
            let lines = RuleKit.lines(output)
            let context = "seed \(seed) table \(iteration), width \(width), null \(nullText.debugDescription), fill \(fill)\n\(csv.debugDescription)\n\(lines.joined(separator: "\n"))"
            let before = failures
            defer { if failures > before { Issue.record("case: \(context)") } }
            func check(_ condition: Bool, _ message: @autoclosure () -> String) {
                if !condition {
                    failures += 1
                    Issue.record(Comment(rawValue: message()))
                }
            }

            guard let rule = lines.firstIndex(where: RuleKit.isRule) else {
                check(false, "no rule line")
                continue
            }
            for (number, line) in lines.enumerated() {
                check(!line.unicodeScalars.contains(where: Self.isControl), "control character in output line \(line.debugDescription)")
                // W1: every line fits the container, the notes under the table included.
                check(RuleKit.width(line) <= width, "line \(number) of width \(RuleKit.width(line)) > \(width): \(line.debugDescription)")
            }
            // O2: the rule is as wide as the plan's line; no table line is wider.
            check(RuleKit.width(lines[rule]) == plan.lineWidth, "rule width \(RuleKit.width(lines[rule])) ≠ plan line width \(plan.lineWidth)")
            // The table's lines, then the note (wrapped to the width: one line or more) when columns were left out.
            let expectedCount = rule + 1 + records.count
            check(plan.omitted.isEmpty ? lines.count == expectedCount : lines.count > expectedCount,
                  "\(lines.count) lines, expected \(expectedCount) \(plan.omitted.isEmpty ? "" : "and a note")")
            guard lines.count >= expectedCount else { continue }
            for line in lines[0..<(rule + 1 + records.count)] {
                check(RuleKit.width(line) <= plan.lineWidth, "table line wider than the rule: \(line.debugDescription)")
            }
            // C7: each visible cell is the sanitized original, or a prefix of it ending with "…";
            // numbers are whole.
            for (r, record) in records.enumerated() {
                let line = lines[rule + 1 + r]
                guard let cells = Self.slice(line, plan) else {
                    check(false, "cannot cut \(line.debugDescription) into the plan's columns")
                    continue
                }
                for (k, column) in plan.columns.enumerated() {
                    let original = column.source < record.count ? record.string(at: column.source) : ""
                    let visible = Array(Sanitize.visible(original).unicodeScalars)
                    if original.isEmpty {
                        check(Self.trimmingSpaces(cells[k]) == Array(nullText.unicodeScalars), "empty cell shows \(String(cells[k]).debugDescription)")
                        continue
                    }
                    if column.numberParts != nil {
                        // As written, or without the unit the heading now carries (C3).
                        var written = original
                        let heading = column.heading
                        if column.stripUnit, heading.hasSuffix(")"), let open = heading.lastIndex(of: "(") {
                            let unit = String(heading[heading.index(after: open)..<heading.index(before: heading.endIndex)])
                            if let range = written.range(of: unit) { written.replaceSubrange(range, with: "") }
                        }
                        let expected = Self.trimmingSpaces(Sanitize.visible(written).unicodeScalars)
                        check(Self.trimmingSpaces(cells[k]) == expected,
                              "number \(original.debugDescription) shows as \(String(cells[k]).debugDescription)")
                        continue
                    }
                    let shown = Self.trimmingTrailingSpaces(cells[k])
                    var whole = visible
                    while whole.last == " " { whole.removeLast() }
                    if shown == whole { continue }
                    let cut = shown.last == "…" && visible.starts(with: shown.dropLast())
                    check(cut, "text \(original.debugDescription) shows as \(String(String.UnicodeScalarView(shown)).debugDescription)")
                }
            }
        }
    }

    @Test("W1, O2: random tables with wrapping, the middle ellipsis, --fill and width bounds fit the container",
          arguments: [UInt64(0xA11CE), 0xB0B, 0x5EED_0004])
    func randomTablesWithOptions(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var failures = 0
        for iteration in 0..<100 where failures < 5 {
            let csv = Self.table(&rng)
            let width = Self.int(10...120, &rng)
            let options = RuleKit.options(width: width) {
                $0.cellLines = Self.int(1...2, &rng)
                $0.ellipsis = Self.int(0...1, &rng) == 0 ? .end : .middle
                $0.fill = Self.int(0...1, &rng) == 0
                $0.nullText = Self.pick(["", "-", "n/a", "∅∅"], &rng)
                $0.moveUnits = Self.int(0...3, &rng) != 0
                $0.titleHeadings = Self.int(0...3, &rng) != 0
                switch Self.int(0...5, &rng) {
                case 0: $0.maxWidth = .cells(Self.int(1...60, &rng))
                case 1: $0.maxWidth = .percent(Self.int(10...100, &rng))
                case 2: $0.minWidth = .cells(Self.int(1...40, &rng))
                case 3: $0.minWidth = .percent(Self.int(1...60, &rng))
                default: break
                }
            }
            let output = RuleKit.format(Array(csv.utf8), path: "random.csv", options: options)
            let (names, records) = RuleKit.read(Array(csv.utf8), path: "random.csv", options: options)
            let plan = Layout.plan(RuleKit.profiles(names, records, trackWords: options.cellLines > 1), options: options)
            let lines = RuleKit.lines(output)
            let context = "seed \(seed) table \(iteration), width \(width), wrap \(options.cellLines), \(options.ellipsis), fill \(options.fill), max \(String(describing: options.maxWidth)), min \(String(describing: options.minWidth))\n\(csv.debugDescription)\n\(lines.joined(separator: "\n"))"
            let before = failures
            defer { if failures > before { Issue.record("case: \(context)") } }
            func check(_ condition: Bool, _ message: @autoclosure () -> String) {
                if !condition {
                    failures += 1
                    Issue.record(Comment(rawValue: message()))
                }
            }
            guard let rule = lines.firstIndex(where: RuleKit.isRule) else {
                check(false, "no rule line")
                continue
            }
            // The note (one line or more, wrapped to the width) starts at its "N more column(s):" line.
            let noteStart = plan.omitted.isEmpty ? nil : lines.indices.last { $0 > rule && lines[$0].range(of: #"^\d+ more( |$)"#, options: .regularExpression) != nil }
            let tableEnd = noteStart ?? lines.count
            check(plan.omitted.isEmpty || noteStart != nil, "no note for the columns left out")
            for (number, line) in lines.enumerated() {
                check(!line.unicodeScalars.contains(where: Self.isControl), "control character in output line \(line.debugDescription)")
                // W1: every line fits the container, the notes under the table included.
                check(RuleKit.width(line) <= width, "line \(number) of width \(RuleKit.width(line)) > \(width): \(line.debugDescription)")
            }
            check(RuleKit.width(lines[rule]) == plan.lineWidth, "rule width \(RuleKit.width(lines[rule])) ≠ plan line width \(plan.lineWidth)")
            check(rule <= 2, "\(rule) heading lines: at most two (C5)")
            check(tableEnd - rule - 1 <= records.count * options.cellLines, "more than \(options.cellLines) lines per row (C6)")
            check(tableEnd - rule - 1 >= records.count, "fewer lines than rows")
            for line in lines[0..<max(rule, min(tableEnd, lines.count))] {
                check(RuleKit.width(line) <= plan.lineWidth, "table line wider than the rule: \(line.debugDescription)")
            }
        }
    }

    // MARK: - Properties of the allocator (W2–W5)

    @Test("W2–W5: allocator properties over random columns", arguments: [UInt64(1), 2, 3])
    func allocatorProperties(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let gap = 2
        for _ in 0..<2_000 {
            let available = Self.int(10...120, &rng)
            let maximum = max(1, available / 2 - gap)  // W3: 50%, padding included
            let minimum = max(1, available / 4)  // W4: 25%
            let count = Self.int(1...8, &rng)
            let columns = (0..<count).map { _ -> WidthAllocator.Column in
                let natural = Self.int(1...70, &rng)
                let flexible = Self.int(0...2, &rng) != 0
                // A fixed (numeric) column keeps its width; keep them narrower than the container
                // so W1 and C7 never contradict each other.
                return flexible
                    ? WidthAllocator.Column(natural: natural, minimum: minimum, flexible: true)
                    : WidthAllocator.Column(natural: min(natural, available - 1), minimum: natural, flexible: false)
            }
            let result = WidthAllocator.fit(columns, available: available, gap: gap, maximum: maximum)
            let description = "available \(available): \(columns.map { "\($0.flexible ? "text" : "num") \($0.natural)" }) → \(result.widths)"
            // Never the first column left out; columns left out only from the right.
            #expect(result.kept >= 1 && result.kept <= count, "\(description)")
            #expect(result.widths.count == result.kept, "\(description)")
            guard result.widths.count == result.kept, result.kept >= 1 else { continue }
            let kept = Array(columns[0..<result.kept])
            let capped = kept.map { c in c.flexible && kept.count > 1 ? min(c.natural, maximum) : c.natural }
            let total = result.widths.reduce(0, +) + gap * (result.kept - 1)
            // W1: the kept columns fit.
            #expect(total <= available, "\(description)")
            for (k, column) in kept.enumerated() {
                let width = result.widths[k]
                if column.flexible {
                    // W3 cap (2+ columns), W4 floor, never wider than natural.
                    #expect(width <= capped[k], "\(description)")
                    #expect(width >= min(column.minimum, capped[k]), "\(description)")
                } else {
                    // C7: numbers keep their full width.
                    #expect(width == column.natural, "\(description)")
                }
            }
            // W2: when the capped natural widths fit, they are the widths and nothing is left out.
            let allCapped = columns.map { c in c.flexible && count > 1 ? min(c.natural, maximum) : c.natural }
            if allCapped.reduce(0, +) + gap * (count - 1) <= available {
                #expect(result.kept == count && result.widths == allCapped, "\(description)")
            }
            // W5: when text gave way, the widths sum exactly to the space.
            if zip(result.widths, capped).contains(where: { $0 < $1 }) {
                #expect(total == available, "\(description)")
            }
            // W5: a column is left out only when the one more column could not fit even with
            // every text column at its minimum.
            if result.kept < count {
                let more = Array(columns[0...result.kept])
                let floors = more.map { c in c.flexible ? min(c.minimum, c.natural) : c.natural }
                #expect(floors.reduce(0, +) + gap * result.kept > available, "\(description)")
            }
            // W5: the widest first: a narrower text column gives way only if every wider one did.
            for i in kept.indices where kept[i].flexible {
                for j in kept.indices where kept[j].flexible && capped[i] > capped[j] && result.widths[j] < capped[j] {
                    #expect(result.widths[i] < capped[i], "\(description)")
                }
            }
        }
    }
}
