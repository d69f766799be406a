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
/// What the person asked the view to end with.
package enum ViewExit: Equatable, Sendable {
    /// `q`: leave, writing the selected rows.
    case quit
    /// `Ctrl-C`: leave without writing (exit 130).
    case interrupt
}

/// Everything the view shows, and how a key changes it (V2–V6). Pure: a key and the rows give
/// the next state, and the work it asks for (`running`: a sort, a filter, a search, done by a
/// `ViewRunner` whose messages `apply` takes in, ViewState+Work.swift); `frame` draws it
/// (ViewFrame.swift). The terminal loop (`TerminalSession`) only reads keys and messages, hands
/// them to the model, and writes the lines of the frame that changed.
struct ViewState {
    enum Mode: Equatable {
        case table
        /// A row's detail sheet, scrolled down `scroll` lines.
        case detail(scroll: Int)
        /// The key list.
        case help
        /// What the status line said (`M`), scrolled up `scroll` lines from the newest.
        case messages(scroll: Int)
        /// Typing a search (`/`) or a filter (`&`).
        case prompt(Prompt, String)
        /// `F` was pressed: a digit follows.
        case freeze
        /// Editing a field, or a question about edits (V10, ViewState+Edit.swift).
        case edit(EditPrompt)
    }

    enum Prompt: Equatable { case search, filter }

    /// A `&` filter: the rows shown, in view order, and how many rows it has looked at.
    struct Filter {
        var text: String
        var match: TextMatch
        var ids: [Int32]
        var scanned: Int
    }

    /// A `/` search: which rows have a match (one byte a row) and how many cells match.
    struct Search {
        var text: String
        var match: TextMatch
        var hits: [Bool]
        var cells: Int
        /// The rows added in the view that hold a match.
        var added: Set<Int> = []
    }

    // MARK: Settings

    let options: FormatOptions
    let measure: DisplayWidth
    /// Colours allowed (else only bold, underline and reverse video: `NO_COLOR`, V3).
    let color: Bool
    /// The name the status line shows: the input's, then the file last saved under another name.
    var source: String

    // MARK: Shape

    private(set) var width: Int
    private(set) var height: Int
    /// Input columns' profiles (from every row read so far) and names.
    var profiles: [ColumnProfile] = []
    /// The input columns shown, in order (`--columns`, W9).
    var shown: [Int] = []
    /// The shown columns as laid out (widths as resized by `<` `>`), and as computed.
    var columns: [ColumnLayout] = []
    var computed: [Int] = []
    /// The detail sheet's plan: the list report's, at the screen's width (W8).
    var sheet: LayoutPlan?
    /// Lines the headings take (C5).
    var headingLines = 1
    /// The input names its columns (JSON): a sheet is an outline, open down to `sheetOpen` levels (V4).
    var keyed = false
    var sheetOpen = Int.max / 2

    // MARK: Rows

    /// Rows read so far, and whether more may come.
    private(set) var loaded = 0
    private(set) var loading = true
    /// The data error that ended reading, shown in the status line.
    var loadError: String?
    /// Row numbers in sorted order (nil: input order); set through `setOrder`, which bumps
    /// `orderStamp` (a filter asked for under another order lists its rows again).
    private(set) var order: [Int32]?
    private(set) var orderStamp = 0
    /// The input rows the order was made over (`0..<orderCovers`): rows read later take their
    /// places in it as they come. Not the order's count: added rows are in it, and rows a save
    /// dropped are not.
    private(set) var orderCovers = 0
    /// The sort: a shown column and its direction (V3).
    var sort: (column: Int, descending: Bool)?
    /// A sort asked for while rows are still coming: applied once they are all read.
    var pendingSort: (column: Int, descending: Bool)?
    /// The filter's rows; rows a save dropped are never among them (a filter looks at every row
    /// of the store).
    var filter: Filter? {
        didSet {
            let dropped = editing.edits.dropped
            if !dropped.isEmpty, var f = filter, f.ids.contains(where: { dropped.contains(Int($0)) }) {
                f.ids.removeAll { dropped.contains(Int($0)) }
                filter = f
            }
        }
    }
    var search: Search?
    /// `--group-by`: the rows by group, once every row is read.
    var groups: ViewGroups?
    /// A value was edited since the groups were made: they are made again (members and footers'
    /// sums, by the same work), the ones made before shown meanwhile.
    var groupsStale = false
    private(set) var selected = Set<Int32>()

    /// Unchecks `ids` (rows a save dropped: the selection no longer refers to them).
    mutating func unselect(_ ids: Set<Int32>) { selected.subtract(ids) }
    /// Checks row `id`, or unchecks it when it is checked (Space).
    mutating func toggleSelected(_ id: Int32) { if selected.remove(id) == nil { selected.insert(id) } }
    /// Checks rows `ids` (`a`), or unchecks every row (`A`).
    mutating func select(_ ids: some Sequence<Int32>) { selected.formUnion(ids) }
    mutating func unselectAll() { selected.removeAll() }
    /// The sort, filter or search asked for and not yet answered (V8: off the key loop).
    var running: Running?
    /// Works asked for so far (each work's id is the count then).
    var workCount = 0
    /// `Esc` stopped the grouping (`--group-by`): the rows stay ungrouped.
    var groupsStopped = false
    /// Following the rows as they come (V9, ViewState+Follow.swift).
    var follow = FollowState()

    // MARK: Position

    /// The current row (in view order) and the first row on screen.
    var current = 0
    var top = 0
    /// The focused column (index into `columns`), the first scrolled column after the frozen
    /// ones, and how many leading columns are frozen (`F` digit, V2).
    var focus = 0
    var left = 1
    /// How many leading columns are frozen: as many as asked, at most as many as there are (none
    /// before a followed file's header has come: the first then is still frozen once it does).
    var frozen: Int { min(frozenAsked, columns.count) }
    private var frozenAsked = 1
    /// Freezes the first `n` columns (`F` and a digit).
    mutating func freeze(_ n: Int) { frozenAsked = max(0, n) }
    var mode: Mode = .table
    /// A one-off message for the status line (`no match`, …); each is kept in `said`.
    var message: String? {
        didSet {
            guard let message, message != said.last else { return }
            said.append(message)
            if said.count > 100 { said.removeFirst(said.count - 100) }
        }
    }
    /// How far the key list (`?`) is scrolled down.
    var helpScroll = 0
    /// The last messages said, oldest first (`M` shows them whole, as the status line may cut them).
    var said: [String] = []
    var exit: ViewExit?
    /// The edits and what they ask for (V10).
    var editing = EditSession()
    /// A save running off the key loop: its status note (`saving to data.csv… 43% (Esc stops
    /// it)`); edits wait until it is done. Set by the model.
    var savingNote: String?

    /// A view of a `width` × `height` screen.
    init(options: FormatOptions, source: String, color: Bool, width: Int, height: Int) {
        self.options = options
        self.measure = DisplayWidth(ambiguousIsWide: options.ambiguousWide)
        self.color = color
        self.source = source
        self.width = max(1, width)
        self.height = max(1, height)
    }

    // MARK: - Rows and size

    /// Rows in the view (after the filter).
    var count: Int { filter?.ids.count ?? order?.count ?? editing.edits.count(loaded: loaded) }

    /// The row number (in the input) of view row `row`.
    func id(at row: Int) -> Int {
        if let filter { return Int(filter.ids[row]) }
        if let order { return Int(order[row]) }
        return editing.edits.reorders ? editing.edits.id(at: row) : row
    }

    /// Sets the order (nil: input order), noting that it changed.
    mutating func setOrder(_ new: [Int32]?) {
        let dropped = editing.edits.dropped
        order = dropped.isEmpty ? new : new?.filter { !dropped.contains(Int($0)) }
        orderCovers = Int(new?.max() ?? -1) + 1
        orderStamp += 1
    }

    /// Lines for rows: the screen less the headings, their rule and the status line.
    var bodyLines: Int { max(1, height - headingLines - 2) }

    /// Takes in what the loader has read: more rows, columns sized from more rows, the end.
    /// Filters and searches reach the new rows; a sort waiting for the last row is applied.
    mutating func update(columns names: [String], profiles: [ColumnProfile], rows: Int, done: Bool, error: InputError?, from data: any ViewRows) {
        let grew = names.count != self.profiles.count || shown.isEmpty
        let resized = grew || (done && loading) || !profilesSettled
        self.profiles = profiles
        if grew {
            shown = ((try? options.columns?.resolve(in: names)) ?? nil) ?? Array(names.indices)
        }
        let before = loaded
        loaded = rows
        loading = !done
        loadError = error.map { "\($0)" }
        if resized { relayoutGrowing() }
        if before < rows {
            if order == nil, var f = filter, f.scanned < rows {
                extend(&f, data: data)
                filter = f
            }
            if var s = search {
                Self.mark(&s, rows: before..<rows, sources: columns.map(\.source), data: data)
                search = s
            }
        }
        if done { startGroups() }
        if done, running == nil, let pending = pendingSort { startSort(pending) }
        takeNewRows(data)
        clampPosition(data)
    }

    /// Profiles from the first window are replaced by every row's once the input is read.
    private var profilesSettled: Bool { !loading }

    /// A new screen size (SIGWINCH): the view is laid out again, widths recomputed.
    mutating func resize(width: Int, height: Int, data: any ViewRows) {
        self.width = max(1, width)
        self.height = max(1, height)
        relayout()
        clampPosition(data)
    }

    /// Lines view row `row` takes on screen, its group's heading and footer included.
    func lines(_ row: Int, _ data: any ViewRows) -> Int {
        (options.cellLines > 1 ? data.record(id(at: row)).withFields { rowHeight($0) } : 1) + groupLines(row)
    }

    /// Lines a row takes: one, or with `--wrap 2` two when a text cell is wider than its column
    /// or holds a line break (C6, as the printed table decides).
    func rowHeight(_ fields: Fields) -> Int {
        guard options.cellLines > 1 else { return 1 }
        for column in columns {
            let cell = fields[column.source]
            if cell.isEmpty || (column.numberParts != nil && NumberShape.parse(cell) != nil) { continue }
            if cell.contains(0x0A) || measure.width(utf8: cell) > column.width { return min(2, options.cellLines) }
        }
        return 1
    }

    /// Plans the columns for the screen width, as the printed table would at that width, each
    /// column at its natural width capped as W3 caps it; the detail sheet as a list report.
    mutating func relayout() {
        guard !profiles.isEmpty else { return }
        var plan = options
        plan.layout = .pages
        plan.width = width
        let pages = Layout.plan(profiles, selection: shown, options: plan)
        let cap = Layout.Bounds.widest(container: max(1, width - options.style.edges), gap: options.style.gap, options: options)
        let resizedBefore = columns.count == pages.columns.count ? zip(columns, computed).map { $0.width != $1 } : []
        let previous = columns
        columns = pages.columns.map { column in
            var column = column
            if column.numberParts == nil { column.width = min(column.width, cap) }
            return column
        }
        computed = columns.map(\.width)
        // Columns the person resized keep their width.
        for (k, resized) in resizedBefore.enumerated() where resized { columns[k].width = previous[k].width }
        headingLines = columns.map { measure.fitHeading($0.heading, width: $0.width, maxLines: 2, ellipsis: options.ellipsis).count }.max() ?? 1
        headingLines = max(1, min(headingLines, max(1, height - 3)))
        var list = options
        list.layout = .list
        list.width = width
        sheet = Layout.plan(profiles, selection: shown, options: list)
        left = max(frozen, min(left, max(frozen, columns.count - 1)))
    }
}
