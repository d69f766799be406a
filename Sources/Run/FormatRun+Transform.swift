import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
/// Step 2 of a run: the rows put in the order they are drawn, what is shown sized, the groups found
/// with their sums.
extension FormatRun {
    /// Groups of held rows (W12): the value, the rows' indexes, and the footer's sums.
    struct Groups {
        var members: [(value: String, rows: [Int])] = []
        /// Per group, per shown column: the sum to show, or nil.
        var footers: [[String?]] = []
        /// A sum was rounded (its numbers span more digits than are kept exactly).
        var rounded = false
    }

    /// Sorts held rows (W11), sizes what is shown (W10), and groups with sums (W12).
    func transform(_ sized: consuming Sized, _ transforms: TableFormatter.Transforms) -> Arranged {
        var groups = Groups()
        switch sized.rows {
        case .externalGroups(let grouping):
            groups = externalFooters(grouping, selection: transforms.selection, &sized)
        case .pieceGroups(_, let grouping):
            let shown = transforms.selection ?? Array(sized.reader.table.columns.indices)
            groups = footers(groupIndex: grouping.index, shown: shown, profiler: &sized.profiler) { grouping.sums(of: $0) }
        case .sorted(let sort, let typing):
            groups = arrangeSorted(sort, typing: typing, transforms, &sized)
        case .all:
            groups = arrangeHeld(&sized, transforms)
        case .window(let window):
            for row in window.prefix(limit) { sized.profiler.add(row) }  // W10: sized from the rows shown
        case .file, .pieces:
            break  // sized as they were read
        }
        return Arranged(reader: sized.reader, rows: sized.rows, profiler: sized.profiler, count: sized.count, groups: groups)
    }

    /// Rows sorted on disk: sized from every row, or from the first `limit` of the merge; grouped
    /// after sorting, in the order the groups first appear in the sorted rows.
    private func arrangeSorted(_ sort: ExternalSort, typing: ColumnProfiler, _ transforms: TableFormatter.Transforms,
                               _ sized: inout Sized) -> Groups {
        let numeric = typing.profiles.map(\.isNumeric)
        if limit >= sized.count {
            sized.profiler = typing
        } else {
            var shown = 0
            let limit = self.limit
            do {
                try sort.merge(numeric: numeric) { (fields, _) throws(OutputError) in
                    sized.profiler.add(fields)
                    shown += 1
                    return shown < limit
                }
            } catch {
                if case .input(let error) = error { sized.reader.keep(error) }
            }
        }
        guard let groupIndex = transforms.groupIndex else { return Groups() }
        let grouping = groupSorted(sort, numeric: numeric, groupIndex: groupIndex, &sized.reader)
        sized.rows = .externalGroups(grouping)
        return externalFooters(grouping, selection: transforms.selection, &sized)
    }

    /// Every row held: sorted in place (the rows are taken out of `sized` first, so that they are
    /// not copied), sized from the rows shown, grouped with their sums.
    private func arrangeHeld(_ sized: inout Sized, _ transforms: TableFormatter.Transforms) -> Groups {
        guard case .all(var held, let known) = sized.rows else { return Groups() }
        sized.rows = .file
        if !transforms.sortKeys.isEmpty {
            // Type the sort columns from every row (profiled as they were read). When every row
            // is shown, that profile is the sizing one too (a profile does not depend on the
            // rows' order).
            let typing = known ?? {
                var typing = newProfiler(columns: sized.reader.table.columns)
                for row in held { typing.add(row) }
                return typing
            }()
            RowOrder.sort(&held, keys: transforms.sortKeys, numeric: typing.profiles.map(\.isNumeric))
            if limit >= held.count {
                sized.profiler = typing
            } else {
                for row in held.prefix(limit) { sized.profiler.add(row) }
            }
        } else {
            for row in held.prefix(limit) { sized.profiler.add(row) }
        }
        sized.rows = .all(held, typing: nil)
        guard let groupIndex = transforms.groupIndex else { return Groups() }
        var groups = Groups(members: RowOrder.groups(held, by: groupIndex))
        if options.groupFooter {
            addSums(&groups, of: held, groupIndex: groupIndex, shown: transforms.selection ?? Array(sized.reader.table.columns.indices),
                    profiler: &sized.profiler)
        }
        return groups
    }

    /// Each group's sums of its numeric columns, exact in decimal (W12); sized with the cells.
    func addSums(_ groups: inout Groups, of held: [Record], groupIndex: Int, shown: [Int], profiler: inout ColumnProfiler) {
        for group in groups.members {
            let sums: [NumberValue.Sum?] = shown.map { index in
                guard index != groupIndex, profiler.profiles[index].isNumeric, profiler.profiles[index].kind != .null else { return nil }
                let cells = group.rows.map { r -> [UInt8] in
                    let row = held[r]
                    return index < row.count ? Array(row.bytes[row.range(of: index)]) : []
                }
                return NumberValue.sum(cells)
            }
            groups.rounded = groups.rounded || sums.contains { $0?.exact == false }
            for (k, sum) in sums.enumerated() { if let sum { profiler.noteFooter(column: shown[k], Wording.footerText(sum)) } }
            groups.footers.append(sums.map { $0.map(Wording.footerText) })
        }
    }
}
