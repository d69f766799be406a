#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--follow FILE` (I10): a file read to its end and then watched for more, as `tail -F` does.
/// It reads as a pipe would (never again from its start, never at an end until `stop`), so the
/// view spools it and the printer streams it (V9, P5).
public final class FollowedFile: InputProvider, @unchecked Sendable {
    public let name: String
    public let path: String?
    public let isRereadable = false
    private let stop: Int32
    private let skipsRepeatedHeader: Bool
    private let news = Locked<String?>(nil)
    /// A path that is not a regular file: its descriptor, opened at once, until `open()` takes it.
    private let isPipe: Bool
    private let pipeFD: Locked<Int32>
    /// Called on the reading thread with each piece of news (printed: on standard error).
    public var onNotice: ((String) -> Void)?

    /// The file at `path`, opened now to say at once when it cannot be (exit 66).
    /// - Parameters:
    ///   - stop: a descriptor whose becoming readable ends the input (Ctrl-C while printing);
    ///     -1 for none.
    ///   - skipsRepeatedHeader: after a truncation or rotation, a first line equal to the first
    ///     file's first line (a CSV header written again) is not read as a row.
    public init(path: String, stop: Int32 = -1, skipsRepeatedHeader: Bool) throws(InputError) {
        let fd = try Self.openPipe(path)  // what cannot be opened is said now, not once the view is open
        isPipe = fd >= 0
        pipeFD = Locked(fd)
        self.path = path
        name = path
        self.stop = stop
        self.skipsRepeatedHeader = skipsRepeatedHeader
    }

    deinit { if pipeFD.current >= 0 { close(pipeFD.current) } }

    /// A path that is not a regular file (a named pipe, `/dev/stdin`, `<(…)`) is read as a pipe, to
    /// its end: never sought, watched, or taken as truncated. It is opened without waiting for a
    /// writer (a blocking open would be restarted after SIGINT, so Ctrl-C could not end it), and
    /// kept open: opening it again could miss a writer that has come and gone.
    /// - Returns: its descriptor, or -1 for a regular file (opened by `open()`).
    private static func openPipe(_ path: String) throws(InputError) -> Int32 {
        let fd = openFollowed(path, flags: O_NONBLOCK)
        guard fd >= 0 else { throw InputError(.cannotOpen, "cannot open: \(systemMessage(errno))", source: path) }
        var info = stat()
        let kind = fstat(fd, &info) == 0 ? info.st_mode & S_IFMT : S_IFDIR
        if kind == S_IFDIR {
            close(fd)
            throw InputError(.cannotOpen, "cannot open: is a directory", source: path)
        }
        guard kind != S_IFREG else {
            close(fd)
            return -1
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    public func open() throws(InputError) -> any ByteSource {
        if isPipe {
            let fd = pipeFD.withLock { fd in defer { fd = -1 }; return fd }
            guard fd >= 0 else { throw InputError(.cannotOpen, "cannot open: read once already", source: name) }
            return FollowSource(fd: fd, path: nil, name: name, stop: stop, skipsRepeatedHeader: false) { _ in }
        }
        let fd = openFollowed(path ?? "")
        guard fd >= 0 else { throw InputError(.cannotOpen, "cannot open: \(systemMessage(errno))", source: name) }
        return FollowSource(fd: fd, path: path, name: name, stop: stop, skipsRepeatedHeader: skipsRepeatedHeader) { [self] text in
            news.withLock { $0 = text }
            onNotice?(text)
        }
    }

    /// What the file did last that the reader noticed: `log.csv was truncated: read from its
    /// start`, `log.csv was replaced: read from the new file's start`; nil before any.
    public var notice: String? { news.current }
}

/// Standard input followed (`tail -f log | tablefmt --follow`): read as a pipe, its end also
/// when `stop` is readable (P5).
public struct FollowedInput: InputProvider {
    public let name = "<stdin>"
    public let path: String? = nil
    public let isRereadable = false
    let stop: Int32

    public init(stop: Int32) { self.stop = stop }

    public func open() throws(InputError) -> any ByteSource {
        FollowSource(fd: 0, path: nil, name: name, stop: stop, skipsRepeatedHeader: false, owned: false) { _ in }
    }
}

private func openFollowed(_ path: String, flags: Int32 = 0) -> Int32 { open(path, O_RDONLY | O_CLOEXEC | flags) }

/// The bytes of a followed file (or pipe): at the file's end it waits (`FileWatcher`) for more;
/// a file truncated, or replaced under its name (renamed away and created again: log rotation),
/// is read again from its start, its news told. A last line without its line feed waits for it;
/// one left so by a rotation is ended with one, so no row is lost or joined to the next file's.
final class FollowSource: ByteSource {
    private var fd: Int32
    private let path: String?
    private let name: String
    private let stop: Int32
    private let owned: Bool
    private let tell: (String) -> Void
    private var watcher: FileWatcher?
    /// The open file's device and inode, and how far it has been read.
    private var identity: (dev: UInt64, ino: UInt64)?
    private var offset: Int64 = 0
    /// The file's code units (UTF-16's two bytes), told from the first bytes read.
    private var units: FollowUnits?
    /// A new file's first bytes are being read: a byte order mark there is dropped.
    private var atNewStart = false
    /// The first file's first line (a CSV header), while it is still being read, and once read.
    private var header: [UInt8]?
    private var headerDone: Bool
    /// Bytes read ahead of a new file's start, to compare with `header`; handed out before more.
    private var held: [UInt8] = []
    private var checkingHeader = false
    private var pendingLineFeed = false
    private var ended = false
    /// Bytes read after the last line feed handed out: a line still being written, handed out
    /// once its line feed comes (or the input truly ends); dropped at `stop`, never a row (I10).
    private var partial: [UInt8] = []

    init(fd: Int32, path: String?, name: String, stop: Int32, skipsRepeatedHeader: Bool, owned: Bool = true, events: Bool = true,
         tell: @escaping (String) -> Void) {
        self.fd = fd
        self.path = path
        self.name = name
        self.stop = stop
        self.owned = owned
        self.tell = tell
        headerDone = !skipsRepeatedHeader
        header = skipsRepeatedHeader ? [] : nil
        if let path {
            identity = Self.identity(fd)
            watcher = FileWatcher(path: path, fd: fd, stop: stop, events: events)
        }
    }

    deinit { if owned { close(fd) } }

    private static func identity(_ fd: Int32) -> (dev: UInt64, ino: UInt64)? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return (UInt64(truncatingIfNeeded: info.st_dev), UInt64(truncatingIfNeeded: info.st_ino))
    }

    /// Whether the stop descriptor is readable (Ctrl-C while printing).
    private var stopped: Bool {
        guard stop >= 0 else { return false }
        var request = pollfd(fd: stop, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) > 0
    }

    var isReady: Bool {
        if ended || pendingLineFeed || !held.isEmpty || stopped || lineUnits.lastLineEnd(in: partial) != nil { return true }
        guard path != nil else {
            var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(&request, 1, 0) != 0
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return true }
        return Int64(info.st_size) != offset || replacement() != nil
    }

    func waitUntilReady(milliseconds: Int) -> Bool {
        if isReady { return true }
        if path == nil {
            var requests = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
            _ = poll(&requests, stop >= 0 ? 2 : 1, Int32(clamping: milliseconds))
        } else {
            watcher?.wait(milliseconds: milliseconds)
        }
        return isReady
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        guard buffer.count > 0 else { return 0 }
        while !ended {
            if let end = lineUnits.lastLineEnd(in: partial) { return handOut(upTo: end, into: buffer) }
            if stopped {
                ended = true
                dropPartial()
                break
            }
            if pendingLineFeed {
                pendingLineFeed = false
                partial.removeLast(partial.count % lineUnits.width)  // half a unit, never decodable
                partial.append(contentsOf: lineUnits.lineFeed)
                continue
            }
            if !held.isEmpty && !checkingHeader && !atNewStart {
                partial.append(contentsOf: held)
                held = []
                continue
            }
            let n = try readSome(into: buffer)
            if n < 0 { continue }  // interrupted, or stopped: looked at again
            if n > 0 {
                offset += Int64(n)
                if units == nil { units = FollowUnits(start: UnsafeRawBufferPointer(rebasing: buffer[0..<n])) }
                noteHeader(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                if checkingHeader || atNewStart {
                    held.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                    checkNewStart(ended: false)
                    continue
                }
                let out = holdUnended(buffer, count: n)
                if out == 0 { continue }
                return out
            }
            guard path != nil else {
                ended = true  // a pipe's writer closed it: its last line, ended or not, is read
                return handOutPartial(buffer)
            }
            if (checkingHeader || atNewStart) && !held.isEmpty { checkNewStart(ended: true) }
            if try startAgainIfChanged() { continue }
            watcher?.wait(milliseconds: FileWatcher.recheck)
        }
        return 0
    }

    /// `count` bytes just put in `buffer`: what ends with their last line feed is handed out (the
    /// count returned, 0 if none), the rest held; after held bytes, all are held and handed out next.
    private func holdUnended(_ buffer: UnsafeMutableRawBufferPointer, count: Int) -> Int {
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        guard partial.isEmpty, let end = lineUnits.lastLineEnd(in: bytes) else {
            partial.append(contentsOf: bytes)
            return 0
        }
        partial.append(contentsOf: bytes[end...])
        return end
    }

    /// The first `count` held bytes (up to a buffer's worth) handed out.
    private func handOut(upTo count: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let n = min(buffer.count, count)
        partial.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        partial.removeFirst(n)
        return n
    }

    /// The held bytes handed out (up to a buffer's worth) at a pipe's true end; read on for the rest.
    private func handOutPartial(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
        let n = handOut(upTo: partial.count, into: buffer)
        if !partial.isEmpty { ended = false }
        return n
    }

    private func dropPartial() {
        guard !partial.isEmpty else { return }
        partial = []
        tell("\(name) ended in a line without its line feed: not read as a row")
    }

    /// One read: a pipe's waits for bytes or `stop` first (a read cannot be interrupted reliably).
    private func readSome(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if path == nil {
            var requests = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&requests, stop >= 0 ? 2 : 1, -1)
            if ready < 0 || requests[0].revents == 0 { return stopped || ready < 0 ? -1 : 0 }
        }
        while true {
            let n = systemRead(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { return -1 }
            throw InputError(.readFailed, "read error: \(systemMessage(errno))", source: name)
        }
    }

    /// The first file's first line is kept (up to 64 KiB), to know it when a new file repeats it.
    /// Kept without its byte order mark, in whole units.
    private func noteHeader(_ bytes: UnsafeRawBufferPointer) {
        guard !headerDone, var line = header else { return }
        line.append(contentsOf: bytes)
        if let end = lineUnits.firstLineEnd(in: line) {
            line.removeSubrange((end - lineUnits.width)...)
            line.removeFirst(lineUnits.markLength(line, ended: true) ?? 0)
            headerDone = true
            // JSON names its columns in every row: its first line is a row, never skipped.
            let first = line.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x00 }
            header = first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? nil : line
        } else if line.count > 1 << 16 {
            header = nil
            headerDone = true
        } else {
            header = line
        }
    }

    private var lineUnits: FollowUnits { units ?? FollowUnits() }

    /// A new file's first bytes: its byte order mark dropped once there are enough to tell, then
    /// its first line compared with the header.
    private func checkNewStart(ended: Bool) {
        if atNewStart {
            guard let mark = lineUnits.markLength(held, ended: ended) else { return }
            held.removeFirst(mark)
            atNewStart = false
        }
        if checkingHeader { compareHeader(ended: ended) }
    }

    /// A new file's first line, once read (or the file paused short of it): dropped when it is
    /// the first file's header again.
    private func compareHeader(ended: Bool) {
        guard let header else { checkingHeader = false; return }
        let width = lineUnits.width
        if let end = lineUnits.firstLineEnd(in: held) {
            var line = held[..<(end - width)]
            if line.suffix(width).elementsEqual(lineUnits.carriageReturn) && !header.suffix(width).elementsEqual(lineUnits.carriageReturn) {
                line = line.dropLast(width)
            }
            if line.elementsEqual(header) { held.removeFirst(end) }
            checkingHeader = false
        } else if ended || held.count > header.count + 2 * width {
            checkingHeader = false
        }
    }

    /// The file under `path` when it is another file than the one open (rotated); nil if not.
    private func replacement() -> (dev: UInt64, ino: UInt64)? {
        guard let path else { return nil }
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }  // renamed away, not yet created again
        let now = (UInt64(truncatingIfNeeded: info.st_dev), UInt64(truncatingIfNeeded: info.st_ino))
        guard let identity, now != identity else { return nil }
        return now
    }

    /// At the open file's end: truncated, it is read again from its start; replaced under its name,
    /// the new file is opened and read from its start. - Returns: whether it was either.
    private func startAgainIfChanged() throws(InputError) -> Bool {
        var info = stat()
        if fstat(fd, &info) == 0 && Int64(info.st_size) < offset {
            guard lseek(fd, 0, SEEK_SET) == 0 else { throw InputError(.readFailed, "cannot seek: \(systemMessage(errno))", source: name) }
            restart("\(name) was truncated: read from its start")
            return true
        }
        guard replacement() != nil, let path else { return false }
        let new = openFollowed(path)
        guard new >= 0 else { return false }  // gone again: looked at after the next wait
        close(fd)
        fd = new
        identity = Self.identity(new)
        watcher?.watch(path: path, fd: new)
        restart("\(name) was replaced: read from the new file's start")
        return true
    }

    private func restart(_ news: String) {
        offset = 0
        pendingLineFeed = !partial.isEmpty
        atNewStart = true
        checkingHeader = headerDone && header?.isEmpty == false
        tell(news)
    }
}
