import Input
import Support
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support

/// The rows a view moves through, by row number (0 is the first data row): held in memory
/// (tests, and small inputs), or spooled to a temporary file (`RowSpool`).
package protocol ViewRows: AnyObject {
    /// Rows there are now (a spool still loading has more to come).
    var count: Int { get }
    /// Row `id`'s fields; an empty record when it cannot be read.
    func record(_ id: Int) -> Record
    /// Calls `body` with rows `range` in order, until it returns false. Reads in large pieces:
    /// sorting, filtering and searching go through every row this way.
    func scan(_ range: Range<Int>, _ body: (Int, Fields) -> Bool)
    /// Why rows can no longer be read (the file changed under the view), if they cannot.
    var problem: InputError? { get }
}

extension ViewRows {
    package var problem: InputError? { nil }

    /// Row `id` on its own (a scan of one row).
    package func record(_ id: Int) -> Record {
        var record = Record()
        scan(id..<(id + 1)) { _, fields in
            record = Record(fields)
            return false
        }
        return record
    }
}

/// Rows held in memory.
package final class MemoryRows: ViewRows {
    private let rows: [Record]

    package init(_ rows: [[String]]) { self.rows = rows.map { Record($0) } }
    package init(records: [Record]) { rows = records }

    package var count: Int { rows.count }
    package func record(_ id: Int) -> Record { rows[id] }
    package func scan(_ range: Range<Int>, _ body: (Int, Fields) -> Bool) {
        for id in range.clamped(to: 0..<rows.count) {
            if !rows[id].withFields({ body(id, $0) }) { return }
        }
    }
}

/// The viewer's rows on disk, so a view never holds all rows (V7): each row as the reader gave
/// it, appended to a temporary file that is unlinked as soon as it is made (nothing is left
/// behind, however the program ends), and found through an index of row offsets, 8 bytes a row.
///
/// One thread appends (`append`, then `publish`); any thread reads what is published. A row is
/// stored as its field count, each field's end (4 bytes each), then its bytes.
package final class RowSpool: ViewRows, @unchecked Sendable {
    /// Where the temporary file goes.
    private let directory: String
    /// The temporary file, made by `prepare` (the loader calls it before it reads rows to spool;
    /// `publish` makes sure of it): a view of a file read in place needs none (V7). Set by the
    /// appending thread before any row is published, so a reader that sees a row (through
    /// `offsets`' lock) sees it set.
    private var fd: Int32 = -1
    /// Rows appended and not yet written (the appending thread's own).
    private var pending: [UInt8] = []
    private var pendingEnds: [Int64] = []
    private var written: Int64 = 0
    /// Where each published row starts, and one past the last: `count + 1` entries, 8 bytes each,
    /// in blocks that never move (an array grown by doubling would hold twice that while it grows).
    private let offsets = Locked(OffsetIndex())

    /// A spool in `directory` (`TMPDIR`, else `/tmp`); its file is made by `prepare`.
    package init(directory: String? = nil) {
        self.directory = directory ?? TemporaryFiles.directory
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Makes the temporary file, unless it is made already (the appending thread, before it
    /// publishes a row).
    /// - Throws: `InputError` `.readFailed` (exit 74) when no temporary file can be made.
    package func prepare() throws(InputError) {
        guard fd < 0 else { return }
        let made = unlinkedTemporaryFile(in: directory, prefix: "tablefmt-view")
        guard made >= 0 else {
            throw InputError(.readFailed, "cannot make a temporary file in \(directory): \(systemMessage(errno)) (set TMPDIR)", source: directory)
        }
        fd = made
    }

    // MARK: - Appending (one thread)

    /// Adds a row, published by the next `publish()`.
    package func append(_ record: Record) {
        let count = record.count
        appendWord(UInt32(truncatingIfNeeded: count))
        for k in 0..<count { appendWord(UInt32(truncatingIfNeeded: record.ends[k])) }
        record.bytes.withUnsafeBufferPointer { pending.append(contentsOf: $0) }
        pendingEnds.append(written + Int64(pending.count))
    }

    private func appendWord(_ word: UInt32) {
        withUnsafeBytes(of: word.littleEndian) { pending.append(contentsOf: $0) }
    }

    /// Bytes appended and not yet published.
    package var pendingBytes: Int { pending.count }

    /// Writes the appended rows and makes them readable.
    /// - Throws: `.readFailed` when the temporary file cannot be written (a full disk).
    package func publish() throws(InputError) {
        guard !pendingEnds.isEmpty else { return }
        try prepare()
        let failure = pending.withUnsafeBytes { writeFully(fd, from: $0, at: written) }
        if failure != 0 {
            throw InputError(.readFailed, "cannot write the view's temporary file: \(systemMessage(failure))", source: directory)
        }
        written += Int64(pending.count)
        pending.removeAll(keepingCapacity: true)
        let ends = pendingEnds
        pendingEnds.removeAll(keepingCapacity: true)
        offsets.withLock { index in for end in ends { index.append(end) } }
    }

    // MARK: - Reading (any thread)

    package var count: Int { offsets.withLock { $0.count - 1 } }

    private func span(_ range: Range<Int>) -> (start: Int64, end: Int64)? {
        offsets.withLock { offsets in
            guard range.lowerBound >= 0, range.upperBound < offsets.count, !range.isEmpty else { return nil }
            return (offsets[range.lowerBound], offsets[range.upperBound])
        }
    }

    package func scan(_ range: Range<Int>, _ body: (Int, Fields) -> Bool) {
        let piece = 1 << 20
        var id = range.lowerBound
        var record = Record()
        var buffer: [UInt8] = []
        while id < range.upperBound {
            // As many whole rows as fit in a piece (at least one).
            var last = id + 1
            guard let first = span(id..<last) else { return }
            while last < range.upperBound, let next = span(id..<(last + 1)), next.end - first.start <= piece { last += 1 }
            guard let bytes = span(id..<last) else { return }
            let length = Int(bytes.end - bytes.start)
            if buffer.count < length { buffer = [UInt8](repeating: 0, count: length) }
            guard readFully(fd, into: &buffer, count: length, at: bytes.start) else { return }
            let rowStarts: [Int64] = offsets.withLock { index in (id...last).map { index[$0] } }
            let keepGoing = buffer.withUnsafeBufferPointer { all -> Bool in
                for k in 0..<(last - id) {
                    let start = Int(rowStarts[k] - bytes.start), end = Int(rowStarts[k + 1] - bytes.start)
                    Self.decode(UnsafeBufferPointer(rebasing: all[start..<end]), into: &record)
                    if !record.withFields({ body(id + k, $0) }) { return false }
                }
                return true
            }
            if !keepGoing { return }
            id = last
        }
    }

    /// A stored row back into a record.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, into record: inout Record) {
        record.clear()
        func word(_ k: Int) -> Int {
            var value: UInt32 = 0
            withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[(k * 4)..<(k * 4 + 4)]))) }
            return Int(UInt32(littleEndian: value))
        }
        guard bytes.count >= 4 else { return }
        let count = word(0)
        let body = 4 * (count + 1)
        guard bytes.count >= body else { return }
        var start = 0
        for k in 0..<count {
            let end = word(k + 1)
            record.append(UnsafeBufferPointer(rebasing: bytes[(body + start)..<(body + end)]))
            start = end
        }
    }
}

/// Row offsets in blocks of 64 Ki entries: appending never copies what is there.
package struct OffsetIndex {
    private static let shift = 16
    private var blocks: [[Int64]] = [[]]
    package private(set) var count = 0

    /// An index holding `first`, or nothing.
    package init(first: Int64? = 0) {
        blocks[0].reserveCapacity(1 << Self.shift)
        if let first { append(first) }
    }

    package subscript(index: Int) -> Int64 { blocks[index >> Self.shift][index & (1 << Self.shift - 1)] }

    package mutating func append(_ offset: Int64) {
        if blocks[blocks.count - 1].count == 1 << Self.shift {
            var block: [Int64] = []
            block.reserveCapacity(1 << Self.shift)
            blocks.append(block)
        }
        blocks[blocks.count - 1].append(offset)
        count += 1
    }
}
