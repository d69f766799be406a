import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

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
        withinBuffer(Array(text.utf8), after: Array("xxxxxxxxxxxxxxxx".utf8), body)
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
            let found = withinBuffer(bytes, after: Array("xxxxxxxx".utf8)) { measure.commonWidth($0) }
            #expect(found == nil, "\(bytes)")
        }
    }

    /// Pieces of byte strings for `arbitraryBytes`: printable ASCII, controls, the edges of every
    /// range the light scan takes (and the scalars just outside), and bytes that are not UTF-8.
    static let pieces: [[UInt8]] = {
        var pieces: [[UInt8]] = [[0x00], [0x09], [0x1F], [0x7F], [0x20], [0x7E], [0x41]]
        for scalar: UInt32 in [0xBF, 0xC0, 0xE9, 0x2FF, 0x300, 0x1DFF, 0x1E00, 0x1EFF, 0x1F00, 0x3040, 0x3041, 0x3096, 0x3097,
                               0x309A, 0x309B, 0x30FF, 0x3100, 0x4DFF, 0x4E00, 0x5000, 0x9FFF, 0xA000, 0xABFF, 0xAC00, 0xB000,
                               0xCFFF, 0xD000, 0xD7A3, 0xD7A4, 0xE000, 0xFEFF, 0x202E, 0x85, 0x1F600] {
            if let s = Unicode.Scalar(scalar) { pieces.append(Array(String(s).utf8)) }
        }
        // Not UTF-8: lone continuation and lead bytes, sequences cut short, a surrogate, overlong.
        pieces += [[0x80], [0xBF], [0xC3], [0xE5, 0x80], [0xE4], [0xED, 0xA0, 0x80], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xF5], [0xFF]]
        return pieces
    }()

    /// Random byte strings of up to ~60 bytes made of runs of printable ASCII and `common`
    /// scalars, and in half of them also `pieces` and a random byte now and then.
    static func arbitraryBytes(_ random: inout SplitMix64) -> [UInt8] {
        var bytes: [UInt8] = []
        let any = random.below(2) == 0
        for _ in 0..<random.below(10) {
            switch random.below(8) {
            case 0, 1, 2: bytes += Array("abcdefghijklmnopqrstu vwxyz".utf8.prefix(random.below(20)))
            case 3, 4 where !any: bytes += Array(Self.common[random.below(Self.common.count)].0.utf8)
            case 3: bytes.append(UInt8(truncatingIfNeeded: random.next()))
            default: bytes += any ? Self.pieces[random.below(Self.pieces.count)] : Array(Self.common[random.below(Self.common.count)].0.utf8)
            }
        }
        return bytes
    }

    /// What the light scan should give for `bytes`, found another way: the scalars of well-formed
    /// UTF-8 (decoded by the standard library and encoded again to the same bytes), each common
    /// scalar's columns summed; nil when the bytes are not UTF-8 or hold any other scalar.
    static func expectedCommonWidth(_ bytes: [UInt8]) -> Int? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard Array(text.utf8) == bytes else { return nil }
        var width = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x20...0x7E, 0xC0...0x2FF, 0x1E00...0x1EFF: width += 1
            case 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0x3041...0x3096, 0x309B...0x30FF: width += 2
            default: return nil
            }
        }
        return width
    }

    @Test("W1: on arbitrary bytes the light scan gives the common scalars' widths decoded another way, or nil; it reads no byte outside the text")
    func arbitraryBytes() {
        let measure = DisplayWidth()
        var random = SplitMix64(seed: 0xC0_3317)
        var measured = 0
        for _ in 0..<60_000 {
            let bytes = Self.arbitraryBytes(&random)
            let expected = Self.expectedCommonWidth(bytes)
            // The text inside a larger buffer: before and after it bytes that would change the
            // answer if read (printable ASCII adds columns, a control or a lead byte gives nil).
            let before = Array(repeating: UInt8(random.below(2) == 0 ? 0x41 : 0x01), count: random.below(9))
            let after = Array(repeating: UInt8([0x41, 0x01, 0x80, 0xE5][random.below(4)]), count: 9)
            let found = withinBuffer(bytes, before: before, after: after) { measure.commonWidth($0) }
            #expect(found == expected, "\(bytes)")
            if expected != nil && bytes.contains(where: { $0 >= 0x80 }) { measured += 1 }
        }
        #expect(measured > 20000)  // the generator does make common non-ASCII texts
    }
}
