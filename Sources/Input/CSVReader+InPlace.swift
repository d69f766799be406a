import Text

/// Rows read in place in the stream's buffer, for the sizing pass of a file read in pieces (P1):
/// each field is found where it lies, and its bytes are not copied into a `Record`.
extension CSVReader {
    /// Reads the next row in place, as `read(into:)` would read it, when it lies whole in the
    /// buffered bytes, ends with a line break, and has nothing but plain and quoted fields: no
    /// line break inside quotes, no bytes after a closing quote, no TSV backslash. A quoted
    /// field's `""` is decoded in place, once the row is known to be taken.
    /// - Returns: false, having read and changed nothing, for any other row (a blank line, one
    ///   longer than `maxRowBytes`, one that runs past the buffered bytes): `read(into:)` reads it.
    /// - Complexity: O(bytes of the row); no allocation once `row`'s buffers have grown.
    mutating func readInPlace(into row: inout InPlaceRow) -> Bool {
        // CSV's dialect gets a copy of its own, its flags constants: two tests fewer on every word
        // and field, and registers to spare (335.1 M → 331.8 M instructions on the 100k-row CSV).
        if dialect.quoting && !dialect.backslashEscapes { return readInPlace(into: &row, CSVFlags()) }
        return readInPlace(into: &row, dialect)
    }

    /// `readInPlace` for a dialect whose quoting and backslash escapes `flags` gives.
    @inline(__always)
    private mutating func readInPlace<F: InPlaceFlags>(into row: inout InPlaceRow, _ flags: F) -> Bool {
        guard state == .fieldStart || state == .afterCR else { return false }
        let buffer = stream.storage
        let end = stream.end
        var p = stream.pos
        guard p < end else { return false }
        // An LF after the CR that ended the row before belongs to it.
        let afterLF = state == .afterCR && buffer[p] == 0x0A
        if afterLF { p &+= 1 }
        let rowStart = p
        // A blank line: the machine skips it (or keeps it as one empty field).
        guard p < end, buffer[p] != 0x0A, buffer[p] != 0x0D else { return false }
        row.paired.removeAll(keepingCapacity: true)
        var shape = RowIndex.Shape()
        let delimiter = dialect.delimiter, quoting = flags.quoting, backslashes = flags.backslashEscapes
        var count = 0
        var starts = row.starts, ends = row.ends, capacity = row.capacity
        /// Holds the field `start..<stop`.
        @inline(__always) func put(_ start: Int, _ stop: Int) {
            if count == capacity {
                row.grow()
                (starts, ends, capacity) = (row.starts, row.ends, row.capacity)
            }
            starts[count] = start
            ends[count] = stop
            count &+= 1
        }
        row: while true {
            if quoting && buffer[p] == 0x22 {
                // `"`, the text (with any `""`), `"`, then a delimiter or a line break.
                var close = p &+ 1
                var pairs = false
                while true {
                    SWAR.skip(buffer, &close, end, to: SWAR.quote, below: SWAR.belowLineBreaks, stops: quotedStops) { _ in 0 }
                    guard close &+ 1 < end, buffer[close] == 0x22 else { return false }
                    guard buffer[close &+ 1] == 0x22 else { break }
                    Self.notePair(count, in: &shape)
                    pairs = true
                    close &+= 2
                }
                if pairs { row.paired.append(count) }
                let b = buffer[close &+ 1]
                guard b == delimiter || b == 0x0A || b == 0x0D else { return false }
                Self.noteQuoted(count, in: &shape)
                put(p &+ 1, close)
                p = close &+ 1
                if b != delimiter { break row }
                p &+= 1
                guard p < end else { return false }
                continue row
            }
            // Unquoted fields one after another, eight bytes at a time; every field that ends in
            // a word taken from one load. (A byte after a hit may be marked too: it is data.) The
            // word test is `scan`'s, written again here: one inlined helper for both took 3.7 M
            // more instructions on the 100k-row CSV (callgrind, both tried 2026-11-27).
            var fieldStart = p
            while p &+ 8 <= end {
                let word = UnsafeRawPointer(buffer + p).loadUnaligned(as: UInt64.self)
                var hits = SWAR.matches(word, delimiterPattern) | SWAR.lessThan(word, SWAR.belowLineBreaks)
                if backslashes { hits |= SWAR.matches(word, backslashPattern) }
                while hits != 0 {
                    let q = p &+ hits.trailingZeroBitCount >> 3
                    hits &= hits &- 1
                    let b = buffer[q]
                    if b == delimiter {
                        put(fieldStart, q)
                        fieldStart = q &+ 1
                        guard fieldStart < end else { return false }
                        if quoting && buffer[fieldStart] == 0x22 {
                            p = fieldStart
                            continue row
                        }
                    } else if b == 0x0A || b == 0x0D {
                        put(fieldStart, q)
                        p = q
                        break row
                    } else if b == 0x5C && backslashes {
                        return false
                    }
                }
                p &+= 8
            }
            // The last bytes, one at a time.
            while p < end {
                let b = buffer[p]
                if b == delimiter {
                    put(fieldStart, p)
                    p &+= 1
                    guard p < end else { return false }
                    if quoting && buffer[p] == 0x22 { continue row }
                    fieldStart = p
                } else if b == 0x0A || b == 0x0D {
                    put(fieldStart, p)
                    break row
                } else if b == 0x5C && backslashes {
                    return false
                } else {
                    p &+= 1
                }
            }
            return false
        }
        // `p` is at the line break that ended the row (the byte that ended each field is not kept
        // in a variable through the loop: one register more for the scan).
        let lineBreak = buffer[p]
        let rawBase = stream.base(of: 0)
        shape.rawStart = rawBase &+ rowStart
        shape.rawEnd = rawBase &+ p
        guard shape.rawEnd &- shape.rawStart &+ Record.fieldCost &* count <= maxRowBytes else { return false }
        // Taken: the machine moves on as `read(into:)` would have left it.
        p &+= 1
        if afterLF { lineStart = stream.base(of: rowStart) }
        row.line = line
        row.hold(count)
        row.buffer = UnsafePointer(buffer)
        self.shape = shape
        quotedCR = false
        newLine(at: p)
        state = lineBreak == 0x0A ? .fieldStart : .afterCR
        stream.pos = p
        if !row.paired.isEmpty { decodePairs(row, in: buffer) }
        return true
    }

    /// Decodes each `""` of the row's quoted fields that have one (`row.paired`) in place, moving
    /// the rest of the field's bytes back over it, and ends the field there. (Out of line: inlined,
    /// it made the field loop of `readInPlace` 6 M instructions longer on the 100k-row CSV.)
    @inline(never)
    private func decodePairs(_ row: borrowing InPlaceRow, in buffer: UnsafeMutablePointer<UInt8>) {
        let starts = row.starts, ends = row.ends
        for i in row.paired {
            // Inside a quoted field the scan took, every quote is the first of a pair (it paired
            // them from the left, as `collapsePairs` does): anything else is a fault of this code.
            guard let end = Self.collapsePairs(buffer, from: starts[i], to: ends[i]) else {
                preconditionFailure("a quoted field taken in place holds a lone quote")
            }
            ends[i] = end
        }
    }

    /// Reads each `""` in quoted text `bytes[from..<to]` as one `"`, in place, a byte at a time
    /// (eight bytes at a time took 0.7 M more instructions on the 100k-row CSV, whose quoted texts
    /// with `""` are 15–70 bytes; a long one is taken a byte at a time too). The one decoder of
    /// `""` in place, for both passes over a file's pieces (`readInPlace`; `RowIndex.Reader`).
    /// - Returns: where the text now ends; nil, the text partly moved, when a quote in it is not
    ///   the first of a pair.
    static func collapsePairs(_ bytes: UnsafeMutablePointer<UInt8>, from: Int, to: Int) -> Int? {
        var read = from
        var write = from
        while read < to {
            let byte = bytes[read]
            bytes[write] = byte
            write &+= 1
            if byte == 0x22 {
                guard read &+ 1 < to, bytes[read &+ 1] == 0x22 else { return nil }
                read &+= 2
            } else {
                read &+= 1
            }
        }
        return write
    }
}

/// How a dialect reads fields, for `readInPlace`: a generic parameter, so that a dialect whose
/// flags are constants (`CSVFlags`) has code of its own. (Flags passed as `Bool` arguments to one
/// function were not: it stayed one function, 9.6 M instructions longer, tried 2026-11-27.)
protocol InPlaceFlags {
    /// Fields may be quoted (`Dialect.quoting`).
    var quoting: Bool { get }
    /// A backslash escapes the byte after it (`Dialect.backslashEscapes`).
    var backslashEscapes: Bool { get }
}

/// CSV's: quoted fields, no backslash escapes.
struct CSVFlags: InPlaceFlags {
    package var quoting: Bool { true }
    package var backslashEscapes: Bool { false }
}

/// Any other dialect's, read from it at run time.
extension Dialect: InPlaceFlags {}
