#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystem
import Dispatch

/// The second thread of a run that shares its work between two cores (P1: a file's pieces, a
/// pipe's reader), a thread of its own started beside this one. Two delays are avoided, both
/// measured on the 1M-row CSV (2 cores, Linux): Dispatch's global queue started its first worker
/// 0.3 to 7 ms after it was asked for, and a new thread placed by the scheduler on the CPU of the
/// thread that made it waited there up to 4 ms (a scheduler tick) to be moved to the idle one; the
/// helper of the sizing pass started 2 ms late on average, a wall time the second core could have
/// halved. Started on another CPU (Linux), it runs within 0.1 ms, then may run on any.
package enum HelperThread {
    /// The work, and the CPUs the process may run on (to be given back to the new thread).
    @safe private final class Work {
        let body: @Sendable () -> Void
        let allowed = UnsafeMutablePointer<UInt>.allocate(capacity: Int(TABLEFMT_CPU_WORDS))
        var startsElsewhere = false

        init(_ body: @escaping @Sendable () -> Void) {
            self.body = body
            unsafe allowed.initialize(repeating: 0, count: Int(TABLEFMT_CPU_WORDS))
        }

        deinit { unsafe allowed.deallocate() }
    }

    /// Runs `body` on a new thread and returns at once; the caller waits for what `body` signals.
    /// Where no thread can be made, `body` runs on Dispatch's global queue instead.
    package static func start(_ body: @escaping @Sendable () -> Void) {
        let work = Work(body)
        var attributes = pthread_attr_t()
        unsafe pthread_attr_init(&attributes)
        defer { unsafe pthread_attr_destroy(&attributes) }
        unsafe pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        work.startsElsewhere = unsafe tablefmt_start_elsewhere(&attributes, work.allowed) != 0
        let context = unsafe Unmanaged.passRetained(work).toOpaque()
#if canImport(Darwin)
        var thread: pthread_t?
#else
        var thread = pthread_t()
#endif
        // (The thread's argument is optional on Linux, not on Darwin: `run` takes either.)
        let made = unsafe pthread_create(&thread, &attributes, { context in
            unsafe HelperThread.run(context)
            return nil
        }, unsafe context)
        if made != 0 {
            unsafe Unmanaged<Work>.fromOpaque(context).release()
            DispatchQueue.global().async(execute: body)
        }
    }

    /// The new thread's start: its CPUs given back, then the work.
    private static func run(_ context: UnsafeMutableRawPointer?) {
        guard let context = unsafe context else { return }
        let work = unsafe Unmanaged<Work>.fromOpaque(context).takeRetainedValue()
        if work.startsElsewhere { unsafe tablefmt_allow(work.allowed) }
        work.body()
    }
}
