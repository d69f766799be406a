/// A column named on the command line: by its name as written in the input, or by 1-based number (W9).
public enum ColumnReference: Sendable, Equatable, CustomStringConvertible {
    case name(String)
    case number(Int)

    /// `3` is a number unless a column is really called `3`; anything else is a name.
    public init(_ text: String) {
        if let n = Int(text), n > 0 { self = .number(n) } else { self = .name(text) }
    }

    public var description: String {
        switch self {
        case .name(let name): return name
        case .number(let n): return String(n)
        }
    }

    /// The column's index among `columns`.
    /// - Throws: `SelectionError` naming the reference and listing the real columns.
    public func resolve(in columns: [String]) throws(SelectionError) -> Int {
        switch self {
        case .name(let name):
            if let index = columns.firstIndex(of: name) { return index }
            // Forgive case and the heading's spelling (`Unit Price` for `unit_price`).
            if let index = columns.firstIndex(where: { $0.lowercased() == name.lowercased() || Heading.title($0).text == name }) { return index }
        case .number(let n):
            if let index = columns.firstIndex(of: String(n)) { return index }
            if n >= 1 && n <= columns.count { return n - 1 }
        }
        throw SelectionError(reference: description, columns: columns)
    }
}

/// A column reference that matches no column: exit 64 (W9).
public struct SelectionError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reference: String
    public var columns: [String]

    public var description: String {
        let listed = columns.prefix(30).joined(separator: ", ") + (columns.count > 30 ? ", … (\(columns.count) in all)" : "")
        return "no column '\(reference)'; the columns are: \(listed)"
    }
}
