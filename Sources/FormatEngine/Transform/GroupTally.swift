#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte strings numbered in the order they are first met, looked up by their bytes (no `String`
/// made for a lookup): an open-addressing table for the few values of a `--group-by` column.
struct ByteKeys: Sendable {
    private var bytes: [UInt8] = []
    /// Where each key starts in `bytes`, and one past the last key's end.
    private var starts: [Int] = [0]
    /// Per slot, a key's number, or -1 for none; the slot count is a power of two.
    private var slots = [Int32](repeating: -1, count: 64)
    /// Per key of one to eight bytes, its bytes as one word (`TextBytes.word`); 0 for others.
    private var words: [UInt64] = []

    var count: Int { starts.count - 1 }

    /// Key `id`'s bytes.
    func key(_ id: Int) -> ArraySlice<UInt8> { bytes[starts[id]..<starts[id + 1]] }

    /// The number of `key`, or nil when it is new.
    func id(of key: UnsafeBufferPointer<UInt8>) -> Int? {
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
    mutating func insert(_ key: UnsafeBufferPointer<UInt8>) -> Int {
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

/// One piece of a file's `--group-by` (W12, P1): the groups its rows fall in, numbered as the piece
/// meets them, each with its rows and its columns' running sums, and the counts so far at each of
/// the piece's checkpoints (where the drawing pass cuts it).
struct GroupTally {
    /// The group column.
    let index: Int
    /// The most group × column sums a piece may hold (past it the file is grouped as before).
    let cellCap: Int
    private(set) var keys = ByteKeys()
    private(set) var counts: [Int] = []
    /// Per group, per column: its sum so far.
    private(set) var sums: [[ExactDecimal.Running]] = []
    /// The counts at each checkpoint, in order.
    private(set) var marks: [[Int]] = []
    private var cells = 0

    init(index: Int, cellCap: Int) {
        self.index = index
        self.cellCap = cellCap
    }

    /// Takes a row. - Returns: false when the piece has more groups than it may hold.
    mutating func add(_ fields: Fields) -> Bool {
        let id = keys.insert(fields[index])  // empty when the row is short
        if id == counts.count {
            counts.append(0)
            sums.append([])
        }
        counts[id] += 1
        if sums[id].count < fields.count {
            cells += fields.count - sums[id].count
            guard cells <= cellCap else { return false }
            sums[id] += Array(repeating: ExactDecimal.Running(), count: fields.count - sums[id].count)
        }
        sums[id].withUnsafeMutableBufferPointer { sums in
            for c in 0..<fields.count { sums[c].add(fields[c]) }
        }
        return true
    }

    /// Notes the counts at a checkpoint.
    mutating func mark() { marks.append(counts) }
}
