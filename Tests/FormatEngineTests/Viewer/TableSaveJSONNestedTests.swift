import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10: a row added to a JSON Lines file of nested objects is written in the file's shape: each
/// column at the keys the reader found it under (`{"a":{"b":1}}` for a column `a.b` read from a
/// nested object, `{"d.e":1}` for one read from a key with a dot), so the file reads back as the
/// edits say and no column is split in two.
@Suite("Viewer: JSON Lines rows added in the file's shape")
struct TableSaveJSONNestedTests {
    /// The members a line may have, as paths of keys: `d.e` is one key with a dot in it.
    static let paths: [[String]] = [["id"], ["a", "b"], ["a", "c"], ["d.e"], ["d", "e"], ["f", "g", "h"], ["f", "i"]]

    /// A line holding `chosen` paths, with the values given, nested as the paths say.
    static func render(_ chosen: [([String], String)]) -> String {
        var heads: [String] = []
        var groups: [String: [([String], String)]] = [:]
        for (path, value) in chosen {
            if groups[path[0]] == nil { heads.append(path[0]) }
            groups[path[0], default: []].append((Array(path.dropFirst()), value))
        }
        let members = heads.map { head -> String in
            let group = groups[head]!
            let inner = group.count == 1 && group[0].0.isEmpty ? group[0].1 : render(group.map { ($0.0, $0.1) })
            return "\"\(head)\":" + inner
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// Every value in a parsed JSON object, by its path (numbers and strings as text).
    static func leaves(_ object: [String: Any], under: [String] = []) -> [[String]: String] {
        var out: [[String]: String] = [:]
        for (key, value) in object {
            if let inner = value as? [String: Any] {
                out.merge(leaves(inner, under: under + [key])) { a, _ in a }
            } else {
                out[under + [key]] = (value as? String) ?? "\(value)"
            }
        }
        return out
    }

    @Test("V10: 200 generated nested JSON Lines files, a row added and filled: its members at the keys each column was read from, read back as typed")
    func addedRowsNested() throws {
        for seed in 0..<200 as Range<UInt64> {
            var rng = SplitMix64(seed: seed &* 7_919 &+ 3)
            var lines: [[([String], String)]] = []
            for _ in 0..<(rng.below(4) + 1) {
                var chosen = Self.paths.filter { _ in rng.below(3) != 0 }
                if chosen.isEmpty { chosen = [["id"]] }
                lines.append(chosen.map { ($0, String(rng.below(1000))) })
            }
            let text = lines.map { Self.render($0) }.joined(separator: "\n") + "\n"
            let url = try TableSaveCaseTests.file(Array(text.utf8), "savenested-\(seed).jsonl")
            defer { try? FileManager.default.removeItem(at: url) }
            let (columns, original) = try TableSaveTests.table(url)
            // Each column's path: the paths in the order the lines first hold them (a line holds
            // its members in `paths` order).
            var order: [[String]] = []
            for line in lines { for (path, _) in line where !order.contains(path) { order.append(path) } }
            #expect(columns == order.map { $0.joined(separator: ".") }, "seed \(seed)")
            guard columns.count == order.count else { continue }
            let at = rng.below(original.count + 1)
            var edits = RowEdits()
            let id = edits.add(at: at)
            var typed: [String] = []
            for k in columns.indices {
                let value = rng.below(4) == 0 ? "" : (rng.below(2) == 0 ? String(rng.below(100)) : "w\(rng.below(100))")
                typed.append(value)
                if !value.isEmpty { edits.set(id, field: k, to: Array(value.utf8)) }
            }
            _ = try TableSave.save(try FileInput(path: url.path), options: FormatOptions(), to: url.path, expected: SaveFile.identity(path: url.path),
                                   edits: edits, rows: nil, loaded: original.count, columns: columns)
            let saved = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(saved.count == lines.count + 1, "seed \(seed)")
            guard saved.count == lines.count + 1 else { continue }
            // The other lines are as they were.
            #expect(Array(saved[..<at] + saved[(at + 1)...]) == lines.map { Self.render($0) }, "seed \(seed)")
            // The new line: each filled column at its own path.
            let parsed = try JSONSerialization.jsonObject(with: Data(saved[at].utf8)) as? [String: Any]
            let expected = Dictionary(uniqueKeysWithValues: zip(order, typed).filter { !$0.1.isEmpty })
            #expect(parsed.map { Self.leaves($0) } == expected, "seed \(seed): \(saved[at])")
            // And it reads back as typed.
            let back = try TableSaveTests.table(url)
            let rows = back.rows
            #expect(rows.count == lines.count + 1, "seed \(seed)")
            guard rows.count == lines.count + 1 else { continue }
            // No column split in two (a first-seen order may change: the new row may come first).
            #expect(back.columns.sorted() == columns.sorted(), "seed \(seed)")
            let filled = { (names: [String], values: [String]) in zip(names, values).filter { !$0.1.isEmpty }.map { "\($0.0)=\($0.1)" }.sorted() }
            #expect(filled(back.columns, rows[at]) == filled(columns, typed), "seed \(seed): \(saved[at])")
        }
    }

    @Test("V10: a row added with a value under a key that is a value in one line and an object in another is refused at the save, naming its row; the file is as it was")
    func addedRowRefused() throws {
        let text = "{\"a\":1}\n{\"a\":{\"b\":2}}\n"
        let url = try TableSaveCaseTests.file(Array(text.utf8), "nested-refused.jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        let (columns, original) = try TableSaveTests.table(url)
        #expect(columns == ["a", "a.b"])
        var edits = RowEdits()
        let id = edits.add(at: 2)
        edits.set(id, field: 0, to: Array("3".utf8))
        edits.set(id, field: 1, to: Array("4".utf8))
        do {
            try TableSaveCaseTests.save(url, edits, rows: original.count, columns: columns)
            Issue.record("saved a row that gives a both a value and an object")
        } catch {
            #expect(error.message == "\(url.path): row 3: \"a\" would hold both a value and an object")
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == text)
    }

    @Test("V10: an added row's members: under one object per first key, in order; a key that would hold both a value and an object refused")
    func objectByPaths() throws {
        let pairs: [JSONLine.Change] = [("id", Array("5".utf8), true), ("a.b", Array("x".utf8), true), ("d.e", Array("7".utf8), true), ("a.c", Array("8".utf8), true)]
        let line = try JSONLine.object(pairs, paths: [["id"], ["a", "b"], ["d.e"], ["a", "c"]])
        #expect(String(decoding: line, as: UTF8.self) == #"{"id":5,"a":{"b":"x","c":8},"d.e":7}"#)
        // Without paths, each name is one key.
        #expect(String(decoding: try JSONLine.object(pairs), as: UTF8.self) == #"{"id":5,"a.b":"x","d.e":7,"a.c":8}"#)
        #expect(throws: JSONLine.Unclear.self) {
            try JSONLine.object([("a", Array("1".utf8), true), ("a.b", Array("2".utf8), true)], paths: [["a"], ["a", "b"]])
        }
    }
}
