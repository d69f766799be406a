/// The drawing characters of a table style (O2).
public enum TableStyle: String, Sendable, CaseIterable {
    /// Headings, a rule of `─` under them, columns two spaces apart (the default).
    case rule
    /// Unicode box drawing.
    case box
    /// `+ - |` only.
    case ascii
    /// Headings and rows, no rule.
    case compact

    /// Columns between two columns' text.
    public var gap: Int { hasBorders ? 3 : 2 }
    /// Columns taken by the left and right borders together.
    public var edges: Int { hasBorders ? 4 : 0 }
    /// Whether the style draws borders around the table (`box`, `ascii`).
    public var hasBorders: Bool { self == .box || self == .ascii }

    /// Text before the first column, between columns, after the last.
    var left: String { self == .box ? "│ " : self == .ascii ? "| " : "" }
    var separator: String { self == .box ? " │ " : self == .ascii ? " | " : "  " }
    var right: String { self == .box ? " │" : self == .ascii ? " |" : "" }
    /// The horizontal line character.
    var horizontal: String { self == .ascii ? "-" : "─" }

    /// Where a border line sits: its corner and junction characters.
    enum Line { case top, middle, bottom }

    /// Left corner, junction (given whether the lines above and below have column borders), right corner.
    func corners(_ line: Line, above: Bool, below: Bool) -> (String, String, String) {
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
