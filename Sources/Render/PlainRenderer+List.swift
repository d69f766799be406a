import Input
import Layout
import Options
import Profile
import Support
import Text
import Transform
/// The list report (W8): a block per row, its title, then a line per field, label and value.
extension PlainRenderer {
    /// The width of a cell shown as its bytes on one line of a list report, as `fit` would show
    /// it: nil for an empty cell, one whose unit is taken out (C3), one long enough to be wrapped
    /// a piece at a time, or one that needs escaping (O5). Such a cell is written without a
    /// `String` or a `TextLine` when it fits its line.
    @inline(__always)
    package func shownAsIs(_ cell: UnsafeBufferPointer<UInt8>, stripUnit: Bool) -> Int? {
        shownWidth(cell, stripUnit: stripUnit)?.width
    }

    /// `shownAsIs`, and whether the cell is common text (printable ASCII or `commonWidth`'s
    /// scalars, which `fitPlain` takes with this width).
    @inline(__always)
    package func shownWidth(_ cell: UnsafeBufferPointer<UInt8>, stripUnit: Bool) -> (width: Int, common: Bool)? {
        guard !cell.isEmpty, !stripUnit, cell.count <= 1 << 16 else { return nil }
        if let ascii = DisplayWidth.printableASCIIWidth(cell) { return (ascii, true) }
        var escapes = false
        var common = false
        let width = measure.nonASCIIWidth(utf8: cell, escapes: &escapes, common: &common)
        return escapes ? nil : (width, common)
    }

    package func block(_ fields: Fields) throws(OutputError) {
        if started { try endLine() }
        started = true
        let shown = plan.columns
        guard let first = shown.first else { return }
        let limit = plan.containerWidth ?? Int.max
        let titleCell = fields[first.source]
        if limit > 0, let width = shownAsIs(titleCell, stripUnit: first.stripUnit), width <= limit {
            try styled(titleCell, Self.bold)
            try endLine()
        } else if titleCell.count > 1 << 16 && !first.stripUnit {
            try measure.forEachWrappedLine(utf8: titleCell, width: limit) { (line) throws(OutputError) in
                try styled(line.text, Self.bold)
                try endLine()
            }
        } else {
            let title = first.shownText(fields)
            for line in measure.fit(title.isEmpty ? "—" : title, width: limit, maxLines: Int.max, ellipsis: plan.ellipsis) {
                try styled(line.text, Self.bold)
                try endLine()
            }
        }
        let valueWidth = plan.valueWidth ?? Int.max
        // The common line, in the loop without a call: a one-line label, then a value shown as
        // its bytes that fits (`shownAsIs`). Any other goes to `listField`.
        try listSlots.withUnsafeBufferPointer { (slots) throws(OutputError) in
            try listLabelBytes.withUnsafeBufferPointer { (labels) throws(OutputError) in
                for f in 0..<slots.count {
                    if fieldStarts != nil { fieldStarts!.append(out.lines) }
                    let slot = slots[f]
                    let cell = fields[slot.source]
                    let shown = slot.oneLineLabel && valueWidth > 0 ? shownWidth(cell, stripUnit: slot.stripUnit) : nil
                    if let width = shown?.width, width <= valueWidth {
                        try out.write(UnsafeBufferPointer(rebasing: labels[slot.labelStart..<(slot.labelStart &+ slot.labelCount)]))
                        out.pad(slot.labelPad)
                        try out.write(cell)
                        try endLine()
                    } else {
                        // A common cell's width, measured here, need not be measured again.
                        try listField(fields, f, valueWidth: valueWidth, commonWidth: shown?.common == true ? shown?.width : nil)
                    }
                }
            }
        }
    }

    /// The lines of the `f`-th field after the title in a list report block: the label's lines
    /// beside the value's.
    /// - Parameter commonWidth: the cell's width when the caller found it common text.
    private func listField(_ fields: Fields, _ f: Int, valueWidth: Int, commonWidth: Int? = nil) throws(OutputError) {
        let field = plan.columns[f + 1]
        let labels = listLabels[f]
        var k = 0
        /// One line of the block: the label's k-th line (if any), then a value line.
        func line(_ value: TextLine?, dim: Bool) throws(OutputError) {
            try labelLine()
            if let value { try styled(value.text, dim ? Self.dim : "") }
            try endLine()
        }
        /// The label's k-th line (if any) and the room to the value.
        func labelLine() throws(OutputError) {
            let label = k < labels.count ? labels[k] : TextLine(text: "", width: 0)
            try out.write(label.text)
            out.pad(plan.labelWidth - label.width + plan.gap)
            k += 1
        }
        let cell = fields[field.source]
        if !field.stripUnit, !cell.isEmpty, cell.count <= 1 << 16,
           measure.fitPlain(cell, width: valueWidth, maxLines: Int.max, ellipsis: plan.ellipsis, total: commonWidth, into: &fitLines) {
            // Wrapped on its bytes (plain scalars only), without a String.
            for shown in fitLines {
                try labelLine()
                try place(shown, of: cell, width: shown.width, right: false)
                try endLine()
            }
        } else if cell.count > 1 << 16 && !field.stripUnit {
            // A long value is wrapped a piece at a time, never held whole as text (P2).
            try measure.forEachWrappedLine(utf8: cell, width: valueWidth) { (value) throws(OutputError) in try line(value, dim: false) }
        } else {
            let value = field.shownText(fields)
            let values = value.isEmpty ? [nullLine] : measure.fit(value, width: valueWidth, maxLines: Int.max, ellipsis: plan.ellipsis)
            for shown in values { try line(shown, dim: value.isEmpty) }
        }
        while k < labels.count { try line(nil, dim: false) }
    }
}
