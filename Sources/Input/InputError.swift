import Support

/// An error in the input, with where it happened. One place formats it (`description`).
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure it is, which decides the exit status.
    public enum Kind: Sendable, Equatable {
        /// The data does not follow its format (exit 65).
        case malformed
        /// The input could not be opened (exit 66).
        case cannotOpen
        /// Reading failed part way (exit 74).
        case readFailed
    }

    /// What kind of failure it is.
    public var kind: Kind
    /// What went wrong, in plain words, without the place.
    public var message: String
    /// Where, when known.
    public var position: SourcePosition?
    /// The input's name as the user gave it (`-` or `<stdin>` for standard input).
    public var source: String
    /// The error is about compressed input (I8), whatever its kind: its message names that rule.
    package var compressed = false

    /// An error of `kind` at `position` in `source`.
    public init(_ kind: Kind, _ message: String, at position: SourcePosition? = nil, source: String = "<stdin>") {
        self.kind = kind
        self.message = message
        self.position = position
        self.source = source
    }

    /// An error about compressed input (I8).
    package static func compressed(_ kind: Kind, _ message: String, source: String) -> InputError {
        var error = InputError(kind, message, source: source)
        error.compressed = true
        return error
    }

    /// `file changed while reading (detail)` (I7): the input is not as it was when it was opened.
    package static func fileChanged(_ detail: String?, source: String) -> InputError {
        InputError(.readFailed, "file changed while reading" + (detail.map { " (\($0))" } ?? ""), source: source)
    }

    /// `data.csv:3:1: row longer than the limit of 256 MiB (--max-row-size)` (E5): a row whose
    /// bytes pass the limit ends the run with one line, before it is held whole in memory.
    static func rowTooLong(limit: Int, line: Int, source: String) -> InputError {
        InputError(.malformed, "row longer than the limit of \(byteSize(limit)) (--max-row-size)", at: SourcePosition(line: line, column: 1), source: source)
    }

    /// A byte count as a user writes it for `--max-row-size`: `256 MiB`, `64 KiB`, `1000 bytes`.
    static func byteSize(_ bytes: Int) -> String {
        for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift) \(unit)"
        }
        return "\(bytes) bytes"
    }

    /// `data.csv:12:7: unterminated quoted field`
    public var description: String {
        if let position { return "\(source):\(position.line):\(position.column): \(message)" }
        return "\(source): \(message)"
    }

    /// The exit status that goes with this error (E1).
    public var status: ExitStatus {
        switch kind {
        case .malformed: .malformedInput
        case .cannotOpen: .cannotOpen
        case .readFailed: .ioFailed
        }
    }

    /// `status`'s code.
    public var exitCode: Int32 { status.code }
}
