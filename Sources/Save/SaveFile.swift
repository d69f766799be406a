import Input
import Options
import Schedule
import Support
import Text
import Transform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Replacing a file all at once (V10): the new bytes go to a temporary file beside it, are
/// flushed to the disk, and take its name in one rename, so a reader sees the old file or the
/// new one, never half of either; the new file keeps the old one's mode (and owner, where the
/// system lets it). A file that is not the one the view read is never written over.
package enum SaveFile {
    /// What says a file is the same one: its device and inode, its size and modification time
    /// (I7's `FileIdentity`), its status-change time (which `touch -d` cannot set back: any write
    /// moves it), and a hash of sampled bytes (the first and last 64 KiB and 64 blocks of 4 KiB
    /// spread between them: the whole file below 512 KiB); with its mode and owner, which a new
    /// file takes. About 0.5 MB read at most, at any size.
    package struct Identity: Equatable, Sendable {
        package var device: UInt64
        package var inode: UInt64
        package var contents: FileIdentity
        package var changedSeconds: Int
        package var changedNanoseconds: Int
        package var sample: Int
        package var mode: UInt32
        package var owner: UInt32
        package var group: UInt32

        package init(_ info: stat, sample: Int) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            contents = FileIdentity(info)
            changedSeconds = Int(info.changedTime.tv_sec)
            changedNanoseconds = Int(info.changedTime.tv_nsec)
            self.sample = sample
            mode = UInt32(info.st_mode)
            owner = UInt32(info.st_uid)
            group = UInt32(info.st_gid)
        }

        /// The same file, as it was: mode and owner may change without the bytes changing.
        package func sameFile(as other: Identity) -> Bool {
            device == other.device && inode == other.inode && contents == other.contents
                && changedSeconds == other.changedSeconds && changedNanoseconds == other.changedNanoseconds && sample == other.sample
        }

        /// The same file with the same size, modification time and sampled bytes (the whole file
        /// below 512 KiB); its status may have changed (a name removed), which alone changes no byte.
        package func sameBytes(as other: Identity) -> Bool {
            device == other.device && inode == other.inode && contents == other.contents && sample == other.sample
        }
    }

    /// The identity of the file at `path`; nil when there is none. Only a regular file's bytes
    /// are sampled (a named pipe is not opened: its rows would be taken).
    package static func identity(path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let fd = info.st_mode & S_IFMT == S_IFREG ? open(path, O_RDONLY | O_NONBLOCK) : -1
        // Not readable (the save then fails, saying why): its status alone.
        guard fd >= 0 else { return Identity(info, sample: 0) }
        defer { close(fd) }
        return identity(fd: fd)
    }

    /// The identity of the open file `fd`.
    package static func identity(fd: Int32) -> Identity? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return Identity(info, sample: sample(fd, size: Int64(info.st_size)))
    }

    /// How many bytes at the start of `fd`'s file are still the ones read when its identity was
    /// `read` (V10): all of them while it has the same size, time and sampled bytes (`sameBytes`:
    /// not its status-change time, which moves when it loses its name, as a save over it or `mv`
    /// does, its bytes untouched); its first `read` size
    /// when it has only grown since and their sampled hash is unchanged (rows appended); nil when
    /// it was changed in place, cut, or cannot be looked at (the bytes read are no longer there).
    package static func bytesRead(_ fd: Int32, read: Identity) -> Int64? {
        guard let now = identity(fd: fd) else { return nil }
        if now.sameBytes(as: read) { return read.contents.size }
        guard now.contents.size > read.contents.size, sample(fd, size: read.contents.size) == read.sample else { return nil }
        return read.contents.size
    }

    /// A hash of sampled bytes of `fd`'s file (its first `size` bytes): see `Identity`.
    package static func sample(_ fd: Int32, size: Int64) -> Int {
        let edge: Int64 = 1 << 16, block: Int64 = 1 << 12, blocks: Int64 = 64
        var ranges: [Range<Int64>]
        if size <= 2 * edge + blocks * block {
            ranges = [0..<size]
        } else {
            ranges = [0..<edge, (size - edge)..<size]
            let step = (size - 2 * edge - block) / (blocks - 1)
            for k in 0..<blocks { ranges.append((edge + k * step)..<(edge + k * step + block)) }
        }
        var hasher = Hasher()
        hasher.combine(size)
        var buffer = [UInt8](repeating: 0, count: Int(edge))
        // Each range a buffer at a time (the whole file, below the size sampled, is more than one).
        for range in ranges {
            var at = range.lowerBound
            while at < range.upperBound {
                let n = Int(min(Int64(buffer.count), range.upperBound - at))
                // Read back as zeros where the read fails: the next identity taken differs if it works.
                if !readFully(fd, into: &buffer, count: n, at: at) { buffer[0..<n] = ArraySlice(repeating: 0, count: n) }
                buffer[0..<n].withUnsafeBytes { hasher.combine(bytes: $0) }
                at += Int64(n)
            }
        }
        return hasher.finalize()
    }

    /// Writes `path` anew through `body`, which is handed the new file's descriptor.
    /// - Parameter expected: the file `path` must still be (nil: `path` must not exist).
    /// - Returns: the new file's identity.
    /// - Throws: `SaveError` when the file changed (with `offerSaveAs`), or a step fails; the
    ///   temporary file is then removed and `path` is as it was.
    package static func replace(_ path: String, expected: Identity?, body: (Int32) throws(SaveError) -> Void) throws(SaveError) -> Identity {
        let now = try check(path, expected: expected)
        try checkWritable(path, now)
        // Through a symbolic link: the file it names is replaced, beside itself; the link stays.
        let target = resolved(path)
        let (directory, base) = split(target)
        // Removed on every way out, a signal that ends tablefmt among them.
        guard let temporary = NamedTemporaryFile(in: directory, prefix: "." + base + ".tablefmt") else {
            throw SaveError("\(directory): cannot make a temporary file: \(systemMessage(errno))", offerSaveAs: true)
        }
        let fd = temporary.fd
        var closed = false
        func fail(_ error: SaveError) -> SaveError {
            if !closed { close(fd) }
            temporary.remove()
            return error
        }
        do {
            try body(fd)
        } catch {
            throw fail(error)
        }
        if let now {
            fchmod(fd, mode_t(now.mode & 0o7777))
            _ = fchown(fd, uid_t(now.owner), gid_t(now.group))  // kept where permitted
        } else {
            let mask = umask(0)
            umask(mask)
            fchmod(fd, mode_t(0o666 & ~UInt32(mask)))
        }
        guard fsync(fd) == 0 else { throw fail(SaveError("\(path): cannot flush to disk: \(systemMessage(errno))")) }
        let written = identity(fd: fd)
        closed = true
        guard close(fd) == 0 else { throw fail(SaveError("\(path): write error: \(systemMessage(errno))")) }
        // Checked again just before the rename: nothing wrote the file meanwhile.
        if let expected, identity(path: target).map({ $0.sameFile(as: expected) }) != true {
            throw fail(SaveError("\(path): changed on disk while saving; not written over (W saves under another name)", offerSaveAs: true))
        }
        guard rename(temporary.path, target) == 0 else { throw fail(SaveError("\(path): cannot replace: \(systemMessage(errno))")) }
        temporary.kept()
        let dir = open(directory, O_RDONLY)
        if dir >= 0 {
            fsync(dir)
            close(dir)
        }
        return identity(path: target) ?? written ?? Identity(stat(), sample: 0)
    }

    /// The file `path` names, symbolic links followed (itself when it does not exist yet). A
    /// dangling link names the file it would reach: that file is made, and the link stays.
    package static func resolved(_ path: String) -> String {
        var path = path
        // As many links as the system follows in a path before it gives up (ELOOP).
        for _ in 0..<40 {
            if let real = realpath(path, nil) {
                defer { free(real) }
                return String(cString: real)
            }
            guard let target = linkTarget(path) else { return path }
            path = target.hasPrefix("/") ? target : split(path).0 + "/" + target
        }
        return path
    }

    /// What the symbolic link `path` holds; nil when `path` is not a link.
    package static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        // The array's own count bounds the read.
        let n = readlink(path, &buffer, buffer.count)
        guard n > 0, n < buffer.count else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether two names are one file's: the same name in the same folder, however the folder
    /// is written (`data.csv`, `./data.csv`, through a link to the folder). The file need not exist.
    package static func sameName(_ a: String, _ b: String) -> Bool {
        func canonical(_ path: String) -> String {
            let (directory, base) = split(path)
            return resolved(directory) + "/" + base
        }
        return a == b || canonical(a) == canonical(b)
    }

    /// The home folder of `user` (nil: this user's, `$HOME` first); nil when there is no such user.
    package static func home(of user: String?) -> String? {
        if user == nil, let value = getenv("HOME"), value.pointee != 0 { return String(cString: value) }
        guard let entry = user.map({ getpwnam($0) }) ?? getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

    /// An existing file the user may not write (its mode gives no one write permission, or the
    /// system says this user may not) is not replaced, though its folder would let a rename do it.
    /// - Throws: `SaveError` offering another name.
    package static func checkWritable(_ path: String, _ now: Identity?) throws(SaveError) {
        guard let now else { return }
        if now.mode & 0o222 == 0 || access(path, W_OK) != 0 {
            throw SaveError("\(path): the file is read-only (no write permission); not written over (W saves under another name)", offerSaveAs: true)
        }
    }

    /// Whether `path` is still `expected` (nil: that nothing is there). - Returns: what is there.
    /// - Throws: `SaveError` offering another name when it is not.
    @discardableResult
    package static func check(_ path: String, expected: Identity?) throws(SaveError) -> Identity? {
        let now = identity(path: path)
        if let expected {
            guard let now else {
                throw SaveError("\(path): deleted since it was opened; not written (W \(path) writes it anew)", offerSaveAs: true)
            }
            guard now.sameFile(as: expected) else {
                throw SaveError("\(path): changed on disk since it was opened; not written over (W saves under another name)", offerSaveAs: true)
            }
        } else if now != nil {
            throw SaveError("\(path): already exists; not written over (choose another name)", offerSaveAs: true)
        }
        return now
    }

    /// A path's folder and name.
    package static func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}
