import Testing
@testable import FormatEngine

/// W1 (display width): the light scan for the common non-ASCII cell (`DisplayWidth.commonWidth`:
/// printable ASCII, Latin letters, kana, CJK ideographs, Hangul syllables) gives the width these
/// scalars have by the Unicode tables, and leaves every other text to the full measure. Checked on
/// generated texts against widths counted here scalar by scalar, with the text lying inside a larger
/// buffer whose next bytes are printable ASCII (a read past the text's end would count them).
@Suite("W1 common-text width")
struct CommonWidthTests {
    /// Scalars the light scan takes, with the columns each takes.
    static let common: [(String, Int)] = [
        ("a", 1), ("Z", 1), ("7", 1), (" ", 1), ("~", 1), (",", 1),
        ("é", 1), ("Ø", 1), ("ü", 1), ("ł", 1), ("ʼ", 1), ("ɐ", 1),  // U+00C0–U+02FF
        ("ễ", 1), ("Ḁ", 1), ("ỹ", 1),  // U+1E00–U+1EFF
        ("東", 2), ("京", 2), ("鿿", 2), ("一", 2),  // CJK ideographs
        ("서", 2), ("가", 2), ("힣", 2),  // Hangul syllables
        ("ぁ", 2), ("サ", 2), ("ヿ", 2), ("゛", 2),  // kana
    ]
    /// Scalars it leaves to the full measure (a mark, a joiner, a control, an emoji, a Latin-1
    /// symbol, Greek, a jamo, an ideographic space), each with the columns it adds after a base
    /// letter in the full measure.
    static let other: [(String, Int)] = [
        ("\u{301}", 0), ("\u{200D}", 0), ("©", 1), ("\u{A0}", 1), ("α", 1), ("Ж", 1),
        ("\u{3000}", 2), ("\u{1161}", 0), ("😀", 2), ("\u{3099}", 0), ("ᄀ", 2),
    ]

    /// `body` with the text's bytes lying in a larger buffer, followed by printable ASCII.
    func inBuffer<T>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        let bytes = Array(text.utf8) + Array("xxxxxxxxxxxxxxxx".utf8)
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<text.utf8.count])) }
    }

    /// Generated texts with their widths counted scalar by scalar: runs of ASCII long and short (so
    /// the eight-byte steps start at every offset) and common scalars, and with `others`, now and
    /// then an other scalar followed by `b` (a mark or a joiner always follows a letter, and the
    /// letter after it joins nothing). With `others` a text starts with `a`, a base to join.
    static func texts(seed: UInt64, count: Int, others: Bool) -> [(text: String, width: Int, hasOther: Bool)] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            var (text, width, hasOther) = others ? ("a", 1, false) : ("", 0, false)
            for _ in 0..<random.below(12) {
                let pick = random.below(6)
                if others && pick == 0 {
                    let (scalar, columns) = Self.other[random.below(Self.other.count)]
                    text += scalar + "b"
                    width += columns + 1
                    hasOther = true
                } else if pick <= 2 {
                    let run = String(repeating: "abcdefghij", count: 3).prefix(random.below(20))
                    text += run
                    width += run.count
                } else {
                    let (scalar, columns) = Self.common[random.below(Self.common.count)]
                    text += scalar
                    width += columns
                }
            }
            return (text, width, hasOther)
        }
    }

    @Test("W1: text of common scalars only is measured by the light scan, as the sum of their widths")
    func commonTexts() {
        let measure = DisplayWidth()
        for (text, expected, _) in Self.texts(seed: 0xC0FF_EE27, count: 4000, others: false) {
            #expect(inBuffer(text) { measure.commonWidth($0) } == expected, "\(text.debugDescription)")
            #expect(inBuffer(text) { measure.width(utf8: $0) } == expected, "\(text.debugDescription)")
        }
    }

    @Test("W1: text with any other scalar is left to the full measure, which counts it as the tables say")
    func otherTexts() {
        let measure = DisplayWidth()
        var withOther = 0
        for (text, expected, hasOther) in Self.texts(seed: 0x0DD_27, count: 3000, others: true) {
            let found = inBuffer(text) { measure.commonWidth($0) }
            #expect(found == (hasOther ? nil : expected), "\(text.debugDescription)")
            #expect(inBuffer(text) { measure.width(utf8: $0) } == expected, "\(text.debugDescription)")
            if hasOther { withOther += 1 }
        }
        #expect(withOther > 1000)  // the generator does make such texts
    }

    @Test("W1: with ambiguous characters wide, the light scan is not used (ø is then two columns)")
    func ambiguousWide() {
        let wide = DisplayWidth(ambiguousIsWide: true)
        #expect(inBuffer("Øster") { wide.commonWidth($0) } == nil)
        #expect(inBuffer("Øster") { wide.width(utf8: $0) } == 6)
        #expect(inBuffer("Øster") { DisplayWidth().width(utf8: $0) } == 5)
    }

    @Test("W1: bytes that are not well-formed UTF-8 are left to the full measure")
    func malformed() {
        let measure = DisplayWidth()
        for bytes: [UInt8] in [[0x61, 0xC3], [0xC3, 0x41], [0x80], [0xE4, 0xBA], [0xE4, 0x41, 0x80], [0xED, 0xA0, 0x80], [0xC3, 0xA9, 0xA9]] {
            let padded = bytes + Array("xxxxxxxx".utf8)
            let found = padded.withUnsafeBufferPointer { measure.commonWidth(UnsafeBufferPointer(rebasing: $0[0..<bytes.count])) }
            #expect(found == nil, "\(bytes)")
        }
    }
}
