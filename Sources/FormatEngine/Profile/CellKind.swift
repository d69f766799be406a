/// What one cell looks like, for typing a column (SPEC C1).
public enum CellKind: UInt8, Sendable {
    /// Empty, or a placeholder such as `NA`, `N/A`, `null`, `NULL`, `-`: says nothing about the type.
    case null
    /// An integer as people write it: `42`, `-7`, `0`. A leading zero (`007`) is an identifier: text.
    case integer
    /// A decimal: `3.14`, `-0.5`, `1e-3`.
    case decimal
    /// Anything else.
    case text

    /// Classifies a cell from its bytes, without making a `String`.
    /// - Complexity: O(bytes), usually stopping at the first byte that is not a digit.
    public static func of(_ cell: UnsafeBufferPointer<UInt8>) -> CellKind {
        let n = cell.count
        if n == 0 { return .null }
        let first = cell[0]
        if first &- 0x30 > 9 && first != UInt8(ascii: "-") && first != UInt8(ascii: "+") && first != UInt8(ascii: ".") {
            return isNullWord(cell) ? .null : .text
        }
        if n == 1 && first == UInt8(ascii: "-") { return .null }
        var i = 0
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") { i = 1 }
        let intStart = i
        while i < n && cell[i] &- 0x30 <= 9 { i += 1 }
        let intDigits = i - intStart
        if intDigits > 1 && cell[intStart] == UInt8(ascii: "0") { return .text }  // 007, 02134
        if i == n { return intDigits > 0 ? .integer : .text }
        var fracDigits = 0
        if cell[i] == UInt8(ascii: ".") {
            i += 1
            let fracStart = i
            while i < n && cell[i] &- 0x30 <= 9 { i += 1 }
            fracDigits = i - fracStart
        }
        if intDigits + fracDigits == 0 { return .text }
        if i < n && (cell[i] == UInt8(ascii: "e") || cell[i] == UInt8(ascii: "E")) {
            i += 1
            if i < n && (cell[i] == UInt8(ascii: "-") || cell[i] == UInt8(ascii: "+")) { i += 1 }
            let expStart = i
            while i < n && cell[i] &- 0x30 <= 9 { i += 1 }
            if i == expStart { return .text }
        }
        return i == n ? .decimal : .text
    }

    static func isNullWord(_ cell: UnsafeBufferPointer<UInt8>) -> Bool {
        switch cell.count {
        case 2: return cell[0] == UInt8(ascii: "N") && cell[1] == UInt8(ascii: "A")
        case 3: return cell[0] == UInt8(ascii: "N") && cell[1] == UInt8(ascii: "/") && cell[2] == UInt8(ascii: "A")
        case 4:
            let word = (UInt32(cell[0]) << 24) | (UInt32(cell[1]) << 16) | (UInt32(cell[2]) << 8) | UInt32(cell[3])
            return word == 0x6E75_6C6C || word == 0x4E55_4C4C  // "null", "NULL"
        default: return false
        }
    }
}
