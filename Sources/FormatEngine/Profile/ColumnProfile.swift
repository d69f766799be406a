/// A width held in 32 bits (a width past 2³¹ − 1 columns is held as that), so that a column's
/// profile stays small.
@propertyWrapper
struct Narrow: Sendable, Equatable {
    private var stored: Int32

    init(wrappedValue: Int) { stored = Int32(clamping: wrappedValue) }

    var wrappedValue: Int {
        get { Int(stored) }
        set { stored = Int32(clamping: newValue) }
    }
}

/// What the sizing window showed about one column: a small record (72 bytes), as a table may have
/// millions of columns (E5). Widths are held in 32 bits (a width past 2³¹ − 1 columns is held as
/// that), and the kinds as what every value so far was, not as counts.
struct ColumnProfile: Sendable, Equatable {
    /// Kinds every non-null cell so far has been (all of them while there is none).
    struct Kinds: OptionSet, Sendable, Equatable {
        let rawValue: UInt8
        static let number = Kinds(rawValue: 1)
        static let integer = Kinds(rawValue: 2)
        static let percent = Kinds(rawValue: 4)
        static let quantity = Kinds(rawValue: 8)
        static let date = Kinds(rawValue: 16)
        static let boolean = Kinds(rawValue: 32)
        static let all: Kinds = [.number, .integer, .percent, .quantity, .date, .boolean]
    }

    /// The column's name in the input.
    var name: String
    /// Non-null cells seen.
    var values = 0
    /// What every one of them was.
    var every = Kinds.all
    /// The widest cell, in display columns, as written.
    @Narrow var width = 0
    /// The widest empty or null-like cell (`NA`, `-`).
    @Narrow var nullWidth = 0
    /// Point alignment of numbers as written: widest part before the decimal separator and widest
    /// part from it on (C2).
    @Narrow var integerWidth = 0
    @Narrow var fractionWidth = 0
    /// The same with the unit taken out (C3).
    @Narrow var strippedIntegerWidth = 0
    @Narrow var strippedFractionWidth = 0
    /// The widest run of non-space text (the narrowest a wrapped column can be without breaking words).
    @Narrow var longestWord = 0
    /// The unit of the first quantity, where it stood, and whether every quantity had it.
    var unit: [UInt8]?
    var unitBefore = false
    var unitConsistent = true
    /// Set once a cell showed the column can only be text: later cells are only measured.
    var settledText = false
    /// Whether an empty cell was seen (it shows `--null TEXT`).
    var hasEmpties = false
    /// The cells' bytes were not checked as UTF-8 when read (a CSV or TSV file's sizing pass in
    /// pieces, P1): each cell that is not ASCII is checked as it is noted, by `commonWidth` (or
    /// the `CommonWidthCache` entry it made) where that measures it, else by `UTF8Check.isValid`
    /// (`noteAnyCell`, `noteWidestNonASCII`). A number, date or boolean is ASCII.
    var checksUTF8 = false
    /// With `checksUTF8`: a cell was not valid UTF-8 (it was not measured; the piece is read
    /// again whole, where the stream replaces what is wrong, I5).
    var sawInvalidUTF8 = false

    init(name: String, checksUTF8: Bool = false) {
        self.name = name
        self.checksUTF8 = checksUTF8
    }

    /// Whether every non-null cell is a number (and there is at least one): right-aligned, never cut.
    var isNumeric: Bool { values > 0 && every.contains(.number) }

    /// The column's type (C1).
    var kind: CellKind {
        if values == 0 { return .null }
        if isNumeric {
            if every.contains(.integer) { return .integer }
            if every.contains(.percent) { return .percent }
            if every.contains(.quantity) { return .quantity }
            return .decimal
        }
        if every.contains(.date) { return .date }
        if every.contains(.boolean) { return .boolean }
        return .text
    }

    /// Notes a non-null value of the kinds `kinds` (and of no other).
    @inline(__always)
    mutating func noteValue(_ kinds: Kinds) {
        values &+= 1
        every.formIntersection(kinds)
    }

    /// The unit every cell carries (C3), as text, when it can move into the heading.
    var commonUnit: String? {
        guard isNumeric, every.contains(.quantity), unitConsistent, let unit else { return nil }
        return String(decoding: unit, as: UTF8.self)
    }

    /// The width the cells need: numbers aligned on their points, else the widest cell.
    /// - Parameter stripped: whether the unit is taken out of the cells.
    func cellWidth(stripped: Bool) -> Int {
        guard isNumeric else { return width }
        let numbers = stripped ? strippedIntegerWidth + strippedFractionWidth : integerWidth + fractionWidth
        return max(numbers, nullWidth)
    }
}

/// Looks at each row of the sizing window once and keeps a profile per column (C1, C3, W2).
struct ColumnProfiler {
    /// One a column (set by `add(_:in:)` too, for a batch).
    var profiles: [ColumnProfile] = []
    /// Rows taken in (set by `add(_:in:)` too, for a batch).
    var rows = 0
    let measure: DisplayWidth
    /// Whether to measure the longest word of each cell (only wrapping needs it).
    let trackWords: Bool
    /// Whether each cell that is not ASCII is checked as UTF-8 (`ColumnProfile.checksUTF8`).
    let checksUTF8: Bool

    init(columns: [String], measure: DisplayWidth, trackWords: Bool = false, checksUTF8: Bool = false) {
        self.measure = measure
        self.trackWords = trackWords
        self.checksUTF8 = checksUTF8
        profiles = columns.map { ColumnProfile(name: $0, checksUTF8: checksUTF8) }
    }

    /// With `checksUTF8`: a cell was not valid UTF-8.
    var sawInvalidUTF8: Bool { profiles.contains { $0.sawInvalidUTF8 } }

    /// Adds columns that appeared after the profiler was made.
    mutating func sync(columns: [String]) {
        while profiles.count < columns.count { profiles.append(ColumnProfile(name: columns[profiles.count], checksUTF8: checksUTF8)) }
    }

    /// Takes one row into account.
    mutating func add(_ record: Record) {
        record.withFields { add($0) }
    }

    /// Takes one row into account, seen in place: in a record, or where its fields lie in a
    /// stream's buffer (`Fields.starts`).
    /// - Complexity: O(bytes of the row); no allocation.
    mutating func add(_ fields: Fields) {
        rows += 1
        let count = min(fields.count, profiles.count)
        let measure = measure, trackWords = trackWords
        profiles.withUnsafeMutableBufferPointer { columns in
            if let starts = fields.starts {
                for i in 0..<count {
                    let cell = UnsafeBufferPointer(start: fields.base + starts[i], count: fields.ends[i] &- starts[i])
                    columns[i].note(cell, settled: measure, trackWords: trackWords)
                }
                return
            }
            // The fields in order, each starting where the one before ended.
            var start = 0
            for i in 0..<count {
                let end = fields.ends[i]
                let cell = UnsafeBufferPointer(start: fields.base + start, count: end &- start)
                columns[i].note(cell, settled: measure, trackWords: trackWords)
                start = end
            }
        }
    }
}

extension ColumnProfiler {
    /// Takes in what another profiler saw of other rows of the same table (the reader thread's
    /// share of the sizing pass). The result types and sizes every column as if one profiler had
    /// seen all the rows, in any order: a column's profile does not depend on the rows' order.
    mutating func merge(_ other: ColumnProfiler) {
        merge(other, into: Array(other.profiles.indices))
    }

    /// The same, for a profiler whose column `k` is this one's `columns[k]` (a piece of a JSON
    /// file finds its keys in an order of its own); the columns here go up to every one named.
    mutating func merge(_ other: ColumnProfiler, into columns: [Int]) {
        rows += other.rows
        for (k, profile) in other.profiles.enumerated() {
            let target = columns[k]
            while profiles.count <= target { profiles.append(ColumnProfile(name: profile.name)) }
            profiles[target].merge(profile)
        }
    }
}

extension ColumnProfile {
    /// Takes in another profile of the same column over other cells.
    mutating func merge(_ other: ColumnProfile) {
        // A profile that settled as text stopped noting kinds; it had a value of none of them
        // (number, date, boolean), so what both have in common keeps the column text.
        values += other.values
        every.formIntersection(other.every)
        hasEmpties = hasEmpties || other.hasEmpties
        width = max(width, other.width)
        nullWidth = max(nullWidth, other.nullWidth)
        integerWidth = max(integerWidth, other.integerWidth)
        fractionWidth = max(fractionWidth, other.fractionWidth)
        strippedIntegerWidth = max(strippedIntegerWidth, other.strippedIntegerWidth)
        strippedFractionWidth = max(strippedFractionWidth, other.strippedFractionWidth)
        longestWord = max(longestWord, other.longestWord)
        settledText = settledText || other.settledText
        if let theirs = other.unit {
            if let unit {
                unitConsistent = unitConsistent && other.unitConsistent && unitBefore == other.unitBefore && unit == theirs
            } else {
                unit = theirs
                unitBefore = other.unitBefore
                unitConsistent = other.unitConsistent
            }
        }
    }

    /// Takes one cell into account: a column settled as text, when words are not tracked, by the
    /// shorter `noteWidest`, which notes the same; any other by `note`.
    @inline(__always)
    mutating func note(_ cell: UnsafeBufferPointer<UInt8>, settled measure: DisplayWidth, trackWords: Bool) {
        if settledText && !trackWords {
            noteWidest(cell, measure: measure)
        } else {
            note(cell, measure: measure, trackWords: trackWords)
        }
    }

    /// Takes one cell into account. (`ColumnProfiler.add` gives a column settled as text, when
    /// words are not tracked, to the shorter `noteWidest`, which notes the same.)
    @inline(__always)
    mutating func note(_ cell: UnsafeBufferPointer<UInt8>, measure: DisplayWidth, trackWords: Bool) {
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
    mutating func noteShortNumber(_ cell: UnsafeBufferPointer<UInt8>, trackWords: Bool) -> Bool {
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
    mutating func noteAnyCell(_ cell: UnsafeBufferPointer<UInt8>, measure: DisplayWidth, trackWords: Bool) {
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
    mutating func noteWidest(_ cell: UnsafeBufferPointer<UInt8>, measure: DisplayWidth) {
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
    mutating func noteWidest(_ batch: borrowing SizingBatch, column c: Int, in buffer: UnsafePointer<UInt8>, measure: DisplayWidth) {
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
    static func longestWord(_ cell: UnsafeBufferPointer<UInt8>, width: Int, measure: DisplayWidth) -> Int {
        guard cell.contains(0x20) else { return width }
        var longest = 0
        var start = 0
        for i in 0...cell.count where i == cell.count || cell[i] == 0x20 {
            if i > start { longest = max(longest, measure.width(utf8: UnsafeBufferPointer(rebasing: cell[start..<i]))) }
            start = i + 1
        }
        return longest
    }
}

extension ColumnProfile {
    /// Makes room for a footer number (a group's sum) without changing the column's type.
    mutating func noteFooter(_ text: String, measure: DisplayWidth) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            let cell = UnsafeBufferPointer(buffer)
            guard let shape = NumberShape.parse(cell) else { return }
            integerWidth = max(integerWidth, shape.point)
            fractionWidth = max(fractionWidth, shape.number.count - shape.point)
            strippedIntegerWidth = max(strippedIntegerWidth, shape.point)
            strippedFractionWidth = max(strippedFractionWidth, shape.number.count - shape.point)
        }
    }
}

extension ColumnProfiler {
    /// Makes room in a column for a footer number.
    mutating func noteFooter(column: Int, _ text: String) {
        guard column < profiles.count else { return }
        profiles[column].noteFooter(text, measure: measure)
    }
}
