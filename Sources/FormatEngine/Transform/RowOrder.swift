/// One `--sort` key: a column, ascending or (`-COL`) descending (W11).
public struct SortKey: Sendable, Equatable {
    public var column: ColumnReference
    public var descending: Bool

    /// Parses `price` or `-price`.
    public init(_ text: String) {
        if text.hasPrefix("-") && text.count > 1 {
            column = ColumnReference(String(text.dropFirst()))
            descending = true
        } else {
            column = ColumnReference(text)
            descending = false
        }
    }
}

/// Orders and groups rows that are all held in memory (W11, W12).
public enum RowOrder {
    /// A cell's value for comparing: numbers by value, dates by their ISO text, text by Unicode order.
    enum Value: Comparable {
        case number(Double)
        case text(String)
    }

    /// Sorts rows by the keys, stably; empty cells last whatever the direction.
    /// - Parameters:
    ///   - keys: column indexes with their direction.
    ///   - numeric: per column, whether it is numeric (compared by value).
    /// - Complexity: O(n log n) comparisons; each key's values are computed once per row.
    public static func sort(_ rows: inout [Record], keys: [(index: Int, descending: Bool)], numeric: [Bool]) {
        let values: [[Value?]] = rows.map { row in
            keys.map { key in value(row, key.index, numeric: key.index < numeric.count && numeric[key.index]) }
        }
        var order = Array(rows.indices)
        order.sort { a, b in
            for (k, key) in keys.enumerated() {
                switch (values[a][k], values[b][k]) {
                case (nil, nil): continue
                case (nil, _): return false  // empties last
                case (_, nil): return true
                case let (x?, y?):
                    if x == y { continue }
                    return key.descending ? y < x : x < y
                }
            }
            return a < b  // stable
        }
        rows = order.map { rows[$0] }
    }

    static func value(_ row: Record, _ index: Int, numeric: Bool) -> Value? {
        guard index < row.count else { return nil }
        let range = row.range(of: index)
        if range.isEmpty { return nil }
        if numeric, let number = row.bytes.withUnsafeBufferPointer({ NumberValue.of(UnsafeBufferPointer(rebasing: $0[range])) }) {
            return .number(number)
        }
        let isNull = row.bytes.withUnsafeBufferPointer { CellKind.isNullWord(UnsafeBufferPointer(rebasing: $0[range])) }
        return isNull ? nil : .text(row.string(at: index))
    }

    /// Splits rows into groups by a column's text, in first-seen order.
    /// - Returns: the groups as (value, row indexes).
    public static func groups(_ rows: [Record], by index: Int) -> [(value: String, rows: [Int])] {
        var order: [String] = []
        var members: [String: [Int]] = [:]
        for (k, row) in rows.enumerated() {
            let value = index < row.count ? row.string(at: index) : ""
            if members[value] == nil { order.append(value) }
            members[value, default: []].append(k)
        }
        return order.map { ($0, members[$0] ?? []) }
    }
}

/// Reading numbers' values, and adding them up exactly (W11, W12).
public enum NumberValue {
    /// The value of a number-like cell (unit and grouping ignored, decimal comma understood).
    public static func of(_ cell: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let shape = NumberShape.parse(cell) else { return nil }
        var text = ""
        if let sign = shape.detachedSign { text.append(Character(Unicode.Scalar(cell[sign]))) }
        for i in shape.number {
            let b = cell[i]
            if b == UInt8(ascii: ",") {
                if i - shape.number.lowerBound == shape.point { text.append(".") }  // a decimal comma
            } else {
                text.append(Character(Unicode.Scalar(b)))
            }
        }
        return Double(text)
    }

    /// Adds numbers given as text, exactly where they fit in 64-bit integers at the widest scale
    /// seen, else in floating point.
    /// - Returns: the sum written with as many decimals as the most precise addend.
    public static func sum(_ cells: [[UInt8]]) -> String {
        var scale = 0
        var parsed: [(digits: String, negative: Bool, fraction: Int)] = []
        for cell in cells {
            let value: (String, Bool, Int)? = cell.withUnsafeBufferPointer { buffer in
                guard let shape = NumberShape.parse(buffer), shape.kind != .percent else { return nil }
                var digits = ""
                var negative = false
                var fraction = 0
                var afterPoint = false
                if let sign = shape.detachedSign, buffer[sign] == UInt8(ascii: "-") { negative = true }
                for i in shape.number {
                    let b = buffer[i]
                    if b == UInt8(ascii: "-") { negative = true; continue }
                    if b == UInt8(ascii: "+") { continue }
                    if i - shape.number.lowerBound == shape.point { afterPoint = true; continue }
                    if b &- 0x30 <= 9 {
                        digits.append(Character(Unicode.Scalar(b)))
                        if afterPoint { fraction += 1 }
                    } else if b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
                        return nil  // exponents: leave to floating point
                    }
                }
                return (digits, negative, fraction)
            }
            if let value {
                parsed.append(value)
                scale = max(scale, value.2)
            } else if cell.withUnsafeBufferPointer({ of($0) }) != nil {
                return floating(cells)
            }
        }
        var total: Int64 = 0
        for (digits, negative, fraction) in parsed {
            guard var n = Int64(digits.isEmpty ? "0" : digits) else { return floating(cells) }
            for _ in fraction..<scale {
                let (m, overflow) = n.multipliedReportingOverflow(by: 10)
                if overflow { return floating(cells) }
                n = m
            }
            let (t, overflow) = negative ? total.subtractingReportingOverflow(n) : total.addingReportingOverflow(n)
            if overflow { return floating(cells) }
            total = t
        }
        return format(total, scale: scale)
    }

    static func format(_ scaled: Int64, scale: Int) -> String {
        let negative = scaled < 0
        var digits = String(scaled.magnitude)
        if scale > 0 {
            if digits.count <= scale { digits = String(repeating: "0", count: scale - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -scale))
        }
        return (negative ? "-" : "") + digits
    }

    static func floating(_ cells: [[UInt8]]) -> String {
        var total = 0.0
        for cell in cells { total += cell.withUnsafeBufferPointer { of($0) } ?? 0 }
        return "\(total)"
    }
}
