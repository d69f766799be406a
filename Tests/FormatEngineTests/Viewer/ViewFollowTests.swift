import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer
import Support

/// Following rows as they come (V9), as keys and frames: a view whose rows arrive in batches, as
/// the loader would publish them, driven without a terminal or a thread.
@Suite("Viewer: following rows as they come")
struct ViewFollowTests {
    typealias T = ViewStateTests

    /// A view of `rows` (under `header`) that are read a batch at a time; every sort, filter and
    /// search it asks for answered at once.
    struct Growing {
        var state: ViewState
        let header: [String]
        let all: [[String]]
        let data: MemoryRows
        var profiler: ColumnProfiler
        var read = 0

        init(header: [String], rows: [[String]], width: Int = 60, height: Int = 10, first: Int, waiting: Bool = true) {
            self.header = header
            all = rows
            data = MemoryRows(rows)
            profiler = ColumnProfiler(columns: header, measure: DisplayWidth())
            state = ViewState(options: FormatOptions(), source: "log.csv", color: false, width: width, height: height)
            arrive(first, waiting: waiting)
        }

        /// `n` more rows read; `waiting`: the reader then waits for its writer (caught up).
        mutating func arrive(_ n: Int, waiting: Bool = true, done: Bool = false) {
            for row in all[read..<(read + n)] { profiler.add(Record(row)) }
            read += n
            state.follow.caughtUp = waiting && !done
            state.update(columns: header, profiles: profiler.profiles, rows: read, done: done, error: nil, from: data)
            T.settle(&state, data)
        }

        mutating func press(_ keys: ViewKey...) {
            for key in keys {
                state.handle(key, data: data)
                T.settle(&state, data)
            }
        }

        func frame() -> [String] { state.frame(data).map { T.strip($0) } }
        var status: String { frame().last ?? "" }
        /// The row numbers on screen, top to bottom.
        var onScreen: [Int] { (state.top..<min(state.count, state.top + state.bodyLines)).map { state.id(at: $0) } }
    }

    static func numbered(_ n: Int) -> [[String]] { (0..<n).map { ["r\($0)", String(($0 * 37) % 101)] } }

    @Test("V9: at the last row, G follows: each batch's rows show at the bottom, the status says following and counts them")
    func followsAtTheEnd() {
        var view = Growing(header: ["name", "qty"], rows: Self.numbered(100), first: 30)
        view.press(.character("G"))
        #expect(view.state.follow.following)
        #expect(view.status.contains("following"))
        for batch in [1, 5, 12] {
            let before = view.read
            view.arrive(batch)
            #expect(view.state.current == view.read - 1)
            #expect(view.onScreen.last == view.read - 1)
            #expect(view.status.contains("following · \(view.read - 30) new"), "\(view.status) after \(before)")
        }
        // The last row is drawn on the screen's last row line, above the status line.
        let frame = view.frame()
        #expect(frame[frame.count - 2].hasPrefix("r\(view.read - 1) "))
    }

    @Test("V9/V2: a view opened before the header came (an empty file followed, a late pipe): once it comes, the first column shows, frozen; Ctrl-L keeps it")
    func headerComesLate() {
        let rows = (1...3).map { ["\($0)", "name\($0)", "\($0 * 7)"] }
        let data = MemoryRows(rows)
        var state = ViewState(options: FormatOptions(), source: "log.csv", color: false, width: 60, height: 10)
        state.follow.caughtUp = true
        state.update(columns: [], profiles: [], rows: 0, done: false, error: nil, from: data)
        T.settle(&state, data)
        _ = state.frame(data)
        state.handle(.control("l"), data: data)
        var profiler = ColumnProfiler(columns: ["Seq", "Name", "Qty"], measure: DisplayWidth())
        for row in rows { profiler.add(Record(row)) }
        state.update(columns: ["Seq", "Name", "Qty"], profiles: profiler.profiles, rows: 3, done: false, error: nil, from: data)
        T.settle(&state, data)
        for keys in [[ViewKey](), [.control("l")]] {
            for key in keys { state.handle(key, data: data); T.settle(&state, data) }
            let frame = state.frame(data).map { T.strip($0) }
            #expect(frame[0].hasPrefix("Seq"), "\(frame)")
            #expect(frame.contains { $0.hasPrefix("  1  name1") }, "\(frame)")
            #expect(state.frozen == 1)
        }
    }

    @Test("V9: moving up stops following: the current row stays on its screen line and +N new rows counts what came; End follows again")
    func movingUpStops() {
        var view = Growing(header: ["name", "qty"], rows: Self.numbered(100), first: 30)
        view.press(.end, .up, .up)
        #expect(!view.state.follow.following)
        let (current, top) = (view.state.current, view.state.top)
        view.arrive(4)
        view.arrive(3)
        #expect(view.state.current == current && view.state.top == top)
        #expect(view.status.contains("+7 new rows"))
        #expect(!view.status.contains("following"))
        view.press(.end)
        #expect(view.state.follow.following && view.state.current == 36)
        view.arrive(2)
        #expect(view.state.current == 38)
        #expect(view.status.contains("following · 2 new"))
    }

    @Test("V9: t follows from anywhere (the sheet too); after the input ends it says there is nothing to follow")
    func followKey() {
        var view = Growing(header: ["name", "qty"], rows: Self.numbered(100), first: 30)
        view.press(.enter)
        view.press(.character("t"))
        #expect(view.state.mode == .table && view.state.follow.following && view.state.current == 29)
        view.arrive(10)
        #expect(view.state.current == 39)
        view.arrive(60, done: true)
        #expect(view.status.contains("row 100 of 100"))
        #expect(!view.status.contains("following"))
        view.press(.character("g"), .character("t"))
        #expect(view.status.hasPrefix("the input has ended: nothing to follow"))
    }

    @Test("V9: a sheet open while following stays on its row; rows that came are counted")
    func sheetStays() {
        var view = Growing(header: ["name", "qty"], rows: Self.numbered(100), first: 30)
        view.press(.character("G"), .enter)
        view.arrive(5)
        #expect(view.state.current == 29)
        view.press(.escape)
        #expect(!view.state.follow.following)
        #expect(view.status.contains("+5 new rows"))
    }

    @Test("V9: while rows come, widths only grow (a later narrow batch never narrows a column); once read, from every row")
    func widthsOnlyGrow() {
        var random = SplitMix64(seed: 0xF0110)
        for trial in 0..<30 {
            var rows: [[String]] = []
            for _ in 0..<200 {
                // A long number, and later a word in its column: the column turns to text, and a
                // text column is capped at half the width (W3), narrower than the number was.
                let wide = random.below(10) == 0
                let number = wide ? String(repeating: "9", count: 30 + random.below(20)) : String(random.below(100))
                let qty = random.below(60) == 0 ? "unknown" : number
                rows.append([String(repeating: "w", count: 1 + random.below(wide ? 40 : 6)), qty, String(repeating: "x", count: random.below(3))])
            }
            var view = Growing(header: ["name", "qty", "note"], rows: rows, width: 80, first: 1 + random.below(5))
            view.press(.character("G"))
            var widths = view.state.columns.map(\.width)
            while view.read < 200 {
                view.arrive(min(200 - view.read, 1 + random.below(20)))
                let now = view.state.columns.map(\.width)
                #expect(zip(widths, now).allSatisfy { $0 <= $1 }, "trial \(trial): \(widths) → \(now)")
                widths = now
            }
        }
    }

    @Test("V9: a filter in force shows only the new rows that match, in order")
    func filterReachesNewRows() {
        var random = SplitMix64(seed: 7)
        let words = ["kiwi", "apple", "KIWI tea", "pear"]
        let rows = (0..<300).map { k in ["r\(k)", words[random.below(words.count)]] }
        var view = Growing(header: ["name", "fruit"], rows: rows, first: 20)
        view.press(.character("&"))
        for c in "kiwi" { view.press(.character(c)) }
        view.press(.enter, .end)
        while view.read < 300 { view.arrive(min(300 - view.read, 1 + random.below(40))) }
        let expected = (0..<300).filter { rows[$0][1].lowercased().contains("kiwi") }
        #expect((0..<view.state.count).map { view.state.id(at: $0) } == expected)
        #expect(view.state.current == expected.count - 1)
    }

    /// Row numbers of `rows[0..<n]` by column `column`, as `--sort` orders them (W11): numbers by
    /// value, empty cells last, ties in input order. Computed apart from the view.
    static func expectedOrder(_ rows: [[String]], _ n: Int, column: Int, descending: Bool) -> [Int] {
        let keyed = (0..<n).map { ($0, Double(rows[$0][column])) }
        return keyed.sorted { a, b in
            switch (a.1, b.1) {
            case (nil, nil): return a.0 < b.0
            case (nil, _): return false
            case (_, nil): return true
            case let (x?, y?): return x != y ? (descending ? x > y : x < y) : a.0 < b.0
            }
        }.map(\.0)
    }

    @Test("V9/V3: caught up with its writer, s sorts the rows read; new rows take their places in the order (many inputs)")
    func sortPlacesNewRows() {
        var random = SplitMix64(seed: 0x5057)
        for trial in 0..<40 {
            let total = 50 + random.below(200)
            let rows = (0..<total).map { k in ["r\(k)", random.below(9) == 0 ? "" : String(Int(random.below(60)) - 30)] }
            var view = Growing(header: ["name", "qty"], rows: rows, first: 10 + random.below(20))
            let descending = random.below(2) == 0
            view.press(.right, .character("s"))
            if descending { view.press(.character("s")) }
            #expect(view.state.sort?.descending == descending)
            if random.below(2) == 0 { view.press(.end) }
            while view.read < total { view.arrive(min(total - view.read, 1 + random.below(30))) }
            let shown = (0..<view.state.count).map { view.state.id(at: $0) }
            #expect(shown == Self.expectedOrder(rows, total, column: 1, descending: descending), "trial \(trial)")
        }
    }

    @Test("V9: not following, a sorted view keeps the current row on its screen line as rows are placed above it")
    func sortedKeepsPlace() {
        let rows = (0..<200).map { k in ["r\(k)", String((k * 53) % 97)] }
        var view = Growing(header: ["name", "qty"], rows: rows, first: 40)
        view.press(.right, .character("s"))
        for _ in 0..<20 { view.press(.down) }
        let id = view.state.id(at: view.state.current)
        let line = view.state.current - view.state.top
        for _ in 0..<10 { view.arrive(16) }
        #expect(view.state.id(at: view.state.current) == id)
        #expect(view.state.current - view.state.top == line)
    }

    @Test("V9: a sort asked for while the input's backlog is read (the reader has not yet waited) waits; it runs once the reader has caught up, and a flood of rows waits for the next pause")
    func sortWaitsForPause() {
        let rows = (0..<20_000).map { k in ["r\(k)", String((k * 7919) % 10_007)] }
        var view = Growing(header: ["name", "qty"], rows: rows, first: 100)
        view.state.follow.caughtUp = false
        view.press(.right, .character("s"))
        #expect(view.state.sort == nil && view.state.pendingSort != nil)
        view.arrive(100, waiting: false)
        #expect(view.state.sort == nil)
        view.arrive(100, waiting: true)
        #expect(view.state.sort != nil && view.state.count == 300)
        view.arrive(ViewState.placeLimit + 1, waiting: false)
        #expect(view.state.count == 300)  // the sorted rows, the flood not yet placed
        view.arrive(10, waiting: true)
        #expect(view.state.count == view.read)
        #expect((0..<view.state.count).map { view.state.id(at: $0) } == Self.expectedOrder(rows, view.read, column: 1, descending: false))
    }

    @Test("V9/V3: a steady stream that never pauses (its backlog read): s sorts the rows read at once, new rows take their places, the arrow always says the order shown; a flood is sorted again at once")
    func sortOnSteadyStream() {
        let rows = (0..<20_000).map { k in ["r\(k)", String((k * 7919) % 10_007)] }
        var view = Growing(header: ["name", "qty"], rows: rows, first: 100, waiting: false)
        view.state.follow.backlogRead = true  // the reader has waited for its writer once
        view.press(.end)
        #expect(view.state.follow.following)
        view.press(.right, .character("s"))
        #expect(view.state.sort?.descending == false && view.state.pendingSort == nil)
        #expect(view.frame()[0].contains("Qty ▲"))
        for _ in 0..<20 { view.arrive(5, waiting: false) }  // five rows at a time, never a pause
        #expect(view.state.count == view.read)
        #expect((0..<view.state.count).map { view.state.id(at: $0) } == Self.expectedOrder(rows, view.read, column: 1, descending: false))
        view.press(.character("s"))
        #expect(view.state.sort?.descending == true && view.state.pendingSort == nil)
        #expect(view.frame()[0].contains("Qty ▼"))
        view.arrive(7, waiting: false)
        view.arrive(ViewState.placeLimit + 1, waiting: false)
        #expect(view.state.count == view.read)
        #expect((0..<view.state.count).map { view.state.id(at: $0) } == Self.expectedOrder(rows, view.read, column: 1, descending: true))
        #expect(!view.status.contains("once read"), "\(view.status)")
    }

    @Test("V9/V3: sorting while following keeps the current row: it stays on its screen line as rows take their places, and the status counts them, not following")
    func sortWhileFollowingKeepsRow() {
        let rows = (0..<300).map { k in ["r\(k)", String((k * 53) % 97)] }
        var view = Growing(header: ["name", "qty"], rows: rows, first: 40, waiting: true)
        view.press(.character("t"))
        #expect(view.state.follow.following)
        view.press(.right, .character("s"), .character("s"))
        let id = view.state.id(at: view.state.current)
        let line = view.state.current - view.state.top
        #expect(!view.state.follow.following)
        for _ in 0..<3 { view.arrive(1) }
        #expect(view.state.id(at: view.state.current) == id)
        #expect(view.state.current - view.state.top == line)
        #expect(view.status.contains("+3 new rows") && !view.status.contains("following"), "\(view.status)")
        // t says why it cannot keep to a last row while sorted.
        view.press(.character("t"))
        #expect(!view.state.follow.following)
        #expect(view.status.contains("sorted: new rows take their places"), "\(view.status)")
    }

    @Test("V9: the selection and the current record are kept as rows come")
    func selectionKept() {
        var view = Growing(header: ["name", "qty"], rows: Self.numbered(100), first: 30)
        view.press(.character(" "), .character(" "), .down, .character(" "))
        let selected = view.state.selected
        let current = view.state.current
        view.arrive(20)
        #expect(view.state.selected == selected && view.state.current == current)
    }

    @Test("V9/I10: --follow counts as new only the rows that come after the reader has caught up with what the file held")
    func fileBacklogNotNew() {
        var view = Growing(header: ["name", "qty"], rows: Self.numbered(200), first: 10, waiting: false)
        view.state.startFollowing()
        view.arrive(120, waiting: false)  // the file's rows, read in batches without a pause
        #expect(view.status.contains("following") && !view.status.contains("new"), "\(view.status)")
        view.arrive(0, waiting: true)
        view.state.fileRead(rows: 130)  // the reader waited for more: the file is read
        #expect(!view.status.contains("new"), "\(view.status)")
        view.arrive(7)
        #expect(view.status.contains("following · 7 new"), "\(view.status)")
        view.press(.up)
        view.arrive(3)
        #expect(view.status.contains("+3 new rows"), "\(view.status)")
    }

    @Test("V9/I10: each piece of a followed file's news is said, also one in the same words as the last (a second rotation)")
    func repeatedNoticesSaid() {
        let model = ViewWorkTests.manual("name,qty\na,1\n")
        let news = Locked<FollowNotice?>(nil)
        model.notices = { news.current }
        let replaced = "log.csv was replaced: read from the new file's start"
        news.withLock { $0 = FollowNotice(count: 1, text: replaced) }
        #expect(model.takeFollowing())
        #expect(model.state.message == replaced)
        model.state.message = nil  // a key put it away
        #expect(!model.takeFollowing())
        #expect(model.state.message == nil)
        news.withLock { $0 = FollowNotice(count: 2, text: replaced) }
        #expect(model.takeFollowing())
        #expect(model.state.message == replaced)
    }
}
