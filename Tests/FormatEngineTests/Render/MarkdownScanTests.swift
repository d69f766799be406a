import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// O4: a Markdown table cell is written as its bytes only when it holds nothing `inline` would
/// escape. The word-at-a-time test for printable ASCII (`MarkdownRenderer.isPlainASCIIText`)
/// checked on generated texts against the definition, counted here byte by byte, with each text
/// inside a larger buffer whose next bytes are markup (a read past its end would see them).
@Suite("O4 Markdown cell scan")
struct MarkdownScanTests {
    /// The ASCII bytes `inline` looks at.
    static let markup = Set(Array("\\|*_`[<&~".utf8) + [0x0A, 0x0D])

    func inBuffer<T>(_ bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        withinBuffer(bytes, after: Array("|*_`[<&~\\|*_`[<&~".utf8), body)
    }

    @Test("O4: printable ASCII with no markup byte is plain; any markup byte, anywhere, sends the cell to be escaped")
    func asciiTexts() {
        var random = SplitMix64(seed: 0x6D64_2727)
        for _ in 0..<6000 {
            let count = random.below(40)
            var bytes = (0..<count).map { _ in UInt8(0x20 + random.below(0x5F)) }
            // Mostly letters, so that plain cells are common too.
            if random.below(2) == 0 {
                bytes = bytes.map { Self.markup.contains($0) || $0 == UInt8(ascii: "]") || $0 == UInt8(ascii: "^") || $0 == UInt8(ascii: "}") ? UInt8(ascii: "q") : $0 }
            }
            let hasMarkup = bytes.contains { Self.markup.contains($0) }
            #expect(inBuffer(bytes) { MarkdownRenderer.mayNeedEscaping($0) } == hasMarkup, "\(bytes)")
            #expect(inBuffer(bytes) { MarkdownRenderer.mayNeedEscapingByBytes($0) } == hasMarkup, "\(bytes)")
            if inBuffer(bytes, { MarkdownRenderer.isPlainASCIIText($0) }) {
                #expect(!hasMarkup && !bytes.isEmpty, "\(bytes)")
            }
        }
    }

    @Test("O4: each markup byte and control at every place of texts of 1 to 24 bytes is seen")
    func everyPlace() {
        for count in 1...24 {
            for place in 0..<count {
                for special in Array(Self.markup) + [0x01, 0x09, 0x1B, 0x7F] {
                    var bytes = [UInt8](repeating: UInt8(ascii: "m"), count: count)
                    bytes[place] = special
                    #expect(!inBuffer(bytes) { MarkdownRenderer.isPlainASCIIText($0) }, "\(special) at \(place) of \(count)")
                    #expect(inBuffer(bytes) { MarkdownRenderer.mayNeedEscaping($0) }, "\(special) at \(place) of \(count)")
                }
                let plain = [UInt8](repeating: UInt8(ascii: "m"), count: count)
                #expect(inBuffer(plain) { MarkdownRenderer.isPlainASCIIText($0) })
            }
        }
    }

    @Test("O4: text that is not printable ASCII takes the byte test, which asks Sanitize.needsEscaping")
    func otherTexts() {
        for (text, expected) in [("Novák", false), ("東京", false), ("a\u{202E}b", true), ("x\u{85}y", true), ("Ø_x_", true), ("é\u{7F}", true)] {
            let bytes = Array(text.utf8)
            #expect(!inBuffer(bytes) { MarkdownRenderer.isPlainASCIIText($0) }, "\(text.debugDescription)")
            #expect(inBuffer(bytes) { MarkdownRenderer.mayNeedEscaping($0) } == expected, "\(text.debugDescription)")
        }
        #expect(!inBuffer([]) { MarkdownRenderer.mayNeedEscaping($0) })
    }
}
