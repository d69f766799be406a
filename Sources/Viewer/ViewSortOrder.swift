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
/// The orders a view sort computes (V3), off the key loop: each reports how far it is and stops
/// when cancelled (`WorkProgress`), answering nil then.
extension ViewState {
    /// Row numbers in the order of a numeric column: its values held as 8-byte keys that order as
    /// the numbers do (an empty or null-like cell last either way), ties in input order (W11),
    /// sorted with their row numbers in place (`KeyedRows.sort`: 12 bytes a row, read in order).
    static func numberOrder(_ data: any ViewRows, rows: Int, column: Int, descending: Bool, progress: WorkProgress = .always) -> [Int32]? {
        // A row that cannot be read (the file changed) keeps the largest key: last.
        var keys = [UInt64](repeating: .max, count: rows)
        let scanned = keys.withUnsafeMutableBufferPointer { keys in
            progress.scanInParts(data, rows: rows, to: 0.5) { _, id, fields in
                if case .number(let number)? = RowOrder.value(fields, column, numeric: true) {
                    keys[id] = RowOrder.numberKey(number, descending: descending)
                }
            }
        }
        guard scanned else { return nil }
        var ids = (0..<Int32(keys.count)).map { $0 }
        let count = keys.count
        let done = keys.withUnsafeMutableBufferPointer { keys in
            ids.withUnsafeMutableBufferPointer { ids in
                var sorter = KeyedRows(keys: keys, ids: ids) { progress.going(0.5 + 0.5 * Double($0) / Double(max(1, count))) }
                return sorter.sort()
            }
        }
        return done ? ids : nil
    }

    /// Row numbers in the order of a text column, by `--sort`'s comparison (W11). A column of few
    /// distinct values is sorted by their ranks (`rankedTextOrder`); any other by its cells' bytes
    /// in runs (`textOrderInRuns`), held in at most `budget` bytes (`--memory-limit`) and never
    /// more than 32 MB and 4 bytes a row (so the view stays within 64 MB and 16 bytes a row, its
    /// index and the order shown included); past that the runs go to disk, as `--sort`'s do (P2).
    /// - Throws: `InputError` when a temporary file cannot be written.
    static func textOrder(_ data: any ViewRows, rows: Int, column: Int, descending: Bool, budget: Int, progress: WorkProgress = .always) throws(InputError) -> [Int32]? {
        switch rankedTextOrder(data, rows: rows, column: column, descending: descending, budget: budget, progress: progress) {
        case .sorted(let ids): return ids
        case .cancelled: return nil
        case .tooMany: break
        }
        let held = min(budget, (32 << 20) + 4 * rows)
        return try textOrderInRuns(data, rows: rows, column: column, descending: descending, budget: held, progress: progress)
    }

    /// `ids` (a set of row numbers below `rows`, and added rows: negative) listed in `order`
    /// (nil: input order, which has no added rows): 1 bit a row.
    static func reorder(_ ids: [Int32], along order: [Int32]?, rows: Int) -> [Int32] {
        var member = [UInt64](repeating: 0, count: (rows + 63) / 64)
        for id in ids where id >= 0 && Int(id) < rows { member[Int(id) >> 6] |= 1 << UInt64(id & 63) }
        func kept(_ id: Int32) -> Bool { member[Int(id) >> 6] & (1 << UInt64(id & 63)) != 0 }
        var out: [Int32] = []
        out.reserveCapacity(ids.count)
        if let order {
            let added = Set(ids.filter { $0 < 0 })
            for id in order where id < 0 ? added.contains(id) : Int(id) < rows && kept(id) { out.append(id) }
        } else {
            for id in 0..<Int32(rows) where kept(id) { out.append(id) }
        }
        return out
    }
}

extension WorkProgress {
    /// Never cancelled, reports nowhere (work run where it is asked for).
    static let always = WorkProgress { _ in true }
}
