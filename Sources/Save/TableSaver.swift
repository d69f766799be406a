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

/// Writes a table with its edits applied without losing anything (V10): every row not changed is
/// its bytes as read, copied in large blocks from the file (a run of untouched rows is one copy);
/// a changed or added row is written in the file's own dialect and encoding; a deleted row is
/// left out. The byte-order mark, the header row, blank lines, a last line without a line break
/// and whatever follows the last row read are kept as they are.
package struct TableSaver {
    /// The file as read: its descriptor, its size, the byte-order mark's length.
    package let source: Int32
    package let size: Int64
    package let bom: Int
    package let spans: RowSpans
    package let dialect: SaveDialect
    /// How the file was read (to read a changed row's other fields back from its bytes).
    package let choice: TableInput.Choice
    /// The input's column names (JSON keys), and the name for messages.
    package let columns: [String]
    package let name: String
    /// The columns that hold numbers (JSON Lines: a number typed there is written bare).
    package var numbers: Set<Int> = []
    /// JSON Lines: each column's keys from the line's object down (`["b", "c"]` for `b.c` read
    /// from a nested object), where they were needed (a row added with a dotted column filled).
    package var keyPaths: [[String]] = []

    /// Writes the table, as `edits` make it, to `out`, the file `target` (its name for messages).
    /// - Throws: `SaveError` when a value cannot be written in the file's dialect or encoding, or
    ///   a read or write fails.
    package func write(_ edits: RowEdits, to out: Int32, target: String, progress: SaveProgress? = nil) throws(SaveError) {
        let writer = Writer(out: out, source: source, target: target, sourceName: name, progress: progress.map { ($0, size) })
        let unit = Int64(dialect.unit)
        let headerEnd = boundary(spans.headerEnd)
        try writer.copy(0..<headerEnd)
        let headerTerminated = headerEnd <= Int64(bom) || isBreak(at: headerEnd - unit)
        let end = boundary(spans.end)
        let lastTerminated = spans.count == 0 ? headerTerminated : isBreak(at: end - unit)
        var items = Items(saver: self, writer: writer, lineEnding: try encoded(dialect.lineEnding, row: 0, column: nil), mustEndWithBreak: end < size || lastTerminated, headerNeedsBreak: !headerTerminated)
        let specials = (Set(edits.fields.keys).union(edits.deleted)).filter { $0 >= 0 }.sorted()
        var position = 0
        for piece in edits.runs(loaded: spans.count) {
            switch piece {
            case .added(let id):
                if !edits.deleted.contains(id) { try items.add(.text(try encodeAdded(edits.fields[id] ?? [:], row: position + 1))) }
                position += 1
            case .rows(let range):
                var from = range.lowerBound
                var k = Self.lowerBound(specials, from)
                while from < range.upperBound {
                    let next = k < specials.count ? min(specials[k], range.upperBound) : range.upperBound
                    if next > from { try items.add(.block(try rowStart(from)..<rowEnd(next - 1))) }
                    position += next - from
                    guard next < range.upperBound else { break }
                    if !edits.deleted.contains(next) {
                        let span = try rowStart(next)..<rowEnd(next)
                        try items.add(try encodeChanged(span, edits.fields[next] ?? [:], row: position + 1) ?? .block(span))
                    }
                    position += 1
                    from = next + 1
                    k += 1
                }
            }
        }
        try items.finish()
        try writer.copy(end..<size)
        try writer.flush()
    }

    /// Where row `id` starts, checked to follow a line break (or the header): the bytes relied on
    /// are still a row's.
    private func rowStart(_ id: Int) throws(SaveError) -> Int64 {
        let start = boundary(spans.start(id))
        guard start <= boundary(spans.headerEnd) || isBreak(at: start - Int64(dialect.unit)) else {
            throw SaveError("\(name): changed on disk since it was opened (row \(id + 1) is not where it was); not saved", offerSaveAs: true)
        }
        return start
    }

    /// Where row `id` ends: the next row's start, or the last row's end.
    private func rowEnd(_ id: Int) -> Int64 { boundary(id + 1 < spans.count ? spans.start(id + 1) : spans.end) }

    /// `offset` moved past an LF whose CR ends the row before it (the reader stops between them).
    package func boundary(_ offset: Int64) -> Int64 {
        let unit = Int64(dialect.unit)
        guard offset >= unit, offset + unit <= size, unitValue(at: offset) == 0x0A, unitValue(at: offset - unit) == 0x0D else { return offset }
        return offset + unit
    }

    /// Whether the code unit at `offset` is a line break.
    package func isBreak(at offset: Int64) -> Bool {
        guard offset >= 0 else { return false }
        let v = unitValue(at: offset)
        return v == 0x0A || v == 0x0D
    }

    private func unitValue(at offset: Int64) -> UInt32 {
        var bytes: [UInt8] = [0, 0]
        guard readFully(source, into: &bytes, count: dialect.unit, at: offset) else { return 0 }
        switch dialect.encoding {
        case .utf16le: return UInt32(bytes[0]) | UInt32(bytes[1]) << 8
        case .utf16be: return UInt32(bytes[0]) << 8 | UInt32(bytes[1])
        default: return UInt32(bytes[0])
        }
    }

    /// The bytes of `span`, as UTF-8.
    package func text(of span: Range<Int64>) throws(SaveError) -> [UInt8] {
        var raw = [UInt8](repeating: 0, count: Int(span.count))
        guard readFully(source, into: &raw, count: Int(span.count), at: span.lowerBound) else {
            throw SaveError("\(name): read error: \(systemMessage(errno))")
        }
        guard dialect.encoding != .utf8 else { return raw }
        let stream = InputStream(MemorySource(raw), encoding: dialect.encoding)
        var out: [UInt8] = []
        while (try? stream.refill()) == true {}
        out.append(contentsOf: stream.available)
        return out
    }

    /// A changed row written anew; nil when its fields are as read (it is copied as it is).
    private func encodeChanged(_ span: Range<Int64>, _ changes: [Int: [UInt8]], row: Int) throws(SaveError) -> Item? {
        let original = try text(of: span)
        switch dialect.kind {
        case .jsonLines:
            let line = original.prefix { $0 != 0x0A && $0 != 0x0D }
            let pairs = changes.sorted { $0.key < $1.key }.map { (name: columns.indices.contains($0.key) ? columns[$0.key] : "Column \($0.key + 1)", text: $0.value, number: numbers.contains($0.key)) }
            let result: [UInt8]?
            do {
                result = try JSONLine.edited(Array(line), changes: pairs)
            } catch {
                throw SaveError("\(name): row \(row), column \(error.reason): which value the field is, is not clear, so it is read-only; u undoes the edit; not saved")
            }
            guard let edited = result else {
                throw SaveError("\(name): row \(row): the line is not a JSON object; it cannot be changed")
            }
            guard edited != Array(line) else { return nil }
            // The rest of the row's span as it was: its line break, and the blank lines after it.
            let rest = Array(original[(original.startIndex + line.count)...])
            guard rest.last == 0x0A else { return .text(try encoded(edited + rest, row: row, column: nil)) }
            let breakLength = (rest.count >= 2 && rest[rest.count - 2] == 0x0D ? 2 : 1) * dialect.unit
            return .ended(try encoded(edited + rest, row: row, column: nil), breakLength: breakLength)
        case .delimited(let d):
            var record = Record()
            let stream = InputStream(MemorySource(original), encoding: .utf8, trustValidUTF8: true)
            var reader = CSVReader(stream: stream, dialect: d, sourceName: name)
            guard (try? reader.read(into: &record)) == true else { throw SaveError("\(name): row \(row): cannot be read again") }
            let fields = record.withFields { f in (0..<f.count).map { Array(f[$0]) } }
            var merged = fields
            for (k, value) in changes {
                while merged.count <= k { merged.append([]) }
                merged[k] = value
            }
            // Fields padded for the change and left empty are not written (a short row stays short).
            while merged.count > fields.count, merged.last?.isEmpty == true { merged.removeLast() }
            guard merged != fields else { return nil }
            return try rewritten(original, fields: fields, as: merged, d, row: row)
        }
    }

    /// A delimited row's text (`original`, UTF-8: the blank lines before it, the row, its line
    /// break) with its fields `fields` now `merged`: only the fields that changed are written
    /// anew (quoted where they must be, or where the field was, or when the row quotes every
    /// field); the others keep their bytes, the blank lines before it and its own line break stay.
    private func rewritten(_ original: [UInt8], fields: [[UInt8]], as merged: [[UInt8]], _ d: Dialect, row: Int) throws(SaveError) -> Item {
        let lead = original.prefix { $0 == 0x0A || $0 == 0x0D }
        let body = Array(original[lead.count...])
        var raw = SaveDialect.rawFields(body, d)
        let contentEnd = raw.last?.range.upperBound ?? 0
        // Read apart otherwise than the reader did (not expected): every field is written anew.
        if raw.count != fields.count { raw = [] }
        let quoteAll = !raw.isEmpty && raw.allSatisfy(\.quoted)
        var text = Array(lead)
        for (k, value) in merged.enumerated() {
            if k > 0 { text.append(d.delimiter) }
            if k < raw.count && value == fields[k] {
                text += body[raw[k].range]
                continue
            }
            guard SaveDialect.canWrite(value, d) else {
                throw SaveError("\(name): row \(row), \(columnName(k)): a line break or delimiter cannot be written in this file's unquoted dialect")
            }
            _ = try encoded(value, row: row, column: k)
            text += SaveDialect.field(value, d, quote: quoteAll || (k < raw.count && raw[k].quoted), only: merged.count == 1)
        }
        let ending = body[contentEnd...]
        text += ending
        let out = try encoded(text, row: row, column: nil)
        guard ending.last == 0x0A || ending.last == 0x0D else { return .text(out) }
        let breakLength = (ending.count >= 2 && ending[ending.endIndex - 2] == 0x0D && ending.last == 0x0A ? 2 : 1) * dialect.unit
        return .ended(out, breakLength: breakLength)
    }

    /// An added row, in the file's dialect.
    private func encodeAdded(_ changes: [Int: [UInt8]], row: Int) throws(SaveError) -> [UInt8] {
        let count = max(columns.count, (changes.keys.max() ?? -1) + 1)
        switch dialect.kind {
        case .jsonLines:
            let pairs = (0..<count).map { (name: columns.indices.contains($0) ? columns[$0] : "Column \($0 + 1)", text: changes[$0] ?? [], number: true) }
            let object: [UInt8]
            do throws(JSONLine.Unclear) {
                object = try JSONLine.object(pairs, paths: keyPaths)
            } catch {
                throw SaveError("\(name): row \(row): \(Sanitize.visible(error.reason))")
            }
            return try encoded(object, row: row, column: nil)
        case .delimited(let d):
            return try delimited((0..<count).map { changes[$0] ?? [] }, d, quoteAll: dialect.quoteAll, row: row)
        }
    }

    private func delimited(_ fields: [[UInt8]], _ d: Dialect, quoteAll: Bool, row: Int) throws(SaveError) -> [UInt8] {
        for (k, field) in fields.enumerated() where !SaveDialect.canWrite(field, d) {
            throw SaveError("\(name): row \(row), \(columnName(k)): a line break or delimiter cannot be written in this file's unquoted dialect")
        }
        // Each field on its own first, so a character the encoding cannot hold is named with its column.
        for (k, field) in fields.enumerated() { _ = try encoded(field, row: row, column: k) }
        return try encoded(SaveDialect.delimitedRow(fields, d, quoteAll: quoteAll), row: row, column: nil)
    }

    private func columnName(_ k: Int) -> String {
        "column \(k + 1)" + (columns.indices.contains(k) ? " (\(Sanitize.visible(columns[k])))" : "")
    }

    /// UTF-8 `text` in the file's encoding.
    private func encoded(_ text: [UInt8], row: Int, column: Int?) throws(SaveError) -> [UInt8] {
        var out: [UInt8] = []
        if let (scalar, place) = dialect.encode(text, into: &out) {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            let at = column.map { ", \(columnName($0))" } ?? ""
            throw SaveError("\(name): row \(row)\(at), character \(place): \(code) cannot be written in \(dialect.encoding.rawValue)")
        }
        return out
    }

    /// The first index of sorted `values` not below `value`.
    package static func lowerBound(_ values: [Int], _ value: Int) -> Int {
        var lo = 0, hi = values.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if values[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
