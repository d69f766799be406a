import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

@Suite("JSONReader fuzz")
struct JSONFuzzTests {
    static let seeds: [String] = [
        #"[{"name":"Ann","age":30,"tags":["a","b"]},{"name":"Bob","address":{"city":"Oslo"}}]"#,
        "{\"a\":1}\n{\"b\":[1,{\"c\":null}]}\r\n\n[1,2]\n",
        #"[[1,"x\u00e9\ud83d\ude00"],[2,-0.5e+10,true,false,null,{}]]"#,
        #"{"a":{"b":{"c":[[],{}]}},"a":"\"\\\/\b\f\n\r\t"}"#,
        "  \"lonely\"  ",
        "[1E-999, 123456789012345678901234567890, 0, -0, 1.10]",
    ]

    /// Bytes a mutation inserts: JSON's structure, escapes, numbers, literals, line breaks,
    /// and bytes that are not valid UTF-8 or not allowed at all.
    static let interesting: [UInt8] = Array("{}[],:\"\\ 0123456789eE-+.tfnu\n\r\t/".utf8) + [0x00, 0x01, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF, 0xED, 0xA0, 0x80]

    static func mutate(_ input: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let at = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                bytes.insert(interesting[Int.random(in: 0..<interesting.count, using: &random)], at: at)
            case 1 where !bytes.isEmpty:
                bytes.remove(at: at)
            case 2 where !bytes.isEmpty:
                bytes[at] = interesting[Int.random(in: 0..<interesting.count, using: &random)]
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, at + Int.random(in: 1...8, using: &random))
                bytes.insert(contentsOf: bytes[at..<end], at: at)
            default:
                bytes.removeLast(min(bytes.count, Int.random(in: 0...3, using: &random)))
            }
        }
        return bytes
    }

    @Test("E5: mutated JSON never crashes, and chunking never changes the outcome")
    func mutations() {
        var random = SplitMix64(seed: 0x7AB1_EF37)
        var rejected = 0
        for round in 0..<3000 {
            let seed = Array(Self.seeds[round % Self.seeds.count].utf8)
            let input = Self.mutate(seed, &random)
            let modes: [Bool?] = [nil, true, false]
            let linesMode = modes[round % 3]
            let whole = readJSON(input, linesMode: linesMode)
            let chunkSize = Int.random(in: 1...max(1, input.count), using: &random)
            let bytewise = readJSON(input, linesMode: linesMode, chunkSize: 1)
            let chunked = readJSON(input, linesMode: linesMode, chunkSize: chunkSize)
            let text = String(decoding: input, as: UTF8.self).debugDescription
            #expect(bytewise == whole, "round \(round): \(text)")
            #expect(chunked == whole, "round \(round), chunk size \(chunkSize): \(text)")
            #expect(whole.misshapenRows == 0, "round \(round): \(text)")
            if let error = whole.error {
                rejected += 1
                #expect(!error.hasPrefix("?"), "round \(round): error without a position: \(error)")
            }
            if bytewise != whole || chunked != whole { return }
        }
        // Both outcomes happen (the mutations are neither all fatal nor all harmless).
        #expect(rejected > 300 && rejected < 2900)
    }
}
