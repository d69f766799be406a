import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

extension Reliability {
    /// I7, E1: a regular file is read twice through one descriptor; a file changed while it is
    /// read stops with exit 74 and `file changed while reading`, never a table of two versions.
    @Suite("Reliability: a file that changes while it is read")
    struct FileChangeTests {
        typealias Kit = ReliabilityKit

        /// A `FileInput` that runs `change` just before the given pass opens the file, or after the
        /// first chunk of the first pass (pass 0).
        final class Changing: InputProvider {
            let base: FileInput
            let pass: Int
            let change: () throws -> Void
            var opens = 0
            var name: String { base.name }
            var path: String? { base.path }
            var isRereadable: Bool { base.isRereadable }

            init(_ base: FileInput, before pass: Int, _ change: @escaping () throws -> Void) {
                self.base = base
                self.pass = pass
                self.change = change
            }

            func open() throws(InputError) -> any ByteSource {
                opens += 1
                if opens == pass { try? change() }
                let source = try base.open()
                return pass == 0 && opens == 1 ? AfterFirstRead(source, change) : source
            }
        }

        /// Runs `change` after handing out the first chunk.
        final class AfterFirstRead: ByteSource {
            let source: any ByteSource
            let change: () throws -> Void
            var reads = 0
            init(_ source: any ByteSource, _ change: @escaping () throws -> Void) {
                self.source = source
                self.change = change
            }
            func read(into buffer: inout OutputRawSpan) throws(InputError) {
                try buffer.appendFilling { (free) throws(InputError) in
                    try source.read(into: UnsafeMutableRawBufferPointer(rebasing: free.prefix(4096)))
                }
                reads += 1
                if reads == 1 { try? change() }
            }
        }

        static func csv(rows: Int, tag: String = "") -> [UInt8] {
            var text = "id,name\n"
            for i in 0..<rows { text += "\(i),name\(tag) \(i)\n" }
            return Array(text.utf8)
        }

        static func run(_ input: some InputProvider) throws -> (text: String, result: RunResult) {
            let sink = MemorySink()
            let result = try TableFormatter.run(input, options: Kit.options(width: 60), output: sink)
            return (sink.text, result)
        }

        @Test("I7: truncated, appended to or rewritten between the two passes: exit 74, file changed while reading")
        func changedBetweenPasses() throws {
            let changes: [(String, (URL) throws -> Void)] = [
                ("truncated", { url in try Data().write(to: url) }),
                ("appended", { url in
                    let handle = try FileHandle(forWritingTo: url)
                    try handle.seekToEnd()
                    try handle.write(contentsOf: Data("9999,late\n".utf8))
                    try handle.close()
                }),
                ("rewritten, same size", { url in
                    var bytes = try Data(contentsOf: url)
                    bytes[bytes.count - 2] = UInt8(ascii: "X")
                    let handle = try FileHandle(forWritingTo: url)
                    try handle.write(contentsOf: bytes)
                    try handle.close()
                    // A later modification time, even on a file system with coarse timestamps.
                    try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: url.path)
                }),
            ]
            for (what, change) in changes {
                let url = try Kit.temporaryFile("data.csv", Self.csv(rows: 2000))
                defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
                let input = Changing(try FileInput(path: url.path), before: 2) { try change(url) }
                let (text, result) = try Self.run(input)
                #expect(result.error?.kind == .readFailed, "\(what)")
                #expect(result.error?.exitCode == 74, "\(what)")
                #expect(result.error?.message.hasPrefix("file changed while reading") == true, "\(what): \(String(describing: result.error))")
                #expect(!text.contains("more rows"), "\(what): no note that reads like a --limit")
            }
        }

        @Test("I7: changed while the first pass reads it: exit 74")
        func changedDuringFirstPass() throws {
            let url = try Kit.temporaryFile("data.csv", Self.csv(rows: 5000))
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            let input = Changing(try FileInput(path: url.path), before: 0) {
                let handle = try FileHandle(forWritingTo: url)
                try handle.truncate(atOffset: 10_000)
                try handle.close()
            }
            let (_, result) = try Self.run(input)
            #expect(result.error?.exitCode == 74)
            #expect(result.error?.message == "file changed while reading (size \(Self.csv(rows: 5000).count) → 10000 bytes)")
        }

        @Test("I7: a file renamed over the path between passes is not read: the table is the first file's, whole")
        func replacedBetweenPasses() throws {
            let url = try Kit.temporaryFile("data.csv", Self.csv(rows: 300))
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            let expected = try Self.run(try FileInput(path: url.path))
            let other = url.deletingLastPathComponent().appendingPathComponent("other.csv")
            try Data(Self.csv(rows: 7, tag: "other").utf8String.utf8).write(to: other)
            let input = Changing(try FileInput(path: url.path), before: 2) {
                _ = rename(other.path, url.path)
            }
            let got = try Self.run(input)
            #expect(got.result.error == nil)
            #expect(got.text == expected.text)
            #expect(got.text.contains("name 299"))
            // The path now names the other file.
            #expect(try Self.run(try FileInput(path: url.path)).text.contains("nameother 6"))
        }

        @Test("I7: through the binary, a file emptied while it is read exits 74 with the message")
        func binaryTruncation() throws {
            let url = try Kit.temporaryFile("big.csv", Self.csv(rows: 400_000))
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            // The tool starts, the file is emptied 20 ms later. Should the tool finish first (a very
            // fast machine), nothing changed while it read and exit 0 with every row is right too.
            let script = "\"$1\" -w 60 \"$2\" > /dev/null & sleep 0.02; : > \"$2\"; wait $!"
            let run = try runTool(["-c", script, "sh", TestPaths.binary.path, url.path], program: "/bin/sh")
            #expect(run.status == 74 || run.status == 0)
            if run.status == 74 {
                #expect(run.err == "tablefmt: \(url.path): file changed while reading (size \(Self.csv(rows: 400_000).count) → 0 bytes)\n", "\(run.err)")
            }
        }
    }
}

extension Array where Element == UInt8 {
    var utf8String: String { String(decoding: self, as: UTF8.self) }
}
