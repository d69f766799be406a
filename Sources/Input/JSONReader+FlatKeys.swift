/// The keys of the last JSON Lines row `readFlatLine` read: the next rows repeat them, so their
/// bytes are compared with the row's before the column table is asked.
extension JSONReader {
    /// A key of the last row read by `readFlatLine`: `count` bytes at `start` of `FlatKeys.bytes`
    /// (then its closing quote and a colon), and where the row being read has it in the buffer.
    struct FlatKey {
        package var start: Int
        package var count: Int
        package var node: Int
        package var column: Int
        var textStart = 0
    }

    /// The keys of the last row `readFlatLine` read, in order (`FlatKey`), each followed in
    /// `bytes` by its closing quote and a colon: rows repeat them.
    final class FlatKeys {
        package private(set) var keys: UnsafeMutablePointer<FlatKey>
        package private(set) var count = 0
        private var capacity = 16
        package let bytes = ByteScratch()

        package init() { keys = .allocate(capacity: capacity) }

        deinit { keys.deallocate() }

        /// Keeps the first `newCount` keys.
        package func removeLast(to newCount: Int) {
            guard newCount < count else { return }
            bytes.removeLast(to: keys[newCount].start)
            count = newCount
        }

        package func append(_ key: FlatKey) {
            if count == capacity {
                let grown = UnsafeMutablePointer<FlatKey>.allocate(capacity: capacity &* 2)
                grown.moveInitialize(from: keys, count: count)
                keys.deallocate()
                keys = grown
                capacity &*= 2
            }
            (keys + count).initialize(to: key)
            count &+= 1
        }
    }
}
