import Save
import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
/// The view as the terminal loop drives it (V1–V8): the rows a `ViewLoader` reads, the
/// `ViewState` keys change, the work the state asks for done by a `ViewRunner`, and the frames
/// drawn from it. Everything here is pure but the loader's and the runner's threads; tests drive
/// it with keys (and, with a `manual` runner, the runner's messages) and read its frames.
package final class ViewModel {
    var state: ViewState
    let loader: ViewLoader
    package let runner: ViewRunner
    private var seen = -1
    /// The id of the work handed to the runner (0: none).
    private var handed = 0
    /// Where and how edits are saved (V10, ViewModel+Save.swift); nil: the view cannot save.
    package var saving: ViewSaving?
    /// The save running off the key loop, if one is (`takeSaved` takes in its end).
    var running: SaveWork?
    /// `q` pressed while a save ran: leave once it is done.
    var quitAfterSave = false

    /// The rows as edited: what is drawn, sorted, filtered, searched and written (V10).
    var rows: any ViewRows { state.editing.edits.isEmpty ? loader.store : EditedRows(loader.store, edits: state.editing.edits) }

    /// A view of what `loader` reads, on a `width` × `height` screen; its sorts, filters and
    /// searches done by `runner` (by default at the key that asks for them).
    package init(loader: ViewLoader, options: FormatOptions, source: String, color: Bool, width: Int, height: Int, runner: ViewRunner = ViewRunner(.inline)) {
        self.loader = loader
        self.runner = runner
        var options = options
        // V3: zebra backgrounds are the view's default (shown only where colours are).
        options.zebra = true
        state = ViewState(options: options, source: source, color: color, width: width, height: height)
        if let sort = options.sort.first { pendingSort = sort }
        _ = refresh()
        if options.follow { state.startFollowing() }
    }

    /// `--sort`'s first key, applied once its column is known (and every row read, V3).
    private var pendingSort: SortKey?
    /// What the input says of itself while it is followed (`--follow`: truncated, replaced, V9).
    package var notices: (@Sendable () -> FollowNotice?)?
    /// How many of its notices the view has said.
    var noticed = 0

    /// Takes in what the loader read and the runner said since the last call.
    /// - Returns: whether anything changed.
    package func refresh() -> Bool {
        let loaded = takeLoaded()
        let told = takeMessages()
        let followed = takeFollowing()
        let saved = takeSaved()
        return loaded || told || followed || saved
    }

    /// Takes in what the loader read since the last call. - Returns: whether anything changed.
    private func takeLoaded() -> Bool {
        var progress = loader.progress
        if let problem = loader.store.problem, progress.error == nil {
            // The file changed under the view (I7): said in the status line, exit 74 at the end.
            progress.error = problem
            progress.changes += 1
        }
        guard progress.changes != seen else { return false }
        seen = progress.changes
        state.keyed = progress.keyed
        state.update(columns: progress.columns, profiles: progress.profiles, rows: progress.rows, done: progress.done, error: progress.error, from: loader.store)
        if let key = pendingSort, !state.columns.isEmpty {
            pendingSort = nil
            state.requestSort(key)
        }
        handWork()
        return true
    }

    /// Hands the runner the work the state asks for, when it is not the one it has: the one
    /// before is cancelled (it was given up, or replaced).
    func handWork() {
        let wanted = state.running?.work
        guard wanted?.id ?? 0 != handed else { return }
        if handed != 0 { runner.cancel(handed) }
        handed = wanted?.id ?? 0
        if let wanted { runner.start(wanted, data: rows) }
    }

    /// Applies the runner's messages (the work they answer may ask for more: a sort waiting for
    /// a filter). - Returns: whether there were any.
    private func takeMessages() -> Bool {
        var any = false
        while true {
            let messages = runner.take()
            guard !messages.isEmpty else { return any }
            any = true
            for message in messages { state.apply(message, data: rows) }
            handWork()
        }
    }

    /// Hands the state a message as the runner would (tests with a `manual` runner).
    func deliver(_ message: ViewMessage) {
        state.apply(message, data: rows)
        handWork()
    }

    /// The view has ended: the running work stops, and the runner says nothing more.
    package func stop() {
        runner.stop()
        stopSaving()
    }

    /// Whether the loader has more to read.
    package var loading: Bool { state.loading }
    /// Lines of rows on the screen (the first screen waits for that many rows, or the end).
    package var bodyLines: Int { state.bodyLines }
    package var exit: ViewExit? { state.exit }

    package func handle(_ key: ViewKey) {
        if saveKey(key) { return }
        state.handle(key, data: rows)
        performSave()
        handWork()
        _ = takeMessages()
    }

    package func resize(width: Int, height: Int) { state.resize(width: width, height: height, data: rows) }

    /// Whether a sort, filter or search is running.
    package var working: Bool { state.running != nil }

    package func frame() -> [String] { state.frame(rows) }

    /// Whether any row is checked.
    package var hasSelection: Bool { !state.selected.isEmpty }

    /// Writes the checked rows, in the order shown, as CSV (RFC 4180) with a header of the shown
    /// columns' names as the input has them (V6), a row at a time (a selection of every row of a
    /// large file is never held).
    package func writeSelection(to out: OutputBuffer) throws(OutputError) {
        guard hasSelection else { return }
        let rows = self.rows
        let names = loader.progress.columns
        let sources = state.columns.map(\.source)
        var line: [UInt8] = []
        CSVText.appendRow(sources.map { Array(names[$0].utf8) }, to: &line)
        try line.withUnsafeBufferPointer { (bytes) throws(OutputError) in try out.write(bytes) }
        for row in 0..<state.count {
            let id = state.id(at: row)
            guard state.selected.contains(Int32(id)) else { continue }
            line.removeAll(keepingCapacity: true)
            rows.record(id).withFields { fields in
                CSVText.appendRow(sources.map { Array(fields[$0]) }, to: &line)
            }
            try line.withUnsafeBufferPointer { (bytes) throws(OutputError) in try out.write(bytes) }
        }
        try out.flush()
    }

    /// The checked rows as CSV (`writeSelection` into memory); nil when none is checked.
    func selectionCSV() -> [UInt8]? {
        guard hasSelection else { return nil }
        let sink = MemorySink()
        try? writeSelection(to: OutputBuffer(sink))
        return sink.bytes
    }
}

/// Writing CSV (RFC 4180) for `q` (V6): each field as the save writes it in a comma-separated
/// file (`SaveDialect.field`, V10), so the two write the same bytes for the same fields — quoted
/// when it holds a comma, a quote or a line break, or is its row's only field and empty (a blank
/// line would be skipped by a reader, `""` is one empty field); quotes inside doubled — and each
/// row ended with CR LF. A space at a field's start or end is written as it is, not quoted, as
/// the save writes it: RFC 4180 and the reader (I2) keep it.
enum CSVText {
    static func appendRow(_ fields: [[UInt8]], to out: inout [UInt8]) {
        out += SaveDialect.delimitedRow(fields, .csv(), quoteAll: false)
        out.append(contentsOf: [0x0D, 0x0A])
    }
}
