import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// W12: a group's heading counts its rows as every count tablefmt writes is written
/// (`1,234 rows`, as `… 1,234 more rows`), printed, in Markdown and in the view; its footer's
/// `Total` is never cut or left out, whatever the first column holds.
@Suite("W12 group headings and totals")
struct GroupLabelTests {
    func run(_ csv: String, _ configure: (inout FormatOptions) -> Void) throws -> [String] {
        var options = FormatOptions()
        options.format = .plain
        configure(&options)
        let sink = MemorySink()
        _ = try TableFormatter.run(MemoryInput(csv), options: options, output: sink)
        return sink.text.split(separator: "\n").map(String.init)
    }

    /// 1,234 rows of team `a`, then 3 of team `b`.
    static let teams = "team,n\n" + String(repeating: "a,1\n", count: 1234) + String(repeating: "b,2\n", count: 3)

    @Test("W12: a group's row count has its thousands separator, in print, in Markdown, on disk and in the view")
    func counts() throws {
        for format in [OutputFormat.plain, .markdown] {
            for memory in [64 << 20, 2048] {  // held, and sorted on disk (FormatRun+Groups)
                let lines = try run(Self.teams) {
                    $0.format = format
                    $0.groupBy = ColumnReference("team")
                    $0.memoryLimit = memory
                    $0.limit = 10
                }
                #expect(lines.contains { $0.hasSuffix("Team: a (1,234 rows)") }, "\(format) \(memory): \(lines)")
                #expect(lines.contains { $0.hasSuffix("1,227 more rows") })
            }
        }
        var options = FormatOptions()
        options.groupBy = ColumnReference("team")
        let view = try ViewStateTests.view(Self.teams, width: 40, height: 10, options: options)
        #expect(ViewStateTests.plain(view).contains("Team: a (1,234 rows)"), "\(ViewStateTests.plain(view))")
    }

    @Test("W12: `Total` whole under a narrow first column, and beside a first column that has a sum")
    func totalLabel() throws {
        let narrow = "k,team,n\nx,a,5\ny,a,6\nz,b,7\n"
        let summedFirst = "id,team,n\n1,a,5\n2,a,6\n3,b,7\n"
        for csv in [narrow, summedFirst] {
            for style in [TableStyle.rule, .box, .compact] {
                let lines = try run(csv) { $0.groupBy = ColumnReference("team"); $0.style = style; $0.width = 40 }
                // Two groups, two footers, each labelled whole (a cut label reads `Tot…`).
                #expect(lines.filter { $0.contains("Total") }.count == 2, "\(style):\n\(lines.joined(separator: "\n"))")
            }
            let markdown = try run(csv) { $0.groupBy = ColumnReference("team"); $0.format = .markdown }
            #expect(markdown.filter { $0.contains("**Total**") }.count == 2, "\(markdown)")
            var options = FormatOptions()
            options.groupBy = ColumnReference("team")
            let view = ViewStateTests.plain(try ViewStateTests.view(csv, width: 40, height: 12, options: options))
            #expect(view.filter { $0.contains("Total") }.count == 2, "\(view)")
        }
    }
}
