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
            if b == 0x0A {
                let next = bufferBase &+ p
                if next &- 1 != afterCR { line &+= 1 }
                lineStart = next
            } else if b == 0x0D {
                line &+= 1
                lineStart = bufferBase &+ p
                afterCR = lineStart
            }
        }
        stream.pos = p
        guard p < end, buffer[p] == UInt8(ascii: "{"), state == .value || line != lastValueLine else { return false }
        let stamp = rowStamp &+ 1
        guard let read = flatMembers(buffer, from: p &+ 1, end: end, stamp: stamp) else {
            // The stamp written into the table and the slots is not used again.
            rowStamp = stamp
            return false
        }
        let held = read.valueBytes &+ read.keyBytes &+ (read.lastText.upperBound &- read.lastText.lowerBound) &+ compact.count &+ joined.count
            &+ Record.fieldCost &* read.cells
        guard held <= maxRowBytes else {
            rowStamp = stamp
            return false
        }
        // What `startRow`, the members and `valueCompleted` would have left.
        rowStamp = stamp
        rowBytes.removeAll()
        flatRowBytes = read.valueBytes
        rowLine = line
        rowCells = read.cells
        rowKeyBytes = read.keyBytes
        currentNode = read.lastNode
        text.removeAll()
        text.append(UnsafeBufferPointer(start: buffer + read.lastText.lowerBound, count: read.lastText.upperBound &- read.lastText.lowerBound))
        state = .afterValue
        topValues &+= 1
        lastValueLine = line
        stream.pos = read.end
        emitFlat(from: buffer, into: &record)
        return true
    }

    /// What `flatMembers` read: where the row ends, and the counts `heldBytes` takes.
    struct FlatRow {
        var end: Int
        var cells: Int
        var valueBytes: Int
        var keyBytes: Int
        /// The last key, string or number read (what `text` would hold after the machine).
        var lastText: Range<Int>
        var lastNode: Int
    }

    /// Reads the members after `{` at `from`, noting each value's place in `slots` (as offsets in
    /// `buffer`) with `stamp`. Nil at anything the machine is to read.
    private mutating func flatMembers(_ buffer: UnsafeMutablePointer<UInt8>, from: Int, end: Int, stamp: Int) -> FlatRow? {
        var p = from
        var row = FlatRow(end: 0, cells: 0, valueBytes: 0, keyBytes: 0, lastText: 0..<0, lastNode: -1)
        while true {
            Self.skipBlanks(buffer, &p, end)
            guard p < end, buffer[p] == 0x22 else { return nil }  // `{}` too is the machine's
            p &+= 1
            let keyStart = p
            guard Self.stringEnd(buffer, &p, end) else { return nil }
            let key = UnsafeBufferPointer(start: buffer + keyStart, count: p &- keyStart)
            p &+= 1
            let node = table.node(parent: -1, key: key)
            let column = table.nodeColumn[node]
            guard column >= 0, table.stamps[node] != stamp else { return nil }
            table.stamps[node] = stamp
            row.keyBytes &+= key.count
            row.lastText = keyStart..<(keyStart &+ key.count)
            row.lastNode = node
            Self.skipBlanks(buffer, &p, end)
            guard p < end, buffer[p] == UInt8(ascii: ":") else { return nil }
            p &+= 1
            Self.skipBlanks(buffer, &p, end)
            guard p < end else { return nil }
            var start = p
            let first = buffer[p]
            if first == 0x22 {
                p &+= 1
                start = p
                guard Self.stringEnd(buffer, &p, end) else { return nil }
                row.lastText = start..<p
                slots[column] = Slot(start: start, end: p, stamp: stamp, node: node)
                p &+= 1
            } else if first == UInt8(ascii: "-") || Self.isDigit(first) {
                guard Self.numberEnd(buffer, &p, end) else { return nil }
                row.lastText = start..<p
                slots[column] = Slot(start: start, end: p, stamp: stamp, node: node)
            } else {
                guard let word = Self.literalWord(buffer, at: p, end) else { return nil }
                p &+= word.utf8CodeUnitCount
                // `null` is an empty cell.
                slots[column] = Slot(start: start, end: first == UInt8(ascii: "n") ? start : p, stamp: stamp, node: node)
            }
            row.cells &+= 1
            row.valueBytes &+= slots[column].end &- slots[column].start
            Self.skipBlanks(buffer, &p, end)
            guard p < end else { return nil }
            if buffer[p] == UInt8(ascii: "}") {
                row.end = p &+ 1
                return row
            }
            guard buffer[p] == UInt8(ascii: ",") else { return nil }
            p &+= 1
        }
    }

    /// Fills `record` with the row read by `flatMembers`: one field per known column, in column
    /// order, from the stream's buffer.
    private mutating func emitFlat(from buffer: UnsafeMutablePointer<UInt8>, into record: inout Record) {
        record.line = rowLine
        record.clearForReading()
        let stamp = rowStamp
        slots.withUnsafeBufferPointer { slots in
            for slot in slots {
                if slot.stamp == stamp && slot.end > slot.start {
                    record.bytes.appendAssumingUnique(contentsOf: UnsafeBufferPointer(start: buffer + slot.start, count: slot.end &- slot.start))
                }
                record.endFieldAssumingUnique()
            }
        }
    }

    /// Moves `p` past spaces and tabs (a line break inside a row is the machine's).
    @inline(__always)
    private static func skipBlanks(_ buffer: UnsafeMutablePointer<UInt8>, _ p: inout Int, _ end: Int) {
        while p < end && (buffer[p] == 0x20 || buffer[p] == 0x09) { p &+= 1 }
    }

    /// Moves `p` from a string's first byte to its closing quote. False at a backslash, a control
    /// character or the end of the buffered bytes.
    @inline(__always)
    private static func stringEnd(_ buffer: UnsafeMutablePointer<UInt8>, _ p: inout Int, _ end: Int) -> Bool {
        SWAR.skip(buffer, &p, end, to: SWAR.quote, below: 0x20, stops: stringStops) { SWAR.matches($0, SWAR.backslash) }
        return p < end && buffer[p] == 0x22
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
