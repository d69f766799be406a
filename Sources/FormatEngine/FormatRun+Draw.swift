/// Step 4 of a run: the title, the rows (in groups, in pages' bands, or the file read again), the notes.
extension FormatRun {
    /// The title, the rows (in groups, or in pages' bands), then the notes.
    func draw(_ plan: LayoutPlan, transforms: TableFormatter.Transforms, groups: Groups) throws(OutputError) {
        var plan = plan
        plan.keepsColumns = options.follow
        let renderer = Renderers.make(plan, options: options, out: out)
        if let title = options.title { try renderer.title(title) }
        var supply: TableFormatter.Supply = holdAll ? .memory(held) : twoPass ? .file(count: rows) : .stream(held)
        if let external, let typing { supply = .sorted(external, numeric: typing.profiles.map(\.isNumeric)) }
        held.removeAll()
        var drawn = 0
        var total = rows
        var cutBefore = renderer.cutCells
        switch plan.mode {
        case .table, .list:
            if plan.mode == .table { try renderer.beginTable(plan.columns, caption: nil) }
            var draw: TableFormatter.Draw = plan.mode == .table ? { (r, row) throws(OutputError) in try r.row(row) } : { (r, row) throws(OutputError) in try r.block(row) }
            if plan.mode == .table, let every = options.headingsEvery {
                draw = Self.headingsAgain(every: every, rowLines: plan.cellLines, columns: plan.columns, out: out, draw)
            }
            let grouped = externalGroups != nil || pieceGroups != nil || transforms.groupIndex != nil && holdAll
            if grouped {
                if let pieceGroups {
                    try drawGroupedPieces(pieceGroups, groups, plan: plan, renderer: renderer, draw: draw, drawn: &drawn)
                } else if let externalGroups {
                    try drawExternalGroups(externalGroups, groups, plan: plan, renderer: renderer, draw: draw, drawn: &drawn)
                } else if let groupIndex = transforms.groupIndex, case .memory(let all) = supply {
                    try drawGroups(all, groups, groupIndex: groupIndex, selection: transforms.selection, plan: plan, renderer: renderer, draw: draw, drawn: &drawn)
                }
                if plan.mode == .table { try renderer.endTable() }
                if groups.rounded {
                    try renderer.note("A total marked ≈ is rounded to 17 significant digits: its numbers span more than \(ExactDecimal.limit) digits, from the largest one's first to the smallest one's last.")
                }
            } else {
                try drawRows(&supply, drawn: &drawn, total: &total, renderer: renderer, draw: draw, windowDrawn: { cutBefore = renderer.cutCells })
                if plan.mode == .table { try renderer.endTable() }
            }
        case .pages:
            for (b, band) in plan.bands.enumerated() {
                let others = band.dropFirst().map(\.heading)
                let caption = plan.bands.count > 1 ? "Page \(b + 1) of \(plan.bands.count): \(others.joined(separator: ", "))" : nil
                try renderer.beginTable(band, caption: caption)
                drawn = 0
                try drawRows(&supply, drawn: &drawn, total: &total, renderer: renderer, draw: { (r, row) throws(OutputError) in try r.row(row) }, windowDrawn: {})
                try renderer.endTable()
            }
            cutBefore = renderer.cutCells
        }
        if transforms.groupIndex == nil || !holdAll {
            try notes(renderer, plan: plan, drawn: drawn, total: total, cutBefore: cutBefore)
        } else {
            try notes(renderer, plan: plan, drawn: drawn, total: total, cutBefore: renderer.cutCells)
        }
        try renderer.finish()
    }

    /// W12: a section per group, its heading with the row count, its rows, its footer of sums.
    func drawGroups(_ all: [Record], _ groups: Groups, groupIndex: Int, selection: [Int]?, plan: LayoutPlan, renderer: any Renderer,
                    draw: TableFormatter.Draw, drawn: inout Int) throws(OutputError) {
        let heading = plan.columns.first(where: { $0.source == groupIndex })?.heading ?? table.columns[groupIndex]
        let shown = selection ?? Array(table.columns.indices)
        for (g, group) in groups.members.enumerated() where drawn < limit {
            let count = group.rows.count
            try renderer.groupHeading(TableFormatter.groupHeading(heading, value: group.value, count: count))
            for r in group.rows where drawn < limit {
                try all[r].withFields { (row) throws(OutputError) in try draw(renderer, row) }
                drawn += 1
            }
            try drawFooter(g, groups, shown: shown, plan: plan, renderer: renderer)
        }
    }

    /// Group `g`'s footer of sums (W12), in a table.
    func drawFooter(_ g: Int, _ groups: Groups, shown: [Int], plan: LayoutPlan, renderer: any Renderer) throws(OutputError) {
        guard plan.mode == .table, g < groups.footers.count else { return }
        let cells = plan.columns.map { column -> String? in shown.firstIndex(of: column.source).flatMap { groups.footers[g][$0] } }
        try renderer.groupFooter(cells, label: Layout.totalLabel)
    }

    /// Draws each row of the supply, at most `limit`; counts the rows after the limit.
    func drawRows(_ supply: inout TableFormatter.Supply, drawn: inout Int, total: inout Int, renderer: any Renderer,
                  draw: @escaping TableFormatter.Draw, windowDrawn: () -> Void) throws(OutputError) {
        switch supply {
        case .memory(let all):
            for row in all.prefix(limit) {
                try row.withFields { (row) throws(OutputError) in try draw(renderer, row) }
                drawn += 1
            }
        case .file(let count):
            try drawFileAgain(count: count, drawn: &drawn, total: &total, renderer: renderer, draw: draw)
        case .sorted(let sort, let numeric):
            let limit = self.limit
            do {
                try sort.merge(numeric: numeric) { (fields, _) throws(OutputError) in
                    guard drawn < limit else { return false }
                    try draw(renderer, fields)
                    drawn += 1
                    return true
                }
            } catch {
                switch error {
                case .output(let error): throw error
                case .input(let error):
                    result.error = result.error ?? error
                    total = drawn
                }
            }
        case .stream(let window):
            for row in window.prefix(limit) {
                try row.withFields { (row) throws(OutputError) in try draw(renderer, row) }
                drawn += 1
            }
            windowDrawn()  // cuts from here on are cuts the window's sizing did not foresee
            supply = .memory([])  // the stream is read once
            guard result.error == nil else { return }
            table.columnsMayGrow = false
            // P4: what is drawn goes out whenever the pipe makes us wait, not when it closes.
            // A reader gone (`… | head`) is noticed at that flush and ends the run at the next
            // row, rather than rows read on forever from an input that never ends (`--follow`).
            let out = self.out
            var closed: OutputError?
            table.stream.beforeWaiting = {
                guard closed == nil else { return }
                do throws(OutputError) { try out.flush() } catch { closed = error }
            }
            defer { table.stream.beforeWaiting = nil }
            while nextRow() {
                if let closed { throw closed }
                if drawn < limit {
                    try record.withFields { (row) throws(OutputError) in try draw(renderer, row) }
                    drawn += 1
                }
                total += 1
            }
            total = max(total, drawn)
        }
    }

    /// A file again, read on a second thread while this one draws; when this thread is behind,
    /// the reader draws a batch into memory itself.
    func drawFileAgain(count: Int, drawn: inout Int, total: inout Int, renderer: any Renderer, draw: @escaping TableFormatter.Draw) throws(OutputError) {
        if let pieces {
            try drawPieces(pieces, drawn: &drawn, total: &total, renderer: renderer, draw: draw)
            return
        }
        let readError = result.error
        let again: TableInput
        do {
            again = try TableInput(input, options: options.input, choice: table.choiceForNextPass, columns: Array(table.columns.prefix(table.headerCount)))
        } catch {
            if result.error == nil { result.error = error }
            total = drawn  // the rows not drawn were not left out by a limit: say nothing of them
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
        try pipeline.consume(maxRows: min(count, limit), help: help) { (batch) throws(OutputError) in
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
        result.error = readError ?? secondError
        if readError == nil && secondError != nil { total = drawn }
    }

    /// The notes under the output (W14).
    func notes(_ renderer: any Renderer, plan: LayoutPlan, drawn: Int, total: Int, cutBefore: Int) throws(OutputError) {
        if total == 0 { try renderer.note("(no rows)") }
        if total > drawn {
            let more = total - drawn
            try renderer.note("… \(TableFormatter.grouped(more)) more row\(more == 1 ? "" : "s")")
        }
        if !plan.omitted.isEmpty {
            try renderer.note(TableFormatter.omissionNote(plan.omitted, beyond: plan.omittedBeyond))
        }
        let cutWhileStreaming = renderer.cutCells - cutBefore
        if !twoPass && cutWhileStreaming > 0, let window {
            try renderer.note("\(cutWhileStreaming) cell\(cutWhileStreaming == 1 ? " was" : "s were") cut to the widths of the first \(window == 1 ? "row" : "\(TableFormatter.grouped(window)) rows"); use --window all to size from every row")
        }
    }
}
