#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support

/// `--follow FILE` (I10): a file read to its end and then watched for more, as `tail -F` does.
/// It reads as a pipe would (never again from its start, never at an end until `stop`): the printer
/// streams it (P5); the view finds its rows again in the file up to its first change and spools
/// the rows after (V9, `lastOpened`).
public final class FollowedFile: InputProvider, @unchecked Sendable {
    public let name: String
    public let path: String?
    public let isRereadable = false
    private let stop: Int32
    private let skipsRepeatedHeader: Bool
    private let news = Locked<FollowNotice?>(nil)
    /// A path that is not a regular file: its descriptor, opened at once, until `open()` takes it.
    private var isPipe: Bool
    /// The path named no file when the follow began: `open()` waits for it.
    private var awaited = false
    /// How long `open()` sleeps between looks for a file not there yet.
    static let absentLook: Int32 = 100
    private static let absent: Int32 = -2
    private let pipeFD: Locked<Int32>
    /// The reader `open()` made last (the view reads a file's rows in place through it, V9).
    private let opened = Locked(OpenedSource())
    /// Called on the reading thread with each piece of news (printed: on standard error).
    public var onNotice: ((String) -> Void)?

    /// The file at `path`, opened now to say at once when it cannot be (exit 66).
    /// - Parameters:
    ///   - stop: a descriptor whose becoming readable ends the input (Ctrl-C while printing);
    ///     -1 for none.
    ///   - skipsRepeatedHeader: after a truncation or rotation, a first line equal to the first
    ///     file's first line (a CSV header written again) is not read as a row.
    public init(path: String, stop: Int32 = -1, skipsRepeatedHeader: Bool) throws(InputError) {
        // What cannot be opened is said now, not once the view is open; a file not there yet is
        // waited for (`open()`), as `tail -F` does.
        let fd = try Self.openPipe(path, absentIsFine: true)
        awaited = fd == Self.absent
        isPipe = fd >= 0
        pipeFD = Locked(fd)
        self.path = path
        name = path
        self.stop = stop
        self.skipsRepeatedHeader = skipsRepeatedHeader
    }

    /// Standard input followed: a regular file by its descriptor (`tablefmt --follow < app.csv`),
    /// else read as a pipe (`tail -f log | tablefmt --follow`), its end also when `stop` is
    /// readable (P5). `skipsRepeatedHeader`: as for a file, after a truncation.
    public init(standardInput stop: Int32, skipsRepeatedHeader: Bool) {
        isPipe = false
        awaited = false
        pipeFD = Locked(-1)
        path = nil
        name = "<stdin>"
        self.stop = stop
        self.skipsRepeatedHeader = skipsRepeatedHeader
    }

    deinit { if pipeFD.current >= 0 { close(pipeFD.current) } }

    /// A path that is not a regular file (a named pipe, `/dev/stdin`, `<(…)`) is read as a pipe, to
    /// its end: never sought, watched, or taken as truncated. It is opened without waiting for a
    /// writer (a blocking open would be restarted after SIGINT, so Ctrl-C could not end it), and
    /// kept open: opening it again could miss a writer that has come and gone.
    /// - Returns: its descriptor, or -1 for a regular file (opened by `open()`), `absent` when
    ///   `absentIsFine` and no file has the name.
    private static func openPipe(_ path: String, absentIsFine: Bool = false) throws(InputError) -> Int32 {
        let fd = openFollowed(path, flags: O_NONBLOCK)
        if fd < 0 && errno == ENOENT && absentIsFine { return absent }
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
        if awaited, let path {
            told("\(name) does not exist yet: waiting for it to be created")
            while !stopped(waiting: Self.absentLook) {
                let fd = try Self.openPipe(path, absentIsFine: true)
                if fd == Self.absent { continue }
                awaited = false
                isPipe = fd >= 0
                pipeFD.withLock { $0 = fd }
                told("\(name) was created: read from its start")
                break
            }
            if awaited { return MemorySource([]) }  // ended (Ctrl-C) before it came: no rows
        }
        if isPipe {
            let fd = pipeFD.withLock { fd in defer { fd = -1 }; return fd }
            guard fd >= 0 else { throw InputError(.cannotOpen, "cannot open: read once already", source: name) }
            return FollowSource(fd: fd, path: nil, name: name, stop: stop, skipsRepeatedHeader: false) { _ in }
        }
        let source: FollowSource
        if let path {
            let fd = openFollowed(path)
            guard fd >= 0 else { throw InputError(.cannotOpen, "cannot open: \(systemMessage(errno))", source: name) }
            source = FollowSource(fd: fd, path: path, name: name, stop: stop, skipsRepeatedHeader: skipsRepeatedHeader, tell: told)
        } else {
            source = FollowSource(fd: 0, path: nil, name: name, stop: stop, skipsRepeatedHeader: skipsRepeatedHeader, owned: false, tell: told)
        }
        opened.withLock { $0.source = source }
        return source
    }

    /// Whether `stop` became readable within `milliseconds`.
    private func stopped(waiting milliseconds: Int32) -> Bool {
        guard stop >= 0 else {
            usleep(UInt32(milliseconds) * 1000)
            return false
        }
        var request = pollfd(fd: stop, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, milliseconds) > 0
    }

    /// The reader `open()` made last, while it is in use: its first file's rows can be read in
    /// place (the view, V9); nil for a pipe.
    var lastOpened: FollowSource? { opened.current.source }

    /// A piece of news from the reader: kept, counted, and passed on.
    private func told(_ text: String) {
        onNotice?(text)  // first: what it records (the view's loader, the rows read) is there once the news is
        news.withLock { $0 = FollowNotice(count: ($0?.count ?? 0) + 1, text: text) }
    }

    /// What the file did last that the reader noticed (`log.csv was truncated: read from its
    /// start`, `log.csv was replaced: read from the new file's start`), and how many such there
    /// have been: the view says each, also one in the same words as the last; nil before any.
    public var notice: FollowNotice? { news.current }
}

/// The reader a `FollowedFile` opened last, not kept alive by it.
private struct OpenedSource {
    package weak var source: FollowSource?
}

/// A piece of a followed file's news (I10), and how many there have been.
public struct FollowNotice: Equatable, Sendable {
    public let count: Int
    public let text: String

    package init(count: Int, text: String) {
        self.count = count
        self.text = text
    }
}

func openFollowed(_ path: String, flags: Int32 = 0) -> Int32 { open(path, O_RDONLY | O_CLOEXEC | flags) }
