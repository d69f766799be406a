#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FormatEngine

/// What a signal handler needs to put the terminal back: plain values, set before the handlers
/// are installed, read only by them (async-signal-safe: `write`, `tcsetattr`, `signal`, `raise`).
nonisolated(unsafe) private var ttyDescriptor: Int32 = -1
nonisolated(unsafe) private var savedModes = termios()
nonisolated(unsafe) private var wakeWriter: Int32 = -1

/// Entering: the alternate screen, no cursor, no line wrap, SGR mouse reports (V8).
private let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[H\u{1B}[2J"
/// Leaving: all of it undone, in reverse.
private let leaveSequence = "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?7h\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
nonisolated(unsafe) private var leaveBytes: [UInt8] = Array(leaveSequence.utf8)
nonisolated(unsafe) private var enterBytes: [UInt8] = Array(enterSequence.utf8)

private func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    var done = 0
    while done < bytes.count {
        let n = write(fd, base + done, bytes.count - done)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return }
        done += n
    }
}

/// Puts the terminal as it was (from a handler too).
private func leaveTerminal() {
    guard ttyDescriptor >= 0 else { return }
    leaveBytes.withUnsafeBytes { writeAll(ttyDescriptor, $0) }
    tcsetattr(ttyDescriptor, TCSAFLUSH, &savedModes)
}

/// Raw mode and the view's screen.
private func enterTerminal() {
    var raw = savedModes
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
        cc[Int(VMIN)] = 1
        cc[Int(VTIME)] = 0
    }
    tcsetattr(ttyDescriptor, TCSAFLUSH, &raw)
    enterBytes.withUnsafeBytes { writeAll(ttyDescriptor, $0) }
}

private func wake(_ byte: UInt8) {
    var b = byte
    _ = write(wakeWriter, &b, 1)
}

/// SIGTERM, SIGHUP, SIGINT, SIGQUIT, and a crash: the terminal restored, then the signal's own end.
private func onFatalSignal(_ number: Int32) {
    leaveTerminal()
    signal(number, SIG_DFL)
    raise(number)
}

/// SIGTSTP (Ctrl-Z, or `kill -TSTP`): restored, stopped; on `fg`, raw mode again and a full redraw.
private func onStop(_ number: Int32) {
    leaveTerminal()
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
    enterTerminal()
    wake(UInt8(ascii: "C"))
}

private func onResize(_ number: Int32) { wake(UInt8(ascii: "W")) }

/// The view on a terminal: raw mode and the alternate screen, always restored (V8); keys read
/// from the terminal, handed to the model, and only the lines of the frame that changed written.
final class TerminalSession {
    let tty: Int32
    private var previous: [String] = []
    private var wakeReader: Int32 = -1

    init(tty: Int32) { self.tty = tty }

    /// Signals whose end restores the terminal first.
    static let ending = [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGABRT, SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE]

    /// Runs until the model has an exit (`q`, `Ctrl-C`), the terminal goes away, or a signal ends it.
    func run(_ model: ViewModel) {
        guard tcgetattr(tty, &savedModes) == 0 else { return }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { return }
        wakeReader = pipeEnds[0]
        wakeWriter = pipeEnds[1]
        _ = fcntl(wakeWriter, F_SETFL, fcntl(wakeWriter, F_GETFL) | O_NONBLOCK)
        ttyDescriptor = tty
        // The signals that end a program, a crash's among them (a Swift trap is SIGILL or
        // SIGTRAP; a fault SIGSEGV or SIGBUS): the terminal is put back first, in every case.
        for s in Self.ending { signal(s, onFatalSignal) }
        signal(SIGTSTP, onStop)
        signal(SIGWINCH, onResize)
        // Whatever mask the program was started with, these reach this thread.
        var handled = sigset_t()
        sigemptyset(&handled)
        for s in Self.ending + [SIGTSTP, SIGWINCH, SIGCONT] { sigaddset(&handled, s) }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
        enterTerminal()
        defer {
            leaveTerminal()
            for s in Self.ending + [SIGTSTP, SIGWINCH] { signal(s, SIG_DFL) }
            ttyDescriptor = -1
            close(wakeReader)
            close(wakeWriter)
            wakeWriter = -1
        }
        loop(model)
    }

    private func loop(_ model: ViewModel) {
        var decoder = KeyDecoder()
        var buffer = [UInt8](repeating: 0, count: 4096)
        draw(model.frame(), full: true)
        while model.exit == nil {
            var fds = [pollfd(fd: tty, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0)]
            let timeout: Int32 = decoder.isWaiting ? 30 : model.loading ? 100 : -1
            let ready = poll(&fds, 2, timeout)
            if ready < 0 && errno != EINTR { return }
            var full = false
            if fds[1].revents & Int16(POLLIN) != 0 {
                let n = read(wakeReader, &buffer, buffer.count)
                for b in buffer.prefix(max(0, n)) {
                    if b == UInt8(ascii: "W"), let size = Terminal.size(tty) { model.resize(width: size.width, height: size.height) }
                    full = true
                }
            }
            var keys: [ViewKey] = []
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let n = read(tty, &buffer, buffer.count)
                if n <= 0 && errno != EINTR && errno != EAGAIN { return }  // the terminal went away
                keys = decoder.feed(buffer.prefix(max(0, n)))
            } else if ready == 0 && decoder.isWaiting {
                keys = decoder.flush()  // an Esc alone
            }
            for key in keys {
                switch key {
                case .control("z"): raise(SIGTSTP)
                case .control("l"): full = true
                default: model.handle(key)
                }
                if model.exit != nil { return }
            }
            let changed = model.refresh()
            if full || changed || !keys.isEmpty { draw(model.frame(), full: full) }
        }
    }

    /// Writes the lines that differ from the screen, each from its first column, in one write.
    private func draw(_ lines: [String], full: Bool) {
        var out = full ? "\u{1B}[0m\u{1B}[2J" : ""
        for (k, line) in lines.enumerated() where full || k >= previous.count || previous[k] != line {
            out += "\u{1B}[\(k + 1);1H\u{1B}[0m\u{1B}[2K" + line
        }
        previous = lines
        guard !out.isEmpty else { return }
        let bytes = Array(out.utf8)
        bytes.withUnsafeBytes { writeAll(tty, $0) }
    }
}
