import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// The view and the printer share one grouping and one width cap (W3, W12): the view's groups are
/// the printer's `GroupTally`/`GroupTotals` over parts of the rows, its cap `Layout.Bounds.widest`.
@Suite("Viewer: the printer's grouping and width cap")
struct ViewSharedModelTests {
    /// Cents as a decimal written with two places.
    static func money(_ cents: Int) -> String {
        (cents < 0 ? "-" : "") + "\(abs(cents) / 100)." + String(format: "%02d", abs(cents) % 100)
    }

    @Test("W12: 70,000 generated rows grouped in two parts: groups in first-seen order, equal-as-text values one group, sums and counts computed here")
    func groupsInParts() throws {
        // Past 65,536 rows the view groups on both cores; a value written two ways (composed and
        // decomposed) is one group, shown as first written.
        let names = ["Café", "Cafe\u{301}", "north", "south", "", "east"]
        var rng = SplitMix64(seed: 42)
        var rows: [(name: String, qty: Int, cents: Int?)] = []
        for _ in 0..<70_000 {
            rows.append((names[rng.below(names.count)], rng.below(2_000) - 1_000, rng.below(9) == 0 ? nil : rng.below(1_000_000) - 300_000))
        }
        var csv = "name,qty,price\n"
        for r in rows { csv += "\(r.name),\(r.qty),\(r.cents.map(Self.money) ?? "NA")\n" }
        var options = FormatOptions()
        options.groupBy = ColumnReference("name")
        let model = try ViewStateTests.view(csv, width: 80, height: 20, options: options)
        let groups = try #require(model.state.groups)

        func key(_ name: String) -> String { name == "Cafe\u{301}" ? "Café" : name }
        var firstSeen: [String] = []
        var written: [String: String] = [:]
        for r in rows where written[key(r.name)] == nil {
            written[key(r.name)] = r.name
            firstSeen.append(key(r.name))
        }
        #expect(groups.values == firstSeen.map { written[$0] ?? "" })
        let expectedOrder = firstSeen.flatMap { g in rows.indices.filter { key(rows[$0].name) == g } }
        #expect(ViewStateTests.order(model) == expectedOrder)
        for (k, g) in firstSeen.enumerated() {
            let members = rows.filter { key($0.name) == g }
            #expect(groups.counts[k] == members.count)
            #expect(groups.footers[k][1] == String(members.map(\.qty).reduce(0, +)), "\(g)")
            #expect(groups.footers[k][2] == Self.money(members.compactMap(\.cents).reduce(0, +)), "\(g)")
        }
    }

    @Test("W12: 300 generated tables: the view's footers are the sum of the whole column (NumberValue.sum), also past the exact span")
    func footersAsWholeColumnSums() throws {
        for seed in 0..<300 as Range<UInt64> {
            var rng = SplitMix64(seed: seed &* 31 &+ 7)
            let shapes = ["\(rng.below(1000))", "-\(rng.below(99)).\(rng.below(10))", "1e\(rng.below(120))", "\(rng.below(9)).000\(rng.below(9))e-\(rng.below(90))",
                          "$\(rng.below(500)).25", "", "NA", "1,234.5"]
            var cells: [(group: Int, value: String)] = []
            // A third of the tables have exponents whose span passes the exact limit (a second look).
            let pool = seed % 3 == 0 ? Array(shapes.indices) : shapes.indices.filter { $0 != 2 && $0 != 3 }
            for _ in 0..<(rng.below(40) + 1) {
                cells.append((rng.below(4), shapes[pool[rng.below(pool.count)]]))
            }
            var csv = "g,v\n"
            for c in cells { csv += "g\(c.group),\"\(c.value)\"\n" }
            var options = FormatOptions()
            options.groupBy = ColumnReference("g")
            let model = try ViewStateTests.view(csv, width: 100, height: 10, options: options)
            let groups = try #require(model.state.groups)
            for (k, value) in groups.values.enumerated() {
                let members = cells.filter { "g\($0.group)" == value }.map { Array($0.value.utf8) }
                let expected = NumberValue.sum(members).map(Wording.footerText)
                // A column of placeholders only is not summed at all (no footer row entries).
                #expect((groups.footers[k].count == 2 ? groups.footers[k][1] : nil) == expected, "seed \(seed) \(value): \(members.map { String(decoding: $0, as: UTF8.self) })")
            }
        }
    }

    @Test("W3: a text column in the view is capped where the printed table caps it, for every --max-width and style")
    func widthCapAsPrinted() throws {
        let long = String(repeating: "word ", count: 60)
        let csv = "id,text,more\n1,\(long),\(long)\n2,short,x\n"
        var rng = SplitMix64(seed: 9)
        for round in 0..<200 {
            var options = FormatOptions()
            switch round % 3 {
            case 0: options.maxWidth = .cells(rng.below(50) + 1)
            case 1: options.maxWidth = .percent(rng.below(100) + 1)
            default: options.maxWidth = nil
            }
            if round % 4 == 0 { options.style = .box }
            let width = rng.below(150) + 20
            let model = try ViewStateTests.view(csv, width: width, height: 10, options: options)
            // W3, written here: cells as given; a percentage of the container (the width less the
            // borders) less the gap; half the container less the gap by default; at least 1.
            let container = max(1, width - options.style.edges)
            let cap: Int
            switch options.maxWidth {
            case .cells(let n)?: cap = n
            case .percent(let p)?: cap = max(1, container * p / 100 - options.style.gap)
            case nil: cap = max(1, container / 2 - options.style.gap)
            }
            let text = try #require(model.state.columns.first { $0.source == 1 })
            #expect(text.width <= cap, "round \(round): width \(width) \(String(describing: options.maxWidth)) \(text.width) > \(cap)")
            #expect(text.width <= long.count)
        }
    }
}

/// A text sort of a column with few distinct values, by their ranks (V3, W11).
@Suite("Viewer: a text sort by ranks")
struct ViewRankedSortTests {
    /// Rows of one column from `pool`, `count` of them.
    static func rows(_ count: Int, pool: [String], seed: UInt64) -> [[String]] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in [pool[rng.below(pool.count)]] }
    }

    /// The order `--sort` gives, computed apart: the texts' NFC forms (Foundation's), scalar by
    /// scalar; placeholders and empty cells last either way, ties in input order.
    static func expected(_ rows: [[String]], descending: Bool) -> [Int32] {
        ViewTextRunsTests.nfcOrder(rows.map { $0[0] }, descending: descending)
    }

    @Test("V3: 30 generated columns of few values (accents composed and not, CJK, placeholders, a long shared prefix, a text beginning another in NFC), both ways: the NFC order, stable")
    func rankedMatchesStringOrder() throws {
        // "Café" begins "Cafe\u{301}s" in NFC, one of them decomposed: String's `<` orders neither first.
        let base = ["Smith, Raj", "Smith, Rachel", "Smith, Raj ", "smith", "Café", "Cafe\u{301}", "Cafë", "Cafe\u{301}s", "株式会社サンプル", "서울",
                    "Øster", "Nguyễn", "O'Brien", "", "NA", "-", "null", "zzz", String(repeating: "p", count: 40) + "a",
                    String(repeating: "p", count: 40) + "b", "\u{1F600}", "a\u{0}b", "Z"]
        for seed in 0..<30 as Range<UInt64> {
            var rng = SplitMix64(seed: seed)
            let pool = Array(base.shuffled(using: &rng).prefix(rng.below(base.count - 2) + 2))
            let count = [5_000, 20_000, 70_000][Int(seed % 3)]  // past 65,536: two parts
            let rows = Self.rows(count, pool: pool, seed: seed)
            for descending in [false, true] {
                guard case .sorted(let ids) = ViewState.rankedTextOrder(MemoryRows(rows), rows: rows.count, column: 0, descending: descending, budget: 1 << 26) else {
                    Issue.record("seed \(seed): not ranked")
                    continue
                }
                #expect(ids == Self.expected(rows, descending: descending), "seed \(seed) descending \(descending) pool \(pool)")
                // The view's sort (the way it is asked for) gives the same order.
                #expect(try ViewState.textOrder(MemoryRows(rows), rows: rows.count, column: 0, descending: descending, budget: 1 << 26) == ids)
            }
        }
    }

    @Test("V3: a column of many distinct values, or a small one, is not ranked, and still sorts as String comparison does; Esc stops a ranked sort")
    func fallbackAndCancel() throws {
        let unique = (0..<10_000).map { ["v\(($0 * 7919) % 10_007)"] }
        if case .tooMany = ViewState.rankedTextOrder(MemoryRows(unique), rows: unique.count, column: 0, descending: false, budget: 1 << 26) {} else {
            Issue.record("a column of distinct values was ranked")
        }
        #expect(try ViewState.textOrder(MemoryRows(unique), rows: unique.count, column: 0, descending: false, budget: 1 << 26) == Self.expected(unique, descending: false))
        let small = Self.rows(100, pool: ["b", "a", "c"], seed: 3)
        if case .tooMany = ViewState.rankedTextOrder(MemoryRows(small), rows: small.count, column: 0, descending: false, budget: 1 << 26) {} else {
            Issue.record("a small column was ranked")
        }
        let many = Self.rows(70_000, pool: ["b", "a", "c"], seed: 4)
        let stop = WorkProgress { $0 < 0.5 }
        if case .cancelled = ViewState.rankedTextOrder(MemoryRows(many), rows: many.count, column: 0, descending: false, budget: 1 << 26, progress: stop) {} else {
            Issue.record("a cancelled sort answered")
        }
    }
}
