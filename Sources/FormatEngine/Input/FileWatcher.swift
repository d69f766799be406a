#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits for a followed file to change (I10): inotify on Linux (the file, and its directory for a
/// file created again under its name), kqueue on macOS (the open file, and its directory), else a
/// short sleep. Every wait also ends when `stop` is readable (a Ctrl-C while printing, P5), and
/// after at most `recheck` milliseconds, so a change no event reports (another machine writing a
/// shared file) is still found. Nothing spins: an idle follow wakes once a `recheck`.
final class FileWatcher {
    /// The longest wait: the file is looked at again then even if no event came.
    static let recheck = 1000
    /// The wait between looks when no events can be had.
    static let pollInterval = 50

    private let stop: Int32
    private var events: Int32 = -1
    #if canImport(Darwin)
    private var watched: [Int32] = []
    #endif

    /// A watcher of the file at `path` (open as `fd`); `stop` (-1: none) ends a wait when readable.
    /// - Parameter events: false looks every `pollInterval` instead (tests of the fallback).
    init(path: String, fd: Int32, stop: Int32, events useEvents: Bool = true) {
        self.stop = stop
        #if canImport(Glibc)
        if useEvents { events = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        #elseif canImport(Darwin)
        if useEvents { events = kqueue() }
        #endif
        watch(path: path, fd: fd)
    }

    deinit {
        if events >= 0 { close(events) }
        #if canImport(Darwin)
        for fd in watched { close(fd) }
        #endif
    }

    /// Whether events are had (else each wait is a sleep of `pollInterval`).
    var hasEvents: Bool { events >= 0 }

    /// Watches `path` (a file newly opened as `fd`, after a rotation) and its directory.
    func watch(path: String, fd: Int32) {
        guard events >= 0 else { return }
        let directory = Self.directory(of: path)
        #if canImport(Glibc)
        let fileMask = UInt32(IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVE_SELF | IN_DELETE_SELF)
        let directoryMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
        _ = inotify_add_watch(events, path, fileMask)
        _ = inotify_add_watch(events, directory, directoryMask)
        #elseif canImport(Darwin)
        for fd in watched { close(fd) }
        watched = [dup(fd), open(directory, O_EVTONLY)].filter { $0 >= 0 }
        var changes = watched.map { descriptor in
            kevent(ident: UInt(descriptor), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
                   fflags: UInt32(NOTE_WRITE | NOTE_EXTEND | NOTE_ATTRIB | NOTE_DELETE | NOTE_RENAME), data: 0, udata: nil)
        }
        if stop >= 0 {
            changes.append(kevent(ident: UInt(stop), filter: Int16(EVFILT_READ), flags: UInt16(EV_ADD), fflags: 0, data: 0, udata: nil))
        }
        _ = kevent(events, changes, Int32(changes.count), nil, 0, nil)
        #endif
    }

    /// Waits until an event comes, `stop` is readable, or `milliseconds` pass (at most `recheck`).
    func wait(milliseconds: Int) {
        let timeout = Int32(min(milliseconds, hasEvents ? Self.recheck : Self.pollInterval))
        guard events >= 0 else {
            var request = pollfd(fd: stop, events: Int16(POLLIN), revents: 0)
            _ = poll(&request, stop >= 0 ? 1 : 0, timeout)
            return
        }
        #if canImport(Glibc)
        var requests = [pollfd(fd: events, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
        _ = poll(&requests, stop >= 0 ? 2 : 1, timeout)
        // The events say only that something changed: the file is looked at again.
        var drain = [UInt8](repeating: 0, count: 4096)
        while systemRead(events, &drain, drain.count) > 0 {}
        #elseif canImport(Darwin)
        var got = [kevent](repeating: kevent(), count: 4)
        var wait = timespec(tv_sec: Int(timeout / 1000), tv_nsec: Int(timeout % 1000) * 1_000_000)
        _ = kevent(events, nil, 0, &got, Int32(got.count), &wait)
        #endif
    }

    /// The directory a path is in (`.` for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
