/// Fitting a text far longer than what it shows (a 200 MB cell, a 100 MB heading) from pieces of it,
/// and wrapping one a piece at a time (P2, E5).
extension DisplayWidth {
    /// Bytes worth reading of a cell that `fit` cuts: its first `width × lines` columns and some
    /// to spare, so a 200 MB cell cut to 30 columns never becomes a 200 MB `String` (P2).
    package static func readLimit(width: Int, lines: Int) -> Int { (width &+ 2) &* lines &* 8 &+ 256 }

    /// `fit` of a cell given as UTF-8, reading only as much of it as the result can show when the
    /// cell is long: its start (and, to keep the end with `.middle`, its end), cut at scalar
    /// boundaries. The result is the same as `fit` of the whole text whenever the piece read is
    /// wider than the lines can hold; otherwise the whole text is used.
    /// - Complexity: O(min(n, readLimit)) beyond the measuring the caller did.
    package func fit(utf8 cell: UnsafeBufferPointer<UInt8>, width: Int, maxLines: Int, ellipsis: EllipsisMode, wholeWords: Bool = false) -> [TextLine] {
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
    package func forEachWrappedLine<Failure: Error>(utf8 cell: UnsafeBufferPointer<UInt8>, width: Int, pieceBytes: Int = 1 << 16,
                                   _ body: (TextLine) throws(Failure) -> Void) throws(Failure) {
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
