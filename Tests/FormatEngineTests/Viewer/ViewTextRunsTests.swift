import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// A text sort in the view of a column of many distinct values (V3, W11): cells as order bytes,
/// sorted in runs by 8-byte keys on both cores and merged (`TextRuns`, `textOrderInRuns`).
@Suite("Viewer: a text sort of many distinct values in runs")
struct ViewTextRunsTests {
    /// Pieces texts are made of: long shared prefixes, accents composed and not, kana with and
    /// without a separate voicing mark, Hangul, CJK, full-width letters, an emoji, spaces, quotes,
    /// placeholders as pieces of longer text.
    static let pieces = ["a", "B", "z", "0", "9", " ", "é", "e\u{301}", "Ø", "ß", "Ω", "Ж", "か", "が", "か\u{3099}", "カ", "日", "本",
                         "한", "\u{1100}\u{1161}", "Ａ", "😀", "Å", "A\u{30A}", "\u{212B}", "~", ",", "\"", "NA", "-",
                         "https://example.com/orders/", "signature required ", "the same long prefix of many words, "]

    /// One text: a few pieces, sometimes after a prefix most texts share, sometimes a placeholder
    /// or empty; never starting or ending with a space (a CSV reader may not keep them alike).
    static func text(_ rng: inout SplitMix64) -> String {
        switch rng.below(40) {
        case 0: return ""
        case 1: return ["NA", "-", "null", "N/A"][rng.below(4)]
        default:
            let prefix = rng.below(3) == 0 ? "a shared prefix longer than sixteen bytes " : ""
            let body = (0..<(rng.below(6) + 1)).map { _ in pieces[rng.below(pieces.count)] }.joined()
            let text = (prefix + body).trimmingCharacters(in: .whitespaces)
            return text.isEmpty ? "x" : text
        }
    }

    static let nullWords: Set<String> = ["", "-", "NA", "N/A", "null", "NULL"]

    /// Row numbers in the order `--sort COLUMN` prints a table of `n` (the row number) and `t`.
    static func printerOrder(_ texts: [String], descending: Bool) throws -> [Int32] {
        var csv = "n,t\n"
        for (n, t) in texts.enumerated() { csv += "\(n),\"\(t.replacing("\"", with: "\"\""))\"\n" }
        var options = FormatOptions()
        options.width = 0
        options.format = .plain
        options.sort = [SortKey(descending ? "-t" : "t")]
        let sink = MemorySink()
        _ = try TableFormatter.run(MemoryInput(csv, name: "t.csv"), options: options, output: sink)
        return sink.text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).compactMap { line in
            line.split(separator: " ").first.flatMap { Int32($0) }
        }
    }

    /// The order of the texts' NFC forms (Foundation's normalization), scalar by scalar, the
    /// shorter first on a tie: an independent sort. Placeholders and empty cells last either way,
    /// ties in row order. (Swift's own `String` `<` is not used: where one text's NFC form is a
    /// proper prefix of another's and either needs normalizing, as `e\u{301}` and `éa`, it says
    /// neither comes first though they differ.)
    static func nfcOrder(_ texts: [String], descending: Bool) -> [Int32] {
        let null = nullWords
        let scalars = texts.map { $0.precomposedStringWithCanonicalMapping.unicodeScalars.map(\.value) }
        return texts.indices.sorted { a, b in
            let x = texts[a], y = texts[b]
            if null.contains(x) || null.contains(y) { return null.contains(x) == null.contains(y) ? a < b : null.contains(y) }
            if scalars[a] != scalars[b] { return scalars[a].lexicographicallyPrecedes(scalars[b]) != descending }
            return a < b
        }.map { Int32($0) }
    }

    /// Where two orders first differ, with the texts there (nil: the same).
    static func difference(_ ids: [Int32]?, _ expected: [Int32], _ texts: [String]) -> String? {
        guard let ids else { return "no order" }
        guard ids != expected else { return nil }
        guard let k = (0..<min(ids.count, expected.count)).first(where: { ids[$0] != expected[$0] }) else { return "\(ids.count) rows, \(expected.count) expected" }
        func shown(_ id: Int32) -> String { "\(id) \(texts[Int(id)].unicodeScalars.map { String($0.value, radix: 16) })" }
        return "at \(k): \(shown(ids[k])) where \(shown(expected[k])) was expected, after \(k > 0 ? shown(ids[k - 1]) : "nothing")"
    }

    @Test("V3/W11: 40 generated columns of many distinct values (shared prefixes, equal prefixes differing late, accents composed and not, CJK, empty cells), both ways, in runs of a few cells or many: the order --sort prints")
    func matchesPrinterSort() throws {
        for seed in 0..<40 as Range<UInt64> {
            var rng = SplitMix64(seed: seed)
            let count = rng.below(1500) + 2
            // A text may begin another in NFC, one of them composed and the other not (see `nfcOrder`).
            var texts = (0..<count).map { _ in Self.text(&rng) }
            if seed % 4 == 0 { texts += texts.shuffled(using: &rng).prefix(count / 3) }  // repeats: ties
            let rows = texts.map { [$0] }
            for descending in [false, true] {
                let expected = try Self.printerOrder(texts, descending: descending)
                #expect(expected.count == texts.count)
                let budget = [300, 4096, 1 << 20][Int(seed % 3)]
                let ids = try ViewState.textOrderInRuns(MemoryRows(rows), rows: rows.count, column: 0, descending: descending, budget: budget)
                let wrong = Self.difference(ids, expected, texts)
                #expect(wrong == nil, "seed \(seed) descending \(descending): \(wrong ?? "")")
                let disagree = Self.difference(Self.nfcOrder(texts, descending: descending), expected, texts)
                #expect(disagree == nil, "seed \(seed): the printer and the NFC order disagree: \(disagree ?? "")")
            }
        }
    }

    @Test("V3: 70,000 rows (two parts, many runs each), texts prefixes of others among them: the NFC order both ways; the view's text sort takes this path and gives it")
    func twoPartsManyRuns() throws {
        var rng = SplitMix64(seed: 99)
        let texts = (0..<70_000).map { k in k % 5 == 0 ? Self.text(&rng) : "note \(rng.below(50_000)) \(Self.pieces[rng.below(Self.pieces.count)])" }
        let rows = texts.map { [$0] }
        for descending in [false, true] {
            let expected = Self.nfcOrder(texts, descending: descending)
            let ids = try ViewState.textOrderInRuns(MemoryRows(rows), rows: rows.count, column: 0, descending: descending, budget: 1 << 18)
            let wrong = Self.difference(ids, expected, texts)
            #expect(wrong == nil, "descending \(descending): \(wrong ?? "")")
        }
        // Too many distinct values to rank, too many bytes to hold: the view's sort is this one.
        let viewed = try ViewState.textOrder(MemoryRows(rows), rows: rows.count, column: 0, descending: false, budget: 1 << 20)
        let wrong = Self.difference(viewed, Self.nfcOrder(texts, descending: false), texts)
        #expect(wrong == nil, "\(wrong ?? "")")
    }

    @Test("W11: order bytes compare as RowOrder compares the cells, and keys as the bytes, on 4,000 generated pairs of byte strings (bad UTF-8 too)")
    func orderBytesAreTheComparison() {
        var rng = SplitMix64(seed: 5)
        let raw: [[UInt8]] = Self.pieces.map { Array($0.utf8) } + [[0x80], [0xC3], [0xCC, 0x81], [0xE4, 0xB8], [0xFF], [0], [0xC5, 0xE1, 0x86, 0xA8]]
        func cell() -> [UInt8] { (0..<(rng.below(5) + 1)).flatMap { _ in raw[rng.below(raw.count)] } }
        func bytes(_ cell: [UInt8]) -> [UInt8] { cell.withUnsafeBufferPointer { TextRuns.withOrderBytes($0) { Array($0) } } }
        var compared = 0
        for _ in 0..<4000 {
            let x = cell(), y = cell()
            guard let a = x.withUnsafeBufferPointer({ RowOrder.value(cell: $0, numeric: false) }),
                  let b = y.withUnsafeBufferPointer({ RowOrder.value(cell: $0, numeric: false) }) else { continue }
            compared += 1
            let p = bytes(x), q = bytes(y)
            let order = p.withUnsafeBufferPointer { p in q.withUnsafeBufferPointer { q in TextRuns.compare(p, q, from: 0) } }
            #expect(order == RowOrder.Value.compare(a, b), "\(x) vs \(y)")
            for descending in [false, true] {
                for depth in [0, 7] where p.count >= depth && q.count >= depth && p.prefix(depth) == q.prefix(depth) {
                    let (k, l) = p.withUnsafeBufferPointer { p in q.withUnsafeBufferPointer { q in
                        (TextRuns.key(p, depth: depth, descending: descending), TextRuns.key(q, depth: depth, descending: descending)) } }
                    let deeper = p.withUnsafeBufferPointer { p in q.withUnsafeBufferPointer { q in TextRuns.compare(p, q, from: depth) } }
                    if k != l { #expect((k < l) == ((deeper < 0) != descending), "\(x) vs \(y) at \(depth)") }
                    if k == l && !TextRuns.goesOn(k, descending: descending) { #expect(deeper == 0, "\(x) vs \(y) at \(depth)") }
                }
            }
        }
        #expect(compared > 3900)
    }

    @Test("W11: a text whose NFC form is a proper prefix of another's goes first, whether or not either is composed (where String's < says neither does), in the view and in --sort")
    func prefixesInNFC() throws {
        let texts = ["Åa", "A\u{30A}", "Å\"", "\u{212B}", "e\u{301}", "éa", "é", "e", "ea"]
        let rows = texts.map { [$0] }
        // By NFC scalars: e, ea (U+0065…), then Å in two spellings (U+00C5, tied: row order), Å",
        // Åa, then é in two spellings (U+00E9), éa.
        #expect(try ViewState.textOrderInRuns(MemoryRows(rows), rows: rows.count, column: 0, descending: false, budget: 1 << 16) == [7, 8, 1, 3, 2, 0, 4, 6, 5])
        #expect(try ViewState.textOrderInRuns(MemoryRows(rows), rows: rows.count, column: 0, descending: true, budget: 1 << 16) == [5, 4, 6, 0, 2, 1, 3, 8, 7])
        #expect(Self.nfcOrder(texts, descending: false) == [7, 8, 1, 3, 2, 0, 4, 6, 5])
        #expect(try Self.printerOrder(texts, descending: false) == [7, 8, 1, 3, 2, 0, 4, 6, 5])
        #expect(try Self.printerOrder(texts, descending: true) == [5, 4, 6, 0, 2, 1, 3, 8, 7])
    }

    @Test("V8: Esc stops the sort while it scans, and while it merges: no order")
    func cancels() throws {
        let rows = (0..<70_000).map { ["row \(($0 * 7919) % 70_001) of many"] }
        for stop in [0.3, 0.8] {
            let progress = WorkProgress { $0 < stop }
            #expect(try ViewState.textOrderInRuns(MemoryRows(rows), rows: rows.count, column: 0, descending: false, budget: 1 << 16, progress: progress) == nil, "stopped at \(stop)")
        }
    }
}
