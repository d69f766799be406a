/// What decoding needs that holds no stream state: cp1252's upper table, and the check of one
/// UTF-8 sequence.
extension InputStream {
    /// cp1252's printable characters in 0x80–0x9F; its five unassigned bytes map to the C1
    /// control of the same number (as WHATWG's decoder does), which output then shows escaped.
    static func cp1252(_ b: UInt8) -> UInt32 {
        guard b >= 0x80 && b < 0xA0 else { return UInt32(b) }
        return cp1252Table[Int(b - 0x80)]
    }

    /// cp1252's 0x80–0x9F, made once (not an array per byte).
    private static let cp1252Table: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}

/// Checks one UTF-8 sequence (RFC 3629: no overlongs, no surrogates, nothing past U+10FFFF).
enum UTF8Check {
    enum Result {
        case valid(Int)
        /// The bytes end before the sequence does; the associated value is how many bytes were valid.
        case incomplete(Int)
        /// The sequence is wrong after this many valid bytes.
        case invalid(Int)
    }

    /// Classifies the sequence starting at `p[i]` (a byte ≥ 0x80), looking no further than `limit`.
    @inline(__always)
    static func sequence(_ p: UnsafeMutablePointer<UInt8>, _ i: Int, _ limit: Int) -> Result {
        let lead = p[i]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF  // range of the second byte
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return .invalid(0)
        }
        for k in 1..<length {
            if i + k >= limit { return .incomplete(k) }
            let b = p[i + k]
            let ok = k == 1 ? (b >= low && b <= high) : (b >= 0x80 && b <= 0xBF)
            if !ok { return .invalid(k) }
        }
        return .valid(length)
    }
}
