import Text

/// The byte-level machine of `JSONReader`: the scan loop, token dispatch, and string escapes.
extension JSONReader {
    /// Runs the machine over the buffered bytes until a row is ready, the bytes run out, or the
    /// input is wrong (the stream is then left at the offending byte).
    /// - Complexity: O(bytes scanned); strings and numbers are copied in runs.
    package mutating func scan() -> Step {
        let buffer = stream.storage
        var p = stream.pos
        let end = stream.end
        bufferBase = stream.offset &- p
        defer { stream.pos = p }
        while p < end {
            switch state {
            case .value, .afterValue, .key, .colon:
                let b = buffer[p]
                if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 {
                    p &+= 1
                    passedBlank(b, next: bufferBase &+ p)
                    continue
                }
                if let step = structural(b, &p) { return step }
            case .string:
                // To the closing quote, a backslash or a control character (an error).
                let start = p
                SWAR.skip(buffer, &p, end, to: SWAR.quote, below: 0x20, stops: Self.stringStops) { SWAR.matches($0, SWAR.backslash) }
                if p > start {
                    if pendingHigh != 0 { loneSurrogate() }
                    text.append(UnsafeBufferPointer(start: buffer + start, count: p &- start))
                }
                if p == end { return .needMore }
                let c = buffer[p]
                if c == 0x22 {
                    if pendingHigh != 0 { loneSurrogate() }
                    p &+= 1
                    if stringIsKey { keyCompleted() } else { scalarCompleted(.string) }
                } else if c == 0x5C {
                    p &+= 1
                    state = .escape
                } else {
                    return .fail(.controlCharacter)
                }
            case .escape:
                if buffer[p] == UInt8(ascii: "u") {
                    p &+= 1
                    escapeValue = 0
                    escapeDigits = 0
                    state = .unicode
                    continue
                }
                // One table of one-letter escapes, the flat rows' too.
                let decoded = Self.escaped(buffer[p])
                guard decoded != 0 else { return .fail(.expected) }
                if pendingHigh != 0 { loneSurrogate() }
                text.append(decoded)
                p &+= 1
                state = .string
            case .unicode:
                guard let digit = Self.hexValue(buffer[p]) else { return .fail(.expected) }
                p &+= 1
                escapeValue = escapeValue << 4 | digit
                escapeDigits &+= 1
                if escapeDigits == 4 {
                    unicodeEscape(escapeValue)
                    state = .string
                }
            case .minus:
                let c = buffer[p]
                guard Self.isDigit(c) else { return .fail(.expected) }
                text.append(c)
                p &+= 1
                state = c == UInt8(ascii: "0") ? .zero : .integer
            case .zero:
                let c = buffer[p]
                if c == UInt8(ascii: ".") {
                    text.append(c)
                    p &+= 1
                    state = .dot
                } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                    text.append(c)
                    p &+= 1
                    state = .exponentMark
                } else if Self.isDigit(c) {
                    return .fail(.leadingZero)
                } else {
                    scalarCompleted(.number)  // `c` is looked at again after the value
                }
            case .integer, .fraction, .exponent:
                let start = p
                while p < end && Self.isDigit(buffer[p]) { p &+= 1 }
                if p > start { text.append(UnsafeBufferPointer(start: buffer + start, count: p &- start)) }
                if p == end { return .needMore }
                let c = buffer[p]
                if state == .integer && c == UInt8(ascii: ".") {
                    text.append(c)
                    p &+= 1
                    state = .dot
                } else if state != .exponent && (c == UInt8(ascii: "e") || c == UInt8(ascii: "E")) {
                    text.append(c)
                    p &+= 1
                    state = .exponentMark
                } else {
                    scalarCompleted(.number)
                }
            case .dot:
                let c = buffer[p]
                guard Self.isDigit(c) else { return .fail(.expected) }
                text.append(c)
                p &+= 1
                state = .fraction
            case .exponentMark:
                let c = buffer[p]
                if c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
                    state = .exponentSign
                } else if Self.isDigit(c) {
                    state = .exponent
                } else {
                    return .fail(.expected)
                }
                text.append(c)
                p &+= 1
            case .exponentSign:
                let c = buffer[p]
                guard Self.isDigit(c) else { return .fail(.expected) }
                text.append(c)
                p &+= 1
                state = .exponent
            case .literal:
                let word = literal.word
                guard buffer[p] == word.utf8Start[literalIndex] else { return .fail(.expected) }
                p &+= 1
                literalIndex &+= 1
                if literalIndex == word.utf8CodeUnitCount { scalarCompleted(literal) }
            }
            if rowReady { return .row }
        }
        return .needMore
    }

    /// Handles a non-whitespace byte in the states between tokens.
    /// - Returns: a step that stops the scan, or nil to go on (`p` advanced past what was used).
    @inline(__always)
    mutating func structural(_ b: UInt8, _ p: inout Int) -> Step? {
        switch state {
        case .value:
            switch b {
            case 0x22:
                beginValue()
                beginString(isKey: false, at: p)
                p &+= 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                beginValue()
                text.removeAll()
                text.append(b)
                p &+= 1
                state = b == UInt8(ascii: "-") ? .minus : b == UInt8(ascii: "0") ? .zero : .integer
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                beginValue()
                literal = b == UInt8(ascii: "t") ? .true : b == UInt8(ascii: "f") ? .false : .null
                literalIndex = 1
                p &+= 1
                state = .literal
            case UInt8(ascii: "{"):
                guard frames.count < maxDepth else { return .fail(.tooDeep) }
                beginValue()
                openContainer(isObject: true)
                p &+= 1
                state = .key
            case UInt8(ascii: "["):
                if frames.isEmpty && undecided { return .decide }
                guard frames.count < maxDepth else { return .fail(.tooDeep) }
                beginValue()
                openContainer(isObject: false)
                p &+= 1
                state = .value
            case UInt8(ascii: "]"):
                guard !frames.isEmpty, !frames[frames.count &- 1].role.isObject, frames[frames.count &- 1].count == 0 else { return .fail(.expected) }
                p &+= 1
                endContainer()
            default:
                return .fail(.expected)
            }
        case .afterValue:
            guard !frames.isEmpty else {
                // Another top-level value: JSON Lines, if it starts on a later line.
                if line == lastValueLine { return .fail(.trailingData) }
                if !lines {
                    if linesMode == false { return .fail(.trailingData) }
                    lines = true
                }
                state = .value
                return nil  // `b` starts the value
            }
            let top = frames[frames.count &- 1]
            if b == UInt8(ascii: ",") {
                p &+= 1
                state = top.role.isObject ? .key : .value
            } else if b == (top.role.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                p &+= 1
                endContainer()
            } else {
                return .fail(.expected)
            }
        case .key:
            if b == 0x22 {
                beginKey()
                beginString(isKey: true, at: p)
                p &+= 1
            } else if b == UInt8(ascii: "}") && frames[frames.count &- 1].count == 0 {
                p &+= 1
                endContainer()
            } else {
                return .fail(.expected)
            }
        case .colon:
            guard b == UInt8(ascii: ":") else { return .fail(.expected) }
            p &+= 1
            state = .value
        default:
            break
        }
        return nil
    }

    /// Counts the line break `b` is, if it is one, the next byte being at stream offset `next`
    /// (the LF of a CR LF is not counted again).
    @inline(__always)
    mutating func passedBlank(_ b: UInt8, next: Int) {
        if b == 0x0A {
            if next &- 1 != afterCR { line &+= 1 }
            lineStart = next
        } else if b == 0x0D {
            line &+= 1
            lineStart = next
            afterCR = next
        }
    }

    /// Starts a string at buffer index `p` (its opening quote).
    @inline(__always)
    mutating func beginString(isKey: Bool, at p: Int) {
        text.removeAll()
        stringIsKey = isKey
        stringStart = SourcePosition(line: line, column: bufferBase &+ p &- lineStart &+ 1)
        pendingHigh = 0
        state = .string
    }

    /// Adds the code unit of a `\uXXXX` escape, pairing surrogates.
    mutating func unicodeEscape(_ unit: UInt32) {
        if pendingHigh != 0 {
            if unit >= 0xDC00 && unit < 0xE000 {
                appendScalar(0x10000 &+ ((pendingHigh &- 0xD800) << 10) &+ (unit &- 0xDC00))
                pendingHigh = 0
                return
            }
            loneSurrogate()
        }
        if unit >= 0xD800 && unit < 0xDC00 {
            pendingHigh = unit
        } else if unit >= 0xDC00 && unit < 0xE000 {
            loneSurrogate()
        } else {
            appendScalar(unit)
        }
    }

    /// Writes U+FFFD for a surrogate without its other half, and counts it.
    mutating func loneSurrogate() {
        pendingHigh = 0
        text.append(0xEF)
        text.append(0xBF)
        text.append(0xBD)
        loneSurrogates &+= 1
        if loneSurrogates == 1 { firstLoneSurrogateLine = line }
    }

    /// Appends a scalar value to `text` as UTF-8.
    mutating func appendScalar(_ value: UInt32) {
        switch value {
        case ..<0x80:
            text.append(UInt8(truncatingIfNeeded: value))
        case ..<0x800:
            text.append(UInt8(truncatingIfNeeded: 0xC0 | value >> 6))
            text.append(UInt8(truncatingIfNeeded: 0x80 | value & 0x3F))
        case ..<0x10000:
            text.append(UInt8(truncatingIfNeeded: 0xE0 | value >> 12))
            text.append(UInt8(truncatingIfNeeded: 0x80 | value >> 6 & 0x3F))
            text.append(UInt8(truncatingIfNeeded: 0x80 | value & 0x3F))
        default:
            text.append(UInt8(truncatingIfNeeded: 0xF0 | value >> 18))
            text.append(UInt8(truncatingIfNeeded: 0x80 | value >> 12 & 0x3F))
            text.append(UInt8(truncatingIfNeeded: 0x80 | value >> 6 & 0x3F))
            text.append(UInt8(truncatingIfNeeded: 0x80 | value & 0x3F))
        }
    }

    @inline(__always)
    package static func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

    /// The bytes that end a run of string text: the closing quote, a backslash, a control.
    static let stringStops: [Bool] = (0..<256).map { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }

    @inline(__always)
    static func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b &- UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b &- UInt8(ascii: "a") &+ 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b &- UInt8(ascii: "A") &+ 10)
        default: return nil
        }
    }
}
