/// The drawing pass's side of `RowIndex`: a piece's rows taken from the stream by their notes.
extension RowIndex {
    /// Reads one drawing piece's rows from the stream by their notes.
    package struct Reader {
        package let notes: ByteArray
        /// Where `notes`' bytes are (`notes` holds them; they do not change while it is read).
        private let noteBytes: UnsafePointer<UInt8>
        package let to: Int
        package let dialect: Dialect
        package let sourceName: String
        /// At least as many fields as a row has: short rows are padded to it with empty fields.
        package let columns: Int
        package var at: Int
        /// Where each field of the row read starts and ends, `capacity` of each.
        package let starts: UnsafeMutablePointer<Int>
        package let ends: UnsafeMutablePointer<Int>
        package let capacity: Int
        /// JSON Lines: for each of the sizing piece's columns, the table's column (`Slice.columns`).
        let columnMap: [Int]?
        /// The map is `0, 1, 2, …`: member `k` of a row in order is field `k`.
        let mapsInOrder: Bool
        /// Holds their memory (freed with the last copy of the reader).
        private let memory: GrowableArray<Int>.Storage

        /// Reads by `slice`'s notes; nil when they cannot be read back from disk.
        package init?(_ slice: Slice, dialect: Dialect, sourceName: String, columns: Int) {
            guard let (notes, from, to) = slice.bytes() else { return nil }
            self.notes = notes
            noteBytes = notes.unsafeBase
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
        package mutating func next(from stream: InputStream) throws(InputError) -> Step {
            guard at < to else { return .end }
            return try columnMap == nil ? next(from: stream, notes: noteBytes) : nextJSON(from: stream, notes: noteBytes)
        }

        private mutating func next(from stream: InputStream, notes: UnsafePointer<UInt8>) throws(InputError) -> Step {
            var at = at
            // Offsets count from the stream's next unread byte, which stays where the previous
            // row ended until this one is read.
            let start = Self.number(notes, &at)
            let countCode = Self.number(notes, &at)
            let count = countCode >> 1
            if count == 0 {
                self.at = at
                return try readAgain(stream, lead: start)
            }
            guard count <= capacity else { throw changed }
            let quoted = UInt64(truncatingIfNeeded: Self.number(notes, &at))
            let pairCode = Self.number(notes, &at)
            guard pairCode == 0 && countCode & 1 == 0 && (dialect.quoting || quoted == 0) && stream.end &- stream.pos > start &+ count &* 258 else {
                return try nextGenerally(from: stream, notes: notes, at: at, start: start, count: count, wide: countCode & 1 != 0,
                                         quoted: quoted, pairField: pairCode &- 1)
            }
            // The common row, placed quickly: its bytes are surely in the buffer (a field is at
            // most 254 bytes, two quotes and a delimiter); each field's delimiter and quotes are
            // checked as its place is found, its text inside the quotes.
            let starts = starts, ends = ends, delimiter = dialect.delimiter
            let lengths = notes + at
            let base = UnsafePointer(stream.storage + stream.pos)
            var place = start
            var quotes = quoted
            var misplaced: UInt8 = 0
            /// Places field `i`, its quotes checked.
            @inline(__always) func field(_ i: Int) {
                let length = Int(lengths[i])
                if quotes & 1 != 0 {
                    misplaced |= (base[place] ^ 0x22) | (base[place &+ length &+ 1] ^ 0x22)
                    starts[i] = place &+ 1
                    ends[i] = place &+ 1 &+ length
                    place &+= length &+ 2
                } else {
                    starts[i] = place
                    place &+= length
                    ends[i] = place
                }
                quotes >>= 1
            }
            // Each field but the last followed by a delimiter, the last by a line break.
            for i in 0..<(count &- 1) {
                field(i)
                misplaced |= base[place] ^ delimiter
                place &+= 1
            }
            field(count &- 1)
            guard misplaced == 0, base[place] == 0x0A || base[place] == 0x0D else { throw changed }
            self.at = at &+ count
            stream.pos &+= place
            return .fields(Fields(base: base, starts: starts, ends: ends, count: padded(count)))
        }

        /// `next` for a row the quick placing does not take (a field of 255 bytes or more, a
        /// `""`, a row that may reach past the buffered bytes), its notes read up to `at`.
        @inline(never)
        private mutating func nextGenerally(from stream: InputStream, notes: UnsafePointer<UInt8>, at: Int, start: Int, count: Int, wide: Bool,
                                            quoted: UInt64, pairField: Int) throws(InputError) -> Step {
            let delimiter = dialect.delimiter
            let starts = starts, ends = ends
            var at = at
            defer { self.at = at }
            var start = start
            let pairs = pairField >= 0 ? Self.number(notes, &at) : 0
            // Each field's place as written, from the notes alone: a quoted field takes two quotes
            // more (bit `i` of `quoted`, times two), the one with `""` one more for each.
            var quotes = quoted
            if wide {
                for i in 0..<count {
                    starts[i] = start
                    start &+= Self.number(notes, &at) &+ Int(truncatingIfNeeded: (quotes & 1) << 1)
                    quotes >>= 1
                    ends[i] = start
                    start &+= 1
                }
            } else {
                let lengths = notes + at
                for i in 0..<count {
                    starts[i] = start
                    start &+= Int(lengths[i]) &+ Int(truncatingIfNeeded: (quotes & 1) << 1)
                    quotes >>= 1
                    ends[i] = start
                    start &+= 1
                }
                at &+= count
            }
            if pairField >= 0 && pairField < count && (quoted >> UInt64(pairField)) & 1 != 0 {
                // The quoted field with `""` ends `pairs` bytes further on, every field after it
                // starts and ends so much further on.
                ends[pairField] &+= pairs
                for i in (pairField &+ 1)..<count {
                    starts[i] &+= pairs
                    ends[i] &+= pairs
                }
                start &+= pairs
            }
            // The row's bytes, and the one after them (its line break) when there is one.
            let end = start &- 1
            var available = stream.end &- stream.pos
            if available <= end {
                available = try Self.more(stream, atLeast: end &+ 1)
                guard end <= available else { throw changed }
            }
            let base = UnsafePointer(stream.storage + stream.pos)
            // The bytes are where the notes say: a delimiter after each field, a line break (or the
            // end of the input) after the last.
            guard end == available || base[end] == 0x0A || base[end] == 0x0D else { throw changed }
            var misplaced: UInt8 = 0
            for i in 0..<(count &- 1) { misplaced |= base[ends[i]] ^ delimiter }
            guard misplaced == 0 else { throw changed }
            if quoted != 0 { try unquote(quoted, pairField: pairField, in: stream.storage + stream.pos) }
            stream.pos &+= end
            return .fields(Fields(base: base, starts: starts, ends: ends, count: padded(count)))
        }

        /// The row's `count` fields padded with empty ones to the table's columns (its short rows).
        /// - Returns: the fields the row now has.
        @inline(__always)
        private func padded(_ count: Int) -> Int {
            var i = count
            while i < columns {
                starts[i] = 0
                ends[i] = 0
                i &+= 1
            }
            return i
        }

        /// The quoted fields of the row just placed (bit `k` of `quoted` for field `k`): `"`, the
        /// text, `"`, taken inside the quotes; a `""` in field `pairField` read as one `"`, in place.
        @inline(__always)
        private func unquote(_ quoted: UInt64, pairField: Int, in base: UnsafeMutablePointer<UInt8>) throws(InputError) {
            var quoted = quoted
            while quoted != 0 {
                let k = quoted.trailingZeroBitCount
                quoted &= quoted &- 1
                guard dialect.quoting, ends[k] &- starts[k] >= 2, base[starts[k]] == 0x22, base[ends[k] &- 1] == 0x22 else { throw changed }
                starts[k] &+= 1
                if k != pairField {
                    ends[k] &-= 1
                } else {
                    guard let end = CSVReader.collapsePairs(base, from: starts[k], to: ends[k] &- 1) else { throw changed }
                    ends[k] = end
                }
            }
        }

        package var changed: InputError { Self.changed(sourceName) }

        /// Moves `stream` past a row's lead (`lead` bytes), to the row the reader is to read.
        package func readAgain(_ stream: InputStream, lead: Int) throws(InputError) -> Step {
            if stream.end &- stream.pos < lead {
                guard lead <= (try Self.more(stream, atLeast: lead)) else { throw changed }
            }
            stream.pos &+= lead
            return .readAgain
        }

        /// Reads more of the stream, to at least `count` unread bytes if the input has them.
        /// - Returns: the unread bytes there are.
        @inline(never)
        package static func more(_ stream: InputStream, atLeast count: Int) throws(InputError) -> Int {
            try stream.peek(atLeast: count).count
        }

        @inline(never)  // made once a run at most: kept out of the row loops
        package static func changed(_ sourceName: String) -> InputError { .fileChanged("modified", source: sourceName) }

        /// The LEB128 number at `notes[at]`; `at` moves past it.
        @inline(__always)
        package static func number(_ notes: UnsafePointer<UInt8>, _ at: inout Int) -> Int {
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
