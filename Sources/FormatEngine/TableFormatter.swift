/// What a run ended with, besides its output.
public struct RunResult: Sendable {
    /// Warnings about the input, for stderr.
    public var warnings: [String] = []
    /// The data error that stopped reading, after the rows before it were printed (E2).
    public var error: InputError?
    /// A `--columns`, `--sort` or `--group-by` name that matches no column (exit 64; nothing printed).
    public var usageError: String?
    /// The layout's reasons, when `explainLayout` is on.
    public var explanation: [String] = []
    /// The output was a table with every column in it (the view's `auto` asks, V1).
    package var wholeTable = false
}

/// The one public entry: options + input + sink → the whole pipeline.
///
/// 1. Read: a regular file is sized from all of its rows, then read again to draw; a pipe is sized
///    from its first `window` rows, which are drawn as soon as the window is full, then the rest
///    streams through the same layout. `--sort`, `--group-by` and pages on a pipe hold every row.
/// 2. Transform: select columns (W9), sort (W11), group (W12), limit (W10).
/// 3. Plan the layout once (`Layout.plan`), then draw every row with the format's `Renderer`.
public enum TableFormatter {
    /// Where the rows come from when they are drawn.
    enum Supply {
        /// A regular file read again, `count` rows, as many times as needed.
        case file(count: Int)
        /// Rows held in memory (sorted or grouped, or a pipe drawn more than once).
        case memory([Record])
        /// A pipe: the window's rows, then the rest of the stream, once.
        case stream([Record])
    }

    /// Formats `input` into `output`.
    /// - Returns: warnings and any data error (whose rows before it were still printed).
    /// - Throws: `OutputError` when writing fails or the reader went away.
    public static func run(_ input: some InputProvider, options: FormatOptions, output: any OutputSink) throws(OutputError) -> RunResult {
        var result = RunResult()
        let out = OutputBuffer(output)
        let measure = DisplayWidth(ambiguousIsWide: options.ambiguousWide)
        var table: TableInput
        do {
            table = try TableInput(input, options: options)
        } catch {
            result.error = error
            return result
        }
        let holdAll = !options.sort.isEmpty || options.groupBy != nil || (options.layout == .pages && !input.isRereadable)
        let twoPass = input.isRereadable && !holdAll
        let limit = options.limit ?? Int.max
        // Rows sized: a file's shown rows; a pipe's window (nil: all).
        let window: Int? = twoPass || holdAll ? nil : options.window.map { min($0, limit) }

        // Step 1: read and size.
        var record = Record()
        var profiler = ColumnProfiler(columns: table.columns, measure: measure, trackWords: options.cellLines > 1)
        var held: [Record] = []
        var rows = 0
        if twoPass {
            // A file: its rows are read on a second thread while this one sizes them; the reader
            // sizes some batches itself, into its own profile, when this thread is behind.
            let pipeline = RowPipeline(table, tuning: options.pipeline)
            let helper = Shared(ColumnProfiler(columns: table.columns, measure: measure, trackWords: options.cellLines > 1))
            try pipeline.consume(maxRows: Int.max, help: { batch in
                helper.value.sync(columns: batch.columns)
                Self.size(batch, into: &helper.value, limit: limit)
            }) { batch in
                if !batch.helped {
                    profiler.sync(columns: batch.columns)
                    Self.size(batch, into: &profiler, limit: limit)
                }
                rows += batch.count
                if let error = batch.error, result.error == nil { result.error = error }
            }
            profiler.merge(helper.value)
            table = pipeline.table
        } else {
            // A pipe, or rows to sort or group: held, then sized (step 2). A pipe whose writer
            // pauses for `windowPause` before the window is full is sized from the rows that came,
            // so they show at once (`tail -f log.csv | tablefmt`, P4).
            while window.map({ rows < $0 }) ?? true,
                  window == nil || rows == 0 || !table.stream.pauses(milliseconds: Self.windowPause),
                  next(&table, &record, &result) {
                profiler.sync(columns: table.columns)
                held.append(record.compacted())
                rows += 1
            }
        }
        profiler.sync(columns: table.columns)
        if table.columns.isEmpty {
            // E4: empty input prints nothing. Rows with no fields at all (JSON `{}` or `[]`) are
            // said in a note rather than drawn as blank lines.
            if rows > 0 {
                // A note like any other: wrapped to the width (W1, W14).
                let note = "(\(grouped(rows)) row\(rows == 1 ? "" : "s") with no fields)"
                for line in measure.fit(note, width: options.width ?? Int.max, maxLines: Int.max, ellipsis: .end) {
                    try out.write(line.text)
                    try out.newline()
                }
                try out.flush()
            }
            result.warnings = table.warnings
            return result
        }

        // Step 2: transform.
        let transforms: Transforms
        do {
            transforms = try Transforms(options, columns: table.columns)
        } catch {
            result.usageError = error.description
            return result
        }
        let (selection, sortKeys, groupIndex) = (transforms.selection, transforms.sortKeys, transforms.groupIndex)
        var groups: [(value: String, rows: [Int])] = []
        if holdAll {
            if !sortKeys.isEmpty {
                // Type the sort columns from every row. When every row is shown, that profile is
                // the sizing one too (a profile does not depend on the rows' order).
                var typing = ColumnProfiler(columns: table.columns, measure: measure, trackWords: options.cellLines > 1)
                for row in held { typing.add(row) }
                RowOrder.sort(&held, keys: sortKeys, numeric: typing.profiles.map(\.isNumeric))
                if limit >= held.count {
                    profiler = typing
                } else {
                    for row in held.prefix(limit) { profiler.add(row) }
                }
            } else {
                for row in held.prefix(limit) { profiler.add(row) }
            }
        } else if !twoPass {
            for row in held.prefix(limit) { profiler.add(row) }  // W10: sized from the rows shown
        }
        var footers: [[String?]] = []
        var roundedSums = false
        if let groupIndex {
            groups = RowOrder.groups(held, by: groupIndex)
            if options.groupFooter {
                let shown = selection ?? Array(table.columns.indices)
                for group in groups {
                    let sums: [NumberValue.Sum?] = shown.map { index in
                        guard index != groupIndex, profiler.profiles[index].isNumeric, profiler.profiles[index].kind != .null else { return nil }
                        let cells = group.rows.map { r -> [UInt8] in
                            let row = held[r]
                            return index < row.count ? Array(row.bytes[row.range(of: index)]) : []
                        }
                        return NumberValue.sum(cells)
                    }
                    roundedSums = roundedSums || sums.contains { $0?.exact == false }
                    for (k, sum) in sums.enumerated() { if let sum { profiler.noteFooter(column: shown[k], Self.footerText(sum)) } }
                    footers.append(sums.map { $0.map(Self.footerText) })
                }
            }
        }

        // Step 3: plan and draw.
        // E4: a header with no rows shows its headings, so with nothing to list `auto` stays a table.
        var planOptions = options
        if rows == 0 && options.layout == .auto { planOptions.layout = .table }
        let plan = Layout.plan(profiler.profiles, selection: selection, options: planOptions)
        if options.explainLayout { result.explanation = plan.explanation }
        result.wholeTable = plan.mode == .table && plan.omitted.isEmpty
        let renderer = Renderers.make(plan, options: options, out: out)
        if let title = options.title { try renderer.title(title) }

        var supply: Supply = holdAll ? .memory(held) : twoPass ? .file(count: rows) : .stream(held)
        held.removeAll()
        var drawn = 0
        var total = rows
        var cutBefore = 0
        switch plan.mode {
        case .table, .list:
            if plan.mode == .table { try renderer.beginTable(plan.columns, caption: nil) }
            let draw: Draw = plan.mode == .table ? { (r, row) throws(OutputError) in try r.row(row) } : { (r, row) throws(OutputError) in try r.block(row) }
            if let groupIndex, case .memory(let all) = supply {
                let heading = plan.columns.first(where: { $0.source == groupIndex })?.heading ?? table.columns[groupIndex]
                for (g, group) in groups.enumerated() where drawn < limit {
                    let count = group.rows.count
                    try renderer.groupHeading("\(heading): \(group.value.isEmpty ? "(empty)" : group.value) (\(count) row\(count == 1 ? "" : "s"))")
                    for r in group.rows where drawn < limit {
                        try all[r].withFields { (row) throws(OutputError) in try draw(renderer, row) }
                        drawn += 1
                    }
                    if plan.mode == .table, g < footers.count {
                        let shown = selection ?? Array(table.columns.indices)
                        let cells = plan.columns.map { column -> String? in
                            shown.firstIndex(of: column.source).flatMap { footers[g][$0] }
                        }
                        try renderer.groupFooter(cells, label: "Total")
                    }
                }
            } else {
                try forEachRow(&supply, input, &table, &record, &result, options: options, limit: limit, drawn: &drawn, total: &total,
                               out: out, renderer: renderer, draw: draw, windowDrawn: { cutBefore = renderer.cutCells })
                if plan.mode == .table { try renderer.endTable() }
                try notes(renderer, plan: plan, drawn: drawn, total: total, rows: rows, supply: supply, cutBefore: cutBefore, window: window, twoPass: twoPass)
                result.warnings = table.warnings
                try renderer.finish()
                return result
            }
            if plan.mode == .table { try renderer.endTable() }
            if roundedSums {
                try renderer.note("A total marked ≈ is rounded to 17 significant digits: its numbers span more than \(ExactDecimal.limit) digits, from the largest one's first to the smallest one's last.")
            }
        case .pages:
            for (b, band) in plan.bands.enumerated() {
                let others = band.dropFirst().map(\.heading)
                let caption = plan.bands.count > 1 ? "Page \(b + 1) of \(plan.bands.count): \(others.joined(separator: ", "))" : nil
                try renderer.beginTable(band, caption: caption)
                drawn = 0
                try forEachRow(&supply, input, &table, &record, &result, options: options, limit: limit, drawn: &drawn, total: &total,
                               out: out, renderer: renderer, draw: { (r, row) throws(OutputError) in try r.row(row) }, windowDrawn: {})
                try renderer.endTable()
            }
        }
        try notes(renderer, plan: plan, drawn: drawn, total: total, rows: rows, supply: supply, cutBefore: renderer.cutCells, window: window, twoPass: twoPass)
        result.warnings = table.warnings
        try renderer.finish()
        return result
    }

    /// How long a pipe's writer may pause before the rows that came are sized and shown (P4).
    package static let windowPause = 200

    /// `--columns`, `--sort` and `--group-by` resolved against the input's columns (W9–W12).
    struct Transforms {
        var selection: [Int]?
        var sortKeys: [(index: Int, descending: Bool)] = []
        var groupIndex: Int?

        /// - Throws: `SelectionError` for a name that matches no column, or several (exit 64).
        init(_ options: FormatOptions, columns: [String]) throws(SelectionError) {
            selection = try options.columns.map { selection throws(SelectionError) in try selection.resolve(in: columns) }
            for key in options.sort { sortKeys.append((try key.column.resolve(in: columns), key.descending)) }
            groupIndex = try options.groupBy.map { ref throws(SelectionError) in try ref.resolve(in: columns) }
        }
    }

    /// Why `options` cannot be applied to these columns (a usage error, exit 64), if it cannot.
    package static func columnProblem(_ options: FormatOptions, columns: [String]) -> String? {
        do {
            _ = try Transforms(options, columns: columns)
            return nil
        } catch {
            return error.description
        }
    }

    /// A group total as its footer shows it: `≈` before one that is rounded (W12).
    static func footerText(_ sum: NumberValue.Sum) -> String { sum.exact ? sum.text : "≈" + sum.text }

    /// Draws one row with a renderer: a table row or a list-report block.
    typealias Draw = (any Renderer, Fields) throws(OutputError) -> Void

    /// Sizes a batch's rows (those within the row limit).
    private static func size(_ batch: RowPipeline.Batch, into profiler: inout ColumnProfiler, limit: Int) {
        batch.forEachRow(upTo: limit) { profiler.add($0) }
    }

    /// Draws each row of the supply, at most `limit`; counts the rows after the limit.
    private static func forEachRow(_ supply: inout Supply, _ input: some InputProvider, _ table: inout TableInput, _ record: inout Record,
                                   _ result: inout RunResult, options: FormatOptions, limit: Int, drawn: inout Int, total: inout Int,
                                   out: OutputBuffer, renderer: any Renderer, draw: @escaping Draw, windowDrawn: () -> Void) throws(OutputError) {
        switch supply {
        case .memory(let all):
            for row in all.prefix(limit) {
                try row.withFields { (row) throws(OutputError) in try draw(renderer, row) }
                drawn += 1
            }
        case .file(let count):
            // The file again, read on a second thread while this one draws.
            let readError = result.error
            let again: TableInput
            do {
                again = try TableInput(input, options: options, choice: table.choiceForNextPass)
            } catch {
                if result.error == nil { result.error = error }
                total = drawn  // the rows not drawn were not left out by a limit: say nothing of them
                return
            }
            let pipeline = RowPipeline(again, tuning: options.pipeline)
            var secondError: InputError?
            // When this thread is behind, the reader draws a batch into memory itself.
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
            table.stream.beforeWaiting = { try? out.flush() }
            defer { table.stream.beforeWaiting = nil }
            while next(&table, &record, &result) {
                if drawn < limit {
                    try record.withFields { (row) throws(OutputError) in try draw(renderer, row) }
                    drawn += 1
                }
                total += 1
            }
            total = max(total, drawn)
        }
    }

    /// The notes under the output (W14).
    private static func notes(_ renderer: any Renderer, plan: LayoutPlan, drawn: Int, total: Int, rows: Int, supply: Supply,
                              cutBefore: Int, window: Int?, twoPass: Bool) throws(OutputError) {
        if total == 0 { try renderer.note("(no rows)") }
        if total > drawn {
            let more = total - drawn
            try renderer.note("… \(grouped(more)) more row\(more == 1 ? "" : "s")")
        }
        if !plan.omitted.isEmpty {
            try renderer.note(omissionNote(plan.omitted))
        }
        let cutWhileStreaming = renderer.cutCells - cutBefore
        if !twoPass && cutWhileStreaming > 0, let window {
            try renderer.note("\(cutWhileStreaming) cell\(cutWhileStreaming == 1 ? " was" : "s were") cut to the widths of the first \(window == 1 ? "row" : "\(grouped(window)) rows"); use --window all to size from every row")
        }
    }

    /// W5: `3 more columns: F, G, H`; past 50 names, the first 50 and how many more.
    static func omissionNote(_ omitted: [String]) -> String {
        let n = omitted.count
        let names = omitted.prefix(50).joined(separator: ", ") + (n > 50 ? ", and \(grouped(n - 50)) more" : "")
        return "\(grouped(n)) more column\(n == 1 ? "" : "s"): \(names)"
    }

    /// 1234567 → "1,234,567" (a count tablefmt writes itself, not a cell).
    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (k, ch) in digits.enumerated() {
            if k > 0 && (digits.count - k) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return out
    }

    /// Reads the next row; a data error ends the rows and is kept in `result` (E2).
    private static func next(_ table: inout TableInput, _ record: inout Record, _ result: inout RunResult) -> Bool {
        do {
            return try table.next(into: &record)
        } catch {
            if result.error == nil { result.error = error }
            return false
        }
    }
}
