import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// O4 and W8: a list report's `- **Label:** value` line in Markdown. The label sits inside strong
/// emphasis, so what GFM would read there is escaped: a `*` that could open or close (the `**`
/// around the label are its partners), a `\` before the `:`, a code span or link reaching into
/// the value. And no more than that: `~~` takes one escape. (GitHub's own renderer judges every
/// label, title and value of generated punctuation names in scripts/check-markdown-gfm.py.)
@Suite("O4 Markdown list labels")
struct MarkdownLabelTests {
    /// The Markdown of `csv` as a list report (headings title-cased unless `keep`).
    func list(_ csv: String, keep: Bool = false) throws -> [String] {
        var options = FormatOptions()
        options.format = .markdown
        options.layout = .list
        options.titleHeadings = !keep
        let sink = MemorySink()
        _ = try TableFormatter.run(MemoryInput(csv), options: options, output: sink)
        return sink.text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("- **") }
    }

    @Test("O4: a label whose `*` could close the bold around it is escaped there (`code_*x*` keeps its label)")
    func starsInLabels() throws {
        #expect(try list("id,code_*x*\n1,007\n") == ["- **Code \\*x\\*:** 007"])
        #expect(try list("id,a*\n1,v\n", keep: true) == ["- **a\\*:** v"])
        #expect(try list("id,*a\n1,v\n", keep: true) == ["- **\\*a:** v"])
        // A `*` that can neither open nor close stays as written.
        #expect(try list("id,a * b\n1,v\n", keep: true) == ["- **a * b:** v"])
    }

    @Test("O4: a label's last `\\` would escape the `:` after it, and is doubled; its leading space would stop the bold")
    func labelEdges() throws {
        #expect(try list("id,a\\\n1,v\n", keep: true) == ["- **a\\\\:** v"])
        #expect(try list("id,\" a\"\n1,v\n", keep: true) == ["- **&#32;a:** v"])
    }

    @Test("O4: a code span or link that would run from the label into the value is escaped at its start")
    func constructsAcrossLabelAndValue() throws {
        #expect(try list("id,`b\n1,y`\n", keep: true) == ["- **\\`b:** y`"])
        #expect(try list("id,[b\n1,](c)\n", keep: true) == ["- **\\[b:** ](c)"])
        // Alone, neither is anything but text.
        #expect(try list("id,`b\n1,y\n", keep: true) == ["- **`b:** y"])
    }

    @Test("O4: `~~strike~~` takes one escape, in a label, a value and a table cell")
    func strikethroughOnce() throws {
        #expect(try list("id,~~s~~\n1,~~strike~~\n", keep: true) == ["- **\\~~s~~:** \\~~strike~~"])
        #expect(MarkdownRenderer.cell("~~strike~~") == "\\~~strike~~")
        // A lone `~` could pair with the one left over: then both are escaped.
        #expect(MarkdownRenderer.cell("~~a~~ ~b~") == "\\~\\~a~~ \\~b~")
    }
}
