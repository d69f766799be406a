/// JSON's text as RFC 8259 writes it, in one place: the number grammar, and the escaping of a
/// string (`"`, `\` and control characters; the short escapes where JSON has them). The reader
/// uses them to write a nested value compactly (`JSONReader`), the save to write a value typed in
/// a JSON Lines file (`JSONLine`), so what one writes the other reads back the same.
package enum JSONText {
    /// Whether `s` is a JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    package static func isNumber<Bytes: RandomAccessCollection<UInt8>>(_ s: Bytes) -> Bool where Bytes.Index == Int {
        var i = s.startIndex
        let n = s.endIndex
        func digits() -> Int {
            let start = i
            while i < n && s[i] &- 0x30 <= 9 { i += 1 }
            return i - start
        }
        if i < n && s[i] == UInt8(ascii: "-") { i += 1 }
        let intStart = i
        let intDigits = digits()
        if intDigits == 0 || (intDigits > 1 && s[intStart] == UInt8(ascii: "0")) { return false }
        if i < n && s[i] == UInt8(ascii: ".") {
            i += 1
            if digits() == 0 { return false }
        }
        if i < n && (s[i] == UInt8(ascii: "e") || s[i] == UInt8(ascii: "E")) {
            i += 1
            if i < n && (s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-")) { i += 1 }
            if digits() == 0 { return false }
        }
        return i == n
    }

    /// The bytes of `text` as inside a JSON string, each handed to `emit`.
    @inline(__always)
    package static func escape(_ text: some Sequence<UInt8>, _ emit: (UInt8) -> Void) {
        for b in text {
            switch b {
            case 0x22, 0x5C: emit(0x5C); emit(b)
            case 0x0A: emit(0x5C); emit(UInt8(ascii: "n"))
            case 0x0D: emit(0x5C); emit(UInt8(ascii: "r"))
            case 0x09: emit(0x5C); emit(UInt8(ascii: "t"))
            case 0x08: emit(0x5C); emit(UInt8(ascii: "b"))
            case 0x0C: emit(0x5C); emit(UInt8(ascii: "f"))
            case ..<0x20:
                for c in "\\u00".utf8 { emit(c) }
                emit(hexDigits[Int(b >> 4)])
                emit(hexDigits[Int(b & 0xF)])
            default: emit(b)
            }
        }
    }

    /// `text` as a JSON string, quotes included.
    package static func quoted(_ text: some Sequence<UInt8>) -> [UInt8] {
        var out: [UInt8] = [0x22]
        escape(text) { out.append($0) }
        out.append(0x22)
        return out
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
