import Input
import Layout
import Options
import Profile
import Support
import Text
import Transform
/// Rows drawn in place (P1): the drawing pass over a file's pieces hands over each row the sizing
/// pass noted (`RowIndex.Reader`) with its fields' places, and the common cells of such a row go
/// straight into the output buffer through a cursor (`OutputBuffer.Cursor`): each printable ASCII
/// cell checked while it is copied (one pass over its bytes), padding and gaps written a word at a
/// time. Any other cell, and any write the buffer has no room for, is drawn as `row` draws it, so
/// the bytes are the same either way.
extension PlainRenderer {
    /// Draws a row as `row` does. Rows whose fields' places are given (`Fields.starts`, as the
    /// notes give them) are drawn in place when the table allows it (`drawsInPlace`; in a bordered
    /// table, once the line under the headings is drawn); any other row by `row`.
    /// - Complexity: O(the row's bytes), a few instructions a byte of its common cells.
    package func notedRow(_ fields: Fields) throws(OutputError) {
        guard drawsInPlace, let starts = fields.starts, fields.count >= fieldsNeeded, !bordered || lastLine == .rows else {
            return try row(fields)
        }
        rowsDrawn &+= 1
        rowOverflow = 0
        // Held by the renderer: no reference counted on every row.
        unowned(unsafe) let edges = edges
        var cursor = out.cursor()
        if bordered {
            if cursor.room >= edges.left.count {
                cursor.write(UnsafeBufferPointer(edges.left))
            } else {
                out.commit(cursor)
                try lineStart()
                cursor = out.cursor()
            }
        }
        let row = (base: fields.base, starts: starts, ends: fields.ends)
        cursor = try cells(row, slots: UnsafeBufferPointer(rowSlots), from: cursor)
        // The line's end: the padding after the last cell dropped (kept before a right border).
        let end = edges.end
        if !bordered { cursor.pending = 0 }
        if cursor.room >= cursor.pending &+ end.count {
            if end.count == 1 && cursor.pending == 0 {  // the line feed alone
                cursor.at.pointee = 0x0A
                cursor.at += 1
            } else {
                cursor.write(UnsafeBufferPointer(end))
            }
            out.commitLine(cursor)
        } else {
            out.commit(cursor)
            try lineEnd()
        }
    }

    /// `notedRow`, its error returned rather than thrown (for a caller that holds the renderer
    /// unretained, `Unmanaged`).
    package func drawNoted(_ fields: Fields) -> OutputError? {
        do {
            try notedRow(fields)
            return nil
        } catch {
            return error
        }
    }

    /// The row's cells and what comes before each (`CellSlot.before`), drawn through a cursor
    /// held in this function's variables; returns the cursor after them. Every cell `slots` name
    /// is among the row's fields (`fieldsNeeded`).
    @inline(__always)
    private func cells(_ row: (base: UnsafePointer<UInt8>, starts: UnsafePointer<Int>, ends: UnsafePointer<Int>),
                       slots: UnsafeBufferPointer<CellSlot>, from start: OutputBuffer.Cursor) throws(OutputError) -> OutputBuffer.Cursor {
        var cursor = start
        guard var slot = slots.baseAddress else { return cursor }
        let last = slot + (slots.count &- 1)
        while true {
            let before = slot.pointee.before
            if before >= 0 { cursor.pending &+= before } else { cursor = try separator(after: cursor) }
            let source = slot.pointee.source
            let first = row.starts[source]
            let cell = row.base + first
            let n = row.ends[source] &- first
            if !placeInPlace(cell, n, in: slot, &cursor) {
                cursor = try anyCell(UnsafeBufferPointer(start: cell, count: n), in: slot.pointee, last: slot == last, after: cursor)
            }
            if slot == last { return cursor }
            slot += 1
        }
    }

    /// A bordered table's column separator after what `cursor` wrote (`between`).
    @inline(never)
    private func separator(after cursor: OutputBuffer.Cursor) throws(OutputError) -> OutputBuffer.Cursor {
        var cursor = cursor
        let separator = edges.separator
        if cursor.room >= cursor.pending &+ separator.count {
            cursor.write(UnsafeBufferPointer(separator))
            return cursor
        }
        out.commit(cursor)
        try between()
        return out.cursor()
    }

    /// `anyCell` after what `cursor` wrote, out of the row loop (it is the rare cell); returns
    /// the cursor to go on with. `last`: the row's last cell, unpadded unless a border follows.
    @inline(never)
    private func anyCell(_ cell: UnsafeBufferPointer<UInt8>, in slot: CellSlot, last: Bool, after cursor: OutputBuffer.Cursor) throws(OutputError) -> OutputBuffer.Cursor {
        out.commit(cursor)
        // `cell` draws any cell; the common ones `placeInPlace` did not take are wider than
        // their column (or met a full buffer), so they are not tried again.
        let ascii = DisplayWidth.printableASCIIWidth(cell)
        if try !plainASCIICell(cell, ascii: ascii, in: slot) {
            try self.cell(cell, in: slot, padded: bordered || !last, ascii: ascii)
        }
        return out.cursor()
    }

    /// Draws a common non-ASCII cell of input column `column` through `cursor` (`commonTextCell`,
    /// out of the row loop: it is the less common cell), its bytes already copied where a
    /// left-aligned cell goes when `copied`; measured once for each text met again
    /// (`CommonWidthCache`). False, nothing written, for any other cell.
    @inline(never)
    private func commonInPlace(_ cell: UnsafeBufferPointer<UInt8>, column: Int, width: Int, right: Bool, copied: Bool,
                               _ cursor: inout OutputBuffer.Cursor) -> Bool {
        guard let source = cell.baseAddress, let shown = widthCache.width(cell, column: column), shown <= width else { return false }
        // Copied already (left-aligned): the spaces before it are written, and written again
        // a word at a time they would reach into its bytes.
        let inPlace = copied && !right
        let target = inPlace ? cursor.at + cursor.pending : cursor.spaces(right ? width &- shown : 0)
        if !inPlace { TextBytes.copy(source, to: target, count: cell.count) }
        cursor.at = target + cell.count
        cursor.pending = right ? 0 : width &- shown
        return true
    }

    /// Draws a common cell through `cursor`, as `plainASCIICell` or `commonTextCell` would draw
    /// it, and returns true; false, nothing written, for any other cell (empty, to be parsed as a
    /// number, escaped, cut or wider) or when the buffer has no room for it.
    @inline(__always)
    private func placeInPlace(_ source: UnsafePointer<UInt8>, _ n: Int, in slot: UnsafePointer<CellSlot>, _ cursor: inout OutputBuffer.Cursor) -> Bool {
        let width = slot.pointee.width
        // Room for the held-back spaces, the padding and the bytes, whatever they turn out to be.
        guard n != 0, cursor.room >= cursor.pending &+ width &+ n else { return false }
        let cell = UnsafeBufferPointer(start: source, count: n)
        switch slot.pointee.plainASCII {
        case .left:
            let target = cursor.spaces(0)
            let copied = n <= width
            if copied && TextBytes.copyPrintableASCII(source, to: target, count: n) {
                cursor.at = target + n
                cursor.pending = width &- n
                return true
            }
            // Not printable ASCII (or more bytes than the column is wide): the common non-ASCII
            // text, its bytes already in place when they were copied.
            return commonInPlace(cell, column: slot.pointee.source, width: width, right: false, copied: copied, &cursor)
        case .rightEdge:
            if n <= width && Self.endsLikeColumn(cell, slot.pointee) {
                let target = cursor.spaces(width &- n)
                if TextBytes.copyPrintableASCII(source, to: target, count: n) {
                    cursor.at = target + n
                    cursor.pending = 0
                    return true
                }
            } else if slot.pointee.numeric {
                return numberInPlace(source, n, in: slot, &cursor)
            }
            return !slot.pointee.numeric && commonInPlace(cell, column: slot.pointee.source, width: width, right: true, copied: false, &cursor)
        case .never:
            return slot.pointee.numeric && numberInPlace(source, n, in: slot, &cursor)
        }
    }

    /// Draws a number of the commonest forms, `-?D+(.D+)?%?` (its digits without a leading zero,
    /// as `NumberShape.parse` takes them without the full parse), that `plainASCIICell` leaves to
    /// `cell` (it does not end where its column's numbers end, or its column takes units out),
    /// through `cursor`, as `cell` would: its point in line with the column's (C2), or
    /// right-aligned when a part is wider than the column's. It has no unit to take out (a `%`
    /// stays, C3). False, nothing written, for any other cell and for a number wider than its
    /// column (C7, `takeOverflow`).
    @inline(__always)
    private func numberInPlace(_ c: UnsafePointer<UInt8>, _ n: Int, in slot: UnsafePointer<CellSlot>, _ cursor: inout OutputBuffer.Cursor) -> Bool {
        var i = c[0] == UInt8(ascii: "-") ? 1 : 0
        let digitsStart = i
        while i < n && c[i] &- 0x30 <= 9 { i &+= 1 }
        let digits = i &- digitsStart
        guard digits == 1 || (digits > 1 && c[digitsStart] != UInt8(ascii: "0")) else { return false }
        // Where the point is, or would be: the integer part's width (a byte a column).
        let point = i
        if i &+ 1 < n && c[i] == UInt8(ascii: ".") && c[i &+ 1] &- 0x30 <= 9 {
            i &+= 2
            while i < n && c[i] &- 0x30 <= 9 { i &+= 1 }
        }
        guard i == n || (i &+ 1 == n && c[i] == UInt8(ascii: "%")) else { return false }
        // The point under the column's, else right-aligned.
        let (lead, trail) = Self.numberPadding((integer: point, fraction: n &- point, stripped: false), in: slot.pointee)
        guard lead >= 0 else { return false }
        let target = cursor.spaces(lead)
        TextBytes.copy(c, to: target, count: n)
        cursor.at = target + n
        cursor.pending = trail
        return true
    }
}
