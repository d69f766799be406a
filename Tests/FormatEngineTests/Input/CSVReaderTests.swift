import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// One parser case: input → records (with the lines they start on, when given) or an error.
struct CSVCase: Sendable, CustomTestStringConvertible {
    enum Outcome: Sendable {
        case records([[String]])
        /// The records read before the error, its message and its position (line, column).
        case error([[String]], String, Int, Int)
    }

    let name: String
    let input: [UInt8]
    let dialect: Dialect
    let outcome: Outcome
    /// The `record.line` of each record, when the case is about positions.
    let lines: [Int]?

    init(_ name: String, _ input: String, lines: [Int]? = nil, _ outcome: Outcome) {
        self.init(name, input, .csv(), lines: lines, outcome)
    }

    init(_ name: String, _ input: String, _ dialect: Dialect, lines: [Int]? = nil, _ outcome: Outcome) {
        self.name = name
        self.input = Array(input.utf8)
        self.dialect = dialect
        self.outcome = outcome
        self.lines = lines
    }

    var testDescription: String { name }
}

private let keepBlank = Dialect(skipBlankLines: false)
private let semicolon = Dialect.csv(UInt8(ascii: ";"))
private let pipe = Dialect.csv(UInt8(ascii: "|"))
private let tsv = Dialect.tsv
private let unterminated = "unterminated quoted field"

/// I2, I3: the CSV/TSV state machine, every case at every chunk size (as rust-csv's `parses_to!` tests do).
@Suite("CSVReader")
struct CSVReaderTests {
    static let cases: [CSVCase] = [
        // Records and line ends.
        CSVCase("simple with final LF", "a,b,c\n1,2,3\n", lines: [1, 2], .records([["a", "b", "c"], ["1", "2", "3"]])),
        CSVCase("no final newline", "a,b\n1,2", lines: [1, 2], .records([["a", "b"], ["1", "2"]])),
        CSVCase("empty input", "", .records([])),
        CSVCase("one field", "x", .records([["x"]])),
        CSVCase("CRLF line ends", "a,b\r\n1,2\r\n", lines: [1, 2], .records([["a", "b"], ["1", "2"]])),
        CSVCase("bare CR line ends", "a,b\r1,2\r3,4", lines: [1, 2, 3], .records([["a", "b"], ["1", "2"], ["3", "4"]])),
        CSVCase("LF, CRLF and CR mixed", "a,1\r\nb,2\nc,3\rd,4\r\ne,5", lines: [1, 2, 3, 4, 5],
                .records([["a", "1"], ["b", "2"], ["c", "3"], ["d", "4"], ["e", "5"]])),
        CSVCase("final CR", "a\r", .records([["a"]])),
        CSVCase("final CRLF", "a\r\n", .records([["a"]])),
        CSVCase("spaces are data", " a , b \n", .records([[" a ", " b "]])),
        CSVCase("UTF-8 fields", "é,日本\n\"ü,ß\",😀\n", .records([["é", "日本"], ["ü,ß", "😀"]])),
        CSVCase("backslash is data in CSV", "a\\tb,c\\\n", .records([["a\\tb", "c\\"]])),
        // The word scan's tests may also mark the byte after a hit (the delimiter's byte with its
        // lowest bit flipped, 0x0E after a control): such a byte is data.
        CSVCase("minus signs after delimiters", "1,-2,--3,-\n-,-,-\n", lines: [1, 2], .records([["1", "-2", "--3", "-"], ["-", "-", "-"]])),
        CSVCase("0x0E after line breaks and tabs", "a\n\u{0E}b,\t\u{0E}\r\n\u{0E}\n", lines: [1, 2, 3], .records([["a"], ["\u{0E}b", "\t\u{0E}"], ["\u{0E}"]])),

        // Trailing delimiters and empty fields.
        CSVCase("trailing delimiter", "a,b,\n1,2,\n", .records([["a", "b", ""], ["1", "2", ""]])),
        CSVCase("trailing delimiter at EOF", "a,", .records([["a", ""]])),
        CSVCase("only a delimiter", ",", .records([["", ""]])),
        CSVCase("only delimiters then LF", ",,\n", .records([["", "", ""]])),
        CSVCase("empty fields between", "a,,c\n,,\n", .records([["a", "", "c"], ["", "", ""]])),

        // Quoting.
        CSVCase("quoted fields", "\"a\",\"b c\"\n", .records([["a", "b c"]])),
        CSVCase("doubled quote", "\"say \"\"hi\"\"\",x", .records([["say \"hi\"", "x"]])),
        CSVCase("only a doubled quote", "\"\"\"\"", .records([["\""]])),
        CSVCase("quote at start and end", "\"\"\"D\",\"D\"\"\"", .records([["\"D", "D\""]])),
        CSVCase("delimiter inside quotes", "\"a,b\",c\n", .records([["a,b", "c"]])),
        CSVCase("LF inside quotes", "\"a\nb\",c\nd,e", lines: [1, 3], .records([["a\nb", "c"], ["d", "e"]])),
        CSVCase("CRLF inside quotes kept", "\"a\r\nb\",c\r\nd,e\r\n", lines: [1, 3], .records([["a\r\nb", "c"], ["d", "e"]])),
        CSVCase("CR inside quotes kept", "\"a\rb\",c\rd,e", lines: [1, 3], .records([["a\rb", "c"], ["d", "e"]])),
        CSVCase("CR CR inside quotes is two lines", "\"a\r\rb\"\rc", lines: [1, 4], .records([["a\r\rb"], ["c"]])),
        CSVCase("LF CR inside quotes is two lines", "\"a\n\rb\"\nc", lines: [1, 4], .records([["a\n\rb"], ["c"]])),
        CSVCase("quoted empty field", "a,\"\"\n\"\",b", .records([["a", ""], ["", "b"]])),
        CSVCase("quoted empty then trailing delimiter", "\"\",", .records([["", ""]])),
        CSVCase("text after a closing quote is kept", "\"a\"b,c", .records([["ab", "c"]])),
        CSVCase("space after a closing quote is kept", "\"a\" ,b", .records([["a ", "b"]])),
        CSVCase("quote after a closing quote is literal", "\"a\"b\"c,d", .records([["ab\"c", "d"]])),
        CSVCase("quote in an unquoted field is literal", "a\"b,c\"\n", .records([["a\"b", "c\""]])),
        CSVCase("space then quote is unquoted", " \"x\",y", .records([[" \"x\"", "y"]])),
        CSVCase("unquoted quote does not open a field", " \"a,b\" ", .records([[" \"a", "b\" "]])),
        CSVCase("long fields span many buffers",
                "\(String(repeating: "x", count: 300)),\"\(String(repeating: "y,", count: 150))\"\n",
                .records([[String(repeating: "x", count: 300), String(repeating: "y,", count: 150)]])),
        CSVCase("quoting off", "\"a,b\"", Dialect(quoting: false), .records([["\"a", "b\""]])),

        // Blank lines.
        CSVCase("blank lines skipped", "a\n\nb\r\n\r\nc\r\rd\n\n", lines: [1, 3, 5, 7], .records([["a"], ["b"], ["c"], ["d"]])),
        CSVCase("leading blank lines skipped", "\n\r\n\ra,b\n", lines: [4], .records([["a", "b"]])),
        CSVCase("only blank lines", "\n\r\n\r\n", .records([])),
        CSVCase("blank lines kept when asked", "a\n\nb\r\n\r\nc\r\rd\n", keepBlank, lines: [1, 2, 3, 4, 5, 6, 7],
                .records([["a"], [""], ["b"], [""], ["c"], [""], ["d"]])),
        CSVCase("kept blank line before data", "\r\nD", keepBlank, .records([[""], ["D"]])),
        CSVCase("kept: final newline makes no record", "D\n", keepBlank, .records([["D"]])),
        CSVCase("kept: final blank line is a record", "D\n\n", keepBlank, .records([["D"], [""]])),
        CSVCase("whitespace line is not blank", "a\n \nb", lines: [1, 2, 3], .records([["a"], [" "], ["b"]])),
        CSVCase("\"\" alone on a line is a record", "a\n\"\"\nb", lines: [1, 2, 3], .records([["a"], [""], ["b"]])),
        CSVCase("\"\" alone at EOF is a record", "a\r\n\"\"", .records([["a"], [""]])),

        // Errors: the opening quote's line and column (bytes, 1-based).
        CSVCase("unterminated quote", "a,b\n1,\"x\ny", .error([["a", "b"]], unterminated, 2, 3)),
        CSVCase("unterminated quote at the start", "\"abc", .error([], unterminated, 1, 1)),
        CSVCase("unterminated after CRLF lines", "a\r\nb\r\n  ,\"q", .error([["a"], ["b"]], unterminated, 3, 4)),
        CSVCase("unterminated after bare CR lines", "a\rb\r\"q", .error([["a"], ["b"]], unterminated, 3, 1)),
        CSVCase("unterminated after a quoted LF", "\"x\ny\",\"z", .error([], unterminated, 2, 4)),
        CSVCase("unterminated after a quoted CRLF", "\"x\r\ny\",\"z", .error([], unterminated, 2, 4)),
        CSVCase("unterminated after a quoted CR", "\"x\ry\",\"z", .error([], unterminated, 2, 4)),
        CSVCase("unterminated after skipped blank lines", "h\n\n\n\"", .error([["h"]], unterminated, 4, 1)),
        CSVCase("unterminated: column counts bytes", "é,\"x", .error([], unterminated, 1, 4)),
        CSVCase("unterminated ending in a doubled quote", "a,\"b\"\"", .error([], unterminated, 1, 3)),

        // Other delimiters.
        CSVCase("semicolon", "a;b,c;\"d;e\"\n1;2;3", semicolon, .records([["a", "b,c", "d;e"], ["1", "2", "3"]])),
        CSVCase("pipe", "a|b|c\n1|\"2|3\"|4", pipe, .records([["a", "b", "c"], ["1", "2|3", "4"]])),
        CSVCase("comma is data with semicolons", "1,5;2,5\n", semicolon, .records([["1,5", "2,5"]])),
        CSVCase("colons after semicolons", "a;:b;::;:\n", semicolon, .records([["a", ":b", "::", ":"]])),

        // TSV (I3).
        CSVCase("TSV fields", "a\tb\n1\t2\n", tsv, .records([["a", "b"], ["1", "2"]])),
        CSVCase("TSV escapes decoded", "1\\t2\t3\\n4\tx\\ry\\\\z\n", tsv, lines: [1], .records([["1\t2", "3\n4", "x\ry\\z"]])),
        CSVCase("TSV escaped backslash then t", "a\\\\tb", tsv, .records([["a\\tb"]])),
        CSVCase("TSV other backslashes kept", "C:\\path\\file\t\\a\\", tsv, .records([["C:\\path\\file", "\\a\\"]])),
        CSVCase("TSV backslash before a line end", "a\\\nb\\\r\nc", tsv, lines: [1, 2, 3], .records([["a\\"], ["b\\"], ["c"]])),
        CSVCase("TSV backslash before a tab", "a\\\tb", tsv, .records([["a\\", "b"]])),
        CSVCase("TSV ] after a backslash and a tab", "a\\]b\t]\t\\]]\n", tsv, .records([["a\\]b", "]", "\\]]"]])),
        CSVCase("TSV escaped newline is not a line", "a\\nb\tc\nd", tsv, lines: [1, 2], .records([["a\nb", "c"], ["d"]])),
        CSVCase("TSV quoted field with a newline", "a\t\"b\nc\"\td\ne\tf\tg\n", tsv, lines: [1, 3], .records([["a", "b\nc", "d"], ["e", "f", "g"]])),
        CSVCase("TSV quoted field keeps backslashes", "\"a\\tb\"\tc", tsv, .records([["a\\tb", "c"]])),
        CSVCase("TSV comma is data", "a,b\tc", tsv, .records([["a,b", "c"]])),
        CSVCase("TSV unterminated quote", "a\tb\nc\t\"d", tsv, .error([["a", "b"]], unterminated, 2, 3)),
    ]

    @Test("I2/I3: records at every chunk size", arguments: cases)
    func records(_ c: CSVCase) {
        for chunk in InputTestKit.everyChunkSize(c.input.count) {
            let got = InputTestKit.parse(c.input, dialect: c.dialect, chunkSize: chunk)
            switch c.outcome {
            case .records(let expected):
                #expect(got.error == nil, "chunk \(chunk): \(got.error.map(String.init(describing:)) ?? "")")
                #expect(got.records == expected, "chunk \(chunk)")
            case .error(let before, let message, let line, let column):
                #expect(got.records == before, "chunk \(chunk)")
                #expect(got.error?.kind == .malformed, "chunk \(chunk)")
                #expect(got.error?.message == message, "chunk \(chunk)")
                #expect(got.error?.position == SourcePosition(line: line, column: column), "chunk \(chunk)")
                #expect(got.error?.description == "test.csv:\(line):\(column): \(message)", "chunk \(chunk)")
            }
            if let lines = c.lines {
                #expect(got.lines == lines, "chunk \(chunk)")
            }
        }
    }

    @Test("I2: TestSupport.readCSV agrees with the reader")
    func readCSVHelper() {
        let input = Array("a,\"b\nc\"\r\n\r\n1,2".utf8)
        for chunk in InputTestKit.everyChunkSize(input.count) {
            let got = readCSV(input, chunkSize: chunk)
            #expect(got.error == nil)
            #expect(got.records == [["a", "b\nc"], ["1", "2"]], "chunk \(chunk)")
        }
    }

    @Test("I2: after an error or the end, reading again gives nothing more")
    func afterTheEnd() throws {
        for input in ["a,b\n", "a,b", "a\r", ""] {
            let stream = InputStream(MemorySource(input), chunkSize: 16)
            var reader = CSVReader(stream: stream, dialect: .csv())
            var record = Record()
            while try reader.read(into: &record) {}
            #expect(try reader.read(into: &record) == false, "\(input.debugDescription)")
            #expect(record.count == 0)
        }
    }

    /// Seeded property: any table written with RFC 4180 quoting parses back to itself, with any
    /// line end and at random chunk sizes.
    @Test("I2: random tables round-trip", arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func roundTrip(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let alphabet: [String] = ["a", "b", "Z", "0", " ", ",", ";", "\"", "\n", "\r", "\r\n", "é", "日", "😀", "\\", "\t"]
        let endings = ["\n", "\r\n", "\r"]
        for _ in 0..<40 {
            let columns = Int.random(in: 1...5, using: &rng)
            let rows = Int.random(in: 1...6, using: &rng)
            var table: [[String]] = []
            for _ in 0..<rows {
                var row: [String] = []
                for _ in 0..<columns {
                    let length = Int.random(in: 0...6, using: &rng)
                    row.append((0..<length).map { _ in alphabet.randomElement(using: &rng) ?? "" }.joined())
                }
                table.append(row)
            }
            // A row that is one empty field would be a blank line: write it quoted.
            var text = ""
            for row in table {
                text += row.map { field in
                    let needsQuotes = field.isEmpty && row.count == 1 || field.unicodeScalars.contains { ",\"\r\n".unicodeScalars.contains($0) }
                    return needsQuotes ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
                }.joined(separator: ",")
                text += endings.randomElement(using: &rng) ?? "\n"
            }
            let bytes = Array(text.utf8)
            for chunk in [1, Int.random(in: 2...17, using: &rng), 1 << 16] {
                let got = InputTestKit.parse(bytes, chunkSize: chunk)
                #expect(got.error == nil)
                #expect(got.records == table, "seed \(seed), chunk \(chunk), input \(text.debugDescription)")
            }
        }
    }

    /// Seeded property: on any bytes (malformed included) the records, their lines and the error
    /// do not depend on where the chunks split, in every dialect.
    @Test("I2/I3: random bytes parse the same at every chunk size", arguments: [21, 22, 23, 24] as [UInt64])
    func chunkInvariance(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let pieces: [[UInt8]] = [[0x22], [0x22], [0x2C], [0x3B], [0x09], [0x0A], [0x0D], [0x0D, 0x0A], [0x5C], [0x61], [0x20], [0x74], [0x6E],
                                 Array("é".utf8), Array("😀".utf8)]
        let dialects: [Dialect] = [.csv(), Dialect(skipBlankLines: false), .tsv, .csv(UInt8(ascii: ";")), Dialect(quoting: false)]
        for _ in 0..<150 {
            // Up to 40 pieces: long enough that whole-buffer reads take the eight-bytes-at-a-time
            // path across several fields, which chunks under eight bytes never reach.
            let input = (0..<Int.random(in: 0...40, using: &rng)).flatMap { _ in pieces.randomElement(using: &rng) ?? [] }
            for dialect in dialects {
                let reference = InputTestKit.parse(input, dialect: dialect, chunkSize: 1 << 16)
                for chunk in [1, 2, 3, 5, 7, 9, 13] where chunk <= max(1, input.count) {
                    #expect(InputTestKit.parse(input, dialect: dialect, chunkSize: chunk) == reference, "input \(input) chunk \(chunk)")
                }
            }
        }
    }

    // MARK: - Sniffer

    struct SniffCase: Sendable, CustomTestStringConvertible {
        let input: String
        let expected: Character
        var testDescription: String { "\(input.debugDescription) → \(expected.debugDescription)" }
    }

    static let sniffCases: [SniffCase] = [
        SniffCase(input: "a,b,c\n1,2,3\n", expected: ","),
        SniffCase(input: "a;b;c\n1;2;3\n", expected: ";"),
        SniffCase(input: "a\tb\tc\n1\t2\t3\n", expected: "\t"),
        SniffCase(input: "a|b|c\n1|2|3\n", expected: "|"),
        SniffCase(input: "a;b\r\n1;2\r\n", expected: ";"),
        SniffCase(input: "a|b\r1|2\r", expected: "|"),
        SniffCase(input: "a;b;c", expected: ";"),  // a whole input without a final newline
        // Decimal commas: commas split the lines unevenly, semicolons consistently.
        SniffCase(input: "a;b;c\n1,5;2;3\n4;5,5;6,25\n", expected: ";"),
        // Delimiters inside quotes do not count.
        SniffCase(input: "\"x;y\",z\n\"p;q\",r\n\"s;t\",u\n", expected: ","),
        SniffCase(input: "\"a,b,c\";d\n\"e,f,g\";h\n", expected: ";"),
        // A single column: nothing to go on, so the default (comma).
        SniffCase(input: "name\nalice\nbob\n", expected: ","),
        SniffCase(input: "", expected: ","),
        // A tie goes to the earlier candidate.
        SniffCase(input: "a,b;c\n", expected: ","),
        // Blank lines do not count against a candidate.
        SniffCase(input: "a;b\n\n1;2\n\n3;4\n", expected: ";"),
        // Prose with commas in a semicolon file: most lines agree on ;.
        SniffCase(input: "Title, with a comma\nx;y;z\n1;2;3\n4;5;6\n", expected: ";"),
    ]

    @Test("I2: the delimiter is sniffed among , ; TAB |", arguments: sniffCases)
    func sniffDelimiter(_ c: SniffCase) {
        let bytes = Array(c.input.utf8)
        let got = bytes.withUnsafeBufferPointer { Sniffer.delimiter(of: $0) }
        #expect(got == c.expected.asciiValue)
    }

    @Test("I1: the format is sniffed from the first non-blank byte", arguments: [
        ("[{\"a\":1}]", InputFormat.json), ("  \n\t{\"a\":1}", .json), ("\r\n[1]", .json),
        ("a,b\n", .csv), ("", .csv), ("   ", .csv), ("\"[x]\",y", .csv),
    ])
    func sniffFormat(_ input: String, _ expected: InputFormat) {
        let bytes = Array(input.utf8)
        #expect(bytes.withUnsafeBufferPointer { Sniffer.format(of: $0) } == expected)
    }

    // MARK: - Through the command line

    /// E1/E2: a malformed file prints the rows before the error, then `FILE:LINE:COL: message`, exit 65.
    @Test("E1/E2: unterminated quote through the CLI")
    func cliUnterminated() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("csvreadertests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("name,n\r\nalpha,1\r\nbeta,\"2\r\n".utf8).write(to: folder.appendingPathComponent("bad.csv"))
        let run = try runTool(["-w", "0", "bad.csv"], directory: folder)
        #expect(run.status == 65)
        #expect(run.err == "tablefmt: bad.csv:3:6: unterminated quoted field\n")
        #expect(run.out.contains("alpha"))
        #expect(!run.out.contains("beta"))
    }
}
