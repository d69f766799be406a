import Input
import Options
import Schedule
import Support
import Text
import Transform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TableSaver {
    /// What a save writes for one row of the new order: a block of the file's bytes (a run of
    /// untouched rows), or a row's text in the file's encoding without its line break.
    package enum Item {
        case block(Range<Int64>)
        case text([UInt8])
        /// Text that ends with its own line break, `breakLength` bytes (and may hold blank lines
        /// before it): taken off when the row is the last and the file must not end with one.
        case ended([UInt8], breakLength: Int)
    }

    /// The rows written in order, each ending with a line break but the last, which ends as the
    /// file's last row did (with a break, or without one).
    package struct Items {
        package let saver: TableSaver
        package let writer: Writer
        /// The file's line ending, in its encoding.
        package let lineEnding: [UInt8]
        /// The last row ends with a line break (the file's did, or bytes follow it).
        package let mustEndWithBreak: Bool
        /// The header row has no line break (a file of one line): one goes before the first row.
        package var headerNeedsBreak: Bool
        private var pending: Item?

        package init(saver: TableSaver, writer: Writer, lineEnding: [UInt8], mustEndWithBreak: Bool, headerNeedsBreak: Bool) {
            self.saver = saver
            self.writer = writer
            self.lineEnding = lineEnding
            self.mustEndWithBreak = mustEndWithBreak
            self.headerNeedsBreak = headerNeedsBreak
        }

        /// The next row (written once it is known whether it is the last).
        package mutating func add(_ item: Item) throws(SaveError) {
            if let pending { try emit(pending, last: false) }
            pending = item
        }

        /// No more rows: the last is written.
        package mutating func finish() throws(SaveError) {
            if let pending { try emit(pending, last: true) }
            pending = nil
        }

        private mutating func emit(_ item: Item, last: Bool) throws(SaveError) {
            if headerNeedsBreak {
                try writer.write(lineEnding)
                headerNeedsBreak = false
            }
            let wantBreak = !last || mustEndWithBreak
            switch item {
            case .text(let text):
                try writer.write(text)
                if wantBreak { try writer.write(lineEnding) }
            case .ended(let text, let breakLength):
                try writer.write(wantBreak ? text : Array(text.dropLast(breakLength)))
            case .block(let range):
                let unit = Int64(saver.dialect.unit)
                let ended = !range.isEmpty && saver.isBreak(at: range.upperBound - unit)
                if ended && !wantBreak {
                    // The file's last row had no line break: the row now last has none either.
                    let crlf = range.count >= 2 * unit && saver.isBreak(at: range.upperBound - 2 * unit)
                    try writer.copy(range.lowerBound..<(range.upperBound - (crlf ? 2 * unit : unit)))
                } else {
                    try writer.copy(range)
                    if !ended && wantBreak { try writer.write(lineEnding) }
                }
            }
        }
    }

    /// Buffered writes to the new file, and copies from the old one in large blocks. A failure
    /// names the file: the one written (`target`, as the user named it) or the one read.
    package final class Writer {
        private let out: Int32
        private let source: Int32
        private let target: String
        private let sourceName: String
        private var buffer: [UInt8] = []
        private var written: Int64 = 0
        private static let block = 1 << 22
        private lazy var chunk = [UInt8](repeating: 0, count: Self.block)
        /// Told the bytes written of about how many (the old file's size), and asked to stop.
        private let progress: (SaveProgress, total: Int64)?

        package init(out: Int32, source: Int32, target: String, sourceName: String, progress: (SaveProgress, total: Int64)? = nil) {
            self.out = out
            self.source = source
            self.target = target
            self.sourceName = sourceName
            self.progress = progress
            buffer.reserveCapacity(1 << 20)
        }

        /// The bytes written so far told; a save asked to stop throws here.
        private func advanced() throws(SaveError) {
            if let (progress, total) = self.progress { try progress.advance(written, of: total) }
        }

        package func write(_ bytes: [UInt8]) throws(SaveError) {
            buffer.append(contentsOf: bytes)
            if buffer.count >= 1 << 20 { try flush() }
        }

        /// Copies the old file's bytes `range`.
        package func copy(_ range: Range<Int64>) throws(SaveError) {
            guard !range.isEmpty else { return }
            if range.count < 1 << 16 {
                var bytes = [UInt8](repeating: 0, count: Int(range.count))
                guard readFully(source, into: &bytes, count: Int(range.count), at: range.lowerBound) else { throw readFailure() }
                return try write(bytes)
            }
            try flush()
            var at = range.lowerBound
            #if os(Linux)
            // The kernel copies the bytes itself, as cp does (no trip through this process).
            if lseek(out, off_t(written), SEEK_SET) == off_t(written) {
                // In blocks of 64 MiB when the save is watched (its progress, a stop).
                let most = Int64(progress == nil ? 1 << 30 : 1 << 26)
                while at < range.upperBound {
                    var from = off_t(at)
                    let n = sendfile(out, source, &from, Int(min(most, range.upperBound - at)))
                    guard n > 0 else { break }  // not possible here: read and written below
                    at += Int64(n)
                    written += Int64(n)
                    try advanced()
                }
            }
            #endif
            while at < range.upperBound {
                let n = Int(min(Int64(Self.block), range.upperBound - at))
                guard readFully(source, into: &chunk, count: n, at: at) else { throw readFailure() }
                try put(chunk, count: n)
                at += Int64(n)
            }
        }

        package func flush() throws(SaveError) {
            guard !buffer.isEmpty else { return }
            try put(buffer, count: buffer.count)
            buffer.removeAll(keepingCapacity: true)
        }

        private func put(_ bytes: [UInt8], count: Int) throws(SaveError) {
            let code = writeFully(out, from: bytes, count: count, at: written)
            guard code == 0 else { throw SaveError("\(target): write error: \(systemMessage(code))") }
            written += Int64(count)
            try advanced()
        }

        private func readFailure() -> SaveError { SaveError("\(sourceName): read error: \(systemMessage(errno))") }
    }
}
