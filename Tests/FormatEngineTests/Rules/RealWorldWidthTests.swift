import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// W1 on real files: every CSV/TSV file of `conformance/real-world`, laid out as a table (`--layout table`) at
/// 30, 50, 80 and 120 columns, prints no line wider than the container.
@Suite("Real-world widths")
struct RealWorldWidthTests {
    static let folder = TestPaths.conformance.appendingPathComponent("real-world")

    /// The delimited files (CSV, TSV and the semicolon-separated `.ssv`); JSON is read elsewhere.
    static let files: [String] = TestPaths.files(in: folder, extensions: ["csv", "tsv", "ssv"])
        .map { String($0.path.dropFirst(folder.path.count + 1)) }

    @Test("W1: the real-world files are there")
    func inventory() {
        #expect(Self.files.count >= 15, "\(Self.files)")
    }

    /// The output lines of a file at a width, and where the table ends (the notes follow it).
    static func run(_ file: String, width: Int) throws -> (lines: [String], tableEnd: Int) {
        let url = folder.appendingPathComponent(file)
        let bytes = try [UInt8](Data(contentsOf: url))
        var options = FormatOptions()
        options.width = width
        options.layout = .table
        if file.hasSuffix("spanish_chars.csv") { options.encoding = .latin1 }
        let sink = MemorySink()
        let result = try TableFormatter.run(MemoryInput(bytes, name: file, path: url.path), options: options, output: sink)
        #expect(result.error == nil, "\(file) at \(width): \(String(describing: result.error))")
        let lines = RuleKit.lines(sink.text)
        #expect(lines.count > 2, "\(file) at \(width): \(lines.count) lines")
        // Notes (W14) are the lines after the last table row: "N more columns: …".
        let notes = lines.reversed().prefix { $0.hasSuffix("more column") || $0.contains(" more column: ") || $0.contains(" more columns: ") }.count
        return (lines, lines.count - notes)
    }

    static func check(_ file: String, _ lines: ArraySlice<String>, width: Int, what: String) {
        var reported = 0
        for (number, line) in zip(lines.indices, lines) {
            let shown = RuleKit.width(line)
            guard shown > width else { continue }
            reported += 1
            if reported <= 3 {
                Issue.record("\(file) at --width \(width): \(what) \(number + 1) is \(shown) columns: \(line.prefix(160).debugDescription)")
            }
        }
        if reported > 3 { Issue.record("\(file) at --width \(width): \(reported) \(what)s too wide in all") }
    }

    @Test("W1: no table line is wider than the container", arguments: files)
    func tableFitsContainer(_ file: String) throws {
        for width in [30, 50, 80, 120] {
            let (lines, tableEnd) = try Self.run(file, width: width)
            Self.check(file, lines[0..<tableEnd], width: width, what: "line")
        }
    }

    @Test("W1, W14: the note under the table is no wider than the container either", arguments: files)
    func notesFitContainer(_ file: String) throws {
        for width in [30, 50, 80, 120] {
            let (lines, tableEnd) = try Self.run(file, width: width)
            Self.check(file, lines[tableEnd...], width: width, what: "note line")
        }
    }
}
