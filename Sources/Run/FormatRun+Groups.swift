import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
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
        try sort.add(record, numeric: [], number: group << 40 | sort.rowsRead)
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

extension FormatRun {
    /// `--group-by` without `--sort`: rows numbered by group and held, past the budget sorted on
    /// disk (P2). When nothing was spilled the rows are held as before, grouped in memory.
    func readForGroups(_ reader: consuming RowReader) -> Sized {
        var profiler = newProfiler(columns: reader.table.columns)
        var grouping: ExternalGroups?
        var held: [Record] = []
        var rows = 0
        while reader.next() {
            profiler.sync(columns: reader.table.columns)
            if rows < limit { profiler.add(reader.record) }  // W10: sized from the rows shown, in input order
            rows += 1
            if grouping == nil, let index = try? TableFormatter.Transforms(options, columns: reader.table.columns).groupIndex {
                let made = ExternalGroups(groupIndex: index, budget: options.memoryLimit)
                do {
                    for row in held { try made.add(row) }
                } catch {
                    reader.keep(error)
                    break
                }
                held = []
                grouping = made
            }
            guard let grouping else {
                held.append(reader.record.compacted())
                continue
            }
            do { try grouping.add(reader.record) } catch {
                reader.keep(error)
                break
            }
        }
        guard let grouping, grouping.sort.spilled else {
            // Held in memory after all: the in-memory path sizes them itself.
            let all = grouping?.sort.takeHeld() ?? held
            return Sized(reader: reader, rows: .all(all, typing: nil), profiler: newProfiler(columns: reader.table.columns), count: rows)
        }
        do { try grouping.sort.finish(numeric: []) } catch { reader.keep(error) }
        return Sized(reader: reader, rows: .externalGroups(grouping), profiler: profiler, count: rows)
    }

    /// `--sort` with `--group-by`, sorted on disk: the sorted rows numbered by group as they come
    /// and sorted on disk again by that number, so each group keeps its rows' sorted order.
    func groupSorted(_ sorted: ExternalSort, numeric: [Bool], groupIndex: Int, _ reader: inout RowReader) -> ExternalGroups {
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
        reader.keep(failure)
        return grouping
    }

    /// The groups' footers (W12), for groups sorted on disk: summed in one merge, then sized.
    func externalFooters(_ grouping: ExternalGroups, selection: [Int]?, _ sized: inout Sized) -> Groups {
        var failure: InputError?
        let shown = selection ?? Array(sized.reader.table.columns.indices)
        let groups = footers(groupIndex: grouping.groupIndex, shown: shown, profiler: &sized.profiler) { summed in
            do throws(ExternalSort.MergeError<Never>) {
                return try grouping.sums(of: summed)
            } catch {
                if case .input(let error) = error { failure = error }
                return nil
            }
        }
        sized.reader.keep(failure)
        return groups
    }

    /// The groups' footers (W12) from their sums of the numeric columns shown (`sums` of those
    /// columns: per group, per column; nil when they could not be added up), sized.
    func footers(groupIndex: Int, shown: [Int], profiler: inout ColumnProfiler, sums: ([Int]) -> [[NumberValue.Sum?]]?) -> Groups {
        var groups = Groups()
        guard options.groupFooter else { return groups }
        let summed = shown.filter { index in
            index != groupIndex && profiler.profiles[index].isNumeric && profiler.profiles[index].kind != .null
        }
        guard let sums = sums(summed) else { return groups }
        for group in sums {
            var row: [String?] = Array(repeating: nil, count: shown.count)
            for (k, index) in summed.enumerated() {
                guard let sum = group[k] else { continue }
                groups.rounded = groups.rounded || !sum.exact
                let text = Wording.footerText(sum)
                profiler.noteFooter(column: index, text)
                // `summed` is drawn from `shown`, so every summed column has its place there.
                if let place = shown.firstIndex(of: index) { row[place] = text }
            }
            groups.footers.append(row)
        }
        return groups
    }

    /// W12 for groups sorted on disk: as the groups held are drawn, the rows coming from the merge.
    func drawExternalGroups(_ grouping: ExternalGroups, _ grouped: GroupedDrawing, _ count: inout DrawCount,
                            _ reader: inout RowReader) throws(OutputError) {
        guard !grouping.counts.isEmpty, count.drawn < limit else { return }
        var group = 0
        var left = grouping.counts[0]
        var drawnHere = count.drawn
        let limit = self.limit
        try grouped.heading(grouping.values[0], count: grouping.counts[0])
        do {
            try grouping.sort.merge(numeric: []) { (fields, _) throws(OutputError) in
                try grouped.draw(grouped.renderer, fields)
                drawnHere += 1
                left -= 1
                if left == 0 || drawnHere >= limit {
                    try grouped.footer(group)
                    group += 1
                    guard drawnHere < limit, group < grouping.counts.count else { return false }
                    left = grouping.counts[group]
                    try grouped.heading(grouping.values[group], count: grouping.counts[group])
                }
                return true
            }
        } catch {
            switch error {
            case .output(let error): throw error
            case .input(let error): reader.keep(error)
            }
        }
        count.drawn = drawnHere
    }
}
