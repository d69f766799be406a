import Input
import Profile
import Support
import Text
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte strings numbered in the order they are first met, looked up by their bytes (no `String`
/// made for a lookup): an open-addressing table for the few values of a `--group-by` column.
package struct ByteKeys: Sendable {
    private var bytes: [UInt8] = []
    /// Where each key starts in `bytes`, and one past the last key's end.
    private var starts: [Int] = [0]
    /// Per slot, a key's number, or -1 for none; the slot count is a power of two.
    private var slots = [Int32](repeating: -1, count: 64)
    /// Per key of one to eight bytes, its bytes as one word (`TextBytes.word`); 0 for others.
    private var words: [UInt64] = []

    package init() {}

    package var count: Int { starts.count - 1 }
    /// The keys' bytes, together.
    package var byteCount: Int { bytes.count }

    /// Key `id`'s bytes.
    package func key(_ id: Int) -> ArraySlice<UInt8> { bytes[starts[id]..<starts[id + 1]] }

    /// The number of `key`, or nil when it is new.
    package func id(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        if let word = Self.word(key) {
            // A short key: one word to hash and compare, with its length.
            var slot = Self.hash(word: word, count: key.count) & (slots.count - 1)
            while true {
                let id = Int(slots[slot])
                if id < 0 { return nil }
                if words[id] == word && starts[id + 1] - starts[id] == key.count { return id }
                slot = (slot + 1) & (slots.count - 1)
            }
        }
        var slot = Self.hash(key) & (slots.count - 1)
        while true {
            let id = Int(slots[slot])
            if id < 0 { return nil }
            if equals(id, key) { return id }
            slot = (slot + 1) & (slots.count - 1)
        }
    }

    /// A key of one to eight bytes as one word; nil for others.
    @inline(__always)
    private static func word(_ key: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard key.count >= 1 && key.count <= 8, let base = key.baseAddress else { return nil }
        return TextBytes.word(UnsafeRawPointer(base), count: key.count)
    }

    /// The number of `key`, numbered next when it is new.
    package mutating func insert(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        if let id = id(of: key) { return id }
        let id = count
        bytes.append(contentsOf: key)
        starts.append(bytes.count)
        words.append(Self.word(key) ?? 0)
        if count * 2 > slots.count {
            slots = [Int32](repeating: -1, count: slots.count * 2)
            for k in 0..<count { place(k) }
        } else {
            place(id)
        }
        return id
    }

    private mutating func place(_ id: Int) {
        let count = starts[id + 1] - starts[id]
        let hash = count >= 1 && count <= 8 ? Self.hash(word: words[id], count: count)
            : bytes.withUnsafeBufferPointer { all in Self.hash(UnsafeBufferPointer(rebasing: all[starts[id]..<starts[id + 1]])) }
        var slot = hash & (slots.count - 1)
        while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
        slots[slot] = Int32(id)
    }

    private func equals(_ id: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = starts[id]
        guard starts[id + 1] - start == key.count else { return false }
        guard let base = key.baseAddress, key.count > 0 else { return true }
        return bytes.withUnsafeBufferPointer { all in all.baseAddress.map { memcmp($0 + start, base, key.count) == 0 } ?? false }
    }

    @inline(__always)
    private static func hash(word: UInt64, count: Int) -> Int {
        let h = (word ^ UInt64(count)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: h ^ (h >> 32))
    }

    /// FNV-1a, 64 bits.
    private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in key { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }
}

/// One part of a table's `--group-by` (W12, P1): the groups its rows fall in, numbered as the part
/// meets them, each with its rows and its columns' running sums, and the counts so far at each of
/// the part's checkpoints (where the printer's drawing pass cuts a piece). The printer tallies each
/// piece of a file; the view each part of its rows (`ViewGroups`); `GroupTotals` takes them together.
package struct GroupTally {
    /// The group column.
    package let index: Int
    /// The most group × column sums a part may hold (past it the printer groups as before).
    package let cellCap: Int
    /// The columns summed (nil: every column of a row, by index; sums are then per column).
    package let summed: [Int]?
    package private(set) var keys = ByteKeys()
    package private(set) var counts: [Int] = []
    /// Per group, per summed column: its sum so far.
    package private(set) var sums: [[ExactDecimal.Running]] = []
    /// The counts at each checkpoint, in order.
    package private(set) var marks: [[Int]] = []
    private var cells = 0

    package init(index: Int, cellCap: Int, summed: [Int]? = nil) {
        self.index = index
        self.cellCap = cellCap
        self.summed = summed
    }

    /// Takes a row. - Returns: false when the part has more groups than it may hold.
    package mutating func add(_ fields: Fields) -> Bool { place(fields) != nil }

    /// Takes a row. - Returns: its group's number in this part (its value's in `keys`), nil when
    /// the part has more groups than it may hold.
    package mutating func place(_ fields: Fields) -> Int? {
        let id = keys.insert(fields[index])  // empty when the row is short
        if id == counts.count {
            counts.append(0)
            sums.append([])
        }
        counts[id] += 1
        let width = summed?.count ?? fields.count
        if sums[id].count < width {
            cells += width - sums[id].count
            guard cells <= cellCap else { return nil }
            sums[id] += Array(repeating: ExactDecimal.Running(), count: width - sums[id].count)
        }
        sums[id].withUnsafeMutableBufferPointer { sums in
            if let summed {
                for (k, column) in summed.enumerated() { sums[k].add(fields[column]) }  // empty past a short row's end
            } else {
                for c in 0..<fields.count { sums[c].add(fields[c]) }
            }
        }
        return id
    }

    /// Notes the counts at a checkpoint.
    package mutating func mark() { marks.append(counts) }
}

/// The tallies of the parts of one table's rows taken together (W12): values equal as text (such as
/// the composed and decomposed forms of one name) share a group, as held rows do; groups are
/// numbered in the order their values first appear, parts taken in order.
package struct GroupTotals {
    /// Every value met, as bytes; and per value, its group.
    package private(set) var keys = ByteKeys()
    package private(set) var groupOfKey: [Int] = []
    /// Per part, per group number in that part: its group here.
    package private(set) var groupOfPart: [[Int]] = []
    /// Per group: the value as first written, its rows, per summed column its sum.
    package private(set) var values: [String] = []
    package private(set) var counts: [Int] = []
    package private(set) var sums: [[ExactDecimal.Running]] = []

    /// The parts' tallies taken together; nil when there are more than `maxGroups` values.
    package init?(_ tallies: [GroupTally], maxGroups: Int = .max) {
        var groupOfValue: [String: Int] = [:]
        for tally in tallies {
            var local: [Int] = []
            local.reserveCapacity(tally.keys.count)
            for k in 0..<tally.keys.count {
                let key = tally.keys.key(k)
                let id = key.withUnsafeBufferPointer { keys.insert($0) }
                guard keys.count <= maxGroups else { return nil }
                if id == groupOfKey.count {
                    let value = String(decoding: key, as: UTF8.self)
                    if let known = groupOfValue[value] {
                        groupOfKey.append(known)
                    } else {
                        groupOfValue[value] = values.count
                        groupOfKey.append(values.count)
                        values.append(value)
                        counts.append(0)
                        sums.append([])
                    }
                }
                let group = groupOfKey[id]
                local.append(group)
                counts[group] += tally.counts[k]
                let columns = tally.sums[k]
                if sums[group].count < columns.count { sums[group] += Array(repeating: ExactDecimal.Running(), count: columns.count - sums[group].count) }
                for (c, sum) in columns.enumerated() { sums[group][c].merge(sum) }
            }
            groupOfPart.append(local)
        }
    }

    /// The group of a row; nil for a value no part met.
    package func group(of fields: Fields, index: Int) -> Int? {
        keys.id(of: fields[index]).map { groupOfKey[$0] }
    }
}
