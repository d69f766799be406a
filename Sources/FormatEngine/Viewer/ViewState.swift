/// What the person asked the view to end with.
package enum ViewExit: Equatable, Sendable {
    /// `q`: leave, writing the selected rows.
    case quit
    /// `Ctrl-C`: leave without writing (exit 130).
    case interrupt
}

/// Everything the view shows, and how a key changes it (V2–V6). Pure: a key and the rows give
/// the next state; `frame` draws it (ViewFrame.swift). The terminal loop (`ViewSession`) only
/// reads keys, calls `handle`, and writes the lines of the frame that changed.
struct ViewState {
    enum Mode: Equatable {
        case table
        /// A row's detail sheet, scrolled down `scroll` lines.
        case detail(scroll: Int)
        /// The key list.
        case help
        /// Typing a search (`/`) or a filter (`&`).
        case prompt(Prompt, String)
        /// `F` was pressed: a digit follows.
        case freeze
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
    }

    // MARK: Settings

    let options: FormatOptions
    let measure: DisplayWidth
    /// Colours allowed (else only bold, underline and reverse video: `NO_COLOR`, V3).
    let color: Bool
    /// The input's name, for the status line.
    let source: String

    // MARK: Shape

    private(set) var width: Int
    private(set) var height: Int
    /// Input columns' profiles (from every row read so far) and names.
    var profiles: [ColumnProfile] = []
    /// The input columns shown, in order (`--columns`, W9).
    var shown: [Int] = []
    /// The shown columns as laid out (widths as resized by `<` `>`), and as computed.
    private(set) var columns: [ColumnLayout] = []
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
    /// Row numbers in sorted order (nil: input order).
    var order: [Int32]?
    /// The sort: a shown column and its direction (V3).
    private(set) var sort: (column: Int, descending: Bool)?
    /// A sort asked for while rows are still coming: applied once they are all read.
    var pendingSort: (column: Int, descending: Bool)?
    var filter: Filter?
    var search: Search?
    /// `--group-by`: the rows by group, once every row is read.
    var groups: ViewGroups?
    private(set) var selected = Set<Int32>()

    // MARK: Position

    /// The current row (in view order) and the first row on screen.
    private(set) var current = 0
    var top = 0
    /// The focused column (index into `columns`), the first scrolled column after the frozen
    /// ones, and how many leading columns are frozen (`F` digit, V2).
    private(set) var focus = 0
    var left = 1
    private(set) var frozen = 1
    private(set) var mode: Mode = .table
    /// A one-off message for the status line (`no match`, …).
    var message: String?
    private(set) var exit: ViewExit?

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
    var count: Int { filter?.ids.count ?? order?.count ?? loaded }

    /// The row number (in the input) of view row `row`.
    func id(at row: Int) -> Int {
        if let filter { return Int(filter.ids[row]) }
        if let order { return Int(order[row]) }
        return row
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
        if resized { relayout() }
        if before < rows {
            if order == nil, var f = filter {
                extend(&f, data: data)
                filter = f
            }
            if var s = search {
                mark(&s, rows: before..<rows, data: data)
                search = s
            }
        }
        if done { applyGroups(data: data) }
        if done, let pending = pendingSort {
            pendingSort = nil
            applySort(pending, data: data)
        }
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
        let gap = options.style.gap
        let cap = max(1, options.maxWidth?.resolve(in: width) ?? (width / 2 - gap))
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
        left = max(left, min(frozen, columns.count))
    }

    // MARK: - Keys

    /// What `key` does (V2–V6). `data` gives rows to sort, filter and search.
    mutating func handle(_ key: ViewKey, data: any ViewRows) {
        message = nil
        switch mode {
        case .table: tableKey(key, data: data)
        case .detail(let scroll): detailKey(key, scroll: scroll, data: data)
        case .help: mode = .table
        case .prompt(let prompt, let text): promptKey(key, prompt: prompt, text: text, data: data)
        case .freeze:
            mode = .table
            if case .character(let c) = key, let digit = c.wholeNumberValue {
                frozen = min(digit, columns.count)
                left = max(frozen, min(left, max(frozen, columns.count - 1)))
                if frozen > 0 { focus = max(focus, 0) }
                message = frozen == 0 ? "no column frozen" : "\(frozen) column\(frozen == 1 ? "" : "s") frozen"
            }
        }
        if key == .control("c") { exit = .interrupt }
        clampPosition(data)
    }

    private mutating func tableKey(_ key: ViewKey, data: any ViewRows) {
        switch key {
        case .down, .character("j"), .control("n"), .control("e"): current += 1
        case .up, .character("k"), .control("p"), .control("y"): current -= 1
        case .pageDown, .character("f"), .control("f"), .control("d"): page(+1)
        case .pageUp, .character("b"), .control("b"), .control("u"): page(-1)
        case .home, .character("g"): current = 0
        case .end, .character("G"): current = count - 1
        case .right, .character("l"): moveFocus(to: focus + 1)
        case .left, .character("h"): moveFocus(to: focus - 1)
        case .character("0"), .character("^"): moveFocus(to: 0)
        case .character("$"): moveFocus(to: columns.count - 1)
        case .wheelDown:
            top += 3
            current += 3
        case .wheelUp:
            top = max(0, top - 3)
            current -= 3
        case .character("F"): mode = .freeze
        case .character("s"): cycleSort(column: focus, data: data)
        case .character("<"): resize(focus, by: -2)
        case .character(">"): resize(focus, by: +2)
        case .character("="):
            for k in columns.indices { columns[k].width = computed[k] }
        case .enter: if count > 0 { mode = .detail(scroll: 0) }
        case .character("/"): mode = .prompt(.search, "")
        case .character("&"): mode = .prompt(.filter, "")
        case .character("n"): findNext(forward: true, data: data)
        case .character("N"): findNext(forward: false, data: data)
        case .character(" "):
            guard count > 0 else { return }
            let id = Int32(self.id(at: current))
            if selected.remove(id) == nil { selected.insert(id) }
            current += 1
        case .character("a"): for row in 0..<count { selected.insert(Int32(id(at: row))) }
        case .character("A"): selected.removeAll()
        case .character("?"): mode = .help
        case .character("q"): exit = .quit
        case .escape:
            search = nil
        case .click(let x, let y): click(x: x, y: y, data: data)
        default: break
        }
    }

    private mutating func detailKey(_ key: ViewKey, scroll: Int, data: any ViewRows) {
        let page = max(1, height - 2)
        switch key {
        case .right, .enter, .character("l"):
            if keyed { sheetOpen = min(sheetOpen, outline(data).depth) + 1 }
        case .left, .character("h"):
            if keyed { sheetOpen = max(1, min(sheetOpen, outline(data).depth) - 1) }
        case .escape, .character("q"), .backspace: mode = .table
        case .down, .character("j"):
            if current + 1 < count { current += 1; mode = .detail(scroll: 0) }
        case .up, .character("k"):
            if current > 0 { current -= 1; mode = .detail(scroll: 0) }
        case .pageDown, .character(" "), .character("f"), .control("f"), .wheelDown: mode = .detail(scroll: scroll + (key == .wheelDown ? 3 : page))
        case .pageUp, .character("b"), .control("b"), .wheelUp: mode = .detail(scroll: max(0, scroll - (key == .wheelUp ? 3 : page)))
        case .home, .character("g"): mode = .detail(scroll: 0)
        case .end, .character("G"): mode = .detail(scroll: Int.max / 2)
        default: break
        }
    }

    private mutating func promptKey(_ key: ViewKey, prompt: Prompt, text: String, data: any ViewRows) {
        switch key {
        case .escape, .control("c"), .control("g"): mode = .table
        case .backspace:
            if text.isEmpty { mode = .table } else { mode = .prompt(prompt, String(text.dropLast())) }
        case .control("u"): mode = .prompt(prompt, "")
        case .character(let c): mode = .prompt(prompt, text + String(c))
        case .tab: mode = .prompt(prompt, text + " ")
        case .enter:
            mode = .table
            switch prompt {
            case .search: startSearch(text, data: data)
            case .filter: applyFilter(text, data: data)
            }
        default: break
        }
    }

    // MARK: - Moving

    private mutating func page(_ direction: Int) {
        let rows = max(1, bodyLines / max(1, min(2, options.cellLines)))
        current += direction * rows
        top += direction * rows
    }

    private mutating func moveFocus(to column: Int) {
        focus = max(0, min(column, columns.count - 1))
        scrollToFocus()
    }

    /// Keeps the current row on screen and every index in range. With `--wrap 2` rows take one or
    /// two lines, so the rows from `top` to the current one are measured (`data`).
    mutating func clampPosition(_ data: (any ViewRows)? = nil) {
        current = max(0, min(current, count - 1))
        if current < top { top = current }
        if current >= top + bodyLines { top = current - bodyLines + 1 }
        top = max(0, min(top, max(0, count - bodyLines)))
        if options.cellLines > 1 || groups != nil, let data, count > 0 {
            var heights = (top...current).map { row in lines(row, data) }
            var total = heights.reduce(0, +)
            while total > bodyLines && top < current {
                total -= heights.removeFirst()
                top += 1
            }
        }
        focus = max(0, min(focus, columns.count - 1))
        frozen = min(frozen, columns.count)
        if case .detail(let scroll) = mode, scroll > 0 {
            mode = .detail(scroll: scroll)  // clamped when drawn (the sheet's length is known there)
        }
    }

    /// Scrolls columns so the focused one is on screen.
    mutating func scrollToFocus() {
        guard !columns.isEmpty else { return }
        if focus < frozen { return }
        if focus < left { left = focus; return }
        // Scrolled until the focused column shows whole (or leads the scrolled columns).
        while left < focus, !placedColumns().contains(where: { $0.index == focus && $0.width == shownWidth(focus) }) { left += 1 }
    }

    /// Narrows (`<`) or widens (`>`) a column; text in it is cut, never a number (C7: a number
    /// narrower than its column is shown cut with `…`, so it cannot be misread as a whole value).
    private mutating func resize(_ column: Int, by delta: Int) {
        guard columns.indices.contains(column) else { return }
        columns[column].width = max(1, min(width, columns[column].width + delta))
        scrollToFocus()
    }

    private mutating func click(x: Int, y: Int, data: any ViewRows) {
        let placed = placedColumns()
        let hit = placed.first { x >= $0.x && x < $0.x + $0.width + options.style.gap }
        if y < headingLines {
            if let hit {
                focus = hit.index
                cycleSort(column: hit.index, data: data)
            }
        } else if y > headingLines && y <= headingLines + bodyLines {
            // The row drawn on line y (rows may take two lines, C6).
            var line = headingLines + 1
            var row = top
            while row < count {
                let height = lines(row, data)
                if y < line + height { break }
                line += height
                row += 1
            }
            guard row < count else { return }
            current = row
            if let hit { focus = hit.index }
            mode = .detail(scroll: 0)
        }
    }

    // MARK: - Columns on screen

    /// A column as placed on screen: its index in `columns`, its first screen column and width.
    struct Placed: Equatable {
        var index: Int
        var x: Int
        var width: Int
    }

    /// A column's width on screen: the sorted one has room for its ▲ or ▼ after the heading.
    func shownWidth(_ k: Int) -> Int {
        let w = columns[k].width
        guard let sort = sort ?? pendingSort, sort.column == k else { return w }
        let last = measure.fitHeading(columns[k].heading, width: w, maxLines: headingLines, ellipsis: options.ellipsis).last?.width ?? 0
        return max(w, min(last + 2, width))
    }

    /// The left accessory column (checkmarks) is there once a row is selected.
    var accessoryWidth: Int { selected.isEmpty ? 0 : 2 }

    /// The frozen columns, then the scrolled ones from `left` that fit. Scrolled right, a frozen
    /// column narrows to at most a quarter of the width (V2). A column that does not fit whole is
    /// cut to the space left, so the focused column always shows.
    func placedColumns() -> [Placed] {
        var placed: [Placed] = []
        let gap = options.style.gap
        var x = accessoryWidth
        let quarter = max(1, width / 4)
        for k in 0..<min(frozen, columns.count) {
            var w = shownWidth(k)
            if left > frozen { w = min(w, quarter) }
            w = min(w, width - x)
            guard w > 0 else { break }
            placed.append(Placed(index: k, x: x, width: w))
            x += w + gap
        }
        var k = max(left, frozen)
        while k < columns.count && x < width {
            let w = min(shownWidth(k), width - x)
            if w < shownWidth(k) && !placed.isEmpty && k != focus && w < 3 { break }
            placed.append(Placed(index: k, x: x, width: w))
            x += w + gap
            k += 1
        }
        return placed
    }

    // MARK: - Sorting (V3)

    /// `--sort COL`: the view opens sorted (once every row is read).
    mutating func requestSort(_ key: SortKey, data: any ViewRows) {
        let names = profiles.map(\.name)
        guard let source = try? key.column.resolve(in: names), let column = columns.firstIndex(where: { $0.source == source }) else { return }
        if loading {
            pendingSort = (column, key.descending)
        } else {
            applySort((column, key.descending), data: data)
        }
    }

    /// `s`: ascending, then descending, then the input's order again.
    private mutating func cycleSort(column: Int, data: any ViewRows) {
        let next: (column: Int, descending: Bool)?
        let now = sort ?? pendingSort
        if let now, now.column == column {
            next = now.descending ? nil : (column, true)
        } else {
            next = (column, false)
        }
        guard let next else {
            sort = nil
            pendingSort = nil
            order = groups.map { $0.arrange((0..<Int32(loaded)).map { $0 }) }
            refilter(data: data)
            current = 0
            top = 0
            return
        }
        if loading {
            pendingSort = next
            message = "sorted once every row is read"
        } else {
            applySort(next, data: data)
        }
    }

    /// Sorts an index of row numbers, never the rows: by the column's values as `--sort` orders
    /// them (numbers by value, dates by their text, empty last, stable).
    mutating func applySort(_ key: (column: Int, descending: Bool), data: any ViewRows) {
        guard columns.indices.contains(key.column) else { return }
        let source = columns[key.column].source
        let numeric = profiles.indices.contains(source) && profiles[source].isNumeric
        let sorted: [Int32]
        if numeric {
            sorted = Self.numberOrder(data, rows: loaded, column: source, descending: key.descending)
        } else {
            do {
                sorted = try Self.textOrder(data, rows: loaded, column: source, descending: key.descending, budget: options.memoryLimit)
            } catch {
                message = "cannot sort: \(error.message)"
                return
            }
        }
        order = groups.map { $0.arrange(sorted) } ?? sorted  // with groups, sorted within each
        sort = key
        refilter(data: data)
        current = 0  // the first rows of the new order
        top = 0
    }

    /// Row numbers in the order of a numeric column: its values held as 8-byte numbers (NaN for
    /// an empty or null-like cell, last either way), ties in input order (W11).
    static func numberOrder(_ data: any ViewRows, rows: Int, column: Int, descending: Bool) -> [Int32] {
        var values: [Double] = []
        values.reserveCapacity(rows)
        data.scan(0..<rows) { _, fields in
            if case .number(let number)? = RowOrder.value(fields, column, numeric: true) { values.append(number) } else { values.append(.nan) }
            return true
        }
        var ids = (0..<Int32(values.count)).map { $0 }
        values.withUnsafeBufferPointer { values in
            ids.sort { a, b in
                let x = values[Int(a)], y = values[Int(b)]
                if x.isNaN || y.isNaN { return x.isNaN == y.isNaN ? a < b : y.isNaN }
                if x != y { return descending ? y < x : x < y }
                return a < b
            }
        }
        return ids
    }

    /// Row numbers in the order of a text column, by `--sort`'s comparison (W11). The column's
    /// values are held while they take at most `budget` bytes (`--memory-limit`); past that they
    /// are sorted in runs on disk and merged, as `--sort` does (P2), and only the order is kept.
    /// - Throws: `InputError` when a temporary file cannot be written.
    static func textOrder(_ data: any ViewRows, rows: Int, column: Int, descending: Bool, budget: Int) throws(InputError) -> [Int32] {
        guard let values = heldTextValues(data, rows: rows, column: column, budget: budget) else {
            return try textOrderOnDisk(data, rows: rows, column: column, descending: descending, budget: budget)
        }
        var ids = (0..<Int32(values.count)).map { $0 }
        values.withUnsafeBufferPointer { values in
            ids.sort { a, b in RowOrder.before(values[Int(a)], values[Int(b)], descending: descending) ?? (a < b) }
        }
        return ids
    }

    /// A text column's sort values, or nil as soon as they would take more than `budget` bytes
    /// (each value's slot, and the text of one too long to be stored in it).
    static func heldTextValues(_ data: any ViewRows, rows: Int, column: Int, budget: Int) -> [RowOrder.Value?]? {
        var values: [RowOrder.Value?] = []
        var bytes = 0
        var fits = true
        data.scan(0..<rows) { _, fields in
            let cell = fields[column]
            // A `String` holds up to 15 UTF-8 bytes in itself; a longer one is on the heap, after
            // a header of about 32 bytes.
            bytes += MemoryLayout<RowOrder.Value?>.stride + (cell.count > 15 ? 32 + cell.count : 0)
            fits = bytes <= budget
            if fits { values.append(RowOrder.value(fields, column, numeric: false)) }
            return fits
        }
        return fits ? values : nil
    }

    /// `textOrder` beyond the budget: each row's cell with its row number, sorted in runs in
    /// temporary files and merged (`ExternalSort`: empty cells last, ties in input order).
    static func textOrderOnDisk(_ data: any ViewRows, rows: Int, column: Int, descending: Bool, budget: Int) throws(InputError) -> [Int32] {
        let sort = ExternalSort(keys: [(0, descending)], budget: budget)
        var record = Record()
        var failure: InputError?
        data.scan(0..<rows) { id, fields in
            record.clear()
            record.append(fields[column])
            do throws(InputError) { try sort.add(record, numeric: [false], number: id) } catch {
                failure = error
                return false
            }
            return true
        }
        if let failure { throw failure }
        try sort.finish(numeric: [false])
        var ids: [Int32] = []
        ids.reserveCapacity(sort.count)
        do {
            try sort.merge(numeric: [false]) { _, number in
                ids.append(Int32(truncatingIfNeeded: number))
                return true
            }
        } catch {
            switch error {
            case .input(let error): throw error
            case .output: break  // the body writes nothing
            }
        }
        return ids
    }

    /// View row of input row `id`, if shown.
    func row(of id: Int) -> Int? {
        if let filter { return filter.ids.firstIndex(of: Int32(id)) }
        if let order { return order.firstIndex(of: Int32(id)) }
        return id < loaded ? id : nil
    }

    // MARK: - Filtering and searching (V5)

    private mutating func applyFilter(_ text: String, data: any ViewRows) {
        let currentID = count > 0 ? id(at: current) : nil
        if text.isEmpty {
            filter = nil
        } else {
            var f = Filter(text: text, match: TextMatch(text), ids: [], scanned: 0)
            extend(&f, data: data)
            filter = f
        }
        current = currentID.flatMap { row(of: $0) } ?? 0
        top = 0
    }

    /// The filter again over the current order (after a sort).
    mutating func refilter(data: any ViewRows) {
        guard let text = filter?.text else { return }
        filter = nil
        var f = Filter(text: text, match: TextMatch(text), ids: [], scanned: 0)
        extend(&f, data: data)
        filter = f
    }

    /// Adds the rows the filter has not looked at yet.
    private func extend(_ f: inout Filter, data: any ViewRows) {
        let shown = columns.map(\.source)
        if let order {
            // Sorted: every row is read, in one pass, then kept in sorted order.
            var keep = [Bool](repeating: false, count: loaded)
            data.scan(0..<loaded) { id, fields in
                keep[id] = shown.contains { f.match.matches(fields[$0]) }
                return true
            }
            f.ids = order.filter { keep[Int($0)] }
            f.scanned = loaded
        } else {
            let match = f.match
            var ids = f.ids
            data.scan(f.scanned..<loaded) { id, fields in
                if shown.contains(where: { match.matches(fields[$0]) }) { ids.append(Int32(id)) }
                return true
            }
            f.ids = ids
            f.scanned = loaded
        }
    }

    private mutating func startSearch(_ text: String, data: any ViewRows) {
        guard !text.isEmpty else {
            search = nil
            return
        }
        var s = Search(text: text, match: TextMatch(text), hits: [], cells: 0)
        mark(&s, rows: 0..<loaded, data: data)
        search = s
        findNext(forward: true, data: data, including: true)
    }

    /// Notes which rows have a matching cell, and how many cells match.
    private func mark(_ s: inout Search, rows: Range<Int>, data: any ViewRows) {
        let shown = columns.map(\.source)
        if s.hits.count < rows.upperBound { s.hits.append(contentsOf: repeatElement(false, count: rows.upperBound - s.hits.count)) }
        var hits = s.hits
        var cells = s.cells
        let match = s.match
        data.scan(rows) { id, fields in
            var n = 0
            for source in shown where match.matches(fields[source]) { n += 1 }
            if n > 0 {
                hits[id] = true
                cells += n
            }
            return true
        }
        s.hits = hits
        s.cells = cells
    }

    /// `n` / `N`: the next (or previous) matching cell after the focused one, wrapping around.
    /// - Parameter including: the focused cell itself may be the match (a new search).
    private mutating func findNext(forward: Bool, data: any ViewRows, including: Bool = false) {
        guard let search, count > 0 else {
            if search == nil { message = "no search: / to search" }
            return
        }
        guard search.cells > 0 else {
            message = "no match for \(search.text)"
            return
        }
        let n = count
        for step in 0...n {
            let row = forward ? (current + step) % n : ((current - step) % n + n) % n
            let id = self.id(at: row)
            guard id < search.hits.count, search.hits[id] else { continue }
            let record = data.record(id)
            let matching = record.withFields { fields in
                columns.indices.filter { search.match.matches(fields[columns[$0].source]) }
            }
            let candidates: [Int]
            if step == 0 {
                candidates = forward ? matching.filter { including ? $0 >= focus : $0 > focus } : matching.filter { $0 < focus }
            } else if step == n {
                candidates = forward ? matching.filter { $0 <= focus } : matching.filter { $0 >= focus }
            } else {
                candidates = matching
            }
            if let column = forward ? candidates.first : candidates.last {
                if step > 0 && (forward ? row <= current : row >= current) { message = "search wrapped" }
                current = row
                focus = column
                scrollToFocus()
                return
            }
        }
    }
}

/// A search or filter text matched against cells: case-insensitive unless the text has a
/// capital letter (V5).
struct TextMatch {
    let text: String
    private let needle: [UInt8]
    private let caseSensitive: Bool
    private let ascii: Bool

    init(_ text: String) {
        self.text = text
        caseSensitive = text.contains { $0.isUppercase }
        ascii = text.utf8.allSatisfy { $0 < 0x80 }
        needle = Array((caseSensitive ? text : text.lowercased()).utf8)
    }

    /// Whether `cell` contains the text.
    func matches(_ cell: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !needle.isEmpty else { return true }
        guard cell.count >= needle.count else { return false }
        if caseSensitive || ascii {
            let fold = !caseSensitive
            let first = needle[0]
            var i = 0
            let last = cell.count - needle.count
            while i <= last {
                let b = cell[i]
                if (fold ? Self.lower(b) : b) == first {
                    var k = 1
                    while k < needle.count, (fold ? Self.lower(cell[i + k]) : cell[i + k]) == needle[k] { k += 1 }
                    if k == needle.count { return true }
                }
                i += 1
            }
            return false
        }
        return String(decoding: cell, as: UTF8.self).lowercased().utf8.firstRange(of: needle) != nil
    }

    @inline(__always)
    private static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }
}
