import Input
import Layout
import Options
import Profile
import Support
import Text
import Transform
extension TableStyle {
    /// Text before the first column, between columns, after the last.
    package var left: String { self == .box ? "│ " : self == .ascii ? "| " : "" }
    package var separator: String { self == .box ? " │ " : self == .ascii ? " | " : "  " }
    package var right: String { self == .box ? " │" : self == .ascii ? " |" : "" }
    /// The horizontal line character.
    package var horizontal: String { self == .ascii ? "-" : "─" }

    /// Where a border line sits: its corner and junction characters.
    package enum Line { case top, middle, bottom }

    /// Left corner, junction (given whether the lines above and below have column borders), right corner.
    package func corners(_ line: Line, above: Bool, below: Bool) -> (String, String, String) {
        if self == .ascii { return ("+", above || below ? "+" : "-", "+") }
        let junction: String
        switch (above, below) {
        case (true, true): junction = "┼"
        case (true, false): junction = "┴"
        case (false, true): junction = "┬"
        case (false, false): junction = "─"
        }
        switch line {
        case .top: return ("┌", junction, "┐")
        case .middle: return ("├", junction, "┤")
        case .bottom: return ("└", junction, "┘")
        }
    }
}
