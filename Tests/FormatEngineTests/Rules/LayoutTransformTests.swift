import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// W7–W14: layouts and transforms, from docs/RULES.md. `RuleKit` is the rule tests' shared helper.
@Suite("Layouts and transforms")
struct LayoutTransformTests {
    /// Output and result for CSV text, read as a file (`rereadable`) or as a pipe.
    static func run(_ csv: String, width: Int?, rereadable: Bool = true, _ configure: (inout FormatOptions) -> Void = { _ in }) throws -> (text: String, result: RunResult) {
        let options = RuleKit.options(width: width, configure)
        let sink = MemorySink()
        let result = try TableFormatter.run(MemoryInput(csv, name: "t.csv", path: "t.csv", isRereadable: rereadable), options: options, output: sink)
        return (sink.text, result)
    }

    static let wide = "name,region,rep,quantity,price,notes\nTea,North,Anna,3,4.50,fine\nCoffee beans,South,Bob,10,12.00,late delivery\n"

    // MARK: - W7

    @Test("W7: auto is a table when every column fits, else a list report; the same from a file and a pipe")
    func autoLayout() throws {
        for rereadable in [true, false] {
            let fits = try Self.run(Self.wide, width: 100, rereadable: rereadable) { $0.layout = .auto }
            #expect(RuleKit.lines(fits.text).contains { $0.hasPrefix("Name") && $0.contains("Notes") }, "a table")
            let narrow = try Self.run(Self.wide, width: 30, rereadable: rereadable) { $0.layout = .auto }
            let lines = RuleKit.lines(narrow.text)
            #expect(lines.first == "Tea", "a list report: the first block's title")
            #expect(lines.contains("Quantity  3"))
            #expect(!narrow.text.contains("more column"))
        }
        let file = try Self.run(Self.wide, width: 30, rereadable: true) { $0.layout = .auto }
        let pipe = try Self.run(Self.wide, width: 30, rereadable: false) { $0.layout = .auto }
        #expect(file.text == pipe.text)
    }

    // MARK: - W8 (seeded property)

    /// Random tables of lower-case words under headings `H0…`, so every word of the output that is
    /// lower-case letters only comes from a cell.
    static func randomTable(_ rng: inout SplitMix64, columns: Int, rows: Int) -> (csv: String, words: [String]) {
        var csv = (0..<columns).map { "h\($0)" }.joined(separator: ",") + "\n"
        var words: [String] = []
        for _ in 0..<rows {
            var cells: [String] = []
            for _ in 0..<columns {
                let cell = (0..<(1 + rng.below(5))).map { _ in
                    String((0..<(1 + rng.below(14))).map { _ in Character(Unicode.Scalar(UInt8(97 + rng.below(26)))) })
                }
                words.append(contentsOf: cell)
                cells.append(cell.joined(separator: " "))
            }
            csv += cells.joined(separator: ",") + "\n"
        }
        return (csv, words)
    }

    @Test("W8: a list report never cuts a value and never exceeds the width (seeded random tables)")
    func listReportProperty() throws {
        var rng = SplitMix64(seed: 0x5708)
        for _ in 0..<200 {
            let width = 16 + rng.below(70)
            let (csv, words) = Self.randomTable(&rng, columns: 1 + rng.below(7), rows: 1 + rng.below(5))
            let text = try Self.run(csv, width: width) { $0.layout = .list }.text
            let lines = RuleKit.lines(text)
            for line in lines { #expect(RuleKit.width(line) <= width, "\(line.debugDescription) at width \(width)") }
            #expect(!text.contains("…"), "nothing is cut in a list report")
            // Every word of every cell is there, whole (a long word may be broken across lines, so
            // compare the letters in order).
            let letters = text.unicodeScalars.filter { $0.value >= 97 && $0.value <= 122 }
            #expect(String(String.UnicodeScalarView(letters)) == words.joined(), "width \(width):\n\(text)")
        }
    }

    // MARK: - W7 pages (seeded property)

    @Test("W7: pages shows every column exactly once outside the sticky first one, each band within the width")
    func pagesProperty() throws {
        var rng = SplitMix64(seed: 0x9A6E5)
        for _ in 0..<200 {
            let width = 24 + rng.below(80)
            let (csv, _) = Self.randomTable(&rng, columns: 2 + rng.below(10), rows: 1 + rng.below(4))
            let options = RuleKit.options(width: width) { $0.layout = .pages }
            let (names, records) = RuleKit.read(csv, options: options)
            let plan = Layout.plan(RuleKit.profiles(names, records), options: options)
            var seen: [Int] = []
            for band in plan.bands {
                #expect(band.first?.source == 0, "every band starts with the sticky first column")
                seen.append(contentsOf: band.dropFirst().map(\.source))
                #expect(band.reduce(0) { $0 + $1.width } + plan.gap * (band.count - 1) <= width)
            }
            #expect(seen == Array(1..<names.count), "each other column once, in order")
            let text = try Self.run(csv, width: width) { $0.layout = .pages }.text
            for line in RuleKit.lines(text) { #expect(RuleKit.width(line) <= width, "\(line.debugDescription) at width \(width)") }
        }
    }

    // MARK: - W9

    @Test("W9: --columns chooses and orders columns by name as written or by number")
    func columns() throws {
        let byName = try Self.run(Self.wide, width: 0) { $0.columns = [.name("price"), .name("name")] }.text
        #expect(RuleKit.lines(byName).first == "Price ($)  Name" || RuleKit.lines(byName).first?.hasPrefix("Price") == true)
        #expect(!byName.contains("Region"))
        let byNumber = try Self.run(Self.wide, width: 0) { $0.columns = [ColumnReference("4"), ColumnReference("1")] }.text
        #expect(RuleKit.lines(byNumber).first?.hasPrefix("Quantity  Name") == true)
        let unknown = try Self.run(Self.wide, width: 0) { $0.columns = [.name("nope")] }
        #expect(unknown.text.isEmpty)
        #expect(unknown.result.usageError == "no column 'nope'; the columns are: name, region, rep, quantity, price, notes")
    }

    // MARK: - W10

    @Test("W10: --limit shows the first N rows, then how many more, from a file and from a pipe")
    func limit() throws {
        var csv = "n\n"
        for i in 1...1_240 { csv += "\(i)\n" }
        for rereadable in [true, false] {
            let lines = RuleKit.lines(try Self.run(csv, width: 0, rereadable: rereadable) { $0.limit = 6 }.text)
            #expect(lines.count == 2 + 6 + 1)
            #expect(lines[2].hasSuffix("1") && lines[7].hasSuffix("6"))
            #expect(lines.last == "… 1,234 more rows")
        }
    }

    @Test("W10: columns are sized from the rows shown, also when a pipe is sized from all its rows (--window all)")
    func limitSizesShownRows() throws {
        let csv = "n,name\n1,Ann\n2,Bo\n" + (3...1_500).map { "\($0),\(String(repeating: "x", count: 30))" }.joined(separator: "\n") + "\n"
        let file = try Self.run(csv, width: 0, rereadable: true) { $0.limit = 2 }.text
        let pipe = try Self.run(csv, width: 0, rereadable: false) { $0.limit = 2; $0.window = nil }.text
        #expect(RuleKit.lines(file) == ["N  Name", "─  ────", "1  Ann", "2  Bo", "… 1,498 more rows"])
        #expect(pipe == file)
    }

    // MARK: - W11

    @Test("W11: numbers sort by value, text by Unicode order (ISO dates written alike in time order); empty cells last both ways")
    func typedSort() throws {
        let csv = "k,n,d\nb,10,2024-03-01\na,9,2023-12-31\n,,\nc,-2,2024-01-15\n"
        func order(_ key: String) throws -> [String] {
            let lines = RuleKit.lines(try Self.run(csv, width: 0) { $0.sort = [SortKey(key)]; $0.columns = [.name("k")] }.text)
            return Array(lines.dropFirst(2)).map { $0.trimmingCharacters(in: .whitespaces) }
        }
        #expect(try order("n") == ["c", "a", "b", ""])
        #expect(try order("-n") == ["b", "a", "c", ""])
        #expect(try order("d") == ["a", "c", "b", ""])
        #expect(try order("-k") == ["c", "b", "a", ""])
    }

    @Test("W11: the sort is stable and typed (seeded: random keys with ties, several keys)")
    func stableSortProperty() throws {
        var rng = SplitMix64(seed: 0x511)
        for _ in 0..<100 {
            let count = 2 + rng.below(40)
            var rows: [(id: Int, a: Int?, b: String)] = []
            for id in 0..<count {
                rows.append((id, rng.below(6) == 0 ? nil : rng.below(12) - 3, ["x", "y", "z"][rng.below(3)]))
            }
            let csv = "id,a,b\n" + rows.map { "\($0.id),\($0.a.map(String.init) ?? ""),\($0.b)" }.joined(separator: "\n") + "\n"
            let descending = rng.below(2) == 0
            let lines = RuleKit.lines(try Self.run(csv, width: 0) { $0.sort = [SortKey((descending ? "-" : "") + "a"), SortKey("b")] }.text)
            let ids = lines.dropFirst(2).compactMap { Int($0.split(separator: " ").first ?? "") }
            // The expected order: by a (numerically, empties last), then b, then input order.
            let expected = rows.sorted { x, y in
                switch (x.a, y.a) {
                case (nil, nil): break
                case (nil, _): return false
                case (_, nil): return true
                case let (p?, q?): if p != q { return descending ? p > q : p < q }
                }
                if x.b != y.b { return x.b < y.b }
                return x.id < y.id
            }.map(\.id)
            #expect(ids == expected, "\(csv)")
        }
    }

    // MARK: - W12

    @Test("W12: groups in first-seen order, each with its count and exact sums; --footer none")
    func groups() throws {
        let csv = "region,qty,price\nEU,1,0.1\nUS,2,1.25\nEU,3,0.2\n"
        let lines = RuleKit.lines(try Self.run(csv, width: 0) { $0.groupBy = .name("region") }.text)
        let eu = try #require(lines.firstIndex(of: "Region: EU (2 rows)"))
        let us = try #require(lines.firstIndex(of: "Region: US (1 row)"))
        #expect(eu < us)
        let totals = lines.filter { $0.hasPrefix("Total") }
        #expect(totals.count == 2)
        // 0.1 + 0.2 summed exactly (not 0.30000000000000004), with the addends' one decimal.
        #expect(totals[0].split(separator: " ") == ["Total", "4", "0.3"], "\(totals[0])")
        #expect(totals[1].split(separator: " ") == ["Total", "2", "1.25"], "\(totals[1])")
        let none = try Self.run(csv, width: 0) { $0.groupBy = .name("region"); $0.groupFooter = false }.text
        #expect(!none.contains("Total"))
    }

    // MARK: - W13

    @Test("W13: --zebra gives alternate rows a background in ANSI, and nothing in plain")
    func zebra() throws {
        let csv = "a\n1\n2\n3\n4\n"
        let ansi = RuleKit.lines(try Self.run(csv, width: 0) { $0.format = .ansi; $0.zebra = true }.text)
        let rows = Array(ansi.dropFirst(2))
        #expect(rows.count == 4)
        for (k, row) in rows.enumerated() { #expect(row.hasPrefix("\u{1B}[48;5;") == (k % 2 == 1), "row \(k): \(row.debugDescription)") }
        let plain = try Self.run(csv, width: 0) { $0.format = .plain; $0.zebra = true }.text
        #expect(!plain.contains("\u{1B}"))
    }

    // MARK: - W14

    @Test("W14: --title goes above, notes go under the table on stdout, input warnings go to the result (stderr)")
    func titleAndNotes() throws {
        let (text, result) = try Self.run("a,b\n1,2,3\n4,5\n", width: 0) { $0.title = "Report"; $0.limit = 1 }
        let lines = RuleKit.lines(text)
        #expect(lines.first == "Report")
        #expect(lines.last == "… 1 more row")
        #expect(result.warnings.count == 1 && result.warnings[0].contains("more fields than the header"))
        #expect(!text.contains("warning"))
    }
    /// Text sorts by Unicode order (W11): two texts compare as their NFC forms do scalar by scalar
    /// (Foundation's normalization here, an independent one), a text before any longer one it
    /// begins; canonically equivalent spellings tie, whether or not the text is plain (compared
    /// as it is) or normalized first.
    @Test("W11: text values compare as their NFC forms do, scalar by scalar, on generated text (plain and not)", arguments: [1, 2, 3] as [UInt64])
    func textOrderIsStringOrder(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let pieces = ["a", "B", "z", " ", "0", "é", "e\u{301}", "Ø", "ß", "ǅ", "ʼ", "\u{300}", "Ω", "Ж", "か", "が", "か\u{3099}", "カ", "日",
                      "本", "한", "\u{1100}\u{1161}", "Ａ", "ｱ", "😀", "\u{FEFF}", "\u{2000}", "Å", "A\u{30A}", "\u{212B}", "~", "\u{7F}", "\u{80}", "ÿ"]
        func text() -> String { (0..<rng.below(5)).map { _ in pieces[rng.below(pieces.count)] }.joined() }
        var plain = 0
        for _ in 0..<3000 {
            let x = text(), y = text()
            guard let a = RowOrder.value(Record([x]), 0, numeric: false),
                  let b = RowOrder.value(Record([y]), 0, numeric: false) else { continue }
            if [x, y].allSatisfy({ Array($0.utf8).withUnsafeBufferPointer { RowOrder.Value.isPlain($0) } }) { plain += 1 }
            let p = x.precomposedStringWithCanonicalMapping.unicodeScalars.map(\.value)
            let q = y.precomposedStringWithCanonicalMapping.unicodeScalars.map(\.value)
            let expected = p == q ? 0 : p.lexicographicallyPrecedes(q) ? -1 : 1
            #expect(RowOrder.Value.compare(a, b) == expected, "\(x.unicodeScalars.map { String($0.value, radix: 16) }) vs \(y.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(RowOrder.before(a, b, descending: false) == (expected == 0 ? nil : expected < 0))
        }
        #expect(plain > 150, "plain text pairs were compared: \(plain)")
    }
}
