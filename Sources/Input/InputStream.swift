#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered stream of valid UTF-8 bytes over a `ByteSource`.
///
/// Reads large chunks into one reused buffer, removes a byte-order mark, transcodes UTF-16,
/// Latin-1 and cp1252, and replaces invalid UTF-8 with U+FFFD, counting where it first happened
/// (I5). Readers scan `storage[pos..<end]` directly and call `refill()` when they reach `end`;
/// bytes before `pos` may be discarded by a refill, so readers copy what they keep.
package final class InputStream {
    /// Decoded bytes; `storage[pos..<end]` is what a reader has not consumed yet.
    var storage: UnsafeMutablePointer<UInt8>
    var capacity: Int
    /// Next byte a reader will look at.
    var pos = 0
    /// End of the validated bytes.
    var end = 0
    /// End of bytes read in (UTF-8 input may hold an incomplete sequence in `end..<filled`).
    var filled = 0
    /// Offset in the decoded stream of `storage[0]`.
    private var base = 0

    private let source: any ByteSource
    private let requested: TextEncoding?
    /// The encoding in use, decided from the BOM or the request at the first read.
    package private(set) var encoding: TextEncoding = .utf8
    private var started = false
    var sourceEnded = false
    package let chunkSize: Int

    /// Raw bytes waiting to be transcoded (non-UTF-8 encodings only).
    package var raw: [UInt8] = []

    /// How many invalid sequences were replaced with U+FFFD.
    package private(set) var replacements = 0
    /// Offset in the decoded stream of the first replacement, nil if none. (A reader, which
    /// counts lines anyway, turns it into a line: see `TableInput`.)
    package var firstReplacementOffset: Int? { firstReplacement }
    /// (Private, so the compiler sees every access to it and checks none at run time: the reader
    /// asks for it once a row.)
    private var firstReplacement: Int?

    /// Bytes asked of a source per read unless said otherwise (a whole input's first read, which
    /// also sniffs its format, holds this much).
    @inlinable package static var defaultChunkSize: Int { 1 << 18 }

    /// The bytes were found valid by an earlier pass over the same file, or are checked where they
    /// are used (a CSV or TSV piece's cells, `ColumnProfile.checksUTF8`): the stream does not check.
    package let trustValidUTF8: Bool

    /// Whether every byte of the source has been read.
    package var reachedEnd: Bool { sourceEnded }

    /// Called before a read that would wait for a writer (P4: rows already drawn are flushed, so a
    /// pipe that pauses, `tail -f log.csv | tablefmt`, shows its rows as they come). Never called
    /// while bytes are flowing.
    package var beforeWaiting: (() -> Void)?

    /// Whether the next row would make us wait longer than `milliseconds`: no line break is
    /// buffered past the blank space that ends the last row (the line break a JSON Lines value
    /// leaves unread), and the source has nothing for that long (a pipe's writer has paused).
    package func pauses(milliseconds: Int) -> Bool {
        let next = available.drop { $0 == 0x0A || $0 == 0x0D || $0 == 0x20 || $0 == 0x09 }
        guard started, !sourceEnded, !next.contains(0x0A) else { return false }
        return !source.waitUntilReady(milliseconds: milliseconds)
    }

    /// One read of the source, after `beforeWaiting` if it would wait.
    func readSource(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if let hook = beforeWaiting, !source.isReady { hook() }
        return try source.read(into: buffer)
    }

    /// The source starts part way into a UTF-8 input (a piece of a file, read on another thread):
    /// its first bytes are data, never a byte-order mark or a sign of UTF-16.
    private let midInput: Bool

    /// - Parameters:
    ///   - source: where bytes come from.
    ///   - encoding: the user's `--encoding`, or nil to use a BOM or else UTF-8.
    ///   - chunkSize: bytes asked of the source per read.
    ///   - trustValidUTF8: whether the bytes are taken as UTF-8 unchecked (`trustValidUTF8`).
    ///   - midInput: whether the source starts part way into a UTF-8 input (`midInput`).
    package init(_ source: any ByteSource, encoding: TextEncoding? = nil, chunkSize: Int = defaultChunkSize, trustValidUTF8: Bool = false, midInput: Bool = false) {
        self.source = source
        self.requested = midInput ? .utf8 : encoding
        self.trustValidUTF8 = trustValidUTF8
        self.midInput = midInput
        self.chunkSize = max(16, chunkSize)
        self.capacity = self.chunkSize * 2
        self.storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    /// Lets the buffer go once the stream is read to its end and only what it counted is kept
    /// (a file's pieces: thousands of finished streams must not each hold a buffer, P2).
    package func releaseBuffer() {
        storage.deallocate()
        capacity = 16
        storage = .allocate(capacity: capacity)
        pos = 0
        end = 0
        filled = 0
    }

    /// The UTF-8 byte-order mark's length (3) when one was skipped: a UTF-8 input's byte at
    /// `offset` is the source's byte at `offset + byteOrderMarkLength`, until a replacement.
    package private(set) var byteOrderMarkLength = 0

    /// Offset in the decoded stream of the next unread byte.
    /// The buffer's memory, for a reader of fields in place outside this layer (its stored
    /// properties stay internal, so that the compiler sees every access to them and checks none
    /// at run time).
    package var buffer: UnsafeMutablePointer<UInt8> { storage }
    package var offset: Int { base &+ pos }

    /// The unread bytes (valid until the next `refill`).
    package var available: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage + pos, count: end - pos) }

    /// Makes at least `count` unread bytes available, or all that remain.
    /// - Returns: the unread bytes.
    func peek(atLeast count: Int) throws(InputError) -> UnsafeBufferPointer<UInt8> {
        while end - pos < count {
            if try !refill() { break }
        }
        return available
    }

    /// The first bytes, to sniff a format from: up to `count`, but on a pipe that pauses, what has
    /// come once it holds a line break, rather than wait for `count` bytes (P4: a slow writer's
    /// first rows are not held back by sniffing).
    package func head(upTo count: Int) throws(InputError) -> UnsafeBufferPointer<UInt8> {
        while end - pos < count {
            if started && !source.isReady && available.contains(0x0A) { break }
            if try !refill() { break }
        }
        return available
    }

    /// Moves unread bytes to the front and reads more.
    /// - Returns: false when the input has ended and no new bytes came.
    /// - Throws: `InputError` when the source fails.
    package func refill() throws(InputError) -> Bool {
        if !started {
            try start()
            if end > pos { return true }
        }
        if pos > 0 {
            let keep = filled - pos
            if keep > 0 { memmove(storage, storage + pos, keep) }
            base += pos
            end -= pos
            filled -= pos
            pos = 0
        }
        let before = end
        while end == before {
            if encoding == .utf8 {
                if sourceEnded {
                    if filled > end { validate(final: true) }  // an incomplete sequence at the very end
                    return end > before
                }
                reserve(chunkSize)
                let n = try readSource(into: UnsafeMutableRawBufferPointer(start: storage + filled, count: min(chunkSize, capacity - filled)))
                if n == 0 { sourceEnded = true } else { filled += n }
                validate(final: sourceEnded)
            } else {
                // Bytes read before the encoding was known wait in `raw`: transcode them even when
                // the input has already ended.
                if sourceEnded && raw.isEmpty { return end > before }
                try transcodeMore()
            }
        }
        return true
    }

    // MARK: - Start: byte-order mark and encoding

    private func start() throws(InputError) {
        started = true
        // Read until 8 bytes are in or the input ends (a 1-byte source needs several reads): a
        // byte-order mark, or four pairs of UTF-16 without one; or until a followed file's or a
        // pipe's writer pauses after some (a short first line is shown, not held for more, I10).
        while filled < Self.utf16Window {
            if filled > 0 && !source.isReady { break }
            reserve(chunkSize)
            let n = try source.read(into: UnsafeMutableRawBufferPointer(start: storage + filled, count: min(chunkSize, capacity - filled)))
            if n == 0 { sourceEnded = true; break }
            filled += n
        }
        if midInput {
            validate(final: sourceEnded)
            return
        }
        var bomLength = 0
        var detected: TextEncoding = .utf8
        if filled >= 3, storage[0] == 0xEF, storage[1] == 0xBB, storage[2] == 0xBF {
            bomLength = 3
        } else if filled >= 2, storage[0] == 0xFF, storage[1] == 0xFE {
            detected = .utf16le; bomLength = 2
        } else if filled >= 2, storage[0] == 0xFE, storage[1] == 0xFF {
            detected = .utf16be; bomLength = 2
        } else if let guessed = Self.utf16ByNULs(UnsafeBufferPointer(start: storage, count: min(filled, Self.utf16Window))) {
            detected = guessed
        }
        if let requested, requested != detected {
            // The user's encoding wins; a BOM of another encoding is then ordinary data.
            encoding = requested
            bomLength = 0
        } else {
            encoding = detected
        }
        if encoding == .utf8 {
            pos = bomLength
            end = bomLength
            base = -bomLength  // offsets count from after the BOM
            byteOrderMarkLength = bomLength
            validate(final: sourceEnded)
        } else {
            raw.append(contentsOf: UnsafeBufferPointer(start: storage + bomLength, count: filled - bomLength))
            filled = 0
            end = 0
        }
    }

    /// The bytes UTF-16 is told from: always the same first ones, however the input arrives in
    /// chunks, so a file reads the same from a pipe of any pace (and `start` reads this many).
    static let utf16Window = 8

    /// UTF-16 without a byte-order mark, told by its NULs (I5): ASCII and Latin-1 text in UTF-16
    /// has a NUL in every other byte, the second of each pair (little-endian) or the first
    /// (big-endian); UTF-8 text has none. Little-endian when, among the first four pairs, a third
    /// or more have a NUL second byte only and at most a quarter as many a NUL first byte only;
    /// big-endian the other way round.
    static func utf16ByNULs(_ head: UnsafeBufferPointer<UInt8>) -> TextEncoding? {
        let pairs = head.count / 2
        guard pairs >= 4 else { return nil }
        var firstOnly = 0, secondOnly = 0
        for k in 0..<pairs {
            let first = head[2 * k] == 0, second = head[2 * k + 1] == 0
            if first && !second { firstOnly += 1 }
            if second && !first { secondOnly += 1 }
        }
        if secondOnly * 3 >= pairs && firstOnly * 4 <= secondOnly { return .utf16le }
        if firstOnly * 3 >= pairs && secondOnly * 4 <= firstOnly { return .utf16be }
        return nil
    }

    package func reserve(_ extra: Int) {
        guard capacity - filled < extra else { return }
        let newCapacity = max(capacity * 2, filled + extra)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: storage, count: filled)
        storage.deallocate()
        storage = grown
        capacity = newCapacity
    }

    /// Counts a replacement at `index` in `storage`, keeping where the first one was.
    func noteReplacement(at index: Int) {
        if replacements == 0 { firstReplacement = base + index }
        replacements += 1
    }
}
