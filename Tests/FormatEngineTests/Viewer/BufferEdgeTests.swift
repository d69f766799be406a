import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer
@testable import Input

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support

/// Issue 44: files of every size around each buffer the view's open, edit and save use (4 KiB
/// probes, 64 KiB blocks and samples, the 384 KiB below which a file is hashed whole, the saver's
/// 1 MiB batches) open, edit and save to exactly the bytes meant, and no read reaches past a
/// buffer (`make test-sanitize` runs these under AddressSanitizer, where such a read is an error).
@Suite("Viewer: files at every buffer's edge", .serialized)
struct BufferEdgeTests {
    /// The sizes: each buffer's n − 1, n, n + 1.
    static let buffers: [Int] = [4096, 65536, 131072, 393216, 1_048_576]
    static let sizes: [Int] = [0, 1, 2] + buffers.flatMap { (n: Int) -> [Int] in [n - 1, n, n + 1] }

    /// A CSV file of exactly `size` bytes: `a,b`, then rows `k,x…` of 20 to 40 bytes, the last
    /// padded to the size (at 1 and 2 bytes, a header alone).
    static func text(size: Int) -> [UInt8] {
        guard size > 4 else { return Array("a,b\n".utf8.prefix(size)) }
        var out = Array("a,b\n".utf8)
        var k = 1
        while out.count < size {
            let left = size - out.count
            var row = Array("\(k),".utf8)
            // A line of 20 to 40 bytes, or what is left (at least the key, a comma and a line feed).
            let length = left < 48 ? left : 20 + k % 21
            if length < row.count + 1 {
                // Too little room for another row: the last row's field grows instead.
                out.removeLast()
                out += Array(repeating: UInt8(ascii: "y"), count: left) + [0x0A]
                break
            }
            row += Array(repeating: UInt8(ascii: "x"), count: length - row.count - 1) + [0x0A]
            out += row
            k += 1
        }
        precondition(out.count == size)
        return out
    }

    static func file(_ bytes: [UInt8], _ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-edge-\(getpid())-\(name).csv")
        try Data(bytes).write(to: url)
        return url
    }

    @Test("Issue 44: the generated files are the sizes asked for, rows of 20 to 40 bytes", arguments: sizes)
    func generatedSizes(size: Int) {
        let bytes = Self.text(size: size)
        #expect(bytes.count == size)
        if size > 48 { #expect(bytes.split(separator: 0x0A).dropFirst().allSatisfy { $0.count >= 19 }) }
    }

    @Test("V10, issue 44: a file of every edge size opens in the view, its first row's b edited and saved: only that field differs, every other byte kept", arguments: sizes)
    func openEditSave(size: Int) throws {
        let original = Self.text(size: size)
        let url = try Self.file(original, "edit-\(size)")
        defer { try? FileManager.default.removeItem(at: url) }
        let model = ViewEditTests.saving(try FileInput(path: url.path))
        let lines = original.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard lines.count > 2 else {
            // A header alone (or nothing): nothing to edit; the view opens and quits.
            ViewEditTests.type(model, "q")
            #expect(model.exit == .quit)
            #expect(try Data(contentsOf: url) == Data(original))
            return
        }
        model.handle(.right)
        ViewEditTests.type(model, "e")
        model.handle(.control("u"))
        ViewEditTests.type(model, "EDITED")
        model.handle(.enter)
        ViewEditTests.type(model, "w")
        #expect(model.state.message == "saved to \(url.path)")
        // Independently: line 2's field after its comma replaced, the rest as it was.
        let second = lines[1]
        let comma = second.firstIndex(of: UInt8(ascii: ","))!
        let edited = Array(second[..<comma]) + Array(",EDITED".utf8)
        let expected = Array(lines[0]) + [0x0A] + edited + [0x0A] + Array(lines.dropFirst(2).joined(separator: [0x0A]))
        let saved = try [UInt8](Data(contentsOf: url))
        #expect(saved.count == expected.count)
        #expect(saved == expected)
        ViewEditTests.type(model, "q")
        #expect(model.exit == .quit)
    }

    @Test("V10, issue 44: a file's identity at every edge size: the same file twice alike; one byte changed anywhere below 384 KiB (hashed whole), or in a sampled place above, differs", arguments: sizes)
    func identityAtEdges(size: Int) throws {
        let original = Self.text(size: size)
        let url = try Self.file(original, "identity-\(size)")
        defer { try? FileManager.default.removeItem(at: url) }
        func sample(_ bytes: [UInt8]) throws -> Int {
            try Data(bytes).write(to: url)
            let fd = open(url.path, O_RDONLY)
            defer { close(fd) }
            return SaveFile.sample(fd, size: Int64(bytes.count))
        }
        let first = try sample(original)
        #expect(try sample(original) == first)
        guard size > 0 else { return }
        let whole = size <= 2 * (1 << 16) + 64 * 4096
        // The first byte, the last, and (below the sampled size) each buffer's edge inside the file.
        var places = [0, size - 1]
        if whole { places += [4095, 4096, 65535, 65536, 65537, 131071, 131072, 200_000].filter { $0 < size } }
        for at in places {
            var changed = original
            changed[at] ^= 0x01
            #expect(try sample(changed) != first, "a byte changed at \(at) of \(size)")
        }
    }

    @Test("Issue 44: a read or write whose count is past its buffer stops the program instead of writing past it")
    func countPastBufferTraps() async {
        await #expect(processExitsWith: .failure) {
            var buffer = [UInt8](repeating: 0, count: 16)
            let fd = open("/dev/zero", O_RDONLY)
            _ = readFully(fd, into: &buffer, count: 17, at: 0)
        }
        await #expect(processExitsWith: .failure) {
            var buffer = [UInt8](repeating: 0, count: 16)
            let fd = open("/dev/zero", O_RDONLY)
            _ = positionedRead(fd, into: &buffer, count: 17, at: 0)
        }
        await #expect(processExitsWith: .failure) {
            let fd = open("/dev/null", O_WRONLY)
            _ = writeFully(fd, from: [1, 2, 3], count: 4, at: 0)
        }
        await #expect(processExitsWith: .failure) {
            var bytes = ByteArray()
            _ = bytes.append(atMost: 4) { _ in 5 }
        }
    }

    @Test("Issue 46: a block's prefix (the pieces' drawn output handed to the writer) is its first n bytes at n − 1 and n, and n + 1 stops the program")
    func blockPrefixAtItsEdges() async {
        let block = ByteArray.Storage(capacity: 64)
        for k in 0..<64 { block.pointer[k] = UInt8(k) }
        for n in [0, 1, 63, 64] {
            #expect(Array(block.prefix(n)) == (0..<n).map { UInt8($0) })
        }
        await #expect(processExitsWith: .failure) {
            let block = ByteArray.Storage(capacity: 64)
            _ = block.prefix(65)
        }
        await #expect(processExitsWith: .failure) {
            let block = ByteArray.Storage(capacity: 64)
            _ = block.prefix(-1)
        }
    }

    @Test("Issue 46: a growable array filled to its block's size less one, the size, and one past (the block grown by realloc into a new Storage) keeps every element; a block grown twice stops the program")
    func growthAtItsEdges() async {
        for n in [15, 16, 17, 63, 64, 65, 4095, 4096, 4097] {
            var words = GrowableArray<Int>()
            words.reserve(n)
            let capacity = words.capacity
            for k in 0..<(capacity + 1) { words.append(k &* 7) }  // the last append grows the block
            #expect(words.count == capacity + 1)
            #expect(words.indices.allSatisfy { words[$0] == $0 &* 7 }, "n \(n)")
            var copy = words  // copy on write: the copy's block is its own after an append
            copy.append(-1)
            #expect(words.count == capacity + 1 && copy.count == capacity + 2 && copy[capacity] == capacity &* 7)
        }
        await #expect(processExitsWith: .failure) {
            let block = GrowableArray<Int>.Storage(capacity: 8)
            _ = block.grown(to: 16)
            _ = block.grown(to: 32)
        }
    }

    @Test("Issue 46: a held row is found in a block of exactly its words (its fields read back), and in a block one word short of it, or from a start one word on, stops the program")
    func heldRowAtItsEdges() async {
        // Rows of 0 to 3 fields, 0 to 17 bytes: 2 + fields + ⌈bytes / 8⌉ words each, back to back.
        let rows: [[String]] = [[], [""], ["ab", "cde"], ["a", "", "0123456789abcdef"], ["é€"]]
        var words = GrowableArray<Int>()
        var starts: [Int] = []
        for (k, row) in rows.enumerated() {
            starts.append(words.count)
            Record(row).withFields { RowWords.append(row: k, $0, to: &words) }
        }
        starts.append(words.count)
        words.withUnsafeBufferPointer { all in
            for k in rows.indices {
                // The block ends where the row ends (n), and one row later (n + the next row).
                for end in [starts[k + 1], words.count] {
                    let row = RowWords.row(at: starts[k], in: UnsafeBufferPointer(rebasing: all[0..<end]))
                    #expect(row[0] == k && RowWords.length(row) == starts[k + 1] - starts[k])
                    #expect(Record(RowWords.fields(row)).strings == rows[k], "row \(k)")
                }
            }
        }
        // One word short of the row's end (n − 1): its bytes' last word, or its field ends.
        await #expect(processExitsWith: .failure) {
            var words = GrowableArray<Int>()
            Record(["ab", "cde"]).withFields { RowWords.append(row: 0, $0, to: &words) }
            words.withUnsafeBufferPointer { all in _ = RowWords.row(at: 0, in: UnsafeBufferPointer(rebasing: all[0..<(all.count - 1)])) }
        }
        await #expect(processExitsWith: .failure) {
            var words = GrowableArray<Int>()
            Record(["a", "", "0123456789abcdef"]).withFields { RowWords.append(row: 0, $0, to: &words) }
            words.withUnsafeBufferPointer { all in _ = RowWords.row(at: 0, in: UnsafeBufferPointer(rebasing: all[0..<3])) }
        }
        // A start one word on (n + 1): its header is read from the wrong words and runs past the block.
        await #expect(processExitsWith: .failure) {
            var words = GrowableArray<Int>()
            Record(["ab", "cde"]).withFields { RowWords.append(row: 0, $0, to: &words) }
            words.withUnsafeBufferPointer { all in _ = RowWords.row(at: all.count - 1, in: all) }
        }
    }

    @Test("Issue 44: reads and writes at their buffer's size and one byte less take exactly those bytes")
    func countsWithinBuffer() throws {
        let original = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let url = try Self.file(original, "io")
        defer { try? FileManager.default.removeItem(at: url) }
        let fd = open(url.path, O_RDWR)
        defer { close(fd) }
        for n in [0, 1, 4095, 4096, 65535, 65536] {
            var buffer = [UInt8](repeating: 0xAA, count: n + 1)
            #expect(readFully(fd, into: &buffer, count: n, at: 3))
            #expect(Array(buffer[0..<n]) == Array(original[3..<(3 + n)]))
            #expect(buffer[n] == 0xAA, "nothing written past the count")
        }
        var tooFar = [UInt8](repeating: 0, count: 10)
        #expect(!readFully(fd, into: &tooFar, count: 10, at: Int64(original.count - 5)), "the file ends first")
        var notes = ByteArray()
        #expect(notes.append(atMost: 100) { free in readFully(fd, into: UnsafeMutableRawBufferPointer(free), at: 0) ? free.count : nil })
        #expect(notes.count == 100)
        #expect(notes.withUnsafeBufferPointer { Array($0) } == Array(original[0..<100]))
    }
}
