#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer
import Support

/// `OutputBuffer.copy(fromFile:)`: bytes of a file written to the output as if written from
/// memory, straight from the file where the sink can (`DescriptorSink` on Linux: `sendfile`), read
/// through the buffer where it cannot (memory, a file opened to append). `--group-by` writes the
/// chunks it kept on disk so (W12, P2).
@Suite("Output copied from a file")
struct OutputCopyTests {
    /// Where output goes.
    enum Target: CaseIterable {
        case memory, file, appended, pipe
    }

    /// What `body` writes to a sink of `target`.
    static func output(_ target: Target, _ body: (any OutputSink) throws -> Void) throws -> [UInt8] {
        switch target {
        case .memory:
            let sink = MemorySink()
            try body(sink)
            return sink.bytes
        case .file, .appended:
            let url = try FilePiecesTests.file(Array("before\n".utf8), "copy-target")
            let flags = target == .file ? O_WRONLY | O_TRUNC : O_WRONLY | O_APPEND
            let fd = open(url.path, flags)
            #expect(fd >= 0)
            defer { close(fd) }
            try body(DescriptorSink(fd: fd))
            let written = try [UInt8](Data(contentsOf: url))
            // Appended after what the file held; a truncated file holds only the output.
            return target == .file ? written : Array(written.dropFirst("before\n".utf8.count))
        case .pipe:
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            let reader = ends[0]
            let collected = Locked([UInt8]())
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                var block = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let n = read(reader, &block, block.count)
                    if n <= 0 { break }
                    collected.withLock { $0 += block[0..<n] }
                }
                close(reader)
                done.signal()
            }
            do {
                try body(DescriptorSink(fd: ends[1]))
            } catch {
                close(ends[1])
                throw error
            }
            close(ends[1])
            done.wait()
            return collected.current
        }
    }

    @Test("W12, P2: bytes copied from a file (chunks kept on disk), between writes and held-back spaces, are what writing them from memory gives, to memory, a file, an appended file and a pipe (seeded)",
          arguments: Target.allCases)
    func sameAsWritten(_ target: Target) throws {
        var rng = SplitMix64(seed: 0xC0_97 + UInt64(Target.allCases.firstIndex(of: target)!))
        let source = (0..<300_000).map { _ in UInt8(32 + rng.below(90)) }
        let url = try FilePiecesTests.file(source, "copy-source")
        let fd = open(url.path, O_RDONLY)
        #expect(fd >= 0)
        defer { close(fd) }
        for trial in 0..<12 {
            // Pieces of the file (empty, small, past the buffer's 64 KiB) among text and spaces.
            let pieces = (0..<(1 + rng.below(5))).map { _ -> (offset: Int, count: Int, spaces: Int) in
                let count = [0, 1, 100, 70_000, 150_000][rng.below(5)]
                return (rng.below(source.count - count + 1), count, rng.below(3) == 0 ? rng.below(9) : 0)
            }
            let copied = try Self.output(target) { sink in
                let out = OutputBuffer(sink)
                for piece in pieces {
                    try out.write("row \(trial)")
                    out.pad(piece.spaces)
                    #expect(try out.copy(fromFile: fd, at: Int64(piece.offset), count: piece.count))
                }
                try out.newline()
                try out.flush()
            }
            let written = try Self.output(.memory) { sink in
                let out = OutputBuffer(sink)
                for piece in pieces {
                    try out.write("row \(trial)")
                    out.pad(piece.spaces)
                    try source[piece.offset..<(piece.offset + piece.count)].withUnsafeBufferPointer { try out.write($0) }
                }
                try out.newline()
                try out.flush()
            }
            #expect(copied == written, "trial \(trial): \(pieces)")
        }
    }

    @Test("W12, P2: a copy past the file's end is said (false), not taken for the whole, nothing of it written, to any sink",
          arguments: Target.allCases)
    func pastTheEnd(_ target: Target) throws {
        let url = try FilePiecesTests.file(Array("0123456789".utf8), "copy-short")
        let fd = open(url.path, O_RDONLY)
        defer { close(fd) }
        var copied: Bool?
        let written = try Self.output(target) { sink in
            let out = OutputBuffer(sink)
            try out.write("ab")
            copied = try out.copy(fromFile: fd, at: 4, count: 20)
            try out.flush()
        }
        #expect(copied == false)
        #expect(written == Array("ab".utf8))
    }

    @Test("W12, P2: a file grouped with its chunks kept on disk prints to a file, an appended file and a pipe what it prints to memory (seeded)",
          arguments: [Target.file, .appended, .pipe])
    func groupsFromDisk(_ target: Target) throws {
        var rng = SplitMix64(seed: 0x6A5)
        for trial in 0..<4 {
            let url = try FilePiecesTests.file(GroupedPiecesTests.file(&rng, trial: trial, groups: 2 + rng.below(5)))
            let expected = try GroupedPiecesTests.run(url, pieceBytes: nil) { _ in }
            var options = FormatOptions()
            options.width = 0
            options.groupBy = ColumnReference("grp")
            options.pipeline.pieceBytes = 500
            options.memoryLimit = 4096  // most chunks kept on disk
            var pieces = 0
            let got = try Self.output(target) { sink in
                let result = try TableFormatter.run(try FileInput(path: url.path), options: options, output: sink)
                pieces = result.pieces
            }
            #expect(pieces > 1, "read in pieces")
            #expect(String(decoding: got, as: UTF8.self) == expected.text, "trial \(trial)")
        }
    }
}
