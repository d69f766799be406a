#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// W1 (display widths) and the width side of O5 (controls count as their escapes).
@Suite("DisplayWidth")
struct DisplayWidthTests {
    let narrow = DisplayWidth()
    let wide = DisplayWidth(ambiguousIsWide: true)

    /// Width through both entry points, which must agree.
    private func columns(_ text: String, _ measure: DisplayWidth = DisplayWidth()) -> Int {
        let viaString = measure.width(of: text)
        var copy = text
        let viaBytes = copy.withUTF8 { measure.width(utf8: $0) }
        #expect(viaString == viaBytes, "width(of:) and width(utf8:) disagree on \(text.debugDescription)")
        return viaString
    }

    // MARK: - The corpus

    @Test("W1: widths equal wcwidth's wcswidth on the corpus")
    func corpusMatchesWcwidth() throws {
        let entries = try #require(WidthCorpus.load(), "cannot read \(WidthCorpus.path)")
        #expect(entries.count >= 300)
        var failures = 0
        for entry in entries {
            let got = columns(entry.text, narrow)
            let gotWide = columns(entry.text, wide)
            if got != entry.width || gotWide != entry.ambiguousWideWidth {
                failures += 1
                Issue.record("""
                    line \(entry.line) [\(entry.label)] \(entry.escaped): \
                    expected \(entry.width)/\(entry.ambiguousWideWidth), got \(got)/\(gotWide)
                    """)
            }
        }
        #expect(failures == 0)
    }

    // MARK: - Single scalars

    @Test("W1: CJK, Hangul and fullwidth count two columns")
    func wideCharacters() {
        #expect(columns("中文") == 4)
        #expect(columns("日本語テスト") == 12)
        #expect(columns("한국어") == 6)
        #expect(columns("ｈｅｌｌｏ") == 10)
        #expect(columns("\u{3000}") == 2)
        #expect(columns("𠀀") == 2)
        #expect(columns("ｶﾀｶﾅ") == 4, "halfwidth katakana is narrow")
        #expect(narrow.width(of: Unicode.Scalar(0x4E00)!) == 2)
        #expect(narrow.width(of: Unicode.Scalar(0x9FFF)!) == 2)
        #expect(narrow.width(of: Unicode.Scalar(0xAC00)!) == 2)
        #expect(narrow.width(of: Unicode.Scalar(0xD7A3)!) == 2)
    }

    @Test("W1: combining marks and other zero-width characters count zero")
    func zeroWidth() {
        #expect(columns("e\u{301}") == 1)
        #expect(columns("cafe\u{301}") == 4)
        #expect(columns("café") == 4)
        #expect(columns("\u{301}") == 0)
        #expect(columns("a\u{20DD}") == 1, "enclosing mark (Me)")
        #expect(columns("a\u{200B}b") == 2, "zero width space")
        #expect(columns("a\u{200C}b") == 2, "ZWNJ")
        #expect(columns("\u{FEFF}x") == 7, "a BOM inside text shows as \\ufeff (O5)")
        #expect(columns("a\u{FE00}") == 1)
        #expect(columns("a\u{E0100}") == 1)
        #expect(columns("\u{1100}\u{1161}\u{11A8}") == 2, "conjoining jamo: medial and final are 0")
        #expect(columns("\u{2060}\u{2066}\u{2069}") == 12, "word joiner 0; isolates show as \\u2066, \\u2069 (O5)")
    }

    @Test("W1: East Asian Ambiguous is 1, or 2 with --ambiguous-wide")
    func ambiguous() {
        #expect(columns("±×°", narrow) == 3)
        #expect(columns("±×°", wide) == 6)
        #expect(columns("…", narrow) == 1)
        #expect(columns("…", wide) == 2)
        #expect(columns("Привет", wide) == 12)
        #expect(columns("hello", wide) == 5)
        #expect(columns("e\u{301}", wide) == 1, "a combining mark stays 0 though it is Ambiguous")
    }

    @Test("O5: a control counts as its visible escape (TAB 2, CR 2, LF 1, others 4)")
    func controlWidths() {
        #expect(columns("a\tb") == 4)
        #expect(columns("a\rb") == 4)
        #expect(columns("a\nb") == 3)
        #expect(columns("\u{1B}[31m") == 8)
        #expect(columns("\u{0}") == 4)
        #expect(columns("\u{7}") == 4)
        #expect(columns("\u{7F}") == 4)
        #expect(columns("\u{80}") == 4)
        #expect(columns("\u{9B}") == 4)
        let expected: [UInt32: Int] = [0x09: 2, 0x0D: 2, 0x0A: 1]
        for value in Array(UInt32(0)...0x1F) + Array(UInt32(0x7F)...0x9F) {
            let scalar = Unicode.Scalar(value)!
            #expect(narrow.width(of: scalar) == expected[value, default: 4], "U+\(value)")
            let text = "x" + String(scalar) + "y"
            #expect(columns(text) == narrow.width(of: Sanitize.visible(text)))
        }
        #expect(narrow.width(of: Unicode.Scalar(0xA0)!) == 1)
    }

    // MARK: - Clusters

    @Test("W1: an emoji ZWJ sequence counts as its first emoji")
    func zwjSequences() {
        #expect(columns("👨‍👩‍👧‍👦") == 2)
        #expect(columns("👩‍💻") == 2)
        #expect(columns("🏳️‍🌈") == 2)
        #expect(columns("🏴‍☠️") == 2)
        #expect(columns("🧑🏿‍🚀") == 2)
        #expect(columns("x👨‍👩‍👧y") == 4)
    }

    @Test("W1: a ZWJ before a non-emoji does not hide it (tablefmt differs from wcwidth here)")
    func zwjBeforeNonEmoji() {
        // wcwidth 0.9 gives 1 (it skips any scalar after ZWJ); a terminal shows both letters.
        #expect(columns("a\u{200D}b") == 2)
        #expect(columns("👍\u{200D}中") == 4)
        #expect(columns("a\u{200D}\u{1B}") == 5, "a control after ZWJ is still escaped")
    }

    @Test("W1: VS16 makes a narrow emoji-capable character two columns")
    func variationSelector16() {
        #expect(columns("❤") == 1)
        #expect(columns("❤️") == 2)
        #expect(columns("❤️❤️❤️") == 6)
        #expect(columns("#️⃣") == 2)
        #expect(columns("1️⃣") == 2)
        #expect(columns("©️") == 2)
        #expect(columns("✈️") == 2)
        #expect(columns("a\u{FE0F}") == 1, "no emoji form")
        #expect(columns("😀\u{FE0F}") == 2, "already wide")
        #expect(columns("\u{FE0F}") == 0)
    }

    @Test("W1: VS15 makes a wide emoji with a text form one column")
    func variationSelector15() {
        #expect(columns("⌚") == 2)
        #expect(columns("⌚\u{FE0E}") == 1)
        #expect(columns("😀\u{FE0E}") == 2, "no text form")
    }

    @Test("W1: a flag (pair of regional indicators) counts two columns")
    func flags() {
        #expect(columns("🇺🇸") == 2)
        #expect(columns("🇯🇵🇫🇷") == 4)
        #expect(columns("🇦") == 2)
        #expect(columns("🇦🇧🇨") == 4)
        #expect(columns("x🇺🇸y") == 4)
    }

    @Test("W1: a skin-tone modifier after an emoji adds nothing")
    func skinTones() {
        #expect(columns("👍🏽") == 2)
        #expect(columns("👋🏻👋🏿") == 4)
        #expect(columns("🏽") == 2, "alone it is a wide scalar")
    }

    @Test("W1: Indic conjuncts and spacing marks as wcwidth measures them")
    func indic() {
        #expect(columns("क्ष") == 2)
        #expect(columns("क\u{903}") == 2, "spacing mark after a base")
        #expect(columns("\u{903}") == 2, "alone it is shown on ◌, a cluster of two")
        #expect(columns("क्\u{200D}ष") == 2, "ZWJ after a virama keeps the conjunct")
    }

    // MARK: - Bytes

    @Test("W1: the ASCII fast path agrees with the scalar path at every offset")
    func asciiFastPath() {
        for length in 0..<40 {
            let plain = String(repeating: "x", count: length)
            #expect(columns(plain) == length)
            for position in 0...length {
                var scalars = Array(plain.unicodeScalars)
                scalars.insert("中", at: position)
                #expect(columns(String(String.UnicodeScalarView(scalars))) == length + 2)
                scalars[position] = "\u{7F}"
                #expect(columns(String(String.UnicodeScalarView(scalars))) == length + 4)
                scalars[position] = "\u{9B}"
                #expect(columns(String(String.UnicodeScalarView(scalars))) == length + 4)
                scalars[position] = "\u{301}"
                #expect(columns(String(String.UnicodeScalarView(scalars))) == length)
            }
        }
        #expect(columns(String(repeating: "a", count: 17) + "\u{301}") == 17)
        #expect(columns("#########\u{FE0F}") == 10, "VS16 after a fast-path run applies to its last byte")
    }

    @Test("W1: Latin letters, kana, CJK ideographs and Hangul syllables (the fast path) measure as the scalar rules do, next to every special scalar")
    func letterFastPath() {
        /// The scalar rules alone: every scalar of the text as shown through the accumulator.
        func reference(_ text: String, _ measure: DisplayWidth) -> Int {
            var state = WidthAccumulator(ambiguousIsWide: measure.ambiguousIsWide)
            for scalar in Sanitize.visible(text).unicodeScalars { state.add(scalar.value) }
            return state.total
        }
        var letters: [Unicode.Scalar] = []
        for value in stride(from: 0xC0, through: 0x2FF, by: 1) { letters.append(Unicode.Scalar(UInt32(value))!) }
        for value in stride(from: 0x3000, through: 0x30FF, by: 1) { letters.append(Unicode.Scalar(UInt32(value))!) }
        for value in stride(from: 0x4DB0, through: 0xA000, by: 7) { letters.append(Unicode.Scalar(UInt32(value))!) }
        // Latin Extended Additional (Vietnamese) and the Hangul syllables, with what borders them.
        for value in stride(from: 0x1DF0, through: 0x1F0F, by: 1) { letters.append(Unicode.Scalar(UInt32(value))!) }
        for value in [0xABFF, 0xAC00, 0xAC01, 0xD7A2, 0xD7A3, 0xD7A4, 0xD7FF, 0xE000] { letters.append(Unicode.Scalar(UInt32(value))!) }
        for value in stride(from: 0xAC00, through: 0xD7A3, by: 97) { letters.append(Unicode.Scalar(UInt32(value))!) }
        // Neighbours that start or change a cluster: combining acute, VS16, VS15, ZWJ, a spacing
        // mark, a virama, a regional indicator, an emoji, a skin tone, a control, ASCII.
        let neighbours = ["", "\u{301}", "\u{FE0F}", "\u{FE0E}", "\u{200D}", "\u{93E}", "\u{94D}", "\u{1F1E9}", "\u{1F600}", "\u{1F3FB}", "\u{1B}", "a"]
        for measure in [narrow, wide] {
            for letter in letters {
                for before in neighbours {
                    for after in neighbours {
                        let text = before + String(letter) + after
                        #expect(columns(text, measure) == reference(text, measure), "\(text.debugDescription)")
                    }
                }
            }
        }
    }

    @Test("W1: text with nothing to escape is never wider than the bound its bytes give, and text that may need escaping gets none (every scalar alone, after a letter, doubled and after an emoji; generated text); the bound counts 1 a scalar of one or two bytes, 2 one of three or four")
    func widthBound() {
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
        /// The bound, computed here from the scalars.
        func expectedBound(_ text: String) -> Int { text.unicodeScalars.reduce(0) { $0 + (String($1).utf8.count >= 3 ? 2 : 1) } }
        func check(_ text: String) {
            let utf8 = bytes(text)
            utf8.withUnsafeBufferPointer { cell in
                #expect(wide.plainWidthBound(utf8: cell) == nil)
                guard let bound = narrow.plainWidthBound(utf8: cell) else {
                    // Only text that may need escaping has no bound: a suspect byte or a leading mark.
                    let suspect = utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 || $0 == 0xEF } || DisplayWidth.startsWithMark(cell)
                    #expect(suspect, "\(text.debugDescription)")
                    return
                }
                #expect(!Sanitize.needsEscaping(utf8: cell), "\(text.debugDescription)")
                #expect(bound == expectedBound(text), "\(text.debugDescription)")
                #expect(narrow.width(utf8: cell) <= bound, "\(text.debugDescription)")
            }
        }
        var value: UInt32 = 0x20
        while value <= 0x10FFFF {
            if let scalar = Unicode.Scalar(value) {
                let one = String(scalar)
                check(one)
                check("a" + one)
                check(one + one)
                check("\u{1F600}" + one)
            }
            value += value < 0x30000 ? 1 : 61
        }
        var rng = SplitMix64(seed: 0xB0_0D)
        let pieces = ["a", "Z", " ", "é", "e\u{301}", "中", "한", "ｶ", "😀", "👍🏽", "👨‍👩‍👧", "🇯🇵", "❤️", "#️⃣", "☺", "क्ष", "कि", "مرحبا", "ไทย", "ก้", "Ж", "\u{200B}", "\u{FE0F}", "\u{20DD}", "°", "±", "\t", "\u{1B}", "\u{85}", "\u{202E}", "\u{FEFF}", "\u{2028}", "–", "ｱ"]
        for _ in 0..<20_000 {
            check((0..<Int(rng.next() % 12)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined())
        }
    }

    @Test("E5: bytes that are not UTF-8 count as U+FFFD and never trap")
    func invalidUTF8() {
        func measure(_ bytes: [UInt8], _ measure: DisplayWidth) -> Int {
            bytes.withUnsafeBufferPointer { measure.width(utf8: $0) }
        }
        #expect(measure([0xFF, 0x41], narrow) == 2)
        #expect(measure([0xE4, 0xB8], narrow) == 2)
        #expect(measure([0xE4, 0xB8], wide) == 4, "U+FFFD is Ambiguous")
        #expect(measure([0xC0, 0x80], narrow) == 2, "overlong NUL is not a NUL")
        #expect(measure([0xED, 0xA0, 0x80], narrow) == 3, "surrogate")
        #expect(measure([0xF4, 0x90, 0x80, 0x80], narrow) == 4, "beyond U+10FFFF")
        #expect(measure([0xF0, 0x9F, 0x98], narrow) == 3, "truncated emoji")
        #expect(measure([], narrow) == 0)
        var rng = SplitMix64(seed: 0xBAD_B17E5)
        for _ in 0..<2000 {
            let bytes = (0..<Int(rng.next() % 24)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let width = measure(bytes, narrow)
            #expect(width >= 0 && width <= 4 * bytes.count)
        }
    }

    @Test("W1: substrings are measured like strings")
    func substrings() {
        let text = "hello 世界 world"
        #expect(narrow.width(of: text.dropFirst(6)) == 10)
        #expect(narrow.width(of: text.prefix(8)) == 10)
    }

    // MARK: - Tables

    @Test("W1: generated tables are sorted, merged ranges")
    func tablesAreWellFormed() {
        let tables = [WidthTables.zeroWidth, WidthTables.wide, WidthTables.ambiguous, WidthTables.emojiVS16,
                      WidthTables.textVS15, WidthTables.spacingMark, WidthTables.virama,
                      WidthTables.extendedPictographic]
        for table in tables {
            #expect(!table.isEmpty && table.count % 2 == 0)
            var previousHigh: UInt32?
            for pair in stride(from: 0, to: table.count, by: 2) {
                #expect(table[pair] <= table[pair + 1])
                if let previousHigh { #expect(previousHigh + 1 < table[pair], "overlapping or adjacent ranges") }
                previousHigh = table[pair + 1]
            }
        }
        #expect(!WidthTables.contains(WidthTables.zeroWidth, 0), "controls are escaped, not zero width")
        #expect(DisplayWidth.unicodeVersion == WidthTables.unicodeVersion)
        #expect(!WidthTables.unicodeVersion.isEmpty)
    }
}

/// The corpus written by `scripts/gen-width-corpus.py`: strings with wcwidth's widths.
enum WidthCorpus {
    struct Entry {
        var line: Int
        var width: Int
        var ambiguousWideWidth: Int
        var label: String
        var escaped: String
        var text: String
    }

    /// Found from this file's path (no bundle resources: the manifest declares none).
    static let path: String = {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(2)  // Text/DisplayWidthTests.swift
        return (components + ["Resources", "width-corpus.tsv"]).joined(separator: "/")
    }()

    /// The entries, or nil when the file cannot be read or a line does not parse.
    static func load() -> [Entry]? {
        guard let contents = readFile(path) else { return nil }
        var entries: [Entry] = []
        for (index, line) in contents.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4, let width = Int(fields[0]), let wideWidth = Int(fields[1]),
                  let text = unescape(fields[3]) else { return nil }
            entries.append(Entry(line: index + 1, width: width, ambiguousWideWidth: wideWidth,
                                 label: String(fields[2]), escaped: String(fields[3]), text: text))
        }
        return entries
    }

    /// Decodes `\u{HEX}` escapes; every other character stands for itself.
    static func unescape(_ escaped: Substring) -> String? {
        var out = String.UnicodeScalarView()
        var iterator = escaped.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\" else {
                out.append(scalar)
                continue
            }
            guard iterator.next() == "u", iterator.next() == "{" else { return nil }
            var hex = ""
            while let digit = iterator.next(), digit != "}" { hex.unicodeScalars.append(digit) }
            guard let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) else { return nil }
            out.append(decoded)
        }
        return String(out)
    }

    private static func readFile(_ path: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
