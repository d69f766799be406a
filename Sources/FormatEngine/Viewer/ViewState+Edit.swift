/// Editing in the view (V10): the keys that change, add, delete and move rows, undo and redo,
/// the one-line field editor, and the questions asked before rows are deleted or changes are
/// left unsaved. The edits themselves are a `RowEdits` beside the row store; a save is asked
/// for here (`request`) and done by the model (ViewModel+Save.swift).
struct EditSession {
    var edits = RowEdits()
    /// Why the table cannot be edited (a JSON document), nil when it can.
    var readOnly: String?
    /// Why `w` cannot write the file where it is (a pipe, gzip): `W` asks for a name.
    var noSaveInPlace: String?
    /// A save asked for and not yet done (the model does it after the key).
    var request: SaveRequest?
    /// Fields typed that do not fit their column's kind (letters in a number column): kept as
    /// typed, marked. Row id → input columns.
    var misfits: [Int: Set<Int>] = [:]
    /// Why field (row id, input column) cannot be edited, nil when it can (JSON Lines: a member
    /// that is not clear); set by the model, which reads the file.
    var locked: ((Int, Int) -> String?)?
    /// Field (row id, input column)'s JSON as written when it is an array or object (JSON Lines),
    /// nil for any other value; set by the model. The editor opens such a field as that JSON.
    var json: ((Int, Int) -> [UInt8]?)?
}

/// A save the keys ask for: to the file, or under a name; then leave (`q` answered `w`).
enum SaveRequest: Equatable {
    case save(quit: Bool)
    case saveAs(String, quit: Bool)
}

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
    // MARK: - Keys in the table and the sheet

    /// An editing key in the table or a sheet. - Returns: whether it was one.
    @discardableResult
    mutating func editKey(_ key: ViewKey, data: any ViewRows) -> Bool {
        if savingNote != nil {
            // The save writes the edits as they were when it began: new ones wait for its end.
            switch key {
            case .character("e"), .character("+"), .character("d"), .character("J"), .character("K"), .character("u"),
                 .control("r"), .character("w"), .control("s"), .character("W"):
                message = "a save is running: edits wait until it is done (Esc stops it)"
                return true
            default: break
            }
        }
        switch key {
        case .character("e"): openEditor(data: data)
        case .character("+"): addRow()
        case .character("d"): askDelete()
        case .character("J"): moveRow(by: +1)
        case .character("K"): moveRow(by: -1)
        case .character("u"): undoRedo(undo: true)
        case .control("r"): undoRedo(undo: false)
        case .character("w"), .control("s"):
            if let reason = editing.noSaveInPlace {
                message = reason
                mode = .edit(.saveAs([], quit: false))
            } else {
                editing.request = .save(quit: false)
            }
        case .character("W"): mode = .edit(.saveAs([], quit: false))
        case .tab, .backtab:
            guard case .detail = mode, !columns.isEmpty else { return false }
            focus = (focus + (key == .tab ? 1 : columns.count - 1)) % columns.count
            scrollToFocus()
            scrollSheetToFocus(data)
            message = "field: \(columns[focus].heading) (e edits it)"
        default: return false
        }
        return true
    }

    /// A sheet scrolled so that its focused field's lines are on the screen (as many as fit).
    private mutating func scrollSheetToFocus(_ data: any ViewRows) {
        guard case .detail(let scroll) = mode else { return }
        let field = sheetText(data).focused
        let room = max(1, height - 1)
        var top = scroll
        if field.upperBound > top + room { top = field.upperBound - room }
        if field.lowerBound < top { top = field.lowerBound }
        mode = .detail(scroll: top)
    }

    /// Whether edits are waiting to be saved.
    var unsaved: Bool { editing.edits.counts.unsaved }

    /// `q`: leave, or ask first when changes are unsaved.
    mutating func quitKey() {
        if unsaved { mode = .edit(.quitting) } else { exit = .quit }
    }

    /// `Ctrl-C`: leave without writing; with unsaved changes, or text typed in the field editor
    /// (not yet kept), only when pressed again.
    mutating func interruptKey() {
        guard exit == nil else { return }
        var editor: FieldEditor?
        if case .edit(.field(let e)) = mode { editor = e }
        if unsaved || editor.map({ $0.text != $0.original }) == true {
            mode = .edit(.interrupting(editor))
        } else {
            exit = .interrupt
        }
    }

    private mutating func openEditor(data: any ViewRows) {
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

    /// `+`: an empty row after the current one, opened in its sheet.
    private mutating func addRow() {
        if let reason = editing.readOnly { message = reason; return }
        guard groups == nil else {
            message = "rows are added in the file's order: not while grouped (--group-by)"
            return
        }
        let currentID = count > 0 ? self.id(at: current) : nil
        let position = currentID.flatMap { editing.edits.position(of: $0) }.map { $0 + 1 } ?? (count > 0 ? editing.edits.count(loaded: loaded) : 0)
        let id = editing.edits.add(at: position)
        showAdded(id, after: currentID)
        if count > 0 { current = min(current + 1, count - 1) }
        mode = .detail(scroll: 0)
        focus = 0
        message = "row added: e edits a field, Tab the next, Esc back"
    }

    /// An added row in a sorted or filtered view: after the current row.
    private mutating func showAdded(_ id: Int, after currentID: Int?) {
        let at = current + 1
        if var filter {
            filter.ids.insert(Int32(id), at: min(at, filter.ids.count))
            self.filter = filter
        } else if var order {
            order.insert(Int32(id), at: min(at, order.count))
            setOrder(order)
        }
    }

    /// An added row undone: out of a sorted or filtered view.
    private mutating func hideAdded(_ id: Int) {
        if var filter, let k = filter.ids.firstIndex(of: Int32(id)) {
            filter.ids.remove(at: k)
            self.filter = filter
        }
        if var order, let k = order.firstIndex(of: Int32(id)) {
            order.remove(at: k)
            setOrder(order)
        }
    }

    /// `d`: the checked rows (else the current one) to delete, once confirmed; rows already
    /// marked deleted get their mark taken off at once.
    private mutating func askDelete() {
        if let reason = editing.readOnly { message = reason; return }
        guard count > 0 else { return }
        // Only checked rows the view shows (a filter may hide some); none: the current row.
        let checked = shownSelection()
        let ids = checked.isEmpty ? [self.id(at: current)] : checked
        if ids.allSatisfy({ editing.edits.deleted.contains($0) }) {
            editing.edits.delete(ids, on: false)
            message = "\(ids.count == 1 ? "row" : "\(ids.count) rows") kept"
        } else {
            mode = .edit(.deleting(ids, checked: !checked.isEmpty))
        }
    }

    /// The checked rows the view shows (under its filter; rows a save dropped are not shown).
    func shownSelection() -> [Int] {
        guard !selected.isEmpty else { return [] }
        let shown: (Int32) -> Bool
        if let filter {
            let kept = Set(filter.ids)
            shown = { kept.contains($0) }
        } else if let order {
            let kept = Set(order)
            shown = { kept.contains($0) }
        } else {
            shown = { editing.edits.position(of: Int($0)) != nil }
        }
        return selected.filter(shown).map { Int($0) }.sorted()
    }

    /// `J` / `K`: the current row moved down or up, in the file's order.
    private mutating func moveRow(by step: Int) {
        if let reason = editing.readOnly { message = reason; return }
        guard order == nil && filter == nil && groups == nil else {
            message = "rows move in the file's order: clear the sort and the filter first"
            return
        }
        let to = current + step
        guard count > 0, to >= 0, to < count else { return }
        editing.edits.move(from: current, to: to)
        current = to
    }

    private mutating func undoRedo(undo: Bool) {
        let step = undo ? editing.edits.undo() : editing.edits.redo()
        guard let step else {
            message = undo ? "nothing to undo" : "nothing to redo"
            return
        }
        switch step {
        case .set(let id, let field, let old, let new):
            mark(id, field: field, value: undo ? old : new)
            regroup()
        case .add(let id, _):
            if undo { hideAdded(id) } else { showAdded(id, after: nil) }
        case .move(let from, let to):
            if order == nil && filter == nil { current = undo ? from : to }
        default: break
        }
        message = (undo ? "undone: " : "redone: ") + Self.describe(step)
    }

    static func describe(_ step: RowEdits.Step) -> String {
        switch step {
        case .set: "a change"
        case .add: "an added row"
        case .delete(let ids, let on): on ? "\(ids.count == 1 ? "a row" : "\(ids.count) rows") deleted" : "rows kept"
        case .move: "a move"
        }
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
