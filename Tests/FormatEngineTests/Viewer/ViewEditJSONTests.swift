import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10: a JSON Lines field that holds an array or an object is edited as its JSON, and JSON
/// typed there is saved as JSON, not as a string holding it.
@Suite("Viewer: editing JSON arrays and objects")
struct ViewEditJSONTests {
    static func editorText(_ model: ViewModel) -> String? {
        guard case .edit(.field(let e)) = model.state.mode else { return nil }
        return String(e.text)
    }

    @Test("V10: e on an array or object opens its JSON; Enter on it unchanged is no change; JSON typed is saved as JSON, other text as a string, said at once")
    func arraysStayJSON() throws {
        let text = "{\"id\":1,\"tags\":[\"a\", \"b\"],\"o\":{\"x\":1,\"y\":[2]}}\n{\"id\":2,\"tags\":[],\"note\":\"[not json]\"}\n"
        let url = try TableSaveCaseTests.file(Array(text.utf8), "arrays.jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        let model = try ViewEditTests.saving(FileInput(path: url.path))
        #expect(model.state.columns.map(\.source).count == 5)
        model.handle(.right)                                  // tags
        ViewEditTests.type(model, "e")
        #expect(Self.editorText(model) == "[\"a\", \"b\"]", "as written in the line, its spacing too")
        model.handle(.enter)
        #expect(!model.unsaved, "the JSON typed back is the value as read")
        ViewEditTests.type(model, "e")
        for _ in 0..<3 { model.handle(.backspace) }           // b"]
        ViewEditTests.type(model, "c\"]")
        model.handle(.enter)
        #expect(model.unsaved)
        model.handle(.right)
        model.handle(.right)                                  // o.y, an array in a nested object
        ViewEditTests.type(model, "e")
        #expect(Self.editorText(model) == "[2]")
        model.handle(.backspace)
        ViewEditTests.type(model, ", {\"z\": null}]")
        model.handle(.enter)
        model.handle(.down)
        model.handle(.left)
        model.handle(.left)                                   // row 2, tags: []
        ViewEditTests.type(model, "e")
        #expect(Self.editorText(model) == "[]")
        model.handle(.control("u"))
        ViewEditTests.type(model, "x, y")
        model.handle(.enter)
        #expect((model.state.message ?? "").hasPrefix("kept as text: Tags held JSON here"), "\(model.state.message ?? "")")
        for _ in 0..<3 { model.handle(.right) }               // note: a string that looks like JSON
        ViewEditTests.type(model, "e")
        #expect(Self.editorText(model) == "[not json]")
        model.handle(.control("u"))
        ViewEditTests.type(model, "[1]")
        model.handle(.enter)
        ViewEditTests.type(model, "w")
        #expect(model.state.message == "saved to \(url.path)")
        let saved = try String(contentsOf: url, encoding: .utf8)
        #expect(saved == "{\"id\":1,\"tags\":[\"a\", \"c\"],\"o\":{\"x\":1,\"y\":[2, {\"z\": null}]}}\n{\"id\":2,\"tags\":\"x, y\",\"note\":\"[1]\"}\n", "\(saved)")
    }

    @Test("V10: an edit asked for before a JSON Lines file's lines are found (on their own thread as the view opens) is refused at once with how far the search is, and taken once they are")
    func editBeforeLinesFound() throws {
        let text = "{\"id\":1,\"tags\":[\"a\"]}\n{\"id\":2,\"tags\":[]}\n"
        let url = try TableSaveCaseTests.file(Array(text.utf8), "pending.jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        let input = try FileInput(path: url.path)
        let loader = ViewLoader(store: RowStore())
        loader.load(input, options: FormatOptions())
        let model = ViewModel(loader: loader, options: FormatOptions(), source: input.name, color: false, width: 64, height: 8)
        model.enableSaving(input, options: FormatOptions(), findLines: false)
        model.handle(.right)                                  // tags
        ViewEditTests.type(model, "e")
        #expect(Self.editorText(model) == nil, "no editor while the lines are not found")
        #expect((model.state.message ?? "").contains("finding the file's lines (0%)"), "\(model.state.message ?? "")")
        model.saving?.lineFinder?.start()
        model.saving?.lineFinder?.wait()
        ViewEditTests.type(model, "e")
        #expect(Self.editorText(model) == "[\"a\"]", "its JSON, from its line")
        model.stop()
    }

    @Test("V10: JSON Lines' rows found from the bytes fed a piece at a time are those found from the bytes whole, on 2,000 generated files cut at every kind of place")
    func lineScanInPieces() {
        var rng = SplitMix64(seed: 77)
        let parts: [[UInt8]] = [Array("{\"a\":1}".utf8), [0x0A], [0x0D, 0x0A], [0x20], [0x09], Array("[2]".utf8), [0xEF, 0xBB, 0xBF]]
        for _ in 0..<2000 {
            var bytes: [UInt8] = rng.below(4) == 0 ? [0xEF, 0xBB, 0xBF] : []
            let bom = bytes.count
            for _ in 0..<rng.below(30) { bytes += parts[rng.below(parts.count)] }
            let whole = RowSpans.lines(bytes.span, bom: bom)
            // Independently: a row is a line (split at line feeds, the mark left out) with a byte
            // other than a space, a tab or a carriage return.
            let rows = bytes.dropFirst(bom).split(separator: 0x0A, omittingEmptySubsequences: false)
                .filter { $0.contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D } }.count
            #expect(whole.count == rows, "\(bytes)")
            var scan = RowSpans.LineScan(bom: bom)
            var at = 0
            while at < bytes.count {
                let next = min(bytes.count, at + 1 + rng.below(5))
                scan.feed(bytes.span.extracting(at..<next))
                at = next
            }
            let pieces = RowSpans(scan.found)
            #expect(pieces.count == whole.count && pieces.end == whole.end && pieces.headerEnd == whole.headerEnd, "\(bytes)")
            #expect((0..<whole.count).allSatisfy { pieces.start($0) == whole.start($0) }, "\(bytes)")
        }
    }

    @Test("V10: isStructure is true exactly for one JSON array or object: checked against Foundation's JSON parser on generated texts")
    func structureAgainstFoundation() throws {
        var rng = SplitMix64(seed: 44)
        let scalars = ["1", "-2.5e3", "0", "true", "false", "null", "\"a\"", "\"\\\"\"", "\"é\\u00e9\"", "\"\""]
        // A random JSON value, arrays and objects nested up to `depth`.
        func value(_ depth: Int) -> String {
            let pick = rng.below(depth > 0 ? 4 : 2)
            if pick < 2 { return scalars[rng.below(scalars.count)] }
            let n = rng.below(4)
            let items = (0..<n).map { k in pick == 2 ? value(depth - 1) : "\"k\(k)\" : " + value(depth - 1) }
            return pick == 2 ? "[" + items.joined(separator: ", ") + "]" : "{" + items.joined(separator: ",") + "}"
        }
        let breaks = ["[", "]", "{", "}", ",", ":", "\"", "01", " ", "x", "\\"]
        var checked = 0
        for _ in 0..<4000 {
            var text = Array(value(3))
            // Half of them broken in one place: a character left out, or one put in.
            if rng.below(2) == 0, !text.isEmpty {
                let at = rng.below(text.count)
                if rng.below(2) == 0 { text.remove(at: at) } else { text.insert(contentsOf: breaks[rng.below(breaks.count)], at: at) }
            }
            let string = String(text)
            let trimmed = string.trimmingCharacters(in: .whitespaces)
            // Foundation's parser takes a comma before a closing bracket, which RFC 8259 (and the
            // reader) does not: such texts are not JSON here.
            let trailingComma = string.replacingOccurrences(of: " ", with: "").contains(",]") || string.replacingOccurrences(of: " ", with: "").contains(",}")
            let expected = (trimmed.hasPrefix("[") || trimmed.hasPrefix("{"))
                && (try? JSONSerialization.jsonObject(with: Data(string.utf8), options: [])) != nil
                && !trailingComma
            #expect(JSONLine.isStructure(Array(string.utf8)) == expected, "\(string)")
            if expected { checked += 1 }
        }
        #expect(checked > 1000, "enough valid texts generated: \(checked)")
    }
}
