import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer
@testable import Input

/// The sizing pass of a file read in pieces takes rows in place in the stream's buffer where it
/// can (`TableInput.nextInPlace`, `CSVReader.readInPlace`), and reads the others into a record.
/// These tests size generated tables both ways — every row through the record path as the
/// oracle, and in place where the reader takes it — and require the same rows, lines, notes
/// (`RowIndex`), column profiles, columns and warnings (P1: the output is the same byte for byte).
@Suite("In-place sizing")
struct InPlaceSizingTests {
    /// Cells that the reader and the profiler treat apart.
    static let cells: [String] = [
        "", "a", "word", "two words", "42", "-7", "1,234", "3.14", "12.5%", "5%", "250 g", "$4.50", "12,50 €", "007",
        "2024-02-27", "2024/02/27", "2024-02-27T10:00:00Z", "10:30", "true", "FALSE", "yes", "No", "NA", "-", "null",
        "Zürich", "Øster", "日本語", "😀", "a\u{01}b", "tab\there", "bell\u{07}", "del\u{7F}", "q\"mid", "back\\slash",
        String(repeating: "x", count: 300),
    ]

    /// A cell as written: plain, quoted, quoted with `""` (the quote doubled), with a line break
    /// inside quotes, or bytes after a closing quote.
    static func written(_ cell: String, delimiter: Character, _ rng: inout SplitMix64) -> String {
        switch rng.below(10) {
        case 0, 1: return "\"" + cell.replacingOccurrences("\"", "\"\"") + "\""
        case 2: return "\"say \"\"\(cell)\"\"\""
        case 3 where rng.below(4) == 0: return "\"\(cell)\nnext\""
        case 4 where rng.below(6) == 0: return "\"\(cell)\"x"
        case 5 where rng.below(3) == 0: return "\"a\(delimiter)b\""
        default:
            // Plain: only a cell without the delimiter, a line break or a leading quote.
            return cell.contains(delimiter) || cell.first == "\"" ? "w" : cell
        }
    }

    /// A table: a header of `columns` names, then rows of about that many cells (short, long,
    /// blank lines), each ended by LF, CR LF or CR, the last one sometimes by nothing.
    static func table(columns: Int, rows: Int, delimiter: Character, _ rng: inout SplitMix64) -> [UInt8] {
        var text = (0..<columns).map { "c\($0)" }.joined(separator: String(delimiter)) + "\n"
        // A column keeps to one kind of cell for a while, so kinds settle and change.
        var kinds = (0..<columns + 3).map { _ in rng.below(cells.count) }
        for r in 0..<rows {
            if rng.below(20) == 0 { kinds[rng.below(kinds.count)] = rng.below(cells.count) }
            let count = rng.below(10) == 0 ? rng.below(columns + 3) : columns
            var fields: [String] = []
            for c in 0..<count {
                let cell = rng.below(5) == 0 ? cells[rng.below(cells.count)] : cells[kinds[c]]
                fields.append(written(cell, delimiter: delimiter, &rng))
            }
            text += fields.joined(separator: String(delimiter))
            if r == rows - 1 && rng.below(2) == 0 { break }
            text += ["\n", "\n", "\r\n", "\r", "\n\n"][rng.below(5)]
        }
        return Array(text.utf8)
    }

    /// What sizing a table's rows gives.
    struct Sized: Equatable {
        var rows: [[String]] = []
        var lines: [Int] = []
        var offsets: [Int] = []
        var notes: [UInt8] = []
        var profiles: [ColumnProfile] = []
        var columns: [String] = []
        var warnings: [String] = []
        var error: String?
    }

    /// Sizes the rows after the header of `bytes` as a piece of it, `inPlace` or every row into a
    /// record; the source hands out `chunk` bytes a read. Rows in place whose fields are the
    /// columns are sized in batches of `batchFields` fields a column at a time (`SizingBatch`),
    /// each read into the batch and sized before the reader reads the stream again, as
    /// `PieceSizing` does. Returns
    /// the result and the rows taken in place.
    static func size(_ bytes: [UInt8], delimiter: UInt8, chunk: Int, maxRowSize: Int, trackWords: Bool, inPlace: Bool,
                     batchFields: Int = 4096) throws -> (Sized, Int) {
        var options = InputOptions()
        options.inputFormat = delimiter == 0x09 ? .tsv : .csv
        options.delimiter = delimiter
        options.maxRowSize = maxRowSize
        let whole = try TableInput(MemoryInput(bytes, name: "t.csv"), options: options)
        let start = whole.stream.offset
        var piece = try TableInput(piece: MemorySource(Array(bytes[start...]), chunkSize: chunk), like: whole)
        var profiler = ColumnProfiler(columns: piece.columns, measure: DisplayWidth(), trackWords: trackWords)
        var index = RowIndex()
        var record = Record()
        var row = InPlaceRow()
        var batch = SizingBatch(columns: piece.columns.count, fields: batchFields, measure: DisplayWidth())
        var sized = Sized()
        var taken = 0
        do {
            while true {
                let fields: Fields
                // As `PieceSizing` does: the row read into the batch's next row where it fits,
                // into its own memory where it has more fields than are left there.
                if inPlace { batch.aim(&row) }
                if inPlace && piece.nextInPlace(into: &row, noting: &index) {
                    fields = row.fields(in: piece.stream.storage)
                    sized.lines.append(row.line)
                    taken += 1
                } else {
                    if batch.rows > 0 { profiler.add(&batch, in: piece.stream.storage) }
                    guard try piece.next(into: &record, noting: &index) else { break }
                    fields = record.unsafeFields
                    sized.lines.append(record.line)
                }
                sized.rows.append((0..<fields.count).map { String(decoding: fields[$0], as: UTF8.self) })
                sized.offsets.append(piece.stream.offset)
                if fields.starts != nil && fields.count == batch.columns && profiler.profiles.count == batch.columns {
                    batch.append(fields)
                    if batch.isFull { profiler.add(&batch, in: piece.stream.storage) }
                } else {
                    if batch.rows > 0 { profiler.add(&batch, in: piece.stream.storage) }
                    profiler.sync(columns: piece.columns)
                    profiler.add(fields)
                }
            }
        } catch {
            sized.error = "\(error)"
        }
        sized.notes = index.usable ? Array(index.bytes) : []
        sized.profiles = profiler.profiles
        sized.columns = piece.columns
        sized.warnings = piece.warnings
        return (sized, taken)
    }

    @Test("P1: rows sized in place give the rows, lines, notes, profiles and warnings the record path gives",
          arguments: [UInt8(ascii: ","), 0x09, UInt8(ascii: ";")])
    func sameAsRecords(delimiter: UInt8) throws {
        var rng = SplitMix64(seed: 0x51CE + UInt64(delimiter))
        var taken = 0, declined = 0
        for trial in 0..<60 {
            let bytes = Self.table(columns: 1 + rng.below(9), rows: 1 + rng.below(40), delimiter: Character(Unicode.Scalar(delimiter)), &rng)
            let chunk = [1, 3, 7, 16, 64, 1 << 16][trial % 6]
            let trackWords = trial % 2 == 0
            // Now and then a row limit that some rows pass (E5).
            let maxRowSize = trial % 5 == 4 ? 1500 : 1 << 20
            let (expected, _) = try Self.size(bytes, delimiter: delimiter, chunk: chunk, maxRowSize: maxRowSize, trackWords: trackWords, inPlace: false)
            let (got, inPlace) = try Self.size(bytes, delimiter: delimiter, chunk: chunk, maxRowSize: maxRowSize, trackWords: trackWords, inPlace: true,
                                               batchFields: [1, 10, 25, 4096][trial % 4])
            #expect(got == expected, "\(String(decoding: bytes, as: UTF8.self).debugDescription) chunk \(chunk)")
            taken += inPlace
            declined += expected.rows.count - inPlace
        }
        // Both paths ran: rows in place, and rows left to the reader.
        #expect(taken > 100, "\(taken) rows in place")
        #expect(declined > 50, "\(declined) rows left to the reader")
    }

    @Test("C1, W2: a date or boolean noted by the short path profiles its column as the full path does")
    func datesAndBooleans() {
        var rng = SplitMix64(seed: 27)
        let cells = Self.cells + ["2024-13-99", "2024-02-2", "202a-02-27", "2024-02/27", "tru", "truee", "Yes", "NO", "yess", "0"]
        for trial in 0..<400 {
            let trackWords = trial % 2 == 0
            // A column that starts with dates or booleans, with other cells now and then.
            let kind = ["2024-02-27", "true"][trial % 2]
            var fast = ColumnProfile(name: "c"), full = ColumnProfile(name: "c")
            for _ in 0..<(1 + rng.below(12)) {
                let cell = rng.below(3) == 0 ? cells[rng.below(cells.count)] : kind
                var bytes = Array(cell.utf8)
                bytes.withUnsafeMutableBufferPointer { buffer in
                    let cell = UnsafeBufferPointer(buffer)
                    fast.note(cell, measure: DisplayWidth(), trackWords: trackWords)
                    full.noteAnyCell(cell, measure: DisplayWidth(), trackWords: trackWords)
                }
                #expect(fast == full, "\(cell)")
            }
        }
    }

    @Test("C1: a plain date is four digits, - or /, two digits, the same separator, two digits, and nothing else")
    func plainDates() {
        var rng = SplitMix64(seed: 10)
        let alphabet: [UInt8] = Array("0123456789-/.: a".utf8) + [0x3A, 0x2F, 0x40, 0x7F, 0xC3, 0x2D + 0x80]
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        for trial in 0..<50_000 {
            // A date with a byte or two changed, or random bytes.
            var bytes = Array("2024-02-27".utf8)
            if trial % 4 == 0 { bytes = Array("1999/12/31".utf8) }
            for _ in 0..<rng.below(3) { bytes[rng.below(10)] = alphabet[rng.below(alphabet.count)] }
            if trial % 5 == 0 { bytes = (0..<(8 + rng.below(4))).map { _ in alphabet[rng.below(alphabet.count)] } }
            let expected = bytes.count == 10 && (bytes[4] == 0x2D || bytes[4] == 0x2F) && bytes[7] == bytes[4]
                && [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy { isDigit(bytes[$0]) }
            let found = bytes.withUnsafeBufferPointer { CellKind.isPlainDate($0) }
            #expect(found == expected, "\(bytes)")
        }
    }

    @Test("C1: a boolean is true, false, yes or no in any case, and nothing else")
    func booleans() {
        var rng = SplitMix64(seed: 4)
        let words = ["true", "false", "yes", "no"]
        // Letters of the words in both cases, bytes one bit away from them, and others.
        let alphabet: [Character] = Array("truefalsyno" + "TRUEFALSYNO" + "4TU5@`^~ 0\u{14}\u{0E}ü日")
        for trial in 0..<20_000 {
            var text: String
            if trial % 3 == 0 {
                text = String(words[rng.below(4)].map { rng.below(2) == 0 ? Character($0.uppercased()) : $0 })
            } else {
                text = String((0..<(1 + rng.below(6))).map { _ in alphabet[rng.below(alphabet.count)] })
            }
            var bytes = Array(text.utf8)
            let found = bytes.withUnsafeMutableBufferPointer { CellKind.isBoolean(UnsafeBufferPointer($0)) }
            #expect(found == words.contains(text.lowercased()), "\(text.debugDescription)")
        }
    }
}

extension String {
    /// The string with each `target` replaced by `replacement` (no Foundation in the library's tests' helpers).
    fileprivate func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
