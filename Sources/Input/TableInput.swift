/// Rows with named columns, from any reader: the header row or JSON keys become column names,
/// short rows are padded, long rows get `Column N` columns (I2, I6).
package struct TableInput {
    /// The format and delimiter chosen, so a second pass reads the same way.
    package struct Choice: Sendable, Equatable {
        package var format: InputFormat
        package var dialect: Dialect?
        /// An earlier pass read the same bytes and found them valid UTF-8: no need to check again.
        package var knownValidUTF8 = false
    }

    /// The choice for reading the same input again, carrying what this pass learned.
    package var choiceForNextPass: Choice {
        var next = choice
        next.knownValidUTF8 = readInPieces || stream.encoding == .utf8 && stream.replacements == 0 && stream.reachedEnd
        return next
    }

    /// The rows after the header were read in pieces (`absorb`), every piece valid UTF-8.
    private var readInPieces = false

    package private(set) var columns: [String] = []
    /// Fields in the header row (rows are short or long against this, not against grown columns).
    package var headerCount = 0
    package let choice: Choice
    package let stream: InputStream
    /// The reader, held by its type: exactly one of the three is set. (Behind `any RecordReader`
    /// its box would be made unique again on every row read.)
    package private(set) var csv: CSVReader?
    package private(set) var json: JSONReader?
    private var rows: RowsReader?
    /// The reader names the columns itself (JSON keys), so rows are not checked against a header.
    package let keyed: Bool
    package let options: InputOptions
    package let sourceName: String
    /// Whether the column count may still grow (false once a layout is fixed).
    package var columnsMayGrow = true

    // Ragged rows (one warning each, with a count and the first line).
    var shortRows = 0
    var firstShortLine = 0
    var longRows = 0
    var firstLongLine = 0
    /// The line of the record holding the first U+FFFD replacement (0 until it is read).
    package var replacementLine = 0
    /// JSON keys first seen after the columns were fixed, with the line.
    var lateKeys: [(name: String, line: Int)] = []
    /// Fields that had no column to go in once the columns were fixed.
    private(set) var droppedRows = 0
    var firstDroppedLine = 0

    /// Opens the input and reads the header.
    /// - Parameters:
    ///   - choice: reuse an earlier pass's choice instead of sniffing.
    ///   - columns: the earlier pass's columns, when reading the same input again: the header row
    ///     is read past, not made into names a second time (a 100 MB heading is held once, E5).
    /// - Throws: `InputError` when the header cannot be read.
    package init(_ provider: some InputProvider, options: InputOptions, choice: Choice? = nil, columns known: [String]? = nil) throws(InputError) {
        self.options = options
        self.sourceName = provider.name
        // The type compared first: a cast that fails on a class instance (a file) looks for
        // Foundation's boxed values, a search by name of about 280,000 instructions.
        if type(of: provider) == RowsInput.self, let given = provider as? RowsInput {
            // Rows in memory: records as they are, under the headings given (no bytes to read).
            stream = InputStream(MemorySource([]), chunkSize: 16)
            self.choice = Choice(format: .csv, dialect: nil)
            rows = RowsReader(given.rows)
            keyed = false
            columns = given.headings.enumerated().map { Self.columnName($1, at: $0) }
            headerCount = columns.count
            return
        }
        let source = try Compression.open(provider.open(), name: provider.name)
        stream = InputStream(source, encoding: options.encoding, trustValidUTF8: choice?.knownValidUTF8 ?? false)
        if let choice {
            self.choice = choice
        } else {
            let head = try stream.head(upTo: 1 << 16)
            let format = options.inputFormat ?? provider.path.map(Compression.strippingSuffix).flatMap(InputFormat.init(path:)) ?? Sniffer.format(of: head)
            var dialect: Dialect?
            switch format {
            case .csv:
                dialect = .csv(options.delimiter ?? Sniffer.delimiter(of: head))
            case .tsv:
                dialect = .tsv
                if let d = options.delimiter { dialect?.delimiter = d }
            case .json, .jsonl:
                dialect = nil
            }
            self.choice = Choice(format: format, dialect: dialect)
        }
        let reader = try Self.makeReader(self.choice, stream: stream, name: sourceName, explicitJSON: options.inputFormat == .json, maxRowBytes: options.maxRowSize)
        csv = reader as? CSVReader
        json = reader as? JSONReader
        keyed = reader.columnNames != nil
        if let names = reader.columnNames {
            columns = names
        } else if options.header {
            var header = Record()
            if try read(into: &header) {
                if let known, known.count == header.count {
                    columns = known
                } else {
                    columns = (0..<header.count).map { i in Self.columnName(header.string(at: i), at: i) }
                }
                headerCount = header.count
                noteReplacement(line: header.line)
            }
        }
    }

    /// A heading as a column's name: an empty one is `Column N`, N counting from 1.
    package static func columnName(_ heading: String, at index: Int) -> String {
        heading.isEmpty ? "Column \(index + 1)" : heading
    }

    /// Reads one piece of a regular file as `table` reads its rows: the same format, dialect,
    /// header and columns, from `source`, which starts at the first byte of a row (P1: a file's
    /// pieces are read on both cores). Lines count from 1 within the piece. `cellsCheckUTF8`: the
    /// stream does not check UTF-8, as each cell is checked where it is sized
    /// (`ColumnProfile.checksUTF8`).
    package init(piece source: any ByteSource, like table: TableInput, cellsCheckUTF8: Bool = false) throws(InputError) {
        options = table.options
        sourceName = table.sourceName
        choice = table.choice
        // A small buffer: a piece is a few of them, and each piece has a stream of its own.
        stream = InputStream(source, chunkSize: 1 << 16, trustValidUTF8: cellsCheckUTF8 || table.choiceForNextPass.knownValidUTF8, midInput: true)
        let reader = try Self.makeReader(choice, stream: stream, name: sourceName, explicitJSON: options.inputFormat == .json, maxRowBytes: options.maxRowSize)
        csv = reader as? CSVReader
        json = reader as? JSONReader
        if let whole = table.json { json?.seed(columnsOf: whole) }
        keyed = reader.columnNames != nil
        columns = table.columns
        headerCount = table.headerCount
    }

    /// The line the reader is on: 1 + the line breaks it has read.
    package var line: Int { csv?.line ?? json?.line ?? 0 }

    /// The last row read ended with a CR whose LF, if one follows, is not read yet (CSV, TSV).
    package var endsAfterCR: Bool { csv?.state == .afterCR }

    /// Takes in what a piece of the same file read after this table's rows (`init(piece:like:)`):
    /// its columns, and its ragged rows and warnings with their lines, which count from
    /// `lineOffset` + 1.
    /// - Returns: for each of the piece's columns, the column here (JSON keys first seen in the
    ///   piece join the columns in the order it saw them).
    package mutating func absorb(_ piece: TableInput, lineOffset: Int) -> [Int] {
        readInPieces = true
        if let other = piece.json, let mapping = json?.absorb(other, lineOffset: lineOffset) {
            columns = json?.columnNames ?? columns
            return mapping
        }
        if piece.columns.count > columns.count { columns = piece.columns }
        if piece.shortRows > 0 {
            if shortRows == 0 { firstShortLine = piece.firstShortLine + lineOffset }
            shortRows += piece.shortRows
        }
        if piece.longRows > 0 {
            if longRows == 0 { firstLongLine = piece.firstLongLine + lineOffset }
            longRows += piece.longRows
        }
        return Array(piece.columns.indices)
    }

    /// The reader for a format. JSON found by extension or sniffing may turn out to be JSON Lines;
    /// `-i json` insists on one document, `-i jsonl` on lines.
    package static func makeReader(_ choice: Choice, stream: InputStream, name: String, explicitJSON: Bool, maxRowBytes: Int = Int.max) throws(InputError) -> any RecordReader {
        switch choice.format {
        case .csv, .tsv:
            var reader = CSVReader(stream: stream, dialect: choice.dialect ?? .csv(), sourceName: name)
            reader.maxRowBytes = maxRowBytes
            return reader
        case .json, .jsonl:
            var reader = JSONReader(stream: stream, linesMode: choice.format == .jsonl ? true : explicitJSON ? false : nil, sourceName: name)
            reader.maxRowBytes = maxRowBytes
            // E4: a file with no document, or nothing but white space, is empty input.
            reader.blankIsEmpty = true
            return reader
        }
    }

    /// Whether the input had a header row or keys (so an empty table still has headings).
    var hasColumns: Bool { !columns.isEmpty }

    /// Reads the next row, fitted to the columns.
    /// - Returns: false at the end of the input.
    /// - Complexity: O(bytes of the row).
    package mutating func next(into record: inout Record) throws(InputError) -> Bool {
        guard try read(into: &record) else { return false }
        fit(&record)
        return true
    }

    /// Reads the next row as `next(into:)` does, and notes where its fields lie in `index` (a CSV,
    /// TSV or JSON Lines file's piece, sized to be drawn again).
    package mutating func next(into record: inout Record, noting index: inout RowIndex) throws(InputError) -> Bool {
        let before = stream.offset
        let flatBefore = json?.flatRowsRead ?? 0
        guard try read(into: &record) else { return false }
        csv?.note(record, in: &index)
        json?.note(in: &index, from: before, flatBefore: flatBefore)
        fit(&record)
        return true
    }

    /// Reads the next row in place in the stream's buffer when the CSV or TSV reader can
    /// (`CSVReader.readInPlace`), and notes it in `index`, as `next(into:noting:)` would: `row`
    /// then holds its fields padded to the columns (`InPlaceRow.fields(in:)`, valid until the
    /// stream is read again).
    /// - Returns: false, having read nothing, when the row is left to `next(into:noting:)`.
    package mutating func nextInPlace(into row: inout InPlaceRow, noting index: inout RowIndex) -> Bool {
        guard csv?.readInPlace(into: &row) == true, let shape = csv?.shape else { return false }
        index.add(row.fields(in: stream.storage), shape, next: stream.offset)
        if !fitChangesNothing(count: row.count) {
            fit(count: row.count, line: row.line)
            row.pad(to: columns.count)
        }
        return true
    }

    /// Reads a row the drawing pass's notes leave to the reader (`RowIndex.Step.readAgain`): the
    /// stream stands at its first byte (JSON Lines: where the sizing pass's reader stood before it,
    /// just after the value before it; the rows the notes gave in between were all on lines of
    /// their own, so the reader, which last read an earlier row, reads this one as it did).
    package mutating func nextReadAgain(into record: inout Record) throws(InputError) -> Bool {
        csv?.restartAtRow()
        return try next(into: &record)
    }

    /// Notes what a row read shows (replaced bytes, JSON keys, ragged rows) and pads or widens it
    /// to the columns.
    private mutating func fit(_ record: inout Record) {
        fit(count: record.count, line: record.line)
        for _ in min(record.count, columns.count)..<columns.count { record.endField() }
    }

    /// What `fit(_:)` notes of a row of `count` fields starting on `line`, and the columns it
    /// adds; the caller pads the row to the columns.
    /// Whether `fit` would note nothing and pad nothing for a row of `count` fields: one of the
    /// header's fields and the columns', of a CSV or TSV file with no replaced byte so far. (The
    /// sizing pass's rows in place skip `fit` then: calling it for every row cost 2% of a plain
    /// table's instructions. Change the two together.)
    private func fitChangesNothing(count: Int) -> Bool {
        count == headerCount && count == columns.count && !keyed && stream.firstReplacementOffset == nil
    }

    private mutating func fit(count: Int, line: Int) {
        noteReplacement(line: line)
        if keyed, let names = json?.columnNames, names.count != columns.count {
            if columnsMayGrow {
                columns = names
            } else if names.count > columns.count + lateKeys.count {
                // A key first seen after the layout was fixed (a pipe's window): said once per key.
                for name in names[(columns.count + lateKeys.count)...] { lateKeys.append((name, line)) }
            }
        }
        let checked = !keyed && (options.header || headerCount > 0)
        if checked && count < headerCount {
            shortRows += 1
            if shortRows == 1 { firstShortLine = line }
        }
        // Extra fields past the columns already laid out are not shown: said as dropped, not long.
        if checked && count > headerCount && (columnsMayGrow || count <= columns.count) {
            longRows += 1
            if longRows == 1 { firstLongLine = line }
        }
        if !options.header && headerCount == 0 { headerCount = count }  // --no-header: the first row sets the count
        if count > columns.count {
            if columnsMayGrow {
                for i in columns.count..<count { columns.append("Column \(i + 1)") }
            } else {
                droppedRows += 1
                if droppedRows == 1 { firstDroppedLine = line }
            }
        }
    }

    /// Reads the next record as the reader gives it.
    @inline(__always)
    private mutating func read(into record: inout Record) throws(InputError) -> Bool {
        if csv != nil { return try csv?.read(into: &record) ?? false }
        if json != nil { return try json?.read(into: &record) ?? false }
        return try rows?.read(into: &record) ?? false
    }

    /// Finds the line of the first replaced byte: the stream knows where it is, the reader which
    /// record the bytes up to here belong to.
    private mutating func noteReplacement(line: Int) {
        if replacementLine == 0, let offset = stream.firstReplacementOffset, offset < stream.offset {
            replacementLine = max(1, line)
        }
    }

    /// Warnings about the input, for stderr (each at most once, with a count and the first line).
    package var warnings: [String] {
        var out: [String] = []
        if shortRows > 0 {
            out.append("\(sourceName): \(Self.count(shortRows, "row")) had fewer fields than the header (first on line \(firstShortLine)); padded with empty cells")
        }
        if longRows > 0 {
            out.append("\(sourceName): \(Self.count(longRows, "row")) had more fields than the header (first on line \(firstLongLine)); extra fields shown as Column N")
        }
        // `--window all` waits for the input's end: a followed input has none.
        let advice = options.endless ? "" : "; use --window all"
        for (name, line) in lateKeys.prefix(20) {
            out.append("\(sourceName): key \"\(name)\" first seen on line \(line) is not shown\(advice)")
        }
        if lateKeys.count > 20 { out.append("\(sourceName): \(lateKeys.count - 20) more keys first seen after the window are not shown\(advice)") }
        if droppedRows > 0 && json?.columnNames == nil {
            out.append("\(sourceName): \(Self.count(droppedRows, "row")) read after sizing had more fields than the columns shown (first on line \(firstDroppedLine)); the extra fields are not shown\(advice)")
        }
        if stream.replacements > 0 {
            out.append("\(sourceName): invalid \(stream.encoding == .utf8 ? "UTF-8" : stream.encoding.rawValue) replaced with U+FFFD (\(Self.count(stream.replacements, "time"))\(replacementLine > 0 ? ", first on line \(replacementLine)" : "")); try --encoding latin1 or cp1252")
        }
        out.append(contentsOf: json?.warnings ?? [])
        return out
    }

    package static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
}
