import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// O5: control characters never reach the terminal as themselves.
@Suite("Sanitize")
struct SanitizeTests {
    private func needsEscaping(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { Sanitize.needsEscaping(utf8: $0) }
    }

    private func needsEscaping(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { Sanitize.needsEscaping(utf8: $0) }
    }

    @Test("O5: TAB, CR and LF have their own escapes")
    func namedEscapes() {
        #expect(Sanitize.visibleEscape(for: "\t") == "\\t")
        #expect(Sanitize.visibleEscape(for: "\r") == "\\r")
        #expect(Sanitize.visibleEscape(for: "\n") == "\u{21B5}")
    }

    @Test("O5: other C0 controls, DEL and C1 controls print as lowercase \\xHH")
    func hexEscapes() {
        #expect(Sanitize.visibleEscape(for: "\u{1B}") == "\\x1b")
        #expect(Sanitize.visibleEscape(for: "\u{0}") == "\\x00")
        #expect(Sanitize.visibleEscape(for: "\u{7}") == "\\x07")
        #expect(Sanitize.visibleEscape(for: "\u{8}") == "\\x08")
        #expect(Sanitize.visibleEscape(for: "\u{1F}") == "\\x1f")
        #expect(Sanitize.visibleEscape(for: "\u{7F}") == "\\x7f")
        #expect(Sanitize.visibleEscape(for: "\u{80}") == "\\x80")
        #expect(Sanitize.visibleEscape(for: "\u{9B}") == "\\x9b")
        #expect(Sanitize.visibleEscape(for: "\u{9F}") == "\\x9f")
    }

    @Test("O5: printable scalars have no escape")
    func printableScalars() {
        for scalar: Unicode.Scalar in [" ", "a", "~", "\u{A0}", "\u{AD}", "é", "中", "\u{2028}", "\u{200D}", "😀"] {
            #expect(Sanitize.visibleEscape(for: scalar) == nil, "\(scalar.debugDescription)")
        }
    }

    @Test("O5: text without controls is returned untouched")
    func fastPath() {
        for text in ["", "plain", "café 中文 😀", String(repeating: "abcdefgh", count: 9), "\u{A0}\u{C2}\u{85}x"] {
            // "\u{C2}\u{85}" is Â then NEL: only the NEL is a control.
            let visible = Sanitize.visible(text)
            if text.unicodeScalars.contains("\u{85}") {
                #expect(visible == "\u{A0}\u{C2}\\x85x")
            } else {
                #expect(visible == text)
                #expect(!needsEscaping(text))
            }
        }
    }

    @Test("O5: no input can move the cursor, change colours or set the window title")
    func terminalSequencesAreDefused() {
        let attacks = [
            "red\u{1B}[31mtext\u{1B}[0m",
            "\u{1B}]0;pwned\u{7}title",
            "\u{9B}2J clear via C1 CSI",
            "back\u{8}\u{8}space",
            "carriage\rreturn",
            "bell\u{7}",
            "nul\u{0}byte",
        ]
        for attack in attacks {
            #expect(needsEscaping(attack))
            let visible = Sanitize.visible(attack)
            #expect(!visible.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
            #expect(!needsEscaping(visible))
        }
        #expect(Sanitize.visible("red\u{1B}[31mtext") == "red\\x1b[31mtext")
        #expect(Sanitize.visible("\u{9B}2J") == "\\x9b2J")
        #expect(Sanitize.visible("a\tb\r\nc") == "a\\tb\u{21B5}c", "CR LF is one line break: one ↵")
        #expect(Sanitize.visible("a\rb") == "a\\rb", "a lone CR is shown as \\r")
    }

    @Test("O5: every scalar up to U+00FF is escaped exactly when it is a control")
    func everyLatin1Scalar() {
        for value in UInt32(0)...0xFF {
            let scalar = Unicode.Scalar(value)!
            let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
            #expect((Sanitize.visibleEscape(for: scalar) != nil) == isControl, "U+\(value)")
            #expect(needsEscaping(String(scalar)) == isControl, "U+\(value)")
            let padded = String(repeating: "y", count: Int(value % 11)) + String(scalar) + "zzzzzzzzz"
            #expect(needsEscaping(padded) == isControl, "U+\(value) at offset \(value % 11)")
        }
    }

    @Test("O5: a C1 control is found at every offset, also across an eight-byte boundary")
    func c1AtEveryOffset() {
        for offset in 0..<20 {
            var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 20)
            bytes.insert(contentsOf: [0xC2, 0x9B], at: offset)
            #expect(needsEscaping(bytes), "offset \(offset)")
            bytes[offset + 1] = 0xA0  // U+00A0 is not a control
            #expect(!needsEscaping(bytes), "offset \(offset)")
            bytes[offset] = 0x1B
            #expect(needsEscaping(bytes), "offset \(offset)")
        }
        #expect(!needsEscaping([0x61, 0xC2]), "a lone lead byte at the end is not a control")
        #expect(!needsEscaping([UInt8]()))
    }
}
