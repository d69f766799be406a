import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// C3 (units in headings) and C4 (headings).
@Suite("Units and headings")
struct UnitAndHeadingTests {
    /// The heading the plan gives a column, and its data rows split into cells.
    static func table(_ csv: String, width: Int? = nil, _ configure: (inout FormatOptions) -> Void = { _ in }) -> (headings: [String], rows: [[String]]) {
        let plan = RuleKit.plan(csv, width: width, configure)
        let lines = RuleKit.outputLines(csv, width: width, configure)
        guard let rule = lines.firstIndex(where: RuleKit.isRule) else {
            Issue.record("no rule in \(lines)")
            return (plan.columns.map(\.heading), [])
        }
        return (plan.columns.map(\.heading), lines[(rule + 1)...].map(RuleKit.tokens))
    }

    /// The heading for a column name over text cells (no unit comes from the cells).
    static func heading(_ name: String, _ configure: (inout FormatOptions) -> Void = { _ in }) -> String {
        RuleKit.plan([name], [["x"]], options: RuleKit.options(width: nil, configure)).columns[0].heading
    }

    // MARK: - C3

    @Test("C3: a currency every cell carries moves into the heading")
    func currencyPrefix() {
        let lines = RuleKit.outputLines("item,price\nTea,$4.50\nCake,$12.00\n", width: nil)
        // "Price ($)" is 9 wide; the numbers are right-aligned in it, points lined up.
        #expect(lines == [
            "Item  Price ($)",
            "────  ─────────",
            "Tea        4.50",
            "Cake      12.00",
        ])
        let plan = RuleKit.plan("item,price\nTea,$4.50\nCake,$12.00\n", width: 40)
        #expect(plan.columns.map(\.heading) == ["Item", "Price ($)"])
        #expect(plan.columns[1].stripUnit)
    }

    @Test("C3: currency after the number, with a decimal comma")
    func currencySuffix() {
        let t = Self.table("item,price\nTea,\"12,50 €\"\nCake,\"3,00 €\"\n")
        #expect(t.headings == ["Item", "Price (€)"])
        #expect(t.rows == [["Tea", "12,50"], ["Cake", "3,00"]])
    }

    @Test("C3: other currency signs", arguments: [("£3", "£12", "£"), ("¥500", "¥1,200", "¥"), ("€12", "€3.50", "€")])
    func otherCurrencies(_ a: String, _ b: String, _ sign: String) {
        let t = Self.table("fee\n\"\(a)\"\n\"\(b)\"\n")
        #expect(t.headings == ["Fee (\(sign))"])
        #expect(t.rows == [[String(a.dropFirst())], [String(b.dropFirst())]])
    }

    @Test("C3: a unit word after the number moves into the heading",
          arguments: [
            ("protein", ["250 g", "12 g"], "Protein (g)", ["250", "12"]),
            ("time", ["3 hrs", "12 hrs"], "Time (hrs)", ["3", "12"]),
            ("latency", ["120ms", "8ms"], "Latency (ms)", ["120", "8"]),
            ("size", ["4.2 GB", "16 GB"], "Size (GB)", ["4.2", "16"]),
            ("weight", ["12 kg", "3.5 kg"], "Weight (kg)", ["12", "3.5"]),
          ])
    func unitWords(_ name: String, _ cells: [String], _ heading: String, _ shown: [String]) {
        let t = Self.table(name + "\n" + cells.joined(separator: "\n") + "\n")
        #expect(t.headings == [heading])
        #expect(t.rows == shown.map { [$0] })
    }

    @Test("C3: empty cells do not stop a unit from moving")
    func emptyCellsAndUnits() {
        let t = Self.table("item,price\nTea,$4\nBun,\nCake,$5\n")
        #expect(t.headings == ["Item", "Price ($)"])
        #expect(t.rows == [["Tea", "4"], ["Bun"], ["Cake", "5"]])
    }

    @Test("C3: % stays in the cells")
    func percentStays() {
        let t = Self.table("share\n12%\n3.5%\n")
        #expect(t.headings == ["Share"])
        #expect(t.rows == [["12%"], ["3.5%"]])
    }

    @Test("C3: mixed units: nothing moves",
          arguments: [["12 kg", "3 lb"], ["$4", "€5"], ["$4", "5"], ["12 kg", "4"], ["$4", "5 $"]])
    func mixedUnits(_ cells: [String]) {
        let t = Self.table("amount\n" + cells.joined(separator: "\n") + "\n")
        #expect(t.headings == ["Amount"])
        #expect(t.rows == cells.map { [$0] })
    }

    @Test("C3: a heading that already ends in the unit is not given it twice")
    func unitAlreadyInHeading() {
        let t = Self.table("Price ($)\n$4.50\n$12.00\n")
        #expect(t.headings == ["Price ($)"])
        #expect(t.rows == [["4.50"], ["12.00"]])
        let g = Self.table("protein (g)\n250 g\n12 g\n")
        #expect(g.headings == ["Protein (g)"])
        #expect(g.rows == [["250"], ["12"]])
        // The same unit from the name's last word (C4) and from the cells: once.
        let ms = Self.table("latency_ms\n120ms\n8ms\n")
        #expect(ms.headings == ["Latency (ms)"])
        #expect(ms.rows == [["120"], ["8"]])
    }

    @Test("C3: --units keep leaves the cells as written")
    func unitsKeep() {
        let t = Self.table("item,price\nTea,$4.50\nCake,$12.00\n") { $0.moveUnits = false }
        #expect(t.headings == ["Item", "Price"])
        #expect(t.rows == [["Tea", "$4.50"], ["Cake", "$12.00"]])
        let g = Self.table("protein\n250 g\n12 g\n") { $0.moveUnits = false }
        #expect(g.headings == ["Protein"])
        #expect(g.rows == [["250 g"], ["12 g"]])
    }

    @Test("C3: a negative amount keeps its sign when the currency moves")
    func negativeCurrency() {
        let lines = RuleKit.outputLines("balance\n-$5.00\n$12.00\n", width: nil)
        #expect(lines == [
            "Balance ($)",
            "───────────",
            "      -5.00",
            "      12.00",
        ])
    }

    @Test("C3: units move in a width-limited table too")
    func unitsWithWidth() {
        let t = Self.table("item,price\nTea,$4.50\nCake,$12.00\n", width: 30)
        #expect(t.headings == ["Item", "Price ($)"])
        #expect(t.rows == [["Tea", "4.50"], ["Cake", "12.00"]])
    }

    // MARK: - C4

    @Test("C4: title-style headings without ending punctuation",
          arguments: [
            ("unit_price", "Unit Price"),
            ("createdAt", "Created At"),
            ("total:", "Total"),
            ("notes?", "Notes"),
            ("name.", "Name"),
            ("first name", "First Name"),
          ])
    func titleStyle(_ name: String, _ expected: String) {
        #expect(Self.heading(name) == expected)
    }

    @Test("C4: short words are lower-case unless first",
          arguments: [
            ("name_of_the_item", "Name of the Item"),
            ("of_mice_and_men", "Of Mice and Men"),
            ("price_vs_cost", "Price vs Cost"),
            ("time_to_ship", "Time to Ship"),
            ("sold_by_region", "Sold by Region"),
            ("bread_and_butter", "Bread and Butter"),
            ("an_item_for_sale", "An Item for Sale"),
            ("cost_at_close", "Cost at Close"),
            ("items_on_sale", "Items on Sale"),
            ("price_as_listed", "Price as Listed"),
            ("black_or_white", "Black or White"),
            ("in_stock", "In Stock"),
            ("the_end", "The End"),
            ("cost_per_unit", "Cost Per Unit"),
          ])
    func shortWords(_ name: String, _ expected: String) {
        #expect(Self.heading(name) == expected)
    }

    @Test("C4: known acronyms are written in capitals",
          arguments: [
            ("user_id", "User ID"),
            ("userId", "User ID"),
            ("userID", "User ID"),
            ("api_url", "API URL"),
            ("page_url", "Page URL"),
            ("cpu_load", "CPU Load"),
            ("ip_address", "IP Address"),
          ])
    func acronyms(_ name: String, _ expected: String) {
        #expect(Self.heading(name) == expected)
    }

    @Test("C4: words already in mixed or upper case keep their case",
          arguments: [
            ("NAME", "NAME"),
            ("first_NAME", "First NAME"),
            ("DNA_sample", "DNA Sample"),
            ("Total SKU count", "Total SKU Count"),
            ("api_URLs", "API URLs"),
            ("item_IDs", "Item IDs"),
          ])
    func mixedCaseKept(_ name: String, _ expected: String) {
        #expect(Self.heading(name) == expected)
    }

    @Test("C4: a unit as the name's last word becomes the heading's unit",
          arguments: [
            ("body_mass_g", "Body Mass", "g"),
            ("latency_ms", "Latency", "ms"),
            ("price_usd", "Price", "USD"),
            ("share_pct", "Share", "%"),
          ])
    func unitFromName(_ name: String, _ text: String, _ unit: String) {
        let title = Heading.title(name)
        #expect(title.text == text)
        #expect(title.unit == unit)
        #expect(Self.heading(name) == "\(text) (\(unit))")
        // With number cells that carry no unit of their own.
        let plan = RuleKit.plan([name], [["12"], ["3.5"]], options: RuleKit.options(width: nil))
        #expect(plan.columns[0].heading == "\(text) (\(unit))")
    }

    @Test("C4: --headers keep leaves the names as written")
    func headersKeep() {
        let names = ["unit_price", "createdAt", "total:", "body_mass_g", "user_id", "name_of_the_item"]
        let plan = RuleKit.plan(names, [names.map { _ in "x" }], options: RuleKit.options(width: nil) { $0.titleHeadings = false })
        #expect(plan.columns.map(\.heading) == names)
        let lines = RuleKit.outputLines(names.joined(separator: ",") + "\n" + names.map { _ in "x" }.joined(separator: ",") + "\n", width: nil) { $0.titleHeadings = false }
        #expect(RuleKit.tokens(lines[0]) == names)
    }
}
