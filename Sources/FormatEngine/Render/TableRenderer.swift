/// Draws a planned table as plain text (SPEC O2 `rule` style): headings, a rule of `─` under
/// them, then the rows, columns `gap` spaces apart, numbers aligned on their points (C2).
public final class TableRenderer {
    let plan: LayoutPlan
    let out: OutputBuffer
    let measure: DisplayWidth
    /// Cells that had to be cut (text wider than its column).
    public private(set) var cutCells = 0
    private var scratch: [String] = []

    public init(plan: LayoutPlan, out: OutputBuffer, measure: DisplayWidth) {
        self.plan = plan
        self.out = out
        self.measure = measure
    }

    /// The heading lines and the rule.
    public func heading() throws(OutputError) {
        let lines = plan.columns.map { measure.fit($0.heading, width: $0.width, maxLines: plan.headingLines, ellipsis: .end) }
        let height = lines.map(\.count).max() ?? 1
        for row in 0..<height {
            for (k, column) in plan.columns.enumerated() {
                if k > 0 { out.pad(plan.gap) }
                // Headings sit on the rule: a shorter heading takes the lower lines.
                let index = row - (height - lines[k].count)
                let line = index >= 0 ? lines[k][index] : TextLine(text: "", width: 0)
                try place(line, in: column)
            }
            try out.newline()
        }
        for (k, column) in plan.columns.enumerated() {
            if k > 0 { out.pad(plan.gap) }
            try out.write(String(repeating: "─", count: column.width))
        }
        try out.newline()
    }

    /// One row.
    /// - Complexity: O(bytes of the row); plain ASCII cells that fit are copied without a `String`.
    public func row(_ record: Record) throws(OutputError) {
        try record.bytes.withUnsafeBufferPointer { (all) throws(OutputError) in
            var start = 0
            var k = 0
            for column in plan.columns {
                if k > 0 { out.pad(plan.gap) }
                k += 1
                let cell: UnsafeBufferPointer<UInt8>
                if column.source < record.count {
                    let range = record.range(of: column.source)
                    cell = UnsafeBufferPointer(rebasing: all[range])
                    start = range.upperBound
                } else {
                    cell = UnsafeBufferPointer(rebasing: all[start..<start])
                }
                try self.cell(cell, in: column)
            }
        }
        try out.newline()
    }

    /// A note under the table, in plain words.
    public func note(_ text: String) throws(OutputError) {
        try out.write(text)
        try out.newline()
    }

    private func cell(_ cell: UnsafeBufferPointer<UInt8>, in column: ColumnLayout) throws(OutputError) {
        let width = measure.width(utf8: cell)
        if width <= column.width && !Sanitize.needsEscaping(utf8: cell) {
            if let parts = column.numberParts, CellKind.of(cell) != .null {
                // Points line up: the integer part ends at the same place in every row.
                let point = NumberParts.pointIndex(cell)
                out.pad(column.width - parts.integer - parts.fraction + (parts.integer - point))
                try out.write(cell)
                out.pad(parts.fraction - (width - point))
            } else if column.alignment == .right {
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
        let line = measure.fit(text, width: column.width, maxLines: 1, ellipsis: .end).first ?? TextLine(text: "", width: 0)
        try place(line, in: column)
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
}
