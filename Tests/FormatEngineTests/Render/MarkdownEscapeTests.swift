import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// O4: the Markdown escapes from the report, each with the input that showed it. (The full check,
/// with GitHub's renderer on every fixture and a hostile corpus, is scripts/check-markdown-gfm.py.)
@Suite("O4 Markdown escapes")
struct MarkdownEscapeTests {
    func md(_ text: String) -> String { MarkdownRenderer.cell(text) }

    @Test("O4: a CR LF inside a cell is one <br>, a LF too; a lone CR is \\r as in plain text")
    func lineBreaks() {
        #expect(md("x\r\ny") == "x<br>y")
        #expect(md("x\ny") == "x<br>y")
        #expect(md("x\ry") == "x\\ry")
        #expect(md("x\r\n\r\ny") == "x<br><br>y")
    }

    @Test("O4: URLs come out byte for byte; intraword _ and & that starts no entity are not escaped")
    func urls() {
        #expect(md("https://x.org/a_b?q=1&r=2") == "https://x.org/a_b?q=1&r=2")
        #expect(md("see www.example.com/x_y*z now") == "see www.example.com/x_y*z now")
        #expect(md("snake_case and AT&T") == "snake_case and AT&T")
        #expect(md("a|b") == "a\\|b")
        #expect(md("https://a.b/x|y") == "https://a.b/x\\|y")
    }

    @Test("O4: emphasis, code, links, HTML and entities escaped only where GFM would read them")
    func constructs() {
        #expect(md("*bold*") == "\\*bold*")
        #expect(md("a * b") == "a * b")
        #expect(md("a*b*c") == "a\\*b*c")
        #expect(md("__init__") == "\\_\\_init__")
        #expect(md("x_y_z") == "x_y_z")
        #expect(md("`x`") == "\\`x`")
        #expect(md("a`b") == "a`b")
        #expect(md("[a](b)") == "\\[a](b)")
        #expect(md("[a]") == "[a]")
        #expect(md("<b>") == "\\<b>")
        #expect(md("a < b") == "a < b")
        #expect(md("&amp; &#35; &copy") == "\\&amp; \\&#35; &copy")
        #expect(md("C:\\Users\\x") == "C:\\Users\\x")
        #expect(md("a\\*b") == "a\\\\*b")
        #expect(md(" padded ") == "&#32;padded&#32;")
        #expect(md("\u{1B}[2J") == "\\x1b[2J")
    }

    @Test("O4: a line of its own and a heading do not start or end a block marker")
    func lineStarts() {
        #expect(MarkdownRenderer.paragraph("# x") == "\\# x")
        #expect(MarkdownRenderer.paragraph("- x") == "\\- x")
        #expect(MarkdownRenderer.paragraph("-x") == "-x")
        #expect(MarkdownRenderer.paragraph("1. x") == "1\\. x")
        #expect(MarkdownRenderer.paragraph("2 more columns: a, b") == "2 more columns: a, b")
        #expect(MarkdownRenderer.heading("Issue #") == "Issue \\#")
        #expect(MarkdownRenderer.heading("C#") == "C#")
    }
}
