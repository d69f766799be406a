import Input
import Options
import Schedule
import Support
import Text
import Transform
/// Where each row of a file lies in its bytes, as the file is on disk (in its own encoding, the
/// byte-order mark counted), for a save that copies the rows it does not change (V10). Row `i`
/// runs from `start(i)` to the next row's start (the last to `end`): any blank lines before it,
/// its text, its line break. A row read after a CR whose LF the reader had not yet taken is
/// moved past that LF (`boundary`), so a CR LF stays whole with the row it ends.
package struct RowSpans {
    /// Where the first row starts: the byte-order mark and header row (and its break) before it.
    package var headerEnd: Int64
    /// The rows found.
    package var count: Int
    /// Where row `i` starts, as the reader stood before reading it.
    package var start: (Int) -> Int64
    /// Where the last row found ends (bytes after it, rows past `--limit`, are copied as they are).
    package var end: Int64

    /// Row starts as the view's index has them (`FileRows`: a UTF-8 CSV or TSV file read in place).
    package init(_ rows: FileRows) {
        let (starts, end) = rows.index.withLock { ($0.starts, $0.end) }
        let base = rows.file.start
        count = starts.count
        headerEnd = base + (count > 0 ? starts[0] : end)
        self.end = base + end
        start = { base + starts[$0] }
    }

    package init(headerEnd: Int64, starts: [Int64], end: Int64) {
        self.headerEnd = headerEnd
        count = starts.count
        self.end = end
        start = { starts[$0] }
    }

    /// The rows of `input` found by reading it again as `options` say (the view's reader, its
    /// header, dialect and encoding), each row's place in the file's own bytes.
    /// - Throws: `InputError` when it cannot be read.
    package static func scan(_ input: some InputProvider, options: FormatOptions, choice: TableInput.Choice, bom: Int, limit: Int) throws(InputError) -> RowSpans {
        var trusted = choice
        // Offsets in the file's bytes: nothing replaced (invalid UTF-8 is copied, never read).
        trusted.knownValidUTF8 = true
        var table = try TableInput(input, options: options.input, choice: trusted)
        let encoding = table.stream.encoding
        var decoded: [Int] = [table.stream.offset]
        var record = Record()
        while decoded.count <= limit, try table.next(into: &record) {
            decoded.append(table.stream.offset)
        }
        // decoded[0] is where the first row starts; each row ends where the next starts.
        let raw = try rawOffsets(of: decoded, input: input, encoding: encoding, bom: bom)
        return RowSpans(headerEnd: raw[0], starts: Array(raw.dropLast()), end: raw[raw.count - 1])
    }

    /// JSON Lines: a row is a line with something on it, from its line's start (the blank lines
    /// before it included). The last row ends after its line break: blank lines after it are the
    /// file's end, kept there whatever becomes of that row.
    package static func lines(_ bytes: Span<UInt8>, bom: Int) -> RowSpans {
        var scan = LineScan(bom: bom)
        scan.feed(bytes)
        return RowSpans(scan.found)
    }

    /// Rows found by a `LineScan`.
    package init(_ found: LineScan.Found) {
        self.init(headerEnd: found.headerEnd, starts: found.starts, end: found.end)
    }

    /// JSON Lines' rows (`lines`) found from a file's bytes fed a piece at a time, so that a file
    /// of any size is scanned in a buffer of its own size: 8 bytes a row are kept.
    package struct LineScan: Sendable {
        /// Where each row found so far starts.
        package private(set) var starts: [Int64] = []
        private let bom: Int
        private var lineStart: Int
        private var blank = true
        private var end: Int
        /// Bytes fed so far (the offset of the next).
        package private(set) var fed = 0

        package init(bom: Int) {
            self.bom = bom
            lineStart = bom
            end = bom
        }

        /// The next bytes of the file.
        package mutating func feed(_ bytes: Span<UInt8>) {
            let first = max(0, min(bom - fed, bytes.count))  // the byte-order mark is skipped
            for k in first..<bytes.count {
                let b = bytes[k]
                if b == 0x0A {
                    if !blank {
                        starts.append(Int64(lineStart))
                        end = fed + k + 1
                    }
                    lineStart = fed + k + 1
                    blank = true
                } else if b != 0x20 && b != 0x09 && b != 0x0D {
                    blank = false
                }
            }
            fed += bytes.count
        }

        /// Where each row starts, where the last ends, and where the first starts.
        package struct Found: Sendable {
            package var starts: [Int64]
            package var end: Int64
            package var headerEnd: Int64
        }

        /// The rows of the bytes fed: the last ends at its line break, or at the end when it has
        /// none.
        package var found: Found {
            var starts = self.starts
            var end = self.end
            if !blank {
                starts.append(Int64(lineStart))
                end = fed
            }
            return Found(starts: starts, end: Int64(end), headerEnd: starts.first ?? Int64(bom))
        }
    }

    /// Offsets in the UTF-8 the reader saw (after the BOM) as offsets in the file's bytes.
    private static func rawOffsets(of decoded: [Int], input: some InputProvider, encoding: TextEncoding, bom: Int) throws(InputError) -> [Int64] {
        if encoding == .utf8 { return decoded.map { Int64($0 + bom) } }
        let source = try Compression.open(input.open(), name: input.name)
        var out: [Int64] = []
        var rawAt = 0, decodedAt = 0, next = 0
        var carry: [UInt8] = []
        var skip = bom
        let utf16 = encoding != .latin1 && encoding != .cp1252
        func utf8Length(_ v: UInt32) -> Int { v < 0x80 ? 1 : v < 0x800 ? 2 : v < 0x10000 ? 3 : 4 }
        while next < decoded.count {
            var bytes = carry
            carry = []
            let n = try source.read(appendingTo: &bytes, atMost: 1 << 16)
            if skip > 0 {
                let s = min(skip, bytes.count)
                bytes.removeFirst(s)
                skip -= s
                rawAt += s
            }
            var i = 0
            while next < decoded.count {
                while next < decoded.count && decoded[next] <= decodedAt { out.append(Int64(rawAt)); next += 1 }
                guard i < bytes.count else { break }
                if !utf16 {
                    let b = bytes[i]
                    decodedAt += utf8Length(encoding == .cp1252 ? InputStream.cp1252(b) : UInt32(b))
                    i += 1; rawAt += 1
                    continue
                }
                guard i + 1 < bytes.count else {
                    if n == 0 { decodedAt += 3; rawAt += 1; i += 1; continue }  // an odd last byte
                    break
                }
                let little = encoding == .utf16le
                func unit(_ k: Int) -> UInt32 { little ? UInt32(bytes[k]) | UInt32(bytes[k + 1]) << 8 : UInt32(bytes[k]) << 8 | UInt32(bytes[k + 1]) }
                let u = unit(i)
                if u >= 0xD800 && u < 0xDC00 {
                    guard i + 3 < bytes.count else {
                        if n == 0 { decodedAt += 3; i += 2; rawAt += 2; continue }
                        break
                    }
                    let low = unit(i + 2)
                    if low >= 0xDC00 && low < 0xE000 { decodedAt += 4; i += 4; rawAt += 4 } else { decodedAt += 3; i += 2; rawAt += 2 }
                } else {
                    decodedAt += u >= 0xDC00 && u < 0xE000 ? 3 : utf8Length(u)
                    i += 2; rawAt += 2
                }
            }
            carry = Array(bytes[i...])
            if n == 0 { break }
        }
        while out.count < decoded.count { out.append(Int64(rawAt)) }
        return out
    }
}
