import Input
import Schedule
import Text
import Transform
/// Output formats (O1).
public enum OutputFormat: String, Sendable, CaseIterable {
    case plain, ansi, markdown, html
}

/// How rows are laid out (W7).
public enum LayoutMode: String, Sendable, CaseIterable {
    /// A table when every column fits, else a list report.
    case auto
    case table
    case list
    case pages
}

/// A width given as display columns or as a percentage of the container (W3, W4).
public enum WidthBound: Sendable, Equatable {
    case cells(Int)
    case percent(Int)

    /// Parses `12` or `40%`.
    public init?(_ text: String) {
        if text.hasSuffix("%"), let p = Int(text.dropLast()), p > 0, p <= 100 {
            self = .percent(p)
        } else if let n = Int(text), n > 0 {
            self = .cells(n)
        } else {
            return nil
        }
    }

    /// The bound in display columns for a container of `width` columns.
    public func resolve(in width: Int) -> Int {
        switch self {
        case .cells(let n): return n
        case .percent(let p): return width * p / 100
        }
    }
}

/// Everything the engine needs to know about how to read and draw. The executable builds it
/// from argv and the environment; the engine never looks at either.
public struct FormatOptions: Sendable {
    // Input
    /// `-i`; nil means auto (extension, then sniffing).
    public var inputFormat: InputFormat?
    /// `-d`; nil means sniffed.
    public var delimiter: UInt8?
    /// Whether the first CSV/TSV row is the header (`--no-header` turns it off).
    public var header = true
    /// `--encoding`; nil means UTF-8 unless a BOM says UTF-16.
    public var encoding: TextEncoding?
    /// Rows a pipe is sized from (`--window`); nil sizes from all rows.
    public var window: Int? = 1000

    // Columns and cells
    /// C3: take a unit shared by every cell of a column into its heading (`--units keep` turns it off).
    public var moveUnits = true
    /// C4: title-style headings (`--headers keep` turns it off).
    public var titleHeadings = true
    /// C6: lines a cell may take (`--wrap 1|2`).
    public var cellLines = 1
    /// C7: where a cut text loses its characters.
    public var ellipsis: EllipsisMode = .end
    /// C8: what an empty cell shows (`--null TEXT`).
    public var nullText = ""

    // Layout
    /// The container width in display columns; nil is unlimited (W1).
    public var width: Int?
    /// `--ambiguous-wide`.
    public var ambiguousWide = false
    /// W3 `--max-width`: the widest a column may be (default 50% of the container, padding included).
    public var maxWidth: WidthBound?
    /// W4 `--min-width`: the narrowest a giving-way column may be (default 25% of the container).
    public var minWidth: WidthBound?
    /// W6 `--fill`: the first column grows to fill the container.
    public var fill = false
    /// W7 `--layout`.
    public var layout: LayoutMode = .auto

    // Transforms (W9–W12, W14)
    /// `--columns`: which columns, in which order.
    public var columns: ColumnSelection?
    /// `--limit N`.
    public var limit: Int?
    /// `--sort`.
    public var sort: [SortKey] = []
    /// `--group-by` and `--footer sum|none`.
    public var groupBy: ColumnReference?
    /// Whether each group ends with the sums of its numeric columns (`--footer sum`).
    public var groupFooter = true
    /// `--title`.
    public var title: String?
    /// `--memory-limit`: the bytes `--sort` may hold before it sorts rows in runs on disk and
    /// merges them (P2); default 64 MiB.
    public var memoryLimit = 64 << 20
    /// `--max-row-size`: the most bytes one row (the header row too, a JSON row with its keys)
    /// may take; a longer one ends the run with exit 65 and a line saying so, instead of being held
    /// whole (E5); default 256 MiB.
    public var maxRowSize = 256 << 20
    /// `TABLEFMT_DEBUG=layout`: explain layout decisions (on stderr, by the executable).
    public var explainLayout = false
    /// `--follow`: the input is watched for more rows after its end (V9, P5).
    public var follow = false
    /// The headings drawn again before every this many lines of rows (a followed table printed
    /// to a terminal, P5); nil: once.
    public var headingsEvery: Int?

    // Output
    /// Plain text, ANSI-styled text, Markdown or HTML (`-f`, O1).
    public var format: OutputFormat = .plain
    /// `--fragment`: HTML as only the markup a CI summary keeps, not a page (O6).
    public var htmlFragment = false
    /// O2 `--style`.
    public var style: TableStyle = .rule
    /// W13 `--zebra`: alternate rows get a background (ANSI only).
    public var zebra = false
    /// How a file's rows travel between the reader thread and this one (tests vary it).
    package var pipeline = PipelineTuning()

    /// The defaults of the command line (without a terminal: plain, no width limit).
    public init() {}
}

extension FormatOptions {
    /// The options that shape reading.
    package var input: InputOptions {
        InputOptions(inputFormat: inputFormat, delimiter: delimiter, header: header, encoding: encoding, maxRowSize: maxRowSize, endless: follow)
    }
}
