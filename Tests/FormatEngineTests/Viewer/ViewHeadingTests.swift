import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// C5 in the view: a heading on two lines breaks between words only, as printed; a word wider than
/// its column is cut with `…`, never split over two lines.
@Suite("Viewer: heading words")
struct ViewHeadingTests {
    static let words = ["description", "of", "item", "orders", "net", "weight", "customer", "region", "a", "shipped", "internationally"]

    @Test("C5: 150 generated headings, narrowed key by key in the view: every heading line is whole words, the last maybe a word's start and …")
    func wholeWords() throws {
        var random = SplitMix64(seed: 0xC5_71E3)
        for round in 0..<150 {
            let count = 1 + random.below(4)
            let name = (0..<count).map { _ in Self.words[random.below(Self.words.count)] }.joined(separator: "_")
            let title = Heading.title(name).text
            let titleWords = title.split(separator: " ").map(String.init)
            let csv = name + ",n\n" + String(repeating: "x", count: 30) + ",1\nshort,2\n"
            let model = try ViewStateTests.view(csv, width: 40 + random.below(30), height: 10)
            for _ in 0..<(8 + random.below(30)) {
                ViewStateTests.press(model, "<")
                let lines = ViewStateTests.plain(model)
                guard let rule = lines.firstIndex(where: { $0.hasPrefix("─") }) else {
                    Issue.record("round \(round): no rule under the headings")
                    break
                }
                // The first column's heading: up to its rule's end on each heading line.
                let width = lines[rule].prefix { $0 == "─" }.count
                for line in lines[..<rule] {
                    let text = String(line.prefix(width))
                    let tokens = text.split(separator: " ").map(String.init)
                    for (k, token) in tokens.enumerated() {
                        let cutWord = k == tokens.count - 1 && token.hasSuffix("…")
                            && titleWords.contains { $0.hasPrefix(token.dropLast()) }
                        #expect(titleWords.contains(token) || cutWord,
                                "round \(round): '\(title)' at width \(width) shows '\(token)' in \(lines[..<rule])")
                    }
                }
            }
        }
    }
}
