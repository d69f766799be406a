import Save
import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
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
        lines.append(statusText(said + "row \(Wording.grouped(current + 1)) of \(Wording.grouped(count))\(more) · ↑↓ rows\(keyed ? " · →← open, close" : "") · Space/b scroll · Esc back", right: "? keys"))
        return lines
    }

    /// The sheet of the current row, one string a line; the focused field's lines in the current
    /// row's style.
    func sheetLines(_ data: any ViewRows) -> [String] {
        let (lines, focused) = sheetText(data)
        let s = styles
        // A list report is at least a label, its gap and a column of value wide: on a narrower
        // screen its lines are cut like any other.
        return lines.indices.map { k in
            let line = lines[k]
            guard focused.contains(k) || measure.width(of: Self.unstyled(line)) > width else { return line }
            return fitted(Self.unstyled(line), style: focused.contains(k) ? s.current : "")
        }
    }

    /// The sheet's lines as the list report draws them, and which of them are the focused field's.
    func sheetText(_ data: any ViewRows) -> (lines: [String], focused: Range<Int>) {
        guard let sheet, count > 0 else { return ([], 0..<0) }
        if keyed { return (outlineLines(data), 0..<0) }
        let sink = MemorySink()
        let out = OutputBuffer(sink, capacity: 4096)
        let renderer = PlainRenderer(plan: sheet, out: out, measure: measure, style: .rule, ansi: true)
        renderer.noteFieldStarts()
        let record = data.record(id(at: current))
        record.withFields { fields in
            try? renderer.block(fields)
            try? out.flush()
        }
        var text = sink.text
        if text.hasSuffix("\n") { text.removeLast() }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The title is the plan's first column, field f its (f + 1)-th.
        let starts = [0] + (renderer.notedFieldStarts ?? []) + [lines.count]
        guard columns.indices.contains(focus), let k = sheet.columns.firstIndex(where: { $0.source == columns[focus].source }), k + 1 < starts.count else {
            return (lines, 0..<0)
        }
        return (lines, starts[k]..<max(starts[k], min(lines.count, starts[k + 1])))
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

    /// What the status line said (`M`): each message whole, wrapped to the width, the newest
    /// at the bottom; the file's change under the view (I7) first, as it holds.
    func messagesFrame(scroll: Int) -> [String] {
        let room = max(0, height - 2)
        var body: [String] = []
        for text in (loadError.map { [$0] } ?? []) + said {
            body += measure.fit(Sanitize.visible(text), width: width, maxLines: Int.max, ellipsis: .end).map(\.text)
        }
        if body.isEmpty { body = ["(nothing said yet)"] }
        let end = max(0, body.count - min(scroll, max(0, body.count - room)))
        var lines = [fitted("tablefmt view — messages, the newest last", style: styles.heading)]
        lines += body[max(0, end - room)..<end]
        while lines.count < height - 1 { lines.append("") }
        lines = Array(lines.prefix(max(0, height - 1)))
        lines.append(statusText("↑↓ scroll · any other key returns", right: ""))
        return lines
    }

    func helpFrame() -> [String] {
        let keyWidth = ViewHelp.keys.map { measure.width(of: $0.0) }.max() ?? 0
        var lines = [fitted("tablefmt view — keys", style: styles.heading)]
        let list = ViewHelp.keys.map { keys, what in
            fitted(keys + String(repeating: " ", count: keyWidth - measure.width(of: keys) + 2) + what)
        }
        let room = max(0, height - 2)
        let start = min(helpScroll, max(0, list.count - room))
        lines += list.dropFirst(start).prefix(room)
        while lines.count < height - 1 { lines.append("") }
        lines = Array(lines.prefix(max(0, height - 1)))
        let more = start + room < list.count ? "↓ more · " : ""
        lines.append(statusText(more + "any other key returns to the table", right: ""))
        return lines
    }
}
