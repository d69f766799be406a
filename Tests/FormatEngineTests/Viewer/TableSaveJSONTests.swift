import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10: JSON Lines saved without loss, on generated files: a changed line is the line with only its
/// changed values replaced (as the rule writes them), every other line as it was, and the file
/// reads back as the edits say.
@Suite("Viewer: JSON Lines saved without loss")
struct TableSaveJSONTests {
    /// A value typed, as the rule writes it where `original` (raw JSON, nil: no value) was.
    static func written(_ text: String, like original: String?) -> String {
        let isNumber = text.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/) != nil
        let wasNumber = original.map { $0.first == "-" || $0.first?.isNumber == true } ?? true
        if wasNumber && isNumber { return text }
        if let original, ["true", "false", "null"].contains(original), ["true", "false", "null"].contains(text) { return text }
        return "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n") + "\""
    }

    @Test("V10: 300 random scripts of changes, adds and deletes on generated JSON Lines files: the model's bytes, read back as the model's values")
    func randomLines() throws {
        let keys = ["id", "name", "price", "ok"]
        let values: [String: [String]] = ["id": ["1", "42", "-7"], "name": ["\"plain\"", "\"caf\\u00e9\"", "\"q\\\"q\"", "\"東京\""],
                                          "price": ["2.50", "1e3", "-0.5", "7"], "ok": ["true", "false"]]
        let texts = ["3.75", "hello", "x\"y", "", "true", "12", "two\nlines"]
        for seed in 0..<300 as Range<UInt64> {
            var rng = SplitMix64(seed: seed &* 104_729)
            // Each line: its members as (key, raw value), in the line's own order and spacing.
            var lines: [[(String, String)]] = []
            for _ in 0..<(rng.below(6) + 1) {
                var members = keys.filter { _ in rng.below(4) != 0 }
                if members.isEmpty { members = ["id"] }
                members.shuffle(using: &rng)
                lines.append(members.map { ($0, values[$0]![rng.below(values[$0]!.count)]) })
            }
            let spaced = rng.below(2) == 0
            func render(_ members: [(String, String)], spaced: Bool) -> String {
                "{" + members.map { "\"\($0.0)\":" + (spaced ? " " : "") + $0.1 }.joined(separator: spaced ? ", " : ",") + "}"
            }
            let text = lines.map { render($0, spaced: spaced) }.joined(separator: "\n") + "\n"
            let url = try TableSaveCaseTests.file(Array(text.utf8), "savejson-\(seed).jsonl")
            defer { try? FileManager.default.removeItem(at: url) }
            let (columns, original) = try TableSaveTests.table(url)
            // The model: each row (its line number, or nil: added), its values by column, its changes.
            // (A deleted row stays in the order, as in the view, until the save leaves it out.)
            var model: [(line: Int?, values: [String], changes: [Int: String], id: Int, deleted: Bool)] = original.enumerated().map {
                ($0.offset, $0.element + Array(repeating: "", count: columns.count - $0.element.count), [:], $0.offset, false)
            }
            var edits = RowEdits()
            for _ in 0..<(rng.below(6) + 1) {
                switch rng.below(4) {
                case 0 where !model.isEmpty, 1 where !model.isEmpty:
                    let p = rng.below(model.count), k = rng.below(columns.count)
                    let value = texts[rng.below(texts.count)]
                    guard value != model[p].values[k] else { continue }
                    edits.set(model[p].id, field: k, to: Array(value.utf8))
                    model[p].values[k] = value
                    model[p].changes[k] = value
                case 2:
                    let at = rng.below(model.count + 1)
                    let id = edits.add(at: at)
                    model.insert((nil, Array(repeating: "", count: columns.count), [:], id, false), at: at)
                case 3 where !model.isEmpty:
                    let p = rng.below(model.count)
                    edits.delete([model[p].id])
                    model[p].deleted = true
                default: break
                }
            }
            _ = try TableSave.save(try FileInput(path: url.path), options: FormatOptions(), to: url.path, expected: SaveFile.identity(path: url.path),
                                   edits: edits, rows: nil, loaded: original.count, columns: columns)
            model.removeAll { $0.deleted }
            // An untouched line is its bytes; a changed one its members with the changed values
            // written in place, and keys it lacked (given a value) added at its end.
            let expected = model.map { row -> String in
                guard let number = row.line else {
                    let members = zip(columns, row.values).filter { !$0.1.isEmpty }.map { "\"\($0.0)\":" + Self.written($0.1, like: nil) }
                    return "{" + members.joined(separator: ",") + "}"
                }
                var members = lines[number]
                var added = ""
                for (k, value) in row.changes.sorted(by: { $0.key < $1.key }) {
                    if let m = members.firstIndex(where: { $0.0 == columns[k] }) {
                        members[m].1 = Self.written(value, like: lines[number][m].1)
                    } else if !value.isEmpty {
                        added += ",\"\(columns[k])\":" + Self.written(value, like: nil)
                    }
                }
                return String(render(members, spaced: spaced).dropLast()) + added + "}"
            }.joined(separator: "\n") + (model.isEmpty ? "" : "\n")
            let saved = try String(contentsOf: url, encoding: .utf8)
            #expect(saved == expected, "seed \(seed)")
            let back = try TableSaveTests.table(url)
            let rows = back.rows
            let named = rows.map { Dictionary(uniqueKeysWithValues: zip(back.columns, $0)) }
            #expect(named.map { r in columns.map { r[$0] ?? "" } } == model.map(\.values), "seed \(seed)")
        }
    }
}
