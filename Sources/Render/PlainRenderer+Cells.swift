import Input
import Layout
import Options
import Profile
import Support
import Text
import Transform
/// What drawing a cell needs of its column, without the heading: a trivial value, so the row loop
/// copies no strings and counts no references.
package struct CellSlot {
    package var source: Int
    package var width: Int
    package var right: Bool
    package var numeric: Bool
    package var integer: Int
    package var fraction: Int
    package var stripUnit: Bool
    /// Whether a printable ASCII cell that fits may be drawn as right-aligned text, number or not
    /// (`endsLikeColumn`): the column is right-aligned and, if numeric, keeps its numbers' units.
    package var rightEdgeAligned: Bool
    /// Whether a printable ASCII cell that fits is drawn as text with nothing to parse
    /// (`plainASCIICell`), as the row loop that draws in place asks it (`notedRow`).
    package var plainASCII: PlainASCII
    /// What comes before the cell on its line, for the row loop that draws in place: spaces
    /// (the gap; 0 for the first column), or -1 for a bordered table's column separator.
    package var before = 0

    /// How `plainASCIICell` draws a printable ASCII cell that fits its column.
    package enum PlainASCII: UInt8 {
        /// Left-aligned, in a text column.
        case left
        /// Right-aligned, when it ends where the column's numbers end (`endsLikeColumn`).
        case rightEdge
        /// Not so: `cell` draws it.
        case never
    }

    package init(_ column: ColumnLayout) {
        source = column.source
        width = column.width
        right = column.alignment == .right
        numeric = column.numberParts != nil
        integer = column.numberParts?.integer ?? 0
        fraction = column.numberParts?.fraction ?? 0
        stripUnit = column.stripUnit
        rightEdgeAligned = right && !(numeric && stripUnit)
        plainASCII = rightEdgeAligned ? .rightEdge : !right && !numeric ? .left : .never
    }
}

/// What a list report's line needs of a shown column after the first (W8), a trivial value as
/// `CellSlot` is: where the cell is, whether its unit is taken out, and its label's first line
/// (`labelCount` bytes at `labelStart` of the renderer's `listLabelBytes`) with the spaces
/// between it and the value.
package struct ListSlot {
    package var source: Int
    package var stripUnit: Bool
    package var labelStart: Int
    package var labelCount: Int
    package var labelPad: Int
    /// Whether the label takes one line (a longer one is drawn beside the value's lines).
    package var oneLineLabel: Bool
}

extension PlainRenderer {
    // MARK: - Cells

    /// Any cell on one line, in the row loop: the common ones without a call (`plainASCIICell`,
    /// `commonTextCell`), the rest by `cell`.
    /// - Parameter padded: false when nothing follows the cell on its line.
    @inline(__always)
    package func anyCell(_ cell: UnsafeBufferPointer<UInt8>, in slot: CellSlot, padded: Bool) throws(OutputError) {
        let ascii = DisplayWidth.printableASCIIWidth(cell)
        if try plainASCIICell(cell, ascii: ascii, in: slot) { return }
        if ascii == nil, try commonTextCell(cell, in: slot) { return }
        try self.cell(cell, in: slot, padded: padded, ascii: ascii)
    }

    /// The common cell, drawn in the row loop without a call: printable ASCII (`ascii`, its width,
    /// `DisplayWidth.printableASCIIWidth`) that fits, in a text column (left-aligned) or ending at
    /// the right edge of a right-aligned one as a number would (`endsLikeColumn`). Draws it as
    /// `cell` would and returns true; false for any other cell, which is left to `cell`.
    @inline(__always)
    package func plainASCIICell(_ cell: UnsafeBufferPointer<UInt8>, ascii: Int?, in column: CellSlot) throws(OutputError) -> Bool {
        guard let ascii, ascii != 0, ascii <= column.width else { return false }
        if column.rightEdgeAligned {
            guard Self.endsLikeColumn(cell, column) else { return false }
            out.pad(column.width &- ascii)
            try out.write(cell)
            return true
        }
        guard !column.right && !column.numeric else { return false }
        try out.write(cell)
        out.pad(column.width &- ascii)
        return true
    }

    /// The common non-ASCII cell, drawn in the row loop without a call: text of the scalars
    /// `DisplayWidth.commonWidth` measures (Latin letters, CJK, kana, Hangul syllables beside
    /// printable ASCII) that fits a text column, left or right. Draws it as `cell` would (nothing
    /// in it is escaped) and returns true; false for any other cell, which is left to `cell`.
    @inline(__always)
    package func commonTextCell(_ cell: UnsafeBufferPointer<UInt8>, in column: CellSlot) throws(OutputError) -> Bool {
        // Common text takes at least a column for every three bytes (`ễ`): more cannot fit.
        guard !column.numeric, !cell.isEmpty, cell.count <= 3 &* column.width,
              let width = measure.commonWidth(cell), width <= column.width else { return false }
        if column.right {
            out.pad(column.width &- width)
            try out.write(cell)
        } else {
            try out.write(cell)
            out.pad(column.width &- width)
        }
        return true
    }

    /// One cell on one line. (The row loop draws the common cell itself, `plainASCIICell`, and
    /// calls this for any other.)
    /// - Parameters:
    ///   - padded: false when nothing follows the cell on its line (its padding is dropped).
    ///   - ascii: the cell's `DisplayWidth.printableASCIIWidth` (plain ASCII is measured by its
    ///     length and needs no escaping), found once by the caller.
    package func cell(_ cell: UnsafeBufferPointer<UInt8>, in column: CellSlot, padded: Bool = true, ascii: Int?) throws(OutputError) {
        if cell.isEmpty {
            try place(nullLine, width: column.width, right: column.right, code: Self.dim)
            return
        }
        // Left-aligned text with nothing after it need not be measured when it surely fits: with
        // nothing to escape a cell is never wider than its bytes.
        if !padded && !column.right && ascii == nil && cell.count <= column.width && !Sanitize.needsEscaping(utf8: cell) {
            try out.write(cell)
            return
        }
        if column.numeric, let shape = NumberShape.parse(cell) {
            let number = numberLayout(cell, shape, stripUnit: column.stripUnit, ascii: ascii)
            let (lead, trail) = Self.numberPadding(number, in: column)
            // Numbers are never cut (C7): one wider than its column (a pipe's row after the sizing
            // window) is written whole and the line grows, as long as it still fits the container.
            if takeOverflow(-lead) {
                if lead < 0 { grown += 1 }
                out.pad(lead)
                if number.stripped {
                    if let sign = shape.detachedSign { try out.write(byte: cell[sign]) }
                    try out.write(UnsafeBufferPointer(rebasing: cell[shape.number]))
                } else {
                    try out.write(cell)
                }
                out.pad(trail)
                return
            }
        }
        var escapes = false
        // Plain text (each scalar a cluster of its own, none escaped: `fitPlain`) is measured,
        // and cut, on its bytes; any other by the full measure.
        let plain = ascii ?? measure.plainWidth(utf8: cell)
        let width = plain ?? measure.nonASCIIWidth(utf8: cell, escapes: &escapes)
        if width <= column.width && !escapes {
            if column.right {
                out.pad(column.width - width)
                try out.write(cell)
            } else {
                try out.write(cell)
                out.pad(column.width - width)
            }
            return
        }
        if width > column.width && !plan.keepsColumns
            && (plan.containerWidth == nil || (grows && takeOverflow(width - column.width))) {
            // Wider than its column after the sizing window (a pipe's, a followed file's row):
            // shown whole, the line grows, while there is no width limit or it still fits.
            grown += 1
            try place(TextLine(text: Sanitize.visible(String(decoding: cell, as: UTF8.self)), width: width), width: column.width, right: column.right)
            return
        }
        if width > column.width { cuts += 1 }
        // After the sizing window, what room the line has left is the cut cell's too.
        var wide = column.width
        if grows && width > column.width && !plan.keepsColumns, let slack, slack > rowOverflow {
            wide += slack - rowOverflow
            _ = takeOverflow(slack - rowOverflow)
        }
        // Cut on the cell's bytes where it holds only plain scalars (no String made), else by
        // its grapheme clusters.
        if let plain, let line = measure.fitPlainLine(cell, width: wide, ellipsis: plan.ellipsis, total: plain) {
            return try place(line, of: cell, width: column.width, right: column.right)
        }
        let line = measure.fit(utf8: cell, width: wide, maxLines: 1, ellipsis: plan.ellipsis).first ?? TextLine(text: "", width: 0)
        try place(line, width: column.width, right: column.right)
    }

    /// Puts a line fitted from a cell's bytes (`DisplayWidth.fitPlain`) in a column, aligned.
    package func place(_ line: CellLine, of cell: UnsafeBufferPointer<UInt8>, width: Int, right: Bool) throws(OutputError) {
        line.checkWithin(cell)
        if right { out.pad(width &- line.width) }
        try out.write(UnsafeBufferPointer(rebasing: cell[line.head]))
        if line.ellipsis {
            // U+2026 `…` (`DisplayWidth.ellipsis`) in UTF-8.
            try out.write(byte: 0xE2)
            try out.write(byte: 0x80)
            try out.write(byte: 0xA6)
        }
        if !line.tail.isEmpty { try out.write(UnsafeBufferPointer(rebasing: cell[line.tail])) }
        if !right { out.pad(width &- line.width) }
    }

    /// Whether a cell, were it a number, would end at the right edge of its numeric column (its
    /// fraction part as wide as the column's), so it is drawn the same whether it is one or not.
    /// A column without fraction parts ends every number there: one with a fraction part is wider
    /// than the column's parts and is right-aligned too. Otherwise the cell's `.` must stand where
    /// the column's point does: a number's `.` is always its point (a unit has none).
    @inline(__always)
    package static func endsLikeColumn(_ cell: UnsafeBufferPointer<UInt8>, _ column: CellSlot) -> Bool {
        let fraction = column.fraction
        return fraction == 0 || (fraction <= cell.count && cell[cell.count &- fraction] == UInt8(ascii: "."))
    }

    /// Whether the cell's own text has `…` (E2 80 A6), so a `…` in its lines is not a cut.
    package static func containsEllipsis(_ cell: UnsafeBufferPointer<UInt8>) -> Bool {
        var k = 0
        while k + 2 < cell.count {
            if cell[k] == 0xE2 && cell[k + 1] == 0x80 && cell[k + 2] == 0xA6 { return true }
            k += 1
        }
        return false
    }

    /// The spaces before and after a number so its point lines up with the column's; when one of
    /// its parts is wider than the column's (a pipe's row after the sizing window) it is
    /// right-aligned instead, and when it is wider than the column, `lead` is negative.
    @inline(__always)
    package static func numberPadding(_ number: (integer: Int, fraction: Int, stripped: Bool), in column: CellSlot) -> (lead: Int, trail: Int) {
        // Widths of a line: no overflow to check.
        let lead = column.width &- column.fraction &- number.integer
        let trail = column.fraction &- number.fraction
        if lead >= 0 && trail >= 0 { return (lead, trail) }
        return (column.width &- number.integer &- number.fraction, 0)
    }

    /// How a number sits: the widths before and from its decimal separator, unit out or in.
    package func numberLayout(_ cell: UnsafeBufferPointer<UInt8>, _ shape: NumberShape, stripUnit: Bool, ascii: Int? = nil) -> (integer: Int, fraction: Int, stripped: Bool) {
        shape.layout(cell, stripUnit: stripUnit, measure: measure, ascii: ascii)
    }

    /// Puts a line of display text in a column, aligned, in an ANSI style if `code` is given.
    package func place(_ line: TextLine, in column: borrowing ColumnLayout, code: String = "") throws(OutputError) {
        try place(line, width: column.width, right: column.alignment == .right, code: code)
    }

    package func place(_ line: TextLine, width: Int, right: Bool, code: String = "") throws(OutputError) {
        if right {
            out.pad(width - line.width)
            try styled(line.text, code)
        } else {
            try styled(line.text, code)
            out.pad(width - line.width)
        }
    }

    // MARK: - Two-line rows (C6)

    /// The first text cell of the row wider than its column or holding a line break (so the row
    /// takes more than one line): its column's index, and its width when the light common scan
    /// measured it (−1 when not), for `wrappedRow` to fit it without measuring it again. Nil when
    /// every cell fits on one line.
    package func firstWideCell(_ fields: Fields) -> (column: Int, width: Int)? {
        for (k, slot) in slots.enumerated() {
            let cell = fields[slot.source]
            if cell.isEmpty { continue }
            if slot.numeric && NumberShape.parse(cell) != nil { continue }
            // Common text (no line break in it) is measured by the light scan alone.
            if let common = measure.commonWidth(cell) {
                if common > slot.width { return (k, common) }
            } else if cell.contains(0x0A) || measure.width(utf8: cell) > slot.width {
                return (k, -1)
            }
        }
        return nil
    }

    /// One cell of a row whose cells may take several lines, ready to be drawn line by line.
    package enum WrappedCell {
        /// An empty cell: `nullLine` on its first line.
        case null
        /// A number on its first line: `lead` spaces, its sign byte (when its unit was stripped
        /// from between them), its bytes, `trail` spaces; `width` columns in all.
        case number(lead: Int, sign: Int?, bytes: Range<Int>, trail: Int, width: Int)
        /// Lines cut from the cell's bytes: `wrappedLines[range]`.
        case plain(Range<Int>)
        /// Lines fitted as text (a cell holding more than plain scalars).
        case text([TextLine])

        /// The cell's lines, and its widest line's width.
        func size(in lines: [CellLine], null: TextLine) -> (lines: Int, width: Int) {
            switch self {
            case .null: return (1, null.width)
            case .number(_, _, _, _, let width): return (1, width)
            case .plain(let range):
                var widest = 0
                for k in range { widest = max(widest, lines[k].width) }
                return (range.count, widest)
            case .text(let text):
                var widest = 0
                for line in text { widest = max(widest, line.width) }
                return (text.count, widest)
            }
        }
    }

    /// A row whose cells may take two lines: text wraps at spaces, numbers stay on the first line.
    /// - Parameter measured: `firstWideCell`'s answer, its width used for its cell.
    package func wrappedRow(_ fields: Fields, striped: Bool, measured: (column: Int, width: Int)? = nil) throws(OutputError) {
        wrappedCells.removeAll(keepingCapacity: true)
        wrappedLines.removeAll(keepingCapacity: true)
        for (k, slot) in slots.enumerated() {
            let cell = fields[slot.source]
            if cell.isEmpty {
                wrappedCells.append(.null)
                continue
            }
            if slot.numeric, let shape = NumberShape.parse(cell) {
                let number = numberLayout(cell, shape, stripUnit: slot.stripUnit)
                // Never cut while the line still fits the container (C7, as in `cell`).
                if takeOverflow(number.integer + number.fraction - slot.width) {
                    // Lead spaces are part of the line, so `place` keeps the points aligned.
                    let (padding, trail) = Self.numberPadding(number, in: slot)
                    let lead = max(0, padding)
                    let bytes = number.stripped ? shape.number : 0..<cell.count
                    let sign = number.stripped ? shape.detachedSign : nil
                    wrappedCells.append(.number(lead: lead, sign: sign, bytes: bytes, trail: trail, width: lead + number.integer + number.fraction + trail))
                    continue
                }
            }
            let known = measured.flatMap { $0.column == k && $0.width >= 0 ? $0.width : nil }
            if measure.fitPlain(cell, width: slot.width, maxLines: plan.cellLines, ellipsis: plan.ellipsis, total: known, into: &fitLines) {
                if fitLines.count == plan.cellLines, let last = fitLines.last,
                   last.endsWithEllipsis(in: cell) || last.ellipsis && !Self.containsEllipsis(cell) {
                    cuts += 1
                }
                wrappedCells.append(.plain(wrappedLines.count..<(wrappedLines.count + fitLines.count)))
                wrappedLines.append(contentsOf: fitLines)
                continue
            }
            let lines = measure.fit(utf8: cell, width: slot.width, maxLines: plan.cellLines, ellipsis: plan.ellipsis)
            if lines.count == plan.cellLines, let last = lines.last, last.text.hasSuffix("…") || last.text.contains("…") && !Self.containsEllipsis(cell) {
                cuts += 1
            }
            wrappedCells.append(.text(lines))
        }
        // A number written whole past its column (C7) widens its column on every line of the
        // row, so the columns after it stay aligned from line to line.
        var height = 1
        wrappedWidths.removeAll(keepingCapacity: true)
        for (k, cell) in wrappedCells.enumerated() {
            let size = cell.size(in: wrappedLines, null: nullLine)
            height = max(height, size.lines)
            wrappedWidths.append(max(slots[k].width, size.width))
        }
        try beginRowLine()
        for line in 0..<height {
            if line > 0 { try continueRow(striped: striped) }
            for k in slots.indices {
                try cellGap(k)
                let slot = slots[k]
                let cell = wrappedCells[k]
                let width = wrappedWidths[k]
                switch cell {
                case .null:
                    try place(line == 0 ? nullLine : TextLine(text: "", width: 0), width: width, right: slot.right)
                case .number(let lead, let sign, let bytes, let trail, let numberWidth):
                    guard line == 0 else {
                        out.pad(width)
                        continue
                    }
                    let cellBytes = fields[slot.source]
                    if slot.right { out.pad(width - numberWidth) }
                    out.pad(lead)
                    if let sign { try out.write(byte: cellBytes[sign]) }
                    try out.write(UnsafeBufferPointer(rebasing: cellBytes[bytes]))
                    // The spaces after it are written, not held back: part of its line, they
                    // stay at a line's end as the aligned text of a number did.
                    for _ in 0..<max(0, trail) { try out.write(byte: 0x20) }
                    if !slot.right { out.pad(width - numberWidth) }
                case .plain(let range):
                    if line < range.count {
                        try place(wrappedLines[range.lowerBound + line], of: fields[slot.source], width: width, right: slot.right)
                    } else {
                        out.pad(width)
                    }
                case .text(let lines):
                    try place(line < lines.count ? lines[line] : TextLine(text: "", width: 0), width: width, right: slot.right)
                }
            }
        }
        try endRowLine(striped: striped)
    }
}

extension NumberShape {
    /// How a number sits: the widths before and from its decimal separator, unit out or in
    /// (C2, C3). `ascii`: the cell's width when it is printable ASCII (one column a byte).
    package func layout(_ cell: UnsafeBufferPointer<UInt8>, stripUnit: Bool, measure: DisplayWidth, ascii: Int? = nil) -> (integer: Int, fraction: Int, stripped: Bool) {
        if stripUnit && unit != nil {
            let sign = detachedSign == nil ? 0 : 1
            return (sign + point, number.count - point, true)
        }
        let pointByte = number.lowerBound + point
        if let ascii { return (pointByte, ascii - pointByte, false) }  // one column a byte
        let width = measure.width(utf8: cell)
        let before = pointByte == cell.count ? width : measure.width(utf8: UnsafeBufferPointer(rebasing: cell[0..<pointByte]))
        return (before, width - before, false)
    }
}
