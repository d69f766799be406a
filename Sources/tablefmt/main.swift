#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FormatEngine

/// Wires the world to the engine: argv and environment → options, files, exit codes (E1).
func runTool() -> Int32 {
    signal(SIGPIPE, SIG_IGN)  // a closed pipe becomes EPIPE, a quiet stop (E3)
    OpenFileLimit.raise()  // a `--sort` beyond memory merges up to 64 runs at once, each a file
    let invocation: Invocation
    do {
        invocation = try Arguments.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
        printError("tablefmt: \(error.message)")
        printError("try 'tablefmt --help'")
        return ExitStatus.usage.code
    }
    let sink = DescriptorSink(fd: 1)
    if let text = informationRequested(invocation) {
        let buffer = OutputBuffer(sink)
        do { try buffer.write(text); try buffer.flush() } catch { return error == .closed ? 0 : ExitStatus.ioFailed.code }
        return 0
    }
    var options = invocation.options
    options.format = outputFormat(invocation)
    // Markdown and HTML hold every cell exactly: no width from the terminal, only from --width (O4, O6).
    options.width = options.format == .markdown || options.format == .html ? invocation.width.flatMap { $0 > 0 ? $0 : nil } : containerWidth(invocation.width)
    if let debug = getenv("TABLEFMT_DEBUG").map({ String(cString: $0) }), debug.split(separator: ",").contains("layout") {
        options.explainLayout = true
    }

    let files = invocation.files.isEmpty ? ["-"] : invocation.files
    let when: ViewWhen
    do { when = try viewWhen(invocation) } catch {
        printError("tablefmt: \(error.message)")
        return ExitStatus.usage.code
    }
    if options.format == .html && !options.htmlFragment && files.count > 1 {
        printError("tablefmt: -f html writes one page, for one input; name one file, or add --fragment for a table per file")
        printError("try 'tablefmt --help'")
        return ExitStatus.usage.code
    }
    if when == .always && files.count > 1 {
        printError("tablefmt: --view always shows one input; name one file")
        printError("try 'tablefmt --help'")
        return ExitStatus.usage.code
    }
    if options.follow && files.count > 1 {
        printError("tablefmt: --follow follows one input; name one file")
        printError("try 'tablefmt --help'")
        return ExitStatus.usage.code
    }
    if files.count == 1 && (when == .always || (when == .auto && autoMayView(invocation, options))) {
        return viewOrPrint(files[0], options, when, color: viewColors(invocation), sink)
    }
    guard files.count > 1 else { return formatOne(files[0], options, sink) }
    // I9: one table per file, each titled by its name; a bad file is reported and the rest still
    // print; the exit status is the worst (highest) one.
    var status: Int32 = 0
    var printed = false
    for file in files {
        var each = options
        let name = file == "-" ? "<stdin>" : file
        each.title = options.title.map { "\($0) — \(name)" } ?? name
        // No blank line between fragments: it would end the HTML block in Markdown (O6).
        let result = formatOne(file, each, sink, separated: printed && !options.htmlFragment)
        printed = printed || result != ExitStatus.cannotOpen.code
        if result == closedOutput { return status }
        status = max(status, result)
    }
    return status
}

/// Not a status any run returns: standard output was closed, so later files are not read.
let closedOutput: Int32 = -1

/// What `--help`, `-h`, `--version` or `--generate` print, if one was asked for.
func informationRequested(_ invocation: Invocation) -> String? {
    if let kind = invocation.generate { return Help.completion(kind) }
    switch invocation.help {
    case .short?: return Help.short + "\n"
    case .full?: return Help.full(width: min(Terminal.isTerminal(1) ? Terminal.width(1) ?? 80 : 80, 100)) + "\n"
    case nil: break
    }
    return invocation.showVersion ? Arguments.version + "\n" : nil
}

/// A blank line (between two files' tables).
func blankLine(_ sink: any OutputSink) throws(OutputError) {
    let buffer = OutputBuffer(sink)
    try buffer.write("\n")
    try buffer.flush()
}

/// Formats one file (or "-", standard input) and reports what went wrong on standard error.
/// - Parameter separated: a blank line goes before the table, once the file has opened.
/// - Returns: the exit status for this file, or `closedOutput` when the reader went away.
func formatOne(_ file: String, _ options: FormatOptions, _ sink: any OutputSink, separated: Bool = false) -> Int32 {
    let result: RunResult
    do {
        if options.follow {
            result = try followPrinted(file, options, sink)
        } else if file != "-" {
            let input = try FileInput(path: file)
            if separated { try blankLine(sink) }
            result = try run(input, options, sink)
        } else {
            if separated { try blankLine(sink) }
            result = try run(StandardInput(), options, sink)
        }
    } catch let error as InputError {
        printError("tablefmt: \(error)")
        return error.exitCode
    } catch let error as OutputError {
        return writeFailed(error, closed: closedOutput)
    } catch let error as FormatError {
        return writeFailed(error, closed: closedOutput)
    } catch {
        printError("tablefmt: \(error)")
        return ExitStatus.internalError.code
    }
    return report(result)
}

/// Says on standard error what a run found (a usage error, the layout's reasons, warnings, the
/// data error) and gives its exit status.
func report(_ result: RunResult) -> Int32 {
    if let usage = result.usageError {
        printError("tablefmt: \(usage)")
        printError("try 'tablefmt --help'")
        return ExitStatus.usage.code
    }
    for line in result.explanation { printError("tablefmt: layout: \(line)") }
    for warning in result.warnings { printError("tablefmt: warning: \(warning)") }
    if let error = result.error {
        printError("tablefmt: \(error)")
        return error.exitCode
    }
    return 0
}

func run(_ input: some InputProvider, _ options: FormatOptions, _ sink: any OutputSink) throws(FormatError) -> RunResult {
    try TableFormatter.run(input, options: options, output: sink)
}

/// E3: output that could not be written, from a sink (`OutputError`) or from a run
/// (`FormatError`): `closed` when its reader went away (nothing said), else 74 after
/// `tablefmt: write error: <the system's reason>`.
func writeFailed(_ error: any Error, closed: Int32) -> Int32 {
    switch error {
    case OutputError.closed:
        return closed
    case let error as FormatError where error.kind == .outputClosed:
        return closed
    case OutputError.failed(let reason):
        printError("tablefmt: write error: \(reason)")
    case let error as FormatError:
        printError("tablefmt: \(error.message)")
    default:
        printError("tablefmt: write error: \(error)")
    }
    return ExitStatus.ioFailed.code
}

/// O1: `-f` if given; else `--color always` (or FORCE_COLOR / CLICOLOR_FORCE) means ansi and
/// `--color never` plain; else ansi when stdout is a terminal, NO_COLOR is unset and TERM is not dumb.
func outputFormat(_ invocation: Invocation) -> OutputFormat {
    if let format = invocation.format { return format }
    func set(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
    switch invocation.color {
    case "always": return .ansi
    case "never": return .plain
    default: break
    }
    if let force = set("FORCE_COLOR") ?? set("CLICOLOR_FORCE"), force != "0", force != "false" { return .ansi }
    if set("NO_COLOR") != nil { return .plain }
    if set("TERM") == "dumb" { return .plain }
    return Terminal.isTerminal(1) ? .ansi : .plain
}

/// V3: whether the view may use colours: not with `--color never`, `NO_COLOR` or a dumb terminal
/// (then the current row is in reverse video); `-f` does not matter, the view draws on the terminal.
func viewColors(_ invocation: Invocation) -> Bool {
    if invocation.color == "never" { return false }
    if invocation.color == "always" { return true }
    if let value = getenv("NO_COLOR"), value.pointee != 0 { return false }
    return getenv("TERM").map { String(cString: $0) } != "dumb"
}

/// W1: `--width`, else the terminal's width, else `$COLUMNS`, else unlimited. 0 is unlimited.
func containerWidth(_ requested: Int?) -> Int? {
    if let requested { return requested > 0 ? requested : nil }
    if Terminal.isTerminal(1), let width = Terminal.width(1) { return width }
    if let columns = getenv("COLUMNS").map({ String(cString: $0) }), let width = Int(columns), width > 0 { return width }
    return nil
}

exit(max(0, runTool()))
