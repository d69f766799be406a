import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10, issue 44: edits counted and drawn by their net effect. A row moved and moved back is not
/// moved, a field typed back to its value is not changed; `!` and `+`/`~` both show; a column
/// widens for a value typed into it; a group's footer follows an edit; a save under a name is
/// the name the status line shows.
@Suite("Viewer: edits by their net effect")
struct ViewEditNetTests {
    static func status(_ model: ViewModel) -> String { ViewEditTests.plain(model).last ?? "" }

    @Test("V10: J J J K K K moves the row back: nothing moved, nothing unsaved, q quits without asking")
    func movesCancel() throws {
        let model = try ViewEditTests.view()
        ViewEditTests.type(model, "JJ")
        #expect(Self.status(model).contains("1 moved"))
        ViewEditTests.type(model, "KK")
        #expect(!Self.status(model).contains("moved"))
        #expect(!model.unsaved)
        ViewEditTests.type(model, "q")
        #expect(model.state.exit == .quit)
    }

    @Test("V10: 300 generated sequences of j k J K: the count of moved rows is the rows moved that stand elsewhere than they did, computed here")
    func movedCountMatchesModel() throws {
        for seed in 0..<300 as Range<UInt64> {
            var rng = SplitMix64(seed: seed)
            let n = 2 + rng.below(6)
            let csv = "k\n" + (0..<n).map { "r\($0)\n" }.joined()
            let model = try ViewEditTests.view(csv, width: 40, height: n + 4)
            var order = Array(0..<n)
            var current = 0
            var moved = Set<Int>()
            for _ in 0..<(1 + rng.below(12)) {
                switch rng.below(4) {
                case 0: ViewEditTests.type(model, "j"); current = min(n - 1, current + 1)
                case 1: ViewEditTests.type(model, "k"); current = max(0, current - 1)
                case 2:
                    ViewEditTests.type(model, "J")
                    if current + 1 < n { moved.insert(order[current]); order.swapAt(current, current + 1); current += 1 }
                default:
                    ViewEditTests.type(model, "K")
                    if current > 0 { moved.insert(order[current]); order.swapAt(current, current - 1); current -= 1 }
                }
            }
            #expect(ViewStateTests.order(model) == order, "seed \(seed)")
            let expected = moved.filter { order[$0] != $0 }.count
            #expect(model.state.editing.edits.counts.moved == expected, "seed \(seed): \(order)")
            #expect(model.unsaved == (expected > 0), "seed \(seed)")
        }
    }

    @Test("V10: a field changed and typed back to its value as read is no change: no ~, nothing unsaved")
    func fieldTypedBack() throws {
        let model = try ViewEditTests.view()
        ViewEditTests.type(model, "e")
        model.handle(.control("u"))
        ViewEditTests.type(model, "X")
        model.handle(.enter)
        #expect(Self.status(model).contains("1 changed"))
        #expect(ViewEditTests.plain(model)[2].hasPrefix(" ~ "))
        ViewEditTests.type(model, "e")
        model.handle(.control("u"))
        ViewEditTests.type(model, "Apple")
        model.handle(.enter)
        #expect(!Self.status(model).contains("changed"))
        #expect(!model.unsaved)
        #expect(ViewEditTests.fields(model, 0) == ["Apple", "3"])
        // Undone, the change is back, and counted.
        ViewEditTests.type(model, "u")
        #expect(Self.status(model).contains("1 changed"))
    }

    @Test("V10: a value kept as text in a number column shows ! beside ~ (changed) and + (added), neither hiding the other")
    func misfitMarksBeside() throws {
        let model = try ViewEditTests.view()
        model.handle(.right)
        ViewEditTests.type(model, "e")
        model.handle(.control("u"))
        ViewEditTests.type(model, "lots")
        model.handle(.enter)
        #expect(ViewEditTests.plain(model)[2].hasPrefix(" ~! Apple"), "\(ViewEditTests.plain(model))")
        ViewEditTests.type(model, "+")
        model.handle(.escape)
        model.handle(.right)
        ViewEditTests.type(model, "e")
        ViewEditTests.type(model, "many")
        model.handle(.enter)
        let added = ViewEditTests.plain(model).first { $0.contains("ma…") }
        #expect(added?.hasPrefix(" +! ") == true, "\(ViewEditTests.plain(model))")
        // A changed row whose value fits shows ~ alone.
        ViewEditTests.type(model, "j")
        ViewEditTests.type(model, "e")
        model.handle(.control("u"))
        ViewEditTests.type(model, "13")
        model.handle(.enter)
        let banana = ViewEditTests.plain(model).first { $0.contains("Banana") }
        #expect(banana?.hasPrefix(" ~  Banana") == true, "\(ViewEditTests.plain(model))")
    }

    @Test("V10: a column widens for a value typed into it, as for one read (W3's cap holding), and = keeps it")
    func columnWidensForTypedValue() throws {
        let model = try ViewEditTests.view("fruit,qty\nkiwi,3\nfig,12\n", width: 60, height: 8)
        ViewEditTests.type(model, "e")
        model.handle(.control("u"))
        ViewEditTests.type(model, "blueberry")
        model.handle(.enter)
        #expect(ViewEditTests.plain(model).contains { $0.contains("blueberry") && !$0.contains("…") }, "\(ViewEditTests.plain(model))")
        ViewEditTests.type(model, "=")
        #expect(ViewEditTests.plain(model).contains { $0.contains("blueberry") }, "\(ViewEditTests.plain(model))")
        // Far wider than the screen: cut at W3's cap (half the width), not wider.
        let long = String(repeating: "w", count: 100)
        ViewEditTests.type(model, "j")
        ViewEditTests.type(model, "e")
        model.handle(.control("u"))
        ViewEditTests.type(model, long)
        model.handle(.enter)
        let line = ViewEditTests.plain(model).first { $0.contains("www") } ?? ""
        #expect(line.contains("…") && line.count <= 60, "\(line)")
    }

    @Test("V10/W12: a value edited in a grouped view: its group's footer sums the value as edited; undone, as before")
    func groupFooterFollowsEdit() throws {
        var options = FormatOptions()
        options.groupBy = ColumnReference("region")
        let model = try ViewStateTests.view("region,item,qty\nEMEA,bolt,3\nAPAC,nut,10\nEMEA,screw,5\n", width: 60, height: 16, options: options)
        #expect(ViewEditTests.plain(model).contains { $0.hasPrefix("Total") && $0.hasSuffix(" 8") })
        // Row 1 (EMEA bolt): qty 3 → 30; the footer 8 → 35.
        model.handle(.right)
        model.handle(.right)
        ViewEditTests.type(model, "e")
        model.handle(.control("u"))
        ViewEditTests.type(model, "30")
        model.handle(.enter)
        let totals = ViewEditTests.plain(model).filter { $0.contains("Total") }
        #expect(totals.contains { $0.hasSuffix(" 35") }, "\(ViewEditTests.plain(model))")
        #expect(totals.contains { $0.hasSuffix(" 10") })
        ViewEditTests.type(model, "u")
        #expect(ViewEditTests.plain(model).contains { $0.contains("Total") && $0.hasSuffix(" 8") }, "\(ViewEditTests.plain(model))")
    }

    @Test("V10: after a save under another name the status line names that file")
    func saveAsNamesTheNewFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-net-\(getpid()).csv")
        let other = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-net-\(getpid())-other.csv")
        try Data("name,qty\nApple,3\n".utf8).write(to: url)
        defer {
            try? FileManager.default.removeItem(at: url)
            try? FileManager.default.removeItem(at: other)
        }
        let model = ViewEditTests.saving(try FileInput(path: url.path))
        #expect(Self.status(model).contains(url.lastPathComponent))
        ViewEditTests.type(model, "eX")
        model.handle(.enter)
        ViewEditTests.type(model, "W")
        ViewEditTests.type(model, other.path)
        model.handle(.enter)
        #expect(model.state.message == "saved to \(other.path)")
        model.handle(.escape)
        #expect(Self.status(model).contains(other.lastPathComponent), "\(Self.status(model))")
    }
}
