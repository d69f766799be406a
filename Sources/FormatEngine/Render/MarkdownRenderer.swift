/// Draws a plan as GitHub-flavoured Markdown (O4): a heading row, an alignment row (`---:` for
/// numbers, `:---` for text), one row per record. Cells hold their text exactly: `|` and other
/// Markdown punctuation are backslash-escaped, line breaks become `<br>`, spaces at a cell's edges
/// become `&#32;` (GFM would trim them), control characters are shown escaped (O5). Nothing is cut
/// unless `--width` was given. `--title` is a `###` heading; notes are a paragraph under the table;
/// a list report is a `####` heading per row with `- **Label:** value` lines; each group is a
/// `####` heading with its own table and a bold footer row.
public final class MarkdownRenderer: Renderer {
    let plan: LayoutPlan
    let out: OutputBuffer
    let measure: DisplayWidth
    /// Whether cells are cut to the plan's widths (only when `--width` was given).
    let cut: Bool
    public var cutCells = 0
    private var columns: [ColumnLayout]
    private var started = false
    private var notes: [String] = []
    /// The current table's header is still to be written (it waits for the first row, so a group's
    /// heading comes before its table).
    private var headerPending = false
    private var groupsDrawn = 0

    public init(plan: LayoutPlan, out: OutputBuffer, measure: DisplayWidth, cut: Bool) {
        self.plan = plan
        self.out = out
        self.measure = measure
        self.cut = cut
        self.columns = plan.columns
    }

    private func line(_ text: String) throws(OutputError) {
        try out.write(text)
        try out.newline()
    }

    /// Separates blocks with one blank line.
    private func block() throws(OutputError) {
        if started { try out.newline() }
        started = true
    }

    public func title(_ text: String) throws(OutputError) {
        try block()
        try line("### " + Self.inline(text))
    }

    public func beginTable(_ columns: [ColumnLayout], caption: String?) throws(OutputError) {
        self.columns = columns
        if let caption {
            try block()
            try line(Self.inline(caption))
        }
        headerPending = true
    }

    private func header() throws(OutputError) {
        try block()
        try line("| " + columns.map { Self.cell($0.heading) }.joined(separator: " | ") + " |")
        try line("|" + columns.map { $0.alignment == .right ? " ---: |" : " :--- |" }.joined())
        headerPending = false
    }

    public func row(_ fields: Fields) throws(OutputError) {
        if headerPending { try header() }
        var text = "|"
        for column in columns {
            text += " " + Self.cell(value(fields, column, cut: cut)) + " |"
        }
        try line(text)
    }

    /// A cell's text: the unit taken out where the heading carries it, cut only under `--width`.
    private func value(_ fields: Fields, _ column: ColumnLayout, cut: Bool) -> String {
        let text = column.shownText(fields)
        if text.isEmpty { return plan.nullText }
        if cut && column.numberParts == nil && measure.width(of: text) > column.width {
            cutCells += 1
            return measure.fit(text, width: column.width, maxLines: 1, ellipsis: plan.ellipsis).first?.text ?? ""
        }
        return text
    }

    public func groupHeading(_ text: String) throws(OutputError) {
        try block()
        try line("#### " + Self.inline(text))
        headerPending = true
        groupsDrawn += 1
    }

    public func groupFooter(_ cells: [String?], label: String) throws(OutputError) {
        guard cells.contains(where: { $0 != nil }) else { return }
        var text = "|"
        for (k, cell) in cells.enumerated() {
            let content = cell ?? (k == 0 ? label : "")
            text += " " + (content.isEmpty ? "" : "**" + Self.cell(content) + "**") + " |"
        }
        try line(text)
    }

    public func endTable() throws(OutputError) {
        // A table with no rows still shows its headings (E4).
        if headerPending && groupsDrawn == 0 { try header() }
        headerPending = false
    }

    public func block(_ fields: Fields) throws(OutputError) {
        guard let first = plan.columns.first else { return }
        try block()
        let title = value(fields, first, cut: false)
        try line("#### " + Self.inline(title.isEmpty ? "—" : title))
        for field in plan.columns.dropFirst() {
            try line("- **" + Self.inline(field.heading) + ":** " + Self.inline(value(fields, field, cut: false)))
        }
    }

    public func note(_ text: String) throws(OutputError) {
        try block()
        try line(Self.inline(text))
    }

    public func finish() throws(OutputError) { try out.flush() }

    public func continuation(into out: OutputBuffer) -> any Renderer {
        let next = MarkdownRenderer(plan: plan, out: out, measure: measure, cut: cut)
        next.columns = columns
        next.started = started
        next.headerPending = headerPending
        next.groupsDrawn = groupsDrawn
        return next
    }

    public func resume(atRow row: Int) {
        if row > 0 {
            started = true
            headerPending = false
        }
    }

    // MARK: - Escaping

    /// ASCII punctuation that could start Markdown syntax inside a cell or a line.
    static let special: Set<Unicode.Scalar> = ["\\", "|", "*", "_", "`", "[", "]", "<", ">", "&", "~", "#", "!"]

    /// Text for inside a table cell: exact, one line, trimmed spaces kept.
    static func cell(_ text: String) -> String {
        var out = inline(text)
        // GFM trims a cell's edges: keep the text's own spaces as character references.
        var leading = 0
        while out.hasPrefix(" ") { out.removeFirst(); leading += 1 }
        var trailing = 0
        while out.hasSuffix(" ") { out.removeLast(); trailing += 1 }
        return String(repeating: "&#32;", count: leading) + out + String(repeating: "&#32;", count: trailing)
    }

    /// Text for a Markdown line: punctuation escaped, line breaks as `<br>`, controls visible.
    static func inline(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var previousCR = false
        for scalar in text.unicodeScalars {
            defer { previousCR = scalar == "\r" }
            if scalar == "\n" {
                if !previousCR { out += "<br>" }
                continue
            }
            if previousCR { out += "<br>" }
            if scalar == "\r" { continue }
            if let escape = Sanitize.visibleEscape(for: scalar) {
                out += escape.replacingBackslashes()
            } else if special.contains(scalar) {
                out += "\\"
                out.unicodeScalars.append(scalar)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        if previousCR { out += "<br>" }
        return out
    }
}

extension String {
    /// Backslashes doubled (a visible escape such as `\x1b` inside Markdown).
    func replacingBackslashes() -> String {
        var out = ""
        for ch in self { if ch == "\\" { out += "\\\\" } else { out.append(ch) } }
        return out
    }
}
