import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// C5: a heading on two lines breaks between words only. A word wider than its column widens the
/// column, up to W3's maximum; past that it is cut with `…`, never split across lines.
@Suite("C5 heading words")
struct HeadingWordTests {
    /// A plain table of `csv` at `width`, headings as written.
    func table(_ csv: String, width: Int) throws -> [String] {
        var options = FormatOptions()
        options.format = .plain
        options.layout = .table
        options.titleHeadings = false
        options.width = width
        let sink = MemorySink()
        _ = try TableFormatter.run(MemoryInput(csv), options: options, output: sink)
        return sink.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The heading lines and the columns' spans, read from the rule under the headings.
    func headings(_ lines: [String]) -> (lines: [[Character]], spans: [Range<Int>])? {
        guard let ruleAt = lines.firstIndex(where: { !$0.isEmpty && $0.allSatisfy { $0 == "─" || $0 == " " } }) else { return nil }
        let rule = Array(lines[ruleAt])
        var spans: [Range<Int>] = []
        var k = 0
        while k < rule.count {
            guard rule[k] == "─" else { k += 1; continue }
            var end = k
            while end < rule.count && rule[end] == "─" { end += 1 }
            spans.append(k..<end)
            k = end
        }
        return (lines[..<ruleAt].map { Array($0) }, spans)
    }

    @Test("C5: `description of item` and `orders` at narrow widths: whole words, or a word cut with …")
    func examples() throws {
        // W3 caps the text column at 5 (14 / 2 - 2): the long word is cut, the rest whole.
        let lines = try table("description of item,orders,x\nabc def ghi jkl mno,12,a\n", width: 14)
        #expect(Array(lines.prefix(2)) == ["desc…", "of i…  orders"])
        // Alone and wider than the width, a heading is cut on one line, never split.
        let orders = try table("orders\nmany\n", width: 4)
        #expect(Array(orders.prefix(3)) == ["ord…", "────", "many"])
    }

    @Test("C5: 400 generated tables at widths 8–60: no heading line starts or ends inside a word; a word is cut only in a column at W3's maximum")
    func generated() throws {
        var random = SplitMix64(seed: 0x4845_4144)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        func word(_ most: Int) -> String { String((0...random.below(most)).map { _ in letters[random.below(letters.count)] }) }
        for round in 0..<400 {
            let columns = 1 + random.below(4)
            let titles = (0..<columns).map { c in "c\(c)" + (0..<random.below(4)).map { _ in " " + word(16) }.joined() }
            var csv = titles.joined(separator: ",") + "\n"
            for _ in 0..<3 {
                csv += (0..<columns).map { _ in (0...random.below(4)).map { _ in word(10) }.joined(separator: " ") }.joined(separator: ",") + "\n"
            }
            let width = 8 + random.below(53)
            let lines = try table(csv, width: width)
            guard let (heads, spans) = headings(lines) else {
                Issue.record("no rule: \(lines)")
                return
            }
            let maximum = width / 2 - 2  // W3 in the rule style
            for (k, span) in spans.enumerated() {
                let words = titles[k].split(separator: " ").map(String.init)
                for line in heads {
                    let text = String(line[min(span.lowerBound, line.count)..<min(span.upperBound, line.count)])
                    let tokens = text.split(separator: " ").map(String.init)
                    for (t, token) in tokens.enumerated() {
                        if words.contains(token) { continue }
                        // A cut: the last token of its line, a word's start and `…`.
                        let ok = token.hasSuffix("…") && t == tokens.count - 1 && words.contains { $0.hasPrefix(token.dropLast()) }
                        #expect(ok, "round \(round), width \(width): heading '\(titles[k])' shows '\(token)' in\n\(lines.joined(separator: "\n"))")
                        if !ok { return }
                    }
                }
                // A word wider than its column: the column could not widen (W3's maximum, or the
                // only column, cut to the width).
                let longest = words.map(\.count).max() ?? 0
                if longest > span.count {
                    #expect(span.count >= maximum || spans.count == 1,
                            "round \(round), width \(width): '\(titles[k])' in a column of \(span.count)\n\(lines.joined(separator: "\n"))")
                }
            }
        }
    }
}
