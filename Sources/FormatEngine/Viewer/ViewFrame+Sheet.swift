/// The view's other frames (V2, V4): a row's sheet, as the list report shows it or as an outline of
/// a JSON row, and the keys' help.
extension ViewState {
    // MARK: - Detail sheet (V4)

    /// The current row's every field as the list report shows it (title, `Label  value` lines,
    /// units in labels, long values wrapped in full), scrolled.
    func detailFrame(_ data: any ViewRows, scroll: Int) -> [String] {
        var lines = sheetLines(data)
        let room = max(1, height - 1)
        let start = max(0, min(scroll, lines.count - room))
        lines = Array(lines.dropFirst(start).prefix(room))
        while lines.count < room { lines.append("") }
        let more = start + room < sheetLines(data).count ? " · more below" : ""
        // What a key said (a field that cannot be edited, a save) comes first, as in the table.
        let said = message.map { $0 + " · " } ?? ""
        lines.append(statusText(said + "row \(TableFormatter.grouped(current + 1)) of \(TableFormatter.grouped(count))\(more) · ↑↓ rows\(keyed ? " · →← open, close" : "") · Space/b scroll · Esc back", right: "? keys"))
        return lines
    }

    /// The sheet of the current row, one string a line.
    func sheetLines(_ data: any ViewRows) -> [String] {
        guard let sheet, count > 0 else { return [] }
        if keyed { return outlineLines(data) }
        let sink = MemorySink()
        let out = OutputBuffer(sink, capacity: 4096)
        let renderer = PlainRenderer(plan: sheet, out: out, measure: measure, style: .rule, ansi: true)
        let record = data.record(id(at: current))
        record.withFields { fields in
            try? renderer.block(fields)
            try? out.flush()
        }
        var text = sink.text
        if text.hasSuffix("\n") { text.removeLast() }
        // A list report is at least a label, its gap and a column of value wide: on a narrower
        // screen its lines are cut like any other.
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let bare = Self.unstyled(String(line))
            return measure.width(of: bare) <= width ? String(line) : fitted(bare)
        }
    }

    /// The current row of a JSON input as an outline: its first field as the title, then the others.
    func outline(_ data: any ViewRows) -> Outline {
        guard count > 0, !columns.isEmpty else { return Outline(names: [], values: [], label: { $0 }) }
        let record = data.record(id(at: current))
        let rest = columns.dropFirst()
        let names = rest.map { profiles.indices.contains($0.source) ? profiles[$0.source].name : $0.heading }
        let values = rest.map { column in record.withFields { String(decoding: $0[column.source], as: UTF8.self) } }
        let titled = options.titleHeadings
        return Outline(names: names, values: values) { part in
            guard titled else { return part }
            let (text, unit) = Heading.title(part)
            return unit.map { text.hasSuffix("(\($0))") ? text : "\(text) (\($0))" } ?? text
        }
    }

    func outlineLines(_ data: any ViewRows) -> [String] {
        let s = styles
        let record = data.record(id(at: current))
        let title = record.withFields { String(decoding: $0[columns[0].source], as: UTF8.self) }
        var lines = measure.fit(Sanitize.visible(title.isEmpty ? "—" : title), width: width, maxLines: Int.max, ellipsis: options.ellipsis).map { s.heading + $0.text + s.reset }
        let tree = outline(data)
        for line in tree.lines(width: width, open: sheetOpen, measure: measure, nullText: Sanitize.visible(options.nullText), ellipsis: options.ellipsis) {
            let text = line.text
            switch line.style {
            case .plain: lines.append(text)
            case .label: lines.append(s.heading + text + s.reset)
            case .empty: lines.append(s.dim + text + s.reset)
            }
        }
        return lines
    }

    /// The text without its SGR sequences.
    static func unstyled(_ line: String) -> String {
        var out = ""
        var scalars = line.unicodeScalars.makeIterator()
        while let c = scalars.next() {
            guard c == "\u{1B}" else {
                out.unicodeScalars.append(c)
                continue
            }
            while let d = scalars.next(), !("@"..."~").contains(d) || d == "[" {}
        }
        return out
    }

    // MARK: - Keys (V2)

    func helpFrame() -> [String] {
        let keyWidth = ViewHelp.keys.map { measure.width(of: $0.0) }.max() ?? 0
        var lines = [fitted("tablefmt view — keys", style: styles.heading)]
        for (keys, what) in ViewHelp.keys {
            lines.append(fitted(keys + String(repeating: " ", count: keyWidth - measure.width(of: keys) + 2) + what))
        }
        while lines.count < height - 1 { lines.append("") }
        lines = Array(lines.prefix(max(0, height - 1)))
        lines.append(statusText("any key returns to the table", right: ""))
        return lines
    }
}
