#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A growable byte buffer for `Record`: appending a run of bytes is one `memcpy`, with none of
/// `Array`'s generic copying on the per-field hot path. Copy-on-write, so a record kept aside
/// (a pipe's window, sorted rows) is a value like any other.
public struct ByteArray: RandomAccessCollection, MutableCollection, Sendable {
    /// The heap block; only ever mutated when uniquely referenced.
    final class Storage: @unchecked Sendable {
        var pointer: UnsafeMutablePointer<UInt8>
        var capacity: Int

        init(capacity: Int) {
            self.capacity = Swift.max(16, capacity)
            pointer = .allocate(capacity: self.capacity)
        }

        deinit { pointer.deallocate() }
    }

    var storage: Storage
    public private(set) var count = 0

    public init() { storage = Storage(capacity: 64) }

    public init(_ bytes: some Sequence<UInt8>) {
        self.init()
        for b in bytes { append(b) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public var capacity: Int { storage.capacity }

    public subscript(position: Int) -> UInt8 {
        get {
            precondition(position >= 0 && position < count, "ByteArray index out of range")
            return storage.pointer[position]
        }
        set {
            precondition(position >= 0 && position < count, "ByteArray index out of range")
            makeUnique(capacity: storage.capacity)
            storage.pointer[position] = newValue
        }
    }

    /// Makes the storage this value's own, with room for `capacity` bytes.
    @inline(__always)
    mutating func makeUnique(capacity: Int) {
        if isKnownUniquelyReferenced(&storage) && storage.capacity >= capacity { return }
        let fresh = Storage(capacity: Swift.max(capacity, storage.capacity))
        fresh.pointer.update(from: storage.pointer, count: count)
        storage = fresh
    }

    /// Room for `extra` more bytes, growing by doubling.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        let needed = count &+ extra
        if needed > storage.capacity || !isKnownUniquelyReferenced(&storage) {
            makeUnique(capacity: needed > storage.capacity ? Swift.max(needed, storage.capacity &* 2) : storage.capacity)
        }
    }

    /// Appends a run of bytes.
    /// - Complexity: O(bytes), one `memcpy`.
    @inline(__always)
    public mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        memcpy(storage.pointer + count, base, bytes.count)
        count &+= bytes.count
    }

    /// Appends bytes from any sequence.
    public mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        for b in bytes { append(b) }
    }

    @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        storage.pointer[count] = byte
        count &+= 1
    }

    /// Empties the buffer; keeps the block when `keepingCapacity` (and it is this value's own).
    public mutating func removeAll(keepingCapacity: Bool = false) {
        if keepingCapacity && isKnownUniquelyReferenced(&storage) {
            count = 0
        } else {
            storage = Storage(capacity: keepingCapacity ? storage.capacity : 64)
            count = 0
        }
    }

    /// Calls `body` with the bytes.
    @inline(__always)
    public func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try withExtendedLifetime(storage) { () throws(E) -> R in
            try body(UnsafeBufferPointer(start: storage.pointer, count: count))
        }
    }
}
