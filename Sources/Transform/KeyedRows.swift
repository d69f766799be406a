import Input
import Profile
import Support
import Text
/// Row numbers sorted by 8-byte keys, ties by row number, in place: the keys and the row numbers
/// side by side (12 bytes a row), by their bytes from the highest (a radix sort that moves each
/// row into its byte's bucket by swaps, then sorts each bucket by the next byte). Every pass
/// reads the two arrays in order, where a comparison sort of row numbers would look each key up
/// at random (at 10M rows, most of a sort's time). Not stable by itself: rows of one key are put
/// in row-number order at the end.
package struct KeyedRows {
    package let keys: UnsafeMutableBufferPointer<UInt64>
    package let ids: UnsafeMutableBufferPointer<Int32>
    /// Told how many rows are in their place; false stops the sort.
    package let going: (Int) -> Bool
    private var placed = 0
    private var reported = 0
    private var stopped = false

    package init(keys: UnsafeMutableBufferPointer<UInt64>, ids: UnsafeMutableBufferPointer<Int32>, going: @escaping (Int) -> Bool) {
        self.keys = keys
        self.ids = ids
        self.going = going
    }

    /// Sorts every row. - Returns: false when `going` said to stop (the order is then partial).
    package mutating func sort() -> Bool {
        sort(0..<keys.count, shift: 56)
        return !stopped && going(keys.count)
    }

    /// Rows `range`, whose keys agree above bit `shift + 8`, by their bits from `shift + 7` down.
    private mutating func sort(_ range: Range<Int>, shift: Int) {
        guard !stopped else { return }
        if range.count <= 48 {
            insertionSort(range)
            return done(range.count)
        }
        let (starts, ends) = buckets(range, shift: shift)
        permute(starts: starts, ends: ends, shift: shift)
        for b in 0..<256 where ends[b] > starts[b] {
            let bucket = starts[b]..<ends[b]
            if shift == 0 {
                // One key: by row number.
                ids[bucket].sort()
                done(bucket.count)
            } else {
                sort(bucket, shift: shift - 8)
            }
        }
    }

    /// Where each byte's bucket starts and ends.
    private func buckets(_ range: Range<Int>, shift: Int) -> ([Int], [Int]) {
        var counts = [Int](repeating: 0, count: 256)
        for i in range { counts[Int(truncatingIfNeeded: keys[i] >> UInt64(shift)) & 0xFF] += 1 }
        var starts = [Int](repeating: 0, count: 256)
        var ends = [Int](repeating: 0, count: 256)
        var at = range.lowerBound
        for b in 0..<256 {
            starts[b] = at
            at += counts[b]
            ends[b] = at
        }
        return (starts, ends)
    }

    /// Moves every row into its bucket by swaps (each row moved at most once more).
    private func permute(starts: [Int], ends: [Int], shift: Int) {
        var next = starts
        for b in 0..<256 {
            while next[b] < ends[b] {
                let i = next[b]
                let target = Int(truncatingIfNeeded: keys[i] >> UInt64(shift)) & 0xFF
                if target == b {
                    next[b] += 1
                } else {
                    let j = next[target]
                    next[target] += 1
                    keys.swapAt(i, j)
                    ids.swapAt(i, j)
                }
            }
        }
    }

    /// A few rows by key, then row number.
    private func insertionSort(_ range: Range<Int>) {
        guard range.count > 1 else { return }
        for i in (range.lowerBound + 1)..<range.upperBound {
            let key = keys[i], id = ids[i]
            var j = i
            while j > range.lowerBound && (keys[j - 1] > key || (keys[j - 1] == key && ids[j - 1] > id)) {
                keys[j] = keys[j - 1]
                ids[j] = ids[j - 1]
                j -= 1
            }
            keys[j] = key
            ids[j] = id
        }
    }

    /// `count` more rows are in place: reported every 64K rows.
    private mutating func done(_ count: Int) {
        placed += count
        guard placed - reported >= 1 << 16 else { return }
        reported = placed
        if !going(placed) { stopped = true }
    }
}
