import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// C6, C7, W8 (issue 47): a cell is cut and wrapped on its bytes (`DisplayWidth.fitPlain`) when it
/// holds only plain scalars; the lines must be exactly those the grapheme-exact `fit` makes, and
/// every other cell must be left to `fit`.
@Suite("Text: cutting and wrapping on bytes")
struct PlainFitTests {
    /// Scalars of every script the width corpus holds, one list a script (its label), each
    /// scalar of a corpus string on its own (marks, joiners and selectors among them).
    static let scripts: [(label: String, scalars: [Unicode.Scalar])] = {
        guard let entries = WidthCorpus.load() else { return [] }
        var byLabel: [String: [Unicode.Scalar]] = [:]
        var order: [String] = []
        for entry in entries {
            let label = String(entry.label.split(separator: " ").first ?? "")
            if byLabel[label] == nil { order.append(label) }
            for scalar in entry.text.unicodeScalars where !byLabel[label, default: []].contains(scalar) {
                byLabel[label, default: []].append(scalar)
            }
        }
        return order.map { ($0, byLabel[$0] ?? []) }.filter { !$0.scalars.isEmpty }
    }()

    /// A text of words from one script (or, one time in four, all of them), with spaces, path
    /// separators, `…` and, now and then, a whole corpus string (a cluster) in it.
    static func text(_ random: inout SplitMix64) -> String {
        let script = scripts[random.below(scripts.count)].scalars
        let all = random.below(4) == 0
        var out = String.UnicodeScalarView()
        let length = random.below(random.below(6) == 0 ? 200 : 40)
        for _ in 0..<length {
            switch random.below(20) {
            case 0, 1, 2: out.append(" ")
            case 3: out.append("/")
            case 4: out.append(DisplayWidth.ellipsis)
            case 5, 6: out.append(Unicode.Scalar(UInt8(ascii: "a") + UInt8(random.below(26))))
            default:
                let pool = all ? scripts[random.below(scripts.count)].scalars : script
                out.append(pool[random.below(pool.count)])
            }
        }
        return String(out)
    }

    @Test("C6/C7/W8: 100,000 generated texts of every script in the width corpus: the byte path's lines are fit's, or it leaves the text to fit")
    func sameLinesAsFit() throws {
        try #require(Self.scripts.count >= 10, "the width corpus is read")
        var random = SplitMix64(seed: 0x4747_0001)
        var lines: [CellLine] = []
        var taken = 0
        var takenCut = 0
        var takenWrapped = 0
        var mismatches = 0
        for round in 0..<100_000 {
            let text = Self.text(&random)
            let measure = DisplayWidth(ambiguousIsWide: random.below(4) == 0)
            let width = random.below(8) == 0 ? random.below(3) : 1 + random.below(40)
            let maxLines = [1, 1, 2, 2, 3, Int.max][random.below(6)]
            let mode: EllipsisMode = random.below(2) == 0 ? .end : .middle
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { cell in
                let expected = measure.fit(utf8: cell, width: width, maxLines: maxLines, ellipsis: mode)
                let onBytes = measure.fitPlain(cell, width: width, maxLines: maxLines, ellipsis: mode, into: &lines)
                if maxLines == 1 {
                    // The one-line form, without an array, is the same.
                    let line = measure.fitPlainLine(cell, width: width, ellipsis: mode)
                    #expect(line == (onBytes ? lines.first : nil), "round \(round)")
                }
                guard onBytes else {
                    #expect(lines.isEmpty)
                    return
                }
                // Given the width it measures, it makes the same lines. (No width, or no text:
                // one empty line, whatever the text.)
                if width <= 0 || cell.isEmpty {
                    #expect(lines == [CellLine(head: 0..<0, width: 0)])
                } else if let total = measure.plainWidth(utf8: cell) {
                    var given: [CellLine] = []
                    _ = measure.fitPlain(cell, width: width, maxLines: maxLines, ellipsis: mode, total: total, into: &given)
                    #expect(given == lines, "round \(round), its width given")
                } else {
                    Issue.record("round \(round): taken on bytes without a plain width")
                }
                taken += 1
                if expected.count > 1 { takenWrapped += 1 } else if expected.first?.width ?? 0 < measure.width(utf8: cell) { takenCut += 1 }
                let got = lines.map { $0.textLine(of: cell) }
                if got != expected {
                    mismatches += 1
                    if mismatches <= 5 {
                        Issue.record("round \(round), width \(width), lines \(maxLines), \(mode), wide \(measure.ambiguousIsWide): \(text.debugDescription)\n got \(got)\n fit \(expected)")
                    }
                }
            }
        }
        #expect(mismatches == 0)
        // The byte path must carry the common case, or this test checks nothing.
        #expect(taken > 30_000, "texts taken on bytes: \(taken)")
        #expect(takenCut > 5_000 && takenWrapped > 5_000, "cut \(takenCut), wrapped \(takenWrapped)")
    }

    @Test("W1: every scalar called plain, of all of Unicode, is a grapheme cluster of its own beside letters and itself, with the width the full measure gives it")
    func everyPlainScalar() {
        var plain = 0
        var wrong: [String] = []
        for wide in [false, true] {
            let measure = DisplayWidth(ambiguousIsWide: wide)
            for value in UInt32(0x20)...0x10FFFF {
                let w = measure.plainWidth(value)
                guard w > 0, let scalar = Unicode.Scalar(value) else { continue }
                plain += 1
                var text = String.UnicodeScalarView()
                var expected = 6 * w
                for neighbour in ["a", "東", "가", "ก", "Ж"] as [Unicode.Scalar] {
                    text.append(neighbour)
                    text.append(scalar)
                    expected += measure.width(of: neighbour)
                }
                text.append(scalar)
                let string = String(text)
                if string.count != text.count || measure.width(of: string) != expected {
                    if wrong.count < 10 { wrong.append(String(value, radix: 16)) }
                }
            }
        }
        #expect(wrong.isEmpty, "U+\(wrong)")
        #expect(plain > 200_000, "plain scalars: \(plain)")
    }

    @Test("C6/C7: a text of plain scalars is always taken on bytes; one with a mark, joiner, selector, flag, control or bad byte never is")
    func whatIsTaken() {
        let measure = DisplayWidth()
        var lines: [CellLine] = []
        let plain = ["Müller, Anna", "株式会社サンプル 東京", "서울 Ελληνικά Кириллица", "Straße/ü/日本", "© ½ ∑ ★", "a\u{00AD}b"]
        for text in plain {
            let taken = Array(text.utf8).withUnsafeBufferPointer { measure.fitPlain($0, width: 5, maxLines: 2, ellipsis: .end, into: &lines) }
            #expect(taken, "\(text.debugDescription)")
        }
        let other = ["e\u{301}", "👩\u{200D}💻", "❤\u{FE0F}", "🇩🇪", "a\tb", "a\nb", "\u{1F44D}\u{1F3FD}", "각\u{11A8}", "\u{202E}x",
                     "क\u{94D}ष", "\u{600}1", "a\u{0903}"]
        for text in other {
            let taken = Array(text.utf8).withUnsafeBufferPointer { measure.fitPlain($0, width: 5, maxLines: 2, ellipsis: .end, into: &lines) }
            #expect(!taken, "\(text.debugDescription)")
        }
        let invalid: [UInt8] = [0x61, 0xFF, 0x62]
        #expect(!invalid.withUnsafeBufferPointer { measure.fitPlain($0, width: 5, maxLines: 1, ellipsis: .end, into: &lines) })
    }

    @Test("C6/C7: cells of 1–40 bytes lying in a larger buffer whose next bytes are slashes, spaces and letters fit as they do alone: nothing past a cell's end is read (the eight-byte scans at every offset)")
    func nothingReadPastTheCell() {
        var random = SplitMix64(seed: 0x4747_0E06)
        let pieces = ["a", "é", "東", " ", "/", "ễ", "Ж", "xyz/", "가"]
        var alone: [CellLine] = []
        var inside: [CellLine] = []
        for length in 1...40 {
            for round in 0..<40 {
                var bytes: [UInt8] = []
                while bytes.count < length { bytes += Array(pieces[random.below(pieces.count)].utf8) }
                // Cut at a scalar boundary at or below `length`.
                var end = min(length, bytes.count)
                while end > 0 && end < bytes.count && bytes[end] & 0xC0 == 0x80 { end -= 1 }
                let cell = Array(bytes[0..<end])
                let measure = DisplayWidth()
                let width = 1 + random.below(12)
                let maxLines = [1, 2, Int.max][round % 3]
                let mode: EllipsisMode = round % 2 == 0 ? .end : .middle
                let a = cell.withUnsafeBufferPointer { measure.fitPlain($0, width: width, maxLines: maxLines, ellipsis: mode, into: &alone) }
                let b = withinBuffer(cell, after: Array("/ / abc/xyz//  東".utf8)) {
                    measure.fitPlain($0, width: width, maxLines: maxLines, ellipsis: mode, into: &inside)
                }
                #expect(a == b && alone == inside, "\(length) bytes, round \(round): \(String(decoding: cell, as: UTF8.self).debugDescription)")
                // In memory of exactly its size, where AddressSanitizer sees a read past its end.
                let exact = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: cell.count)
                defer { exact.deallocate() }
                _ = exact.initialize(from: cell)
                var own: [CellLine] = []
                let c = measure.fitPlain(UnsafeBufferPointer(exact), width: width, maxLines: maxLines, ellipsis: mode, into: &own)
                #expect(a == c && alone == own, "\(length) bytes, round \(round), in memory of its size")
            }
        }
    }

    @Test("C6/C7: a fitted line shown from a cell it does not lie in (one byte past its end) stops the program instead of reading past it")
    func lineOutsideItsCellTraps() async {
        await #expect(processExitsWith: .failure) {
            let bytes: [UInt8] = Array("abcdef".utf8)
            bytes.withUnsafeBufferPointer { cell in
                _ = CellLine(head: 0..<7, width: 7).textLine(of: cell)
            }
        }
        await #expect(processExitsWith: .failure) {
            let bytes: [UInt8] = Array("abcdef".utf8)
            bytes.withUnsafeBufferPointer { cell in
                _ = CellLine(head: 0..<2, ellipsis: true, tail: 4..<7, width: 5).endsWithEllipsis(in: cell)
            }
        }
        // At its edge exactly: shown.
        let bytes: [UInt8] = Array("abcdef".utf8)
        let edge = bytes.withUnsafeBufferPointer { CellLine(head: 0..<2, ellipsis: true, tail: 4..<6, width: 5).textLine(of: $0) }
        #expect(edge == TextLine(text: "ab…ef", width: 5))
    }

    @Test("C7: a cell far longer than its lines can show is left to fit, which reads only a piece of it")
    func longCellLeftToFit() {
        let measure = DisplayWidth()
        var lines: [CellLine] = []
        let limit = DisplayWidth.readLimit(width: 10, lines: 1)
        for (count, taken) in [(2 * limit - 1, true), (2 * limit, true), (2 * limit + 1, false)] {
            let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: count)
            let result = bytes.withUnsafeBufferPointer { measure.fitPlain($0, width: 10, maxLines: 1, ellipsis: .end, into: &lines) }
            #expect(result == taken, "\(count) bytes")
        }
        // A list report's value (no line limit) is wrapped whole on bytes, however long.
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 3 * limit)
        #expect(long.withUnsafeBufferPointer { measure.fitPlain($0, width: 10, maxLines: Int.max, ellipsis: .end, into: &lines) })
        #expect(lines.count == (3 * limit + 9) / 10)
    }
}
