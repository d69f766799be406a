import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// C6 (cell lines), C7 (truncation), W1 (clusters never split), O5 (escapes in fitted text).
@Suite("TextFit")
struct TextFitTests {
    let measure = DisplayWidth()

    private func fit(_ text: String, _ width: Int, lines: Int = 1, _ mode: EllipsisMode = .end,
                     _ measure: DisplayWidth = DisplayWidth()) -> [TextLine] {
        measure.fit(text, width: width, maxLines: lines, ellipsis: mode)
    }

    private func line(_ text: String, _ width: Int) -> TextLine {
        TextLine(text: text, width: width)
    }

    // MARK: - One line (C7)

    @Test("C7: text that fits is returned whole")
    func fitsWhole() {
        #expect(fit("hello", 10) == [line("hello", 5)])
        #expect(fit("hello", 5) == [line("hello", 5)])
        #expect(fit("中文", 4) == [line("中文", 4)])
        #expect(fit("hello", 10, lines: 2) == [line("hello", 5)])
    }

    @Test("C7: the ellipsis goes at the end by default")
    func endEllipsis() {
        #expect(fit("hello world", 8) == [line("hello w…", 8)])
        #expect(fit("café au lait", 6) == [line("café …", 6)])
        #expect(fit("abc", 1) == [line("…", 1)])
        #expect(fit("abc", 2) == [line("a…", 2)])
    }

    @Test("C7: middle mode keeps the beginning and the end")
    func middleEllipsis() {
        #expect(fit("/usr/local/lib/python3/bin/tool", 21, .middle) == [line("/usr/local/…/bin/tool", 21)])
        #expect(fit("abcdefghij", 5, .middle) == [line("ab…ij", 5)])
        #expect(fit("abcdefghij", 6, .middle) == [line("abc…ij", 6)])
        #expect(fit("中文abc中文", 7, .middle) == [line("中…中文", 7)])
        #expect(fit("a😀b😀c", 5, .middle) == [line("a…😀c", 5)])
        #expect(fit("a😀b😀c", 4, .middle) == [line("a…c", 3)])
    }

    @Test("C7: a wide character that would straddle the edge is dropped")
    func wideAtEdge() {
        #expect(fit("中文中文", 6) == [line("中文…", 5)])
        #expect(fit("a中文", 3) == [line("a…", 2)])
        #expect(fit("中文中文", 1) == [line("…", 1)])
    }

    @Test("C7, W1: a combining sequence is never split")
    func combiningAtEdge() {
        let cut = fit("ae\u{301}\u{302}bcd", 3)
        #expect(cut == [line("ae\u{301}\u{302}…", 3)])
        #expect(cut[0].text.unicodeScalars.count == 5)
        #expect(fit("xcafe\u{301}s", 5) == [line("xcaf…", 5)])
    }

    @Test("C7, W1: a flag is never split")
    func flagAtEdge() {
        #expect(fit("ab🇺🇸cd", 4) == [line("ab…", 3)])
        #expect(fit("a🇺🇸bcd", 4) == [line("a🇺🇸…", 4)])
        #expect(fit("🇺🇸🇫🇷🇯🇵", 5) == [line("🇺🇸🇫🇷…", 5)])
        #expect(fit("🇺🇸🇫🇷🇯🇵", 4) == [line("🇺🇸…", 3)])
    }

    @Test("C7, W1: an emoji ZWJ sequence or VS16 sequence is never split")
    func emojiSequenceAtEdge() {
        let family = "👨‍👩‍👧"
        #expect(fit("x\(family)yz", 3) == [line("x…", 2)])
        #expect(fit("x\(family)yz", 4) == [line("x\(family)…", 4)])
        #expect(fit("ab❤️cd", 4) == [line("ab…", 3)])
        #expect(fit("ab❤️cd", 5) == [line("ab❤️…", 5)])
        #expect(fit("👍🏽👍🏽👍🏽", 5) == [line("👍🏽👍🏽…", 5)])
    }

    @Test("O5, C7: an escape is atomic when text is cut")
    func escapesAreAtomic() {
        #expect(fit("ab\u{1B}[0m", 6) == [line("ab…", 3)])
        #expect(fit("ab\u{1B}[0m", 7) == [line("ab\\x1b…", 7)])
        #expect(fit("a\tb", 4) == [line("a\\tb", 4)])
        #expect(fit("a\tbc", 4) == [line("a\\t…", 4)])
        #expect(fit("a\u{9B}2J", 20) == [line("a\\x9b2J", 7)])
        #expect(fit("x\u{1B}yz", 8, .middle) == [line("x\\x1byz", 7)])
        #expect(fit("x\u{1B}yzw", 7, .middle) == [line("x…yzw", 5)])
    }

    @Test("C6: a line break on a one-line cell shows as ↵")
    func lineFeedOnOneLine() {
        #expect(fit("a\nb", 5) == [line("a\u{21B5}b", 3)])
        #expect(fit("a\r\nb", 5) == [line("a\u{21B5}b", 3)], "CR LF is one line break: one ↵")
        #expect(fit("a\rb", 5) == [line("a\\rb", 4)], "a lone CR shows as \\r")
        #expect(fit("first\nsecond", 7) == [line("first\u{21B5}…", 7)])
    }

    @Test("C7: with --ambiguous-wide the ellipsis takes two columns")
    func ambiguousWideEllipsis() {
        let wide = DisplayWidth(ambiguousIsWide: true)
        #expect(fit("abcdef", 4, .end, wide) == [line("ab…", 4)])
        #expect(fit("abcdef", 5, .middle, wide) == [line("ab…f", 5)])
        #expect(fit("abcdef", 1, .end, wide) == [line("a", 1)], "no room for the ellipsis")
    }

    @Test("C7: zero or negative width gives one empty line; empty text gives one empty line")
    func degenerate() {
        #expect(fit("hello", 0) == [line("", 0)])
        #expect(fit("hello", -3, lines: 2) == [line("", 0)])
        #expect(fit("", 10) == [line("", 0)])
        #expect(fit("", 10, lines: 2) == [line("", 0)])
        #expect(fit("hello", 3, lines: 0) == [line("he…", 3)], "maxLines below 1 means one line")
    }

    // MARK: - Two lines (C6)

    @Test("C6: wrapping breaks at spaces and drops the space at the break")
    func wrapAtSpaces() {
        #expect(fit("hello world foo", 11, lines: 2) == [line("hello world", 11), line("foo", 3)])
        #expect(fit("aaa bbb", 5, lines: 2) == [line("aaa", 3), line("bbb", 3)])
        #expect(fit("aaa   bbb", 5, lines: 2) == [line("aaa", 3), line("bbb", 3)])
        #expect(fit("名前 東京都", 6, lines: 2) == [line("名前", 4), line("東京都", 6)])
    }

    @Test("C6: a word longer than the width is broken at a cluster boundary")
    func longWord() {
        #expect(fit("abcdefgh", 4, lines: 2) == [line("abcd", 4), line("efgh", 4)])
        #expect(fit("ab abcdefgh", 4, lines: 2) == [line("ab", 2), line("abc…", 4)])
        #expect(fit("中文中文中", 5, lines: 2) == [line("中文", 4), line("中文…", 5)])
        #expect(fit("e\u{301}e\u{301}e\u{301}e\u{301}", 2, lines: 2)
                == [line("e\u{301}e\u{301}", 2), line("e\u{301}e\u{301}", 2)])
    }

    @Test("C6: an LF is a forced break point and is not shown")
    func lineFeedBreaks() {
        #expect(fit("one\ntwo", 10, lines: 2) == [line("one", 3), line("two", 3)])
        #expect(fit("one\r\ntwo", 10, lines: 2) == [line("one", 3), line("two", 3)])
        #expect(fit("a\n\nb", 10, lines: 3) == [line("a", 1), line("", 0), line("b", 1)])
        #expect(fit("a\nb\nc", 5, lines: 2) == [line("a", 1), line("b\u{21B5}c", 3)])
    }

    @Test("C6, C7: what does not fit on the last line is cut with the ellipsis")
    func lastLineCut() {
        #expect(fit("the quick brown fox jumps", 10, lines: 2)
                == [line("the quick", 9), line("brown fox…", 10)])
        #expect(fit("the quick brown fox jumps", 10, lines: 2, .middle)
                == [line("the quick", 9), line("brown…umps", 10)])
        #expect(fit("abcdefghij", 4, lines: 2) == [line("abcd", 4), line("efg…", 4)])
        #expect(fit("中文中文中文", 5, lines: 2) == [line("中文", 4), line("中文…", 5)])
    }

    @Test("C6, O5: wrapped lines keep escapes atomic")
    func wrapEscapes() {
        #expect(fit("ab\u{1B}cd ef", 5, lines: 2) == [line("ab", 2), line("\\x1b…", 5)])
        #expect(fit("a\tb c", 10, lines: 2) == [line("a\\tb c", 6)])
    }

    @Test("W8: without a line limit, wrapping cuts nothing")
    func unlimitedLines() {
        let text = "a list report wraps values onto as many lines as they need"
        let lines = fit(text, 12, lines: .max)
        #expect(lines.map(\.text) == ["a list", "report wraps", "values onto", "as many", "lines as", "they need"])
        #expect(lines.allSatisfy { $0.width <= 12 && !$0.text.contains("…") })
    }

    // MARK: - Longest word

    @Test("W4: the longest word sets a column's minimum")
    func longestWord() {
        #expect(measure.longestWordWidth("hello wonderful world") == 9)
        #expect(measure.longestWordWidth("中文 abc") == 4)
        #expect(measure.longestWordWidth("a\u{1B}b") == 6)
        #expect(measure.longestWordWidth("line1\nlonger") == 6)
        #expect(measure.longestWordWidth("") == 0)
        #expect(measure.longestWordWidth("   ") == 0)
        #expect(measure.longestWordWidth("👨‍👩‍👧 ok") == 2)
    }

    // MARK: - Property test

    @Test("C6, C7, O5: seeded random texts: exact widths, within the limit, cut only with the ellipsis")
    func randomTexts() {
        let alphabet = ["a", "b", "xyz", " ", "  ", "中", "文字", "é", "e\u{301}", "😀", "👨‍👩‍👧", "🇺🇸", "❤️",
                        "👍🏽", "\u{1B}", "\t", "\n", "\r\n", "\u{9B}", "क्ष", "ก่", "±", "\u{200B}", "a\u{200D}",
                        "#️⃣", "\u{0}", "Ω", "long-word-here", "/", "ｈ", "\u{93E}", "\u{94D}", "\u{903}"]
        var rng = SplitMix64(seed: 20_260_101)
        for round in 0..<3000 {
            var text = ""
            for _ in 0..<rng.below(14) { text += alphabet[rng.below(alphabet.count)] }
            let width = 1 + rng.below(14)
            let maxLines = 1 + rng.below(3)
            let mode: EllipsisMode = rng.below(2) == 0 ? .end : .middle
            let measure = DisplayWidth(ambiguousIsWide: rng.below(4) == 0)
            let lines = measure.fit(text, width: width, maxLines: maxLines, ellipsis: mode)
            let context = "round \(round): \(text.debugDescription) width \(width) lines \(maxLines) \(mode)"

            #expect(!lines.isEmpty && lines.count <= maxLines, "\(context)")
            for fitted in lines {
                #expect(fitted.width == measure.width(of: fitted.text), "\(context): \(fitted)")
                #expect(fitted.width <= width, "\(context): \(fitted)")
                #expect(!fitted.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                        "\(context): a control escaped into the output")
            }
            let visible = Sanitize.visible(text)
            let cut = lines.contains { $0.text.contains("…") }
            let ellipsisFits = measure.width(of: "…") <= width
            if maxLines == 1 {
                #expect(lines[0].text == visible || cut || !ellipsisFits, "\(context): \(lines)")
                if cut { checkCutPoints(text, lines[0].text, mode, context) }
            } else if !cut && ellipsisFits {
                // Nothing was lost: the words are all there, in order. (A line break is a break on
                // a wrapped line, and shows as ↵ on a last line that holds the rest; a ◌ stands
                // under a mark that starts a line, which depends on where lines start.)
                func scalars(_ shown: String) -> [Unicode.Scalar] {
                    shown.unicodeScalars.filter { $0 != " " && $0 != "\u{21B5}" && $0 != "\u{25CC}" }
                }
                let words = scalars(lines.map(\.text).joined())
                let expected = scalars(Sanitize.visible(String(text.map { $0 == "\n" || $0 == "\r\n" ? " " : $0 })))
                #expect(words == expected, "\(context): \(lines)")
            }
        }
    }

    /// A one-line cut keeps a prefix (and, in middle mode, a suffix) that ends on a cluster and
    /// escape boundary of the text.
    private func checkCutPoints(_ text: String, _ result: String, _ mode: EllipsisMode, _ context: String) {
        // A ◌ stands first when the whole text starts with a mark that needs it (a piece of the
        // text may not): compared without it.
        func unbased(_ shown: String) -> String {
            shown.unicodeScalars.first == "\u{25CC}" ? String(String.UnicodeScalarView(shown.unicodeScalars.dropFirst())) : shown
        }
        var heads: Set<String> = []
        var tails: Set<String> = []
        let characters = Array(text)
        for split in 0...characters.count {
            heads.insert(unbased(Sanitize.visible(String(characters[..<split]))))
            tails.insert(unbased(Sanitize.visible(String(characters[split...]))))
        }
        guard let mark = result.unicodeScalars.firstIndex(of: "…") else { return }
        let head = unbased(String(result.unicodeScalars[..<mark]))
        let tail = String(result.unicodeScalars[result.unicodeScalars.index(after: mark)...])
        #expect(heads.contains(head), "\(context): head \(head.debugDescription) splits a cluster or escape")
        if mode == .end {
            #expect(tail.isEmpty, "\(context)")
        } else {
            #expect(tails.contains(tail), "\(context): tail \(tail.debugDescription) splits a cluster or escape")
        }
    }
}

extension TextFitTests {
    @Test("C7: a middle cut of a path keeps whole segments")
    func middleCutAtSeparators() {
        let path = "/usr/local/lib/python3.11/site-packages/tool/bin/tool"
        #expect(DisplayWidth().fit(path, width: 21, maxLines: 1, ellipsis: .middle) == [TextLine(text: "/usr/local/…/bin/tool", width: 21)])
        // Non-ASCII text takes the same rule.
        let accented = "/usr/lócal/lib/python3.11/site-packages/tool/bin/tool"
        #expect(DisplayWidth().fit(accented, width: 21, maxLines: 1, ellipsis: .middle) == [TextLine(text: "/usr/lócal/…/bin/tool", width: 21)])
        // No separator near the cut: an ordinary middle cut.
        #expect(DisplayWidth().fit("abcdefghijklmnop", width: 7, maxLines: 1, ellipsis: .middle) == [TextLine(text: "abc…nop", width: 7)])
    }
}
