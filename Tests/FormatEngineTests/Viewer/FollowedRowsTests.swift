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

/// V9: a followed file's rows are spooled as they are read, as a pipe's are: a rotation, a
/// truncation or a rewrite cannot change or take the rows read before it.
@Suite("Viewer: a followed file's rows kept as read", .serialized)
struct FollowedRowsTests {
    typealias Store = RowStoreTests

    /// What the file does after its rows, and its rows appended again, have been read.
    enum Change: CaseIterable {
        /// Renamed away, created again (its header written again), the old file's last line
        /// left without its line feed.
        case rotated
        /// Cut to nothing and written again.
        case truncated
    }

    /// The generated file's header line and data lines (every line ended).
    static func parts(_ bytes: [UInt8]) -> (header: [UInt8], data: [UInt8]) {
        let mark = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let end = bytes.firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
        var data = Array(bytes[end...])
        if data.last != 0x0A { data.append(0x0A) }
        return (Array(bytes[mark..<end]), data)
    }

    static func append(_ bytes: [UInt8], to path: String, truncating: Bool = false) {
        let fd = open(path, O_WRONLY | O_CREAT | (truncating ? O_TRUNC : O_APPEND), 0o644)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// The rows read, once there are `count` of them (or 10 s have passed).
    static func rows(_ loader: ViewLoader, count: Int) -> [[String]] {
        _ = loader.wait(forRows: count, milliseconds: 10_000)
        return Store.rows(loader.store)
    }

    @Test("V9: on 60 generated CSV and TSV files followed, appended to, then rotated or truncated: every row spooled as written, the rows before the change kept as read")
    func followedRowsAsWritten() throws {
        for seed in 0..<60 as Range<UInt64> {
            let tab = seed % 3 == 0
            let change = Change.allCases[Int(seed % 2)]
            let (bytes, written) = Store.generate(seed: seed, tab: tab)
            let (header, data) = Self.parts(bytes)
            let dir = try FollowPrintTests.folder()
            defer { try? FileManager.default.removeItem(at: dir) }
            let path = dir.appendingPathComponent("app.\(tab ? "tsv" : "csv")").path
            Self.append(bytes + (bytes.last == 0x0A ? [] : [0x0A]), to: path)
            var stop: [Int32] = [0, 0]
            #expect(pipe(&stop) == 0)
            defer { close(stop[0]); close(stop[1]) }
            let input = try FollowedFile(path: path, stop: stop[0], skipsRepeatedHeader: true)
            let loader = ViewLoader(store: RowStore())
            loader.start(input, options: FormatOptions())
            let n = written.count
            #expect(Self.rows(loader, count: n) == written, "seed \(seed)")
            #expect(!loader.store.isInPlace && loader.store.spool.count == n, "seed \(seed)")
            // Appended: spooled too.
            Self.append(data, to: path)
            #expect(Self.rows(loader, count: 2 * n) == written + written, "seed \(seed)")
            #expect(loader.store.spool.count == 2 * n, "seed \(seed)")
            var expected: [[String]]
            switch change {
            case .rotated:
                // The old file's last line is ended by the follow: that row is spooled.
                var unended = data
                unended.removeLast()
                if unended.last == 0x0D { unended.removeLast() }
                Self.append(unended, to: path)
                #expect(Self.rows(loader, count: 3 * n - 1).count == 3 * n - 1, "seed \(seed)")
                rename(path, path + ".1")
                Self.append(header + data, to: path)
                expected = written + written + written + written
                #expect(Self.rows(loader, count: 4 * n) == expected, "seed \(seed)")
                #expect(loader.store.spool.count == 4 * n, "seed \(seed)")
            case .truncated:
                Self.append(header + data, to: path, truncating: true)
                // The rows read before the cut are kept as read; the file's new rows follow.
                expected = written + written + written
                #expect(Self.rows(loader, count: 3 * n) == expected, "seed \(seed)")
                #expect(loader.store.spool.count == 3 * n, "seed \(seed)")
                #expect(loader.progress.rowsAtNews == [2 * n], "seed \(seed)")
            }
            // Rows after the change, appended: spooled, read back as written.
            Self.append(data, to: path)
            #expect(Self.rows(loader, count: expected.count + n) == expected + written, "seed \(seed)")
            _ = write(stop[1], "x", 1)
            #expect(loader.join(milliseconds: 10_000), "seed \(seed)")
        }
    }
}
