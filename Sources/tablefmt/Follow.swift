#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FormatEngine

/// The write end of the pipe a SIGINT while printing `--follow` writes to (P5): the followed
/// input reads it as its end, so the table is finished as at any end and nothing is half-written.
nonisolated(unsafe) private var stopWriter: Int32 = -1

private func onFollowInterrupt(_ number: Int32) {
    let saved = errno  // a handler leaves errno as it found it
    var byte: UInt8 = 1
    _ = write(stopWriter, &byte, 1)
    errno = saved
}

/// Makes SIGINT (Ctrl-C) end a printed `--follow` as its input's end, exit 0 (P5).
/// - Returns: the descriptor the followed input watches, -1 when no pipe could be made (then
///   SIGINT ends tablefmt as it would any print).
func installFollowStop() -> Int32 {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return -1 }
    _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
    stopWriter = ends[1]
    signal(SIGINT, onFollowInterrupt)
    return ends[0]
}

/// The input `--follow` reads (I10): a file watched by name, or standard input (a regular file
/// by its descriptor, else read as a pipe); `stop` (-1: none) ends it when readable.
func followedInput(_ file: String, _ options: FormatOptions, stop: Int32) throws(InputError) -> any InputProvider {
    // A CSV or TSV header written again at the start of a rotated file is not a row.
    let json = options.inputFormat == .json || options.inputFormat == .jsonl || file.hasSuffix(".json") || file.hasSuffix(".jsonl") || file.hasSuffix(".ndjson")
    guard file != "-" else { return FollowedFile(standardInput: stop, skipsRepeatedHeader: options.header && !json) }
    return try FollowedFile(path: file, stop: stop, skipsRepeatedHeader: options.header && !json)
}

/// `--follow` printed (P5): rows as they come, in the widths of the first rows, the headings
/// again every screenful when standard output is a terminal; Ctrl-C ends it, exit 0.
func followPrinted(_ file: String, _ options: FormatOptions, _ sink: any OutputSink) throws -> RunResult {
    let input = try followedInput(file, options, stop: installFollowStop())
    (input as? FollowedFile)?.onNotice = { printError("tablefmt: \($0)") }
    var printed = options
    if Terminal.isTerminal(1), let size = Terminal.size(1) { printed.headingsEvery = max(1, size.height - 3) }
    return try run(input, printed, sink)
}
