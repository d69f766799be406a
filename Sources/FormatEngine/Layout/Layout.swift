/// Turns column profiles, the container width and the options into a `LayoutPlan` (SPEC W2–W5, C2, C5).
public enum Layout {
    /// The space between two columns (O2).
    public static let gap = 2

    /// Plans a table.
    /// - Parameters:
    ///   - profiles: one per input column, in input order.
    ///   - options: width and related settings.
    /// - Returns: the plan; `omitted` names the columns that did not fit.
    public static func plan(_ profiles: [ColumnProfile], options: FormatOptions) -> LayoutPlan {
        let measure = DisplayWidth(ambiguousIsWide: options.ambiguousWide)
        let container = options.width.flatMap { $0 > 0 ? $0 : nil }
        let headingLines = container == nil ? 1 : 2
        let headings = profiles.map(\.name)
        var bounds: [WidthAllocator.Column] = []
        for (profile, heading) in zip(profiles, headings) {
            let headingWidth = container == nil
                ? measure.width(of: heading)
                : twoLineWidth(heading, measure: measure)
            let natural = max(profile.cellWidth, headingWidth, 1)
            let flexible = !profile.isNumeric
            let minimum = container.map { max(1, $0 / 4) } ?? natural  // W4: 25% of the container
            bounds.append(.init(natural: natural, minimum: flexible ? minimum : natural, flexible: flexible))
        }
        let maximum = container.map { max(1, $0 / 2 - gap) }  // W3: 50%, its padding included
        let fitted = WidthAllocator.fit(bounds, available: container, gap: gap, maximum: maximum)
        var columns: [ColumnLayout] = []
        for k in 0..<fitted.kept {
            let profile = profiles[k]
            columns.append(ColumnLayout(
                source: k,
                heading: headings[k],
                width: fitted.widths[k],
                alignment: profile.isNumeric ? .right : .left,
                numberParts: profile.isNumeric ? (profile.integerWidth, profile.fractionWidth) : nil))
        }
        return LayoutPlan(
            mode: .table,
            columns: columns,
            omitted: Array(headings[fitted.kept...]),
            headingLines: headingLines,
            cellLines: 1,
            gap: gap)
    }

    /// The narrowest width at which `heading` fits on two lines without being cut (C5).
    static func twoLineWidth(_ heading: String, measure: DisplayWidth) -> Int {
        let full = measure.width(of: heading)
        var w = max(measure.longestWordWidth(heading), (full + 1) / 2)
        while w < full {
            let lines = measure.fit(heading, width: w, maxLines: 2, ellipsis: .end)
            if lines.count <= 2 && !lines.contains(where: { $0.text.hasSuffix("…") && !heading.hasSuffix("…") }) { return w }
            w += 1
        }
        return full
    }
}
