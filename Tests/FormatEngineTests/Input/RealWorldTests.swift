import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// One messy real-world file (Tests/Conformance/README.md §4): what tablefmt must make of it, and why.
struct RealWorldCase: Sendable, CustomTestStringConvertible {
    /// Below `conformance/real-world`.
    let path: String
    /// Extra command-line options (and the same choices for the library run).
    var encoding: TextEncoding?
    /// Data rows (the header row not counted) and columns, as tablefmt reads the file.
    let rows: Int
    let columns: Int
    /// The delimiter the file must be read with (sniffed, or by extension for `.tsv`).
    let delimiter: Character
    var format: InputFormat = .csv
    /// The warnings I2/I5 call for, without the `tablefmt: warning: ` prefix.
    var warnings: [String] = []
    /// Spot checks: a column's name by index.
    var names: [Int: String] = [:]
    /// Spot checks: the fields of the row that starts on a line.
    var rowsByLine: [Int: [Int: String]] = [:]
    /// The outcome and why, in words.
    let why: String

    var arguments: [String] { encoding.map { ["--encoding", $0.rawValue] } ?? [] }
    var testDescription: String { path + (arguments.isEmpty ? "" : " " + arguments.joined(separator: " ")) }
}

/// Conformance README §4: every real-world file through the library (row and column counts, warnings) and the
/// CLI (`-w 0` and `-w 80`: exit 0, exactly the library's warnings on stderr).
@Suite("Real-world files")
struct RealWorldTests {
    static let folder = TestPaths.conformance.appendingPathComponent("real-world")

    static let cases: [RealWorldCase] = [
        RealWorldCase(path: "CleverCSV-example/imdb.csv", rows: 100, columns: 46, delimiter: ",",
                      warnings: ["CleverCSV-example/imdb.csv: 1 row had more fields than the header (first on line 66); extra fields shown as Column N"],
                      names: [0: "fn", 4: "url", 43: "Western", 44: "Column 45", 45: "Column 46"],
                      rowsByLine: [66: [1: "tt0057012", 2: "Dr. Seltsam\\", 3: " oder wie ich lernte\\", 4: " die Bombe zu lieben (1964)"],
                                   67: [44: "", 45: ""]],
                      why: """
                      Backslash-escaped commas are not CSV: an RFC 4180 reader sees 46 fields on line 66, so two \
                      columns `Column 45`, `Column 46` are added with a warning naming the line — the data is \
                      kept, and the shift is reported rather than silent. Other rows have the header's 44 fields \
                      and are padded into the two extra columns without a warning of their own.
                      """),
        RealWorldCase(path: "CleverCSV-example/milk.csv", rows: 380, columns: 23, delimiter: "\t",
                      names: [1: "Column 2", 22: "INTERVENTION STOCKS Skimmed Milk Powder th. tonnes"],
                      why: "Tab-separated under a .csv name: the sniffer picks TAB. The header line has an empty cell (→ Column N)."),
        RealWorldCase(path: "datasets-country-codes/country-codes.csv", rows: 249, columns: 56, delimiter: ",",
                      why: "Wide, quoted commas, Chinese/Arabic/Russian text: a plain, valid UTF-8 CSV."),
        RealWorldCase(path: "fivethirtyeight-data/2024_polls.csv", rows: 1700, columns: 18, delimiter: ",",
                      why: "CRLF records with a bare LF inside one quoted field: the LF stays in the cell."),
        RealWorldCase(path: "fivethirtyeight-data/StarWars.csv", rows: 1187, columns: 38, delimiter: ",",
                      warnings: ["fivethirtyeight-data/StarWars.csv: invalid UTF-8 replaced with U+FFFD (2 times, first on line 1); try --encoding latin1 or cp1252"],
                      names: [0: "RespondentID", 4: "Column 5", 31: "Do you consider yourself to be a fan of the Expanded Universe?\u{FFFD}\u{FFFD}", 37: "Location (Census Region)"],
                      why: """
                      Two stray cp1252 bytes (0x8C 0xE6) in a header cell are not UTF-8: each becomes U+FFFD with one \
                      warning naming line 1 and suggesting --encoding. The second header row is data to us (reference \
                      1188 records = our header + 1187 rows). The 23 empty header cells become `Column N`.
                      """),
        RealWorldCase(path: "fivethirtyeight-data/StarWars.csv", encoding: .cp1252, rows: 1187, columns: 38, delimiter: ",",
                      names: [0: "RespondentID", 31: "Do you consider yourself to be a fan of the Expanded Universe?Œæ"],
                      why: "With --encoding cp1252 the same bytes are `Œæ`: no replacement, no warning."),
        RealWorldCase(path: "fivethirtyeight-data/cabinet-turnover.csv", rows: 379, columns: 10, delimiter: ",",
                      names: [0: "president", 1: "position"],
                      why: "UTF-8 BOM + CRLF, no final newline: the BOM is removed, so the first heading is `president`."),
        RealWorldCase(path: "fivethirtyeight-data/fivethirtyeight_election_deniers.csv", rows: 552, columns: 9, delimiter: ",",
                      why: "Quoted newlines, URLs, long text."),
        RealWorldCase(path: "fivethirtyeight-data/raw_anonymized_data.csv", rows: 54, columns: 1093, delimiter: ",",
                      why: "1 093 columns: all read; the -w 80 table omits the columns that do not fit (W5)."),
        RealWorldCase(path: "fivethirtyeight-data/poll-of-pollsters.tsv", rows: 27, columns: 34, delimiter: "\t", format: .tsv,
                      why: "TSV by extension, bare-CR (classic Mac) line ends, a quoted newline, long headings."),
        RealWorldCase(path: "messytables-horror/characters.csv", rows: 382, columns: 18, delimiter: ",",
                      warnings: ["messytables-horror/characters.csv: invalid UTF-8 replaced with U+FFFD (142701 times, first on line 1); try --encoding latin1 or cp1252"],
                      names: [0: "id"],
                      why: """
                      Big5, which tablefmt cannot decode (I5 names no Big5): the CJK bytes become U+FFFD with one \
                      warning suggesting --encoding. Big5 never uses `,` `\"` CR or LF as a trail byte, so the 18 \
                      columns and 382 rows (223 quoted LFs among them) still come out right.
                      """),
        RealWorldCase(path: "messytables-horror/mixedGLB.csv", rows: 136, columns: 19, delimiter: ",",
                      names: [0: "Combined Land--Ocean Temperature Anomaly (C) CR 1200km 1880 to 2012.", 1: "Column 2"],
                      rowsByLine: [6: [0: "1881", 1: "-20"]],
                      why: """
                      Bare-CR line ends; the title line becomes the header (18 empty cells → `Column N`) and the \
                      preamble lines are rows, as in the reference count of 137 records.
                      """),
        RealWorldCase(path: "messytables-horror/spanish_chars.csv", rows: 116, columns: 8, delimiter: ",",
                      warnings: ["messytables-horror/spanish_chars.csv: invalid UTF-8 replaced with U+FFFD (580 times, first on line 1); try --encoding latin1 or cp1252"],
                      names: [7: "Descripci\u{FFFD}n"],
                      why: "Latin-1 read as UTF-8: U+FFFD with the warning suggesting --encoding latin1 (columns unaffected)."),
        RealWorldCase(path: "messytables-horror/spanish_chars.csv", encoding: .latin1, rows: 116, columns: 8, delimiter: ",",
                      names: [6: "Gasto total 2011", 7: "Descripción"],
                      why: "With --encoding latin1: correct accents, no replacement, CRLF rows with bare CRs in quoted fields."),
        RealWorldCase(path: "messytables-horror/utf-16le_encoded.csv", rows: 327, columns: 19, delimiter: ",",
                      names: [0: "Organisation_code", 1: "Organisation_name"],
                      rowsByLine: [2: [0: "5C1", 1: "Enfield PCT"]],
                      why: "UTF-16LE with a BOM: transcoded, no NULs in the names, no replacement."),
        RealWorldCase(path: "messytables-horror/weird_head_padding.csv", rows: 85, columns: 11, delimiter: ";",
                      warnings: ["messytables-horror/weird_head_padding.csv: 69 rows had more fields than the header (first on line 7); extra fields shown as Column N"],
                      why: """
                      Semicolons (sniffed), a one-cell title as the first non-blank line (so the header has one \
                      field), blank lines skipped (reference 94 records − 8 blank − header = 85 rows), ragged rows \
                      widened to 11 columns with a warning. Reference widths: 62×11, 17×1, 7×2 (8 blank).
                      """),
        RealWorldCase(path: "messytables-horror/simple.ssv", rows: 6, columns: 3, delimiter: ";",
                      why: "`.ssv` is no known extension: CSV with `;` sniffed."),
        RealWorldCase(path: "mledoze-countries/countries.csv", rows: 250, columns: 76, delimiter: ",",
                      why: "76 quoted columns with CJK and RTL text."),
        RealWorldCase(path: "qsv-sniffer-testdata/2016_presidential_election_durham.csv", rows: 1505, columns: 5, delimiter: ";",
                      why: "Semicolons (sniffed) + CRLF, empty fields."),
        RealWorldCase(path: "qsv-sniffer-testdata/gdp.csv", rows: 266, columns: 63, delimiter: ",",
                      warnings: ["qsv-sniffer-testdata/gdp.csv: 265 rows had more fields than the header (first on line 5); extra fields shown as Column N"],
                      names: [0: "Data Source", 1: "World Development Indicators", 2: "Column 3", 3: "Column 4", 62: "Column 63"],
                      rowsByLine: [3: [0: "Last Updated Date"], 5: [0: "Country Name", 62: ""], 6: [0: "Aruba"]],
                      why: """
                      BOM + CRLF + a 4-line preamble: the first line (3 fields, the last empty) is our header, the \
                      two blank preamble lines are skipped, and the real header (line 5) and the 264 data rows are \
                      rows (reference 269 records − 2 blank − 1 header = 266). They have 63 fields, so columns \
                      `Column 4`…`Column 63` are added with a warning; nothing is dropped or shifted.
                      """),
    ]

    /// JSON inputs in the corpus (conformance README §4), read by the JSON reader (I4): path, rows, and
    /// either the exact column count or, where nested objects become dotted columns that vary from
    /// object to object, a column that must be there.
    static let jsonCases: [(path: String, rows: Int, columns: Int?, mustHave: String)] = [
        // NDJSON: 100 objects × 29 keys, values null, int, float or string (reference: 100 × 29).
        ("qsv-testdata/boston311-100.jsonl", 100, 29, "case_enquiry_id"),
        // One minified array of 250 objects with nested objects (`name.common`) and arrays.
        ("mledoze-countries/countries-unescaped.json", 250, nil, "name.common"),
    ]
    static var jsonFiles: Set<String> { Set(jsonCases.map(\.path)) }

    @Test("Tests/Conformance/README.md §4: every real-world file has a case")
    func inventory() {
        let found = Set(TestPaths.files(in: Self.folder, extensions: ["csv", "tsv", "ssv", "json", "jsonl"]).map { url in
            String(url.path.dropFirst(Self.folder.path.count + 1))
        })
        #expect(found.count == 20, "Tests/Conformance/README.md lists 20 files")
        #expect(found == Set(Self.cases.map(\.path)).union(Self.jsonFiles))
    }

    @Test("I2/I5/I6: rows, columns and warnings through the library", arguments: cases)
    func library(_ c: RealWorldCase) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(c.path)))
        var options = FormatOptions()
        options.encoding = c.encoding
        let table = InputTestKit.table(bytes, name: c.path, options: options, keepLines: Set(c.rowsByLine.keys))
        #expect(table.error == nil, "\(table.error.map(String.init(describing:)) ?? "")")
        #expect(table.choice?.format == c.format)
        #expect(table.choice?.dialect?.delimiter == c.delimiter.asciiValue)
        #expect(table.rows == c.rows, "\(c.why)")
        #expect(table.columns.count == c.columns, "\(c.why)")
        #expect(table.misfits == 0, "every row is padded to the columns")
        for (index, name) in c.names {
            #expect(table.columns.indices.contains(index) && table.columns[index] == name, "column \(index)")
        }
        for (line, fields) in c.rowsByLine {
            let row = table.byLine[line] ?? []
            // Padded to the columns known when it was read (gdp's line 3 comes before the growth).
            #expect(!row.isEmpty && row.count <= c.columns, "row on line \(line)")
            for (index, value) in fields {
                #expect(row.indices.contains(index) && row[index] == value, "row on line \(line), field \(index)")
            }
        }
        #expect(!table.columns.contains { $0.contains("\u{FEFF}") || $0.contains("\0") })
        // Ragged rows are counted against the header's field count (I2), not against columns
        // grown by an earlier long row: imdb's 44-field rows after the 46-field one are not "short".
        #expect(table.warnings == c.warnings)
    }

    @Test("E1/I5: the CLI exits 0 with a table and only the expected warnings", arguments: cases)
    func cli(_ c: RealWorldCase) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(c.path)))
        var options = FormatOptions()
        options.encoding = c.encoding
        // The warnings the library gives (checked against the rules in `library`): the CLI must
        // print exactly these on stderr, and nothing else.
        let table = InputTestKit.table(bytes, name: c.path, options: options)
        let expectedErr = table.warnings.map { "tablefmt: warning: \($0)\n" }.joined()
        for width in ["0", "80"] {
            let run = try runTool(["-w", width] + c.arguments + [c.path], directory: Self.folder)
            #expect(run.status == 0, "-w \(width): \(run.err)")
            #expect(run.err == expectedErr, "-w \(width)")
            let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(run.out.hasSuffix("\n"))
            if width == "0" {
                // Unlimited width: one heading line, the rule, one line per row (C5, C6).
                #expect(lines.count == c.rows + 2, "-w 0 output lines")
            } else {
                #expect(lines.count >= 3, "-w 80 prints a table")
            }
        }
    }

    @Test("I4: real-world JSON and JSON Lines")
    func json() throws {
        for c in Self.jsonCases {
            let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(c.path)))
            let table = InputTestKit.table(bytes, name: c.path, options: FormatOptions())
            #expect(table.error == nil, "\(c.path): \(table.error.map(String.init(describing:)) ?? "")")
            #expect(table.rows == c.rows, "\(c.path)")
            if let columns = c.columns { #expect(table.columns.count == columns, "\(c.path)") }
            #expect(table.columns.contains(c.mustHave), "\(c.path)")
            #expect(table.warnings.isEmpty, "\(c.path)")
            for width in ["0", "80"] {
                let run = try runTool(["-w", width, c.path], directory: Self.folder)
                #expect(run.status == 0, "\(c.path) -w \(width): \(run.err)")
                #expect(run.err.isEmpty, "\(c.path) -w \(width)")
            }
        }
    }
}
