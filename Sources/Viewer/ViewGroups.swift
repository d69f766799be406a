import Save
import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
/// `--group-by` in the view (V1, W12): once every row is read, the rows are shown by group, in the
/// order each group first appears, under a heading line `Region: EMEA (3 rows)` and over a footer
/// line of the group's sums, as the printed table shows them. A sort orders rows within their
/// group; a filter keeps the groups' order. 4 bytes a row (each row's group).
struct ViewGroups {
    /// Each row's group (by row number), and per group its value, its rows, and its footer
    /// (per shown column, the sum to show or nil).
    var of: [Int32] = []
    var values: [String] = []
    var counts: [Int] = []
    var footers: [[String?]] = []
    /// The heading's label (the group column's heading).
    var label = ""

    /// Groups every row by column `source` and sums `summed` (indexes into `shown`) exactly, as
    /// the printer does (`GroupTally` on each part of the rows, on both cores, `GroupTotals` over
    /// them). Reports as it goes; nil when cancelled.
    init?(_ data: any ViewRows, rows: Int, source: Int, label: String, shown: [Int], summed: [Int], progress: WorkProgress = .always) {
        self.label = label
        let (parts, size) = WorkProgress.parts(rows: rows)
        let columns = summed.map { shown[$0] }
        var tallies = [GroupTally](repeating: GroupTally(index: source, cellCap: .max, summed: columns), count: parts)
        var local = [Int32](repeating: 0, count: rows)
        let done = tallies.withUnsafeMutableBufferPointer { tallies in
            local.withUnsafeMutableBufferPointer { local in
                // Each part writes its own tally and its own rows' places only.
                progress.scanInParts(data, rows: rows, to: 0.9) { part, id, fields in
                    local[id] = Int32(tallies[part].place(fields) ?? 0)  // no cap: never nil
                }
            }
        }
        guard done, let totals = GroupTotals(tallies) else { return nil }
        of = local.indices.map { id in Int32(totals.groupOfPart[id / size][Int(local[id])]) }
        values = totals.values
        counts = totals.counts
        guard let footers = Self.footers(totals.sums, data: data, rows: rows, groupOf: of, columns: columns, shown: shown.count, summed: summed, progress: progress) else { return nil }
        self.footers = footers
    }

    /// Per group, per shown column, the sum to show: exact from the running sums, or, for a sum
    /// whose numbers span more digits than are kept exactly, added again at the scale its span
    /// gives (a second look at those groups' cells only). Nil when cancelled.
    private static func footers(_ sums: [[ExactDecimal.Running]], data: any ViewRows, rows: Int, groupOf: [Int32],
                                columns: [Int], shown: Int, summed: [Int], progress: WorkProgress) -> [[String?]]? {
        var footers = [[String?]](repeating: [], count: sums.count)
        var again: [[ExactDecimal.Total?]] = sums.map { $0.map { _ in nil } }
        for (g, group) in sums.enumerated() {
            guard !summed.isEmpty else { continue }
            var row = [String?](repeating: nil, count: shown)
            for (k, sum) in group.enumerated() where sum.hasSum {
                if let value = sum.exactValue {
                    row[summed[k]] = Wording.footerText(NumberValue.Sum(value, exact: true))
                } else {
                    again[g][k] = ExactDecimal.Total(scale: sum.span.scale)
                }
            }
            footers[g] = row
        }
        guard again.contains(where: { $0.contains { $0 != nil } }) else { return progress.going(1) ? footers : nil }
        guard progress.scan(data, rows: rows, from: 0.9, { id, fields in
            let g = Int(groupOf[id])
            for (k, column) in columns.enumerated() where again[g][k] != nil {
                let cell = fields[column]
                if cell.isEmpty || CellKind.isNullWord(cell) { continue }
                if let term = ExactDecimal(cell) { again[g][k]?.add(term) }
            }
        }) else { return nil }
        for (g, group) in again.enumerated() {
            for (k, total) in group.enumerated() {
                if let total { footers[g][summed[k]] = Wording.footerText(NumberValue.Sum(total.value, exact: sums[g][k].span.exact)) }
            }
        }
        return footers
    }

    /// Row numbers by group, in `order` within each group (a stable counting sort).
    func arrange(_ order: [Int32]) -> [Int32] {
        var next = [Int](repeating: 0, count: counts.count)
        var start = 0
        for g in counts.indices {
            next[g] = start
            start += counts[g]
        }
        var out = [Int32](repeating: 0, count: order.count)
        for id in order {
            let g = Int(of[Int(id)])
            out[next[g]] = id
            next[g] += 1
        }
        return out
    }

    /// The heading over a group's first row.
    func heading(_ group: Int) -> String {
        Wording.groupHeading(label, value: values[group], count: counts[group])
    }

    /// Whether the group has a footer with a sum in it.
    func hasFooter(_ group: Int) -> Bool { footers[group].contains { $0 != nil } }
}

extension ViewState {
    /// Asks for the groups once every row is read (`--group-by`), when no other work runs (one
    /// that replaced it asks again when it is done), unless `Esc` stopped them.
    mutating func startGroups() {
        guard let reference = options.groupBy, !loading, groups == nil || groupsStale, running == nil, !groupsStopped,
              let source = try? reference.resolve(in: profiles.map(\.name)) else { return }
        let label = columns.first { $0.source == source }?.heading ?? profiles[source].name
        let shownSources = columns.map(\.source)
        let summed = options.groupFooter ? shownSources.indices.filter { k in
            let index = shownSources[k]
            return index != source && profiles[index].isNumeric && profiles[index].kind != .null
        } : []
        var work = newWork(.group)
        work.source = source
        work.label = label
        work.sources = shownSources
        work.summed = summed
        start(work)
    }

    /// A value edited (typed, undone or redone) while the rows are grouped: the groups are made
    /// again from the rows as edited, so a footer's sum and a row's group follow the edit.
    mutating func regroup() {
        guard groups != nil else { return }
        groupsStale = true
        startGroups()
    }

    /// The groups' answer: the rows by group, in the order they were in within each, the current
    /// row kept.
    mutating func applyGrouped(_ made: ViewGroups) {
        let focused = count > 0 ? id(at: current) : nil
        groups = made
        groupsStale = false
        setOrder(made.arrange(order ?? (0..<Int32(loaded)).map { $0 }))
        if var f = filter {
            f.ids = Self.reorder(f.ids, along: order, rows: loaded)
            filter = f
        }
        keepInSight(focused)
    }

    /// The group of view row `row`, and whether the row is its group's first and last in view.
    func groupPlace(_ row: Int) -> (group: Int, first: Bool, last: Bool)? {
        guard let groups else { return nil }
        let group = Int(groups.of[id(at: row)])
        let first = row == 0 || Int(groups.of[id(at: row - 1)]) != group
        let last = row == count - 1 || Int(groups.of[id(at: row + 1)]) != group
        return (group, first, last)
    }

    /// Lines row `row` takes with its group's heading above it and footer below it.
    func groupLines(_ row: Int) -> Int {
        guard let place = groupPlace(row), let groups else { return 0 }
        return (place.first ? 1 : 0) + (place.last && groups.hasFooter(place.group) ? 1 : 0)
    }
}
