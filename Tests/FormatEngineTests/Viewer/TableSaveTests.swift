import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10: edits saved without loss. Random edit scripts on generated files in every dialect, against
/// a model that knows each row's bytes as written: the saved file is, byte for byte, the model's
/// file (untouched rows as they were, changed and added rows in the file's dialect), and reads
/// back, with the project's reader, as the model's rows.
@Suite("Viewer: edits saved without loss")
struct TableSaveTests {
    /// A generated delimited file and how each part of it was written.
    struct Generated {
        var tab: Bool
        var delimiter: String
        var encoding: TextEncoding
        var bom: Bool
        /// Every field quoted; else some quoted though they need not be (`partial`), or only
        /// those that must be.
        var quoteAll: Bool
        var partial = false
        /// TSV written with backslash escapes (`\t` `\n` `\r` `\\`) rather than quotes.
        var escapes = false
        var header: [String]
        var headerCells: [String] = []
        /// The header's line ending: what added rows take.
        var lineEnding: String
        /// Each row: its fields, each field's text as written, the blank lines before it, its ending.
        var rows: [(fields: [String], cells: [String], lead: String, ending: String)]

        var dialect: Dialect { tab ? .tsv : .csv(UInt8(ascii: Unicode.Scalar(delimiter) ?? ",")) }

        func encode(_ text: String) -> [UInt8] {
            switch encoding {
            case .utf8: return Array(text.utf8)
            case .utf16le: return Array(text.data(using: .utf16LittleEndian) ?? Data())
            case .utf16be: return Array(text.data(using: .utf16BigEndian) ?? Data())
            case .latin1: return Array(text.data(using: .isoLatin1) ?? Data())
            case .cp1252: return Array(text.data(using: .windowsCP1252) ?? Data())
            }
        }

        var byteOrderMark: [UInt8] {
            guard bom else { return [] }
            switch encoding {
            case .utf8: return [0xEF, 0xBB, 0xBF]
            case .utf16le: return [0xFF, 0xFE]
            case .utf16be: return [0xFE, 0xFF]
            default: return []
            }
        }

        /// A field as written: quoted when asked, or when it holds the delimiter, a quote, a line
        /// break (a backslash in TSV), or is a row's `only` field and empty. With `escapes` (TSV)
        /// a field not asked to be quoted is escaped instead, and quoted only when it starts with
        /// a quote or is the only field and empty; a backslash is doubled only before what the
        /// reader would decode with it: `t`, `n`, `r`, a backslash, or a tab or line break (written
        /// as escapes), so a backslash before anything else, or last, is written as it is.
        func cell(_ f: String, quote: Bool, only: Bool, escapes: Bool) -> String {
            let quoted = "\"" + f.replacing("\"", with: "\"\"") + "\""
            if tab && escapes && !quote {
                if f.hasPrefix("\"") || (only && f.isEmpty) { return quoted }
                let map: [Unicode.Scalar: String] = ["\t": "\\t", "\n": "\\n", "\r": "\\r"]
                let scalars = Array(f.unicodeScalars)
                return scalars.indices.map { k in
                    let next = k + 1 < scalars.count ? scalars[k + 1] : nil
                    if scalars[k] == "\\" { return next.map { "tnr\\\t\n\r".unicodeScalars.contains($0) } == true ? "\\\\" : "\\" }
                    return map[scalars[k]] ?? String(scalars[k])
                }.joined()
            }
            let must = f.unicodeScalars.contains { String($0) == delimiter || $0 == "\"" || $0 == "\n" || $0 == "\r" || (tab && $0 == "\\") } || (only && f.isEmpty)
            return must || quote ? quoted : f
        }

        /// Fields as a changed or added row writes them, where not kept: backslash escapes in TSV.
        func newCell(_ f: String, quote: Bool, only: Bool) -> String { cell(f, quote: quote, only: only, escapes: true) }
        static func quotesAll(_ cells: [String]) -> Bool { !cells.isEmpty && cells.allSatisfy { $0.hasPrefix("\"") } }

        var headerBytes: [UInt8] { byteOrderMark + encode(headerCells.joined(separator: delimiter) + lineEnding) }
        func segment(_ k: Int) -> [UInt8] { encode(rows[k].lead + rows[k].cells.joined(separator: delimiter) + rows[k].ending) }
        var bytes: [UInt8] { headerBytes + rows.indices.flatMap { segment($0) } }
        var options: FormatOptions {
            var o = FormatOptions()
            o.inputFormat = tab ? .tsv : .csv
            o.delimiter = dialect.delimiter
            if encoding != .utf8 { o.encoding = encoding }
            return o
        }
    }

    static func generate(_ rng: inout SplitMix64) -> Generated {
        let tab = rng.below(4) == 0
        let delimiter = tab ? "\t" : [",", ";", "|"][rng.below(3)]
        let encoding = TextEncoding.allCases[rng.below(TextEncoding.allCases.count)]
        let wide: [String] = switch encoding {
        case .latin1: ["é", "ß", "Ø"]
        case .cp1252: ["é", "€", "“q”"]
        default: ["東京", "😀", "é"]
        }
        let pieces = ["a", "b c", "12", "-3.5", "", "x\"y", "\"q", "two\nlines", "cr\r\nlf", "C:\\new", "t\tb", delimiter, " pad "] + wide
        let endings = ["\n", "\r\n"]
        let mixed = rng.below(3) == 0
        let first = endings[rng.below(2)]
        let columns = rng.below(4) + 1
        let style = rng.below(4)
        var g = Generated(tab: tab, delimiter: delimiter, encoding: encoding, bom: encoding != .latin1 && encoding != .cp1252 && rng.below(2) == 0,
                          quoteAll: style == 0, partial: style == 1, escapes: tab && rng.below(2) == 0, header: (0..<columns).map { "col\($0)" }, lineEnding: first, rows: [])
        func cells(_ fields: [String], _ rng: inout SplitMix64) -> [String] {
            fields.map { g.cell($0, quote: g.quoteAll || (g.partial && rng.below(3) == 0), only: fields.count == 1, escapes: g.escapes) }
        }
        g.headerCells = cells(g.header, &rng)
        let count = rng.below(9)
        for k in 0..<count {
            // Ragged now and then: a field more or less.
            let n = rng.below(6) == 0 ? max(1, columns + rng.below(3) - 1) : columns
            let fields = (0..<n).map { _ in pieces[rng.below(pieces.count)] }
            let lead = rng.below(8) == 0 ? endings[rng.below(2)] : ""
            let ending = k == count - 1 && rng.below(3) == 0 ? "" : mixed ? endings[rng.below(2)] : first
            g.rows.append((fields, cells(fields, &rng), lead, ending))
        }
        return g
    }

    /// The model: the rows in order, each its original row number (negative: added), fields, mark.
    struct ModelRow: Equatable {
        var id: Int
        var fields: [String]
        var deleted = false
    }

    /// A random script of changes, adds, deletes, moves, undos and redos, on the model and on the
    /// edits alike; the order of ids is checked against the model at every step.
    static func script(_ g: Generated, _ rng: inout SplitMix64) -> (RowEdits, [ModelRow]) {
        var edits = RowEdits()
        var model = g.rows.enumerated().map { ModelRow(id: $0.offset, fields: $0.element.fields) }
        var nextAdded = -1
        script(g, &rng, edits: &edits, model: &model, nextAdded: &nextAdded)
        return (edits, model)
    }

    /// More of a script, from the edits and the model as they are (after a save: the deleted
    /// rows gone from both, no undo left).
    static func script(_ g: Generated, _ rng: inout SplitMix64, edits: inout RowEdits, model: inout [ModelRow], nextAdded: inout Int) {
        var undo: [[ModelRow]] = [], redo: [[ModelRow]] = []
        let texts = ["new", "", "a,b", "q\"q", "line\nbreak", "42", "é", g.delimiter, "back\\slash", "\"lead", "t\tb"]
        for _ in 0..<(rng.below(12) + 1) {
            let before = model
            var recorded = true
            switch rng.below(7) {
            case 0 where !model.isEmpty, 1 where !model.isEmpty:
                let p = rng.below(model.count)
                let f = rng.below(g.header.count + 1)
                let current = f < model[p].fields.count ? model[p].fields[f] : ""
                let original = model[p].id >= 0 && f < g.rows[model[p].id].fields.count ? g.rows[model[p].id].fields[f] : ""
                let text = rng.below(4) == 0 ? original : texts[rng.below(texts.count)]
                guard text != current else { recorded = false; break }
                while model[p].fields.count <= f { model[p].fields.append("") }
                model[p].fields[f] = text
                edits.set(model[p].id, field: f, to: Array(text.utf8))
            case 2:
                let at = model.isEmpty ? 0 : rng.below(model.count + 1)
                model.insert(ModelRow(id: nextAdded, fields: []), at: at)
                #expect(edits.add(at: at) == nextAdded)
                nextAdded -= 1
            case 3 where model.contains { !$0.deleted }:
                let live = model.indices.filter { !model[$0].deleted }
                let p = live[rng.below(live.count)]
                model[p].deleted = true
                edits.delete([model[p].id])
            case 4 where model.count > 1:
                let from = rng.below(model.count)
                var to = rng.below(model.count)
                if to == from { to = (from + 1) % model.count }
                model.insert(model.remove(at: from), at: to)
                edits.move(from: from, to: to)
            case 5 where !undo.isEmpty:
                redo.append(model)
                model = undo.removeLast()
                #expect(edits.undo() != nil)
                recorded = false
            case 6 where !redo.isEmpty:
                undo.append(model)
                model = redo.removeLast()
                #expect(edits.redo() != nil)
                recorded = false
            default:
                recorded = false
            }
            if recorded {
                undo.append(before)
                redo.removeAll()
            }
            check(edits, model, rows: g.rows.count)
        }
    }

    /// The edits' order is the model's: its count, each position's id, each id's position, and
    /// that an order said to be the input's is (the view reads rows by position, without the
    /// order, when it says so; one said to differ may be the input's after moves back and forth).
    static func check(_ edits: RowEdits, _ model: [ModelRow], rows: Int, _ comment: Comment? = nil) {
        #expect(edits.count(loaded: rows) == model.count, comment)
        #expect((0..<model.count).map { edits.id(at: $0) } == model.map(\.id), comment)
        #expect(model.indices.allSatisfy { edits.position(of: model[$0].id) == $0 }, comment)
        if !edits.reorders { #expect(model.map(\.id) == Array(0..<model.count), comment) }
    }

    /// The file the model says: the header as it was; each row kept, in the model's order; an
    /// untouched row as its bytes were; a changed row with each field it did not change as its
    /// bytes were, each it did written anew (quoted if it was, or if the row quotes every
    /// field), and its own line ending; an added one written anew with the header's line ending;
    /// the last row ending as the file's last row did.
    static func expectedBytes(_ g: Generated, _ model: [ModelRow]) -> [UInt8] {
        var out = g.headerBytes
        let kept = model.filter { !$0.deleted }
        let lastEnded = g.rows.last.map { !$0.ending.isEmpty } ?? true
        for (k, row) in kept.enumerated() {
            let wantBreak = k < kept.count - 1 || lastEnded
            if row.id >= 0 {
                let original = g.rows[row.id]
                var fields = row.fields
                while fields.count > original.fields.count, fields.last == "" { fields.removeLast() }
                let all = Generated.quotesAll(original.cells)
                let cells = fields.indices.map { f in
                    f < original.fields.count && fields[f] == original.fields[f] ? original.cells[f]
                        : g.newCell(fields[f], quote: all || (f < original.cells.count && original.cells[f].hasPrefix("\"")), only: fields.count == 1)
                }
                let ending = wantBreak ? (original.ending.isEmpty ? g.lineEnding : original.ending) : ""
                out += g.encode(original.lead + cells.joined(separator: g.delimiter) + ending)
            } else {
                let fields = (0..<max(g.header.count, row.fields.count)).map { $0 < row.fields.count ? row.fields[$0] : "" }
                let all = Generated.quotesAll(g.headerCells)
                out += g.encode(fields.map { g.newCell($0, quote: all, only: fields.count == 1) }.joined(separator: g.delimiter) + (wantBreak ? g.lineEnding : ""))
            }
        }
        return out
    }

    static func read(_ url: URL, _ options: FormatOptions) throws -> [[String]] {
        try table(url, options).rows
    }

    /// The file's rows as the reader gives them, and its columns after the last row.
    static func table(_ url: URL, _ options: FormatOptions = FormatOptions()) throws -> (columns: [String], rows: [[String]]) {
        var table = try TableInput(try FileInput(path: url.path), options: options.input)
        var record = Record()
        var rows: [[String]] = []
        while try table.next(into: &record) { rows.append(record.strings) }
        return (table.columns, rows)
    }

    /// A row without its trailing empty fields (the reader pads short rows to the columns).
    static func trimmed(_ fields: [String]) -> [String] {
        var f = fields
        while f.last == "" { f.removeLast() }
        return f
    }

    @Test("V10: 600 random edit scripts on files in every dialect and encoding, saved up to three times with more edits after each save, save to the model's bytes, which read back as the model's rows")
    func randomScripts() throws {
        let directory = FileManager.default.temporaryDirectory
        for seed in 0..<600 as Range<UInt64> {
            var rng = SplitMix64(seed: seed &* 7919)
            let g = Self.generate(&rng)
            let url = directory.appendingPathComponent("tablefmt-save-\(getpid())-\(seed).\(g.tab ? "tsv" : "csv")")
            try Data(g.bytes).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let original = try Self.read(url, g.options)
            #expect(original.map(Self.trimmed) == g.rows.map { Self.trimmed($0.fields) }, "seed \(seed): the generated file reads as written")
            let input = try FileInput(path: url.path)
            // UTF-8 files as the view reads them (in place, its index); the others found by a scan.
            var rows: FileRows?
            if g.encoding == .utf8 && seed % 2 == 0 {
                let loader = ViewLoader(store: RowStore())
                loader.load(input, options: g.options)
                rows = loader.store.file.current
            }
            var edits = RowEdits()
            var model = g.rows.enumerated().map { ModelRow(id: $0.offset, fields: $0.element.fields) }
            var nextAdded = -1
            var identity = SaveFile.identity(path: url.path)
            for save in 0..<(1 + rng.below(3)) {
                Self.script(g, &rng, edits: &edits, model: &model, nextAdded: &nextAdded)
                let expected = Self.expectedBytes(g, model)
                do {
                    identity = try TableSave.save(input, options: g.options, to: url.path, expected: identity, edits: edits, rows: rows, loaded: g.rows.count, columns: g.header)
                } catch {
                    Issue.record("seed \(seed) save \(save): \(error)")
                    break
                }
                let saved = Array(try Data(contentsOf: url))
                #expect(saved == expected, "seed \(seed) save \(save): \(String(decoding: saved, as: UTF8.self).debugDescription) vs \(String(decoding: expected, as: UTF8.self).debugDescription)")
                let back = try Self.read(url, g.options).map(Self.trimmed)
                #expect(back == model.filter { !$0.deleted }.map { Self.trimmed($0.fields) }, "seed \(seed) save \(save): \(back) vs \(model)")
                // As the view does after a save: the deleted rows leave the order, and the model.
                let gone = edits.commitDeletes(loaded: g.rows.count)
                #expect(Set(gone) == Set(model.filter(\.deleted).map(\.id)), "seed \(seed) save \(save)")
                model.removeAll(where: \.deleted)
                Self.check(edits, model, rows: g.rows.count, "seed \(seed) after save \(save)")
                #expect(edits.dropped.isSuperset(of: gone.filter { $0 >= 0 }))
            }
        }
    }
}
