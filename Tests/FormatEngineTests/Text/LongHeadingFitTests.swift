import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// A heading far longer than its lines can show is fitted from pieces of it (E5, C5): the lines
/// must be those of the whole heading, on many generated headings.
@Suite("Text: long headings fitted from pieces")
struct LongHeadingFitTests {
    /// Pieces words are made of: ASCII, accented, wide, a combining mark, an emoji, controls (a CR
    /// alone and a tab show within their word).
    static let pieces = ["a", "b", "é", "中", "e\u{301}", "😀", "\u{7}", "Z", "1", "\r", "\t"]

    static func heading(_ random: inout SplitMix64) -> String {
        var text = ""
        let words = 1 + random.below(random.below(2) == 0 ? 4 : 120)
        for k in 0..<words {
            if k > 0 { text += random.below(8) == 0 ? (random.below(2) == 0 ? "\n" : "\r\n") : String(repeating: " ", count: 1 + random.below(2)) }
            let long = random.below(5) == 0
            let count = long ? 200 + random.below(4000) : 1 + random.below(12)
            let piece = Self.pieces[random.below(Self.pieces.count)]
            for _ in 0..<count { text += random.below(6) == 0 ? Self.pieces[random.below(Self.pieces.count)] : piece }
        }
        return text
    }

    @Test("C5, E5: fitHeading of a long heading equals the whole heading's fit (500 generated headings, widths 1–40, 1–3 lines, both ellipses)")
    func sameLines() {
        var random = SplitMix64(seed: 0x4EAD_1E55)
        var bounded = 0
        for _ in 0..<500 {
            let text = Self.heading(&random)
            let measure = DisplayWidth(ambiguousIsWide: random.below(4) == 0)
            let width = 1 + random.below(40)
            let lines = 1 + random.below(3)
            let ellipsis: EllipsisMode = random.below(3) == 0 ? .middle : .end
            if text.utf8.count > 2 * DisplayWidth.readLimit(width: width, lines: lines) { bounded += 1 }
            let fitted = measure.fitHeading(text, width: width, maxLines: lines, ellipsis: ellipsis)
            let whole = measure.fitWhole(text, width: width, maxLines: lines, ellipsis: ellipsis, wholeWords: true)
            #expect(fitted == whole, "width \(width), \(lines) lines, \(ellipsis), \(text.utf8.count) bytes: \(text.prefix(80).debugDescription)")
        }
        #expect(bounded > 120, "only \(bounded) headings were long enough to take the bounded path")
    }
}
