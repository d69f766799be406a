/// The state types of `JSONReader`: scanner states, frames, cell slots, and scan outcomes.
extension JSONReader {
    /// Where the scanner is between two bytes. What a state accepts may also depend on the
    /// innermost open frame (an array or an object, and how many members it has so far).
    package enum State: UInt8 {
        /// Expecting a value; whitespace allowed. In an array with no element yet, `]` too.
        case value
        /// After a complete value: expecting `,` or the close of the innermost frame; at top level,
        /// the end of the input or (JSON Lines) another value on a later line.
        case afterValue
        /// Expecting an object key (after `{`, where `}` is allowed too, or after `,`).
        case key
        /// Expecting `:` after a key.
        case colon
        /// Inside a string: a run of plain bytes until `"`, `\` or a control character.
        case string
        /// After a backslash in a string.
        case escape
        /// Inside the four hex digits of `\uXXXX` (`escapeDigits` read so far).
        case unicode
        /// After the `-` that starts a number.
        case minus
        /// After a leading `0`: a number that may only go on with `.` or an exponent.
        case zero
        /// In the digits of the integer part.
        case integer
        /// After the decimal point (a digit must follow).
        case dot
        /// In the digits of the fraction.
        case fraction
        /// After `e` or `E` (a sign or a digit must follow).
        case exponentMark
        /// After the exponent's sign (a digit must follow).
        case exponentSign
        /// In the digits of the exponent.
        case exponent
        /// Inside `true`, `false` or `null` (`literal`, `literalIndex` bytes matched).
        case literal
    }

    /// The kinds of scalar value.
    package enum Scalar: UInt8 {
        case string, number, `true`, `false`, null

        /// The literal's text (empty for strings and numbers).
        package var word: StaticString {
            switch self {
            case .true: return "true"
            case .false: return "false"
            case .null: return "null"
            case .string, .number: return ""
            }
        }

        /// The literal's bytes.
        var wordBytes: UnsafeBufferPointer<UInt8> {
            let word = self.word
            return UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        }
    }

    /// What an open array or object is for.
    enum Role: UInt8 {
        /// The top-level array of a document: each element is a row.
        case document
        /// An object whose members become (dotted) columns of the row.
        case object
        /// An array that is a row: element N goes to `Column N`.
        case array
        /// An object or array inside a value shown as compact JSON (`capture`).
        case captureObject
        case captureArray

        var isObject: Bool { self == .object || self == .captureObject }
    }

    /// One open array or object.
    struct Frame {
        package var role: Role
        /// Members or elements begun so far.
        package var count = 0
        /// For `.object`: its own node, the parent of its members' nodes (-1 for a row object);
        /// also where `{}` goes when it is empty.
        package var node = -1
    }

    /// Where a column's cell is in `rowBytes`.
    struct Slot {
        package var start = 0
        package var end = 0
        /// The row the cell belongs to: the slot is empty unless this is the current `rowStamp`.
        var stamp = 0
        /// The node whose value filled it (for duplicate keys).
        package var node = -1
        /// A cell of `readFlatLine`: `start..<end` of the stream's buffer holds it as written, with
        /// backslash escapes still to be decoded.
        package var escaped = false
    }

    /// What stopped a scan.
    package enum Step {
        /// The buffered bytes are used up.
        case needMore
        /// A row is ready.
        case row
        /// A first top-level array in auto mode: look ahead, then scan again.
        case decide
        /// The byte at the stream's position is wrong.
        case fail(Failure)
    }

    /// Kinds of malformed input, turned into messages by `makeError`.
    package enum Failure {
        /// Not what `expectation` says the state needs.
        case expected
        /// A digit after a leading zero.
        case leadingZero
        /// Nesting deeper than `maxDepth`.
        case tooDeep
        /// Another value where the input should end (or, in JSON Lines, a line break come first).
        case trailingData
        /// A raw control character inside a string.
        case controlCharacter
    }
}
