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
/// What a key does in the view (V2–V6): the table's keys, the sheet's, a prompt's, and moving.
extension ViewState {
    // MARK: - Keys

    /// Whether the field editor is open.
    var isFieldEditing: Bool {
        if case .edit(.field) = mode { return true }
        return false
    }

    /// What `key` does (V2–V6). `data` gives rows to sort, filter and search.
    mutating func handle(_ key: ViewKey, data: any ViewRows) {
        // Text pasted is for the field editor only: elsewhere it is not keys.
        if case .paste = key, !isFieldEditing { return }
        message = nil
        if followKey(key) {
            clampPosition(data)
            return
        }
        switch mode {
        case .table: tableKey(key, data: data)
        case .detail(let scroll): detailKey(key, scroll: scroll, data: data)
        case .help:
            // A list longer than the screen scrolls; any other key returns to the table.
            let page = max(1, height - 2)
            switch key {
            case .down, .character("j"): helpScroll += 1
            case .up, .character("k"): helpScroll = max(0, helpScroll - 1)
            case .pageDown, .character("f"), .character(" "): helpScroll += page
            case .pageUp, .character("b"): helpScroll = max(0, helpScroll - page)
            default:
                mode = .table
                helpScroll = 0
            }
            helpScroll = min(helpScroll, max(0, ViewHelp.keys.count + 1 - page))
        case .messages(let scroll):
            switch key {
            case .up, .character("k"): mode = .messages(scroll: scroll + 1)
            case .down, .character("j"): mode = .messages(scroll: max(0, scroll - 1))
            case .pageUp, .character("b"): mode = .messages(scroll: scroll + max(1, height - 2))
            case .pageDown, .character("f"), .character(" "): mode = .messages(scroll: max(0, scroll - max(1, height - 2)))
            default: mode = .table
            }
        case .prompt(let prompt, let text): promptKey(key, prompt: prompt, text: text, data: data)
        case .edit(let prompt): editPromptKey(key, prompt, data: data)
        case .freeze:
            mode = .table
            if case .character(let c) = key, let digit = c.wholeNumberValue {
                freeze(min(digit, columns.count))
                left = max(frozen, min(left, max(frozen, columns.count - 1)))
                if frozen > 0 { focus = max(focus, 0) }
                message = frozen == 0 ? "no column frozen" : "\(frozen) column\(frozen == 1 ? "" : "s") frozen"
            }
        }
        if key == .control("c") { interruptKey() }
        clampPosition(data)
        noteFollowing()
    }

    private mutating func tableKey(_ key: ViewKey, data: any ViewRows) {
        switch key {
        case .down, .character("j"), .control("n"), .control("e"): current += 1
        case .up, .character("k"), .control("p"), .control("y"): current -= 1
        case .pageDown, .character("f"), .control("f"), .control("d"): page(+1)
        case .pageUp, .character("b"), .control("b"), .control("u"): page(-1)
        case .home, .character("g"): current = 0
        case .end, .character("G"): current = count - 1
        case .right, .character("l"): moveFocus(to: focus + 1)
        case .left, .character("h"): moveFocus(to: focus - 1)
        case .character("0"), .character("^"): moveFocus(to: 0)
        case .character("$"): moveFocus(to: columns.count - 1)
        case .wheelDown:
            top += 3
            current += 3
        case .wheelUp:
            top = max(0, top - 3)
            current -= 3
        case .character("F"): mode = .freeze
        case .character("s"): cycleSort(column: focus)
        case .character("<"): resize(focus, by: -2)
        case .character(">"): resize(focus, by: +2)
        case .character("="):
            for k in columns.indices { columns[k].width = computed[k] }
        case .enter:
            guard count > 0 else { return }
            if let gone = valuesGone(data) { message = gone } else { mode = .detail(scroll: 0) }
        case .character("/"): mode = .prompt(.search, "")
        case .character("&"): mode = .prompt(.filter, "")
        case .character("n"): findNext(forward: true, data: data)
        case .character("N"): findNext(forward: false, data: data)
        case .character(" "):
            guard count > 0 else { return }
            let id = Int32(self.id(at: current))
            toggleSelected(id)
            current += 1
        case .character("a"): select((0..<count).map { Int32(id(at: $0)) })
        case .character("A"): unselectAll()
        case .character("?"): mode = .help
        case .character("M"): mode = .messages(scroll: 0)
        case .character("q"): quitKey()
        case .escape:
            // Esc stops the work running, the view as it was; else it clears the search.
            if let running {
                if running.work.kind == .group { groupsStopped = true }
                cancelWork()
            } else {
                search = nil
            }
        case .click(let x, let y): click(x: x, y: y, data: data)
        default: editKey(key, data: data)
        }
    }

    private mutating func detailKey(_ key: ViewKey, scroll: Int, data: any ViewRows) {
        let page = max(1, height - 2)
        switch key {
        case .right, .enter, .character("l"):
            if keyed { sheetOpen = min(sheetOpen, outline(data).depth) + 1 } else if key == .enter { editKey(.character("e"), data: data) }
        case .left, .character("h"):
            if keyed { sheetOpen = max(1, min(sheetOpen, outline(data).depth) - 1) }
        case .escape, .character("q"), .backspace: mode = .table
        case .character("M"): mode = .messages(scroll: 0)
        case .down, .character("j"):
            if current + 1 < count { current += 1; mode = .detail(scroll: 0) }
        case .up, .character("k"):
            if current > 0 { current -= 1; mode = .detail(scroll: 0) }
        case .pageDown, .character(" "), .character("f"), .control("f"), .wheelDown: mode = .detail(scroll: scroll + (key == .wheelDown ? 3 : page))
        case .pageUp, .character("b"), .control("b"), .wheelUp: mode = .detail(scroll: max(0, scroll - (key == .wheelUp ? 3 : page)))
        case .home, .character("g"): mode = .detail(scroll: 0)
        case .end, .character("G"): mode = .detail(scroll: Int.max / 2)
        default: editKey(key, data: data)
        }
    }

    private mutating func promptKey(_ key: ViewKey, prompt: Prompt, text: String, data: any ViewRows) {
        switch key {
        case .escape, .control("c"), .control("g"): mode = .table
        case .backspace:
            if text.isEmpty { mode = .table } else { mode = .prompt(prompt, String(text.dropLast())) }
        case .control("u"): mode = .prompt(prompt, "")
        case .character(let c): mode = .prompt(prompt, text + String(c))
        case .tab: mode = .prompt(prompt, text + " ")
        case .enter:
            mode = .table
            switch prompt {
            case .search: startSearch(text)
            case .filter: startFilter(text)
            }
        default: break
        }
    }

    /// Why the rows' values cannot be opened or edited: the file changed in place under the view
    /// (V10; a row read finds out), so a sheet would show empty fields where the file holds
    /// others. Nil while they can be read.
    func valuesGone(_ data: any ViewRows) -> String? {
        if count > 0 { _ = data.record(id(at: current)) }
        guard let problem = data.problem else { return nil }
        return "\(problem): its rows cannot be opened or edited; open the file again"
    }

    // MARK: - Moving

    private mutating func page(_ direction: Int) {
        let rows = max(1, bodyLines / max(1, min(2, options.cellLines)))
        current += direction * rows
        top += direction * rows
    }

    private mutating func moveFocus(to column: Int) {
        focus = max(0, min(column, columns.count - 1))
        scrollToFocus()
    }

    /// Keeps the current row on screen and every index in range. With `--wrap 2` rows take one or
    /// two lines, so the rows from `top` to the current one are measured (`data`).
    mutating func clampPosition(_ data: (any ViewRows)? = nil) {
        current = max(0, min(current, count - 1))
        if current < top { top = current }
        if current >= top + bodyLines { top = current - bodyLines + 1 }
        top = max(0, min(top, max(0, count - bodyLines)))
        if options.cellLines > 1 || groups != nil, let data, count > 0 {
            var heights = (top...current).map { row in lines(row, data) }
            var total = heights.reduce(0, +)
            while total > bodyLines && top < current {
                total -= heights.removeFirst()
                top += 1
            }
        }
        focus = max(0, min(focus, columns.count - 1))
        if case .detail(let scroll) = mode, scroll > 0 {
            mode = .detail(scroll: scroll)  // clamped when drawn (the sheet's length is known there)
        }
    }

    /// Narrows (`<`) or widens (`>`) a column; text in it is cut, never a number (C7: a number
    /// narrower than its column is shown cut with `…`, so it cannot be misread as a whole value).
    private mutating func resize(_ column: Int, by delta: Int) {
        guard columns.indices.contains(column) else { return }
        columns[column].width = max(1, min(width, columns[column].width + delta))
        scrollToFocus()
    }
}
