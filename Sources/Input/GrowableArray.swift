#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Text

/// A growable array of plain values for `Record`: appending a run is one `memcpy`, emptying is
/// setting a count, with none of `Array`'s generic machinery on the per-field hot path.
/// Copy-on-write, so a record kept aside (a pipe's window, sorted rows) is a value like any other.
@usableFromInline package struct GrowableArray<Element: BitwiseCopyable>: RandomAccessCollection, MutableCollection, @unchecked Sendable {
    /// The heap block. It comes from `malloc`, so that growing it is a `realloc`: a large block
    /// is then moved by the kernel's page tables instead of copied, and the old and new blocks are
    /// never both held (a 200 MB cell needs 256 MB, not 384). Its place and size never change
    /// (`let`), so reading them from another module needs no run-time exclusivity check: growing
    /// makes a new `Storage` for the block (`grown`), and the old one lets go of it.
    @usableFromInline package final class Storage: @unchecked Sendable {
        @usableFromInline let pointer: UnsafeMutablePointer<Element>
        @usableFromInline let capacity: Int
        /// The block was handed to a grown `Storage` (`grown`): this one no longer frees it.
        private var released = false
        /// The block and its size, for a user outside this layer.
        @inlinable
        package var base: UnsafeMutablePointer<Element> { pointer }
        @inlinable
        package var size: Int { capacity }
        /// The first `count` elements, checked against the block's size (a count past it stops
        /// the program rather than reading past the block).
        @inlinable
        package func prefix(_ count: Int) -> UnsafeBufferPointer<Element> {
            precondition(count >= 0 && count <= capacity, "\(count) elements asked of a block of \(capacity)")
            return UnsafeBufferPointer(start: pointer, count: count)
        }

        @inlinable
        package convenience init(capacity: Int) {
            let capacity = Swift.max(1, capacity)
            self.init(pointer: Self.allocate(capacity), capacity: capacity)
        }

        @usableFromInline
        init(pointer: UnsafeMutablePointer<Element>, capacity: Int) {
            self.pointer = pointer
            self.capacity = capacity
        }

        deinit { if !released { free(pointer) } }

        @inlinable
        package static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Element> {
            guard let raw = malloc(capacity &* MemoryLayout<Element>.stride) else { fatalError("out of memory (\(capacity) elements)") }
            return raw.bindMemory(to: Element.self, capacity: capacity)
        }

        /// The block grown in place or moved, its elements kept, as a new `Storage`; this one lets
        /// go of it. - Precondition: nothing else uses this one (it is uniquely referenced, or
        /// its owner replaces it at once).
        @usableFromInline
        package func grown(to newCapacity: Int) -> Storage {
            precondition(!released, "a block grown twice")
            guard let raw = realloc(pointer, newCapacity &* MemoryLayout<Element>.stride) else { fatalError("out of memory (\(newCapacity) elements)") }
            released = true
            return Storage(pointer: raw.bindMemory(to: Element.self, capacity: newCapacity), capacity: newCapacity)
        }
    }

    @usableFromInline var storage: Storage
    /// How many elements there are (set here only).
    @inlinable package var count: Int { stored }
    @usableFromInline var stored = 0

    @inlinable
    package init() { storage = Storage(capacity: 16) }

    private init(storage: Storage, count: Int) {
        self.storage = storage
        self.stored = count
    }

    package init(_ elements: some Sequence<Element>) {
        self.init()
        for element in elements { append(element) }
    }

    @inlinable
    package var startIndex: Int { 0 }
    @inlinable
    package var endIndex: Int { count }
    @inlinable
    package var capacity: Int { storage.capacity }

    @inlinable
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
    @usableFromInline
    mutating func makeUnique(capacity: Int) {
        if isKnownUniquelyReferenced(&storage) {
            if storage.capacity < capacity { storage = storage.grown(to: capacity) }
            return
        }
        let fresh = Storage(capacity: Swift.max(capacity, storage.capacity))
        fresh.pointer.update(from: storage.pointer, count: count)
        storage = fresh
    }

    /// Room for `extra` more elements, growing by doubling.
    @inline(__always)
    @inlinable
    package mutating func reserve(_ extra: Int) {
        let needed = count &+ extra
        if needed > storage.capacity || !isKnownUniquelyReferenced(&storage) {
            makeUnique(capacity: needed > storage.capacity ? Swift.max(needed, storage.capacity &* 2) : storage.capacity)
        }
    }

    /// Makes the storage this value's own and able to take `extra` more elements, so that
    /// `appendAssumingUnique` may follow without checks (a reader calls this once per record).
    @inline(__always)
    @inlinable
    mutating func prepareForAppending(_ extra: Int) {
        reserve(extra)
    }

    /// Appends a run of elements.
    /// - Complexity: O(elements), one `memcpy`.
    @inline(__always)
    @inlinable
    package mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let base = elements.baseAddress, elements.count > 0 else { return }
        reserve(elements.count)
        memcpy(storage.pointer + count, base, elements.count &* MemoryLayout<Element>.stride)
        stored &+= elements.count
    }

    /// Appends a run without the uniqueness check: only after `prepareForAppending` on this
    /// value, with no copy of it made since (a reader filling its record).
    @inline(__always)
    @inlinable
    mutating func appendAssumingUnique(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let base = elements.baseAddress, elements.count > 0 else { return }
        let n = elements.count
        if count &+ n > storage.capacity { reserve(n) }
        TextBytes.copy(base, to: storage.pointer + count, count: n &* MemoryLayout<Element>.stride)
        stored &+= n
    }

    /// Appends one element without the uniqueness check (see `appendAssumingUnique(contentsOf:)`).
    @inline(__always)
    @inlinable
    mutating func appendAssumingUnique(_ element: Element) {
        if count == storage.capacity { reserve(1) }
        storage.pointer[count] = element
        stored &+= 1
    }

    /// Appends up to `limit` elements that `body` writes at the start of the room it is lent (of
    /// `limit` elements), returning how many it wrote, or nil to append none (then false is
    /// returned). - Precondition: `body` wrote no more than it was lent.
    @inline(__always)
    @inlinable
    package mutating func append(atMost limit: Int, _ body: (UnsafeMutableBufferPointer<Element>) -> Int?) -> Bool {
        precondition(limit >= 0, "a negative count to append")
        reserve(limit)
        guard let n = body(UnsafeMutableBufferPointer(start: storage.pointer + count, count: limit)) else { return false }
        precondition(n >= 0 && n <= limit, "\(n) elements appended into room for \(limit)")
        stored &+= n
        return true
    }

    /// Appends elements from any sequence.
    package mutating func append(contentsOf elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }

    @inline(__always)
    @inlinable
    package mutating func append(_ element: Element) {
        if count == storage.capacity || !isKnownUniquelyReferenced(&storage) { reserve(1) }
        storage.pointer[count] = element
        stored &+= 1
    }

    /// Empties the array; keeps the block when `keepingCapacity` (copy-on-write still holds: a
    /// shared block is replaced at the next append).
    @inline(__always)
    @inlinable
    package mutating func removeAll(keepingCapacity: Bool = false) {
        stored = 0
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
    @inlinable
    package var unsafeBase: UnsafePointer<Element> {
        UnsafePointer(Unmanaged.passUnretained(storage)._withUnsafeGuaranteedRef { $0.pointer })
    }

    /// Calls `body` with the elements.
    @inline(__always)
    @inlinable
    package func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<Element>) throws(E) -> R) throws(E) -> R {
        try withExtendedLifetime(storage) { () throws(E) -> R in
            try body(UnsafeBufferPointer(start: storage.pointer, count: count))
        }
    }
}

/// A record's bytes.
package typealias ByteArray = GrowableArray<UInt8>
