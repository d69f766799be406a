#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import FormatEngine
import Support

/// What a signal handler needs to put the terminal back: plain values, set before the handlers
/// are installed, read only by them (async-signal-safe: `write`, `fcntl`, `tcsetattr`, `tcflush`,
/// `unlink`, `signal`, `raise`).
nonisolated(unsafe) private var ttyDescriptor: Int32 = -1
/// The terminal's modes as found, in memory allocated for a `termios` (C writes the whole struct:
/// a Swift global of the type, built with AddressSanitizer, was laid out three bytes shorter, and
/// the sanitizer caught `tcgetattr` writing past it). Made once, before any handler can run;
/// never freed (a handler may read it to the end).
nonisolated(unsafe) private let savedModes: UnsafeMutablePointer<termios> = {
    let modes = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    modes.initialize(to: termios())
    return modes
}()
nonisolated(unsafe) private var wakeWriter: Int32 = -1
/// The terminal whose echo is off while the view is getting ready (`TerminalSession.hush`), -1
/// when none; its modes as found are in `savedModes` (the view, once it runs, finds them there).
nonisolated(unsafe) private var hushedDescriptor: Int32 = -1

/// An ending signal while the echo is off: the modes put back at once, then the signal's own end.
private func onSignalWhileHushed(_ number: Int32) {
    if hushedDescriptor >= 0 { _ = tcsetattr(hushedDescriptor, TCSANOW, savedModes) }
    signal(number, SIG_DFL)
    raise(number)
}

/// Entering: the alternate screen, no cursor, no line wrap, SGR mouse reports (V8), bracketed
/// paste (pasted text comes marked, so the field editor takes it as text, V10).
private let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[?2004h\u{1B}[H\u{1B}[2J"
/// Leaving: all of it undone, in reverse.
private let leaveSequence = "\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?7h\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

/// Bytes made once, before any handler can run, so a handler only reads memory.
private func fixedBytes(_ text: String) -> UnsafeBufferPointer<UInt8> {
    let bytes = Array(text.utf8)
    let memory = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
    _ = memory.initialize(from: bytes)
    return UnsafeBufferPointer(memory)
}
nonisolated(unsafe) private let leaveBytes = fixedBytes(leaveSequence)
nonisolated(unsafe) private let enterBytes = fixedBytes(enterSequence)

/// How many times in a row a read, write or poll is tried again after `EINTR` or `EAGAIN`
/// before the terminal is given up as gone: no loop retries without a bound.
private let retryLimit = 100

/// Writes all of `bytes` to `fd`. - Returns: false when a write fails (the terminal is gone, or
/// cannot take them without waiting when `fd` does not block); interruptions are retried a
/// bounded number of times. With `waits`, a descriptor that does not block and has no room is
/// waited for that many times 10 ms at most (a signal handler's leaving sequence, behind a frame
/// the terminal has not shown yet); a terminal gone ends it at once. Nothing here allocates, so a
/// signal handler may call it.
@discardableResult
private func writeAll(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>, waits: Int = 0) -> Bool {
    var done = 0
    var retries = 0
    var waited = 0
    while done < bytes.count {
        let n = systemWrite(fd, from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[done...])))
        if n > 0 {
            done += n
            retries = 0
        } else if n < 0 && errno == EINTR && retries < retryLimit {
            retries += 1
        } else if n < 0 && errno == EAGAIN && waited < waits {
            waited += 1
            var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&ready, 1, 10) >= 0, ready.revents & Int16(POLLHUP | POLLERR | POLLNVAL) == 0 else { return false }
        } else {
            return false
        }
    }
    return true
}

/// Whether the terminal `fd` is gone: hung up, in error, or no longer a descriptor. Never waits.
private func terminalGone(_ fd: Int32) -> Bool {
    var request = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    guard poll(&request, 1, 0) >= 0 else { return errno != EINTR && errno != EAGAIN }
    return request.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
}

/// Puts the terminal as it was, at the end of a run whose terminal is there: the leaving
/// sequence written out, then the modes, typed-ahead input discarded.
/// - Returns: false when the terminal turns out to be gone (nothing more is tried).
private func leaveTerminal() -> Bool {
    guard ttyDescriptor >= 0 else { return true }
    let fd = ttyDescriptor
    ttyDescriptor = -1
    guard writeAll(fd, leaveBytes) else { return false }
    return tcsetattr(fd, TCSAFLUSH, savedModes) == 0 || !terminalGone(fd)
}

/// Puts the terminal back from a signal handler, where the terminal may be gone or not reading:
/// nothing here waits long. The descriptor stops blocking, the leaving sequence is written (a
/// terminal that cannot take it is given 100 ms at most; what it still cannot take is dropped), and the modes are set at once (`TCSANOW`: no wait
/// for output to drain, as `TCSAFLUSH` would), typed-ahead input discarded. On a hung-up terminal
/// each call fails at once.
private func leaveTerminalAtOnce() {
    guard ttyDescriptor >= 0 else { return }
    let fd = ttyDescriptor
    ttyDescriptor = -1
    let flags = fcntl(fd, F_GETFL)
    if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    if writeAll(fd, leaveBytes, waits: 10) || errno == EAGAIN {
        _ = tcsetattr(fd, TCSANOW, savedModes)
        _ = tcflush(fd, TCIFLUSH)
    }
}

/// Raw mode and the view's screen, at the start and again after `fg`. Keys typed ahead are kept
/// for the view (`TCSADRAIN`, as `less` does): a key typed right after `fg`, before raw mode is
/// back, is the view's first key, not dropped. (Leaving discards them instead: they were meant for
/// the view, not the shell.) - Returns: false when the terminal cannot take them.
@discardableResult
private func enterTerminal() -> Bool {
    guard ttyDescriptor >= 0 else { return false }
    var raw = savedModes.pointee
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
        cc[Int(VMIN)] = 1
        cc[Int(VTIME)] = 0
    }
    guard tcsetattr(ttyDescriptor, TCSADRAIN, &raw) == 0 else { return false }
    return writeAll(ttyDescriptor, enterBytes)
}

private func wake(_ byte: UInt8) {
    guard wakeWriter >= 0 else { return }
    let saved = errno  // a handler leaves errno as it found it
    var b = byte
    _ = write(wakeWriter, &b, 1)
    errno = saved
}

/// SIGTERM, SIGHUP, SIGINT, SIGQUIT, and a crash: the terminal put back without waiting on it,
/// the selection's temporary copy removed, then the signal's own end.
private func onFatalSignal(_ number: Int32) {
    leaveTerminalAtOnce()
    RemovedOnSignal.removeAll()
    signal(number, SIG_DFL)
    raise(number)
}

/// SIGTSTP (Ctrl-Z, or `kill -TSTP`): restored, stopped; on `fg`, raw mode again and a full redraw.
private func onStop(_ number: Int32) {
    let saved = errno
    let fd = ttyDescriptor
    _ = leaveTerminal()
    signal(SIGTSTP, SIG_DFL)
    // The handler runs with SIGTSTP blocked: unblocked, the signal raised again stops the process
    // here, at its default action; `fg` (SIGCONT) carries on below.
    var stop = sigset_t()
    sigemptyset(&stop)
    sigaddset(&stop, SIGTSTP)
    pthread_sigmask(SIG_UNBLOCK, &stop, nil)
    raise(SIGTSTP)
    // Continued.
    signal(SIGTSTP, onStop)
    ttyDescriptor = fd
    // A terminal gone meanwhile: the loop finds it hung up and ends.
    enterTerminal()
    wake(UInt8(ascii: "C"))
    errno = saved
}

private func onResize(_ number: Int32) { wake(UInt8(ascii: "W")) }

/// Whether `number` was set to be ignored when tablefmt started (as `nohup` sets SIGHUP).
private func ignored(_ number: Int32) -> Bool {
    var current = sigaction()
    guard sigaction(number, nil, &current) == 0 else { return false }
    #if canImport(Glibc)
    let handler = current.__sigaction_handler.sa_handler
    #else
    let handler = current.__sigaction_u.__sa_handler
    #endif
    return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
}

/// The view on a terminal: raw mode and the alternate screen, always restored (V8); keys read
/// from the terminal, handed to the model, and only the lines of the frame that changed written.
final class TerminalSession {
    let tty: Int32
    private var previous: [String] = []
    private var wakeReader: Int32 = -1

    init(tty: Int32) { self.tty = tty }

    /// How a run ended.
    enum End: Equatable {
        /// The model has its exit (`q`, `Ctrl-C`); the terminal is restored.
        case model
        /// The terminal went away (hung up, closed, in error; a read or write failed): the view
        /// ended at once, nothing more written to it (V8, exit 129).
        case terminalGone
    }

    /// Signals whose end restores the terminal first.
    static let ending = [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGABRT, SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE]

    /// Whether the terminal `tty` is gone (hung up, in error, or closed). Never waits.
    static func isGone(_ tty: Int32) -> Bool { terminalGone(tty) }

    /// Runs `body` (the selection being written, V6) with the terminal watched from another
    /// thread, as no key loop watches it then: a terminal gone meanwhile ends tablefmt within
    /// 50 ms, exit 129, the selection's temporary copy removed, whether SIGHUP came or not.
    static func watching(_ tty: Int32, _ body: () -> Int32) -> Int32 {
        let stop = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            while stop.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
                guard terminalGone(tty) else { continue }
                RemovedOnSignal.removeAll()
                printError("tablefmt: the terminal went away while the selection was written: it is incomplete")
                _exit(terminalGoneStatus)
            }
            stopped.signal()
        }
        let status = body()
        stop.signal()
        stopped.wait()
        return status
    }

    /// While the view gets ready (the first rows read, whether the table fits the screen found,
    /// up to a second or more): keys typed are not echoed onto the screen but kept in the
    /// terminal's queue for the view (V8). Line editing is off too, so each key is there as typed;
    /// `Ctrl-C` still interrupts. An ending signal puts the modes back first. Undone by `unhush`.
    static func hush(_ tty: Int32) {
        guard hushedDescriptor < 0, tcgetattr(tty, savedModes) == 0 else { return }
        var quiet = savedModes.pointee
        quiet.c_lflag &= ~tcflag_t(ECHO | ICANON)
        hushedDescriptor = tty
        for s in [SIGTERM, SIGHUP, SIGINT, SIGQUIT] where s != SIGHUP || !ignored(SIGHUP) { signal(s, onSignalWhileHushed) }
        if tcsetattr(tty, TCSANOW, &quiet) != 0 { unhush() }
    }

    /// The modes as `hush` found them, the keys typed meanwhile kept; the signals' own ends again.
    static func unhush() {
        guard hushedDescriptor >= 0 else { return }
        for s in [SIGTERM, SIGHUP, SIGINT, SIGQUIT] where s != SIGHUP || !ignored(SIGHUP) { signal(s, SIG_DFL) }
        _ = tcsetattr(hushedDescriptor, TCSANOW, savedModes)
        hushedDescriptor = -1
    }

    /// Runs until the model has an exit (`q`, `Ctrl-C`), the terminal goes away, or a signal ends it.
    func run(_ model: ViewModel) -> End {
        Self.unhush()  // the modes found first are the ones put back
        guard tcgetattr(tty, savedModes) == 0 else { return .terminalGone }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { return .terminalGone }
        wakeReader = pipeEnds[0]
        _ = fcntl(pipeEnds[1], F_SETFL, fcntl(pipeEnds[1], F_GETFL) | O_NONBLOCK)
        _ = (leaveBytes.count, enterBytes.count)  // made before a handler reads them
        RemovedOnSignal.prepare()
        wakeWriter = pipeEnds[1]
        ttyDescriptor = tty
        // The signals that end a program, a crash's among them (a Swift trap is SIGILL or
        // SIGTRAP; a fault SIGSEGV or SIGBUS): the terminal is put back first, in every case.
        // A SIGHUP ignored from the start (`nohup`) stays ignored: a terminal that goes away
        // then ends the view through its reads instead.
        let handled = Self.ending.filter { $0 != SIGHUP || !ignored(SIGHUP) }
        for s in handled { signal(s, onFatalSignal) }
        signal(SIGTSTP, onStop)
        signal(SIGWINCH, onResize)
        // Whatever mask the program was started with, these reach this thread.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for s in Self.ending + [SIGTSTP, SIGWINCH, SIGCONT] { sigaddset(&unblocked, s) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        // The runner's messages (a sort's progress and answer) wake the loop; never once the
        // pipe is closed.
        let writer = pipeEnds[1]
        model.runner.setWake {
            var b = UInt8(ascii: "M")
            _ = write(writer, &b, 1)
        }
        // Rows published wake it too: a followed row is drawn at once (V9).
        model.setLoaderWake {
            var b = UInt8(ascii: "M")
            _ = write(writer, &b, 1)
        }
        var end = enterTerminal() ? loop(model) : .terminalGone
        model.runner.setWake(nil)
        model.setLoaderWake(nil)
        if end == .model && (terminalGone(tty) || !leaveTerminal()) { end = .terminalGone }
        // A terminal gone is left as it is: nothing written to it, no mode set that could wait.
        ttyDescriptor = -1
        signal(SIGTSTP, SIG_DFL)
        signal(SIGWINCH, SIG_DFL)
        // The ending signals keep their handlers, which now only remove a temporary file first.
        wakeWriter = -1
        close(pipeEnds[1])
        close(wakeReader)
        return end
    }

    /// What one wait of the loop brought.
    private enum Step {
        /// Keys to hand to the model, and whether the whole screen must be drawn again.
        case keys([ViewKey], full: Bool)
        /// Interrupted: nothing came (tried again, a bounded number of times).
        case interrupted
        /// The terminal is gone.
        case gone
    }

    /// Keys from the terminal, messages (the runner's, a resize, a continue) through the wake
    /// pipe, until `q` or `Ctrl-C`: each key handed to the model, the frame drawn when it changed.
    private func loop(_ model: ViewModel) -> End {
        var decoder = KeyDecoder()
        guard draw(model.frame(), full: true) else { return .terminalGone }
        // Consecutive polls or reads interrupted (EINTR) or with nothing after all (EAGAIN).
        var retries = 0
        // When the bytes the decoder holds came (an Esc alone is a key 30 ms on).
        var heldSince: Int?
        while model.exit == nil {
            let step = wait(model, &decoder, heldSince: &heldSince)
            var keys: [ViewKey] = [], full = false
            switch step {
            case .gone: return .terminalGone
            case .interrupted:
                guard retries < retryLimit else { return .terminalGone }
                retries += 1
                continue
            case .keys(let got, let redraw):
                keys = got
                full = redraw
            }
            retries = 0
            for key in keys {
                switch key {
                case .control("z"): raise(SIGTSTP)
                case .control("l"): full = true
                default: model.handle(key)
                }
                if model.exit != nil { return .model }
            }
            let changed = model.refresh()
            if full || changed || !keys.isEmpty {
                guard draw(model.frame(), full: full) else { return .terminalGone }
            }
        }
        return .model
    }

    /// Waits for the terminal or the wake pipe (while rows are read or work runs, at most
    /// 100 ms), then reads what came: the keys, and whether a resize or continue calls for the
    /// whole screen. Bytes of a key held longer than 30 ms (an Esc alone) are a key then, however
    /// busy the wake pipe is.
    private func wait(_ model: ViewModel, _ decoder: inout KeyDecoder, heldSince: inout Int?) -> Step {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var fds = [pollfd(fd: tty, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0)]
        let held = heldSince.map { max(0, 30 - (ViewLoader.milliseconds() - $0)) }
        let timeout: Int32 = held.map { Int32($0) } ?? (model.loading || model.working ? 100 : -1)
        let ready = poll(&fds, 2, timeout)
        if ready < 0 {
            // Interrupted (a resize, a continue): tried again.
            return errno == EINTR || errno == EAGAIN ? .interrupted : .gone
        }
        // The terminal hung up (its window closed, its master side gone), in error, or no
        // longer open: the view ends now, whatever else is ready. (A read would return 0 or
        // EIO at once, and a poll on it again: never a loop.)
        if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .gone }
        if fds[1].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .gone }
        var full = false
        if fds[1].revents & Int16(POLLIN) != 0 {
            let n = systemRead(wakeReader, into: &buffer)
            for b in buffer.prefix(max(0, n)) where b != UInt8(ascii: "M") {
                // A resize, or a continue after Ctrl-Z: the whole screen again. (An M is a
                // message from the runner: taken in by `refresh`.)
                if b == UInt8(ascii: "W"), let size = Terminal.size(tty) { model.resize(width: size.width, height: size.height) }
                full = true
            }
        }
        var keys: [ViewKey] = []
        if fds[0].revents & Int16(POLLIN) != 0 {
            let n = systemRead(tty, into: &buffer)
            // 0 is the end of a terminal that is gone (raw mode never reads 0 otherwise).
            if n == 0 { return .gone }
            if n < 0 { return errno == EINTR || errno == EAGAIN ? .interrupted : .gone }
            keys = decoder.feed(buffer.prefix(n))
            heldSince = decoder.isWaiting ? heldSince ?? ViewLoader.milliseconds() : nil
        } else if let since = heldSince, ViewLoader.milliseconds() - since >= 30 {
            keys = decoder.flush()  // an Esc alone
            heldSince = nil
        }
        return .keys(keys, full: full)
    }

    /// Writes the lines that differ from the screen, each from its first column, in one write.
    /// - Returns: false when the terminal cannot be written to (it is gone).
    private func draw(_ lines: [String], full: Bool) -> Bool {
        var out = full ? "\u{1B}[0m\u{1B}[2J" : ""
        for (k, line) in lines.enumerated() where full || k >= previous.count || previous[k] != line {
            out += "\u{1B}[\(k + 1);1H\u{1B}[0m\u{1B}[2K" + line
        }
        previous = lines
        guard !out.isEmpty else { return true }
        let bytes = Array(out.utf8)
        return bytes.withUnsafeBufferPointer { writeAll(tty, $0) }
    }
}
