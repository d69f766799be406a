/// Where input bytes come from: a file, a pipe, or memory. Only the executable opens files; the
/// engine reads through this protocol.
public protocol ByteSource: AnyObject {
    /// Appends the next bytes to `buffer`, at most its `freeCapacity` (a safe view of the
    /// reader's memory, valid for the call: no pointer is handed out). The span always has room;
    /// appending nothing says the input has ended, so a source with no bytes yet waits for them.
    /// - Throws: `InputError` with kind `.readFailed` when the read fails.
    func read(into buffer: inout OutputRawSpan) throws(InputError)
    /// Whether a read would return at once (bytes waiting, or the end): false when it would wait
    /// for a writer, so that output held back can be flushed first (P4).
    var isReady: Bool { get }
    /// Waits up to `milliseconds` for a read to be able to return at once. - Returns: `isReady`
    /// after the wait.
    func waitUntilReady(milliseconds: Int) -> Bool
}

extension ByteSource {
    /// One read into `buffer` (the engine's own storage) through a span over it.
    /// - Returns: the number of bytes read; 0 at the end of the input.
    @inline(__always)
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        var span = OutputRawSpan(buffer: buffer, initializedCount: 0)
        try read(into: &span)
        return span.finalize(for: buffer)
    }

    /// One read of at most `limit` bytes (at least one) appended to `bytes`, an array's own
    /// bounds holding the read: the safe way for code that keeps what it reads in an array.
    /// - Returns: the number of bytes read; 0 at the end of the input.
    package func read(appendingTo bytes: inout [UInt8], atMost limit: Int) throws(InputError) -> Int {
        precondition(limit > 0, "a read of nothing")
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: limit))
        var failure: InputError?
        let n = bytes.withUnsafeMutableBytes { all -> Int in
            do throws(InputError) {
                return try read(into: UnsafeMutableRawBufferPointer(rebasing: all[start...]))
            } catch {
                failure = error
                return 0
            }
        }
        bytes.removeLast(limit - n)
        if let failure { throw failure }
        return n
    }

    /// Memory and regular files never wait.
    public var isReady: Bool { true }
    /// Does not wait: memory and regular files are always ready.
    public func waitUntilReady(milliseconds: Int) -> Bool { isReady }
}

/// Bytes held in memory, handed out at most `chunkSize` at a time (tests use tiny chunks to
/// exercise every resume path of the readers).
public final class MemorySource: ByteSource {
    private let data: [UInt8]
    private var offset = 0
    private let chunkSize: Int

    /// Hands out `data`, at most `chunkSize` bytes a read.
    public init(_ data: [UInt8], chunkSize: Int = 1 << 16) {
        self.data = data
        self.chunkSize = max(1, chunkSize)
    }

    /// Hands out `text`'s UTF-8, at most `chunkSize` bytes a read.
    public convenience init(_ text: String, chunkSize: Int = 1 << 16) {
        self.init(Array(text.utf8), chunkSize: chunkSize)
    }

    /// Appends the next bytes; nothing at the end.
    public func read(into buffer: inout OutputRawSpan) throws(InputError) {
        let n = min(chunkSize, buffer.freeCapacity, data.count - offset)
        guard n > 0 else { return }
        buffer.append(data[offset..<(offset + n)])
        offset += n
    }
}

extension OutputRawSpan {
    /// Lets `fill` write into the free part of the span through a pointer (for `read(2)`, zlib,
    /// `pread`), then counts the bytes it says it wrote as appended.
    /// - Returns: the number of bytes appended.
    @inline(__always) @discardableResult
    package mutating func appendFilling<E: Error>(_ fill: (UnsafeMutableRawBufferPointer) throws(E) -> Int) throws(E) -> Int {
        try withUnsafeMutableBytes { (bytes, count) throws(E) -> Int in
            let n = try fill(UnsafeMutableRawBufferPointer(rebasing: bytes[count...]))
            count += n
            return n
        }
    }

    /// Appends `bytes`, which must fit in the free capacity.
    package mutating func append(_ bytes: ArraySlice<UInt8>) {
        precondition(bytes.count <= freeCapacity, "more bytes than the span has room for")
        appendFilling { (free) -> Int in
            bytes.withUnsafeBytes { free.copyMemory(from: $0) }
            return bytes.count
        }
    }
}

/// Text encodings tablefmt reads (I5). Everything is turned into UTF-8 before a reader sees it.
public enum TextEncoding: String, Sendable, CaseIterable {
    case utf8 = "utf-8"
    case utf16le = "utf-16le"
    case utf16be = "utf-16be"
    case latin1
    case cp1252

    /// Parses a user's spelling (`UTF8`, `utf-8`, `iso-8859-1`, `windows-1252`, …).
    public init?(name: String) {
        let key = name.lowercased().filter { $0 != "-" && $0 != "_" }
        switch key {
        case "utf8": self = .utf8
        case "utf16le": self = .utf16le
        case "utf16be": self = .utf16be
        case "latin1", "iso88591", "l1": self = .latin1
        case "cp1252", "windows1252": self = .cp1252
        default: return nil
        }
    }
}
