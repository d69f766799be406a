/// Turns column profiles, the container width and the options into a `LayoutPlan`
/// (SPEC C2–C5, W2–W6). The W-rules live here and in `WidthAllocator`, nowhere else.
public enum Layout {
    /// The space between two columns (O2).
    public static let gap = 2

    /// Plans a table.
    ///
    /// 1. Headings: title style (C4) and units (C3): a unit every cell carries moves into the heading,
    ///    unless the heading already names a different one.
    /// 2. Natural widths (W2): the widest cell (numbers aligned on their points, units out), the
    ///    `--null` text where there are empty cells, and the heading — on two lines when the width
    ///    is limited (C5), on one otherwise.
    /// 3. Bounds: numbers never give way (C7); text may, down to W4's minimum; W3's maximum caps it.
    /// 4. Fit (W5) by `WidthAllocator`: text gives way, then columns are left out from the right.
    /// 5. Fill (W6): with `--fill`, the first column takes what is left of the container.
    /// - Parameters:
    ///   - profiles: one per input column, in input order.
    ///   - options: width and related settings.
    /// - Returns: the plan; `omitted` names the columns that did not fit.
    public static func plan(_ profiles: [ColumnProfile], options: FormatOptions) -> LayoutPlan {
        let measure = DisplayWidth(ambiguousIsWide: options.ambiguousWide)
        let container = options.width.flatMap { $0 > 0 ? $0 : nil }
        var explanation: [String] = ["container: \(container.map(String.init) ?? "unlimited") columns, gap \(gap)"]

        // Step 1: headings and units.
        var headings: [String] = []
        var strips: [Bool] = []
        for profile in profiles {
            let (title, nameUnit) = options.titleHeadings ? Heading.title(profile.name) : (profile.name, nil)
            var strip = false
            var unit = nameUnit
            if options.moveUnits, let cellUnit = profile.commonUnit {
                if title.hasSuffix("(\(cellUnit))") {
                    strip = true
                } else if nameUnit == nil || nameUnit == cellUnit {
                    strip = true
                    unit = cellUnit
                }
            }
            let heading = unit.map { title.hasSuffix("(\($0))") ? title : "\(title) (\($0))" } ?? title
            headings.append(heading)
            strips.append(strip)
        }

        // Steps 2 and 3: natural widths and bounds.
        let maximum = container.map { c -> Int in
            switch options.maxWidth {
            case .cells(let n)?: return n
            case .percent(let p)?: return max(1, c * p / 100 - gap)
            case nil: return max(1, c / 2 - gap)  // W3: 50%, its padding included
            }
        }
        let minimumBound = container.map { c in max(1, (options.minWidth ?? .percent(25)).resolve(in: c)) }  // W4
        let nullWidth = measure.width(of: options.nullText)
        var bounds: [WidthAllocator.Column] = []
        for (k, profile) in profiles.enumerated() {
            let headingWidth = container == nil ? measure.width(of: headings[k]) : twoLineWidth(headings[k], measure: measure)
            var cells = profile.cellWidth(stripped: strips[k])
            if profile.empties > 0 { cells = max(cells, nullWidth) }
            let natural = max(cells, headingWidth, 1)
            let flexible = !profile.isNumeric
            let minimum = flexible ? (minimumBound ?? natural) : natural
            bounds.append(.init(natural: natural, minimum: minimum, flexible: flexible))
            explanation.append("column \(k + 1) \"\(headings[k])\": \(profile.kind) natural \(natural) (cells \(cells), heading \(headingWidth))"
                + (flexible ? ", may give way to \(min(minimum, natural))" : ", a number: never cut"))
        }

        // Step 4: fit.
        let fitted = WidthAllocator.fit(bounds, available: container, gap: gap, maximum: maximum)
        var widths = fitted.widths
        if let maximum { explanation.append("text columns capped at \(maximum) (W3)") }

        // Step 5: fill.
        if options.fill, let container, !widths.isEmpty {
            let used = widths.reduce(0, +) + gap * (widths.count - 1)
            if used < container {
                widths[0] += container - used
                explanation.append("--fill: column 1 grows by \(container - used)")
            }
        }

        var columns: [ColumnLayout] = []
        for k in 0..<fitted.kept {
            let profile = profiles[k]
            let parts = strips[k]
                ? (profile.strippedIntegerWidth, profile.strippedFractionWidth)
                : (profile.integerWidth, profile.fractionWidth)
            columns.append(ColumnLayout(
                source: k,
                heading: headings[k],
                width: widths[k],
                alignment: profile.isNumeric ? .right : .left,
                numberParts: profile.isNumeric ? parts : nil,
                stripUnit: strips[k]))
            explanation.append("column \(k + 1) \"\(headings[k])\": width \(widths[k])")
        }
        let omitted = Array(headings[fitted.kept...])
        if !omitted.isEmpty { explanation.append("left out from the right (W5): \(omitted.joined(separator: ", "))") }
        var plan = LayoutPlan(
            mode: .table,
            columns: columns,
            omitted: omitted,
            headingLines: container == nil ? 1 : 2,
            cellLines: container == nil ? 1 : max(1, min(2, options.cellLines)),
            gap: gap)
        plan.ellipsis = options.ellipsis
        plan.nullText = options.nullText
        plan.explanation = explanation
        return plan
    }

    /// The narrowest width at which `heading` fits on two lines without being cut (C5).
    static func twoLineWidth(_ heading: String, measure: DisplayWidth) -> Int {
        let full = measure.width(of: heading)
        var w = max(measure.longestWordWidth(heading), (full + 1) / 2)
        while w < full {
            let lines = measure.fit(heading, width: w, maxLines: 2, ellipsis: .end)
            if lines.map(\.text).joined(separator: " ") == heading { return w }
            w += 1
        }
        return full
    }
}
