import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// O6: a page's rows in `<tbody>` elements of `HTMLRenderer.rowsPerBody` rows, so that the
/// browser lays out only those near the screen (the 100,000-row page in a browser is
/// scripts/check-html-browser-large.py's).
@Suite("HTML row groups")
struct HTMLRowGroupTests {
    /// One `<tbody>` as the page has it: whether it continues its group (`class="c"`), and its
    /// rows: `head` for a group's heading, `total` for its total row, else the first cell's text.
    struct Body: Equatable, CustomStringConvertible {
        var continues: Bool
        var rows: [String]
        var description: String { "\(continues ? "c" : "")[\(rows.count): \(rows.prefix(2)) … \(rows.suffix(2))]" }
    }

    static func bodies(_ page: String) -> [Body] {
        var out: [Body] = []
        for line in page.components(separatedBy: "\n") {
            if line == "<tbody>" || line == "<tbody class=\"c\">" {
                out.append(Body(continues: line != "<tbody>", rows: []))
            } else if line.hasPrefix("<tr class=\"g\">") {
                out[out.count - 1].rows.append("head")
            } else if line.hasPrefix("<tr class=\"t\">") {
                out[out.count - 1].rows.append("total")
            } else if line.hasPrefix("<tr><td") {
                out[out.count - 1].rows.append(String(line.dropFirst(8).prefix { $0 != "<" }))
            }
        }
        return out
    }

    /// What the page should hold, from the rule: each group's rows (in the input's order) in
    /// bodies of `per` rows, the first with the heading, the last with the total row.
    static func expected(_ groups: [[String]], grouped: Bool, per: Int) -> [Body] {
        var out: [Body] = []
        for rows in groups {
            var start = 0
            repeat {
                let end = min(start + per, rows.count)
                var body = Body(continues: start > 0, rows: Array(rows[start..<end]))
                if grouped && start == 0 { body.rows.insert("head", at: 0) }
                if grouped && end == rows.count { body.rows.append("total") }
                out.append(body)
                start = end
            } while start < rows.count
        }
        return out
    }

    /// `count` rows `r0`, `r1`, … each in one of `groups` groups at random, and an amount.
    static func table(_ count: Int, groups: Int, _ random: inout SplitMix64) -> (csv: String, members: [[String]]) {
        var rows = [["id", "team", "amount"]]
        var order: [Int] = []
        var members: [Int: [String]] = [:]
        for k in 0..<count {
            let g = Int(random.next() % UInt64(groups))
            if members[g] == nil { order.append(g) }
            members[g, default: []].append("r\(k)")
            rows.append(["r\(k)", "g\(g)", String(random.next() % 1000)])
        }
        return (csvText(rows), order.map { members[$0] ?? [] })
    }

    @Test("O6: a page's rows are in <tbody> elements of 100, a group's later ones class c, heading in its first, total in its last; the fragment in one (seeded random tables)")
    func rowGroups() throws {
        var random = SplitMix64(seed: 31)
        let per = HTMLRenderer.rowsPerBody
        #expect(per % 2 == 0, "stripes counted in each body run on only if each holds an even number")
        for round in 0..<40 {
            let count = round < 4 ? [0, per, per + 1, 2 * per][round] : Int(random.next() % 460)
            let grouped = round % 2 == 1
            let (csv, members) = Self.table(count, groups: grouped ? 1 + Int(random.next() % 3) : 1, &random)
            let page = try HTMLRendererTests.html(csv) { if grouped { $0.groupBy = ColumnReference("team") } }
            let want = Self.expected(grouped ? members : [members.first ?? []], grouped: grouped, per: per)
            #expect(Self.bodies(page) == want, "\(count) rows, grouped: \(grouped)")
            let fragment = try HTMLRendererTests.html(csv, fragment: true) { if grouped { $0.groupBy = ColumnReference("team") } }
            #expect(fragment.components(separatedBy: "<tbody>\n").count - 1 == (grouped ? members.count : 1) && !fragment.contains("class"))
        }
    }

    @Test("O6: a file drawn in pieces on two threads, grouped or not, splits its rows into <tbody> elements where one drawn whole does")
    func rowGroupsInPieces() throws {
        var random = SplitMix64(seed: 32)
        let (csv, members) = Self.table(5000, groups: 3, &random)
        let url = try ReliabilityKit.temporaryFile("row-groups.csv", Array(csv.utf8))
        for grouped in [false, true] {
            var options = FormatOptions()
            options.format = .html
            options.pipeline.pieceBytes = 4096
            options.pipeline.helpPattern = [true, false]
            options.pipeline.batchSize = 64
            if grouped { options.groupBy = ColumnReference("team") }
            let sink = MemorySink()
            let result = try TableFormatter.run(try FileInput(path: url.path), options: options, output: sink)
            #expect(result.pieces > 1)
            let all = members.flatMap { $0 }.sorted { Int($0.dropFirst())! < Int($1.dropFirst())! }
            let want = Self.expected(grouped ? members : [all], grouped: grouped, per: HTMLRenderer.rowsPerBody)
            #expect(Self.bodies(sink.text) == want, "grouped: \(grouped)")
        }
    }
}
