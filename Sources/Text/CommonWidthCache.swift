/// The widths of the common non-ASCII cells a renderer drew lately, or a sizing batch's text
/// columns met (`SizingBatch.widths`), a table for each input column, so that a text met again (a
/// region, a customer's name) is not measured again (P1): both passes over a plain table meet the
/// same few non-ASCII texts on most rows of such a column.
///
/// An entry holds a cell's bytes (up to 32), so a hit is a cell of the very same bytes and its
/// width is exactly `DisplayWidth.commonWidth`'s for them: nothing is taken on trust that the
/// bytes drawn do not show. A column whose cells are seldom met again stops using its table
/// (`checkEvery`), so such a column pays about 30 instructions a cell for a while, then nothing.
/// One renderer's or one batch's (each used on one thread at a time; a continuation makes its
/// own), which frees it (`free`). A value of pointers: nothing is reference-counted as it is used.
@usableFromInline package struct CommonWidthCache {
    /// A cell of up to 32 bytes as four words, those past it zero; its length and its width.
    package struct Entry {
        package var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        package var count = -1
        package var width = 0
    }

    /// A column's entries (`slots` of them, made at its first lookup), found by a hash of the bytes.
    @usableFromInline package struct Table {
        package var entries: UnsafeMutablePointer<Entry>?
        var lookups = 0
        package var hits = 0
        /// Whether the column still uses its entries.
        @usableFromInline package var on = true
    }

    @usableFromInline static let slotBits = 8
    @inlinable package static var slots: Int { 1 << slotBits }
    /// Every `checkEvery` lookups a column keeps its entries only if a quarter of them were hits.
    @inlinable package static var checkEvery: Int { 512 }
    /// Longer cells are measured each time.
    @inlinable package static var longest: Int { 32 }

    /// A table for each input column below `columns` (a cell of any other is measured each time).
    @usableFromInline let tables: UnsafeMutablePointer<Table>
    @usableFromInline package let columns: Int
    @usableFromInline package let measure: DisplayWidth

    package init(measure: DisplayWidth, columns: Int) {
        self.measure = measure
        self.columns = max(0, columns)
        tables = .allocate(capacity: self.columns)
        tables.initialize(repeating: Table(), count: self.columns)
    }

    /// Frees the tables (by the renderer that made them, once).
    package func free() {
        for k in 0..<columns { tables[k].entries?.deallocate() }
        tables.deallocate()
    }

    /// `measure.commonWidth(cell)` for a cell of input column `column`.
    /// - Complexity: O(1) for a cell of up to 32 bytes met before (compared a word at a time);
    ///   else `commonWidth`'s O(bytes).
    @inlinable @inline(__always)
    package func width(_ cell: UnsafeBufferPointer<UInt8>, column: Int) -> Int? {
        let count = cell.count
        guard count <= Self.longest, column >= 0 && column < columns, tables[column].on, let base = cell.baseAddress else {
            return measure.commonWidth(cell)
        }
        return Self.width(base, count: count, in: &tables[column], measure: measure)
    }

    @usableFromInline static func width(_ base: UnsafePointer<UInt8>, count: Int, in table: inout Table, measure: DisplayWidth) -> Int? {
        let entries: UnsafeMutablePointer<Entry>
        if let made = table.entries {
            entries = made
        } else {
            entries = .allocate(capacity: slots)
            entries.initialize(repeating: Entry(), count: slots)
            table.entries = entries
        }
        // The bytes as four words, those past the cell zero (nothing outside it read).
        let w0 = TextBytes.upTo8(base, at: 0, count: count)
        let w1 = count > 8 ? TextBytes.upTo8(base, at: 8, count: count) : 0
        let w2 = count > 16 ? TextBytes.upTo8(base, at: 16, count: count) : 0
        let w3 = count > 24 ? TextBytes.upTo8(base, at: 24, count: count) : 0
        let mixed = (w0 ^ w1 &* 0xC2B2_AE3D_27D4_EB4F ^ w2 &* 0x1656_67B1_9E37_79F9 ^ w3 ^ UInt64(count)) &* 0x9E37_79B9_7F4A_7C15
        let entry = entries + Int(truncatingIfNeeded: mixed >> UInt64(64 - slotBits))
        table.lookups &+= 1
        if entry.pointee.count == count && entry.pointee.words == (w0, w1, w2, w3) {
            table.hits &+= 1
            return entry.pointee.width
        }
        if table.lookups >= checkEvery {
            // Too few hits: the column's cells are seldom met again.
            if table.hits &* 4 < table.lookups { table.on = false }
            table.lookups = 0
            table.hits = 0
        }
        guard let width = measure.commonWidth(UnsafeBufferPointer(start: base, count: count)) else { return nil }
        entry.pointee = Entry(words: (w0, w1, w2, w3), count: count, width: width)
        return width
    }

    /// Whether input column `column` still uses its entries.
    @inlinable package func isOn(column: Int) -> Bool { column < columns && tables[column].on }
}
