#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support

/// Waits for a followed file to change (I10): inotify on Linux (each open file, and the folder
/// for a file created again under its name), kqueue on macOS (the same), else a short sleep.
/// Every wait also ends when `stop` is readable (a Ctrl-C while printing, P5), and after at most
/// `recheck` milliseconds, so a change no event reports (another machine writing a shared file)
/// is still found. Nothing spins: an idle follow wakes once a `recheck`.
final class FileWatcher {
    /// The longest wait: the file is looked at again then even if no event came.
    static let recheck = 1000
    /// The wait between looks when no events can be had.
    static let pollInterval = 50

    private let stop: Int32
    private var events: Int32 = -1
    /// Each open file watched: its descriptor, and the inotify watch or the kqueue's descriptor.
    private var watched: [(file: Int32, watch: Int32)] = []
    #if canImport(Darwin)
    private var directoryWatch: Int32 = -1
    #endif

    /// A watcher of the file open as `fd`, and of the folder of `path` (nil: a file known only by
    /// its descriptor, standard input); `stop` (-1: none) ends a wait when readable.
    /// - Parameter events: false looks every `pollInterval` instead (tests of the fallback).
    package init(path: String?, fd: Int32, stop: Int32, events useEvents: Bool = true) {
        self.stop = stop
        #if canImport(Glibc)
        if useEvents { events = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        if events >= 0, let path {
            _ = inotify_add_watch(events, Self.directory(of: path), UInt32(IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE))
        }
        #elseif canImport(Darwin)
        if useEvents { events = kqueue() }
        if events >= 0, let path {
            directoryWatch = open(Self.directory(of: path), O_EVTONLY)
            if directoryWatch >= 0 { register(directoryWatch) }
        }
        if events >= 0 && stop >= 0 {
            var change = kevent(ident: UInt(stop), filter: Int16(EVFILT_READ), flags: UInt16(EV_ADD), fflags: 0, data: 0, udata: nil)
            _ = kevent(events, &change, 1, nil, 0, nil)
        }
        #endif
        watch(fd)
    }

    deinit {
        #if canImport(Darwin)
        for entry in watched { close(entry.watch) }
        if directoryWatch >= 0 { close(directoryWatch) }
        #endif
        if events >= 0 { close(events) }
    }

    /// Whether events are had (else each wait is a sleep of `pollInterval`).
    var hasEvents: Bool { events >= 0 }

    /// Watches the file open as `fd` (the first, or one that came under the name), whatever its
    /// name is now.
    func watch(_ fd: Int32) {
        guard events >= 0 else { return }
        #if canImport(Glibc)
        // The descriptor's link names the open file itself, even one renamed or removed since.
        let mask = UInt32(IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVE_SELF | IN_DELETE_SELF)
        let watch = inotify_add_watch(events, "/proc/self/fd/\(fd)", mask)
        if watch >= 0 { watched.append((fd, watch)) }
        #elseif canImport(Darwin)
        let watch = dup(fd)
        guard watch >= 0 else { return }
        register(watch)
        watched.append((fd, watch))
        #endif
    }

    /// Stops watching the file open as `fd` (read to its end and closed).
    package func forget(_ fd: Int32) {
        guard let index = watched.firstIndex(where: { $0.file == fd }) else { return }
        let entry = watched.remove(at: index)
        #if canImport(Glibc)
        // The same file watched under another descriptor shares the watch: it is kept then.
        if !watched.contains(where: { $0.watch == entry.watch }) { _ = inotify_rm_watch(events, entry.watch) }
        #elseif canImport(Darwin)
        close(entry.watch)  // its kqueue registration goes with it
        #endif
    }

    #if canImport(Darwin)
    private func register(_ descriptor: Int32) {
        var change = kevent(ident: UInt(descriptor), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
                            fflags: UInt32(NOTE_WRITE | NOTE_EXTEND | NOTE_ATTRIB | NOTE_DELETE | NOTE_RENAME), data: 0, udata: nil)
        _ = kevent(events, &change, 1, nil, 0, nil)
    }
    #endif

    /// Waits until an event comes, `stop` is readable, or `milliseconds` pass (at most `recheck`).
    package func wait(milliseconds: Int) {
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
        while systemRead(events, into: &drain) > 0 {}
        #elseif canImport(Darwin)
        var got = [kevent](repeating: kevent(), count: 4)
        var wait = timespec(tv_sec: Int(timeout / 1000), tv_nsec: Int(timeout % 1000) * 1_000_000)
        _ = kevent(events, nil, 0, &got, Int32(got.count), &wait)
        #endif
    }

    /// The directory a path is in (`.` for a bare name).
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
