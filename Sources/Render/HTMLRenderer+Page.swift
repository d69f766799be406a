import Input
import Layout
import Options
import Profile
import Support
import Text
import Transform
/// The page around the tables (O6): its head with the Content-Security-Policy, the style (the
/// rules of the data table in CSS), and its end with the script.
extension HTMLRenderer {
    /// `<!DOCTYPE html>` to `<body>`: the policy allows the inline style and script by their
    /// SHA-256 and nothing else (no other script, style, image, font, frame, form or connection).
    package func writeHead() throws(OutputError) {
        let style = Self.style(plan)
        try out.write("""
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-\(SHA256.base64Digest(style))'; script-src 'sha256-\(Self.scriptHash)'; base-uri 'none'; form-action 'none'">
            <meta name="generator" content="tablefmt">
            <title>\(HTMLText.escaped(title ?? "Table", lineBreaks: false))</title>
            <style>\(style)</style>
            </head>
            <body>

            """)
    }

    /// The script and the end of the page.
    package func writeTail() throws(OutputError) {
        try out.write("<script>" + Self.script + "</script>\n</body>\n</html>\n")
    }

    /// The script's hash, made once.
    package static let scriptHash = SHA256.base64Digest(script)

    /// The page's style: the rules every page has, then each table's columns (`tableRules`) and
    /// the classes that pad a number's shorter fraction (`f1` …).
    ///
    /// The columns' widths (`--w0` …) are registered as lengths, so each is worked out once, on
    /// its table, in the table's font: left as text, a bold heading or total cell would count its
    /// `ch` in bold and be wider than the cells under it.
    package static func style(_ plan: LayoutPlan) -> String {
        var css = baseStyle
        let tables = plan.mode == .pages ? plan.bands : plan.mode == .table ? [plan.columns] : []
        let widths = tables.map(\.count).filter { $0 <= widestStyled }.max() ?? 0
        for k in 0..<widths {
            css += "@property --w\(k){syntax:\"<length>\";inherits:true;initial-value:0px}"
        }
        var pads = 0
        for (t, columns) in tables.enumerated() {
            css += tableRules(columns, index: t, maxWidth: plan.maxWidth)
            for column in columns where column.numberParts != nil { pads = max(pads, column.numberParts?.fraction ?? 0) }
        }
        for n in stride(from: 1, through: min(pads, widestPad), by: 1) {
            css += ".f\(n)::after{content:\".\(String(repeating: "0", count: n - 1))\"}"
        }
        return css
    }

    /// The most columns a table gets a rule each for; a wider one is laid out by the browser.
    package static let widestStyled = 1000

    /// One table's rules: each column's width (its natural width, a text column at most 50% of
    /// the container, W3, and the first column at most 25% once scrolled right) for its `<col>`
    /// and, on screen, where rows are blocks, for its cells; right alignment with tabular figures
    /// for numbers (C2), and each column's label for the printed list report (a total row's
    /// first cell too: there it is not the block's title).
    /// - Parameter maxWidth: W3's bound on a text column, as the layout has it (`--max-width`):
    ///   in cells, or a share of the page's width (half when nil).
    package static func tableRules(_ columns: [ColumnLayout], index t: Int, maxWidth: WidthBound? = nil) -> String {
        guard columns.count <= widestStyled else { return ".t\(t){table-layout:auto}" }
        var css = ""
        var cells = ""
        var variables = ""
        var sum = "var(--k)"
        let measure = DisplayWidth(ambiguousIsWide: false)
        let cap = switch maxWidth {
        case .cells(let n)?: "calc(\(n) * 1.08ch + 1.3em + 4px)"
        case .percent(let p)?: "\(p)cqw"
        case nil: "50cqw"
        }
        for (k, column) in columns.enumerated() {
            // Its cells' widths, and its heading's longest word (bold, hence the larger factor),
            // with room to spare: a cell that fits exactly is cut by a rounding.
            let word = column.heading.split(separator: " ").map { measure.width(of: String($0)) }.max() ?? 0
            let natural = "calc(max(\(column.width) * 1.08ch, \(word) * 1.2ch) + 1.3em + 4px)"
            let width = column.alignment == .right ? natural : "min(\(natural),\(cap))"
            variables += "--w\(k):\(width);"
            sum += " + var(--w\(k))"
            let nth = ":nth-child(\(k + 1) of :not(.k))"
            css += ".t\(t)>colgroup>col\(nth){width:var(--w\(k))}"
            cells += ".t\(t) tr>\(nth){width:var(--w\(k))}"
            if column.alignment == .right {
                css += ".t\(t) tr>\(nth){text-align:right;font-variant-numeric:tabular-nums}"
            }
            let cell = k > 0 ? "td" : "tr.t>td"
            css += "@media print{.t\(t):not(.pg) \(cell)\(nth)::before{content:\"\(HTMLText.cssString(column.heading))\"}}"
        }
        if let first = columns.first, first.alignment == .left {
            css += ".right>.t\(t){--w0:min(calc(\(first.width) * 1.08ch + 1.3em + 4px),25cqw)}"
        }
        return ".t\(t){\(variables)width:calc(\(sum))}" + css + "@media not print{\(cells)}"
    }

    /// The rules every page has: colours (light and dark, from the reader's setting), the table
    /// (sticky header with its shadow once rows slide under it, sticky first column, one-line
    /// cells cut with `…` or, under `--wrap 2`, held to two lines, two-line headings, zebra rows),
    /// notes, the list report, the row's sheet, and print, where the table becomes the list report
    /// (pages stay tables; a total row is a block titled with its label, its sums each after
    /// their column's label).
    ///
    /// On screen a table whose columns' widths the style holds (`b`) is laid out as blocks, not
    /// as a table: the header a sticky block, each `<tbody>` a block whose rows (a flex row of
    /// cells of their column's width) the browser lays out only near the screen
    /// (`content-visibility: auto`, which a table's row group does not take), counting it
    /// `rowsPerBody` rows tall until then. Browsers keep the table's roles for its readers.
    static let baseStyle = """
        :root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--head:#f6f8fa;--stripe:#f3f5f8;--hover:#e8f0fe;--shadow:rgba(31,35,40,.3);--k:0px}\
        @media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--head:#161b22;--stripe:#131920;--hover:#1c2a3f;--shadow:rgba(0,0,0,.7)}}\
        .sel{--k:2.2em}\
        *{box-sizing:border-box}\
        body{margin:0;padding:.75rem;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}\
        h1{font-size:1.25rem;margin:0 0 .5rem}\
        .scroll{overflow:auto;max-height:calc(100vh - 5rem);container-type:inline-size;border:1px solid var(--line);border-radius:6px;margin:0 0 .5rem}\
        .d{border-collapse:separate;border-spacing:0;table-layout:fixed}\
        @media not print{\
        .b,.b>caption{display:block}\
        .b>colgroup{display:none}\
        .b>thead{display:block;position:sticky;top:0;z-index:2}\
        .b>tbody{display:block;content-visibility:auto;contain-intrinsic-height:auto calc(\(rowsPerBody) * (1.45em + .6rem + 1px))}\
        .b.w2>tbody{contain-intrinsic-height:auto calc(\(rowsPerBody) * (2.9em + .6rem + 1px))}\
        .b tr{display:flex}\
        .b tr>*{flex:none}\
        .b thead th:not(.k){display:flex;flex-direction:column;justify-content:flex-end}\
        .b tr.g>th{flex:auto;width:auto!important}\
        }\
        caption{text-align:left;font-weight:600;font-size:1.1rem;padding:.4rem .6rem}\
        .d th,.d td{padding:.3rem .65rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top;background:var(--bg)}\
        .d td{white-space:pre;overflow:hidden;text-overflow:ellipsis}\
        .lb{display:none}@media not print{.d td .lb{display:inline;color:var(--muted)}.d td .lb+br{display:none}}\
        .w2 td>span{display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;overflow:hidden;white-space:pre-wrap;overflow-wrap:anywhere}\
        .d thead th{position:sticky;top:0;z-index:2;background:var(--head);vertical-align:bottom;font-weight:600}\
        .d thead th span{display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;overflow:hidden;overflow-wrap:break-word}\
        .down>.d thead th{box-shadow:0 4px 6px -3px var(--shadow)}\
        .d tr>:nth-child(1 of :not(.k)){position:sticky;left:var(--k);z-index:1}\
        .d thead tr>:nth-child(1 of :not(.k)){z-index:3}\
        .d tr.g>th{position:static;text-align:left!important;font-weight:600;background:var(--head)}\
        .right>.d tr>:nth-child(1 of :not(.k)){box-shadow:4px 0 6px -3px var(--shadow)}\
        .right>.d tr.g>th{box-shadow:none}\
        .d .k{position:sticky;left:0;z-index:1;width:var(--k);padding:.3rem 0;text-align:center}\
        .d thead .k{z-index:3}\
        .z>tbody>tr:nth-child(even of :not(.g,.t))>*{background:var(--stripe)}\
        .js .d>tbody>tr:not(.g,.t){cursor:pointer}\
        .d>tbody>tr:not(.g,.t):hover>*,.d>tbody>tr:focus-within>*{background:var(--hover)}\
        .d>tbody>tr:focus-visible{outline:2px solid #0969da;outline-offset:-2px}\
        .d td.n{color:var(--muted)}\
        .d tr.t>td{font-weight:600;border-top:2px solid var(--line)}\
        [class^=f]::after{visibility:hidden}\
        .js .d thead th:not(.k){cursor:pointer}\
        th[aria-sort=ascending] span::after{content:" \\25B2"}\
        th[aria-sort=descending] span::after{content:" \\25BC"}\
        .note{color:var(--muted);margin:.25rem 0}\
        .row{border-bottom:1px solid var(--line);padding:.5rem 0;break-inside:avoid}\
        .row h2{font-size:1rem;margin:0 0 .25rem}\
        dl{margin:0;display:grid;grid-template-columns:minmax(6em,max-content) 1fr;gap:.15rem 1rem}\
        dl>div{display:contents}\
        dt{color:var(--muted)}\
        dd{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}\
        .bar{display:flex;gap:.75rem;align-items:center;margin:0 0 .5rem}\
        .sheet{max-width:min(44rem,94vw);max-height:90vh;border:1px solid var(--line);border-radius:8px;background:var(--bg);color:var(--fg);padding:1rem 1.25rem}\
        .sheet::backdrop{background:rgba(0,0,0,.45)}\
        .sheet h2{font-size:1.1rem;margin:0 0 .75rem}\
        .sheet ul{margin:0;padding-left:1.25em;list-style:none}\
        .sheet button{margin-top:1rem}\
        @media print{\
        body{padding:0;color:#000;background:#fff}\
        .scroll{overflow:visible;max-height:none;border:0;container-type:normal}\
        .bar,.sheet,.k{display:none!important}\
        .d:not(.pg),.d:not(.pg)>tbody,.d:not(.pg) tr,.d:not(.pg)>tbody>tr>*,.d:not(.pg)>caption{display:block;width:auto!important}\
        .d:not(.pg)>thead,.d:not(.pg)>colgroup{display:none}\
        .d:not(.pg) tr{break-inside:avoid;padding:.4rem 0;border-bottom:1px solid #999}\
        .d:not(.pg)>tbody>tr>*{position:static;white-space:pre-wrap;overflow:visible;border:0;padding:0;text-align:left!important;background:none!important;box-shadow:none!important}\
        .d:not(.pg) td:nth-child(1 of :not(.k)){font-weight:600}\
        .d:not(.pg) td>span{display:inline;-webkit-line-clamp:none}\
        .d:not(.pg) td>span.lb{display:none}\
        .d:not(.pg) td::before{display:inline-block;min-width:12em;padding-right:1em;color:#555;font-weight:400}\
        .d:not(.pg) td::after{content:none!important}\
        .d:not(.pg) tr.t{display:flex;flex-direction:column}\
        .d:not(.pg) tr.t>td:not(.l){font-weight:400}\
        .d:not(.pg) tr.t>td:empty{display:none}\
        .d:not(.pg) tr.t>.l{order:-1;font-weight:600}\
        .d:not(.pg) tr.t>.l::before{content:none!important}\
        .d:not(.pg) tr.t:not(:has(>.l))::before{content:"\(HTMLText.cssString(Layout.totalLabel))";font-weight:600}\
        .pg{table-layout:auto;width:auto!important}\
        .pg th,.pg td{position:static;white-space:pre-wrap;box-shadow:none!important}\
        .pg>thead{display:table-header-group}\
        }
        """
}
