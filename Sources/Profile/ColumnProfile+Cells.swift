import Input
import Text

/// How a column's profile takes in each cell (C1, C2, C3, W2): by its kind (short numbers,
/// dates and booleans by word tests, any other cell measured and parsed) and, in a column
/// settled as text, by its width alone.
extension ColumnProfile {
    /// Takes one cell into account: a column settled as text, when words are not tracked, by the
    /// shorter `noteWidest`, which notes the same; any other by `note`.
    @inline(__always)
    package mutating func note(_ cell: UnsafeBufferPointer<UInt8>, settled measure: DisplayWidth, trackWords: Bool) {
        if settledText && !trackWords {
            noteWidest(cell, measure: measure)
        } else {
            note(cell, measure: measure, trackWords: trackWords)
        }
    }

    /// Takes one cell into account. (`ColumnProfiler.add` gives a column settled as text, when
    /// words are not tracked, to the shorter `noteWidest`, which notes the same.)
    @inline(__always)
    package mutating func note(_ cell: UnsafeBufferPointer<UInt8>, measure: DisplayWidth, trackWords: Bool) {
        if !noteShortNumber(cell, trackWords: trackWords) && !noteDateOrBoolean(cell, trackWords: trackWords) {
            noteAnyCell(cell, measure: measure, trackWords: trackWords)
        }
    }

    /// A `YYYY-MM-DD` date (`CellKind.isPlainDate`) in a column of dates so far, or a boolean in a
    /// column of booleans so far: notes what `noteAnyCell` would for it (printable ASCII, no
    /// space, never a null word: its width and its longest word are its byte count), without its
    /// other tests, and returns true; false for any other cell.
    @inline(__always)
    mutating func noteDateOrBoolean(_ cell: UnsafeBufferPointer<UInt8>, trackWords: Bool) -> Bool {
        guard values > 0 else { return false }
        let kind: Kinds
        if every.contains(.date) && CellKind.isPlainDate(cell) {
            kind = .date
        } else if every.contains(.boolean) && CellKind.isBoolean(cell) {
            kind = .boolean
        } else {
            return false
        }
        let count = cell.count
        if count > width { width = count }
        if trackWords && count > longestWord { longestWord = count }
        noteValue(kind)
        return true
    }

    /// A short whole number or decimal (`NumberShape.shortWholeNumber`, `shortDecimal`: word
    /// tests, no parse), or one with `%` after it, in a column that is no date, boolean or text
    /// column so far: notes what `noteAnyCell` would for it, without its other tests, and returns true;
    /// false for any other cell. (Small, for the sizing loop to take in.)
    @inline(__always)
    package mutating func noteShortNumber(_ cell: UnsafeBufferPointer<UInt8>, trackWords: Bool) -> Bool {
        guard takesShortNumbers, let (point, kinds) = Self.shortNumber(cell) else { return false }
        let count = cell.count
        if count > width { width = count }  // printable ASCII: a byte is a column
        if trackWords && count > longestWord { longestWord = count }  // no space: one word
        noteNumbers(1, every: kinds, before: point, after: count &- point, strippedBefore: point, strippedAfter: count &- point)
        return true
    }

    /// Whether a short number is noted as `noteShortNumber` notes it: a column of dates or
    /// booleans so far tries those first, a text column notes no kind (`noteAnyCell`).
    @inline(__always)
    var takesShortNumbers: Bool { (values == 0 || !every.contains(.date) && !every.contains(.boolean)) && !settledText }

    /// A short whole number or decimal, or one with `%` after it: where its point is (its byte
    /// count when it has none) and what kind of number it is; nil for any other cell.
    @inline(__always)
    static func shortNumber(_ cell: UnsafeBufferPointer<UInt8>) -> (point: Int, kinds: Kinds)? {
        let count = cell.count
        guard count > 0, let base = cell.baseAddress else { return nil }
        // A percentage keeps its `%` in its cell, and its fraction part reaches over it (C3).
        let percent = count > 1 && base[count &- 1] == UInt8(ascii: "%")
        let number = UnsafeBufferPointer(start: base, count: percent ? count &- 1 : count)
        guard let point = NumberShape.shortWholeNumber(number) ?? NumberShape.shortDecimal(number) else { return nil }
        return (point, percent ? [.number, .percent] : point == count ? [.number, .integer] : .number)
    }

    /// `note` for any cell: measured, then tried as each kind in turn.
    @inline(never)
    package mutating func noteAnyCell(_ cell: UnsafeBufferPointer<UInt8>, measure: DisplayWidth, trackWords: Bool) {
        let ascii = DisplayWidth.printableASCIIWidth(cell)
        if ascii == nil && checksUTF8 && !UTF8Check.isValid(cell) {
            sawInvalidUTF8 = true
            return
        }
        let width = ascii ?? measure.nonASCIIWidth(utf8: cell)
        if width > self.width { self.width = width }
        if trackWords {
            let word = Self.longestWord(cell, width: width, measure: measure)
            if word > longestWord { longestWord = word }
        }
        if cell.isEmpty {
            hasEmpties = true
            return
        }
        if settledText { return }  // its type can no longer change (C1): skip the parsing
        if CellKind.isNullWord(cell) {
            if width > nullWidth { nullWidth = width }
            return
        }
        // A column of dates or booleans so far: try that first (it would fail the number parse).
        if values > 0 && every.contains(.date) && CellKind.isDate(cell) {
            noteValue(.date)
            return
        }
        if values > 0 && every.contains(.boolean) && CellKind.isBoolean(cell) {
            noteValue(.boolean)
            return
        }
        if let shape = NumberShape.parse(cell) {
            // As written: the part before the separator, measured (a prefix may be € or £; in
            // printable ASCII a byte is a column). With the unit out: the sign and the number,
            // plain ASCII.
            let pointByte = shape.number.lowerBound + shape.point
            let before = pointByte == cell.count ? width
                : ascii != nil ? pointByte : measure.width(utf8: UnsafeBufferPointer(rebasing: cell[0..<pointByte]))
            let sign = shape.detachedSign == nil ? 0 : 1
            noteNumber(shape.kind, before: before, after: width - before, strippedBefore: sign + shape.point,
                       strippedAfter: shape.number.count - shape.point + (shape.kind == .percent ? 1 : 0),
                       quantity: shape.kind == .quantity && shape.unit != nil)
            if shape.kind == .quantity, let range = shape.unit {
                let unitBytes = UnsafeBufferPointer(rebasing: cell[range])
                if let unit {
                    if unitConsistent && (unitBefore != shape.unitBefore || !unit.elementsEqual(unitBytes)) { unitConsistent = false }
                } else {
                    unit = Array(unitBytes)
                    unitBefore = shape.unitBefore
                }
            }
            return
        }
        noteValue(CellKind.isDate(cell) ? .date : CellKind.isBoolean(cell) ? .boolean : [])
        settledText = every.isDisjoint(with: [.number, .date, .boolean])
    }

    /// Takes a number into account by its parts' widths: before its separator and from it, as
    /// written and with its unit out.
    @inline(__always)
    private mutating func noteNumber(_ kind: CellKind, before: Int, after: Int, strippedBefore: Int, strippedAfter: Int, quantity: Bool = false) {
        noteNumbers(1, every: kind == .integer ? [.number, .integer] : kind == .percent ? [.number, .percent] : quantity ? [.number, .quantity] : .number,
                    before: before, after: after, strippedBefore: strippedBefore, strippedAfter: strippedAfter)
    }

    /// Takes `n` numbers into account at once: what every one of them was, and their parts'
    /// widest widths.
    @inline(__always)
    mutating func noteNumbers(_ n: Int, every kinds: Kinds, before: Int, after: Int, strippedBefore: Int, strippedAfter: Int) {
        values &+= n
        every.formIntersection(kinds)
        integerWidth = max(integerWidth, before)
        fractionWidth = max(fractionWidth, after)
        strippedIntegerWidth = max(strippedIntegerWidth, strippedBefore)
        strippedFractionWidth = max(strippedFractionWidth, strippedAfter)
    }

    /// Takes one cell of a column settled as text into account, when words are not tracked: only
    /// the widest cell matters now. Without escapes a cell is never wider than its byte count, so
    /// one no longer than the widest so far need not be measured. (Kept small, for the sizing loop
    /// to take in.)
    @inline(__always)
    package mutating func noteWidest(_ cell: UnsafeBufferPointer<UInt8>, measure: DisplayWidth) {
        if cell.isEmpty {
            hasEmpties = true
        } else if let ascii = DisplayWidth.printableASCIIWidth(cell) {
            if ascii > width { width = ascii }
        } else {
            noteWidestNonASCII(cell, measure: measure)
        }
    }

    /// `noteWidest` for the batch's cells of column `c`: the widest printable ASCII cell kept in a
    /// local, any other cell taken as `noteWidest` takes it (the widest so far noted first: it
    /// compares with it).
    package mutating func noteWidest(_ batch: borrowing SizingBatch, column c: Int, in buffer: UnsafePointer<UInt8>, measure: DisplayWidth) {
        var widest = width
        let widths = batch.widths
        for r in 0..<batch.rows {
            let cell = batch.cell(r, c, in: buffer)
            if cell.isEmpty {
                hasEmpties = true
            } else if let ascii = DisplayWidth.printableASCIIWidth(cell) {
                if ascii > widest { widest = ascii }
            } else if cell.count <= CommonWidthCache.longest, widths.isOn(column: c) {
                // Up to 32 bytes, looked up: a common text (no escape, a byte or more a column) has
                // its width, measured once; any other is not common, and is measured as such.
                if let common = widths.width(cell, column: c) {
                    if common > widest { widest = common }
                } else {
                    width = widest
                    noteWidestNonASCII(cell, measure: measure, mayBeCommon: false)
                    widest = width
                }
            } else {
                width = widest
                noteWidestNonASCII(cell, measure: measure)
                widest = width
            }
        }
        width = widest
    }

    /// The same for a cell that is not printable ASCII: measured only when it may be wider than the
    /// widest so far (by its byte count: the common cell, `commonWidth`, is then measured at once;
    /// any other first by the bound its bytes give, `plainWidthBound`), or has something to escape.
    /// `mayBeCommon`: false when `commonWidth` has already said it is not common.
    @inline(never)
    private mutating func noteWidestNonASCII(_ cell: UnsafeBufferPointer<UInt8>, measure: DisplayWidth, mayBeCommon: Bool = true) {
        // The common non-ASCII cell that may be wider is measured exactly in one light scan.
        if mayBeCommon, cell.count > width, let common = measure.commonWidth(cell) {
            if common > width { width = common }
            return
        }
        // (`commonWidth` takes only valid UTF-8: a cell it measured, or `CommonWidthCache` had
        // from it, is checked.)
        if checksUTF8 && !UTF8Check.isValid(cell) {
            sawInvalidUTF8 = true
            return
        }
        let mayBeWider = cell.count > width ? (measure.plainWidthBound(utf8: cell) ?? Int.max) > width : Sanitize.needsEscaping(utf8: cell)
        if mayBeWider {
            let measured = measure.nonASCIIWidth(utf8: cell)
            if measured > width { width = measured }
        }
    }

    /// The widest space-separated word of a cell (the whole width when it has no space).
    package static func longestWord(_ cell: UnsafeBufferPointer<UInt8>, width: Int, measure: DisplayWidth) -> Int {
        guard cell.contains(0x20) else { return width }
        if let common = measure.commonLongestWord(cell) { return common }
        var longest = 0
        var start = 0
        let count = cell.count
        while start < count {
            var end = start
            while end < count && cell[end] != 0x20 { end &+= 1 }
            if end > start {
                // The common word (Latin, CJK, kana, Hangul) without the full measure.
                let word = UnsafeBufferPointer(rebasing: cell[start..<end])
                longest = max(longest, measure.commonWidth(word) ?? measure.width(utf8: word))
            }
            start = end &+ 1
        }
        return longest
    }
}
