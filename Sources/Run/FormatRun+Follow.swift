import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
/// Printing a followed input (P5): the rows stream through the first rows' layout as any pipe's
/// do (P4); to a terminal, the headings come again every screenful.
extension FormatRun {
    /// `draw`, with the table ended and begun again (its headings drawn again) before a row that
    /// might not fit in the `every` lines after the headings: lines, not rows, are counted, as a
    /// wrapped row (`--wrap 2`) takes up to `rowLines` of them.
    static func headingsAgain(every: Int, rowLines: Int, columns: [ColumnLayout], out: OutputBuffer,
                              _ draw: @escaping TableFormatter.Draw) -> TableFormatter.Draw {
        let headingsEnd = Counter()  // the line count when the headings were last drawn; -1: the first ones
        headingsEnd.value = -1
        return { (renderer, row) throws(OutputError) in
            if headingsEnd.value < 0 {
                headingsEnd.value = out.lines
            } else if out.lines - headingsEnd.value + max(1, rowLines) > every {
                try renderer.endTable()
                try renderer.beginTable(columns, caption: nil)
                headingsEnd.value = out.lines
            }
            try draw(renderer, row)
        }
    }
}

/// A count a closure keeps between calls.
private final class Counter {
    var value = 0
}
