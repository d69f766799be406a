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
