import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// The one JSON text writer (`JSONText`), checked against the reader and against a grammar written
/// here apart from it, on many generated strings.
@Suite("JSON: the one number grammar and string escaping")
struct JSONTextTests {
    @Test("A string written by JSONText.quoted reads back as the same bytes, on 5,000 generated strings (controls, quotes, backslashes, non-ASCII)")
    func quotedReadsBack() {
        var random = SplitMix64(seed: 0x150)
        let pieces: [String] = ["a", "Z", " ", "\"", "\\", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{1}", "\u{1F}", "/", "é", "東", "😀", "\u{7F}", "u0041"]
        for trial in 0..<5000 {
            let text = (0..<random.below(12)).map { _ in pieces[random.below(pieces.count)] }.joined()
            let line = Array("{\"v\":".utf8) + JSONText.quoted(text.utf8) + Array("}\n".utf8)
            let read = readJSON(line, linesMode: true)
            #expect(read.error == nil && read.rows == [[text]], "trial \(trial): \(String(decoding: line, as: UTF8.self)) → \(read)")
            // Nothing below U+0020 is left bare inside the string.
            #expect(!JSONText.quoted(text.utf8).contains { $0 < 0x20 }, "trial \(trial)")
        }
    }

    @Test("JSONText.isNumber is RFC 8259's number: checked against a regular expression on 20,000 generated strings")
    func numberGrammar() throws {
        let grammar = try Regex("^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?$")
        var random = SplitMix64(seed: 0x8259)
        let alphabet = Array("0123456789-+.eE x1")
        for _ in 0..<20_000 {
            let text = String((0..<random.below(8)).map { _ in alphabet[random.below(alphabet.count)] })
            #expect(JSONText.isNumber(Array(text.utf8)) == (text.wholeMatch(of: grammar) != nil), "\(text)")
        }
    }
}
