/// Printing a followed input (P5): the rows stream through the first rows' layout as any pipe's
/// do (P4); to a terminal, the headings come again every screenful.
extension FormatRun {
    /// `draw`, with the table ended and begun again (its headings drawn again) before every
    /// `every` rows after the first.
    static func headingsAgain(every: Int, columns: [ColumnLayout], _ draw: @escaping TableFormatter.Draw) -> TableFormatter.Draw {
        let drawn = Counter()
        return { (renderer, row) throws(OutputError) in
            if drawn.value > 0 && drawn.value % every == 0 {
                try renderer.endTable()
                try renderer.beginTable(columns, caption: nil)
            }
            drawn.value += 1
            try draw(renderer, row)
        }
    }
}

/// A count a closure keeps between calls.
private final class Counter {
    var value = 0
}
