/// The state of a left-to-right width measurement, one scalar at a time (the cluster rules of
/// `DisplayWidth`, in the same steps as `wcwidth.wcswidth`). Measuring a prefix and then the rest
/// gives the same total as measuring the whole, so `fit` can grow lines with exact widths.
package struct WidthAccumulator {
    package let ambiguousIsWide: Bool
    /// Columns of the clusters already closed.
    package private(set) var closed = 0
    /// Columns of the open cluster (its base and what joined it).
    private var cluster = 0
    /// The last scalar that had a width (the open cluster's base, or the second flag letter).
    private var lastScalar: UInt32 = 0
    /// The width of `lastScalar` on its own; 0 after a ZWJ.
    private var lastWidth = 0
    /// True while a VS16, VS15 or spacing mark may still change the open cluster.
    private var baseOpen = false
    /// True right after a virama (zero-width scalars other than ZWJ end this).
    private var afterVirama = false
    /// True right after a ZWJ that did not follow a virama.
    private var afterZWJ = false
    /// True when an odd number of regional indicators immediately precede.
    private var regionalOdd = false

    package init(ambiguousIsWide: Bool) {
        self.ambiguousIsWide = ambiguousIsWide
    }

    /// The width of everything added so far.
    package var total: Int { closed + cluster }

    @inline(__always)
    private static func isRegionalIndicator(_ value: UInt32) -> Bool {
        value &- 0x1F1E6 < 26
    }

    /// Adds a run of `count` ≥ 1 printable ASCII bytes, `first` to `last`.
    @inline(__always)
    mutating func addPrintableASCIIRun(first: UInt8, last: UInt8, count: Int) {
        regionalOdd = false
        afterZWJ = false
        addMeasured(UInt32(first), width: 1)
        if count > 1 {
            // Each further byte closes the cluster before it and opens one of width 1.
            closed += cluster + count - 2
            cluster = 1
            lastScalar = UInt32(last)
        }
    }

    /// Adds a scalar no cluster rule treats specially (not a regional indicator, emoji, mark,
    /// joiner, selector or control) of width 1 or 2: what `add` does with it, without the tests.
    @inline(__always)
    mutating func addPlain(_ value: UInt32, width: Int) {
        regionalOdd = false
        afterZWJ = false
        addMeasured(value, width: width)
    }

    /// Adds one code point (controls are added as the scalars of their escapes).
    /// - Parameter value: A code point; U+FFFD stands for undecodable bytes.
    package mutating func add(_ value: UInt32) {
        let regionalBefore = regionalOdd
        let isRegional = WidthAccumulator.isRegionalIndicator(value)
        regionalOdd = isRegional && !regionalBefore
        // Rule 2: an emoji right after a ZWJ joins the sequence and adds nothing.
        if afterZWJ {
            afterZWJ = false
            if isRegional || WidthTables.contains(WidthTables.extendedPictographic, value) { return }
        }
        if value &- 0x20 < 0x5F {
            addMeasured(value, width: 1)
            return
        }
        if Sanitize.isControl(value) {
            Sanitize.forEachEscapeScalar(of: value) { add($0.value) }
            return
        }
        switch value {
        case 0x200D:
            // A ZWJ after a virama (half forms) leaves the virama state for the consonant.
            if !afterVirama {
                afterZWJ = true
                lastWidth = 0
            }
            return
        case 0xFE0F where baseOpen:
            // Rule 3.
            if WidthTables.contains(WidthTables.emojiVS16, lastScalar) { cluster = 2 }
            baseOpen = false
            return
        case 0xFE0E where baseOpen:
            // Rule 4: the base was counted 2; its text presentation is 1.
            if lastWidth == 2, WidthTables.contains(WidthTables.textVS15, lastScalar) { closed -= 1 }
            baseOpen = false
            return
        case 0x1F1E6...0x1F1FF where regionalBefore:
            // Rule 1: the second letter of a flag.
            lastScalar = value
            return
        case 0x1F3FB...0x1F3FF:
            // Rule 5.
            if WidthAccumulator.isRegionalIndicator(lastScalar)
                || WidthTables.contains(WidthTables.extendedPictographic, lastScalar) {
                return
            }
        default:
            break
        }
        let width = DisplayWidth.printableWidth(value, ambiguousIsWide: ambiguousIsWide)
        if width > 0 {
            addMeasured(value, width: width)
        } else if WidthTables.contains(WidthTables.virama, value) {
            afterVirama = true
        } else if baseOpen, WidthTables.contains(WidthTables.spacingMark, value) {
            // Rule 6.
            cluster = 2
            baseOpen = false
            afterVirama = false
        } else {
            afterVirama = false
        }
    }

    /// Adds a scalar of width 1 or 2: it opens a new cluster, or joins a conjunct (rule 7).
    @inline(__always)
    private mutating func addMeasured(_ value: UInt32, width: Int) {
        if afterVirama {
            cluster = 2
        } else {
            closed += cluster
            cluster = width
        }
        lastScalar = value
        lastWidth = width
        baseOpen = true
        afterVirama = false
    }
}

extension TextBytes {
    /// The code point at `index` and how many bytes it takes; an invalid, overlong, surrogate or
    /// truncated sequence gives U+FFFD for one byte (never a trap, never a control).
    @inlinable @inline(__always)
    package static func scalar(in base: UnsafePointer<UInt8>, at index: Int, count: Int) -> (UInt32, Int) {
        let lead = UInt32(base[index])
        if lead < 0x80 { return (lead, 1) }
        @inline(__always) func continuation(_ offset: Int) -> UInt32? {
            guard index + offset < count else { return nil }
            let byte = base[index + offset]
            return byte & 0xC0 == 0x80 ? UInt32(byte & 0x3F) : nil
        }
        if lead >= 0xC2, lead < 0xE0, let b1 = continuation(1) {
            return ((lead & 0x1F) << 6 | b1, 2)
        }
        if lead >= 0xE0, lead < 0xF0, let b1 = continuation(1), let b2 = continuation(2) {
            let value = (lead & 0x0F) << 12 | b1 << 6 | b2
            // Not overlong, not a surrogate.
            if value >= 0x800, value & 0xF800 != 0xD800 { return (value, 3) }
        } else if lead >= 0xF0, lead < 0xF5, let b1 = continuation(1), let b2 = continuation(2),
                  let b3 = continuation(3) {
            let value = (lead & 0x07) << 18 | b1 << 12 | b2 << 6 | b3
            if value >= 0x10000, value <= 0x10FFFF { return (value, 4) }
        }
        return (0xFFFD, 1)
    }
}

extension WidthTables {
    /// Whether `value` falls in one of the `lo, hi` pairs of a generated table.
    /// - Complexity: O(log n) binary search.
    @inlinable @inline(__always)
    package static func contains(_ table: [UInt32], _ value: UInt32) -> Bool {
        table.withUnsafeBufferPointer { pairs in
            let count = pairs.count / 2
            guard count > 0, value >= pairs[0], value <= pairs[2 * count - 1] else { return false }
            var low = 0
            var high = count - 1
            while low <= high {
                let mid = (low + high) >> 1
                if value > pairs[2 * mid + 1] {
                    low = mid + 1
                } else if value < pairs[2 * mid] {
                    high = mid - 1
                } else {
                    return true
                }
            }
            return false
        }
    }
}
