import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// P2: what the sizing pass's notes cost — about a byte a field of a CSV or TSV row, about two a
/// value of a JSON Lines row of scalars — so the notes of a file in pieces stay a small share of
/// it. Checked on generated rows of short fields against a bound counted independently: the
/// fields (values), plus a few bytes a row (its lead, count, which fields are quoted, its length).
@Suite("Row notes' size")
struct RowNotesSizeTests {
    static let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789 .-".utf8)

    static func text(_ rng: inout SplitMix64, upTo: Int) -> [UInt8] {
        (0..<rng.below(upTo + 1)).map { _ in letters[rng.below(letters.count)] }
    }

    @Test("P2: CSV notes take at most a byte a field and five a row (fields under 255 bytes, some quoted)", arguments: [1, 2, 3] as [UInt64])
    func csvNotes(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &* 8_191)
        var bytes: [UInt8] = []
        var fields = 0, rows = 0
        for _ in 0..<2_000 {
            let count = rng.below(20) + 1
            for k in 0..<count {
                if k > 0 { bytes.append(0x2C) }
                // A row of one empty field is a blank line, skipped: one field is never empty.
                var field = Self.text(&rng, upTo: 40)
                if count == 1 && field.isEmpty { field = [0x78] }
                bytes += rng.below(5) == 0 ? [0x22] + field + [0x22] : field
            }
            bytes += rng.below(3) == 0 ? [0x0D, 0x0A] : [0x0A]
            fields += count
            rows += 1
        }
        var reader = CSVReader(stream: InputStream(MemorySource(bytes, chunkSize: 1 << 16)), dialect: .csv())
        var record = Record()
        var index = RowIndex()
        var read = 0
        while try reader.read(into: &record) {
            reader.note(record, in: &index)
            read += 1
        }
        #expect(read == rows)
        #expect(index.usable)
        #expect(index.bytes.count <= fields + 5 * rows, "\(index.bytes.count) bytes of notes for \(fields) fields in \(rows) rows")
        // And not less than a byte a field: each field's length is there.
        #expect(index.bytes.count >= fields)
    }

    @Test("P2: JSON Lines notes of rows of scalars take at most two bytes a value and five a row when keys come in order, three a value when some are missing (values under 32 bytes)",
          arguments: [(1, false), (2, false), (3, true), (4, true)] as [(UInt64, Bool)])
    func jsonNotes(seed: UInt64, missing: Bool) throws {
        var rng = SplitMix64(seed: seed &* 131_071)
        var bytes: [UInt8] = []
        var values = 0, rows = 0
        for _ in 0..<2_000 {
            var members: [[UInt8]] = []
            for k in 0..<8 where !missing || rng.below(6) != 0 {
                let value: [UInt8] = rng.below(2) == 0 ? Array(String(rng.below(1_000_000)).utf8) : [0x22] + Self.text(&rng, upTo: 25) + [0x22]
                members.append(Array("\"k\(k)\":".utf8) + value)
            }
            if members.isEmpty { members = [Array("\"k0\":1".utf8)] }
            bytes += [0x7B] + Array(members.joined(separator: [0x2C])) + [0x7D, 0x0A]
            values += members.count
            rows += 1
        }
        var reader = JSONReader(stream: InputStream(MemorySource(bytes, chunkSize: 1 << 16)), linesMode: true, sourceName: "t.jsonl")
        var record = Record()
        var index = RowIndex()
        var read = 0
        while true {
            let before = reader.stream.offset
            let flatBefore = reader.flatRowsRead
            guard try reader.read(into: &record) else { break }
            reader.note(in: &index, from: before, flatBefore: flatBefore)
            read += 1
        }
        #expect(read == rows)
        #expect(index.usable)
        #expect(index.bytes.count <= (missing ? 3 : 2) * values + 5 * rows, "\(index.bytes.count) bytes of notes for \(values) values in \(rows) rows")
        #expect(index.bytes.count >= values)
    }
}
