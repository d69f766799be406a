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

/// I10 with I8: a followed gzip file is read to its last row (its bytes are not text: no line is
/// held back as unfinished), and members appended later are read as they come.
@Suite("Following a gzip file", .serialized)
struct FollowGzipTests {
    /// `count` rows from `first` on, as CSV lines.
    static func rows(_ first: Int, _ count: Int) -> String {
        (first..<(first + count)).map { "r\($0),\($0 * 7)\n" }.joined()
    }

    static func appendBytes(_ bytes: [UInt8], to path: String) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    @Test("I10/I8: a followed .gz file prints every row; members appended later are printed as they come; Ctrl-C ends it, exit 0, with no word of an unfinished line", arguments: [0, 9])
    func everyRow(level: Int32) throws {
        let dir = try FollowPrintTests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s2.csv.gz").path
        Self.appendBytes(StandAloneTests.gzipMember(Array(("name,qty\n" + Self.rows(0, 50)).utf8), level: level), to: path)
        let run = try FollowPrintTests.Follower(["--follow", "--view", "never", path])
        #expect(run.read(rows: 50), "\(run.output)")
        // Another member, as `gzip -c more >> s2.csv.gz` writes it.
        Self.appendBytes(StandAloneTests.gzipMember(Array(Self.rows(50, 30).utf8), level: level), to: path)
        #expect(run.read(rows: 80), "\(run.output)")
        #expect(run.interrupt() == 0)
        let expected = (0..<80).map { "r\($0) \($0 * 7)" }
        #expect(FollowPrintTests.rows(run.output) == expected)
        #expect(!run.errors.contains("line feed"), "\(run.errors)")
        #expect(!run.errors.contains("ends early"), "\(run.errors)")
    }

    @Test("V9/I8: the view of a followed .gz file of 5,000 rows holds all 5,000, and the rows of a member appended later")
    func viewHoldsEveryRow() throws {
        let dir = try FollowPrintTests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("big.csv.gz").path
        Self.appendBytes(StandAloneTests.gzipMember(Array(("name,qty\n" + Self.rows(0, 5_000)).utf8), level: 6), to: path)
        var stop: [Int32] = [0, 0]
        #expect(pipe(&stop) == 0)
        defer { close(stop[0]); close(stop[1]) }
        let input = try FollowedFile(path: path, stop: stop[0], skipsRepeatedHeader: true)
        let loader = ViewLoader(store: RowStore())
        loader.start(input, options: FormatOptions())
        #expect(FollowedRowsTests.rows(loader, count: 5_000).count == 5_000)
        Self.appendBytes(StandAloneTests.gzipMember(Array(Self.rows(5_000, 3).utf8), level: 6), to: path)
        let rows = FollowedRowsTests.rows(loader, count: 5_003)
        #expect(rows.count == 5_003)
        #expect(rows.last == ["r5002", "35014"])
        _ = write(stop[1], "x", 1)
        #expect(loader.join(milliseconds: 10_000))
    }
}
