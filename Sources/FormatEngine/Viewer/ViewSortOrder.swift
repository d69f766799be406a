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
                    keys[id] = numberKey(number, descending: descending)
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

    /// A number as a key that orders as the numbers do (reversed when `descending`); NaN (an empty
    /// cell) is the largest key both ways, and -0 and 0 are the same key (they tie).
    @inline(__always)
    static func numberKey(_ number: Double, descending: Bool) -> UInt64 {
        guard !number.isNaN else { return .max }
        let bits = (number == 0 ? 0 : number).bitPattern
        let key = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
        return descending ? ~key : key  // never .max: that would be a NaN's key
    }

    /// Row numbers in the order of a text column, by `--sort`'s comparison (W11). A column of few
    /// distinct values is sorted by their ranks (`rankedTextOrder`); otherwise the column's
    /// values are held while they take at most `budget` bytes (`--memory-limit`); past that they
    /// are sorted in runs on disk and merged, as `--sort` does (P2), and only the order is kept.
    /// - Throws: `InputError` when a temporary file cannot be written.
    static func textOrder(_ data: any ViewRows, rows: Int, column: Int, descending: Bool, budget: Int, progress: WorkProgress = .always) throws(InputError) -> [Int32]? {
        switch rankedTextOrder(data, rows: rows, column: column, descending: descending, budget: budget, progress: progress) {
        case .sorted(let ids): return ids
        case .cancelled: return nil
        case .tooMany: break
        }
        var over = rows > budget / MemoryLayout<RowOrder.Value?>.stride  // not a slot each: to disk at once
        guard !over, let values = heldTextValues(data, rows: rows, column: column, budget: budget, progress: progress, over: &over) else {
            guard over else { return nil }  // cancelled
            return try textOrderOnDisk(data, rows: rows, column: column, descending: descending, budget: budget, progress: progress)
        }
        return values.withUnsafeBufferPointer { values in
            sortedIDs(values.count, progress: progress, from: 0.5, by: TextValues(values: values, descending: descending))
        }
    }

    /// A text column's sort values, or nil as soon as they would take more than `budget` bytes
    /// (each value's slot, and the text of one too long to be stored in it).
    static func heldTextValues(_ data: any ViewRows, rows: Int, column: Int, budget: Int) -> [RowOrder.Value?]? {
        var over = false
        return heldTextValues(data, rows: rows, column: column, budget: budget, progress: .always, over: &over)
    }

    /// `heldTextValues`, reporting the first half of the sort; `over` says a nil is the budget's
    /// (not a cancel's).
    private static func heldTextValues(_ data: any ViewRows, rows: Int, column: Int, budget: Int, progress: WorkProgress, over: inout Bool) -> [RowOrder.Value?]? {
        var values: [RowOrder.Value?] = []
        var bytes = 0
        var fits = true
        var going = progress.going(0)
        data.scan(0..<rows) { id, fields in
            let cell = fields[column]
            // A `String` holds up to 15 UTF-8 bytes in itself; a longer one is on the heap, after
            // a header of about 32 bytes.
            bytes += MemoryLayout<RowOrder.Value?>.stride + (cell.count > 15 ? 32 + cell.count : 0)
            fits = bytes <= budget
            if fits { values.append(RowOrder.value(fields, column, numeric: false)) }
            if id & 4095 == 4095 { going = progress.going(0.5 * Double(id + 1) / Double(max(1, rows))) }
            return fits && going
        }
        over = !fits
        return fits && going ? values : nil
    }

    /// `textOrder` beyond the budget: each row's cell with its row number, sorted in runs in
    /// temporary files and merged (`ExternalSort`: empty cells last, ties in input order).
    static func textOrderOnDisk(_ data: any ViewRows, rows: Int, column: Int, descending: Bool, budget: Int, progress: WorkProgress = .always) throws(InputError) -> [Int32]? {
        let sort = ExternalSort(keys: [(0, descending)], budget: budget)
        var record = Record()
        var failure: InputError?
        let scanned = progress.scan(data, rows: rows, to: 0.6) { id, fields in
            guard failure == nil else { return }
            record.clear()
            record.append(fields[column])
            do throws(InputError) { try sort.add(record, numeric: [false], number: id) } catch { failure = error }
        }
        if let failure { throw failure }
        guard scanned else { return nil }
        try sort.finish(numeric: [false])
        var ids: [Int32] = []
        ids.reserveCapacity(sort.count)
        var going = true
        do {
            try sort.merge(numeric: [false]) { _, number in
                ids.append(Int32(truncatingIfNeeded: number))
                if ids.count & 4095 == 0 { going = progress.going(0.6 + 0.4 * Double(ids.count) / Double(max(1, rows))) }
                return going
            }
        } catch {
            switch error {
            case .input(let error): throw error
            case .output: break  // the body writes nothing
            }
        }
        return going ? ids : nil
    }

    /// Row numbers `0..<count` ordered by `before` (a strict total order: ties broken by row
    /// number), reporting `from…1` of the work: pieces of 64K rows sorted in turn, then merged
    /// pairwise, with a check between pieces and every 64K rows merged. - Returns: nil when cancelled.
    static func sortedIDs<Order: IDOrder>(_ count: Int, progress: WorkProgress, from: Double, by order: Order) -> [Int32]? {
        var ids = (0..<Int32(count)).map { $0 }
        let piece = 1 << 16
        // The steps: one for the pieces, one a merging pass.
        var passes = 1
        while piece << (passes - 1) < count { passes += 1 }
        func report(_ pass: Int, _ done: Int) -> Bool {
            progress.going(from + (1 - from) * (Double(pass) + Double(done) / Double(max(1, count))) / Double(passes))
        }
        var start = 0
        while start < count {
            let end = min(count, start + piece)
            ids[start..<end].sort(by: order.before)
            start = end
            guard report(0, start) else { return nil }
        }
        var other = [Int32](repeating: 0, count: count)
        var width = piece
        var pass = 1
        while width < count {
            let completed = ids.withUnsafeBufferPointer { source in
                other.withUnsafeMutableBufferPointer { target in
                    mergePass(source, into: target, width: width, by: order) { report(pass, $0) }
                }
            }
            guard completed else { return nil }
            swap(&ids, &other)
            width *= 2
            pass += 1
        }
        return ids
    }

    /// One merging pass: each two neighbouring sorted runs of `width` in `source` merged into
    /// `target`. - Returns: false when `going` says to stop (asked every 64K rows).
    private static func mergePass<Order: IDOrder>(_ source: UnsafeBufferPointer<Int32>, into target: UnsafeMutableBufferPointer<Int32>, width: Int, by order: Order, going: (Int) -> Bool) -> Bool {
        let count = source.count
        var out = 0
        var start = 0
        while start < count {
            let middle = min(count, start + width), end = min(count, start + 2 * width)
            var i = start, j = middle
            while i < middle && j < end {
                if order.before(source[j], source[i]) {
                    target[out] = source[j]
                    j += 1
                } else {
                    target[out] = source[i]
                    i += 1
                }
                out += 1
                if out & 0xFFFF == 0, !going(out) { return false }
            }
            while i < middle { target[out] = source[i]; i += 1; out += 1 }
            while j < end { target[out] = source[j]; j += 1; out += 1 }
            start = end
        }
        return going(count)
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

/// A strict total order of row numbers (ties broken by row number), for `sortedIDs`: a type of its
/// own, so the sort is made for it and its comparison inlined.
protocol IDOrder {
    func before(_ a: Int32, _ b: Int32) -> Bool
}

/// By numeric keys (`ViewState.numberKey`).
struct NumberKeys: IDOrder {
    let keys: UnsafeBufferPointer<UInt64>

    @inline(__always)
    func before(_ a: Int32, _ b: Int32) -> Bool {
        let x = keys[Int(a)], y = keys[Int(b)]
        return x != y ? x < y : a < b
    }
}

/// By text values, as `--sort` compares them (W11).
struct TextValues: IDOrder {
    let values: UnsafeBufferPointer<RowOrder.Value?>
    let descending: Bool

    @inline(__always)
    func before(_ a: Int32, _ b: Int32) -> Bool {
        RowOrder.before(values[Int(a)], values[Int(b)], descending: descending) ?? (a < b)
    }
}
