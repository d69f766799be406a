import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// C2 (alignment) and the number fast paths.
extension CellTypeTests {
    // MARK: - C2 alignment

    @Test("C2: numeric columns and their headings are right-aligned, text left-aligned")
    func alignment() {
        let lines = RuleKit.outputLines("name,amount\nApple,1.5\nBanana,12.25\nCherry,100\n", width: nil)
        // Amount: integer parts up to 3 wide, fractions up to ".25": 6 columns, the heading too.
        #expect(lines == [
            "Name    Amount",
            "──────  ──────",
            "Apple     1.5",
            "Banana   12.25",
            "Cherry  100",
        ])
        let plan = RuleKit.plan("name,amount\nApple,1.5\n", width: nil)
        #expect(plan.columns.map(\.alignment) == [.left, .right])
    }

    @Test("C2: a numeric heading narrower than its numbers sits at the right edge")
    func numericHeadingRight() {
        let lines = RuleKit.outputLines("n,x\nab,1000.5\nc,2\n", width: nil)
        #expect(lines[0] == "N        X")
        #expect(lines[2] == "ab  1000.5")
        #expect(lines[3] == "c      2")
    }

    @Test("C2: a text heading and text cells start at the column's left edge")
    func textLeft() {
        let lines = RuleKit.outputLines("count,label\n12345678,ab\n1,a longer label\n", width: nil)
        #expect(lines == [
            "   Count  Label",
            "────────  ──────────────",
            "12345678  ab",
            "       1  a longer label",
        ])
    }

    /// Cells of a numeric column, how each must show (C3 takes a shared unit out), and the separator.
    struct PointCase: Sendable, CustomTestStringConvertible {
        var cells: [String]
        var shown: [String]
        var point: Character
        var testDescription: String { cells.joined(separator: " ") }
    }

    @Test("C2: decimal points line up in a numeric column",
          arguments: [
            PointCase(cells: ["1.5", "12.25", "100", "-3.125", "0.5", "1,234.5"], shown: ["1.5", "12.25", "100", "-3.125", "0.5", "1,234.5"], point: "."),
            PointCase(cells: ["12,50", "3,5", "100,1", "-0,5", "7"], shown: ["12,50", "3,5", "100,1", "-0,5", "7"], point: ","),
            PointCase(cells: ["$4.50", "$12.00", "$1,000", "$0.5"], shown: ["4.50", "12.00", "1,000", "0.5"], point: "."),
            PointCase(cells: ["1.5 kg", "12.25 kg", "100 kg"], shown: ["1.5", "12.25", "100"], point: "."),
            PointCase(cells: ["1.5", "NA", "12.25", "", "-", "3"], shown: ["1.5", "NA", "12.25", "", "-", "3"], point: "."),
          ])
    func decimalPoints(_ c: PointCase) {
        func quoted(_ cell: String) -> String { cell.contains(",") ? "\"\(cell)\"" : cell }
        let csv = "name,value\n" + c.cells.enumerated().map { "r\($0.offset),\(quoted($0.element))" }.joined(separator: "\n") + "\n"
        for width: Int? in [nil, 60] {
            let lines = RuleKit.outputLines(csv, width: width)
            // The heading may take two lines when the width is limited (C5): rows follow the rule.
            guard let rule = lines.firstIndex(where: RuleKit.isRule), lines.count == rule + 1 + c.cells.count else {
                Issue.record("unexpected output \(lines)")
                continue
            }
            let rows = lines.dropFirst(rule + 1).map { Array($0) }
            // The column where the separator of each number with a fraction stands.
            var columns = Set<Int>()
            for (k, shown) in c.shown.enumerated() {
                guard let index = Self.fractionSeparator(in: shown, point: c.point) else { continue }
                guard let start = Self.find(Array(shown), in: rows[k]) else {
                    Issue.record("\(shown) not found in \(String(rows[k]))")
                    continue
                }
                columns.insert(start + index)
            }
            #expect(columns.count == 1, "separators at columns \(columns.sorted()) in \(rows.map { String($0) })")
            // A whole number ends just before that column.
            guard let column = columns.first else { continue }
            for (k, shown) in c.shown.enumerated() where !shown.isEmpty && shown.allSatisfy({ $0.isNumber || $0 == "," || $0 == "-" }) && shown.contains(where: \.isNumber) {
                if c.point == ",", Self.fractionSeparator(in: shown, point: c.point) != nil { continue }
                let line = rows[k]
                #expect(column - 1 < line.count && line[column - 1].isNumber, "\(shown) in \(String(line))")
                #expect(column >= line.count || !line[column].isNumber, "\(shown) in \(String(line))")
            }
        }
    }

    @Test("C2: a column of whole numbers, null words among them, lines up on its right edge with its heading (generated columns, the column in the middle and last)",
          arguments: [UInt64(1), 2, 3])
    func wholeNumbersRightEdge(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        for round in 0..<40 {
            // Lower-case one-word headings show capitalised, as wide as written.
            let heading = ["n", "qty", "count", "identifier", "ordersthisfinancialyear"][int(0...4)]
            var cells: [String] = []
            for _ in 0..<int(1...30) {
                var digits = String(int(1...9))
                for _ in 0..<int(0...12) { digits += String(int(0...9)) }
                switch int(0...9) {
                case 0: cells.append(int(0...1) == 0 ? "NA" : "-")
                case 1: cells.append("-" + digits)
                case 2: cells.append("+" + digits)
                case 3: cells.append("0")
                case 4 where digits.count == 4: cells.append(String(digits.prefix(1)) + "," + digits.dropFirst())
                default: cells.append(digits)
                }
            }
            guard cells.contains(where: { $0 != "NA" && $0 != "-" }) else { continue }
            let last = round % 2 == 1
            let csv = (last ? "label,\(heading)\n" : "label,\(heading),note\n")
                + cells.enumerated().map { "r\($0.offset),\"\($0.element)\"" + (last ? "" : ",x") }.joined(separator: "\n") + "\n"
            let lines = RuleKit.outputLines(csv, width: nil)
            let labelWidth = max("Label".count, cells.indices.map { "r\($0)".count }.max() ?? 0)
            let width = max(heading.count, cells.map(\.count).max() ?? 0)
            let start = labelWidth + 2
            func column(_ line: String) -> String {
                let chars = Array(line)
                guard chars.count >= start else { return "" }
                return String(chars[start..<min(chars.count, start + width)])
            }
            guard lines.count == cells.count + 2 else {
                Issue.record("unexpected output \(lines)")
                continue
            }
            let shownHeading = heading.prefix(1).uppercased() + heading.dropFirst()
            #expect(column(lines[0]) == String(repeating: " ", count: width - heading.count) + shownHeading, "\(lines[0])")
            for (k, cell) in cells.enumerated() {
                #expect(column(lines[k + 2]) == String(repeating: " ", count: width - cell.count) + cell, "\(cell) in \(lines[k + 2])")
            }
        }
    }

    @Test("C2: generated columns of decimals, percentages and whole numbers: every number's point (or its end) stands in one column, the widths as computed here",
          arguments: [UInt64(1), 2, 3])
    func generatedPointsLineUp(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        func digits(_ count: Int) -> String { (0..<count).map { _ in String(int(0...9)) }.joined() }
        for round in 0..<60 {
            let heading = ["n", "price", "discount", "measurement"][int(0...3)]
            // A column of one shape (fixed decimals, say), or of several.
            let fixed = int(0...1) == 0 ? int(1...3) : nil
            var cells: [String] = []
            for _ in 0..<int(1...25) {
                if int(0...12) == 0 {
                    cells.append(["NA", "-", "N/A"][int(0...2)])
                    continue
                }
                var cell = (int(0...4) == 0 ? "-" : "") + String(int(1...9)) + digits(int(0...6))
                if int(0...5) == 0 { cell = (cell.hasPrefix("-") ? "-" : "") + "0" }
                switch fixed ?? int(0...4) {
                case 0: break
                case let places: cell += "." + digits(places)
                }
                if fixed == nil && int(0...6) == 0 { cell += "%" }
                cells.append(cell)
            }
            guard cells.contains(where: { $0.first?.isNumber == true || $0.hasPrefix("-") && $0.count > 1 }) else { continue }
            // Where a number's point stands: its `.`, else its `%`, else its end; what follows is
            // its fraction part.
            func integerPart(_ cell: String) -> Int {
                let chars = Array(cell)
                return chars.firstIndex(of: ".") ?? chars.firstIndex(of: "%") ?? chars.count
            }
            let numbers = cells.filter { !["NA", "-", "N/A"].contains($0) }
            let integer = numbers.map(integerPart).max() ?? 0
            let fraction = numbers.map { $0.count - integerPart($0) }.max() ?? 0
            let width = max(heading.count, integer + fraction)
            let last = round % 2 == 1
            let csv = (last ? "label,\(heading)\n" : "label,\(heading),note\n")
                + cells.enumerated().map { "r\($0.offset),\($0.element)" + (last ? "" : ",x") }.joined(separator: "\n") + "\n"
            let lines = RuleKit.outputLines(csv, width: nil)
            guard lines.count == cells.count + 2 else {
                Issue.record("unexpected output \(lines)")
                continue
            }
            let start = max("Label".count, cells.indices.map { "r\($0)".count }.max() ?? 0) + 2
            func column(_ line: String) -> String {
                let chars = Array(line)
                guard chars.count >= start else { return "" }
                return String(chars[start..<min(chars.count, start + width)])
            }
            func padded(_ text: String) -> String { text + String(repeating: " ", count: width - text.count) }
            let shownHeading = heading.prefix(1).uppercased() + heading.dropFirst()
            #expect(column(lines[0]) == String(repeating: " ", count: width - heading.count) + shownHeading, "\(lines[0])")
            for (k, cell) in cells.enumerated() {
                // A null word at the right edge; a number with its point `fraction` columns in.
                let lead = numbers.contains(cell) ? width - fraction - integerPart(cell) : width - cell.count
                let expected = String(repeating: " ", count: lead) + cell
                let shown = column(lines[k + 2])
                #expect(shown == expected || shown == padded(expected) && !last, "\(cell) in \(lines[k + 2]) (\(cells))")
            }
        }
    }

    /// Offset of the decimal separator in a cell that has a fraction (digits after it), else nil.
    static func fractionSeparator(in cell: String, point: Character) -> Int? {
        let chars = Array(cell)
        // The last separator followed by digits; for `,` only when it is not a thousands group.
        for k in stride(from: chars.count - 1, through: 0, by: -1) where chars[k] == point {
            guard k + 1 < chars.count, chars[k + 1].isNumber else { return nil }
            if point == "," {
                var digits = 0
                var j = k + 1
                while j < chars.count, chars[j].isNumber { digits += 1; j += 1 }
                if digits == 3 { return nil }
            }
            return k
        }
        return nil
    }

    static func find(_ needle: [Character], in haystack: [Character]) -> Int? {
        guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<(start + needle.count)]) == needle {
            // Whole token: not glued to other non-space characters.
            let before = start == 0 || haystack[start - 1] == " "
            let after = start + needle.count == haystack.count || haystack[start + needle.count] == " "
            if before && after { return start }
        }
        return nil
    }

    // MARK: - The number fast paths

    @Test("C1: the number fast paths read every cell as the full grammar does (all short cells of number bytes, and generated ones)")
    func fastPathsAgreeWithTheGrammar() {
        func check(_ bytes: [UInt8]) {
            bytes.withUnsafeBufferPointer { cell in
                let full = NumberShape.parseFully(cell)
                #expect(NumberShape.parse(cell) == full, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
                // The sizing's shortcut: exactly the whole numbers of one to eight digits, as the
                // grammar reads them (an integer, all of it the number, its point at the end).
                let whole = full.map { $0.kind == .integer && $0.unit == nil && $0.detachedSign == nil && $0.number == 0..<cell.count && $0.point == cell.count } ?? false
                let digitsOnly = bytes.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                #expect(NumberShape.shortWholeNumber(cell) == (whole && digitsOnly && cell.count <= 8 ? cell.count : nil), "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
                // And its decimals: one '.', digits around it, all of it the number, 3 to 8 bytes.
                let pointAt = full.flatMap { $0.kind == .decimal && $0.unit == nil && $0.detachedSign == nil && $0.number == 0..<cell.count ? $0.point : nil }
                let plainDecimal = pointAt.map { p in p < bytes.count && bytes[p] == 0x2E && bytes.enumerated().allSatisfy { $0.offset == p || $0.element >= 0x30 && $0.element <= 0x39 } } ?? false
                #expect(NumberShape.shortDecimal(cell) == (plainDecimal && (3...8).contains(cell.count) ? pointAt : nil), "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
            }
        }
        // An empty cell, seen in place before a digit (a cell's bytes are followed by the next
        // cell's), is no number.
        let digitAfter: [UInt8] = [0x37]
        digitAfter.withUnsafeBufferPointer { #expect(NumberShape.shortWholeNumber(UnsafeBufferPointer(rebasing: $0[0..<0])) == nil) }
        // Nor is a decimal's start seen without its end (`1.` before `5`).
        let decimalAfter: [UInt8] = Array("1.5".utf8)
        decimalAfter.withUnsafeBufferPointer { #expect(NumberShape.shortDecimal(UnsafeBufferPointer(rebasing: $0[0..<2])) == nil) }
        // Every cell of up to four bytes from the bytes the fast paths decide on.
        let alphabet = Array("019-.%+,e a".utf8) + [0x2F, 0x3A, 0xC3]
        var cells: [[UInt8]] = [[]]
        for _ in 0..<4 {
            cells = cells.flatMap { cell in alphabet.map { cell + [$0] } }
            cells.forEach(check)
        }
        // Longer ones at random, 1 to 12 bytes (the short path takes 2 to 8, the loop the rest).
        var rng = SplitMix64(seed: 0x5EED_C1)
        let digitsMostly = Array("0123456789".utf8) + Array("0123456789-.%".utf8) + [0x2C, 0x65, 0x20, 0x41, 0x80, 0xE2, 0x2F, 0x3A, 0x3F, 0xF9, 0xFA]
        for _ in 0..<50_000 {
            let count = 1 + Int(rng.next() % 12)
            check((0..<count).map { _ in digitsMostly[Int(rng.next() % UInt64(digitsMostly.count))] })
        }
    }

    @Test("C1/C3: the sizing's shortcut for short numbers and percentages notes what the full path notes (every cell of up to four number bytes, and runs of generated cells of up to nine)")
    func sizingShortcutAgreesWithTheFullPath() {
        let measure = DisplayWidth()
        // The same cells into two profiles: one by `note` (the shortcut first), one by the full path alone.
        func check(_ cells: [[UInt8]], trackWords: Bool) {
            var shortcut = ColumnProfile(name: "c")
            var full = ColumnProfile(name: "c")
            for bytes in cells {
                bytes.withUnsafeBufferPointer { cell in
                    shortcut.note(cell, measure: measure, trackWords: trackWords)
                    full.noteAnyCell(cell, measure: measure, trackWords: trackWords)
                }
            }
            #expect(shortcut == full, "\(cells.map { String(decoding: $0, as: UTF8.self) })")
        }
        let alphabet = Array("019-.%+,e a".utf8) + [0xC3]
        var cells: [[UInt8]] = [[]]
        for _ in 0..<4 {
            cells = cells.flatMap { cell in alphabet.map { cell + [$0] } }
            for cell in cells { check([cell], trackWords: false) }
        }
        // Runs: a column that has seen a date, a boolean or text before its numbers no longer takes
        // the shortcut, so the runs mix them in.
        var rng = SplitMix64(seed: 0x5EED_C3)
        let others: [[UInt8]] = ["2024-11-27", "true", "n/a", "", "Smith", "12 kg", "-3", "1,000"].map { Array($0.utf8) }
        let digitsMostly = Array("0123456789".utf8) + Array("0123456789.%".utf8)
        var shortCells = 0
        for _ in 0..<20_000 {
            let run = (0..<(1 + Int(rng.next() % 6))).map { _ -> [UInt8] in
                if rng.next() % 4 == 0 { return others[Int(rng.next() % UInt64(others.count))] }
                return (0..<(1 + Int(rng.next() % 9))).map { _ in digitsMostly[Int(rng.next() % UInt64(digitsMostly.count))] }
            }
            var probe = ColumnProfile(name: "c")
            run.first?.withUnsafeBufferPointer { if probe.noteShortNumber($0, trackWords: false) { shortCells += 1 } }
            check(run, trackWords: rng.next() % 2 == 0)
        }
        // The generated runs do reach the shortcut, percentages included.
        #expect(shortCells > 2_000)
        var percent = ColumnProfile(name: "c")
        let taken = Array("12.5%".utf8).withUnsafeBufferPointer { percent.noteShortNumber($0, trackWords: false) }
        #expect(taken && percent.values == 1 && percent.kind == .percent && percent.integerWidth == 2 && percent.fractionWidth == 3)
    }
}
