import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
/// One run of the printed table, in the steps `TableFormatter` names. Each step is a function from
/// the value the step before made to its own: `readAndSize` gives a `Sized`, `transform` an
/// `Arranged`, `planLayout` the `LayoutPlan`, `draw` a `Drawn`. The run itself holds only what
/// every step works in: the input, the options, the output and the measure, and what they decide.
/// The threads that speed up a file (`RowPipeline`, `FilePieces`) stay inside `readAndSize` and
/// `draw`.
final class FormatRun {
    let input: any InputProvider
    let options: FormatOptions
    let out: OutputBuffer
    let measure: DisplayWidth
    /// Every row held in memory (`--sort`, `--group-by`, pages on a pipe).
    let holdAll: Bool
    /// A regular file: sized from every row, then read again to draw.
    let twoPass: Bool
    let limit: Int
    /// Rows a pipe is sized from (nil: all).
    let window: Int?

    init(_ input: some InputProvider, options: FormatOptions, output: any OutputSink) {
        self.input = input
        self.options = options
        out = OutputBuffer(output)
        measure = DisplayWidth(ambiguousIsWide: options.ambiguousWide)
        holdAll = !options.sort.isEmpty || options.groupBy != nil || (options.layout == .pages && !input.isRereadable)
        twoPass = input.isRereadable && !holdAll
        limit = options.limit ?? Int.max
        window = twoPass || holdAll ? nil : options.window.map { min($0, options.limit ?? Int.max) }
    }

    /// The steps, in order, over the opened input (its header read, or its format sniffed).
    func perform(_ table: consuming TableInput) throws(OutputError) -> RunResult {
        let sized = readAndSize(table)
        var result = RunResult()
        result.pieces = sized.pieces
        if sized.reader.table.columns.isEmpty {
            try noteRowsWithoutFields(sized.count)
            result.warnings = sized.reader.table.warnings
            result.error = sized.reader.error
            return result
        }
        let transforms: TableFormatter.Transforms
        do {
            transforms = try TableFormatter.Transforms(options, columns: sized.reader.table.columns)
        } catch {
            result.usageError = error.description
            result.error = sized.reader.error
            return result
        }
        let arranged = transform(sized, transforms)
        let plan = planLayout(arranged.profiler.profiles, rows: arranged.count, selection: transforms.selection)
        if options.explainLayout { result.explanation = plan.explanation }
        result.wholeTable = plan.mode == .table && plan.omitted.isEmpty
        let drawn = try draw(arranged, plan: plan, transforms: transforms)
        result.error = drawn.error
        result.rowsByNotes = drawn.rowsByNotes
        result.warnings = drawn.warnings
        return result
    }

    /// A profile of `columns` for sizing or typing them, as every step makes one.
    func newProfiler(columns: [String]) -> ColumnProfiler {
        ColumnProfiler(columns: columns, measure: measure, trackWords: options.cellLines > 1)
    }

    // MARK: - 3. Plan

    /// The layout, once (W1–W8), from the shown rows' profiles. E4: a header with no rows shows its
    /// headings, so with nothing to list `auto` stays a table.
    func planLayout(_ profiles: [ColumnProfile], rows: Int, selection: [Int]?) -> LayoutPlan {
        var planOptions = options
        if rows == 0 && options.layout == .auto { planOptions.layout = .table }
        return Layout.plan(profiles, selection: selection, options: planOptions)
    }
}

// MARK: - The values the steps hand on

extension FormatRun {
    /// The input as a run reads it: its reader, the row being read, and the first data error, which
    /// ends the rows and is reported after the rows before it are printed (E2).
    struct RowReader {
        var table: TableInput
        var record = Record()
        private(set) var error: InputError?

        init(_ table: consuming TableInput) {
            self.table = table
        }

        /// Reads the next row into `record`; false at the end, or at a data error, which is kept.
        mutating func next() -> Bool {
            do {
                return try table.next(into: &record)
            } catch {
                keep(error)
                return false
            }
        }

        /// Keeps `error` unless an earlier one is kept: the first error is the one reported.
        mutating func keep(_ error: InputError?) {
            if self.error == nil { self.error = error }
        }
    }

    /// How the rows are held between the steps.
    enum HeldRows {
        /// Every row in memory (`holdAll`), with every row's profile when they were typed as they
        /// were read (`--sort`).
        case all([Record], typing: ColumnProfiler?)
        /// A pipe's window: its rows are drawn, then the rest of the stream as it comes.
        case window([Record])
        /// A regular file, read again to draw.
        case file
        /// A file sized in pieces on both cores, to be drawn in the same pieces (P1).
        case pieces(FilePieces)
        /// `--group-by` of a file sized in pieces, each tallying its groups.
        case pieceGroups(FilePieces, PieceGroups)
        /// `--sort` past the memory budget: sorted runs on disk (P2), with every row's profile,
        /// for the sort columns' types.
        case sorted(ExternalSort, typing: ColumnProfiler)
        /// `--group-by` past the memory budget: the groups sorted on disk (P2).
        case externalGroups(ExternalGroups)
    }

    /// Step 1's value: what was read and how its rows are held.
    struct Sized {
        var reader: RowReader
        var rows: HeldRows
        /// The sizing profile so far (a pipe's window and held rows are sized in step 2).
        var profiler: ColumnProfiler
        /// Rows read.
        var count = 0
        /// How many pieces a file was read in on both cores (0: read whole).
        var pieces = 0
    }

    /// Step 2's value: the rows in the order they are drawn, sized, and their groups.
    struct Arranged {
        var reader: RowReader
        var rows: HeldRows
        /// The profile of what is shown: the layout is planned from it.
        var profiler: ColumnProfiler
        var count: Int
        var groups: Groups
    }

    /// Step 4's value: what was drawn, and what the input said meanwhile.
    struct Drawn {
        var error: InputError?
        var warnings: [String]
        /// Rows the drawing pass took by the sizing pass's notes, without the reader (P1).
        var rowsByNotes = 0
    }
}
