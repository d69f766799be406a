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

/// What a followed file's reader keeps across the ways writers rotate and rewrite files (I10):
/// writes to the old file after the new one appears, rotations while a backlog is read, a file
/// truncated and written again, saved over, and one known only by its descriptor.
@Suite("Input: a followed file rotated and rewritten", .serialized)
struct FollowRotationTests {
    typealias Kit = FollowSourceTests

    @Test("I10: logrotate's `create`: rows the writer adds to the old file after the new empty one appears are read before the new file's", arguments: [true, false])
    func lateWritesToOldFile(events: Bool) throws {
        let old = Locked<Int32>(-1)
        defer { close(old.current) }
        let result = try Kit.follow("id,name\n1,a\n", events: events, skipsHeader: true, steps: [
            ({ path in
                old.withLock { $0 = open(path, O_WRONLY | O_APPEND) }  // the writer's descriptor
                rename(path, path + ".1")
                close(open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644))  // created again, empty
            }, "1,a\n"),
            ({ _ in _ = "2,late-old\n".withCString { write(old.current, $0, strlen($0)) } }, "2,late-old\n"),
            ({ path in
                _ = "3,also-old\n".withCString { write(old.current, $0, strlen($0)) }
                Kit.append("3,new\n")(path)  // the writer moves to the new file
            }, "3,new\n"),
        ])
        #expect(result.text == "id,name\n1,a\n2,late-old\n3,also-old\n3,new\n")
        #expect(result.news.current == ["log.csv was replaced: read from the new file's start"])
    }

    @Test("I10: a writer that keeps writing to the renamed file after the new one has its header: every row read, the old file's first",
          arguments: [true, false])
    func writerStillOnOldFile(events: Bool) throws {
        let old = Locked<Int32>(-1)
        defer { close(old.current) }
        func writeOld(_ text: String) { _ = text.withCString { write(old.current, $0, strlen($0)) } }
        let result = try Kit.follow("id,name\n1,a\n", events: events, skipsHeader: true, steps: [
            ({ path in
                old.withLock { $0 = open(path, O_WRONLY | O_APPEND) }
                rename(path, path + ".1")
                Kit.append("id,name\n")(path)  // created again with its header at once
                for row in 2...5 {  // the writer has not reopened the name yet
                    usleep(50_000)
                    writeOld("\(row),old\n")
                }
            }, "5,old\n"),
            ({ _ in
                usleep(1_500_000)  // quiet long enough that the follow has moved to the new file
                writeOld("6,old-late\n")
            }, "6,old-late\n"),
            ({ path in Kit.append("7,new\n")(path) }, "7,new\n"),
        ])
        #expect(result.text == "id,name\n1,a\n2,old\n3,old\n4,old\n5,old\n6,old-late\n7,new\n")
        #expect(result.news.current == ["log.csv was replaced: read from the new file's start"])
    }

    @Test("I10: a long line written late to the file left (about the first read's MiB: −1, 0, +1 bytes) is read whole",
          arguments: [(1 << 20) - 1, 1 << 20, (1 << 20) + 1])
    func longLateLine(length: Int) throws {
        let old = Locked<Int32>(-1)
        defer { close(old.current) }
        // The row `2,xxx…` with its line feed is `length` bytes.
        let late = "2," + String(repeating: "x", count: length - 3) + "\n"
        let result = try Kit.follow("id,name\n1,a\n", events: true, skipsHeader: true, steps: [
            ({ path in
                old.withLock { $0 = open(path, O_WRONLY | O_APPEND) }
                rename(path, path + ".1")
                Kit.append("id,name\n")(path)
            }, "1,a\n"),
            ({ _ in
                usleep(1_500_000)  // the follow has moved to the new file
                _ = late.withCString { write(old.current, $0, strlen($0)) }
            }, String(late.suffix(40))),
            ({ path in Kit.append("3,new\n")(path) }, "3,new\n"),
        ])
        #expect(result.text == "id,name\n1,a\n" + late + "3,new\n", "\(result.text.count) bytes read")
    }

    /// A reader driven by hand: `step` reads once (only while bytes wait, so it never blocks);
    /// `finish` reads on a thread until `until` has come (or 5 s), then stops it.
    final class Driven: @unchecked Sendable {
        let folder: URL
        let path: String
        let source: FollowSource
        let result = FollowSourceTests.Result()
        private var stop: [Int32] = [-1, -1]

        init(_ initial: String, byName: Bool = true, skipsHeader: Bool = true) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-followdriven-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            path = folder.appendingPathComponent("log.csv").path
            try initial.write(toFile: path, atomically: false, encoding: .utf8)
            #expect(pipe(&stop) == 0)
            let result = result
            source = FollowSource(fd: open(path, O_RDONLY), path: byName ? path : nil, name: "log.csv", stop: stop[0], skipsRepeatedHeader: skipsHeader) { news in
                result.news.withLock { $0.append(news) }
            }
        }

        deinit {
            close(stop[0])
            close(stop[1])
            try? FileManager.default.removeItem(at: folder)
        }

        func step(buffer size: Int = 4096) {
            var buffer = [UInt8](repeating: 0, count: size)
            let n = (try? buffer.withUnsafeMutableBytes { try source.read(into: $0) }) ?? 0
            result.bytes.withLock { $0.append(contentsOf: buffer[0..<n]) }
        }

        func finish(until text: String) {
            let done = DispatchSemaphore(value: 0)
            FollowPipeTests.readAll(SourceBox(source), into: result, done: done)
            let deadline = Date().addingTimeInterval(5)
            while !result.text.contains(text) && Date() < deadline { usleep(5_000) }
            usleep(100_000)
            var byte: UInt8 = 1
            _ = write(stop[1], &byte, 1)
            #expect(done.wait(timeout: .now() + 5) == .success)
        }

        /// A file created under the name, holding `text`.
        func create(_ text: String) {
            try? text.write(toFile: path, atomically: false, encoding: .utf8)
        }
    }

    @Test("I10: two rotations while a backlog is read: the file between them is read too, in order")
    func twoRotationsDuringBacklog() throws {
        let rows = (0..<2000).map { "\($0),row number \($0)\n" }.joined()
        let run = try Driven("id,name\n" + rows)
        run.step()  // a first buffer of the backlog
        rename(run.path, run.path + ".1")
        run.create("id,name\nb,second file\n")
        run.step()  // the reader is still in the first file's rows
        rename(run.path + ".1", run.path + ".2")
        rename(run.path, run.path + ".1")
        run.create("id,name\nc,third file\n")
        run.finish(until: "c,third file\n")
        #expect(run.result.text == "id,name\n" + rows + "b,second file\nc,third file\n")
        #expect(run.result.news.current == Array(repeating: "log.csv was replaced: read from the new file's start", count: 2))
    }

    @Test("I10: truncated and written again past where the reader was, before it looked: read again from the start, nothing skipped",
          arguments: [false, true])
    func truncatedAndRegrown(inPlace: Bool) throws {
        let run = try Driven("id,name\n1,a\n2,b\n")
        run.step()
        #expect(run.result.text == "id,name\n1,a\n2,b\n")
        // Written again whole, longer than before: through O_TRUNC, or over the old bytes in place.
        let fd = open(run.path, O_WRONLY | (inPlace ? 0 : O_TRUNC))
        _ = "id,name\n3,cc\n4,dd\n5,ee\n".withCString { write(fd, $0, strlen($0)) }
        close(fd)
        run.finish(until: "5,ee\n")
        #expect(run.result.text == "id,name\n1,a\n2,b\n3,cc\n4,dd\n5,ee\n")
        #expect(run.result.news.current == ["log.csv was written again: read from its start"])
    }

    @Test("I10: a copy saved over the file (written aside, renamed onto its name) with rows added: only the new rows are read", arguments: [true, false])
    func savedOver(events: Bool) throws {
        let result = try Kit.follow("id,name\n1,a\n", events: events, skipsHeader: true, steps: [
            ({ path in
                try? "id,name\n1,a\n2,b\n".write(toFile: path + ".tmp", atomically: false, encoding: .utf8)
                rename(path + ".tmp", path)
            }, "2,b\n"),
            ({ path in
                try? "id,name\n1,a\n2,b\n3,c\n".write(toFile: path + ".tmp", atomically: false, encoding: .utf8)
                rename(path + ".tmp", path)
            }, "3,c\n"),
        ])
        #expect(result.text == "id,name\n1,a\n2,b\n3,c\n")
    }

    @Test("I10: a file known only by its descriptor (standard input from a file) is followed: appended rows read, a truncation read from its start")
    func byDescriptor() throws {
        let run = try Driven("id,name\n1,a\n", byName: false)
        run.step()
        FollowPrintTests.append("2,b\n", to: run.path)
        run.step()
        #expect(run.result.text == "id,name\n1,a\n2,b\n")
        truncate(run.path, 0)
        FollowPrintTests.append("id,name\n3,c\n", to: run.path)
        run.finish(until: "3,c\n")
        #expect(run.result.text == "id,name\n1,a\n2,b\n3,c\n")
        #expect(run.result.news.current == ["log.csv was truncated: read from its start"])
    }
}
