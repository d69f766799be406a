#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where spilled work goes (sorted runs, notes, group chunks, the view's spool): `TMPDIR` when set,
/// else `/tmp`; each file unlinked as soon as it is made.
package enum TemporaryFiles {
    /// `TMPDIR` when set, else `/tmp`.
    package static var directory: String {
        if let value = unsafe getenv("TMPDIR"), unsafe value.pointee != 0 { return unsafe String(cString: value) }
        return "/tmp"
    }
}

/// A new, empty temporary file in `directory`, unlinked as soon as it is made, so that nothing is
/// left behind however the program ends (sorted runs, the view's spool).
/// - Returns: its descriptor, or -1 with `errno` set.
package func unlinkedTemporaryFile(in directory: String, prefix: String) -> Int32 {
    guard let (fd, path) = madeTemporaryFile(in: directory, prefix: prefix) else { return -1 }
    unsafe unlink(path)
    return fd
}

/// The one maker of temporary files: `directory/prefix-` and twelve random letters and digits,
/// created with `O_CREAT | O_EXCL` (mode 0600), another name tried while the name is taken.
/// `naming` is called with each name before the file is made by it (and `unnaming` when it is
/// not), so that a signal handler that removes what was named never misses the file. (A signal
/// in the instant between naming and an `open` that finds the name taken would remove the other
/// file: with 62¹² names, a risk taken rather than a file left behind on every such signal.)
/// - Returns: the new file's descriptor and path, or nil with `errno` set.
private func madeTemporaryFile(in directory: String, prefix: String,
                               naming: (String) -> Void = { _ in }, unnaming: () -> Void = {}) -> (fd: Int32, path: String)? {
    let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
    var random = SystemRandomNumberGenerator()
    for _ in 0..<100 {
        let suffix = String(decoding: (0..<12).map { _ in letters[Int(random.next(upperBound: UInt(letters.count)))] }, as: UTF8.self)
        let path = directory + "/" + prefix + "-" + suffix
        naming(path)
        let fd = unsafe open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 { return (fd, path) }
        let failure = errno
        unnaming()
        errno = failure
        guard failure == EEXIST else { return nil }
    }
    return nil
}

/// A temporary file that must keep its name while it is written (the file a save renames over
/// the user's, the selection read back by name): made from `directory/prefix-` and random letters,
/// and named to `RemovedOnSignal` until `kept()` or `remove()`, so a signal that ends tablefmt
/// meanwhile leaves nothing behind. Every way out of its maker calls one of them.
package struct NamedTemporaryFile {
    /// Its descriptor, open for reading and writing.
    package let fd: Int32
    /// Its path.
    package let path: String
    private let slot: Int?

    /// Makes the file. - Returns: nil with `errno` set when it cannot be made.
    package init?(in directory: String, prefix: String) {
        // Named before it exists: a signal at any moment after it is made finds its name.
        var slot: Int?
        guard let (fd, path) = madeTemporaryFile(in: directory, prefix: prefix,
                                                 naming: { slot = RemovedOnSignal.add($0) },
                                                 unnaming: { RemovedOnSignal.release(slot) }) else { return nil }
        self.fd = fd
        self.path = path
        self.slot = slot
    }

    /// The file has taken another name (renamed) or is to stay: no longer removed on a signal.
    package func kept() {
        RemovedOnSignal.release(slot)
    }

    /// Removes the file (its descriptor is the caller's to close).
    package func remove() {
        unsafe unlink(path)
        RemovedOnSignal.release(slot)
    }
}

/// The paths a signal that ends tablefmt removes before the program ends (temporary files made by
/// name). Fixed memory, made before a handler can run, so the handler only reads it: a path is
/// written with its first byte last, so a handler sees the whole path or none.
package enum RemovedOnSignal {
    private static let slots = 4
    private static let capacity = 4096
    nonisolated(unsafe) private static let paths: UnsafeMutablePointer<CChar> = {
        let memory = UnsafeMutablePointer<CChar>.allocate(capacity: slots * capacity)
        unsafe memory.initialize(repeating: 0, count: slots * capacity)
        return unsafe memory
    }()
    private static let taken = Locked([Bool](repeating: false, count: slots))

    /// Makes the memory now, before any handler that reads it is installed.
    package static func prepare() { _ = unsafe paths }

    /// Names `path` to be removed on a signal. - Returns: its slot; nil when every slot is taken
    /// or the path is too long (then it is not removed on a signal).
    static func add(_ path: String) -> Int? {
        let bytes = Array(path.utf8CString)
        guard bytes.count <= capacity else { return nil }
        guard let slot = taken.withLock({ taken -> Int? in
            guard let free = taken.firstIndex(of: false) else { return nil }
            taken[free] = true
            return free
        }) else { return nil }
        let base = unsafe paths + slot * capacity
        for (k, b) in bytes.enumerated().dropFirst() { unsafe base[k] = b }
        unsafe base.pointee = bytes[0]
        return slot
    }

    /// Forgets the path in `slot`.
    static func release(_ slot: Int?) {
        guard let slot else { return }
        unsafe (paths + slot * capacity).pointee = 0
        taken.withLock { $0[slot] = false }
    }

    /// Removes every path named (from a signal handler: no allocation, no lock).
    package static func removeAll() {
        for slot in 0..<slots {
            let base = unsafe paths + slot * capacity
            if unsafe base.pointee != 0 { unsafe unlink(base) }
        }
    }
}
