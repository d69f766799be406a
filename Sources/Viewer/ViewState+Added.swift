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
/// Added rows in sorts, filters and searches (V10): the work off the key loop goes through the
/// input's rows; the rows added in the view (few: typed by a person) are looked at here when its
/// answer comes, so they take part like any row.
extension ViewState {
    /// The added rows with a shown cell containing `match`, and how many cells match.
    func addedMatching(_ match: TextMatch, data: any ViewRows) -> (ids: [Int32], cells: Int) {
        let sources = columns.map(\.source)
        var ids: [Int32] = []
        var cells = 0
        for id in editing.edits.addedIDs {
            let n = data.record(id).withFields { fields in sources.filter { $0 < fields.count && match.matches(fields[$0]) }.count }
            if n > 0 {
                ids.append(Int32(id))
                cells += n
            }
        }
        return (ids, cells)
    }

    /// `sorted` (the input's rows in a sort's order) with the added rows placed in it by their
    /// value in input column `source`, each after the rows it does not come before.
    func placingAdded(in sorted: [Int32], source: Int, numeric: Bool, descending: Bool, data: any ViewRows) -> [Int32] {
        let added = editing.edits.addedIDs
        guard !added.isEmpty, groups == nil else { return sorted }
        func value(_ id: Int32) -> RowOrder.Value? { data.record(Int(id)).withFields { source < $0.count ? RowOrder.value($0, source, numeric: numeric) : nil } }
        let arrivals = added.map { (id: Int32($0), value: value(Int32($0))) }
        return Self.merge(arrivals, into: sorted, descending: descending, value: value)
    }

    /// `arrivals` placed in `order` (sorted by `value`): each after the rows it does not come
    /// before (rows added in the view, and rows read while following) — sorted among themselves
    /// first, in the order given where they tie, then each found by a binary search past the one
    /// before it, and the whole merged in one pass.
    static func merge(_ arrivals: [(id: Int32, value: RowOrder.Value?)], into order: [Int32], descending: Bool, value: (Int32) -> RowOrder.Value?) -> [Int32] {
        // Stable: arrivals of one value keep the order they were given in.
        let arrivals = arrivals.enumerated().sorted { a, b in
            RowOrder.before(a.element.value, b.element.value, descending: descending) ?? (a.offset < b.offset)
        }.map(\.element)
        var out: [Int32] = []
        out.reserveCapacity(order.count + arrivals.count)
        var taken = 0
        for arrival in arrivals {
            var low = taken, high = order.count
            while low < high {
                let middle = (low + high) / 2
                if RowOrder.before(arrival.value, value(order[middle]), descending: descending) == true { high = middle } else { low = middle + 1 }
            }
            out += order[taken..<low]
            out.append(arrival.id)
            taken = low
        }
        out += order[taken...]
        return out
    }

    /// `ids` (a filter's rows, added ones among them) listed as the view lists its rows: in the
    /// order when sorted, else in the edits' order (rows added or moved), else the input's.
    func listedInView(_ ids: [Int32]) -> [Int32] {
        if order != nil || !editing.edits.reorders { return Self.reorder(ids, along: order, rows: loaded) }
        return editing.edits.listed(Self.reorder(ids, along: nil, rows: loaded) + ids.filter { $0 < 0 }, loaded: loaded)
    }
}
