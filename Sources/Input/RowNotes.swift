#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support

/// The sizing pass's notes of a file's rows (`RowIndex`), held for the drawing pass: in memory up
/// to `budget` bytes, past it in a temporary file under `TMPDIR`, unlinked as soon as it is made,
/// so that memory does not grow with the file (P2). Notes that cannot be written are dropped: the
/// drawing pass then reads their rows as before.
package final class RowNotes: @unchecked Sendable {
    /// Where a piece's notes are kept.
    package enum Place: @unchecked Sendable {
        case memory(ByteArray)
        /// At this offset of the temporary file.
        case file(Int64)
    }

    /// What is held in memory at most.
    package let budget: Int
    /// 4 MiB: about 300,000 rows of ten fields.
    @inlinable package static var defaultBudget: Int { 4 << 20 }
    private let directory: String
    private let state = Locked((held: 0, fd: Int32(-1), written: Int64(0), failed: false))

    package init(budget: Int = defaultBudget, directory: String = TemporaryFiles.directory) {
        self.budget = budget
        self.directory = directory
    }

    deinit {
        let fd = state.current.fd
        if fd >= 0 { close(fd) }
    }

    /// Keeps one sizing piece's notes (on either thread).
    /// - Parameter compacting: whether notes kept in memory are copied into a block of their size
    ///   (else they are kept in their own block, its spare room counted against the budget).
    ///   Either way the block's capacity is what is held (`forget`).
    /// - Returns: where they are, or nil when they could not be kept.
    package func keep(_ notes: ByteArray, compacting: Bool = true) -> Place? {
        let count = notes.count
        let held = compacting ? max(1, count) : notes.capacity  // a block holds at least one byte
        let spot = state.withLock { state -> (fd: Int32, offset: Int64)? in
            if state.held + held <= budget {
                state.held += held
                return nil
            }
            if state.fd < 0 && !state.failed {
                state.fd = unlinkedTemporaryFile(in: directory, prefix: "tablefmt-notes")
                state.failed = state.fd < 0
            }
            guard state.fd >= 0 else { return (-1, 0) }
            defer { state.written += Int64(count) }
            return (state.fd, state.written)
        }
        guard let spot else { return .memory(compacting ? notes.compacted() : notes) }
        guard spot.fd >= 0 else { return nil }
        let failure = notes.withUnsafeBufferPointer { writeFully(spot.fd, from: UnsafeRawBufferPointer($0), at: spot.offset) }
        return failure == 0 ? .file(spot.offset) : nil
    }

    /// Lets go of bytes kept, once used or not to be used (a piece read again joined with the one
    /// before): memory they held is free for others within the budget (a file's bytes stay where
    /// they are).
    package func forget(_ place: Place) {
        if case .memory(let bytes) = place { state.withLock { $0.held -= bytes.capacity } }
    }

    /// The temporary file notes past the budget are written to (-1 before the first), for a
    /// caller that copies bytes kept there straight to its output.
    package var fileDescriptor: Int32 { state.current.fd }

    /// `count` bytes of notes written at `offset`; nil when they cannot be read.
    package func read(at offset: Int64, count: Int) -> ByteArray? {
        let fd = state.current.fd
        var bytes = ByteArray()
        let read = bytes.append(atMost: count) { free in readFully(fd, into: UnsafeMutableRawBufferPointer(free), at: offset) ? free.count : nil }
        return read ? bytes : nil
    }
}
