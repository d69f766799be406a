#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support

/// The system's words for an errno value.
public func systemMessage(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}

extension stat {
    /// The time of the last change to the contents, as the platform names it.
    var modifiedTime: timespec {
        #if canImport(Darwin)
        return st_mtimespec
        #else
        return st_mtim
        #endif
    }

    /// The time of the last change to the contents or the status (mode, owner, links): no call
    /// sets it back (`touch -d` cannot).
    package var changedTime: timespec {
        #if canImport(Darwin)
        return st_ctimespec
        #else
        return st_ctim
        #endif
    }
}

/// What identifies a regular file's contents between two reads (I7): the same descriptor always
/// names the same inode, so what can change is its size and its modification time.
package struct FileIdentity: Equatable, Sendable {
    package var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int

    package init(_ info: stat) {
        size = Int64(info.st_size)
        modifiedSeconds = Int(info.modifiedTime.tv_sec)
        modifiedNanoseconds = Int(info.modifiedTime.tv_nsec)
    }

    /// The identity of what `fd` names now, nil when fstat fails.
    package static func of(_ fd: Int32) -> FileIdentity? {
        var info = stat()
        return fstat(fd, &info) == 0 ? FileIdentity(info) : nil
    }
}

/// Reads a file descriptor. For a regular file read twice, the end of each pass checks the file
/// is as it was when first opened: a file written to, truncated or appended to while tablefmt
/// reads it stops with `file changed while reading` (exit 74) instead of a table that mixes two
/// versions.
public final class DescriptorSource: ByteSource {
    package let fd: Int32
    package let name: String
    let owned: Bool
    /// The file as first opened; nil for a pipe or a device.
    package let identity: FileIdentity?

    /// Reads `fd`, named `name` in messages; closes it at the end when `owned`.
    public init(fd: Int32, name: String, owned: Bool) {
        self.fd = fd
        self.name = name
        self.owned = owned
        identity = nil
    }

    package init(fd: Int32, name: String, owned: Bool, identity: FileIdentity?) {
        self.fd = fd
        self.name = name
        self.owned = owned
        self.identity = identity
    }

    deinit { if owned { close(fd) } }

    /// A pipe or terminal with nothing waiting is not ready: `poll` with no timeout.
    public var isReady: Bool { waitUntilReady(milliseconds: 0) }

    /// Waits up to `milliseconds` for bytes on a pipe or terminal (`poll`).
    public func waitUntilReady(milliseconds: Int) -> Bool {
        guard identity == nil else { return true }  // a regular file never waits
        var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, Int32(clamping: milliseconds)) != 0
    }

    /// Appends the next bytes, retrying after interruptions; nothing at the end.
    public func read(into buffer: inout OutputRawSpan) throws(InputError) {
        while true {
            var n = 0
            buffer.appendFilling { free in
                n = systemRead(fd, into: free)
                return max(0, n)
            }
            if n > 0 { return }
            if n == 0 {
                if let identity { try Self.check(fd, against: identity, name: name) }
                return
            }
            if errno == EINTR { continue }
            throw InputError(.readFailed, "read error: \(systemMessage(errno))", source: name)
        }
    }

    /// Throws when the file `fd` names is no longer as `identity` says.
    package static func check(_ fd: Int32, against identity: FileIdentity, name: String) throws(InputError) {
        guard let now = FileIdentity.of(fd) else {
            throw InputError(.readFailed, "read error: \(systemMessage(errno))", source: name)
        }
        guard now != identity else { return }
        let what = now.size == identity.size ? "modified" : "size \(identity.size) → \(now.size) bytes"
        throw InputError.fileChanged(what, source: name)
    }
}

private func openReadOnly(_ path: String) -> Int32 { open(path, O_RDONLY) }



/// A regular file's descriptor, for reading its bytes again by offset (`pread`), and what the
/// file was when opened, to tell whether it has changed since.
package struct RandomAccess {
    package var fd: Int32
    package var identity: FileIdentity
    /// Where the input starts in the file (standard input may be opened part way).
    package var start: Int64

    package init(fd: Int32, identity: FileIdentity, start: Int64) {
        self.fd = fd
        self.identity = identity
        self.start = start
    }
}

extension RandomAccess {
    /// Whether the file's bytes are its text: false when it is gzip (read through zlib, so its
    /// rows cannot be found again by their offsets) or shorter than two bytes.
    package var holdsText: Bool {
        var magic: [UInt8] = [0, 0]
        let n = positionedRead(fd, into: &magic, at: start)
        return n == 2 && Compression.detect(magic) == nil
    }
}

/// An input that is a regular file, readable again at any offset (the view, V7).
package protocol RandomlyReadable {
    var randomAccess: RandomAccess? { get }
}

extension FileInput: RandomlyReadable {}
extension StandardInput: RandomlyReadable {}

/// `input`'s file, readable again at any offset, when it is one (`RandomlyReadable`). The commonest
/// inputs are known by their type first: a cast to the protocol searches the program's
/// conformances the first time it is made, about 150,000 instructions before the first pass.
package func randomAccess(of input: any InputProvider) -> RandomAccess? {
    switch ObjectIdentifier(type(of: input)) {
    case ObjectIdentifier(FileInput.self): (input as? FileInput)?.randomAccess
    case ObjectIdentifier(StandardInput.self): (input as? StandardInput)?.randomAccess
    default: (input as? RandomlyReadable)?.randomAccess
    }
}

/// A file named on the command line. A regular file is read twice (sized exactly, then drawn)
/// through the one descriptor opened here, so a file renamed over it meanwhile (`mv b.csv a.csv`)
/// is not read instead; a file changed in place stops the read (exit 74).
public final class FileInput: InputProvider {
    /// The path as given, for the format by extension.
    public let path: String?
    /// The path, as messages name it.
    public let name: String
    /// Whether it is a regular file (read twice).
    public let isRereadable: Bool
    private let fd: Int32
    private let identity: FileIdentity?
    /// How many times `open()` has been called.
    private var opened = 0

    /// Opens the file and checks what kind it is.
    /// - Throws: `InputError` `.cannotOpen` (exit 66) for a missing, unreadable or directory path.
    public init(path: String) throws(InputError) {
        self.path = path
        self.name = path
        let fd = openReadOnly(path)
        guard fd >= 0 else { throw InputError(.cannotOpen, "cannot open: \(systemMessage(errno))", source: path) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = InputError(.cannotOpen, "cannot open: \(systemMessage(errno))", source: path)
            close(fd)
            throw error
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            close(fd)
            throw InputError(.cannotOpen, "cannot open: is a directory", source: path)
        }
        self.fd = fd
        // A named pipe or device is read once: opening it again could miss a writer that has
        // come and gone, or wait for one forever.
        isRereadable = info.st_mode & S_IFMT == S_IFREG
        identity = isRereadable ? FileIdentity(info) : nil
    }

    deinit { close(fd) }

    /// The descriptor and what the file was when opened, for reading rows again by their
    /// offsets (the view, V7); nil for a pipe or a device.
    package var randomAccess: RandomAccess? { identity.map { RandomAccess(fd: fd, identity: $0, start: 0) } }

    /// The file from its start. The second time, the file must still be as it was first opened.
    /// - Throws: `.readFailed` (exit 74) when it changed or cannot be rewound.
    public func open() throws(InputError) -> any ByteSource {
        defer { opened += 1 }
        if opened > 0 {
            guard isRereadable, lseek(fd, 0, SEEK_SET) == 0 else {
                throw InputError(.readFailed, "cannot read again: \(systemMessage(errno))", source: name)
            }
            if let identity { try DescriptorSource.check(fd, against: identity, name: name) }
        }
        return DescriptorSource(fd: fd, name: name, owned: false, identity: identity)
    }
}

/// Standard input. When it is a regular file (`< data.csv`) it can be read twice by seeking back,
/// with the same check as `FileInput` that it did not change meanwhile.
public struct StandardInput: InputProvider {
    /// None: standard input has no extension to go by.
    public let path: String? = nil
    /// How messages name standard input.
    public let name = "<stdin>"
    /// Whether it is a regular file (read twice).
    public let isRereadable: Bool
    package let start: off_t
    package let identity: FileIdentity?

    /// Standard input as it is now: a regular file (redirected with `<`) can be read twice.
    public init() {
        var info = stat()
        let regular = fstat(0, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        let offset = regular ? lseek(0, 0, SEEK_CUR) : -1
        start = offset
        isRereadable = regular && offset >= 0
        identity = isRereadable ? FileIdentity(info) : nil
    }

    /// Standard input when it is a regular file, for reading rows again by their offsets (V7).
    package var randomAccess: RandomAccess? { identity.map { RandomAccess(fd: 0, identity: $0, start: Int64(start)) } }

    /// Standard input from its start (a regular file is rewound and checked unchanged).
    public func open() throws(InputError) -> any ByteSource {
        if isRereadable {
            guard lseek(0, start, SEEK_SET) >= 0 else {
                throw InputError(.readFailed, "cannot seek: \(systemMessage(errno))", source: name)
            }
            if let identity { try DescriptorSource.check(0, against: identity, name: name) }
        }
        return DescriptorSource(fd: 0, name: name, owned: false, identity: identity)
    }
}
