#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value two threads share, every access under one mutex. Used where `Synchronization`'s
/// `Atomic` would do, so the package needs no newer platform than macOS 13 (the pipeline takes
/// the lock a few times per batch of rows, never per row).
@safe @usableFromInline package final class Locked<Value>: @unchecked Sendable {
    @usableFromInline var value: Value
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init(_ value: Value) {
        self.value = value
        unsafe mutex = .allocate(capacity: 1)
        unsafe mutex.initialize(to: pthread_mutex_t())
        unsafe pthread_mutex_init(mutex, nil)
    }

    deinit {
        unsafe pthread_mutex_destroy(mutex)
        unsafe mutex.deinitialize(count: 1)
        unsafe mutex.deallocate()
    }

    /// Runs `body` on the value with the lock held.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        unsafe pthread_mutex_lock(mutex)
        defer { unsafe pthread_mutex_unlock(mutex) }
        return body(&value)
    }

    @inlinable
    package var current: Value { withLock { $0 } }
}

/// A value handed to another thread that reads it from then on (rows every reader may read from
/// any thread, a closure each thread calls for parts of its own, an input the thread alone opens):
/// the one place the compiler is told so.
package struct Handed<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
