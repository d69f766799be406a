import Input
import Text

/// The parts of a number-like cell: an optional sign, an optional unit or currency before or after,
/// and the number itself, with where its decimal separator is (C1, C2, C3).
@usableFromInline package struct NumberShape: Sendable, Equatable {
    package var kind: CellKind
    /// Byte offset of a sign written before a prefix unit (`-$5`), which moves next to the number
    /// when the unit is taken out; nil otherwise.
    @usableFromInline package var detachedSign: Int?
    /// The number's bytes (with its own sign when written next to it), without the unit.
    @usableFromInline package var number: Range<Int>
    /// Offset in `number` of the decimal separator, or `number.count` when there is none.
    @usableFromInline package var point: Int
    /// The unit's bytes, and whether it stood before the number.
    package var unit: Range<Int>?
    var unitBefore = false

    /// Parses a cell; nil when it is not a number, a percentage or a quantity.
    /// - Complexity: O(bytes).
    @inline(__always)  // the fast path where the cells are: no shape built in memory
    package static func parse(_ c: UnsafeBufferPointer<UInt8>) -> NumberShape? {
        // Fast path for the common forms, `-12` and `12.50`; everything else takes the full parse.
        let n = c.count
        var i = 0
        if n > 0 && c[0] == UInt8(ascii: "-") { i = 1 }
        let digitsStart = i
        while i < n && c[i] &- 0x30 <= 9 { i &+= 1 }
        let digits = i &- digitsStart
        if digits > 0 && (digits == 1 || c[digitsStart] != UInt8(ascii: "0")) {
            if i == n { return NumberShape(kind: .integer, detachedSign: nil, number: 0..<n, point: n, unit: nil) }
            var point = i
            var kind = CellKind.integer
            if c[i] == UInt8(ascii: "."), i &+ 1 < n, c[i &+ 1] &- 0x30 <= 9 {
                point = i
                i &+= 1
                while i < n && c[i] &- 0x30 <= 9 { i &+= 1 }
                if i == n { return NumberShape(kind: .decimal, detachedSign: nil, number: 0..<n, point: point, unit: nil) }
                kind = .decimal
            }
            if c[i] == UInt8(ascii: "%") && i &+ 1 == n {  // 12.5%: the % stays in the cell (C3)
                return NumberShape(kind: .percent, detachedSign: nil, number: 0..<i, point: kind == .integer ? i : point, unit: nil)
            }
        } else if digits > 1 {
            return nil  // 007, 02134: an identifier
        }
        return parseFully(c)
    }

    /// The length of a whole number of one to eight digits without a leading zero (`7`, `1024`,
    /// `20240301`), the commonest number cell: `parse` would give it `.integer`, its bytes as the
    /// number and its point at the end; nil for any other cell. One load and two word tests.
    @inlinable @inline(__always)
    package static func shortWholeNumber(_ c: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = c.count
        guard n >= 1 && n <= 8, let base = c.baseAddress, n == 1 || base[0] != UInt8(ascii: "0"),
              TextBytes.allDigits(TextBytes.word(UnsafeRawPointer(base), count: n)) else { return nil }
        return n
    }

    /// The offset of the point of a decimal of three to eight bytes, one `.` with digits after it
    /// and none or digits before it, no leading zero but a lone one (`1.5`, `373.55`, `0.25`,
    /// `.125`), the commonest
    /// decimal cell: `parse` would give it `.decimal`, its bytes as the number and its point there;
    /// nil for any other cell. Its bytes as one word, and word tests.
    @inlinable @inline(__always)
    package static func shortDecimal(_ c: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = c.count
        guard n >= 3 && n <= 8, let base = c.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        // The cell's bytes, in order, and '0' in the bytes after them. (`TextBytes.upTo8` loads the
        // same, but a call of it here was not inlined into the sizing loop: 4 M more instructions
        // on the 100k-row CSV.)
        var word: UInt64
        if n == 8 {
            word = raw.loadUnaligned(as: UInt64.self)
        } else {
            if n >= 4 {
                word = UInt64(raw.loadUnaligned(as: UInt32.self)) | UInt64(raw.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)) << UInt64(8 &* (n &- 4))
            } else {
                word = UInt64(raw.loadUnaligned(as: UInt16.self)) | UInt64(base[2]) << 16
            }
            word |= (SWAR.ones &* 0x30) << UInt64(8 &* n)
        }
        let points = SWAR.equalBytes(word, SWAR.ones &* 0x2E)
        guard points.nonzeroBitCount == 1 else { return nil }
        let point = points.trailingZeroBitCount >> 3
        // The point as a '0' ('.' ^ '0' = 0x1E): then every byte must be a digit.
        guard point <= n &- 2, point <= 1 || base[0] != UInt8(ascii: "0"),
              TextBytes.allDigits(word ^ (points >> 7) &* 0x1E) else { return nil }
        return point
    }

    /// The value of `count` (one to eight) decimal digits, ASCII, in order from `word`'s lowest
    /// byte (`TextBytes.upTo8`): three multiplications instead of a loop over the digits.
    @inlinable @inline(__always)
    package static func digitsValue(_ word: UInt64, count: Int) -> UInt64 {
        // The digits moved to the top, the bytes below them read as leading zeros.
        var v = (word << UInt64(8 &* (8 &- count))) & 0x0F0F_0F0F_0F0F_0F0F
        // Each pair of bytes: the first (the lower, the higher digit) times 10 plus the second,
        // in the pair's low byte (a byte only ever takes up to 9 + 10 × 9, no carry).
        v = (v &* (1 &+ 10 << 8)) >> 8 & 0x00FF_00FF_00FF_00FF
        // Each pair of those, 0…99: the first times 100 plus the second, in 16 bits.
        v = (v &* (1 &+ 100 << 16)) >> 16 & 0x0000_FFFF_0000_FFFF
        // The two halves, 0…9999: the first times 10,000 plus the second.
        return (v &* (1 &+ 10_000 << 32)) >> 32
    }

    /// The full grammar: signs, currency before or after, grouping, decimal comma, exponent, units.
    @inline(never)
    package static func parseFully(_ c: UnsafeBufferPointer<UInt8>) -> NumberShape? {
        let n = c.count
        var i = 0
        var sign: Int?
        if i < n && (c[i] == UInt8(ascii: "-") || c[i] == UInt8(ascii: "+")) { sign = i; i += 1 }
        var unit: Range<Int>?
        var unitBefore = false
        // A currency sign before the number: `$12`, `-$5`, `£ 3`.
        let currency = currencyLength(c, at: i)
        if currency > 0 {
            unit = i..<(i + currency)
            unitBefore = true
            i += currency
            if i < n && c[i] == 0x20 { i += 1 }
        }
        var detachedSign: Int?
        var numberStart = i
        if unitBefore {
            if let s = sign { detachedSign = s }
            if i < n && (c[i] == UInt8(ascii: "-") || c[i] == UInt8(ascii: "+")) && sign == nil { numberStart = i; i += 1 }
        } else if let s = sign {
            numberStart = s
        }
        // Integer part, with optional groups of three after commas.
        let intStart = i
        while i < n && c[i] &- 0x30 <= 9 { i += 1 }
        let intDigits = i - intStart
        if intDigits > 1 && c[intStart] == UInt8(ascii: "0") { return nil }  // 007, 02134: an identifier
        if i == n && intDigits > 0 && currency == 0 {  // the common case: a plain integer
            return NumberShape(kind: .integer, detachedSign: nil, number: numberStart..<n, point: n - numberStart, unit: nil)
        }
        var grouped = false
        func isDigit(_ k: Int) -> Bool { k < n && c[k] &- 0x30 <= 9 }
        if intDigits >= 1 && intDigits <= 3 && !(intDigits == 1 && c[intStart] == UInt8(ascii: "0")) {
            while i < n && c[i] == UInt8(ascii: ",") && isDigit(i + 1) && isDigit(i + 2) && isDigit(i + 3) && !isDigit(i + 4) {
                grouped = true
                i += 4
            }
        }
        // Fraction: `.5`, or a decimal comma `12,50` (not three digits, which would be a group).
        var point = i - numberStart
        var fracDigits = 0
        var kind: CellKind = .integer
        if i + 1 < n && (c[i] == UInt8(ascii: ".") || (c[i] == UInt8(ascii: ",") && !grouped)) && c[i + 1] &- 0x30 <= 9 {
            let separator = c[i]
            let start = i + 1
            var k = start
            while k < n && c[k] &- 0x30 <= 9 { k += 1 }
            if separator == UInt8(ascii: ".") || k - start != 3 {
                point = i - numberStart
                fracDigits = k - start
                i = k
                kind = .decimal
            }
        }
        if intDigits + fracDigits == 0 { return nil }
        // Exponent.
        if i + 1 < n && (c[i] == UInt8(ascii: "e") || c[i] == UInt8(ascii: "E")) {
            var k = i + 1
            if k < n && (c[k] == UInt8(ascii: "-") || c[k] == UInt8(ascii: "+")) { k += 1 }
            let start = k
            while k < n && c[k] &- 0x30 <= 9 { k += 1 }
            if k > start && (k == n || !isUnitByte(c[k])) {
                if kind == .integer { point = i - numberStart }
                i = k
                kind = .decimal
            }
        }
        let numberEnd = i
        if i == n {
            return NumberShape(kind: unit == nil ? kind : .quantity, detachedSign: detachedSign, number: numberStart..<numberEnd, point: point, unit: unit, unitBefore: unitBefore)
        }
        if unitBefore { return nil }  // `$12 kg`: not one of ours
        if c[i] == UInt8(ascii: "%") && i + 1 == n {
            return NumberShape(kind: .percent, detachedSign: nil, number: numberStart..<numberEnd, point: point, unit: nil)
        }
        // A unit after the number: one optional space (or NBSP), then a short word or a currency sign.
        if c[i] == 0x20 { i += 1 } else if i + 1 < n && c[i] == 0xC2 && c[i + 1] == 0xA0 { i += 2 }
        let unitStart = i
        let suffixCurrency = currencyLength(c, at: i)
        if suffixCurrency > 0 && i + suffixCurrency == n {
            return NumberShape(kind: .quantity, detachedSign: nil, number: numberStart..<numberEnd, point: point, unit: unitStart..<n)
        }
        // Cheap checks first (a date's `-03-01` ends here), then the list of unit words.
        guard n - unitStart <= 6, unitStart < n, c[unitStart] != UInt8(ascii: "/") else { return nil }
        for k in unitStart..<n where !isUnitByte(c[k]) && c[k] &- 0x30 > 9 { return nil }
        guard Units.isKnown(UnsafeBufferPointer(rebasing: c[unitStart..<n])) else { return nil }
        return NumberShape(kind: .quantity, detachedSign: nil, number: numberStart..<numberEnd, point: point, unit: unitStart..<n)
    }

    /// Letters, `/`, and any non-ASCII byte (µ, °, ², Å …) can be part of a unit word.
    static func isUnitByte(_ b: UInt8) -> Bool {
        (b | 0x20) &- UInt8(ascii: "a") < 26 || b == UInt8(ascii: "/") || b >= 0x80
    }

    /// Length in bytes of a currency sign at `i` ($ € £ ¥ ₹ ₩ ₽ ₺ ₪ ₫ ฿ ¢), or 0.
    static func currencyLength(_ c: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        guard i < c.count else { return 0 }
        switch c[i] {
        case UInt8(ascii: "$"): return 1
        case 0xC2:  // £ ¥ ¢
            if i + 1 < c.count && (c[i + 1] == 0xA3 || c[i + 1] == 0xA5 || c[i + 1] == 0xA2) { return 2 }
        case 0xE2:  // U+20A0–U+20BF: € ₹ ₩ ₽ ₺ ₪ ₫ …
            if i + 2 < c.count && c[i + 1] == 0x82 && c[i + 2] >= 0xA0 && c[i + 2] <= 0xBF { return 3 }
        case 0xE0:  // ฿ U+0E3F
            if i + 2 < c.count && c[i + 1] == 0xB8 && c[i + 2] == 0xBF { return 3 }
        default: break
        }
        return 0
    }
}

/// Unit words recognised after a number (C1, C3). A closed list: a digit string with other letters
/// after it (`123abc`, `2021Q`, `4711ABCD`) is an identifier and stays text.
package enum Units {
    package static let words: Set<String> = [
        // time
        "ns", "µs", "us", "ms", "s", "sec", "secs", "min", "mins", "h", "hr", "hrs", "hour", "hours", "d", "day", "days",
        "wk", "wks", "week", "weeks", "mo", "yr", "yrs", "year", "years",
        // mass, length, volume, area
        "mg", "g", "kg", "t", "lb", "lbs", "oz", "mm", "cm", "m", "km", "in", "ft", "yd", "mi", "nm",
        "ml", "l", "cl", "dl", "gal", "m2", "m²", "km2", "km²", "ha", "sqft",
        // data, rates, energy, electricity, frequency, temperature, speed
        "b", "kb", "mb", "gb", "tb", "pb", "kib", "mib", "gib", "tib", "bit", "bits", "bytes",
        "kbps", "mbps", "gbps", "rps", "qps", "ops", "fps", "rpm",
        "w", "kw", "mw", "kwh", "mwh", "wh", "v", "mv", "kv", "a", "ma", "hz", "khz", "mhz", "ghz",
        "°c", "°f", "k", "kph", "mph", "km/h", "m/s",
        // money as codes, counts
        "usd", "eur", "gbp", "jpy", "chf", "cny", "inr", "cad", "aud", "sek", "nok", "dkk", "pln",
        "pcs", "pts",
    ]

    /// Whether the bytes are a unit word (case-insensitive for ASCII letters).
    static func isKnown(_ unit: UnsafeBufferPointer<UInt8>) -> Bool {
        guard unit.count >= 1 && unit.count <= 6 else { return false }
        var lowered = [UInt8]()
        lowered.reserveCapacity(unit.count)
        for b in unit { lowered.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b) }
        return words.contains(String(decoding: lowered, as: UTF8.self))
    }
}
