import Input
import Schedule
import Text
import Transform
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
}
