import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// I2, I5: what tablefmt decides from the first bytes alone.
@Suite("Sniffing")
struct SniffingTests {
    typealias Kit = ReliabilityKit

    /// A mostly-ASCII CSV (as real exports are), with some accented, CJK and emoji text.
    static func table(_ random: inout SplitMix64) -> String {
        let words = ["alpha", "beta", "12", "3.5", "Müller", "日本", "naïve", "x y", "2024-01-02", "😀", "", "zeta"]
        let columns = 1 + random.below(5)
        var lines = [(0..<columns).map { "col\($0)" }.joined(separator: ",")]
        for _ in 0..<(1 + random.below(20)) {
            lines.append((0..<columns).map { _ in words[random.below(words.count)] }.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func utf16(_ text: String, littleEndian: Bool) -> [UInt8] {
        text.utf16.flatMap { unit in littleEndian ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
    }

    @Test("I5: UTF-16 without a byte-order mark (300 generated files, both byte orders, any read size) reads as its UTF-8")
    func utf16WithoutBOM() throws {
        var random = SplitMix64(seed: 0x16)
        var mostlyLatin = 0
        for round in 0..<300 {
            let text = Self.table(&random)
            // The rule is for text mostly in ASCII and Latin-1 (a NUL in every other byte): the
            // rounds where that is not so (mostly CJK and emoji) are not held to it.
            let units = Array(text.utf16)
            guard units.filter({ $0 < 0x100 }).count * 10 >= units.count * 6 else { continue }
            mostlyLatin += 1
            let little = random.below(2) == 0
            let chunk = [1, 3, 7, 64, 1 << 16][random.below(5)]
            let expected = try Kit.format(Array(text.utf8), options: Kit.options(width: 80))
            let got = try Kit.format(Self.utf16(text, littleEndian: little), options: Kit.options(width: 80), chunkSize: chunk)
            #expect(got.bytes == expected.bytes, "round \(round), \(little ? "LE" : "BE"), chunk \(chunk)\n\(got.text)")
            #expect(got.result.warnings == expected.result.warnings, "round \(round)")
        }
        #expect(mostlyLatin >= 250)
    }

    @Test("I5: UTF-8 with a stray NUL is not taken for UTF-16; --encoding still wins")
    func notUTF16() throws {
        let out = try Kit.format(Array("a\u{0}b,c\n1,2\n".utf8), options: Kit.options(width: nil))
        #expect(out.lines.first == "A\\x00b  C")
        let forced = try Kit.format(Self.utf16("ab,c\n1,2\n", littleEndian: true), options: Kit.options(width: nil) { $0.encoding = .latin1 })
        #expect(forced.lines.first?.contains("\\x00") == true)
    }

    @Test("I2: one delimiter a line is not enough to split a one-column file (Smith; John), but a header split the same way is")
    func weakEvidence() throws {
        let names = try Kit.format(Array("name\nSmith; John\nDoe; Jane\nRoe; Rick\n".utf8), options: Kit.options(width: nil))
        #expect(names.lines == ["Name", "───────────", "Smith; John", "Doe; Jane", "Roe; Rick"])
        let pairs = try Kit.format(Array("name;age\nSmith;41\nDoe;37\n".utf8), options: Kit.options(width: nil))
        #expect(pairs.lines.first == "Name   Age")
        let three = try Kit.format(Array("title line\na;b;c\n1;2;3\n4;5;6\n".utf8), options: Kit.options(width: nil))
        #expect(three.lines.contains("1  2  3") || three.lines.contains { $0.hasPrefix("1") && $0.hasSuffix("3") }, "\(three.text)")
        let sniffed = Array("name\nSmith; John\n".utf8).withUnsafeBufferPointer { Sniffer.delimiter(of: $0) }
        #expect(sniffed == UInt8(ascii: ","))
    }

    @Test("I5: whether an input is UTF-16 does not depend on the chunks it arrives in (the fuzzers' finding: 500 byte strings with NULs)")
    func chunkIndependent() throws {
        var random = SplitMix64(seed: 0x0C1)
        let alphabet: [UInt8] = [0, 0, 0, 2, 0x61, 0x62, 0x2C, 0x0A, 0x22, 0x7B, 0x7D, 0xC3, 0xA9]
        for round in 0..<500 {
            let bytes = (0..<(1 + random.below(40))).map { _ in alphabet[random.below(alphabet.count)] }
            let outputs = try [1, 2, 3, 5, 7, 1 << 16].map { chunk in
                try Kit.format(bytes, options: Kit.options(width: 60), chunkSize: chunk)
            }
            for out in outputs.dropFirst() {
                #expect(out.bytes == outputs[0].bytes && out.result.error == outputs[0].result.error, "round \(round): \(bytes)")
            }
        }
        // The fuzzers' inputs: UTF-16-looking first bytes, then UTF-8.
        let found: [[UInt8]] = [Array("\u{0}\u{2}\u{0}a,b\u{0}\u{2}\u{0}first,last\n1,2\n".utf8), [1, 0, 0, 0x7B, 0x22, 7, 0, 0, 0, 0x22, 0, 0, 0, 0x22, 0x62, 0x22, 0x7D]]
        for bytes in found {
            let one = try Kit.format(bytes, options: Kit.options(width: 60), chunkSize: 1)
            let all = try Kit.format(bytes, options: Kit.options(width: 60))
            #expect(one.bytes == all.bytes && one.result.error == all.result.error)
        }
    }
}
