/// A text split into the pieces that fitting never splits: grapheme clusters (`Character`s), each
/// control scalar on its own (its escape is atomic), spaces, and (when wrapping) line breaks.
/// Units are scalar ranges of the original text, contiguous and in order (offsets first);
/// lines are sliced from them once, at the end.
struct TextUnits {
    package enum Kind: UInt8 {
        /// A cluster or a control scalar: part of a word.
        case text
        /// One U+0020.
        case space
        /// LF or CR LF, when wrapping.
        case lineBreak
    }

    package let text: String
    /// `count + 1` boundaries: unit `i` is `bounds[i]..<bounds[i + 1]` in `text.unicodeScalars`.
    package private(set) var bounds: [String.Index] = []
    package private(set) var kinds: [Kind] = []

    package var count: Int { kinds.count }

    /// - Parameters:
    ///   - text: Raw text.
    ///   - wrapping: Whether LF and CR LF are line breaks (else they are controls, shown escaped).
    /// - Complexity: O(n), one pass over the `Character`s.
    package init(_ text: String, wrapping: Bool) {
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
    @inlinable @inline(__always)
    package func add(_ index: Int, to state: inout WidthAccumulator) {
        Sanitize.forEachShownScalar(text.unicodeScalars[bounds[index]..<bounds[index + 1]]) { state.add($0.value) }
    }

    /// Whether unit `index` is a `/` (a path separator, for the middle cut).
    package func isSeparator(_ index: Int) -> Bool {
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
    package func line(_ head: Range<Int>, ellipsis: Bool = false, tail: Range<Int> = 0..<0, width: Int) -> TextLine {
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
