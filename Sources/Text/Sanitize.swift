/// Visible escapes for control characters (O5): no cell can move the cursor, change colours
/// or set the window title, because no control scalar reaches the output as itself.
///
/// The escapes: TAB → `\t`, CR → `\r`, LF → `↵` (U+21B5), every other C0 control (U+0000–U+001F),
/// DEL (U+007F) and every C1 control (U+0080–U+009F) → `\xHH`, two lowercase hex digits of the
/// code point (ESC → `\x1b`, U+009B → `\x9b`). The bidirectional embeddings, overrides and
/// isolates (U+202A–U+202E, U+2066–U+2069), which would reorder what follows them on screen (the
/// "Trojan Source" trick), and U+FEFF (a byte-order mark inside the text, invisible) →
/// `\uHHHH` (U+202E → `\u202e`).
///
/// Text that starts with a mark that would join the character before it (a spacing mark, or a
/// virama, after any zero-width scalars) is shown on U+25CC ◌, as a mark without its base is
/// written: printed bare after the padding it would join that space and change the line's width
/// (W1). See `DisplayWidth.needsMarkBase`.
public enum Sanitize {
    /// The escape printed for LF on a one-line cell.
    @usableFromInline static let lineFeedSymbol: Unicode.Scalar = "\u{21B5}"
    /// The base shown under a mark that starts a line (`DisplayWidth.needsMarkBase`).
    static let markBase: Unicode.Scalar = "\u{25CC}"

    /// The text with `◌` before a mark that would join what precedes it, at its start and, when
    /// `lines`, after every line break (each line of a wrapped cell starts a line on screen).
    static func withMarkBase(_ text: String, lines: Bool = false) -> String {
        var copy = text
        let offsets = text.utf8.withContiguousStorageIfAvailable { markBaseOffsets($0, lines: lines) }
            ?? copy.withUTF8 { markBaseOffsets($0, lines: lines) }
        guard !offsets.isEmpty else { return text }
        let bytes = Array(text.utf8)
        var out = ""
        var previous = 0
        for offset in offsets {
            out += String(decoding: bytes[previous..<offset], as: UTF8.self)
            out.unicodeScalars.append(markBase)
            previous = offset
        }
        out += String(decoding: bytes[previous...], as: UTF8.self)
        return out
    }

    /// Byte offsets of the lines of `utf8` (only the first unless `lines`) that need `◌`.
    private static func markBaseOffsets(_ utf8: UnsafeBufferPointer<UInt8>, lines: Bool) -> [Int] {
        var offsets: [Int] = []
        var start = 0
        while true {
            let rest = UnsafeBufferPointer(rebasing: utf8[start...])
            if DisplayWidth.needsMarkBase(rest) { offsets.append(start) }
            guard lines, let lineFeed = rest.firstIndex(of: 0x0A) else { return offsets }
            start += lineFeed + 1
        }
    }

    /// True when the scalar is shown as an escape: a C0 control, DEL, a C1 control, a
    /// bidirectional embedding, override or isolate control, or U+FEFF.
    @inlinable @inline(__always)
    package static func isControl(_ value: UInt32) -> Bool {
        value < 0xA0 ? value < 0x20 || value >= 0x7F : isHiddenControl(value)
    }

    /// U+202A–U+202E (LRE, RLE, PDF, LRO, RLO), U+2066–U+2069 (LRI, RLI, FSI, PDI) and U+FEFF.
    @inline(__always)
    @usableFromInline static func isHiddenControl(_ value: UInt32) -> Bool {
        value &- 0x202A <= 4 || value &- 0x2066 <= 3 || value == 0xFEFF
    }

    /// The visible form of a control scalar, or nil if the scalar prints as itself.
    /// - Parameter scalar: Any Unicode scalar.
    /// - Returns: `\t`, `\r`, `↵`, `\xHH` or `\uHHHH` for a control, nil for everything else.
    public static func visibleEscape(for scalar: Unicode.Scalar) -> String? {
        let value = scalar.value
        guard isControl(value) else { return nil }
        var out = ""
        forEachEscapeScalar(of: value) { out.unicodeScalars.append($0) }
        return out
    }

    /// Calls `body` with each scalar of the escape of a control code point, without allocating.
    /// - Parameters:
    ///   - value: A code point for which `isControl` is true.
    ///   - body: Receives `\`, `t` for TAB; `\`, `r` for CR; `↵` for LF; `\`, `u` and four hex
    ///     digits for a bidirectional control; `\`, `x`, hex, hex else.
    @inlinable @inline(__always)
    package static func forEachEscapeScalar(of value: UInt32, _ body: (Unicode.Scalar) -> Void) {
        switch value {
        case 0x2000...:
            body("\\")
            body("u")
            for shift in stride(from: 12, through: 0, by: -4) { body(hexDigit(value >> UInt32(shift))) }
        case 0x09:
            body("\\")
            body("t")
        case 0x0D:
            body("\\")
            body("r")
        case 0x0A:
            body(lineFeedSymbol)
        default:
            body("\\")
            body("x")
            body(hexDigit(value >> 4))
            body(hexDigit(value & 0xF))
        }
    }

    /// Columns the escape of a control code point takes: TAB 2, CR 2, LF 1, a bidirectional
    /// control 6, others 4.
    @inline(__always)
    static func escapeWidth(of value: UInt32) -> Int {
        switch value {
        case 0x09, 0x0D: return 2
        case 0x0A: return 1
        case 0x2000...: return 6
        default: return 4
        }
    }

    @inline(__always)
    @usableFromInline static func hexDigit(_ nibble: UInt32) -> Unicode.Scalar {
        let digit = UInt8(truncatingIfNeeded: nibble & 0xF)
        return Unicode.Scalar(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
    }

    /// The text with every control scalar replaced by its visible escape.
    /// - Parameter text: Any text.
    /// - Returns: `text` itself (no copy) when nothing needs escaping, else the escaped text.
    /// - Complexity: O(n); one scan of the UTF-8 when nothing needs escaping.
    public static func visible(_ text: String) -> String {
        var text = text
        let needed = text.withUTF8 { needsEscaping(utf8: $0) }
        guard needed else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        if text.withUTF8({ DisplayWidth.needsMarkBase($0) }) { out.unicodeScalars.append(markBase) }
        appendVisible(text.unicodeScalars[...], to: &out)
        return out
    }

    /// Appends scalars with every control replaced by its visible escape. A CR right before an LF
    /// is part of that one line break and is not shown: CR LF shows as a single `↵`.
    static func appendVisible(_ scalars: Substring.UnicodeScalarView, to out: inout String) {
        forEachShownScalar(scalars) { scalar in
            if isControl(scalar.value) {
                forEachEscapeScalar(of: scalar.value) { out.unicodeScalars.append($0) }
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }

    /// Calls `body` with each scalar that is shown, controls still as themselves: all but the CR
    /// of a CR LF, which is one line break, shown as one `↵`.
    @inlinable @inline(__always)
    package static func forEachShownScalar(_ scalars: Substring.UnicodeScalarView, _ body: (Unicode.Scalar) -> Void) {
        var i = scalars.startIndex
        while i < scalars.endIndex {
            let next = scalars.index(after: i)
            if !(scalars[i].value == 0x0D && next < scalars.endIndex && scalars[next].value == 0x0A) { body(scalars[i]) }
            i = next
        }
    }

    /// True when any byte of the UTF-8 needs escaping: a C0 control, DEL, a C1 control (encoded as
    /// 0xC2 followed by 0x80–0x9F), a bidirectional control (0xE2 0x80 0xAA–0xAE, 0xE2 0x81
    /// 0xA6–0xA9) or U+FEFF (0xEF 0xBB 0xBF).
    /// - Parameter utf8: UTF-8 bytes.
    /// - Returns: Whether `visible` would change the text (a ◌ before a leading mark included).
    /// - Complexity: O(n), eight bytes at a time while none is suspicious; never allocates.
    package static func needsEscaping(utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = utf8.count
        guard let base = utf8.baseAddress, count > 0 else { return false }
        if base[0] >= 0xCC && DisplayWidth.needsMarkBase(utf8) { return true }  // the first byte of U+0300 and up
        let raw = UnsafeRawPointer(base)
        // Eight bytes at a time, the last word overlapping the one before; a word with a byte
        // < 0x20, 0x7F, 0xC2, 0xE2 or 0xEF sends the cell to the exact byte test.
        var suspect = false
        if count < 8 {
            suspect = TextBytes.mayNeedEscaping(TextBytes.word(raw, count: count))
        } else {
            var index = 0
            while index &+ 8 < count && !suspect {
                suspect = TextBytes.mayNeedEscaping(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                index &+= 8
            }
            suspect = suspect || TextBytes.mayNeedEscaping(raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
        }
        guard suspect else { return false }
        for index in 0..<count where byteNeedsEscaping(base, at: index, count: count) { return true }
        return false
    }

    @inline(__always)
    private static func byteNeedsEscaping(_ base: UnsafePointer<UInt8>, at index: Int, count: Int) -> Bool {
        let byte = base[index]
        if byte < 0x20 || byte == 0x7F { return true }
        if byte == 0xC2, index + 1 < count {
            let next = base[index + 1]
            return next >= 0x80 && next <= 0x9F
        }
        if byte == 0xE2, index + 2 < count {
            let second = base[index + 1], third = base[index + 2]
            return (second == 0x80 && third &- 0xAA <= 4) || (second == 0x81 && third &- 0xA6 <= 3)
        }
        if byte == 0xEF, index + 2 < count { return base[index + 1] == 0xBB && base[index + 2] == 0xBF }
        return false
    }
}

/// Byte-level helpers of the Text stage: tests of UTF-8 words (on `SWAR`), runs of bytes loaded,
/// compared and copied a word at a time, and UTF-8 decoding in `DisplayWidth.swift`.
@usableFromInline package enum TextBytes {
    /// True when all eight bytes are printable ASCII (0x20–0x7E).
    @inlinable @inline(__always)
    package static func allPrintableASCII(_ word: UInt64) -> Bool {
        // Without high bits no addition below carries into the next byte: b + 1 has its high bit
        // set only for DEL (0x7F), and b + 0x60 has it set exactly when b ≥ 0x20.
        let noHighOrDel = (word | (word &+ SWAR.ones)) & SWAR.highBits == 0
        let allAtLeastSpace = (word &+ SWAR.ones &* 0x60) & SWAR.highBits == SWAR.highBits
        return noHighOrDel && allAtLeastSpace
    }

    /// True when all eight bytes are ASCII digits: each one's high nibble is 3, and stays 3 with 6
    /// added (no byte of 0x30–0x3F carries into the next).
    @inlinable @inline(__always)
    package static func allDigits(_ word: UInt64) -> Bool {
        let nibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0, threes: UInt64 = 0x3030_3030_3030_3030
        return word & nibbles == threes && (word &+ SWAR.ones &* 6) & nibbles == threes
    }

    /// True when some byte might need escaping: < 0x20, 0x7F, 0xC2 (a possible C1 lead byte),
    /// 0xE2 (a possible bidirectional control's) or 0xEF (a possible U+FEFF's).
    @inlinable @inline(__always)
    package static func mayNeedEscaping(_ word: UInt64) -> Bool {
        SWAR.lessThan(word, 0x20) | SWAR.matches(word, 0x7F &* SWAR.ones) | SWAR.matches(word, 0xC2 &* SWAR.ones)
            | SWAR.matches(word, 0xE2 &* SWAR.ones) | SWAR.matches(word, 0xEF &* SWAR.ones) != 0
    }

    /// Whether `test` holds for every word of `utf8` (not empty): eight bytes at a time, the last
    /// word overlapping the one before, text under eight bytes as one word (`word`, some bytes
    /// twice). For a test of each byte alone ("no byte is …").
    @inlinable @inline(__always)
    package static func everyWord(_ utf8: UnsafeBufferPointer<UInt8>, _ test: (UInt64) -> Bool) -> Bool {
        let count = utf8.count
        guard let base = utf8.baseAddress, count > 0 else { return false }
        let raw = UnsafeRawPointer(base)
        if count < 8 { return test(word(raw, count: count)) }
        var index = 0
        while index &+ 8 < count {
            guard test(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) else { return false }
            index &+= 8
        }
        return test(raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
    }

    /// A run of 1 to 7 bytes as one word, in two overlapping loads that stay inside the run: the
    /// word holds only bytes of the run (some twice), so a per-byte test of the word ("every byte
    /// is …", "some byte is …") is that test of the run. Short cells take one test, no loop.
    @inlinable @inline(__always)
    package static func word(_ base: UnsafeRawPointer, count: Int) -> UInt64 {
        if count >= 4 {
            let low = UInt64(base.loadUnaligned(as: UInt32.self))
            let high = UInt64(base.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            return low | high << 32
        }
        if count >= 2 {
            let low = UInt64(base.loadUnaligned(as: UInt16.self))
            let high = UInt64(base.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self))
            let half = low | high << 16
            return half | half << 32
        }
        return UInt64(base.load(as: UInt8.self)) &* SWAR.ones
    }

    /// Whether two runs of `count` ≥ 1 bytes are equal, a word at a time (short runs as `word`).
    @inlinable @inline(__always)
    package static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        if count < 8 { return word(a, count: count) == word(b, count: count) }
        var index = 0
        while index &+ 8 < count {
            if a.loadUnaligned(fromByteOffset: index, as: UInt64.self) != b.loadUnaligned(fromByteOffset: index, as: UInt64.self) { return false }
            index &+= 8
        }
        return a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    }

    /// Copies `count` ≥ 1 bytes, as `copy` does, and says whether all of them are printable ASCII
    /// (0x20–0x7E, as `allPrintableASCII`): one pass over the bytes for both, a word at a time
    /// (shorter runs as `word` loads them). The bytes are copied whatever the answer. The two
    /// regions must not overlap.
    @inlinable @inline(__always)
    package static func copyPrintableASCII(_ source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, count: Int) -> Bool {
        if count >= 8 {
            // A byte with its high bit set, or DEL (+1 sets it), in `high`; one below 0x20
            // (+0x60 leaves it clear) in `low`. A carry between bytes comes only from a byte
            // with its high bit set, which `high` has already caught.
            var high: UInt64 = 0, low: UInt64 = 0
            var index = 0
            // Whole words, then the last eight bytes (overlapping the word before).
            while index &+ 8 < count {
                let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                target.storeBytes(of: word, toByteOffset: index, as: UInt64.self)
                high |= word | (word &+ SWAR.ones)
                low |= ~(word &+ SWAR.ones &* 0x60)
                index &+= 8
            }
            let word = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            target.storeBytes(of: word, toByteOffset: count &- 8, as: UInt64.self)
            high |= word | (word &+ SWAR.ones)
            low |= ~(word &+ SWAR.ones &* 0x60)
            return (high | low) & SWAR.highBits == 0
        }
        let word: UInt64
        if count >= 4 {
            let first = source.loadUnaligned(as: UInt32.self), last = source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            target.storeBytes(of: first, as: UInt32.self)
            target.storeBytes(of: last, toByteOffset: count &- 4, as: UInt32.self)
            word = UInt64(first) | UInt64(last) << 32
        } else if count >= 2 {
            let first = source.loadUnaligned(as: UInt16.self), last = source.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)
            target.storeBytes(of: first, as: UInt16.self)
            target.storeBytes(of: last, toByteOffset: count &- 2, as: UInt16.self)
            let half = UInt64(first) | UInt64(last) << 16
            word = half | half << 32
        } else {
            let byte = source.load(as: UInt8.self)
            target.storeBytes(of: byte, as: UInt8.self)
            word = UInt64(byte) &* SWAR.ones
        }
        return allPrintableASCII(word)
    }

    /// Copies `count` bytes; runs of up to 16 bytes (most cells) in two overlapping loads and
    /// stores instead of a call to `memcpy`. The two regions must not overlap.
    @inlinable @inline(__always)
    package static func copy(_ source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, count: Int) {
        if count > 16 {
            target.copyMemory(from: source, byteCount: count)
        } else if count >= 8 {
            let low = source.loadUnaligned(as: UInt64.self)
            let high = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            target.storeBytes(of: low, as: UInt64.self)
            target.storeBytes(of: high, toByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 4 {
            let low = source.loadUnaligned(as: UInt32.self)
            let high = source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            target.storeBytes(of: low, as: UInt32.self)
            target.storeBytes(of: high, toByteOffset: count &- 4, as: UInt32.self)
        } else if count >= 2 {
            let low = source.loadUnaligned(as: UInt16.self)
            let high = source.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)
            target.storeBytes(of: low, as: UInt16.self)
            target.storeBytes(of: high, toByteOffset: count &- 2, as: UInt16.self)
        } else if count == 1 {
            target.storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
        }
    }
}
