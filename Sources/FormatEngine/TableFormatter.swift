/// What a run ended with, besides its output.
public struct RunResult: Sendable {
    /// Warnings about the input, for stderr.
    public var warnings: [String] = []
    /// The data error that stopped reading, after the rows before it were printed (SPEC E2).
    public var error: InputError?
    /// The layout's reasons, when `explainLayout` is on.
    public var explanation: [String] = []
}

/// The one public entry: options + input + sink → the whole pipeline.
///
/// Reads the input, sizes the columns (a regular file from all rows in a first pass, a pipe from
/// the first `window` rows), plans the layout once, then renders every row.
public enum TableFormatter {
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
        var record = Record()
        var profiler = ColumnProfiler(columns: table.columns, measure: measure, trackWords: options.cellLines > 1)
        var buffered: [Record] = []
        var rows = 0
        let twoPass = input.isRereadable
        let window = twoPass ? nil : options.window

        // Sizing: every row of a file, or the window of a pipe.
        do {
            while window.map({ rows < $0 }) ?? true, try table.next(into: &record) {
                profiler.sync(columns: table.columns)
                profiler.add(record)
                rows += 1
                if !twoPass { buffered.append(record) }
            }
        } catch {
            result.error = error
        }
        profiler.sync(columns: table.columns)
        if table.columns.isEmpty && rows == 0 {  // E4: empty input prints nothing
            result.warnings = table.warnings
            return result
        }
        let plan = Layout.plan(profiler.profiles, options: options)
        if options.explainLayout { result.explanation = plan.explanation }
        let renderer = TableRenderer(plan: plan, out: out, measure: measure)
        try renderer.heading()

        var cutInWindow = 0
        if twoPass {
            // Pass 2: the same rows again, now drawn.
            result.warnings = table.warnings
            do {
                var again = try TableInput(input, options: options, choice: table.choice)
                var printed = 0
                while printed < rows, next(&again, &record, &result) {
                    try renderer.row(record)
                    printed += 1
                }
            } catch let error as OutputError {
                throw error
            } catch let error as InputError {
                if result.error == nil { result.error = error }
            } catch {
                throw .failed("\(error)")
            }
        } else {
            for row in buffered { try renderer.row(row) }
            buffered.removeAll()
            cutInWindow = renderer.cutCells
            if result.error == nil {
                table.columnsMayGrow = false
                while next(&table, &record, &result) {
                    try renderer.row(record)
                    rows += 1
                }
            }
            result.warnings = table.warnings
        }
        if rows == 0 { try renderer.note("(no rows)") }
        if !plan.omitted.isEmpty {
            let n = plan.omitted.count
            try renderer.note("\(n) more column\(n == 1 ? "" : "s"): \(plan.omitted.joined(separator: ", "))")
        }
        let cutWhileStreaming = renderer.cutCells - cutInWindow
        if !twoPass && cutWhileStreaming > 0, let window {
            try renderer.note("\(cutWhileStreaming) cell\(cutWhileStreaming == 1 ? " was" : "s were") cut to the widths of the first \(window) rows; use --window all to size from every row")
        }
        try out.flush()
        return result
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
