/// How text is cut when it does not fit.
public enum EllipsisMode: Sendable {
    /// Keep the start: `A long descript…`.
    case end
    /// Keep the start and the end: `/usr/local/…/bin/tool`.
    case middle
}

/// One line of display text with its width in terminal columns.
public struct TextLine: Sendable, Equatable {
    /// Sanitized display text (controls escaped).
    public var text: String
    /// `DisplayWidth.width(of: text)`.
    public var width: Int

    /// A line; `width` must be `DisplayWidth.width(of: text)`.
    public init(text: String, width: Int) {
        self.text = text
        self.width = width
    }
}

extension DisplayWidth {
    /// The ellipsis that marks cut text.
    @inlinable package static var ellipsis: Unicode.Scalar { "\u{2026}" }

    /// The text fitted into `width` columns on at most `maxLines` lines (C6, C7, O5).
    ///
    /// 1. `width` ≤ 0 → one empty line; empty text → one empty line.
    /// 2. One line (`maxLines` ≤ 1): the sanitized text if it fits, else it is cut with `…`:
    ///    `.end` keeps the start, `.middle` keeps the start and the end. A grapheme cluster
    ///    (`Character`) or a visible escape is never split; a wide character that would straddle
    ///    the edge is dropped, so the line may be one column narrower than `width`.
    /// 3. Wrapping (`maxLines` ≥ 2): breaks at spaces (the spaces at a break are dropped), a word
    ///    longer than the width is broken at a cluster boundary, an LF (or CR LF) is a forced
    ///    break and is not shown. What does not fit on the last allowed line is cut as in step 2,
    ///    a line break within that cut text showing as `↵`.
    ///
    /// If `…` itself is wider than `width` (width 1 with `ambiguousIsWide`), text is cut without
    /// it. Every line is sanitized (`Sanitize`), carries its exact width, and is at most `width`.
    /// - Parameters:
    ///   - text: The cell's text, raw (controls not yet escaped).
    ///   - width: The columns available.
    ///   - maxLines: The most lines the result may have.
    ///   - ellipsis: Where text is cut.
    /// - Returns: 1...max(1, maxLines) lines.
    /// - Complexity: O(n) in the text's length; the slow path iterates `Character`s. A text far
    ///   longer than the lines can show (a 100 MB heading) is fitted from a piece of its start (and
    ///   end), as a long cell is: O(`readLimit`) beyond one look at its bytes.
    public func fit(_ text: String, width: Int, maxLines: Int, ellipsis: EllipsisMode) -> [TextLine] {
        fit(text, width: width, maxLines: maxLines, ellipsis: ellipsis, wholeWords: false)
    }

    /// A heading fitted into `width` columns on at most `maxLines` lines (C5): as `fit`, except
    /// that lines break between words only (at spaces, and at the heading's own line breaks). A
    /// word wider than `width` takes a line of its own, cut with `…`; what does not fit on the
    /// last line is cut there.
    package func fitHeading(_ text: String, width: Int, maxLines: Int, ellipsis: EllipsisMode) -> [TextLine] {
        fit(text, width: width, maxLines: maxLines, ellipsis: ellipsis, wholeWords: true)
    }

    /// `fit`, and `fitHeading` when `wholeWords`.
    private func fit(_ text: String, width: Int, maxLines: Int, ellipsis: EllipsisMode, wholeWords: Bool) -> [TextLine] {
        if width > 0, maxLines < Int.max / 64, text.utf8.count > 2 &* Self.readLimit(width: width, lines: max(1, maxLines)) {
            var text = text
            return text.withUTF8 { fit(utf8: $0, width: width, maxLines: maxLines, ellipsis: ellipsis, wholeWords: wholeWords) }
        }
        return fitWhole(text, width: width, maxLines: maxLines, ellipsis: ellipsis, wholeWords: wholeWords)
    }

    /// `fit` (or `fitHeading`) of the whole text, however long (internal: tests compare the
    /// bounded paths with it, and the printable-ASCII wrapping with the general one, `asciiWrap`).
    package func fitWhole(_ text: String, width: Int, maxLines: Int, ellipsis: EllipsisMode, wholeWords: Bool, asciiWrap: Bool = true) -> [TextLine] {
        // Step 1.
        guard width > 0, !text.isEmpty else { return [TextLine(text: "", width: 0)] }
        let text = Sanitize.withMarkBase(text, lines: maxLines > 1)
        // Step 2, quick: printable ASCII needs neither escapes nor clusters.
        if let line = fitPrintableASCII(text, width: width, ellipsis: ellipsis, mayCut: maxLines <= 1) {
            return [line]
        }
        if maxLines <= 1 || !text.utf8.contains(UInt8(ascii: "\n")) {
            let visible = Sanitize.visible(text)
            let visibleWidth = self.width(of: visible)
            if visibleWidth <= width { return [TextLine(text: visible, width: visibleWidth)] }
        }
        if asciiWrap, maxLines == Int.max, !wholeWords, let lines = wrapPrintableASCII(text, width: width) { return lines }
        let units = TextUnits(text, wrapping: maxLines > 1)
        if maxLines <= 1 {
            // Step 2.
            return [cut(units, from: 0, width: width, ellipsis: ellipsis)]
        }
        // Step 3.
        return wrap(units, width: width, maxLines: maxLines, ellipsis: ellipsis, wholeWords: wholeWords)
    }

    /// Width of the longest word (for minimum column widths): words are separated by spaces and
    /// line breaks, and measured as printed (controls escaped).
    /// - Parameter text: The cell's raw text.
    /// - Returns: The widest word's width; 0 for empty or blank text.
    /// - Complexity: O(n).
    public func longestWordWidth(_ text: String) -> Int {
        var text = Sanitize.withMarkBase(text, lines: true)
        let quick: Int? = text.withUTF8 { bytes in
            var longest = 0
            var current = 0
            for byte in bytes {
                if byte == UInt8(ascii: " ") {
                    current = 0
                } else if byte &- 0x20 < 0x5F {
                    current += 1
                    longest = max(longest, current)
                } else {
                    return nil
                }
            }
            return longest
        }
        if let quick { return quick }
        let units = TextUnits(text, wrapping: true)
        var longest = 0
        var index = 0
        while index < units.count {
            guard units.kinds[index] == .text else {
                index += 1
                continue
            }
            var state = WidthAccumulator(ambiguousIsWide: ambiguousIsWide)
            while index < units.count, units.kinds[index] == .text {
                units.add(index, to: &state)
                index += 1
            }
            longest = max(longest, state.total)
        }
        return longest
    }

    // MARK: - Cutting one line

    /// Step 2 for printable ASCII text, which needs no escapes and has one column per byte.
    /// - Returns: nil when the text is not all printable ASCII, or must be cut and `mayCut` is
    ///   false.
    private func fitPrintableASCII(_ text: String, width: Int, ellipsis mode: EllipsisMode,
                                   mayCut: Bool) -> TextLine? {
        var text = text
        let utf8 = text.utf8
        let count = utf8.count
        guard count <= width || mayCut else { return nil }
        let printable = text.withUTF8 { bytes in
            var index = 0
            if let base = bytes.baseAddress {
                let raw = UnsafeRawPointer(base)
                while index + 8 <= count,
                      TextBytes.allPrintableASCII(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                    index += 8
                }
            }
            while index < count, bytes[index] &- 0x20 < 0x5F { index += 1 }
            return index == count
        }
        guard printable else { return nil }
        if count <= width { return TextLine(text: text, width: count) }
        let ellipsisWidth = self.width(of: DisplayWidth.ellipsis)
        guard ellipsisWidth <= width else {
            return TextLine(text: String(decoding: utf8.prefix(width), as: UTF8.self), width: width)
        }
        let budget = width - ellipsisWidth
        var head = mode == .end ? budget : (budget + 1) / 2
        var tail = budget - head
        if mode == .middle {
            let bytes = Array(utf8)
            (head, tail) = Self.snapToSeparators(count: count, head: head, tail: tail) { bytes[$0] == UInt8(ascii: "/") }
        }
        var out = String(decoding: utf8.prefix(head), as: UTF8.self)
        out.unicodeScalars.append(DisplayWidth.ellipsis)
        out += String(decoding: utf8.suffix(tail), as: UTF8.self)
        return TextLine(text: out, width: head + ellipsisWidth + tail)
    }

    /// C7's middle cut of a path keeps whole segments: `/usr/local/…/bin/tool`. Among the heads that
    /// end just after a `/` and the tails that start at one, the pair that keeps the most within the
    /// room is taken (the more balanced one on a tie), if it keeps at least half of the room;
    /// otherwise the plain middle cut stands. The line may be a little narrower than the width.
    /// - Parameters:
    ///   - count: units in the text; `head` units are kept from the start, `tail` from the end.
    ///   - isSeparator: whether unit `i` is a `/`.
    /// - Returns: the head and tail lengths, in units.
    static func snapToSeparators(count: Int, head: Int, tail: Int, isSeparator: (Int) -> Bool) -> (Int, Int) {
        snapToSeparators(count: count, head: head, tail: tail, slashUnits: (0..<count).filter(isSeparator))
    }

    /// `snapToSeparators` given the units that are `/`, in order.
    static func snapToSeparators(count: Int, head: Int, tail: Int, slashUnits slashes: [Int]) -> (Int, Int) {
        let budget = head + tail
        guard !slashes.isEmpty, slashes.count <= 256 else { return (head, tail) }
        var best: (head: Int, tail: Int)?
        for slash in slashes where slash + 1 <= budget {
            let h = slash + 1
            for start in slashes where start >= h && count - start <= budget - h {
                let t = count - start
                guard let current = best else { best = (h, t); continue }
                let kept = h + t, bestKept = current.head + current.tail
                if kept > bestKept || kept == bestKept && abs(h - t) < abs(current.head - current.tail) { best = (h, t) }
            }
        }
        guard let best, (best.head + best.tail) * 2 >= budget, best.head > 0, best.tail > 0 else { return (head, tail) }
        return best
    }

    /// Units `start..<end` (`end` nil: to the last) on one line, whole if they fit, else cut with
    /// the ellipsis.
    func cut(_ units: TextUnits, from start: Int, to end: Int? = nil, width: Int, ellipsis mode: EllipsisMode) -> TextLine {
        let end = end ?? units.count
        var whole = WidthAccumulator(ambiguousIsWide: ambiguousIsWide)
        for index in start..<end {
            units.add(index, to: &whole)
        }
        if whole.total <= width { return units.line(start..<end, width: whole.total) }

        let ellipsisWidth = self.width(of: DisplayWidth.ellipsis)
        guard ellipsisWidth <= width else {
            let (headEnd, headState) = fill(units, from: start, to: end, width: width, reserve: false)
            return units.line(start..<headEnd, width: headState.total)
        }
        if mode == .end {
            // Grow the head while head + "…" fits; stop at the first unit that does not.
            let (headEnd, headState) = fill(units, from: start, to: end, width: width, reserve: true)
            var state = headState
            state.add(DisplayWidth.ellipsis.value)
            return units.line(start..<headEnd, ellipsis: true, tail: end..<end, width: state.total)
        }

        // Middle: half the room for the head (rounded up), the tail takes what the head left,
        // then the head takes what the tail left. Tail widths are summed per unit, so the
        // assembled line is measured once more and shortened if the sum was optimistic.
        let budget = width - ellipsisWidth
        var (headEnd, headState) = fill(units, from: start, to: end, width: (budget + 1) / 2, reserve: false)
        var tailStart = end
        var tailWidth = 0
        while tailStart > headEnd {
            let unitWidth = units.standaloneWidth(tailStart - 1, ambiguousIsWide: ambiguousIsWide)
            if headState.total + tailWidth + unitWidth > budget { break }
            tailWidth += unitWidth
            tailStart -= 1
        }
        (headEnd, headState) = fill(units, from: start, to: tailStart, width: budget - tailWidth, reserve: false)
        // Whole path segments where the text has them (C7): the same rule as for plain ASCII.
        let (snappedHead, snappedTail) = Self.snapToSeparators(count: end - start, head: headEnd - start, tail: end - tailStart) {
            units.isSeparator(start + $0)
        }
        if snappedHead != headEnd - start || snappedTail != end - tailStart {
            headEnd = start + snappedHead
            tailStart = end - snappedTail
            headState = WidthAccumulator(ambiguousIsWide: ambiguousIsWide)
            for index in start..<headEnd { units.add(index, to: &headState) }
        }
        while true {
            var state = headState
            state.add(DisplayWidth.ellipsis.value)
            for index in tailStart..<end {
                units.add(index, to: &state)
            }
            if state.total <= width || (tailStart == end && headEnd == start) {
                return units.line(start..<headEnd, ellipsis: true, tail: tailStart..<end, width: state.total)
            }
            if tailStart < end {
                tailStart += 1
            } else {
                (headEnd, headState) = fill(units, from: start, to: headEnd - 1, width: width, reserve: true)
            }
        }
    }

    /// The longest run of units from `start` (before `limit`) whose exact width, plus the
    /// ellipsis when `reserve`, is at most `width`.
    /// - Returns: The run's end and the measurement of the run (without the ellipsis).
    private func fill(_ units: TextUnits, from start: Int, to limit: Int, width: Int,
                      reserve: Bool) -> (end: Int, state: WidthAccumulator) {
        var state = WidthAccumulator(ambiguousIsWide: ambiguousIsWide)
        var index = start
        while index < limit {
            var trial = state
            units.add(index, to: &trial)
            var measured = trial
            if reserve { measured.add(DisplayWidth.ellipsis.value) }
            if measured.total > width { break }
            state = trial
            index += 1
        }
        return (index, state)
    }
}
