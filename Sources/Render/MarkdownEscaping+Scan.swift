import Input
import Layout
import Options
import Profile
import Support
import Text
import Transform
/// Which text Markdown's escaping must look at (`MarkdownRenderer.inline`): the test every table
/// cell takes before it is written as its bytes.
extension MarkdownRenderer {
    /// Whether text may need Markdown's attention (`inline`): it holds a `\\`, `|`, `*`, `_`,
    /// backtick, `[`, `<`, `&`, `~`, CR or LF, or `Sanitize.needsEscaping` says it needs
    /// escaping. Text without any of them is written as it is. Printable ASCII free of markup
    /// (`isPlainASCIIText`, the common cell) is told eight bytes at a time; any other text byte
    /// by byte (`mayNeedEscapingByBytes`).
    @inline(__always)
    package static func mayNeedEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        if isPlainASCIIText(utf8) { return false }
        return mayNeedEscapingByBytes(utf8)
    }

    /// True when every byte is printable ASCII (so `Sanitize.needsEscaping` is false) and none is
    /// `&`, `*`, `<`, one of `[` `\\` `]` `^` `_` backtick, or one of `|` `}` `~`: the text holds
    /// nothing `inline` looks at. False may be wrong the other way (`]`, `^` and `}` are taken as
    /// markup here), which only sends the text to the byte test. Eight bytes a word
    /// (`TextBytes.everyWord`).
    @inline(__always)
    package static func isPlainASCIIText(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        TextBytes.everyWord(utf8, isPlainASCIIWord)
    }

    /// `isPlainASCIIText` of one word. Once every byte is printable ASCII (below 0x80), a byte
    /// plus a constant carries into no other byte, so the ranges are two additions each.
    @inline(__always)
    package static func isPlainASCIIWord(_ word: UInt64) -> Bool {
        guard TextBytes.allPrintableASCII(word) else { return false }
        let ones = SWAR.ones
        // A byte b is at least a when b + (0x80 - a) has its high bit, at most z when b + (0x7F - z)
        // has not.
        let brackets = (word &+ ones &* (0x80 - 0x5B)) & ~(word &+ ones &* (0x7F - 0x60))  // [ \ ] ^ _ `
        let bars = (word &+ ones &* (0x80 - 0x7C)) & ~(word &+ ones &* (0x7F - 0x7E))      // | } ~
        let marks = SWAR.matches(word, ones &* 0x26) | SWAR.matches(word, ones &* 0x2A) | SWAR.matches(word, ones &* 0x3C)
        return (brackets | bars | marks) & SWAR.highBits == 0
    }

    /// `mayNeedEscaping` tested byte by byte: each byte against a bit set of the ASCII bytes
    /// `inline` looks at, without a branch, then `Sanitize.needsEscaping`.
    package static func mayNeedEscapingByBytes(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        // Bit b of `low` for a byte b below 64, of `high` for 64 + b.
        let low: UInt64 = 1 << 0x0A | 1 << 0x0D | 1 << 0x26 | 1 << 0x2A | 1 << 0x3C
        let high: UInt64 = 1 << (0x5B - 64) | 1 << (0x5C - 64) | 1 << (0x5F - 64) | 1 << (0x60 - 64) | 1 << (0x7C - 64) | 1 << (0x7E - 64)
        var hits: UInt64 = 0
        for byte in utf8 {
            let set = byte < 64 ? low : byte < 128 ? high : 0
            hits |= set &>> UInt64(byte & 63)
        }
        return hits & 1 != 0 || Sanitize.needsEscaping(utf8: utf8)
    }
}
