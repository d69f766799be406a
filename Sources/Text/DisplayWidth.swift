/// The one display-width function of tablefmt (W1; one way to do a thing): how many terminal columns text
/// takes when tablefmt prints it.
///
/// Per scalar: East Asian Wide and Fullwidth and emoji presentation 2; combining marks, ZWJ,
/// variation selectors and other zero-width characters 0; East Asian Ambiguous 1, or 2 with
/// `ambiguousIsWide`; everything else 1; a control scalar the width of its visible escape
/// (`Sanitize`): TAB 2, CR 2, LF 1, others 4.
///
/// Across scalars the rules follow `wcwidth.wcswidth` (Python wcwidth 0.9), which models what
/// terminals do with clusters:
/// 1. A flag (a pair of regional indicators) is 2; a lone regional indicator is 2.
/// 2. After ZWJ (U+200D) an Extended_Pictographic scalar or a regional indicator adds 0: an emoji
///    ZWJ sequence is as wide as its first emoji. (wcwidth skips whatever scalar follows a ZWJ;
///    tablefmt measures a non-emoji there, as terminals and grapheme segmentation do: `a‍b`
///    is 2 columns, not 1. The width corpus leaves such strings out.)
/// 3. VS16 (U+FE0F) after a narrow emoji-capable base (`#`, digits, `©`, `❤`, …, wcwidth's
///    VS16 table) makes that base's cluster 2; after anything else it adds 0. Zero-width marks
///    between base and VS16 do not matter; a spacing mark or a previous VS does.
/// 4. VS15 (U+FE0E) after a wide emoji that has a text form (wcwidth's VS15 table) makes it 1.
/// 5. An emoji modifier (U+1F3FB–U+1F3FF) after an emoji adds 0; elsewhere it is a wide scalar.
/// 6. A spacing combining mark (Mc) right after a base makes the base's cluster 2.
/// 7. After a virama the next consonant joins a conjunct, and the conjunct is 2 columns.
///
/// Controls are measured as the scalars of their escapes, and text that starts with a mark that
/// would join the character before it with the `◌` it is shown on (`needsMarkBase`), so
/// `width(of: s)` always equals `width(of: Sanitize.visible(s))`.
public struct DisplayWidth: Sendable {
    /// `--ambiguous-wide`: East Asian Ambiguous characters count 2 columns.
    public var ambiguousIsWide: Bool

    /// A width function.
    /// - Parameter ambiguousIsWide: Whether East Asian Ambiguous characters count 2 columns.
    public init(ambiguousIsWide: Bool = false) {
        self.ambiguousIsWide = ambiguousIsWide
    }

    /// The Unicode version of the generated tables.
    public static var unicodeVersion: String { WidthTables.unicodeVersion }

    /// Columns one scalar occupies on its own: 0, 1 or 2. Control characters return the width of
    /// their visible escape (see `Sanitize`): TAB 2, CR 2, LF 1, others 4.
    /// - Parameter scalar: Any scalar.
    /// - Returns: The scalar's width, without the cluster rules.
    public func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if Sanitize.isControl(value) { return Sanitize.escapeWidth(of: value) }
        return DisplayWidth.printableWidth(value, ambiguousIsWide: ambiguousIsWide)
    }

    /// Columns that UTF-8 bytes take when printed by tablefmt (controls as their escapes).
    ///
    /// Runs of printable ASCII are counted eight bytes at a time. Bytes that are not valid UTF-8
    /// count as U+FFFD, as `String` would decode them.
    /// - Parameter utf8: UTF-8 bytes, normally already valid.
    /// - Returns: The display width in columns.
    /// - Complexity: O(n), without allocating; O(log t) table search per non-ASCII scalar.
    package func width(utf8: UnsafeBufferPointer<UInt8>) -> Int {
        var escapes = false
        return width(utf8: utf8, escapes: &escapes)
    }

    /// The width, and whether any scalar is a control that prints as an escape (one scan for both).
    package func width(utf8: UnsafeBufferPointer<UInt8>, escapes: inout Bool) -> Int {
        Self.printableASCIIWidth(utf8) ?? nonASCIIWidth(utf8: utf8, escapes: &escapes)
    }

    /// `width(utf8:escapes:)` of text already found not to be printable ASCII (a caller that
    /// checked it, as sizing and drawing do for every cell, need not check it again).
    package func nonASCIIWidth(utf8: UnsafeBufferPointer<UInt8>, escapes: inout Bool) -> Int {
        var common = false
        return nonASCIIWidth(utf8: utf8, escapes: &escapes, common: &common)
    }

    /// `nonASCIIWidth(utf8:escapes:)`, and whether the text is common (`commonWidth` measured it).
    package func nonASCIIWidth(utf8: UnsafeBufferPointer<UInt8>, escapes: inout Bool, common: inout Bool) -> Int {
        if let width = commonWidth(utf8) {
            common = true
            return width
        }
        guard Self.startsWithMark(utf8) else { return measure(utf8, escapes: &escapes, onBase: false) }
        // Text that would merge with whatever precedes it is shown on ◌ (Sanitize), measured so.
        let (width, based) = markLedWidth(utf8, escapes: &escapes)
        if based { escapes = true }
        return width
    }

    /// The width of text made only of the common scalars `measure` takes without a table or a
    /// rule: printable ASCII, Latin letters (U+00C0–U+02FF, U+1E00–U+1EFF) one column each, kana,
    /// CJK ideographs and Hangul syllables two — the usual non-ASCII cell (`Novák`, `東京`,
    /// `서울`), found without `measure`'s per-scalar state, as the sum of those widths (no cluster
    /// rule joins two such scalars, none is escaped, none is a mark). Nil for text holding any
    /// other scalar, and with `ambiguousIsWide` (many Latin letters are East Asian ambiguous).
    /// What it measures is valid UTF-8 (each sequence whole, none overlong, no surrogate): the
    /// sizing pass in pieces takes such a cell as checked (`ColumnProfile.checksUTF8`).
    @inlinable @inline(__always)
    package func commonWidth(_ utf8: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !ambiguousIsWide, let base = utf8.baseAddress else { return nil }
        let count = utf8.count
        var index = 0
        var width = 0
        while index < count {
            let byte = base[index]
            if byte < 0x80 {
                // A run of printable ASCII, a column a byte, counted up to eight bytes at a time
                // (a word holding only the text's bytes: `TextBytes.upTo8`) to the first byte that
                // is not: a control or DEL (nil), or a longer scalar's first byte.
                let run = TextBytes.printableASCIIPrefix(TextBytes.upTo8(base, at: index, count: count))
                guard run > 0 else { return nil }
                width &+= run
                index &+= run
                continue
            }
            guard let (w, length) = Self.commonScalar(base, at: index, count: count) else { return nil }
            width &+= w
            index &+= length
        }
        return width
    }

    /// The common scalar (`commonWidth`) whose first byte, at `index` < `count`, is not ASCII:
    /// its width and length; nil for any other scalar. Reads only `base[index..<count]`.
    @inlinable @inline(__always)
    static func commonScalar(_ base: UnsafePointer<UInt8>, at index: Int, count: Int) -> (width: Int, length: Int)? {
        let byte = base[index]
        if byte >= 0xE0 {
            // Three bytes: a lead, two continuation bytes.
            guard index &+ 2 < count, (base[index &+ 1] ^ 0x80) | (base[index &+ 2] ^ 0x80) < 0x40 else { return nil }
            // E5–E9 and EB–EC lead only ideographs (U+5000–U+9FFF) and Hangul syllables
            // (U+B000–U+CFFF): two columns, whatever follows the lead.
            if (wideLeads >> UInt32(byte & 0x1F)) & 1 != 0 { return (2, 3) }
            guard let w = commonThreeByteWidth(byte, base[index &+ 1], base[index &+ 2]) else { return nil }
            return (w, 3)
        }
        // Two bytes: C3–CB lead Latin letters U+00C0–U+02FF, one column.
        guard byte &- 0xC3 <= 0xCB - 0xC3, index &+ 1 < count, base[index &+ 1] & 0xC0 == 0x80 else { return nil }
        return (1, 2)
    }

    /// The width of a three-byte scalar (lead `byte`, then two continuation bytes) that is common
    /// text (`commonWidth`) but not led by one of `wideLeads`: other ideographs, Hangul
    /// syllables and kana 2, Latin Extended Additional 1; nil for any other.
    @inlinable @inline(__always)
    static func commonThreeByteWidth(_ byte: UInt8, _ b1: UInt8, _ b2: UInt8) -> Int? {
        guard byte &- 0xE1 <= 0xED - 0xE1 else { return nil }
        let value = UInt32(byte & 0x0F) << 12 | UInt32(b1 & 0x3F) << 6 | UInt32(b2 & 0x3F)
        if value &- 0x4E00 <= 0x9FFF - 0x4E00 || value &- 0xAC00 <= 0xD7A3 - 0xAC00
            || value &- 0x3041 <= 0x3096 - 0x3041 || value &- 0x309B <= 0x30FF - 0x309B {
            return 2
        }
        return value &- 0x1E00 <= 0x1EFF - 0x1E00 ? 1 : nil
    }

    /// The width of the widest space-separated word of common text (`commonWidth`'s scalars, in
    /// one scan); nil for text holding any other scalar, and with `ambiguousIsWide`.
    package func commonLongestWord(_ utf8: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !ambiguousIsWide, let base = utf8.baseAddress else { return nil }
        let count = utf8.count
        var index = 0
        var current = 0
        var longest = 0
        while index < count {
            let byte = base[index]
            if byte == 0x20 {
                current = 0
                index &+= 1
                continue
            }
            if byte < 0x80 {
                guard byte &- 0x21 < 0x5E else { return nil }
                current &+= 1
                index &+= 1
            } else {
                guard let (w, length) = Self.commonScalar(base, at: index, count: count) else { return nil }
                current &+= w
                index &+= length
            }
            if current > longest { longest = current }
        }
        return longest
    }

    /// Bit `b & 0x1F` set for the lead bytes `b` of three-byte scalars that are all two columns
    /// wide: E5–E9 (CJK ideographs U+5000–U+9FFF) and EB–EC (Hangul syllables U+B000–U+CFFF).
    @inlinable static var wideLeads: UInt32 { 0b1_1011_1110_0000 }

    /// `nonASCIIWidth(utf8:escapes:)` without the escapes.
    package func nonASCIIWidth(utf8: UnsafeBufferPointer<UInt8>) -> Int {
        var escapes = false
        return nonASCIIWidth(utf8: utf8, escapes: &escapes)
    }

    /// The width of text that starts with a mark (`startsWithMark`), and whether it is shown on ◌:
    /// when it is wider on a base than the base and itself alone, it would join what precedes it.
    private func markLedWidth(_ utf8: UnsafeBufferPointer<UInt8>, escapes: inout Bool) -> (width: Int, based: Bool) {
        let alone = measure(utf8, escapes: &escapes, onBase: false)
        let onBase = measure(utf8, escapes: &escapes, onBase: true)
        return onBase == alone + 1 ? (alone, false) : (onBase, true)
    }

    /// Whether text starts with a scalar that is zero-width or a spacing mark on its own: only
    /// such text can join what precedes it (a cheap test before `needsMarkBase`).
    @inlinable @inline(__always)
    package static func startsWithMark(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard utf8.count >= 2, let base = utf8.baseAddress, base[0] >= 0xCC else { return false }
        let (value, _) = TextBytes.scalar(in: base, at: 0, count: utf8.count)
        return isMark(value)
    }

    /// Whether a scalar is zero-width or a spacing mark on its own (it may join what precedes it).
    @inline(__always)
    /// A control shown as an escape (`Sanitize.isHiddenControl`: U+202E, U+FEFF …) is not a mark,
    /// though its width on its own is zero: its escape stands alone.
    @usableFromInline static func isMark(_ value: UInt32) -> Bool {
        if value < 0x300 || value &- 0x4E00 <= 0x9FFF - 0x4E00 || value &- 0xAC00 <= 0xD7A3 - 0xAC00 { return false }
        if Sanitize.isHiddenControl(value) { return false }
        return WidthTables.contains(WidthTables.zeroWidth, value) || WidthTables.contains(WidthTables.spacingMark, value)
    }

    /// Whether text would change what precedes it on a line: a spacing mark or a virama at its
    /// start (after any zero-width scalars) joins the character before it, so the text is not as
    /// wide there as on its own. Such text is shown on U+25CC ◌ (`Sanitize`), as a mark without
    /// its base is written; a zero-width format character alone (ZWSP, LRM) is not.
    static func needsMarkBase(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard startsWithMark(utf8) else { return false }
        var escapes = false
        return DisplayWidth().markLedWidth(utf8, escapes: &escapes).based
    }

    /// The width of the text, after ◌ when `onBase` (◌ counted).
    private func measure(_ utf8: UnsafeBufferPointer<UInt8>, escapes: inout Bool, onBase: Bool) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        let count = utf8.count
        let raw = UnsafeRawPointer(base)
        var state = WidthAccumulator(ambiguousIsWide: ambiguousIsWide)
        if onBase { state.add(Sanitize.markBase.value) }
        var index = 0
        while index < count {
            let byte = base[index]
            if byte &- 0x20 < 0x5F {
                // A run of printable ASCII: find its end, eight bytes at a time first.
                var end = index + 1
                while end + 8 <= count,
                      TextBytes.allPrintableASCII(raw.loadUnaligned(fromByteOffset: end, as: UInt64.self)) {
                    end += 8
                }
                while end < count, base[end] &- 0x20 < 0x5F {
                    end += 1
                }
                state.addPrintableASCIIRun(first: byte, last: base[end - 1], count: end - index)
                index = end
                continue
            }
            // Latin letters (U+00C0–U+02FF, U+1E00–U+1EFF), kana, CJK ideographs and Hangul
            // syllables, the common non-ASCII text: one width each and no cluster rule of their
            // own, so no table and no rule is looked at.
            if byte &- 0xC3 <= 0xCB - 0xC3, !ambiguousIsWide, index &+ 1 < count, base[index &+ 1] & 0xC0 == 0x80 {
                state.addPlain(UInt32(byte & 0x1F) << 6 | UInt32(base[index &+ 1] & 0x3F), width: 1)
                index &+= 2
                continue
            }
            if byte &- 0xE1 <= 0xED - 0xE1, index &+ 2 < count, base[index &+ 1] & 0xC0 == 0x80, base[index &+ 2] & 0xC0 == 0x80 {
                let value = UInt32(byte & 0x0F) << 12 | UInt32(base[index &+ 1] & 0x3F) << 6 | UInt32(base[index &+ 2] & 0x3F)
                if value &- 0x4E00 <= 0x9FFF - 0x4E00 || value &- 0xAC00 <= 0xD7A3 - 0xAC00
                    || value &- 0x3041 <= 0x3096 - 0x3041 || value &- 0x309B <= 0x30FF - 0x309B {
                    state.addPlain(value, width: 2)
                    index &+= 3
                    continue
                }
                if value &- 0x1E00 <= 0x1EFF - 0x1E00, !ambiguousIsWide {
                    state.addPlain(value, width: 1)
                    index &+= 3
                    continue
                }
            }
            let (value, length) = TextBytes.scalar(in: base, at: index, count: count)
            if Sanitize.isControl(value) {
                escapes = true
                // CR LF is one line break, shown as one ↵ (Sanitize): the CR takes no column.
                if value == 0x0D && index + 1 < count && base[index + 1] == 0x0A {
                    index += 1
                    continue
                }
            }
            state.add(value)
            index += length
        }
        return state.total
    }

    /// Columns that text takes when printed by tablefmt (controls as their escapes).
    /// - Parameter text: A `String` or `Substring`.
    /// - Returns: The display width in columns.
    /// - Complexity: O(n); does not allocate for native strings.
    public func width(of text: some StringProtocol) -> Int {
        if let result = text.utf8.withContiguousStorageIfAvailable({ width(utf8: $0) }) {
            return result
        }
        var copy = String(text)  // one way to measure: the bytes
        return copy.withUTF8 { width(utf8: $0) }
    }

    /// The width of text made only of printable ASCII (one column a byte, nothing to escape), or
    /// nil when any byte is something else. Eight bytes at a time; the common cell's whole check.
    /// - Complexity: O(bytes), no allocation.
    @inlinable @inline(__always)
    package static func printableASCIIWidth(_ utf8: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = utf8.count
        guard let base = utf8.baseAddress, count > 0 else { return 0 }
        let raw = UnsafeRawPointer(base)
        if count < 8 { return TextBytes.allPrintableASCII(TextBytes.word(raw, count: count)) ? count : nil }
        // Whole words, then the last eight bytes (overlapping the word before).
        var index = 0
        while index &+ 8 < count {
            if !TextBytes.allPrintableASCII(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return nil }
            index &+= 8
        }
        return TextBytes.allPrintableASCII(raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)) ? count : nil
    }

    /// At least the width of UTF-8 text, from its bytes alone, or nil when the text may need
    /// escaping (a byte `TextBytes.mayNeedEscaping` marks, or a leading mark, `startsWithMark`),
    /// and always with `ambiguousIsWide`. Without escapes a scalar of one or two bytes takes at
    /// most one column, one of three or four at most two, and no cluster rule makes a cluster wider
    /// than its scalars' sum. One scan, eight bytes at a time.
    package func plainWidthBound(utf8: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = utf8.count
        guard !ambiguousIsWide, !Self.startsWithMark(utf8) else { return nil }
        guard let base = utf8.baseAddress, count > 0 else { return 0 }
        let raw = UnsafeRawPointer(base)
        // Per byte: -1 for a continuation byte (10xxxxxx), +1 for the lead of three or four bytes
        // (111xxxxx).
        func adjustment(_ word: UInt64) -> Int {
            let continuation = SWAR.equalBytes(word & (SWAR.ones &* 0xC0), SWAR.ones &* 0x80)
            let wideLead = SWAR.equalBytes(word & (SWAR.ones &* 0xE0), SWAR.ones &* 0xE0)
            return wideLead.nonzeroBitCount &- continuation.nonzeroBitCount
        }
        if count < 8 {
            if TextBytes.mayNeedEscaping(TextBytes.word(raw, count: count)) { return nil }
            var bound = count
            for byte in utf8 {
                if byte & 0xC0 == 0x80 { bound &-= 1 } else if byte & 0xE0 == 0xE0 { bound &+= 1 }
            }
            return bound
        }
        var bound = count
        var index = 0
        while index &+ 8 <= count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if TextBytes.mayNeedEscaping(word) { return nil }
            bound &+= adjustment(word)
            index &+= 8
        }
        guard index < count else { return bound }
        // The last bytes: tested in the last eight, counted with the ones already counted shifted
        // out (a zero byte counts nothing).
        let last = raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        if TextBytes.mayNeedEscaping(last) { return nil }
        return bound &+ adjustment(last >> UInt64(8 &* (8 &- (count &- index))))
    }

    /// The width of a printable (non-control) code point: 0, 1 or 2.
    @inline(__always)
    static func printableWidth(_ value: UInt32, ambiguousIsWide: Bool) -> Int {
        // Quick path: nothing below U+0300 is zero width or wide (the generator checks this).
        if value < 0x300 {
            if value < 0xA1 || !ambiguousIsWide { return 1 }
            return WidthTables.contains(WidthTables.ambiguous, value) ? 2 : 1
        }
        // CJK Unified Ideographs and Hangul syllables, the most common wide blocks.
        if value &- 0x4E00 <= 0x9FFF - 0x4E00 || value &- 0xAC00 <= 0xD7A3 - 0xAC00 { return 2 }
        if WidthTables.contains(WidthTables.zeroWidth, value) { return 0 }
        if WidthTables.contains(WidthTables.wide, value) { return 2 }
        if ambiguousIsWide, WidthTables.contains(WidthTables.ambiguous, value) { return 2 }
        return 1
    }
}

/// Runs of text bytes taken a word at a time, for `DisplayWidth.commonWidth`.
extension TextBytes {
    /// How many of a word's first bytes (its lowest, as loaded little-endian) are printable ASCII
    /// (0x20–0x7E), up to 8. A byte with its high bit set stops the count whatever the other tests
    /// say of it; the others take no carry (as in `allPrintableASCII`).
    @inline(__always)
    @usableFromInline static func printableASCIIPrefix(_ word: UInt64) -> Int {
        let low = word & SWAR.lowBits
        let printable = (low &+ SWAR.ones &* 0x60) & ~(low &+ SWAR.ones) & ~word & SWAR.highBits
        return (~printable & SWAR.highBits).trailingZeroBitCount >> 3
    }

    /// Up to eight bytes of `base[index..<count]` in a word's first lanes (loaded little-endian),
    /// the lanes past `count` zero (a byte no run of text takes in); nothing outside
    /// `base[0..<count]` is read.
    @inlinable @inline(__always)
    package static func upTo8(_ base: UnsafePointer<UInt8>, at index: Int, count: Int) -> UInt64 {
        let raw = UnsafeRawPointer(base)
        let left = count &- index
        if left >= 8 { return raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) }
        // The last eight bytes, those before `index` shifted out; a shorter text by two loads.
        if count >= 8 { return raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) >> UInt64(8 &* (8 &- left)) }
        let at = raw + index
        if left >= 4 {
            return UInt64(at.loadUnaligned(as: UInt32.self)) | UInt64(at.loadUnaligned(fromByteOffset: left &- 4, as: UInt32.self)) << UInt64(8 &* (left &- 4))
        }
        if left >= 2 {
            return UInt64(at.loadUnaligned(as: UInt16.self)) | UInt64(at.loadUnaligned(fromByteOffset: left &- 2, as: UInt16.self)) << UInt64(8 &* (left &- 2))
        }
        return left == 1 ? UInt64(at.load(as: UInt8.self)) : 0
    }
}
