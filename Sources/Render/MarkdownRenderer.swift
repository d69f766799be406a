import Input
import Layout
import Options
import Profile
import Support
import Text
import Transform
/// Draws a plan as GitHub-flavoured Markdown (O4): a heading row, an alignment row (`---:` for
/// numbers, `:---` for text), one row per record. Cells hold their text exactly: `|` and other
/// Markdown punctuation are backslash-escaped, line breaks become `<br>`, spaces at a cell's edges
/// become `&#32;` (GFM would trim them), control characters are shown escaped (O5). Nothing is cut
/// unless `--width` was given. `--title` is a `###` heading; notes are a paragraph under the table;
/// a list report is a `####` heading per row with `- **Label:** value` lines; each group is a
/// `####` heading with its own table and a bold footer row.
package final class MarkdownRenderer: Renderer {
    package let plan: LayoutPlan
    package let out: OutputBuffer
    package let measure: DisplayWidth
    /// Whether cells are cut to the plan's widths (only when `--width` was given).
    package let cut: Bool
    package var cutCells = 0
    private var columns: [ColumnLayout] {
        didSet { slots = columns.map(CellSlot.init) }
    }
    /// What the row loop needs of each column (as `PlainRenderer`'s): no strings copied per cell.
    private var slots: [CellSlot]
    private var started = false
    private var notes: [String] = []
    /// The current table's header is still to be written (it waits for the first row, so a group's
    /// heading comes before its table).
    private var headerPending = false
    private var groupsDrawn = 0

    package init(plan: LayoutPlan, out: OutputBuffer, measure: DisplayWidth, cut: Bool) {
        self.plan = plan
        self.out = out
        self.measure = measure
        self.cut = cut
        self.columns = plan.columns
        self.slots = plan.columns.map(CellSlot.init)
    }

    private func line(_ text: String) throws(OutputError) {
        try out.write(text)
        try out.newline()
    }

    /// Separates blocks with one blank line.
    private func block() throws(OutputError) {
        if started { try out.newline() }
        started = true
    }

    package func title(_ text: String) throws(OutputError) {
        try block()
        try line("### " + Self.heading(text))
    }

    package func beginTable(_ columns: [ColumnLayout], caption: String?) throws(OutputError) {
        self.columns = columns
        if let caption {
            try block()
            try line(Self.paragraph(caption))
        }
        headerPending = true
    }

    private func header() throws(OutputError) {
        try block()
        try line("| " + columns.map { Self.cell($0.heading) }.joined(separator: " | ") + " |")
        try line("|" + columns.map { $0.alignment == .right ? " ---: |" : " :--- |" }.joined())
        headerPending = false
    }

    package func row(_ fields: Fields) throws(OutputError) {
        if headerPending { try header() }
        // `| ` before the first cell (`|` alone with no columns), ` | ` between two, ` |` after the
        // last: one write each.
        let between: StaticString = " | "
        let separator = UnsafeBufferPointer(start: between.utf8Start, count: between.utf8CodeUnitCount)
        try out.write(UnsafeBufferPointer(rebasing: slots.isEmpty ? separator[1..<2] : separator[1...]))
        try slots.withUnsafeBufferPointer { (slots) throws(OutputError) in
            for k in 0..<slots.count {
                let cell = fields[slots[k].source]
                // The common cell, written as it is (`writtenAsIs`); any other as a String.
                if writtenAsIs(cell, in: slots[k]) {
                    try out.write(cell)
                } else {
                    try writeCell(value(fields, columns[k], cut: cut), table: true)
                }
                try out.write(k == slots.count &- 1 ? UnsafeBufferPointer(rebasing: separator[..<2]) : separator)
            }
        }
        try out.newline()
    }

    /// Whether a table cell is written exactly as its bytes, as `value` then `writeCell` would
    /// write it: not empty, its unit not taken out, not cut (printable ASCII that fits, or not
    /// cut at all), no space at its edges (`cell` keeps those as `&#32;`) and nothing in it that
    /// `inline` would escape (`mayNeedEscaping`). At any length: `writeCell` would write such a
    /// text's pieces as they are too, so a 100 MB value is written from its record, not copied
    /// into a `String` and arrays of its scalars (E5).
    @inline(__always)
    private func writtenAsIs(_ cell: UnsafeBufferPointer<UInt8>, in slot: CellSlot) -> Bool {
        let count = cell.count
        guard count > 0, !slot.stripUnit,
              cell[0] != UInt8(ascii: " "), cell[count &- 1] != UInt8(ascii: " ") else { return false }
        if cut && !slot.numeric {
            guard let ascii = DisplayWidth.printableASCIIWidth(cell), ascii <= slot.width else { return false }
        }
        return !Self.mayNeedEscaping(cell)
    }

    /// `cell(text)` written to the output; a long text a piece at a time (P2), never as one more
    /// copy of itself.
    private func writeCell(_ text: String, table: Bool) throws(OutputError) {
        guard text.utf8.count > Self.pieceBytes else {
            try out.write(Self.cell(text, table: table))
            return
        }
        let scalars = text.unicodeScalars
        let leading = scalars.prefix { $0 == " " }.count
        var trailing = 0
        var end = scalars.endIndex
        while end > scalars.startIndex, scalars[scalars.index(before: end)] == " ", trailing < scalars.count - leading {
            end = scalars.index(before: end)
            trailing += 1
        }
        for _ in 0..<leading { try out.write("&#32;") }
        var piece: [Unicode.Scalar] = []
        var last = ""
        for scalar in scalars[scalars.index(scalars.startIndex, offsetBy: leading)..<end] {
            piece.append(scalar)
            if scalar == " " && piece.count >= Self.pieceBytes / 4 {
                last = Self.inline(piece, table: table, wholeText: false)
                try out.write(last)
                piece.removeAll(keepingCapacity: true)
            }
        }
        if !piece.isEmpty {
            last = Self.inline(piece, table: table, wholeText: false)
            try out.write(last)
        }
        try out.write(Self.endOfURL(last, before: trailing))
        for _ in 0..<trailing { try out.write("&#32;") }
    }

    /// A cell's text: the unit taken out where the heading carries it, cut only under `--width`.
    private func value(_ fields: Fields, _ column: ColumnLayout, cut: Bool) -> String {
        let text = column.shownText(fields)
        if text.isEmpty { return plan.nullText }
        if cut && column.numberParts == nil && measure.width(of: text) > column.width {
            cutCells += 1
            // On its bytes where it holds only plain scalars, else by its grapheme clusters.
            var bytes = text
            let measure = measure, width = column.width, ellipsis = plan.ellipsis
            if let line = bytes.withUTF8({ cell in measure.fitPlainLine(cell, width: width, ellipsis: ellipsis).map { $0.textLine(of: cell) } }) {
                return line.text
            }
            return measure.fit(text, width: column.width, maxLines: 1, ellipsis: plan.ellipsis).first?.text ?? ""
        }
        return text
    }

    package func groupHeading(_ text: String) throws(OutputError) {
        try block()
        try line("#### " + Self.heading(text))
        headerPending = true
        groupsDrawn += 1
    }

    package func groupFooter(_ cells: [String?], label: String) throws(OutputError) {
        guard cells.contains(where: { $0 != nil }) else { return }
        let labelAt = Layout.totalLabelColumn(cells, widths: nil, measure: measure)
        var text = "|"
        for (k, cell) in cells.enumerated() {
            let content = cell ?? (k == labelAt ? label : "")
            text += " " + (content.isEmpty ? "" : "**" + Self.cell(content) + "**") + " |"
        }
        try line(text)
    }

    package func endTable() throws(OutputError) {
        // A table with no rows still shows its headings (E4).
        if headerPending && groupsDrawn == 0 { try header() }
        headerPending = false
    }

    package func block(_ fields: Fields) throws(OutputError) {
        guard let first = plan.columns.first else { return }
        try block()
        let title = value(fields, first, cut: false)
        try line("#### " + Self.heading(title.isEmpty ? "—" : title))
        for field in plan.columns.dropFirst() {
            let text = value(fields, field, cut: false)
            if text.utf8.count > Self.pieceBytes {
                try out.write("- **" + Self.label(field.heading, value: nil) + ":** ")
                // A leading space of the value stays a space here: only the line's end is trimmed.
                let leading = text.unicodeScalars.prefix { $0 == " " }.count
                for _ in 0..<leading { try out.write(" ") }
                try writeCell(String(text.unicodeScalars.dropFirst(leading)), table: false)
                try out.newline()
            } else {
                try line("- **" + Self.label(field.heading, value: text) + ":** " + Self.trailingSpacesKept(Self.inline(text, table: false)))
            }
        }
    }

    package func note(_ text: String) throws(OutputError) {
        try block()
        try line(Self.paragraph(text))
    }

    package func finish() throws(OutputError) { try out.flush() }

    package func continuation(into out: OutputBuffer) -> any Renderer {
        let next = MarkdownRenderer(plan: plan, out: out, measure: measure, cut: cut)
        next.columns = columns
        next.started = started
        next.headerPending = headerPending
        next.groupsDrawn = groupsDrawn
        return next
    }

    package func resume(atRow row: Int) {
        if row > 0 {
            started = true
            headerPending = false
        }
    }
}
