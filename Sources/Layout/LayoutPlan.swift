import Transform
import Options
import Profile
import Text
/// How a column's cells sit in their width (C2).
package enum Alignment: Sendable, Equatable {
    case left
    case right
}

/// One visible column of a table.
package struct ColumnLayout: Sendable, Equatable {
    /// The column's index in the input record.
    package var source: Int
    /// The heading text as shown.
    package var heading: String
    /// Width in display columns (padding excluded).
    package var width: Int
    package var alignment: Alignment
    /// For numeric columns: the widths of the integer part and of the fraction with its point,
    /// so points line up; nil for text.
    package var numberParts: (integer: Int, fraction: Int)?
    /// Whether the cells' common unit is taken out (it is in the heading, C3).
    package var stripUnit: Bool

    package init(source: Int, heading: String, width: Int, alignment: Alignment, numberParts: (integer: Int, fraction: Int)? = nil, stripUnit: Bool = false) {
        self.source = source
        self.heading = heading
        self.width = width
        self.alignment = alignment
        self.numberParts = numberParts
        self.stripUnit = stripUnit
    }

    package static func == (a: ColumnLayout, b: ColumnLayout) -> Bool {
        a.source == b.source && a.heading == b.heading && a.width == b.width && a.alignment == b.alignment
            && a.numberParts?.integer == b.numberParts?.integer && a.numberParts?.fraction == b.numberParts?.fraction
            && a.stripUnit == b.stripUnit
    }
}

/// The decided shape of the output: a pure function of the profiles, the width and the options.
package struct LayoutPlan: Sendable, Equatable {
    package enum Mode: Sendable, Equatable {
        /// Columns side by side (W5).
        case table
        /// One block per row, a `Label  value` line per field (W8).
        case list
        /// Bands of columns that each fit, each repeating the first column (W7).
        case pages
    }

    package var mode: Mode
    /// Table: the visible columns. List: the fields, in order (the first is each block's title).
    /// Pages: every column, for reference; the bands say how they are drawn.
    package var columns: [ColumnLayout]
    /// Pages: each band's columns, the sticky first column included.
    package var bands: [[ColumnLayout]] = []
    /// The whole container's width (notes and titles fit in it); nil is unlimited.
    package var containerWidth: Int?
    /// W3's bound on a text column (`--max-width`; nil: half the container), for a renderer that
    /// lays out in a container of its own (the HTML page, `HTMLRenderer.tableRules`).
    package var maxWidth: WidthBound?
    /// `--follow` (P5): a later value wider than its column is cut to it even with no width
    /// limit, so the rows that keep coming stay aligned.
    package var keepsColumns = false
    /// List: the label column's width, and the values' (nil: unlimited).
    package var labelWidth = 0
    package var valueWidth: Int?
    /// Columns left out (W5), by heading: the first `Wording.omittedNamed` of them, and
    /// how many more.
    package var omitted: [String]
    package var omittedBeyond = 0
    /// Lines a heading may take (C5) and lines a cell may take (C6).
    package var headingLines: Int
    package var cellLines: Int
    /// The space between two columns.
    package var gap: Int
    /// C7: how cut text is marked. C8: what an empty cell shows.
    package var ellipsis: EllipsisMode = .end
    package var nullText = ""
    /// Why the plan is as it is, one decision a line (`TABLEFMT_DEBUG=layout`).
    package var explanation: [String] = []

    /// The lines of an explanation, made only when one was asked for: a line names a column by its
    /// heading, and a run with 2 million columns or a 100 MB heading must not pay for lines
    /// nobody reads (E5).
    package struct Explanation {
        package let wanted: Bool
        package private(set) var lines: [String] = []

        package init(wanted: Bool) { self.wanted = wanted }

        package mutating func append(_ line: @autoclosure () -> String) {
            if wanted { lines.append(line()) }
        }
    }

    /// Display width of a full table line.
    package init(mode: Mode, columns: [ColumnLayout], omitted: [String], headingLines: Int, cellLines: Int, gap: Int) {
        self.mode = mode
        self.columns = columns
        self.omitted = omitted
        self.headingLines = headingLines
        self.cellLines = cellLines
        self.gap = gap
    }

    package var lineWidth: Int { lineWidth(of: columns) }

    /// Display width of a line of these columns (a band of pages), borders not counted.
    package func lineWidth(of columns: [ColumnLayout]) -> Int {
        columns.reduce(0) { $0 + $1.width } + gap * max(0, columns.count - 1)
    }
}
