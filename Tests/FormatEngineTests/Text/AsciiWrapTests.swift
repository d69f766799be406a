import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// W8: a list report's printable-ASCII value is wrapped on its bytes; the lines must be those the
/// general wrapping makes.
@Suite("Text: printable ASCII wrapped on its bytes")
struct AsciiWrapTests {
    @Test("W8: the byte wrapping gives the general wrapping's lines (20,000 generated texts of words, space runs and long words, widths 1–30)")
    func sameLines() {
        var random = SplitMix64(seed: 0xA5C11)
        let alphabet = Array("abcXYZ019-_.,;:!?()[]{}<>'\"`~@#$%^&*+=/|\\")
        for round in 0..<20_000 {
            var text = ""
            for _ in 0..<(1 + random.below(12)) {
                text += String(repeating: " ", count: random.below(4) == 0 ? random.below(4) : 1)
                text += String((0..<random.below(random.below(5) == 0 ? 60 : 9)).map { _ in alphabet[random.below(alphabet.count)] })
            }
            if text.isEmpty { continue }
            let measure = DisplayWidth(ambiguousIsWide: random.below(3) == 0)
            let width = 1 + random.below(30)
            let fast = measure.fitWhole(text, width: width, maxLines: Int.max, ellipsis: .end, wholeWords: false)
            let general = measure.fitWhole(text, width: width, maxLines: Int.max, ellipsis: .end, wholeWords: false, asciiWrap: false)
            #expect(fast == general, "round \(round), width \(width): \(text.debugDescription)")
        }
    }
}
