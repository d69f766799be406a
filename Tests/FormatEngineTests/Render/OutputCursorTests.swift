import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// The output cursor writes padding a word at a time, two words whatever the count
/// (`OutputBuffer.Cursor.spaces`): past the spaces it may write only into what comes next or the
/// buffer's spare bytes, never past them, and the spaces themselves are exactly where it says.
@Suite("Output cursor")
struct OutputCursorTests {
    @Test("P1: spaces are written where the cursor says, and nothing past the buffer's spare bytes, at every place and count")
    func spacesStayInside() {
        let capacity = 64, guardBytes = 32
        let total = capacity + OutputBuffer.spare + guardBytes
        let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: total)
        defer { memory.deallocate() }
        let end = memory + capacity
        for offset in 0...capacity {
            let at = memory + offset
            let room = capacity - offset
            for pending in 0...min(room, 20) {
                for more in 0...(room - pending) {
                    memory.initialize(repeating: 0xAB, count: total)
                    let cursor = OutputBuffer.Cursor(at: at, end: end, pending: pending)
                    let after = cursor.spaces(more)
                    #expect(after == at + pending + more)
                    #expect((0..<(pending + more)).allSatisfy { at[$0] == 0x20 })
                    #expect((0..<offset).allSatisfy { memory[$0] == 0xAB }, "before the cursor")
                    let guarded = (capacity + OutputBuffer.spare)..<total
                    #expect(guarded.allSatisfy { memory[$0] == 0xAB }, "past the spare bytes: at \(offset), \(pending) + \(more)")
                    if !guarded.allSatisfy({ memory[$0] == 0xAB }) { return }
                }
            }
        }
    }
}
