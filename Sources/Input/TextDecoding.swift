import Text

/// What decoding needs that holds no stream state: cp1252's upper table, and the check of one
/// UTF-8 sequence.
extension InputStream {
    /// cp1252's printable characters in 0x80–0x9F; its five unassigned bytes map to the C1
    /// control of the same number (as WHATWG's decoder does), which output then shows escaped.
    package static func cp1252(_ b: UInt8) -> UInt32 {
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
package enum UTF8Check {
    package enum Result {
        case valid(Int)
        /// The bytes end before the sequence does; the associated value is how many bytes were valid.
        case incomplete(Int)
        /// The sequence is wrong after this many valid bytes.
        case invalid(Int)
    }

    /// Classifies the sequence starting at `p[i]` (a byte ≥ 0x80), looking no further than `limit`.
    @inline(__always)
    package static func sequence(_ p: UnsafeMutablePointer<UInt8>, _ i: Int, _ limit: Int) -> Result {
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

extension UTF8Check {
    /// Where the valid UTF-8 that `p[from..<limit]` starts with ends: `limit` when all of it is
    /// valid, else the first byte of the first sequence that is not (wrong, or cut short by
    /// `limit`). The one scan for the stream's check of what it reads (I5) and a cell's
    /// (`isValid`).
    @inline(__always)
    static func validEnd(_ p: UnsafeMutablePointer<UInt8>, from: Int, to limit: Int) -> Int {
        var i = from
        while i < limit {
            // Fast path: sixteen ASCII bytes at a time, then eight, again after every multibyte
            // sequence, and straight to the first byte of a word that is not ASCII.
            while i &+ 16 <= limit {
                let raw = UnsafeRawPointer(p + i)
                if (raw.loadUnaligned(as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) & SWAR.highBits != 0 { break }
                i &+= 16
            }
            while i &+ 8 <= limit {
                let high = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self) & SWAR.highBits
                if high != 0 {
                    i &+= high.trailingZeroBitCount >> 3
                    break
                }
                i &+= 8
            }
            if i >= limit { break }
            if p[i] < 0x80 {  // fewer than eight bytes left
                i &+= 1
                continue
            }
            // A run of sequences (a word of Latin, Greek, CJK, Hangul …), taken while it lasts.
            repeat {
                let lead = p[i]
                // The common two- and three-byte sequences without the general check: a lead of
                // C2–DF, or of E1–EC or EE–EF (whose second byte may be any of 80–BF), and
                // continuation bytes; E0, ED, four bytes and anything wrong by `sequence`.
                if lead &- 0xC2 <= 0xDF - 0xC2 {
                    if i &+ 1 < limit, p[i &+ 1] & 0xC0 == 0x80 {
                        i &+= 2
                        continue
                    }
                } else if lead &- 0xE1 <= 0xEF - 0xE1, lead != 0xED, i &+ 2 < limit,
                          p[i &+ 1] & 0xC0 == 0x80, p[i &+ 2] & 0xC0 == 0x80 {
                    i &+= 3
                    continue
                }
                guard case .valid(let length) = sequence(p, i, limit) else { return i }
                i &+= length
            } while i < limit && p[i] >= 0x80
        }
        return i
    }

    /// Whether `bytes` are valid UTF-8 (RFC 3629).
    package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        return validEnd(UnsafeMutablePointer(mutating: base), from: 0, to: bytes.count) == bytes.count
    }
}
