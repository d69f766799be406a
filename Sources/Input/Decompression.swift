import CZlib

/// Compressed input (I8): recognised by its first bytes, whatever the file is called. gzip is
/// decompressed through the system zlib; zstd, bzip2 and xz are named in an error (exit 65) with
/// the command that reads them, never shown as garbage.
public enum Compression: String, Sendable, CaseIterable {
    case gzip, zstd, bzip2, xz

    /// The magic bytes each format starts with.
    package var magic: [UInt8] {
        switch self {
        case .gzip: return [0x1F, 0x8B]
        case .zstd: return [0x28, 0xB5, 0x2F, 0xFD]
        case .bzip2: return [0x42, 0x5A, 0x68]  // "BZh"
        case .xz: return [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]
        }
    }

    /// The command that decompresses this format to standard output.
    package var tool: String {
        switch self {
        case .gzip: return "gzip -dc"
        case .zstd: return "zstd -dc"
        case .bzip2: return "bzip2 -dc"
        case .xz: return "xz -dc"
        }
    }

    /// The format whose magic `head` starts with.
    static func detect(_ head: [UInt8]) -> Compression? {
        allCases.first { head.starts(with: $0.magic) }
    }

    /// Whether more bytes could still make `head` one of the magics (so a reader must wait for them).
    static func couldStart(_ head: [UInt8]) -> Bool {
        allCases.contains { $0.magic.count > head.count && $0.magic.starts(with: head) }
    }

    /// A file name without a compression suffix (`data.csv.gz` → `data.csv`), for choosing the
    /// input format by extension.
    public static func strippingSuffix(_ path: String) -> String {
        for suffix in [".gz", ".gzip", ".zst", ".bz2", ".xz"] where path.lowercased().hasSuffix(suffix) {
            return String(path.dropLast(suffix.count))
        }
        return path
    }

    /// Opens `source` for reading as text: gzip is decompressed, other bytes pass through unchanged.
    /// Reads only as many bytes as it takes to tell (at most six).
    /// - Throws: `InputError` `.malformed` (exit 65) for zstd, bzip2 or xz, naming the command that
    ///   reads them; `.readFailed` when the first read fails.
    public static func open(_ source: any ByteSource, name: String) throws(InputError) -> any ByteSource {
        var head: [UInt8] = []
        repeat {
            if try source.read(appendingTo: &head, atMost: 6 - head.count) == 0 { break }
        } while couldStart(head)
        switch detect(head) {
        case nil:
            return PrefixedSource(head, then: source)
        case .gzip:
            return GzipSource(PrefixedSource(head, then: source), name: name)
        case let other?:
            let command = name == "<stdin>" ? "\(other.tool) FILE | tablefmt" : "\(other.tool) \(shellQuoted(name)) | tablefmt"
            throw InputError.compressed(.malformed, "input is \(other.rawValue)-compressed, which tablefmt does not read; try: \(command)", source: name)
        }
    }

    /// `name` as a shell word: unchanged when it is plain, else in single quotes.
    static func shellQuoted(_ name: String) -> String {
        let plain = name.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || "/._-+,:@%".utf8.contains(b)
        }
        if plain && !name.isEmpty { return name }
        return "'" + name.replacing("'", with: "'\\''") + "'"
    }
}

/// Bytes already read, then the rest of a source.
package final class PrefixedSource: ByteSource {
    private var prefix: [UInt8]
    private var offset = 0
    private let rest: any ByteSource

    package init(_ prefix: [UInt8], then rest: any ByteSource) {
        self.prefix = prefix
        self.rest = rest
    }

    package func read(into buffer: inout OutputRawSpan) throws(InputError) {
        if offset < prefix.count {
            let n = min(buffer.freeCapacity, prefix.count - offset)
            buffer.append(prefix[offset..<(offset + n)])
            offset += n
            return
        }
        try rest.read(into: &buffer)
    }

    package var isReady: Bool { offset < prefix.count || rest.isReady }
    package func waitUntilReady(milliseconds: Int) -> Bool { offset < prefix.count || rest.waitUntilReady(milliseconds: milliseconds) }
}

/// A gzip stream decompressed as it is read (RFC 1952), through zlib. Several members one after
/// another (as `cat a.gz b.gz` makes) read as one stream, as `gzip -d` reads them.
final class GzipSource: ByteSource {
    private let source: any ByteSource
    private let name: String
    private let stream: UnsafeMutablePointer<z_stream>
    private var input: UnsafeMutableRawBufferPointer
    /// Compressed bytes in the buffers before the current one, and in the current one, for
    /// error positions.
    private var consumedBefore = 0
    private var lastFill = 0
    private var sourceEnded = false
    /// Between members: the last member ended and no byte of a next one has been seen yet.
    private var betweenMembers = false
    private var finished = false

    package init(_ source: any ByteSource, name: String) {
        self.source = source
        self.name = name
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        input = .allocate(byteCount: 1 << 16, alignment: 16)
    }

    deinit {
        if initialized { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
        input.deallocate()
    }

    private var initialized = false

    private func start() throws(InputError) {
        // 15 window bits + 16: a gzip wrapper, not zlib's own.
        let status = inflateInit2_(stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw InputError.compressed(.readFailed, "cannot start gzip decompression (zlib status \(status))", source: name) }
        initialized = true
    }

    /// Refills the compressed buffer when it is empty. - Returns: false at the end of the source.
    private func refill() throws(InputError) -> Bool {
        if stream.pointee.avail_in > 0 { return true }
        if sourceEnded { return false }
        let n = try source.read(into: input)
        if n == 0 { sourceEnded = true; return false }
        consumedBefore += lastFill
        lastFill = n
        stream.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = uInt(n)
        return true
    }

    private var position: Int { consumedBefore + lastFill - Int(stream.pointee.avail_in) }

    private func corrupt(_ what: String) -> InputError {
        InputError.compressed(.malformed, "gzip data \(what) (compressed byte \(position))", source: name)
    }

    /// Appends the next bytes; nothing at the end.
    package func read(into buffer: inout OutputRawSpan) throws(InputError) {
        try buffer.appendFilling { (free) throws(InputError) in try fill(free) }
    }

    /// Decompresses into `buffer`. - Returns: how many bytes; 0 at the end.
    private func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        guard !finished, let out = buffer.baseAddress, buffer.count > 0 else { return 0 }
        if !initialized { try start() }
        stream.pointee.next_out = out.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(min(buffer.count, Int(UInt32.max)))
        while true {
            guard try refill() else {
                if betweenMembers { finished = true; return produced(buffer) }
                throw corrupt("ends early: the file is truncated")
            }
            if betweenMembers {
                // Another member must start with the gzip magic; anything else is not gzip.
                guard let next = stream.pointee.next_in, next.pointee == 0x1F else {
                    throw corrupt("is followed by bytes that are not gzip")
                }
                inflateReset(stream)
                betweenMembers = false
            }
            let status = inflate(stream, Z_NO_FLUSH)
            switch status {
            case Z_OK, Z_BUF_ERROR:
                break
            case Z_STREAM_END:
                betweenMembers = true
            case Z_NEED_DICT, Z_DATA_ERROR:
                let detail = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
                throw corrupt("is corrupt: \(detail)")
            case Z_MEM_ERROR:
                throw InputError.compressed(.readFailed, "out of memory while decompressing gzip", source: name)
            default:
                throw corrupt("could not be decompressed (zlib status \(status))")
            }
            let n = produced(buffer)
            if n > 0 { return n }
        }
    }

    /// Compressed bytes waiting may still make output without a read (or may not: then the read
    /// waits, and only the flush before it is missed).
    package var isReady: Bool { stream.pointee.avail_in > 0 || source.isReady }
    package func waitUntilReady(milliseconds: Int) -> Bool { stream.pointee.avail_in > 0 || source.waitUntilReady(milliseconds: milliseconds) }

    private func produced(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
        buffer.count - Int(stream.pointee.avail_out)
    }
}
