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
        if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
        return "/tmp"
    }
}

/// A new, empty temporary file in `directory`, unlinked as soon as it is made, so that nothing is
/// left behind however the program ends (sorted runs, the view's spool).
/// - Returns: its descriptor, or -1 with `errno` set.
func unlinkedTemporaryFile(in directory: String, prefix: String) -> Int32 {
    var template = Array((directory + "/" + prefix + "-XXXXXX").utf8CString)
    return template.withUnsafeMutableBufferPointer { buffer -> Int32 in
        guard let path = buffer.baseAddress else { return -1 }
        let fd = mkstemp(path)
        if fd >= 0 { unlink(path) }
        return fd
    }
}

/// Reads `count` bytes of `fd` at `offset` into `buffer`, retrying short reads and interruptions.
/// - Returns: false when the file ends first or the read fails.
func readFully(_ fd: Int32, into buffer: UnsafeMutableRawPointer?, count: Int, at offset: Int64) -> Bool {
    var done = 0
    while done < count {
        let n = pread(fd, buffer.map { $0 + done }, count - done, off_t(offset) + off_t(done))
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return false }
        done += n
    }
    return true
}

/// Reads `count` bytes of `fd` at `offset` into `buffer` (see above).
func readFully(_ fd: Int32, into buffer: inout [UInt8], count: Int, at offset: Int64) -> Bool {
    buffer.withUnsafeMutableBytes { readFully(fd, into: $0.baseAddress, count: count, at: offset) }
}

/// Writes `count` bytes from `bytes` to `fd` at `offset`, retrying short writes and interruptions.
/// - Returns: 0, or the `errno` of the write that failed.
func writeFully(_ fd: Int32, from bytes: UnsafeRawPointer?, count: Int, at offset: Int64) -> Int32 {
    var done = 0
    while done < count {
        let n = pwrite(fd, bytes.map { $0 + done }, count - done, off_t(offset) + off_t(done))
        if n < 0 {
            if errno == EINTR { continue }
            return errno
        }
        done += n
    }
    return 0
}
