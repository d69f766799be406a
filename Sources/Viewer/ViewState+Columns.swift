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
/// Where the view's columns go on screen (V2).
extension ViewState {
    // MARK: - Columns on screen

    /// A column as placed on screen: its index in `columns`, its first screen column and width.
    struct Placed: Equatable {
        var index: Int
        var x: Int
        var width: Int
    }

    /// A column's width on screen: the sorted one has room for its ▲ or ▼ after the heading.
    func shownWidth(_ k: Int) -> Int {
        let w = columns[k].width
        guard let sort = sort ?? pendingSort, sort.column == k else { return w }
        let last = measure.fitHeading(columns[k].heading, width: w, maxLines: headingLines, ellipsis: options.ellipsis).last?.width ?? 0
        return max(w, min(last + 2, width))
    }

    /// The left accessory column (checkmarks) is there once a row is selected.
    /// With edits, the edit mark follows it, and a `!` beside the mark once a value is kept as
    /// text (`drawEditMark`).
    var accessoryWidth: Int { editMarksShown ? (editing.misfits.isEmpty ? 3 : 4) : selected.isEmpty ? 0 : 2 }

    /// The frozen columns, then the scrolled ones from `left` that fit. Scrolled right, a frozen
    /// column narrows to at most a quarter of the width (V2). A column that does not fit whole is
    /// cut to the space left, so the focused column always shows.
    func placedColumns() -> [Placed] {
        var placed: [Placed] = []
        let gap = options.style.gap
        var x = accessoryWidth
        let quarter = max(1, width / 4)
        for k in 0..<min(frozen, columns.count) {
            var w = shownWidth(k)
            if left > frozen { w = min(w, quarter) }
            w = min(w, width - x)
            guard w > 0 else { break }
            placed.append(Placed(index: k, x: x, width: w))
            x += w + gap
        }
        var k = max(left, frozen)
        while k < columns.count && x < width {
            let w = min(shownWidth(k), width - x)
            if w < shownWidth(k) && !placed.isEmpty && k != focus && w < 3 { break }
            placed.append(Placed(index: k, x: x, width: w))
            x += w + gap
            k += 1
        }
        return placed
    }

    /// Scrolls columns so the focused one is on screen.
    mutating func scrollToFocus() {
        guard !columns.isEmpty else { return }
        if focus < frozen { return }
        if focus < left { left = focus; return }
        // Scrolled until the focused column shows whole (or leads the scrolled columns).
        while left < focus, !placedColumns().contains(where: { $0.index == focus && $0.width == shownWidth(focus) }) { left += 1 }
    }

    /// A click: on a heading, focuses and sorts its column; on a row, opens its sheet (V2–V4).
    mutating func click(x: Int, y: Int, data: any ViewRows) {
        let placed = placedColumns()
        let hit = placed.first { x >= $0.x && x < $0.x + $0.width + options.style.gap }
        if y < headingLines {
            if let hit {
                focus = hit.index
                cycleSort(column: hit.index)
            }
        } else if y > headingLines && y <= headingLines + bodyLines {
            // The row drawn on line y (rows may take two lines, C6).
            var line = headingLines + 1
            var row = top
            while row < count {
                let height = lines(row, data)
                if y < line + height { break }
                line += height
                row += 1
            }
            guard row < count else { return }
            current = row
            if let hit { focus = hit.index }
            mode = .detail(scroll: 0)
        }
    }
}
