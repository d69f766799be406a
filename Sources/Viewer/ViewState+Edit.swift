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
/// Editing in the view (V10): the keys that change, add, delete and move rows, undo and redo,
/// ask for a save, or leave (the field editor and the questions asked are ViewState+EditPrompt.swift).
/// The edits themselves are a `RowEdits` beside the row store; a save is asked
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
    mutating func scrollSheetToFocus(_ data: any ViewRows) {
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
}
