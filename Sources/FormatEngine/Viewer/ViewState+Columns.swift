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
    var accessoryWidth: Int { selected.isEmpty ? 0 : 2 }

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
}
