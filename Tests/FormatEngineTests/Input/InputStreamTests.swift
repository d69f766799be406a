import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// I5: what `InputStream` hands the readers — always valid UTF-8 — at every chunk size.
@Suite("InputStream")
struct InputStreamTests {
    typealias Kit = InputTestKit
    static let fffd = "\u{FFFD}"

    // MARK: - Byte-order marks

    @Test("I5: a UTF-8 BOM is removed, and offsets count from after it")
    func utf8BOM() throws {
        let input: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("id,name\n1,é\n".utf8)
        for chunk in Kit.everyChunkSize(input.count) {
            let got = Kit.decode(input, chunkSize: chunk)
            #expect(got.text == "id,name\n1,é\n", "chunk \(chunk)")
            #expect(got.encoding == .utf8)
            #expect(got.replacements == 0)
            #expect(Kit.decode(input, encoding: .utf8, chunkSize: chunk).text == "id,name\n1,é\n", "named UTF-8: BOM removed too")
            // The header's first name does not carry the BOM, and positions ignore it.
            let parsed = Kit.parse(input, chunkSize: chunk)
            #expect(parsed.records.first?.first == "id")
            let bad = Kit.parse([0xEF, 0xBB, 0xBF] + Array("a,\"b".utf8), chunkSize: chunk)
            #expect(bad.error?.position == SourcePosition(line: 1, column: 3), "chunk \(chunk)")
        }
    }

    @Test("I5: a BOM alone is an empty input; a BOM later on is data")
    func bomEdges() {
        for chunk in [1, 2, 3, 1 << 16] {
            #expect(Kit.decode([0xEF, 0xBB, 0xBF], chunkSize: chunk).bytes.isEmpty)
            #expect(Kit.decode([], chunkSize: chunk).bytes.isEmpty)
            #expect(Kit.decode([0xFF, 0xFE], chunkSize: chunk).bytes.isEmpty)
            let twice: [UInt8] = [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x61]
            #expect(Kit.decode(twice, chunkSize: chunk).text == "\u{FEFF}a")
        }
    }

    // MARK: - UTF-16

    /// A surrogate pair (😀 U+1F600, 𝄞 U+1D11E), 2- and 3-byte UTF-8 results, CRLF.
    static let utf16Text = "name,emoji\r\nJosé,😀\r\n日本,𝄞x\r\n"

    @Test("I5: UTF-16 with a BOM is transcoded at every chunk size", arguments: [true, false])
    func utf16WithBOM(littleEndian: Bool) {
        let input = Kit.utf16(Self.utf16Text, littleEndian: littleEndian)
        // Every chunk size splits the surrogate pairs (and the BOM) at every possible point.
        for chunk in Kit.everyChunkSize(input.count) {
            let got = Kit.decode(input, chunkSize: chunk)
            #expect(got.text == Self.utf16Text, "chunk \(chunk)")
            #expect(got.encoding == (littleEndian ? .utf16le : .utf16be))
            #expect(got.replacements == 0)
            let parsed = Kit.parse(input, chunkSize: chunk)
            #expect(parsed.records == [["name", "emoji"], ["José", "😀"], ["日本", "𝄞x"]], "chunk \(chunk)")
        }
    }

    @Test("I5: --encoding utf-16le/utf-16be without a BOM; with a matching BOM it is removed")
    func utf16Named() {
        let text = "a,b\n1,€\n"
        for chunk in [1, 2, 3, 5, 1 << 16] {
            #expect(Kit.decode(Kit.utf16(text, littleEndian: true, bom: false), encoding: .utf16le, chunkSize: chunk).text == text)
            #expect(Kit.decode(Kit.utf16(text, littleEndian: false, bom: false), encoding: .utf16be, chunkSize: chunk).text == text)
            #expect(Kit.decode(Kit.utf16(text, littleEndian: true), encoding: .utf16le, chunkSize: chunk).text == text)
        }
    }

    @Test("I5: lone surrogates and an odd final byte in UTF-16 become U+FFFD with a count and line")
    func utf16Invalid() {
        // "ab\n" + a lone high surrogate + "x\n" + a lone low surrogate + "\n" + an odd byte.
        var input: [UInt8] = [0xFF, 0xFE]
        input += Kit.utf16("ab\n", littleEndian: true, bom: false)
        input += [0x00, 0xD8]  // D800 with no low surrogate after it
        input += Kit.utf16("x\n", littleEndian: true, bom: false)
        input += [0x00, 0xDC]  // DC00 alone
        input += Kit.utf16("\n", littleEndian: true, bom: false)
        input += [0x41]  // half a code unit
        for chunk in Kit.everyChunkSize(input.count) {
            let got = Kit.decode(input, chunkSize: chunk)
            #expect(got.text == "ab\n\(Self.fffd)x\n\(Self.fffd)\n\(Self.fffd)", "chunk \(chunk)")
            #expect(got.replacements == 3, "chunk \(chunk)")
            #expect(got.firstReplacementLine == 2, "chunk \(chunk)")
        }
    }

    /// Seeded property: random code units (lone and paired surrogates among them) decode as Swift's
    /// own UTF-16 repair does, in both byte orders, however the chunks split them.
    @Test("I5: random UTF-16 decodes like String(decoding:as: UTF16.self)", arguments: [31, 32] as [UInt64])
    func randomUTF16(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let pool: [UInt16] = [0x41, 0x0A, 0x0D, 0xE9, 0x20AC, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xD83D, 0xDE00, 0xFFFD, 0xFEFF]
        for _ in 0..<300 {
            // Start with `A` so that the input is never shorter than 4 bytes (see shortTranscodedInput).
            let units = [UInt16(0x41)] + (0..<Int.random(in: 0...12, using: &rng)).map { _ in pool.randomElement(using: &rng) ?? 0x41 }
            let expected = String(decoding: units, as: UTF16.self)
            for littleEndian in [true, false] {
                var bytes: [UInt8] = littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]
                for unit in units {
                    let high = UInt8(unit >> 8), low = UInt8(unit & 0xFF)
                    bytes += littleEndian ? [low, high] : [high, low]
                }
                for chunk in [1, 3, Int.random(in: 2...9, using: &rng), 1 << 16] {
                    #expect(Kit.decode(bytes, chunkSize: chunk).text == expected, "units \(units) chunk \(chunk)")
                }
            }
        }
    }

    // MARK: - Latin-1 and cp1252

    @Test("I5: --encoding latin1 maps every byte to the code point of the same number")
    func latin1() {
        let input: [UInt8] = [0x6E, 0x2C, 0x76, 0x0A, 0x41, 0x2C, 0xE9, 0x80, 0xFF, 0xA0, 0x0A]
        for chunk in Kit.everyChunkSize(input.count) {
            let got = Kit.decode(input, encoding: .latin1, chunkSize: chunk)
            #expect(got.text == "n,v\nA,é\u{80}ÿ\u{A0}\n", "chunk \(chunk)")
            #expect(got.replacements == 0)
            #expect(got.encoding == .latin1)
        }
    }

    @Test("I5: --encoding cp1252: 0x80 is €, 0x8C Œ, 0x9F Ÿ; unassigned bytes stay C1 controls")
    func cp1252() {
        let input: [UInt8] = [0x80, 0x2C, 0x8C, 0xE6, 0x2C, 0x9F, 0x2C, 0x81, 0x2C, 0xE9, 0x93, 0x94, 0x0A]
        for chunk in Kit.everyChunkSize(input.count) {
            let got = Kit.decode(input, encoding: .cp1252, chunkSize: chunk)
            #expect(got.text == "€,Œæ,Ÿ,\u{81},é“”\n", "chunk \(chunk)")
            #expect(got.replacements == 0)
        }
        #expect(TextEncoding(name: "windows-1252") == .cp1252)
        #expect(TextEncoding(name: "ISO-8859-1") == .latin1)
        #expect(TextEncoding(name: "UTF8") == .utf8)
        #expect(TextEncoding(name: "big5") == nil)
    }

    struct ShortCase: Sendable, CustomTestStringConvertible {
        let bytes: [UInt8]
        let encoding: TextEncoding?
        let expected: String
        var testDescription: String { "\(bytes) as \(encoding?.rawValue ?? "auto") → \(expected.debugDescription)" }
    }

    /// Bug (reported to the lead): `InputStream.start()` reads until 4 bytes are in; when the whole
    /// input is shorter than that and is to be transcoded (`--encoding latin1|cp1252|utf-16le|utf-16be`,
    /// or a UTF-16 BOM plus an odd byte), its bytes are moved to the transcoding buffer but
    /// `refill()` then returns false without transcoding them: the input is silently lost
    /// (`printf 'a,b' | tablefmt --encoding latin1` prints nothing and exits 0). Inputs of 4 bytes
    /// or more are fine (the latin1, cp1252 and UTF-16 tests above).
    @Test("I5: an input shorter than 4 bytes in a transcoded encoding is not lost", arguments: [
        ShortCase(bytes: Array("a,b".utf8), encoding: .latin1, expected: "a,b"),
        ShortCase(bytes: [0xE9], encoding: .cp1252, expected: "é"),
        ShortCase(bytes: [0x61, 0x00], encoding: .utf16le, expected: "a"),
        ShortCase(bytes: [0xFF, 0xFE, 0x41], encoding: nil, expected: fffd),
    ])
    func shortTranscodedInput(_ c: ShortCase) {
        for chunk in [1, 1 << 16] {
            #expect(Kit.decode(c.bytes, encoding: c.encoding, chunkSize: chunk).text == c.expected, "chunk \(chunk)")
        }
    }

    // MARK: - Invalid UTF-8

    struct InvalidCase: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        /// U+FFFD per maximal invalid subpart (Unicode §3.9, as WHATWG and Swift's own decoder do).
        let replacements: Int
        var testDescription: String { name }
    }

    static let invalidCases: [InvalidCase] = [
        InvalidCase(name: "lone continuation byte", bytes: [0x80], replacements: 1),
        InvalidCase(name: "two continuation bytes", bytes: [0x80, 0xBF], replacements: 2),
        InvalidCase(name: "overlong 2-byte", bytes: [0xC0, 0x80], replacements: 2),
        InvalidCase(name: "overlong 3-byte", bytes: [0xE0, 0x80, 0x80], replacements: 3),
        InvalidCase(name: "encoded surrogate", bytes: [0xED, 0xA0, 0x80], replacements: 3),
        InvalidCase(name: "beyond U+10FFFF", bytes: [0xF4, 0x90, 0x80, 0x80], replacements: 4),
        InvalidCase(name: "F5 lead byte", bytes: [0xF5], replacements: 1),
        InvalidCase(name: "FF byte", bytes: [0xFF], replacements: 1),
        InvalidCase(name: "truncated 3-byte before ASCII", bytes: [0xE2, 0x82, 0x41], replacements: 1),
        InvalidCase(name: "truncated 4-byte before ASCII", bytes: [0xF0, 0x9F, 0x98, 0x78], replacements: 1),
        InvalidCase(name: "truncated 4-byte before a valid one", bytes: [0xF0, 0x9F, 0xF0, 0x9F, 0x98, 0x80], replacements: 1),
        InvalidCase(name: "cp1252 bytes from StarWars.csv", bytes: [0x3F, 0x8C, 0xE6, 0x2C, 0x44], replacements: 2),
        InvalidCase(name: "Latin-1 é before a comma", bytes: [0x4A, 0x6F, 0x73, 0xE9, 0x2C, 0x31], replacements: 1),
        InvalidCase(name: "valid sequences only", bytes: Array("é€😀\u{FFFD}".utf8), replacements: 0),
    ]

    @Test("I5: invalid UTF-8 becomes U+FFFD, split across every chunk boundary", arguments: invalidCases)
    func invalidUTF8(_ c: InvalidCase) {
        // Around the case: text before (on line 3) and after, so splits fall at every point of it.
        let input = Array("h1,h2\r\nx,y\r\nab".utf8) + c.bytes + Array("cd,e\n".utf8)
        let expected = String(decoding: input, as: UTF8.self)  // Swift's decoder as the oracle
        #expect(expected.unicodeScalars.filter { $0 == "\u{FFFD}" }.count - (c.replacements == 0 ? 1 : 0) == c.replacements)
        for chunk in Kit.everyChunkSize(input.count) {
            let got = Kit.decode(input, chunkSize: chunk)
            #expect(got.text == expected, "chunk \(chunk)")
            #expect(got.replacements == c.replacements, "chunk \(chunk)")
            #expect(got.firstReplacementLine == (c.replacements == 0 ? 0 : 3), "chunk \(chunk)")
        }
    }

    @Test("I5: a sequence truncated at the end of the input", arguments: [
        [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC3], [0xF0],
    ] as [[UInt8]])
    func truncatedAtEOF(_ tail: [UInt8]) {
        for prefix in ["", "a", "ab,c\n"] {
            let input = Array(prefix.utf8) + tail
            for chunk in Kit.everyChunkSize(input.count) {
                let got = Kit.decode(input, chunkSize: chunk)
                #expect(got.text == prefix + Self.fffd, "\(prefix.debugDescription) chunk \(chunk)")
                #expect(got.replacements == 1)
                #expect(got.firstReplacementLine == (prefix.hasSuffix("\n") ? 2 : 1))
            }
        }
    }

    @Test("I5: the first replacement's line counts LF, CRLF or CR line ends")
    func replacementLine() {
        let cases: [(String, Int)] = [("a\nb\n", 3), ("a\r\nb\r\n", 3), ("a\rb\r", 3), ("", 1), ("a,b", 1)]
        for (prefix, line) in cases {
            let input = Array(prefix.utf8) + [0xFF] + Array("\nz\u{FF}".utf8)
            for chunk in Kit.everyChunkSize(input.count) {
                let got = Kit.decode(input, chunkSize: chunk)
                #expect(got.replacements == 1)
                #expect(got.firstReplacementLine == line, "\(prefix.debugDescription) chunk \(chunk)")
            }
        }
        // Far into a large input, past many buffer refills.
        var big = [UInt8]()
        for i in 0..<2000 { big += Array("row \(i),é\n".utf8) }
        big += [0xC3, 0x28] + Array("\n".utf8) + [0x80]
        for chunk in Kit.someChunkSizes {
            let got = Kit.decode(big, chunkSize: chunk)
            #expect(got.replacements == 2)
            #expect(got.firstReplacementLine == 2001, "chunk \(chunk)")
        }
    }

    /// Seeded property: random bytes decode exactly as Swift's own UTF-8 repair does, at any chunk size.
    @Test("I5: random bytes decode like String(decoding:as:)", arguments: [11, 12, 13, 14] as [UInt64])
    func randomBytes(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let interesting: [UInt8] = [0x0A, 0x0D, 0x2C, 0x41, 0x7F, 0x80, 0x8F, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]
        for _ in 0..<60 {
            let length = Int.random(in: 0...24, using: &rng)
            // Start with ASCII so that no random prefix is taken for a byte-order mark.
            let input = [UInt8(ascii: "x")] + (0..<length).map { _ in interesting.randomElement(using: &rng) ?? 0 }
            let expected = String(decoding: input, as: UTF8.self)
            let fffds = expected.unicodeScalars.filter { $0 == "\u{FFFD}" }.count
            for chunk in [1, Int.random(in: 2...9, using: &rng), 1 << 16] {
                let got = Kit.decode(input, chunkSize: chunk)
                #expect(got.text == expected, "input \(input) chunk \(chunk)")
                #expect(got.replacements == fffds, "input \(input) chunk \(chunk)")
            }
        }
    }

    /// Seeded property: text made of valid sequences of every length (the edges of each range of
    /// lead and second byte among them), runs of them as words are, with a few bytes changed,
    /// taken out or cut off, decodes as Swift's own UTF-8 repair does, read whole or in pieces.
    @Test("I5: valid sequences of every length, some bytes changed, decode like String(decoding:as:)")
    func sequencesWithChanges() {
        var rng = SplitMix64(seed: 0x0FFD)
        // Scalars at the edges of the UTF-8 ranges (two-byte; E0's, E1–EC's, ED's, EE–EF's
        // second bytes; F0's, F1–F3's, F4's) and common ones.
        let scalars: [UInt32] = [0x80, 0x7FF, 0xE9, 0x3A9, 0x800, 0xFFF, 0x1000, 0xCFFF, 0xD000, 0xD7FF, 0xE000, 0xFFFC,
                                 0xFFFF, 0x4E2D, 0xAC00, 0x10000, 0x3FFFF, 0x40000, 0xFFFFF, 0x100000, 0x10FFFF, 0x1F600]
        let changes: [UInt8] = [0x00, 0x0A, 0x41, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE,
                                0xEF, 0xF0, 0xF4, 0xF5, 0xFF]
        for trial in 0..<2000 {
            var input: [UInt8] = [UInt8(ascii: "x")]
            for _ in 0..<(1 + rng.below(12)) {
                if rng.below(3) == 0 {
                    input += Array(String(repeating: "ab", count: 1 + rng.below(12)).utf8)
                } else {
                    for _ in 0..<(1 + rng.below(8)) {
                        input += Array(String(Character(Unicode.Scalar(scalars[rng.below(scalars.count)])!)).utf8)
                    }
                }
            }
            for _ in 0..<rng.below(4) {
                let at = 1 + rng.below(input.count - 1)
                switch rng.below(3) {
                case 0: input[at] = changes[rng.below(changes.count)]
                case 1: input.remove(at: at)
                default: input.removeLast(rng.below(min(3, input.count - 1)))
                }
                if input.count < 2 { break }
            }
            let expected = String(decoding: input, as: UTF8.self)
            let fffds = expected.unicodeScalars.filter { $0 == "\u{FFFD}" }.count
            let read = [(1 << 16, 1 << 16), (1 << 16, 16), (1 + rng.below(9), 16), (1 + rng.below(40), 64)][trial % 4]
            let got = Kit.decode(input, chunkSize: read.0, streamChunkSize: read.1)
            #expect(got.text == expected, "input \(input) read \(read)")
            #expect(got.replacements == fffds, "input \(input) read \(read)")
        }
    }

    @Test("I5: the replacement warning names the first line and suggests --encoding")
    func replacementWarning() {
        let bytes = Array("a,b\n1,2\n3,".utf8) + [0xE9] + Array("\n4,".utf8) + [0xFC] + Array("\n".utf8)
        let table = Kit.table(bytes, name: "x.csv", options: FormatOptions())
        #expect(table.rows == 3)
        #expect(table.warnings == ["x.csv: invalid UTF-8 replaced with U+FFFD (2 times, first on line 3); try --encoding latin1 or cp1252"])
        var latin = FormatOptions()
        latin.encoding = .latin1
        let fixed = Kit.table(bytes, name: "x.csv", options: latin)
        #expect(fixed.warnings.isEmpty)
        #expect(fixed.head.count == 3 && fixed.head[1] == ["3", "é"])
    }
}
