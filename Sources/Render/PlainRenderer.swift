import Input
import Layout
import Options
import Profile
import Support
import Text
import Transform
/// Draws a plan as text, plain or with ANSI styling (O2, O3): headings, then rows, in the
/// `rule`, `box`, `ascii` or `compact` style; numbers aligned on their points (C2), units taken out
/// where the heading carries them (C3), text cut (C7) or wrapped (C6) to its width; list-report
/// blocks (W8); group headings and footers (W12); zebra rows (W13); a title and notes (W14).
///
/// With ANSI: headings and titles bold, rules, borders and empty cells dim, zebra rows on a
/// background, and every line ends with a reset so line-based tools stay sane. Plain output never
/// contains an escape sequence: cells' own control characters are always shown escaped (O5).
package final class PlainRenderer: Renderer {
    package let plan: LayoutPlan
    package let out: OutputBuffer
    package let measure: DisplayWidth
    package let style: TableStyle
    /// Whether the style draws borders (`style.hasBorders`, kept: it is asked between every two
    /// cells).
    package let bordered: Bool
    package let ansi: Bool
    package let zebra: Bool
    /// The style's borders as bytes (`Edges`).
    package let edges: Edges
    /// Cells that had to be cut (wider than their column).
    package var cutCells: Int {
        get { cuts }
        set { cuts = newValue }
    }
    /// `cutCells` and `grownCells`, stored where only this module reaches them: a class's stored
    /// property another module can reach is checked for exclusive access at run time, and a cut
    /// cell counted would pay that check.
    var cuts = 0, grown = 0
    package var growsPastColumns: Bool {
        get { grows }
        set { grows = newValue }
    }
    /// `growsPastColumns`, stored where only this module reaches it (as `cuts`).
    var grows = false
    package var grownCells: Int { grown }
    package let nullLine: TextLine
    /// The columns of the table being drawn, and what the row loop needs of them.
    var columns: [ColumnLayout] {
        didSet {
            slots = Self.slots(columns, gap: plan.gap, bordered: bordered)
            fieldsNeeded = (columns.map(\.source).max() ?? -1) + 1
            rowSlots.deallocate()
            rowSlots = Self.copy(slots)
            slack = Self.slack(columns, plan: plan, style: style)
        }
    }
    var slots: [CellSlot]
    /// The fields a row must have for every column's cell (its largest `source`, + 1).
    var fieldsNeeded: Int
    /// `slots` in memory of the renderer's own, for the row loop that draws in place (no
    /// reference to count on every row).
    private(set) var rowSlots: UnsafeMutableBufferPointer<CellSlot>
    /// Columns between a table line and the container's edge (nil: no width limit).
    var slack: Int?
    /// Columns the current row's numbers took beyond their columns (C7: a number is never cut
    /// while the line still fits the container).
    var rowOverflow = 0
    /// A list report's labels, fitted to their width once (the same in every block): for each
    /// shown column after the first, its heading's lines (W8). Empty when the plan is not a list.
    package let listLabels: [[TextLine]]
    /// What a list report's line needs of each shown column after the first, and the UTF-8 of
    /// their labels' first lines one after another (`ListSlot`).
    package let listSlots: [ListSlot]
    package let listLabelBytes: [UInt8]
    /// Where each field of a list report's blocks starts: the line (`OutputBuffer.lines`) of
    /// each field after the title, block after block; nil (the printer's case) notes none. The
    /// view's sheet finds its focused field by them.
    var fieldStarts: [Int]?
    /// A class's stored property another module can reach is checked for exclusive access at
    /// run time on every access, so the view reaches these few through functions.
    package func noteFieldStarts() { fieldStarts = [] }
    package var notedFieldStarts: [Int]? { fieldStarts }
    /// Readies the renderer to draw one cell alone (the view's cells): no overflow, no slack.
    package func startLoneCell() {
        rowOverflow = 0
        slack = 0
    }
    /// Lines fitted from a cell's bytes (`DisplayWidth.fitPlain`), kept between cells so that
    /// fitting allocates nothing once they have grown.
    var fitLines: [CellLine] = []
    /// The cells of a row whose cells may take several lines, and their lines fitted on bytes
    /// (`wrappedRow`), kept between rows.
    var wrappedCells: [WrappedCell] = []
    var wrappedLines: [CellLine] = []
    /// Each column's width on the current two-line row (wider where a number grew it).
    var wrappedWidths: [Int] = []
    /// Whether anything was drawn yet (blocks, bands and groups are separated by a blank line).
    var started = false
    private var groupsDrawn = 0
    /// Data rows drawn in the current table (for zebra stripes).
    var rowsDrawn = 0
    /// Whether rows given with their fields' places may be drawn in place (`notedRow`): cells on
    /// one line, no stripes.
    package let drawsInPlace: Bool
    /// The widths of the common non-ASCII cells drawn in place lately, by column.
    package let widthCache: CommonWidthCache

    /// What the last line of a bordered table was, to pick the junctions of the next border.
    package enum LastLine { case headings, rows, spanning }
    private(set) var lastLine: LastLine = .headings

    /// `─`, or `-` where East Asian ambiguous characters are two columns wide (`--ambiguous-wide`).
    package var ruleCharacter: String { measure.ambiguousIsWide ? "-" : "─" }

    package static let bold = "\u{1B}[1m", dim = "\u{1B}[2m", normal = "\u{1B}[22m", reset = "\u{1B}[0m"
    package static let stripe = "\u{1B}[48;5;236m"

    package init(plan: LayoutPlan, out: OutputBuffer, measure: DisplayWidth, style: TableStyle = .rule, ansi: Bool = false, zebra: Bool = false) {
        self.plan = plan
        self.out = out
        self.measure = measure
        self.style = style
        bordered = style.hasBorders
        edges = Edges(style, ansi: ansi)
        self.ansi = ansi
        self.zebra = zebra && ansi
        drawsInPlace = plan.cellLines <= 1 && !self.zebra
        self.columns = plan.columns
        self.slots = Self.slots(plan.columns, gap: plan.gap, bordered: bordered)
        fieldsNeeded = (plan.columns.map(\.source).max() ?? -1) + 1
        // Only a renderer that draws rows in place uses it, and only a file read in pieces has
        // such rows: no more columns than those (a 2-million-column table makes no table of tables).
        widthCache = CommonWidthCache(measure: measure, columns: drawsInPlace ? min(fieldsNeeded, ColumnProfile.widestInPieces) : 0)
        rowSlots = Self.copy(slots)
        self.slack = Self.slack(plan.columns, plan: plan, style: style)
        nullLine = TextLine(text: Sanitize.visible(plan.nullText), width: measure.width(of: plan.nullText))
        if plan.mode == .list {
            listLabels = plan.columns.dropFirst().map {
                measure.fit($0.heading, width: plan.labelWidth, maxLines: Int.max, ellipsis: plan.ellipsis)
            }
            var bytes: [UInt8] = []
            listSlots = zip(plan.columns.dropFirst(), listLabels).map { column, lines in
                let first = lines.first ?? TextLine(text: "", width: 0)
                let start = bytes.count
                bytes += first.text.utf8
                return ListSlot(source: column.source, stripUnit: column.stripUnit, labelStart: start, labelCount: bytes.count - start,
                                labelPad: plan.labelWidth - first.width + plan.gap, oneLineLabel: lines.count <= 1)
            }
            listLabelBytes = bytes
        } else {
            listLabels = []
            listSlots = []
            listLabelBytes = []
        }
    }

    deinit {
        rowSlots.deallocate()
        widthCache.free()
    }

    /// The container's width less a table line's, borders included.
    package static func slack(_ columns: [ColumnLayout], plan: LayoutPlan, style: TableStyle) -> Int? {
        plan.containerWidth.map { $0 - style.edges - plan.lineWidth(of: columns) }
    }

    /// C7: whether a number `excess` columns wider than its column may be written whole on the
    /// current row, the line still fitting the container; if so, the row takes those columns.
    package func takeOverflow(_ excess: Int) -> Bool {
        guard excess > 0 else { return true }
        if let slack, rowOverflow + excess > slack { return false }
        rowOverflow += excess
        return true
    }

    // MARK: - Lines

    /// Ends a line: with ANSI, a reset; trailing padding is dropped.
    package func endLine() throws(OutputError) {
        if ansi {
            out.dropPadding()
            try out.write(Self.reset)
        }
        try out.newline()
    }

    /// Writes text in an ANSI style (nothing extra in plain output).
    package func styled(_ text: String, _ code: String) throws(OutputError) {
        try styled(code, empty: text.isEmpty) { () throws(OutputError) in try out.write(text) }
    }

    /// `styled` for a cell's bytes, shown as they are.
    package func styled(_ text: UnsafeBufferPointer<UInt8>, _ code: String) throws(OutputError) {
        try styled(code, empty: text.isEmpty) { () throws(OutputError) in try out.write(text) }
    }

    /// What `write` writes, in the style `code` when the output is ANSI and there is something.
    @inline(__always)
    private func styled(_ code: String, empty: Bool, _ write: () throws(OutputError) -> Void) throws(OutputError) {
        let wrapped = ansi && !code.isEmpty && !empty
        if wrapped { try out.write(code) }
        try write()
        if wrapped { try out.write(Self.normal) }
    }

    package func lineStart() throws(OutputError) {
        if bordered { try out.write(UnsafeBufferPointer(edges.left)) }
    }

    /// Between two cells (inlined: it comes between every two cells of a row).
    @inline(__always)
    package func between() throws(OutputError) {
        if bordered { try out.write(UnsafeBufferPointer(edges.separator)) } else { out.pad(plan.gap) }
    }

    package func lineEnd() throws(OutputError) {
        if bordered { try out.write(UnsafeBufferPointer(edges.right)) }
        try endLine()
    }

    /// A border line of a boxed table.
    private func border(_ line: TableStyle.Line, above: Bool, below: Bool, marked: [Bool]? = nil) throws(OutputError) {
        let (left, junction, right) = style.corners(line, above: above, below: below)
        try styled(Self.dim, empty: false) { () throws(OutputError) in
            try out.write(left)
            for (k, column) in columns.enumerated() {
                if k > 0 { try out.write(junction) }
                try repeated(style.horizontal, column.width + 2)
            }
            try out.write(right)
        }
        try endLine()
    }

    /// A rule of `─` under the columns marked true (the `rule` style).
    private func rule(_ marked: [Bool]) throws(OutputError) {
        for (k, column) in columns.enumerated() {
            if k > 0 { out.pad(plan.gap) }
            guard marked[k] else {
                out.pad(column.width)
                continue
            }
            try styled(Self.dim, empty: column.width == 0) { () throws(OutputError) in try repeated(ruleCharacter, column.width) }
        }
        try endLine()
    }

    /// `text` written `count` times, a block of it at a time: a column 100 million wide has a
    /// rule of 300 MB, which is never held whole (E5).
    private func repeated(_ text: String, _ count: Int) throws(OutputError) {
        let block = 1024
        if count >= block {
            let whole = String(repeating: text, count: block)
            for _ in 0..<(count / block) { try out.write(whole) }
        }
        try out.write(String(repeating: text, count: count % block))
    }

    /// Before a line of cells in a boxed table: the separator its predecessor calls for.
    private func separatorBeforeCells() throws(OutputError) {
        guard bordered else { return }
        switch lastLine {
        case .headings: try border(.middle, above: true, below: true)
        case .spanning: try border(.middle, above: false, below: true)
        case .rows: break
        }
        lastLine = .rows
    }

    // MARK: - Renderer

    package func title(_ text: String) throws(OutputError) {
        for line in measure.fit(text, width: plan.containerWidth ?? Int.max, maxLines: Int.max, ellipsis: plan.ellipsis) {
            try styled(line.text, Self.bold)
            try endLine()
        }
        started = true
    }

    package func beginTable(_ columns: [ColumnLayout], caption: String?) throws(OutputError) {
        self.columns = columns
        rowsDrawn = 0
        if let caption {
            if started { try endLine() }
            for line in measure.fit(Sanitize.visible(caption), width: plan.containerWidth ?? Int.max, maxLines: Int.max, ellipsis: plan.ellipsis) {
                try out.write(line.text)
                try endLine()
            }
        }
        started = true
        if bordered { try border(.top, above: false, below: true) }
        let lines = columns.map { measure.fitHeading($0.heading, width: $0.width, maxLines: plan.headingLines, ellipsis: plan.ellipsis) }
        let height = lines.map(\.count).max() ?? 1
        for row in 0..<height {
            try lineStart()
            for (k, column) in columns.enumerated() {
                if k > 0 { try between() }
                // Headings sit on the rule: a shorter heading takes the lower lines.
                let index = row - (height - lines[k].count)
                let line = index >= 0 ? lines[k][index] : TextLine(text: "", width: 0)
                try place(line, in: column, code: Self.bold)
            }
            try lineEnd()
        }
        lastLine = .headings
        if style == .rule { try rule(columns.map { _ in true }) }
    }

    package func row(_ fields: Fields) throws(OutputError) {
        try separatorBeforeCells()
        let striped = zebra && rowsDrawn % 2 == 1
        rowsDrawn += 1
        rowOverflow = 0
        if striped { try out.write(Self.stripe) }
        if plan.cellLines > 1, let wide = firstWideCell(fields) {
            try wrappedRow(fields, striped: striped, measured: wide)
            return
        }
        try lineStart()
        // The last column's padding is dropped at the line end, unless a border or a stripe's
        // background follows it: then its cells need no width, only to fit.
        let unpaddedLast = !bordered && !striped
        try slots.withUnsafeBufferPointer { (slots) throws(OutputError) in
            for k in 0..<slots.count {
                if k > 0 { try between() }
                let slot = slots[k]
                try anyCell(fields[slot.source], in: slot, padded: !(unpaddedLast && k == slots.count &- 1))
            }
        }
        if striped { out.flushPadding() }
        try lineEnd()
    }

    /// Starts the next physical line of a row (two-line cells).
    package func continueRow(striped: Bool) throws(OutputError) {
        if striped { out.flushPadding() }
        try lineEnd()
        if striped { try out.write(Self.stripe) }
        try lineStart()
    }

    /// The separator between cells within a row (for the two-line path).
    package func cellGap(_ k: Int) throws(OutputError) {
        if k > 0 { try between() }
    }

    /// Starts the first line of a two-line row.
    package func beginRowLine() throws(OutputError) { try lineStart() }

    /// Ends the last line of a two-line row.
    package func endRowLine(striped: Bool) throws(OutputError) {
        if striped { out.flushPadding() }
        try lineEnd()
    }

    package func endTable() throws(OutputError) {
        if bordered { try border(.bottom, above: lastLine != .spanning, below: false) }
    }

    package func groupHeading(_ text: String) throws(OutputError) {
        let visible = Sanitize.visible(text)
        if bordered && plan.mode != .list {  // a list report has no borders to join
            if lastLine != .spanning { try border(.middle, above: true, below: false) }
            let inner = columns.reduce(0) { $0 + $1.width } + style.gap * max(0, columns.count - 1)
            let line = measure.fit(visible, width: inner, maxLines: 1, ellipsis: plan.ellipsis).first ?? TextLine(text: "", width: 0)
            try lineStart()
            try styled(line.text, Self.bold)
            out.pad(inner - line.width)
            out.flushPadding()
            try lineEnd()
            lastLine = .spanning
        } else {
            if groupsDrawn > 0 { try endLine() }
            // Wrapped to the container like every other line (W1); nothing in it is cut.
            for line in measure.fit(visible, width: plan.containerWidth ?? Int.max, maxLines: Int.max, ellipsis: plan.ellipsis) {
                try styled(line.text, Self.bold)
                try endLine()
            }
            // A list report's blocks are set apart by a blank line, the first after every
            // heading as well (the first heading included, with or without a title before it).
            started = true
        }
        groupsDrawn += 1
        rowsDrawn = 0
    }

    package func groupFooter(_ cells: [String?], label: String) throws(OutputError) {
        guard cells.contains(where: { $0 != nil }) else { return }
        if bordered {
            try separatorBeforeCells()
            try border(.middle, above: true, below: true)
        } else if style == .rule {
            try rule(cells.map { $0 != nil })
        }
        let labelAt = Layout.totalLabelColumn(cells, widths: columns.map(\.width), measure: measure)
        try lineStart()
        for (k, column) in columns.enumerated() {
            if k > 0 { try between() }
            if let text = cells[k] {
                var bytes = Array(text.utf8)
                try bytes.withUnsafeMutableBufferPointer { (buffer) throws(OutputError) in
                    let cell = UnsafeBufferPointer(buffer)
                    try self.cell(cell, in: CellSlot(column), ascii: DisplayWidth.printableASCIIWidth(cell))
                }
            } else if k == labelAt {
                try place(measure.fit(label, width: column.width, maxLines: 1, ellipsis: plan.ellipsis).first ?? TextLine(text: "", width: 0), in: column, code: Self.bold)
            } else {
                out.pad(column.width)
            }
        }
        try lineEnd()
    }

    package func note(_ text: String) throws(OutputError) {
        // Notes wrap to the container like everything else (W1); nothing in them is cut.
        // A line break inside (a heading's) shows as ↵: a note breaks lines only for the width.
        for line in measure.fit(Sanitize.visible(text), width: plan.containerWidth ?? Int.max, maxLines: Int.max, ellipsis: plan.ellipsis) {
            try out.write(line.text)
            try endLine()
        }
    }

    package func finish() throws(OutputError) { try out.flush() }

    package func continuation(into out: OutputBuffer) -> any Renderer {
        let next = PlainRenderer(plan: plan, out: out, measure: measure, style: style, ansi: ansi, zebra: zebra)
        next.columns = columns
        next.started = started
        next.lastLine = lastLine
        return next
    }

    package func resume(atRow row: Int) {
        rowsDrawn = row
        if row > 0 {
            started = true
            lastLine = .rows
        }
    }
}
