/// A JSON Lines file's rows in the sizing pass's notes (`RowIndex`), so that the drawing pass takes
/// the values of the common row without the JSON reader (P1: each value is found once).
///
/// A row `JSONReader.readFlatLine` read (an object of scalars on one line) is noted as its lead
/// (the bytes from where the drawing pass's reader stands after the previous row, or the piece's
/// start, to its `{`), `members << 1 | scattered`, its length (from `{` to just past `}`), then
/// each member, each a LEB128 number:
/// - in order (member `k` has the piece's column `k` and starts after member `k - 1` ends): the
///   bytes from where the member before it ends (the `{` for the first) to where it starts;
/// - scattered (keys in another order, or a column missing between two): its column, then the
///   bytes from the `{` to where it starts;
/// then its length times four, + 2 for a string, + 1 when it has escapes to decode.
///
/// A string's place is its text between the quotes (one-letter escapes are all `readFlatLine`
/// reads; they are decoded in place); a number's, `true`'s and `false`'s is as written; `null`'s is
/// empty, where its `n` is. Any other row (one the byte machine read: nested values, a key first
/// seen, `\u` escapes, a value over lines, a row across the stream's buffer) is noted as the bytes
/// from the cursor to where the reader stood before reading it, and 0: the drawing pass has the
/// reader read it again, from there, as the sizing pass did.
extension RowIndex {
    /// Notes the row `readFlatLine` just read: its values are the cells of `slots` marked `stamp`,
    /// at offsets of `buffer` (the stream's), whose `{` is at `rowAt`; the row is bytes
    /// `rawStart..<rawEnd` of the stream. `before`: where the reader stood before reading it.
    /// - Complexity: O(columns of the piece).
    mutating func addFlatRow(_ slots: UnsafeBufferPointer<JSONReader.Slot>, stamp: Int, buffer: UnsafePointer<UInt8>, rowAt: Int,
                             rawStart: Int, rawEnd: Int, before: Int) {
        let length = rawEnd &- rawStart
        guard let lead = lead(to: rawStart) else { return }
        if length <= Self.longestRow
            && addFlatMembers(slots, stamp: stamp, buffer: buffer, rowAt: rowAt, lead: lead, length: length, rawEnd: rawEnd) {
            return
        }
        readAgain(from: before, next: rawEnd)
    }

    /// Notes a row the reader is to read again, from `before` (where it stood before reading it in
    /// the sizing pass); it then stands at `next`.
    package mutating func readAgain(from before: Int, next: Int) {
        guard let lead = lead(to: before) else { return }
        readAgain(lead: lead, next: next)
    }

    /// The members' places, as the type's comment says. False, noting nothing, for a row with no
    /// member (`{}` is the machine's anyway).
    private mutating func addFlatMembers(_ slots: UnsafeBufferPointer<JSONReader.Slot>, stamp: Int, buffer: UnsafePointer<UInt8>, rowAt: Int,
                                         lead: Int, length: Int, rawEnd: Int) -> Bool {
        let slot = slots.baseAddress.unsafelyUnwrapped, columns = slots.count
        var members = 0
        var inOrder = true
        var lastEnd = rowAt
        for column in 0..<columns where slot[column].stamp == stamp {
            inOrder = inOrder && column == members && slot[column].start >= lastEnd
            lastEnd = slot[column].end
            members &+= 1
        }
        guard members > 0 else { return false }
        // At most ten bytes a number: three a member, and the count and the length.
        return add(lead: lead, atMost: 10 &* (3 &* members &+ 2), rawEnd: rawEnd) { out -> Int? in
            var n = Self.put(members << 1 | (inOrder ? 0 : 1), at: out)
            n &+= Self.put(length, at: out + n)
            var last = rowAt
            for column in 0..<columns where slot[column].stamp == stamp {
                let start = slot[column].start, end = slot[column].end
                if inOrder {
                    n &+= Self.put(start &- last, at: out + n)
                } else {
                    n &+= Self.put(column, at: out + n)
                    n &+= Self.put(start &- rowAt, at: out + n)
                }
                last = end
                // A string's text follows its opening quote; any other value, `:` or a blank.
                let code = (end &- start) << 2 | (buffer[start &- 1] == 0x22 ? 2 : 0) | (slot[column].escaped ? 1 : 0)
                n &+= Self.put(code, at: out + n)
            }
            return n
        }
    }
}

extension RowIndex.Reader {
    /// The next JSON Lines row by the notes (`RowIndex+JSON.swift`): its values in place in the
    /// stream's buffer, escapes decoded there; or that the reader is to read it.
    /// - Throws: `file changed while reading` when the bytes are not where the sizing pass saw them.
    /// - Complexity: O(columns), plus O(bytes of the values with escapes).
    mutating func nextJSON(from stream: InputStream, notes: UnsafePointer<UInt8>) throws(InputError) -> RowIndex.Step {
        var at = at
        defer { self.at = at }
        // Offsets count from the stream's next unread byte, where the previous row ended.
        let rowStart = Self.number(notes, &at)
        let head = Self.number(notes, &at)
        if head == 0 { return try readAgain(stream, lead: rowStart) }
        var available = stream.end &- stream.pos
        let members = head >> 1
        let rowEnd = rowStart &+ Self.number(notes, &at)
        guard members <= columns, rowEnd > rowStart else { throw changed }
        if available < rowEnd {
            available = try Self.more(stream, atLeast: rowEnd)
            guard rowEnd <= available else { throw changed }
        }
        let base = stream.storage + stream.pos
        guard base[rowStart] == UInt8(ascii: "{"), base[rowEnd &- 1] == UInt8(ascii: "}") else { throw changed }
        let starts = starts, ends = ends, columns = columns
        let scattered = head & 1 != 0
        if !scattered && mapsInOrder {
            // Where the value before ends as written (its escapes not yet decoded).
            var last = rowStart
            for i in 0..<members {
                let start = last &+ Self.number(notes, &at)
                let code = Self.number(notes, &at)
                last = start &+ code >> 2
                starts[i] = start
                ends[i] = try Self.value(at: start, code, in: base, before: rowEnd, sourceName: sourceName)
            }
            // The columns after the last member are empty in this row.
            var i = members
            while i < columns {
                starts[i] = 0
                ends[i] = 0
                i &+= 1
            }
        } else {
            for i in 0..<columns {
                starts[i] = 0
                ends[i] = 0
            }
            // Each member's column in the piece, then in the table.
            let map = columnMap ?? []
            var last = rowStart
            for k in 0..<members {
                let column = scattered ? Self.number(notes, &at) : k
                let start = scattered ? rowStart &+ Self.number(notes, &at) : last &+ Self.number(notes, &at)
                let code = Self.number(notes, &at)
                last = start &+ code >> 2
                guard column < map.count, case let i = map[column], i < columns else { throw changed }
                starts[i] = start
                ends[i] = try Self.value(at: start, code, in: base, before: rowEnd, sourceName: sourceName)
            }
        }
        stream.pos &+= rowEnd
        return .fields(Fields(base: UnsafePointer(base), starts: starts, ends: ends, count: columns))
    }

    /// Checks the value noted as `code` at `start` (of a row ending at `end`): a string's text
    /// between quotes, any other value after `:` or a blank and followed by what ends a value; a
    /// string's escapes are decoded in place.
    /// - Returns: where the value, decoded, ends.
    @inline(__always)
    private static func value(at start: Int, _ code: Int, in base: UnsafeMutablePointer<UInt8>, before end: Int,
                              sourceName: String) throws(InputError) -> Int {
        let valueEnd = start &+ code >> 2
        guard valueEnd < end else { throw changed(sourceName) }
        let before = base[start &- 1], after = base[valueEnd]
        if code & 2 != 0 {
            guard before == 0x22, after == 0x22 else { throw changed(sourceName) }
            if code & 1 == 0 { return valueEnd }
            // Text that is no longer string text (the file changed since it was sized) is not decoded.
            guard let decoded = JSONReader.unescape(UnsafePointer(base + start), count: valueEnd &- start, into: base + start) else { throw changed(sourceName) }
            return start &+ decoded
        }
        // `null`'s place is empty, at its `n`.
        guard before == 0x3A || before == 0x20 || before == 0x09,
              valueEnd == start || after == 0x2C || after == 0x7D || after == 0x20 || after == 0x09 else { throw changed(sourceName) }
        return valueEnd
    }
}
