import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// C4 headings that do not mislead, and W7's choice between a table and a list report.
@Suite("C4 headings, W7 auto layout")
struct HeadingAndAutoLayoutTests {
    typealias Kit = ReliabilityKit

    func headings(_ names: [String]) throws -> String {
        let csv = names.joined(separator: ",") + "\n" + names.map { _ in "1" }.joined(separator: ",") + "\n"
        return String(try Kit.format(Array(csv.utf8), options: Kit.options(width: nil)).lines[0])
    }

    @Test("C4: the report's headings: temp_min beside temp_max are statistics, Weight_in_lbs is Weight (lbs)")
    func reported() throws {
        #expect(try headings(["temp_min", "temp_max"]) == "Temp Min  Temp Max")
        #expect(try headings(["Weight_in_lbs"]) == "Weight (lbs)")
        #expect(try headings(["duration_min"]) == "Duration (min)", "alone, min is minutes")
        #expect(try headings(["length_in_cm", "logged_in_users"]) == "Length (cm)  Logged in Users")
    }

    @Test("C4: every pair of statistic words on several stems reads as statistics, never a unit")
    func statisticPairs() throws {
        let words = ["min", "max", "avg", "mean", "median", "std", "sum", "count", "total"]
        for stem in ["temp", "latency", "price_eur_per_kg", "RTT"] {
            for a in words {
                for b in words where b != a {
                    let line = try headings(["\(stem)_\(a)", "\(stem)_\(b)"])
                    #expect(!line.contains("("), "\(stem)_\(a), \(stem)_\(b): \(line)")
                    #expect(line.lowercased().contains(" \(a)") && line.lowercased().contains(" \(b)"), "\(line)")
                }
            }
        }
        // A different stem is no sibling: min stays minutes.
        #expect(try headings(["wait_min", "temp_max"]) == "Wait (min)  Temp Max")
    }

    /// A table of `columns` columns, each `width` wide, at a container `container` wide.
    func layout(columns: Int, width: Int, container: Int) -> LayoutMode {
        let names = (0..<columns).map { "c\($0)" }
        let row = (0..<columns).map { _ in String(repeating: "9", count: width) }
        let csv = names.joined(separator: ",") + "\n" + row.joined(separator: ",") + "\n"
        var options = Kit.options(width: container)
        options.explainLayout = true
        let out = try? Kit.format(Array(csv.utf8), options: options)
        let explanation = out?.result.explanation.joined(separator: "\n") ?? ""
        return explanation.contains("a list report (W7)") ? .list : .table
    }

    @Test("W7: auto is a table when every column fits; at a compact width a list report; else a table that names what it leaves out")
    func autoChoice() {
        // Numbers 10 wide with 2 between: n columns take 12n - 2.
        #expect(layout(columns: 4, width: 10, container: 46) == .table, "everything fits")
        #expect(layout(columns: 8, width: 10, container: 59) == .list, "compact: under 60 columns wide")
        #expect(layout(columns: 8, width: 10, container: 60) == .table, "regular: 60 wide, 5 columns fit")
        // Wide columns: 25 wide numbers, at 80 columns only 3 fit (3 × 25 + 4 = 79), at 60 only 2.
        #expect(layout(columns: 5, width: 25, container: 79) == .table, "3 fit: a table")
        #expect(layout(columns: 5, width: 25, container: 77) == .list, "2 fit: compact")
        // Two columns, only one fits: fewer than all of them fit, compact.
        #expect(layout(columns: 2, width: 40, container: 70) == .list)
        // Generated: at every width from 20 to 120, the choice follows the definition.
        var random = SplitMix64(seed: 7)
        for _ in 0..<300 {
            // Numbers at least as wide as their headings (c0…c11), so each column is `width` wide.
            let columns = 1 + random.below(12), width = 3 + random.below(28), container = 20 + random.below(100)
            // The first column is always kept (a number is never cut, C7).
            let fit = max(1, (container + 2) / (width + 2))
            let expected: LayoutMode = fit >= columns ? .table : (container < 60 || fit < min(3, columns)) ? .list : .table
            #expect(layout(columns: columns, width: width, container: container) == expected, "\(columns) × \(width) at \(container)")
        }
    }
}
