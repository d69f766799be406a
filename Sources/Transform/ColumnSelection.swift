import Input
import Profile
import Support
import Text
/// A column named on the command line: by its name as written in the input, or by 1-based number (W9).
public enum ColumnReference: Sendable, Equatable, CustomStringConvertible {
    case name(String)
    case number(Int)

    /// `3` is a number unless a column is really called `3`; anything else is a name.
    public init(_ text: String) {
        if let n = Int(text), n > 0 { self = .number(n) } else { self = .name(text) }
    }

    /// The reference as written: a name or a number.
    public var description: String {
        switch self {
        case .name(let name): return name
        case .number(let n): return String(n)
        }
    }

    /// The column's index among `columns`: an exact name first; else a name that differs only in
    /// letter case or is the column's heading (`Unit Price` for `unit_price`); else the label that
    /// tells same-named columns apart (`A (2)`, the second column headed `A`); a number is a
    /// position unless a column is really called that.
    /// - Throws: `SelectionError` naming the reference and listing the real columns, or the
    ///   columns it matches when it matches more than one (a name is then no way to pick one).
    public func resolve(in columns: [String]) throws(SelectionError) -> Int {
        let text = description
        let exact = columns.indices.filter { columns[$0] == text }
        if exact.count == 1 { return exact[0] }
        if exact.count > 1 { throw SelectionError.ambiguous(text, exact, columns) }
        if case .number(let n) = self {
            if n >= 1 && n <= columns.count { return n - 1 }
            throw SelectionError(reference: text, columns: columns)
        }
        let loose = Self.looseMatches(text, in: columns)
        if loose.count == 1 { return loose[0] }
        if loose.count > 1 { throw SelectionError.ambiguous(text, loose, columns) }
        // `A (2)`: the second of the columns `A` names.
        if text.hasSuffix(")"), let open = text.lastIndex(of: "("), text[..<open].hasSuffix(" "),
           let k = Int(text[text.index(after: open)..<text.index(before: text.endIndex)]), k >= 2 {
            let base = String(text[..<text.index(before: open)])
            let exactBase = columns.indices.filter { columns[$0] == base }
            let named = exactBase.count >= k ? exactBase : Self.looseMatches(base, in: columns)
            if named.count >= k { return named[k - 1] }
        }
        throw SelectionError(reference: text, columns: columns)
    }

    /// Columns whose name differs from `text` only in letter case, or whose heading is `text`.
    package static func looseMatches(_ text: String, in columns: [String]) -> [Int] {
        let lowered = text.lowercased()
        let statistics = Heading.statistics(among: columns)
        return columns.indices.filter {
            columns[$0].lowercased() == lowered || Heading.title(columns[$0], statistic: statistics.contains(columns[$0])).text == text
        }
    }
}

/// A column reference that matches no column: exit 64 (W9).
public struct SelectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The reference as the user wrote it.
    public var reference: String
    /// The input's columns, to list in the message.
    public var columns: [String]
    /// What is wrong, when it is not a name that matches nothing.
    public var problem: String?

    /// An error for `reference` among `columns`; `problem` replaces the default message.
    public init(reference: String, columns: [String], problem: String? = nil) {
        self.reference = reference
        self.columns = columns
        self.problem = problem
    }

    /// A name that matches several columns: an error that lists them, by number too.
    package static func ambiguous(_ reference: String, _ matches: [Int], _ columns: [String]) -> SelectionError {
        let listed = matches.prefix(10).map { "\($0 + 1) (\(columns[$0]))" }.joined(separator: ", ")
        let more = matches.count > 10 ? ", …" : ""
        return SelectionError(reference: reference, columns: columns,
                              problem: "'\(reference)' matches \(matches.count) columns: \(listed)\(more); name one by its number")
    }

    /// The message: what is wrong, with the columns listed.
    public var description: String {
        if let problem { return problem }
        let listed = columns.prefix(30).joined(separator: ", ") + (columns.count > 30 ? ", … (\(columns.count) in all)" : "")
        return "no column '\(reference)'; the columns are: \(listed)"
    }
}

/// `--columns` and `--exclude` (W9): which columns show, and in what order. Items are names,
/// numbers from 1, or ranges of numbers (`2-5`, `3-` to the last); with no included items every
/// column shows, in input order, less the excluded ones.
public struct ColumnSelection: Sendable, Equatable, ExpressibleByArrayLiteral {
    /// One item as the user wrote it.
    public enum Item: Sendable, Equatable, CustomStringConvertible {
        case column(ColumnReference)
        /// Numbers `from...to` (1-based); `to` nil is the last column. `text` is as written, so a
        /// column really called `2-5` is still found by its name.
        case range(from: Int, to: Int?, text: String)

        /// `2-5` and `3-` are ranges; anything else is a column reference.
        public init(_ text: String) {
            let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, let from = Int(parts[0]), from > 0, parts[0].allSatisfy(\.isASCII) {
                if parts[1].isEmpty { self = .range(from: from, to: nil, text: text); return }
                if let to = Int(parts[1]), to >= from, parts[1].allSatisfy(\.isASCII) {
                    self = .range(from: from, to: to, text: text)
                    return
                }
            }
            self = .column(ColumnReference(text))
        }

        /// The item as written (`2-5`, `notes`).
        public var description: String {
            switch self {
            case .column(let reference): return reference.description
            case .range(_, _, let text): return text
            }
        }

        /// The columns this item names, in order.
        /// - Throws: `SelectionError` for a name that matches nothing or a range past the last column.
        public func resolve(in columns: [String]) throws(SelectionError) -> [Int] {
            switch self {
            case .column(let reference):
                return [try reference.resolve(in: columns)]
            case .range(let from, let to, let text):
                if let index = columns.firstIndex(of: text) { return [index] }
                let last = to ?? columns.count
                guard from <= columns.count, last <= columns.count else {
                    throw SelectionError(reference: text, columns: columns,
                                         problem: "no columns \(text): the input has \(columns.count) column\(columns.count == 1 ? "" : "s")")
                }
                return Array((from - 1)..<last)
            }
        }
    }

    /// The columns to show, in this order; empty means all of them.
    public var included: [Item]
    /// The columns to leave out.
    public var excluded: [Item]

    /// A selection from items as written: `!NAME` excludes, anything else includes.
    public init(_ items: [String], excluding: [Item] = []) {
        included = items.filter { !$0.hasPrefix("!") }.map(Item.init)
        excluded = excluding + items.filter { $0.hasPrefix("!") }.map { Item(String($0.dropFirst())) }
    }

    /// The columns named, in this order.
    public init(arrayLiteral elements: ColumnReference...) {
        included = elements.map(Item.column)
        excluded = []
    }

    /// The indices of the columns to show.
    /// - Throws: `SelectionError` when an item matches no column, or every column is left out.
    public func resolve(in columns: [String]) throws(SelectionError) -> [Int] {
        var picked: [Int] = []
        if included.isEmpty {
            picked = Array(columns.indices)
        } else {
            for item in included { picked += try item.resolve(in: columns) }
        }
        var dropped = Set<Int>()
        for item in excluded { dropped.formUnion(try item.resolve(in: columns)) }
        picked.removeAll(where: dropped.contains)
        guard !picked.isEmpty || columns.isEmpty else {
            throw SelectionError(reference: "", columns: columns, problem: "no column left to show: every column is excluded")
        }
        return picked
    }
}
