#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--sort` beyond memory (P2, W11), as sort(1) does it: rows are held until they would pass the
/// memory budget, then sorted and written out as a *run* to a temporary file (unlinked as soon as
/// it is made, so nothing is left behind however tablefmt ends); at the end the runs are merged,
/// a row from each at a time. The order is exactly the in-memory sort's: by the keys, empty cells
/// last, ties in input order (each row carries its number).
///
/// Rows are held back to back in one block of words, in the layout the run files use (`RowWords`),
/// so holding, sorting, writing and merging a row allocates nothing of its own.
///
/// A sort column's type (numbers by value, or text) is decided from every row, which is known only
/// at the end: a run sorted while its column still looked numeric and that turned out to be text
/// is sorted again before the merge.
final class ExternalSort {
    let keys: [(index: Int, descending: Bool)]
    /// Words of rows held before a run is written (a third of the budget: the sort's values and
    /// the merge's buffers take the rest).
    let runWords: Int
    private(set) var runs: [SortedRun] = []
    /// Rows read.
    private(set) var count = 0
    /// The rows held for the next run, and where each starts.
    private var held = GrowableArray<Int>()
    private var starts: [Int] = []

    init(keys: [(index: Int, descending: Bool)], budget: Int) {
        self.keys = keys
        runWords = budget / 3 / 8
    }

    /// Whether any run has been written (else every row is still held, sorted in memory).
    var spilled: Bool { !runs.isEmpty }

    /// Adds a row. When the rows held pass the budget they are sorted by `numeric` (the sort
    /// columns' types as known so far) and written as a run.
    /// - Throws: `InputError` `.readFailed` (exit 74) when a temporary file cannot be written.
    /// - Parameter number: what orders rows the keys tie on (default: the row's number in the input).
    func add(_ record: Record, numeric: [Bool], number: Int? = nil) throws(InputError) {
        starts.append(held.count)
        record.withFields { RowWords.append(row: number ?? count, $0, to: &held) }
        count += 1
        if held.count > runWords { try spill(numeric: numeric) }
    }

    /// The rows held, in input order (when nothing was spilled), as records.
    func takeHeld() -> [Record] {
        defer {
            held.removeAll()
            starts = []
        }
        return held.withUnsafeBufferPointer { words in
            guard let base = words.baseAddress else { return [] }
            return starts.map { start in
                Record(RowWords.fields(base + start))
            }
        }
    }

    /// Writes the rows held as a sorted run.
    func spill(numeric: [Bool]) throws(InputError) {
        guard !starts.isEmpty else { return }
        let types = keys.map { $0.index < numeric.count && numeric[$0.index] }
        let order = sortedHeld(types)
        let run = try SortedRun(numeric: types)
        try held.withUnsafeBufferPointer { (words) throws(InputError) in
            guard let base = words.baseAddress else { return }
            for k in order {
                let row = base + starts[k]
                try run.write(UnsafeBufferPointer(start: row, count: RowWords.length(row)))
            }
        }
        try run.finish()
        runs.append(run)
        held.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
    }

    /// The held rows' order: their sort values computed once, compared flat (`RowOrder.order`).
    private func sortedHeld(_ types: [Bool]) -> [Int] {
        var values: [RowOrder.Value?] = []
        values.reserveCapacity(starts.count * keys.count)
        var rows: [Int] = []
        rows.reserveCapacity(starts.count)
        held.withUnsafeBufferPointer { words in
            guard let base = words.baseAddress else { return }
            for start in starts {
                let row = base + start
                rows.append(row[0])
                let fields = RowWords.fields(row)
                for (key, numeric) in zip(keys, types) { values.append(RowOrder.value(fields, key.index, numeric: numeric)) }
            }
        }
        return RowOrder.order(values, count: rows.count, descending: keys.map(\.descending), rowNumbers: rows)
    }

    /// Ends the input: the last rows as a run, and every run in the final types.
    func finish(numeric: [Bool]) throws(InputError) {
        try spill(numeric: numeric)
        let types = keys.map { $0.index < numeric.count && numeric[$0.index] }
        for k in runs.indices where runs[k].numeric != types {
            // Sorted while a column looked numeric: sorted again, now that it is text.
            let reader = runs[k].reader()
            while let row = try reader.next() {
                starts.append(held.count)
                held.append(contentsOf: UnsafeBufferPointer(start: row, count: RowWords.length(row)))
            }
            let again = try SortedRun(numeric: types)
            let order = sortedHeld(types)
            try held.withUnsafeBufferPointer { (words) throws(InputError) in
                guard let base = words.baseAddress else { return }
                for j in order {
                    let row = base + starts[j]
                    try again.write(UnsafeBufferPointer(start: row, count: RowWords.length(row)))
                }
            }
            try again.finish()
            runs[k] = again
            held.removeAll(keepingCapacity: true)
            starts.removeAll(keepingCapacity: true)
        }
    }

    /// Why a merge stopped: a run could not be read, or `body` threw.
    enum MergeError<Failure: Error>: Error {
        case input(InputError)
        case output(Failure)
    }

    /// Calls `body` with every row in sorted order, and the number it was added with, until it
    /// returns false: a merge of the runs (`numeric`: the sort columns' final types), each run's
    /// next row at the top of a heap.
    func merge<Failure: Error>(numeric: [Bool], _ body: (Fields, Int) throws(Failure) -> Bool) throws(MergeError<Failure>) {
        let types = keys.map { $0.index < numeric.count && numeric[$0.index] }
        let descending = keys.map(\.descending)
        let k = keys.count
        let readers = runs.map { $0.reader() }
        // Each run's current row, its number and its sort values (k a run, flat).
        var current: [UnsafePointer<Int>?] = Array(repeating: nil, count: readers.count)
        var numbers = Array(repeating: 0, count: readers.count)
        var values: [RowOrder.Value?] = Array(repeating: nil, count: readers.count * k)
        func load(_ run: Int) throws(InputError) -> Bool {
            guard let row = try readers[run].next() else { return false }
            current[run] = row
            numbers[run] = row[0]
            let fields = RowWords.fields(row)
            for (j, (key, numeric)) in zip(keys, types).enumerated() { values[run * k + j] = RowOrder.value(fields, key.index, numeric: numeric) }
            return true
        }
        func before(_ a: Int, _ b: Int) -> Bool {
            for j in 0..<k {
                if let first = RowOrder.before(values[a * k + j], values[b * k + j], descending: descending[j]) { return first }
            }
            return numbers[a] < numbers[b]  // ties: the earlier row first (stable)
        }
        var heap = RunHeap()
        do {
            for run in readers.indices where try load(run) { heap.push(run, by: before) }
        } catch {
            throw .input(error)
        }
        while let top = heap.top {
            // A run is in the heap only once `load` gave it a row.
            guard let row = current[top] else { preconditionFailure("a run in the merge has no current row") }
            let keepGoing: Bool
            do { keepGoing = try body(RowWords.fields(row), numbers[top]) } catch { throw .output(error) }
            if !keepGoing { return }
            let more: Bool
            do { more = try load(top) } catch { throw .input(error) }
            if more { heap.replaceTop(by: before) } else { heap.popTop(by: before) }
        }
    }
}

/// A binary heap of run numbers, the first by an order given at each change (a merge's runs, each
/// by its current row).
struct RunHeap {
    private var items: [Int] = []

    var top: Int? { items.first }

    mutating func push(_ run: Int, by before: (Int, Int) -> Bool) {
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
    mutating func replaceTop(by before: (Int, Int) -> Bool) {
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
    mutating func popTop(by before: (Int, Int) -> Bool) {
        items[0] = items[items.count - 1]
        items.removeLast()
        if !items.isEmpty { replaceTop(by: before) }
    }
}

/// A row as words: its number, its field count, each field's end, then its bytes padded to a
/// whole word. Fields are read in place (`fields`), with no copy.
enum RowWords {
    /// Appends a row.
    static func append(row: Int, _ fields: Fields, to words: inout GrowableArray<Int>) {
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

    /// The words a row takes, from its first.
    static func length(_ row: UnsafePointer<Int>) -> Int {
        let count = row[1]
        let bytes = count == 0 ? 0 : row[1 + count]
        return 2 + count + (bytes + 7) / 8
    }

    /// The row's fields in place.
    static func fields(_ row: UnsafePointer<Int>) -> Fields {
        let count = row[1]
        let base = UnsafeRawPointer(row + 2 + count).assumingMemoryBound(to: UInt8.self)
        return Fields(base: base, ends: row + 2, count: count)
    }
}

/// One sorted run in a temporary file, rows as `RowWords`; written once, read from the start.
final class SortedRun {
    /// Whether each sort column was compared as numbers when this run was sorted.
    let numeric: [Bool]
    private let fd: Int32
    private var buffer = GrowableArray<Int>()
    private var written: Int64 = 0

    static var directory: String { TemporaryFiles.directory }

    init(numeric: [Bool]) throws(InputError) {
        self.numeric = numeric
        let fd = unlinkedTemporaryFile(in: Self.directory, prefix: "tablefmt-sort")
        guard fd >= 0 else {
            throw InputError(.readFailed, "cannot make a temporary file for --sort: \(systemMessage(errno)) (set TMPDIR, or raise --memory-limit)", source: Self.directory)
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Appends a row's words.
    func write(_ row: UnsafeBufferPointer<Int>) throws(InputError) {
        buffer.append(contentsOf: row)
        if buffer.count >= 1 << 17 { try flush() }
    }

    /// Writes what is buffered and lets the buffer go (a run is only read from now on).
    func finish() throws(InputError) {
        try flush()
        buffer = GrowableArray()
    }

    private func flush() throws(InputError) {
        let bytes = buffer.count * 8
        let failure = buffer.withUnsafeBufferPointer { writeFully(fd, from: UnsafeRawPointer($0.baseAddress), count: bytes, at: written) }
        if failure != 0 {
            throw InputError(.readFailed, "cannot write a temporary file for --sort: \(systemMessage(failure)) (set TMPDIR to a larger disk)", source: Self.directory)
        }
        written += Int64(bytes)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Reads the run from its start.
    func reader() -> Reader { Reader(fd: fd, size: written / 8) }

    /// A run read from its start, a piece at a time.
    final class Reader {
        private let fd: Int32
        /// The run's length, and how far it is read, in words.
        private let size: Int64
        private var offset: Int64 = 0
        private var piece = GrowableArray<Int>()
        private var at = 0

        init(fd: Int32, size: Int64) {
            self.fd = fd
            self.size = size
        }

        /// The next row, valid until the next call; nil at the end.
        func next() throws(InputError) -> UnsafePointer<Int>? {
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
            let old = rest.count
            for _ in 0..<want { rest.append(0) }
            let read = rest.withUnsafeBufferPointer { readFully(fd, into: UnsafeMutableRawPointer(mutating: $0.baseAddress).map { $0 + old * 8 }, count: want * 8, at: offset * 8) }
            guard read else {
                throw InputError(.readFailed, "cannot read a temporary file for --sort: \(systemMessage(errno))", source: SortedRun.directory)
            }
            offset += Int64(want)
            piece = rest
            at = 0
            return piece.count >= count
        }
    }
}
