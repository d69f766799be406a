import Save
import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
import Dispatch

/// A text sort in the view (V3) of a column of many distinct values (a free-text note, a name, an
/// identifier written as text): both cores scan half the rows each, and each keeps its cells as
/// the bytes `--sort` orders them by, sorted in runs by a radix sort of 8-byte keys (`TextRuns`;
/// on disk past the budget); the runs of both halves are then merged by those bytes. Nothing is
/// made a `String` but a cell that is not ASCII, and nothing compares as one.
extension ViewState {
    /// Row numbers in the order of text column `column` (W11: as `--sort` orders it, empty and
    /// null-like cells last, ties in row order), the cells sorted in runs of `budget` bytes in
    /// all. - Returns: nil when cancelled. - Throws: `InputError` when a run cannot be written.
    static func textOrderInRuns(_ data: any ViewRows, rows: Int, column: Int, descending: Bool, budget: Int, progress: WorkProgress = .always) throws(InputError) -> [Int32]? {
        let parts = WorkProgress.parts(rows: rows).count
        let made = PartRuns((0..<parts).map { _ in TextRuns(descending: descending, budget: budget / parts) })
        let scanned = progress.scanInParts(data, rows: rows, to: 0.6) { part, id, fields in
            made.parts[part].add(id, fields[column])
        }
        guard scanned else { return nil }
        DispatchQueue.concurrentPerform(iterations: parts) { made.parts[$0].finish() }
        if let failure = made.parts.lazy.compactMap(\.writeFailure).first { throw failure }
        guard progress.going(0.65) else { return nil }
        var ids: [Int32] = []
        ids.reserveCapacity(rows)
        guard try merge(made.parts.flatMap { $0.readers() }, descending: descending, into: &ids, progress: progress, from: 0.65, rows: rows) else { return nil }
        for part in made.parts { ids.append(contentsOf: part.emptyRows) }
        return progress.going(1) ? ids : nil
    }

    /// Appends the row numbers of the runs `readers` read (each sorted) in order to `ids`: the
    /// runs' next rows in a heap, by their order bytes (a key of the first seven first), then by
    /// row number.
    /// - Returns: false when cancelled (asked every 4,096 rows).
    private static func merge(_ readers: [any RunRows], descending: Bool, into ids: inout [Int32], progress: WorkProgress, from: Double, rows: Int) throws(InputError) -> Bool {
        var heads = [UnsafePointer<Int>?](repeating: nil, count: readers.count)
        var keys = [UInt64](repeating: 0, count: readers.count)
        func load(_ run: Int) throws(InputError) -> Bool {
            guard let row = try readers[run].next() else { return false }
            heads[run] = row
            keys[run] = TextRuns.key(TextRuns.bytes(row), depth: 0, descending: descending)
            return true
        }
        func before(_ a: Int, _ b: Int) -> Bool {
            if keys[a] != keys[b] { return keys[a] < keys[b] }
            guard let x = heads[a], let y = heads[b] else { return a < b }
            if TextRuns.goesOn(keys[a], descending: descending) {
                let order = TextRuns.compare(TextRuns.bytes(x), TextRuns.bytes(y), from: 7)
                if order != 0 { return descending ? order > 0 : order < 0 }
            }
            return x[0] < y[0]  // the same text: row order
        }
        var heap = RunHeap()
        for run in readers.indices where try load(run) { heap.push(run, by: before) }
        let span = (1 - from) / Double(max(1, rows))
        while let top = heap.top {
            guard let row = heads[top] else { break }
            ids.append(Int32(truncatingIfNeeded: row[0]))
            if ids.count & 4095 == 0, !progress.going(from + span * Double(ids.count)) { return false }
            if try load(top) { heap.replaceTop(by: before) } else { heap.popTop(by: before) }
        }
        return true
    }
}

/// Each part's `TextRuns`, which the scan's threads fill, each its own.
private struct PartRuns: @unchecked Sendable {
    let parts: [TextRuns]
    init(_ parts: [TextRuns]) { self.parts = parts }
}
