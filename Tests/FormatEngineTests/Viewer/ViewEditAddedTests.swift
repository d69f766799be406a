import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10: rows added in the view take part in a later sort, filter and search like any row,
/// checked on generated tables against an independent computation (the `--sort` order of
/// ViewStateTests, a plain substring match).
@Suite("Viewer: added rows sorted, filtered and found")
struct ViewEditAddedTests {
    /// Adds a row at the end with `values` typed into its fields in the sheet.
    static func addRow(_ model: ViewModel, _ values: [String]) {
        ViewStateTests.press(model, "G+")
        for (k, value) in values.enumerated() {
            if k > 0 { model.handle(.tab) }
            ViewStateTests.press(model, "e" + value)
            model.handle(.enter)
        }
        model.handle(.escape)
    }

    static func enter(_ model: ViewModel, _ prompt: Character, _ text: String) {
        ViewStateTests.press(model, String(prompt) + text)
        model.handle(.enter)
    }

    /// Whether a cell holds `text` as the view matches it (no capital letter: any case).
    static func holds(_ cell: String, _ text: String) -> Bool { cell.lowercased().contains(text) }

    @Test("V10: rows added before a sort are placed by value, in both directions; a filter after keeps those that match, in the sorted order; a search counts and visits their cells — on 120 generated tables")
    func addedTakePart() throws {
        let words = ["apple", "Apple", "pear", "kiwi, green", "Zürich", "東京", "NA", "", "b", "a"]
        for seed in 0..<120 as Range<UInt64> {
            var rng = SplitMix64(seed: seed &+ 977)
            let (csv, rows) = ViewStateTests.randomCSV(rows: rng.below(30) + 1, seed: seed)
            let model = try ViewStateTests.view(csv, width: 80, height: 12)
            var all = rows
            for _ in 0..<(rng.below(3) + 1) {
                let number = rng.below(5) == 0 ? "" : String(rng.below(2001) - 1000)
                let values = [number, words[rng.below(words.count)], words[rng.below(words.count)]]
                Self.addRow(model, values)
                all.append(values)
            }
            // Row numbers as the view has them: the input's, then the added ones (-1, -2, …).
            func id(_ k: Int) -> Int { k < rows.count ? k : rows.count - 1 - k }
            #expect(ViewStateTests.order(model) == all.indices.map(id), "seed \(seed): added at the end")
            let column = Int(seed % 2)
            model.state.focus = column
            ViewStateTests.press(model, "s")
            let ascending = ViewStateTests.expectedOrder(all, column: column, numeric: column == 0, descending: false).map(id)
            #expect(ViewStateTests.order(model) == ascending, "seed \(seed): ascending")
            ViewStateTests.press(model, "s")
            let descending = ViewStateTests.expectedOrder(all, column: column, numeric: column == 0, descending: true).map(id)
            #expect(ViewStateTests.order(model) == descending, "seed \(seed): descending")
            // A filter on the sorted view: the rows with a cell holding the text, in that order.
            let text = ["apple", "a", "pear", "zürich", "1"][rng.below(5)]
            Self.enter(model, "&", text)
            let kept = descending.filter { r in all[r < 0 ? rows.count - 1 - r : r].contains { Self.holds($0, text) } }
            #expect(ViewStateTests.order(model) == kept, "seed \(seed): filter \(text)")
            Self.enter(model, "&", "")
            // A search counts every matching cell, added rows' too, and n visits every matching row.
            Self.enter(model, "/", text)
            let cells = all.reduce(0) { $0 + $1.filter { Self.holds($0, text) }.count }
            #expect(model.state.search?.cells == cells, "seed \(seed): search \(text)")
            var visited = Set<Int>()
            for _ in 0..<(cells + 1) {
                visited.insert(model.state.id(at: model.state.current))
                ViewStateTests.press(model, "n")
            }
            if cells > 0 { #expect(visited == Set(kept), "seed \(seed): n visits \(text)") }
        }
    }

    @Test("V10: an added row stays in view when the sort is taken off; a filter made then lists it in the edits' order")
    func unsortedAndFiltered() throws {
        let model = try ViewStateTests.view("name,qty\nb,2\na,10\nc,1\n", width: 40, height: 8)
        ViewStateTests.press(model, "j+")
        ViewStateTests.press(model, "eab")
        model.handle(.enter)
        model.handle(.escape)
        #expect(ViewStateTests.order(model) == [0, 1, -1, 2])
        ViewStateTests.press(model, "sss")
        #expect(ViewStateTests.order(model) == [0, 1, -1, 2])
        Self.enter(model, "&", "a")
        #expect(ViewStateTests.order(model) == [1, -1])
        // A row added while sorted, then a filter (its work goes through the order, added row and all).
        Self.enter(model, "&", "")
        ViewStateTests.press(model, "sg+")
        ViewStateTests.press(model, "eaa")
        model.handle(.enter)
        model.handle(.escape)
        #expect(ViewStateTests.order(model) == [1, -2, -1, 0, 2])
        Self.enter(model, "&", "a")
        #expect(ViewStateTests.order(model) == [1, -2, -1])
        ViewStateTests.press(model, "s")
        #expect(ViewStateTests.order(model) == [-1, -2, 1])
    }
}
