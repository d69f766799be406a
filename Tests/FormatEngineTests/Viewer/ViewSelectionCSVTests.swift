import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V6: what `q` writes for the checked rows is CSV as the save writes it (V10, `SaveDialect`):
/// the same bytes for the same fields, read back by the engine's own reader as the rows were.
@Suite("Viewer: q writes the checked rows as CSV")
struct ViewSelectionCSVTests {
    /// `rows` under a header of `c1`…`cN` as CSV with every field quoted (so the input does not
    /// depend on the writer under test, and no row is a blank line).
    static func quotedCSV(_ rows: [[String]], columns: Int) -> String {
        let quote = { (field: String) in "\"" + field.replacing("\"", with: "\"\"") + "\"" }
        let header = (1...columns).map { "c\($0)" }
        return ([header] + rows).map { $0.map(quote).joined(separator: ",") }.joined(separator: "\n") + "\n"
    }

    @Test("V6: a checked row of a one-column view whose field is empty is written as \"\", as the save writes it, not as a blank line a reader skips")
    func emptyOnlyField() throws {
        let model = try ViewStateTests.view("a\n\"\"\nx\n", width: 20, height: 8)
        ViewStateTests.press(model, "a")
        let out = try #require(model.selectionCSV())
        #expect(String(decoding: out, as: UTF8.self) == "a\r\n\"\"\r\nx\r\n")
        let back = InputTestKit.parse(out, chunkSize: 1 << 16)
        #expect(back.error == nil && back.records == [["a"], [""], ["x"]])
    }

    @Test("V6: q's rows read back with the engine's CSV reader as the rows shown, and each field is the save's bytes (seeded random rows of commas, quotes, line breaks, spaces and empty fields; one to four columns)")
    func randomRowsRoundTrip() throws {
        var rng = SplitMix64(seed: 0x5156_3643)
        let pieces = ["", "", "a", ",", "\"", "\n", "\r\n", "\r", " lead", "trail ", "x,y", "say \"hi\"", "é"]
        for round in 0..<60 {
            let columns = Int.random(in: 1...4, using: &rng)
            let rows = (0..<Int.random(in: 1...12, using: &rng)).map { _ in
                (0..<columns).map { _ in (0..<Int.random(in: 0...3, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined() }
            }
            let model = try ViewStateTests.view(Self.quotedCSV(rows, columns: columns), width: 80, height: 30)
            ViewStateTests.press(model, "a")
            let out = try #require(model.selectionCSV())
            let header = (1...columns).map { "c\($0)" }
            let back = InputTestKit.parse(out, chunkSize: 1 << 16)
            #expect(back.error == nil && back.records == [header] + rows, "round \(round): \(String(decoding: out, as: UTF8.self).debugDescription)")
            // One writer: each row is the save's fields joined by commas, ended by CR LF.
            var saved: [UInt8] = []
            for row in [header] + rows { saved += SaveDialect.delimitedRow(row.map { Array($0.utf8) }, .csv(), quoteAll: false) + [0x0D, 0x0A] }
            #expect(out == saved, "round \(round)")
        }
    }
}
