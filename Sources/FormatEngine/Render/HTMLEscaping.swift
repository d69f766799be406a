/// HTML's escaping (O6): text that a browser shows as exactly the input, and that can add no
/// element, attribute or script wherever it stands (an element's content or a quoted attribute).
/// `&`, `<`, `>`, `"` and `'` are character references; a line break (LF, or CR LF) is `<br>`,
/// as in Markdown (O4); every other control, and the bidirectional controls, are their visible
/// escapes (O5, `Sanitize`).
enum HTMLText {
    /// Whether text may need escaping: it holds `"`, `&`, `'`, `<` or `>`, or `Sanitize` would
    /// escape something in it (a control, LF and CR included). Text without any is written as
    /// it is. Each byte is tested against a bit set of those bytes, without a branch.
    @inline(__always)
    static func mayNeedEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let low: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E
        var hits: UInt64 = 0
        for byte in utf8 {
            hits |= (byte < 64 ? low : 0) &>> UInt64(byte & 63)
        }
        return hits & 1 != 0 || Sanitize.needsEscaping(utf8: utf8)
    }

    /// Text escaped for an element's content or a quoted attribute value. `lineBreaks`: a line
    /// break is `<br>` (content only); otherwise it is `↵`, as on a one-line cell (O5).
    static func escaped(_ text: String, lineBreaks: Bool = true) -> String {
        var copy = text
        if !copy.withUTF8({ mayNeedEscaping($0) }) { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        append(text.unicodeScalars[...], to: &out, lineBreaks: lineBreaks)
        return out
    }

    /// Appends scalars escaped (`escaped`).
    static func append(_ scalars: Substring.UnicodeScalarView, to out: inout String, lineBreaks: Bool) {
        Sanitize.forEachShownScalar(scalars) { scalar in
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n" where lineBreaks: out += "<br>"
            default:
                if Sanitize.isControl(scalar.value) {
                    Sanitize.forEachEscapeScalar(of: scalar.value) { out.unicodeScalars.append($0) }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
    }

    /// Writes a cell's bytes escaped: as they are when nothing needs escaping, else in pieces of
    /// about 64 KiB, so a 100 MB value is never one more copy of itself in memory (E5).
    static func write(_ cell: UnsafeBufferPointer<UInt8>, to out: OutputBuffer) throws(OutputError) {
        guard mayNeedEscaping(cell) else {
            try out.write(cell)
            return
        }
        let text = String(decoding: cell, as: UTF8.self)
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var piece = ""
        while start < scalars.endIndex {
            // A piece ends after an LF, never between a CR and its LF.
            var end = scalars.index(start, offsetBy: pieceScalars, limitedBy: scalars.endIndex) ?? scalars.endIndex
            while end < scalars.endIndex && scalars[scalars.index(before: end)] == "\r" { end = scalars.index(after: end) }
            piece.removeAll(keepingCapacity: true)
            append(Substring(text)[start..<end].unicodeScalars, to: &piece, lineBreaks: true)
            try out.write(piece)
            start = end
        }
    }

    /// Scalars escaped at a time by `write`.
    static let pieceScalars = 1 << 16

    /// Text as a CSS string's content, between double quotes: every character but ASCII letters,
    /// digits and spaces as a hex escape (`\3c ` for `<`), so no heading can end the string, the
    /// rule or the `<style>` element. Controls are their visible escapes first (O5).
    static func cssString(_ text: String) -> String {
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
