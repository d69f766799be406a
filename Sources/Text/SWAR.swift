/// Byte tests eight bytes at a time on a `UInt64` of bytes ("SIMD within a register"), for the
/// readers' scans and the Text stage's checks. Every test is per byte, so the byte order of the
/// word does not matter; the positional ones (`matches`, `lessThan`) find the first byte when the
/// word is loaded little-endian, as every load here is.
@usableFromInline package enum SWAR {
    @inlinable package static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @inlinable package static var highBits: UInt64 { 0x8080_8080_8080_8080 }
    @inlinable package static var quote: UInt64 { 0x22 * ones }
    @inlinable package static var backslash: UInt64 { 0x5C * ones }
    @inlinable package static var lowBits: UInt64 { 0x7F7F_7F7F_7F7F_7F7F }
    /// Bytes below this are controls up to CR (LF is 0x0A, CR 0x0D).
    @inlinable package static var belowLineBreaks: UInt8 { 0x0E }

    /// The high bit of every byte of `word` equal to the byte repeated in `pattern`, and no other
    /// bit: exact for every byte, so each set bit can be taken in turn (`matches` is exact only
    /// for the first).
    @inlinable @inline(__always)
    package static func equalBytes(_ word: UInt64, _ pattern: UInt64) -> UInt64 {
        let x = word ^ pattern
        return ~(((x & lowBits) &+ lowBits) | x) & highBits
    }

    /// The high bit of every byte of `word` less than `limit` (at most 0x80), and no other bit.
    @inline(__always)
    static func bytesBelow(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        ~(((word & lowBits) &+ UInt64(0x80 &- limit) &* ones) | word) & highBits
    }

    /// A word whose lowest set bit is the high bit of the first byte of `word` equal to the byte
    /// repeated in `pattern` (bits above it may be false positives); 0 when no byte is equal.
    @inlinable @inline(__always)
    package static func matches(_ word: UInt64, _ pattern: UInt64) -> UInt64 {
        let x = word ^ pattern
        return (x &- ones) & ~x & highBits
    }

    /// The same for the first byte less than `limit` (at most 0x80).
    @inlinable @inline(__always)
    package static func lessThan(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highBits
    }

    /// Moves `p` to the first byte of `buffer[p..<end]` marked in `stops`, or to `end`: eight bytes
    /// at a time to a byte equal to `pattern`'s (or found by `more`) or below `below`; when that
    /// byte is not a stop (a control that is not one), the search goes on after it.
    @inlinable @inline(__always)
    package static func skip(_ buffer: UnsafeMutablePointer<UInt8>, _ p: inout Int, _ end: Int, to pattern: UInt64, below: UInt8,
                     stops: [Bool], more: (UInt64) -> UInt64) {
        stops.withUnsafeBufferPointer { stops in
            while p &+ 8 <= end {
                let word = UnsafeRawPointer(buffer + p).loadUnaligned(as: UInt64.self)
                let hits = matches(word, pattern) | lessThan(word, below) | more(word)
                if hits != 0 {
                    p &+= hits.trailingZeroBitCount >> 3
                    if stops[Int(buffer[p])] { return }
                    p &+= 1
                } else {
                    p &+= 8
                }
            }
            while p < end && !stops[Int(buffer[p])] { p &+= 1 }
        }
    }
}
