import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// Sorts, filters and searches as work the view starts and can cancel (V3, V5, V8): driven with
/// keys and the runner's messages by hand (no thread), then with the runner's own thread.
@Suite("Viewer: long work off the key loop")
struct ViewWorkTests {
    typealias T = ViewStateTests

    /// A view of `csv`, every row read, whose work waits for the test's messages.
    static func manual(_ csv: String, width: Int = 60, height: Int = 10) -> ViewModel {
        let loader = ViewLoader(store: RowStore())
        loader.load(MemoryInput(csv, name: "t.csv"), options: FormatOptions())
        return ViewModel(loader: loader, options: FormatOptions(), source: "t.csv", color: false, width: width, height: height, runner: ViewRunner(.manual))
    }

    /// The work the view asked for last.
    static func asked(_ model: ViewModel) throws -> ViewWork {
        try #require(model.runner.started.last)
    }

    /// The work's own answer (as the runner would give it).
    static func answer(_ model: ViewModel, _ work: ViewWork) throws -> ViewMessage {
        try #require(work.run(model.loader.store, .always))
    }

    static let fruit = "name,qty\n" + (1...30).map { "n\($0),\(($0 * 7) % 31)" }.joined(separator: "\n") + "\n"

    @Test("V3/V8: s asks for a sort and shows its progress over the old order; its answer sorts, the same row still current")
    func sortAsWork() throws {
        let model = Self.manual(Self.fruit)
        T.press(model, "jjjl")  // row n4 (qty 28), the Qty column
        let before = T.plain(model)
        T.press(model, "s")
        let work = try Self.asked(model)
        #expect(work.kind == .sort(column: 1, descending: false))
        var frame = T.plain(model)
        #expect(frame.last!.hasPrefix("sorting by Qty… 0% · row 4 of 30"))
        #expect(Array(frame.dropLast()) == Array(before.dropLast()))  // the rows as they were
        model.deliver(.progress(id: work.id, fraction: 0.5))
        #expect(T.plain(model).last!.hasPrefix("sorting by Qty… 50% · row 4 of 30"))
        model.deliver(try Self.answer(model, work))
        frame = T.plain(model)
        #expect(model.state.running == nil)
        #expect(frame[0] == "Name  Qty ▲")
        // n4 (qty 28) is now row 28 of 30, still current and on screen.
        #expect(model.state.id(at: model.state.current) == 3 && model.state.current == 27)
        #expect(frame.contains { $0.hasPrefix("n4 ") })
        #expect(frame.last!.hasPrefix("row 28 of 30 · Qty · sort: Qty ▲"))
        #expect(T.order(model) == T.expectedOrder((1...30).map { ["n\($0)", "\(($0 * 7) % 31)"] }, column: 1, numeric: true, descending: false))
    }

    @Test("V8: keys work while a sort runs: rows move, ? shows the keys; Esc cancels it and the frame is as before s")
    func escapeCancels() throws {
        let model = Self.manual(Self.fruit)
        T.press(model, "l")
        let before = T.plain(model)
        T.press(model, "s")
        let work = try Self.asked(model)
        #expect(model.runner.live == work.id)
        T.press(model, "jj")
        #expect(model.state.current == 2)
        #expect(T.plain(model).last!.hasPrefix("sorting by Qty… 0% · row 3 of 30"))
        T.press(model, "kk?")
        #expect(model.state.mode == .help)
        T.press(model, "x")
        model.handle(.escape)
        #expect(model.state.running == nil && model.runner.live == nil)
        #expect(T.plain(model) == before)
        // The cancelled work's late answer changes nothing.
        model.deliver(try Self.answer(model, work))
        #expect(T.plain(model) == before)
        #expect(model.state.sort == nil)
    }

    @Test("V3/V8: a new sort replaces the running one (s again: the other direction); the replaced one's answer is ignored")
    func newSortReplaces() throws {
        let model = Self.manual(Self.fruit)
        T.press(model, "ls")
        let first = try Self.asked(model)
        T.press(model, "s")
        let second = try Self.asked(model)
        #expect(second.kind == .sort(column: 1, descending: true) && second.id != first.id)
        #expect(model.runner.live == second.id)
        #expect(T.plain(model).last!.hasPrefix("sorting by Qty ▼… 0%"))
        model.deliver(try Self.answer(model, first))
        #expect(model.state.sort == nil && model.state.running?.work.id == second.id)
        model.deliver(try Self.answer(model, second))
        #expect(model.state.sort?.descending == true)
        // A third s goes back to the input's order at once: no work.
        let asked = model.runner.started.count
        T.press(model, "s")
        #expect(model.runner.started.count == asked && T.order(model) == Array(0..<30))
        // A filter asked for while a sort runs replaces it, and says so.
        T.press(model, "s")
        for c in "&n1" { model.handle(.character(c)) }
        model.handle(.enter)
        #expect(try Self.asked(model).kind == .filter(text: "n1"))
        #expect(T.plain(model).last!.hasPrefix("sort stopped · filtering n1… 0%"))
    }

    @Test("V5/V8: a filter's answer keeps the current row when it matches, else the next match after it, on 200 generated tables")
    func filterKeepsPlace() throws {
        for seed in 0..<200 as Range<UInt64> {
            let (csv, rows) = T.randomCSV(rows: 40, seed: seed)
            let model = Self.manual(csv, width: 100, height: 12)
            var rng = SplitMix64(seed: seed)
            let sorted = seed % 2 == 1
            if sorted {
                T.press(model, "ls")
                model.deliver(try Self.answer(model, try Self.asked(model)))
            }
            for _ in 0..<Int(rng.next() % 40) { T.press(model, "j") }
            let view = T.order(model)
            let focused = view[model.state.current]
            let needle = ["app", "Zür", "1", "green", "a"][Int(seed % 5)]
            model.handle(.character("&"))
            T.press(model, needle)
            model.handle(.enter)
            #expect(model.state.current == view.firstIndex(of: focused), "seed \(seed)")  // not moved yet
            let work = try Self.asked(model)
            #expect(T.plain(model).last!.hasPrefix("filtering \(needle)… 0%"), "seed \(seed)")
            model.deliver(try Self.answer(model, work))
            let lower = needle == needle.lowercased()
            func keeps(_ r: Int) -> Bool { rows[r].contains { lower ? $0.lowercased().contains(needle) : $0.contains(needle) } }
            #expect(T.order(model) == view.filter(keeps), "seed \(seed)")
            guard model.state.count > 0 else { continue }
            let place = view.firstIndex(of: focused)!
            let want = view[place...].first(where: keeps) ?? view.last(where: keeps)!
            #expect(model.state.id(at: model.state.current) == want, "seed \(seed)")
        }
    }

    @Test("V5/V8: / asks for a search, the status says so; its answer finds the first match; Esc while it runs leaves no search")
    func searchAsWork() throws {
        let model = Self.manual(Self.fruit)
        for c in "/n2" { model.handle(.character(c)) }
        model.handle(.enter)
        let work = try Self.asked(model)
        #expect(work.kind == .search(text: "n2"))
        #expect(T.plain(model).last!.hasPrefix("searching n2… 0%"))
        model.deliver(try Self.answer(model, work))
        #expect(model.state.current == 1)  // n2
        #expect(T.plain(model).last!.contains("/n2: 11 matches"))  // n2, n20–n29
        for c in "/n3" { model.handle(.character(c)) }
        model.handle(.enter)
        model.handle(.escape)
        #expect(model.state.running == nil)
        #expect(T.plain(model).last!.contains("/n2: 11 matches"))  // the search before stays
    }

    @Test("V1/W12/V8: --group-by groups the rows as work once every row is read; a sort asked for waits for it; Esc stops it, ungrouped")
    func groupingAsWork() throws {
        var options = FormatOptions()
        options.groupBy = ColumnReference("kind")
        let csv = "name,kind,qty\n" + (1...12).map { "n\($0),\(["a", "b", "c"][$0 % 3]),\($0)" }.joined(separator: "\n") + "\n"
        let loader = ViewLoader(store: RowStore())
        loader.load(MemoryInput(csv, name: "t.csv"), options: options)
        options.sort = [SortKey("-qty")]
        let model = ViewModel(loader: loader, options: options, source: "t.csv", color: false, width: 60, height: 30, runner: ViewRunner(.manual))
        let group = try Self.asked(model)
        #expect(group.kind == .group && model.runner.started.count == 1)  // the sort waits
        #expect(model.state.pendingSort?.column == 2)
        #expect(T.plain(model).last!.hasPrefix("grouping… 0%"))
        #expect(T.order(model) == Array(0..<12))
        model.deliver(try Self.answer(model, group))
        #expect(model.state.groups?.values == ["b", "c", "a"])
        let sort = try Self.asked(model)
        #expect(sort.kind == .sort(column: 2, descending: true))
        model.deliver(try Self.answer(model, sort))
        // By group in first-seen order, by Qty descending within each.
        #expect(T.order(model) == [9, 6, 3, 0, 10, 7, 4, 1, 11, 8, 5, 2])
        // Esc while grouping: the rows stay as they are, ungrouped, and say so.
        var grouped = FormatOptions()
        grouped.groupBy = ColumnReference("kind")
        let other = ViewModel(loader: loader, options: grouped, source: "t.csv", color: false, width: 60, height: 30, runner: ViewRunner(.manual))
        other.handle(.escape)
        #expect(other.state.groups == nil && !other.working && T.order(other) == Array(0..<12))
        #expect(T.plain(other).last!.contains("not grouped (Esc)"))
    }

    @Test("V8: q and Ctrl-C end the view while work runs")
    func quitWhileWorking() throws {
        let model = Self.manual(Self.fruit)
        T.press(model, "s")
        T.press(model, "q")
        #expect(model.exit == .quit)
        let other = Self.manual(Self.fruit)
        T.press(other, "s")
        other.handle(.control("c"))
        #expect(other.exit == .interrupt)
    }

    // MARK: - The runner's own thread

    /// A view whose work runs on the runner's thread.
    static func background(_ csv: String, options: FormatOptions = FormatOptions()) -> ViewModel {
        let loader = ViewLoader(store: RowStore())
        loader.load(MemoryInput(csv, name: "t.csv"), options: options)
        return ViewModel(loader: loader, options: options, source: "t.csv", color: false, width: 80, height: 12, runner: ViewRunner(.background))
    }

    /// Takes in the runner's messages until no work runs (at most `seconds`).
    static func settle(_ model: ViewModel, seconds: Double = 10) {
        let deadline = Date().addingTimeInterval(seconds)
        while model.working && Date() < deadline {
            _ = model.refresh()
            usleep(1_000)
        }
    }

    /// `--sort`'s own order of `rows` by `column` (RowOrder, as the printed table sorts).
    static func batchOrder(_ rows: [[String]], column: Int, numeric: Bool, descending: Bool) -> [Int] {
        let records = rows.map { Record($0) }
        let values = records.map { RowOrder.value($0, column, numeric: numeric) }
        return RowOrder.order(values, count: rows.count, descending: [descending], rowNumbers: nil)
    }

    @Test("V3: sorted on the runner's thread, 200 generated tables come out in --sort's order (RowOrder) and the independent one")
    func backgroundSortMatches() throws {
        for seed in 0..<200 as Range<UInt64> {
            let (csv, rows) = T.randomCSV(rows: Int(seed % 50) * 3 + 1, seed: seed)
            let model = Self.background(csv)
            let column = Int(seed % 2)
            if column == 1 { T.press(model, "l") }
            for descending in [false, true] {
                T.press(model, "s")
                Self.settle(model)
                #expect(!model.working, "seed \(seed)")
                #expect(T.order(model) == Self.batchOrder(rows, column: column, numeric: column == 0, descending: descending), "seed \(seed)")
                #expect(T.order(model) == T.expectedOrder(rows, column: column, numeric: column == 0, descending: descending), "seed \(seed)")
            }
        }
    }

    @Test("V3/P2: past --memory-limit the sort on the runner's thread goes to disk: the same order, on 30 generated tables")
    func backgroundDiskSort() throws {
        for seed in 0..<30 as Range<UInt64> {
            let (csv, rows) = T.randomCSV(rows: 300, seed: seed)
            var options = FormatOptions()
            options.memoryLimit = 1500
            let model = Self.background(csv, options: options)
            T.press(model, "ls")
            Self.settle(model)
            #expect(T.order(model) == Self.batchOrder(rows, column: 1, numeric: false, descending: false), "seed \(seed)")
        }
    }

    @Test("V5: filtered and searched on the runner's thread: the rows and cells counted here, on 100 generated tables")
    func backgroundFindMatches() throws {
        for seed in 0..<100 as Range<UInt64> {
            let (csv, rows) = T.randomCSV(rows: 60, seed: seed)
            let needle = ["app", "Zür", "1", "green", "東"][Int(seed % 5)]
            let lower = needle == needle.lowercased()
            func hit(_ s: String) -> Bool { lower ? s.lowercased().contains(needle) : s.contains(needle) }
            let model = Self.background(csv)
            model.handle(.character("/"))
            T.press(model, needle)
            model.handle(.enter)
            Self.settle(model)
            let cells = rows.reduce(0) { $0 + $1.filter(hit).count }
            if cells > 0 { #expect(T.plain(model).last!.contains("/\(needle): \(cells) match"), "seed \(seed)") }
            model.handle(.character("&"))
            T.press(model, needle)
            model.handle(.enter)
            Self.settle(model)
            #expect(T.order(model) == rows.indices.filter { rows[$0].contains(where: hit) }, "seed \(seed)")
        }
    }

    @Test("V3/V5: 150,000 rows (read in parts at once; text in pieces of 64K rows, merged): --sort's order both ways, the filter's rows, the search's cells")
    func manyPieces() throws {
        var rng = SplitMix64(seed: 7)
        let rows: [[String]] = (0..<150_000).map { _ in
            let n = rng.next() % 50_000
            return [n % 9 == 0 ? "" : "\(Int(n) - 20_000).\(n % 10)", "w\(n % 3000)"]
        }
        let data = MemoryRows(rows)
        for descending in [false, true] {
            let numbers = try #require(ViewState.numberOrder(data, rows: rows.count, column: 0, descending: descending))
            #expect(numbers.map(Int.init) == Self.batchOrder(rows, column: 0, numeric: true, descending: descending))
            let text = try #require(try ViewState.textOrder(data, rows: rows.count, column: 1, descending: descending, budget: 1 << 30))
            #expect(text.map(Int.init) == Self.batchOrder(rows, column: 1, numeric: false, descending: descending))
        }
        // A filter and a search of as many rows, read in parts at once.
        var filter = ViewWork(id: 1, kind: .filter(text: "w12"), rows: rows.count)
        filter.sources = [0, 1]
        filter.match = TextMatch("w12")
        guard case .filtered(_, let ids)? = filter.run(data, .always) else { Issue.record("no answer"); return }
        #expect(ids.map(Int.init) == rows.indices.filter { rows[$0][1].contains("w12") })
        var search = ViewWork(id: 2, kind: .search(text: "1"), rows: rows.count)
        search.sources = [0, 1]
        search.match = TextMatch("1")
        guard case .searched(_, let hits, let cells)? = search.run(data, .always) else { Issue.record("no answer"); return }
        #expect(cells == rows.reduce(0) { $0 + $1.filter { $0.contains("1") }.count })
        #expect(hits == rows.map { $0.contains { $0.contains("1") } })
    }

    @Test("V3: keys sorted with their row numbers in place (a radix sort) come out by key, then row number: few keys, many, all the same")
    func keyedRowsSort() throws {
        var rng = SplitMix64(seed: 11)
        for (count, distinct) in [(0, 1), (1, 1), (47, 3), (5_000, 1), (70_000, 4), (70_000, 70_000), (200_000, 1 << 62)] {
            var keys = (0..<count).map { _ in rng.next() % UInt64(distinct) &* 0x0101_0101 }
            let expected = keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }.map(Int32.init)
            var ids = (0..<Int32(count)).map { $0 }
            var reports = 0
            let done = keys.withUnsafeMutableBufferPointer { keys in
                ids.withUnsafeMutableBufferPointer { ids in
                    var sorter = KeyedRows(keys: keys, ids: ids) { _ in reports += 1; return true }
                    return sorter.sort()
                }
            }
            #expect(done && ids == expected, "\(count) rows, \(distinct) keys")
            #expect(reports >= count >> 16, "\(count) rows: reported as it went")
        }
    }

    @Test("V8: a sort on the runner's thread reports progress, and Esc (or the view's end) stops the thread")
    func backgroundCancel() throws {
        let model = Self.background("id,amount\n" + (0..<400_000).map { "\($0),\(($0 &* 7919) % 100_003)" }.joined(separator: "\n") + "\n")
        T.press(model, "l")
        T.press(model, "s")
        #expect(model.working)
        // Progress arrives while the sort runs.
        var seen = Set<Int>()
        let deadline = Date().addingTimeInterval(20)
        while model.working && Date() < deadline && seen.count < 3 {
            _ = model.refresh()
            if let fraction = model.state.running?.fraction { seen.insert(Int(fraction * 100)) }
            usleep(500)
        }
        #expect(seen.count >= 3, "\(seen)")
        model.handle(.escape)
        #expect(!model.working && model.state.sort == nil)
        Self.waitIdle(model.runner)
        #expect(model.runner.executing == 0)
        // The view's end stops a running work the same way.
        T.press(model, "s")
        usleep(20_000)
        model.stop()
        Self.waitIdle(model.runner)
        #expect(model.runner.executing == 0)
        #expect(model.runner.take().isEmpty)
    }

    static func waitIdle(_ runner: ViewRunner) {
        let deadline = Date().addingTimeInterval(2)
        while runner.executing > 0 && Date() < deadline { usleep(1_000) }
    }
}
