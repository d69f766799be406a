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
/// The view's prompts while editing (V10): the one-line field editor (its keys, a paste, a value
/// kept and its column widened or marked as a misfit), and the questions asked before rows are
/// deleted, changes left unsaved, or the file saved under a name.
///
/// The one-line field editor: the row and input column, the text as characters and the cursor.
struct FieldEditor: Equatable {
    var id: Int
    var field: Int
    var name: String
    var text: [Character]
    /// The text as the editor opened with it: `Enter` on it unchanged records nothing.
    var original: [Character]
    var cursor: Int
    /// Opened from the row's sheet, scrolled so far (nil: from the table).
    var sheet: Int?
    /// The field as read from the file (nil: an added row's): typed back, it is no change.
    var read: [UInt8]? = nil
    /// `Ctrl-V` was pressed: a `Tab` next is a tab in the value.
    var literal = false
    /// Opened as the JSON array or object the field holds (JSON typed is saved as JSON).
    var json = false

    /// Inserts `characters` at the cursor, the cursor after them. A terminal sends a typed
    /// flag or emoji sequence a scalar at a time: the text is made of grapheme clusters again,
    /// so that they join, and Backspace and the arrows take a cluster at a time (as the rest
    /// of the tool cuts text).
    mutating func insert(_ characters: [Character]) {
        let before = String(text[..<cursor]) + String(characters)
        text = Array(before + String(text[cursor...]))
        cursor = min(text.count, before.count)
    }
}

/// What the status line asks while editing.
enum EditPrompt: Equatable {
    case field(FieldEditor)
    /// `d`: delete these rows? (`y` / any other key); `checked`: the checked rows shown.
    case deleting([Int], checked: Bool)
    /// `q` with unsaved changes: w saves and quits, q quits, Esc stays.
    case quitting
    /// `Ctrl-C` with unsaved changes (or text typed in the field editor, which goes on when the
    /// answer is not to quit): `Ctrl-C` again quits without saving.
    case interrupting(FieldEditor?)
    /// `W`: the name to save under.
    case saveAs([Character], quit: Bool)
}

extension ViewState {
    mutating func openEditor(data: any ViewRows) {
        if let reason = editing.readOnly { message = reason; return }
        guard count > 0, columns.indices.contains(focus) else { return }
        if let gone = valuesGone(data) { message = gone; return }
        let id = self.id(at: current)
        let source = columns[focus].source
        let text = data.record(id).withFields { String(decoding: $0[source], as: UTF8.self) }
        // Bytes that were not text were read as U+FFFD (shown as �, the file read without the
        // right --encoding): the editor would write U+FFFD in their place, so it does not open.
        guard !text.unicodeScalars.contains("\u{FFFD}") else {
            message = "this field holds bytes that are not text here (shown as �): it cannot be edited; open the file with --encoding (latin1, cp1252…)"
            return
        }
        if let why = editing.locked?(id, source) {
            message = why
            return
        }
        var scroll: Int?
        if case .detail(let s) = mode { scroll = s }
        let base = (data as? EditedRows)?.base ?? data
        var read = id >= 0 ? base.record(id).withFields { source < $0.count ? Array($0[source]) : [] } : nil
        var editor = FieldEditor(id: id, field: source, name: columns[focus].heading, text: Array(text), original: Array(text), cursor: text.count, sheet: scroll, read: read)
        // An array or object not yet edited: opened as its JSON, which typed back is no change.
        if id >= 0, editing.edits.field(id, source) == nil, let json = editing.json?(id, source) {
            read = json
            let text = String(decoding: json, as: UTF8.self)
            editor = FieldEditor(id: id, field: source, name: columns[focus].heading, text: Array(text), original: Array(text), cursor: text.count, sheet: scroll, read: read, json: true)
        }
        mode = .edit(.field(editor))
    }

    // MARK: - While editing or asked

    /// A key while the editor is open or a question is asked.
    mutating func editPromptKey(_ key: ViewKey, _ prompt: EditPrompt, data: any ViewRows) {
        switch prompt {
        case .field(var editor):
            if (key == .tab || key == .backtab) && !editor.literal {
                // The text typed kept (as Enter), and the next (previous) field edited.
                _ = fieldKey(.enter, &editor)
                guard !columns.isEmpty else { return }
                focus = (focus + (key == .tab ? 1 : columns.count - 1)) % columns.count
                scrollToFocus()
                scrollSheetToFocus(data)
                openEditor(data: data)
                return
            }
            if fieldKey(key, &editor) { mode = .edit(.field(editor)) }
        case .deleting(let ids, _):
            mode = .table
            if key == .character("y") {  // only y: Enter, pressed out of habit, keeps the rows
                editing.edits.delete(ids)
                message = "\(ids.count == 1 ? "row" : "\(ids.count) rows") deleted (struck out until saved; u undoes)"
            }
        case .quitting:
            mode = .table
            switch key {
            case .character("w"), .control("s"):
                editing.request = editing.noSaveInPlace == nil ? .save(quit: true) : nil
                if editing.noSaveInPlace != nil { mode = .edit(.saveAs([], quit: true)) }
            case .character("q"), .character("y"): exit = .quit
            default: break
            }
        case .interrupting(let editor):
            // Not quitting: back to the editor, its text as typed.
            mode = editor.map { .edit(.field($0)) } ?? .table
            if key == .control("c") { exit = .interrupt }
            if key == .character("w") {
                // The text typed is kept (as Enter would), then saved.
                if var editor { _ = fieldKey(.enter, &editor) }
                editing.request = .save(quit: false)
            }
        case .saveAs(var name, let quit):
            switch key {
            case .escape, .control("g"): mode = .table
            case .backspace: if !name.isEmpty { name.removeLast() }; mode = .edit(.saveAs(name, quit: quit))
            case .character(let c): name.append(c); mode = .edit(.saveAs(name, quit: quit))
            case .enter:
                mode = .table
                if !name.isEmpty { editing.request = .saveAs(String(name), quit: quit) }
            default: break
            }
        }
    }

    /// A key in the field editor. - Returns: whether the editor stays open.
    private mutating func fieldKey(_ key: ViewKey, _ e: inout FieldEditor) -> Bool {
        // After Ctrl-V a Tab is a tab in the value (Tab alone moves to the next field).
        let literal = e.literal
        e.literal = false
        if literal && key == .tab {
            e.insert(["\t"])
            return true
        }
        switch key {
        case .character(let c): e.insert([c])
        case .control("v"): e.literal = true
        case .control("o"): e.insert(["\n"])  // a line break in the value
        case .paste(let text): e.insert(Self.pastedCharacters(text))
        case .left, .control("b"): e.cursor = max(0, e.cursor - 1)
        case .right, .control("f"): e.cursor = min(e.text.count, e.cursor + 1)
        case .home, .control("a"): e.cursor = 0
        case .end, .control("e"): e.cursor = e.text.count
        case .backspace:
            if e.cursor > 0 { e.text.remove(at: e.cursor - 1); e.cursor -= 1 }
        case .control("d"):
            if e.cursor < e.text.count { e.text.remove(at: e.cursor) }
        case .control("w"):
            // The word before the cursor, and the spaces after it.
            var start = e.cursor
            while start > 0 && e.text[start - 1].isWhitespace { start -= 1 }
            while start > 0 && !e.text[start - 1].isWhitespace { start -= 1 }
            e.text.removeSubrange(start..<e.cursor)
            e.cursor = start
        case .control("u"): e.text.removeSubrange(0..<e.cursor); e.cursor = 0
        case .control("k"): e.text.removeSubrange(e.cursor...)
        case .escape, .control("g"):
            closeEditor(e)
            return false
        case .enter:
            closeEditor(e)
            if e.text != e.original { keep(e) }  // as it was: no change at all
            return false
        default: break
        }
        return true
    }

    /// Pasted text as the editor takes it: a line break (CR LF, CR or LF) as `\n`, a tab kept,
    /// other control characters (which a paste cannot mean as text) left out.
    static func pastedCharacters(_ text: String) -> [Character] {
        var out: [Character] = []
        for c in text {
            if c == "\r\n" || c == "\r" || c == "\n" {
                out.append("\n")
            } else if c == "\t" || !(c.unicodeScalars.first.map { $0.value < 0x20 || $0.value == 0x7F } ?? false) {
                out.append(c)
            }
        }
        return out
    }

    private mutating func closeEditor(_ e: FieldEditor) {
        mode = e.sheet.map { .detail(scroll: $0) } ?? .table
    }

    /// The typed value, kept as typed; marked when it does not fit its column's kind (C1).
    private mutating func keep(_ e: FieldEditor) {
        let bytes = Array(String(e.text).utf8)
        // The value read, typed back: the field is as read again (no change counted or saved).
        let value = bytes == e.read ? nil : bytes
        editing.edits.set(e.id, field: e.field, to: value)
        let fits = mark(e.id, field: e.field, value: value)
        widen(field: e.field, for: bytes, fits: fits)
        regroup()
        if e.json, value != nil, !JSONLine.isStructure(bytes) {
            message = "kept as text: \(e.name) held JSON here, and the file will hold this as a string (type JSON, [ … ] or { … }, to keep it JSON)"
        } else if !fits {
            let kind = profiles[e.field].kind
            message = "kept as text: \(e.name) holds \(kind == .date ? "dates" : kind == .boolean ? "yes/no values" : "numbers")"
        }
    }

    /// The column of input field `field` made room for a value typed into it, as it would for a
    /// value read (W3's cap still holding): the profile takes it in (a value that fits the kind as
    /// such, any other by its width alone), and the columns are laid out again, none narrower.
    private mutating func widen(field: Int, for value: [UInt8], fits: Bool) {
        guard profiles.indices.contains(field) else { return }
        let before = profiles[field]
        value.withUnsafeBufferPointer { cell in
            if fits {
                profiles[field].note(cell, measure: measure, trackWords: false)
            } else {
                profiles[field].noteWidest(cell, measure: measure)
            }
        }
        guard profiles[field] != before else { return }
        relayoutKeepingWidths()
    }

    /// Marks field `field` of row `id` when its edited `value` does not fit the column's kind,
    /// and takes the mark off when it does or the field is as read (nil): after typing, undo and
    /// redo alike. - Returns: whether it fits.
    @discardableResult
    mutating func mark(_ id: Int, field: Int, value: [UInt8]?) -> Bool {
        let kind = profiles.indices.contains(field) ? profiles[field].kind : .text
        let typed = value.map { bytes in bytes.withUnsafeBufferPointer { CellKind.of($0) } } ?? kind
        let numbers: [CellKind] = [.integer, .decimal, .percent, .quantity]
        let fits = kind == .text || kind == .null || typed == .null || typed == kind || (numbers.contains(kind) && numbers.contains(typed))
        var marks = editing.misfits[id] ?? []
        if fits { marks.remove(field) } else { marks.insert(field) }
        editing.misfits[id] = marks.isEmpty ? nil : marks
        return fits
    }
}
