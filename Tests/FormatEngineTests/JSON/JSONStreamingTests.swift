import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer
@testable import Input

/// A JSON array of `count` small objects, made on the fly as it is read (never held whole):
/// `[{"id":0,"t":[1,true]},{"id":1,"t":[1,true]},…]` on one line.
final class GeneratedArraySource: ByteSource {
    let count: Int
    private var next = 0
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var closed = false

    init(count: Int) {
        self.count = count
        pending = [UInt8(ascii: "[")]
    }

    func read(into buffer: inout OutputRawSpan) throws(InputError) {
        while !buffer.isFull {
            if pendingStart == pending.count {
                pending.removeAll(keepingCapacity: true)
                pendingStart = 0
                if next < count {
                    if next > 0 { pending.append(UInt8(ascii: ",")) }
                    pending.append(contentsOf: #"{"id":\#(next),"t":[1,true]}"#.utf8)
                    next += 1
                } else if !closed {
                    pending.append(UInt8(ascii: "]"))
                    closed = true
                } else {
                    break
                }
            }
            let n = min(buffer.freeCapacity, pending.count - pendingStart)
            for byte in pending[pendingStart..<(pendingStart + n)] { buffer.append(byte) }
            pendingStart += n
        }
    }
}

@Suite("JSONReader streaming")
struct JSONStreamingTests {
    @Test("I4/I7: a million-element array streams with bounded memory")
    func millionRows() throws {
        let count = 1_000_000
        let stream = InputStream(GeneratedArraySource(count: count), chunkSize: 1 << 16)
        var reader = JSONReader(stream: stream, linesMode: nil, sourceName: "gen.json")
        var record = Record()
        var rows = 0
        var largestRetained = 0
        var last: [String] = []
        while try reader.read(into: &record) {
            if rows == 0 { #expect(record.strings == ["0", "1, true"]) }
            if rows == count - 1 { last = record.strings }
            if rows % 100_000 == 0 { largestRetained = max(largestRetained, reader.retainedCapacity) }
            rows += 1
        }
        #expect(rows == count)
        #expect(last == ["\(count - 1)", "1, true"])
        #expect(reader.columnNames == ["id", "t"])
        // Buffers sized by one element, not by the input (~25 MB).
        #expect(record.bytes.capacity < 256)
        #expect(largestRetained < 4096)
        #expect(reader.retainedCapacity < 4096)
        // The stream holds at most the auto-mode lookahead over the first line plus a chunk.
        #expect(stream.capacity <= 4 * JSONReader.lookaheadLimit)
    }

    @Test("I4/I7: JSON Lines stream row by row")
    func manyLines() throws {
        var text = ""
        for i in 0..<20_000 { text += #"{"n":\#(i),"s":"\#(String(repeating: "x", count: i % 50))"}"# + "\n" }
        let stream = InputStream(MemorySource(text, chunkSize: 1000), chunkSize: 4096)
        var reader = JSONReader(stream: stream, linesMode: nil, sourceName: "gen.jsonl")
        var record = Record()
        var rows = 0
        while try reader.read(into: &record) {
            #expect(record.line == rows + 1)
            rows += 1
        }
        #expect(rows == 20_000)
        #expect(reader.retainedCapacity < 4096)
    }
}
