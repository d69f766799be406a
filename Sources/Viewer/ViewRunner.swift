import Save
import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
import Dispatch

/// Does the view's long work (`ViewWork`) and hands its messages to the key loop (V3, V5, V8).
/// One work is live at a time: starting one, or `cancel`, makes the one before stale; a stale
/// work stops at its next check (every 4,096 rows) and nothing it says is kept. The key loop
/// takes the messages (`take`) when `wake` tells it there are some; nothing else is shared, and
/// that through a lock.
package final class ViewRunner: @unchecked Sendable {
    /// Where the work runs.
    package enum Mode: Sendable {
        /// On a thread of its own (the terminal view).
        case background
        /// At once, on the thread that starts it, its messages kept for `take` (tests of keys
        /// and frames that want the answer at the key).
        case inline
        /// Not at all: the work is noted (`started`) and the test delivers the messages itself.
        case manual
    }

    private struct Shared {
        /// The work whose messages are kept (0: none).
        var live = 0
        var stopped = false
        var mail: [ViewMessage] = []
        /// The last whole percent reported of the live work (progress is said once a percent).
        var percent = -1
        var wake: (@Sendable () -> Void)?
        var started: [ViewWork] = []
        /// Works being done now (a stale one until it notices).
        var executing = 0
    }

    let mode: Mode
    private let shared = Locked(Shared())

    package init(_ mode: Mode = .inline) { self.mode = mode }

    /// Called (on the working thread) when messages wait to be taken; nil: none is called. Once
    /// this returns, the one before is never called again.
    /// When messages already wait, `wake` is called at once.
    package func setWake(_ wake: (@Sendable () -> Void)?) {
        shared.withLock { shared in
            shared.wake = wake
            if !shared.mail.isEmpty { wake?() }
        }
    }

    /// The work started so far (`manual` mode's record, for tests).
    var started: [ViewWork] { shared.withLock { $0.started } }

    /// How many works are being done now, stale ones included (tests: a cancelled work stops).
    var executing: Int { shared.withLock { $0.executing } }

    /// The id of the live work, if any.
    var live: Int? { shared.withLock { $0.live == 0 ? nil : $0.live } }

    /// Starts `work` over `data`, making any work before it stale.
    func start(_ work: ViewWork, data: any ViewRows) {
        let go = shared.withLock { shared -> Bool in
            guard !shared.stopped else { return false }
            shared.live = work.id
            shared.percent = -1
            shared.started.append(work)
            return true
        }
        guard go else { return }
        switch mode {
        case .manual: break
        case .inline: execute(work, data)
        case .background:
            let rows = Handed(data)  // a `RowStore` reads from any thread; a test's rows never change
            DispatchQueue.global(qos: .userInitiated).async { self.execute(work, rows.value) }
        }
    }

    /// Makes work `id` stale, if it is the live one.
    func cancel(_ id: Int) { shared.withLock { if $0.live == id { $0.live = 0 } } }

    /// The view has ended: the live work stops, and nothing more is kept or woken for.
    package func stop() {
        shared.withLock { shared in
            shared.stopped = true
            shared.live = 0
            shared.mail.removeAll()
            shared.wake = nil
        }
    }

    /// The messages kept since the last call, oldest first.
    func take() -> [ViewMessage] {
        shared.withLock { shared in
            defer { shared.mail.removeAll() }
            return shared.mail
        }
    }

    private func execute(_ work: ViewWork, _ data: any ViewRows) {
        let id = work.id
        shared.withLock { $0.executing += 1 }
        defer { shared.withLock { $0.executing -= 1 } }
        let progress = WorkProgress { [self] fraction in post(.progress(id: id, fraction: fraction)) }
        if let answer = work.run(data, progress) { post(answer) }
    }

    /// Keeps `message` for the key loop while its work is live, waking the loop when the mail was
    /// empty; a progress is kept only when it reaches another whole percent.
    /// - Returns: whether its work is still live.
    @discardableResult
    private func post(_ message: ViewMessage) -> Bool {
        shared.withLock { shared in
            guard !shared.stopped, shared.live == message.id else { return false }
            if case .progress(_, let fraction) = message {
                let percent = Int(fraction * 100)
                guard percent != shared.percent else { return true }
                shared.percent = percent
                if case .progress? = shared.mail.last { shared.mail.removeLast() }
            }
            shared.mail.append(message)
            if shared.mail.count == 1 { shared.wake?() }
            return true
        }
    }
}
