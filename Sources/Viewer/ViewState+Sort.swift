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
/// Sorting in the view (V3): what `s` asks for, and the answer taken in. The sort itself runs
/// off the key loop (`ViewWork`, ViewSortOrder.swift); until its answer comes the rows stay in
/// the order they were in.
extension ViewState {
    /// `--sort COL`: the view opens sorted (once every row is read).
    mutating func requestSort(_ key: SortKey) {
        let names = profiles.map(\.name)
        guard let source = try? key.column.resolve(in: names), let column = columns.firstIndex(where: { $0.source == source }) else { return }
        if !sortsNow || running != nil {
            pendingSort = (column, key.descending)  // after the rows, and the groups
        } else {
            startSort((column, key.descending))
        }
    }

    /// The sort in force or on its way: a running sort's, else the one asked for once every row
    /// is read, else the one shown.
    var nextSortBase: (column: Int, descending: Bool)? {
        if let running, case .sort(let column, let descending) = running.work.kind { return (column, descending) }
        return pendingSort ?? sort
    }

    /// `s`: ascending, then descending, then the input's order again (after the sort running, if
    /// one is: a second `s` asks for the other direction at once).
    mutating func cycleSort(column: Int) {
        let next: (column: Int, descending: Bool)?
        if let now = nextSortBase, now.column == column {
            next = now.descending ? nil : (column, true)
        } else {
            next = (column, false)
        }
        guard let next else {
            unsort()
            return
        }
        if !sortsNow {
            if running.map({ if case .sort = $0.work.kind { true } else { false } }) == true { cancelWork() }
            pendingSort = next
            message = "sorted once every row is read"
        } else {
            startSort(next)
        }
    }

    /// Back to the input's order (by group, with `--group-by`), the current row kept: no work,
    /// the filter's rows listed again in that order.
    mutating func unsort() {
        if let running, case .sort = running.work.kind { cancelWork() }
        let focused = count > 0 ? id(at: current) : nil
        sort = nil
        pendingSort = nil
        setOrder(groups.map { $0.arrange((0..<Int32(loaded)).map { $0 }) })
        if var f = filter {
            f.ids = listedInView(f.ids)
            filter = f
        }
        keepInSight(focused)
    }

    /// Asks for a sort by shown column `key.column`: the index of row numbers is made off the key
    /// loop, and replaces the order when it comes (`applySorted`).
    mutating func startSort(_ key: (column: Int, descending: Bool)) {
        guard columns.indices.contains(key.column) else { return }
        let source = columns[key.column].source
        var work = newWork(.sort(column: key.column, descending: key.descending))
        work.source = source
        work.numeric = profiles.indices.contains(source) && profiles[source].isNumeric
        work.budget = options.memoryLimit
        work.groups = groups
        work.kept = filter?.ids
        pendingSort = nil
        start(work)
    }

    /// A sort's answer: the new order, the rows added in the view placed in it by value (and the
    /// filter's rows in it); the current row stays the current row, at its place in the new order.
    mutating func applySorted(_ work: ViewWork, order input: [Int32], kept: [Int32]?, data: any ViewRows) {
        guard case .sort(let column, let descending) = work.kind else { return }
        let focused = count > 0 ? id(at: current) : nil
        let sorted = placingAdded(in: input, source: work.source, numeric: work.numeric, descending: descending, data: data)
        let addedKept: [Int32] = (self.filter?.ids ?? []).filter { id in id < 0 }
        setOrder(sorted)
        sort = (column, descending)
        // Sorted, rows that come take their places: the view keeps to its current row (V3, V9).
        if follow.following { setFollowing(false) }
        if var f = filter {
            // A filter cleared meanwhile is gone; one kept is listed in the new order.
            f.ids = addedKept.isEmpty ? kept ?? Self.reorder(f.ids, along: sorted, rows: loaded) : Self.reorder((kept ?? f.ids) + addedKept, along: sorted, rows: loaded)
            filter = f
        }
        keepInSight(focused)
    }

    /// View row of input row `id`, if shown.
    func row(of id: Int) -> Int? {
        if let filter { return filter.ids.firstIndex(of: Int32(id)) }
        if let order { return order.firstIndex(of: Int32(id)) }
        if editing.edits.reorders { return editing.edits.position(of: id) }
        return id < loaded ? id : nil
    }

    /// Makes input row `id` the current row (the first row when it is not shown), on the line of
    /// the screen it was on.
    mutating func keepInSight(_ id: Int?) {
        let line = max(0, min(current - top, bodyLines - 1))
        current = id.flatMap { row(of: $0) } ?? 0
        top = max(0, current - line)
    }
}
