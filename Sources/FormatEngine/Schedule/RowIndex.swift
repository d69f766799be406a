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
struct RowIndex {
    /// The rows noted so far.
    private(set) var bytes = ByteArray()
    /// Whether every row so far could be noted (and the notes stay under `limit`).
    private(set) var usable = true
    /// The most bytes of notes one sizing piece may take; past it the piece is not noted (the
    /// pieces of a file over about 3.6 GB, each a 256th of it), so what a piece holds stays bounded.
    let limit: Int
    /// Where the drawing pass's reader will stand before the next row: the end of the previous
    /// row's last field (or past its line break, when the reader read it again), or where its
    /// piece starts.
    private var cursor = 0

    /// Rows longer than this (the bytes a piece's stream reads at a time) are read again by the
    /// reader rather than held whole in the stream's buffer.
    static let longestRow = 1 << 16

    /// 2 MiB: about 150,000 rows of ten fields.
    init(limit: Int = 2 << 20) { self.limit = limit }

    /// Where a row the reader read lies in its stream, and how its fields are written (the
    /// reader's `shape`).
    struct Shape {
        /// The stream offset of the row's first byte (blank lines before it skipped).
        var rawStart = 0
        /// The stream offset of the byte that ended its last field: its line break, or the end of
        /// the input.
        var rawEnd = 0
        /// Bit `i`: field `i` is quoted (the first 64 fields).
        var quoted: UInt64 = 0
        /// The bit of the one quoted field with `""` in it (0: none), and how many it holds.
        var pairField: UInt64 = 0
        var pairs = 0
        /// A field is neither as written nor `"` + text + `"` (a TSV backslash escape, bytes after
        /// a closing quote, `""` in two fields, a quoted field past the 64th).
        var irregular = false
    }

    /// Notes a row the reader read into `record` (before the table pads it), written as `shape`
    /// says, the reader then standing at `next`. A row that is irregular, or whose fields do not
    /// add up to where it ends, is noted to be read again by the reader.
    mutating func add(_ record: Record, _ shape: Shape, next: Int) {
        record.withFields { add($0, shape, next: next) }
    }

    /// The same for a row's fields seen in place: in a record, or in the stream's buffer
    /// (`CSVReader.readInPlace`), unpadded.
    mutating func add(_ fields: Fields, _ shape: Shape, next: Int) {
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
    mutating func lead(to rawStart: Int) -> Int? {
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
    mutating func add(lead: Int, atMost: Int, rawEnd: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int?) -> Bool {
        let added = bytes.append(atMost: atMost &+ 10) { out -> Int? in
            let n = Self.put(lead, at: out)
            return body(out + n).map { n &+ $0 }
        }
        if added { cursor = rawEnd }
        return added
    }

    /// Notes a row to be read again by the reader: its lead, then 0 for the count. The reader then
    /// stands at `next`.
    mutating func readAgain(lead: Int, next: Int) {
        _ = bytes.append(atMost: 11) { out in
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
        let rawLength = shape.rawEnd &- shape.rawStart &- 2 &* quoted.nonzeroBitCount &- pairs &- (count &- 1)
        // At most ten bytes a number.
        return bytes.append(atMost: 10 &* (count &+ 6)) { out -> Int? in
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

    /// The drawing pass will start a piece at stream offset `offset` (a checkpoint).
    mutating func restart(at offset: Int) { cursor = offset }

    /// Writes `value` (not negative) as LEB128 at `out`. Returns the bytes written.
    @inline(__always)
    static func put(_ value: Int, at out: UnsafeMutablePointer<UInt8>) -> Int {
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
    struct Slice: Sendable {
        let notes: RowNotes
        let place: RowNotes.Place
        let from: Int
        let to: Int
        /// A JSON Lines piece's: for each of the sizing piece's columns, the table's column (a
        /// piece names its columns in the order it met their keys). Nil for CSV and TSV.
        var columns: [Int]? = nil

        /// The notes, read back if they were written to disk; nil when they cannot be read.
        func bytes() -> (storage: ByteArray, from: Int, to: Int)? {
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
    enum Step {
        /// The row's fields, in place in the stream's buffer (valid until the stream is read again).
        case fields(Fields)
        /// The row is to be read by the reader, which the stream now stands at.
        case readAgain
        /// Every noted row has been read.
        case end
    }

    /// Reads one drawing piece's rows from the stream by their notes.
    struct Reader {
        let notes: ByteArray
        let to: Int
        let dialect: Dialect
        let sourceName: String
        /// At least as many fields as a row has: short rows are padded to it with empty fields.
        let columns: Int
        var at: Int
        /// Where each field of the row read starts and ends, `capacity` of each.
        let starts: UnsafeMutablePointer<Int>
        let ends: UnsafeMutablePointer<Int>
        let capacity: Int
        /// JSON Lines: for each of the sizing piece's columns, the table's column (`Slice.columns`).
        let columnMap: [Int]?
        /// The map is `0, 1, 2, …`: member `k` of a row in order is field `k`.
        let mapsInOrder: Bool
        /// Holds their memory (freed with the last copy of the reader).
        private let memory: GrowableArray<Int>.Storage

        /// Reads by `slice`'s notes; nil when they cannot be read back from disk.
        init?(_ slice: Slice, dialect: Dialect, sourceName: String, columns: Int) {
            guard let (notes, from, to) = slice.bytes() else { return nil }
            self.notes = notes
            self.to = to
            self.dialect = dialect
            self.sourceName = sourceName
            self.columns = columns
            at = from
            capacity = max(64, columns)
            memory = GrowableArray<Int>.Storage(capacity: 2 &* capacity)
            starts = memory.pointer
            ends = memory.pointer + capacity
            columnMap = slice.columns
            mapsInOrder = slice.columns.map { $0.elementsEqual($0.indices) } ?? true
        }

        /// The next row: its fields, read in place from `stream` where the previous row ended;
        /// or that the reader is to read it; or the end of the notes.
        /// - Throws: `file changed while reading` when the bytes are not where the sizing pass
        ///   saw them.
        mutating func next(from stream: InputStream) throws(InputError) -> Step {
            guard at < to else { return .end }
            return try notes.withUnsafeBufferPointer { (notes) throws(InputError) -> Step in
                let notes = notes.baseAddress.unsafelyUnwrapped
                return try columnMap == nil ? next(from: stream, notes: notes) : nextJSON(from: stream, notes: notes)
            }
        }

        private mutating func next(from stream: InputStream, notes: UnsafePointer<UInt8>) throws(InputError) -> Step {
            let quoting = dialect.quoting
            let delimiter = dialect.delimiter
            let starts = starts, ends = ends, columns = columns
            var at = at
            defer { self.at = at }
            // Offsets count from the stream's next unread byte, which stays where the previous
            // row ended until this one is read.
            var start = Self.number(notes, &at)
            let countCode = Self.number(notes, &at)
            let count = countCode >> 1
            var available = stream.end &- stream.pos
            if count == 0 { return try readAgain(stream, lead: start) }
            guard count <= capacity else { throw changed }
            var quoted = UInt64(truncatingIfNeeded: Self.number(notes, &at))
            let pairField = Self.number(notes, &at) &- 1
            let pairs = pairField >= 0 ? Self.number(notes, &at) : 0
            let wide = countCode & 1 != 0
            // Each field's place as written, from the notes alone: a quoted field takes two quotes
            // more, the one with `""` one more for each.
            var quotes = quoted
            for i in 0..<count {
                starts[i] = start
                var length = wide ? Self.number(notes, &at) : Int(notes[at &+ i])
                if quotes & 1 != 0 { length &+= i == pairField ? 2 &+ pairs : 2 }
                quotes >>= 1
                start &+= length
                ends[i] = start
                start &+= 1
            }
            if !wide { at &+= count }
            // The row's bytes, and the one after them (its line break) when there is one.
            let end = start &- 1
            if available <= end {
                available = try Self.more(stream, atLeast: end &+ 1)
                guard end <= available else { throw changed }
            }
            let base = UnsafePointer(stream.storage + stream.pos)
            // The bytes are where the notes say: a delimiter after each field, a line break (or the
            // end of the input) after the last.
            var misplaced = end < available && base[end] != 0x0A && base[end] != 0x0D
            for i in 0..<(count &- 1) { misplaced = misplaced || base[ends[i]] != delimiter }
            guard !misplaced else { throw changed }
            // Quoted fields: `"`, the text, `"`; a `""` in it is read as one `"`.
            while quoted != 0 {
                let k = quoted.trailingZeroBitCount
                quoted &= quoted &- 1
                guard quoting, ends[k] &- starts[k] >= 2, base[starts[k]] == 0x22, base[ends[k] &- 1] == 0x22 else { throw changed }
                starts[k] &+= 1
                ends[k] = k != pairField ? ends[k] &- 1 : try Self.unescapePairs(stream.storage + stream.pos, from: starts[k], to: ends[k] &- 1, sourceName: sourceName)
            }
            // The table's short rows are padded with empty fields.
            var i = count
            while i < columns {
                starts[i] = 0
                ends[i] = 0
                i &+= 1
            }
            stream.pos &+= end
            return .fields(Fields(base: base, starts: starts, ends: ends, count: i))
        }

        var changed: InputError { Self.changed(sourceName) }

        /// Moves `stream` past a row's lead (`lead` bytes), to the row the reader is to read.
        func readAgain(_ stream: InputStream, lead: Int) throws(InputError) -> Step {
            if stream.end &- stream.pos < lead {
                guard lead <= (try Self.more(stream, atLeast: lead)) else { throw changed }
            }
            stream.pos &+= lead
            return .readAgain
        }

        /// Reads more of the stream, to at least `count` unread bytes if the input has them.
        /// - Returns: the unread bytes there are.
        @inline(never)
        static func more(_ stream: InputStream, atLeast count: Int) throws(InputError) -> Int {
            try stream.peek(atLeast: count).count
        }

        static func changed(_ sourceName: String) -> InputError { .fileChanged("modified", source: sourceName) }

        /// Reads each `""` in `bytes[from..<to]` (quoted text) as one `"`, in place.
        /// - Returns: where the text now ends.
        private static func unescapePairs(_ bytes: UnsafeMutablePointer<UInt8>, from: Int, to: Int, sourceName: String) throws(InputError) -> Int {
            var read = from
            var write = from
            while read < to {
                let byte = bytes[read]
                bytes[write] = byte
                write &+= 1
                if byte == 0x22 {
                    guard read &+ 1 < to, bytes[read &+ 1] == 0x22 else { throw changed(sourceName) }
                    read &+= 2
                } else {
                    read &+= 1
                }
            }
            return write
        }
        /// The LEB128 number at `notes[at]`; `at` moves past it.
        @inline(__always)
        static func number(_ notes: UnsafePointer<UInt8>, _ at: inout Int) -> Int {
            var byte = notes[at]
            at &+= 1
            guard byte >= 0x80 else { return Int(byte) }
            var value = UInt(byte & 0x7F)
            var shift: UInt = 7
            repeat {
                byte = notes[at]
                at &+= 1
                value |= UInt(byte & 0x7F) << shift
                shift &+= 7
            } while byte >= 0x80
            return Int(bitPattern: value)
        }
    }
}
