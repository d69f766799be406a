import Foundation
import Testing
@testable import FormatEngine

/// The view as keys and frames, without a terminal (V2–V6).
@Suite("Viewer: keys and frames")
struct ViewStateTests {
    // MARK: - Support

    /// A view of `csv`, every row read, on a `width` × `height` screen.
    static func view(_ csv: String, width: Int, height: Int, options: FormatOptions = FormatOptions(), color: Bool = false) throws -> ViewModel {
        let loader = ViewLoader(store: RowStore())
        loader.load(MemoryInput(csv, name: "t.csv"), options: options)
        return ViewModel(loader: loader, options: options, source: "t.csv", color: color, width: width, height: height)
    }

    /// The frame without its SGR styling, trailing spaces dropped.
    static func plain(_ model: ViewModel) -> [String] {
        model.frame().map { strip($0) }.map { line in
            var line = line
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    static func strip(_ line: String) -> String {
        line.replacing(/\x{1B}\[[0-9;]*m/, with: "")
    }

    static func press(_ model: ViewModel, _ keys: String) {
        for c in keys { model.handle(.character(c)) }
    }

    /// A small random table: numbers (some negative, some with decimals), words (some capital,
    /// some with commas, quotes or line breaks), empty cells and null words.
    static func randomCSV(rows: Int, seed: UInt64) -> (csv: String, rows: [[String]]) {
        var rng = SplitMix64(seed: seed)
        let words = ["apple", "Apple", "pear", "kiwi, green", "say \"hi\"", "two\nlines", "Zürich", "zürich", "東京", "NA", "", "b", "a"]
        var table: [[String]] = []
        for _ in 0..<rows {
            let number = rng.next() % 7 == 0 ? "" : String(Int(rng.next() % 2001) - 1000) + (rng.next() % 2 == 0 ? ".\(rng.next() % 10)" : "")
            let word = words[Int(rng.next() % UInt64(words.count))]
            let other = words[Int(rng.next() % UInt64(words.count))]
            table.append([number, word, other])
        }
        var csv = "amount,name,other\n"
        for row in table { csv += row.map(quoted).joined(separator: ",") + "\n" }
        return (csv, table)
    }

    static func quoted(_ field: String) -> String {
        field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + field.replacing("\"", with: "\"\"") + "\"" : field
    }

    /// Does the work `state` asks for, at once, and hands it the answers (a state without a model).
    static func settle(_ state: inout ViewState, _ data: any ViewRows) {
        while let work = state.running?.work, let answer = work.run(data, .always) { state.apply(answer, data: data) }
    }

    /// Every row as the view shows it, in order: the row numbers.
    static func order(_ model: ViewModel) -> [Int] {
        (0..<model.state.count).map { model.state.id(at: $0) }
    }

    // MARK: - The first screen

    @Test("V2: headings, their rule, the rows, and a status line: the screen exactly")
    func firstScreen() throws {
        let model = try Self.view("name,qty\nApple,3\nBanana,12\nCherry,7\n", width: 40, height: 7)
        #expect(Self.plain(model) == [
            "Name    Qty",
            "──────  ───",
            "Apple     3",
            "Banana   12",
            "Cherry    7",
            "",
            "row 1 of 3 · Name · t.csv         ? keys",
        ])
    }

    @Test("V1/W10: --limit N views the first N rows and says so")
    func limit() throws {
        var options = FormatOptions()
        options.limit = 2
        let model = try Self.view("name,qty\nApple,3\nBanana,12\nCherry,7\n", width: 60, height: 7, options: options)
        #expect(model.state.count == 2)
        #expect(Self.plain(model).last!.hasPrefix("row 1 of 2 · Name · the first 2 (--limit) · t.csv"))
    }

    @Test("V2: the current row is in reverse video without colours; with them, a background")
    func currentRow() throws {
        let model = try Self.view("name,qty\nApple,3\nBanana,12\nCherry,7\n", width: 40, height: 7)
        Self.press(model, "jj")
        let frame = model.frame()
        #expect(frame[4].hasPrefix("\u{1B}[7m"))  // Cherry, row 3
        #expect(!frame[2].hasPrefix("\u{1B}[7m") && !frame[3].hasPrefix("\u{1B}[7m"))
        #expect(Self.strip(frame[6]).hasPrefix("row 3 of 3 · Name"))
        let colored = try Self.view("name,qty\nApple,3\nBanana,12\n", width: 40, height: 6, color: true)
        #expect(colored.frame()[2].hasPrefix("\u{1B}[48;5;24m"))
        // Zebra on by default where colours are: the second row has the stripe.
        #expect(colored.frame()[3].hasPrefix(PlainRenderer.stripe))
    }

    @Test("V2: moving past the screen scrolls; g and G go to the ends; the header stays")
    func scrolling() throws {
        let csv = "n,word\n" + (1...100).map { "\($0),w\($0)" }.joined(separator: "\n") + "\n"
        let model = try Self.view(csv, width: 30, height: 10)  // 7 rows on screen
        Self.press(model, "G")
        var lines = Self.plain(model)
        #expect(lines[0] == "  N  Word")
        #expect(lines[8] == "100  w100")
        #expect(lines[2] == " 94  w94")
        #expect(lines[9].hasPrefix("row 100 of 100 · N"))
        Self.press(model, "g")
        lines = Self.plain(model)
        #expect(lines[2] == "  1  w1")
        model.handle(.pageDown)
        #expect(Self.plain(model)[2] == "  8  w8")
        #expect(model.state.current == 7)
        model.handle(.pageUp)
        #expect(model.state.current == 0)
    }

    @Test("V2: scrolled right, the first column stays at the left, narrowed to a quarter of the width")
    func stickyFirstColumn() throws {
        let header = "identifier," + (1...12).map { "column\($0)" }.joined(separator: ",")
        let row = "a-long-identifier-value," + (1...12).map { "value\($0)" }.joined(separator: ",")
        let model = try Self.view(header + "\n" + row + "\n", width: 60, height: 6)
        #expect(Self.plain(model)[0].hasPrefix("Identifier"))
        Self.press(model, "$")
        let lines = Self.plain(model)
        // The last column is on screen, and the first still leads every line, at most 15 wide.
        #expect(lines[0].hasSuffix("Column12"))
        #expect(lines[2].hasSuffix("value12"))
        let first = lines[2].prefix { $0 != " " }
        #expect(first.count <= 15 && "a-long-identifier-value".hasPrefix(first.dropLast()) && first.last == "…")
        #expect(model.state.placedColumns().first?.index == 0)
        // F0: nothing frozen, the first column scrolls away.
        Self.press(model, "F0")
        #expect(!Self.plain(model)[2].hasPrefix("a-long"))
        #expect(model.state.placedColumns().first?.index != 0)
    }

    @Test("V2: the focused column's heading is marked; h and l move it")
    func focusedHeading() throws {
        let model = try Self.view("a,b,c\n1,2,3\n", width: 40, height: 5)
        #expect(model.frame()[0].contains("\u{1B}[1;7mA"))
        Self.press(model, "l")
        #expect(model.frame()[0].contains("\u{1B}[1;7mB"))
        #expect(Self.plain(model).last!.contains("· B"))
        Self.press(model, "h")
        #expect(model.frame()[0].contains("\u{1B}[1;7mA"))
    }

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

    // MARK: - Finding (V5)

    @Test("V5: & keeps the rows containing the text (any case when it is lower case), on 100 generated tables")
    func filterMatchesIndependentCount() throws {
        for seed in 0..<100 as Range<UInt64> {
            let (csv, rows) = Self.randomCSV(rows: 30, seed: seed)
            let model = try Self.view(csv, width: 80, height: 12)
            let needle = ["app", "Zür", "zür", "1", "green", "東"][Int(seed % 6)]
            model.handle(.character("&"))
            Self.press(model, needle)
            model.handle(.enter)
            let lower = needle == needle.lowercased()
            let expected = rows.indices.filter { r in
                rows[r].contains { lower ? $0.lowercased().contains(needle) : $0.contains(needle) }
            }
            #expect(Self.order(model) == expected, "seed \(seed) \(needle)")
            #expect(Self.plain(model).last!.contains("filter \(needle): \(expected.count) of 30 rows"), "seed \(seed)")
            // & with nothing shows every row again.
            model.handle(.character("&"))
            model.handle(.enter)
            #expect(model.state.count == 30)
        }
    }

    @Test("V5: / finds the next cell containing the text, n and N move between matches, the count is every matching cell")
    func searchWalksMatches() throws {
        for seed in 0..<60 as Range<UInt64> {
            let (csv, rows) = Self.randomCSV(rows: 25, seed: seed)
            let needle = ["pear", "Apple", "a"][Int(seed % 3)]
            let lower = needle == needle.lowercased()
            func hit(_ s: String) -> Bool { lower ? s.lowercased().contains(needle) : s.contains(needle) }
            // Every matching cell in reading order (row, column), computed here.
            var cells: [(Int, Int)] = []
            for r in rows.indices { for c in 0..<3 where hit(rows[r][c]) { cells.append((r, c)) } }
            let model = try Self.view(csv, width: 100, height: 10)
            model.handle(.character("/"))
            Self.press(model, needle)
            model.handle(.enter)
            guard !cells.isEmpty else {
                #expect(Self.plain(model).last!.contains("no match"), "seed \(seed)")
                continue
            }
            #expect(Self.plain(model).last!.contains("/\(needle): \(cells.count) match"), "seed \(seed)")
            for k in 0..<(cells.count + 2) {
                let want = cells[k % cells.count]
                #expect(model.state.current == want.0 && model.state.focus == want.1, "seed \(seed) match \(k)")
                Self.press(model, "n")
            }
            Self.press(model, "N")
            Self.press(model, "N")
            let back = cells[(cells.count + 2 - 1 - 1) % cells.count]
            #expect(model.state.current == back.0 && model.state.focus == back.1, "seed \(seed) back")
        }
    }

    // MARK: - Drilling down (V4)

    @Test("V4: Enter opens the row's sheet (every field, units in labels); ↓ the next row's; Esc returns to the same place")
    func detailSheet() throws {
        let csv = "item,weight,notes\nbolt,2 kg,small\nnut,3 kg,a much longer note that wraps onto more lines than one\n"
        let model = try Self.view(csv, width: 30, height: 8)
        model.handle(.enter)
        var lines = Self.plain(model)
        #expect(lines[0...2] == ["bolt", "Weight (kg)  2", "Notes        small"])
        #expect(lines.last!.hasPrefix("row 1 of 2"))
        model.handle(.down)
        lines = Self.plain(model)
        #expect(lines[0...3] == ["nut", "Weight (kg)  3", "Notes        a much longer", "             note that wraps"])
        #expect(lines.last!.hasPrefix("row 2 of 2"))
        model.handle(.escape)
        #expect(model.state.mode == .table && model.state.current == 1)
        #expect(Self.plain(model)[1].hasPrefix("Item"))
    }

    @Test("V4: a JSON row's sheet is an outline: nested objects and arrays of objects as nodes that ← closes and → opens a level at a time")
    func jsonOutline() throws {
        let json = #"{"id":7,"user":{"name":"Ann","addr":{"city":"Oslo"}},"items":[{"sku":"x"},{"sku":"y","qty":2}]}"# + "\n"
        let model = try Self.view(json, width: 40, height: 16)
        model.handle(.enter)
        let open = Self.plain(model)
        #expect(Array(open[0...10]) == ["7", "▾ User", "  Name  Ann", "  ▾ Addr", "    City  Oslo", "▾ Items", "  ▾ [0]", "    SKU  x", "  ▾ [1]", "    SKU  y", "    Qty  2"])
        model.handle(.left)
        #expect(Array(Self.plain(model)[0...5]) == ["7", "▾ User", "  Name  Ann", "  ▸ Addr (1 field)", "▾ Items", "  ▸ [0] (1 field)"])
        model.handle(.left)
        #expect(Array(Self.plain(model)[0...3]) == ["7", "▸ User (2 fields)", "▸ Items (2 items)", ""])
        model.handle(.left)  // the top level stays
        #expect(Self.plain(model)[1] == "▸ User (2 fields)")
        model.handle(.right)
        #expect(Self.plain(model)[3] == "  ▸ Addr (1 field)")
        // CSV has no nesting: its sheet is the list report, a dotted name one label.
        let csv = try Self.view("id,user.name\n7,Ann\n", width: 40, height: 8)
        csv.handle(.enter)
        #expect(Array(Self.plain(csv)[0...1]) == ["7", "User Name  Ann"])
    }

    // MARK: - Selecting (V6)

    @Test("V6: Space checks rows (a ✓ column appears), a all, A none; q's output is the checked rows as CSV that reads back the same")
    func selectionRoundTrip() throws {
        for seed in 0..<50 as Range<UInt64> {
            let (csv, rows) = Self.randomCSV(rows: 20, seed: seed)
            let model = try Self.view(csv, width: 80, height: 30)
            var picked: [Int] = []
            for r in 0..<20 {
                if (seed >> UInt64(r % 6)) & 1 == 1 || r == Int(seed % 20) {
                    picked.append(r)
                    Self.press(model, " ")
                } else {
                    Self.press(model, "j")
                }
            }
            let out = try #require(model.selectionCSV())
            // Read back with the engine's own CSV reader: the same fields, the same rows.
            let back = try Self.view(String(decoding: out, as: UTF8.self), width: 80, height: 30)
            #expect(back.loader.progress.columns == ["amount", "name", "other"])
            let readBack = (0..<back.state.count).map { back.loader.store.record($0).strings }
            #expect(readBack == picked.map { rows[$0] }, "seed \(seed)")
            #expect(Self.strip(model.frame()[2 + picked[0]]).hasPrefix("✓"))
        }
        let model = try Self.view("a\n1\n2\n3\n", width: 20, height: 8)
        #expect(model.selectionCSV() == nil)  // q with nothing selected writes nothing
        Self.press(model, "a")
        #expect(model.state.selected.count == 3)
        Self.press(model, "A")
        #expect(model.state.selected.isEmpty)
    }

    @Test("V6: q and Ctrl-C end the view; Ctrl-C is an interrupt")
    func exits() throws {
        let model = try Self.view("a\n1\n", width: 20, height: 5)
        Self.press(model, "q")
        #expect(model.exit == .quit)
        let other = try Self.view("a\n1\n", width: 20, height: 5)
        other.handle(.control("c"))
        #expect(other.exit == .interrupt)
    }

    // MARK: - Any size, any data (V7, V8)

    /// Random keys on random tables at random sizes: every frame is exactly the screen's height,
    /// no line is wider than the screen, and the only control sequences are SGR styles.
    @Test("V2/V8: 400 random key sequences at random sizes: every frame fits the screen and holds no control but SGR")
    func framesAlwaysFit() throws {
        let measure = DisplayWidth()
        let keys: [ViewKey] = [.down, .up, .left, .right, .pageDown, .pageUp, .home, .end, .enter, .escape,
                               .character("s"), .character("<"), .character(">"), .character("="), .character(" "),
                               .character("$"), .character("0"), .character("F"), .character("2"), .character("?"),
                               .character("/"), .character("a"), .character("&"), .character("n"), .wheelDown,
                               .click(x: 3, y: 0), .click(x: 10, y: 4), .character("j"), .character("l"), .character("G"),
                               // V10: editing, its questions and the field editor.
                               .character("e"), .character("+"), .character("d"), .character("y"), .character("J"), .character("K"),
                               .character("u"), .control("r"), .control("o"), .control("w"), .character("w"), .tab, .backspace]
        for seed in 0..<400 as Range<UInt64> {
            var rng = SplitMix64(seed: seed &* 7919)
            let hostile = ["\u{1B}]0;title\u{07}", "\u{1B}[2J", "日本語テキスト", "e\u{301}", "\u{202E}evil", "tab\there", "a\r\nb", "🙂🙂"]
            var csv = "id,\(hostile[Int(seed % 8)]),value,notes\n"
            for r in 0..<Int(rng.next() % 60) {
                csv += "\(r),\(Self.quoted(hostile[Int(rng.next() % 8)])),\(Int(rng.next() % 100000)),\(Self.quoted(String(repeating: "word ", count: Int(rng.next() % 20))))\n"
            }
            let width = Int(rng.next() % 120) + 1, height = Int(rng.next() % 30) + 1
            var options = FormatOptions()
            options.cellLines = seed % 3 == 0 ? 2 : 1
            if seed % 5 == 0 { options.groupBy = ColumnReference(seed % 10 == 0 ? "value" : "2") }
            let model = try Self.view(csv, width: width, height: height, options: options, color: seed % 2 == 0)
            for step in 0..<40 {
                if step == 20 { model.resize(width: Int(rng.next() % 120) + 1, height: Int(rng.next() % 30) + 1) }
                model.handle(keys[Int(rng.next() % UInt64(keys.count))])
                if model.state.mode == .prompt(.search, "") || model.state.mode == .prompt(.filter, "") {
                    Self.press(model, "o")
                }
                let frame = model.frame()
                #expect(frame.count == model.state.height, "seed \(seed) step \(step)")
                for line in frame {
                    let text = Self.strip(line)
                    #expect(measure.width(of: text) <= model.state.width, "seed \(seed) step \(step): \(text.debugDescription)")
                    #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80..<0xA0).contains($0.value) || (0x202A...0x202E).contains($0.value) },
                            "seed \(seed) step \(step): \(text.debugDescription)")
                }
                if model.exit != nil { break }
            }
        }
    }
}
