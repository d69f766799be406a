#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support

/// The files a follow reads (I10): the open one, where it has been read to, and the files that
/// came under its name since (log rotation), each opened as soon as it is seen and read in turn.
/// It tells the reader what changed at the open file's end; the reader (`FollowSource`) makes
/// lines of the bytes.
final class FollowFiles {
    /// What the open file did, found at its end.
    package enum Change: Equatable {
        /// Cut below what was read: read again from its start.
        case truncated
        /// The bytes just before what was read are not the ones read (written again in place,
        /// maybe longer than before): read again from its start.
        case rewritten
        /// The next file under the name is open, read from its start.
        case replaced
        /// The next file under the name begins with all that was read of the old one, which has
        /// no name left (a copy saved over it, rows added): read on from there, nothing twice.
        case continued
        /// A later file has bytes: the open one is read once more to its end before it is left.
        case lookAgain
    }

    /// A file's device and inode: what a name refers to.
    package struct Identity: Equatable {
        package let device: UInt64
        package let inode: UInt64
    }

    /// How many bytes before the read offset are kept to tell a rewrite.
    static let tailLength = 4096
    /// At most this many files wait their turn; past it the oldest waiting is passed over, said.
    static let queueLimit = 16
    /// The open file is left for the next only once it has not grown for this long: a writer
    /// still writing to it after the rotation (before it reopens the name) is read first.
    package static let quiet: Duration = .seconds(1)

    package private(set) var fd: Int32
    private let path: String?
    private let name: String
    private let owned: Bool
    private let tell: (String) -> Void
    package let watcher: FileWatcher
    private var identity: Identity?
    /// How far the open file has been read.
    package private(set) var offset: Int64
    /// Up to `tailLength` bytes just before `offset`, as read.
    private var tail: [UInt8] = []
    /// Files that came under `path` after the open one, oldest first.
    private var queued: [(fd: Int32, identity: Identity)] = []
    /// A waiting file had bytes when looked at before the latest end of the open one was found.
    private var nextHadBytes = false
    /// When a read of the open file last found bytes.
    private var lastGrowth = ContinuousClock.now
    /// The file left last for the next under the name, and how far it was read: rows a writer
    /// still adds to it (its descriptor still open) are read as whole lines (`lateLines`).
    private var left: (fd: Int32, offset: Int64)?

    /// The regular file open as `fd`, watched by `path` (nil: by its descriptor only).
    package init(fd: Int32, path: String?, name: String, stop: Int32, owned: Bool, events: Bool, tell: @escaping (String) -> Void) {
        self.fd = fd
        self.path = path
        self.name = name
        self.owned = owned
        self.tell = tell
        identity = Self.look(fd)?.identity
        offset = max(0, Int64(lseek(fd, 0, SEEK_CUR)))  // standard input may be part read
        watcher = FileWatcher(path: path, fd: fd, stop: stop, events: events)
    }

    deinit {
        if owned { close(fd) }
        for file in queued { close(file.fd) }
        if let left { close(left.fd) }
    }

    /// Whether `fd` is a regular file.
    static func isRegular(_ fd: Int32) -> Bool {
        var info = stat()
        return fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    private static func look(_ fd: Int32) -> (identity: Identity, size: Int64)? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return (Identity(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino)), Int64(info.st_size))
    }

    private static func look(_ path: String) -> (identity: Identity, size: Int64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }  // renamed away, not yet created again
        return (Identity(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino)), Int64(info.st_size))
    }

    /// Whether a read would have a line, or a change to tell: bytes past `offset` that end no line
    /// (in `units`) are a line still being written, which a read waits for (I10).
    package func isReady(units: FollowUnits) -> Bool {
        guard let open = Self.look(fd) else { return true }
        if open.size < offset || (isQuiet && queued.contains(where: { (Self.look($0.fd)?.size ?? 0) > 0 })) { return true }
        if let left, (Self.look(left.fd)?.size ?? 0) > left.offset { return true }
        if open.size > offset && holdsLineEnd(units, upTo: open.size) { return true }
        guard let path, let named = Self.look(path), named.identity != identity else { return false }
        return named.size > 0 && !queued.contains { $0.identity == named.identity }
    }

    /// Whether the open file's bytes from `offset` to `size` hold a line feed unit (aligned as
    /// the file's units are), or differ from what was read (a change a read tells at once).
    /// Looked at without moving the reading.
    private func holdsLineEnd(_ units: FollowUnits, upTo size: Int64) -> Bool {
        if tailChanged { return true }
        let width = Int64(units.width)
        var at = offset - offset % width  // half a unit read: the unit it starts
        var chunk = [UInt8](repeating: 0, count: 1 << 12)  // a line feed is near, as a rule
        while at < size {
            let n = positionedRead(fd, into: &chunk, at: at)
            guard n > 0 else { return true }  // shorter than it said: a read finds why at once
            let whole = n - n % Int(width)
            if whole == 0 { return false }
            if units.firstLineEnd(in: chunk[0..<whole]) != nil { return true }
            at += Int64(whole)
        }
        return false
    }

    /// One read of the open file. - Returns: the count, 0 at its end, -1 when interrupted.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let n = systemRead(fd, into: buffer)
        if n < 0 {
            if errno == EINTR { return -1 }
            throw InputError(.readFailed, "read error: \(systemMessage(errno))", source: name)
        }
        guard n > 0 else { return 0 }
        offset += Int64(n)
        lastGrowth = .now
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
        if n >= Self.tailLength {
            tail = Array(bytes.suffix(Self.tailLength))
        } else {
            tail.append(contentsOf: bytes)
            if tail.count > Self.tailLength { tail.removeFirst(tail.count - Self.tailLength) }
        }
        lookForNewFile()  // a rotation while a backlog is read is seen now, not at its end
        return n
    }

    /// Before a read: whether the open file still holds, just before `offset`, the bytes read
    /// there; if not it was truncated (shorter than `offset`) or written again, and is read again
    /// from its start.
    func changeBeforeRead() throws(InputError) -> Change? {
        guard tailChanged else { return nil }
        let shorter = (Self.look(fd)?.size ?? 0) < offset
        try rewind()
        return shorter ? .truncated : .rewritten
    }

    /// Whether the bytes just before `offset` are no longer the ones read there.
    private var tailChanged: Bool {
        guard !tail.isEmpty else { return false }
        var now = [UInt8](repeating: 0, count: tail.count)
        let n = positionedRead(fd, into: &now, at: offset - Int64(tail.count))
        return n != tail.count || now != tail
    }

    /// At the open file's end (the last read returned 0): what changed, nil if nothing.
    func changeAtEnd() throws(InputError) -> Change? {
        if let open = Self.look(fd), open.size < offset {
            try rewind()
            return .truncated
        }
        if let change = try changeBeforeRead() { return change }
        lookForNewFile()
        guard queued.contains(where: { (Self.look($0.fd)?.size ?? 0) > 0 }) else { return nil }
        guard nextHadBytes else {
            // Writes to the old file after the new one got bytes are read before it is left.
            nextHadBytes = true
            return .lookAgain
        }
        // A writer still writing to the old file (it has not reopened the name yet): read on.
        guard isQuiet else { return nil }
        return try moveToNext()
    }

    /// Whether the open file has not grown for `quiet`.
    private var isQuiet: Bool { ContinuousClock.now - lastGrowth >= Self.quiet }

    /// Whole lines (in `units`) written to the file left last since it was left, read now; empty
    /// when there are none. The reader takes them only between whole lines of the open file.
    func lateLines(units: FollowUnits) -> [UInt8] {
        guard let file = left, let size = Self.look(file.fd)?.size else { return [] }
        if size < file.offset {  // cut after it was left: nothing more is read of it
            dropLeft()
            return []
        }
        guard size > file.offset else { return [] }
        // A MiB at first; more while no line has ended in what was read (a long late line).
        var want = min(size - file.offset, 1 << 20)
        while true {
            var bytes = [UInt8](repeating: 0, count: Int(want))
            let n = positionedRead(file.fd, into: &bytes, at: file.offset)
            if n > 0, let end = units.lastLineEnd(in: bytes[0..<n]) {
                left = (file.fd, file.offset + Int64(end))
                bytes.removeSubrange(end...)
                return bytes
            }
            guard n == bytes.count, want < size - file.offset else { return [] }  // the line goes on
            want = min(size - file.offset, 2 * want)
        }
    }

    private func dropLeft() {
        guard let file = left else { return }
        watcher.forget(file.fd)
        close(file.fd)
        left = nil
    }

    private func rewind() throws(InputError) {
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw InputError(.readFailed, "cannot seek: \(systemMessage(errno))", source: name) }
        offset = 0
        tail = []
    }

    /// Opens the file now under the name when it is not one already open.
    private func lookForNewFile() {
        guard let path, let named = Self.look(path), named.identity != identity, !queued.contains(where: { $0.identity == named.identity }) else { return }
        let new = openFollowed(path)
        guard new >= 0 else { return }  // gone again: looked for at the next end
        guard let opened = Self.look(new)?.identity, opened != identity, !queued.contains(where: { $0.identity == opened }) else {
            close(new)
            return
        }
        if queued.count == Self.queueLimit {
            let passed = queued.removeFirst()
            watcher.forget(passed.fd)
            close(passed.fd)
            tell("\(name) was replaced more than \(Self.queueLimit) times before it was read: a file under its name was passed over")
        }
        queued.append((new, opened))
        watcher.watch(new)
    }

    /// Leaves the open file (read to its end) for the next that came under the name.
    private func moveToNext() throws(InputError) -> Change {
        let next = queued.removeFirst()
        nextHadBytes = false
        // Saved over (the old file has no name left: not a rotation, which keeps it under
        // another) with what was read at its start: the rows after it are the new ones.
        var info = stat()
        let continues = fstat(fd, &info) == 0 && info.st_nlink == 0 && startsWithWhatWasRead(next.fd)
        dropLeft()
        if owned && !continues {
            left = (fd, offset)  // still watched: a late writer's rows are read (`lateLines`)
        } else {
            watcher.forget(fd)
            if owned { close(fd) }
        }
        fd = next.fd
        lastGrowth = .now
        identity = next.identity
        if continues {
            guard lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else { throw InputError(.readFailed, "cannot seek: \(systemMessage(errno))", source: name) }
            return .continued
        }
        offset = 0
        tail = []
        return .replaced
    }

    /// Whether the file open as `other` begins with the `offset` bytes read of the open file.
    private func startsWithWhatWasRead(_ other: Int32) -> Bool {
        guard offset > 0, let size = Self.look(other)?.size, size >= offset else { return false }
        let chunk = 1 << 16
        var mine = [UInt8](repeating: 0, count: chunk), theirs = mine
        var at: Int64 = 0
        while at < offset {
            let count = Int(min(Int64(chunk), offset - at))
            let a = positionedRead(fd, into: &mine, count: count, at: at)
            let b = positionedRead(other, into: &theirs, count: count, at: at)
            guard a == count, b == count, mine[0..<count] == theirs[0..<count] else { return false }
            at += Int64(count)
        }
        return true
    }
}
