import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// W1, P1: the widths a renderer keeps of the common non-ASCII cells it drew (`CommonWidthCache`)
/// are `DisplayWidth.commonWidth`'s for the very same bytes, whatever was drawn before: checked on
/// generated columns of texts met again and again, texts that share their first bytes or their
/// length, other text, controls, and texts longer than the cache takes; a column whose texts are
/// seldom met again stops using the cache.
@Suite("W1 common widths kept")
struct CommonWidthCacheTests {
    /// Texts sharing long prefixes (so one word or two of them are equal), of every length
    /// around the word boundaries, common and not (a mark, an emoji, a control), and one past the
    /// 32 bytes the cache takes.
    static let stems = ["Novák, ", "Øster, Chloé ", "東京", "株式会社サンプル", "서울 특별시 ", "Café Zürich", "Nguyễn ", "abc\u{301}", "ok 🙂", "x\u{1B}y"]
    /// Tails of the same length and another width: `東` and `abc`, `José` and `abcde`.
    static let tails = ["", "a", "Anna", "Petr", "José", "abcde", "東", "abc", "ab", "abcdefgh", "abcdefghi", "long enough to pass thirty-two bytes"]

    static func cell(_ random: inout SplitMix64) -> [UInt8] {
        let stem = stems[random.below(stems.count)]
        if random.below(3) == 0 {
            // Many texts of one length and first word, some a column narrower (`東` for three
            // letters): more than the cache's entries, so texts meet in one entry.
            let letters = Array("abcdefghijklmnopqrstuvwxyz")
            let three = random.below(2) == 0 ? "東" : String((0..<3).map { _ in letters[random.below(26)] })
            return Array(("Øster, Chloé " + three + String(letters[random.below(26)]) + String(letters[random.below(26)])).utf8)
        }
        let tail = tails[random.below(tails.count)]
        return Array((random.below(3) == 0 ? tail + stem : stem + tail).utf8)
    }

    @Test("W1, P1: each width kept is commonWidth's for the same bytes; cells of other columns, longer cells and nil cells as commonWidth gives them (seeded)")
    func sameAsMeasured() {
        let measure = DisplayWidth()
        var random = SplitMix64(seed: 0xCAC4E)
        let cache = CommonWidthCache(measure: measure, columns: 3)
        defer { cache.free() }
        var kept = 0
        for _ in 0..<40_000 {
            let bytes = Self.cell(&random)
            // Inside a larger buffer whose next bytes would change a width read past the cell.
            let buffer = bytes + Array("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz".utf8)
            let column = random.below(4)  // column 3 has no table
            let (found, expected) = buffer.withUnsafeBufferPointer { all in
                let cell = UnsafeBufferPointer(rebasing: all[0..<bytes.count])
                return (cache.width(cell, column: column), measure.commonWidth(cell))
            }
            #expect(found == expected, "\(String(decoding: bytes, as: UTF8.self).debugDescription), column \(column)")
            if expected != nil && bytes.count <= CommonWidthCache.longest { kept += 1 }
        }
        #expect(kept > 10_000)  // the generator gives cells the cache keeps
    }

    @Test("P1: a column whose texts are seldom met again stops using its table, one whose texts are met again keeps it; both give commonWidth's widths")
    func distinctTexts() {
        let measure = DisplayWidth()
        let cache = CommonWidthCache(measure: measure, columns: 2)
        defer { cache.free() }
        for k in 0..<(4 * CommonWidthCache.checkEvery) {
            for (column, text) in [(0, "東京 \(k)"), (1, "東京 \(k % 20)")] {
                let bytes = Array(text.utf8)
                let (found, expected) = bytes.withUnsafeBufferPointer { (cache.width($0, column: column), measure.commonWidth($0)) }
                #expect(found == expected)
            }
        }
        #expect(!cache.isOn(column: 0))
        #expect(cache.isOn(column: 1))
    }
}
