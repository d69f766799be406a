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

/// I7: a file read in place and changed under the view is said, not misread. (A followed file's
/// rows are spooled, V9: a cut cannot take them; ViewFollowTerminalTests.)
@Suite("Viewer: a file's rows gone")
struct FileRowsGoneTests {
    static let text = "a,b\n1,x\n2,y\n3,z\n"

    /// A file of `text` (removed after `body`), its rows as `FileRows` given to `body`.
    static func withRows(_ name: String, _ body: (URL, FileRows) throws -> Void) throws {
        let url = try TableSaveCaseTests.file(Array(text.utf8), name)
        defer { try? FileManager.default.removeItem(at: url) }
        let (rows, input) = try Self.rows(url)
        try withExtendedLifetime(input) { try body(url, rows) }
    }

    /// The rows of `text`'s file as `FileRows` (the header's, then one start a row), and its input.
    static func rows(_ url: URL) throws -> (FileRows, FileInput) {
        let input = try FileInput(path: url.path)
        let choice = try TableInput(try FileInput(path: url.path), options: FormatOptions().input).choice
        let access = try #require(input.randomAccess)
        let rows = FileRows(access, choice: choice, name: url.lastPathComponent, owner: input)
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

    @Test("I7: a file not followed, cut under the view, is said (the view shows it no more), not shown empty or misread")
    func cutNotFollowed() throws {
        try Self.withRows("gone-not-followed.csv") { url, rows in
            #expect(Self.shown(rows)[1] == ["2", "y"])
            #expect(truncate(url.path, 10) == 0)
            #expect(Self.shown(rows).isEmpty)
            #expect(rows.problem != nil)
        }
    }
}
