import Input
import Text

/// What one cell looks like, for typing a column (C1).
public enum CellKind: UInt8, Sendable {
    /// Empty, or a placeholder such as `NA`, `N/A`, `null`, `NULL`, `-`: says nothing about the type.
    case null
    /// An integer as people write it: `42`, `-7`, `1,234`. A leading zero (`007`) is an identifier: text.
    case integer
    /// A decimal: `3.14`, `-0.5`, `12,50`, `1e-3`.
    case decimal
    /// A number with `%`: `12.5%`.
    case percent
    /// A number with a unit or currency: `$4.50`, `12,50 €`, `250 g`, `120ms`.
    case quantity
    /// An ISO date or time: `2024-03-01`, `2024-03-01T10:00:00Z`, `10:30`.
    case date
    /// `true`, `false`, `yes`, `no` in any case.
    case boolean
    /// Anything else.
    case text

    /// Whether cells of this kind are numbers (right-aligned, never cut).
    public var isNumeric: Bool { self == .integer || self == .decimal || self == .percent || self == .quantity }

    /// Classifies a cell from its bytes, without making a `String`.
    /// - Complexity: O(bytes), usually stopping at the first byte that does not fit a number.
    package static func of(_ cell: UnsafeBufferPointer<UInt8>) -> CellKind {
        if cell.isEmpty || isNullWord(cell) { return .null }
        if let shape = NumberShape.parse(cell) { return shape.kind }
        if isDate(cell) { return .date }
        if isBoolean(cell) { return .boolean }
        return .text
    }

    @inline(__always)
    package static func isNullWord(_ cell: UnsafeBufferPointer<UInt8>) -> Bool {
        switch cell.count {
        case 1: return cell[0] == UInt8(ascii: "-")
        case 2: return cell[0] == UInt8(ascii: "N") && cell[1] == UInt8(ascii: "A")
        case 3: return cell[0] == UInt8(ascii: "N") && cell[1] == UInt8(ascii: "/") && cell[2] == UInt8(ascii: "A")
        case 4:
            let word = (UInt32(cell[0]) << 24) | (UInt32(cell[1]) << 16) | (UInt32(cell[2]) << 8) | UInt32(cell[3])
            return word == 0x6E75_6C6C || word == 0x4E55_4C4C  // "null", "NULL"
        default: return false
        }
    }

    /// `YYYY-MM-DD` or `YYYY/MM/DD` alone, the commonest date cell (ten printable ASCII bytes):
    /// its bytes as two overlapping words, the separators made `0`, every byte a digit.
    @inline(__always)
    package static func isPlainDate(_ c: UnsafeBufferPointer<UInt8>) -> Bool {
        guard c.count == 10, let base = c.baseAddress else { return false }
        let separator = base[4]
        guard separator == UInt8(ascii: "-") || separator == UInt8(ascii: "/"), base[7] == separator else { return false }
        let raw = UnsafeRawPointer(base)
        let zero = UInt64(separator ^ 0x30)
        // Bytes 0–7, the separators at 4 and 7; bytes 2–9, the separators at 2 and 5.
        return TextBytes.allDigits(raw.loadUnaligned(as: UInt64.self) ^ (zero << 32 | zero << 56))
            && TextBytes.allDigits(raw.loadUnaligned(fromByteOffset: 2, as: UInt64.self) ^ (zero << 16 | zero << 40))
    }

    /// `YYYY-MM-DD` or `YYYY/MM/DD`, optionally followed by `T` or a space and a time; or a time
    /// `HH:MM[:SS[.fff]]` alone; a time may end in `Z` or `±HH:MM`.
    static func isDate(_ c: UnsafeBufferPointer<UInt8>) -> Bool {
        // The common `YYYY-MM-DD` at once; everything else through the grammar below.
        if isPlainDate(c) { return true }
        var i = 0
        func digits(_ n: Int) -> Bool {
            guard i + n <= c.count else { return false }
            for k in i..<(i + n) where c[k] &- 0x30 > 9 { return false }
            i += n
            return true
        }
        func byte(_ b: UInt8) -> Bool {
            guard i < c.count, c[i] == b else { return false }
            i += 1
            return true
        }
        func time() -> Bool {
            guard digits(2), byte(UInt8(ascii: ":")), digits(2) else { return false }
            if byte(UInt8(ascii: ":")) {
                guard digits(2) else { return false }
                if byte(UInt8(ascii: ".")) {
                    let start = i
                    while i < c.count && c[i] &- 0x30 <= 9 { i += 1 }
                    if i == start { return false }
                }
            }
            if i == c.count { return true }
            if byte(UInt8(ascii: "Z")) { return i == c.count }
            if i < c.count && (c[i] == UInt8(ascii: "+") || c[i] == UInt8(ascii: "-")) {
                i += 1
                guard digits(2) else { return false }
                _ = byte(UInt8(ascii: ":"))
                return digits(2) && i == c.count
            }
            return false
        }
        if c.count >= 5 && c[2] == UInt8(ascii: ":") { return time() }
        guard digits(4), i < c.count, c[i] == UInt8(ascii: "-") || c[i] == UInt8(ascii: "/") else { return false }
        let separator = c[i]
        i += 1
        guard digits(2), byte(separator), digits(2) else { return false }
        if i == c.count { return true }
        guard c[i] == UInt8(ascii: "T") || c[i] == UInt8(ascii: " ") else { return false }
        i += 1
        return time()
    }

    /// `true`, `false`, `yes` or `no`, in any case: the cell's bytes as one word
    /// (`TextBytes.word`), each with its 0x20 bit set, against each word's.
    @inline(__always)
    package static func isBoolean(_ c: UnsafeBufferPointer<UInt8>) -> Bool {
        guard c.count >= 2 && c.count <= 5, let base = c.baseAddress else { return false }
        let folded = TextBytes.word(UnsafeRawPointer(base), count: c.count) | SWAR.ones &* 0x20
        switch c.count {
        case 2: return folded == 0x6F6E_6F6E_6F6E_6F6E  // "no", "no" | "no", "no"
        case 3: return folded == 0x7365_6579_7365_6579  // "ye" | "es" << 16, twice
        case 4: return folded == 0x6575_7274_6575_7274  // "true" | "true" << 32
        default: return folded == 0x6573_6C61_736C_6166  // "fals" | "alse" << 32
        }
    }
}
