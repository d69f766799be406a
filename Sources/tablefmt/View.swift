#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FormatEngine
import Support

/// V1: `--view`, else `TABLEFMT_VIEW`, else auto.
func viewWhen(_ invocation: Invocation) throws(UsageError) -> ViewWhen {
    if let when = invocation.view { return when }
    guard let value = getenv("TABLEFMT_VIEW").map({ String(cString: $0) }), !value.isEmpty else { return .auto }
    guard let when = ViewWhen(rawValue: value) else {
        throw UsageError(message: "invalid value '\(value)' in TABLEFMT_VIEW (expected auto, always, never)")
    }
    return when
}

/// Whether `auto` may open the view: standard output is a terminal that can place the cursor
/// (`TERM` set and not `dumb`), and nothing on the command line asked for a printed shape (`-f`,
/// `--width`, `--layout`, a layout explanation).
func autoMayView(_ invocation: Invocation, _ options: FormatOptions) -> Bool {
    let term = getenv("TERM").map { String(cString: $0) } ?? ""
    return Terminal.isTerminal(1) && !term.isEmpty && term != "dumb"
        && invocation.format == nil && invocation.width == nil && options.layout == .auto && !options.explainLayout
}

/// How much of an input `auto` reads ahead to decide whether its table fits the screen: more
/// than a screen of any table holds.
let peekLimit = 1 << 20

/// V1: the view, or the printed table when `auto` finds that it fits the screen.
func viewOrPrint(_ file: String, _ options: FormatOptions, _ when: ViewWhen, color: Bool, _ sink: any OutputSink) -> Int32 {
    // Rows typed at the terminal and keys from the same terminal cannot both be read.
    if file == "-" && Terminal.isTerminal(0) {
        if when == .auto { return formatOne(file, options, sink) }
        printError("tablefmt: --view always reads its keys from the terminal: give a file, or pipe the rows in")
        printError("try 'tablefmt --help'")
        return ExitStatus.usage.code
    }
    let tty = open("/dev/tty", O_RDWR | O_NOCTTY)
    guard tty >= 0 else {
        if when == .auto { return formatOne(file, options, sink) }
        printError("tablefmt: --view always needs a terminal: /dev/tty: \(systemMessage(errno))")
        return ExitStatus.ioFailed.code
    }
    defer { close(tty) }
    // Keys typed while the view gets ready are kept for it, not echoed over the screen (V8).
    TerminalSession.hush(tty)
    defer { TerminalSession.unhush() }
    let size = Terminal.size(tty) ?? (width: 80, height: 24)
    let input: any InputProvider
    do {
        input = options.follow ? try followedInput(file, options, stop: -1) : file == "-" ? StandardInput() as any InputProvider : try FileInput(path: file)
    } catch {
        printError("tablefmt: \(error)")
        return error.exitCode
    }
    guard when == .auto && !options.follow else { return view(input, options, tty: tty, color: color, sink) }
    let peeked: PeekedInput
    do {
        // A writer that never pauses opens the view once a screen's rows or a second's are read (V1).
        // A terminal gone while the writer has not begun (SIGHUP ignored) ends the wait (V8).
        peeked = try PeekedInput(input, limit: peekLimit, pause: InputOptions.windowPause, lines: size.height, within: 1000,
                                 abandoned: { TerminalSession.isGone(tty) })
    } catch {
        printError("tablefmt: \(error)")
        return error.exitCode
    }
    if peeked.isAbandoned { return terminalGoneStatus }
    if peeked.ended {
        // All of it read: drawn as it would print; shown so when it fits the screen whole.
        let memory = MemorySink()
        var sized = options
        sized.width = size.width
        let result: RunResult
        do { result = try TableFormatter.run(peeked, options: sized, output: memory) } catch { return formatOne(file, options, sink) }
        let lines = memory.bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        if result.usageError != nil || (result.wholeTable && lines < size.height) {
            do {
                try sink.write(memory.bytes)
            } catch {
                return error == .closed ? 0 : ExitStatus.ioFailed.code
            }
            return report(result)
        }
        // A regular file is viewed from the file (found again where it is, V7), not from the copy.
        return view(input.isRereadable ? input : peeked, options, tty: tty, color: color, sink)
    }
    // A pipe that paused with less than a screen: printed, the rest streaming as it comes (P4).
    if peeked.paused && peeked.lines < size.height {
        do { return report(try TableFormatter.run(peeked, options: options, output: sink)) } catch { return error.kind == .outputClosed ? 0 : ExitStatus.ioFailed.code }
    }
    return view(input.isRereadable ? input : peeked, options, tty: tty, color: color, sink)
}

/// Runs the view on the terminal `tty` until `q` or `Ctrl-C`, then writes the selected rows.
func view(_ input: any InputProvider, _ options: FormatOptions, tty: Int32, color: Bool, _ sink: any OutputSink) -> Int32 {
    // The spool's temporary file is made by the loader only for rows it spools: a CSV or TSV file
    // found again where it is (V7) needs none, and one that cannot be made ends the run before the
    // view opens (exit 74).
    let store = RowStore()
    let loader = ViewLoader(store: store)
    loader.start(input, options: options)
    let size = Terminal.size(tty) ?? (width: 80, height: 24)
    // The first screen as soon as its rows are there (V7); a terminal gone meanwhile (SIGHUP
    // ignored, V8) ends the wait, and so does a reader waiting for its writer (a followed file
    // with no whole row yet, I10: the view says it waits); a followed file's wait is short.
    var progress = loader.wait(forRows: 1, milliseconds: 100)
    for _ in 0..<(options.follow ? 9 : 99) where !progress.done && progress.rows < 1 && progress.waitingSince == nil {
        if TerminalSession.isGone(tty) { return terminalGone(loader) }
        progress = loader.wait(forRows: 1, milliseconds: 100)
    }
    if !progress.done { progress = loader.wait(forRows: size.height, milliseconds: 150) }
    if progress.columns.isEmpty && progress.done {
        // Nothing to view (an empty input, or an error before the first row): as printed.
        if let error = progress.error {
            printError("tablefmt: \(error)")
            return error.exitCode
        }
        return 0
    }
    if let usage = TableFormatter.columnProblem(options, columns: progress.columns) {
        printError("tablefmt: \(usage)")
        printError("try 'tablefmt --help'")
        return ExitStatus.usage.code
    }
    // Sorts, filters and searches run on a thread of their own, so keys work meanwhile (V8).
    let model = ViewModel(loader: loader, options: options, source: input.name, color: color, width: size.width, height: size.height, runner: ViewRunner(.background))
    if let followed = input as? FollowedFile { model.notices = { followed.notice } }
    model.enableSaving(input, options: options)
    let session = TerminalSession(tty: tty)
    let end = session.run(model)
    model.stop()
    guard end == .model else { return terminalGone(loader) }
    loader.cancel()

    let final = loader.progress
    var status: Int32 = 0
    if model.exit == .interrupt {
        status = ExitStatus.interrupted.code
    } else if model.hasSelection {
        status = TerminalSession.watching(tty) { writeSelection(model, options: options, source: input.name, tty: tty, sink) }
    }
    for warning in final.warnings { printError("tablefmt: warning: \(warning)") }
    if let error = final.error ?? store.problem {
        printError("tablefmt: \(error)")
        if status == 0 { status = error.exitCode }
    }
    return status
}

/// Exit status when the view's terminal went away without SIGHUP ending tablefmt (SIGHUP
/// ignored, or not sent): the status a shell gives a run SIGHUP ends (V8).
let terminalGoneStatus = ExitStatus.terminalGone.code

/// V8: the terminal went away (hung up, closed, a read or write failed): the reading stops,
/// nothing is written (as `Ctrl-C`), exit 129. Only standard error hears of it.
func terminalGone(_ loader: ViewLoader) -> Int32 {
    loader.cancel()
    printError("tablefmt: the terminal went away: the view ended, nothing written")
    return terminalGoneStatus
}

/// V6: the selected rows, as CSV when standard output is redirected, else printed as a table
/// (the CSV written to a temporary file first, so no selection is held in memory; a signal that
/// ends tablefmt meanwhile removes it). A terminal that goes away meanwhile ends it, exit 129.
func writeSelection(_ model: ViewModel, options: FormatOptions, source: String, tty: Int32, _ sink: any OutputSink) -> Int32 {
    do {
        guard Terminal.isTerminal(1) else {
            try model.writeSelection(to: OutputBuffer(sink))
            return 0
        }
        guard let temporary = NamedTemporaryFile(in: TemporaryFiles.directory, prefix: "tablefmt-picked") else {
            printError("tablefmt: cannot make a temporary file in \(TemporaryFiles.directory): \(systemMessage(errno))")
            return ExitStatus.ioFailed.code
        }
        defer { temporary.remove() }
        try model.writeSelection(to: OutputBuffer(DescriptorSink(fd: temporary.fd)))
        close(temporary.fd)
        let picked = try? FileInput(path: temporary.path)
        temporary.remove()
        guard let picked else { return ExitStatus.ioFailed.code }
        var again = options
        again.inputFormat = .csv
        again.delimiter = UInt8(ascii: ",")
        again.header = true
        again.encoding = nil
        again.columns = nil
        again.sort = []
        again.groupBy = nil
        again.limit = nil
        return report(try TableFormatter.run(picked, options: again, output: sink))
    } catch {
        // Printed to a terminal that went away (EIO, SIGHUP ignored): as the view's own end.
        if TerminalSession.isGone(tty) { return terminalGoneStatus }
        return writeFailed(error, closed: 0)
    }
}
