import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// One table-driven case: an input and everything the reader must make of it.
struct JSONCase: Sendable, CustomTestStringConvertible {
    var name: String
    var input: [UInt8]
    var linesMode: Bool?
    var maxDepth = 512
    var columns: [String]
    var rows: [[String]]
    /// `record.line` of each row, when the case checks them.
    var lines: [Int]?
    /// `line:column: message`, when the input is malformed.
    var error: String?
    var warnings: [String] = []

    var testDescription: String { name }

    init(_ name: String, _ input: String, lines linesMode: Bool? = nil, maxDepth: Int = 512, columns: [String] = [], rows: [[String]] = [],
         rowLines: [Int]? = nil, error: String? = nil, warnings: [String] = []) {
        self.init(name, Array(input.utf8), lines: linesMode, maxDepth: maxDepth, columns: columns, rows: rows, rowLines: rowLines, error: error, warnings: warnings)
    }

    init(_ name: String, _ input: [UInt8], lines linesMode: Bool? = nil, maxDepth: Int = 512, columns: [String] = [], rows: [[String]] = [],
         rowLines: [Int]? = nil, error: String? = nil, warnings: [String] = []) {
        self.name = name
        self.input = input
        self.linesMode = linesMode
        self.maxDepth = maxDepth
        self.columns = columns
        self.rows = rows
        self.lines = rowLines
        self.error = error
        self.warnings = warnings
    }
}

/// Shapes, cells and columns (I4).
let shapeCases: [JSONCase] = [
    JSONCase("array of objects", #"[{"name":"Ann","age":30},{"name":"Bob","age":41,"city":"Oslo"}]"#,
             columns: ["name", "age", "city"], rows: [["Ann", "30", ""], ["Bob", "41", "Oslo"]], rowLines: [1, 1]),
    JSONCase("pretty array: a row's line is where its value starts", "[\n  {\"a\": 1},\n\n  {\"a\": 2,\n   \"b\": 3}\n]\n",
             columns: ["a", "b"], rows: [["1", ""], ["2", "3"]], rowLines: [2, 4]),
    JSONCase("nested objects flatten to dotted columns", #"[{"id":1,"address":{"city":"Paris","geo":{"lat":48.85,"lon":2.35}},"x":0}]"#,
             columns: ["id", "address.city", "address.geo.lat", "address.geo.lon", "x"], rows: [["1", "Paris", "48.85", "2.35", "0"]]),
    JSONCase("arrays of scalars are joined, null as null", #"{"tags":["a","b c",3,true,false,null,"x"],"one":[1]}"#,
             columns: ["tags", "one"], rows: [["a, b c, 3, true, false, null, x", "1"]]),
    JSONCase("a string element that would read as something else is quoted",
             #"[{"a":["a, b"]},{"a":["a","b"]},{"a":["1",1,"null","",true,"true"," x","\"q",-0.5,"-0.5","1e3","01"]}]"#,
             columns: ["a"], rows: [[#""a, b""#], ["a, b"], [#""1", 1, "null", "", true, "true", " x", "\"q", -0.5, "-0.5", "1e3", 01"#]]),
    JSONCase("other nested values become compact JSON", "{\"a\": [ {\"x\": 1} , [2, 3] ], \"b\": [ ], \"c\": { }, \"d\": [[]], \"e\": [1, [2]]}",
             columns: ["a", "b", "c", "d", "e"], rows: [[#"[{"x":1},[2,3]]"#, "[]", "{}", "[[]]", "[1,[2]]"]]),
    JSONCase("compact JSON re-escapes strings minimally", #"{"a":[{"k\"ey":"li\nne \u0001 \/ é \u00e9 \\"}, null, 1.50, true]}"#,
             columns: ["a"], rows: [[#"[{"k\"ey":"li\nne \u0001 / é é \\"},null,1.50,true]"#]]),
    JSONCase("numbers keep their source text", #"[{"n":1.10},{"n":123456789012345678901234567890},{"n":1E-999},{"n":-0.0e+5},{"n":0}]"#,
             columns: ["n"], rows: [["1.10"], ["123456789012345678901234567890"], ["1E-999"], ["-0.0e+5"], ["0"]]),
    JSONCase("strings are unescaped, surrogate pairs combined", #"["\u00e9\ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t|\u0000|"]"#,
             columns: ["Value"], rows: [["é😀 \"q\" \\ / \u{8}\u{C}\n\r\t|\u{0}|"]]),
    JSONCase("lone surrogates become U+FFFD with one warning", "[\"ok\",\n\"a\\ud800b\", \"\\udc00\", \"\\ud800\\u0041\", \"\\ud800\\ud800\\udc00\"]",
             columns: ["Value"], rows: [["ok"], ["a\u{FFFD}b"], ["\u{FFFD}"], ["\u{FFFD}A"], ["\u{FFFD}\u{10000}"]],
             warnings: [#"t.json: lone UTF-16 surrogate in a \u escape replaced with U+FFFD (4 times, first on line 2)"#]),
    JSONCase("null is empty, booleans as written", #"[{"a":null,"b":true,"c":false}]"#,
             columns: ["a", "b", "c"], rows: [["", "true", "false"]]),
    JSONCase("duplicate key: the last value wins, with a warning", #"{"a":1,"b":2,"a":3}"#, columns: ["a", "b"], rows: [["3", "2"]],
             warnings: ["t.json: duplicate key \"a\" in one object on line 1: the last value is shown (1 time in all)"]),
    JSONCase("duplicate key: the last value wins whole", #"{"a":{"b":1,"c":2},"a":{"c":3}}"#,
             columns: ["a.b", "a.c"], rows: [["", "3"]], warnings: ["t.json: duplicate key \"a\" in one object on line 1: the last value is shown (1 time in all)"]),
    JSONCase("duplicate key: scalar then object", #"[{"a":1,"a":{"b":2}},{"a":{"b":3},"a":4}]"#,
             columns: ["a", "a.b"], rows: [["", "2"], ["4", ""]], warnings: ["t.json: duplicate key \"a\" in one object on line 1: the last value is shown (2 times in all)"]),
    JSONCase("duplicate key: deeper duplicates and empty values", #"{"a":{"b":{"c":1}},"a":{"b":{}}}"#,
             columns: ["a.b.c", "a.b"], rows: [["", "{}"]], warnings: ["t.json: duplicate key \"a\" in one object on line 1: the last value is shown (1 time in all)"]),
    JSONCase("a key with a dot has its own column beside the nested key's", #"{"a":{"b":1},"a.b":2}"#, columns: ["a.b", "a.b"], rows: [["1", "2"]]),
    JSONCase("array of arrays: Column 1…N", #"[[1,"x"],[2,"y",true]]"#,
             columns: ["Column 1", "Column 2", "Column 3"], rows: [["1", "x", ""], ["2", "y", "true"]]),
    JSONCase("nested values in an array row", #"[[1,[2,3],{"a":1},{},null,[]]]"#,
             columns: ["Column 1", "Column 2", "Column 3", "Column 4", "Column 5", "Column 6"], rows: [["1", "2, 3", #"{"a":1}"#, "{}", "", "[]"]]),
    JSONCase("top-level number", "42", columns: ["Value"], rows: [["42"]]),
    JSONCase("top-level number with whitespace", " -1.5e3 \n", columns: ["Value"], rows: [["-1.5e3"]]),
    JSONCase("top-level string", #""hi""#, columns: ["Value"], rows: [["hi"]]),
    JSONCase("top-level null", "null", columns: ["Value"], rows: [[""]]),
    JSONCase("array of scalars", #"[1,"two",null,false]"#, columns: ["Value"], rows: [["1"], ["two"], [""], ["false"]]),
    JSONCase("mixed shapes union their columns", #"[{"a":1},[2],3,{"b":4,"a":5}]"#,
             columns: ["a", "Column 1", "Value", "b"], rows: [["1", "", "", ""], ["", "2", "", ""], ["", "", "3", ""], ["5", "", "", "4"]]),
    JSONCase("single object: one row", #"{"a":1,"b":{"c":2}}"#, columns: ["a", "b.c"], rows: [["1", "2"]]),
    JSONCase("empty objects", #"[{},{"a":{}},{}]"#, columns: ["a"], rows: [[""], ["{}"], [""]]),
    JSONCase("empty array: no rows", " [ ] ", columns: [], rows: []),
    JSONCase("key order across rows is first-seen", #"[{"b":1,"a":2},{"c":3,"a":4,"b":5}]"#,
             columns: ["b", "a", "c"], rows: [["1", "2", ""], ["5", "4", "3"]]),
    JSONCase("empty key", #"{"":1,"a":{"":2}}"#, columns: ["", "a."], rows: [["1", "2"]]),
    JSONCase("U+2028 and U+2029 are not line breaks", "[\"a\u{2028}b\",\n\"c\u{2029}d\"]",
             columns: ["Value"], rows: [["a\u{2028}b"], ["c\u{2029}d"]], rowLines: [1, 2]),
    JSONCase("invalid UTF-8 arrives as U+FFFD", [0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D],
             columns: ["Value"], rows: [["a\u{FFFD}"]]),
    JSONCase("byte-order mark removed", [0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8), columns: ["a"], rows: [["1"]]),
]

/// JSON Lines, and how auto mode tells it from a document (I4).
let linesCases: [JSONCase] = [
    JSONCase("JSON Lines detected after the first value", "{\"a\":1}\n{\"b\":2}\n",
             columns: ["a", "b"], rows: [["1", ""], ["", "2"]], rowLines: [1, 2]),
    JSONCase("JSON Lines: blank lines skipped, CRLF", "{\"a\":1}\r\n\r\n  \n{\"a\":2}\r\n",
             columns: ["a"], rows: [["1"], ["2"]], rowLines: [1, 4]),
    JSONCase("JSON Lines: bare CR line ends", "{\"a\":1}\r{\"a\":2}\r\r{\"a\":3}",
             columns: ["a"], rows: [["1"], ["2"], ["3"]], rowLines: [1, 2, 4]),
    JSONCase("JSON Lines of arrays in auto mode: a row per line", "[1,2]\n[3,4,5]\n",
             columns: ["Column 1", "Column 2", "Column 3"], rows: [["1", "2", ""], ["3", "4", "5"]], rowLines: [1, 2]),
    JSONCase("JSON Lines of scalars", "1\n\"two\"\nnull\n[3]\n",
             columns: ["Value", "Column 1"], rows: [["1", ""], ["two", ""], ["", ""], ["", "3"]]),
    JSONCase("JSON Lines: a value may span lines", "{\"a\":\n1}\n{\"a\":2}",
             columns: ["a"], rows: [["1"], ["2"]], rowLines: [1, 3]),
    JSONCase("one-line array alone is a document", "[1,2]\n", columns: ["Value"], rows: [["1"], ["2"]]),
    JSONCase("a document array, then more values: those are lines", "[1,\n2]\n[3]",
             columns: ["Value", "Column 1"], rows: [["1", ""], ["2", ""], ["", "3"]]),
    JSONCase("first value an object, then arrays", "{\"a\":1}\n[1,2]",
             columns: ["a", "Column 1", "Column 2"], rows: [["1", "", ""], ["", "1", "2"]]),
    JSONCase("linesMode true: a top-level array is one row", "[1,2]", lines: true,
             columns: ["Column 1", "Column 2"], rows: [["1", "2"]]),
    JSONCase("linesMode true: empty input has no rows", "", lines: true),
    JSONCase("linesMode true: only blank lines", " \n\r\n\t\n", lines: true),
    JSONCase("linesMode true: two values on one line", "{\"a\":1} {\"a\":2}\n", lines: true, columns: ["a"], rows: [["1"]],
             error: "1:9: unexpected data after the JSON value: expected a line break or end of input, found '{'"),
    JSONCase("linesMode false: a second value is an error", "{\"a\":1}\n{\"a\":2}", lines: false, columns: ["a"], rows: [["1"]],
             error: "2:1: unexpected data after the JSON value: expected end of input, found '{'"),
    JSONCase("linesMode false: a one-line array is a document", "[1,2]\n", lines: false, columns: ["Value"], rows: [["1"], ["2"]]),
    JSONCase("[][] is not two values", "[][]", error: "1:3: unexpected data after the JSON value: expected a line break or end of input, found '['"),
    JSONCase("trailing garbage on the same line", "{\"a\":1}x", columns: ["a"], rows: [["1"]],
             error: "1:8: unexpected data after the JSON value: expected a line break or end of input, found 'x'"),
    JSONCase("a number then a letter", "12a", columns: ["Value"], rows: [["12"]],
             error: "1:3: unexpected data after the JSON value: expected a line break or end of input, found 'a'"),
]

/// Malformed input: what was expected, what was found, where (I4, E1, E2).
let errorCases: [JSONCase] = [
    JSONCase("empty input", "", error: "1:1: expected a JSON value, found end of input"),
    JSONCase("only whitespace", " \n ", error: "2:2: expected a JSON value, found end of input"),
    JSONCase("trailing comma in an array", "[1,2,]", columns: ["Value"], rows: [["1"], ["2"]], error: "1:6: expected a value after ',', found ']'"),
    JSONCase("wrong close", #"{"a":1]"#, columns: ["a"], error: "1:7: expected ',' or '}' after an object member, found ']'"),
    JSONCase("missing comma", "[1 2]", columns: ["Value"], rows: [["1"]], error: "1:4: expected ',' or ']' after an array element, found '2'"),
    JSONCase("array closed by a brace", "[1}", columns: ["Value"], rows: [["1"]], error: "1:3: expected ',' or ']' after an array element, found '}'"),
    JSONCase("missing colon", #"{"a" 1}"#, error: "1:6: expected ':' after an object key, found '1'"),
    JSONCase("no key", "{,}", error: "1:2: expected a string key or '}', found ','"),
    JSONCase("trailing comma in an object", #"{"a":1,}"#, columns: ["a"], error: "1:8: expected a string key after ',', found '}'"),
    JSONCase("unquoted key", "{a:1}", error: "1:2: expected a string key or '}', found 'a'"),
    JSONCase("missing value", #"{"a":}"#, error: "1:6: expected a value after ':', found '}'"),
    JSONCase("leading zero", "[01]", error: "1:3: expected '.', 'e' or the end of the number after a leading '0' (numbers have no leading zeros), found '1'"),
    JSONCase("no digit after the point", "[1.]", error: "1:4: expected a digit after '.', found ']'"),
    JSONCase("no digit after minus", "[-]", error: "1:3: expected a digit after '-', found ']'"),
    JSONCase("no digit in the exponent", "[1e]", error: "1:4: expected a digit or a sign in the exponent, found ']'"),
    JSONCase("no digit after the exponent's sign", "[1e+]", error: "1:5: expected a digit in the exponent, found ']'"),
    JSONCase("plus sign", "[+1]", error: "1:2: expected a value or ']', found '+'"),
    JSONCase("misspelled literal", "[tru]", error: "1:5: expected 'e' to complete 'true', found ']'"),
    JSONCase("capitalised literal", "[nulL]", error: "1:5: expected 'l' to complete 'null', found 'L'"),
    JSONCase("bad escape", #"["a\x"]"#, error: "1:5: expected an escape character (one of \" \\ / b f n r t u) after '\\', found 'x'"),
    JSONCase("bad unicode escape", #"["\u12G4"]"#, error: "1:7: expected 4 hex digits after '\\u', found 'G'"),
    JSONCase("raw tab in a string", "[\"a\tb\"]",
             error: "1:4: expected a string character or '\"', found unescaped control character U+0009 (control characters must be escaped in JSON strings)"),
    JSONCase("raw line break in a string", "[\"a\nb\"]",
             error: "1:4: expected a string character or '\"', found unescaped control character U+000A (control characters must be escaped in JSON strings)"),
    JSONCase("unterminated string", #"["abc"#, error: "1:6: expected '\"' to close the string that starts at 1:2, found end of input"),
    JSONCase("unclosed array", "[", error: "1:2: expected a value or ']', found end of input"),
    JSONCase("unclosed object", "{\"a\":1", columns: ["a"], error: "1:7: expected ',' or '}' after an object member, found end of input"),
    JSONCase("error after rows keeps the rows", "[{\"a\":1},{\"a\":2},\n{\"a\":3", columns: ["a"], rows: [["1"], ["2"]],
             error: "2:7: expected ',' or '}' after an object member, found end of input"),
    JSONCase("literal cut by the end", "[fals", error: "1:6: expected 'e' to complete 'false', found end of input"),
    JSONCase("apostrophe found", "{'a':1}", error: "1:2: expected a string key or '}', found \"'\""),
    JSONCase("non-ASCII found", "[é]", error: "1:2: expected a value or ']', found 'é' (U+00E9)"),
    JSONCase("invisible character found", "[\u{2060}]", error: "1:2: expected a value or ']', found U+2060"),
    JSONCase("NUL outside a string", "[\u{0}]", error: "1:2: expected a value or ']', found control character U+0000"),
    JSONCase("position on a later line", "{\n  \"a\": 1,\n  \"b\": x\n}", columns: ["a"], error: "3:8: expected a value after ':', found 'x'"),
    JSONCase("position after CRLF", "{\"a\":1}\r\n{\"a\":}", columns: ["a"], rows: [["1"]], error: "2:6: expected a value after ':', found '}'"),
    JSONCase("close without open", "]", error: "1:1: expected a JSON value, found ']'"),
    JSONCase("columns count bytes", "[\"é😀\",x]", columns: ["Value"], rows: [["é😀"]], error: "1:11: expected a value after ',', found 'x'"),
    JSONCase("nesting within the limit", "[[[1]]]", maxDepth: 3, columns: ["Column 1"], rows: [["1"]]),
    JSONCase("nesting past the limit", "[[[[1]]]]", maxDepth: 3,
             error: "1:4: expected at most 3 levels of nested arrays and objects, found '[' opening level 4"),
    JSONCase("objects count toward the limit", #"{"a":{"b":{"c":1}}}"#, maxDepth: 2,
             error: "1:11: expected at most 2 levels of nested arrays and objects, found '{' opening level 3"),
]

@Suite("JSONReader")
struct JSONReaderTests {
    /// Runs a case with every chunk size from 1 byte to the whole input.
    func check(_ c: JSONCase) {
        for chunkSize in 1...max(1, c.input.count) {
            let outcome = readJSON(c.input, linesMode: c.linesMode, chunkSize: chunkSize, maxDepth: c.maxDepth)
            var expected = JSONOutcome(columns: c.columns, rows: c.rows, lines: outcome.lines, error: c.error, warnings: c.warnings)
            if let lines = c.lines { expected.lines = lines }
            #expect(outcome == expected, "chunk size \(chunkSize)")
            if outcome != expected { return }  // one failure per case is enough to read
        }
    }

    @Test("I4: shapes and cells, at every chunk size", arguments: shapeCases)
    func shapes(_ c: JSONCase) { check(c) }

    @Test("I4: JSON Lines and auto detection, at every chunk size", arguments: linesCases)
    func jsonLines(_ c: JSONCase) { check(c) }

    @Test("I4/E1: malformed input names what was expected and found, at every chunk size", arguments: errorCases)
    func errors(_ c: JSONCase) { check(c) }

    @Test("I4: columns grow as keys appear; each record has the columns known then")
    func columnsGrow() throws {
        let stream = InputStream(MemorySource(#"[{"a":1},{"b":2,"a":3},{"c":{"d":4}}]"#, chunkSize: 5), chunkSize: 16)
        var reader = JSONReader(stream: stream, linesMode: nil, sourceName: "t.json")
        var record = Record()
        #expect(reader.columnNames == [])
        #expect(try reader.read(into: &record))
        #expect(record.strings == ["1"])
        #expect(reader.columnNames == ["a"])
        #expect(try reader.read(into: &record))
        #expect(record.strings == ["3", "2"])
        #expect(reader.columnNames == ["a", "b"])
        #expect(try reader.read(into: &record))
        #expect(record.strings == ["", "", "4"])
        #expect(reader.columnNames == ["a", "b", "c.d"])
        #expect(try !reader.read(into: &record))
        #expect(record.count == 0)
    }

    @Test("I4: an error names the source and is malformed (exit 65)")
    func errorKind() {
        let stream = InputStream(MemorySource("[1,]"), chunkSize: 16)
        var reader = JSONReader(stream: stream, linesMode: nil, sourceName: "data.json")
        var record = Record()
        do {
            while try reader.read(into: &record) {}
            Issue.record("no error")
        } catch {
            #expect(error.kind == .malformed)
            #expect(error.exitCode == 65)
            #expect(error.description == "data.json:1:4: expected a value after ',', found ']'")
        }
        // After an error the reader is at its end.
        #expect((try? reader.read(into: &record)) == false)
    }

    @Test("I4/E5: deep nesting is rejected without recursion")
    func deepNesting() {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 200_000)
        let outcome = readJSON(deep, chunkSize: 4096)
        #expect(outcome.error == "1:513: expected at most 512 levels of nested arrays and objects, found '[' opening level 513")
        let objects = Array(String(repeating: #"{"a":"#, count: 100_000).utf8)
        #expect(readJSON(objects, chunkSize: 4096).error == "1:2561: expected at most 512 levels of nested arrays and objects, found '{' opening level 513")
        // 512 levels are fine.
        let fine = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(readJSON(fine).error == nil)
    }

    @Test("I4: a long one-line array is a document even in auto mode")
    func longFirstLine() {
        // Past the lookahead limit the first array is streamed as a document.
        var text = "["
        let element = #"{"k":"0123456789012345678901234567890123456789"},"#
        while text.utf8.count <= JSONReader.lookaheadLimit { text += element }
        text += "1]\n[2]"
        let outcome = readJSON(text)
        #expect(outcome.error == nil)
        #expect(outcome.columns == ["k", "Value", "Column 1"])
        #expect(outcome.rows.count == (JSONReader.lookaheadLimit / element.utf8.count) + 3)
    }
}
