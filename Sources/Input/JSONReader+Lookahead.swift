/// How `JSONReader` in auto mode tells a JSON document from JSON Lines at a first top-level array.
extension JSONReader {
    /// Decides, at a first top-level array in auto mode, whether the input is JSON Lines: true when
    /// the array closes on the line it opened on (within `lookaheadLimit` bytes) and another value
    /// starts on a later line. Reads ahead without consuming (the stream keeps the bytes).
    /// - Complexity: O(length of the first line, at most `lookaheadLimit`).
    func looksLikeJSONLines() throws(InputError) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        var closed = false
        var sawBreak = false
        var bytes = stream.available
        var i = 0
        while i < Self.lookaheadLimit {
            if i >= bytes.count {
                bytes = try stream.peek(atLeast: i &+ 1)
                if i >= bytes.count { return false }  // the input ends: one document
            }
            let b = bytes[i]
            i &+= 1
            if closed {
                switch b {
                case 0x20, 0x09: continue
                case 0x0A, 0x0D: sawBreak = true
                default: return sawBreak
                }
            } else if inString {
                if escaped {
                    escaped = false
                } else if b == 0x5C {
                    escaped = true
                } else if b == 0x22 {
                    inString = false
                } else if b < 0x20 {
                    return false
                }
            } else {
                switch b {
                case 0x22: inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth &+= 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth &-= 1
                    if depth == 0 { closed = true }
                case 0x0A, 0x0D: return false  // spans lines: a document
                default: break
                }
            }
        }
        return false
    }
}
