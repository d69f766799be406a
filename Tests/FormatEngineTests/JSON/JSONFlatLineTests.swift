import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// P1: the JSON Lines rows `readFlatLine` reads straight from the stream's buffer come out as the
/// byte machine reads them: the same cells, columns, lines, warnings, errors and row-size limits.
@Suite("JSON Lines flat rows")
struct JSONFlatLineTests {
    /// Reads `bytes` as JSON Lines to the end, the flat path on or off.
    static func read(_ bytes: [UInt8], flat: Bool, chunkSize: Int, maxRowBytes: Int = Int.max) -> (outcome: JSONOutcome, flatRows: Int) {
        var count = 0
        let outcome = readJSON(bytes, linesMode: true, chunkSize: chunkSize, streamChunkSize: chunkSize, flat: flat, maxRowBytes: maxRowBytes) { count = $0 }
        return (outcome, count)
    }

    static let keys = ["id", "name", "a.b", "qty", "", "x y", "é", "note"]
    static let values = [
        #""plain""#, #""say \"hi\"""#, #""tab\there\nnl\r\b\f\/\\""#, #""\u00e9\ud83d\ude00""#, #""\ud800 lone""#,
        "123", "-0", "0.5", "1e5", "-2.5E-3", "true", "false", "null", #""""#, #""ü 漢字""#,
        #"{"in":1}"#, #"[1,"a"]"#, "[]", "{}",
        // Malformed: each ends the input with an error, at the same place either way.
        "01", "1.", "-", "1e", "nul", "truex", "12x", "\"a\u{01}b\"", #""\x""#, "\"open",
    ]

    /// A JSON Lines text of `rows` rows: mostly flat objects with the keys in one order, some in
    /// another order, with a key twice, new keys, nested values, blank space, blank lines, CR LF,
    /// a value over two lines, other top-level values; malformed values when `bad`.
    static func generate(_ random: inout SplitMix64, rows: Int, bad: Bool) -> [UInt8] {
        var text = ""
        let usable = bad ? values.count : values.firstIndex(of: "01")!
        for i in 0..<rows {
            let shape = random.below(100)
            if shape < 75 {
                var keys = Array(Self.keys.prefix(4))
                if random.below(5) == 0 { keys = Self.keys.shuffled(using: &random).prefix(1 + random.below(Self.keys.count)).map { $0 } }
                if random.below(30) == 0, let first = keys.first { keys.append(first) }
                let blank = random.below(6) == 0 ? [" ", "\t", "  "][random.below(3)] : ""
                let members = keys.map { key -> String in
                    let value = random.below(3) == 0 ? values[random.below(usable)] : ["\"v\(i)\"", "\(i)", "true", "null", #""q \"\#(i)\"""#][random.below(5)]
                    return "\"\(key)\"\(blank):\(blank)\(value)"
                }
                text += blank + "{" + blank + members.joined(separator: "," + blank) + blank + "}" + blank
            } else if shape < 80 {
                text += "{}"
            } else if shape < 84 {
                text += "{\"id\":\(i),\n\"name\":\"two lines\"}"
            } else if shape < 87 {
                text += ""
            } else if shape < 90 {
                text += "{\"id\":\(i)}\r"
            } else if shape < 92 {
                text += "[\(i),\"x\"]"
            } else if shape < 93 {
                text += "\"scalar\""
            } else {
                text += "{\"id\":\(i),\"nest\":{\"a\":\(i)},\"qty\":\(i)}"
            }
            text += "\n"
        }
        return Array(text.utf8)
    }

    @Test("P1: flat rows read from the buffer equal the byte machine's, whole and in chunks")
    func sameAsTheMachine() {
        var random = SplitMix64(seed: 0x0F1A_7115)
        var flatRows = 0
        for round in 0..<400 {
            let input = Self.generate(&random, rows: 1 + random.below(60), bad: round % 4 == 3)
            let machine = Self.read(input, flat: false, chunkSize: 1 << 16).outcome
            for chunkSize in [1 << 16, 1 + random.below(200)] {
                let flat = Self.read(input, flat: true, chunkSize: chunkSize)
                #expect(flat.outcome == machine, "round \(round), chunk \(chunkSize): \(String(decoding: input, as: UTF8.self).debugDescription)")
                flatRows += flat.flatRows
            }
        }
        // The flat path did read rows (most rows of good inputs are flat).
        #expect(flatRows > 5000)
    }

    @Test("E5: the row-size limit stops the same row with the flat path as without")
    func rowLimit() {
        var random = SplitMix64(seed: 0x11A1_7E5)
        for round in 0..<300 {
            let input = Self.generate(&random, rows: 20, bad: false)
            let limit = 40 + random.below(400)
            let machine = Self.read(input, flat: false, chunkSize: 1 << 16, maxRowBytes: limit).outcome
            let flat = Self.read(input, flat: true, chunkSize: 1 << 16, maxRowBytes: limit).outcome
            #expect(flat == machine, "round \(round), limit \(limit)")
        }
    }

    @Test("I4: a flat row's cells decoded: escapes, numbers and literals as written, null empty")
    func cells() {
        let input = Array(("{\"a\":\"x\",\"b\":1}\n" + #"{"b":-2.5e3 , "a":"q\"\\\/\t\n","c":null}"# + "\n" + #"{"a":true,"b":false,"c":"漢"}"# + "\n").utf8)
        let (outcome, flat) = Self.read(input, flat: true, chunkSize: 1 << 16)
        #expect(outcome.columns == ["a", "b", "c"])
        // The first row makes the columns (the machine); the third key is new in the second row.
        // Rows padded to the final columns (as the table pads them).
        #expect(outcome.rows == [["x", "1", ""], ["q\"\\/\t\n", "-2.5e3", ""], ["true", "false", "漢"]])
        #expect(outcome.lines == [1, 2, 3])
        #expect(flat == 1)
    }
}
