import Save
import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
/// An input whose first bytes were read ahead, to decide whether a table fits the screen before
/// anything is drawn (V1), then handed on whole: the bytes read, then the rest of the stream.
package final class PeekedInput: InputProvider {
    package let name: String
    package let path: String?
    /// The bytes read ahead.
    package let head: [UInt8]
    /// Whether `head` is the whole input.
    package let ended: Bool
    /// Whether the writer paused before `head` filled (a pipe fed slowly, `tail -f`).
    package let paused: Bool
    /// The read ahead was given up (`abandoned`): nothing is to be shown.
    package let isAbandoned: Bool
    private let rest: (any ByteSource)?
    private var opened = false

    /// Reads `input` ahead, up to `limit` bytes, stopping early when a pipe's writer pauses for
    /// `pause` milliseconds after its first byte, or (a writer that never pauses, V1) once more than `lines` lines are
    /// read or `within` milliseconds have passed since the first byte came.
    /// `abandoned` is asked at each wait: true (the terminal it was for has gone) ends the read
    /// there, `isAbandoned` set.
    package init(_ input: some InputProvider, limit: Int, pause: Int, lines: Int = .max, within: Int = .max,
                 abandoned: () -> Bool = { false }) throws(InputError) {
        name = input.name
        path = input.path
        let source = try input.open()
        var head: [UInt8] = []
        var ended = false
        var paused = false
        var gone = false
        var lineCount = 0
        var firstByte: ContinuousClock.Instant?
        while head.count < limit {
            // A writer that never pauses: what came within the time is enough to open the view.
            if within < .max, let firstByte, ContinuousClock.now - firstByte >= .milliseconds(within) { break }
            // A pause counts once the writer has begun: a slow start (a query, `sleep 2; …`) is
            // waited for, not taken for a stream that pauses (V1).
            if !source.isReady && !source.waitUntilReady(milliseconds: pause) {
                if abandoned() {
                    gone = true
                    break
                }
                if firstByte != nil {
                    paused = true
                    break
                }
                continue  // not begun yet: waited for again (a read now would block)
            }
            let before = head.count
            if try source.read(appendingTo: &head, atMost: min(1 << 16, limit - head.count)) == 0 {
                ended = true
                break
            }
            if firstByte == nil { firstByte = .now }
            lineCount += head[before...].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            if lineCount > lines { break }
        }
        self.head = head
        self.ended = ended
        self.paused = paused
        isAbandoned = gone
        rest = ended ? nil : source
    }

    /// Whole in memory, it can be read again; otherwise once.
    package var isRereadable: Bool { ended }

    /// Lines read ahead (line breaks in `head`).
    package var lines: Int { head.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }

    package func open() throws(InputError) -> any ByteSource {
        if let rest {
            guard !opened else { throw InputError(.readFailed, "cannot read again", source: name) }
            opened = true
            return PrefixedSource(head, then: rest)
        }
        return MemorySource(head)
    }
}
