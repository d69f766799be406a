/// Reads rows from JSON or JSON Lines (I4): a strict RFC 8259 scanner that works byte by byte
/// over an `InputStream`, resumable at any chunk boundary, with an explicit nesting stack.
///
/// ## Shapes
/// - A top-level array is streamed element by element: each element is one row. Only one element
///   is held at a time, so memory is bounded by the largest element, never by the document.
/// - JSON Lines: one value per line (blank lines skipped), each value one row. Chosen by
///   `linesMode: true`, or in auto mode (`nil`) when, after the first complete top-level value,
///   another value starts after a line break. A value that follows on the *same* line (`[][]`,
///   `{"a":1}x`) is an error, "unexpected data after the JSON value". In auto mode a first
///   top-level array that fits on its line (up to `lookaheadLimit` bytes) and is followed by another
///   value on a later line is read as a JSON Lines row (`Column 1…N`); any other top-level array is
///   a document and is streamed. With `linesMode: false` a second top-level value is an error.
///   A JSON Lines value may span lines; values must be separated by a line break. (The lookahead
///   means a first one-line array's rows come only once its line and the next value's first byte,
///   or the end, have been read.)
/// - Row values: an object gives one row (nested objects flattened to dotted columns `a.b.c`); an
///   array gives one row with columns `Column 1…N`; a scalar gives one row in a column `Value`.
///   Mixed shapes union their columns.
///
/// ## Cells
/// - Strings fully unescaped; `\uXXXX` surrogate pairs combined; a lone surrogate becomes U+FFFD
///   and is counted in one warning. Numbers keep their source text exactly. `null` is an empty cell;
///   `true`/`false` stay as written.
/// - An array of scalars is joined with `, `: numbers, `true`, `false` and `null` as written, a
///   string as itself unless it would read as something else (empty, holding `,`, starting with
///   `"`, starting or ending with a space, or reading as a number, `true`, `false` or `null`),
///   then in JSON quotes: `["a, b"]` shows `"a, b"`, `["a","b"]` shows `a, b`. Any other nested
///   value (an array holding arrays or objects, `[]`, `{}`, an object inside an array row) becomes
///   compact JSON: no whitespace, numbers as written, strings re-escaped minimally.
/// - A duplicate key in one object: the last value wins, whole (cells the earlier value filled
///   under that key are cleared), and one warning counts such keys. A key containing `.` has a
///   column of its own, apart from a nested key of the same dotted path (`{"c":{"k":1},"c.k":2}`
///   has two columns named `c.k`; the headings tell them apart, C2).
///
/// ## Columns
/// Columns appear in first-seen order and `columnNames` grows as new keys appear; each record has a
/// field for every column known when it is returned, in column order (earlier records may be
/// shorter).
///
/// ## Errors
/// Malformed input throws `InputError(.malformed)` saying what was expected and what was found, at
/// the line and byte column of the offending byte. Nesting deeper than `maxDepth` is an error.
/// An input holding no value (empty or only whitespace) is an error unless `linesMode` is true.
///
/// A reader shares its stream and scratch buffers with any copy of it: use one copy only.
package struct JSONReader: RecordReader {
    /// The input's name for error messages and warnings.
    package let sourceName: String
    /// The deepest nesting of arrays and objects accepted.
    package let maxDepth: Int
    /// How far an auto-mode reader looks ahead through a first top-level array to decide between a
    /// document and JSON Lines.
    @inlinable package static var lookaheadLimit: Int { 1 << 20 }

    package let stream: InputStream
    /// The caller's choice: true JSON Lines, false one JSON value, nil decide from the input.
    package let linesMode: Bool?
    /// Whether top-level values are JSON Lines rows (decided, or switched on in auto mode).
    package var lines: Bool
    /// Whether the first top-level array still has to be looked at to choose the mode.
    var undecided: Bool

    // MARK: Scanner state (see JSONReader+Scanner.swift)

    package var state: State = .value
    /// Current line (1-based), the stream offset where it starts, and the offset just past the
    /// last CR (so the LF of a CRLF does not count twice).
    package var line = 1
    package var lineStart = 0
    package var afterCR = -1
    /// Open arrays and objects, innermost last. Never recursion: the depth is this array's count.
    var frames: [Frame] = []
    /// The stream offset of `stream.storage[0]` during a scan.
    var bufferBase = 0
    /// The string or number being scanned, decoded.
    var text = ByteScratch()
    /// Whether the string being scanned is an object key.
    var stringIsKey = false
    /// Where the open string started (for an unterminated-string message).
    var stringStart = SourcePosition(line: 0, column: 0)
    /// The `\uXXXX` escape being read: its value so far and how many hex digits were read.
    var escapeValue: UInt32 = 0
    var escapeDigits = 0
    /// A high surrogate waiting for its low half (0 when none).
    package var pendingHigh: UInt32 = 0
    /// The literal being matched and how many of its bytes matched.
    package var literal: Scalar = .null
    var literalIndex = 0
    /// Top-level values completed, and the line the last one ended on.
    var topValues = 0
    var lastValueLine = 0
    /// Set once the input ended or an error was thrown.
    package var finished = false

    // MARK: Row state (see JSONReader+Rows.swift)

    /// Column names and every key seen.
    var table = ColumnTable()
    /// The node the current member's value is written to.
    var currentNode = -1
    /// Cells of the row being built, in the order they came; `slots[column]` locates them.
    var rowBytes = ByteScratch()
    var slots: [Slot] = []
    var rowStamp = 0
    var rowLine = 0
    /// Cells the row being read has had so far, and the bytes of its keys.
    var rowCells = 0
    var rowKeyBytes = 0
    /// The keys of the last row `readFlatLine` read: rows repeat them.
    var flatKeys = FlatKeys()
    /// Whether `readFlatLine` may read rows (tests turn it off to compare with the machine alone),
    /// and how many it read.
    package var readsFlatLines = true
    package var flatRowsRead = 0
    /// Where, in the stream's buffer, the `{` of the last row `readFlatLine` read is.
    var flatRowAt = 0
    /// A row value has been completed and waits to be returned.
    var rowReady = false
    /// Index in `frames` of the outermost nested value being written as compact JSON, or -1.
    var capture = -1
    /// The node the captured value's cell goes to.
    var captureNode = -1
    /// Whether the captured array holds only scalars so far (so it is shown joined with `, `).
    var joinable = false
    var compact = ByteScratch()
    var joined = ByteScratch()
    /// Nodes of the column `Value` and of `Column 1…N`, made when first needed.
    var valueNode = -1
    var positionalNodes: [Int] = []

    // MARK: Warnings

    var loneSurrogates = 0
    var firstLoneSurrogateLine = 0
    /// Keys found a second time in one object, the first of them and its line.
    package var duplicateKeys = 0
    var firstDuplicateKey = ""
    var firstDuplicateLine = 0

    /// - Parameters:
    ///   - stream: the decoded input.
    ///   - linesMode: true for JSON Lines (`-i jsonl`), false for one JSON value (`-i json`), nil to
    ///     decide from the input.
    ///   - sourceName: the input's name in messages.
    ///   - maxDepth: the deepest nesting accepted; deeper input is an error.
    /// Input with no value at all (empty, or only white space) ends without rows instead of being
    /// an error: the tool's E4. Off for the parser on its own, which follows RFC 8259 (no empty
    /// document; JSONTestSuite's n_structure_no_data).
    package var blankIsEmpty = false

    /// The most bytes the row being read may hold (`--max-row-size`, E5): its cells, the string
    /// being scanned and nested values kept as JSON, checked each time the buffer is read to its end.
    package var maxRowBytes = Int.max

    /// The bytes the row being read holds so far, its keys' included, each of its cells counted
    /// `Record.fieldCost` more; checked at every refill and when the row ends.
    var heldBytes: Int { rowBytes.count &+ rowKeyBytes &+ text.count &+ compact.count &+ joined.count &+ Record.fieldCost &* rowCells }

    package init(stream: InputStream, linesMode: Bool?, sourceName: String, maxDepth: Int = 512) {
        self.stream = stream
        self.linesMode = linesMode
        self.lines = linesMode ?? false
        self.undecided = linesMode == nil
        self.sourceName = sourceName
        self.maxDepth = max(1, maxDepth)
    }

    /// The columns known so far, in first-seen order.
    package var columnNames: [String]? { table.names }
    /// Each column's keys from the line's object down (`["b", "c"]` for `b.c` read from a nested object).
    package func columnKeyPaths() -> [[String]] { table.columnKeyPaths() }

    /// One warning when lone surrogates were replaced, and one when an object repeated a key, each
    /// with the count and the first line.
    package var warnings: [String] {
        var out: [String] = []
        if loneSurrogates > 0 {
            let times = loneSurrogates == 1 ? "1 time" : "\(loneSurrogates) times"
            out.append("\(sourceName): lone UTF-16 surrogate in a \\u escape replaced with U+FFFD (\(times), first on line \(firstLoneSurrogateLine))")
        }
        if duplicateKeys > 0 {
            let times = duplicateKeys == 1 ? "1 time" : "\(duplicateKeys) times"
            out.append("\(sourceName): duplicate key \"\(firstDuplicateKey)\" in one object on line \(firstDuplicateLine): the last value is shown (\(times) in all)")
        }
        return out
    }

    /// Reads the next row.
    /// - Returns: false at the end of the input.
    /// - Throws: `InputError` with kind `.malformed` for input that is not JSON, or the stream's
    ///   error when reading fails. After an error the reader returns false.
    /// - Complexity: O(bytes of the row + columns); no allocation once buffers have grown, except
    ///   a `String` per new column.
    package mutating func read(into record: inout Record) throws(InputError) -> Bool {
        record.clear()
        guard !finished else { return false }
        while true {
            if readsFlatLines && mayReadFlatLine && readFlatLine(into: &record) { return true }
            if stream.pos == stream.end {
                if heldBytes > maxRowBytes {
                    finished = true
                    throw InputError.rowTooLong(limit: maxRowBytes, line: rowLine > 0 ? rowLine : line, source: sourceName)
                }
                let more: Bool
                do { more = try stream.refill() } catch { finished = true; throw error }
                if !more {
                    if try finishInput() {
                        if heldBytes > maxRowBytes {
                            finished = true
                            throw InputError.rowTooLong(limit: maxRowBytes, line: rowLine > 0 ? rowLine : line, source: sourceName)
                        }
                        emit(into: &record)
                        return true
                    }
                    finished = true
                    return false
                }
            }
            switch scan() {
            case .needMore:
                continue
            case .row:
                if heldBytes > maxRowBytes {
                    finished = true
                    throw InputError.rowTooLong(limit: maxRowBytes, line: rowLine > 0 ? rowLine : line, source: sourceName)
                }
                emit(into: &record)
                return true
            case .decide:
                let jsonLines: Bool
                do { jsonLines = try looksLikeJSONLines() } catch { finished = true; throw error }
                undecided = false
                lines = jsonLines
            case .fail(let failure):
                finished = true
                throw makeError(failure, atEnd: false)
            }
        }
    }

    /// Ends the input: completes a number that ran to the end, or reports what is missing.
    /// - Returns: true when a last row is ready.
    mutating func finishInput() throws(InputError) -> Bool {
        switch state {
        case .zero, .integer, .fraction, .exponent:
            scalarCompleted(.number)
            if rowReady { return true }
        default:
            break
        }
        if frames.isEmpty && state == .afterValue { return false }
        if frames.isEmpty && state == .value && topValues == 0 && (lines || blankIsEmpty) { return false }
        finished = true
        throw makeError(.expected, atEnd: true)
    }

    // MARK: - Errors

    /// The error for `failure` at the stream's position (the offending byte, or the end).
    func makeError(_ failure: Failure, atEnd: Bool) -> InputError {
        let position = SourcePosition(line: line, column: stream.offset - lineStart + 1)
        let found = atEnd ? "end of input" : describeNext()
        let message: String
        switch failure {
        case .expected:
            message = "expected \(expectation), found \(found)"
        case .leadingZero:
            message = "expected '.', 'e' or the end of the number after a leading '0' (numbers have no leading zeros), found \(found)"
        case .tooDeep:
            message = "expected at most \(maxDepth) levels of nested arrays and objects, found \(found) opening level \(maxDepth + 1)"
        case .trailingData:
            let expected = linesMode == false ? "end of input" : "a line break or end of input"
            message = "unexpected data after the JSON value: expected \(expected), found \(found)"
        case .controlCharacter:
            message = "expected a string character or '\"', found unescaped \(found) (control characters must be escaped in JSON strings)"
        }
        return InputError(.malformed, message, at: position, source: sourceName)
    }

    /// What the scanner expected in its current state, in words.
    var expectation: String {
        let top = frames.last
        switch state {
        case .value:
            guard let top else { return "a JSON value" }
            if top.role.isObject { return "a value after ':'" }
            return top.count == 0 ? "a value or ']'" : "a value after ','"
        case .key:
            return (top?.count ?? 0) == 0 ? "a string key or '}'" : "a string key after ','"
        case .colon:
            return "':' after an object key"
        case .afterValue:
            guard let top else { return "end of input" }
            return top.role.isObject ? "',' or '}' after an object member" : "',' or ']' after an array element"
        case .string:
            return "'\"' to close the string that starts at \(stringStart)"
        case .escape:
            return "an escape character (one of \" \\ / b f n r t u) after '\\'"
        case .unicode:
            return "4 hex digits after '\\u'"
        case .minus:
            return "a digit after '-'"
        case .zero, .integer, .fraction, .exponent:
            return "more of the number"
        case .dot:
            return "a digit after '.'"
        case .exponentMark:
            return "a digit or a sign in the exponent"
        case .exponentSign:
            return "a digit in the exponent"
        case .literal:
            let word = literal.word
            let next = Character(Unicode.Scalar(word.utf8Start[min(literalIndex, word.utf8CodeUnitCount &- 1)]))
            return "'\(next)' to complete '\(word)'"
        }
    }

    /// The character at the stream's position, for an error message: `'x'` for printable ASCII,
    /// else its code point (with the character when it is a visible one).
    func describeNext() -> String {
        let bytes: UnsafeBufferPointer<UInt8>
        do { bytes = try stream.peek(atLeast: 4) } catch { bytes = stream.available }
        guard let first = bytes.first else { return "end of input" }
        if first == UInt8(ascii: "'") { return "\"'\"" }
        if first >= 0x21 && first < 0x7F { return "'\(Character(Unicode.Scalar(first)))'" }
        if first == 0x20 { return "' '" }
        if first < 0x80 { return Self.codePoint(UInt32(first), control: first != 0x7F) }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return "byte 0x\(String(first, radix: 16, uppercase: true))" }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber,
             .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation,
             .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return "'\(Character(scalar))' (\(Self.codePoint(scalar.value, control: false)))"
        default:
            return Self.codePoint(scalar.value, control: scalar.value < 0xA0)
        }
    }

    /// `U+00E9`, or `control character U+000A`.
    static func codePoint(_ value: UInt32, control: Bool) -> String {
        var hex = String(value, radix: 16, uppercase: true)
        while hex.count < 4 { hex = "0" + hex }
        return control ? "control character U+\(hex)" : "U+\(hex)"
    }
}
