/// Wrapping text to a width (C6, C7): lines broken between words where it can, never inside a
/// grapheme cluster.
extension DisplayWidth {
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
    func wrap(_ units: TextUnits, width: Int, maxLines: Int, ellipsis: EllipsisMode, wholeWords: Bool = false) -> [TextLine] {
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
