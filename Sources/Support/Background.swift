import Dispatch

/// Work done on a thread of its own while the caller goes on, and its value taken once it ends:
/// the one way tablefmt hands a piece of work off the calling thread and back (a `--sort` run
/// sorted and written while the next rows are read, a JSON Lines file's lines found as the view
/// opens, the view's save while keys are answered).
///
/// The work's thread sets the value, then signals, then calls `whenDone` (the view's loop is woken
/// by it, and finds the value set). `value` may be read from any thread at any time (nil until the
/// work has ended); `wait` blocks until it is set, as many times and from as many threads as asked.
/// Stopping early is the work's own business (it polls a flag its closure captures); `wait` is how
/// the one who stopped it knows it has stopped.
package final class Background<Value>: @unchecked Sendable {
    private let result = Locked<Value?>(nil)
    private let ended = DispatchSemaphore(value: 0)

    /// Starts `work` on a thread of its own (`HelperThread`), or, with `inline`, does it here and
    /// now, before returning (the view's tests, which step its loop by hand).
    package init(inline: Bool = false, _ work: @escaping @Sendable () -> Value, whenDone: (@Sendable () -> Void)? = nil) {
        let (result, ended) = (result, ended)
        let body: @Sendable () -> Void = {
            let value = work()
            result.withLock { $0 = value }
            ended.signal()
            whenDone?()
        }
        if inline { body() } else { HelperThread.start(body) }
    }

    /// The work's value, once it has ended; nil until then.
    package var value: Value? { result.withLock { $0 } }

    /// Waits until the work has ended, and gives its value.
    package func wait() -> Value {
        ended.wait()
        ended.signal()  // the next wait returns at once
        guard let value = result.withLock({ $0 }) else { preconditionFailure("work signalled its end before its value was set") }
        return value
    }

    /// Waits until the work has ended or `milliseconds` pass; whether it has ended.
    package func wait(milliseconds: Int) -> Bool {
        guard ended.wait(timeout: .now() + .milliseconds(milliseconds)) == .success else { return false }
        ended.signal()
        return true
    }
}
