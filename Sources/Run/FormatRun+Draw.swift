import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
/// Step 4 of a run: the title, the rows (in groups, in pages' bands, or the file read again), the notes.
extension FormatRun {
    /// What the drawing has done so far.
    struct DrawCount {
        /// Rows drawn (in pages, in the current band).
        var drawn = 0
        /// Rows there are: the notes say how many more there were than were drawn.
        var total: Int
        /// Rows taken by the sizing pass's notes, without the reader (P1).
        var rowsByNotes = 0
    }

    /// The title, the rows (in groups, or in pages' bands), then the notes.
    func draw(_ arranged: consuming Arranged, plan: LayoutPlan, transforms: TableFormatter.Transforms) throws(OutputError) -> Drawn {
        var plan = plan
        plan.keepsColumns = options.follow
        if options.follow && plan.mode == .table {
            // A later value cut to a 1-wide text column would show as `…` alone, nothing of it:
            // such a column takes two, so a cut one shows its first character (P5).
            var room = PlainRenderer.slack(plan.columns, plan: plan, style: options.style) ?? .max
            for k in plan.columns.indices where plan.columns[k].numberParts == nil && plan.columns[k].width < 2 && room > 0 {
                plan.columns[k].width += 1
                room -= 1
            }
        }
        let renderer = Renderers.make(plan, options: options, out: out)
        if let title = options.title { try renderer.title(title) }
        var reader = arranged.reader
        var rows = arranged.rows
        let read = arranged.count
        var count = DrawCount(total: read)
        var cutBefore = renderer.cutCells
        var sizedBy: Int?  // rows the window held, when later rows were drawn in their widths
        switch plan.mode {
        case .table, .list:
            if plan.mode == .table { try renderer.beginTable(plan.columns, caption: nil) }
            let draw = rowDrawer(plan)
            if let groupIndex = groupIndex(of: rows, transforms) {
                let shown = transforms.selection ?? Array(reader.table.columns.indices)
                let label = plan.columns.first(where: { $0.source == groupIndex })?.heading ?? reader.table.columns[groupIndex]
                let grouped = GroupedDrawing(groups: arranged.groups, label: label, shown: shown, plan: plan, renderer: renderer, draw: draw)
                try drawGroups(rows, grouped, &count, &reader)
                if plan.mode == .table { try renderer.endTable() }
                if arranged.groups.rounded {
                    try renderer.note("A total marked ≈ is rounded to 17 significant digits: its numbers span more than \(ExactDecimal.limit) digits, from the largest one's first to the smallest one's last.")
                }
            } else {
                // The plain row drawer (no headings again) may be left out for rows drawn in place.
                let rowsInPlace = plan.mode == .table && options.headingsEvery == nil
                try drawRows(&rows, read: read, &count, &reader, renderer: renderer, draw: draw, rowsInPlace: rowsInPlace,
                             windowDrawn: { held in
                                 cutBefore = renderer.cutCells
                                 sizedBy = held
                                 renderer.growsPastColumns = true
                             })
                if plan.mode == .table { try renderer.endTable() }
            }
        case .pages:
            for (b, band) in plan.bands.enumerated() {
                let others = band.dropFirst().map(\.heading)
                let caption = plan.bands.count > 1 ? "Page \(b + 1) of \(plan.bands.count): \(others.joined(separator: ", "))" : nil
                try renderer.beginTable(band, caption: caption)
                count.drawn = 0
                try drawRows(&rows, read: read, &count, &reader, renderer: renderer, draw: { (r, row) throws(OutputError) in try r.row(row) },
                             rowsInPlace: true, windowDrawn: { _ in })
                try renderer.endTable()
            }
            cutBefore = renderer.cutCells
        }
        try notes(renderer, plan: plan, count, cutBefore: cutBefore, sizedBy: sizedBy)
        try renderer.finish()
        return Drawn(error: reader.error, warnings: reader.table.warnings, rowsByNotes: count.rowsByNotes)
    }

    /// How a table or list draws a row: a table's row (its headings again every screenful when
    /// asked) or a list report's block.
    private func rowDrawer(_ plan: LayoutPlan) -> TableFormatter.Draw {
        guard plan.mode == .table else { return { (r, row) throws(OutputError) in try r.block(row) } }
        let draw: TableFormatter.Draw = { (r, row) throws(OutputError) in try r.row(row) }
        guard let every = options.headingsEvery else { return draw }
        return Self.headingsAgain(every: every, rowLines: plan.cellLines, columns: plan.columns, out: out, draw)
    }

    /// The column the rows are drawn grouped by (W12), when they are: groups tallied in pieces or
    /// sorted on disk, or every row held and grouped in memory.
    private func groupIndex(of rows: HeldRows, _ transforms: TableFormatter.Transforms) -> Int? {
        switch rows {
        case .pieceGroups(_, let grouping): return grouping.index
        case .externalGroups(let grouping): return grouping.groupIndex
        case .all: return transforms.groupIndex
        case .window, .file, .pieces, .sorted: return nil
        }
    }

    /// What drawing groups needs: the groups' footers, the heading's label, the columns shown, the
    /// plan, the renderer and how it draws a row.
    struct GroupedDrawing {
        let groups: Groups
        let label: String
        let shown: [Int]
        let plan: LayoutPlan
        let renderer: any Renderer
        let draw: TableFormatter.Draw

        /// A group's heading line, with its row count (W12).
        func heading(_ value: String, count: Int) throws(OutputError) {
            try renderer.groupHeading(Wording.groupHeading(label, value: value, count: count))
        }

        /// Group `g`'s footer of sums (W12), in a table.
        func footer(_ g: Int) throws(OutputError) {
            guard plan.mode == .table, g < groups.footers.count else { return }
            let cells = plan.columns.map { column -> String? in shown.firstIndex(of: column.source).flatMap { groups.footers[g][$0] } }
            try renderer.groupFooter(cells, label: Layout.totalLabel)
        }
    }

    /// W12: a section per group, its heading with the row count, its rows, its footer of sums.
    private func drawGroups(_ rows: HeldRows, _ grouped: GroupedDrawing, _ count: inout DrawCount, _ reader: inout RowReader) throws(OutputError) {
        switch rows {
        case .pieceGroups(let pieces, let grouping):
            try drawGroupedPieces(pieces, grouping, grouped, &count, &reader)
        case .externalGroups(let grouping):
            try drawExternalGroups(grouping, grouped, &count, &reader)
        case .all(let all, _):
            for (g, group) in grouped.groups.members.enumerated() where count.drawn < limit {
                try grouped.heading(group.value, count: group.rows.count)
                for r in group.rows where count.drawn < limit {
                    try all[r].withFields { (row) throws(OutputError) in try grouped.draw(grouped.renderer, row) }
                    count.drawn += 1
                }
                try grouped.footer(g)
            }
        case .window, .file, .pieces, .sorted:
            break
        }
    }

    /// Draws each row held, at most `limit`; counts the rows after the limit. `rowsInPlace`:
    /// `draw` draws a table's row (`Renderer.row`), so a file's pieces may be drawn without it.
    private func drawRows(_ rows: inout HeldRows, read: Int, _ count: inout DrawCount, _ reader: inout RowReader, renderer: any Renderer,
                          draw: @escaping TableFormatter.Draw, rowsInPlace: Bool, windowDrawn: (Int) -> Void) throws(OutputError) {
        switch rows {
        case .all(let all, _):
            for row in all.prefix(limit) {
                try row.withFields { (row) throws(OutputError) in try draw(renderer, row) }
                count.drawn += 1
            }
        case .file:
            try drawFileAgain(rows: read, &count, &reader, renderer: renderer, draw: draw)
        case .pieces(let pieces):
            try drawPieces(pieces, &count, &reader, renderer: renderer, draw: draw, rowsInPlace: rowsInPlace)
        case .sorted(let sort, let typing):
            try drawMerged(sort, numeric: typing.profiles.map(\.isNumeric), &count, &reader, renderer: renderer, draw: draw)
        case .window(let window):
            for row in window.prefix(limit) {
                try row.withFields { (row) throws(OutputError) in try draw(renderer, row) }
                count.drawn += 1
            }
            windowDrawn(window.count)  // cuts from here on are cuts the window's sizing did not foresee
            rows = .all([], typing: nil)  // the stream is read once
            guard reader.error == nil else { return }
            try drawStream(&count, &reader, renderer: renderer, draw: draw)
        case .pieceGroups, .externalGroups:
            break  // drawn in groups
        }
    }

    /// Sorted runs on disk, merged as they are drawn (`--sort` beyond memory), the sort columns
    /// compared as their final types say.
    private func drawMerged(_ sort: ExternalSort, numeric: [Bool], _ count: inout DrawCount, _ reader: inout RowReader,
                            renderer: any Renderer, draw: TableFormatter.Draw) throws(OutputError) {
        let limit = self.limit
        var drawn = count.drawn
        do {
            try sort.merge(numeric: numeric) { (fields, _) throws(OutputError) in
                guard drawn < limit else { return false }
                try draw(renderer, fields)
                drawn += 1
                return true
            }
            count.drawn = drawn
        } catch {
            count.drawn = drawn
            switch error {
            case .output(let error): throw error
            case .input(let error):
                reader.keep(error)
                count.total = drawn
            }
        }
    }

    /// The rest of a pipe, after its window, as it comes: drawn up to `limit`, counted after it.
    private func drawStream(_ count: inout DrawCount, _ reader: inout RowReader, renderer: any Renderer,
                            draw: TableFormatter.Draw) throws(OutputError) {
        reader.table.columnsMayGrow = false
        // P4: what is drawn goes out whenever the pipe makes us wait, not when it closes.
        // A reader gone (`… | head`) is noticed at that flush and ends the run at the next
        // row, rather than rows read on forever from an input that never ends (`--follow`).
        let out = self.out
        var closed: OutputError?
        reader.table.stream.beforeWaiting = {
            guard closed == nil else { return }
            do throws(OutputError) { try out.flush() } catch { closed = error }
        }
        defer { reader.table.stream.beforeWaiting = nil }
        while reader.next() {
            if let closed { throw closed }
            if count.drawn < limit {
                try reader.record.withFields { (row) throws(OutputError) in try draw(renderer, row) }
                count.drawn += 1
            }
            count.total += 1
        }
        count.total = max(count.total, count.drawn)
    }

    /// A file again, read on a second thread while this one draws; when this thread is behind,
    /// the reader draws a batch into memory itself.
    private func drawFileAgain(rows: Int, _ count: inout DrawCount, _ reader: inout RowReader, renderer: any Renderer,
                               draw: @escaping TableFormatter.Draw) throws(OutputError) {
        let readError = reader.error
        let again: TableInput
        do {
            again = try TableInput(input, options: options.input, choice: reader.table.choiceForNextPass,
                                   columns: Array(reader.table.columns.prefix(reader.table.headerCount)))
        } catch {
            reader.keep(error)
            count.total = count.drawn  // the rows not drawn were not left out by a limit: say nothing of them
            return
        }
        let pipeline = RowPipeline(again, tuning: options.pipeline)
        var secondError: InputError?
        let memory = MemorySink()
        let helperOut = OutputBuffer(memory)
        let helper = renderer.continuation(into: helperOut)
        let help = { (batch: RowPipeline.Batch) in
            helper.resume(atRow: batch.firstRow)
            let cuts = helper.cutCells
            do {
                try batch.forEachRow { (row) throws(OutputError) in try draw(helper, row) }
                try helperOut.flush()
            } catch {
                preconditionFailure("drawing into memory cannot fail: \(error)")
            }
            batch.output = memory.take()
            batch.cuts = helper.cutCells - cuts
        }
        let out = self.out
        var drawn = count.drawn
        try pipeline.consume(maxRows: min(rows, limit), help: help) { (batch) throws(OutputError) in
            if batch.helped {
                try batch.output.withUnsafeBufferPointer { (bytes) throws(OutputError) in try out.write(bytes) }
                renderer.cutCells += batch.cuts
                renderer.resume(atRow: batch.firstRow + batch.count)
                drawn += batch.count
            } else {
                try batch.forEachRow { (row) throws(OutputError) in
                    try draw(renderer, row)
                    drawn += 1
                }
            }
            if let error = batch.error, secondError == nil { secondError = error }
        }
        count.drawn = drawn
        reader.keep(secondError)
        if readError == nil && secondError != nil { count.total = count.drawn }
    }

    /// The notes under the output (W14).
    /// - Parameter sizedBy: how many rows sized the columns when later rows were drawn in their
    ///   widths (a pipe's window, the rows before a followed file's first pause).
    private func notes(_ renderer: any Renderer, plan: LayoutPlan, _ count: DrawCount, cutBefore: Int, sizedBy: Int?) throws(OutputError) {
        if count.total == 0 { try renderer.note("(no rows)") }
        if count.total > count.drawn {
            let more = count.total - count.drawn
            try renderer.note("… \(Wording.grouped(more)) more row\(more == 1 ? "" : "s")")
        }
        if !plan.omitted.isEmpty {
            try renderer.note(Wording.omissionNote(plan.omitted, beyond: plan.omittedBeyond))
        }
        guard !twoPass, let sizedBy else { return }
        let first = sizedBy == 1 ? "the first row" : "the first \(Wording.grouped(sizedBy)) rows"
        // `--window all` waits for the input's end: a followed input has none.
        let advice = options.follow ? "" : "; use --window all to size from every row"
        let cut = renderer.cutCells - cutBefore
        if cut > 0 {
            try renderer.note("\(cut) cell\(cut == 1 ? " was" : "s were") cut to the widths of \(first)\(advice)")
        }
        let grown = renderer.grownCells
        if grown > 0 {
            try renderer.note("\(grown) cell\(grown == 1 ? " was" : "s were") wider than \(first) and drawn whole: \(grown == 1 ? "its row is" : "their rows are") wider")
        }
    }
}
