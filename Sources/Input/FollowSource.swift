#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support

/// The bytes of a followed file (or pipe): at the file's end it waits (`FileWatcher`) for more;
/// a file truncated, rewritten, or replaced under its name (log rotation, `FollowFiles`) is read
/// again from its start, its news told. A last line without its line feed waits for it; one left
/// so by a rotation is ended with one, so no row is lost or joined to the next file's.
package final class FollowSource: ByteSource {
    /// A pipe's descriptor (-1 for a file, read through `files`).
    private let pipe: Int32
    /// A regular file's reading: by name when it has one, else by its descriptor.
    private let files: FollowFiles?
    private let name: String
    private let stop: Int32
    private let owned: Bool
    private let tell: (String) -> Void
    /// The last read found the open file's end: what changed there is looked at before the next.
    private var atEnd = false
    /// The file's code units (UTF-16's two bytes), told from the first bytes read.
    private var units: FollowUnits?
    /// The first bytes read are gzip's (I8): the bytes are not text, so they have no lines to
    /// wait for or headers to compare; each is handed out as read, for the decompressor.
    private var compressed = false
    /// A new file's first bytes are being read: a byte order mark there is dropped.
    private var atNewStart = false
    /// The first file's first line (a CSV header), while it is still being read, and once read.
    private var header: [UInt8]?
    private var headerDone: Bool
    /// Bytes read ahead of a new file's start, to compare with `header`; handed out before more.
    private var held: [UInt8] = []
    private var checkingHeader = false
    private var pendingLineFeed = false
    private var ended = false
    /// Bytes read after the last line feed handed out: a line still being written, handed out
    /// once its line feed comes (or the input truly ends); dropped at `stop`, never a row (I10).
    private var partial: [UInt8] = []
    /// Bytes handed out so far.
    private var handedOut: Int64 = 0
    /// Follows `fd`: a regular file by offset (watched by `path` when it has one: rotation is
    /// followed then), anything else as a pipe, to its writer's end.
    package init(fd: Int32, path: String?, name: String, stop: Int32, skipsRepeatedHeader: Bool, owned: Bool = true, events: Bool = true,
         tell: @escaping (String) -> Void) {
        self.name = name
        self.stop = stop
        self.owned = owned
        self.tell = tell
        headerDone = !skipsRepeatedHeader
        header = skipsRepeatedHeader ? [] : nil
        if FollowFiles.isRegular(fd) {
            pipe = -1
            let followed = FollowFiles(fd: fd, path: path, name: name, stop: stop, owned: owned, events: events, tell: tell)
            files = followed
        } else {
            pipe = fd
            files = nil
        }
    }

    deinit { if owned && pipe >= 0 { close(pipe) } }

    /// Whether the stop descriptor is readable (Ctrl-C while printing).
    private var stopped: Bool {
        guard stop >= 0 else { return false }
        var request = pollfd(fd: stop, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) > 0
    }

    package var isReady: Bool {
        if ended || pendingLineFeed || !held.isEmpty || stopped || heldEnd != nil { return true }
        guard let files else {
            var request = pollfd(fd: pipe, events: Int16(POLLIN), revents: 0)
            return poll(&request, 1, 0) != 0
        }
        return files.isReady(units: lineUnits)
    }

    package func waitUntilReady(milliseconds: Int) -> Bool {
        if isReady { return true }
        if let files {
            files.watcher.wait(milliseconds: milliseconds)
        } else {
            var requests = [pollfd(fd: pipe, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
            _ = poll(&requests, stop >= 0 ? 2 : 1, Int32(clamping: milliseconds))
        }
        return isReady
    }

    package func read(into buffer: inout OutputRawSpan) throws(InputError) {
        let n = try buffer.appendFilling { (free) throws(InputError) in try readLines(into: free) }
        handedOut += Int64(n)
    }

    /// One read: whole lines, or what the file ends with once it truly ends.
    private func readLines(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        guard buffer.count > 0 else { return 0 }
        while !ended {
            if let end = heldEnd { return handOut(upTo: end, into: buffer) }
            if stopped {
                ended = true
                dropPartial()
                break
            }
            if pendingLineFeed {
                pendingLineFeed = false
                partial.removeLast(partial.count % lineUnits.width)  // half a unit, never decodable
                partial.append(contentsOf: lineUnits.lineFeed)
                continue
            }
            if !held.isEmpty && !checkingHeader && !atNewStart {
                partial.append(contentsOf: held)
                held = []
                continue
            }
            if let files, let change = try atEnd ? files.changeAtEnd() : files.changeBeforeRead() {
                atEnd = false
                take(change)
                continue
            }
            let n = try readSome(into: buffer)
            if n < 0 { continue }  // interrupted, or stopped: looked at again
            if n > 0 {
                atEnd = false
                if units == nil {
                    units = FollowUnits(start: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                    compressed = n >= 2 && buffer[0] == 0x1F && buffer[1] == 0x8B
                    if compressed { headerDone = true; header = nil }
                }
                noteHeader(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                if checkingHeader || atNewStart {
                    held.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                    checkNewStart(ended: false)
                    continue
                }
                let out = holdUnended(buffer, count: n)
                if out == 0 { continue }
                return out
            }
            guard let files else {
                ended = true  // a pipe's writer closed it: its last line, ended or not, is read
                return handOutPartial(buffer)
            }
            if (checkingHeader || atNewStart) && !held.isEmpty { checkNewStart(ended: true) }
            // Between whole lines of the open file, rows still written to the file left before it.
            if partial.isEmpty && held.isEmpty && !compressed {
                let late = files.lateLines(units: lineUnits)
                if !late.isEmpty {
                    partial = late
                    continue
                }
            }
            // The first end found is looked at (`changeAtEnd`) and read again before waiting.
            if atEnd { files.watcher.wait(milliseconds: FileWatcher.recheck) }
            atEnd = true
        }
        return 0
    }

    /// A change found at the open file's end, told; the reading starts again where it says.
    private func take(_ change: FollowFiles.Change) {
        switch change {
        case .truncated: restart("\(name) was truncated: read from its start")
        case .rewritten: restart("\(name) was written again: read from its start")
        case .replaced: restart("\(name) was replaced: read from the new file's start")
        case .continued: tell("\(name) was replaced by a file that begins with what was read: read on from there")
        case .lookAgain: break
        }
    }

    /// `count` bytes just put in `buffer`: what ends with their last line feed is handed out (the
    /// count returned, 0 if none), the rest held; after held bytes, all are held and handed out next.
    private func holdUnended(_ buffer: UnsafeMutableRawBufferPointer, count: Int) -> Int {
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        guard partial.isEmpty, let end = compressed ? count : lineUnits.lastLineEnd(in: bytes) else {
            partial.append(contentsOf: bytes)
            return 0
        }
        partial.append(contentsOf: bytes[end...])
        return end
    }

    /// The first `count` held bytes (up to a buffer's worth) handed out.
    private func handOut(upTo count: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let n = min(buffer.count, count)
        partial.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        partial.removeFirst(n)
        return n
    }

    /// The held bytes handed out (up to a buffer's worth) at a pipe's true end; read on for the rest.
    private func handOutPartial(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
        let n = handOut(upTo: partial.count, into: buffer)
        if !partial.isEmpty { ended = false }
        return n
    }

    private func dropPartial() {
        guard !partial.isEmpty else { return }
        partial = []
        tell("\(name) ended in a line without its line feed: not read as a row")
    }

    /// One read: a pipe's waits for bytes or `stop` first (a read cannot be interrupted reliably).
    private func readSome(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if let files { return try files.read(into: buffer) }
        var requests = [pollfd(fd: pipe, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&requests, stop >= 0 ? 2 : 1, -1)
        if ready < 0 || requests[0].revents == 0 { return stopped || ready < 0 ? -1 : 0 }
        let n = systemRead(pipe, into: buffer)
        if n >= 0 { return n }
        if errno == EINTR { return -1 }
        throw InputError(.readFailed, "read error: \(systemMessage(errno))", source: name)
    }

    /// The first file's first line is kept (up to 64 KiB), to know it when a new file repeats it.
    /// Kept without its byte order mark, in whole units.
    private func noteHeader(_ bytes: UnsafeRawBufferPointer) {
        guard !headerDone, var line = header else { return }
        line.append(contentsOf: bytes)
        if let end = lineUnits.firstLineEnd(in: line) {
            line.removeSubrange((end - lineUnits.width)...)
            line.removeFirst(lineUnits.markLength(line, ended: true) ?? 0)
            headerDone = true
            // JSON names its columns in every row: its first line is a row, never skipped.
            let first = line.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x00 }
            header = first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? nil : line
        } else if line.count > 1 << 16 {
            header = nil
            headerDone = true
        } else {
            header = line
        }
    }

    private var lineUnits: FollowUnits { units ?? FollowUnits() }

    /// How many held bytes can be handed out: up to the last line end (all of them, compressed).
    private var heldEnd: Int? { compressed ? (partial.isEmpty ? nil : partial.count) : lineUnits.lastLineEnd(in: partial) }

    /// A new file's first bytes: its byte order mark dropped once there are enough to tell, then
    /// its first line compared with the header.
    private func checkNewStart(ended: Bool) {
        if atNewStart {
            guard let mark = lineUnits.markLength(held, ended: ended) else { return }
            held.removeFirst(mark)
            atNewStart = false
        }
        if checkingHeader { compareHeader(ended: ended) }
    }

    /// A new file's first line, once read (or the file paused short of it): dropped when it is
    /// the first file's header again.
    private func compareHeader(ended: Bool) {
        guard let header else { checkingHeader = false; return }
        let width = lineUnits.width
        if let end = lineUnits.firstLineEnd(in: held) {
            var line = held[..<(end - width)]
            if line.suffix(width).elementsEqual(lineUnits.carriageReturn) && !header.suffix(width).elementsEqual(lineUnits.carriageReturn) {
                line = line.dropLast(width)
            }
            if line.elementsEqual(header) { held.removeFirst(end) }
            checkingHeader = false
        } else if ended || held.count > header.count + 2 * width {
            checkingHeader = false
        }
    }

    private func restart(_ news: String) {
        pendingLineFeed = !partial.isEmpty && !compressed
        atNewStart = true
        checkingHeader = headerDone && header?.isEmpty == false
        tell(news)
    }
}
