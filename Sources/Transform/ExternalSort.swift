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
package final class ExternalSort {
    package let keys: [(index: Int, descending: Bool)]
    /// Words of rows held before a run is written: a sixth of the budget, as two batches are
    /// held at once (one read into while the helper thread sorts and writes the other), and the
    /// sort's keys and the merge's buffers take the rest.
    package let runWords: Int
    /// What the rows held may cost while nothing is spilled: then they are sorted in memory as
    /// records (`takeHeld`), which costs far more than their words (`inMemoryCost`).
    package let inMemoryBudget: Int
    private(set) var runs: [SortedRun] = []
    /// Rows read.
    private(set) var count = 0
    /// `count`, for other modules (whose access to a stored property is checked at run time).
    package var rowsRead: Int { count }
    /// The rows held for the next run, and where each starts.
    private var held = GrowableArray<Int>()
    private var starts: [Int] = []
    /// What the rows held would cost sorted in memory (`inMemoryCost`), while nothing is spilled.
    private var heldCost = 0
    /// The run the helper thread is sorting and writing, and a block to hold rows in again.
    /// The run being made on the helper thread (`HeldBatch.written`), waited for once.
    private var pending: Background<(Result<SortedRun, InputError>, GrowableArray<Int>)>?
    private var spare: GrowableArray<Int>?

    /// The most runs kept (each holds a file open) before some are merged into one (`reduce`).
    package let openRuns: Int

    package init(keys: [(index: Int, descending: Bool)], budget: Int, openRuns: Int = SortedRun.openRuns) {
        self.keys = keys
        self.openRuns = max(2, openRuns)
        runWords = budget / 6 / 8
        inMemoryBudget = budget / 2
    }

    /// What a held row of `words` costs once `takeHeld` has made it a `Record` and the rows are
    /// sorted in memory, while its words are still held: the words twice (the block and the
    /// record's bytes and ends), the record's two buffers, and the sort's value per key, order and
    /// copy. Measured with `/usr/bin/time -f %M` on a million short rows: about 380 bytes a row
    /// besides its words.
    package func inMemoryCost(words: Int) -> Int { 2 * words * 8 + 320 + 64 * keys.count }

    /// Whether any run has been written (else every row is still held, sorted in memory).
    package var spilled: Bool { !runs.isEmpty || pending != nil }

    deinit { _ = pending?.wait() }

    /// Adds a row. When the rows held pass the budget they are sorted by `numeric` (the sort
    /// columns' types as known so far; asked only then, so a row costs no array) and written as a run.
    /// - Throws: `InputError` `.readFailed` (exit 74) when a temporary file cannot be written.
    /// - Parameter number: what orders rows the keys tie on (default: the row's number in the input).
    package func add(_ record: Record, numeric: @autoclosure () -> [Bool], number: Int? = nil) throws(InputError) {
        let start = held.count
        starts.append(start)
        record.withFields { RowWords.append(row: number ?? count, $0, to: &held) }
        count += 1
        if !spilled { heldCost += inMemoryCost(words: held.count - start) }
        if held.count > runWords || heldCost > inMemoryBudget { try spill(numeric: numeric()) }
    }

    /// The rows held, in input order (when nothing was spilled), as records.
    package func takeHeld() -> [Record] {
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
    package func spill(numeric: [Bool]) throws(InputError) {
        try spill(types: keys.map { $0.index < numeric.count && numeric[$0.index] })
    }

    /// Hands the rows held to the helper thread, which sorts them by `types` (per key, numbers by
    /// value) and writes them as a run while the next rows are read (the run before it collected
    /// first: one is made at a time).
    private func spill(types: [Bool]) throws(InputError) {
        guard !starts.isEmpty else { return }
        try collect()
        let batch = HeldBatch(held: held, starts: starts, keys: keys, types: types)
        held = spare ?? GrowableArray()
        spare = nil
        held.removeAll(keepingCapacity: true)
        starts = []
        heldCost = 0
        pending = Background { batch.written() }
    }

    /// Waits for the run the helper thread is writing, if any, keeps it, and keeps the runs under
    /// `openRuns` (`reduce`). - Throws: the helper's failure to write it.
    private func collect() throws(InputError) {
        guard let run = pending else { return }
        pending = nil
        let (made, block) = run.wait()
        spare = block
        runs.append(try made.get())
        try reduce()
    }

    /// Merges runs in stages, as sort(1) does, so that no more than `openRuns` files are ever open
    /// (each run keeps one): once they reach it, the runs sorted by the same types (the most of
    /// them) are merged into one longer run, and theirs are closed. Any runs may be merged: each
    /// row carries its number, which orders ties.
    private func reduce() throws(InputError) {
        guard runs.count >= openRuns else { return }
        var byTypes: [[Bool]: [Int]] = [:]
        for (k, run) in runs.enumerated() { byTypes[run.numeric, default: []].append(k) }
        guard let most = byTypes.values.max(by: { $0.count < $1.count }), most.count > 1 else { return }
        let types = runs[most[0]].numeric
        let merged = try SortedRun(numeric: types)
        var row = GrowableArray<Int>()
        do {
            try Self.merge(most.map { runs[$0] }, keys: keys, types: types) { (fields, number) throws(InputError) -> Bool in
                row.removeAll(keepingCapacity: true)
                RowWords.append(row: number, fields, to: &row)
                try row.withUnsafeBufferPointer { (words) throws(InputError) in try merged.write(words) }
                return true
            }
        } catch {
            switch error {
            case .input(let failure), .output(let failure): throw failure
            }
        }
        try merged.finish()
        let gone = Set(most)
        runs = runs.indices.filter { !gone.contains($0) }.map { runs[$0] } + [merged]
    }

    /// Ends the input: the last rows as a run, and every run in the final types.
    package func finish(numeric: [Bool]) throws(InputError) {
        let types = keys.map { $0.index < numeric.count && numeric[$0.index] }
        try spill(types: types)
        try collect()
        // Runs sorted while a column looked numeric are sorted again, now that it is text: their
        // rows held and written a run's worth at a time (a merged run may be long).
        while let k = runs.firstIndex(where: { $0.numeric != types }) {
            let stale = runs.remove(at: k)
            let reader = stale.reader()
            while let row = try reader.next() {
                starts.append(held.count)
                held.append(contentsOf: UnsafeBufferPointer(start: row, count: RowWords.length(row)))
                if held.count > runWords { try spill(types: types) }
            }
            try spill(types: types)
        }
        try collect()
    }

    /// Why a merge stopped: a run could not be read, or `body` threw.
    package enum MergeError<Failure: Error>: Error {
        case input(InputError)
        case output(Failure)
    }

    /// Calls `body` with every row in sorted order, and the number it was added with, until it
    /// returns false: a merge of the runs (`numeric`: the sort columns' final types).
    package func merge<Failure: Error>(numeric: [Bool], _ body: (Fields, Int) throws(Failure) -> Bool) throws(MergeError<Failure>) {
        try Self.merge(runs, keys: keys, types: keys.map { $0.index < numeric.count && numeric[$0.index] }, body)
    }

    /// A merge of `runs`, each sorted by `types`: each run's next row at the top of a heap.
    private static func merge<Failure: Error>(_ runs: [SortedRun], keys: [(index: Int, descending: Bool)], types: [Bool],
                                              _ body: (Fields, Int) throws(Failure) -> Bool) throws(MergeError<Failure>) {
        let descending = keys.map(\.descending)
        let k = keys.count
        let readers = runs.map { $0.reader() }
        // Each run's current row, its number and its sort values (k a run, flat).
        var current: [UnsafePointer<Int>?] = Array(repeating: nil, count: readers.count)
        var numbers = Array(repeating: 0, count: readers.count)
        var values: [RowOrder.Value?] = Array(repeating: nil, count: readers.count * k)
        // One numeric key is compared by its numbers' keys (`RowOrder.numberKey`: never 0 or
        // .max - 1, which a text cell's key is), as the run was sorted.
        let byNumber = k == 1 && types[0]
        var numberKeys = [UInt64](repeating: .max, count: byNumber ? readers.count : 0)
        func load(_ run: Int) throws(InputError) -> Bool {
            guard let row = try readers[run].next() else { return false }
            current[run] = row
            numbers[run] = row[0]
            let fields = RowWords.fields(row)
            if byNumber {
                // One numeric key: its number's 8-byte key; a cell that is text (it sorts after
                // the numbers, before them when descending) keeps its value to compare.
                switch RowOrder.value(fields, keys[0].index, numeric: true) {
                case .number(let number)?: numberKeys[run] = RowOrder.numberKey(number, descending: descending[0])
                case let text?:
                    numberKeys[run] = descending[0] ? 0 : .max - 1
                    values[run] = text
                case nil: numberKeys[run] = .max
                }
                return true
            }
            for (j, (key, numeric)) in zip(keys, types).enumerated() { values[run * k + j] = RowOrder.value(fields, key.index, numeric: numeric) }
            return true
        }
        func before(_ a: Int, _ b: Int) -> Bool {
            if byNumber {
                if numberKeys[a] != numberKeys[b] { return numberKeys[a] < numberKeys[b] }
                if numberKeys[a] == .max - 1 || numberKeys[a] == 0,
                   let first = RowOrder.before(values[a], values[b], descending: descending[0]) { return first }
                return numbers[a] < numbers[b]
            }
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

/// Rows held for a run of `ExternalSort` (`RowWords` back to back, and where each starts), given
/// to the helper thread that sorts them and writes the run.
package struct HeldBatch: @unchecked Sendable {
    package let held: GrowableArray<Int>
    package let starts: [Int]
    package let keys: [(index: Int, descending: Bool)]
    /// Per key, whether it is compared as numbers.
    package let types: [Bool]

    /// The rows sorted and written as a run; and the block they were held in, to hold more.
    package func written() -> (Result<SortedRun, InputError>, GrowableArray<Int>) {
        let order = sortedHeld()
        do throws(InputError) {
            let run = try SortedRun(numeric: types)
            try held.withUnsafeBufferPointer { (words) throws(InputError) in
                guard words.baseAddress != nil else { return }
                for k in order {
                    let row = RowWords.row(at: starts[k], in: words)
                    try run.write(UnsafeBufferPointer(start: row, count: RowWords.length(row)))
                }
            }
            try run.finish()
            return (.success(run), held)
        } catch {
            return (.failure(error), held)
        }
    }

    /// The held rows' order: their sort values computed once, compared flat (`RowOrder.order`).
    package func sortedHeld() -> [Int] {
        if keys.count == 1, let order = keyedOrderHeld(keys[0], numeric: types[0]) { return order }
        var values: [RowOrder.Value?] = []
        values.reserveCapacity(starts.count * keys.count)
        var rows: [Int] = []
        rows.reserveCapacity(starts.count)
        held.withUnsafeBufferPointer { words in
            guard words.baseAddress != nil else { return }
            for start in starts {
                let row = RowWords.row(at: start, in: words)
                rows.append(row[0])
                let fields = RowWords.fields(row)
                for (key, numeric) in zip(keys, types) { values.append(RowOrder.value(fields, key.index, numeric: numeric)) }
            }
        }
        return RowOrder.order(values, count: rows.count, descending: keys.map(\.descending), rowNumbers: rows)
    }

    /// The held rows' order by one key, as the view sorts a column (V3): each row's value as an
    /// 8-byte key that orders as the values do — a number's (`RowOrder.numberKey`), or a text's
    /// first seven order bytes above how many it has (`TextRuns.key`) — an empty or null-like
    /// cell the largest; sorted with the rows' places by `KeyedRows`' radix sort, ties by place;
    /// then each group of texts whose keys tie and go on past them by comparing their values.
    /// Nil (sort by comparing) when that is not the comparison's order: the rows are not held in
    /// input order (a stale run sorted again), or a cell of a numeric key has no number's value
    /// (it would sort as text).
    private func keyedOrderHeld(_ key: (index: Int, descending: Bool), numeric: Bool) -> [Int]? {
        let count = starts.count
        guard count < Int(Int32.max) else { return nil }
        var sortKeys = [UInt64](repeating: .max, count: count)
        // A text key's order bytes, back to back (`orderStarts[k]..<orderStarts[k + 1]` row k's).
        var orderBytes: [UInt8] = []
        var orderStarts: [Int] = numeric ? [] : [0]
        let usable = held.withUnsafeBufferPointer { words -> Bool in
            guard words.baseAddress != nil else { return false }
            var last = Int.min
            for (k, start) in starts.enumerated() {
                let row = RowWords.row(at: start, in: words)
                guard row[0] > last else { return false }
                last = row[0]
                let cell = RowWords.fields(row)[key.index]
                if numeric {
                    switch cell.isEmpty ? nil : RowOrder.value(cell: cell, numeric: true) {
                    case .number(let number)?: sortKeys[k] = RowOrder.numberKey(number, descending: key.descending)
                    case .text?: return false
                    case nil: break
                    }
                    continue
                }
                if !cell.isEmpty && !CellKind.isNullWord(cell) {
                    TextRuns.withOrderBytes(cell) { bytes in
                        sortKeys[k] = TextRuns.key(bytes, depth: 0, descending: key.descending)
                        orderBytes.append(contentsOf: bytes)
                    }
                }
                orderStarts.append(orderBytes.count)
            }
            return true
        }
        guard usable else { return nil }
        // Every slice `sortTied` is lent below lies in `orderBytes`: the starts rise, and the last
        // is its end.
        precondition(numeric || orderStarts.last == orderBytes.count, "order bytes' starts past their block")
        var places = (0..<Int32(count)).map { $0 }
        sortKeys.withUnsafeMutableBufferPointer { sortKeys in
            places.withUnsafeMutableBufferPointer { places in
                var sorter = KeyedRows(keys: sortKeys, ids: places) { _ in true }
                _ = sorter.sort()
                guard !numeric else { return }
                orderBytes.withUnsafeBufferPointer { bytes in
                    TextRuns.sortTied(sortKeys, places, descending: key.descending) { place in
                        let k = Int(place)
                        return UnsafeBufferPointer(rebasing: bytes[orderStarts[k]..<orderStarts[k + 1]])
                    }
                }
            }
        }
        return places.map { Int($0) }
    }

}
