import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support

/// V1: before the view opens, the input is read ahead to see whether it fits the screen; a pipe
/// whose writer never pauses must not keep the view from opening.
@Suite("Viewer: reading ahead before the view opens", .serialized)
struct PeekedInputTests {
    /// A pipe written on another thread: a header, then a row every `every` milliseconds until
    /// `stop` is set (the read end is returned; the writer closes its end when stopped).
    static func steadyPipe(every: Int, stop: Locked<Bool>) -> Int32 {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let writer = ends[1]
        Thread.detachNewThread {
            _ = "name,qty\n".withCString { write(writer, $0, strlen($0)) }
            var k = 0
            while !stop.current {
                let row = "r\(k),\(k)\n"
                _ = row.withCString { write(writer, $0, strlen($0)) }
                k += 1
                usleep(useconds_t(every * 1000))
            }
            close(writer)
        }
        return ends[0]
    }

    @Test("V1: a pipe that never pauses (a row every 100 ms) is read ahead for about a second, not until it ends: neither ended nor paused, so the view opens")
    func steadyWriterStopsWithinASecond() throws {
        let stop = Locked(false)
        defer { stop.withLock { $0 = true } }
        let fd = Self.steadyPipe(every: 100, stop: stop)
        defer { close(fd) }
        let start = ContinuousClock.now
        let peeked = try PeekedInput(FileInput(path: "/dev/fd/\(fd)"), limit: 1 << 20, pause: 200, lines: 24, within: 1000)
        let elapsed = ContinuousClock.now - start
        #expect(!peeked.ended && !peeked.paused)
        #expect(elapsed < .milliseconds(1500), "\(elapsed)")
        #expect(elapsed >= .milliseconds(900), "\(elapsed)")
        #expect((8...13).contains(peeked.lines), "about a second of rows and the header: \(peeked.lines)")
    }

    @Test("V1: a fast steady pipe is read ahead until it holds more lines than the screen, then the view opens")
    func fastWriterStopsPastAScreen() throws {
        let stop = Locked(false)
        defer { stop.withLock { $0 = true } }
        let fd = Self.steadyPipe(every: 5, stop: stop)
        defer { close(fd) }
        let peeked = try PeekedInput(FileInput(path: "/dev/fd/\(fd)"), limit: 1 << 20, pause: 200, lines: 24, within: 1000)
        #expect(!peeked.ended && !peeked.paused)
        #expect(peeked.lines > 24 && peeked.lines < 60, "\(peeked.lines)")
    }

    @Test("V1: a writer that starts late (a query, `sleep 2; …`) and then writes more than a screen is not taken as paused: the view opens")
    func lateStartIsNotAPause() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let writer = ends[1]
        Thread.detachNewThread {
            usleep(700_000)  // longer than the pause
            let text = "name,qty\n" + (0..<50).map { "r\($0),\($0)\n" }.joined()
            _ = text.withCString { write(writer, $0, strlen($0)) }
        }
        let peeked = try PeekedInput(FileInput(path: "/dev/fd/\(ends[0])"), limit: 1 << 20, pause: 200, lines: 24, within: 1000)
        #expect(!peeked.paused && !peeked.ended)
        #expect(peeked.lines == 51)
    }

    @Test("V1: a writer that pauses still leaves the read-ahead paused (printed when it fits, P4)")
    func pausingWriterIsPaused() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        _ = "name,qty\na,1\n".withCString { write(ends[1], $0, strlen($0)) }
        let peeked = try PeekedInput(FileInput(path: "/dev/fd/\(ends[0])"), limit: 1 << 20, pause: 200, lines: 24, within: 1000)
        #expect(peeked.paused && !peeked.ended)
        #expect(peeked.lines == 2)
    }
}
