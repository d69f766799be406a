import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// The sizing pass notes where the values of a JSON Lines file's common rows lie (`RowIndex+JSON`),
/// and the drawing pass takes them by those notes instead of parsing the rows again (P1). These
/// tests read generated JSON Lines as the sizing pass does, noting each row, then read them again
/// as the drawing pass does — by the notes, in pieces cut where the sizing pass would cut, with a
/// reader seeded with the table's columns for the rows the notes leave to it — and require the
/// very cells the reader gave, in the table's columns.
@Suite("JSON Lines row index")
struct JSONRowIndexTests {
    /// The rows as the sizing reader read them, padded and placed in the table's columns; the rows
    /// read again by the notes (nil when the first read failed); how many the notes gave in place.
    typealias Outcome = RowIndexTests.Outcome

    static func stream(_ bytes: ArraySlice<UInt8>, chunk: Int, streamChunk: Int) -> InputStream {
        InputStream(MemorySource(Array(bytes), chunkSize: chunk), chunkSize: streamChunk)
    }

    static func reader(_ stream: InputStream) -> JSONReader {
        var reader = JSONReader(stream: stream, linesMode: true, sourceName: "t.jsonl")
        reader.blankIsEmpty = true
        return reader
    }

    /// Reads `bytes` as the sizing pass reads a piece (its stream reading `streamChunk` bytes at a
    /// time from a source that hands out `chunk`), starting a drawing piece after rows where `rng`
    /// says; then each drawing piece by the notes, kept in memory or on disk (`budget`). With
    /// `shifted`, the table met a key of its own before this piece's, so the piece's column `k` is
    /// the table's column `k + 1` (the drawing pass places the noted values by the map).
    static func readTwice(_ bytes: [UInt8], chunk: Int, streamChunk: Int, budget: Int, shifted: Bool,
                          _ rng: inout SplitMix64) throws -> Outcome {
        var sizing = Self.reader(stream(bytes[...], chunk: chunk, streamChunk: streamChunk))
        var record = Record()
        var index = RowIndex()
        var read: [[String]] = []
        var cuts: [(offset: Int, row: Int, notesAt: Int)] = [(0, 0, 0)]
        do {
            while true {
                // As `TableInput.next(into:noting:)` does.
                let before = sizing.stream.offset
                let flatBefore = sizing.flatRowsRead
                guard try sizing.read(into: &record) else { break }
                sizing.note(in: &index, from: before, flatBefore: flatBefore)
                read.append(record.strings)
                let at = sizing.stream.offset
                if rng.below(4) == 0 && at < bytes.count {
                    cuts.append((at, read.count, index.bytes.count))
                    index.restart(at: at)
                }
            }
        } catch {
            return Outcome(records: [], again: nil, inPlace: 0)
        }
        #expect(index.usable)
        cuts.append((bytes.count, read.count, index.bytes.count))
        // The table the drawing pass reads into: the piece's columns, after one of its own.
        var table = Self.reader(stream((shifted ? Array("{\"table's own\":0}\n".utf8) : [])[...], chunk: 64, streamChunk: 64))
        while try table.read(into: &record) {}
        let map = table.absorb(sizing, lineOffset: 0)
        let width = table.columnNames?.count ?? 0
        let records = read.map { row in
            var placed = [String](repeating: "", count: width)
            for (k, cell) in row.enumerated() { placed[map[k]] = cell }
            return placed
        }
        let notes = RowNotes(budget: budget)
        let place = try #require(notes.keep(index.bytes))
        var again: [[String]] = []
        var inPlace = 0
        for k in 0..<(cuts.count - 1) {
            let piece = stream(bytes[cuts[k].offset..<cuts[k + 1].offset], chunk: chunk, streamChunk: streamChunk)
            var rereader = Self.reader(piece)
            rereader.seed(columnsOf: table)
            let slice = RowIndex.Slice(notes: notes, place: place, from: cuts[k].notesAt, to: cuts[k + 1].notesAt, columns: map)
            var notesReader = try #require(RowIndex.Reader(slice, dialect: .csv(), sourceName: "t.jsonl", columns: width))
            let read = try RowIndexTests.rowsByNotes(&notesReader, from: piece, rows: cuts[k + 1].row - cuts[k].row) {
                try rereader.read(into: &record) ? record.strings + [String](repeating: "", count: max(0, width - record.count)) : nil
            }
            again += read.rows
            inPlace += read.inPlace
            guard read.complete else { break }
        }
        return Outcome(records: records, again: again, inPlace: inPlace)
    }

    /// Values of every kind a flat row holds, and some it does not (nested values, `\u` escapes).
    static let values = [
        #""plain""#, #""""#, #""say \"hi\"""#, #""tab\there\nnl\r\b\f\/\\""#, #""\\""#, #""a\"""#, #""é ü 漢字 😀""#,
        #""\u00e9 and \ud83d\ude00""#, #""\ud800 lone""#, #""x, y""#, #"" edge ""#, #""}""#, #""\"}""#,
        "0", "-0", "7", "-12", "0.5", "-0.0", "1.10", "1e5", "1E+5", "-2.5E-3", "6.02e23", "123456789012345678901234567890",
        "true", "false", "null", #"{"in":1}"#, #"[1,"a"]"#, "[]", "{}",
    ]
    static let keys = ["id", "name", "qty", "price", "note", "é", "x y", "a.b", ""]

    /// A JSON Lines text: mostly flat rows with keys in the usual order, some missing, some in
    /// another order, keys first seen late, blank space around colons and commas, CR LF, blank
    /// lines, rows over two lines, long values, a row past `RowIndex.longestRow` when `huge`, and
    /// other top-level values.
    static func generate(_ rng: inout SplitMix64, rows: Int, huge: Bool) -> [UInt8] {
        var text = ""
        let lineBreak = rng.below(3) == 0 ? "\r\n" : "\n"
        for i in 0..<rows {
            let shape = rng.below(100)
            if shape < 80 {
                var keys = Array(Self.keys.prefix(5))
                if rng.below(4) == 0 { keys = keys.filter { _ in rng.below(3) != 0 } }
                if rng.below(6) == 0 { keys.shuffle(using: &rng) }
                if rng.below(20) == 0 { keys.append(Self.keys[5 + rng.below(4)]) }
                if rng.below(40) == 0 { keys.append("late \(rng.below(3))") }
                let blank = rng.below(8) == 0 ? [" ", "\t", " \t "][rng.below(3)] : ""
                let members = keys.map { key -> String in
                    let value: String
                    switch rng.below(12) {
                    case 0: value = "\"" + String(repeating: "long ", count: 20 + rng.below(80)) + "\""
                    case 1...4: value = Self.values[rng.below(Self.values.count)]
                    default: value = ["\"v\(i)\"", "\(i)", "\(i).\(rng.below(100))", "true", "null"][rng.below(5)]
                    }
                    return "\"\(key)\"\(blank):\(blank)\(value)"
                }
                text += blank + "{" + blank + members.joined(separator: blank + "," + blank) + blank + "}" + blank
            } else {
                // Rows the byte machine reads, `{}`, a blank line and other values as rows.
                let others = ["{}", "{\"id\":\(i),\n\"name\":\"two lines\"}", "", "[\(i),\"x\"]", ["\"scalar\"", "\(i)", "true", "null"][rng.below(4)],
                              "{\"id\":\(i),\"nest\":{\"a\":\(i)},\"qty\":\(i)}"]
                text += huge && shape == 99 ? "{\"id\":\(i),\"name\":\"" + String(repeating: "h", count: RowIndex.longestRow + 5) + "\"}"
                    : others[rng.below(others.count)]
            }
            text += lineBreak
        }
        if rng.below(4) == 0 { text.removeLast() }
        return Array(text.utf8)
    }

    /// Seeded property: on generated JSON Lines, fed in chunks of any size, cut into drawing pieces
    /// anywhere after a row, with the notes in memory or on disk and the piece's columns first or
    /// after the table's own, the rows by the notes are the rows the reader read.
    @Test("P1: JSON Lines rows taken by the sizing pass's notes are the rows the reader read (seeded)", arguments: [41, 42, 43, 44] as [UInt64])
    func notesGiveTheReadersRows(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var inPlace = 0
        var readAgain = 0
        for trial in 0..<60 {
            let bytes = trial % 3 == 0 ? JSONFlatLineTests.generate(&rng, rows: 1 + rng.below(80), bad: false)
                : Self.generate(&rng, rows: 1 + rng.below(120), huge: trial % 10 == 1)
            // The flat reader reads only rows within the stream's buffer: mostly large chunks.
            let large = trial % 4 != 3
            let chunk = large ? 1 << 16 : [1, 7, 64, 1 << 16][rng.below(4)]
            let streamChunk = large ? 1 << 16 : [16, 64][rng.below(2)]
            let outcome = try Self.readTwice(bytes, chunk: chunk, streamChunk: streamChunk, budget: rng.below(2) == 0 ? 1 << 20 : 0,
                                             shifted: rng.below(2) == 0, &rng)
            let context = "trial \(trial), chunk \(chunk), stream chunk \(streamChunk): \(String(decoding: bytes, as: UTF8.self))"
            #expect(outcome.compared(context, inPlace: &inPlace, readAgain: &readAgain), "generated JSON Lines reads without an error")
        }
        // Both ways are taken: most rows in place, the others by the reader.
        #expect(inPlace > 1000 && readAgain > 300, "\(inPlace) rows in place, \(readAgain) read again")
    }

    @Test("P1: flat rows are all taken in place once their keys have columns: escapes, Unicode, null, numbers of every shape, keys missing or in another order, blank space")
    func flatRowsInPlace() throws {
        var rng = SplitMix64(seed: 0x15_0F1A7)
        let lines = [
            #"{"id":1,"name":"Tea","qty":2.50,"ok":true,"note":null}"#,
            #"{"id":-0,"name":"say \"hi\"\tthen\\go\/\n","qty":1E+5,"ok":false,"note":"é 漢字 😀"}"#,
            #"{ "id" : 3 ,\#t"name":"" , "qty" : -2.5e-3 }"#,
            #"{"note":"first","id":4,"name":"x, y"}"#,
            #"{"qty":123456789012345678901234567890}"#,
            #"{"id":6,"ok":null,"note":"}\"}"}"#,
        ]
        let text = lines.joined(separator: "\n") + "\r\n\n"
        for budget in [1 << 20, 0] {
            for shifted in [false, true] {
                let outcome = try Self.readTwice(Array(text.utf8), chunk: 1 << 16, streamChunk: 1 << 16, budget: budget, shifted: shifted, &rng)
                let first = shifted ? 1 : 0
                #expect(outcome.records.map { Array($0[first...]) } == [
                    ["1", "Tea", "2.50", "true", ""],
                    ["-0", "say \"hi\"\tthen\\go/\n", "1E+5", "false", "é 漢字 😀"],
                    ["3", "", "-2.5e-3", "", ""],
                    ["4", "x, y", "", "", "first"],
                    ["", "", "123456789012345678901234567890", "", ""],
                    ["6", "", "", "", "}\"}"],
                ])
                #expect(outcome.again == outcome.records)
                // The first row's keys are new: the byte machine reads it, in both passes.
                #expect(outcome.inPlace == lines.count - 1, "budget \(budget), shifted \(shifted)")
            }
        }
    }

    @Test("P1: rows the flat reader leaves to the byte machine are read again by the reader: nested values, \\u escapes, a key first seen, a value over lines, a row past the longest noted")
    func machineRowsReadAgain() throws {
        var rng = SplitMix64(seed: 0xA6A1)
        let long = String(repeating: "y", count: RowIndex.longestRow + 10)
        let lines = [
            #"{"id":1,"name":"a"}"#, #"{"id":2,"name":"b"}"#, #"{"id":3,"name":{"first":"c"}}"#, #"{"id":4,"name":"\u00e9"}"#,
            #"{"id":5,"late":"d"}"#, "{\"id\":6,\n\"name\":\"e\"}", #"{"id":7,"name":""# + long + #""}"#, #"[8,"f"]"#, #"{"id":9,"name":"g"}"#,
        ]
        let text = lines.joined(separator: "\n")
        let outcome = try Self.readTwice(Array(text.utf8), chunk: 1 << 16, streamChunk: 1 << 16, budget: 1 << 20, shifted: false, &rng)
        #expect(outcome.records.count == 9)
        #expect(outcome.again == outcome.records)
        // Rows 2 and 9 (row 7 is longer than the stream holds for the flat reader, or than a note).
        #expect(outcome.inPlace == 2)
    }

    /// The notes of `sized` read against `drawn`, bytes of the same length: each row's cells by
    /// the notes, or nil for a row they leave to the reader.
    static func readNoted(_ sized: String, against drawn: String) throws -> [[String]?] {
        var reader = Self.reader(stream(Array(sized.utf8)[...], chunk: 1 << 16, streamChunk: 1 << 16))
        var record = Record()
        var index = RowIndex()
        while true {
            let before = reader.stream.offset
            let flatBefore = reader.flatRowsRead
            guard try reader.read(into: &record) else { break }
            reader.note(in: &index, from: before, flatBefore: flatBefore)
        }
        let notes = RowNotes()
        let place = try #require(notes.keep(index.bytes))
        let piece = stream(Array(drawn.utf8)[...], chunk: 1 << 16, streamChunk: 1 << 16)
        let columns = reader.columnNames?.count ?? 0
        var notesReader = try #require(RowIndex.Reader(RowIndex.Slice(notes: notes, place: place, from: 0, to: index.bytes.count,
                                                                      columns: Array(0..<columns)),
                                                       dialect: .csv(), sourceName: "t.jsonl", columns: columns))
        var rows: [[String]?] = []
        var rereader = Self.reader(piece)
        while true {
            switch try notesReader.next(from: piece) {
            case .end:
                return rows
            case .readAgain:
                _ = try rereader.read(into: &record)
                rows.append(nil)
            case .fields(let fields):
                rows.append((0..<fields.count).map { String(decoding: fields[$0], as: UTF8.self) })
            }
        }
    }

    @Test("P1, I7: a JSON Lines file whose values are not where the sizing pass noted them stops with `file changed while reading`")
    func changedBytes() throws {
        let sized = "{\"a\":\"b\",\"d\":1}\n{\"a\":\"xyz\",\"d\":2}\n"
        // As sized: the second row in place.
        #expect(try Self.readNoted(sized, against: sized) == [nil, ["xyz", "2"]])
        // The same length: a string shorter and a number longer (the number no longer after its
        // `:`), a string longer (no longer between its quotes), the row moved on its line.
        for drawn in ["{\"a\":\"b\",\"d\":1}\n{\"a\":\"x\",\"d\":222}\n", "{\"a\":\"b\",\"d\":1}\n{\"a\":\"xyzw\",\"d\":}\n",
                      "{\"a\":\"b\",\"d\":1}\n {\"a\":\"xyz\",\"d\":2\n"] {
            let error = #expect(throws: InputError.self) { _ = try Self.readNoted(sized, against: drawn) }
            #expect(error?.description == "t.jsonl: file changed while reading (modified)", "\(drawn)")
        }
        // A string with an escape, as sized: decoded in place.
        let escaped = "{\"a\":\"b\",\"d\":1}\n{\"a\":\"x\\ny\",\"d\":2}\n"
        #expect(try Self.readNoted(escaped, against: escaped) == [nil, ["x\ny", "2"]])
        // Its text changed in place to what is not string text: an unknown escape, a `\` last
        // (which would take the closing quote), a bare quote. Never decoded into another value.
        for text in ["x\\qy", "xyz\\", "x\"ny"] {
            let drawn = "{\"a\":\"b\",\"d\":1}\n{\"a\":\"\(text)\",\"d\":2}\n"
            #expect(drawn.utf8.count == escaped.utf8.count)
            let error = #expect(throws: InputError.self) { _ = try Self.readNoted(escaped, against: drawn) }
            #expect(error?.description == "t.jsonl: file changed while reading (modified)", "\(drawn)")
        }
    }
}
