import Input
import Options
import Schedule
import Support
import Text
import Transform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Saving a viewed table with its edits (V10): the file read again only where it must be (its
/// header, to learn its dialect; its rows' places, unless the view's index has them), then
/// written whole to a temporary file and renamed over the old one, or under a new name.
package enum TableSave {
    /// Whether `input` can be saved in place: a regular file of text (not gzip) in a dialect
    /// that can be written back: CSV, TSV or JSON Lines. Nil when it can, else why not.
    package static func refusal(_ input: any InputProvider, format: InputFormat?) -> String? {
        guard let file = randomAccess(of: input), input.path != nil else {
            return "read from a pipe: W saves it under a name"
        }
        guard file.holdsText else { return "a compressed file: W saves it under a name" }
        if format == .json { return "a JSON document is read-only (JSON Lines can be edited)" }
        return nil
    }

    /// Whether `table` is a JSON document (an array, or one value), not JSON Lines: JSON read
    /// without being told its kind (a `.json` name) knows it is JSON Lines once a second value
    /// starts on a later line, so up to two rows are read.
    package static func isJSONDocument(_ table: inout TableInput) throws(InputError) -> Bool {
        guard table.choice.format == .json else { return false }
        var record = Record()
        for _ in 0..<2 where table.json?.lines != true {
            guard try table.next(into: &record) else { break }
        }
        return table.json?.lines != true
    }

    /// Writes the table as `edits` make it to `target`.
    /// - Parameters:
    ///   - input: the file the view read (its descriptor is read: the old bytes, even once the
    ///     file has been saved over).
    ///   - read: the identity of the input's file as the view read it (nil: as it is now); its
    ///     rows are copied only while its first bytes are still those (`SaveFile.bytesRead`).
    ///   - expected: what `target` must still be on disk (nil: a new file, which must not exist).
    ///   - rows: the view's index of the rows in their file, when it has one.
    ///   - loaded: the rows the view holds (the rows found again must be as many).
    ///   - columns: the input's column names.
    ///   - numbers: the columns that hold numbers (JSON Lines: a number typed there over a null
    ///     is written bare).
    /// - Returns: the identity of the file written.
    /// - Throws: `SaveError`: the file changed, a value the dialect or encoding cannot hold, a
    ///   failed read or write. Nothing is then written over.
    ///   - progress: told how far the writing is, and asked whether to stop (the view's save).
    package static func save(_ input: any InputProvider, options: FormatOptions, read: SaveFile.Identity? = nil, to target: String, expected: SaveFile.Identity?, edits: RowEdits, rows: FileRows?, loaded: Int, columns: [String], numbers: Set<Int> = [],
                     progress: SaveProgress? = nil) throws(SaveError) -> SaveFile.Identity {
        // Rows gone from the file (changed in place) are said first: no name would save them.
        _ = try bytesRead(input, read: read)
        try SaveFile.check(target, expected: expected)
        // A row added with a dotted column filled is nested as the file's lines are.
        let addsDotted = edits.fields.contains { id, values in id < 0 && values.contains { !$0.value.isEmpty && columns.indices.contains($0.key) && columns[$0.key].contains(".") } }
        var saver = try makeSaver(input, options: options, read: read, rows: rows, loaded: loaded, columns: columns, keyPaths: addsDotted)
        saver.numbers = numbers
        return try SaveFile.replace(target, expected: expected) { (out) throws(SaveError) in try saver.write(edits, to: out, target: target, progress: progress) }
    }

    /// The saver for `input`: its dialect learned from its header, its rows found.
    /// - Parameter keyPaths: whether to learn each JSON Lines column's keys (`TableSaver.keyPaths`),
    ///   reading the lines as far as the last column's first appearance.
    package static func makeSaver(_ whole: any InputProvider, options: FormatOptions, read: SaveFile.Identity? = nil, rows: FileRows?, loaded: Int, columns: [String], keyPaths: Bool = false) throws(SaveError) -> TableSaver {
        let name = whole.name
        // The rows are copied from the bytes the view read: the file's first `size` bytes, the
        // rest (rows appended since) left out.
        let (input, size) = try bytesRead(whole, read: read)
        var table: TableInput
        let document: Bool
        do {
            table = try TableInput(input, options: options.input)
            document = try isJSONDocument(&table)
        } catch {
            throw SaveError("\(error)", offerSaveAs: true)
        }
        if let reason = refusal(input, format: document ? .json : nil) {
            throw SaveError("\(name): \(reason)", offerSaveAs: true)
        }
        guard let file = randomAccess(of: input) else { throw SaveError("\(name): cannot be read again") }
        let encoding = table.stream.encoding
        let bom = byteOrderMark(file.fd, encoding)
        let kind: SaveDialect.Kind
        switch table.choice.format {
        case .csv, .tsv: kind = .delimited(table.choice.dialect ?? .csv())
        case .json, .jsonl: kind = .jsonLines
        }
        if kind == .jsonLines && encoding != .utf8 { throw SaveError("\(name): JSON Lines in \(encoding.rawValue) is read-only") }
        let spans: RowSpans
        do {
            if let rows {
                spans = RowSpans(rows)
            } else if kind == .jsonLines {
                spans = RowSpans(try lineSpans(file, size: size, bom: bom, name: name))
            } else {
                spans = try RowSpans.scan(input, options: options, choice: table.choice, bom: bom, limit: loaded)
            }
        } catch let error as SaveError {
            throw error
        } catch {
            throw SaveError("\(error)")
        }
        guard spans.count == loaded else {
            throw SaveError("\(name): the file's rows are not the ones shown (\(spans.count) found, \(loaded) shown); not saved", offerSaveAs: true)
        }
        var dialect = SaveDialect(kind: kind, encoding: encoding)
        var saver = TableSaver(source: file.fd, size: size, bom: bom, spans: spans, dialect: dialect, choice: table.choice, columns: columns, name: name)
        // The dialect is learned from the header row (or the first row, when there is none).
        let headerEnd = saver.boundary(spans.headerEnd)
        let first = headerEnd > Int64(bom) ? Int64(bom)..<headerEnd : spans.count > 0 ? headerEnd..<saver.boundary(spans.count > 1 ? spans.start(1) : spans.end) : Int64(bom)..<Int64(bom)
        dialect.learn(fromFirstRow: try saver.text(of: first))
        saver = TableSaver(source: file.fd, size: size, bom: bom, spans: spans, dialect: dialect, choice: table.choice, columns: columns, name: name)
        if keyPaths && kind == .jsonLines { saver.keyPaths = try columnKeyPaths(&table, columns: columns, name: name) }
        return saver
    }

    /// Each of `columns`' keys as `table`'s reader found them, read as far as needed; a column the
    /// reader names otherwise (the file changed) is refused.
    private static func columnKeyPaths(_ table: inout TableInput, columns: [String], name: String) throws(SaveError) -> [[String]] {
        var record = Record()
        do {
            while table.columns.count < columns.count, try table.next(into: &record) {}
        } catch {
            throw SaveError("\(error)")
        }
        let paths = table.json?.columnKeyPaths() ?? []
        guard paths.count >= columns.count, zip(paths, columns).allSatisfy({ $0.joined(separator: ".") == $1 }) else {
            throw SaveError("\(name): the file's columns are not the ones shown; not saved", offerSaveAs: true)
        }
        return paths
    }

    /// The lines of a JSON Lines file (its first `size` bytes, or all of it), read a MiB at a time
    /// (8 bytes a row kept); only as far as it got when `going` says to stop (asked each MiB).
    package static func lineSpans(_ file: RandomAccess, size: Int64? = nil, bom: Int, name: String, going: () -> Bool = { true }) throws(SaveError) -> RowSpans.LineScan.Found {
        let size = Int(size ?? FileIdentity.of(file.fd)?.size ?? 0)
        var scan = RowSpans.LineScan(bom: bom)
        var piece = [UInt8](repeating: 0, count: min(size, 1 << 20))
        while scan.fed < size {
            guard going() else { break }
            let count = min(piece.count, size - scan.fed)
            guard readFully(file.fd, into: &piece, count: count, at: file.start + Int64(scan.fed)) else { throw SaveError("\(name): read error: \(systemMessage(errno))") }
            scan.feed(piece.span.extracting(0..<count))
        }
        return scan.found
    }

    /// The input as the view read it, and its size: the file itself while it is unchanged; its
    /// first bytes, as many as were read, when rows were only appended since (V10).
    /// - Throws: `SaveError` when the file was changed in place: the rows read are gone.
    package static func bytesRead(_ input: any InputProvider, read: SaveFile.Identity?) throws(SaveError) -> (any InputProvider, Int64) {
        guard let file = randomAccess(of: input) else { return (input, 0) }
        guard let read = read ?? SaveFile.identity(fd: file.fd), let size = SaveFile.bytesRead(file.fd, read: read) else {
            throw SaveError("\(input.name): changed in place: the rows the view read are no longer on disk; not saved (open it again to edit it)")
        }
        guard let now = FileIdentity.of(file.fd), now != file.identity else { return (input, size) }
        return (FilePrefix(input, file: RandomAccess(fd: file.fd, identity: now, start: file.start), size: size - file.start), size)
    }

    /// The length of the byte-order mark `fd`'s file starts with in `encoding` (0: none).
    package static func byteOrderMark(_ fd: Int32, _ encoding: TextEncoding) -> Int {
        var head: [UInt8] = [0, 0, 0]
        let n = positionedRead(fd, into: &head, at: 0)
        switch encoding {
        case .utf8: return n == 3 && head == [0xEF, 0xBB, 0xBF] ? 3 : 0
        case .utf16le: return n >= 2 && head[0] == 0xFF && head[1] == 0xFE ? 2 : 0
        case .utf16be: return n >= 2 && head[0] == 0xFE && head[1] == 0xFF ? 2 : 0
        case .latin1, .cp1252: return 0
        }
    }
}

/// The first bytes of a file the view read, as an input: the rows it held when the view read
/// them, without those appended since (V10). Read by offset, so the file must not change again
/// while it is read.
package struct FilePrefix: InputProvider, RandomlyReadable {
    package let name: String
    package let path: String?
    package let isRereadable = true
    package let randomAccess: RandomAccess?
    package let size: Int64

    package init(_ input: any InputProvider, file: RandomAccess, size: Int64) {
        name = input.name
        path = input.path
        randomAccess = file
        self.size = size
    }

    package func open() throws(InputError) -> any ByteSource {
        guard let file = randomAccess else { throw InputError(.readFailed, "cannot read again", source: name) }
        return RangeSource(file, name: name, from: 0, to: size)
    }
}
