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
/// The view's long work as the state sees it (V3, V5, V8): a key asks for it (`running`), the
/// runner does it elsewhere, and its messages come back through `apply`. Until the answer comes
/// the view is as it was and every key works; `Esc` cancels, and a new sort, filter or search
/// replaces the one running (one runs at a time).
extension ViewState {
    /// A work asked for and not yet answered, and how far it is.
    struct Running {
        var work: ViewWork
        var fraction: Double
    }

    /// A work of `kind` over the rows read so far, with the next id.
    mutating func newWork(_ kind: ViewWork.Kind) -> ViewWork {
        workCount += 1
        return ViewWork(id: workCount, kind: kind, rows: loaded)
    }

    /// Asks for `work`, in place of any running.
    mutating func start(_ work: ViewWork) {
        if let running, running.work.kind.name != work.kind.name { message = "\(running.work.kind.name) stopped" }
        running = Running(work: work, fraction: 0)
    }

    /// Gives up the running work: the view stays as it is.
    mutating func cancelWork() { running = nil }

    /// Takes in a message from the runner; one about a work that is not the running one (it was
    /// cancelled or replaced) changes nothing.
    mutating func apply(_ message: ViewMessage, data: any ViewRows) {
        guard let running, running.work.id == message.id else { return }
        let work = running.work
        switch message {
        case .progress(_, let fraction):
            self.running?.fraction = fraction
            return
        case .sorted(_, let order, let kept):
            self.running = nil
            applySorted(work, order: order, kept: kept, data: data)
        case .filtered(_, let ids):
            self.running = nil
            applyFiltered(work, ids: ids, data: data)
        case .searched(_, let hits, let cells):
            self.running = nil
            applySearched(work, hits: hits, cells: cells, data: data)
        case .grouped(_, let made):
            self.running = nil
            applyGrouped(made)
        case .failed(_, let text):
            self.running = nil
            self.message = text
        }
        // The groups, and a sort asked for while rows were read, wait for the work before them.
        startGroups()
        if !loading, self.running == nil, let pending = pendingSort { startSort(pending) }
        takeNewRows(data)
        clampPosition(data)
    }

    /// The status line's note of the running work: `sorting by Qty… 43%`.
    var runningNote: String? {
        guard let running else { return nil }
        let percent = "\(Int(running.fraction * 100))%"
        switch running.work.kind {
        case .sort(let column, let descending):
            let heading = columns.indices.contains(column) ? columns[column].heading : "column \(column + 1)"
            return "sorting by \(heading)\(descending ? " ▼" : "")… \(percent)"
        case .filter(let text): return "filtering \(text)… \(percent)"
        case .search(let text): return "searching \(text)… \(percent)"
        case .group: return "grouping… \(percent)"
        }
    }
}

extension ViewWork.Kind {
    /// What it is called when it is stopped by another.
    var name: String {
        switch self {
        case .sort: "sort"
        case .filter: "filter"
        case .search: "search"
        case .group: "grouping"
        }
    }
}
