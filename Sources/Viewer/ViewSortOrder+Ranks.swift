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
/// A text sort in the view (V3) of a column with few distinct values (a customer, a region, a
/// status: the common case of a long file): each part of the rows numbers the values it meets by
/// their bytes (`ByteKeys`, on both cores), the distinct values are sorted once by `--sort`'s
/// comparison and ranked (values that compare equal share a rank, so they stay in input order),
/// and the rows are placed by rank in one stable counting pass. 4 bytes a row while it runs, plus
/// the values; a column with more distinct values than `maxValues` is sorted as before.
extension ViewState {
    /// The most distinct values ranked; their bytes are held to a quarter of the budget.
    static let maxRankedValues = 1 << 20

    enum RankedOrder {
        case sorted([Int32])
        /// Stopped by `Esc` (or the view closing).
        case cancelled
        /// Too many distinct values: sort another way.
        case tooMany
    }

    /// Row numbers in the order of text column `column` by ranks of its distinct values, or why not.
    static func rankedTextOrder(_ data: any ViewRows, rows: Int, column: Int, descending: Bool, budget: Int, progress: WorkProgress = .always) -> RankedOrder {
        let keyBudget = max(1 << 16, budget / 4)
        guard fewValues(data, rows: rows, column: column, budget: keyBudget) else { return .tooMany }
        let (parts, size) = WorkProgress.parts(rows: rows)
        let empty = ByteKeys()
        var keys = [ByteKeys](repeating: empty, count: parts)
        var local = [Int32](repeating: 0, count: rows)
        var overflow = [Bool](repeating: false, count: parts)
        let scanned = keys.withUnsafeMutableBufferPointer { keys in
            overflow.withUnsafeMutableBufferPointer { overflow in
                local.withUnsafeMutableBufferPointer { local in
                    // Each part writes its own keys, flag and rows' places only.
                    progress.scanInParts(data, rows: rows, to: 0.8) { part, id, fields in
                        guard !overflow[part] else { return }
                        local[id] = Int32(truncatingIfNeeded: keys[part].insert(fields[column]))
                        if keys[part].count > maxRankedValues || keys[part].byteCount > keyBudget { overflow[part] = true }
                    }
                }
            }
        }
        guard scanned else { return .cancelled }
        guard !overflow.contains(true) else { return .tooMany }
        let ranks = self.ranks(keys, descending: descending)
        guard progress.going(0.9) else { return .cancelled }
        // A stable counting pass: rows of each rank in input order.
        var starts = [Int](repeating: 0, count: ranks.count + 1)
        for id in 0..<rows { starts[Int(ranks.of[id / size][Int(local[id])]) + 1] += 1 }
        for r in 0..<ranks.count { starts[r + 1] += starts[r] }
        var ids = [Int32](repeating: 0, count: rows)
        for id in 0..<rows {
            let r = Int(ranks.of[id / size][Int(local[id])])
            ids[starts[r]] = Int32(truncatingIfNeeded: id)
            starts[r] += 1
        }
        return progress.going(1) ? .sorted(ids) : .cancelled
    }

    /// Whether the first rows' values look few enough to rank (a quick look at up to 64K rows:
    /// at most one distinct value in four, and their bytes within `budget`).
    private static func fewValues(_ data: any ViewRows, rows: Int, column: Int, budget: Int) -> Bool {
        let sample = min(rows, 1 << 16)
        guard sample >= 1 << 12 else { return false }  // a small column sorts as fast the usual way
        var keys = ByteKeys()
        var few = true
        data.scan(0..<sample) { _, fields in
            _ = keys.insert(fields[column])
            few = keys.count * 4 <= sample && keys.byteCount <= budget
            return true
        }
        return few
    }

    /// Per part, per value number in that part, the value's rank (ascending, or descending when
    /// asked; empty and null-like cells after every value either way); and how many ranks.
    private static func ranks(_ parts: [ByteKeys], descending: Bool) -> (of: [[Int32]], count: Int) {
        var all = ByteKeys()
        let global: [[Int]] = parts.map { part in
            (0..<part.count).map { k in part.key(k).withUnsafeBufferPointer { all.insert($0) } }
        }
        let values: [RowOrder.Value?] = (0..<all.count).map { k in
            all.key(k).withUnsafeBufferPointer { RowOrder.value(cell: $0, numeric: false) }
        }
        let sorted = values.indices.sorted { a, b in RowOrder.before(values[a], values[b], descending: descending) ?? (a < b) }
        var rank = [Int32](repeating: 0, count: values.count)
        var next: Int32 = 0
        for (k, index) in sorted.enumerated() {
            if k > 0 && RowOrder.before(values[sorted[k - 1]], values[index], descending: descending) != nil { next += 1 }
            rank[index] = next
        }
        return (global.map { $0.map { rank[$0] } }, Int(next) + 1)
    }
}
