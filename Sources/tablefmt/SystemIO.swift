#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FormatEngine

/// The system's words for an errno value.
func systemMessage(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}

/// Reads a file descriptor.
final class DescriptorSource: ByteSource {
    let fd: Int32
    let name: String
    let owned: Bool

    init(fd: Int32, name: String, owned: Bool) {
        self.fd = fd
        self.name = name
        self.owned = owned
    }

    deinit { if owned { close(fd) } }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        while true {
            let n = systemRead(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw InputError(.readFailed, "read error: \(systemMessage(errno))", source: name)
        }
    }
}

@inline(__always) private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(fd, buffer, count)
    #else
    return Darwin.read(fd, buffer, count)
    #endif
}

/// A file named on the command line. Regular files can be read twice (sized exactly, then drawn).
struct FileInput: InputProvider {
    let path: String?
    let name: String
    let isRereadable: Bool
    /// A named pipe or device is read through the descriptor opened here, once: opening it again
    /// could miss a writer that has already come and gone, or wait for one forever.
    let held: Int32?

    /// Checks that the file can be opened and what kind it is.
    /// - Throws: `InputError` `.cannotOpen` (exit 66) for a missing, unreadable or directory path.
    init(path: String) throws(InputError) {
        self.path = path
        self.name = path
        let fd = openReadOnly(path)
        guard fd >= 0 else { throw InputError(.cannotOpen, "cannot open: \(systemMessage(errno))", source: path) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw InputError(.cannotOpen, "cannot open: \(systemMessage(errno))", source: path)
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            close(fd)
            throw InputError(.cannotOpen, "cannot open: is a directory", source: path)
        }
        isRereadable = info.st_mode & S_IFMT == S_IFREG
        if isRereadable {
            close(fd)
            held = nil
        } else {
            held = fd
        }
    }

    func open() throws(InputError) -> any ByteSource {
        if let held { return DescriptorSource(fd: held, name: name, owned: true) }
        guard let path else { throw InputError(.cannotOpen, "no path", source: name) }
        let fd = openReadOnly(path)
        guard fd >= 0 else { throw InputError(.cannotOpen, "cannot open: \(systemMessage(errno))", source: path) }
        return DescriptorSource(fd: fd, name: path, owned: true)
    }
}

private func openReadOnly(_ path: String) -> Int32 { open(path, O_RDONLY) }

/// Standard input. When it is a regular file (`< data.csv`) it can be read twice by seeking back.
struct StandardInput: InputProvider {
    let path: String? = nil
    let name = "<stdin>"
    let isRereadable: Bool
    let start: off_t

    init() {
        var info = stat()
        let regular = fstat(0, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        let offset = regular ? lseek(0, 0, SEEK_CUR) : -1
        start = offset
        isRereadable = regular && offset >= 0
    }

    func open() throws(InputError) -> any ByteSource {
        if isRereadable && lseek(0, start, SEEK_SET) < 0 {
            throw InputError(.readFailed, "cannot seek: \(systemMessage(errno))", source: name)
        }
        return DescriptorSource(fd: 0, name: name, owned: false)
    }
}

/// Writes to a file descriptor; EPIPE means the reader went away.
final class DescriptorSink: OutputSink {
    let fd: Int32
    init(fd: Int32) { self.fd = fd }

    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        guard var p = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            #if canImport(Glibc)
            let n = Glibc.write(fd, p, left)
            #else
            let n = Darwin.write(fd, p, left)
            #endif
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { throw .closed }
                throw .failed(systemMessage(errno))
            }
            left -= n
            p += n
        }
    }
}

/// What the terminal says about itself.
enum Terminal {
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// The terminal's width in columns, if `fd` is a terminal that knows it.
    static func width(_ fd: Int32) -> Int? {
        var size = winsize()
        #if canImport(Glibc)
        let request = UInt(TIOCGWINSZ)
        #else
        let request = TIOCGWINSZ
        #endif
        guard ioctl(fd, request, &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}

/// Writes a line to stderr, unbuffered.
func printError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { buffer in
        var p = buffer.baseAddress
        var left = buffer.count
        while left > 0, let base = p {
            #if canImport(Glibc)
            let n = Glibc.write(2, base, left)
            #else
            let n = Darwin.write(2, base, left)
            #endif
            if n <= 0 { if errno == EINTR { continue }; return }
            left -= n
            p = base + n
        }
    }
}
