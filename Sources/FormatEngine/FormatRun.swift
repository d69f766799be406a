/// One run of the printed table: its input, what has been read and sized, and its output, in the
/// steps `TableFormatter` names. The threads that speed up a file (`RowPipeline`) stay inside
/// `readAndSize` and `drawRows`.
final class FormatRun {
    let input: any InputProvider
    let options: FormatOptions
    let out: OutputBuffer
    let measure: DisplayWidth
    var result = RunResult()
    var table: TableInput
    /// Every row held in memory (`--sort`, `--group-by`, pages on a pipe).
    let holdAll: Bool
    /// A regular file: sized from every row, then read again to draw.
    let twoPass: Bool
    let limit: Int
    /// Rows a pipe is sized from (nil: all).
    let window: Int?
    var profiler: ColumnProfiler
    /// Rows held: a pipe's window, or every row when `holdAll`.
    var held: [Record] = []
    /// Rows read in step 1.
    var rows = 0
    var record = Record()
    /// `--sort` without `--group-by`: rows sorted in runs on disk once they pass the memory
    /// budget (P2); every row's profile, for the sort columns' types.
    var external: ExternalSort?
    var typing: ColumnProfiler?
    /// `--group-by` without `--sort`: groups sorted on disk once the rows pass the budget (P2).
    var externalGroups: ExternalGroups?
    /// `--group-by` without `--sort` of a file sized in pieces, each tallying its groups.
    var pieceGroups: PieceGroups?
    /// A file sized in pieces on both cores, to be drawn in the same pieces (P1).
    var pieces: FilePieces?

    /// Opens the input (its header, or its format sniffed).
    /// - Throws: `InputError` when the input cannot be opened or its header read.
    init(_ input: some InputProvider, options: FormatOptions, output: any OutputSink) throws(InputError) {
        self.input = input
        self.options = options
        out = OutputBuffer(output)
        measure = DisplayWidth(ambiguousIsWide: options.ambiguousWide)
        table = try TableInput(input, options: options.input)
        holdAll = !options.sort.isEmpty || options.groupBy != nil || (options.layout == .pages && !input.isRereadable)
        twoPass = input.isRereadable && !holdAll
        limit = options.limit ?? Int.max
        window = twoPass || holdAll ? nil : options.window.map { min($0, options.limit ?? Int.max) }
        profiler = ColumnProfiler(columns: table.columns, measure: measure, trackWords: options.cellLines > 1)
    }

    /// The steps, in order.
    func perform() throws(OutputError) -> RunResult {
        try readAndSize()
        if table.columns.isEmpty {
            try noteRowsWithoutFields()
            result.warnings = table.warnings
            return result
        }
        let transforms: TableFormatter.Transforms
        do {
            transforms = try TableFormatter.Transforms(options, columns: table.columns)
        } catch {
            result.usageError = error.description
            return result
        }
        let groups = transform(transforms)
        let plan = planLayout(selection: transforms.selection)
        try draw(plan, transforms: transforms, groups: groups)
        result.warnings = table.warnings
        return result
    }

    // MARK: - 1. Read and size

    /// A file's rows are sized on this thread while a second one reads them; a pipe's window (or
    /// every row, when all are held) is read and held, sized in step 2.
    func readAndSize() throws(OutputError) {
        if twoPass && sizeInPieces() {
            // Sized on both cores, each reading whole pieces of the file.
        } else if sizeGroupsInPieces() {
            // Grouped as it is sized, on both cores (`PieceGroups`).
        } else if twoPass {
            // The reader sizes some batches itself, into its own profile, when this thread is behind;
            // the profile takes its columns when it is first used (a row of 2 million columns
            // should not be profiled twice over for nothing, E5).
            let pipeline = RowPipeline(table, tuning: options.pipeline)
            let helper = Shared(ColumnProfiler(columns: [], measure: measure, trackWords: options.cellLines > 1))
            let limit = self.limit
            try pipeline.consume(maxRows: Int.max, help: { batch in
                helper.value.sync(columns: batch.columns)
                batch.forEachRow(upTo: limit) { helper.value.add($0) }
            }) { batch in
                if !batch.helped {
                    profiler.sync(columns: batch.columns)
                    batch.forEachRow(upTo: limit) { profiler.add($0) }
                }
                rows += batch.count
                if let error = batch.error, result.error == nil { result.error = error }
            }
            profiler.merge(helper.value)
            table = pipeline.table
        } else if !options.sort.isEmpty && options.layout != .pages {
            try readForSort()
        } else if options.groupBy != nil && options.sort.isEmpty && options.layout != .pages {
            try readForGroups()
        } else {
            // A pipe whose writer pauses for `windowPause` before the window is full is sized from
            // the rows that came, so they show at once (`tail -f log.csv | tablefmt`, P4).
            while window.map({ rows < $0 }) ?? true,
                  window == nil || rows == 0 || !table.stream.pauses(milliseconds: TableFormatter.windowPause),
                  nextRow() {
                profiler.sync(columns: table.columns)
                held.append(record.compacted())
                rows += 1
            }
        }
        profiler.sync(columns: table.columns)
    }

    /// `--sort`: every row, held until the budget is passed, then in sorted runs on disk (P2).
    /// The sort columns are resolved once the header (or the first JSON rows) names them.
    func readForSort() throws(OutputError) {
        var typing = ColumnProfiler(columns: table.columns, measure: measure, trackWords: options.cellLines > 1)
        var sort: ExternalSort?
        var held: [Record] = []
        while nextRow() {
            profiler.sync(columns: table.columns)
            typing.sync(columns: table.columns)
            typing.add(record)
            rows += 1
            if sort == nil, let keys = try? TableFormatter.Transforms(options, columns: table.columns).sortKeys {
                let made = ExternalSort(keys: keys, budget: options.memoryLimit)
                do {
                    for row in held { try made.add(row, numeric: typing.profiles.map(\.isNumeric)) }
                } catch {
                    result.error = result.error ?? error
                    break
                }
                held = []
                sort = made
            }
            guard let sort else {
                held.append(record.compacted())
                continue
            }
            do { try sort.add(record, numeric: typing.profiles.map(\.isNumeric)) } catch {
                result.error = result.error ?? error
                break
            }
        }
        if let sort, sort.spilled {
            do { try sort.finish(numeric: typing.profiles.map(\.isNumeric)) } catch { result.error = result.error ?? error }
            external = sort
        } else {
            self.held = sort?.takeHeld() ?? held
        }
        self.typing = typing
    }

    /// Reads the next row into `record`; a data error ends the rows and is kept (E2).
    func nextRow() -> Bool {
        do {
            return try table.next(into: &record)
        } catch {
            if result.error == nil { result.error = error }
            return false
        }
    }

    /// E4: empty input prints nothing. Rows with no fields at all (JSON `{}` or `[]`) are said in
    /// a note, wrapped to the width like any other (W1, W14), rather than drawn as blank lines.
    func noteRowsWithoutFields() throws(OutputError) {
        guard rows > 0 else { return }
        let note = "(\(TableFormatter.grouped(rows)) row\(rows == 1 ? "" : "s") with no fields)"
        for line in measure.fit(note, width: options.width ?? Int.max, maxLines: Int.max, ellipsis: .end) {
            try out.write(line.text)
            try out.newline()
        }
        try out.flush()
    }

    // MARK: - 2. Transform

    /// Groups of held rows (W12): the value, the rows' indexes, and the footer's sums.
    struct Groups {
        var members: [(value: String, rows: [Int])] = []
        /// Per group, per shown column: the sum to show, or nil.
        var footers: [[String?]] = []
        /// A sum was rounded (its numbers span more digits than are kept exactly).
        var rounded = false
    }

    /// Sorts held rows (W11), sizes what is shown (W10), and groups with sums (W12).
    func transform(_ transforms: TableFormatter.Transforms) -> Groups {
        if let externalGroups { return externalFooters(externalGroups, selection: transforms.selection) }
        if let pieceGroups { return footers(groupIndex: pieceGroups.index, selection: transforms.selection) { pieceGroups.sums(of: $0) } }
        if let external, let typing {
            // Sorted on disk: sized from every row, or from the first `limit` of the merge.
            if limit >= rows {
                profiler = typing
            } else {
                var shown = 0
                do {
                    try external.merge(numeric: typing.profiles.map(\.isNumeric)) { (fields, _) throws(OutputError) in
                        profiler.add(fields)
                        shown += 1
                        return shown < limit
                    }
                } catch {
                    if case .input(let error) = error { result.error = result.error ?? error }
                }
            }
            if let groupIndex = transforms.groupIndex {
                // Grouped after sorting: groups in the order they first appear in the sorted rows.
                let grouping = groupSorted(external, numeric: typing.profiles.map(\.isNumeric), groupIndex: groupIndex)
                externalGroups = grouping
                return externalFooters(grouping, selection: transforms.selection)
            }
            return Groups()
        }
        if holdAll {
            if !transforms.sortKeys.isEmpty {
                // Type the sort columns from every row (profiled as they were read). When every
                // row is shown, that profile is the sizing one too (a profile does not depend on
                // the rows' order).
                let typing = self.typing ?? {
                    var typing = ColumnProfiler(columns: table.columns, measure: measure, trackWords: options.cellLines > 1)
                    for row in held { typing.add(row) }
                    return typing
                }()
                RowOrder.sort(&held, keys: transforms.sortKeys, numeric: typing.profiles.map(\.isNumeric))
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
        guard let groupIndex = transforms.groupIndex else { return Groups() }
        var groups = Groups(members: RowOrder.groups(held, by: groupIndex))
        if options.groupFooter { addSums(&groups, groupIndex: groupIndex, shown: transforms.selection ?? Array(table.columns.indices)) }
        return groups
    }

    /// Each group's sums of its numeric columns, exact in decimal (W12); sized with the cells.
    func addSums(_ groups: inout Groups, groupIndex: Int, shown: [Int]) {
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
            for (k, sum) in sums.enumerated() { if let sum { profiler.noteFooter(column: shown[k], TableFormatter.footerText(sum)) } }
            groups.footers.append(sums.map { $0.map(TableFormatter.footerText) })
        }
    }

    // MARK: - 3. Plan

    /// The layout, once (W1–W8). E4: a header with no rows shows its headings, so with nothing to
    /// list `auto` stays a table.
    func planLayout(selection: [Int]?) -> LayoutPlan {
        var planOptions = options
        if rows == 0 && options.layout == .auto { planOptions.layout = .table }
        let plan = Layout.plan(profiler.profiles, selection: selection, options: planOptions)
        if options.explainLayout { result.explanation = plan.explanation }
        result.wholeTable = plan.mode == .table && plan.omitted.isEmpty
        return plan
    }
}
