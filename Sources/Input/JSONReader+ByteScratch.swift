extension JSONReader {
    /// A reusable byte buffer for the reader's per-value and per-row scratch (the string being
    /// decoded, the key path, the row's cells, compact JSON): emptying it keeps its memory and
    /// costs nothing, and appending is a bounds-free copy.
    ///
    /// A class holding raw memory rather than an `Array`: `removeAll(keepingCapacity:)` is a
    /// general `replaceSubrange`, and `Array`'s closure-based pointer access is generic, both
    /// measurably slow when done for every string. Each buffer belongs to one reader and is never
    /// shared.
    final class ByteScratch {
        private var start: UnsafeMutablePointer<UInt8>
        /// Bytes in use.
        package private(set) var count = 0
        /// Bytes of memory held.
        package private(set) var capacity: Int

        package init(capacity: Int = 64) {
            self.capacity = max(16, capacity)
            start = .allocate(capacity: self.capacity)
        }

        deinit { start.deallocate() }

        /// The bytes in use (valid until the next append).
        package var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

        /// Empties the buffer, keeping its memory.
        @inline(__always)
        package func removeAll() { count = 0 }

        @inline(__always)
        package func append(_ byte: UInt8) {
            if count == capacity { grow(to: count &+ 1) }
            start[count] = byte
            count &+= 1
        }

        package func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
            if capacity &- count < bytes.count { grow(to: count &+ bytes.count) }
            (start + count).update(from: source, count: bytes.count)
            count &+= bytes.count
        }

        package func append(_ other: ByteScratch) { append(other.bytes) }

        /// Appends what `body` writes at the start of the room it is lent (`limit` bytes);
        /// `body` returns how many. - Precondition: no more than it was lent.
        package func append(atMost limit: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
            precondition(limit >= 0, "a negative count to append")
            if capacity &- count < limit { grow(to: count &+ limit) }
            let n = body(start + count)
            precondition(n >= 0 && n <= limit, "\(n) bytes appended into room for \(limit)")
            count &+= n
        }

        /// Keeps the first `newCount` bytes.
        package func removeLast(to newCount: Int) { count = min(count, max(0, newCount)) }

        private func grow(to needed: Int) {
            var newCapacity = capacity &* 2
            while newCapacity < needed { newCapacity &*= 2 }
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            grown.update(from: start, count: count)
            start.deallocate()
            start = grown
            capacity = newCapacity
        }
    }
}
