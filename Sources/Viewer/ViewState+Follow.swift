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
/// Following an input that grows while it is viewed (V9): `tail -f log.csv | tablefmt`, or
/// `tablefmt --follow log.csv`. At the last row of an input still open, the view keeps to the
/// last row as rows come; moved up, it stays where it is and counts the rows that came.
struct FollowState: Equatable {
    /// The view keeps to the last row as rows come.
    var following = false
    /// The reader has read every row that came and waits for the writer: a sort asked for now
    /// sorts the rows there are, and new rows are placed in its order as they come.
    var caughtUp = false
    /// The reader has waited for its writer at least once: what the input held when opened (a
    /// file's rows, a pipe's first burst) is read, and the rest comes as it is written. A sort
    /// asked for from then on sorts the rows there are at once, however steadily rows come.
    var backlogRead = false
    /// Rows read when following last started (nil: it never did): `following · 12 new` counts
    /// from here.
    var started: Int?
    /// Rows read when the view last kept up with them: `+12 new rows` counts from here.
    var seen = 0
    /// `--follow`: the rows the file held when it was opened are not new; `started` is set when
    /// the reader has read them (`fileRead`).
    var awaitingCatchUp = false
}

extension ViewState {
    /// The key that follows from anywhere (V9): `t`, for `tail` (less's `F` freezes columns here).
    static let followKey = ViewKey.character("t")

    /// A batch of new rows larger than this is sorted again off the key loop, rather than placed
    /// row by row (each placement reads about log₂(rows) rows).
    static let placeLimit = 4096

    /// `t`: the last row, following while the input is open. - Returns: whether `key` was it.
    mutating func followKey(_ key: ViewKey) -> Bool {
        guard key == Self.followKey else { return false }
        switch mode {
        case .table, .detail: mode = .table
        default: return false
        }
        current = max(0, count - 1)
        guard loading else {
            message = "the input has ended: nothing to follow"
            return true
        }
        guard sort == nil else {
            // Sorted, new rows take their places: there is no last row to keep to.
            message = "sorted: new rows take their places in the order (s to the input's order, then t follows)"
            return true
        }
        setFollowing(true)
        return true
    }

    /// `--follow`: the view opens at the last row, following.
    mutating func startFollowing() {
        current = max(0, count - 1)
        if loading {
            setFollowing(true)
            follow.awaitingCatchUp = true
        }
        clampPosition()
    }

    /// After a key: following when the table is at the last row of an input still open.
    mutating func noteFollowing() {
        guard mode == .table || mode == .help else { return }
        setFollowing(loading && sort == nil && current >= count - 1)
    }

    mutating func setFollowing(_ on: Bool) {
        if on && (!follow.following || follow.started == nil) {
            follow.started = loaded
            follow.seen = loaded
        }
        follow.following = on
    }

    /// Columns laid out again while rows come, no narrower than they were (V9: they never jitter);
    /// once the input has ended, from every row as they are (V7).
    mutating func relayoutGrowing() {
        guard loading else { return relayout() }
        relayoutKeepingWidths()
    }

    /// The columns laid out again, none narrower than it was (rows coming; a value typed, V10).
    mutating func relayoutKeepingWidths() {
        let before = (columns: columns, computed: computed)
        relayout()
        guard before.columns.count == columns.count else { return }
        for k in columns.indices where before.columns[k].source == columns[k].source && computed[k] < before.computed[k] {
            let resized = columns[k].width != computed[k]
            computed[k] = before.computed[k]
            if !resized { columns[k].width = computed[k] }
        }
    }

    /// `--follow FILE`: the reader has read the `rows` the file held when it was opened (it
    /// first waited for more then); the rows after them are the new ones.
    mutating func fileRead(rows: Int) {
        guard follow.awaitingCatchUp else { return }
        follow.awaitingCatchUp = false
        follow.started = rows
        follow.seen = max(follow.seen, rows)
    }

    /// Rows that came since the order was made take their places in it; the view follows them,
    /// or keeps the current row where it is on screen; a sort waiting for the reader to catch up
    /// starts.
    mutating func takeNewRows(_ data: any ViewRows) {
        let focused = !follow.following && count > 0 ? id(at: current) : nil
        if order != nil, groups == nil, orderCovers < loaded, pendingSort == nil, !isSorting {
            placeInOrder(orderCovers..<loaded, data: data)
            if let focused { keepInSight(focused) }
        }
        if follow.following, !isDetail {
            current = max(0, count - 1)
            follow.seen = loaded
        }
        if loading, sortsNow, running == nil, options.groupBy == nil, let pending = pendingSort { startSort(pending) }
    }

    /// Whether a sort asked for while rows come runs now: once the reader has caught up with its
    /// writer, or has read what the input held when opened (a steady stream never pauses, V9).
    var sortsNow: Bool { !loading || follow.caughtUp || follow.backlogRead }

    /// A row's sheet is open: it stays on its row while rows come.
    var isDetail: Bool {
        if case .detail = mode { return true }
        return false
    }

    private var isSorting: Bool {
        if let running, case .sort = running.work.kind { return true }
        return false
    }

    /// Places rows `new` (read after the order was made) in the sort's order: a few by a binary
    /// search each and one merge; many by sorting again off the key loop (V3). The filter's rows
    /// follow the order.
    private mutating func placeInOrder(_ new: Range<Int>, data: any ViewRows) {
        guard let sort, columns.indices.contains(sort.column), let order else { return }
        if new.count > Self.placeLimit {
            // Sorted again (at once when the backlog is read, else once the writer pauses):
            // meanwhile the rows shown are the sorted ones.
            pendingSort = sort
            return
        }
        let source = columns[sort.column].source
        let numeric = profiles.indices.contains(source) && profiles[source].isNumeric
        func value(_ id: Int) -> RowOrder.Value? { data.record(id).withFields { RowOrder.value($0, source, numeric: numeric) } }
        // A new row goes after every row it does not precede: its row number is the largest yet.
        let merged = Self.merge(new.map { (id: Int32($0), value: value($0)) }, into: order, descending: sort.descending) { value(Int($0)) }
        setOrder(merged)
        if var f = filter, f.scanned < loaded {
            extend(&f, data: data)
            f.ids = Self.reorder(f.ids, along: merged, rows: loaded)
            filter = f
        }
    }

    /// The status line's words for following (V9): `following · 12 new`, or `+12 new rows` when
    /// the view was moved up from them; nil when the input has ended or nothing was followed.
    var followNote: String? {
        guard loading, let started = follow.started else { return nil }
        if follow.following {
            let new = follow.awaitingCatchUp ? 0 : max(0, loaded - started)
            return "following" + (new > 0 ? " · \(Wording.grouped(new)) new" : "")
        }
        let new = follow.awaitingCatchUp ? 0 : max(0, loaded - follow.seen)
        return new > 0 ? "+\(Wording.grouped(new)) new row\(new == 1 ? "" : "s")" : nil
    }
}
