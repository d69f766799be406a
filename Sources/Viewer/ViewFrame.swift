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
/// The view drawn as lines of text (V2–V6): exactly `height` lines, none wider than `width`
/// display columns, styled with SGR sequences only (no cursor movement: the session positions
/// each line). Cells are drawn by the printed table's own cell code (`PlainRenderer.cell`), so a
/// value looks the same in both, escaped the same way (O5).
extension ViewState {
    /// The screen for this state.
    func frame(_ data: any ViewRows) -> [String] {
        var lines: [String]
        switch mode {
        case .detail(let scroll): lines = detailFrame(data, scroll: scroll)
        case .help: lines = helpFrame()
        case .messages(let scroll): lines = messagesFrame(scroll: scroll)
        case .edit(let prompt): lines = editFrame(data, prompt)
        default: lines = tableFrame(data)
        }
        // The status line stays when the screen is too short for the rest.
        if lines.count > height, let status = lines.last { lines = Array(lines.prefix(height - 1)) + [status] }
        return lines
    }

    // MARK: - Styles

    struct Styles {
        let heading = "\u{1B}[1m"
        let focusHeading = "\u{1B}[1;7m"
        let dim = "\u{1B}[2m"
        let status = "\u{1B}[7m"
        let current: String
        let stripe: String
        let match: String
        let check: String
        let reset = "\u{1B}[0m"

        init(color: Bool, zebra: Bool) {
            current = color ? "\u{1B}[48;5;24m" : "\u{1B}[7m"
            stripe = color && zebra ? PlainRenderer.stripe : ""
            match = color ? "\u{1B}[30;43m" : "\u{1B}[4m"
            check = color ? "\u{1B}[1;32m" : "\u{1B}[1m"
        }
    }

    var styles: Styles { Styles(color: color, zebra: options.zebra || color) }

    /// A line being built from pieces of known width, over a base style (a row's background).
    struct LineBuilder {
        let base: String
        let limit: Int
        let styles: Styles
        var text = ""
        var width = 0

        init(base: String, limit: Int, styles: Styles) {
            self.base = base
            self.limit = limit
            self.styles = styles
            text = base
        }

        mutating func add(_ piece: String, width w: Int, style: String = "") {
            guard w > 0 || !piece.isEmpty else { return }
            if style.isEmpty {
                text += piece
            } else {
                text += style + piece + styles.reset + base
            }
            width += w
        }

        mutating func pad(to column: Int) {
            if column > width {
                text += String(repeating: " ", count: column - width)
                width = column
            }
        }

        /// The line, filled to the full width when it has a background.
        mutating func finish() -> String {
            if !base.isEmpty {
                pad(to: limit)
                return text + styles.reset
            }
            return text
        }
    }

    // MARK: - Table

    func tableFrame(_ data: any ViewRows) -> [String] {
        let s = styles
        let placed = placedColumns()
        var lines: [String] = []
        lines.append(contentsOf: headingRows(placed, styles: s))
        var rule = LineBuilder(base: "", limit: width, styles: s)
        for p in placed {
            rule.pad(to: p.x)
            rule.add(String(repeating: measure.ambiguousIsWide ? "-" : "─", count: p.width), width: p.width, style: s.dim)
        }
        lines.append(rule.finish())

        let painter = CellPainter(measure: measure, options: options, width: width)
        let rows = visibleRows(data)
        var used = 0
        for (row, id, record) in rows where used < bodyLines {
            let selectedRow = selected.contains(Int32(id))
            let base = (row == current ? s.current : (row - top) % 2 == 1 ? s.stripe : "") + editStrike(id)
            let place = groupPlace(row)
            if let place, place.first, let groups {
                // W12: the group's heading over its first row.
                lines.append(fitted(groups.heading(place.group), style: s.heading))
                used += 1
                if used >= bodyLines { break }
            }
            record.withFields { fields in
                // C6: with --wrap 2, a row whose text does not fit takes two lines.
                let height = min(rowHeight(fields), bodyLines - used)
                var built = (0..<height).map { _ in LineBuilder(base: base, limit: width, styles: s) }
                if accessoryWidth > 0 {
                    built[0].add(selectedRow ? "✓" : " ", width: 1, style: selectedRow ? s.check : "")
                    drawEditMark(&built[0], id: id)
                }
                for p in placed {
                    let column = columns[p.index]
                    let cell = fields[column.source]
                    let texts = height == 1 ? [painter.draw(cell, column: column, width: p.width)] : painter.drawLines(cell, column: column, width: p.width, lines: height)
                    let hit = search.map { $0.match.matches(cell) } ?? false
                    for k in 0..<height {
                        built[k].pad(to: p.x)
                        built[k].add(texts[k], width: p.width, style: hit ? s.match : "")
                    }
                }
                for k in 0..<height { lines.append(built[k].finish()) }
                used += height
            }
            if let place, place.last, let groups, groups.hasFooter(place.group), used < bodyLines {
                lines.append(footerLine(groups.footers[place.group], placed: placed))
                used += 1
            }
        }
        if rows.isEmpty {
            let note = loading ? "(reading…)" : filter != nil ? "(no rows contain \(filter!.text))" : count > 0 && loadError != nil ? "(the file changed on disk: its rows are not shown)" : "(no rows)"
            lines.append(fitted(note))
        }
        while lines.count < height - 1 { lines.append("") }
        lines.append(statusLine())
        return lines
    }

    /// The rows from `top` that can be on screen (at most a screen of them), with their view row
    /// and row number.
    func visibleRows(_ data: any ViewRows) -> [(row: Int, id: Int, record: Record)] {
        let end = min(count, top + bodyLines)
        var rows: [(row: Int, id: Int, record: Record)] = []
        guard top < end else { return rows }
        if filter == nil && order == nil && !editing.edits.reorders {
            data.scan(top..<end) { id, fields in
                var record = Record()
                for k in 0..<fields.count { record.append(fields[k]) }
                rows.append((id, id, record))
                return true
            }
        } else {
            for row in top..<end { rows.append((row, id(at: row), data.record(id(at: row)))) }
        }
        return rows
    }

    /// A group's footer (W12): `Total` in the first column without a sum that holds it (as in
    /// print, `Layout.totalLabelColumn`), each sum right-aligned in its column.
    func footerLine(_ sums: [String?], placed: [Placed]) -> String {
        let s = styles
        var line = LineBuilder(base: "", limit: width, styles: s)
        let labelAt = Layout.totalLabelColumn(placed.map { sums[$0.index] }, widths: placed.map(\.width), measure: measure)
        for (k, p) in placed.enumerated() {
            line.pad(to: p.x)
            if let sum = sums[p.index] {
                let text = measure.fit(sum, width: p.width, maxLines: 1, ellipsis: options.ellipsis).first ?? TextLine(text: "", width: 0)
                line.add(String(repeating: " ", count: p.width - text.width) + text.text, width: p.width, style: s.heading)
            } else if k == labelAt {
                let text = measure.fit(Layout.totalLabel, width: p.width, maxLines: 1, ellipsis: options.ellipsis).first ?? TextLine(text: "", width: 0)
                line.add(text.text, width: text.width, style: s.heading)
            }
        }
        return line.finish()
    }

    /// The headings, on up to two lines, sitting on the rule (C5); the focused one marked, the
    /// sorted one with ▲ or ▼ (V3).
    func headingRows(_ placed: [Placed], styles s: Styles) -> [String] {
        let cells: [[TextLine]] = placed.map { p in
            let column = columns[p.index]
            // The arrow says the order shown: a sort still waiting for the rows has none yet.
            let sorted = sort.flatMap { $0.column == p.index ? $0.descending : nil }
            guard let descending = sorted else {
                return measure.fitHeading(column.heading, width: p.width, maxLines: headingLines, ellipsis: options.ellipsis)
            }
            // The arrow after the heading, with a space when there is room for one.
            let arrow = descending ? "▼" : "▲"
            guard p.width >= 2 else { return [TextLine(text: arrow, width: 1)] }
            let whole = measure.fitHeading(column.heading, width: p.width, maxLines: headingLines, ellipsis: options.ellipsis)
            let spaced = whole.last.map { $0.width + 2 <= p.width } ?? true
            var lines = spaced ? whole : measure.fitHeading(column.heading, width: p.width - 1, maxLines: headingLines, ellipsis: options.ellipsis)
            if lines.isEmpty { lines = [TextLine(text: "", width: 0)] }
            let last = lines[lines.count - 1]
            let joiner = spaced || last.width + 1 < p.width ? " " : ""
            lines[lines.count - 1] = TextLine(text: last.text + joiner + arrow, width: last.width + joiner.count + 1)
            return lines
        }
        var out: [String] = []
        for line in 0..<headingLines {
            var builder = LineBuilder(base: "", limit: width, styles: s)
            for (k, p) in placed.enumerated() {
                builder.pad(to: p.x)
                let index = line - (headingLines - cells[k].count)
                guard index >= 0 else { continue }
                let text = cells[k][index]
                let right = columns[p.index].alignment == .right
                let padded = right ? String(repeating: " ", count: max(0, p.width - text.width)) + text.text : text.text + String(repeating: " ", count: max(0, p.width - text.width))
                builder.add(padded, width: max(p.width, text.width), style: p.index == focus ? s.focusHeading : s.heading)
            }
            out.append(builder.finish())
        }
        return out
    }

    /// The status line: where the person is, and what is sorted, filtered, searched, selected.
    func statusLine() -> String {
        let s = styles
        if case .prompt(let prompt, let text) = mode {
            let lead = prompt == .search ? "/" : "&"
            var line = LineBuilder(base: "", limit: width, styles: s)
            if width > 1 {
                let shown = measure.fit(Sanitize.visible(lead + text), width: width - 1, maxLines: 1, ellipsis: .middle).first ?? TextLine(text: "", width: 0)
                line.add(shown.text, width: shown.width)
            }
            line.add(" ", width: 1, style: s.status)  // the cursor
            return line.finish()
        }
        if mode == .freeze { return fitted("F: how many columns to freeze (0–9)?", style: s.status) }
        var parts: [String] = []
        if let message { parts.append(message) }
        // The file changed under the view: said before the rest, which it makes moot.
        if let loadError { parts.append(loadError) }
        if let savingNote { parts.append(savingNote) }
        if let runningNote { parts.append(runningNote) }
        let n = count
        let total = Wording.grouped(n)
        parts.append(n == 0 ? "no rows" + (loading ? " yet" : "") : "row \(Wording.grouped(current + 1)) of \(total)\(loading ? "+ (reading…)" : "")")
        if let followNote { parts.append(followNote) }
        if columns.indices.contains(focus) { parts.append(columns[focus].heading) }
        if let sort, columns.indices.contains(sort.column) {
            parts.append("sort: \(columns[sort.column].heading) \(sort.descending ? "▼" : "▲")")
        }
        if let pendingSort, columns.indices.contains(pendingSort.column) {
            parts.append("sorted by \(columns[pendingSort.column].heading) \(pendingSort.descending ? "▼" : "▲") once read")
        }
        if let filter { parts.append("filter \(filter.text): \(Wording.grouped(filter.ids.count)) of \(Wording.grouped(editing.edits.count(loaded: loaded))) rows") }
        if let search {
            let all = "\(Wording.grouped(search.cells)) match\(search.cells == 1 ? "" : "es")"
            if let filter, search.cells > 0 {
                // `n` reaches only the rows the filter shows: the count says which those are.
                let shown = filter.ids.count { id in id >= 0 ? Int(id) < search.hits.count && search.hits[Int(id)] : search.added.contains(Int(id)) }
                parts.append(shown == 0 ? "/\(search.text): no shown row matches (\(all) in rows the filter hides)"
                             : "/\(search.text): \(Wording.grouped(shown)) shown row\(shown == 1 ? "" : "s") match (\(all) in all rows)")
            } else {
                parts.append("/\(search.text): \(all)")
            }
        }
        if !selected.isEmpty { parts.append("\(Wording.grouped(selected.count)) selected") }
        if let groups {
            parts.append("\(Wording.grouped(groups.values.count)) group\(groups.values.count == 1 ? "" : "s")")
        } else if options.groupBy != nil && loading {
            parts.append("grouped once every row is read")
        } else if options.groupBy != nil && groupsStopped {
            parts.append("not grouped (Esc)")
        }
        if let limit = options.limit, loaded >= limit { parts.append("the first \(Wording.grouped(limit)) (--limit)") }
        parts.append(contentsOf: editCounts())
        parts.append(options.title ?? source)
        return statusText(parts.joined(separator: " · "), right: "? keys")
    }

    /// A status line: `left`, cut to fit, and `right` at the right edge. A message cut to fit
    /// says at the right that `M` shows it whole.
    func statusText(_ left: String, right: String) -> String {
        let s = styles
        var right = right
        if (message != nil || loadError != nil) && measure.width(of: Sanitize.visible(left)) > width - measure.width(of: right) - 2 {
            right = "M: all of it"
        }
        let rightWidth = measure.width(of: right)
        let room = width - rightWidth - 2
        var line = LineBuilder(base: s.status, limit: width, styles: s)
        if room >= 8 {
            let shown = measure.fit(Sanitize.visible(left), width: room, maxLines: 1, ellipsis: .end).first ?? TextLine(text: "", width: 0)
            line.add(shown.text, width: shown.width)
            line.pad(to: width - rightWidth)
            line.add(right, width: rightWidth)
        } else {
            let shown = measure.fit(Sanitize.visible(left), width: width, maxLines: 1, ellipsis: .end).first ?? TextLine(text: "", width: 0)
            line.add(shown.text, width: shown.width)
        }
        return line.finish()
    }

    /// One line of text cut to the width.
    func fitted(_ text: String, style: String = "") -> String {
        let shown = measure.fit(Sanitize.visible(text), width: width, maxLines: 1, ellipsis: .end).first ?? TextLine(text: "", width: 0)
        var line = LineBuilder(base: style, limit: width, styles: styles)
        line.add(shown.text, width: shown.width)
        return line.finish()
    }
}

/// Draws one cell into a given width with the printed table's cell code (C2, C3, C7, C8, O5).
final class CellPainter {
    private let measure: DisplayWidth
    private let ellipsis: EllipsisMode
    private let sink = MemorySink()
    private let out: OutputBuffer
    private let renderer: PlainRenderer

    init(measure: DisplayWidth, options: FormatOptions, width: Int) {
        self.measure = measure
        ellipsis = options.ellipsis
        out = OutputBuffer(sink, capacity: 4096)
        var plan = LayoutPlan(mode: .table, columns: [], omitted: [], headingLines: 1, cellLines: 1, gap: options.style.gap)
        plan.containerWidth = max(1, width)
        plan.ellipsis = options.ellipsis
        plan.nullText = options.nullText
        renderer = PlainRenderer(plan: plan, out: out, measure: measure, style: .rule)
    }

    /// The cell on `lines` lines (C6): text wrapped at spaces, a number on the first line; each
    /// line padded to `width`.
    func drawLines(_ cell: UnsafeBufferPointer<UInt8>, column: ColumnLayout, width: Int, lines: Int) -> [String] {
        let blank = String(repeating: " ", count: width)
        if cell.isEmpty || (column.numberParts != nil && NumberShape.parse(cell) != nil) {
            return [draw(cell, column: column, width: width)] + Array(repeating: blank, count: lines - 1)
        }
        // On the cell's bytes where it holds only plain scalars, as the printer's rows are.
        var plain: [CellLine] = []
        let fitted = measure.fitPlain(cell, width: width, maxLines: lines, ellipsis: ellipsis, into: &plain)
            ? plain.map { $0.textLine(of: cell) }
            : measure.fit(utf8: cell, width: width, maxLines: lines, ellipsis: ellipsis)
        return (0..<lines).map { k in
            guard k < fitted.count else { return blank }
            let pad = String(repeating: " ", count: max(0, width - fitted[k].width))
            return column.alignment == .right ? pad + fitted[k].text : fitted[k].text + pad
        }
    }

    /// The cell's text, padded to `width` (aligned as its column aligns), cut with `…` when wider.
    func draw(_ cell: UnsafeBufferPointer<UInt8>, column: ColumnLayout, width: Int) -> String {
        // Narrowed on screen, a number that no longer fits is cut like text, marked with `…`;
        // widened (a sorted column's arrow), the cells keep their alignment in the wider space.
        var slot = CellSlot(column)
        slot.width = width
        renderer.startLoneCell()
        try? renderer.cell(cell, in: slot, padded: true, ascii: DisplayWidth.printableASCIIWidth(cell))
        out.flushPadding()
        try? out.flush()
        return String(decoding: sink.take(), as: UTF8.self)
    }
}
