import Input
import Profile
import Support
import Text
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One part's share of a text sort in runs (`ViewState.textOrderInRuns`): each cell as the bytes
/// `--sort` orders it by (W11) with its row number, held until they pass the part's budget, then
/// sorted and written as a run to a temporary file (`SortedRun`, rows as `RowWords`); empty and
/// null-like cells are only listed (they go last either way).
///
/// A cell's *order bytes* are the UTF-8 of its text in NFC (`RowOrder.Value.orderText`), which
/// `--sort` compares too: by `memcmp`, the shorter first on a tie, the Unicode order of the texts'
/// NFC forms. A run
/// is sorted by 8-byte keys of those bytes beside the cells' places (`KeyedRows`, its radix sort):
/// seven bytes from a depth and how many bytes are left there; cells whose keys tie and go on past
/// them are sorted again by their next seven bytes, and so on. Rows whose bytes are the same stay
/// in row order.
package final class TextRuns {
    package let descending: Bool
    /// Bytes the held cells may take: their words twice (they are copied once while a run is
    /// sorted), and 20 bytes a cell.
    package let budget: Int
    /// The runs written, in row order.
    private(set) var runs: [SortedRun] = []
    /// Rows with an empty or null-like cell, in row order.
    private(set) var empty: [Int32] = []
    /// The part's only run, when it fitted the budget: held, not written.
    private var kept: HeldRun?
    /// The first failure to write a run (the part then adds nothing more).
    private(set) var failure: InputError?
    /// Read from other modules through these (a stored property another module can reach is
    /// checked for exclusive access at run time on every access, here too).
    package var emptyRows: [Int32] { empty }
    package var writeFailure: InputError? { failure }
    private var held = GrowableArray<Int>()
    private var starts: [Int] = []
    /// A group of tied keys this small is sorted by comparing its cells.
    package static let compared = 64

    package init(descending: Bool, budget: Int) {
        self.descending = descending
        self.budget = max(256, budget)
    }

    /// Adds row `id`'s cell; writes a run when the cells held pass the budget.
    package func add(_ id: Int, _ cell: UnsafeBufferPointer<UInt8>) {
        guard failure == nil else { return }
        if cell.isEmpty || CellKind.isNullWord(cell) {
            empty.append(Int32(truncatingIfNeeded: id))
            return
        }
        Self.withOrderBytes(cell) { hold(id, $0) }
        if held.count * 16 + starts.count * 20 > budget { spill() }
    }

    /// `body` with a cell's order bytes (the cell neither empty nor null-like): the UTF-8 of the
    /// text `RowOrder.value` compares (`RowOrder.Value.orderText`); an ASCII cell as it is.
    package static func withOrderBytes<R>(_ cell: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if isASCII(cell) { return body(cell) }
        var text = RowOrder.Value.orderText(cell)
        return text.withUTF8(body)
    }

    @inline(__always)
    private static func isASCII(_ cell: UnsafeBufferPointer<UInt8>) -> Bool {
        var any: UInt8 = 0
        for byte in cell { any |= byte }
        return any < 0x80
    }

    /// Holds a cell's order bytes (never empty: an empty cell is only listed).
    private func hold(_ id: Int, _ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        starts.append(held.count)
        var end = bytes.count
        withUnsafePointer(to: &end) { RowWords.append(row: id, Fields(base: base, ends: $0, count: 1), to: &held) }
    }

    /// Ends the part: the cells still held as the last run, kept in memory when it is the only
    /// one (a column that fits the budget needs no temporary file).
    package func finish() {
        guard failure == nil, !starts.isEmpty else { return }
        if runs.isEmpty {
            let (words, starts, order) = sortedHeld()
            kept = HeldRun(words: words, starts: starts, order: order)
        } else {
            spill()
        }
        held = GrowableArray()
        starts = []
    }

    /// The part's sorted runs, read from their starts: the held one, or those on disk.
    package func readers() -> [any RunRows] {
        if let kept { return [kept] }
        return runs.map { $0.reader() }
    }

    /// The held cells sorted, written as a run.
    private func spill() {
        guard !starts.isEmpty else { return }
        let (words, starts, order) = sortedHeld()
        do throws(InputError) {
            let run = try SortedRun(numeric: [false])
            try words.withUnsafeBufferPointer { (words) throws(InputError) in
                guard let base = words.baseAddress else { return }
                for place in order {
                    let row = base + starts[Int(place)]
                    try run.write(UnsafeBufferPointer(start: row, count: RowWords.length(row)))
                }
            }
            try run.finish()
            runs.append(run)
        } catch {
            failure = error
        }
    }

    /// The held cells sorted (and let go): they are sorted by their first seven bytes, then copied
    /// in that order, so each group of tied keys lies together in memory while it is sorted
    /// further and written (a group read at random over the whole run would miss the cache at
    /// every deeper key). - Returns: the copy, where each cell starts in it, and their order.
    private func sortedHeld() -> (GrowableArray<Int>, [Int], [Int32]) {
        let count = starts.count
        var keys = [UInt64](repeating: 0, count: count)
        var places = (0..<Int32(count)).map { $0 }
        var sorted = GrowableArray<Int>()
        var sortedStarts: [Int] = []
        sortedStarts.reserveCapacity(count)
        held.withUnsafeBufferPointer { words in
            guard let base = words.baseAddress else { return }
            keys.withUnsafeMutableBufferPointer { keys in
                places.withUnsafeMutableBufferPointer { places in
                    for i in 0..<count { keys[i] = key(base + starts[i], depth: 0) }
                    var sorter = KeyedRows(keys: keys, ids: places) { _ in true }
                    _ = sorter.sort()
                }
            }
            sorted.reserve(words.count)
            for place in places {
                let row = base + starts[Int(place)]
                sortedStarts.append(sorted.count)
                sorted.append(contentsOf: UnsafeBufferPointer(start: row, count: RowWords.length(row)))
            }
        }
        held.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        // Places are now in the copy; within a group they rise with the rows, so ties stay in row order.
        for i in 0..<count { places[i] = Int32(i) }
        sorted.withUnsafeBufferPointer { words in
            guard let base = words.baseAddress else { return }
            keys.withUnsafeMutableBufferPointer { keys in
                places.withUnsafeMutableBufferPointer { places in
                    sortedStarts.withUnsafeBufferPointer { starts in
                        Self.sortTied(keys, places, descending: descending) { Self.bytes(base + starts[Int($0)]) }
                    }
                }
            }
        }
        return (sorted, sortedStarts, places)
    }

    /// Sorts the groups of `places` whose keys (sorted, at depth 0) tie and go on past them, by
    /// the order bytes `bytes` gives for a place: a large group by its keys at the next depth,
    /// then its own tied groups the same way; a small one (its cells then in the cache) by
    /// comparing the rest of its cells' bytes. Ties stay in the order of their places. Used by
    /// every text sort in runs: the view's (`TextRuns`) and `--sort`'s (`ExternalSort`).
    package static func sortTied(_ keys: UnsafeMutableBufferPointer<UInt64>, _ places: UnsafeMutableBufferPointer<Int32>, descending: Bool,
                         bytes: (Int32) -> UnsafeBufferPointer<UInt8>) {
        var pending = tied(keys, 0..<keys.count, depth: 0, descending: descending)
        while let (range, depth) = pending.popLast() {
            if range.count <= compared {
                places[range].sort { a, b in
                    let order = compare(bytes(a), bytes(b), from: depth)
                    return order != 0 ? (order < 0) != descending : a < b
                }
                continue
            }
            for i in range { keys[i] = key(bytes(places[i]), depth: depth, descending: descending) }
            var sorter = KeyedRows(keys: UnsafeMutableBufferPointer(rebasing: keys[range]),
                                   ids: UnsafeMutableBufferPointer(rebasing: places[range])) { _ in true }
            _ = sorter.sort()
            pending += tied(keys, range, depth: depth, descending: descending)
        }
    }

    /// The groups of tied keys in sorted `range` that go on past them, with the depth to go on at.
    private static func tied(_ keys: UnsafeMutableBufferPointer<UInt64>, _ range: Range<Int>, depth: Int, descending: Bool) -> [(range: Range<Int>, depth: Int)] {
        var groups: [(range: Range<Int>, depth: Int)] = []
        var start = range.lowerBound
        while start < range.upperBound {
            var end = start + 1
            while end < range.upperBound && keys[end] == keys[start] { end += 1 }
            if end - start > 1 && goesOn(keys[start], descending: descending) { groups.append((start..<end, depth + 7)) }
            start = end
        }
        return groups
    }

    /// A cell's key at `depth`: its bytes there (seven, zeros past its end) above how many of
    /// them it has (8: more than seven); all bits turned over for a descending sort. Keys order
    /// as the bytes do from `depth`, the shorter first on a tie; tied keys that go on
    /// (`goesOn`) say nothing yet of the bytes past them, others are the same bytes.
    @inline(__always)
    package static func key(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int, descending: Bool) -> UInt64 {
        let left = bytes.count - depth
        let take = min(7, max(0, left))
        var key: UInt64 = 0
        for j in 0..<take { key |= UInt64(bytes[depth + j]) << UInt64(56 - 8 * j) }
        key |= left > 7 ? 8 : UInt64(take)
        return descending ? ~key : key
    }

    @inline(__always)
    private func key(_ row: UnsafePointer<Int>, depth: Int) -> UInt64 {
        Self.key(Self.bytes(row), depth: depth, descending: descending)
    }

    /// Whether cells of this key go on past it (so a tie is not yet the same text).
    @inline(__always)
    package static func goesOn(_ key: UInt64, descending: Bool) -> Bool {
        (descending ? ~key : key) & 0xFF == 8
    }

    @inline(__always)
    private func goesOn(_ key: UInt64) -> Bool { Self.goesOn(key, descending: descending) }

    /// -1, 0 or 1 as order bytes `a` go before, with or after `b`, both the same before `from`.
    @inline(__always)
    package static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        let n = min(a.count, b.count) - from
        if n > 0, let x = a.baseAddress, let y = b.baseAddress {
            let c = memcmp(x + from, y + from, n)
            if c != 0 { return c < 0 ? -1 : 1 }
        }
        return a.count == b.count ? 0 : a.count < b.count ? -1 : 1
    }

    /// A run row's order bytes (its one field).
    @inline(__always)
    package static func bytes(_ row: UnsafePointer<Int>) -> UnsafeBufferPointer<UInt8> {
        RowWords.fields(row)[0]
    }
}

/// A sorted run's rows one after another (`RowWords`, each valid until the next).
package protocol RunRows: AnyObject {
    func next() throws(InputError) -> UnsafePointer<Int>?
}

extension SortedRun.Reader: RunRows {}

/// A run that fitted the budget, held in memory: its cells' words and where each starts, in order.
package final class HeldRun: RunRows {
    private let words: GrowableArray<Int>
    private let starts: [Int]
    private let order: [Int32]
    private var at = 0

    package init(words: GrowableArray<Int>, starts: [Int], order: [Int32]) {
        self.words = words
        self.starts = starts
        self.order = order
    }

    package func next() -> UnsafePointer<Int>? {
        guard at < order.count else { return nil }
        defer { at += 1 }
        return words.unsafeBase + starts[Int(order[at])]
    }
}
