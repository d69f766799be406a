/// What the sizing window showed about one column.
public struct ColumnProfile: Sendable, Equatable {
    /// The column's name in the input.
    public var name: String
    /// Non-null cells seen, and how many of them were integers or decimals.
    public var values = 0
    public var integers = 0
    public var decimals = 0
    /// The widest cell, in display columns.
    public var width = 0
    /// The widest integer part and fraction (with its point) of numeric cells, for point alignment.
    public var integerWidth = 0
    public var fractionWidth = 0
    /// The widest null-like cell (`NA`, `-`).
    public var nullWidth = 0

    public init(name: String) { self.name = name }

    /// Whether every non-null cell is a number (and there is at least one).
    public var isNumeric: Bool { values > 0 && integers + decimals == values }

    /// The width the cells need: numbers aligned on their points, else the widest cell.
    public var cellWidth: Int {
        isNumeric ? max(integerWidth + fractionWidth, nullWidth) : width
    }
}

/// Looks at each row of the sizing window once and keeps a profile per column (SPEC C1, W2).
public struct ColumnProfiler {
    public private(set) var profiles: [ColumnProfile] = []
    public private(set) var rows = 0
    let measure: DisplayWidth

    public init(columns: [String], measure: DisplayWidth) {
        self.measure = measure
        profiles = columns.map { ColumnProfile(name: $0) }
    }

    /// Adds columns that appeared after the profiler was made.
    public mutating func sync(columns: [String]) {
        while profiles.count < columns.count { profiles.append(ColumnProfile(name: columns[profiles.count])) }
    }

    /// Takes one row into account.
    /// - Complexity: O(bytes of the row); no allocation.
    public mutating func add(_ record: Record) {
        rows += 1
        let count = min(record.count, profiles.count)
        record.bytes.withUnsafeBufferPointer { all in
            var start = 0
            for i in 0..<count {
                let end = record.ends[i]
                let cell = UnsafeBufferPointer(rebasing: all[start..<end])
                start = end
                let width = measure.cellWidth(cell)
                let kind = CellKind.of(cell)
                profiles[i].note(cell, kind: kind, width: width)
            }
        }
    }
}

extension ColumnProfile {
    mutating func note(_ cell: UnsafeBufferPointer<UInt8>, kind: CellKind, width: Int) {
        if width > self.width { self.width = width }
        switch kind {
        case .null:
            if width > nullWidth { nullWidth = width }
            return
        case .integer:
            integers += 1
            if width > integerWidth { integerWidth = width }
        case .decimal:
            decimals += 1
            let point = NumberParts.pointIndex(cell)
            if point > integerWidth { integerWidth = point }
            if width - point > fractionWidth { fractionWidth = width - point }
        case .text:
            break
        }
        values += 1
    }
}

/// Splitting a number's text at its decimal point (ASCII, so bytes are columns).
enum NumberParts {
    /// Index of the `.` in an ASCII number, or its length when it has none.
    static func pointIndex(_ cell: UnsafeBufferPointer<UInt8>) -> Int {
        for i in 0..<cell.count where cell[i] == UInt8(ascii: ".") { return i }
        var i = 0
        while i < cell.count && cell[i] != UInt8(ascii: "e") && cell[i] != UInt8(ascii: "E") { i += 1 }
        return i
    }
}

extension DisplayWidth {
    /// Display width of a cell as tablefmt prints it on one line, with a fast path for plain ASCII.
    /// - Complexity: O(bytes).
    public func cellWidth(_ cell: UnsafeBufferPointer<UInt8>) -> Int {
        width(utf8: cell)
    }
}
