import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// P2 for one long cell: a cell is cut or wrapped from a piece of it, never copied whole into a
/// `String`, and the result is the same as from the whole text (C6, C7, W8).
@Suite("Long cells")
struct LongCellTests {
    static let pieces = ["word ", "日本語 ", "e\u{301}", "\u{1B}", "\n", "\r\n", "ab", "x,y ", "😀", "\u{202E}", "  ", "naïve ", "…"]

    static func text(_ random: inout SplitMix64, bytes: Int) -> String {
        var out = ""
        while out.utf8.count < bytes { out += pieces[random.below(pieces.count)] }
        return out
    }

    @Test("C6, C7: fit(utf8:) of 2,000 generated long cells equals fit of the whole text, at any width, lines and ellipsis")
    func boundedFitMatchesWhole() {
        var random = SplitMix64(seed: 0x10C)
        let measure = DisplayWidth()
        var bounded = 0
        for round in 0..<2000 {
            let width = 1 + random.below(40)
            let lines = 1 + random.below(3)
            let ellipsis: EllipsisMode = random.below(2) == 0 ? .end : .middle
            let text = Self.text(&random, bytes: DisplayWidth.readLimit(width: width, lines: lines) * (2 + random.below(3)) + random.below(100))
            let whole = measure.fit(text, width: width, maxLines: lines, ellipsis: ellipsis)
            let bytes = Array(text.utf8)
            let piece = bytes.withUnsafeBufferPointer { measure.fit(utf8: $0, width: width, maxLines: lines, ellipsis: ellipsis) }
            #expect(piece == whole, "round \(round): width \(width), \(lines) lines, \(ellipsis)")
            if bytes.count > 2 * DisplayWidth.readLimit(width: width, lines: lines) { bounded += 1 }
        }
        #expect(bounded > 1500, "most rounds take the bounded path")
    }

    @Test("W8: a value wrapped a piece at a time keeps every character, in order, each line within the width")
    func piecewiseWrapKeepsText() throws {
        var random = SplitMix64(seed: 0xAB)
        let measure = DisplayWidth()
        for round in 0..<200 {
            let width = 8 + random.below(60)  // wider than any one unit (an escape is at most 6)
            let text = Self.text(&random, bytes: 500 + random.below(5000))
            let bytes = Array(text.utf8)
            var lines: [TextLine] = []
            try bytes.withUnsafeBufferPointer { cell throws(OutputError) in
                try measure.forEachWrappedLine(utf8: cell, width: width, pieceBytes: 64 + random.below(600)) { line throws(OutputError) in lines.append(line) }
            }
            for line in lines { #expect(line.width <= width && measure.width(of: line.text) == line.width, "round \(round)") }
            // Wrapping drops the spaces and line breaks it breaks at, nothing else.
            let kept = lines.map(\.text).joined().filter { $0 != " " }
            let expected = Sanitize.visible(text).filter { $0 != " " && $0 != "\u{21B5}" }
            #expect(kept.replacing("\u{21B5}", with: "") == expected, "round \(round)")
        }
    }

    @Test("P2: a 30 MB cell, cut in a table and wrapped in a list report, through the binary: held once, not copied")
    func longCellThroughTheBinary() throws {
        // GNU time reports the tool's own peak (a child spawned from this test process would
        // inherit this process's high-water mark at exec).
        let time = "/usr/bin/time"
        guard FileManager.default.isExecutableFile(atPath: time) else { return }
        let folder = try ReliabilityKit.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("long.csv")
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data("id,text\n1,".utf8)))
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        let block = Data(String(repeating: "word ", count: 100_000).utf8)
        for _ in 0..<60 { try handle.write(contentsOf: block) }  // 30 MB in one cell
        try handle.write(contentsOf: Data("\n2,short\n".utf8))
        try handle.close()
        func peak(_ run: ToolRun) -> Int { Int(run.err.split(separator: "\n").last ?? "") ?? -1 }
        let table = try runTool(["-f", "%M", TestPaths.binary.path, "-w", "40", url.path], program: time)
        #expect(table.status == 0)
        #expect(table.out.split(separator: "\n")[2].hasSuffix("…"))
        // The record holds the cell (a 32 MiB block); nothing else holds a copy of it.
        // Under AddressSanitizer freed memory waits in its quarantine (256 MB): no bound to hold there.
        let bounded = !ReliabilityKit.sanitized
        #expect(peak(table) > 0 && (!bounded || peak(table) < ReliabilityKit.memoryBound(mebibytes: 60)), "peak \(peak(table)) KiB")
        let list = try runTool(["-f", "%M", TestPaths.binary.path, "-w", "40", "--list-report", url.path], program: time)
        #expect(list.status == 0)
        #expect(peak(list) > 0 && (!bounded || peak(list) < ReliabilityKit.memoryBound(mebibytes: 60)), "peak \(peak(list)) KiB")
        // Counted in the bytes: six million substrings would raise this test process's own peak,
        // which a child spawned meanwhile by another test inherits in its measured peak.
        let word = Array("word".utf8)
        let words = list.stdout.withUnsafeBytes { bytes in
            var count = 0, k = 0
            while k + 4 <= bytes.count {
                if bytes[k] == word[0] && bytes[k + 1] == word[1] && bytes[k + 2] == word[2] && bytes[k + 3] == word[3] {
                    count += 1
                    k += 4
                } else {
                    k += 1
                }
            }
            return count
        }
        #expect(words == 6_000_000)
    }
}
