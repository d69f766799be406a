import Input
import Text

/// A width held in 32 bits (a width past 2³¹ − 1 columns is held as that), so that a column's
/// profile stays small.
@propertyWrapper
struct Narrow: Sendable, Equatable {
    private var stored: Int32

    package init(wrappedValue: Int) { stored = Int32(clamping: wrappedValue) }

    var wrappedValue: Int {
        get { Int(stored) }
        set { stored = Int32(clamping: newValue) }
    }
}

/// What the sizing window showed about one column: a small record (72 bytes), as a table may have
/// millions of columns (E5). Widths are held in 32 bits (a width past 2³¹ − 1 columns is held as
/// that), and the kinds as what every value so far was, not as counts.
package struct ColumnProfile: Sendable, Equatable {
    /// The most columns a file read in pieces may have: 256 pieces' column sizes stay within
    /// about 64 MB.
    @inlinable package static var widestInPieces: Int { (64 << 20) / 256 / MemoryLayout<ColumnProfile>.stride }

    /// Kinds every non-null cell so far has been (all of them while there is none).
    struct Kinds: OptionSet, Sendable, Equatable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        package static let number = Kinds(rawValue: 1)
        package static let integer = Kinds(rawValue: 2)
        package static let percent = Kinds(rawValue: 4)
        package static let quantity = Kinds(rawValue: 8)
        package static let date = Kinds(rawValue: 16)
        package static let boolean = Kinds(rawValue: 32)
        package static let all: Kinds = [.number, .integer, .percent, .quantity, .date, .boolean]
    }

    /// The column's name in the input.
    package var name: String
    /// Non-null cells seen.
    package var values = 0
    /// What every one of them was.
    var every = Kinds.all
    /// The widest cell, in display columns, as written.
    @Narrow package var width = 0
    /// The widest empty or null-like cell (`NA`, `-`).
    @Narrow package var nullWidth = 0
    /// Point alignment of numbers as written: widest part before the decimal separator and widest
    /// part from it on (C2).
    @Narrow package var integerWidth = 0
    @Narrow package var fractionWidth = 0
    /// The same with the unit taken out (C3).
    @Narrow package var strippedIntegerWidth = 0
    @Narrow package var strippedFractionWidth = 0
    /// The widest run of non-space text (the narrowest a wrapped column can be without breaking words).
    @Narrow package var longestWord = 0
    /// The unit of the first quantity, where it stood, and whether every quantity had it.
    package var unit: [UInt8]?
    var unitBefore = false
    var unitConsistent = true
    /// Set once a cell showed the column can only be text: later cells are only measured.
    var settledText = false
    /// Whether an empty cell was seen (it shows `--null TEXT`).
    package var hasEmpties = false
    /// The cells' bytes were not checked as UTF-8 when read (a CSV or TSV file's sizing pass in
    /// pieces, P1): each cell that is not ASCII is checked as it is noted, by `commonWidth` (or
    /// the `CommonWidthCache` entry it made) where that measures it, else by `UTF8Check.isValid`
    /// (`noteAnyCell`, `noteWidestNonASCII`). A number, date or boolean is ASCII.
    package var checksUTF8 = false
    /// With `checksUTF8`: a cell was not valid UTF-8 (it was not measured; the piece is read
    /// again whole, where the stream replaces what is wrong, I5).
    package var sawInvalidUTF8 = false

    package init(name: String, checksUTF8: Bool = false) {
        self.name = name
        self.checksUTF8 = checksUTF8
    }

    /// Whether every non-null cell is a number (and there is at least one): right-aligned, never cut.
    package var isNumeric: Bool { values > 0 && every.contains(.number) }

    /// The column's type (C1).
    package var kind: CellKind {
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
    package var commonUnit: String? {
        guard isNumeric, every.contains(.quantity), unitConsistent, let unit else { return nil }
        return String(decoding: unit, as: UTF8.self)
    }

    /// The width the cells need: numbers aligned on their points, else the widest cell.
    /// - Parameter stripped: whether the unit is taken out of the cells.
    package func cellWidth(stripped: Bool) -> Int {
        guard isNumeric else { return width }
        let numbers = stripped ? strippedIntegerWidth + strippedFractionWidth : integerWidth + fractionWidth
        return max(numbers, nullWidth)
    }
}

extension ColumnProfile {
    /// Takes in another profile of the same column over other cells.
    package mutating func merge(_ other: ColumnProfile) {
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
}

extension ColumnProfile {
    /// Makes room for a footer number (a group's sum) without changing the column's type.
    package mutating func noteFooter(_ text: String, measure: DisplayWidth) {
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
