import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// E5, W5, W7, W12: a table at a limited width plans only the columns it could keep; the plan must
/// be the one that planning every column gives. And C4's statistic names found by a look at a
/// name's end first, as splitting every name finds them.
@Suite("Rules: wide tables planned in part")
struct WidePlanTests {
    /// A random table: text columns of random widths, numbers, empty columns; names that repeat.
    static func table(_ random: inout SplitMix64) -> (header: [String], rows: [[String]]) {
        let columns = 1 + random.below(random.below(3) == 0 ? 400 : 40)
        let names = ["id", "name", "amount", "region", "a", "note_of_the_day", "x", "price_usd", "temp_min", "temp_max"]
        let header = (0..<columns).map { _ in names[random.below(names.count)] + (random.below(3) == 0 ? "" : String(random.below(50))) }
        let kinds = (0..<columns).map { _ in random.below(4) }
        let rows = (0..<(1 + random.below(6))).map { r in
            (0..<columns).map { c -> String in
                switch kinds[c] {
                case 0: return String(random.below(100_000))
                case 1: return String(repeating: "w", count: 1 + random.below(60)) + (random.below(2) == 0 ? " word" : "")
                case 2: return r % 2 == 0 ? "EMEA" : "APAC"
                default: return ""
                }
            }
        }
        return (header, rows)
    }

    @Test("E5, W5, W7, W12: the plan from the columns a table could keep equals the plan of every column (600 generated tables, widths 10–300, auto and table, groups, selections)")
    func prefixPlanIsThePlan() {
        var random = SplitMix64(seed: 0x71DE_3E5)
        var omittedPastNames = 0
        for round in 0..<600 {
            let (header, rows) = Self.table(&random)
            let profiles = RuleKit.profiles(header, rows)
            var options = RuleKit.options(width: 10 + random.below(290))
            options.layout = random.below(3) == 0 ? .table : .auto
            if random.below(3) == 0 { options.groupBy = ColumnReference(String(1 + random.below(header.count))) }
            if random.below(4) == 0 { options.style = [.rule, .box, .compact][random.below(3)] }
            if random.below(5) == 0 { options.fill = true }
            let selection: [Int]? = random.below(4) == 0 ? (0..<(1 + random.below(header.count))).map { _ in random.below(header.count) } : nil
            let part = Layout.plan(profiles, selection: selection, options: options)
            let whole = Layout.plan(profiles, selection: selection, options: options, planningAll: true)
            #expect(part.mode == whole.mode, "round \(round)")
            #expect(part.columns == whole.columns, "round \(round): \(header.count) columns at width \(options.width ?? 0)")
            #expect(part.omitted == whole.omitted && part.omittedBeyond == whole.omittedBeyond,
                    "round \(round): \(part.omitted.count) + \(part.omittedBeyond) against \(whole.omitted.count) + \(whole.omittedBeyond)")
            #expect(part.labelWidth == whole.labelWidth && part.valueWidth == whole.valueWidth, "round \(round)")
            if whole.omittedBeyond > 0 { omittedPastNames += 1 }
        }
        #expect(omittedPastNames > 30, "only \(omittedPastNames) tables left out more columns than the note names")
    }

    /// The statistic names as C4 defines them, with no shortcut: every name split.
    static func statisticsBySplitting(_ names: [String]) -> Set<String> {
        let ends: [(name: String, stem: String, word: String)] = names.compactMap { name in
            guard name.utf8.count <= Heading.longestTitled else { return nil }
            let words = Heading.split(Substring(name)).map { $0.lowercased() }
            guard words.count >= 2, let last = words.last, Heading.statisticWords.contains(last) else { return nil }
            return (name, words.dropLast().joined(separator: " "), last)
        }
        var stems: [String: Set<String>] = [:]
        for end in ends { stems[end.stem, default: []].insert(end.word) }
        return Set(ends.filter { (stems[$0.stem]?.count ?? 0) >= 2 }.map(\.name))
    }

    @Test("C4: statistic names found by a look at the end first are those every name split finds (3,000 generated sets of names)")
    func statisticsAsBySplitting() {
        var random = SplitMix64(seed: 0x57A7)
        let parts = ["temp", "Temp", "min", "Min", "MAX", "max", "avg", "count", "total", "x", "_", "__", ".", " ", ":", "?", "\t", "-", "minutes", "Count", "é"]
        for round in 0..<3000 {
            let names = (0..<(1 + random.below(8))).map { _ in (0..<(1 + random.below(5))).map { _ in parts[random.below(parts.count)] }.joined() }
            #expect(Heading.statistics(among: names) == Self.statisticsBySplitting(names), "round \(round): \(names)")
        }
    }
}
