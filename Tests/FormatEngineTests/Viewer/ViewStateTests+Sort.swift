import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// The view's sort (V3) as keys and frames.
extension ViewStateTests {
    // MARK: - Sorting (V3)

    /// The order `--sort` promises, computed here independently: numbers by value, text by
    /// Unicode order, empty and null-like cells last in both directions, ties in input order.
    static func expectedOrder(_ rows: [[String]], column: Int, numeric: Bool, descending: Bool) -> [Int] {
        func isEmpty(_ s: String) -> Bool { s.isEmpty || s == "NA" }
        return rows.indices.sorted { a, b in
            let x = rows[a][column], y = rows[b][column]
            if isEmpty(x) || isEmpty(y) {
                if isEmpty(x) != isEmpty(y) { return isEmpty(y) }
                return a < b
            }
            if numeric {
                let p = Double(x)!, q = Double(y)!
                if p != q { return descending ? p > q : p < q }
            } else if x != y {
                return descending ? x > y : x < y
            }
            return a < b
        }
    }

    @Test("V3: s sorts by the focused column as --sort does (ascending, descending, input order), on 200 generated tables")
    func sortMatchesIndependentOrder() throws {
        for seed in 0..<200 as Range<UInt64> {
            let (csv, rows) = Self.randomCSV(rows: Int(seed % 40) + 1, seed: seed)
            let model = try Self.view(csv, width: 80, height: 12)
            let column = Int(seed % 2)  // amount (numeric) or name (text)
            if column == 1 { Self.press(model, "l") }
            Self.press(model, "s")
            #expect(Self.order(model) == Self.expectedOrder(rows, column: column, numeric: column == 0, descending: false), "seed \(seed)")
            Self.press(model, "s")
            #expect(Self.order(model) == Self.expectedOrder(rows, column: column, numeric: column == 0, descending: true), "seed \(seed)")
            Self.press(model, "s")
            #expect(Self.order(model) == Array(rows.indices), "seed \(seed)")
        }
    }

    @Test("V3/P2: past --memory-limit a text column is sorted in runs on disk and merged: the same order, on 60 generated tables")
    func textSortBeyondMemory() throws {
        for seed in 0..<60 as Range<UInt64> {
            let (csv, rows) = Self.randomCSV(rows: Int(seed % 5) * 60 + 150, seed: seed)
            var options = FormatOptions()
            options.memoryLimit = [600, 1500, 3000][Int(seed % 3)]
            let model = try Self.view(csv, width: 80, height: 12, options: options)
            Self.press(model, "l")
            Self.press(model, "s")
            #expect(Self.order(model) == Self.expectedOrder(rows, column: 1, numeric: false, descending: false), "seed \(seed)")
            Self.press(model, "s")
            #expect(Self.order(model) == Self.expectedOrder(rows, column: 1, numeric: false, descending: true), "seed \(seed)")
        }
    }

    @Test("V3: the sorted heading shows ▲ then ▼; --sort opens the view sorted")
    func sortArrow() throws {
        let model = try Self.view("name,qty\nb,2\na,10\nc,1\n", width: 40, height: 7)
        Self.press(model, "ls")
        #expect(Self.plain(model)[0] == "Name  Qty ▲")
        // The sorted column widens for its arrow; the numbers stay right-aligned in it.
        #expect(Self.plain(model)[2...4] == ["c         1", "b         2", "a        10"])
        Self.press(model, "s")
        #expect(Self.plain(model)[0] == "Name  Qty ▼")
        var options = FormatOptions()
        options.sort = [SortKey("-qty")]
        let sorted = try Self.view("name,qty\nb,2\na,10\nc,1\n", width: 60, height: 7, options: options)
        #expect(Self.order(sorted) == [1, 0, 2])
        #expect(Self.plain(sorted).last!.contains("sort: Qty ▼"))
    }

    @Test("V3: < and > narrow and widen the focused column; = restores it; a narrowed number is cut with …")
    func resizeColumns() throws {
        let model = try Self.view("name,amount\nwidget,123456\n", width: 40, height: 5)
        #expect(Self.plain(model)[2] == "widget  123456")
        Self.press(model, "l<<")
        #expect(model.state.columns[1].width == 2)
        #expect(Self.plain(model)[2] == "widget  1…")
        Self.press(model, ">>>")
        #expect(model.state.columns[1].width == 8)
        #expect(Self.plain(model)[2] == "widget    123456")
        Self.press(model, "=")
        #expect(Self.plain(model)[2] == "widget  123456")
    }

    @Test("V1/C6: --wrap 2 gives a row whose text does not fit a second line; moving keeps the current row whole on screen")
    func twoLineRows() throws {
        var options = FormatOptions()
        options.cellLines = 2
        var csv = "n,text\n"
        for k in 1...20 { csv += "\(k),\(k % 3 == 0 ? "a long text that wraps on two lines" : "short")\n" }
        // 30 columns: the text column is capped at half the width (W3), so the long text wraps.
        let model = try Self.view(csv, width: 30, height: 8, options: options)  // 5 lines of rows
        let lines = Self.plain(model)
        #expect(Array(lines[2...6]) == [" 1  short", " 2  short", " 3  a long text", "    that wraps o…", " 4  short"])
        // Going down, the current row is always wholly on screen, both of its lines.
        for step in 1..<20 {
            model.handle(.down)
            let frame = model.frame()
            let row = model.state.current + 1
            let at = frame.firstIndex { Self.strip($0).hasPrefix(String(repeating: " ", count: row < 10 ? 1 : 0) + "\(row)  ") }
            #expect(at != nil, "step \(step)")
            if let at, row % 3 == 0 { #expect(at + 1 < 7 && Self.strip(frame[at + 1]).contains("wraps"), "step \(step)") }
        }
        #expect(Self.plain(model)[6].hasPrefix("20  short"))
    }

    @Test("V1/W12: --group-by shows each group under its heading and over its footer of sums, as printed; s sorts within groups")
    func groupsInTheView() throws {
        var options = FormatOptions()
        options.groupBy = ColumnReference("region")
        let model = try Self.view("region,item,qty,price\nEMEA,bolt,3,1.50\nAPAC,nut,10,0.25\nEMEA,screw,5,0.10\nNA,washer,7,\nAPAC,gear,1,12.00\n",
                                  width: 60, height: 16, options: options)
        #expect(Array(Self.plain(model)[0...12]) == [
            "Region  Item    Qty  Price",
            "──────  ──────  ───  ─────",
            "Region: EMEA (2 rows)",
            "EMEA    bolt      3   1.50",
            "EMEA    screw     5   0.10",
            "Total             8   1.60",
            "Region: APAC (2 rows)",
            "APAC    nut      10   0.25",
            "APAC    gear      1  12.00",
            "Total            11  12.25",
            "Region: NA (1 row)",
            "NA      washer    7",
            "Total             7",
        ])
        Self.press(model, "lls")
        #expect(Self.order(model) == [0, 2, 4, 1, 3])  // qty ascending within each group
    }

    @Test("V1/W12: 100 generated tables grouped in the view: groups in first-seen order, rows in input order, sums computed here")
    func groupsMatchIndependentSums() throws {
        for seed in 0..<100 as Range<UInt64> {
            var rng = SplitMix64(seed: seed)
            var rows: [(region: String, qty: Int?, cents: Int?)] = []
            for _ in 0..<(rng.below(120) + 1) {
                rows.append(("r\(rng.below(6))", rng.below(6) == 0 ? nil : rng.below(900) - 100, rng.below(7) == 0 ? nil : rng.below(100_000)))
            }
            var csv = "region,qty,price\n"
            for r in rows {
                csv += "\(r.region),\(r.qty.map(String.init) ?? "NA"),\(r.cents.map { String(format: "%d.%02d", $0 / 100, $0 % 100) } ?? "")\n"
            }
            var options = FormatOptions()
            options.groupBy = ColumnReference("region")
            let model = try Self.view(csv, width: 100, height: 20, options: options)
            var firstSeen: [String] = []
            for r in rows where !firstSeen.contains(r.region) { firstSeen.append(r.region) }
            let expected = firstSeen.flatMap { g in rows.indices.filter { rows[$0].region == g } }
            #expect(Self.order(model) == expected, "seed \(seed)")
            let groups = try #require(model.state.groups)
            for (k, g) in firstSeen.enumerated() {
                let members = rows.filter { $0.region == g }
                let qty = members.compactMap(\.qty)
                let cents = members.compactMap(\.cents)
                #expect(groups.footers[k][1] == (qty.isEmpty ? nil : String(qty.reduce(0, +))), "seed \(seed) \(g)")
                let total = cents.reduce(0, +)
                #expect(groups.footers[k][2] == (cents.isEmpty ? nil : String(format: "%d.%02d", total / 100, total % 100)), "seed \(seed) \(g)")
                #expect(groups.heading(k) == "Region: \(g) (\(members.count) row\(members.count == 1 ? "" : "s"))")
            }
        }
    }

    @Test("V2/V3/V4: a click on a heading sorts by it; on a row, opens its sheet; the wheel scrolls")
    func mouse() throws {
        let csv = "name,qty\n" + (1...30).map { "n\($0),\(31 - $0)" }.joined(separator: "\n") + "\n"
        let model = try Self.view(csv, width: 40, height: 10)
        model.handle(.click(x: 7, y: 0))  // the Qty heading
        #expect(model.state.sort?.column == 1 && model.state.sort?.descending == false)
        // The current row (n1, the largest Qty) stays current, now the last row, in sight.
        #expect(model.state.current == 29 && model.state.id(at: 29) == 0)
        #expect(Self.plain(model)[8].hasPrefix("n1 "))
        model.handle(.character("g"))
        #expect(Self.plain(model)[2].hasPrefix("n30"))
        model.handle(.wheelDown)
        #expect(model.state.current == 3)
        model.handle(.click(x: 1, y: 4))  // the third row on screen
        #expect(model.state.mode == .detail(scroll: 0))
        #expect(model.state.current == model.state.top + 2)
        #expect(Self.plain(model)[0] == "n\(30 - model.state.current)")  // the sheet's title: that row's name
    }

    @Test("V2: ? lists every key of the table, and any key returns")
    func help() throws {
        let model = try Self.view("a\n1\n", width: 100, height: 40)
        Self.press(model, "?")
        let lines = Self.plain(model)
        for key in ViewHelp.keys { #expect(lines.contains { $0.hasPrefix(key.keys) && $0.hasSuffix(key.meaning) }, "\(key.keys)") }
        Self.press(model, "x")
        #expect(model.state.mode == .table)
    }

    @Test("V7: while rows are read the status line says so, and the count grows; a filter reaches the new rows")
    func countingWhileReading() throws {
        let all = (0..<50).map { ["r\($0)", $0 % 5 == 0 ? "five" : "other"] }
        var state = ViewState(options: FormatOptions(), source: "pipe", color: false, width: 60, height: 10)
        let profiles = ColumnProfiler(columns: ["name", "kind"], measure: DisplayWidth()).profiles
        let first = MemoryRows(Array(all.prefix(20)))
        state.update(columns: ["name", "kind"], profiles: profiles, rows: 20, done: false, error: nil, from: first)
        #expect(Self.strip(state.frame(first).last!).hasPrefix("row 1 of 20+ (reading…)"))
        for c in "&five" { state.handle(.character(c), data: first) }
        state.handle(.enter, data: first)
        Self.settle(&state, first)
        #expect(state.count == 4)
        let rest = MemoryRows(all)
        state.update(columns: ["name", "kind"], profiles: profiles, rows: 50, done: true, error: nil, from: rest)
        #expect(state.count == 10)
        #expect(Self.strip(state.frame(rest).last!).hasPrefix("row 1 of 10 · Name · filter five: 10 of 50 rows"))
    }
}
