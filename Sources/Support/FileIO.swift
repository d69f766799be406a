#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The system's reads and writes of a file's bytes into or out of memory, in one place: every
// call takes a buffer that carries its own length, and each length handed to the system is that
// buffer's, or checked against it (a precondition), never a count beside a bare pointer. A count
// larger than its buffer stops the program here rather than writing past the buffer (issue 44:
// a 64 KiB array handed a 384 KiB count).

/// One `read` of `fd` into `buffer`: at most `buffer.count` bytes.
/// - Returns: what `read` returns (the count, 0 at the end, -1 with `errno`).
@inline(__always)
package func systemRead(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    guard buffer.count > 0 else { return 0 }
    #if canImport(Glibc)
    return unsafe Glibc.read(fd, buffer.baseAddress, buffer.count)
    #else
    return Darwin.read(fd, buffer.baseAddress, buffer.count)
    #endif
}

/// One `read` of `fd` into the whole of `buffer` (see above).
package func systemRead(_ fd: Int32, into buffer: inout [UInt8]) -> Int {
    unsafe buffer.withUnsafeMutableBytes { unsafe systemRead(fd, into: $0) }
}

/// One `write` to `fd` of `bytes`: at most `bytes.count` of them.
/// - Returns: what `write` returns (the count written, or -1 with `errno`).
@inline(__always)
package func systemWrite(_ fd: Int32, from bytes: UnsafeRawBufferPointer) -> Int {
    guard bytes.count > 0 else { return 0 }
    #if canImport(Glibc)
    return unsafe Glibc.write(fd, bytes.baseAddress, bytes.count)
    #else
    return Darwin.write(fd, bytes.baseAddress, bytes.count)
    #endif
}

/// One `pread` of `fd` at `offset` into `buffer`: at most `buffer.count` bytes.
/// - Returns: what `pread` returns (the count, 0 at the end, -1 with `errno`).
package func positionedRead(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Int {
    guard buffer.count > 0 else { return 0 }
    return unsafe pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
}

/// One `pread` of `fd` at `offset` into the first `count` bytes of `buffer` (all of it when nil).
/// - Precondition: `count` is within the array.
package func positionedRead(_ fd: Int32, into buffer: inout [UInt8], count: Int? = nil, at offset: Int64) -> Int {
    let count = count ?? buffer.count
    precondition(count >= 0 && count <= buffer.count, "a read of \(count) bytes into a buffer of \(buffer.count)")
    return unsafe buffer.withUnsafeMutableBytes { unsafe positionedRead(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<count]), at: offset) }
}

/// Fills the whole of `buffer` from `fd` at `offset`, retrying short reads and interruptions.
/// - Returns: false when the file ends first or the read fails.
package func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Bool {
    var done = 0
    while done < buffer.count {
        let n = unsafe positionedRead(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]), at: offset + Int64(done))
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return false }
        done += n
    }
    return true
}

/// Reads `count` bytes of `fd` at `offset` into the start of `buffer` (see above).
/// - Precondition: `count` is within the array.
package func readFully(_ fd: Int32, into buffer: inout [UInt8], count: Int, at offset: Int64) -> Bool {
    precondition(count >= 0 && count <= buffer.count, "a read of \(count) bytes into a buffer of \(buffer.count)")
    return unsafe buffer.withUnsafeMutableBytes { unsafe readFully(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<count]), at: offset) }
}

/// Writes all of `bytes` to `fd` at `offset`, retrying short writes and interruptions.
/// - Returns: 0, or the `errno` of the write that failed.
package func writeFully(_ fd: Int32, from bytes: UnsafeRawBufferPointer, at offset: Int64) -> Int32 {
    var done = 0
    while done < bytes.count {
        let rest = unsafe UnsafeRawBufferPointer(rebasing: bytes[done...])
        let n = unsafe pwrite(fd, rest.baseAddress, rest.count, off_t(offset) + off_t(done))
        if n < 0 {
            if errno == EINTR { continue }
            return errno
        }
        done += n
    }
    return 0
}

/// Writes the first `count` bytes of `bytes` to `fd` at `offset` (see above).
/// - Precondition: `count` is within the array.
package func writeFully(_ fd: Int32, from bytes: [UInt8], count: Int, at offset: Int64) -> Int32 {
    precondition(count >= 0 && count <= bytes.count, "a write of \(count) bytes from a buffer of \(bytes.count)")
    return unsafe bytes.withUnsafeBytes { unsafe writeFully(fd, from: UnsafeRawBufferPointer(rebasing: $0[0..<count]), at: offset) }
}
