/// Every exit status tablefmt ends with (E1), in one place: the library's errors say theirs
/// (`InputError.status`), the command line returns them, and `--help` lists them from here.
/// The statuses of errors follow sysexits.h.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    /// An unknown option, a bad value, a column that does not exist (EX_USAGE).
    case usage = 64
    /// Malformed input, or compressed input that cannot be read (EX_DATAERR).
    case malformedInput = 65
    /// An input cannot be opened (EX_NOINPUT).
    case cannotOpen = 66
    /// An internal error: a bug (EX_SOFTWARE).
    case internalError = 70
    /// A read or write failed (EX_IOERR).
    case ioFailed = 74
    /// The terminal of the live view went away (128 + SIGHUP, as a shell reports a hang-up).
    case terminalGone = 129
    /// The live view was left with Ctrl-C (128 + SIGINT).
    case interrupted = 130

    /// The status as the process returns it.
    public var code: Int32 { rawValue }

    /// What it means, for `--help`.
    public var meaning: String {
        switch self {
        case .success: "success"
        case .usage: "bad usage: an unknown option, a bad value, a column that does not exist"
        case .malformedInput: "malformed or compressed-but-unreadable input (the rows before the fault are printed)"
        case .cannotOpen: "an input cannot be opened"
        case .internalError: "an internal error (a bug: please report it)"
        case .ioFailed: "a read or write error; --view always with no terminal"
        case .terminalGone: "the live view's terminal went away"
        case .interrupted: "the live view was left with Ctrl-C (nothing written; unsaved edits asked about first)"
        }
    }
}
