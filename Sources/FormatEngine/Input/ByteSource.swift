/// Where input bytes come from: a file, a pipe, or memory. Only the executable opens files; the
/// engine reads through this protocol.
public protocol ByteSource: AnyObject {
    /// Reads up to `buffer.count` bytes into `buffer`.
    /// - Returns: the number of bytes read; 0 at the end of the input.
    /// - Throws: `InputError` with kind `.readFailed` when the read fails.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int
    /// Whether a read would return at once (bytes waiting, or the end): false when it would wait
    /// for a writer, so that output held back can be flushed first (P4).
    var isReady: Bool { get }
    /// Waits up to `milliseconds` for a read to be able to return at once. - Returns: `isReady`
    /// after the wait.
    func waitUntilReady(milliseconds: Int) -> Bool
}

extension ByteSource {
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

    /// The next bytes; 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let n = min(chunkSize, buffer.count, data.count - offset)
        guard n > 0 else { return 0 }
        data.withUnsafeBytes { src in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[offset..<(offset + n)]))
        }
        offset += n
        return n
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
