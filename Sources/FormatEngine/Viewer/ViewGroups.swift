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

    /// Groups every row by column `source`; sums `summed` (indexes into `shown`) exactly. Reports
    /// as it goes (two passes); nil when cancelled.
    init?(_ data: any ViewRows, rows: Int, source: Int, label: String, shown: [Int], summed: [Int], progress: WorkProgress = .always) {
        self.label = label
        var numbers: [String: Int32] = [:]
        of.reserveCapacity(rows)
        // Where each group's numbers lie, then their totals at that scale (as NumberValue.sum).
        var spans: [[ExactDecimal.Span?]] = []
        var values: [String] = [], counts: [Int] = [], of: [Int32] = []
        of.reserveCapacity(rows)
        guard progress.scan(data, rows: rows, to: summed.isEmpty ? 1 : 0.5, { _, fields in
            let value = String(decoding: fields[source], as: UTF8.self)
            let group: Int32
            if let known = numbers[value] {
                group = known
            } else {
                group = Int32(values.count)
                numbers[value] = group
                values.append(value)
                counts.append(0)
                spans.append(Array(repeating: ExactDecimal.Span(), count: summed.count))
            }
            counts[Int(group)] += 1
            of.append(group)
            for (k, column) in summed.enumerated() {
                let cell = fields[shown[column]]
                if cell.isEmpty || CellKind.isNullWord(cell) || spans[Int(group)][k] == nil { continue }
                if let term = ExactDecimal(cell) { spans[Int(group)][k]?.add(term) } else { spans[Int(group)][k] = nil }
            }
        }) else { return nil }
        (self.values, self.counts, self.of) = (values, counts, of)
        guard !summed.isEmpty else {
            footers = Array(repeating: [], count: values.count)
            return
        }
        var totals: [[ExactDecimal.Total?]] = spans.map { $0.map { $0.map { ExactDecimal.Total(scale: $0.scale) } } }
        var seen: [[Bool]] = spans.map { Array(repeating: false, count: $0.count) }
        let groupOf = of
        guard progress.scan(data, rows: rows, from: 0.5, { id, fields in
            let group = Int(groupOf[id])
            for (k, column) in summed.enumerated() where totals[group][k] != nil {
                let cell = fields[shown[column]]
                if cell.isEmpty || CellKind.isNullWord(cell) { continue }
                if let term = ExactDecimal(cell) {
                    totals[group][k]?.add(term)
                    seen[group][k] = true
                }
            }
        }) else { return nil }
        footers = (0..<values.count).map { g in
            var row: [String?] = Array(repeating: nil, count: shown.count)
            for (k, column) in summed.enumerated() {
                guard seen[g][k], let total = totals[g][k], let span = spans[g][k] else { continue }
                row[column] = TableFormatter.footerText(NumberValue.Sum(total.value, exact: span.exact))
            }
            return row
        }
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
        TableFormatter.groupHeading(label, value: values[group], count: counts[group])
    }

    /// Whether the group has a footer with a sum in it.
    func hasFooter(_ group: Int) -> Bool { footers[group].contains { $0 != nil } }
}

extension ViewState {
    /// Asks for the groups once every row is read (`--group-by`), when no other work runs (one
    /// that replaced it asks again when it is done), unless `Esc` stopped them.
    mutating func startGroups() {
        guard let reference = options.groupBy, !loading, groups == nil, running == nil, !groupsStopped,
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

    /// The groups' answer: the rows by group, in the order they were in within each, the current
    /// row kept.
    mutating func applyGrouped(_ made: ViewGroups) {
        let focused = count > 0 ? id(at: current) : nil
        groups = made
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
