import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
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
    /// How many pieces a file was read in on both cores (0: read whole), for tests (P1).
    package var pieces = 0
    /// How many rows the drawing pass took by the sizing pass's notes, without the reader (P1).
    package var rowsByNotes = 0
}

/// The one public entry: options + input + sink → the whole pipeline, in the steps of a
/// `FormatRun`, each handing the next a value:
///
/// 1. Read and size (`Sized`): a regular file is sized from all of its rows, then read again to
///    draw; a pipe is sized from its first `window` rows, which are drawn as soon as the window is
///    full, then the rest streams through the same layout. `--sort`, `--group-by` and pages on a
///    pipe hold every row.
/// 2. Transform (`Arranged`): select columns (W9), sort (W11), group with their sums (W12), limit (W10).
/// 3. Plan the layout once (`Layout.plan`).
/// 4. Draw every row with the format's `Renderer`, then the notes (W14) (`Drawn`).
public enum TableFormatter {
    /// Formats `input` into `output`.
    /// - Returns: warnings and any data error (whose rows before it were still printed).
    /// - Throws: `OutputError` when writing fails or the reader went away.
    static func runDrawing(_ input: some InputProvider, options: FormatOptions, output: any OutputSink) throws(OutputError) -> RunResult {
        let run = FormatRun(input, options: options, output: output)
        let table: TableInput
        do {
            table = try TableInput(input, options: options.input)
        } catch {
            return RunResult(error: error)
        }
        return try run.perform(table)
    }

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

    /// Draws one row with a renderer: a table row or a list-report block.
    typealias Draw = (any Renderer, Fields) throws(OutputError) -> Void
}
