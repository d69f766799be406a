import Input
import Layout
import Options
import Profile
import Support
import Text
import Transform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why output stopped.
public enum OutputError: Error, Sendable, Equatable {
    /// The reader went away (EPIPE): stop quietly (E3).
    case closed
    /// Writing failed (exit 74), with the system's reason.
    case failed(String)
}

/// Where output bytes go: the executable writes to a file descriptor, tests collect in memory.
/// The bytes are lent as a `RawSpan` (a safe view, valid for the call), so no public declaration
/// hands out a pointer.
public protocol OutputSink: AnyObject {
    /// Writes all of `bytes`.
    func write(_ bytes: RawSpan) throws(OutputError)

    /// Writes `count` bytes of the regular file `fd` from `offset` without taking them through
    /// this process, where the system can (Linux's `sendfile`).
    /// - Returns: false, having written nothing, where it cannot: the caller then reads and
    ///   writes them itself. (The default.)
    func copy(fromFile fd: Int32, offset: Int64, count: Int) throws(OutputError) -> Bool
}

extension OutputSink {
    public func copy(fromFile fd: Int32, offset: Int64, count: Int) throws(OutputError) -> Bool { false }
}

extension OutputSink {
    /// Writes all of `bytes`, lent as a span.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        try write(RawSpan(_unsafeBytes: bytes))
    }

    /// Writes all of `bytes`.
    public func write(_ bytes: [UInt8]) throws(OutputError) {
        // `withUnsafeBytes` rethrows untyped: the outcome comes out as a value.
        let outcome = bytes.withUnsafeBytes { buffer in Result { () throws(OutputError) in try write(buffer) } }
        try outcome.get()
    }
}

/// Collects output in memory.
public final class MemorySink: OutputSink {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []
    /// An empty sink.
    public init() {}
    /// Appends `bytes`.
    public func write(_ bytes: RawSpan) throws(OutputError) {
        bytes.withUnsafeBytes { self.bytes.append(contentsOf: $0) }
    }
    /// Everything written so far, as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
    /// The bytes collected so far, leaving the sink empty.
    public func take() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }
}

/// Batches writes into 64 KiB blocks. Spaces are held back until something follows them, so no
/// line ever ends in padding.
public final class OutputBuffer {
    /// The memory written into: `capacity` bytes and eight more, as spaces are stored a word at
    /// a time (`write`); `storage` is its pointer, held apart for the hot path.
    private var block: ByteArray.Storage
    private var storage: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0
    private var pendingSpaces = 0
    /// Bytes after the buffer's end that spaces written a word at a time may reach (`Cursor.spaces`).
    package static let spare = 16
    private let sink: any OutputSink

    /// A buffer of `capacity` bytes in front of `sink`; `flush()` writes what it holds.
    public init(_ sink: any OutputSink, capacity: Int = 1 << 16) {
        self.sink = sink
        self.capacity = max(64, capacity)
        block = ByteArray.Storage(capacity: self.capacity + Self.spare)
        storage = block.base
    }

    /// Hands over what is buffered, with the memory that holds it, and goes on in `recycled` (memory
    /// it handed over before) or in new memory: output drawn into memory is kept without a copy.
    /// Held-back spaces are dropped (a line ends after them).
    package func exchange(_ recycled: ByteArray.Storage?) -> (memory: ByteArray.Storage, count: Int) {
        let fresh = recycled ?? ByteArray.Storage(capacity: capacity + Self.spare)
        precondition(fresh.size == capacity + Self.spare, "an output buffer goes on in memory of its own size")
        let handed = (memory: block, count: count)
        block = fresh
        storage = fresh.base
        count = 0
        pendingSpaces = 0
        return handed
    }

    /// Forgets what is buffered and not yet flushed.
    package func discard() {
        count = 0
        pendingSpaces = 0
    }

    /// Writes bytes (after any held-back spaces).
    @inline(__always)
    package func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let spaces = pendingSpaces
        let end = count &+ spaces &+ bytes.count
        guard end <= capacity else { return try writeFlushing(bytes) }
        // The common case, in place: the held-back spaces a word at a time (the last word may
        // reach into the spare bytes), then the bytes.
        let target = UnsafeMutableRawPointer(storage + count)
        if spaces > 0 {
            var k = 0
            while k < spaces {
                target.storeBytes(of: 0x2020_2020_2020_2020 as UInt64, toByteOffset: k, as: UInt64.self)
                k &+= 8
            }
            pendingSpaces = 0
        }
        TextBytes.copy(base, to: target + spaces, count: bytes.count)
        count = end
    }

    /// `write` when the buffer must be flushed first.
    private func writeFlushing(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
        guard let base = bytes.baseAddress else { return }
        if pendingSpaces > 0 { try flushSpaces() }
        if count &+ bytes.count > capacity { try flush() }
        if bytes.count > capacity {
            try sink.write(UnsafeRawBufferPointer(bytes))
            return
        }
        TextBytes.copy(base, to: storage + count, count: bytes.count)
        count &+= bytes.count
    }

    /// Writes a string's UTF-8.
    public func write(_ text: String) throws(OutputError) {
        var text = text
        do {
            try text.withUTF8 { buffer in try write(buffer) }
        } catch let error as OutputError {
            throw error
        } catch {
            throw .failed("\(error)")
        }
    }

    /// Writes one byte.
    public func write(byte: UInt8) throws(OutputError) {
        if pendingSpaces > 0 { try flushSpaces() }
        if count == capacity { try flush() }
        storage[count] = byte
        count += 1
    }

    /// Holds back `n` spaces until something else is written on the line.
    public func pad(_ n: Int) {
        if n > 0 { pendingSpaces += n }
    }

    /// Forgets held-back spaces (the line ends here).
    public func dropPadding() { pendingSpaces = 0 }

    /// Writes held-back spaces now (a striped row's background reaches the table's edge).
    public func flushPadding() {
        if pendingSpaces > 0 { try? flushSpaces() }
    }

    /// Lines ended so far (a followed table's headings come again by them, P5).
    public var lines: Int { linesEnded }
    /// `lines`, private: the count is then seen only in this file, and ending a line takes no
    /// run-time exclusivity check (`swift_beginAccess` on every line, as a public property had).
    private var linesEnded = 0

    /// Ends the line, dropping held-back spaces.
    public func newline() throws(OutputError) {
        linesEnded &+= 1
        pendingSpaces = 0
        if count == capacity { try flush() }
        storage[count] = 0x0A
        count += 1
    }

    private func flushSpaces() throws(OutputError) {
        var n = pendingSpaces
        pendingSpaces = 0
        while n > 0 {
            if count == capacity { try flush() }
            let k = min(n, capacity - count)
            (storage + count).update(repeating: 0x20, count: k)
            count += k
            n -= k
        }
    }

    /// Where a row drawn in place writes (`PlainRenderer.notedRow`), taken from the buffer and
    /// given back (`commit`, `endLine`): the buffer's next byte, its end, and the spaces held back.
    /// A caller checks `room` before it writes; nothing in the cursor flushes.
    @inline(__always)
    package func cursor() -> Cursor {
        Cursor(at: storage + count, end: storage + capacity, pending: pendingSpaces)
    }

    /// Takes back what was written through `cursor` (its held-back spaces too).
    @inline(__always)
    package func commit(_ cursor: Cursor) {
        count = cursor.at - storage
        pendingSpaces = cursor.pending
    }

    /// Takes back a line written through `cursor`, its line break included.
    @inline(__always)
    package func commitLine(_ cursor: Cursor) {
        linesEnded &+= 1
        count = cursor.at - storage
        pendingSpaces = 0
    }

    /// Writes `count` bytes of the regular file `fd` from `offset` (after any held-back spaces):
    /// straight from the file where the sink can (`OutputSink.copy(fromFile:)`), else read
    /// through the buffer, a block at a time.
    /// - Returns: false when the file does not hold the bytes (nothing written), or could not be
    ///   read to the end (what was read is written): the same whichever way the sink takes them.
    package func copy(fromFile fd: Int32, at offset: Int64, count total: Int) throws(OutputError) -> Bool {
        guard total > 0 else { return true }
        var status = stat()
        guard fstat(fd, &status) == 0, Int64(status.st_size) >= offset + Int64(total) else { return false }
        if pendingSpaces > 0 { try flushSpaces() }
        try flush()
        if try sink.copy(fromFile: fd, offset: offset, count: total) { return true }
        var done = 0
        while done < total {
            if count == capacity { try flush() }
            let n = min(total &- done, capacity &- count)
            guard readFully(fd, into: UnsafeMutableRawBufferPointer(start: storage + count, count: n), at: offset + Int64(done)) else { return false }
            count &+= n
            done &+= n
        }
        return true
    }

    /// Sends what is buffered to the sink.
    public func flush() throws(OutputError) {
        guard count > 0 else { return }
        let n = count
        count = 0
        try sink.write(UnsafeRawBufferPointer(start: storage, count: n))
    }
}

extension OutputBuffer {
    /// A place to write in the buffer without a call or a check per write: `at`, the next byte;
    /// `end`, the buffer's end (`spare` bytes follow it, so spaces go a word at a time); and
    /// `pending`, the spaces held back until something follows them on the line.
    package struct Cursor {
        package var at: UnsafeMutablePointer<UInt8>
        package let end: UnsafeMutablePointer<UInt8>
        package var pending: Int

        @inline(__always)
        package init(at: UnsafeMutablePointer<UInt8>, end: UnsafeMutablePointer<UInt8>, pending: Int) {
            precondition(at <= end && pending >= 0, "a cursor past its buffer's end")
            self.at = at
            self.end = end
            self.pending = pending
        }

        /// Bytes left before the buffer's end.
        @inline(__always)
        package var room: Int { end - at }

        /// Writes the held-back spaces and `more` spaces after them, two words whatever their count
        /// (most runs of padding are shorter), then a word at a time: up to fifteen bytes past
        /// them, into what is written next or the spare bytes. Does not move `at`. Returns where
        /// the bytes after them go. `room` must hold them.
        @inline(__always)
        package func spaces(_ more: Int) -> UnsafeMutablePointer<UInt8> {
            let n = pending &+ more
            let raw = UnsafeMutableRawPointer(at)
            raw.storeBytes(of: 0x2020_2020_2020_2020 as UInt64, as: UInt64.self)
            raw.storeBytes(of: 0x2020_2020_2020_2020 as UInt64, toByteOffset: 8, as: UInt64.self)
            var k = 16
            while k < n {
                raw.storeBytes(of: 0x2020_2020_2020_2020 as UInt64, toByteOffset: k, as: UInt64.self)
                k &+= 8
            }
            return at + n
        }

        /// Writes the held-back spaces, then `bytes` (`room` must hold them), and moves past them.
        @inline(__always)
        package mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
            let target = spaces(0)
            if let base = bytes.baseAddress { TextBytes.copy(base, to: target, count: bytes.count) }
            at = target + bytes.count
            pending = 0
        }
    }
}
