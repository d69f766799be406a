import Input
import Profile
import Support
import Text
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support

/// A binary heap of run numbers, the first by an order given at each change (a merge's runs, each
/// by its current row).
package struct RunHeap {
    private var items: [Int] = []

    package init() {}

    package var top: Int? { items.first }

    package mutating func push(_ run: Int, by before: (Int, Int) -> Bool) {
        items.append(run)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard before(items[i], items[parent]) else { return }
            items.swapAt(i, parent)
            i = parent
        }
    }

    /// The top's run moved on: it goes down to its place.
    package mutating func replaceTop(by before: (Int, Int) -> Bool) {
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var best = i
            if l < items.count && before(items[l], items[best]) { best = l }
            if r < items.count && before(items[r], items[best]) { best = r }
            if best == i { return }
            items.swapAt(i, best)
            i = best
        }
    }

    /// The top's run is done.
    package mutating func popTop(by before: (Int, Int) -> Bool) {
        items[0] = items[items.count - 1]
        items.removeLast()
        if !items.isEmpty { replaceTop(by: before) }
    }
}

/// A row as words: its number, its field count, each field's end, then its bytes padded to a
/// whole word. Fields are read in place (`fields`), with no copy.
package enum RowWords {
    /// Appends a row.
    package static func append(row: Int, _ fields: Fields, to words: inout GrowableArray<Int>) {
        // Fields that do not follow one another are gathered into a record first.
        if fields.starts != nil { return Record(fields).withFields { append(row: row, $0, to: &words) } }
        let bytes = fields.count == 0 ? 0 : fields.ends[fields.count - 1]
        words.append(row)
        words.append(fields.count)
        words.append(contentsOf: UnsafeBufferPointer(start: fields.ends, count: fields.count))
        let start = words.count
        let byteWords = (bytes + 7) / 8
        for _ in 0..<byteWords { words.append(0) }
        words.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            let target = UnsafeMutableRawPointer(mutating: base + start)
            target.copyMemory(from: fields.base, byteCount: bytes)
        }
    }

    /// The row that starts at word `start` of `words`, checked to lie in them whole (its length
    /// is read from its own words, so its header is checked first): a bad start stops the
    /// program rather than reading past the block.
    package static func row(at start: Int, in words: UnsafeBufferPointer<Int>) -> UnsafePointer<Int> {
        precondition(start >= 0 && start + 2 <= words.count, "a held row starts past its block")
        guard let base = words.baseAddress else { preconditionFailure("a held row in an empty block") }
        let row = base + start
        precondition(row[1] >= 0 && start + 2 + row[1] <= words.count && start + length(row) <= words.count, "a held row runs past its block")
        return row
    }

    /// The words a row takes, from its first.
    package static func length(_ row: UnsafePointer<Int>) -> Int {
        let count = row[1]
        let bytes = count == 0 ? 0 : row[1 + count]
        return 2 + count + (bytes + 7) / 8
    }

    /// The row's fields in place.
    package static func fields(_ row: UnsafePointer<Int>) -> Fields {
        let count = row[1]
        let base = UnsafeRawPointer(row + 2 + count).assumingMemoryBound(to: UInt8.self)
        return Fields(base: base, ends: row + 2, count: count)
    }
}

/// One sorted run in a temporary file, rows as `RowWords`; written once, read from the start.
package final class SortedRun {
    /// Whether each sort column was compared as numbers when this run was sorted.
    package let numeric: [Bool]
    private let fd: Int32
    private var buffer = GrowableArray<Int>()
    private var written: Int64 = 0

    package static var directory: String { TemporaryFiles.directory }

    /// How many runs a sort keeps open before merging some (`ExternalSort.reduce`): 64, or fewer
    /// where the limit on open files is low: a third of what it leaves past 24 (for the input,
    /// the output, and a `--group-by` after `--sort`, which writes its own runs while the sort's
    /// are merged).
    package static let openRuns: Int = {
        guard let limit = OpenFileLimit.current() else { return 16 }
        return max(2, min(64, (Int(clamping: limit.rlim_cur) - 24) / 3))
    }()

    package init(numeric: [Bool]) throws(InputError) {
        self.numeric = numeric
        let fd = unlinkedTemporaryFile(in: Self.directory, prefix: "tablefmt-sort")
        guard fd >= 0 else {
            throw InputError(.readFailed, "cannot make a temporary file to sort in: \(systemMessage(errno)) (set TMPDIR, or raise --memory-limit)", source: Self.directory)
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Appends a row's words.
    package func write(_ row: UnsafeBufferPointer<Int>) throws(InputError) {
        buffer.append(contentsOf: row)
        if buffer.count >= 1 << 17 { try flush() }
    }

    /// Writes what is buffered and lets the buffer go (a run is only read from now on).
    package func finish() throws(InputError) {
        try flush()
        buffer = GrowableArray()
    }

    private func flush() throws(InputError) {
        let bytes = buffer.count * 8
        let failure = buffer.withUnsafeBufferPointer { writeFully(fd, from: UnsafeRawBufferPointer($0), at: written) }
        if failure != 0 {
            throw InputError(.readFailed, "cannot write a temporary file to sort in: \(systemMessage(failure)) (set TMPDIR to a larger disk)", source: Self.directory)
        }
        written += Int64(bytes)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Reads the run from its start.
    package func reader() -> Reader { Reader(fd: fd, size: written / 8) }

    /// A run read from its start, a piece at a time.
    package final class Reader {
        private let fd: Int32
        /// The run's length, and how far it is read, in words.
        private let size: Int64
        private var offset: Int64 = 0
        private var piece = GrowableArray<Int>()
        private var at = 0

        package init(fd: Int32, size: Int64) {
            self.fd = fd
            self.size = size
        }

        /// The next row, valid until the next call; nil at the end.
        package func next() throws(InputError) -> UnsafePointer<Int>? {
            guard try fill(2) else { return nil }
            let count = piece[at + 1]
            guard try fill(2 + count) else { return nil }
            let bytes = count == 0 ? 0 : piece[at + 1 + count]
            let length = 2 + count + (bytes + 7) / 8
            guard try fill(length) else { return nil }
            let row = piece.unsafeBase + at
            at += length
            return row
        }

        /// Makes `count` words available from `at`. - Returns: false at the end of the run.
        private func fill(_ count: Int) throws(InputError) -> Bool {
            if piece.count - at >= count { return true }
            guard offset < size else { return false }
            // What is left moves to the front, then the next piece is read after it.
            var rest = GrowableArray<Int>()
            piece.withUnsafeBufferPointer { rest.append(contentsOf: UnsafeBufferPointer(rebasing: $0[at...])) }
            let want = Int(min(Int64(max(count - rest.count, 1 << 13)), size - offset))
            let read = rest.append(atMost: want) { free in
                readFully(fd, into: UnsafeMutableRawBufferPointer(free), at: offset * 8) ? free.count : nil
            }
            guard read else {
                throw InputError(.readFailed, "cannot read a temporary file to sort in: \(systemMessage(errno))", source: SortedRun.directory)
            }
            offset += Int64(want)
            piece = rest
            at = 0
            return piece.count >= count
        }
    }
}

/// The limit on open files: what it is, and the soft one raised to the hard one.
public enum OpenFileLimit {
    #if canImport(Glibc)
    package static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    package static let resource = RLIMIT_NOFILE
    #endif

    /// The soft and hard limits, or nil when they cannot be read.
    package static func current() -> rlimit? {
        var limit = rlimit()
        return getrlimit(resource, &limit) == 0 ? limit : nil
    }

    /// Raises the soft limit to the hard one, as far as it goes (a sort merges more runs at once).
    public static func raise() {
        guard var limit = current(), limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
    }
}
