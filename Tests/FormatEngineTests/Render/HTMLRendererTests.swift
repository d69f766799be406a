import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// O6: the HTML page and fragment. (The same read back with Python's own HTML parser on every
/// fixture and the hostile corpora is scripts/check-html-parse.py; in a real browser,
/// scripts/check-html-browser.py.)
@Suite("HTML output")
struct HTMLRendererTests {
    static func html(_ csv: String, fragment: Bool = false, _ configure: (inout FormatOptions) -> Void = { _ in }) throws -> String {
        var options = FormatOptions()
        options.format = .html
        options.htmlFragment = fragment
        options.moveUnits = false
        options.titleHeadings = false
        configure(&options)
        let sink = MemorySink()
        let result = try TableFormatter.run(MemoryInput(csv), options: options, output: sink)
        #expect(result.error == nil)
        return sink.text
    }

    /// O5's table, written here from the rule's words, not from `Sanitize`: what a text should
    /// read as in the browser (a line break as "\n").
    static func shown(_ text: String) -> String {
        var out = ""
        let scalars = Array(text.unicodeScalars)
        var k = 0
        while k < scalars.count {
            let v = scalars[k].value
            if v == 0x0D && k + 1 < scalars.count && scalars[k + 1].value == 0x0A {
                out += "\n"
                k += 2
                continue
            }
            switch v {
            case 0x0A: out += "\n"
            case 0x09: out += "\\t"
            case 0x0D: out += "\\r"
            case 0..<0x20, 0x7F..<0xA0: out += "\\x" + (v < 16 ? "0" : "") + String(v, radix: 16)
            case 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: out += "\\u" + String(v, radix: 16)
            default: out.unicodeScalars.append(scalars[k])
            }
            k += 1
        }
        return out
    }

    /// Undoes HTML's escapes as a browser would read them (the five references and `<br>`).
    static func decode(_ html: String) -> String {
        var out = ""
        var rest = Substring(html)
        let references = ["&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'", "<br>": "\n"]
        while let first = rest.first {
            if let (reference, text) = references.first(where: { rest.hasPrefix($0.key) }) {
                out += text
                rest = rest.dropFirst(reference.count)
            } else {
                out.append(first)
                rest = rest.dropFirst()
            }
        }
        return out
    }

    static let pieces = ["a", "b c", "<", ">", "&", "\"", "'", "&amp;", "&#39;", "<br>", "</td>", "<script>", "\"><img src=x onerror=alert(1)>",
                         "\n", "\r\n", "\r", "\t", "\u{1B}[2J", "\u{7F}", "\u{9B}", "\u{85}", "\u{202E}", "\u{2066}", "\u{FEFF}", "\u{200F}",
                         "é", "e\u{301}", "日本", "🙂", "°", "…", "€", "\u{0}", " "]

    @Test("O6: escaped text reads back as the input (O5's escapes, line breaks as <br>) and holds no markup of its own (seeded random texts)")
    func escapingRoundTrip() {
        var rng = SplitMix64(seed: 0x6874_6D6C)
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...6, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng) ?? "" }.joined()
            let escaped = HTMLText.escaped(text)
            #expect(Self.decode(escaped) == Self.shown(text), "\(text.debugDescription) → \(escaped.debugDescription)")
            let withoutBreaks = escaped.replacingOccurrences(of: "<br>", with: "")
            #expect(!withoutBreaks.contains("<") && !withoutBreaks.contains(">") && !escaped.contains("\"") && !escaped.contains("'"),
                    "markup left in \(escaped.debugDescription)")
            // Every & starts one of the five references.
            let ampersands = escaped.components(separatedBy: "&").dropFirst()
            #expect(ampersands.allSatisfy { p in ["amp;", "lt;", "gt;", "quot;", "#39;"].contains { p.hasPrefix($0) } }, "\(escaped.debugDescription)")
            // In an attribute (no line breaks): the same, with ↵ for a line break.
            let attribute = HTMLText.escaped(text, lineBreaks: false)
            #expect(Self.decode(attribute) == Self.shown(text).replacingOccurrences(of: "\n", with: "\u{21B5}"))
            // A cell written from its bytes is the same text.
            let sink = MemorySink()
            let out = OutputBuffer(sink)
            var bytes = Array(text.utf8)
            bytes.withUnsafeMutableBufferPointer { buffer in
                try? HTMLText.write(UnsafeBufferPointer(buffer), to: out)
            }
            try? out.flush()
            #expect(sink.text == escaped)
        }
    }

    /// A page cell's value as the script's "Copy as CSV" reads it, written here from O6's words:
    /// a `<span data-c="HEX">` is the character HEX (its escape inside dropped), `<br class="r">`
    /// CR LF, `<span class="lb">↵</span>` only the mark shown for the `<br>` after it (dropped);
    /// the rest as `decode` reads it.
    static func raw(_ html: String) -> String {
        var text = html
        while let start = text.range(of: "<span data-c=\""), let end = text.range(of: "</span>", range: start.upperBound..<text.endIndex) {
            let hex = text[start.upperBound...].prefix { $0 != "\"" }
            text.replaceSubrange(start.lowerBound..<end.upperBound, with: String(Unicode.Scalar(UInt32(hex, radix: 16)!)!))
        }
        text = text.replacingOccurrences(of: "<br class=\"r\">", with: "\r\n")
            .replacingOccurrences(of: "<span class=\"lb\">\u{21B5}</span>", with: "")
        return decode(text)
    }

    @Test("O6: on a page a cell's marks give back its raw value (controls, CR LF) and one-line cells mark their line breaks; the text shown is O5's (seeded random texts)")
    func pageMarksRoundTrip() {
        var rng = SplitMix64(seed: 0x7061_6765)
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...6, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng) ?? "" }.joined()
            for oneLine in [false, true] {
                let escaped = HTMLText.escaped(text, marks: .page(oneLine: oneLine))
                #expect(Self.raw(escaped).unicodeScalars.elementsEqual(text.unicodeScalars), "\(text.debugDescription) → \(escaped.debugDescription)")
                let breaks = text.replacingOccurrences(of: "\r\n", with: "\n").filter { $0 == "\n" || $0 == "\r\n" }.count
                #expect(escaped.components(separatedBy: "<span class=\"lb\">\u{21B5}</span><br").count - 1 == (oneLine ? breaks : 0))
                // As the sheet and print show it: the `↵` mark hidden, the `<br>` a line break.
                let shown = escaped.replacingOccurrences(of: "<br class=\"r\">", with: "<br>")
                    .replacingOccurrences(of: "<span class=\"lb\">\u{21B5}</span>", with: "").replacingOccurrences(of: "</span>", with: "")
                    .replacingOccurrences(of: #"<span data-c="[0-9a-f]+">"#, with: "", options: .regularExpression)
                #expect(Self.decode(shown) == Self.shown(text))
            }
        }
    }

    @Test("O6: SHA-256 and base64 match the standards' test vectors (the page's policy names its style and script by them)")
    func hashVectors() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA256.digest([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(SHA256.digest(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(SHA256.digest([UInt8](repeating: 0x61, count: 1_000_000))) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        for (text, encoded) in [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")] {
            #expect(SHA256.base64(Array(text.utf8)) == encoded)
        }
    }

    /// The tags in markup, each with its attributes' names, in order.
    static func tags(_ html: String) -> [(name: String, attributes: [String])] {
        var found: [(String, [String])] = []
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            guard let close = rest.firstIndex(of: ">") else { break }
            let inside = rest[..<close]
            rest = rest[rest.index(after: close)...]
            if inside.hasPrefix("/") || inside.hasPrefix("!") { continue }
            let words = inside.split(separator: " ")
            let name = String(words.first ?? "")
            // Attribute names: what comes before each `=`, quoted values skipped.
            var names: [String] = []
            var text = inside.dropFirst(name.count)
            while let eq = text.firstIndex(of: "=") {
                names.append(text[..<eq].trimmingCharacters(in: .whitespaces))
                text = text[text.index(after: eq)...]
                if text.first == "\"", let end = text.dropFirst().firstIndex(of: "\"") { text = text[text.index(after: end)...] }
            }
            names += text.split(separator: " ").map(String.init).filter { !$0.isEmpty }
            found.append((name, names))
        }
        return found
    }

    static let hostileCSV = csvText([
        ["name\"><script>alert(1)</script>", "n' onmouseover='x", "</style><b>"],
        ["</td></tr></table><img src=x onerror=alert(2)>", "1", "<!--"],
        ["\"quoted\" & 'single'", "22", "\u{1B}]0;title\u{07}\u{202E}"],
        ["", "3", "line\nbreak"],
    ])

    @Test("O6: the fragment holds only table, thead, tbody, tr, th, td, details and summary, with align, colspan and open, whatever the input")
    func fragmentMarkup() throws {
        for configure: (inout FormatOptions) -> Void in [{ _ in }, { $0.title = "<script>x</script>" }, { $0.groupBy = ColumnReference("3") },
                                                           { $0.layout = .list }, { $0.layout = .pages; $0.width = 30 }, { $0.limit = 1 }] {
            let out = try Self.html(Self.hostileCSV, fragment: true, configure)
            let allowed: Set<String> = ["table", "thead", "tbody", "tr", "th", "td", "details", "summary", "br"]
            for tag in Self.tags(out) {
                #expect(allowed.contains(tag.name), "tag \(tag.name) in\n\(out)")
                #expect(tag.attributes.allSatisfy { ["align", "colspan", "open"].contains($0) }, "\(tag) in\n\(out)")
            }
            #expect(!out.contains("\n\n"), "a blank line would end the HTML block in Markdown:\n\(out)")
        }
    }

    @Test("O6: the page has one style and one script, the ones its Content-Security-Policy names by their SHA-256, and no other tag than its own")
    func pagePolicy() throws {
        for configure: (inout FormatOptions) -> Void in [{ _ in }, { $0.title = "</title><script>x</script>" }, { $0.groupBy = ColumnReference("3") },
                                                           { $0.layout = .list }, { $0.layout = .pages; $0.width = 30 }, { $0.zebra = true; $0.cellLines = 2 }] {
            let out = try Self.html(Self.hostileCSV, configure)
            let names = Self.tags(out).map(\.name)
            #expect(names.filter { $0 == "script" }.count == 1 && names.filter { $0 == "style" }.count == 1)
            #expect(!names.contains("img") && !names.contains("b"))
            for kind in ["style", "script"] {
                let body = out.components(separatedBy: "<\(kind)>")[1].components(separatedBy: "</\(kind)>")[0]
                #expect(out.contains("\(kind)-src 'sha256-\(SHA256.base64(SHA256.digest(Array(body.utf8))))'"), "\(kind) hash")
            }
            #expect(out.contains("default-src 'none'") && !out.contains("unsafe-inline"))
            #expect(out.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">") && out.hasSuffix("</body>\n</html>\n"))
        }
    }

    /// The page's first table's data rows, a line each (`<tr>` … `</tr>`), from all its `<tbody>`
    /// elements (a group's rows are in several, `HTMLRenderer.rowsPerBody` each).
    static func bodyRows(_ html: String) -> [String] {
        guard let body = html.components(separatedBy: "</thead>\n").dropFirst().first?.components(separatedBy: "</table>").first else { return [] }
        return body.components(separatedBy: "\n").filter { $0.hasPrefix("<tr><td") }
    }

    /// The text of each `<td>` of the page's table body rows (end tags left out: a cell ends at
    /// the next `<td>` or `</tr>`), decoded.
    static func bodyCells(_ html: String) -> [[String]] {
        bodyRows(html).map { line in
            line.dropFirst(4).replacingOccurrences(of: "</tr>", with: "").components(separatedBy: "<td").dropFirst().map { cell in
                Self.decode(String(cell.drop { $0 != ">" }.dropFirst()))
            }
        }
    }

    /// The text content of each `<td>` in a page, as a browser's DOM has it (`textContent`: its
    /// text nodes joined, a `<br>` giving nothing), read with a small tokenizer of the markup a
    /// page holds: tags (quoted attribute values may hold `>`), the raw text of `<style>` and
    /// `<script>` skipped, and character references decoded. A cell ends at the next cell, a
    /// row's or a section's tag (a page leaves out a cell's end tag, as HTML allows).
    static func cellTexts(_ html: String) -> [String] {
        let references = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "#39": "'"]
        var cells: [String] = []
        var cell: String?
        var rest = Substring(html)
        while let first = rest.first {
            if first == "&", let semicolon = rest.firstIndex(of: ";"), let text = references[String(rest[rest.index(after: rest.startIndex)..<semicolon])] {
                cell? += text
                rest = rest[rest.index(after: semicolon)...]
                continue
            }
            guard first == "<" else {
                cell?.append(first)
                rest = rest.dropFirst()
                continue
            }
            var end = rest.index(after: rest.startIndex)
            var quote: Character?
            while end < rest.endIndex, rest[end] != ">" || quote != nil {
                if rest[end] == "\"" || rest[end] == "'" { quote = quote == nil ? rest[end] : (quote == rest[end] ? nil : quote) }
                end = rest.index(after: end)
            }
            let tag = rest[rest.index(after: rest.startIndex)..<min(end, rest.endIndex)]
            rest = end < rest.endIndex ? rest[rest.index(after: end)...] : ""
            let name = tag.prefix { $0 != " " && $0 != ">" }.lowercased()
            if name == "style" || name == "script", let close = rest.range(of: "</\(name)>") {
                rest = rest[close.upperBound...]
            } else if ["td", "th", "tr", "/td", "/th", "/tr", "tbody", "/tbody", "/table"].contains(name) {
                if let done = cell { cells.append(done) }
                cell = name == "td" ? "" : nil
            }
        }
        return cells
    }

    @Test("O6: a line break in a one-line cell leaves a character between its lines in the cell's text content (what copy, find in page and screen readers read), LF and CR LF")
    func lineBreakInTextContent() throws {
        for lineBreak in ["\n", "\r\n"] {
            let page = try Self.html("a,b\n\"two\(lineBreak)lines\",x\n")
            let cells = Self.cellTexts(page)
            #expect(cells.count == 2 && cells.last == "x", "\(cells)")
            let cell = try #require(cells.first)
            let between = cell.dropFirst(3).dropLast(5)
            #expect(cell.hasPrefix("two") && cell.hasSuffix("lines") && !between.isEmpty && !between.contains { $0.isLetter },
                    "\(cell.debugDescription) in \(page.components(separatedBy: "<tbody>").last ?? "")")
        }
    }

    @Test("O6: the batch options shape the page as the printed table: columns, sort, limit, null, title, zebra")
    func optionsShapeThePage() throws {
        let csv = "name,qty,note\nb,10,x\na,9,\nc,100,z\nd,2,w\n"
        let sorted = try Self.html(csv) { $0.sort = [SortKey("-qty")]; $0.limit = 3; $0.nullText = "n/a"; $0.title = "T & t"; $0.zebra = true
            $0.columns = ColumnSelection(["name", "qty", "note"]) }
        #expect(Self.bodyCells(sorted) == [["c", "100", "z"], ["b", "10", "x"], ["a", "9", "n/a"]])
        #expect(sorted.contains("<caption>T &amp; t</caption>") && sorted.contains("<title>T &amp; t</title>"))
        #expect(sorted.contains("<p class=\"note\">… 1 more row</p>"))
        #expect(sorted.contains("<table class=\"d t0 b z\">"))
        #expect(sorted.contains("<td class=\"n\">n/a"))
        #expect(sorted.contains("<th scope=\"col\" class=\"r\" title=\"qty\"><span>qty</span></th>"))
        let narrowed = try Self.html(csv) { $0.columns = ColumnSelection(["note", "name"]) }
        #expect(Self.bodyCells(narrowed).first == ["x", "b"])
    }

    @Test("O6, W11: a number cell whose text is not plain carries its value as --sort reads it (data-v), a placeholder an empty data-v; the fragment none (seeded random values)")
    func sortKeys() throws {
        var random = SplitMix64(seed: 11)
        var csv = "plain,money,comma,unit,percent,exponent\n"
        var values: [[Double]] = []
        for _ in 0..<200 {
            let cents = Int(random.next() % 2_000_001) - 1_000_000, milli = Double(cents) / 1000
            let hundredths = String(format: "%.2f", Double(cents) / 100), sign = cents < 0 ? "-" : ""
            let magnitude = String(format: "%.3f", abs(milli))
            csv += String(format: "%.3f", milli) + ",\(sign)$\(magnitude),\"\(hundredths.replacingOccurrences(of: ".", with: ","))\","
                + "\(magnitude) kg,\(hundredths)%,\(cents)e-3\n"
            values.append([milli, Double(sign + magnitude)!, Double(hundredths)!, abs(milli), Double(hundredths)!, milli])
        }
        csv += "NA,-,N/A,null,NULL,-\n"
        let page = try Self.html(csv)
        let rows = Self.bodyRows(page).map { $0.replacingOccurrences(of: "</tr>", with: "") }
        #expect(rows.count == 201)
        for (row, want) in zip(rows, values) {
            let cells = row.dropFirst(4).components(separatedBy: "<td").dropFirst()
            for (k, (cell, value)) in zip(cells, want).enumerated() {
                let tag = cell.prefix { $0 != ">" }, shown = String(cell.drop { $0 != ">" }.dropFirst())
                let key = tag.range(of: " data-v=\"").map { tag[$0.upperBound...].prefix { $0 != "\"" } }
                #expect(Double(key.map(String.init) ?? shown) == value, "column \(k): \(cell)")
                #expect((key == nil) == (k == 0), "only a plain number needs no key: \(cell)")
            }
        }
        #expect(page.contains("class=\"r\" title=\"exponent\""), "the columns stay numeric with a placeholder")
        #expect(rows[200] == "<tr>" + ["NA", "-", "N/A", "null", "NULL", "-"].map { "<td data-v>" + $0 }.joined())
        #expect(!(try Self.html(csv, fragment: true)).contains("data-"))
    }

    @Test("O6/W3: a text column's widest on the page is --max-width's (cells or a share of the page), half the page without it; numbers are never capped")
    func pageHonoursMaxWidth() throws {
        let csv = "name,note,n\nabc,\(String(repeating: "long words here ", count: 20)),12\n"
        for (bound, cap) in [(nil, ",50cqw)"), ("30%", ",30cqw)"), ("20", ",calc(20 * 1.08ch + 1.3em + 4px))")] as [(String?, String)] {
            let page = try Self.html(csv) { if let bound { $0.maxWidth = WidthBound(bound) } }
            let style = page.components(separatedBy: "<style")[1].components(separatedBy: "</style>")[0]
            // The note column (the second) is capped by the bound; the number column is not.
            let note = style.components(separatedBy: "--w1:")[1].components(separatedBy: ";")[0]
            let number = style.components(separatedBy: "--w2:")[1].components(separatedBy: ";")[0]
            #expect(note.hasSuffix(cap), "\(bound ?? "none"): \(note)")
            #expect(!number.contains("cqw") && !number.hasPrefix("min("), "\(number)")
        }
    }

    @Test("O6: --group-by is a tbody per group: its heading row, its rows, its total row")
    func groups() throws {
        let out = try Self.html("region,qty\nEast,1\nWest,2\nEast,3\n") { $0.groupBy = ColumnReference("region") }
        let bodies = out.components(separatedBy: "<tbody>\n").dropFirst()
        #expect(bodies.count == 2)
        #expect(bodies.first?.hasPrefix("<tr class=\"g\"><th colspan=\"2\" scope=\"rowgroup\">region: East (2 rows)</th></tr>") == true)
        #expect(bodies.first?.contains("<tr class=\"t\"><td class=\"l\">Total</td><td>4</td></tr>") == true, "the label's cell marked, for print")
        #expect(out.components(separatedBy: "<tr><td>").count - 1 == 3)
    }

    @Test("O6: C3 and C2 on a page: a unit moved to the heading leaves the cells, a shorter fraction is padded to line up its point")
    func unitsAndPoints() throws {
        var options = FormatOptions()
        options.format = .html
        let sink = MemorySink()
        _ = try TableFormatter.run(MemoryInput("item,weight,price\na,5 kg,1.5\nb,12 kg,10.25\n"), options: options, output: sink)
        #expect(sink.text.contains("title=\"Weight (kg)\""))
        #expect(Self.bodyCells(sink.text) == [["a", "5", "1.5"], ["b", "12", "10.25"]])
        #expect(sink.text.contains("<td class=\"f1\">1.5"), "one digit short of the column's two")
        #expect(sink.text.contains(".f1::after{content:\".\"}"))
    }

    @Test("O6: a file drawn in pieces on two threads writes the same page as one drawn whole")
    func piecesAsWhole() throws {
        var rows = [["id", "text", "amount"]]
        for k in 0..<6000 { rows.append([String(k), k % 7 == 0 ? "<tag> & \"q\"" : "plain \(k)", String(Double(k) / 4)]) }
        let url = try ReliabilityKit.temporaryFile("pieces.csv", Array(csvText(rows).utf8))
        func run(_ pieceBytes: Int?) throws -> (text: String, pieces: Int) {
            var options = FormatOptions()
            options.format = .html
            options.pipeline.pieceBytes = pieceBytes
            options.pipeline.helpPattern = [true, false]
            options.pipeline.batchSize = 64
            let sink = MemorySink()
            let result = try TableFormatter.run(try FileInput(path: url.path), options: options, output: sink)
            return (sink.text, result.pieces)
        }
        let whole = try run(nil)
        let pieced = try run(4096)
        #expect(pieced.pieces > 1)
        #expect(pieced.text == whole.text)
        #expect(Self.bodyCells(whole.text).count == 6000)
    }

    @Test("O6 through the binary: -f html writes a page, --fragment only the table; --fragment without -f html exits 64 saying so")
    func commandLine() throws {
        let page = try runTool(["-f", "html", "--title", "T"], stdin: Data("a,b\n1,x\n".utf8))
        #expect(page.status == 0 && page.out.hasPrefix("<!DOCTYPE html>") && page.out.contains("<caption>T</caption>"))
        let fragment = try runTool(["-f", "html", "--fragment"], stdin: Data("a,b\n1,x\n".utf8))
        #expect(fragment.status == 0 && fragment.out.hasPrefix("<table>\n") && fragment.out.contains("<td align=\"right\">1</td><td>x</td>"))
        // No input piped: the tool stops before reading, and a write to its closed pipe would
        // end this test process with SIGPIPE.
        let alone = try runTool(["--fragment"])
        #expect(alone.status == 64)
        #expect(alone.err.hasPrefix("tablefmt: --fragment: only with -f html"))
        #expect(alone.out.isEmpty)
    }

    @Test("O6: a page is one document, so -f html with several files exits 64 (nothing written); --fragment writes a table per file, no blank line between")
    func severalFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let a = dir.appendingPathComponent("a.csv"), b = dir.appendingPathComponent("b.csv")
        try Data("x\n1\n".utf8).write(to: a)
        try Data("y\n2\n".utf8).write(to: b)
        let page = try runTool(["-f", "html", a.path, b.path])
        #expect(page.status == 64 && page.out.isEmpty)
        #expect(page.err.hasPrefix("tablefmt: -f html writes one page, for one input"))
        let fragments = try runTool(["-f", "html", "--fragment", a.path, b.path])
        #expect(fragments.status == 0)
        #expect(fragments.out.components(separatedBy: "<table>").count - 1 == 2)
        #expect(fragments.out.contains("<summary>\(a.path)</summary>") && fragments.out.contains("<summary>\(b.path)</summary>"))
        #expect(!fragments.out.contains("\n\n"), "no blank line: one HTML block in Markdown")
    }
}
