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
    static let ellipsis: Unicode.Scalar = "\u{2026}"

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
    func fitHeading(_ text: String, width: Int, maxLines: Int, ellipsis: EllipsisMode) -> [TextLine] {
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
    func fitWhole(_ text: String, width: Int, maxLines: Int, ellipsis: EllipsisMode, wholeWords: Bool, asciiWrap: Bool = true) -> [TextLine] {
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
        let budget = head + tail
        let slashes = (0..<count).filter(isSeparator)
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

    // MARK: - Wrapping

    /// Step 3 for printable ASCII on as many lines as it takes (a list report's value, W8), on its
    /// bytes: the lines `wrap` makes of it, where every unit is a byte one column wide. A word goes
    /// on the line when it fits after the spaces before it, else starts the next line (the spaces
    /// at the break dropped); a word wider than the width is broken where it overflows; the text's
    /// own leading spaces are kept, spaces before its end dropped. nil for any other text.
    func wrapPrintableASCII(_ text: String, width: Int) -> [TextLine]? {
        var text = text
        return text.withUTF8 { bytes -> [TextLine]? in
            guard bytes.allSatisfy({ $0 &- 0x20 < 0x5F }) else { return nil }
            var lines: [TextLine] = []
            var lineStart = 0, lineEnd = 0
            func finishLine(nextStart: Int) {
                lines.append(TextLine(text: String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd]), as: UTF8.self), width: lineEnd &- lineStart))
                lineStart = nextStart
                lineEnd = nextStart
            }
            var index = 0
            let count = bytes.count
            while index < count {
                var wordStart = index
                while wordStart < count, bytes[wordStart] == 0x20 { wordStart &+= 1 }
                var wordEnd = wordStart
                while wordEnd < count, bytes[wordEnd] != 0x20 { wordEnd &+= 1 }
                if lineEnd > lineStart {
                    if wordStart == wordEnd {
                        index = wordEnd  // spaces before the end are dropped
                        continue
                    }
                    if (lineEnd &- lineStart) &+ (wordEnd &- index) <= width {
                        lineEnd = wordEnd
                        index = wordEnd
                        continue
                    }
                    finishLine(nextStart: wordStart)
                    index = wordStart
                }
                // On an empty line: the word, broken where it overflows.
                while index < wordEnd {
                    if lineEnd &- lineStart < width {
                        index &+= 1
                        lineEnd = index
                    } else {
                        finishLine(nextStart: index)
                    }
                }
            }
            finishLine(nextStart: count)
            return lines
        }
    }

    /// Step 3: greedy wrapping of units into at most `maxLines` lines; with `wholeWords`, a word
    /// wider than the width is cut on a line of its own rather than broken.
    private func wrap(_ units: TextUnits, width: Int, maxLines: Int, ellipsis: EllipsisMode, wholeWords: Bool = false) -> [TextLine] {
        var lines: [(range: Range<Int>, width: Int, cut: Bool)] = []
        var lineStart = 0
        var lineEnd = 0
        var state = WidthAccumulator(ambiguousIsWide: ambiguousIsWide)
        var stuckAt: Int?  // a unit wider than `width` on an empty line: cut from this line on
        var index = 0

        func finishLine(nextStart: Int, cut: Bool = false) {
            lines.append((lineStart..<lineEnd, state.total, cut))
            lineStart = nextStart
            lineEnd = nextStart
            state = WidthAccumulator(ambiguousIsWide: ambiguousIsWide)
        }

        scan: while index < units.count, lines.count <= maxLines {
            switch units.kinds[index] {
            case .lineBreak:
                finishLine(nextStart: index + 1)
                index += 1
            case .space, .text:
                // A word: optional spaces, then the text units up to the next space or break.
                var wordStart = index
                while wordStart < units.count, units.kinds[wordStart] == .space { wordStart += 1 }
                var wordEnd = wordStart
                while wordEnd < units.count, units.kinds[wordEnd] == .text { wordEnd += 1 }
                if wordStart == wordEnd, lineEnd > lineStart {
                    index = wordEnd  // trailing spaces before a break or the end are dropped
                    continue scan
                }
                if lineEnd > lineStart {
                    var trial = state
                    for unit in index..<wordEnd { units.add(unit, to: &trial) }
                    if trial.total <= width {
                        state = trial
                        lineEnd = wordEnd
                        index = wordEnd
                        continue scan
                    }
                    finishLine(nextStart: wordStart)  // the spaces at the break are dropped
                    index = wordStart
                }
                if wholeWords {
                    var trial = state
                    for unit in index..<wordEnd { units.add(unit, to: &trial) }
                    if trial.total > width {
                        // Too wide for any line: cut on a line of its own, or with what follows
                        // it on the last line.
                        if lines.count + 1 >= maxLines {
                            stuckAt = lineStart
                            break scan
                        }
                        var next = wordEnd  // the spaces at the break are dropped
                        while next < units.count, units.kinds[next] == .space { next += 1 }
                        lineStart = wordStart
                        lineEnd = wordEnd
                        finishLine(nextStart: next, cut: true)
                        index = next
                        continue scan
                    }
                }
                // On an empty line: place the word unit by unit, breaking it where it overflows.
                while index < wordEnd, lines.count <= maxLines {
                    var trial = state
                    units.add(index, to: &trial)
                    if trial.total <= width {
                        state = trial
                        index += 1
                        lineEnd = index
                    } else if lineEnd > lineStart {
                        finishLine(nextStart: index)
                    } else {
                        stuckAt = lineStart
                        break scan
                    }
                }
            }
        }
        // (After a word cut on a line of its own at the end, there is no line left to finish.)
        if stuckAt == nil, lines.count <= maxLines, index >= units.count, !(lineStart == units.count && lines.last?.cut == true) {
            finishLine(nextStart: units.count)
        }

        // What did not fit goes on the last allowed line, cut with the ellipsis.
        var remainderStart: Int?
        if lines.count > maxLines {
            remainderStart = lines[maxLines - 1].range.lowerBound
            lines.removeSubrange((maxLines - 1)...)
        } else if let stuckAt {
            if lines.count >= maxLines {
                remainderStart = lines[maxLines - 1].range.lowerBound
                lines.removeSubrange((maxLines - 1)...)
            } else {
                remainderStart = stuckAt
            }
        }
        var result = lines.map { line in
            line.cut ? cut(units, from: line.range.lowerBound, to: line.range.upperBound, width: width, ellipsis: ellipsis)
                : units.line(line.range, width: line.width)
        }
        if let remainderStart {
            // Line breaks in the remainder are units like any other: cut shows them as "↵".
            result.append(cut(units, from: remainderStart, width: width, ellipsis: ellipsis))
        }
        return result
    }
}

/// A text split into the pieces that fitting never splits: grapheme clusters (`Character`s), each
/// control scalar on its own (its escape is atomic), spaces, and (when wrapping) line breaks.
/// Units are scalar ranges of the original text, contiguous and in order (offsets first);
/// lines are sliced from them once, at the end.
struct TextUnits {
    enum Kind: UInt8 {
        /// A cluster or a control scalar: part of a word.
        case text
        /// One U+0020.
        case space
        /// LF or CR LF, when wrapping.
        case lineBreak
    }

    let text: String
    /// `count + 1` boundaries: unit `i` is `bounds[i]..<bounds[i + 1]` in `text.unicodeScalars`.
    private(set) var bounds: [String.Index] = []
    private(set) var kinds: [Kind] = []

    var count: Int { kinds.count }

    /// - Parameters:
    ///   - text: Raw text.
    ///   - wrapping: Whether LF and CR LF are line breaks (else they are controls, shown escaped).
    /// - Complexity: O(n), one pass over the `Character`s.
    init(_ text: String, wrapping: Bool) {
        self.text = text
        let scalars = text.unicodeScalars
        var start = text.startIndex
        bounds.append(start)
        while start < text.endIndex {
            let end = text.index(after: start)
            let cluster = scalars[start..<end]
            if cluster.count == 1, let only = cluster.first, only == " " {
                append(.space, end: end)
            } else if !cluster.contains(where: { Sanitize.isControl($0.value) }) {
                append(.text, end: end)
            } else if wrapping, cluster.elementsEqual(["\n"]) || cluster.elementsEqual(["\r", "\n"]) {
                append(.lineBreak, end: end)
            } else if cluster.elementsEqual(["\r", "\n"]) {
                append(.text, end: end)  // one line break, shown as one ↵ (see Sanitize)
            } else {
                // Controls (never part of a larger cluster today, but do not count on it): each
                // control alone, the runs between them as text.
                var runStart = start
                var index = start
                while index < end {
                    let next = scalars.index(after: index)
                    if Sanitize.isControl(scalars[index].value) {
                        if runStart < index { append(.text, end: index) }
                        append(.text, end: next)
                        runStart = next
                    }
                    index = next
                }
                if runStart < end { append(.text, end: end) }
            }
            start = end
        }
    }

    private mutating func append(_ kind: Kind, end: String.Index) {
        // A mark that follows a control (which ends a grapheme cluster) stays with it: a line
        // never starts with a mark that would join what precedes it on screen (W1).
        if kind == .text, kinds.last == .text, let start = bounds.last,
           let first = text.unicodeScalars[start...].first, DisplayWidth.isMark(first.value) {
            bounds[bounds.count - 1] = end
            return
        }
        kinds.append(kind)
        bounds.append(end)
    }

    /// Measures unit `index` after what `state` has measured.
    @inline(__always)
    func add(_ index: Int, to state: inout WidthAccumulator) {
        Sanitize.forEachShownScalar(text.unicodeScalars[bounds[index]..<bounds[index + 1]]) { state.add($0.value) }
    }

    /// Whether unit `index` is a `/` (a path separator, for the middle cut).
    func isSeparator(_ index: Int) -> Bool {
        let scalars = text.unicodeScalars[bounds[index]..<bounds[index + 1]]
        return scalars.count == 1 && scalars.first == "/"
    }

    /// The width of unit `index` measured on its own.
    func standaloneWidth(_ index: Int, ambiguousIsWide: Bool) -> Int {
        var state = WidthAccumulator(ambiguousIsWide: ambiguousIsWide)
        add(index, to: &state)
        return state.total
    }

    /// The display text of units `head`, then `…` if `ellipsis`, then units `tail`.
    /// - Parameter width: The exact width of that text, measured by the caller.
    func line(_ head: Range<Int>, ellipsis: Bool = false, tail: Range<Int> = 0..<0, width: Int) -> TextLine {
        var out = ""
        appendDisplay(head, to: &out)
        if ellipsis { out.unicodeScalars.append(DisplayWidth.ellipsis) }
        appendDisplay(tail, to: &out)
        return TextLine(text: out, width: width)
    }

    private func appendDisplay(_ units: Range<Int>, to out: inout String) {
        guard !units.isEmpty else { return }
        Sanitize.appendVisible(text.unicodeScalars[bounds[units.lowerBound]..<bounds[units.upperBound]], to: &out)
    }
}

extension DisplayWidth {
    /// Bytes worth reading of a cell that `fit` cuts: its first `width × lines` columns and some
    /// to spare, so a 200 MB cell cut to 30 columns never becomes a 200 MB `String` (P2).
    static func readLimit(width: Int, lines: Int) -> Int { (width &+ 2) &* lines &* 8 &+ 256 }

    /// `fit` of a cell given as UTF-8, reading only as much of it as the result can show when the
    /// cell is long: its start (and, to keep the end with `.middle`, its end), cut at scalar
    /// boundaries. The result is the same as `fit` of the whole text whenever the piece read is
    /// wider than the lines can hold; otherwise the whole text is used.
    /// - Complexity: O(min(n, readLimit)) beyond the measuring the caller did.
    func fit(utf8 cell: UnsafeBufferPointer<UInt8>, width: Int, maxLines: Int, ellipsis: EllipsisMode, wholeWords: Bool = false) -> [TextLine] {
        let lines = max(1, maxLines)
        let limit = Self.readLimit(width: max(1, width), lines: lines)
        if wholeWords, maxLines < Int.max / 64, width > 0, cell.count > 2 &* limit {
            if let piece = headingPiece(cell, width: width, lines: lines, ellipsis: ellipsis) {
                return fitWhole(piece, width: width, maxLines: maxLines, ellipsis: ellipsis, wholeWords: true)
            }
        } else if maxLines < Int.max / 64, width > 0, cell.count > 2 &* limit {
            let head = UnsafeBufferPointer(rebasing: cell[0..<Self.scalarBoundary(cell, before: limit)])
            // Wide enough that the cut falls inside the piece: each line holds at most `width`
            // columns plus the space it breaks at.
            if self.width(utf8: head) >= lines &* (width &+ 1) &+ 2 {
                var text = String(decoding: head, as: UTF8.self)
                if ellipsis == .middle {
                    let tailStart = Self.scalarBoundary(cell, before: cell.count &- limit)
                    let tail = UnsafeBufferPointer(rebasing: cell[tailStart...])
                    if self.width(utf8: tail) >= width &+ 2 { text += String(decoding: tail, as: UTF8.self) } else { text = String(decoding: cell, as: UTF8.self) }
                }
                return fitWhole(text, width: width, maxLines: maxLines, ellipsis: ellipsis, wholeWords: wholeWords)
            }
        }
        return fitWhole(String(decoding: cell, as: UTF8.self), width: width, maxLines: maxLines, ellipsis: ellipsis, wholeWords: wholeWords)
    }

    /// What `fitHeading` of a long heading can show, as a shorter text with the same fit: its
    /// words in order until they are wide enough to fill the lines twice over (a line that breaks
    /// early leaves its next word at least the rest of the width), or all of them, each word wider
    /// than a line cut down to a piece of its start (and of its end, with `.middle`) that is itself
    /// too wide for a line; with `.middle`, when words were left, the text's last words after a
    /// gap, as `fit(utf8:)` keeps a cell's end.
    /// nil when the pieces are not wide enough to be sure (zero-width characters): fit it whole.
    private func headingPiece(_ cell: UnsafeBufferPointer<UInt8>, width: Int, lines: Int, ellipsis: EllipsisMode) -> String? {
        let wordLimit = Self.readLimit(width: width, lines: 1)
        let enough = 2 &* (lines &+ 1) &* (width &+ 1)
        /// Appends `cell[range]`, a word cut down when it is too long, and returns its width.
        func appendWord(_ range: Range<Int>, to out: inout [UInt8]) -> Int? {
            let word = UnsafeBufferPointer(rebasing: cell[range])
            guard word.count > 2 &* wordLimit else {
                out.append(contentsOf: word)
                return self.width(utf8: word)
            }
            let head = UnsafeBufferPointer(rebasing: word[0..<Self.scalarBoundary(word, before: wordLimit)])
            let headWidth = self.width(utf8: head)
            guard headWidth > width &+ 1 else { return nil }
            out.append(contentsOf: head)
            guard ellipsis == .middle else { return headWidth }
            let tail = UnsafeBufferPointer(rebasing: word[Self.scalarBoundary(word, before: word.count &- wordLimit)...])
            guard self.width(utf8: tail) > width &+ 1 else { return nil }
            out.append(contentsOf: tail)
            return headWidth
        }
        /// The words of `cell[range]` with the breaks between them, until they fill `enough`
        /// columns (a word takes at most a line's) when `stop`, else all of them.
        func words(_ range: Range<Int>, into out: inout [UInt8], stop: Bool) -> Bool? {
            var total = 0
            var k = range.lowerBound
            while k < range.upperBound {
                var end = k
                // Breaks where `fitHeading` breaks: a space or a line feed (a CR alone shows
                // within its word, as `↵`).
                while end < range.upperBound, cell[end] != 0x20, cell[end] != 0x0A { end &+= 1 }
                if end > k {
                    guard let w = appendWord(k..<end, to: &out) else { return nil }
                    total &+= min(w, width &+ 1)
                }
                if end < range.upperBound { out.append(cell[end]); total &+= 1 }
                k = end &+ 1
                if stop && total >= enough { return true }
            }
            return false
        }
        var out: [UInt8] = []
        guard let filled = words(0..<cell.count, into: &out, stop: true) else { return nil }
        if filled && ellipsis == .middle {
            // The end: whole words from a break well before it.
            var from = Self.scalarBoundary(cell, before: cell.count &- Self.readLimit(width: width, lines: lines))
            while from < cell.count, cell[from] != 0x20 { from &+= 1 }
            var tail: [UInt8] = []
            guard from < cell.count, words(from..<cell.count, into: &tail, stop: false) != nil,
                  tail.withUnsafeBufferPointer({ self.width(utf8: $0) }) > width &+ 1 else { return nil }
            out.append(0x20)
            out.append(contentsOf: tail)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Calls `body` with the lines of a whole text wrapped to `width` (list reports, W8) without
    /// holding more than a piece of it: a text over `pieceBytes` is wrapped a piece at a time,
    /// each piece ending after a line feed or, failing that, a space (or at a scalar boundary),
    /// so memory stays bounded whatever the cell's size. A line at the end of a piece may then
    /// end before the width; no character is lost or changed.
    func forEachWrappedLine(utf8 cell: UnsafeBufferPointer<UInt8>, width: Int, pieceBytes: Int = 1 << 16,
                                   _ body: (TextLine) throws(OutputError) -> Void) throws(OutputError) {
        guard cell.count > pieceBytes else {
            for line in fit(String(decoding: cell, as: UTF8.self), width: width, maxLines: Int.max, ellipsis: .end) { try body(line) }
            return
        }
        var start = 0
        while start < cell.count {
            var end = min(cell.count, start &+ pieceBytes)
            if end < cell.count {
                let window = cell[start..<end]  // a slice: indices are the cell's
                if let lineFeed = window.lastIndex(of: 0x0A) {
                    end = lineFeed &+ 1
                } else if let space = window.lastIndex(of: 0x20) {
                    end = space &+ 1
                } else {
                    // No break in reach: a scalar boundary, not between a CR and its LF.
                    end = Self.scalarBoundary(cell, before: end)
                    if end > start &+ 1 && cell[end &- 1] == 0x0D { end &-= 1 }
                }
            }
            let piece = UnsafeBufferPointer(rebasing: cell[start..<end])
            for line in fit(String(decoding: piece, as: UTF8.self), width: width, maxLines: Int.max, ellipsis: .end) { try body(line) }
            start = end
        }
    }

    /// The largest offset ≤ `offset` that starts a scalar (not a UTF-8 continuation byte).
    static func scalarBoundary(_ utf8: UnsafeBufferPointer<UInt8>, before offset: Int) -> Int {
        var k = max(0, min(offset, utf8.count))
        while k > 0 && k < utf8.count && utf8[k] & 0xC0 == 0x80 { k -= 1 }
        return k
    }
}
