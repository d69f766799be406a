import Foundation
import Testing
@testable import FormatEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// V9: a followed file's rows are found again in the file until its bytes are destroyed; a file the
/// view finds shorter than its rows — before the reader has looked and said so — shows those rows
/// empty, each keeping its number, and they stay so when the file grows again. A file that is not
/// followed and changed is said, not misread (I7).
@Suite("Viewer: a followed file's rows gone")
struct FileRowsGoneTests {
    static let text = "a,b\n1,x\n2,y\n3,z\n"

    /// A file of `text` (removed after `body`), its rows as `FileRows` given to `body`.
    static func withRows(_ name: String, followed: Bool, _ body: (URL, FileRows) throws -> Void) throws {
        let url = try TableSaveCaseTests.file(Array(text.utf8), name)
        defer { try? FileManager.default.removeItem(at: url) }
        let (rows, input) = try Self.rows(url, followed: followed)
        try withExtendedLifetime(input) { try body(url, rows) }
    }

    /// The rows of `text`'s file as `FileRows` (the header's, then one start a row), and its input.
    static func rows(_ url: URL, followed: Bool) throws -> (FileRows, FileInput) {
        let input = try FileInput(path: url.path)
        let choice = try TableInput(try FileInput(path: url.path), options: FormatOptions().input).choice
        let access = try #require(input.randomAccess)
        let rows = FileRows(access, choice: choice, name: url.lastPathComponent, owner: input, followed: followed)
        for start in [4, 8, 12] as [Int64] { rows.append(start: start) }
        rows.publish(end: 16)
        return (rows, input)
    }

    static func shown(_ rows: FileRows) -> [Int: [String]] {
        var out: [Int: [String]] = [:]
        rows.scan(0..<3) { id, fields in
            out[id] = Record(fields).strings
            return true
        }
        return out
    }

    @Test("V9: a followed file cut below its rows before the reader looked: each row shows empty with its number, and stays empty when the file grows again")
    func cutBeforeTheReaderLooked() throws {
        try Self.withRows("gone.csv", followed: true) { url, rows in
            #expect(Self.shown(rows) == [0: ["1", "x"], 1: ["2", "y"], 2: ["3", "z"]])
            // Cut (as copytruncate does) and nothing has told the rows.
            #expect(truncate(url.path, 10) == 0)
            #expect(Self.shown(rows) == [0: [], 1: [], 2: []])
            // Written again as long as before: the bytes the rows were are gone all the same.
            try Data(Self.text.utf8).write(to: url)
            #expect(Self.shown(rows) == [0: [], 1: [], 2: []])
            #expect(rows.problem == nil)
        }
    }

    @Test("I7: a file not followed, cut under the view, is said (the view shows it no more), not shown empty or misread")
    func cutNotFollowed() throws {
        try Self.withRows("gone-not-followed.csv", followed: false) { url, rows in
            #expect(Self.shown(rows)[1] == ["2", "y"])
            #expect(truncate(url.path, 10) == 0)
            #expect(Self.shown(rows).isEmpty)
            #expect(rows.problem != nil)
        }
    }
}
