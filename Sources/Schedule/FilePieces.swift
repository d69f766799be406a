import Input
import Support
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Support

/// Bytes `start..<end` of a regular file, read by offset (`pread`), so that several pieces of one
/// file can be read at once. At its end the file must still be as it was when first opened (I7):
/// a file written to meanwhile stops the read with `file changed while reading` (exit 74).
package final class RangeSource: ByteSource {
    private let file: RandomAccess
    private let name: String
    private var offset: Int64
    private let end: Int64

    /// Offsets count from the input's start (`file.start`).
    package init(_ file: RandomAccess, name: String, from start: Int64, to end: Int64) {
        self.file = file
        self.name = name
        offset = start
        self.end = end
    }

    /// Appends the next bytes; nothing at the end.
    package func read(into buffer: inout OutputRawSpan) throws(InputError) {
        try buffer.appendFilling { (free) throws(InputError) in try fill(free) }
    }

    /// Reads the next bytes into `buffer` by offset. - Returns: how many; 0 at the piece's end.
    private func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let wanted = Int(min(Int64(buffer.count), end - offset))
        if wanted <= 0 {
            try DescriptorSource.check(file.fd, against: file.identity, name: name)
            return 0
        }
        while true {
            let n = positionedRead(file.fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), at: file.start + offset)
            if n > 0 {
                offset += Int64(n)
                return n
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw InputError(.readFailed, "read error: \(systemMessage(errno))", source: name) }
            // The file ends before the piece does: it has been cut since it was opened.
            try DescriptorSource.check(file.fd, against: file.identity, name: name)
            throw InputError.fileChanged(nil, source: name)
        }
    }
}

/// A regular file's rows cut into pieces that two threads read at once (P1: sizing, then drawing,
/// on both cores). A cut is placed just after a line feed, which starts a row unless it lies in a
/// quoted field that spans lines: each piece is read by a reader of its own that starts there, and
/// a piece whose reader does not end cleanly at the next cut (an unterminated quoted field) shows
/// the cut was inside a row: that piece is read again joined with the next (`FormatRun.sizeAll`).
/// The first pass finds that out, and notes where rows start about every MiB inside its pieces; the
/// second reads pieces cut there, known to start at rows, and writes them in order.
package struct FilePieces {
    package let file: RandomAccess
    /// Offsets (from the input's start) where the pieces start; the last is where the input ends.
    package let cuts: [Int64]
    /// Rows before each piece, once the first pass has counted them; the last is every row.
    package var rowsBefore: [Int] = []
    /// Each piece's rows as the first pass noted them (CSV and TSV), once it has read them; nil
    /// for a piece whose rows could not all be noted.
    package var indexes: [RowIndex.Slice?] = []

    package init(file: RandomAccess, cuts: [Int64], rowsBefore: [Int] = [], indexes: [RowIndex.Slice?] = []) {
        self.file = file
        self.cuts = cuts
        self.rowsBefore = rowsBefore
        self.indexes = indexes
    }

    package var count: Int { cuts.count - 1 }

    /// Pieces of about `size` bytes from `start` (the first row after the header) to the end.
    /// - Returns: nil when the file is too small for two pieces, or cannot be read.
    package static func cut(_ file: RandomAccess, from start: Int64, size: Int) -> FilePieces? {
        let end = file.identity.size - file.start
        guard size > 0, end - start > Int64(size) else { return nil }
        var cuts = [start]
        var probe = [UInt8](repeating: 0, count: 4096)
        var next = start + Int64(size)
        search: while next < end {
            var at = next
            while at < end {
                let n = positionedRead(file.fd, into: &probe, count: Int(min(Int64(probe.count), end - at)), at: file.start + at)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return nil }
                if let k = probe[0..<n].firstIndex(of: 0x0A) {
                    let cut = at + Int64(k) + 1
                    if cut >= end { break search }
                    cuts.append(cut)
                    next = cut + Int64(size)
                    continue search
                }
                at += Int64(n)
            }
            break
        }
        guard cuts.count > 1 else { return nil }
        cuts.append(end)
        return FilePieces(file: file, cuts: cuts)
    }

    /// Piece `k`'s bytes, for a reader of its own.
    package func source(_ k: Int, name: String) -> RangeSource {
        RangeSource(file, name: name, from: cuts[k], to: cuts[k + 1])
    }

    /// Runs `work(k)` for every piece, on this thread and one more, each thread taking the next
    /// piece when it is done with one; returns when both are done. `work` runs on two threads at
    /// once, each on a different piece.
    package static func onBothCores(count: Int, _ work: @escaping @Sendable (Int) -> Void) {
        let next = Locked(0)
        let helperDone = DispatchSemaphore(value: 0)
        let loop: @Sendable () -> Void = {
            while true {
                let k = next.withLock { k -> Int in
                    defer { k += 1 }
                    return k
                }
                guard k < count else { return }
                work(k)
            }
        }
        HelperThread.start {
            loop()
            helperDone.signal()
        }
        loop()
        helperDone.wait()
    }
}
