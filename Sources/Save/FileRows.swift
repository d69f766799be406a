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

/// A regular file's rows found again where they are (V7): an index of where each row starts in
/// the file, 8 bytes a row, and the rows parsed again from those bytes when they are shown, by a
/// reader of the same format and dialect. Nothing is copied. Used for uncompressed UTF-8 CSV and
/// TSV files that read without a replacement (other inputs are spooled, `RowSpool`); every read
/// first checks the file is as it was (I7), so a file changed under the view is said, not misread.
package final class FileRows: ViewRows, @unchecked Sendable {
    package let file: RandomAccess
    private let choice: TableInput.Choice
    /// Row starts (file offsets) appended and not yet published (the loading thread's).
    private var pending: [Int64] = []
    /// Published row starts, and where the last published row ends.
    package let index = Locked((starts: OffsetIndex(first: nil), end: Int64(0)))
    private let changed = Locked<InputError?>(nil)
    private let name: String
    /// The input whose descriptor `file` is: kept open as long as these rows are read.
    private let owner: Any
    /// The file's bytes as indexed: a hash of their sample (`SaveFile.sample`), and the file's
    /// identity last seen holding them (it grows when rows are appended; V10).
    private let indexed: Int
    private let seen: Locked<FileIdentity>

    package init(_ file: RandomAccess, choice: TableInput.Choice, name: String, owner: Any) {
        self.file = file
        self.owner = owner
        self.choice = choice
        self.name = name
        indexed = SaveFile.sample(file.fd, size: file.identity.size)
        seen = Locked(file.identity)
    }

    // MARK: - Appending (the loading thread)

    /// A row starting at `offset` in the file.
    package func append(start offset: Int64) { pending.append(offset) }

    /// Makes the appended rows readable; the last of them ends at `end`.
    package func publish(end: Int64) {
        let starts = pending
        pending.removeAll(keepingCapacity: true)
        index.withLock { index in
            for start in starts { index.starts.append(start) }
            index.end = end
        }
    }

    // MARK: - Reading (any thread)

    package var count: Int { index.withLock { $0.starts.count } }

    package var problem: InputError? { changed.current }

    private func span(_ range: Range<Int>) -> (start: Int64, end: Int64)? {
        index.withLock { index in
            guard range.lowerBound >= 0, range.upperBound <= index.starts.count, !range.isEmpty else { return nil }
            let end = range.upperBound < index.starts.count ? index.starts[range.upperBound] : index.end
            return (index.starts[range.lowerBound], end)
        }
    }

    package func scan(_ range: Range<Int>, _ body: (Int, Fields) -> Bool) {
        guard changed.current == nil else { return }
        guard holdsRowsRead else {
            changed.withLock { $0 = .fileChanged("the view shows it no more", source: name) }
            return
        }
        read(range, body)
    }

    /// Whether the file still holds the bytes indexed: as it was, or only grown since (rows
    /// appended: their first bytes hash as they did). A change in place, a cut, is not.
    private var holdsRowsRead: Bool {
        guard let now = FileIdentity.of(file.fd) else { return false }
        if now == seen.current { return true }
        let original = file.identity
        guard now.size > original.size, SaveFile.sample(file.fd, size: original.size) == indexed else { return false }
        seen.withLock { $0 = now }
        return true
    }

    /// Rows `range` parsed again from the file's bytes.
    private func read(_ range: Range<Int>, _ body: (Int, Fields) -> Bool) {
        let piece: Int64 = 1 << 20
        var id = range.lowerBound
        var buffer: [UInt8] = []
        var record = Record()
        while id < range.upperBound {
            // Whole rows, about a piece's worth (at least one).
            guard let first = span(id..<(id + 1)) else { return }
            var last = id + 1
            var step = 1
            while last < range.upperBound {
                let next = min(range.upperBound, last + step)
                guard let bytes = span(id..<next), bytes.end - first.start <= piece else { break }
                last = next
                step *= 2
            }
            guard let bytes = span(id..<last) else { return }
            let length = Int(bytes.end - bytes.start)
            if buffer.count < length { buffer = [UInt8](repeating: 0, count: length) }
            guard readFully(file.fd, into: &buffer, count: length, at: file.start + bytes.start) else { return }
            let stream = InputStream(MemorySource(Array(buffer[0..<length])), encoding: .utf8, trustValidUTF8: true)
            guard var reader = try? TableInput.makeReader(choice, stream: stream, name: name, explicitJSON: false) else { return }
            for k in id..<last {
                guard (try? reader.read(into: &record)) == true else { return }
                if !record.withFields({ body(k, $0) }) { return }
            }
            id = last
        }
    }
}

/// The rows a view shows, wherever they are: found again in their file (`FileRows`), then
/// spooled (`RowSpool`). A file is read in place from its first row; other inputs (a followed
/// file too, V9) are spooled from the first row. The loader chooses before the first row is published.
package final class RowStore: ViewRows, @unchecked Sendable {
    package let spool: RowSpool
    package let file = Locked<FileRows?>(nil)

    /// A store that spools until told the rows can be found in their file. The spool's file is
    /// made only for rows that are spooled (`RowSpool.prepare`).
    package init() { spool = RowSpool() }

    /// Rows from the first are found in their file (nil: spooled, from the first row); once
    /// their file's rows are all published, rows appended to the spool follow them.
    package func use(_ rows: FileRows?) { file.withLock { $0 = rows } }

    /// Whether the first rows are found in their file rather than spooled.
    package var isInPlace: Bool { file.current != nil }

    package var count: Int { (file.current?.count ?? 0) + spool.count }
    package var problem: InputError? { file.current?.problem ?? spool.problem }

    package func scan(_ range: Range<Int>, _ body: (Int, Fields) -> Bool) {
        guard let rows = file.current else { return spool.scan(range, body) }
        let split = rows.count
        var going = true
        if range.lowerBound < split {
            rows.scan(range.lowerBound..<min(split, range.upperBound)) { id, fields in
                going = body(id, fields)
                return going
            }
        }
        guard going, range.upperBound > split else { return }
        spool.scan(max(0, range.lowerBound - split)..<(range.upperBound - split)) { id, fields in body(id + split, fields) }
    }
}
