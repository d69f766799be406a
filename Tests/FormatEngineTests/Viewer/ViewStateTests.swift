import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

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

    @Test("V5: a search under a filter counts the shown rows that match (and the cells in all rows); n visits only shown rows; none shown says the filter hides them")
    func searchUnderFilter() throws {
        for seed in 0..<60 as Range<UInt64> {
            let (csv, rows) = Self.randomCSV(rows: 30, seed: seed)
            let keep = ["app", "1", "green"][Int(seed % 3)], needle = ["pear", "a", "Apple"][Int(seed % 3)]
            func has(_ s: String, _ t: String) -> Bool { t == t.lowercased() ? s.lowercased().contains(t) : s.contains(t) }
            let shown = rows.indices.filter { r in rows[r].contains { has($0, keep) } }
            let cells = rows.reduce(0) { $0 + $1.prefix(3).filter { has($0, needle) }.count }
            let shownHits = shown.filter { r in rows[r].prefix(3).contains { has($0, needle) } }
            let model = try Self.view(csv, width: 160, height: 10)
            model.handle(.character("&"))
            Self.press(model, keep)
            model.handle(.enter)
            model.handle(.character("/"))
            Self.press(model, needle)
            model.handle(.enter)
            let status = Self.plain(model).last!
            if cells == 0 {
                #expect(status.contains("no match"), "seed \(seed): \(status)")
            } else if shownHits.isEmpty {
                #expect(status.contains("/\(needle): no shown row matches (\(cells) match"), "seed \(seed): \(status)")
            } else {
                #expect(status.contains("/\(needle): \(shownHits.count) shown row\(shownHits.count == 1 ? "" : "s") match (\(cells) match"), "seed \(seed): \(status)")
                for _ in 0..<(2 * shownHits.count) {
                    model.handle(.character("n"))
                    #expect(shownHits.contains(model.state.id(at: model.state.current)), "seed \(seed)")
                }
            }
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
