/// Draws a plan as plain text (SPEC O2 `rule` style): headings, a rule of `─` under them, then
/// the rows, columns `gap` spaces apart, numbers aligned on their points (C2), units taken out
/// where the heading carries them (C3), text cut (C7) or wrapped (C6) to its width; list-report
/// blocks (W8); group headings and footers (W12); a title and notes (W14).
public final class PlainRenderer: Renderer {
    let plan: LayoutPlan
    let out: OutputBuffer
    let measure: DisplayWidth
    /// Cells that had to be cut (wider than their column).
    public private(set) var cutCells = 0
    private let nullLine: TextLine
    /// The columns of the table being drawn.
    private var columns: [ColumnLayout]
    /// Whether anything was drawn yet (blocks, bands and groups are separated by a blank line).
    private var started = false
    private var groupsDrawn = 0

    public init(plan: LayoutPlan, out: OutputBuffer, measure: DisplayWidth) {
        self.plan = plan
        self.out = out
        self.measure = measure
        self.columns = plan.columns
        nullLine = TextLine(text: Sanitize.visible(plan.nullText), width: measure.width(of: plan.nullText))
    }

    public func title(_ text: String) throws(OutputError) {
        for line in measure.fit(text, width: plan.valueWidth.map { $0 + plan.labelWidth + plan.gap } ?? Int.max, maxLines: Int.max, ellipsis: plan.ellipsis) {
            try out.write(line.text)
            try out.newline()
        }
        started = true
    }

    public func beginTable(_ columns: [ColumnLayout], caption: String?) throws(OutputError) {
        self.columns = columns
        if let caption {
            if started { try out.newline() }
            try out.write(Sanitize.visible(caption))
            try out.newline()
        }
        started = true
        let lines = columns.map { measure.fit($0.heading, width: $0.width, maxLines: plan.headingLines, ellipsis: plan.ellipsis) }
        let height = lines.map(\.count).max() ?? 1
        for row in 0..<height {
            for (k, column) in columns.enumerated() {
                if k > 0 { out.pad(plan.gap) }
                // Headings sit on the rule: a shorter heading takes the lower lines.
                let index = row - (height - lines[k].count)
                let line = index >= 0 ? lines[k][index] : TextLine(text: "", width: 0)
                try place(line, in: column)
            }
            try out.newline()
        }
        try rule(columns.map { _ in true })
    }

    /// A rule of `─` under the columns marked true.
    private func rule(_ marked: [Bool]) throws(OutputError) {
        for (k, column) in columns.enumerated() {
            if k > 0 { out.pad(plan.gap) }
            if marked[k] { try out.write(String(repeating: "─", count: column.width)) } else { out.pad(column.width) }
        }
        try out.newline()
    }

    public func endTable() throws(OutputError) {}

    public func groupHeading(_ text: String) throws(OutputError) {
        if groupsDrawn > 0 { try out.newline() }
        groupsDrawn += 1
        try out.write(Sanitize.visible(text))
        try out.newline()
    }

    public func groupFooter(_ cells: [String?], label: String) throws(OutputError) {
        guard cells.contains(where: { $0 != nil }) else { return }
        try rule(cells.map { $0 != nil })
        for (k, column) in columns.enumerated() {
            if k > 0 { out.pad(plan.gap) }
            if let text = cells[k] {
                var bytes = Array(text.utf8)
                try bytes.withUnsafeMutableBufferPointer { (buffer) throws(OutputError) in try cell(UnsafeBufferPointer(buffer), in: column) }
            } else if k == 0 {
                try place(measure.fit(label, width: column.width, maxLines: 1, ellipsis: plan.ellipsis).first ?? TextLine(text: "", width: 0), in: column)
            } else {
                out.pad(column.width)
            }
        }
        try out.newline()
    }

    public func finish() throws(OutputError) { try out.flush() }

    // MARK: - List report (W8)

    public func block(_ record: Record) throws(OutputError) {
        if started { try out.newline() }
        started = true
        let fields = plan.columns
        guard let first = fields.first else { return }
        let limit = plan.valueWidth.map { $0 + plan.labelWidth + plan.gap } ?? Int.max
        let title = record.count > first.source ? displayText(record, first) : ""
        for line in measure.fit(title.isEmpty ? "—" : title, width: limit, maxLines: Int.max, ellipsis: plan.ellipsis) {
            try out.write(line.text)
            try out.newline()
        }
        for field in fields.dropFirst() {
            let labels = measure.fit(field.heading, width: plan.labelWidth, maxLines: Int.max, ellipsis: plan.ellipsis)
            let value = field.source < record.count ? displayText(record, field) : ""
            let values = value.isEmpty ? [nullLine] : measure.fit(value, width: plan.valueWidth ?? Int.max, maxLines: Int.max, ellipsis: plan.ellipsis)
            for k in 0..<max(labels.count, values.count) {
                let label = k < labels.count ? labels[k] : TextLine(text: "", width: 0)
                try out.write(label.text)
                out.pad(plan.labelWidth - label.width + plan.gap)
                if k < values.count { try out.write(values[k].text) }
                try out.newline()
            }
        }
    }

    /// A field's text as a list report shows it: a unit the label carries is taken out.
    private func displayText(_ record: Record, _ field: ColumnLayout) -> String {
        record.bytes.withUnsafeBufferPointer { all in
            let cell = UnsafeBufferPointer(rebasing: all[record.range(of: field.source)])
            if field.stripUnit, let shape = NumberShape.parse(cell), shape.unit != nil {
                var text = shape.detachedSign.map { String(UnicodeScalar(cell[$0])) } ?? ""
                text += String(decoding: UnsafeBufferPointer(rebasing: cell[shape.number]), as: UTF8.self)
                return text
            }
            return String(decoding: cell, as: UTF8.self)
        }
    }

    /// One row: one line, or two where `--wrap 2` lets a cell wrap.
    /// - Complexity: O(bytes of the row); plain ASCII cells that fit are copied without a `String`.
    public func row(_ record: Record) throws(OutputError) {
        try record.bytes.withUnsafeBufferPointer { (all) throws(OutputError) in
            if plan.cellLines > 1 && needsSecondLine(record, all) {
                try wrappedRow(record, all)
                return
            }
            for (k, column) in columns.enumerated() {
                if k > 0 { out.pad(plan.gap) }
                try cell(field(record, all, column.source), in: column)
            }
        }
        try out.newline()
    }

    /// A note under the table, in plain words.
    public func note(_ text: String) throws(OutputError) {
        try out.write(text)
        try out.newline()
    }

    // MARK: - Cells

    private func field(_ record: Record, _ all: UnsafeBufferPointer<UInt8>, _ index: Int) -> UnsafeBufferPointer<UInt8> {
        guard index < record.count else { return UnsafeBufferPointer(rebasing: all[0..<0]) }
        return UnsafeBufferPointer(rebasing: all[record.range(of: index)])
    }

    /// One cell on one line.
    private func cell(_ cell: UnsafeBufferPointer<UInt8>, in column: ColumnLayout) throws(OutputError) {
        if cell.isEmpty {
            try place(nullLine, in: column)
            return
        }
        if let parts = column.numberParts, let shape = NumberShape.parse(cell) {
            let number = numberLayout(cell, shape, column)
            if number.integer + number.fraction <= column.width {
                out.pad(column.width - parts.integer - parts.fraction + (parts.integer - number.integer))
                if number.stripped {
                    if let sign = shape.detachedSign { try out.write(byte: cell[sign]) }
                    try out.write(UnsafeBufferPointer(rebasing: cell[shape.number]))
                } else {
                    try out.write(cell)
                }
                out.pad(parts.fraction - number.fraction)
                return
            }
        }
        let width = measure.width(utf8: cell)
        if width <= column.width && !Sanitize.needsEscaping(utf8: cell) {
            if column.alignment == .right {
                out.pad(column.width - width)
                try out.write(cell)
            } else {
                try out.write(cell)
                out.pad(column.width - width)
            }
            return
        }
        if width > column.width { cutCells += 1 }
        let text = String(decoding: cell, as: UTF8.self)
        let line = measure.fit(text, width: column.width, maxLines: 1, ellipsis: plan.ellipsis).first ?? TextLine(text: "", width: 0)
        try place(line, in: column)
    }

    /// How a number sits: the widths before and from its decimal separator, unit out or in.
    private func numberLayout(_ cell: UnsafeBufferPointer<UInt8>, _ shape: NumberShape, _ column: ColumnLayout) -> (integer: Int, fraction: Int, stripped: Bool) {
        if column.stripUnit && shape.unit != nil {
            let sign = shape.detachedSign == nil ? 0 : 1
            return (sign + shape.point, shape.number.count - shape.point, true)
        }
        let width = measure.width(utf8: cell)
        let pointByte = shape.number.lowerBound + shape.point
        let before = pointByte == cell.count ? width : measure.width(utf8: UnsafeBufferPointer(rebasing: cell[0..<pointByte]))
        return (before, width - before, false)
    }

    private func place(_ line: TextLine, in column: ColumnLayout) throws(OutputError) {
        if column.alignment == .right {
            out.pad(column.width - line.width)
            try out.write(line.text)
        } else {
            try out.write(line.text)
            out.pad(column.width - line.width)
        }
    }

    // MARK: - Two-line rows (C6)

    /// Whether any text cell of the row is wider than its column or holds a line break.
    private func needsSecondLine(_ record: Record, _ all: UnsafeBufferPointer<UInt8>) -> Bool {
        for column in columns {
            let cell = field(record, all, column.source)
            if cell.isEmpty { continue }
            if column.numberParts != nil && NumberShape.parse(cell) != nil { continue }
            if cell.contains(0x0A) || measure.width(utf8: cell) > column.width { return true }
        }
        return false
    }

    /// A row whose cells may take two lines: text wraps at spaces, numbers stay on the first line.
    private func wrappedRow(_ record: Record, _ all: UnsafeBufferPointer<UInt8>) throws(OutputError) {
        var cells: [[TextLine]] = []
        for column in columns {
            let cell = field(record, all, column.source)
            if cell.isEmpty {
                cells.append([nullLine])
                continue
            }
            if let parts = column.numberParts, let shape = NumberShape.parse(cell) {
                let number = numberLayout(cell, shape, column)
                if number.integer + number.fraction <= column.width {
                    var text = ""
                    if number.stripped {
                        if let sign = shape.detachedSign { text.unicodeScalars.append(Unicode.Scalar(cell[sign])) }
                        text += String(decoding: UnsafeBufferPointer(rebasing: cell[shape.number]), as: UTF8.self)
                    } else {
                        text = String(decoding: cell, as: UTF8.self)
                    }
                    // Lead spaces are part of the line, so `place` keeps the points aligned.
                    let lead = column.width - parts.integer - parts.fraction + (parts.integer - number.integer)
                    let trail = parts.fraction - number.fraction
                    cells.append([TextLine(text: String(repeating: " ", count: lead) + text + String(repeating: " ", count: trail), width: lead + number.integer + number.fraction + trail)])
                    continue
                }
            }
            let text = String(decoding: cell, as: UTF8.self)
            let lines = measure.fit(text, width: column.width, maxLines: plan.cellLines, ellipsis: plan.ellipsis)
            if lines.count == plan.cellLines, let last = lines.last, last.text.hasSuffix("…") || last.text.contains("…") && !text.contains("…") {
                cutCells += 1
            }
            cells.append(lines)
        }
        let height = cells.map(\.count).max() ?? 1
        for line in 0..<height {
            for (k, column) in columns.enumerated() {
                if k > 0 { out.pad(plan.gap) }
                try place(line < cells[k].count ? cells[k][line] : TextLine(text: "", width: 0), in: column)
            }
            if line + 1 < height { try out.newline() }
        }
    }
}
