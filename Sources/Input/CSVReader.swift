import Text

/// How a delimited file is written.
package struct Dialect: Sendable, Equatable {
    /// The byte between fields.
    package var delimiter: UInt8
    /// Whether `"` quotes a field (RFC 4180).
    package var quoting: Bool
    /// Whether `\t \n \r \\` are decoded in unquoted fields (TSV from databases, I3).
    package var backslashEscapes: Bool
    /// Whether lines with nothing on them are skipped (tablefmt's default; the FastCSV spec's
    /// default keeps them as one empty field).
    package var skipBlankLines: Bool

    package init(delimiter: UInt8 = UInt8(ascii: ","), quoting: Bool = true, backslashEscapes: Bool = false, skipBlankLines: Bool = true) {
        self.delimiter = delimiter
        self.quoting = quoting
        self.backslashEscapes = backslashEscapes
        self.skipBlankLines = skipBlankLines
    }

    /// RFC 4180 CSV with the given delimiter.
    package static func csv(_ delimiter: UInt8 = UInt8(ascii: ",")) -> Dialect { Dialect(delimiter: delimiter) }
    /// Tab-separated values: quotes as spreadsheets write them, backslash escapes as databases do.
    package static let tsv = Dialect(delimiter: UInt8(ascii: "\t"), quoting: true, backslashEscapes: true)
}

/// Reads CSV or TSV records from an `InputStream`: a resumable byte-level state machine.
///
/// Each call to `read(into:)` fills one record. The state survives across buffer refills, so a
/// record may span any number of chunks; field bytes are copied into the record in runs.
package struct CSVReader {
    /// Where the machine is between two bytes.
    package enum State: UInt8 {
        /// At the start of a field: a quote here opens a quoted field.
        case fieldStart
        /// Inside an unquoted field.
        case unquoted
        /// Inside a quoted field.
        case quoted
        /// Just after a quote inside a quoted field: `""` or the closing quote.
        case quoteInQuoted
        /// Just after a backslash in an unquoted TSV field.
        case escape
        /// Just after a CR that ended a record: an LF here belongs to it.
        case afterCR
    }

    package let dialect: Dialect
    /// The input's name for error messages.
    package let sourceName: String
    package let stream: InputStream
    package var state: State = .fieldStart
    /// Current line (1-based) and the stream offset where it starts, for positions.
    package var line = 1
    package var lineStart = 0
    /// Where the open quoted field started.
    var quoteStart = SourcePosition(line: 0, column: 0)
    /// A CR inside a quoted field was just seen (so a following LF is the same line break).
    var quotedCR = false
    /// The record being built used quotes (so an empty line `""` is not blank).
    var recordQuoted = false
    /// Bytes that interrupt a run in each state.
    let unquotedStops: [Bool]
    let quotedStops: [Bool]
    /// The same as eight-byte patterns, for scanning a word at a time.
    let delimiterPattern: UInt64
    let backslashPattern: UInt64

    /// The most bytes a row may take in the input, its line break not counted and each field
    /// counted `Record.fieldCost` more (`--max-row-size`, E5): checked when the row ends, and each
    /// time the buffer is read to its end, so a longer row is never held past the limit by more
    /// than a chunk.
    package var maxRowBytes = Int.max

    /// Where the record just read lies in the stream and how its fields are written, for the
    /// sizing pass to note a file's rows (`RowIndex`). (Set by `readInPlace` too.)
    package var shape = RowIndex.Shape()

    package init(stream: InputStream, dialect: Dialect, sourceName: String = "<stdin>") {
        self.stream = stream
        self.dialect = dialect
        self.sourceName = sourceName
        var stops = [Bool](repeating: false, count: 256)
        stops[Int(dialect.delimiter)] = true
        stops[0x0A] = true
        stops[0x0D] = true
        if dialect.backslashEscapes { stops[Int(UInt8(ascii: "\\"))] = true }
        unquotedStops = stops
        var quoted = [Bool](repeating: false, count: 256)
        quoted[0x22] = true
        quoted[0x0A] = true
        quoted[0x0D] = true
        quotedStops = quoted
        delimiterPattern = UInt64(dialect.delimiter) &* SWAR.ones
        backslashPattern = UInt64(UInt8(ascii: "\\")) &* SWAR.ones
    }

    /// The position of the next unread byte.
    package var position: SourcePosition { SourcePosition(line: line, column: stream.offset - lineStart + 1) }

    /// Reads the next record.
    /// - Returns: false at the end of the input (and `record` is then empty).
    /// - Throws: `InputError` for an unterminated quoted field or a failed read.
    /// - Complexity: O(bytes of the record), amortized; no allocation once buffers have grown.
    package mutating func read(into record: inout Record) throws(InputError) -> Bool {
        record.clearForReading()
        recordQuoted = false
        record.line = line
        startRaw()
        while true {
            if stream.pos == stream.end {
                if stream.offset &- shape.rawStart &+ Record.fieldCost &* record.count > maxRowBytes { throw rowTooLong(record) }
                if try !stream.refill() {
                    guard try finish(&record) else { return false }
                    if shape.rawEnd &- shape.rawStart &+ Record.fieldCost &* record.count > maxRowBytes { throw rowTooLong(record) }
                    return true
                }
            }
            if scan(&record) {
                if shape.rawEnd &- shape.rawStart &+ Record.fieldCost &* record.count > maxRowBytes { throw rowTooLong(record) }
                if dialect.skipBlankLines && !recordQuoted && record.count == 1 && record.bytes.isEmpty {
                    record.clearForReading()
                    record.line = line
                    startRaw()
                    continue
                }
                return true
            }
        }
    }

    /// The error for the row being read into `record`, longer than `maxRowBytes`.
    private func rowTooLong(_ record: Record) -> InputError {
        InputError.rowTooLong(limit: maxRowBytes, line: record.line, source: sourceName)
    }

    /// Notes the record just read into `record` in `index` (before the table pads it).
    package mutating func note(_ record: Record, in index: inout RowIndex) {
        index.add(record, shape, next: stream.offset)
    }

    /// The stream stands at a row's first byte (the drawing pass moved it there).
    package mutating func restartAtRow() { state = .fieldStart }

    /// Starts noting where a record lies, at the next unread byte.
    @inline(__always)
    private mutating func startRaw() {
        shape = RowIndex.Shape(rawStart: stream.offset)
    }

    /// Notes that field `index` (the one being built) is quoted.
    @inline(__always)
    static func noteQuoted(_ index: Int, in shape: inout RowIndex.Shape) {
        if index < 64 { shape.quoted |= 1 << UInt64(index) } else { shape.irregular = true }
    }

    /// Notes a `""` in quoted field `index` (the one being built).
    static func notePair(_ index: Int, in shape: inout RowIndex.Shape) {
        let field: UInt64 = index < 64 ? 1 << UInt64(index) : 0
        if field == 0 || (shape.pairField != 0 && shape.pairField != field) { shape.irregular = true }
        shape.pairField = field
        shape.pairs &+= 1
    }

    /// Runs the machine over the buffered bytes.
    /// - Returns: true when a record ended (the stream is left just past its line break).
    package mutating func scan(_ record: inout Record) -> Bool {
        let buffer = stream.storage
        var p = stream.pos
        let end = stream.end
        let delimiter = dialect.delimiter
        let backslashes = dialect.backslashEscapes
        // Where buffer index 0 is in the stream (`base(of:)`), found once.
        let rawBase = stream.base(of: 0)
        defer { stream.pos = p }
        while p < end {
            switch state {
            case .afterCR:
                state = .fieldStart
                if buffer[p] == 0x0A {
                    p &+= 1
                    lineStart = stream.base(of: p)
                }
                record.line = line
                shape.rawStart = rawBase &+ p
            case .fieldStart:
                if buffer[p] == 0x22 && dialect.quoting {
                    quoteStart = SourcePosition(line: line, column: stream.base(of: p) - lineStart + 1)
                    recordQuoted = true
                    Self.noteQuoted(record.count, in: &shape)
                    state = .quoted
                    p &+= 1
                } else {
                    state = .unquoted
                }
            case .unquoted:
                // The common path: unquoted fields one after another, without going back through
                // the state switch between them.
                fields: while true {
                    var runStart = p
                    // Eight bytes at a time, every field that ends in the word taken from one load.
                    while p &+ 8 <= end {
                        let word = UnsafeRawPointer(buffer + p).loadUnaligned(as: UInt64.self)
                        // The approximate tests: a byte after a hit may be marked too, and is then
                        // looked at and passed over as data.
                        var hits = SWAR.matches(word, delimiterPattern) | SWAR.lessThan(word, SWAR.belowLineBreaks)
                        if backslashes { hits |= SWAR.matches(word, backslashPattern) }
                        while hits != 0 {
                            let q = p &+ hits.trailingZeroBitCount >> 3
                            hits &= hits &- 1
                            let b = buffer[q]
                            if b == delimiter {
                                if q > runStart { record.bytes.appendAssumingUnique(contentsOf: UnsafeBufferPointer(start: buffer + runStart, count: q &- runStart)) }
                                record.endFieldAssumingUnique()
                                runStart = q &+ 1
                                if runStart == end || (buffer[runStart] == 0x22 && dialect.quoting) {
                                    p = runStart
                                    // Quoted fields as most are written are taken here, without
                                    // going through the machine's states; any other is left to it.
                                    while p < end && buffer[p] == 0x22 && dialect.quoting && takePlainQuotedField(&record, buffer, &p, end) {}
                                    if p < end && (buffer[p] != 0x22 || !dialect.quoting) { continue fields }
                                    state = .fieldStart
                                    break fields
                                }
                            } else if b == 0x0A || b == 0x0D || (b == 0x5C && backslashes) {
                                if q > runStart { record.bytes.appendAssumingUnique(contentsOf: UnsafeBufferPointer(start: buffer + runStart, count: q &- runStart)) }
                                p = q &+ 1
                                if b == 0x5C {
                                    state = .escape
                                    break fields
                                }
                                record.endFieldAssumingUnique()
                                shape.rawEnd = rawBase &+ q
                                newLine(at: p)
                                state = b == 0x0A ? .fieldStart : .afterCR
                                return true
                            }
                            // Any other control is data.
                        }
                        p &+= 8
                    }
                    // The last bytes: to the first delimiter, line break or backslash (TSV).
                    SWAR.skip(buffer, &p, end, to: delimiterPattern, below: SWAR.belowLineBreaks, stops: unquotedStops) { backslashes ? SWAR.matches($0, backslashPattern) : 0 }
                    if p > runStart { record.bytes.appendAssumingUnique(contentsOf: UnsafeBufferPointer(start: buffer + runStart, count: p &- runStart)) }
                    if p == end { return false }
                    let b = buffer[p]
                    p &+= 1
                    if b == delimiter {
                        record.endFieldAssumingUnique()
                        // Another unquoted field follows: stay in this loop.
                        if p < end && (buffer[p] != 0x22 || !dialect.quoting) { continue fields }
                        state = .fieldStart
                    } else if b == 0x0A {
                        record.endFieldAssumingUnique()
                        shape.rawEnd = rawBase &+ p &- 1
                        newLine(at: p)
                        state = .fieldStart
                        return true
                    } else if b == 0x0D {
                        record.endFieldAssumingUnique()
                        shape.rawEnd = rawBase &+ p &- 1
                        newLine(at: p)
                        state = .afterCR
                        return true
                    } else {  // backslash
                        state = .escape
                    }
                    break fields
                }
            case .escape:
                shape.irregular = true
                let b = buffer[p]
                p &+= 1
                switch b {
                case UInt8(ascii: "t"): record.bytes.appendAssumingUnique(0x09)
                case UInt8(ascii: "n"): record.bytes.appendAssumingUnique(0x0A)
                case UInt8(ascii: "r"): record.bytes.appendAssumingUnique(0x0D)
                case UInt8(ascii: "\\"): record.bytes.appendAssumingUnique(0x5C)
                default:
                    // Not an escape we decode: keep the backslash, and look at the byte again.
                    record.bytes.appendAssumingUnique(0x5C)
                    p &-= 1
                }
                state = .unquoted
            case .quoted:
                let runStart = p
                // To the first quote or line break.
                SWAR.skip(buffer, &p, end, to: SWAR.quote, below: SWAR.belowLineBreaks, stops: quotedStops) { _ in 0 }
                if p > runStart {
                    record.bytes.appendAssumingUnique(contentsOf: UnsafeBufferPointer(start: buffer + runStart, count: p &- runStart))
                    quotedCR = false
                }
                if p == end { return false }
                let b = buffer[p]
                p &+= 1
                if b == 0x22 {
                    state = .quoteInQuoted
                } else {
                    record.bytes.appendAssumingUnique(b)
                    if b == 0x0D || !quotedCR { newLine(at: p) } else { lineStart = stream.base(of: p) }
                    quotedCR = b == 0x0D
                }
            case .quoteInQuoted:
                if buffer[p] == 0x22 {
                    Self.notePair(record.count, in: &shape)
                    record.bytes.appendAssumingUnique(0x22)
                    p &+= 1
                    state = .quoted
                } else {
                    // The closing quote. Anything before the next delimiter is kept as written.
                    let b = buffer[p]
                    if b != dialect.delimiter && b != 0x0A && b != 0x0D { shape.irregular = true }
                    // A continuation byte right after it joins the text before the quote: the bytes
                    // as written are not UTF-8 (a continuation byte after `"`) where the field's
                    // may be. A stream that does not check UTF-8 (a piece whose cells are checked
                    // instead, `ColumnProfile.checksUTF8`) counts it replaced: the piece is given up.
                    if b & 0xC0 == 0x80 && stream.trustValidUTF8 { stream.noteReplacement(at: p) }
                    state = .unquoted
                }
                quotedCR = false
            }
        }
        return false
    }

    /// A quoted field as most are written: nothing inside it to decode or count (no `""`, no
    /// line break) and the delimiter right after its closing quote. At `p`, its opening quote:
    /// appends its bytes, ends the field, moves `p` past the delimiter and returns true. Any other
    /// field, or one that runs past the buffered bytes, is left as it is (false), for the machine.
    @inline(__always)
    mutating func takePlainQuotedField(_ record: inout Record, _ buffer: UnsafeMutablePointer<UInt8>, _ p: inout Int, _ end: Int) -> Bool {
        var close = p &+ 1
        SWAR.skip(buffer, &close, end, to: SWAR.quote, below: SWAR.belowLineBreaks, stops: quotedStops) { _ in 0 }
        guard close &+ 1 < end, buffer[close] == 0x22, buffer[close &+ 1] == dialect.delimiter else { return false }
        if close > p &+ 1 { record.bytes.appendAssumingUnique(contentsOf: UnsafeBufferPointer(start: buffer + (p &+ 1), count: close &- p &- 1)) }
        Self.noteQuoted(record.count, in: &shape)
        record.endFieldAssumingUnique()
        recordQuoted = true
        p = close &+ 2
        return true
    }

    mutating func newLine(at p: Int) {
        line &+= 1
        lineStart = stream.base(of: p)
    }

    /// Ends the input: closes the last record, or reports a quoted field left open.
    package mutating func finish(_ record: inout Record) throws(InputError) -> Bool {
        switch state {
        case .quoted:
            throw InputError(.malformed, "unterminated quoted field", at: quoteStart, source: sourceName)
        case .escape:
            shape.irregular = true
            record.bytes.appendAssumingUnique(0x5C)
            record.endFieldAssumingUnique()
        case .unquoted, .quoteInQuoted:
            record.endFieldAssumingUnique()
        case .fieldStart:
            if record.count == 0 { return false }
            record.endFieldAssumingUnique()  // after a final delimiter: one more, empty field
        case .afterCR:
            return false
        }
        state = .afterCR
        shape.rawEnd = stream.offset
        if dialect.skipBlankLines && !recordQuoted && record.count == 1 && record.bytes.isEmpty {
            record.clear()
            return false
        }
        return true
    }
}

extension InputStream {
    /// The stream offset of buffer index `index`.
    package func base(of index: Int) -> Int { offset &- pos &+ index }
}
