import Input
import Profile
import Support
import Text
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One `--sort` key: a column, ascending or (`-COL`) descending (W11).
public struct SortKey: Sendable, Equatable {
    /// The column sorted by.
    public var column: ColumnReference
    /// Largest first (`-COL`).
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
package enum RowOrder {
    /// A cell's value for comparing: numbers by value, dates by their ISO text, text by Unicode order.
    package enum Value: Comparable {
        case number(Double)
        /// Text in NFC (`orderText`), compared by its UTF-8 bytes: the Unicode order of the
        /// texts' NFC forms, a text before any longer one it begins. (`String`'s `<` is not used:
        /// where one text's NFC form begins the other's and either needs normalizing, `"e\u{301}"`
        /// and `"éa"`, it says neither comes first though they differ, which left the order to
        /// the sort's algorithm.)
        case text(String)

        package static func == (a: Value, b: Value) -> Bool { compare(a, b) == 0 }
        package static func < (a: Value, b: Value) -> Bool { compare(a, b) < 0 }

        /// -1, 0 or 1 as `a` goes before, with or after `b`: numbers before text.
        @inline(__always)
        package static func compare(_ a: Value, _ b: Value) -> Int {
            switch (a, b) {
            case let (.number(x), .number(y)): return x < y ? -1 : y < x ? 1 : 0
            case (.number, .text): return -1
            case (.text, .number): return 1
            case let (.text(x), .text(y)): return bytewise(x, y)
            }
        }

        private static func bytewise(_ x: String, _ y: String) -> Int {
            let order = x.utf8.withContiguousStorageIfAvailable { a in
                y.utf8.withContiguousStorageIfAvailable { b -> Int in
                    let n = min(a.count, b.count)
                    if n > 0, let p = a.baseAddress, let q = b.baseAddress {
                        let c = memcmp(p, q, n)
                        if c != 0 { return c < 0 ? -1 : 1 }
                    }
                    return a.count == b.count ? 0 : a.count < b.count ? -1 : 1
                }
            }
            if let order = order ?? nil { return order }
            // Not stored as contiguous UTF-8 (never for text made here): the same order, copied.
            return bytewise(String(decoding: Array(x.utf8), as: UTF8.self), String(decoding: Array(y.utf8), as: UTF8.self))
        }

        /// A text cell's sort text: the cell with bad UTF-8 replaced, in NFC (the standard
        /// library's normalization), so that its UTF-8 bytes order it; a plain cell as it is.
        package static func orderText(_ cell: UnsafeBufferPointer<UInt8>) -> String {
            let text = String(decoding: cell, as: UTF8.self)
            if isPlain(cell) { return text }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(cell.count + 8)
            text._withNFCCodeUnits { bytes.append($0) }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Whether valid UTF-8 `bytes` are plain text: in NFC already, with no combining mark (every
        /// scalar below U+0300 or a kana, CJK, Hangul or full-width letter).
        package static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var i = 0
            let n = bytes.count
            while i < n {
                let lead = bytes[i]
                if lead < 0x80 {
                    i &+= 1
                } else if lead < 0xE0 {
                    // Two bytes: U+0080–U+07FF; plain below U+0300 (lead C0–CB).
                    if lead >= 0xCC { return false }
                    i &+= 2
                } else if lead < 0xF0, i &+ 2 < n {
                    let scalar = UInt32(lead & 0x0F) << 12 | UInt32(bytes[i &+ 1] & 0x3F) << 6 | UInt32(bytes[i &+ 2] & 0x3F)
                    switch scalar {
                    case 0x3041...0x3096, 0x30A1...0x30FA, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF01...0xFF60: i &+= 3
                    default: return false
                    }
                } else {
                    return false
                }
            }
            return true
        }
    }

    /// A number as a key that orders as the numbers do (reversed when `descending`); NaN (an empty
    /// cell) is the largest key both ways, and -0 and 0 are the same key (they tie).
    @inline(__always)
    package static func numberKey(_ number: Double, descending: Bool) -> UInt64 {
        guard !number.isNaN else { return .max }
        let bits = (number == 0 ? 0 : number).bitPattern
        let key = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
        return descending ? ~key : key  // never .max: that would be a NaN's key
    }

    /// Sorts rows by the keys, stably; empty cells last whatever the direction.
    /// - Parameters:
    ///   - keys: column indexes with their direction.
    ///   - numeric: per column, whether it is numeric (compared by value).
    /// - Complexity: O(n log n) comparisons; each key's values are computed once per row.
    package static func sort(_ rows: inout [Record], keys: [(index: Int, descending: Bool)], numeric: [Bool]) {
        let types = keys.map { $0.index < numeric.count && numeric[$0.index] }
        var values: [Value?] = []
        values.reserveCapacity(rows.count * keys.count)
        for row in rows {
            row.withFields { fields in
                for (key, numeric) in zip(keys, types) { values.append(value(fields, key.index, numeric: numeric)) }
            }
        }
        let order = self.order(values, count: rows.count, descending: keys.map(\.descending), rowNumbers: nil)
        rows = order.map { rows[$0] }
    }

    /// The order of rows by their sort values, `values` holding each row's (one a key) back to
    /// back: by each key in turn, empty cells last, ties by row number (`rowNumbers`, else the
    /// position). Flat, so a comparison copies nothing.
    package static func order(_ values: [Value?], count: Int, descending: [Bool], rowNumbers: [Int]?) -> [Int] {
        let k = descending.count
        var order = Array(0..<count)
        values.withUnsafeBufferPointer { v in
            order.sort { a, b in
                for j in 0..<k {
                    if let first = before(v[a &* k &+ j], v[b &* k &+ j], descending: descending[j]) { return first }
                }
                return rowNumbers.map { $0[a] < $0[b] } ?? (a < b)
            }
        }
        return order
    }

    package static func value(_ row: Record, _ index: Int, numeric: Bool) -> Value? {
        row.withFields { value($0, index, numeric: numeric) }
    }

    /// A cell's sort value: nil for an empty or null-like cell (sorted last).
    package static func value(_ fields: Fields, _ index: Int, numeric: Bool) -> Value? {
        value(cell: fields[index], numeric: numeric)
    }

    /// A cell's sort value, from its bytes: nil for an empty or null-like cell (sorted last).
    package static func value(cell: UnsafeBufferPointer<UInt8>, numeric: Bool) -> Value? {
        if cell.isEmpty { return nil }
        if numeric, let number = NumberValue.of(cell) { return .number(number) }
        return CellKind.isNullWord(cell) ? nil : .text(Value.orderText(cell))
    }

    /// Whether the row with sort values `a` (and number `ai`) goes before the one with `b`: by each
    /// key in turn, then by row number (stable, W11).
    package static func precedes(_ a: [Value?], _ ai: Int, _ b: [Value?], _ bi: Int, descending: [Bool]) -> Bool {
        for k in 0..<descending.count {
            if let first = before(a[k], b[k], descending: descending[k]) { return first }
        }
        return ai < bi
    }

    /// Whether value `a` goes before `b` by one key (nil: a tie): empty cells last whatever the
    /// direction.
    @inline(__always)
    package static func before(_ a: Value?, _ b: Value?, descending: Bool) -> Bool? {
        switch (a, b) {
        case (nil, nil): return nil
        case (nil, _): return false
        case (_, nil): return true
        case let (x?, y?):
            let order = Value.compare(x, y)
            if order == 0 { return nil }
            return descending ? order > 0 : order < 0
        }
    }

    /// Splits rows into groups by a column's text, in first-seen order.
    /// - Returns: the groups as (value, row indexes).
    package static func groups(_ rows: [Record], by index: Int) -> [(value: String, rows: [Int])] {
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
@usableFromInline package enum NumberValue {
    /// The value of a number-like cell (unit and grouping ignored, decimal comma understood).
    package static func of(_ cell: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let shape = NumberShape.parse(cell) else { return nil }
        if let value = exactly(cell, shape) { return value }
        var text = ""
        plain(cell, shape) { text.append(Character(Unicode.Scalar($0))) }
        return Double(text)
    }

    /// Powers of ten a `Double` holds exactly (10^0 … 10^22).
    private static let exactPowers: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { x, _ in x * 10 } }

    /// The value of a number whose plain form is `-?digits(.digits)?` with at most 15 significant
    /// digits and 22 decimals, read without making text: its digits as an integer below 2^53,
    /// divided by a power of ten that a `Double` holds exactly — one correctly rounded division,
    /// so the same value `Double(text)` reads (Clinger's fast path). Nil for any other form (an
    /// exponent, more digits), which is read from its text.
    @inline(__always)
    private static func exactly(_ cell: UnsafeBufferPointer<UInt8>, _ shape: NumberShape) -> Double? {
        var digits: UInt64 = 0
        var significant = 0
        var decimals = 0
        var negative = false
        var point = false
        var plainForm = true
        var first = true
        var any = false
        plain(cell, shape) { b in
            defer { first = false }
            if b &- 0x30 <= 9 {
                any = true
                if significant > 0 || b != 0x30 { significant &+= 1 }
                digits = digits &* 10 &+ UInt64(b &- 0x30)
                if point { decimals &+= 1 }
            } else if b == UInt8(ascii: "."), !point {
                point = true
            } else if b == UInt8(ascii: "-"), first {
                negative = true
            } else {
                plainForm = false
            }
        }
        guard plainForm, any, significant <= 15, decimals <= 22 else { return nil }
        let value = Double(digits) / exactPowers[decimals]
        return negative ? -value : value
    }

    /// The number's bytes in the plain form its value is read from (`of`, and the HTML page's
    /// sort key, O6): the sign, the digits with a decimal comma as a point, grouping commas and
    /// the unit left out.
    @inlinable
    package static func plain<E: Error>(_ cell: UnsafeBufferPointer<UInt8>, _ shape: NumberShape,
                                _ emit: (UInt8) throws(E) -> Void) throws(E) {
        if let sign = shape.detachedSign { try emit(cell[sign]) }
        for i in shape.number {
            let b = cell[i]
            if b == UInt8(ascii: ",") {
                if i - shape.number.lowerBound == shape.point { try emit(UInt8(ascii: ".")) }  // a decimal comma
            } else {
                try emit(b)
            }
        }
    }

    /// Whether the number as shown (the whole cell, or with its unit taken out, C3) is its plain
    /// form already, `-?digits(.digits)?` (no sign kept apart, no comma, unit or exponent), so a
    /// reader gets its value from its text as it stands.
    @inlinable
    package static func isPlain(_ cell: UnsafeBufferPointer<UInt8>, _ shape: NumberShape, unitOut: Bool) -> Bool {
        guard shape.detachedSign == nil else { return false }
        let shown = unitOut ? shape.number : 0..<cell.count
        guard shown == shape.number else { return false }
        var i = shown.lowerBound
        if i < shown.upperBound && cell[i] == UInt8(ascii: "-") { i &+= 1 }
        var digits = 0
        var points = 0
        while i < shown.upperBound {
            let b = cell[i]
            if b &- 0x30 <= 9 {
                digits &+= 1
            } else if b == UInt8(ascii: "."), digits > 0, points == 0 {
                points = 1
                digits = 0
            } else {
                return false
            }
            i &+= 1
        }
        return digits > 0
    }

    /// A group's total (W12): the digits to show, and whether they are exact.
    package struct Sum: Sendable, Equatable {
        package var text: String
        /// False only when the addends span more digits than `ExactDecimal.limit` (`1e300` and
        /// `1e-300`): then digits below that span are dropped, the sum is rounded to 17
        /// significant digits, and the footer says so.
        package var exact: Bool

        package init(text: String, exact: Bool) {
            self.text = text
            self.exact = exact
        }
    }

    /// Adds numbers given as text exactly, in decimal: every digit of every addend counts, whatever
    /// its form (`1e3`, `1,234.50`, `12,5`, `$-5`, `3 kg`). Percentages are not added.
    /// Placeholders (`NA`, `-`, `null`) and empty cells add nothing.
    /// - Returns: the sum written with as many decimals as the most precise addend (`1.50 + 2` is
    ///   `3.50`, `1e-3 + 1e-3` is `0.002`); nil when there is nothing to add, or a cell is text or
    ///   a percentage.
    package static func sum(_ cells: [[UInt8]]) -> Sum? {
        var terms: [ExactDecimal] = []
        terms.reserveCapacity(cells.count)
        for cell in cells {
            let term: ExactDecimal?? = cell.withUnsafeBufferPointer { buffer in
                buffer.isEmpty || CellKind.isNullWord(buffer) ? .some(nil) : ExactDecimal(buffer).map { .some($0) }
            }
            guard let term else { return nil }
            if let term { terms.append(term) }
        }
        if terms.isEmpty { return nil }
        let (total, exact) = ExactDecimal.sum(terms)
        return Sum(total, exact: exact)
    }
}

extension NumberValue.Sum {
    /// A total as shown: rounded to 17 significant digits when it is not exact.
    package init(_ total: ExactDecimal, exact: Bool) {
        self.init(text: exact ? total.text : total.rounded(toSignificant: 17).text, exact: exact)
    }
}
