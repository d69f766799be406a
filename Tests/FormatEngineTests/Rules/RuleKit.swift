import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// Helpers shared by the rule tests in `Rules/`: run the whole pipeline on CSV text, read the
/// same text the way the formatter sizes it, and take output apart again.
enum RuleKit {
    static let measure = DisplayWidth()

    /// Options for CSV text with `,` as the delimiter (never sniffed), an explicit width and the
    /// table layout.
    static func options(width: Int?, _ configure: (inout FormatOptions) -> Void = { _ in }) -> FormatOptions {
        var options = FormatOptions()
        options.inputFormat = .csv
        options.delimiter = UInt8(ascii: ",")
        options.width = width
        options.layout = .table  // W5's table, with omission; W7's auto would switch to a list report
        configure(&options)
        return options
    }

    /// The formatter's whole output for CSV text.
    static func format(_ csv: String, width: Int?, _ configure: (inout FormatOptions) -> Void = { _ in }) -> String {
        format(Array(csv.utf8), path: "rules.csv", options: options(width: width, configure))
    }

    /// The formatter's whole output for bytes read as the file at `path`; a data error is an issue.
    static func format(_ bytes: [UInt8], path: String, options: FormatOptions,
                       sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let sink = MemorySink()
        do {
            let result = try TableFormatter.run(MemoryInput(bytes, name: path, path: path), options: options, output: sink)
            #expect(result.error == nil, "data error: \(String(describing: result.error))", sourceLocation: sourceLocation)
        } catch {
            Issue.record("output error: \(error)", sourceLocation: sourceLocation)
        }
        return sink.text
    }

    /// The output lines (split at LF only, the last empty piece dropped).
    static func lines(_ text: String) -> [String] {
        var out: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                out.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        if !current.isEmpty { out.append(String(current)) }
        return out
    }

    /// Output lines for CSV text.
    static func outputLines(_ csv: String, width: Int?, _ configure: (inout FormatOptions) -> Void = { _ in }) -> [String] {
        lines(format(csv, width: width, configure))
    }

    /// The column names and records the formatter sees for CSV text.
    static func read(_ csv: String, options: FormatOptions) -> (columns: [String], records: [Record]) {
        read(Array(csv.utf8), path: "rules.csv", options: options)
    }

    static func read(_ bytes: [UInt8], path: String, options: FormatOptions) -> (columns: [String], records: [Record]) {
        do {
            var table = try TableInput(MemoryInput(bytes, name: path, path: path), options: options.input)
            var records: [Record] = []
            var record = Record()
            while try table.next(into: &record) { records.append(record) }
            return (table.columns, records)
        } catch {
            Issue.record("input error: \(error)")
            return ([], [])
        }
    }

    /// Profiles of columns given as a header and rows of strings.
    static func profiles(_ header: [String], _ rows: [[String]], trackWords: Bool = false) -> [ColumnProfile] {
        profiles(header, rows.map { Record($0) }, trackWords: trackWords)
    }

    static func profiles(_ header: [String], _ records: [Record], trackWords: Bool = false) -> [ColumnProfile] {
        var profiler = ColumnProfiler(columns: header, measure: measure, trackWords: trackWords)
        for record in records {
            profiler.sync(columns: header)
            profiler.add(record)
        }
        return profiler.profiles
    }

    /// The plan the formatter makes for CSV text (sized from all of its rows).
    static func plan(_ csv: String, width: Int?, _ configure: (inout FormatOptions) -> Void = { _ in }) -> LayoutPlan {
        let options = options(width: width, configure)
        let (columns, records) = read(csv, options: options)
        return Layout.plan(profiles(columns, records, trackWords: options.cellLines > 1), options: options)
    }

    /// A plan for a header and rows of strings.
    static func plan(_ header: [String], _ rows: [[String]], options: FormatOptions) -> LayoutPlan {
        Layout.plan(profiles(header, rows, trackWords: options.cellLines > 1), options: options)
    }

    /// The pieces of a line separated by two or more spaces (cells of a table of simple cells).
    static func tokens(_ line: String) -> [String] {
        var out: [String] = []
        var current = ""
        var spaces = 0
        for ch in line {
            if ch == " " {
                spaces += 1
                continue
            }
            if spaces >= 2, !current.isEmpty {
                out.append(current)
                current = ""
            } else if spaces == 1, !current.isEmpty {
                current += " "
            }
            spaces = 0
            current.append(ch)
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    static func width(_ text: String) -> Int { measure.width(of: text) }

    /// Whether a line is the rule under the headings (O2 `rule` style).
    static func isRule(_ line: String) -> Bool {
        line.contains("─") && line.allSatisfy { $0 == "─" || $0 == " " }
    }
}
