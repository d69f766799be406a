import Foundation
import Testing
@testable import FormatEngine

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
