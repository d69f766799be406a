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

/// A followed file's bytes (I10), read on a thread while the test appends, rotates and truncates
/// it: with the system's events (inotify, kqueue) and with the polling fallback.
@Suite("Input: a followed file", .serialized)
struct FollowSourceTests {
    /// What a reader of a followed file got, and the news it was told.
    final class Result: @unchecked Sendable {
        let bytes = Locked<[UInt8]>([])
        let news = Locked<[String]>([])
        var text: String { String(decoding: bytes.current, as: UTF8.self) }
    }

    /// Follows `initial` (written to a new file) while `steps` change it, each followed by a
    /// wait until the reader has `waitFor` in what it read (or 5 s); then stops the reader.
    static func follow(_ initial: String, events: Bool, skipsHeader: Bool, steps: [(change: (String) -> Void, waitFor: String)]) throws -> Result {
        try follow(bytes: Array(initial.utf8), events: events, skipsHeader: skipsHeader, steps: steps)
    }

    static func follow(bytes initial: [UInt8], events: Bool, skipsHeader: Bool, steps: [(change: (String) -> Void, waitFor: String)]) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-followsource-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("log.csv").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(initial)))
        var stop: [Int32] = [-1, -1]
        #expect(pipe(&stop) == 0)
        defer { close(stop[0]); close(stop[1]) }
        let result = Result()
        let source = FollowSource(fd: open(path, O_RDONLY), path: path, name: "log.csv", stop: stop[0], skipsRepeatedHeader: skipsHeader, events: events) { news in
            result.news.withLock { $0.append(news) }
        }
        let done = DispatchSemaphore(value: 0)
        FollowPipeTests.readAll(SourceBox(source), into: result, done: done)
        for step in steps {
            step.change(path)
            let deadline = Date().addingTimeInterval(5)
            let wanted = Array(step.waitFor.utf8)
            while !Self.contains(result.bytes.current, wanted) && Date() < deadline { usleep(5_000) }
            usleep(150_000)  // every look of the polling fallback has seen the change
        }
        var byte: UInt8 = 1
        _ = write(stop[1], &byte, 1)
        #expect(done.wait(timeout: .now() + 5) == .success)
        return result
    }

    /// Whether `bytes` hold `part` (bytes: a String's search would read them as text).
    static func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        guard bytes.count >= part.count else { return false }
        return (0...(bytes.count - part.count)).contains { bytes[$0..<($0 + part.count)].elementsEqual(part) }
    }

    static func append(bytes: [UInt8]) -> (String) -> Void {
        { path in
            let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
    }

    /// `text` in UTF-16, little-endian, no byte order mark; `mark` is the mark.
    static func le(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }
    static let mark: [UInt8] = [0xFF, 0xFE]
    /// How bytes read show in `Result.text`, to wait for.
    static func shown(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("I10: a UTF-16 file truncated: its unended last line ended by a whole line feed unit, nothing else injected", arguments: [true, false])
    func utf16Truncated(events: Bool) throws {
        let result = try Self.follow(bytes: Self.mark + Self.le("id,name\n1,a\n2,b"), events: events, skipsHeader: true, steps: [
            ({ _ in }, Self.shown(Self.le("1,a\n"))),  // the first file read before it is truncated
            ({ path in truncate(path, 0) }, Self.shown(Self.le("1,a\n"))),
            (Self.append(bytes: Self.le("3,c\n4,d\n")), Self.shown(Self.le("4,d\n"))),
        ])
        #expect(result.bytes.current == Self.mark + Self.le("id,name\n1,a\n2,b\n3,c\n4,d\n"))
    }

    @Test("I10: a UTF-16 file rotated: the new file's byte order mark dropped, its repeated header skipped", arguments: [true, false])
    func utf16Rotated(events: Bool) throws {
        let result = try Self.follow(bytes: Self.mark + Self.le("id,name\n1,a\n"), events: events, skipsHeader: true, steps: [
            ({ path in
                rename(path, path + ".1")
                FileManager.default.createFile(atPath: path, contents: Data(Self.mark + Self.le("id,name\n2,b\n")))
            }, Self.shown(Self.le("2,b\n"))),
        ])
        #expect(result.bytes.current == Self.mark + Self.le("id,name\n1,a\n2,b\n"))
    }

    @Test("I10: a UTF-8 byte order mark at a rotated file's start is dropped, its header skipped (with or without one in the first file)",
          arguments: [("\u{FEFF}", true), ("", true), ("\u{FEFF}", false), ("", false)])
    func utf8MarkRotated(first: String, events: Bool) throws {
        let result = try Self.follow(first + "id,name\n1,a\n", events: events, skipsHeader: true, steps: [
            ({ path in
                rename(path, path + ".1")
                try? "\u{FEFF}id,name\n2,b\n".write(toFile: path, atomically: false, encoding: .utf8)
            }, "2,b\n"),
        ])
        #expect(result.text == first + "id,name\n1,a\n2,b\n")
    }

    static func append(_ text: String) -> (String) -> Void {
        { path in FollowPrintTests.append(text, to: path) }
    }

    @Test("I10: appended rows, a rotation (the repeated header skipped, the old file's unended last line ended), a truncation", arguments: [true, false])
    func rotateAndTruncate(events: Bool) throws {
        let result = try Self.follow("name,qty\na,1\n", events: events, skipsHeader: true, steps: [
            (Self.append("b,2\n"), "b,2\n"),
            (Self.append("c,3"), "b,2\n"),  // held until the rotation ends it
            ({ path in
                rename(path, path + ".1")
                try? "name,qty\nd,4\n".write(toFile: path, atomically: false, encoding: .utf8)
            }, "d,4\n"),
            ({ path in truncate(path, 0) }, "d,4\n"),
            (Self.append("e,5\n"), "e,5\n"),
        ])
        #expect(result.text == "name,qty\na,1\nb,2\nc,3\nd,4\ne,5\n")
        #expect(result.news.current == ["log.csv was replaced: read from the new file's start", "log.csv was truncated: read from its start"])
    }

    @Test("I10: at the stop, a last line without its line feed is dropped, not handed out as a row", arguments: [true, false])
    func stopDropsUnendedLine(events: Bool) throws {
        let result = try Self.follow("name,qty\na,1\n", events: events, skipsHeader: true, steps: [
            (Self.append("b,2\nc,3"), "b,2\n"),
        ])
        #expect(result.text == "name,qty\na,1\nb,2\n")
        #expect(result.news.current == ["log.csv ended in a line without its line feed: not read as a row"])
    }

    @Test("I10: a line written in pieces is handed out whole, once its line feed comes", arguments: [true, false])
    func lineInPieces(events: Bool) throws {
        let result = try Self.follow("name,qty\n", events: events, skipsHeader: true, steps: [
            (Self.append("a,"), "name,qty\n"),
            (Self.append("1"), "name,qty\n"),
            (Self.append("\nb,2\n"), "b,2\n"),
        ])
        #expect(result.text == "name,qty\na,1\nb,2\n")
        #expect(result.news.current.isEmpty)
    }

    @Test("I10: a JSON Lines file's first line is a row: a rotated file repeating it keeps it", arguments: [true, false])
    func jsonFirstLineKept(events: Bool) throws {
        let result = try Self.follow("{\"a\":1}\n", events: events, skipsHeader: true, steps: [
            ({ path in
                rename(path, path + ".1")
                try? "{\"a\":1}\n{\"a\":2}\n".write(toFile: path, atomically: false, encoding: .utf8)
            }, "{\"a\":2}\n"),
        ])
        #expect(result.text == "{\"a\":1}\n{\"a\":1}\n{\"a\":2}\n")
    }
}

/// A named pipe given to `--follow` (I10): read as a pipe, to its end.
@Suite("Input: a followed named pipe", .serialized)
struct FollowPipeTests {
    /// Reads `source` on a thread into `result` until its end; `done` is signalled then.
    static func readAll(_ box: SourceBox, into result: FollowSourceTests.Result, done: DispatchSemaphore) {
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                do {
                    let n = try buffer.withUnsafeMutableBytes { try box.source.read(into: $0) }
                    if n == 0 { break }
                    result.bytes.withLock { $0.append(contentsOf: buffer[0..<n]) }
                } catch {
                    result.news.withLock { $0.append("error: \(error)") }
                    break
                }
            }
            done.signal()
        }
    }

    static func fifo() throws -> (folder: URL, path: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-followpipe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("ff").path
        #expect(mkfifo(path, 0o600) == 0)
        return (folder, path)
    }

    @Test("I10: a named pipe is read to its writer's end, in pieces, with no seeking and no news")
    func readToItsEnd() throws {
        let (folder, path) = try Self.fifo()
        defer { try? FileManager.default.removeItem(at: folder) }
        DispatchQueue.global().async {
            let fd = open(path, O_WRONLY)
            _ = "id,name\n1,a\n".withCString { write(fd, $0, strlen($0)) }
            usleep(200_000)
            _ = "2,b\n".withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        let file = try FollowedFile(path: path, stop: -1, skipsRepeatedHeader: true)
        let result = FollowSourceTests.Result()
        let done = DispatchSemaphore(value: 0)
        Self.readAll(SourceBox(try #require(try file.open() as? FollowSource)), into: result, done: done)
        #expect(done.wait(timeout: .now() + 5) == .success)  // its end is the input's end
        #expect(result.text == "id,name\n1,a\n2,b\n")
        #expect(result.news.current.isEmpty)  // no read error (it cannot be sought)
        #expect(file.notice == nil)
    }

    @Test("I10: a named pipe with no writer yet: opened without waiting, and the stop still ends it")
    func noWriterStops() throws {
        let (folder, path) = try Self.fifo()
        defer { try? FileManager.default.removeItem(at: folder) }
        var stop: [Int32] = [-1, -1]
        #expect(pipe(&stop) == 0)
        defer { close(stop[0]); close(stop[1]) }
        let result = FollowSourceTests.Result()
        let done = DispatchSemaphore(value: 0)
        let stopFD = stop[0]
        DispatchQueue.global().async {
            guard let file = try? FollowedFile(path: path, stop: stopFD, skipsRepeatedHeader: true),
                  let source = try? file.open() as? FollowSource else { done.signal(); return }
            Self.readAll(SourceBox(source), into: result, done: done)
        }
        usleep(200_000)
        var byte: UInt8 = 1
        _ = write(stop[1], &byte, 1)
        let ended = done.wait(timeout: .now() + 3) == .success
        #expect(ended)
        if !ended { close(open(path, O_WRONLY | O_NONBLOCK)) }  // lets a reader stuck in its open go
        #expect(result.text == "")
    }
}

/// Hands the source to the reading thread, its only user from then on.
struct SourceBox: @unchecked Sendable {
    let source: FollowSource
    init(_ source: FollowSource) { self.source = source }
}

/// A followed file that ends in a line without its line feed when the follow starts (I10): the
/// lines before it are read at once, and then the source is not ready (the writer's pause: the
/// output is flushed, the view drawn), until that line feed comes.
extension FollowSourceTests {
    /// A file holding `initial`, followed; gone with the folder.
    static func unended(_ initial: String, events: Bool) throws -> (source: FollowSource, path: String, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-unended-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("pt.csv").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(initial.utf8)))
        let source = FollowSource(fd: open(path, O_RDONLY), path: path, name: "pt.csv", stop: -1, skipsRepeatedHeader: true, events: events) { _ in }
        return (source, path, folder)
    }

    /// Reads while the source says a read returns at once, stopping after `last` (a read past it
    /// would wait for ever when the source says so wrongly). The first read is as small as the
    /// check for compression's.
    static func readReady(_ source: FollowSource, upTo last: String) throws -> String {
        var got: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { buffer.deallocate() }
        var size = 6
        while source.isReady && !String(decoding: got, as: UTF8.self).hasSuffix(last) {
            let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<size]))
            guard n > 0 else { break }
            got += buffer[0..<n]
            size = buffer.count
        }
        return String(decoding: got, as: UTF8.self)
    }

    /// Waits up to 3 s for the source to be ready.
    static func becomesReady(_ source: FollowSource) -> Bool {
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline { if source.waitUntilReady(milliseconds: 50) { return true } }
        return false
    }

    @Test("I10: a file ending in an unended line: the lines before it read at once, then not ready until its line feed; the line read once, whole", arguments: [true, false])
    func unendedLastLineAtStart(events: Bool) throws {
        let (source, path, folder) = try Self.unended("id,msg\n1,a\n2,part", events: events)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.readReady(source, upTo: "1,a\n") == "id,msg\n1,a\n")
        #expect(!source.isReady)
        #expect(!source.waitUntilReady(milliseconds: 100))
        Self.append(bytes: Array("Z\n".utf8))(path)
        #expect(Self.becomesReady(source))
        #expect(try Self.readReady(source, upTo: "Z\n") == "2,partZ\n")
        #expect(!source.isReady)
    }

    @Test("I10: a file that is only an unended header: not ready (nothing read, the view starts and waits) until its line feed", arguments: [true, false])
    func unendedHeaderOnly(events: Bool) throws {
        let (source, path, folder) = try Self.unended("id,ms", events: events)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(!source.isReady)
        Self.append(bytes: Array("g\n1,a".utf8))(path)
        #expect(Self.becomesReady(source))
        #expect(try Self.readReady(source, upTo: "g\n") == "id,msg\n")
        #expect(!source.isReady)
    }
}
