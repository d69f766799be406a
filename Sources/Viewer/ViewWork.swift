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
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Work the view asks for that goes through every row (V3, V5, V8): a sort, a filter, a search.
/// It is a value the state holds while it waits for the answer (`ViewState.running`); a
/// `ViewRunner` does it on another thread and answers with `ViewMessage`s, which the state takes
/// in (`ViewState.apply`) unless the work was cancelled or replaced meanwhile. Everything the
/// work needs is in the value, so it reads nothing of the state while it runs.
struct ViewWork: Sendable {
    /// What the work is, as the status line and the tests name it.
    enum Kind: Equatable, Sendable {
        /// By a shown column (an index into the view's columns), ascending or descending.
        case sort(column: Int, descending: Bool)
        /// The rows with a shown cell containing the text (V5).
        case filter(text: String)
        /// The cells containing the text (V5).
        case search(text: String)
        /// Every row by group (`--group-by`, W12), once every row is read.
        case group
    }

    /// Tells one work from the next: a message of another id than the running one is dropped.
    let id: Int
    let kind: Kind
    /// Rows read when it was asked for: it goes through rows `0..<rows`.
    let rows: Int
    /// The input columns shown (a filter and a search look at these only).
    var sources: [Int] = []
    /// Sort: the input column, whether it sorts as numbers, and what its values may hold in
    /// memory before they are sorted on disk (`--memory-limit`).
    var source = 0
    var numeric = false
    var budget = Int.max
    /// Sort: the groups the rows are sorted within (`--group-by`).
    var groups: ViewGroups?
    /// Sort: the rows the filter keeps, which the new order keeps too (nil: no filter).
    var kept: [Int32]?
    /// Filter: the view's order the kept rows are listed in (nil: input order), and its stamp.
    var order: [Int32]?
    var orderStamp = 0
    /// Filter and search: the text as matched.
    var match: TextMatch?
    /// Group: the groups' heading label, the shown columns summed in footers (indexes into
    /// `sources`); `source` is the column grouped by.
    var label = ""
    var summed: [Int] = []
}

/// What a running work tells the view: how far it is, then its answer (or why there is none).
/// A cancelled work says nothing more.
enum ViewMessage: Sendable {
    /// The work `id` is this far (0…1).
    case progress(id: Int, fraction: Double)
    /// The row numbers in the new order; and those of them the filter keeps (nil: no filter).
    case sorted(id: Int, order: [Int32], kept: [Int32]?)
    /// The rows the filter keeps, in the order the work was given.
    case filtered(id: Int, ids: [Int32])
    /// Which rows hold a match (by row number), and how many cells match.
    case searched(id: Int, hits: [Bool], cells: Int)
    /// Every row's group, and the groups (`--group-by`).
    case grouped(id: Int, groups: ViewGroups)
    /// The work could not be done (a sort whose temporary files cannot be written).
    case failed(id: Int, message: String)

    /// The work it is about.
    var id: Int {
        switch self {
        case .progress(let id, _), .sorted(let id, _, _), .filtered(let id, _), .searched(let id, _, _), .grouped(let id, _), .failed(let id, _): id
        }
    }
}

/// How a work reports while it runs: `going(fraction)` says how far it is, and is false once the
/// work is cancelled (it then stops and answers nothing).
struct WorkProgress: Sendable {
    let going: @Sendable (Double) -> Bool

    /// Every row `0..<rows` of `data` through `body`, reporting `from…to` of the work as they
    /// pass, every 4,096 rows. - Returns: false when cancelled on the way.
    func scan(_ data: any ViewRows, rows: Int, from: Double = 0, to: Double = 1, _ body: (Int, Fields) -> Void) -> Bool {
        scan(data, 0..<rows, from: from, to: to, body)
    }

    /// Rows `range` of `data` through `body`, reporting as `scan(_:rows:)` does.
    func scan(_ data: any ViewRows, _ range: Range<Int>, from: Double = 0, to: Double = 1, _ body: (Int, Fields) -> Void) -> Bool {
        var going = self.going(from)
        guard going else { return false }
        let span = (to - from) / Double(max(1, range.count))
        let first = range.lowerBound
        data.scan(range) { id, fields in
            body(id, fields)
            if (id - first) & 4095 == 4095 { going = self.going(from + span * Double(id - first + 1)) }
            return going
        }
        return going && self.going(to)
    }
}

extension WorkProgress {
    /// Threads a scan of many rows runs on: the machine's cores, at most two (a scan is most of a
    /// sort's or a filter's time; the key loop needs little).
    static let threads = max(1, min(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

    /// How `scanInParts` cuts `rows` rows: how many parts, and the rows in each but the last
    /// (part `k` holds rows `k * size ..< (k + 1) * size`).
    static func parts(rows: Int) -> (count: Int, size: Int) {
        let count = rows >= 1 << 16 ? threads : 1
        return (count, max(1, (rows + count - 1) / count))
    }

    /// Rows `0..<rows` of `data` in `threads` parts at once, one thread each, reporting `from…to`
    /// of the work as they pass: `body(part, id, fields)` for every row, each part's rows in
    /// order. `body` may write to the rows' own places in memory only (parts run together).
    /// - Returns: false when cancelled on the way.
    func scanInParts(_ data: any ViewRows, rows: Int, from: Double = 0, to: Double = 1, _ body: (Int, Int, Fields) -> Void) -> Bool {
        let (parts, size) = Self.parts(rows: rows)
        guard parts > 1 else { return scan(data, 0..<rows, from: from, to: to) { body(0, $0, $1) } }
        guard going(from) else { return false }
        let span = (to - from) / Double(max(1, rows))
        let counts = Locked([Int](repeating: 0, count: parts))
        let stopped = Locked(false)
        let reader = Handed(data)
        withoutActuallyEscaping(body) { body in
            let work = Handed(body)
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let range = (part * size)..<min(rows, (part + 1) * size)
                reader.value.scan(range) { id, fields in
                    work.value(part, id, fields)
                    let k = id - range.lowerBound + 1
                    guard k & 4095 == 0 else { return true }
                    let total = counts.withLock { counts in
                        counts[part] = k
                        return counts.reduce(0, +)
                    }
                    if going(from + span * Double(total)) { return true }
                    stopped.withLock { $0 = true }
                    return false
                }
            }
        }
        return !stopped.current && going(to)
    }
}


extension ViewWork {
    /// Does the work over `data`. - Returns: its answer, or nil when cancelled.
    func run(_ data: any ViewRows, _ progress: WorkProgress) -> ViewMessage? {
        switch kind {
        case .sort: return runSort(data, progress)
        case .filter: return runFilter(data, progress)
        case .search: return runSearch(data, progress)
        case .group:
            guard let made = ViewGroups(data, rows: rows, source: source, label: label, shown: sources, summed: summed, progress: progress) else { return nil }
            return .grouped(id: id, groups: made)
        }
    }

    private func runSort(_ data: any ViewRows, _ progress: WorkProgress) -> ViewMessage? {
        guard case .sort(_, let descending) = kind else { return nil }
        let sorted: [Int32]?
        do {
            sorted = numeric
                ? ViewState.numberOrder(data, rows: rows, column: source, descending: descending, progress: progress)
                : try ViewState.textOrder(data, rows: rows, column: source, descending: descending, budget: budget, progress: progress)
        } catch {
            // As the command line says it (`WHERE: what`): the folder the runs could not be made in.
            return .failed(id: id, message: "cannot sort: \(error.source.isEmpty ? "" : error.source + ": ")\(error.message)")
        }
        guard let sorted else { return nil }
        let order = groups.map { $0.arrange(sorted) } ?? sorted  // with groups, sorted within each
        return .sorted(id: id, order: order, kept: kept.map { ViewState.reorder($0, along: order, rows: rows) })
    }

    private func runFilter(_ data: any ViewRows, _ progress: WorkProgress) -> ViewMessage? {
        guard let match else { return nil }
        var keep = [Bool](repeating: false, count: rows)
        let sources = self.sources
        let scanned = keep.withUnsafeMutableBufferPointer { keep in
            progress.scanInParts(data, rows: rows) { _, id, fields in
                keep[id] = sources.contains { match.matches(fields[$0]) }
            }
        }
        guard scanned else { return nil }
        // An order may hold added rows (negative ids): the view looks at those itself.
        let ids: [Int32] = order.map { $0.filter { $0 >= 0 && Int($0) < rows && keep[Int($0)] } } ?? keep.indices.compactMap { keep[$0] ? Int32($0) : nil }
        return .filtered(id: id, ids: ids)
    }

    private func runSearch(_ data: any ViewRows, _ progress: WorkProgress) -> ViewMessage? {
        guard let match else { return nil }
        var hits = [Bool](repeating: false, count: rows)
        var cells = [Int](repeating: 0, count: WorkProgress.threads)
        let sources = self.sources
        let scanned = hits.withUnsafeMutableBufferPointer { hits in
            cells.withUnsafeMutableBufferPointer { cells in
                progress.scanInParts(data, rows: rows) { part, id, fields in
                    var n = 0
                    for source in sources where match.matches(fields[source]) { n += 1 }
                    hits[id] = n > 0
                    cells[part] += n
                }
            }
        }
        guard scanned else { return nil }
        return .searched(id: id, hits: hits, cells: cells.reduce(0, +))
    }
}
