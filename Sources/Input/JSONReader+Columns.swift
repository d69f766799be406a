import Text

extension JSONReader {
    /// Every key seen, as a tree of *nodes* (a key under its parent object's node; top-level keys,
    /// `Column N` and `Value` under the root, -1), and the columns made from them.
    ///
    /// Nodes are found by (parent, key bytes) in an open-addressing hash table (FNV-1a, linear
    /// probing), so a key costs a hash and a compare, never a `String`. Rows of an export repeat
    /// their keys in the same order, so the node that followed the previous one last time is tried
    /// first: then a key costs one compare. A node gets a column when a
    /// cell is first written at it, named by its dotted path (`address.city`); nodes with the same
    /// dotted name (`{"a":{"b":1}}` and `{"a.b":2}`) each have their own column, so no value hides
    /// another. Each node remembers the last row whose object had its key, to notice duplicate keys.
    struct ColumnTable {
        /// Column names in first-seen order.
        package private(set) var names: [String] = []
        /// The column of each node, -1 while it has none.
        private(set) var nodeColumn: [Int] = []
        /// The row stamp of the last object member at each node.
        var stamps: [Int] = []
        /// Each node's parent node (-1 for the root).
        private var parents: [Int] = []
        private var hashes: [UInt64] = []
        /// Node keys back to back in `arena`; node `n`'s key ends at `keyEnds[n]`.
        private var arena: [UInt8] = []
        private var keyEnds: [Int] = []
        /// Node index + 1 in each slot, 0 for an empty slot; the count is a power of two.
        private var slots: [Int32] = Array(repeating: 0, count: 64)
        /// For each node, the node looked up after it last time (+1; 0 for none), and the node
        /// looked up last (-1 before the first).
        private var successors: [Int32] = []
        private var lastNode = -1

        /// The node for `key` under `parent` (-1 for the root), added when new.
        /// - Complexity: O(key length) on average.
        package mutating func node(parent: Int, key: UnsafeBufferPointer<UInt8>) -> Int {
            if lastNode >= 0 {
                let guess = Int(successors[lastNode]) &- 1
                if guess >= 0 && parents[guess] == parent && keyEquals(guess, key) {
                    lastNode = guess
                    return guess
                }
            }
            let node = find(parent: parent, key: key)
            if lastNode >= 0 { successors[lastNode] = Int32(truncatingIfNeeded: node &+ 1) }
            lastNode = node
            return node
        }

        /// `node(parent:key:)` through the hash table.
        private mutating func find(parent: Int, key: UnsafeBufferPointer<UInt8>) -> Int {
            let hash = Self.hash(parent: parent, key: key)
            let mask = slots.count &- 1
            var index = Int(truncatingIfNeeded: hash) & mask
            while true {
                let slot = Int(slots[index])
                if slot == 0 { break }
                let node = slot &- 1
                if hashes[node] == hash && parents[node] == parent && keyEquals(node, key) { return node }
                index = (index &+ 1) & mask
            }
            let node = keyEnds.count
            arena.append(contentsOf: key)
            keyEnds.append(arena.count)
            parents.append(parent)
            hashes.append(hash)
            nodeColumn.append(-1)
            stamps.append(0)
            successors.append(0)
            slots[index] = Int32(truncatingIfNeeded: node &+ 1)
            if keyEnds.count &* 2 > slots.count { grow() }
            return node
        }

        /// The node for a top-level name such as `Value` or `Column 3`.
        package mutating func node(named name: String) -> Int {
            var name = name
            return name.withUTF8 { node(parent: -1, key: $0) }
        }

        /// The column of `node`, made when it has none yet.
        /// - Returns: the column, and whether it is new.
        package mutating func column(of node: Int) -> (column: Int, isNew: Bool) {
            let known = nodeColumn[node]
            if known >= 0 { return (known, false) }
            let column = names.count
            names.append(dottedName(of: node))
            nodeColumn[node] = column
            return (column, true)
        }

        /// Each column's node, in column order.
        func columnNodes() -> [Int] {
            var nodes = [Int](repeating: -1, count: names.count)
            for (node, column) in nodeColumn.enumerated() where column >= 0 { nodes[column] = node }
            return nodes
        }

        /// Each column's keys from the root down, in column order (`path(of:)`, decoded).
        package func columnKeyPaths() -> [[String]] {
            columnNodes().map { node in node < 0 ? [] : path(of: node).map { String(decoding: $0, as: UTF8.self) } }
        }

        /// The keys from the root down to `node` (a top-level name such as `Value` is one key).
        package func path(of node: Int) -> [[UInt8]] {
            var chain: [[UInt8]] = []
            var current = node
            while current >= 0 {
                chain.append(Array(arena[keyRange(current)]))
                current = parents[current]
            }
            return chain.reversed()
        }

        /// The column of the node at `path` (`path(of:)` of another table's node), made when new.
        package mutating func column(at path: [[UInt8]]) -> (column: Int, isNew: Bool) {
            var node = -1
            for key in path { node = key.withUnsafeBufferPointer { self.node(parent: node, key: $0) } }
            return column(of: node)
        }

        /// Whether `node` is `ancestor` or lies below it.
        func isNode(_ node: Int, under ancestor: Int) -> Bool {
            var current = node
            while current >= 0 {
                if current == ancestor { return true }
                current = parents[current]
            }
            return false
        }

        /// `a.b.c`: the keys from the root down to `node`, joined with dots.
        private func dottedName(of node: Int) -> String {
            var chain: [Int] = []
            var current = node
            while current >= 0 {
                chain.append(current)
                current = parents[current]
            }
            var bytes: [UInt8] = []
            for (depth, link) in chain.reversed().enumerated() {
                if depth > 0 { bytes.append(UInt8(ascii: ".")) }
                bytes.append(contentsOf: arena[keyRange(link)])
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        private func keyRange(_ node: Int) -> Range<Int> {
            (node == 0 ? 0 : keyEnds[node &- 1])..<keyEnds[node]
        }

        private func keyEquals(_ node: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
            let range = keyRange(node)
            guard range.count == key.count else { return false }
            guard let other = key.baseAddress, !key.isEmpty else { return true }
            return arena.withUnsafeBufferPointer { bytes in
                guard let start = bytes.baseAddress else { return false }
                return TextBytes.equal(start + range.lowerBound, other, count: key.count)
            }
        }

        private mutating func grow() {
            var bigger = [Int32](repeating: 0, count: slots.count &* 2)
            let mask = bigger.count &- 1
            for node in 0..<keyEnds.count {
                var index = Int(truncatingIfNeeded: hashes[node]) & mask
                while bigger[index] != 0 { index = (index &+ 1) & mask }
                bigger[index] = Int32(truncatingIfNeeded: node &+ 1)
            }
            slots = bigger
        }

        /// FNV-1a over the key, seeded with the parent.
        package static func hash(parent: Int, key: UnsafeBufferPointer<UInt8>) -> UInt64 {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ (UInt64(bitPattern: Int64(parent &+ 1)) &* 0x9E37_79B9_7F4A_7C15)
            for byte in key { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return hash
        }
    }
}

extension JSONReader {
    /// Starts with the columns another reader of the same input found, in its order: a piece of a
    /// file read again after a first pass over all of it names every column as that pass did (P1).
    package mutating func seed(columnsOf other: JSONReader) {
        table = other.table
        slots = Array(repeating: Slot(), count: table.names.count)
    }

    /// Takes in the columns and warnings of a reader of a later piece of the same input (P1):
    /// its columns join these where they are new, in the order it found them, as if this reader
    /// had read its rows; its lines count from `lineOffset` + 1.
    /// - Returns: for each of its columns, the column here.
    package mutating func absorb(_ piece: JSONReader, lineOffset: Int) -> [Int] {
        let mapping = piece.table.columnNodes().map { node -> Int in
            let (column, isNew) = table.column(at: piece.table.path(of: node))
            if isNew { slots.append(Slot()) }
            return column
        }
        if piece.loneSurrogates > 0 {
            if loneSurrogates == 0 { firstLoneSurrogateLine = piece.firstLoneSurrogateLine + lineOffset }
            loneSurrogates += piece.loneSurrogates
        }
        if piece.duplicateKeys > 0 {
            if duplicateKeys == 0 {
                firstDuplicateKey = piece.firstDuplicateKey
                firstDuplicateLine = piece.firstDuplicateLine + lineOffset
            }
            duplicateKeys += piece.duplicateKeys
        }
        return mapping
    }
}
