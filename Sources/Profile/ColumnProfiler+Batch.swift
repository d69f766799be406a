import Input
import Text

/// Rows whose fields lie in place in a stream's buffer, gathered to be sized a column at a time
/// (`ColumnProfiler.add(_:in:)`): a column's profile depends only on its own cells in order, so
/// taking a batch's cells column by column notes what taking its rows one by one would, while
/// one column's state stays at hand through the loop.
@usableFromInline package struct SizingBatch: ~Copyable {
    /// Buffer indexes of field `c` of row `r`'s first byte and of the byte just past it, at
    /// `r * columns + c`.
    @usableFromInline let starts: UnsafeMutablePointer<Int>
    @usableFromInline let ends: UnsafeMutablePointer<Int>
    /// Fields a row has (rows of another count are not gathered).
    @usableFromInline package let columns: Int
    /// Rows held, of at most `capacity`.
    @usableFromInline package private(set) var rows = 0
    @usableFromInline package let capacity: Int
    /// The widths of the non-ASCII texts the piece's text columns meet again (a region, a
    /// customer's name), for its batches as they come: each is measured once
    /// (`ColumnProfile.noteWidest`), as the drawing pass measures it once (`CommonWidthCache`).
    package let widths: CommonWidthCache

    /// A batch of up to about `fields` fields (at least one row) of `columns` fields each, their
    /// widths as `measure` takes them.
    package init(columns: Int, fields: Int = 4096, measure: DisplayWidth) {
        self.columns = columns
        capacity = max(1, fields / max(1, columns))
        starts = .allocate(capacity: capacity &* max(1, columns))
        ends = .allocate(capacity: capacity &* max(1, columns))
        widths = CommonWidthCache(measure: measure, columns: columns)
    }

    deinit {
        starts.deallocate()
        ends.deallocate()
        widths.free()
    }

    /// Whether another row fits.
    @inlinable package var isFull: Bool { rows == capacity }

    /// Holds a row of `columns` fields (the caller checks the count, and makes room); a row read
    /// where `aim` pointed is held where it lies.
    @inlinable package mutating func append(_ fields: Fields) {
        guard let from = fields.starts else { return }
        let at = rows &* columns
        if from != UnsafePointer(starts + at) || fields.ends != UnsafePointer(ends + at) {
            (starts + at).update(from: from, count: columns)
            (ends + at).update(from: fields.ends, count: columns)
        }
        rows &+= 1
    }

    /// Has `row`'s next fields read into this batch's next row (and on into the rows after it,
    /// free until then), so `append` holds them with no copy. The batch must not be full.
    @inlinable @inline(__always)
    package func aim(_ row: inout InPlaceRow) {
        let at = rows &* columns
        row.aim(starts: starts + at, ends: ends + at, capacity: capacity &* max(1, columns) &- at)
    }

    /// Cell `c` of row `r`, in `buffer`.
    @inline(__always)
    package func cell(_ r: Int, _ c: Int, in buffer: UnsafePointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let k = r &* columns &+ c
        return UnsafeBufferPointer(start: buffer + starts[k], count: ends[k] &- starts[k])
    }

    /// Empties the batch.
    package mutating func removeAll() { rows = 0 }
}

extension ColumnProfiler {
    /// Takes a batch's rows into account, their fields in `buffer`, a column at a time; the batch
    /// is then emptied.
    /// - Complexity: O(bytes of the rows); no allocation.
    package mutating func add(_ batch: inout SizingBatch, in buffer: UnsafePointer<UInt8>) {
        let count = min(batch.columns, profiles.count), rowCount = batch.rows
        rows &+= rowCount
        let measure = measure, trackWords = trackWords
        profiles.withUnsafeMutableBufferPointer { columns in
            for c in 0..<count {
                // A column settled as text takes the shorter `noteWidest` for all its cells.
                if columns[c].settledText && !trackWords {
                    columns[c].noteWidest(batch, column: c, in: buffer, measure: measure)
                } else if columns[c].values > 0 && !columns[c].every.isDisjoint(with: [.date, .boolean]) {
                    // Dates or booleans so far: tried first (`note` tries a number first, which
                    // such a column refuses without a change), a run at a time.
                    var r = columns[c].noteDatesOrBooleans(batch, column: c, from: 0, in: buffer, trackWords: trackWords)
                    while r < rowCount {
                        columns[c].note(batch.cell(r, c, in: buffer), measure: measure, trackWords: trackWords)
                        r = columns[c].noteDatesOrBooleans(batch, column: c, from: r &+ 1, in: buffer, trackWords: trackWords)
                    }
                } else {
                    // Runs of short numbers (the commonest cells of such a column) noted at once;
                    // the cell that ends a run through `note`, which tries it again.
                    var r = columns[c].noteShortNumbers(batch, column: c, from: 0, in: buffer, trackWords: trackWords)
                    while r < rowCount {
                        columns[c].note(batch.cell(r, c, in: buffer), measure: measure, trackWords: trackWords)
                        r = columns[c].noteShortNumbers(batch, column: c, from: r &+ 1, in: buffer, trackWords: trackWords)
                    }
                }
            }
        }
        batch.removeAll()
    }
}

extension ColumnProfile {
    /// `noteDateOrBoolean` for the batch's cells of column `c` from row `from` on, while each is
    /// one: the widest kept in a local and noted once, with the count and what every one was.
    /// - Returns: the row of the first cell that is not one, or the batch's row count.
    @inline(__always)
    mutating func noteDatesOrBooleans(_ batch: borrowing SizingBatch, column c: Int, from: Int, in buffer: UnsafePointer<UInt8>, trackWords: Bool) -> Int {
        guard values > 0 else { return from }
        var widest = 0
        var kinds = every  // what every cell so far was, as each is taken in turn
        var r = from
        while r < batch.rows {
            let cell = batch.cell(r, c, in: buffer)
            if kinds.contains(.date) && CellKind.isPlainDate(cell) {
                kinds.formIntersection(.date)
            } else if kinds.contains(.boolean) && CellKind.isBoolean(cell) {
                kinds.formIntersection(.boolean)
            } else {
                break
            }
            widest = max(widest, cell.count)
            r &+= 1
        }
        guard r > from else { return r }
        if widest > width { width = widest }  // printable ASCII, no space: a byte a column, one word
        if trackWords && widest > longestWord { longestWord = widest }
        values &+= r &- from
        every = kinds
        return r
    }

    /// `noteShortNumber` for the batch's cells of column `c` from row `from` on, while each is a
    /// short number: their widths and parts gathered in locals and noted once (what a number
    /// notes is a count, an intersection and widest widths, the same in any grouping).
    /// - Returns: the row of the first cell that is not one, or the batch's row count.
    @inline(__always)
    mutating func noteShortNumbers(_ batch: borrowing SizingBatch, column c: Int, from: Int, in buffer: UnsafePointer<UInt8>, trackWords: Bool) -> Int {
        guard takesShortNumbers else { return from }
        var widest = 0, before = 0, after = 0
        var kinds = Kinds.all
        var r = from
        while r < batch.rows {
            let cell = batch.cell(r, c, in: buffer)
            guard let (point, kind) = Self.shortNumber(cell) else { break }
            let count = cell.count
            widest = max(widest, count)
            before = max(before, point)
            after = max(after, count &- point)
            kinds.formIntersection(kind)
            r &+= 1
        }
        guard r > from else { return r }
        if widest > width { width = widest }  // printable ASCII: a byte is a column
        if trackWords && widest > longestWord { longestWord = widest }  // no space: one word
        noteNumbers(r &- from, every: kinds, before: before, after: after, strippedBefore: before, strippedAfter: after)
        return r
    }
}
