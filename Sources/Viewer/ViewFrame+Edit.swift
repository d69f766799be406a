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
/// Drawing the edits (V10): the mark of each row's state in the left accessory column, a deleted
/// row struck out, the counts in the status line, and the field editor or question in place of
/// the status line.
extension ViewState {
    /// The table (or the sheet the editor was opened from) with the editor or question at the bottom.
    func editFrame(_ data: any ViewRows, _ prompt: EditPrompt) -> [String] {
        var lines: [String]
        var editor: FieldEditor?
        if case .field(let e) = prompt { editor = e }
        if case .interrupting(let e) = prompt { editor = e }
        if let scroll = editor?.sheet {
            lines = detailFrame(data, scroll: scroll)
        } else {
            lines = tableFrame(data)
        }
        if !lines.isEmpty { lines[lines.count - 1] = editLine(prompt) }
        // Why a name is asked for (the file changed on disk), above the prompt.
        if case .saveAs = prompt, let message, lines.count >= 2 { lines[lines.count - 2] = fitted(message, style: styles.heading) }
        return lines
    }

    /// The editor's line: the field's name, the text with its line breaks and tabs shown (`↵`,
    /// `\t`, O5), the cursor in reverse video, scrolled so the cursor shows; or the question.
    func editLine(_ prompt: EditPrompt) -> String {
        let s = styles
        switch prompt {
        case .field(let e):
            let lead = Sanitize.visible(e.name) + ": "
            let before = Sanitize.visible(String(e.text[..<e.cursor]))
            let at = e.cursor < e.text.count ? Sanitize.visible(String(e.text[e.cursor])) : " "
            let after = e.cursor + 1 < e.text.count ? Sanitize.visible(String(e.text[(e.cursor + 1)...])) : ""
            return cursorLine(lead, before: before, at: at, after: after, styles: s)
        case .saveAs(let name, _):
            return cursorLine("save as: ", before: Sanitize.visible(String(name)), at: " ", after: "", styles: s)
        case .deleting(let ids, let checked):
            let what = checked ? "\(Wording.grouped(ids.count)) checked row\(ids.count == 1 ? "" : "s")" : "this row"
            return fitted("delete \(what)? y deletes (struck out until saved) · any other key keeps", style: s.status)
        case .quitting:
            return fitted("unsaved changes: quit without saving? y quits without saving · w saves and quits · n stays", style: s.status)
        case .interrupting(let editor):
            let what = editor.map { $0.text != $0.original ? "the value being typed" + (unsaved ? " and unsaved changes" : "") : "unsaved changes" } ?? "unsaved changes"
            return fitted("\(what): Ctrl-C again quits without saving (exit 130) · w saves · Esc stays", style: s.status)
        }
    }

    /// `lead` and `before`, the cursor on `at`, then `after`: the text scrolled left, from its
    /// start, until the cursor fits.
    private func cursorLine(_ lead: String, before: String, at: String, after: String, styles s: Styles) -> String {
        var line = LineBuilder(base: "", limit: width, styles: s)
        let leadWidth = min(measure.width(of: lead), max(0, width / 3))
        let leadText = measure.fit(lead, width: leadWidth, maxLines: 1, ellipsis: .end).first ?? TextLine(text: "", width: 0)
        line.add(leadText.text, width: leadText.width, style: s.heading)
        let atWidth = max(1, measure.width(of: at))
        let room = max(0, width - leadText.width - atWidth)
        // The end of the text before the cursor that fits (its start cut with `…`).
        var shown = Substring(before)
        while !shown.isEmpty && measure.width(of: String(shown)) > room { shown = shown.dropFirst() }
        let shownWidth = measure.width(of: String(shown))
        line.add(String(shown), width: shownWidth)
        line.add(at, width: atWidth, style: s.status)
        let rest = width - leadText.width - shownWidth - atWidth
        if rest > 0, !after.isEmpty, let tail = measure.fit(after, width: rest, maxLines: 1, ellipsis: .end).first {
            line.add(tail.text, width: tail.width)
        }
        // A screen too narrow for the cursor: the text, cut.
        return line.width > width ? fitted(lead + before) : line.finish()
    }

    // MARK: - Marks and counts

    /// The accessory column shows edit marks once anything is edited (or marked); checked per row
    /// drawn, so without counting the edits.
    var editMarksShown: Bool { !editing.edits.isEmpty || !editing.misfits.isEmpty }

    /// A row's marks: `+` added, `~` changed, `−` deleted; then `!` when it holds a value kept as
    /// text where its column holds numbers, dates or yes/no values (`~!`, `+!`, or `!` alone), so
    /// neither mark hides the other; drawn after the check column.
    func drawEditMark(_ builder: inout LineBuilder, id: Int) {
        let marks = accessoryWidth - 1
        guard editMarksShown, builder.width + marks <= width else { return }
        let edits = editing.edits
        let state = edits.deleted.contains(id) ? "−" : edits.isAdded(id) ? "+" : edits.isChanged(id) ? "~" : " "
        builder.add(state, width: 1, style: state == " " ? "" : styles.check)
        if marks == 3 {
            let misfit = editing.misfits[id] != nil
            builder.add(misfit ? "!" : " ", width: 1, style: misfit ? styles.match : "")
        }
        builder.add(" ", width: 1)
    }

    /// The style a deleted row is drawn over: struck out (SGR 9).
    func editStrike(_ id: Int) -> String { editing.edits.deleted.contains(id) ? "\u{1B}[9m" : "" }

    /// `2 changed · 1 added · 1 deleted · unsaved`, for the status line.
    func editCounts() -> [String] {
        let c = editing.edits.counts
        guard c.unsaved else { return [] }
        var parts: [String] = []
        if c.changed > 0 { parts.append("\(Wording.grouped(c.changed)) changed") }
        if c.added > 0 { parts.append("\(Wording.grouped(c.added)) added") }
        if c.deleted > 0 { parts.append("\(Wording.grouped(c.deleted)) deleted") }
        if c.moved > 0 { parts.append("\(Wording.grouped(c.moved)) moved") }
        return parts + ["unsaved"]
    }
}
