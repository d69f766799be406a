/// `--group-by` (without `--sort`) beyond memory (P2, W12): each row is numbered by its group's
/// first appearance and sorted on disk by that number (`ExternalSort`, ties in input order), so the
/// merge gives the groups in first-seen order with their rows in input order, as the groups held in
/// memory are drawn. The footers' exact sums are known before anything is drawn (they are sized with
/// the cells): where each group's numbers lie is gathered while reading (`ExactDecimal.Span`), then
/// one merge adds them up at that scale, as `NumberValue.sum` would.
final class ExternalGroups {
    /// A group column's sum so far: no number yet, where its numbers lie, or a cell that is not a
    /// number (no sum).
    enum Addends {
        case none
        case span(ExactDecimal.Span)
        case notNumbers
    }

    let groupIndex: Int
    let sort: ExternalSort
    private var numbers: [String: Int] = [:]
    /// Per group, in first-seen order: its value, its rows, and per column its addends.
    private(set) var values: [String] = []
    private(set) var counts: [Int] = []
    private var addends: [[Addends]] = []

    init(groupIndex: Int, budget: Int) {
        self.groupIndex = groupIndex
        sort = ExternalSort(keys: [], budget: budget)
    }

    /// Takes a row: its group numbered, its numbers' span noted, the row held or spilled.
    func add(_ record: Record) throws(InputError) {
        let value = groupIndex < record.count ? record.string(at: groupIndex) : ""
        let group: Int
        if let known = numbers[value] {
            group = known
        } else {
            group = values.count
            numbers[value] = group
            values.append(value)
            counts.append(0)
            addends.append([])
        }
        counts[group] += 1
        record.withFields { fields in
            if addends[group].count < fields.count { addends[group] += Array(repeating: .none, count: fields.count - addends[group].count) }
            for c in 0..<fields.count {
                let cell = fields[c]
                if cell.isEmpty || CellKind.isNullWord(cell) { continue }
                guard case let state = addends[group][c], !Self.isNotNumbers(state) else { continue }
                guard let term = ExactDecimal(cell) else {
                    addends[group][c] = .notNumbers
                    continue
                }
                var span: ExactDecimal.Span
                if case .span(let known) = state { span = known } else { span = ExactDecimal.Span() }
                span.add(term)
                addends[group][c] = .span(span)
            }
        }
        // Ordered by group, then by row: the row number carries both.
        try sort.add(record, numeric: [], number: group << 40 | sort.count)
    }

    private static func isNotNumbers(_ state: Addends) -> Bool {
        if case .notNumbers = state { return true }
        return false
    }

    /// Each group's sums of `columns` (nil where a column has no number, or one that is not), in
    /// one merge. - Returns: per group, per column, the sum; whether one was rounded.
    func sums(of columns: [Int]) throws(ExternalSort.MergeError<Never>) -> [[NumberValue.Sum?]] {
        var out: [[NumberValue.Sum?]] = []
        var group = 0
        var left = counts.first ?? 0
        func start(_ g: Int) -> [ExactDecimal.Total?] {
            columns.map { c -> ExactDecimal.Total? in
                guard c < addends[g].count, case .span(let span) = addends[g][c] else { return nil }
                return ExactDecimal.Total(scale: span.scale)
            }
        }
        var totals = counts.isEmpty ? [] : start(0)
        try sort.merge(numeric: []) { fields, _ in
            for (k, c) in columns.enumerated() where totals[k] != nil {
                let cell = fields[c]
                if !cell.isEmpty, !CellKind.isNullWord(cell), let term = ExactDecimal(cell) { totals[k]?.add(term) }
            }
            left -= 1
            if left == 0 {
                out.append(zip(columns, totals).map { c, total in
                    guard let total, case .span(let span) = addends[group][c] else { return nil }
                    return NumberValue.Sum(total.value, exact: span.exact)
                })
                group += 1
                if group < counts.count {
                    left = counts[group]
                    totals = start(group)
                }
            }
            return true
        }
        return out
    }
}

extension TableFormatter {
    /// A group's heading line (W12): `Region: EMEA (1,234 rows)`, the count written as every
    /// count tablefmt writes (`grouped`), in print, in Markdown and in the view.
    static func groupHeading(_ label: String, value: String, count: Int) -> String {
        "\(label): \(value.isEmpty ? "(empty)" : value) (\(grouped(count)) row\(count == 1 ? "" : "s"))"
    }
}

extension FormatRun {
    /// `--group-by` without `--sort`: rows numbered by group and held, past the budget sorted on
    /// disk (P2). When nothing was spilled the rows are held as before, grouped in memory.
    func readForGroups() throws(OutputError) {
        var grouping: ExternalGroups?
        var held: [Record] = []
        while nextRow() {
            profiler.sync(columns: table.columns)
            if rows < limit { profiler.add(record) }  // W10: sized from the rows shown, in input order
            rows += 1
            if grouping == nil, let index = try? TableFormatter.Transforms(options, columns: table.columns).groupIndex {
                let made = ExternalGroups(groupIndex: index, budget: options.memoryLimit)
                do {
                    for row in held { try made.add(row) }
                } catch {
                    result.error = result.error ?? error
                    break
                }
                held = []
                grouping = made
            }
            guard let grouping else {
                held.append(record.compacted())
                continue
            }
            do { try grouping.add(record) } catch {
                result.error = result.error ?? error
                break
            }
        }
        if let grouping, grouping.sort.spilled {
            do { try grouping.sort.finish(numeric: []) } catch { result.error = result.error ?? error }
            externalGroups = grouping
        } else {
            // Held in memory after all: the in-memory path sizes them itself.
            profiler = ColumnProfiler(columns: table.columns, measure: measure, trackWords: options.cellLines > 1)
            self.held = grouping?.sort.takeHeld() ?? held
        }
    }

    /// `--sort` with `--group-by`, sorted on disk: the sorted rows numbered by group as they come
    /// and sorted on disk again by that number, so each group keeps its rows' sorted order.
    func groupSorted(_ sorted: ExternalSort, numeric: [Bool], groupIndex: Int) -> ExternalGroups {
        let grouping = ExternalGroups(groupIndex: groupIndex, budget: options.memoryLimit)
        var record = Record()
        var failure: InputError?
        do {
            try sorted.merge(numeric: numeric) { (fields, _) throws(OutputError) -> Bool in
                record.clear()
                for k in 0..<fields.count { record.append(fields[k]) }
                do throws(InputError) { try grouping.add(record) } catch {
                    failure = error
                    return false
                }
                return true
            }
        } catch {
            if case .input(let error) = error { failure = failure ?? error }
        }
        if failure == nil {
            do { try grouping.sort.finish(numeric: []) } catch { failure = error }
        }
        if let failure { result.error = result.error ?? failure }
        return grouping
    }

    /// The groups' footers (W12), for groups sorted on disk: summed in one merge, then sized.
    func externalFooters(_ grouping: ExternalGroups, selection: [Int]?) -> Groups {
        footers(groupIndex: grouping.groupIndex, selection: selection) { summed in
            do throws(ExternalSort.MergeError<Never>) {
                return try grouping.sums(of: summed)
            } catch {
                if case .input(let error) = error { result.error = result.error ?? error }
                return nil
            }
        }
    }

    /// The groups' footers (W12) from their sums of the numeric columns shown (`sums` of those
    /// columns: per group, per column; nil when they could not be added up), sized.
    func footers(groupIndex: Int, selection: [Int]?, sums: ([Int]) -> [[NumberValue.Sum?]]?) -> Groups {
        var groups = Groups()
        guard options.groupFooter else { return groups }
        let shown = selection ?? Array(table.columns.indices)
        let summed = shown.filter { index in
            index != groupIndex && profiler.profiles[index].isNumeric && profiler.profiles[index].kind != .null
        }
        guard let sums = sums(summed) else { return groups }
        for group in sums {
            var row: [String?] = Array(repeating: nil, count: shown.count)
            for (k, index) in summed.enumerated() {
                guard let sum = group[k] else { continue }
                groups.rounded = groups.rounded || !sum.exact
                let text = TableFormatter.footerText(sum)
                profiler.noteFooter(column: index, text)
                // `summed` is drawn from `shown`, so every summed column has its place there.
                if let place = shown.firstIndex(of: index) { row[place] = text }
            }
            groups.footers.append(row)
        }
        return groups
    }

    /// W12 for groups sorted on disk: as `drawGroups` draws them, the rows coming from the merge.
    func drawExternalGroups(_ grouping: ExternalGroups, _ groups: Groups, plan: LayoutPlan, renderer: any Renderer,
                            draw: TableFormatter.Draw, drawn: inout Int) throws(OutputError) {
        let heading = plan.columns.first(where: { $0.source == grouping.groupIndex })?.heading ?? table.columns[grouping.groupIndex]
        let shown = (try? TableFormatter.Transforms(options, columns: table.columns).selection) ?? nil ?? Array(table.columns.indices)
        guard !grouping.counts.isEmpty, drawn < limit else { return }
        var group = 0
        var left = grouping.counts[0]
        var drawnHere = drawn
        let limit = self.limit
        func headingLine(_ g: Int) throws(OutputError) {
            let count = grouping.counts[g]
            let value = grouping.values[g]
            try renderer.groupHeading(TableFormatter.groupHeading(heading, value: value, count: count))
        }
        try headingLine(0)
        do {
            try grouping.sort.merge(numeric: []) { (fields, _) throws(OutputError) in
                try draw(renderer, fields)
                drawnHere += 1
                left -= 1
                if left == 0 || drawnHere >= limit {
                    try drawFooter(group, groups, shown: shown, plan: plan, renderer: renderer)
                    group += 1
                    guard drawnHere < limit, group < grouping.counts.count else { return false }
                    left = grouping.counts[group]
                    try headingLine(group)
                }
                return true
            }
        } catch {
            switch error {
            case .output(let error): throw error
            case .input(let error): result.error = result.error ?? error
            }
        }
        drawn = drawnHere
    }
}
