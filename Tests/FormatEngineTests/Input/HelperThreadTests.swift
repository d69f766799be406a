#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystem
import Dispatch
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer
import Support

/// P1: the second core's thread (`HelperThread`) runs its work at once on a thread of its own, and
/// is then free to run on every CPU the process may use (it starts on another CPU than its
/// maker's, Linux, and gives that up first).
@Suite("Helper thread")
struct HelperThreadTests {
    /// What a helper saw of itself.
    final class Seen: @unchecked Sendable {
        var thread: pthread_t?
        var cpus = [UInt](repeating: 0, count: Int(TABLEFMT_CPU_WORDS))
        var cpusKnown = false
    }

    @Test("P1: each helper runs its work once, on another thread, and may run on every CPU the process may")
    func runsElsewhereThenAnywhere() {
        var mine = [UInt](repeating: 0, count: Int(TABLEFMT_CPU_WORDS))
        let known = tablefmt_cpus(&mine) != 0
        for _ in 0..<20 {
            let seen = Seen()
            let done = DispatchSemaphore(value: 0)
            HelperThread.start {
                seen.thread = pthread_self()
                seen.cpusKnown = tablefmt_cpus(&seen.cpus) != 0
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(seen.thread.map { pthread_equal($0, pthread_self()) == 0 } == true)
            #expect(seen.cpusKnown == known)
            if known { #expect(seen.cpus == mine) }
        }
    }
}
