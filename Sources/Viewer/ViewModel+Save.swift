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
import Dispatch

/// Where a view's edits are saved (V10): the input it read, and what its file on disk must still
/// be for `w` to write over it (as it was opened, then as last saved).
package final class ViewSaving {
    let input: any InputProvider
    let options: FormatOptions
    /// The file's path, nil for standard input; after a save under a name, that name (the view
    /// now edits that file).
    var path: String?
    var expected: SaveFile.Identity?
    /// The input's file as the view read it: the rows are copied while its first bytes are those.
    let read: SaveFile.Identity?
    /// Why the file cannot be written where it is (a pipe, gzip), nil when it can.
    let noSaveInPlace: String?
    /// Why the table cannot be edited at all (a JSON document), nil when it can.
    let readOnly: String?
    /// JSON Lines (whose lines are found as the view opens, on a thread of their own: a field's
    /// first edit needs its row's line, and a key must not wait for a scan of the whole file).
    let jsonLines: Bool
    /// Finds the lines (`LineFinder`), when the table is JSON Lines that can be edited.
    let lineFinder: LineFinder?

    /// Saving for `input`, read with `options`. A regular file is looked at once more (its header,
    /// through a descriptor of its own) to tell a JSON document from JSON Lines.
    /// - Parameter findLines: start finding JSON Lines' lines at once (a test starts them later,
    ///   `lineFinder.start()`, to see an edit asked for before they are found).
    package init(input: any InputProvider, options: FormatOptions, findLines: Bool = true) {
        self.input = input
        self.options = options
        path = input.path
        expected = input.path.flatMap { SaveFile.identity(path: $0) }
        read = randomAccess(of: input).flatMap { SaveFile.identity(fd: $0.fd) }
        var reason: String?
        var lines = false
        // Only a regular file: a named pipe opened again would lose the rows read from it.
        if input.isRereadable, let path = input.path, let again = try? FileInput(path: path), again.isRereadable, var table = try? TableInput(again, options: options.input) {
            reason = Self.readOnly(&table, path: path)
            lines = table.choice.format == .json || table.choice.format == .jsonl
        }
        if options.follow {
            // Its rows are never all read: a save would never be allowed, so no edit is taken.
            reason = "a followed file is read-only: its rows are still coming (open it without --follow to edit it)"
        }
        readOnly = reason
        jsonLines = lines && reason == nil
        noSaveInPlace = TableSave.refusal(input, format: nil)
        lineFinder = jsonLines ? randomAccess(of: input).map { LineFinder(file: $0, input: input) } : nil
        if findLines { lineFinder?.start() }
    }
}

extension ViewSaving {
    /// How many bytes were appended to the file the view read since it read it (the same file,
    /// grown); 0 otherwise. A save copies only the bytes read.
    func appendedSinceRead() -> Int64 {
        guard let read, let path = input.path, let now = SaveFile.identity(path: path),
              now.device == read.device, now.inode == read.inode else { return 0 }
        return max(0, now.contents.size - read.contents.size)
    }
}

extension ViewSaving {
    /// Why a file the view read can be viewed but not edited (a save could not write it), nil
    /// when it can: a JSON document; JSON Lines not in UTF-8, or with lines ended by CR alone.
    static func readOnly(_ table: inout TableInput, path: String) -> String? {
        guard (try? TableSave.isJSONDocument(&table)) == false else { return "a JSON document is read-only (JSON Lines can be edited)" }
        guard table.choice.format == .json || table.choice.format == .jsonl else { return nil }
        let encoding = table.stream.encoding
        guard encoding == .utf8 else { return "JSON Lines in \(encoding.rawValue) is read-only (UTF-8 JSON Lines can be edited)" }
        // Lines ended by CR alone: the first 64 KiB tell.
        guard let file = try? FileInput(path: path), let fd = file.randomAccess?.fd,
              let size = FileIdentity.of(fd)?.size else { return nil }
        let count = Int(min(size, 1 << 16))
        var head = [UInt8](repeating: 0, count: count)
        guard readFully(fd, into: &head, count: count, at: 0) else { return nil }
        if head.contains(0x0D), !head.contains(0x0A) { return "JSON Lines with lines ended by CR alone is read-only" }
        return nil
    }
}

extension ViewSaving {
    /// JSON Lines: why row `id`'s member `name` cannot be edited — which member of its line it
    /// is, is not clear (a key twice…), so a save would refuse it — nil when it can.
    func unclearMember(row id: Int, name: String) -> String? {
        if let pending = linesPending { return pending }
        guard let line = line(id), let reason = JSONLine.unclear(line, name: name) else { return nil }
        return "this field is read-only: \(reason), so which value it is, is not clear (a save could not write it)"
    }

    /// JSON Lines: row `id`'s member `name` as written in its line when it is an array or an
    /// object (the editor opens it as that JSON, and JSON typed over it is saved as JSON); nil
    /// for any other value.
    func structuredMember(row id: Int, name: String) -> [UInt8]? {
        guard let line = line(id), let raw = try? JSONLine.memberValue(line, name: name),
              raw.first == UInt8(ascii: "[") || raw.first == UInt8(ascii: "{") else { return nil }
        return Array(raw)
    }

    /// JSON Lines: row `id`'s line (without its line break), read from the file; nil when it
    /// cannot be read, or its lines are not found yet (`linesPending`).
    private func line(_ id: Int) -> [UInt8]? {
        guard jsonLines, id >= 0, let file = randomAccess(of: input), let lines = lineFinder?.found, id < lines.starts.count else { return nil }
        let end = id + 1 < lines.starts.count ? lines.starts[id + 1] : lines.end
        let start = lines.starts[id]
        var line = [UInt8](repeating: 0, count: Int(end - start))
        guard readFully(file.fd, into: &line, count: line.count, at: start) else { return nil }
        return Array(line.prefix { $0 != 0x0A })
    }

    /// Why JSON Lines' fields cannot be edited yet: their lines are still being found (how far),
    /// or could not be; nil once they are found.
    var linesPending: String? {
        guard let lineFinder, lineFinder.found == nil else { return nil }
        if let failure = lineFinder.failure { return "this field is read-only: \(failure.message)" }
        return "finding the file's lines (\(lineFinder.percent)%): edit again in a moment"
    }
}

/// Finds where each line of a JSON Lines file starts (`TableSave.lineSpans`) on a thread of its
/// own, a MiB at a time, reporting how far it is; stopped when the view closes.
final class LineFinder: @unchecked Sendable {
    private let file: RandomAccess
    /// The input whose descriptor `file` is: kept open while the lines are read.
    private let input: any InputProvider
    /// How far the search is (bytes), and whether it is asked to stop.
    private let state = Locked<(done: Int64, stopped: Bool)>((0, false))
    /// The search, once started: the lines, or why they could not be found (nil: stopped).
    private var search: Background<Result<RowSpans.LineScan.Found, SaveError>?>?

    init(file: RandomAccess, input: any InputProvider) {
        self.file = file
        self.input = input
    }

    /// Starts finding the lines (once).
    func start() {
        guard search == nil else { return }
        // The search holds the finder, and so the input whose descriptor it reads, until it ends.
        search = Background { [self] in
            let size = FileIdentity.of(file.fd)?.size ?? 0
            let bom = TableSave.byteOrderMark(file.fd, .utf8)
            var done: Int64 = 0
            do throws(SaveError) {
                let found = try TableSave.lineSpans(file, size: size, bom: bom, name: input.name) {
                    defer { done = min(size, done + (1 << 20)) }
                    return state.withLock { s in
                        s.done = done
                        return !s.stopped
                    }
                }
                return state.withLock { $0.stopped } ? nil : .success(found)
            } catch {
                return .failure(error)
            }
        }
    }

    /// The lines, once found.
    var found: RowSpans.LineScan.Found? {
        if case .success(let found)?? = search?.value { return found }
        return nil
    }
    /// Why they could not be found.
    var failure: SaveError? {
        if case .failure(let failure)?? = search?.value { return failure }
        return nil
    }
    /// How far the search is, in percent of the file.
    var percent: Int {
        let size = max(1, file.identity.size)
        return Int(min(99, state.withLock { $0.done } * 100 / size))
    }

    /// Stops the search, and waits for its thread to end (the view is closing).
    func stop() {
        state.withLock { $0.stopped = true }
        _ = search?.wait()
    }

    /// Waits until the lines are found (tests).
    func wait() { _ = search?.wait() }
}

extension ViewModel {
    /// Lets the view edit and save `input` (the executable calls it as the view opens).
    package func enableSaving(_ input: any InputProvider, options: FormatOptions, findLines: Bool = true) {
        let saving = ViewSaving(input: input, options: options, findLines: findLines)
        self.saving = saving
        state.editing.readOnly = saving.readOnly
        state.editing.noSaveInPlace = saving.noSaveInPlace
        if saving.jsonLines {
            state.editing.locked = { [weak self] id, source in
                guard let self, let saving = self.saving else { return nil }
                let names = self.loader.progress.columns
                return names.indices.contains(source) ? saving.unclearMember(row: id, name: names[source]) : nil
            }
            state.editing.json = { [weak self] id, source in
                guard let self, let saving = self.saving else { return nil }
                let names = self.loader.progress.columns
                return names.indices.contains(source) ? saving.structuredMember(row: id, name: names[source]) : nil
            }
        }
    }

    /// Whether edits are waiting to be saved.
    package var unsaved: Bool { state.unsaved }

    /// Does the save a key asked for: to the file (`w`), or under a name (`W`), then leaves when
    /// asked (`q`, then `w`). A save refused (the file changed on disk, a value the encoding
    /// cannot hold) says why in the status line, and a changed file is offered under a name.
    func performSave() {
        guard let request = state.editing.request else { return }
        state.editing.request = nil
        guard let saving else {
            state.message = "this view cannot save"
            return
        }
        guard !state.loading else {
            state.message = "still reading the rows: save once every row is read"
            return
        }
        let (typed, quit): (String?, Bool) = switch request {
        case .save(let quit): (saving.path, quit)
        case .saveAs(let name, let quit): (name, quit)
        }
        guard let typed else {
            state.mode = .edit(.saveAs([], quit: quit))
            return
        }
        let target: String
        switch Self.saveName(typed) {
        case .success(let name): target = name
        case .failure(let refusal):
            state.message = refusal.message
            state.mode = .edit(.saveAs(Array(typed), quit: quit))
            return
        }
        guard !target.hasSuffix(".gz") else {
            state.message = "\(Sanitize.visible(target)): tablefmt does not write gzip; choose a name without .gz (gzip it after)"
            state.mode = .edit(.saveAs([], quit: quit))
            return
        }
        // The file's own name, however written (./data.csv): saved in place while it is there;
        // once deleted, written anew under it.
        let inPlace: Bool = switch request {
        case .save: true
        case .saveAs: saving.path.map { SaveFile.sameName(target, $0) && SaveFile.identity(path: target) != nil } ?? false
        }
        guard !inPlace || state.unsaved else {
            // Nothing to write: the file is left as it is (its inode and time too).
            state.message = "nothing to save"
            if quit { state.exit = .quit }
            return
        }
        // Bytes appended to the file read since it was read: not in a save (V10), so it says so.
        let appended = saving.appendedSinceRead()
        let edits = state.editing.edits
        let columns = loader.progress.columns
        let expected = inPlace ? saving.expected : nil
        let numbers = Set(state.profiles.indices.filter { state.profiles[$0].isNumeric })
        let (handedInput, options, read, rows, loaded, exports) = (Handed(saving.input), saving.options, saving.read, loader.store.file.current, state.loaded, saving.noSaveInPlace != nil)
        let (edited, dialect, header) = (Handed(self.rows), loader.progress.dialect ?? Dialect.csv(), saving.options.input.header)
        // The save runs off the key loop (V10): keys are answered meanwhile, `Esc` stops it.
        let wake = loader.wake
        let progress = SaveProgress { wake.current?() }
        let job: @Sendable () -> Result<SaveFile.Identity, SaveError> = {
            let input = handedInput.value  // read here only: every row is read, the loader is done
            do throws(SaveError) {
                if !exports {
                    return .success(try TableSave.save(input, options: options, read: read, to: target, expected: expected, edits: edits, rows: rows, loaded: loaded, columns: columns, numbers: numbers, progress: progress))
                }
                return .success(try SaveFile.replace(target, expected: expected) { (out) throws(SaveError) in
                    try Self.export(to: out, target: target, columns: columns, rows: edited.value, edits: edits, loaded: loaded,
                                    dialect: dialect, header: header, sourceName: input.name, progress: progress)
                })
            } catch {
                return .failure(error)
            }
        }
        let inline = runner.mode != .background
        let work = SaveWork(target: target, quit: quit, appended: appended, progress: progress,
                            Background(inline: inline, job, whenDone: { wake.current?() }))
        running = work
        state.savingNote = work.note
        if inline { takeSaved() }
    }

    /// Takes in the running save's progress, or its end: the file saved (the edits marked saved,
    /// `saved to …`), or why not. - Returns: whether anything changed.
    @discardableResult
    func takeSaved() -> Bool {
        guard let work = running else { return false }
        guard let outcome = work.outcome else {
            let note = work.note
            guard note != state.savingNote else { return false }
            state.savingNote = note
            return true
        }
        running = nil
        state.savingNote = nil
        guard let saving else { return true }
        switch outcome {
        case .success(let written):
            saving.expected = written
            // Saved under a name: the view now edits that file, and w saves there.
            saving.path = work.target
            state.source = work.target
            state.editing.noSaveInPlace = nil
            state.savedEdits()
            state.message = "saved to \(Sanitize.visible(work.target))"
                + (work.appended > 0 ? " (without the \(Wording.grouped(Int(work.appended))) bytes added to \(Sanitize.visible(saving.input.name)) since it was opened)" : "")
            if work.quit || quitAfterSave { state.exit = .quit }
        case .failure(let error):
            state.message = error.message
            if error.offerSaveAs { state.mode = .edit(.saveAs([], quit: work.quit)) }
        }
        quitAfterSave = false
        return true
    }

    /// A key while a save runs: `Esc` stops it, `q` leaves once it is done; other keys as ever
    /// (the state refuses edits meanwhile). - Returns: whether the key was taken here.
    func saveKey(_ key: ViewKey) -> Bool {
        guard let work = running, state.mode == .table || state.isDetail else { return false }
        switch key {
        case .escape:
            work.progress.stop()
            state.message = "stopping the save…"
        case .character("q"):
            quitAfterSave = true
            state.message = "leaving once the save is done (Esc stops it)"
        default: return false
        }
        return true
    }

    /// The view is ending: a save still running is stopped, and waited for (its temporary file
    /// removed), so nothing is left beside the file.
    func stopSaving() {
        saving?.lineFinder?.stop()
        guard let work = running else { return }
        work.progress.stop()
        work.waitUntilDone()
    }

    /// The file a name typed at `W` names: `~` and `~/…` are the home folder, `~user/…` that
    /// user's. - Returns: a refusal for a name that starts or ends with a space (seldom meant,
    /// and not seen in the prompt) or a `~user` with no such user.
    static func saveName(_ typed: String) -> Result<String, SaveError> {
        if typed.first?.isWhitespace == true || typed.last?.isWhitespace == true {
            return .failure(SaveError("\"\(Sanitize.visible(typed))\": a name that starts or ends with a space is not taken; type it without"))
        }
        guard typed.hasPrefix("~") else { return .success(typed) }
        let user = typed.dropFirst().prefix { $0 != "/" }
        let rest = typed.dropFirst(1 + user.count)
        guard let home = SaveFile.home(of: user.isEmpty ? nil : String(user)) else { return .failure(SaveError("\(Sanitize.visible(typed)): no such user as \(Sanitize.visible(String(user))) (its home folder is not known)")) }
        return .success(home + rest)
    }

    /// The rows as edited, in the input's delimiter (CSV for JSON), with a header unless it was
    /// read without one (a pipe or a compressed file, saved under a name: there is no file to
    /// copy rows from).
    /// The rows as edited, written to `out` in the input's dialect (a pipe's or a gzip file's
    /// rows, saved under a name). Everything it reads is handed to it: it runs off the key loop.
    private static func export(to out: Int32, target: String, columns: [String], rows: any ViewRows, edits: RowEdits, loaded: Int,
                               dialect: Dialect, header: Bool, sourceName: String, progress: SaveProgress) throws(SaveError) {
        let writer = TableSaver.Writer(out: out, source: -1, target: target, sourceName: sourceName)
        if header {
            try writer.write(SaveDialect.delimitedRow(columns.map { Array($0.utf8) }, dialect, quoteAll: false) + [0x0A])
        }
        var done = 0
        for piece in edits.runs(loaded: loaded) {
            let ids: [Int] = switch piece {
            case .rows(let range): Array(range)
            case .added(let id): [id]
            }
            for id in ids where !edits.deleted.contains(id) {
                let fields = rows.record(id).withFields { f in (0..<max(f.count, columns.count)).map { Array(f[$0]) } }
                try writer.write(SaveDialect.delimitedRow(fields, dialect, quoteAll: false) + [0x0A])
                done += 1
                if done & 4095 == 0 { try progress.advance(Int64(done), of: Int64(max(1, loaded))) }
            }
        }
        try writer.flush()
    }
}

extension ViewState {
    /// A save is done: deleted rows leave the view, the marks start again.
    mutating func savedEdits() {
        let gone = Set(editing.edits.commitDeletes(loaded: loaded).map { Int32($0) })
        editing.misfits.removeAll()
        guard !gone.isEmpty else { return }
        unselect(gone)
        if var filter {
            filter.ids.removeAll { gone.contains($0) }
            self.filter = filter
        }
        if let order { setOrder(order.filter { !gone.contains($0) }) }
        clampPosition()
    }
}

/// A save running off the key loop: where it writes, what it does after, and its end.
final class SaveWork: @unchecked Sendable {
    let target: String
    let quit: Bool
    /// Bytes added to the file since it was read (not in the save, and said).
    let appended: Int64
    let progress: SaveProgress
    /// The save itself.
    private let save: Background<Result<SaveFile.Identity, SaveError>>

    init(target: String, quit: Bool, appended: Int64, progress: SaveProgress, _ save: Background<Result<SaveFile.Identity, SaveError>>) {
        self.target = target
        self.quit = quit
        self.appended = appended
        self.progress = progress
        self.save = save
    }

    /// How the save ended, once it has.
    var outcome: Result<SaveFile.Identity, SaveError>? { save.value }

    func waitUntilDone() { _ = save.wait() }

    /// The status line's note: `saving to data.csv… 43% (Esc stops it)`.
    var note: String { "saving to \(Sanitize.visible(target))… \(Int(progress.fraction * 100))% (Esc stops it)" }
}
