import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// O6: an HTML cell is written as its bytes only when it holds nothing to escape. The
/// word-at-a-time test (`HTMLText.mayNeedEscaping`) checked on generated texts against the
/// definition, counted here byte by byte, with each text inside a larger buffer whose next bytes
/// must be escaped (a read past its end would see them).
@Suite("O6 HTML cell scan")
struct HTMLScanTests {
    /// The bytes that may need escaping: the five references, C0 controls, DEL, and the lead
    /// bytes of what `Sanitize` escapes (a C1 control, a bidirectional control, U+FEFF).
    static let special = Set(Array("\"&'<>".utf8) + Array(0x00...0x1F) + [0x7F, 0xC2, 0xE2, 0xEF])

    func inBuffer<T>(_ bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        withinBuffer(bytes, after: Array("<&\"'>\u{1}<&\"'>".utf8), body)
    }

    @Test("O6: text with none of the bytes to escape is written as it is; any of them, anywhere, sends it to be escaped (generated)")
    func texts() {
        var random = SplitMix64(seed: 0x4854_4D4C)
        for _ in 0..<8000 {
            let count = random.below(40)
            // Printable ASCII, some other bytes, often UTF-8 of letters beside the leads.
            var bytes = (0..<count).flatMap { _ -> [UInt8] in
                switch random.below(10) {
                case 0: return [UInt8(random.below(256))]
                case 1: return Array(["é", "東", "ø", "€", "\u{2028}", "ü"][random.below(6)].utf8)
                default: return [UInt8(0x20 + random.below(0x5F))]
                }
            }
            // Often with none of them, so that plain cells are common too.
            if random.below(2) == 0 { bytes = bytes.map { Self.special.contains($0) ? UInt8(ascii: "q") : $0 } }
            let expected = bytes.contains { Self.special.contains($0) }
            #expect(inBuffer(bytes) { HTMLText.mayNeedEscaping($0) } == expected, "\(bytes)")
        }
    }

    @Test("O6: each byte to escape at every place of texts of 1 to 24 bytes is seen, among ASCII or among other letters")
    func everyPlace() {
        for count in 1...24 {
            for place in 0..<count {
                for special in Self.special {
                    var bytes = [UInt8](repeating: UInt8(ascii: "m"), count: count)
                    bytes[place] = special
                    if place % 2 == 1 && count > 2 { bytes[place == 1 ? 2 : 0] = 0xC3 }  // a lead byte that is not special
                    #expect(inBuffer(bytes) { HTMLText.mayNeedEscaping($0) }, "\(special) at \(place) of \(count)")
                }
                let plain = [UInt8](repeating: UInt8(ascii: "m"), count: count)
                #expect(!inBuffer(plain) { HTMLText.mayNeedEscaping($0) })
            }
        }
    }
}
