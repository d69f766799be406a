import Text

/// The common JSON Lines row read without the byte machine (P1): an object of scalars on one line,
/// whose keys all have columns. The machine (`scan`) reads everything else, and it reads the same
/// rows the same way: this path gives the record, counts and state the machine would have left,
/// or gives up having changed nothing the machine would see, so the machine reads the row instead.
extension JSONReader {
    /// Whether the next row may be tried by `readFlatLine`: JSON Lines, between top-level values.
    @inline(__always)
    var mayReadFlatLine: Bool {
        lines && !undecided && frames.isEmpty && capture < 0 && !rowReady && (state == .value || state == .afterValue)
    }

    /// Reads the next row into `record` when it is, within the buffered bytes, `{` + members + `}`
    /// on one line, each member a key without escapes that has a column already and a scalar value:
    /// a string without escapes or controls, a number, `true`, `false` or `null`, each key once.
    /// White space before the row is taken as the machine takes it (lines counted) either way.
    /// - Returns: false, with nothing but white space read, for the machine to read the row.
    mutating func readFlatLine(into record: inout Record) -> Bool {
        let buffer = stream.storage
        let end = stream.end
        var p = stream.pos
        bufferBase = stream.offset &- p
        // White space, line breaks counted as `scan` counts them.
        while p < end {
            let b = buffer[p]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { break }
            p &+= 1
            passedBlank(b, next: bufferBase &+ p)
        }
        stream.pos = p
        guard p < end, buffer[p] == UInt8(ascii: "{"), state == .value || line != lastValueLine else { return false }
        let stamp = rowStamp &+ 1
        record.clearForReading()
        guard let read = flatMembers(buffer, from: p &+ 1, end: end, stamp: stamp, record: &record) else {
            // The stamp written into the slots is not used again.
            rowStamp = stamp
            record.clear()
            return false
        }
        let lastCount = read.lastText.upperBound &- read.lastText.lowerBound
        let held = read.valueBytes &+ read.keyBytes &+ read.lastLength &+ compact.count &+ joined.count
            &+ Record.fieldCost &* read.cells
        // The machine's check when a row is complete (`read`): over the limit, it says so.
        guard held <= maxRowBytes else {
            rowStamp = stamp
            record.clear()
            return false
        }
        // What `startRow`, the members and `valueCompleted` would have left, but for the cells'
        // bytes, which stay in the stream's buffer: `heldBytes` is then less than the machine's,
        // which was within the limit, until the next row starts.
        rowStamp = stamp
        rowBytes.removeAll()
        rowLine = line
        rowCells = read.cells
        rowKeyBytes = read.keyBytes
        currentNode = read.lastNode
        text.removeAll()
        if read.lastEscaped {
            text.append(atMost: lastCount) { Self.unescape(UnsafePointer(buffer + read.lastText.lowerBound), count: lastCount, into: $0)! }  // checked as read
        } else {
            text.append(UnsafeBufferPointer(start: buffer + read.lastText.lowerBound, count: lastCount))
        }
        state = .afterValue
        topValues &+= 1
        lastValueLine = line
        stream.pos = read.end
        flatRowsRead &+= 1
        flatRowAt = p
        record.line = rowLine
        if !read.inOrder { emitFlat(from: buffer, into: &record) }
        return true
    }

    /// Notes the row just read in `index` (a piece of a JSON Lines file, sized to be drawn again,
    /// `RowIndex+JSON.swift`): one `readFlatLine` read (`flatRowsRead` is past `flatBefore`) by
    /// where its values lie, any other to be read again from `before`, where the stream stood.
    /// - Complexity: O(columns).
    package mutating func note(in index: inout RowIndex, from before: Int, flatBefore: Int) {
        guard flatRowsRead != flatBefore else {
            index.readAgain(from: before, next: stream.offset)
            return
        }
        let buffer = UnsafePointer(stream.storage), rowAt = flatRowAt, stamp = rowStamp
        let rawStart = bufferBase &+ rowAt, rawEnd = stream.offset
        slots.withUnsafeBufferPointer { slots in
            index.addFlatRow(slots, stamp: stamp, buffer: buffer, rowAt: rowAt, rawStart: rawStart, rawEnd: rawEnd, before: before)
        }
    }

    /// What `flatMembers` read: where the row ends, and the counts `heldBytes` takes.
    struct FlatRow {
        package var end: Int
        package var cells: Int
        var valueBytes: Int
        var keyBytes: Int
        /// The last key, string or number read (what `text` would hold after the machine), and
        /// whether it has escapes to decode.
        var lastText: Range<Int>
        var lastEscaped: Bool
        /// Its length once decoded.
        var lastLength: Int
        var lastNode: Int
        /// Member `k` was column `k`, for every member: the record was filled as they came.
        var inOrder: Bool
    }

    /// Reads the members after `{` at `from`, noting each value's place in `slots` (as offsets in
    /// `buffer`) with `stamp`, and, while member `k` is column `k`, appending it to `record`.
    /// Nil at anything the machine is to read.
    private mutating func flatMembers(_ buffer: UnsafeMutablePointer<UInt8>, from: Int, end: Int, stamp: Int, record: inout Record) -> FlatRow? {
        // The slots are taken out for the loop, so that it writes them through one pointer.
        var taken: [Slot] = []
        swap(&taken, &slots)
        defer { swap(&taken, &slots) }
        return taken.withUnsafeMutableBufferPointer { slots in
            flatMembers(buffer, from: from, end: end, stamp: stamp, slots: slots, record: &record)
        }
    }

    private mutating func flatMembers(_ buffer: UnsafeMutablePointer<UInt8>, from: Int, end: Int, stamp: Int,
                                      slots: UnsafeMutableBufferPointer<Slot>, record: inout Record) -> FlatRow? {
        var p = from
        var row = FlatRow(end: 0, cells: 0, valueBytes: 0, keyBytes: 0, lastText: 0..<0, lastEscaped: false, lastLength: 0, lastNode: -1, inOrder: true)
        var member = 0
        let columns = slots.count
        let keys = flatKeys
        // The last row's keys, held in locals: only `lookUpFlatKey` changes them.
        var known = keys.count, guesses = keys.keys, guessBytes = keys.bytes.bytes.baseAddress.unsafelyUnwrapped
        while true {
            Self.skipBlanks(buffer, &p, end)
            guard p < end, buffer[p] == 0x22 else { return nil }  // `{}` too is the machine's
            p &+= 1
            // The key the last row had here, when its bytes, closing quote and colon are next.
            var key: FlatKey
            var colonTaken = false
            if member < known, case let guess = guesses[member], end &- p > guess.count &+ 1,
               TextBytes.equal(buffer + p, guessBytes + guess.start, count: guess.count &+ 2) {
                key = guess
                key.textStart = p
                p &+= guess.count &+ 2
                colonTaken = true
            } else {
                guard let found = lookUpFlatKey(buffer, &p, end, member: member) else { return nil }
                key = found
                (known, guesses, guessBytes) = (keys.count, keys.keys, keys.bytes.bytes.baseAddress.unsafelyUnwrapped)
            }
            // A key twice in the row is the machine's (the last value wins, with a warning).
            guard key.column < columns, slots[key.column].stamp != stamp else { return nil }
            row.inOrder = row.inOrder && key.column == member
            member &+= 1
            row.keyBytes &+= key.count
            row.lastText = key.textStart..<(key.textStart &+ key.count)
            row.lastEscaped = false
            row.lastLength = key.count
            row.lastNode = key.node
            if !colonTaken {
                Self.skipBlanks(buffer, &p, end)
                guard p < end, buffer[p] == UInt8(ascii: ":") else { return nil }
                p &+= 1
            }
            Self.skipBlanks(buffer, &p, end)
            guard p < end else { return nil }
            var slot = Slot(start: p, end: p, stamp: stamp, node: key.node)
            let first = buffer[p]
            var length = 0
            if first == 0x22 {
                p &+= 1
                slot.start = p
                guard let escapes = Self.stringEnd(buffer, &p, end) else { return nil }
                slot.end = p
                slot.escaped = escapes > 0
                length = p &- slot.start &- escapes
                row.lastText = slot.start..<p
                row.lastEscaped = slot.escaped
                row.lastLength = length
                p &+= 1
            } else if first == UInt8(ascii: "-") || Self.isDigit(first) {
                guard Self.numberEnd(buffer, &p, end) else { return nil }
                slot.end = p
                length = p &- slot.start
                row.lastText = slot.start..<p
                row.lastEscaped = false
                row.lastLength = length
            } else {
                guard let word = Self.literalWord(buffer, at: p, end) else { return nil }
                p &+= word.utf8CodeUnitCount
                // `null` is an empty cell.
                if first != UInt8(ascii: "n") {
                    slot.end = p
                    length = p &- slot.start
                }
            }
            slots[key.column] = slot
            if row.inOrder { Self.append(slot, from: buffer, to: &record) }
            row.cells &+= 1
            row.valueBytes &+= length
            Self.skipBlanks(buffer, &p, end)
            guard p < end else { return nil }
            if buffer[p] == UInt8(ascii: "}") {
                row.end = p &+ 1
                // Columns after the last member, in order, are empty in this row.
                if row.inOrder {
                    for _ in member..<columns { record.endFieldAssumingUnique() }
                }
                return row
            }
            guard buffer[p] == UInt8(ascii: ",") else { return nil }
            p &+= 1
        }
    }

    /// The key whose text starts at `p` (after its opening quote), found in the table, `p` moved
    /// past its closing quote; remembered at `member` for the next rows. Nil for a key with an
    /// escape, or without a column yet.
    @inline(never)
    private mutating func lookUpFlatKey(_ buffer: UnsafeMutablePointer<UInt8>, _ p: inout Int, _ end: Int, member: Int) -> FlatKey? {
        let start = p
        guard Self.stringEnd(buffer, &p, end) == 0 else { return nil }
        let key = UnsafeBufferPointer(start: buffer + start, count: p &- start)
        p &+= 1
        let node = table.node(parent: -1, key: key)
        let column = table.nodeColumn[node]
        guard column >= 0 else { return nil }
        var found = FlatKey(start: 0, count: key.count, node: node, column: column, textStart: start)
        if member < flatKeys.count && flatKeys.keys[member].node == node {
            // The key, with blank space before its colon.
            return found
        }
        // Remembered from here on: the keys after it are remembered as they come.
        flatKeys.removeLast(to: member)
        guard member == flatKeys.count else { return found }
        found.start = flatKeys.bytes.count
        flatKeys.bytes.append(UnsafeBufferPointer(start: buffer + start, count: key.count &+ 1))
        flatKeys.bytes.append(UInt8(ascii: ":"))
        flatKeys.append(found)
        return found
    }

    /// Appends the cell `slot` notes to `record`, its escapes decoded.
    @inline(__always)
    private static func append(_ slot: Slot, from buffer: UnsafeMutablePointer<UInt8>, to record: inout Record) {
        if slot.end > slot.start {
            if slot.escaped {
                _ = record.bytes.append(atMost: slot.end &- slot.start) { out in
                    Self.unescape(UnsafePointer(buffer + slot.start), count: slot.end &- slot.start, into: out.baseAddress!)!  // checked as read
                }
            } else {
                record.bytes.appendAssumingUnique(contentsOf: UnsafeBufferPointer(start: buffer + slot.start, count: slot.end &- slot.start))
            }
        }
        record.endFieldAssumingUnique()
    }

    /// Fills `record` with the row read by `flatMembers`: one field per known column, in column
    /// order, from the stream's buffer.
    private mutating func emitFlat(from buffer: UnsafeMutablePointer<UInt8>, into record: inout Record) {
        record.clearForReading()
        let stamp = rowStamp
        slots.withUnsafeBufferPointer { slots in
            for slot in slots {
                if slot.stamp == stamp {
                    Self.append(slot, from: buffer, to: &record)
                } else {
                    record.endFieldAssumingUnique()
                }
            }
        }
    }

    /// Writes `count` bytes of string text at `source`, whose escapes are the one-letter ones, with
    /// each escape decoded. Returns the bytes written; nil when the text is not such string text (a
    /// bare `"`, a `\` last, an escape other than a one-letter one), which a reader that checked
    /// the text first never meets and one taking bytes noted earlier meets when the file changed.
    package static func unescape(_ source: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<UInt8>) -> Int? {
        var read = 0
        var written = 0
        while read < count {
            var byte = source[read]
            read &+= 1
            if byte == 0x22 { return nil }
            if byte == 0x5C {
                guard read < count else { return nil }
                byte = Self.escaped(source[read])
                if byte == 0 { return nil }
                read &+= 1
            }
            out[written] = byte
            written &+= 1
        }
        return written
    }

    /// The byte a one-letter escape stands for (`n` for a line feed); 0 for `u` and any other.
    @inline(__always)
    package static func escaped(_ letter: UInt8) -> UInt8 {
        switch letter {
        case 0x22, 0x5C, 0x2F: return letter
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        default: return 0
        }
    }

    /// Moves `p` past spaces and tabs (a line break inside a row is the machine's).
    @inline(__always)
    private static func skipBlanks(_ buffer: UnsafeMutablePointer<UInt8>, _ p: inout Int, _ end: Int) {
        // Most places have no blank: one test of the byte (above a space) settles them.
        guard p < end && buffer[p] <= 0x20 else { return }
        while p < end && (buffer[p] == 0x20 || buffer[p] == 0x09) { p &+= 1 }
    }

    /// Moves `p` from a string's first byte to its closing quote, past one-letter escapes.
    /// - Returns: how many escapes it passed; nil at a `\u` escape or another not taken here, a
    ///   control character or the end of the buffered bytes.
    @inline(__always)
    private static func stringEnd(_ buffer: UnsafeMutablePointer<UInt8>, _ p: inout Int, _ end: Int) -> Int? {
        var escapes = 0
        while true {
            while p &+ 8 <= end {
                let word = UnsafeRawPointer(buffer + p).loadUnaligned(as: UInt64.self)
                // The lowest bit of each test is exact, so the lowest of the three is a stop.
                let hits = SWAR.matches(word, SWAR.quote) | SWAR.matches(word, SWAR.backslash) | SWAR.lessThan(word, 0x20)
                if hits != 0 {
                    p &+= hits.trailingZeroBitCount >> 3
                    break
                }
                p &+= 8
            }
            while p < end {
                let byte = buffer[p]
                if byte == 0x22 || byte == 0x5C || byte < 0x20 { break }
                p &+= 1
            }
            guard p < end else { return nil }
            let stop = buffer[p]
            if stop == 0x22 { return escapes }
            guard stop == 0x5C, p &+ 1 < end, escaped(buffer[p &+ 1]) != 0 else { return nil }
            p &+= 2
            escapes &+= 1
        }
    }

    /// Moves `p` past an RFC 8259 number starting there. False when the number is malformed, or is
    /// not followed, within the buffered bytes, by a space, a tab, `,` or `}`.
    @inline(__always)
    private static func numberEnd(_ buffer: UnsafeMutablePointer<UInt8>, _ p: inout Int, _ end: Int) -> Bool {
        if buffer[p] == UInt8(ascii: "-") { p &+= 1 }
        guard p < end, isDigit(buffer[p]) else { return false }
        if buffer[p] == UInt8(ascii: "0") {
            p &+= 1
        } else {
            while p < end && isDigit(buffer[p]) { p &+= 1 }
        }
        if p < end && buffer[p] == UInt8(ascii: ".") {
            p &+= 1
            let digits = p
            while p < end && isDigit(buffer[p]) { p &+= 1 }
            guard p > digits else { return false }
        }
        if p < end && buffer[p] | 0x20 == UInt8(ascii: "e") {
            p &+= 1
            if p < end && (buffer[p] == UInt8(ascii: "+") || buffer[p] == UInt8(ascii: "-")) { p &+= 1 }
            let digits = p
            while p < end && isDigit(buffer[p]) { p &+= 1 }
            guard p > digits else { return false }
        }
        guard p < end else { return false }
        let next = buffer[p]
        return next == UInt8(ascii: ",") || next == UInt8(ascii: "}") || next == 0x20 || next == 0x09
    }

    /// `true`, `false` or `null` at `p`, followed within the buffered bytes by a space, a tab, `,`
    /// or `}`; nil otherwise.
    @inline(__always)
    private static func literalWord(_ buffer: UnsafeMutablePointer<UInt8>, at p: Int, _ end: Int) -> StaticString? {
        let word: StaticString
        switch buffer[p] {
        case UInt8(ascii: "t"): word = "true"
        case UInt8(ascii: "f"): word = "false"
        case UInt8(ascii: "n"): word = "null"
        default: return nil
        }
        let count = word.utf8CodeUnitCount
        guard end &- p > count, TextBytes.equal(buffer + p, word.utf8Start, count: count) else { return nil }
        let next = buffer[p &+ count]
        return next == UInt8(ascii: ",") || next == UInt8(ascii: "}") || next == 0x20 || next == 0x09 ? word : nil
    }
}
