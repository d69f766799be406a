import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// P1: a plain table's rows that the sizing pass noted are drawn in place
/// (`PlainRenderer.notedRow`): common cells straight into the output buffer, the rest by the
/// general path. These tests draw generated tables both ways and require the same bytes: a file
/// read in pieces (its rows by the notes, drawn in place) against the same file read whole (no
/// notes: every row through `Renderer.row`), which is the independent oracle.
@Suite("Rows drawn in place")
struct InPlaceRowsTests {
    /// Cells of the kinds the row loop treats apart: printable ASCII of every length around a
    /// word (8 bytes), the common non-ASCII text (Latin letters, CJK, kana, Hangul), other
    /// non-ASCII text (a mark first, an emoji), numbers with and without points, percentages,
    /// leading zeros, units, empty cells, controls and bidirectional controls (escaped, O5), and
    /// text with quotes, commas and line breaks (quoted in the file, `""` inside).
    static let texts = ["a", "ab", "abc", "abcd", "abcdefg", "abcdefgh", "abcdefghi", "sixteen bytes ok", "a longer cell of seventeen and more bytes",
                        "Novák", "Øster, Chloé", "Café Zürich", "東京", "株式会社サンプル", "서울 특별시", "Ḿixed ẞ", "\u{301}mark first", "emoji 🙂",
                        "", "tab\there", "esc\u{1B}[31m", "del\u{7F}", "c1 \u{9B}", "\u{202E}bidi", "\u{FEFF}bom", "said \"hi\"", "a, b", "two\nlines",
                        "x\"\"y", "\""]
    /// Number columns: decimals and whole numbers, percentages (`5%` under `12.5%`), quantities
    /// with a unit (taken out to the heading, C3); each with empty cells now and then.
    static let numbers = [["5", "12", "-3", "336", "12.50", "0.5", "-0.25", "0", "-0", "99999999", "3.14159", "7", "+4", ""],
                          ["5%", "12.5%", "-1.5%", "0%", "100%", "7.25%", ""],
                          ["3 kg", "12.5 kg", "-0.5 kg", "1,234 kg", ""]]
    /// Text that looks like numbers in a text column: leading zeros, exponents, separators.
    static let numberLike = ["007", "1,234", "$5.00", "1e5", "7.", ".5", "12", "-3.5", "5%"]

    /// A CSV table of `rows` rows: columns of text, of numbers of one kind, and of text that
    /// looks like numbers; a long cell now and then in a text column (over 255 bytes, noted in
    /// the wide form); short and long rows.
    static func table(_ rng: inout SplitMix64, rows: Int) -> [UInt8] {
        let columns = 3 + rng.below(6)
        // 0: text, 1...3: the number kinds, 4: text with numbers in it.
        let kinds = (0..<columns).map { _ in rng.below(5) }
        func quoted(_ cell: String) -> String {
            cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) ? "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : cell
        }
        var lines = [(0..<columns).map { "c\($0)" }.joined(separator: ",")]
        for _ in 0..<rows {
            var cells = (0..<columns).map { k -> String in
                switch kinds[k] {
                case 1...3:
                    let own = numbers[kinds[k] - 1]
                    return own[rng.below(own.count)]
                case 4:
                    return rng.below(3) == 0 ? texts[rng.below(texts.count)] : numberLike[rng.below(numberLike.count)]
                default:
                    return rng.below(40) == 0 ? String(repeating: "long ", count: 52 + rng.below(20)) : texts[rng.below(texts.count)]
                }
            }
            switch rng.below(50) {
            case 0: cells.removeLast(1 + rng.below(2))
            case 1: cells.append("surplus")
            default: break
            }
            lines.append(cells.map(quoted).joined(separator: ","))
        }
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// Every output the plain table's row loop serves: styles, colour, cut cells, pages (rows
    /// drawn by band), columns chosen, reordered and shown twice, a `--null` text, units kept.
    static let configurations: [(name: String, configure: @Sendable (inout FormatOptions) -> Void)] = [
        ("plain, no width limit", { $0.width = nil; $0.layout = .table }),
        ("plain at 60, cut", { $0.width = 60; $0.layout = .table }),
        ("ANSI", { $0.format = .ansi; $0.layout = .table }),
        ("box", { $0.style = .box; $0.layout = .table }),
        ("ascii with ANSI", { $0.style = .ascii; $0.format = .ansi; $0.layout = .table }),
        ("compact at 50", { $0.style = .compact; $0.width = 50; $0.layout = .table }),
        ("pages at 40", { $0.width = 40; $0.layout = .pages }),
        ("columns reordered and twice", { $0.columns = ColumnSelection(["c2", "c0", "c2"]); $0.layout = .table }),
        ("null text, units kept", { $0.nullText = "n/a"; $0.moveUnits = false; $0.layout = .table }),
    ]

    @Test("P1, O2, O3, O5, C2, C7: rows drawn in place are the bytes the general path draws (seeded)",
          arguments: 0..<configurations.count)
    func inPlaceIsGeneral(_ index: Int) throws {
        let (name, configure) = Self.configurations[index]
        var rng = SplitMix64(seed: 0x1A_91ACE + UInt64(index))
        var byNotes = 0
        for trial in 0..<6 {
            let url = try FilePiecesTests.file(Self.table(&rng, rows: 150 + rng.below(400)))
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            let whole = try FilePiecesTests.run(url, pieceBytes: nil, configure)
            #expect(whole.pieces == 0 && whole.rowsByNotes == 0, "\(name), trial \(trial): the oracle reads the file whole")
            for size in [64 + rng.below(2000), 1 << 20] {
                // A small cap too: pieces drawn ahead into buffers that fill mid-row, then straight.
                for cap in [nil, 64 + rng.below(3000)] {
                    let pieced = try FilePiecesTests.run(url, pieceBytes: size, cap: cap, configure)
                    #expect(pieced.run == whole.run, "\(name), trial \(trial), pieces of \(size) bytes, cap \(cap.map(String.init) ?? "none")")
                    byNotes += pieced.rowsByNotes
                }
            }
        }
        #expect(byNotes > 1000, "\(name): rows were taken by the notes, so drawn in place")
    }
}
