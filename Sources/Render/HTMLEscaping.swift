import Input
import Layout
import Options
import Profile
import Support
import Text
import Transform
/// HTML's escaping (O6): text that a browser shows as exactly the input, and that can add no
/// element, attribute or script wherever it stands (an element's content or a quoted attribute).
/// `&`, `<`, `>`, `"` and `'` are character references; a line break (LF, or CR LF) is `<br>`,
/// as in Markdown (O4); every other control, and the bidirectional controls, are their visible
/// escapes (O5, `Sanitize`).
package enum HTMLText {
    /// Whether text may need escaping: it holds `"`, `&`, `'`, `<`, `>`, a C0 control or DEL,
    /// or a byte that may start what `Sanitize` escapes (0xC2 a C1 control, 0xE2 a bidirectional
    /// control, 0xEF U+FEFF). Text without any is written as it is. Eight bytes at a time
    /// (`TextBytes.everyWord`): printable ASCII, the common cell, by the shorter test
    /// (`isPlainASCIIWord`), any other text by `hasNoSpecialByte`.
    @inline(__always)
    package static func mayNeedEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        !utf8.isEmpty && !TextBytes.everyWord(utf8, isPlainASCIIWord) && !TextBytes.everyWord(utf8, hasNoSpecialByte)
    }

    /// Whether every byte of `word` is printable ASCII and none is `"`, `&`, `'`, `<` or `>`.
    @inline(__always)
    package static func isPlainASCIIWord(_ word: UInt64) -> Bool {
        guard TextBytes.allPrintableASCII(word) else { return false }
        let ones = SWAR.ones
        // Below 0x80 a byte b is at least a when b + (0x80 - a) has its high bit, at most z when
        // b + (0x7F - z) has not. (`=`, between `<` and `>`, is taken with them: such text goes
        // on to `hasNoSpecialByte`.)
        let ampersandQuote = (word &+ ones &* (0x80 - 0x26)) & ~(word &+ ones &* (0x7F - 0x27))
        let angles = (word &+ ones &* (0x80 - 0x3C)) & ~(word &+ ones &* (0x7F - 0x3E))
        return (ampersandQuote | angles | SWAR.matches(word, ones &* 0x22)) & SWAR.highBits == 0
    }

    /// Whether no byte of `word` is one `mayNeedEscaping` looks for: none that `Sanitize` may
    /// escape (`TextBytes.mayNeedEscaping`), and none of the five references.
    @inline(__always)
    package static func hasNoSpecialByte(_ word: UInt64) -> Bool {
        guard !TextBytes.mayNeedEscaping(word) else { return false }
        let ones = SWAR.ones
        // `&` and `'` as a range of the ASCII bytes, their high bit clear: there a byte b is at
        // least a when b + (0x80 - a) has its high bit, at most z when b + (0x7F - z) has not, and
        // no sum carries into the next byte. Bytes from 0x80 are taken out (`ascii`).
        let low = word & SWAR.lowBits, ascii = ~word & SWAR.highBits
        let ampersandQuote = (low &+ ones &* (0x80 - 0x26)) & ~(low &+ ones &* (0x7F - 0x27)) & ascii
        // The others each found as a zero byte: exactly when there is none, any found.
        let others = SWAR.matches(word, ones &* 0x22) | SWAR.matches(word, ones &* 0x3C) | SWAR.matches(word, ones &* 0x3E)
        return (ampersandQuote | others) & SWAR.highBits == 0
    }

    /// How a text's line breaks (and, on a page, its controls) are written.
    package enum Marks {
        /// A line break is `<br>` (Markdown, a fragment).
        case lineBreaks
        /// A line break is `↵` (an attribute; a one-line cell in the other formats, O5).
        case arrows
        /// On a page, where the script reads a cell's value back ("Copy as CSV"): a CR LF line
        /// break is `<br class="r">`, a control's escape is in `<span data-c="HEX">` naming the
        /// character it stands for; `oneLine`: a line break is also marked by a `<span class="lb">`
        /// holding `↵` before its `<br>`: in a one-line cell the style shows the `↵` on the line
        /// and hides the `<br>` (elsewhere, in the sheet and in print, the other way round). The
        /// `↵` is text, not drawn by the style, so the cell's text (copy, find in page, a screen
        /// reader) has a character between the lines, where the hidden `<br>` gives none; the
        /// script leaves it out of a value (`text`, `raw`).
        case page(oneLine: Bool)
    }

    /// Text escaped for an element's content or a quoted attribute value. `lineBreaks`: a line
    /// break is `<br>` (content only); otherwise it is `↵`, as on a one-line cell (O5).
    package static func escaped(_ text: String, lineBreaks: Bool = true) -> String {
        escaped(text, marks: lineBreaks ? .lineBreaks : .arrows)
    }

    package static func escaped(_ text: String, marks: Marks) -> String {
        var copy = text
        return copy.withUTF8 { utf8 in
            guard mayNeedEscaping(utf8) else { return text }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(utf8.count + 16)
            forEachPiece(utf8, marks: marks) { bytes.append(contentsOf: $0) }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Writes a cell's bytes escaped: as they are when nothing needs escaping, else a run of
    /// bytes at a time between the escapes, never as one more copy of itself (E5).
    package static func write(_ cell: UnsafeBufferPointer<UInt8>, to out: OutputBuffer, marks: Marks = .lineBreaks) throws(OutputError) {
        guard mayNeedEscaping(cell) else {
            try out.write(cell)
            return
        }
        var failure: OutputError?
        forEachPiece(cell, marks: marks) { piece in
            guard failure == nil else { return }
            do throws(OutputError) { try out.write(piece) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// The line breaks, LF and CR LF, as `marks` writes them.
    private static func breaks(_ marks: Marks) -> (lf: StaticString, crlf: StaticString) {
        switch marks {
        case .lineBreaks: ("<br>", "<br>")
        case .arrows: ("\u{21B5}", "\u{21B5}")
        case .page(oneLine: false): ("<br>", "<br class=\"r\">")
        case .page(oneLine: true): ("<span class=\"lb\">\u{21B5}</span><br>", "<span class=\"lb\">\u{21B5}</span><br class=\"r\">")
        }
    }

    /// Calls `body` with the escaped text in pieces: runs of the UTF-8 that stay as they are, and
    /// each escape. `&`, `<`, `>`, `"` and `'` are character references; LF or CR LF a line break
    /// as `marks` writes it; every other control (C0, DEL, C1), bidirectional control and
    /// U+FEFF is its visible escape (`Sanitize.forEachEscapeScalar`, O5), marked on a page. Read
    /// on the bytes: no `String` is made of the text.
    package static func forEachPiece(_ utf8: UnsafeBufferPointer<UInt8>, marks: Marks, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let n = utf8.count
        var run = 0
        var i = 0
        func emit(_ text: StaticString) {
            body(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        let lineBreak = breaks(marks)
        var page = false
        if case .page = marks { page = true }
        while i < n {
            let byte = utf8[i]
            var length = 1
            var control: UInt32?
            var reference: StaticString?
            switch byte {
            case 0x22: reference = "&quot;"
            case 0x26: reference = "&amp;"
            case 0x27: reference = "&#39;"
            case 0x3C: reference = "&lt;"
            case 0x3E: reference = "&gt;"
            case 0x0D where i + 1 < n && utf8[i + 1] == 0x0A:
                length = 2
                reference = lineBreak.crlf
            case 0x0A: reference = lineBreak.lf
            case 0..<0x20, 0x7F: control = UInt32(byte)
            case 0xC2 where i + 1 < n && utf8[i + 1] &- 0x80 <= 0x1F:
                length = 2
                control = UInt32(utf8[i + 1])
            case 0xE2 where i + 2 < n:
                let second = utf8[i + 1], third = utf8[i + 2]
                guard (second == 0x80 && third &- 0xAA <= 4) || (second == 0x81 && third &- 0xA6 <= 3) else { i += 1; continue }
                length = 3
                control = UInt32(byte & 0x0F) << 12 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F)
            case 0xEF where i + 2 < n && utf8[i + 1] == 0xBB && utf8[i + 2] == 0xBF:
                length = 3
                control = 0xFEFF
            default:
                i += 1
                continue
            }
            if run < i { body(UnsafeBufferPointer(rebasing: utf8[run..<i])) }
            if let reference { emit(reference) }
            if let control {
                var escape: [UInt8] = page ? Array("<span data-c=\"\(String(control, radix: 16))\">".utf8) : []
                Sanitize.forEachEscapeScalar(of: control) { escape.append(contentsOf: String($0).utf8) }
                if page { escape.append(contentsOf: "</span>".utf8) }
                escape.withUnsafeBufferPointer { body($0) }
            }
            i += length
            run = i
        }
        if run < n { body(UnsafeBufferPointer(rebasing: utf8[run..<n])) }
    }

    /// Text as a CSS string's content, between double quotes: every character but ASCII letters,
    /// digits and spaces as a hex escape (`\3c ` for `<`), so no heading can end the string, the
    /// rule or the `<style>` element. Controls are their visible escapes first (O5).
    package static func cssString(_ text: String) -> String {
        var out = ""
        Sanitize.forEachShownScalar(Substring(text).unicodeScalars) { scalar in
            var shown: [Unicode.Scalar] = []
            if Sanitize.isControl(scalar.value) {
                Sanitize.forEachEscapeScalar(of: scalar.value) { shown.append($0) }
            } else {
                shown.append(scalar)
            }
            for s in shown {
                if s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || s == " ") {
                    out.unicodeScalars.append(s)
                } else {
                    out += "\\" + String(s.value, radix: 16) + " "
                }
            }
        }
        return out
    }
}
