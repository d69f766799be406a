import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// I7, O5, P1: the drawing pass takes a noted row's fields where the sizing pass saw them
/// (`RowIndex.Reader`) and checks only the bytes that place them (delimiters, quotes, the line
/// break); each cell's own bytes are checked as the row is drawn (`PlainRenderer.notedRow`, which
/// `InPlaceRowsTests` shows draws controls escaped as the general path does). A file can change
/// between the passes unseen by the size-and-time check (rewritten with its modification time put
/// back), so these tests read bytes changed after they were noted, with the rows whole in the
/// stream's buffer (the reader's quick placing) and at its end: a delimiter or a quote moved, or a
/// `""` in a quoted text made a lone quote, must stop with `file changed while reading`, and a
/// control written into a cell must be handed over as the bytes now there, for the drawing pass
/// to check.
@Suite("Rows by the notes of a file rewritten unseen")
struct NotesChangedTests {
    /// Cells without `""`: ASCII, common non-ASCII text, numbers, and text with a comma (quoted in
    /// the file).
    static let cells = ["alpha", "be", "a longer text cell", "Novák", "東京", "서울 특별시", "12", "336", "12.5", "5%", "x, y", "Øster, Chloé"]
    /// Cells with quotes (`""` in the file), only ever in a row's first field: a row with `""` in
    /// one field is noted, one with it in two is left to the reader.
    static let quotedCells = ["say \"hi\"", "\"quoted\" text, here", "6'2\" tall"]

    /// A CSV table of `rows` rows of 4 to 7 columns.
    static func table(_ rng: inout SplitMix64, rows: Int) -> [UInt8] {
        let columns = 4 + rng.below(4)
        var text = (0..<columns).map { "c\($0)" }.joined(separator: ",") + "\n"
        for _ in 0..<rows {
            text += (0..<columns).map { c -> String in
                let cell = c == 0 && rng.below(4) == 0 ? quotedCells[rng.below(quotedCells.count)] : cells[rng.below(cells.count)]
                if cell.contains("\"") { return "\"" + cell.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\"" }
                return cell.contains(",") ? "\"" + cell + "\"" : cell
            }.joined(separator: ",") + "\n"
        }
        return Array(text.utf8)
    }

    /// How the file is rewritten: the same bytes but for a few, the same size.
    enum Edit: CaseIterable {
        /// A delimiter swapped with the letter after it (`ab,cd` → `ab,cd` read as `abc,d`).
        case delimiterMoved
        /// A quoted field's opening quote turned into a letter.
        case quoteGone
        /// The second quote of a `""` in a quoted field's text turned into a letter (`""hi` →
        /// `"xhi`): a lone quote in the text.
        case pairBroken
        /// A letter of a cell turned into a control: ESC, BEL, DEL, or a C1 control (two bytes).
        case control
    }

    /// Offsets in `bytes` (past the header) where `edit` can be made to a row's byte.
    static func places(_ bytes: [UInt8], for edit: Edit) -> [Int] {
        let body = (bytes.firstIndex(of: 0x0A) ?? 0) + 1
        let letter = { (b: UInt8) in b >= 0x61 && b <= 0x7A }
        return (body..<(bytes.count - 2)).filter { i in
            switch edit {
            case .delimiterMoved: return bytes[i] == 0x2C && letter(bytes[i - 1]) && letter(bytes[i + 1])
            case .quoteGone: return bytes[i] == 0x22 && (bytes[i - 1] == 0x2C || bytes[i - 1] == 0x0A)
            // The first quote of a `""` in the text: after a letter, space or punctuation, not
            // after the opening quote or another quote (then it would be the field's closing one).
            case .pairBroken: return bytes[i] == 0x22 && bytes[i + 1] == 0x22 && bytes[i - 1] != 0x2C && bytes[i - 1] != 0x0A && bytes[i - 1] != 0x22
            case .control: return letter(bytes[i]) && letter(bytes[i + 1])
            }
        }
    }

    /// Makes `edit` at `at`.
    static func apply(_ edit: Edit, at i: Int, to bytes: inout [UInt8], _ rng: inout SplitMix64) {
        switch edit {
        case .delimiterMoved: bytes.swapAt(i, i + 1)
        case .quoteGone: bytes[i] = UInt8(ascii: "q")
        case .pairBroken: bytes[i + 1] = UInt8(ascii: "x")
        case .control:
            switch rng.below(4) {
            case 0: bytes[i] = 0x1B
            case 1: bytes[i] = 0x07
            case 2: bytes[i] = 0x7F
            default: (bytes[i], bytes[i + 1]) = (0xC2, 0x9B)
            }
        }
    }

    static func stream(_ bytes: [UInt8]) -> InputStream {
        InputStream(MemorySource(bytes, chunkSize: 1 << 16), chunkSize: 1 << 16)
    }

    /// The rows of `bytes` as the reader reads them, and their notes (every row noted in place).
    static func noted(_ bytes: [UInt8]) throws -> (rows: [[String]], notes: RowNotes, place: RowNotes.Place, count: Int) {
        var reader = CSVReader(stream: stream(bytes), dialect: .csv())
        var record = Record()
        var index = RowIndex()
        var rows: [[String]] = []
        while try reader.read(into: &record) {
            reader.note(record, in: &index)
            rows.append(record.strings)
        }
        let notes = RowNotes()
        let place = try #require(notes.keep(index.bytes))
        return (rows, notes, place, index.bytes.count)
    }

    @Test("I7, O5, P1: bytes changed after they were noted: a moved delimiter or quote, or a `\"\"` made a lone quote, stops with `file changed while reading` at that row; a control written into a cell is handed over as it is now, for the drawing pass's own check (seeded)",
          arguments: Edit.allCases)
    func changedAfterNoting(_ edit: Edit) throws {
        var rng = SplitMix64(seed: 0xC4A_6ED + UInt64(Edit.allCases.firstIndex(of: edit) ?? 0))
        for trial in 0..<40 {
            let original = Self.table(&rng, rows: 300 + rng.below(3000))
            let (rows, notes, place, count) = try Self.noted(original)
            var changed = original
            let places = Self.places(original, for: edit)
            let at = places[rng.below(places.count)]
            Self.apply(edit, at: at, to: &changed, &rng)
            // The row the change is in, and what the reader reads in the changed bytes.
            let changedRow = original[..<at].filter { $0 == 0x0A }.count
            var reader = CSVReader(stream: Self.stream(changed), dialect: .csv())
            var record = Record()
            var rowsNow: [[String]] = []
            while try reader.read(into: &record) { rowsNow.append(record.strings) }
            // The drawing pass's reading of the changed bytes by the notes.
            let piece = Self.stream(changed)
            var byNotes = try #require(RowIndex.Reader(RowIndex.Slice(notes: notes, place: place, from: 0, to: count),
                                                       dialect: .csv(), sourceName: "t.csv", columns: 0))
            var read: [[String]] = []
            var failure: InputError?
            do {
                while case .fields(let fields) = try byNotes.next(from: piece) {
                    read.append((0..<fields.count).map { String(decoding: fields[$0], as: UTF8.self) })
                }
            } catch {
                failure = error
            }
            switch edit {
            case .delimiterMoved, .quoteGone, .pairBroken:
                #expect(failure?.description == "t.csv: file changed while reading (modified)", "trial \(trial), row \(changedRow)")
                #expect(read == Array(rows.prefix(changedRow)), "trial \(trial): the rows before the changed one, as they were")
            case .control:
                #expect(failure == nil, "trial \(trial): \(String(describing: failure))")
                #expect(read == rowsNow, "trial \(trial): the fields as the bytes are now")
                #expect(read[changedRow] != rows[changedRow], "trial \(trial): the changed row holds its control")
            }
        }
    }
}

