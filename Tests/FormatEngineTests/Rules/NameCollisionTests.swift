import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// I4, I6, W9: every input column keeps its own column, whatever its name; a name that matches
/// several columns is refused with the list of them; a JSON object's duplicate key is said.
@Suite("Name collisions")
struct NameCollisionTests {
    typealias Kit = ReliabilityKit

    @Test("I4: 500 generated objects whose keys collide once dotted (a.b, a{b}, a{b{c}}, a.b.c): every value is shown, each in its own column")
    func jsonPaths() throws {
        var random = SplitMix64(seed: 0xC011)
        let shapes: [(json: String, leaves: Int)] = [
            (#""a":{"b":V}"#, 1), (#""a.b":V"#, 1), (#""a":{"b":{"c":V}}"#, 1), (#""a.b":{"c":V}"#, 1),
            (#""a":{"b.c":V}"#, 1), (#""a.b.c":V"#, 1), (#""x":V"#, 1), (#""a_b":V"#, 1), (#""a b":V"#, 1),
        ]
        for round in 0..<500 {
            // Distinct top-level keys only (a duplicate key is another rule): pick shapes whose
            // first key differs.
            var used = Set<String>()
            var members: [String] = []
            var values: [String] = []
            for _ in 0..<(1 + random.below(5)) {
                let shape = shapes[random.below(shapes.count)]
                let key = String(shape.json.split(separator: ":")[0])
                guard !used.contains(key) else { continue }
                used.insert(key)
                let value = "v\(round)x\(values.count)"
                values.append(value)
                members.append(shape.json.replacing("V", with: "\"\(value)\""))
            }
            let json = "[{" + members.joined(separator: ",") + "}]"
            var options = Kit.options(width: nil)
            options.format = .markdown
            let out = try Kit.format(Array(json.utf8), options: options)
            for value in values {
                #expect(out.text.components(separatedBy: value).count == 2, "round \(round): \(value) not shown once in\n\(json)\n\(out.text)")
            }
            let header = out.lines.first { $0.hasPrefix("|") } ?? ""
            #expect(header.split(separator: "|").count == values.count, "round \(round): \(json)\n\(out.text)")
            #expect(out.result.warnings.isEmpty)
        }
    }

    @Test("I4: the report's objects: {c:{k:1}, c.k:2} has two columns; c.k, c_k and c k each their own")
    func reported() throws {
        var options = Kit.options(width: nil)
        options.format = .markdown
        let two = try Kit.format(Array(#"[{"c":{"k":1},"c.k":2}]"#.utf8), options: options)
        #expect(two.lines.last == "| 1 | 2 |")
        let four = try Kit.format(Array(#"{"c":{"k":1},"c.k":2,"c_k":3,"c k":4}"#.utf8), options: options)
        #expect(four.lines.last == "| 1 | 2 | 3 | 4 |")
    }

    @Test("I4: a duplicate key in one object: the last value wins, and one warning names the first and counts them")
    func duplicateKeys() throws {
        let out = try Kit.format(Array("{\"a\":1,\"b\":2,\"a\":3}\n{\"a\":4,\"a\":5,\"a\":6}\n".utf8), options: Kit.options(width: nil))
        #expect(out.lines.suffix(2) == ["3  2", "6"])
        #expect(out.result.warnings == [#"<stdin>: duplicate key "a" in one object on line 1: the last value is shown (3 times in all)"#])
    }

    @Test("W9: a name that matches several columns is refused, listing them by number; a number or an exact name still picks one")
    func ambiguousReferences() throws {
        let csv = Array("a,a,,A, a\n1,2,3,4,5\n".utf8)
        for (option, value) in [("columns", "a"), ("sort", "a"), ("group", "a"), ("columns", "Column 3,a")] {
            var options = Kit.options(width: nil)
            switch option {
            case "columns": options.columns = ColumnSelection(value.split(separator: ",").map(String.init))
            case "sort": options.sort = [SortKey(value)]
            default: options.groupBy = ColumnReference(value)
            }
            let out = try Kit.format(csv, options: options)
            #expect(out.result.usageError == "'a' matches 2 columns: 1 (a), 2 (a); name one by its number", "\(option) \(value)")
            #expect(out.bytes.isEmpty)
        }
        // No exact match: the names that differ only in case are all candidates.
        #expect(try ColumnReference("b").resolve(in: ["B", "x", "b "]) == 0)
        #expect(throws: SelectionError.self) { try ColumnReference("x").resolve(in: ["X", "X"]) }
        #expect(try ColumnReference("A").resolve(in: ["a", "a", "A"]) == 2)
        #expect(try ColumnReference("2").resolve(in: ["a", "a", "A"]) == 1)
        // The label that tells same-named columns apart picks the n-th of them.
        #expect(try ColumnReference("A (2)").resolve(in: ["a", "b", "A"]) == 2)
        #expect(try ColumnReference("a (2)").resolve(in: ["a", "b", "a"]) == 2)
        #expect(throws: SelectionError.self) { try ColumnReference("a (3)").resolve(in: ["a", "b", "a"]) }
    }
}

extension NameCollisionTests {
    @Test("C4, I6: columns whose headings read the same are told apart: A, A (2), … in input order; the label finds the column")
    func labels() throws {
        let csv = try Kit.format(Array("a,a,,A, a\n1,2,3,4,5\n".utf8), options: Kit.options(width: nil))
        #expect(csv.lines[0] == "A  A (2)  Column 3  A (3)  A (4)")
        let json = try Kit.format(Array(#"{"c":{"k":1},"c.k":2,"c_k":3,"c k":4}"#.utf8), options: Kit.options(width: nil))
        #expect(json.lines[0] == "C K  C K (2)  C K (3)  C K (4)")
        #expect(json.lines[2] == "  1        2        3        4")
        var options = Kit.options(width: nil)
        options.columns = [.name("C K (3)")]
        #expect(try Kit.format(Array(#"{"c":{"k":1},"c.k":2,"c_k":3,"c k":4}"#.utf8), options: options).lines.last == "      3")
        // Generated: any names, the headings shown are all different.
        var random = SplitMix64(seed: 99)
        let pieces = ["a", "A", "a_b", "a b", "a.b", "aB", "", " a", "Id", "ID", "id"]
        for round in 0..<200 {
            let names = (0..<(2 + random.below(6))).map { _ in pieces[random.below(pieces.count)] }
            let text = names.map { "\"\($0)\"" }.joined(separator: ",") + "\n" + names.map { _ in "1" }.joined(separator: ",") + "\n"
            var wide = Kit.options(width: nil)
            wide.format = .markdown
            let out = try Kit.format(Array(text.utf8), options: wide)
            let heads = out.lines[0].split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            #expect(heads.count == names.count && Set(heads).count == heads.count, "round \(round): \(names) → \(heads)")
        }
    }
}
