import Input
import Layout
import Options
import Profile
import Support
import Text
import Transform
/// Draws a plan as HTML (O6). `-f html`: one complete page, its style and a small script inline
/// and named by their hashes in a Content-Security-Policy that allows nothing else
/// (`HTMLRenderer+Page.swift`, `HTMLRenderer+Script.swift`). `--fragment`: only the markup a CI
/// summary keeps (`table`, `thead`, `tbody`, `tr`, `th`, `td` with `align` and `colspan`,
/// `details`, `summary`), no style, class, id or script.
///
/// A table is `<caption>` (`--title`), `<thead>` with a `<th scope="col">` per column, and a
/// `<tbody>` per group (its heading row, its rows, its total row); a list report is a block per
/// row; pages are a table per band; notes follow. Every text is escaped (`HTMLText`), nothing is
/// cut: the browser fits the cells and the row's sheet shows them whole.
///
/// On a page a group's rows are split into `<tbody>` elements of `rowsPerBody` rows (those after
/// the first `class="c"`, continuing the group), so that the browser lays out only those near the
/// screen (the style's `content-visibility`, `HTMLRenderer+Page.swift`): a page of 100,000 rows
/// opens in about the time it takes to read it.
package final class HTMLRenderer: Renderer {
    package let plan: LayoutPlan
    package let out: OutputBuffer
    package let measure: DisplayWidth
    /// `--fragment`: the markup a CI summary keeps, nothing else.
    package let fragment: Bool
    package let zebra: Bool
    /// `--wrap 2`: cells wrap (C6).
    package let wrap: Bool
    package var cutCells = 0
    package var columns: [ColumnLayout] {
        didSet { slots = columns.map(CellSlot.init) }
    }
    var slots: [CellSlot]
    /// `--title`, kept for the page's `<title>` and the first table's caption.
    var title: String?
    /// The page's head (or the fragment's opening) is written.
    var started = false
    /// Tables begun so far (the page's style has rules for each, `.t0`, `.t1`, …).
    var tables = 0
    var groupsDrawn = 0
    /// Rows drawn in the current group (or table), for the page's row groups of `rowsPerBody`.
    var rowsInGroup = 0
    /// The fragment: a table is still open (its notes go in it as rows).
    var tableOpen = false
    /// The fragment: `<details>` elements open (the title's, a band's caption).
    var detailsOpen = 0
    /// The null text, escaped once.
    package let nullHTML: String

    package init(plan: LayoutPlan, out: OutputBuffer, measure: DisplayWidth, fragment: Bool, zebra: Bool, wrap: Bool) {
        self.plan = plan
        self.out = out
        self.measure = measure
        self.fragment = fragment
        self.zebra = zebra
        self.wrap = wrap
        columns = plan.columns
        slots = plan.columns.map(CellSlot.init)
        nullHTML = HTMLText.escaped(plan.nullText)
    }

    @inline(__always)
    package func write(_ text: StaticString) throws(OutputError) {
        try out.write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    package func escaped(_ text: String) throws(OutputError) {
        try out.write(HTMLText.escaped(text))
    }

    /// The page's head (or, in a fragment, the title's `<details>`), before anything else.
    package func start() throws(OutputError) {
        guard !started else { return }
        started = true
        if fragment {
            if let title {
                try write("<details open><summary>")
                try escaped(title)
                try write("</summary>\n")
                detailsOpen += 1
            }
        } else {
            try writeHead()
            if let title, plan.mode != .table {
                try write("<h1>")
                try escaped(title)
                try write("</h1>\n")
            }
        }
    }

    package func title(_ text: String) throws(OutputError) {
        title = text
    }

    package func beginTable(_ columns: [ColumnLayout], caption: String?) throws(OutputError) {
        try start()
        try closeFragmentTable()
        self.columns = columns
        groupsDrawn = 0
        rowsInGroup = 0
        let caption = plan.mode == .table ? title : caption
        if fragment {
            if let caption, plan.mode == .pages {
                try write("<details open><summary>")
                try escaped(caption)
                try write("</summary>\n")
                detailsOpen += 1
            }
            try write("<table>\n<thead><tr>")
            for column in columns {
                try write(column.alignment == .right ? "<th align=\"right\">" : "<th align=\"left\">")
                try escaped(column.heading)
                try write("</th>")
            }
            try write("</tr></thead>\n<tbody>\n")
            tableOpen = true
        } else {
            try write("<div class=\"scroll\" tabindex=\"0\" role=\"region\" aria-label=\"")
            try out.write(HTMLText.escaped(caption ?? title ?? "Table", lineBreaks: false))
            // `b`: its columns' widths are the style's, so the screen lays it out in blocks.
            let blocks = columns.count <= Self.widestStyled ? " b" : ""
            try out.write("\">\n<table class=\"d t\(tables)\(blocks)\(plan.mode == .pages ? " pg" : "")\(zebra ? " z" : "")\(wrap ? " w2" : "")\">\n")
            if let caption {
                try write("<caption>")
                try escaped(caption)
                try write("</caption>\n")
            }
            try out.write("<colgroup>" + String(repeating: "<col>", count: columns.count) + "</colgroup>\n<thead><tr>")
            for column in columns {
                try write(column.alignment == .right ? "<th scope=\"col\" class=\"r\" title=\"" : "<th scope=\"col\" title=\"")
                try out.write(HTMLText.escaped(column.heading, lineBreaks: false))
                try write("\"><span>")
                try out.write(HTMLText.escaped(column.heading, marks: .page(oneLine: false)))
                try write("</span></th>")
            }
            try write("</tr></thead>\n<tbody>\n")
        }
        tables += 1
    }

    /// One row. On a page a cell's end tag is left out, as HTML allows (the next `<td>` or the
    /// row's `</tr>` ends it): a quarter fewer bytes for a table of short cells. The row's end tag
    /// stays, so the line feed after it is not in the last cell's text.
    package func row(_ fields: Fields) throws(OutputError) {
        if rowsInGroup > 0 && rowsInGroup % Self.rowsPerBody == 0 && !fragment {
            try write("</tbody>\n<tbody class=\"c\">\n")
        }
        rowsInGroup += 1
        try write("<tr>")
        try slots.withUnsafeBufferPointer { (slots) throws(OutputError) in
            for k in 0..<slots.count {
                try cell(fields[slots[k].source], slots[k])
            }
        }
        try write("</tr>\n")
    }

    @inline(__always)
    private func endCell() throws(OutputError) {
        if fragment { try write("</td>") }
    }

    /// One `<td>`: a number with its unit taken out where the heading carries it (C3), and, on a
    /// page, a class that pads a shorter fraction so the points line up (C2); an empty cell the
    /// `--null` text (class `n` on a page, so a sort puts it last).
    @inline(__always)
    private func cell(_ cell: UnsafeBufferPointer<UInt8>, _ slot: CellSlot) throws(OutputError) {
        if cell.isEmpty {
            if fragment {
                try write(slot.right ? "<td align=\"right\">" : "<td>")
            } else {
                try write("<td class=\"n\">")
            }
            try out.write(nullHTML)
            try endCell()
            return
        }
        if slot.numeric, let shape = NumberShape.parse(cell) {
            let number = shape.layout(cell, stripUnit: slot.stripUnit, measure: measure)
            if fragment {
                try write("<td align=\"right\">")
            } else {
                try write("<td")
                let trail = slot.fraction - number.fraction
                if trail > 0 && trail <= Self.widestPad {
                    try write(" class=\"f")
                    if trail >= 10 { try out.write(byte: UInt8(ascii: "0") &+ UInt8(trail / 10)) }
                    try out.write(byte: UInt8(ascii: "0") &+ UInt8(trail % 10))
                    try write("\"")
                }
                if !NumberValue.isPlain(cell, shape, unitOut: number.stripped) { try sortKey(cell, shape) }
                try write(">")
            }
            if number.stripped {
                if let sign = shape.detachedSign { try out.write(byte: cell[sign]) }
                try HTMLText.write(UnsafeBufferPointer(rebasing: cell[shape.number]), to: out)
            } else {
                try HTMLText.write(cell, to: out)
            }
            try endCell()
            return
        }
        if fragment {
            try write(slot.right ? "<td align=\"right\">" : "<td>")
            try HTMLText.write(cell, to: out)
        } else {
            // A placeholder goes last in a sort (W11). A line break in a one-line cell shows as
            // `↵` (O5); under --wrap 2 (C6) the text is in a span the style holds to two lines.
            try write(CellKind.isNullWord(cell) ? "<td data-v" : "<td")
            try write(wrap ? "><span>" : ">")
            try HTMLText.write(cell, to: out, marks: .page(oneLine: !wrap))
            if wrap { try write("</span>") }
        }
        try endCell()
    }

    /// A number cell's sort key (W11 as `--sort` reads it, `NumberValue`): ` data-v="…"` with
    /// the number in a form JavaScript's `Number` reads, for a cell whose text is not that already.
    private func sortKey(_ cell: UnsafeBufferPointer<UInt8>, _ shape: NumberShape) throws(OutputError) {
        try write(" data-v=\"")
        try NumberValue.plain(cell, shape) { (b: UInt8) throws(OutputError) in
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "&"), UInt8(ascii: "<"): try out.write("&#\(b);")  // never in a number
            default: try out.write(byte: b)
            }
        }
        try write("\"")
    }

    /// Rows in each of a page's `<tbody>` elements (a group's last holds the rest). Even, so that
    /// zebra stripes, counted in each (`:nth-child`), run on from one to the next.
    package static let rowsPerBody = 100

    /// The widest fraction padding a page has a class for (`f1` … `f24`); a number missing more
    /// of its column's fraction is right-aligned as it is.
    package static let widestPad = 24

    package func groupHeading(_ text: String) throws(OutputError) {
        if groupsDrawn > 0 { try write("</tbody>\n<tbody>\n") }
        groupsDrawn += 1
        rowsInGroup = 0
        try out.write(fragment ? "<tr><th colspan=\"\(columns.count)\" align=\"left\">" : "<tr class=\"g\"><th colspan=\"\(columns.count)\" scope=\"rowgroup\">")
        try escaped(text)
        try write("</th></tr>\n")
    }

    package func groupFooter(_ cells: [String?], label: String) throws(OutputError) {
        guard cells.contains(where: { $0 != nil }) else { return }
        let labelAt = Layout.totalLabelColumn(cells, widths: nil, measure: measure)
        try write(fragment ? "<tr>" : "<tr class=\"t\">")
        for (k, cell) in cells.enumerated() {
            let right = k < columns.count && columns[k].alignment == .right
            // On a page the label's cell is `l`: printed, it titles the row's block.
            try write(fragment ? (right ? "<th align=\"right\">" : "<th align=\"left\">") : k == labelAt ? "<td class=\"l\">" : "<td>")
            try escaped(cell ?? (k == labelAt ? label : ""))
            try write(fragment ? "</th>" : "</td>")
        }
        try write("</tr>\n")
    }

    package func endTable() throws(OutputError) {
        if fragment {
            try write("</tbody>\n")
        } else {
            try write("</tbody>\n</table>\n</div>\n")
        }
    }

    /// The fragment: the open table ends (its notes were written into it).
    private func closeFragmentTable() throws(OutputError) {
        guard fragment && tableOpen else { return }
        try write("</table>\n")
        tableOpen = false
        while detailsOpen > (title == nil ? 0 : 1) {
            try write("</details>\n")
            detailsOpen -= 1
        }
    }

    /// A list report's block (W8): on a page an `<article>` with the row's title and a `<dl>` of
    /// its fields; in a fragment a `<details open>` with the title as its summary and a table of
    /// label and value rows.
    package func block(_ fields: Fields) throws(OutputError) {
        guard let first = plan.columns.first else { return }
        try start()
        let markup: (open: StaticString, titleEnd: StaticString, label: StaticString, value: StaticString, fieldEnd: StaticString, close: StaticString) = fragment
            ? ("<details open><summary>", "</summary>\n<table>\n", "<tr><th align=\"left\">", "</th><td>", "</td></tr>\n", "</table>\n</details>\n")
            : ("<article class=\"row\"><h2>", "</h2>\n<dl>", "<div><dt>", "</dt><dd>", "</dd></div>", "</dl></article>\n")
        try write(markup.open)
        try blockValue(fields, first, titleOfBlock: true)
        try write(markup.titleEnd)
        for field in plan.columns.dropFirst() {
            try write(markup.label)
            try escaped(field.heading)
            try write(markup.value)
            try blockValue(fields, field)
            try write(markup.fieldEnd)
        }
        try write(markup.close)
    }

    /// A list report's value: the cell's shown text (unit out where the label carries it), the
    /// null text when empty, `—` for an empty block title (as Markdown's).
    private func blockValue(_ fields: Fields, _ column: ColumnLayout, titleOfBlock: Bool = false) throws(OutputError) {
        let cell = fields[column.source]
        if cell.isEmpty {
            try out.write(plan.nullText.isEmpty && titleOfBlock ? "—" : nullHTML)
        } else if column.stripUnit {
            try escaped(column.shownText(fields))
        } else {
            try HTMLText.write(cell, to: out, marks: fragment ? .lineBreaks : .page(oneLine: false))
        }
    }

    package func note(_ text: String) throws(OutputError) {
        try start()
        if fragment {
            // Under the open table, across its columns; else in a table of its own.
            let span = tableOpen ? max(1, columns.count) : 1
            if !tableOpen {
                try write("<table>\n")
                tableOpen = true
            }
            try write("<tbody><tr><td colspan=\"")
            try out.write(String(span))
            try write("\">")
            try escaped(text)
            try write("</td></tr></tbody>\n")
        } else {
            try write("<p class=\"note\">")
            try escaped(text)
            try write("</p>\n")
        }
    }

    package func finish() throws(OutputError) {
        try start()
        if fragment {
            try closeFragmentTable()
            while detailsOpen > 0 {
                try write("</details>\n")
                detailsOpen -= 1
            }
        } else {
            try writeTail()
        }
        try out.flush()
    }

    package func continuation(into out: OutputBuffer) -> any Renderer {
        let next = HTMLRenderer(plan: plan, out: out, measure: measure, fragment: fragment, zebra: zebra, wrap: wrap)
        next.columns = columns
        next.started = started
        next.tables = tables
        next.tableOpen = tableOpen
        next.rowsInGroup = rowsInGroup
        return next
    }

    /// A row needs only its place in its group: where a new `<tbody>` begins (stripes are the
    /// style's, by position).
    package func resume(atRow row: Int) {
        rowsInGroup = row
    }
}
