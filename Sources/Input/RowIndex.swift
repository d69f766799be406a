/// Where each field of a piece's rows lies in a CSV or TSV file, noted by the sizing pass so that
/// the drawing pass takes every field without looking for it again (P1: each field is found once).
///
/// A row is noted as its lead (the bytes from where the drawing pass's reader stands after the
/// previous row, or the piece's start, to its first field: a line break, blank lines), then its
/// fields (`noteFields`): each is as written, or quoted (`"` + its text + `"`), with `""` in one
/// field at most. A row with anything else (a TSV backslash escape, bytes after a closing quote,
/// `""` in two fields, more than 64 fields or a quoted field past the 64th), or longer than
/// `longestRow` (a long cell stays in the reader's record, grown in place, P2), is noted as its
/// lead and a count of 0: the drawing pass has the reader read it again. A JSON Lines file's rows
/// are noted as `RowIndex+JSON.swift` says.
package struct RowIndex {
    /// The rows noted so far.
    package private(set) var bytes = ByteArray()
    /// Whether every row so far could be noted (and the notes stay under `limit`).
    package private(set) var usable = true
    /// The most bytes of notes one sizing piece may take; past it the piece is not noted (the
    /// pieces of a file over about 3.6 GB, each a 256th of it), so what a piece holds stays bounded.
    package let limit: Int
    /// Where the drawing pass's reader will stand before the next row: the end of the previous
    /// row's last field (or past its line break, when the reader read it again), or where its
    /// piece starts.
    private var cursor = 0

    /// Rows longer than this (the bytes a piece's stream reads at a time) are read again by the
    /// reader rather than held whole in the stream's buffer.
    @inlinable package static var longestRow: Int { 1 << 16 }

    /// 2 MiB: about 150,000 rows of ten fields.
    package init(limit: Int = 2 << 20) { self.limit = limit }

    /// Where a row the reader read lies in its stream, and how its fields are written (the
    /// reader's `shape`).
    package struct Shape {
        /// The stream offset of the row's first byte (blank lines before it skipped).
        package var rawStart = 0
        /// The stream offset of the byte that ended its last field: its line break, or the end of
        /// the input.
        package var rawEnd = 0
        /// Bit `i`: field `i` is quoted (the first 64 fields).
        package var quoted: UInt64 = 0
        /// The bit of the one quoted field with `""` in it (0: none), and how many it holds.
        var pairField: UInt64 = 0
        package var pairs = 0
        /// A field is neither as written nor `"` + text + `"` (a TSV backslash escape, bytes after
        /// a closing quote, `""` in two fields, a quoted field past the 64th).
        var irregular = false

        package init(rawStart: Int = 0, rawEnd: Int = 0) {
            self.rawStart = rawStart
            self.rawEnd = rawEnd
        }
    }

    /// Notes a row the reader read into `record` (before the table pads it), written as `shape`
    /// says, the reader then standing at `next`. A row that is irregular, or whose fields do not
    /// add up to where it ends, is noted to be read again by the reader.
    package mutating func add(_ record: Record, _ shape: Shape, next: Int) {
        record.withFields { add($0, shape, next: next) }
    }

    /// The same for a row's fields seen in place: in a record, or in the stream's buffer
    /// (`CSVReader.readInPlace`), unpadded.
    package mutating func add(_ fields: Fields, _ shape: Shape, next: Int) {
        let rawStart = shape.rawStart, rawEnd = shape.rawEnd
        guard let lead = lead(to: rawStart) else { return }
        if !shape.irregular && fields.count <= 64 && rawEnd &- rawStart <= Self.longestRow && noteFields(fields, shape, lead: lead) {
            cursor = rawEnd
            return
        }
        readAgain(lead: lead, next: next)
    }

    /// The bytes from `cursor` to `rawStart`, where the next row's notes begin; nil, the notes
    /// dropped, when they are no longer kept (a row not after the last, or past `limit`).
    package mutating func lead(to rawStart: Int) -> Int? {
        let lead = rawStart &- cursor
        guard usable, lead >= 0, bytes.count <= limit else {
            usable = false
            bytes = ByteArray()
            return nil
        }
        return lead
    }

    /// Notes a row as its lead, then what `body` writes (at most `atMost` bytes, at its pointer);
    /// the drawing pass's reader then stands at `rawEnd`. False, nothing noted, when `body` gives nil.
    package mutating func add(lead: Int, atMost: Int, rawEnd: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int?) -> Bool {
        let added = bytes.append(atMost: atMost &+ 10) { room -> Int? in
            let out = room.baseAddress!
            let n = Self.put(lead, at: out)
            return body(out + n).map { n &+ $0 }
        }
        if added { cursor = rawEnd }
        return added
    }

    /// Notes a row to be read again by the reader: its lead, then 0 for the count. The reader then
    /// stands at `next`.
    package mutating func readAgain(lead: Int, next: Int) {
        _ = bytes.append(atMost: 11) { room in
            let out = room.baseAddress!
            let n = Self.put(lead, at: out)
            out[n] = 0
            return n &+ 1
        }
        cursor = next
    }

    /// Notes the row's lead; its field count, times two, + 1 if a field is 255 bytes or longer;
    /// which fields are quoted (bit `i` for field `i`); the number of the field with `""` in it,
    /// from 1 (0: none), and how many; then each field's length as read (a byte each, or LEB128
    /// numbers when one is that long). False, noting nothing, when the fields as written (two
    /// quotes more if quoted, one more for each `""`) and the delimiters between them do not
    /// reach `rawEnd`.
    private mutating func noteFields(_ fields: Fields, _ shape: Shape, lead: Int) -> Bool {
        let count = fields.count
        guard count > 0 else { return false }
        let ends = fields.ends
        if let starts = fields.starts { return noteFields(count: count, shape, lead: lead) { ends[$0] &- starts[$0] } }
        // A record's fields follow one another.
        return noteFields(count: count, shape, lead: lead) { ends[$0] &- ($0 == 0 ? 0 : ends[$0 &- 1]) }
    }

    /// `noteFields` for `count` fields, field `i` `length(i)` bytes long as read.
    @inline(__always)
    private mutating func noteFields(count: Int, _ shape: Shape, lead: Int, length: (Int) -> Int) -> Bool {
        let quoted = shape.quoted, pairField = shape.pairField, pairs = shape.pairs
        let rawLength = shape.rawEnd &- shape.rawStart &- 2 &* Self.bitCount(quoted) &- pairs &- (count &- 1)
        // At most ten bytes a number.
        return bytes.append(atMost: 10 &* (count &+ 6)) { room -> Int? in
            let out = room.baseAddress!
            var n = Self.put(lead, at: out)
            let countAt = n
            n &+= Self.put(count << 1, at: out + n)
            n &+= Self.put(Int(truncatingIfNeeded: quoted), at: out + n)
            if pairField == 0 {
                out[n] = 0
                n &+= 1
            } else {
                n &+= Self.put(pairField.trailingZeroBitCount &+ 1, at: out + n)
                n &+= Self.put(pairs, at: out + n)
            }
            // A byte each, while every length is below 255; the fields as read must fill the row.
            var widest = 0
            var decoded = 0
            for i in 0..<count {
                let field = length(i)
                out[n &+ i] = UInt8(truncatingIfNeeded: field)
                widest |= field
                decoded &+= field
            }
            guard decoded == rawLength else { return nil }
            if widest < 255 { return n &+ count }
            // Again as LEB128 numbers, the count marked.
            out[countAt] |= 1
            for i in 0..<count { n &+= Self.put(length(i), at: out + n) }
            return n
        }
    }

    /// The bits set in `bits`, one step a bit: a row has few quoted fields, and `nonzeroBitCount`
    /// compiles to about fifteen instructions where the CPU's own count is not assumed (x86-64).
    @inline(__always)
    static func bitCount(_ bits: UInt64) -> Int {
        var bits = bits, count = 0
        while bits != 0 {
            bits &= bits &- 1
            count &+= 1
        }
        return count
    }

    /// The drawing pass will start a piece at stream offset `offset` (a checkpoint).
    package mutating func restart(at offset: Int) { cursor = offset }

    /// Writes `value` (not negative) as LEB128 at `out`. Returns the bytes written.
    @inline(__always)
    package static func put(_ value: Int, at out: UnsafeMutablePointer<UInt8>) -> Int {
        var v = UInt(bitPattern: value)
        var n = 0
        while v >= 0x80 {
            out[n] = UInt8(truncatingIfNeeded: v) | 0x80
            v >>= 7
            n &+= 1
        }
        out[n] = UInt8(truncatingIfNeeded: v)
        return n &+ 1
    }

    /// One drawing piece's rows as noted: `from..<to` of a sizing piece's notes, wherever they are
    /// kept (`RowNotes`).
    package struct Slice: Sendable {
        package let notes: RowNotes
        package let place: RowNotes.Place
        package let from: Int
        package let to: Int
        /// A JSON Lines piece's: for each of the sizing piece's columns, the table's column (a
        /// piece names its columns in the order it met their keys). Nil for CSV and TSV.
        package var columns: [Int]? = nil

        package init(notes: RowNotes, place: RowNotes.Place, from: Int, to: Int, columns: [Int]? = nil) {
            self.notes = notes
            self.place = place
            self.from = from
            self.to = to
            self.columns = columns
        }

        /// The notes, read back if they were written to disk; nil when they cannot be read.
        package func bytes() -> (storage: ByteArray, from: Int, to: Int)? {
            switch place {
            case .memory(let storage):
                return (storage, from, to)
            case .file(let offset):
                guard let storage = notes.read(at: offset + Int64(from), count: to - from) else { return nil }
                return (storage, 0, to - from)
            }
        }
    }

    /// What the notes give for the next row.
    package enum Step {
        /// The row's fields, in place in the stream's buffer (valid until the stream is read again).
        case fields(Fields)
        /// The row is to be read by the reader, which the stream now stands at.
        case readAgain
        /// Every noted row has been read.
        case end
    }
}
