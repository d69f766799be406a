import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10: single cases of saving — JSON Lines, what cannot be written, a file changed on disk, the
/// file's mode — and the edit log's order under many moves.
@Suite("Viewer: saving, case by case")
struct TableSaveCaseTests {
    static func file(_ text: [UInt8], _ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-savecase-\(getpid())-\(name)")
        try Data(text).write(to: url)
        return url
    }

    static func save(_ url: URL, _ edits: RowEdits, options: FormatOptions = FormatOptions(), rows: Int, columns: [String], expected: SaveFile.Identity?? = nil) throws(SaveError) {
        let input: FileInput
        do { input = try FileInput(path: url.path) } catch { throw SaveError("\(error)") }
        _ = try TableSave.save(input, options: options, to: url.path, expected: expected ?? SaveFile.identity(path: url.path), edits: edits, rows: nil, loaded: rows, columns: columns)
    }

    @Test("V10: JSON Lines: a changed line keeps its key order, spacing and numbers as written; a number typed stays a number, text is escaped only where it must be; other lines are untouched")
    func jsonLines() throws {
        let text = "{\"id\": 1, \"price\": 2.50, \"name\": \"caf\\u00e9\", \"ok\": true}\n{\"id\":2,\"price\":1e3,\"name\":\"x\"}\n\n{\"name\":\"z\",\"id\":3}\n"
        let url = try Self.file(Array(text.utf8), "lines.jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        var edits = RowEdits()
        edits.set(0, field: 1, to: Array("3.75".utf8))       // price: a number stays a number
        edits.set(0, field: 2, to: Array("say \"hi\"\n".utf8))  // name: escaped minimally
        edits.set(2, field: 1, to: Array("n/a".utf8))        // a key the line lacks: added at its end
        let id = edits.add(at: 3)
        edits.set(id, field: 0, to: Array("4".utf8))
        edits.set(id, field: 2, to: Array("ü".utf8))
        try Self.save(url, edits, rows: 3, columns: ["id", "price", "name", "ok"])
        let saved = try String(contentsOf: url, encoding: .utf8)
        #expect(saved == "{\"id\": 1, \"price\": 3.75, \"name\": \"say \\\"hi\\\"\\n\", \"ok\": true}\n{\"id\":2,\"price\":1e3,\"name\":\"x\"}\n\n{\"name\":\"z\",\"id\":3,\"price\":\"n/a\"}\n{\"id\":4,\"name\":\"ü\"}\n")
    }

    @Test("V10: a JSON document is read-only: the save is refused, saying so, and the file is left as it was")
    func jsonDocument() throws {
        let text = "[{\"a\":1},{\"a\":2}]\n"
        let url = try Self.file(Array(text.utf8), "doc.json")
        defer { try? FileManager.default.removeItem(at: url) }
        var edits = RowEdits()
        edits.set(0, field: 0, to: Array("5".utf8))
        #expect(throws: SaveError.self) { try Self.save(url, edits, rows: 2, columns: ["a"]) }
        do { try Self.save(url, edits, rows: 2, columns: ["a"]) } catch { #expect(error.message.contains("read-only")) }
        #expect(try String(contentsOf: url, encoding: .utf8) == text)
    }

    @Test("V10: a character the file's encoding cannot hold is refused with its row, column and place; nothing is written")
    func unencodable() throws {
        let text: [UInt8] = Array("name,city\nJos\u{E9},Paris\n".data(using: .isoLatin1) ?? Data())
        let url = try Self.file(text, "latin.csv")
        defer { try? FileManager.default.removeItem(at: url) }
        var options = FormatOptions()
        options.encoding = .latin1
        var edits = RowEdits()
        edits.set(0, field: 1, to: Array("東京".utf8))
        do {
            try Self.save(url, edits, options: options, rows: 1, columns: ["name", "city"])
            Issue.record("saved")
        } catch {
            #expect(error.message == "\(url.path): row 1, column 2 (city), character 1: U+6771 cannot be written in latin1")
        }
        #expect(Array(try Data(contentsOf: url)) == text)
        // What Latin-1 holds is written in Latin-1.
        edits.undo()
        edits.set(0, field: 1, to: Array("Zürich".utf8))
        try Self.save(url, edits, options: options, rows: 1, columns: ["name", "city"])
        #expect(Array(try Data(contentsOf: url)) == Array("name,city\nJos\u{E9},Z\u{FC}rich\n".data(using: .isoLatin1) ?? Data()))
    }

    @Test("V10: a file changed on disk since it was opened is not written over; the error offers another name")
    func changedOnDisk() throws {
        let url = try Self.file(Array("a,b\n1,2\n".utf8), "changed.csv")
        defer { try? FileManager.default.removeItem(at: url) }
        let opened = SaveFile.identity(path: url.path)
        try Data("a,b\n1,2\n3,4\n".utf8).write(to: url)
        var edits = RowEdits()
        edits.set(0, field: 0, to: Array("9".utf8))
        do {
            try Self.save(url, edits, rows: 1, columns: ["a", "b"], expected: opened)
            Issue.record("saved")
        } catch {
            #expect(error.offerSaveAs)
            #expect(error.message.contains("changed on disk"))
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == "a,b\n1,2\n3,4\n")
    }

    @Test("V10: the saved file keeps the old one's mode, and replaces it (a new inode: a reader holding the old file still reads the old bytes)")
    func modeKept() throws {
        let url = try Self.file(Array("a,b\n1,2\n".utf8), "mode.csv")
        defer { try? FileManager.default.removeItem(at: url) }
        chmod(url.path, 0o640)
        let held = open(url.path, O_RDONLY)
        defer { close(held) }
        var edits = RowEdits()
        edits.set(0, field: 1, to: Array("3".utf8))
        try Self.save(url, edits, rows: 1, columns: ["a", "b"])
        #expect((SaveFile.identity(path: url.path)?.mode ?? 0) & 0o777 == 0o640)
        #expect(try String(contentsOf: url, encoding: .utf8) == "a,b\n1,3\n")
        var old = [UInt8](repeating: 0, count: 8)
        #expect(pread(held, &old, 8, 0) == 8 && old == Array("a,b\n1,2\n".utf8))
        // Nothing is left beside it.
        let siblings = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).filter { $0.contains("mode.csv.tablefmt") }
        #expect(siblings.isEmpty)
    }

    @Test("V10: a large file's untouched rows are copied in blocks (by the kernel where it can) exactly, around changed, added, deleted and moved rows")
    func largeBlocks() throws {
        var rows = (0..<40_000).map { "\($0),name \($0),\($0 * 7 % 1000).25" }
        let url = try Self.file(Array(("id,name,amount\n" + rows.joined(separator: "\n") + "\n").utf8), "large.csv")
        defer { try? FileManager.default.removeItem(at: url) }
        let input = try FileInput(path: url.path)
        let loader = ViewLoader(store: RowStore())
        loader.load(input, options: FormatOptions())
        var edits = RowEdits()
        edits.set(17_000, field: 1, to: Array("changed".utf8))
        rows[17_000] = "17000,changed,0.25"
        edits.delete([30_000])
        edits.move(from: 5, to: 39_000)
        let id = edits.add(at: 20_000)
        edits.set(id, field: 0, to: Array("new".utf8))
        var model = rows
        model.insert(model.remove(at: 5), at: 39_000)
        model.insert("new,,", at: 20_000)
        model.removeAll { $0.hasPrefix("30000,") }
        _ = try TableSave.save(input, options: FormatOptions(), to: url.path, expected: SaveFile.identity(path: url.path), edits: edits, rows: loader.store.file.current, loaded: 40_000, columns: ["id", "name", "amount"])
        #expect(try String(contentsOf: url, encoding: .utf8) == "id,name,amount\n" + model.joined(separator: "\n") + "\n")
    }

    @Test("V10: the edit log's order matches a plain array through 2,000 random adds, moves and undos over 20,000 rows, in pieces, not a copy of the rows")
    func orderUnderMoves() {
        var rng = SplitMix64(seed: 29)
        var edits = RowEdits()
        let loaded = 20_000
        var model = Array(0..<loaded)
        var history: [[Int]] = []
        var next = -1
        for _ in 0..<2_000 {
            switch rng.below(4) {
            case 0:
                let at = rng.below(model.count + 1)
                history.append(model)
                model.insert(next, at: at)
                #expect(edits.add(at: at) == next)
                next -= 1
            case 1, 2:
                let from = rng.below(model.count), to = rng.below(model.count)
                guard from != to else { continue }
                history.append(model)
                model.insert(model.remove(at: from), at: to)
                edits.move(from: from, to: to)
            default:
                guard let last = history.popLast() else { continue }
                model = last
                edits.undo()
            }
        }
        #expect(edits.count(loaded: loaded) == model.count)
        #expect((0..<model.count).allSatisfy { edits.id(at: $0) == model[$0] })
        #expect(stride(from: 0, to: model.count, by: 37).allSatisfy { edits.position(of: model[$0]) == $0 })
        #expect(edits.pieces.count < 6_000)
    }
}
