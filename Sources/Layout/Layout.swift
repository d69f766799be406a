import Transform
import Options
import Profile
import Text
/// Turns column profiles, the container width and the options into a `LayoutPlan`
/// (C2–C5, W2–W8). The W-rules live here and in `WidthAllocator`, nowhere else.
package enum Layout {
    /// The space between two columns in the default style (O2).
    package static let defaultGap = 2

    /// A column ready to be laid out: its heading, unit handling and width bounds.
    package struct Spec {
        package var source: Int
        package var heading: String
        package var strip: Bool
        package var numeric: Bool
        package var parts: (integer: Int, fraction: Int)
        package var bound: WidthAllocator.Column

        package func layout(width: Int) -> ColumnLayout {
            ColumnLayout(source: source, heading: heading, width: width, alignment: numeric ? .right : .left,
                         numberParts: numeric ? parts : nil, stripUnit: strip)
        }
    }

    /// Plans the output.
    ///
    /// 1. Headings: title style (C4) and units (C3): a unit every cell carries moves into the heading,
    ///    unless the heading already names a different one.
    /// 2. Natural widths (W2): the widest cell (numbers aligned on their points, units out), the
    ///    `--null` text where there are empty cells, and the heading — on two lines when the width
    ///    is limited (C5), on one otherwise.
    /// 3. Bounds: numbers never give way (C7); text may, down to W4's minimum; W3's maximum caps it.
    /// 4. The mode (W7): `auto` is a table when step 5 keeps every column; at a compact width (under
    ///    60 columns, or fewer than three columns fitting) a list report; else a table of the
    ///    columns that fit, the others named in a note (W5).
    /// 5. Table: `WidthAllocator` fits (W5): text gives way, then columns are left out from the right;
    ///    with `--fill` the first column takes what is left (W6).
    /// 6. List report (W8): labels at most half the width, values wrapped in the rest.
    /// 7. Pages (W7): bands of columns that fit beside the sticky first column (at most 25%).
    /// - Parameters:
    ///   - profiles: one per input column, in input order.
    ///   - selection: the input columns to show, in order (W9); nil shows all.
    ///   - options: width and related settings.
    ///   - planningAll: plan every column even for a table (tests compare the two).
    package static func plan(_ profiles: [ColumnProfile], selection: [Int]? = nil, options: FormatOptions, planningAll: Bool = false) -> LayoutPlan {
        let measure = DisplayWidth(ambiguousIsWide: options.ambiguousWide)
        let gap = options.style.gap
        // Borders take their columns first; Markdown's pipes are not counted (it is not cut unless
        // --width asks, and then cells are cut to the width like plain text).
        let container = options.width.flatMap { $0 > 0 ? max(1, $0 - options.style.edges) : nil }
        var explanation = LayoutPlan.Explanation(wanted: options.explainLayout)
        explanation.append("container: \(container.map(String.init) ?? "unlimited") columns, gap \(gap)")
        let shown = selection ?? Array(profiles.indices)

        // Steps 1–3, for the columns a table could keep: at a limited width each takes a column
        // and a gap at least, so a table of 2 million columns plans the first few (E5); the others
        // are planned only if a list report or pages show them.
        let bounds = Bounds(container: container, gap: gap, options: options, measure: measure)
        let reach = container.map { $0 / (gap + 1) + 2 } ?? shown.count  // more than fit at one column each
        let planFirst = !planningAll && (options.layout == .table || options.layout == .auto) ? min(shown.count, reach) : shown.count
        var headings = Headings(profiles, options: options)
        var specs = shown.prefix(planFirst).map { bounds.spec(profiles[$0], index: $0, heading: headings[$0], explanation: &explanation) }
        if let maximum = bounds.maximum { explanation.append("text columns capped at \(maximum) (W3)") }

        // Step 4: the mode.
        var table = tablePlan(withTotal(specs, shown: shown, profiles: profiles, options: options, measure: measure, explanation: &explanation),
                              container: container, maximum: bounds.maximum, gap: gap, options: options, explanation: &explanation)
        let unplanned = shown.dropFirst(planFirst)
        let kept = table.columns.count
        let omittedCount = shown.count - kept
        var mode = options.layout
        if mode == .auto {
            if omittedCount == 0 {
                mode = .table
                explanation.append("auto: every column fits, a table")
            } else if isCompact(container: container, kept: kept, columns: shown.count) {
                mode = .list
                explanation.append("auto: a compact width (\(container ?? 0) columns, \(kept) of \(shown.count) columns fit; compact is under \(compactWidth) or fewer than \(min(3, shown.count)) fitting), a list report (W7)")
            } else {
                mode = .table
                explanation.append("auto: a regular width, a table of the \(kept) columns that fit; \(omittedCount) left out and named (W5, W7)")
            }
        }
        if mode == .list || mode == .pages {
            specs += unplanned.map { bounds.spec(profiles[$0], index: $0, heading: headings[$0], explanation: &explanation) }
            specs = withTotal(specs, shown: shown, profiles: profiles, options: options, measure: measure, explanation: &explanation)
        } else if !unplanned.isEmpty {
            // The note names the first columns left out and counts the rest (W5).
            let named = unplanned.prefix(max(0, Wording.omittedNamed - table.omitted.count))
            table.omitted += named.map { headings[$0].0 }
            table.omittedBeyond += unplanned.count - named.count
        }
        var plan: LayoutPlan
        switch mode {
        case .list:
            plan = listPlan(specs, container: options.width.flatMap { $0 > 0 ? $0 : nil }, gap: Self.defaultGap, measure: measure, explanation: &explanation)
        case .pages:
            plan = pagesPlan(specs, container: container, maximum: bounds.maximum, gap: gap, explanation: &explanation)
        default:
            plan = table
        }
        plan.headingLines = container == nil ? 1 : 2
        plan.cellLines = max(1, min(2, options.cellLines))
        plan.containerWidth = options.width.flatMap { $0 > 0 ? $0 : nil }
        plan.ellipsis = options.ellipsis
        plan.nullText = options.nullText
        plan.maxWidth = options.maxWidth
        plan.explanation = explanation.lines
        return plan
    }

    /// Steps 2–3 for one column: its natural width and how far it may give way.
    package struct Bounds {
        package let container: Int?
        package let gap: Int
        package let measure: DisplayWidth
        /// W3: a text column's widest (nil: unlimited).
        package let maximum: Int?
        /// W4: a text column's narrowest when giving way.
        package let minimumBound: Int?
        package let nullWidth: Int

        package init(container: Int?, gap: Int, options: FormatOptions, measure: DisplayWidth) {
            self.container = container
            self.gap = gap
            self.measure = measure
            maximum = container.map { Self.widest(container: $0, gap: gap, options: options) }
            minimumBound = container.map { c in max(1, (options.minWidth ?? .percent(25)).resolve(in: c)) }  // W4
            nullWidth = measure.width(of: options.nullText)
        }

        /// W3: a text column's widest in a container of `container` columns (`--max-width`, or
        /// half the container, its padding included); the printed table's and the view's.
        package static func widest(container: Int, gap: Int, options: FormatOptions) -> Int {
            switch options.maxWidth {
            case .cells(let n)?: return n
            case .percent(let p)?: return max(1, container * p / 100 - gap)
            case nil: return max(1, container / 2 - gap)
            }
        }

        package func spec(_ profile: ColumnProfile, index: Int, heading label: (String, Bool), explanation: inout LayoutPlan.Explanation) -> Spec {
            let (heading, strip) = label
            let headingWidth = container == nil ? measure.width(of: heading) : twoLineWidth(heading, measure: measure)
            var cells = profile.cellWidth(stripped: strip)
            if profile.hasEmpties { cells = max(cells, nullWidth) }
            let natural = max(cells, headingWidth, 1)
            let flexible = !profile.isNumeric
            // C5: a text column gives way no narrower than its heading's longest word, up to W3's
            // maximum; beyond it the word is cut, never broken.
            let word = container == nil ? 0 : min(measure.longestWordWidth(heading), maximum ?? natural)
            let minimum = flexible ? max(minimumBound ?? natural, word) : natural
            let parts = strip ? (profile.strippedIntegerWidth, profile.strippedFractionWidth) : (profile.integerWidth, profile.fractionWidth)
            explanation.append("column \(index + 1) \"\(heading)\": \(profile.kind) natural \(natural) (cells \(cells), heading \(headingWidth))"
                + (flexible ? ", may give way to \(min(minimum, natural))" : ", a number: never cut"))
            return Spec(source: index, heading: heading, strip: strip, numeric: profile.isNumeric, parts: parts,
                        bound: .init(natural: natural, minimum: minimum, flexible: flexible))
        }
    }

    /// W12: the column a group's footer writes `Total` in, widened to hold it whole.
    package static func withTotal(_ specs: [Spec], shown: [Int], profiles: [ColumnProfile], options: FormatOptions, measure: DisplayWidth,
                          explanation: inout LayoutPlan.Explanation) -> [Spec] {
        guard let k = totalColumn(specs, shown: shown, profiles: profiles, options: options) else { return specs }
        var specs = specs
        let label = measure.width(of: totalLabel)
        let bound = specs[k].bound
        specs[k].bound = .init(natural: max(bound.natural, label), minimum: max(bound.minimum, label), flexible: bound.flexible)
        explanation.append("column \(specs[k].source + 1) \"\(specs[k].heading)\": at least \(label) wide, for the groups' \(totalLabel) (W12)")
        return specs
    }

    /// Every column's heading and whether its unit is taken out (C3, C4), told apart where two
    /// would read the same: the second and later get ` (2)`, ` (3)`, … in input order, so no
    /// column passes for another (`a,a,A` → `A`, `A (2)`, `A (3)`; `--columns 'A (2)'` finds it).
    package static func labels(_ profiles: [ColumnProfile], options: FormatOptions) -> [(String, Bool)] {
        var headings = Headings(profiles, options: options)
        return profiles.indices.map { headings[$0] }
    }

    /// The headings of `labels`, made in input order as far as they are asked for: a column's
    /// number among its namesakes depends only on the columns before it, so a table that plans
    /// its first columns titles those and no more (E5).
    package struct Headings {
        package let profiles: [ColumnProfile]
        package let options: FormatOptions
        package let statistics: Set<String>
        private var made: [(String, Bool)] = []
        private var seen: [String: Int] = [:]

        package init(_ profiles: [ColumnProfile], options: FormatOptions) {
            self.profiles = profiles
            self.options = options
            statistics = options.titleHeadings ? Heading.statistics(among: profiles.map(\.name)) : []
        }

        package subscript(index: Int) -> (String, Bool) {
            mutating get {
                while made.count <= index {
                    let profile = profiles[made.count]
                    let (heading, strip) = headingAndUnit(profile, options: options, statistic: statistics.contains(profile.name))
                    let n = (seen[heading] ?? 0) + 1
                    seen[heading] = n
                    made.append((n == 1 ? heading : "\(heading) (\(n))", strip))
                }
                return made[index]
            }
        }
    }

    /// Below this many columns a width is compact (W7), whatever fits in it.
    package static let compactWidth = 60

    /// W7: a compact width, where no useful table fits: under `compactWidth` columns, or fewer
    /// than three columns (all of them, when there are fewer) fitting at their minimum widths.
    package static func isCompact(container: Int?, kept: Int, columns: Int) -> Bool {
        guard let container else { return false }
        return container < compactWidth || kept < min(3, columns)
    }

    /// Step 1: the heading (C4) and whether the cells' unit moves into it (C3).
    package static func headingAndUnit(_ profile: ColumnProfile, options: FormatOptions, statistic: Bool = false) -> (String, Bool) {
        let (title, nameUnit) = options.titleHeadings ? Heading.title(profile.name, statistic: statistic) : (profile.name, nil)
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
        return (heading, strip)
    }

    /// Step 5: a table.
    package static func tablePlan(_ specs: [Spec], container: Int?, maximum: Int?, gap: Int, options: FormatOptions, explanation: inout LayoutPlan.Explanation) -> LayoutPlan {
        let fitted = WidthAllocator.fit(specs.map(\.bound), available: container, gap: gap, maximum: maximum)
        var widths = fitted.widths
        if options.fill, let container, !widths.isEmpty {
            let used = widths.reduce(0, +) + gap * (widths.count - 1)
            if used < container {
                widths[0] += container - used
                explanation.append("--fill: column 1 grows by \(container - used)")
            }
        }
        var columns: [ColumnLayout] = []
        for k in 0..<fitted.kept {
            columns.append(specs[k].layout(width: widths[k]))
            explanation.append("table column \"\(specs[k].heading)\": width \(widths[k])")
        }
        let left = specs[fitted.kept...]
        if !left.isEmpty { explanation.append("a table would leave out from the right (W5): \(left.map(\.heading).joined(separator: ", "))") }
        var plan = LayoutPlan(mode: .table, columns: columns, omitted: left.prefix(Wording.omittedNamed).map(\.heading), headingLines: 1, cellLines: 1, gap: gap)
        plan.omittedBeyond = max(0, left.count - Wording.omittedNamed)
        return plan
    }

    /// Step 6: a list report. Labels take at most half the width; values wrap in the rest.
    package static func listPlan(_ specs: [Spec], container: Int?, gap: Int, measure: DisplayWidth, explanation: inout LayoutPlan.Explanation) -> LayoutPlan {
        let labels = specs.dropFirst().map { measure.width(of: $0.heading) }
        var labelWidth = labels.max() ?? 0
        var valueWidth: Int?
        if let container {
            labelWidth = min(labelWidth, max(1, container / 2 - gap))
            valueWidth = max(1, container - labelWidth - gap)
        }
        explanation.append("list report: labels \(labelWidth) wide, values \(valueWidth.map(String.init) ?? "unlimited")")
        var plan = LayoutPlan(mode: .list, columns: specs.map { $0.layout(width: $0.bound.natural) }, omitted: [], headingLines: 1, cellLines: 1, gap: gap)
        plan.labelWidth = labelWidth
        plan.valueWidth = valueWidth
        return plan
    }

    /// Step 7: pages. The first column is sticky (at most 25% of the width); the others fill bands
    /// left to right, each band fitted like a table.
    package static func pagesPlan(_ specs: [Spec], container: Int?, maximum: Int?, gap: Int, explanation: inout LayoutPlan.Explanation) -> LayoutPlan {
        guard let first = specs.first else {
            return LayoutPlan(mode: .pages, columns: [], omitted: [], headingLines: 1, cellLines: 1, gap: gap)
        }
        guard let container else {
            let all = specs.map { $0.layout(width: $0.bound.natural) }
            var plan = LayoutPlan(mode: .pages, columns: all, omitted: [], headingLines: 1, cellLines: 1, gap: gap)
            plan.bands = [all]
            return plan
        }
        var sticky = first.bound
        let stickyCap = max(1, container / 4)
        if sticky.flexible {
            sticky.natural = min(sticky.natural, stickyCap)
            sticky.minimum = min(sticky.minimum, sticky.natural)
        }
        let rest = Array(specs.dropFirst())
        var bands: [[ColumnLayout]] = []
        var start = 0
        while start < rest.count || bands.isEmpty {
            // Take columns while their natural (capped) widths fit beside the sticky column.
            var end = start
            var used = sticky.natural
            while end < rest.count {
                let bound = rest[end].bound
                let want = bound.flexible ? min(bound.natural, maximum ?? bound.natural) : bound.natural
                if end > start && used + gap + want > container { break }
                used += gap + want
                end += 1
            }
            let members = [sticky] + rest[start..<end].map(\.bound)
            var fitted = WidthAllocator.fit(members, available: container, gap: gap, maximum: maximum)
            if fitted.kept < members.count {
                // One column too wide even alone: it takes what is left (text is cut; a number overflows
                // only if it is wider than the whole container).
                fitted.widths = members.map(\.natural)
                fitted.widths[members.count - 1] = max(1, container - sticky.natural - gap)
                fitted.kept = members.count
            }
            var band = [first.layout(width: fitted.widths[0])]
            for (k, spec) in rest[start..<end].enumerated() { band.append(spec.layout(width: fitted.widths[k + 1])) }
            bands.append(band)
            explanation.append("band \(bands.count): \(band.map { "\($0.heading) \($0.width)" }.joined(separator: ", "))")
            if end == start { break }
            start = end
        }
        var plan = LayoutPlan(mode: .pages, columns: specs.map { $0.layout(width: $0.bound.natural) }, omitted: [], headingLines: 1, cellLines: 1, gap: gap)
        plan.bands = bands
        return plan
    }

    /// The label of a group's footer (W12).
    package static let totalLabel = "Total"

    /// W12: the column a group's footer writes `Total` in, when the groups have footers: the first
    /// that has no sum (not a number, or the grouped column). nil when there is no footer.
    package static func totalColumn(_ specs: [Spec], shown: [Int], profiles: [ColumnProfile], options: FormatOptions) -> Int? {
        guard options.groupFooter, let reference = options.groupBy,
              let group = try? reference.resolve(in: profiles.map(\.name)) else { return nil }
        // Whether any column shown has a sum: asked of every one, not only of the columns planned.
        func summed(_ index: Int) -> Bool { profiles[index].isNumeric && index != group && profiles[index].kind != .null }
        guard shown.contains(where: summed) else { return nil }
        return specs.firstIndex { !summed($0.source) }
    }

    /// Where a footer's label goes among its cells (W12): the first column without a sum that is
    /// wide enough for it, else the first without a sum (`widths` nil: no width to mind).
    package static func totalLabelColumn(_ sums: [String?], widths: [Int]?, measure: DisplayWidth) -> Int? {
        let label = measure.width(of: totalLabel)
        let free = sums.indices.filter { sums[$0] == nil }
        guard let widths else { return free.first }
        return free.first { widths[$0] >= label } ?? free.first
    }

    /// The narrowest width at which `heading` fits on two lines without being cut (C5).
    /// - Complexity: O(log w) fits of the heading: whether it fits uncut only grows with the width,
    ///   so the narrowest width is found by binary search.
    package static func twoLineWidth(_ heading: String, measure: DisplayWidth) -> Int {
        let full = measure.width(of: heading)
        func fitsUncut(_ w: Int) -> Bool {
            measure.fitHeading(heading, width: w, maxLines: 2, ellipsis: .end).map(\.text).joined(separator: " ") == heading
        }
        var low = max(measure.longestWordWidth(heading), (full + 1) / 2)
        var high = full  // one line always holds it
        guard low < high else { return full }
        while low < high {
            let mid = (low + high) / 2
            if fitsUncut(mid) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
