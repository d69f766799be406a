import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V7: the rows a view reads back — found again in their file by offset, or spooled — are the
/// rows the input holds.
@Suite("Viewer: rows found again")
struct RowStoreTests {
    /// Random CSV (or TSV) with quoted fields holding delimiters, quotes and line breaks, CR LF or
    /// LF line ends, sometimes a byte-order mark, sometimes no line break at the end.
    static func generate(seed: UInt64, tab: Bool) -> (bytes: [UInt8], rows: [[String]]) {
        var rng = SplitMix64(seed: seed)
        // TSV has no quoting: its fields hold no tab, quote or line break.
        let pieces = ["a", "bé", "東京", "x y", "1.5", "-3", "", "say \"hi\"", "two\nlines", "c,d", "tab\there", "end\r\nline"]
            .filter { !tab || !$0.contains(where: { $0 == "\t" || $0 == "\"" || $0 == "\n" || $0 == "\r\n" }) }
        let delimiter = tab ? "\t" : ","
        let newline = rng.below(2) == 0 ? "\n" : "\r\n"
        let columns = rng.below(4) + 1
        var rows: [[String]] = []
        for _ in 0..<(rng.below(300) + 1) {
            // (A line with nothing on it is no row: a one-column row is never empty here.)
            rows.append((0..<columns).map { _ in
                let piece = pieces[rng.below(pieces.count)] + (rng.below(3) == 0 ? String(rng.below(1000)) : "")
                return columns == 1 && piece.isEmpty ? "z" : piece
            })
        }
        func field(_ s: String) -> String {
            let needs = s.contains(where: { $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" || String($0) == delimiter || $0 == "," })
            return needs && !tab ? "\"" + s.replacing("\"", with: "\"\"") + "\"" : s
        }
        var text = (rng.below(4) == 0 ? "\u{FEFF}" : "") + (0..<columns).map { "col\($0)" }.joined(separator: delimiter)
        for row in rows { text += newline + row.map(field).joined(separator: delimiter) }
        if rng.below(2) == 0 { text += newline }
        return (Array(text.utf8), rows)
    }

    static func rows(_ store: RowStore) -> [[String]] {
        (0..<store.count).map { store.record($0).strings }
    }

    static func temporaryFile(_ bytes: [UInt8], _ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-rows-\(getpid())-\(name)")
        try Data(bytes).write(to: url)
        return url
    }

    @Test("CSV and TSV files found again by offset give the rows written, on 200 generated files; so does the spool")
    func inPlaceEqualsWritten() throws {
        for seed in 0..<200 as Range<UInt64> {
            let tab = seed % 3 == 0
            let (bytes, written) = Self.generate(seed: seed, tab: tab)
            let url = try Self.temporaryFile(bytes, "\(seed).\(tab ? "tsv" : "csv")")
            defer { try? FileManager.default.removeItem(at: url) }
            // Some without a header: the header line is then the first row.
            var options = FormatOptions()
            var expected = written
            if seed % 4 == 1 {
                options.header = false
                expected.insert((0..<expected[0].count).map { "col\($0)" }, at: 0)
            }
            let inPlace = ViewLoader(store: RowStore())
            inPlace.load(try FileInput(path: url.path), options: options)
            #expect(inPlace.store.isInPlace, "seed \(seed)")
            #expect(Self.rows(inPlace.store) == expected, "seed \(seed)")
            // Scanned in pieces of any size, the same rows.
            var scanned: [[String]] = []
            var rng = SplitMix64(seed: seed)
            var at = 0
            while at < expected.count {
                let next = min(expected.count, at + rng.below(40) + 1)
                inPlace.store.scan(at..<next) { id, fields in
                    #expect(id == scanned.count)
                    scanned.append((0..<fields.count).map { String(decoding: fields[$0], as: UTF8.self) })
                    return true
                }
                at = next
            }
            #expect(scanned == expected, "seed \(seed)")
            let spooled = ViewLoader(store: RowStore())
            spooled.load(MemoryInput(bytes, name: "<stdin>", path: url.path, isRereadable: false), options: options)
            #expect(!spooled.store.isInPlace)
            #expect(Self.rows(spooled.store) == expected, "seed \(seed)")
        }
    }

    @Test("a file with invalid UTF-8 is spooled instead (its bytes are not the rows' text), and reads as the printed table reads it")
    func invalidUTF8IsSpooled() throws {
        var bytes = Array("name,n\n".utf8)
        for k in 0..<2000 { bytes += Array("row\(k),\(k)\n".utf8) }
        bytes += [0x62, 0xFF, 0x2C, 0x31, 0x0A]  // b\xFF,1
        bytes += Array("last,2\n".utf8)
        let url = try Self.temporaryFile(bytes, "latin.csv")
        defer { try? FileManager.default.removeItem(at: url) }
        let loader = ViewLoader(store: RowStore())
        loader.load(try FileInput(path: url.path), options: FormatOptions())
        #expect(!loader.store.isInPlace)
        let rows = Self.rows(loader.store)
        #expect(rows.count == 2002)
        #expect(rows[2000] == ["b\u{FFFD}", "1"] && rows[2001] == ["last", "2"])
        #expect(loader.progress.warnings.contains { $0.contains("invalid UTF-8") })
    }

    @Test("I7: a file changed under the view is said (exit 74), its rows not misread; a file only appended to still holds them")
    func changedFile() throws {
        let url = try Self.temporaryFile(Array("a,b\n1,2\n3,4\n".utf8), "changing.csv")
        defer { try? FileManager.default.removeItem(at: url) }
        let loader = ViewLoader(store: RowStore())
        loader.load(try FileInput(path: url.path), options: FormatOptions())
        #expect(Self.rows(loader.store) == [["1", "2"], ["3", "4"]])
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("5,6\n".utf8))
        // Appended: the rows read are where they were, and still shown.
        #expect(Self.rows(loader.store) == [["1", "2"], ["3", "4"]])
        #expect(loader.store.problem == nil)
        // Changed in place: "1,2" is now "9,2", so the rows read are gone.
        try handle.seek(toOffset: 4)
        try handle.write(contentsOf: Data("9".utf8))
        try handle.close()
        #expect(loader.store.record(0).count == 0)
        #expect(loader.store.problem?.exitCode == 74)
        #expect(loader.store.problem?.description.contains("file changed while reading") == true)
    }

    @Test("V7: rows read on the loader's thread while the view draws and moves give the same rows as read at once, spooled or in place")
    func concurrentLoading() throws {
        var text = "id,name,amount\n"
        for k in 0..<60_000 { text += "\(k),name \(k % 977),\(k % 1000).\(k % 100)\n" }
        let expected = text.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let url = try Self.temporaryFile(Array(text.utf8), "concurrent.csv")
        defer { try? FileManager.default.removeItem(at: url) }
        let inputs: [any InputProvider] = [MemoryInput(text, name: "<stdin>", isRereadable: false), try FileInput(path: url.path)]
        for input in inputs {
            let loader = ViewLoader(store: RowStore())
            loader.start(input, options: FormatOptions())
            let model = ViewModel(loader: loader, options: FormatOptions(), source: "t", color: false, width: 60, height: 20)
            var frames = 0
            while !loader.progress.done {
                _ = model.refresh()
                _ = model.frame()
                model.handle(frames % 7 == 0 ? .end : .down)
                frames += 1
            }
            #expect(loader.join(milliseconds: 10_000))
            _ = model.refresh()
            #expect(Self.rows(loader.store) == expected)
            #expect(model.state.count == 60_000)
            #expect(frames > 0)
        }
    }
}
