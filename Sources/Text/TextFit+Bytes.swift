/// Fitting a cell from its UTF-8 bytes, without a `String` (issue 47): what `fit` does, for the
/// text most cells hold — scalars each a grapheme cluster of its own, one or two columns wide,
/// none escaped — as ranges of the cell's bytes that a renderer writes as they are.
///
/// Such a scalar is *plain*: printable ASCII, Latin letters, kana, CJK ideographs, Hangul
/// syllables, and any other scalar of width 1 or 2 that no cluster rule joins to a neighbour
/// (not a mark, joiner, selector, format character, regional indicator, emoji modifier, Hangul
/// jamo or prepended letter). In text made only of plain scalars every unit `fit` works with
/// (`TextUnits`) is one scalar and a line's width is the sum of its scalars' widths, so the
/// same steps on bytes give the same lines. A cell holding anything else (a control, a mark,
/// an emoji sequence, a flag, a line break) is left to `fit`.

/// One fitted line of a cell, as pieces of the cell's bytes: `head`, then `…` when `ellipsis`,
/// then `tail`.
package struct CellLine: Equatable, Sendable {
    /// Bytes of the cell shown first.
    package var head: Range<Int>
    /// Whether `DisplayWidth.ellipsis` follows `head`.
    package var ellipsis: Bool
    /// Bytes of the cell shown after the ellipsis (empty unless cut in the middle).
    package var tail: Range<Int>
    /// The line's width in columns.
    package var width: Int

    package init(head: Range<Int>, ellipsis: Bool = false, tail: Range<Int> = 0..<0, width: Int) {
        self.head = head
        self.ellipsis = ellipsis
        self.tail = tail
        self.width = width
    }

    /// Stops the program unless both pieces lie within `cell` (a line is only ever shown from
    /// the cell it was fitted from; this is where a line meets a buffer).
    @inline(__always)
    package func checkWithin(_ cell: UnsafeBufferPointer<UInt8>) {
        precondition(head.lowerBound >= 0 && head.upperBound <= cell.count && tail.lowerBound >= 0 && tail.upperBound <= cell.count,
                     "a fitted line lies outside its cell")
    }

    /// Whether the line as shown ends with `…` (the ellipsis, or the cell's own).
    package func endsWithEllipsis(in cell: UnsafeBufferPointer<UInt8>) -> Bool {
        checkWithin(cell)
        if !tail.isEmpty { return CellLine.endsWithEllipsis(cell, tail) }
        return ellipsis || CellLine.endsWithEllipsis(cell, head)
    }

    private static func endsWithEllipsis(_ cell: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        range.count >= 3 && cell[range.upperBound &- 3] == 0xE2 && cell[range.upperBound &- 2] == 0x80 && cell[range.upperBound &- 1] == 0xA6
    }

    /// The line as display text (tests compare it with `fit`'s).
    package func textLine(of cell: UnsafeBufferPointer<UInt8>) -> TextLine {
        checkWithin(cell)
        var text = String(decoding: UnsafeBufferPointer(rebasing: cell[head]), as: UTF8.self)
        if ellipsis { text.unicodeScalars.append(DisplayWidth.ellipsis) }
        text += String(decoding: UnsafeBufferPointer(rebasing: cell[tail]), as: UTF8.self)
        return TextLine(text: text, width: width)
    }
}

extension DisplayWidth {
    /// The width of a plain scalar (see above), or 0 for any other.
    @inline(__always)
    package func plainWidth(_ value: UInt32) -> Int {
        if value < 0x300 {
            if value < 0xA0 { return value &- 0x20 < 0x5F ? 1 : 0 }
            return ambiguousIsWide ? Self.printableWidth(value, ambiguousIsWide: true) : 1
        }
        // CJK ideographs, Hangul syllables, kana (U+3099 and U+309A are marks), Latin Extended
        // Additional: the common blocks, without a table.
        if value &- 0x4E00 <= 0x9FFF - 0x4E00 || value &- 0xAC00 <= 0xD7A3 - 0xAC00
            || value &- 0x3041 <= 0x3096 - 0x3041 || value &- 0x309B <= 0x30FF - 0x309B {
            return 2
        }
        if value &- 0x1E00 <= 0x1EFF - 0x1E00 && !ambiguousIsWide { return 1 }
        return otherPlainWidth(value)
    }

    /// `plainWidth` of a scalar outside the common blocks.
    private func otherPlainWidth(_ value: UInt32) -> Int {
        // Joined by a cluster rule of their own: regional indicators (flags), emoji modifiers,
        // Hangul jamo (syllables built of parts), the prepended letters that join what follows
        // them (the rest of Unicode's Prepend class is format characters, below), and Thai and
        // Lao AM, letters by category that join what precedes them as spacing marks.
        if value &- 0x1F1E6 < 26 || value &- 0x1F3FB <= 4 || value &- 0x1100 <= 0xFF
            || value &- 0xA960 <= 0x1F || value &- 0xD7B0 <= 0x4F || Sanitize.isHiddenControl(value) {
            return 0
        }
        switch value {
        case 0x0D4E, 0x0E33, 0x0EB3, 0x111C2, 0x111C3, 0x1193F, 0x11941, 0x11A3A, 0x11A84...0x11A89, 0x11D46, 0x113D1, 0x11F02:
            return 0
        default:
            break
        }
        guard let scalar = Unicode.Scalar(value) else { return 0 }
        let properties = scalar.properties
        if properties.isGraphemeExtend { return 0 }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format, .control, .surrogate, .lineSeparator, .paragraphSeparator:
            return 0
        default:
            break
        }
        if WidthTables.contains(WidthTables.spacingMark, value) { return 0 }
        return Self.printableWidth(value, ambiguousIsWide: ambiguousIsWide)
    }

    /// The scalar at `index` of a cell: its width when plain (else 0) and its length in bytes.
    @inline(__always)
    func plainScalar(_ cell: UnsafeBufferPointer<UInt8>, at index: Int) -> (width: Int, length: Int) {
        let byte = cell[index]
        if byte < 0x80 { return (byte &- 0x20 < 0x5F ? 1 : 0, 1) }
        guard let base = cell.baseAddress else { return (0, 1) }
        // The common scalars first, as `commonWidth` takes them (its widths hold unless
        // ambiguous characters are wide).
        if !ambiguousIsWide, let common = Self.commonScalar(base, at: index, count: cell.count) { return common }
        return otherPlainScalar(cell, at: index)
    }

    /// `plainScalar` of a scalar outside the common leads (out of line: the common ones are
    /// drawn in the loops that call `plainScalar`).
    @inline(never)
    private func otherPlainScalar(_ cell: UnsafeBufferPointer<UInt8>, at index: Int) -> (width: Int, length: Int) {
        guard let base = cell.baseAddress else { return (0, 1) }
        let (value, length) = TextBytes.scalar(in: base, at: index, count: cell.count)
        // An undecodable byte (shown as U+FFFD, which is not its bytes) is not plain.
        guard length > 1 else { return (0, 1) }
        return (plainWidth(value), length)
    }

    /// How many bytes from `index` (< the cell's count) are printable ASCII, up to eight.
    @inline(__always)
    private static func asciiRun(_ cell: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        guard let base = cell.baseAddress else { return 0 }
        return TextBytes.printableASCIIPrefix(TextBytes.upTo8(base, at: index, count: cell.count))
    }

    /// The start of the scalar that ends at `index` (> 0) in valid UTF-8.
    @inline(__always)
    private static func scalarStart(_ cell: UnsafeBufferPointer<UInt8>, before index: Int) -> Int {
        var k = index &- 1
        while k > 0 && cell[k] & 0xC0 == 0x80 { k &-= 1 }
        return k
    }

    /// `fit(utf8:width:maxLines:ellipsis:)` of a cell made only of plain scalars, on its bytes:
    /// the same lines, as pieces of the cell, put in `lines` (emptied first).
    /// - Returns: false, with `lines` empty, when the cell holds a scalar that is not plain (or
    ///   invalid UTF-8), or is so long that `fit` takes it from pieces: `fit` it then.
    /// - Complexity: O(n) in the cell's bytes, without allocating beyond `lines`' growth.
    /// - Parameter known: the cell's `plainWidth(utf8:)` (or `commonWidth`) when the caller has it.
    package func fitPlain(_ cell: UnsafeBufferPointer<UInt8>, width: Int, maxLines: Int, ellipsis mode: EllipsisMode,
                          total known: Int? = nil, into lines: inout [CellLine]) -> Bool {
        lines.removeAll(keepingCapacity: true)
        guard width > 0, !cell.isEmpty else {
            lines.append(CellLine(head: 0..<0, width: 0))
            return true
        }
        if maxLines < Int.max / 64, cell.count > 2 &* Self.readLimit(width: width, lines: max(1, maxLines)) { return false }
        guard let total = known ?? plainWidth(utf8: cell) else { return false }
        let count = cell.count
        if total <= width {
            lines.append(CellLine(head: 0..<count, width: total))
        } else if maxLines <= 1 {
            lines.append(cutPlain(cell, from: 0, to: count, width: width, ellipsis: mode, whole: total))
        } else {
            wrapPlain(cell, width: width, maxLines: maxLines, ellipsis: mode, into: &lines)
        }
        return true
    }

    /// `fitPlain` onto one line, without an array: the line, or nil when `fit` must take the cell.
    /// - Parameter total: the cell's `plainWidth(utf8:)` when the caller has it.
    package func fitPlainLine(_ cell: UnsafeBufferPointer<UInt8>, width: Int, ellipsis mode: EllipsisMode, total known: Int? = nil) -> CellLine? {
        guard width > 0, !cell.isEmpty else { return CellLine(head: 0..<0, width: 0) }
        guard cell.count <= 2 &* Self.readLimit(width: width, lines: 1), let total = known ?? plainWidth(utf8: cell) else { return nil }
        if total <= width { return CellLine(head: 0..<cell.count, width: total) }
        return cutPlain(cell, from: 0, to: cell.count, width: width, ellipsis: mode, whole: total)
    }

    /// The columns `…` takes: 1, or 2 where East Asian ambiguous characters are wide.
    private var ellipsisWidth: Int { ambiguousIsWide ? Self.ellipsisWidths.wide : Self.ellipsisWidths.narrow }
    private static let ellipsisWidths = (narrow: DisplayWidth(ambiguousIsWide: false).width(of: ellipsis),
                                         wide: DisplayWidth(ambiguousIsWide: true).width(of: ellipsis))

    /// The width of a cell made only of plain scalars (its display width, nothing in it escaped);
    /// nil for any other cell.
    @inline(__always)
    package func plainWidth(utf8 cell: UnsafeBufferPointer<UInt8>) -> Int? {
        // Common text (`commonWidth`) is plain, each scalar the width it has here: the light
        // scan first.
        if let common = commonWidth(cell) { return common }
        var total = 0
        var index = 0
        let count = cell.count
        while index < count {
            // Printable ASCII up to eight bytes at a time, a column each.
            let run = Self.asciiRun(cell, at: index)
            if run > 0 {
                total &+= run
                index &+= run
                continue
            }
            let (w, length) = plainScalar(cell, at: index)
            if w == 0 { return nil }
            total &+= w
            index &+= length
        }
        return total
    }

    /// The sum of the widths of the plain scalars `start..<end`.
    @inline(__always)
    private func plainWidth(_ cell: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var total = 0
        var index = start
        while index < end {
            let (w, length) = plainScalar(cell, at: index)
            total &+= w
            index &+= length
        }
        return total
    }

    /// The longest run of scalars from `start` (before `limit`) at most `width` wide: its end and
    /// its width (`fit`'s `fill`; a reserve for the ellipsis is taken off `width` by the caller).
    @inline(__always)
    private func fillPlain(_ cell: UnsafeBufferPointer<UInt8>, from start: Int, to limit: Int, width: Int) -> (end: Int, width: Int) {
        var total = 0
        var index = start
        while index < limit {
            let run = min(Self.asciiRun(cell, at: index), limit &- index, width &- total)
            if run > 0 {
                total &+= run
                index &+= run
                continue
            }
            let (w, length) = plainScalar(cell, at: index)
            if total &+ w > width { break }
            total &+= w
            index &+= length
        }
        return (index, total)
    }

    /// `fit`'s `cut` of the plain scalars `start..<end` to one line.
    /// - Parameter whole: the width of `start..<end` when the caller has it.
    private func cutPlain(_ cell: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, width: Int, ellipsis mode: EllipsisMode,
                          whole known: Int? = nil) -> CellLine {
        // Every read below is within `start..<end` (the SWAR slash scan's words too).
        precondition(0 <= start && start <= end && end <= cell.count, "a cut outside its cell")
        let whole = known ?? plainWidth(cell, start, end)
        if whole <= width { return CellLine(head: start..<end, tail: end..<end, width: whole) }
        guard ellipsisWidth <= width else {
            let (headEnd, headWidth) = fillPlain(cell, from: start, to: end, width: width)
            return CellLine(head: start..<headEnd, tail: end..<end, width: headWidth)
        }
        let budget = width &- ellipsisWidth
        if mode == .end {
            let (headEnd, headWidth) = fillPlain(cell, from: start, to: end, width: budget)
            return CellLine(head: start..<headEnd, ellipsis: true, tail: end..<end, width: headWidth &+ ellipsisWidth)
        }
        // Middle, in `cut`'s steps: half the room for the head (rounded up), the tail takes what
        // the head left, the head what the tail left; then whole path segments (C7).
        var (headEnd, headWidth) = fillPlain(cell, from: start, to: end, width: (budget &+ 1) / 2)
        var tailStart = end
        var tailWidth = 0
        while tailStart > headEnd {
            let previous = Self.scalarStart(cell, before: tailStart)
            let w = plainScalar(cell, at: previous).width
            if headWidth &+ tailWidth &+ w > budget { break }
            tailWidth &+= w
            tailStart = previous
        }
        (headEnd, headWidth) = fillPlain(cell, from: start, to: tailStart, width: budget &- tailWidth)
        if let (snappedHead, snappedTail) = snapPlain(cell, from: start, to: end, headEnd: headEnd, tailStart: tailStart) {
            headEnd = snappedHead
            tailStart = snappedTail
            headWidth = plainWidth(cell, start, headEnd)
        }
        while true {
            let lineWidth = headWidth &+ ellipsisWidth &+ plainWidth(cell, tailStart, end)
            if lineWidth <= width || (tailStart == end && headEnd == start) {
                return CellLine(head: start..<headEnd, ellipsis: true, tail: tailStart..<end, width: lineWidth)
            }
            if tailStart < end {
                tailStart &+= plainScalar(cell, at: tailStart).length
            } else {
                (headEnd, headWidth) = fillPlain(cell, from: start, to: Self.scalarStart(cell, before: headEnd), width: budget)
            }
        }
    }

    /// `snapToSeparators` for the plain scalars `start..<end` cut to `start..<headEnd` and
    /// `tailStart..<end`: the new head end and tail start (byte offsets), or nil when they stay.
    private func snapPlain(_ cell: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, headEnd: Int, tailStart: Int) -> (Int, Int)? {
        // No slash, nothing to snap to (found eight bytes at a time, before counting scalars).
        guard let base = cell.baseAddress else { return nil }
        var k = start
        let slash = UInt64(UInt8(ascii: "/")) &* SWAR.ones
        while k &+ 8 <= end && SWAR.equalBytes(UnsafeRawPointer(base).loadUnaligned(fromByteOffset: k, as: UInt64.self), slash) == 0 { k &+= 8 }
        while k < end && cell[k] != UInt8(ascii: "/") { k &+= 1 }
        if k == end { return nil }
        // Units are scalars: count them, note where the slashes are (as units and as bytes).
        var slashes: [(unit: Int, byte: Int)] = []
        var units = 0
        var headUnits = 0
        var tailUnitStart = 0
        var index = start
        while index < end {
            if index == headEnd { headUnits = units }
            if index == tailStart { tailUnitStart = units }
            if cell[index] == UInt8(ascii: "/") {
                if slashes.count > 256 { return nil }
                slashes.append((units, index))
            }
            index &+= plainScalar(cell, at: index).length
            units &+= 1
        }
        if headEnd == end { headUnits = units }
        if tailStart == end { tailUnitStart = units }
        let (head, tail) = Self.snapToSeparators(count: units, head: headUnits, tail: units &- tailUnitStart,
                                                 slashUnits: slashes.map(\.unit))
        guard head != headUnits || tail != units &- tailUnitStart else { return nil }
        // A snapped head ends just after a slash and a snapped tail starts at one.
        guard let headSlash = slashes.first(where: { $0.unit &+ 1 == head }),
              let tailSlash = slashes.first(where: { $0.unit == units &- tail }) else { return nil }
        return (headSlash.byte &+ 1, tailSlash.byte)
    }

    /// `fit`'s `wrap` of a plain cell wider than `width` onto at most `maxLines` ≥ 2 lines: breaks
    /// at spaces (dropped there), a word wider than a line broken where it overflows, what does
    /// not fit on the last allowed line cut.
    private func wrapPlain(_ cell: UnsafeBufferPointer<UInt8>, width: Int, maxLines: Int, ellipsis mode: EllipsisMode,
                           into lines: inout [CellLine]) {
        let count = cell.count
        var lineStart = 0
        var lineEnd = 0
        var lineWidth = 0
        var stuckAt: Int?  // a scalar wider than `width` on an empty line: cut from this line on
        var index = 0

        /// The last allowed line, once it is known to start at `start` (not a space): what
        /// wrapping would put there and after, found without wrapping it. When the rest fits
        /// without the spaces at its end, it all goes on that line; when it does not, wrapping would
        /// make more lines (or meet a scalar wider than the line) and cut the rest from there.
        func lastLine(from start: Int) {
            let rest = plainWidth(cell, start, count)
            var end = count
            while end > start && cell[end &- 1] == 0x20 { end &-= 1 }
            if rest &- (count &- end) <= width {
                lines.append(CellLine(head: start..<end, width: rest &- (count &- end)))
            } else {
                lines.append(cutPlain(cell, from: start, to: count, width: width, ellipsis: mode, whole: rest))
            }
        }

        scan: while index < count, lines.count <= maxLines {
            // A word: optional spaces, then the scalars up to the next space.
            var wordStart = index
            while wordStart < count, cell[wordStart] == 0x20 { wordStart &+= 1 }
            var wordEnd = wordStart
            var wordWidth = 0
            while wordEnd < count {
                let byte = cell[wordEnd]
                if byte == 0x20 { break }
                if byte &- 0x21 < 0x5E {  // printable ASCII other than the space
                    wordWidth &+= 1
                    wordEnd &+= 1
                    continue
                }
                let (w, length) = plainScalar(cell, at: wordEnd)
                wordWidth &+= w
                wordEnd &+= length
            }
            if wordStart == wordEnd, lineEnd > lineStart {
                index = wordEnd  // spaces before the end are dropped
                continue scan
            }
            if lineEnd > lineStart {
                if lineWidth &+ (wordStart &- index) &+ wordWidth <= width {
                    lineWidth &+= (wordStart &- index) &+ wordWidth
                    lineEnd = wordEnd
                    index = wordEnd
                    continue scan
                }
                lines.append(CellLine(head: lineStart..<lineEnd, width: lineWidth))  // the spaces at the break dropped
                if lines.count == maxLines &- 1 { return lastLine(from: wordStart) }
                lineStart = wordStart
                lineEnd = wordStart
                lineWidth = 0
                index = wordStart
            }
            // On an empty line: the word scalar by scalar, broken where it overflows.
            while index < wordEnd, lines.count <= maxLines {
                let (w, length) = plainScalar(cell, at: index)
                if lineWidth &+ w <= width {
                    lineWidth &+= w
                    index &+= length
                    lineEnd = index
                } else if lineEnd > lineStart {
                    lines.append(CellLine(head: lineStart..<lineEnd, width: lineWidth))
                    if lines.count == maxLines &- 1 && cell[index] != 0x20 { return lastLine(from: index) }
                    lineStart = index
                    lineEnd = index
                    lineWidth = 0
                } else {
                    stuckAt = lineStart
                    break scan
                }
            }
        }
        if stuckAt == nil, lines.count <= maxLines, index >= count {
            lines.append(CellLine(head: lineStart..<lineEnd, width: lineWidth))
        }
        // What did not fit goes on the last allowed line, cut with the ellipsis.
        var remainderStart: Int?
        if lines.count > maxLines || (stuckAt != nil && lines.count >= maxLines) {
            remainderStart = lines[maxLines &- 1].head.lowerBound
            lines.removeSubrange((maxLines &- 1)...)
        } else if let stuckAt {
            remainderStart = stuckAt
        }
        if let remainderStart {
            lines.append(cutPlain(cell, from: remainderStart, to: count, width: width, ellipsis: mode))
        }
    }
}
