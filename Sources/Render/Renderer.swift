import Input
import Layout
import Options
import Profile
import Support
import Text
import Transform
/// Draws a plan in one output format. Every layout (table, list report, pages, groups) is a
/// sequence of these calls, so every format draws every layout (O1, W7–W14).
package protocol Renderer: AnyObject {
    /// Cells that had to be cut to fit (a table's text wider than its column).
    var cutCells: Int { get set }
    /// Rows after a sizing window (P5: a pipe, `--follow`): a cell wider than its column is drawn
    /// whole while the line fits its container (its row grows), counted in `grownCells`.
    var growsPastColumns: Bool { get set }
    /// Cells drawn whole past their column's width (C7 numbers, and text after the window).
    var grownCells: Int { get }
    /// `--title`, before everything (W14).
    func title(_ text: String) throws(OutputError)
    /// Starts a table of these columns: headings and the rule. `caption` names a pages band.
    func beginTable(_ columns: [ColumnLayout], caption: String?) throws(OutputError)
    /// One table row.
    func row(_ fields: Fields) throws(OutputError)
    /// A group's section heading (W12).
    func groupHeading(_ text: String) throws(OutputError)
    /// A group's footer: per table column, the text to show (sums) or nil; `label` goes in the
    /// first column without a sum that holds it whole (`Layout.totalLabelColumn`).
    func groupFooter(_ cells: [String?], label: String) throws(OutputError)
    /// Ends the current table.
    func endTable() throws(OutputError)
    /// One list-report block (W8): the row's title, then a `Label  value` line per field.
    func block(_ fields: Fields) throws(OutputError)
    /// A note under the output, in plain words (W14).
    func note(_ text: String) throws(OutputError)
    /// Flushes what is buffered.
    func finish() throws(OutputError)
    /// A renderer that draws rows of the current table (or list report) into `out` as this one
    /// would: the reader thread draws some batches of a file's rows with it while this one writes
    /// the others (RowPipeline). Made when the table has begun, before its first row.
    func continuation(into out: OutputBuffer) -> any Renderer
    /// The current table's rows before `row` (counted from 0) are drawn, by this renderer or a
    /// continuation: the next row is drawn as that one (its zebra stripe, no heading again).
    func resume(atRow row: Int)
}

/// Makes the renderer for the options' format.
package enum Renderers {
    package static func make(_ plan: LayoutPlan, options: FormatOptions, out: OutputBuffer) -> any Renderer {
        let measure = DisplayWidth(ambiguousIsWide: options.ambiguousWide)
        switch options.format {
        case .html:
            return HTMLRenderer(plan: plan, out: out, measure: measure, fragment: options.htmlFragment, zebra: options.zebra, wrap: options.cellLines > 1)
        case .markdown:
            return MarkdownRenderer(plan: plan, out: out, measure: measure, cut: options.width != nil)
        case .plain, .ansi:
            // Box-drawing characters are East Asian ambiguous: two columns on the CJK terminals
            // --ambiguous-wide is for, so boxes are drawn in ASCII there (same geometry).
            let style = options.ambiguousWide && options.style == .box ? TableStyle.ascii : options.style
            return PlainRenderer(plan: plan, out: out, measure: measure, style: style, ansi: options.format == .ansi, zebra: options.zebra)
        }
    }
}

extension ColumnLayout {
    /// A cell's text as shown outside the aligned table (list reports, Markdown): the column's
    /// unit taken out where its heading carries it (C3), otherwise the text as written.
    package func shownText(_ fields: Fields) -> String {
        let cell = fields[source]
        if stripUnit, let shape = NumberShape.parse(cell), shape.unit != nil {
            var text = shape.detachedSign.map { String(UnicodeScalar(cell[$0])) } ?? ""
            text += String(decoding: UnsafeBufferPointer(rebasing: cell[shape.number]), as: UTF8.self)
            return text
        }
        return String(decoding: cell, as: UTF8.self)
    }
}

extension Renderer {
    /// Formats that draw no fixed-width columns (Markdown, HTML) never grow a row.
    package var growsPastColumns: Bool {
        get { false }
        set {}  // swiftlint:disable:this unused_setter_value
    }
    package var grownCells: Int { 0 }
}
