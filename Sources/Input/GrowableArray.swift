#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Text

/// A growable array of plain values for `Record`: appending a run is one `memcpy`, emptying is
/// setting a count, with none of `Array`'s generic machinery on the per-field hot path.
/// Copy-on-write, so a record kept aside (a pipe's window, sorted rows) is a value like any other.
package struct GrowableArray<Element: BitwiseCopyable>: RandomAccessCollection, MutableCollection, @unchecked Sendable {
    /// The heap block; only ever mutated when uniquely referenced. It comes from `malloc`, so
    /// that growing it is a `realloc`: a large block is then moved by the kernel's page tables
    /// instead of copied, and the old and new blocks are never both held (a 200 MB cell needs
    /// 256 MB, not 384).
    package final class Storage: @unchecked Sendable {
        var pointer: UnsafeMutablePointer<Element>
        var capacity: Int
        /// The block and its size, for a user outside this layer (the stored properties stay
        /// internal, so that the compiler sees every access to them and checks none at run time).
        package var base: UnsafeMutablePointer<Element> { pointer }
        package var size: Int { capacity }
        /// The first `count` elements, checked against the block's size (a count past it stops
        /// the program rather than reading past the block).
        package func prefix(_ count: Int) -> UnsafeBufferPointer<Element> {
            precondition(count >= 0 && count <= capacity, "\(count) elements asked of a block of \(capacity)")
            return UnsafeBufferPointer(start: pointer, count: count)
        }

        package init(capacity: Int) {
            self.capacity = Swift.max(1, capacity)
            pointer = Self.allocate(self.capacity)
        }

        deinit { free(pointer) }

        package static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Element> {
            guard let raw = malloc(capacity &* MemoryLayout<Element>.stride) else { fatalError("out of memory (\(capacity) elements)") }
            return raw.bindMemory(to: Element.self, capacity: capacity)
        }

        /// Grows the block in place or moves it, keeping its elements.
        package func grow(to newCapacity: Int) {
            guard let raw = realloc(pointer, newCapacity &* MemoryLayout<Element>.stride) else { fatalError("out of memory (\(newCapacity) elements)") }
            pointer = raw.bindMemory(to: Element.self, capacity: newCapacity)
            capacity = newCapacity
        }
    }

    var storage: Storage
    package private(set) var count = 0

    package init() { storage = Storage(capacity: 16) }

    private init(storage: Storage, count: Int) {
        self.storage = storage
        self.count = count
    }

    package init(_ elements: some Sequence<Element>) {
        self.init()
        for element in elements { append(element) }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }
    package var capacity: Int { storage.capacity }

    package subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "GrowableArray index out of range")
            return storage.pointer[position]
        }
        set {
            precondition(position >= 0 && position < count, "GrowableArray index out of range")
            makeUnique(capacity: storage.capacity)
            storage.pointer[position] = newValue
        }
    }

    /// Makes the storage this value's own, with room for `capacity` elements.
    mutating func makeUnique(capacity: Int) {
        if isKnownUniquelyReferenced(&storage) {
            if storage.capacity < capacity { storage.grow(to: capacity) }
            return
        }
        let fresh = Storage(capacity: Swift.max(capacity, storage.capacity))
        fresh.pointer.update(from: storage.pointer, count: count)
        storage = fresh
    }

    /// Room for `extra` more elements, growing by doubling.
    @inline(__always)
    package mutating func reserve(_ extra: Int) {
        let needed = count &+ extra
        if needed > storage.capacity || !isKnownUniquelyReferenced(&storage) {
            makeUnique(capacity: needed > storage.capacity ? Swift.max(needed, storage.capacity &* 2) : storage.capacity)
        }
    }

    /// Makes the storage this value's own and able to take `extra` more elements, so that
    /// `appendAssumingUnique` may follow without checks (a reader calls this once per record).
    @inline(__always)
    mutating func prepareForAppending(_ extra: Int) {
        reserve(extra)
    }

    /// Appends a run of elements.
    /// - Complexity: O(elements), one `memcpy`.
    @inline(__always)
    package mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let base = elements.baseAddress, elements.count > 0 else { return }
        reserve(elements.count)
        memcpy(storage.pointer + count, base, elements.count &* MemoryLayout<Element>.stride)
        count &+= elements.count
    }

    /// Appends a run without the uniqueness check: only after `prepareForAppending` on this
    /// value, with no copy of it made since (a reader filling its record).
    @inline(__always)
    mutating func appendAssumingUnique(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let base = elements.baseAddress, elements.count > 0 else { return }
        let n = elements.count
        if count &+ n > storage.capacity { reserve(n) }
        TextBytes.copy(base, to: storage.pointer + count, count: n &* MemoryLayout<Element>.stride)
        count &+= n
    }

    /// Appends one element without the uniqueness check (see `appendAssumingUnique(contentsOf:)`).
    @inline(__always)
    mutating func appendAssumingUnique(_ element: Element) {
        if count == storage.capacity { reserve(1) }
        storage.pointer[count] = element
        count &+= 1
    }

    /// Appends up to `limit` elements that `body` writes at the start of the room it is lent (of
    /// `limit` elements), returning how many it wrote, or nil to append none (then false is
    /// returned). - Precondition: `body` wrote no more than it was lent.
    @inline(__always)
    package mutating func append(atMost limit: Int, _ body: (UnsafeMutableBufferPointer<Element>) -> Int?) -> Bool {
        precondition(limit >= 0, "a negative count to append")
        reserve(limit)
        guard let n = body(UnsafeMutableBufferPointer(start: storage.pointer + count, count: limit)) else { return false }
        precondition(n >= 0 && n <= limit, "\(n) elements appended into room for \(limit)")
        count &+= n
        return true
    }

    /// Appends elements from any sequence.
    package mutating func append(contentsOf elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }

    @inline(__always)
    package mutating func append(_ element: Element) {
        if count == storage.capacity || !isKnownUniquelyReferenced(&storage) { reserve(1) }
        storage.pointer[count] = element
        count &+= 1
    }

    /// Empties the array; keeps the block when `keepingCapacity` (copy-on-write still holds: a
    /// shared block is replaced at the next append).
    @inline(__always)
    package mutating func removeAll(keepingCapacity: Bool = false) {
        count = 0
        if !keepingCapacity { storage = Storage(capacity: 16) }
    }

    /// A copy in a block just large enough (a row held for sorting keeps no spare room).
    package func compacted() -> GrowableArray {
        let block = Storage(capacity: count)
        block.pointer.update(from: storage.pointer, count: count)
        return GrowableArray(storage: block, count: count)
    }

    /// Where the elements start, with nothing keeping them alive (see `Record.unsafeFields`).
    @inline(__always)
    package var unsafeBase: UnsafePointer<Element> {
        UnsafePointer(Unmanaged.passUnretained(storage)._withUnsafeGuaranteedRef { $0.pointer })
    }

    /// Calls `body` with the elements.
    @inline(__always)
    package func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<Element>) throws(E) -> R) throws(E) -> R {
        try withExtendedLifetime(storage) { () throws(E) -> R in
            try body(UnsafeBufferPointer(start: storage.pointer, count: count))
        }
    }
}

/// A record's bytes.
package typealias ByteArray = GrowableArray<UInt8>
